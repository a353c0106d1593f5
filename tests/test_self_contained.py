"""The project stands on its own: what ships names no file outside the checkout, and test modules share code
only through tests/conftest.py and plain helper modules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

# What a user who clones or installs maild gets; none of it may point at the design or rules folder the
# project was built from, which nobody else has (the design is docs/design.md, rules are cited by title).
SHIPPED = ["README.md", "config.example.toml", "docs", "maild", "rules", "templates", "examples", "grammar"]
OUTSIDE = re.compile(r"\.\./shared|shared/rules|shared/DESIGN")


def shipped_files() -> list[Path]:
    found: list[Path] = []
    for name in SHIPPED:
        path = ROOT / name
        found += [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()
                                                 and "__pycache__" not in p.parts]
    return found


def test_shipped_files_name_nothing_outside_the_checkout() -> None:
    files = shipped_files()
    assert any(p.name == "design.md" for p in files)  # the walk reaches docs/
    offenders = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
                 for p in files
                 for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
                 if OUTSIDE.search(line)]
    assert offenders == []


def imported_test_modules(path: Path) -> set[str]:
    """The `tests.test_*` modules `path` imports, in any spelling of the import."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = "tests" if node.level and node.module is None else (
                f"tests.{node.module}" if node.level else node.module or "")
            names.add(base)
            names |= {f"{base}.{a.name}" for a in node.names}
    return {n for n in names if re.fullmatch(r"tests\.test_\w+", n)}


def test_no_test_module_imports_another() -> None:
    modules = sorted(TESTS.glob("test_*.py"))
    assert len(modules) > 50
    offenders = {p.name: sorted(imported_test_modules(p)) for p in modules if imported_test_modules(p)}
    assert offenders == {}


def test_the_import_check_sees_every_spelling(tmp_path: Path) -> None:
    probe = tmp_path / "test_probe.py"
    probe.write_text("from tests.test_flow import drop\nfrom tests import test_imap, mailflow\n"
                     "import tests.test_cli\nfrom .test_kill import x\nfrom . import test_lock\n"
                     "from tests.mailflow import sent\nimport tests.conftest\n")
    assert imported_test_modules(probe) == {"tests.test_flow", "tests.test_imap", "tests.test_cli", "tests.test_kill",
                                   "tests.test_lock"}
