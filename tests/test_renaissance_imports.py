"""The import graph of a game package: every arrow points one way (no cycle), and in Renaissance the rule modules sit
below the registry and the engine (docs/renaissance.md, "How the modules depend on each other").

The graph is read from the source with `ast`, imports inside functions included: an import moved into a function
to dodge a cycle is still an arrow of the graph.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"
INSTALLED_AS = "maild_rules"  # rules/<game> is installed as maild_rules.<game> (pyproject.toml)


@dataclass(frozen=True)
class Module:
    name: str  # dotted, from the package down: "renaissance.war.conflict"
    path: Path
    is_package: bool


@dataclass
class ImportGraph:
    edges: dict[str, set[str]]  # module -> the package's modules it imports
    unresolved: list[str]  # "module: the import" for every import of the package that names no module of it
    in_functions: list[tuple[str, str]]  # (module, the import) for every import written inside a function


def modules_of(package: Path) -> dict[str, Module]:
    found: dict[str, Module] = {}
    for path in sorted(package.rglob("*.py")):
        parts = [package.name, *path.relative_to(package).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = Module(".".join(parts), path, is_package)
    return found


def import_graph(package: Path) -> ImportGraph:
    """The arrows between the modules of `package` (a folder of rules/), from each module's own imports: relative
    (`from . import x`, `from .x import y`, `from ..war import z`) and absolute (`maild_rules.<game>...`). Importing
    a.b.c also runs the package a.b: an arrow to it is added unless it is the importer's own package (already
    running by then)."""
    modules = modules_of(package)
    graph = ImportGraph({name: set() for name in modules}, [], [])
    for module in modules.values():
        tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
        for node, in_function in _imports(tree):
            written = ast.unparse(node)
            for target in _targets(module, node, set(modules)):
                if target not in modules:
                    graph.unresolved.append(f"{module.name}: {written}")
                    continue
                graph.edges[module.name].update(_with_parents(target, module, modules))
            if in_function:
                graph.in_functions.append((module.name, written))
    for name, arrows in graph.edges.items():
        arrows.discard(name)
    return graph


def _imports(tree: ast.AST, in_function: bool = False) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for node in ast.iter_child_nodes(tree):
        if _type_checking_only(node):
            continue  # `if TYPE_CHECKING:` imports are for the type checker: they run nothing, they make no cycle
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, in_function
        inner = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        yield from _imports(node, inner)


def _type_checking_only(node: ast.AST) -> bool:
    if not isinstance(node, ast.If) or node.orelse:
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(module: Module, node: ast.Import | ast.ImportFrom, known: set[str]) -> Iterator[str]:
    """The package's modules an import names (a name imported from a module is that module; a name that is a
    submodule is the submodule). Yields a dotted name that may not exist, for the caller to report."""
    prefix = f"{INSTALLED_AS}."
    package = prefix + module.name.split(".")[0]

    def ours(name: str) -> bool:
        return name == package or name.startswith(package + ".")

    if isinstance(node, ast.Import):
        yield from (alias.name.removeprefix(prefix) for alias in node.names if ours(alias.name))
        return
    if node.level:
        base = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
        if node.level - 1 >= len(base):
            yield f"{'.' * node.level}{node.module or ''} (above the package)"
            return
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, *(node.module.split(".") if node.module else [])])
    elif node.module and ours(node.module):
        source = node.module.removeprefix(prefix)
    else:
        return
    submodules = [f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in known]
    yield from submodules
    if len(submodules) < len(node.names):
        yield source


def _with_parents(target: str, importer: Module, modules: dict[str, Module]) -> set[str]:
    own_packages = {".".join(importer.name.split(".")[:i]) for i in range(1, importer.name.count(".") + 2)}
    parts = target.split(".")
    parents = {".".join(parts[:i]) for i in range(1, len(parts))}
    return {target} | {p for p in parents if p in modules and p not in own_packages}


@dataclass(frozen=True)
class Knot:
    """Modules that import one another (a strongly connected component of more than one module), and one cycle
    through them: the modules in import order, the first repeated at the end."""

    members: frozenset[str]
    cycle: tuple[str, ...]

    def __str__(self) -> str:
        text = " -> ".join(self.cycle)
        others = sorted(self.members - set(self.cycle))
        return text + (f" (the knot also holds {', '.join(others)})" if others else "")


def knots(edges: dict[str, set[str]]) -> list[Knot]:
    found = [Knot(frozenset(c), tuple(_cycle_through(min(c), c, edges))) for c in _components(edges) if len(c) > 1]
    return sorted(found, key=lambda knot: knot.cycle)


def _components(edges: dict[str, set[str]]) -> list[set[str]]:
    # Tarjan's algorithm, iterative: the graphs are small but a recursion limit is no place for a test to fail.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, arrows = work[-1]
            step = next(arrows, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(edges[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                out.append(component)
    return out


def _cycle_through(start: str, component: set[str], edges: dict[str, set[str]]) -> list[str]:
    """The shortest way from `start` back to itself inside its component (breadth first, names in order)."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for step in sorted(edges[node] & component):
                if step == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if step not in came_from:
                    came_from[step] = node
                    following.append(step)
        frontier = following
    raise AssertionError(f"{start} is in no cycle")


def reached(edges: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for step in edges[todo.pop()]:
            if step not in seen:
                seen.add(step)
                todo.append(step)
    return seen


def describe(found: list[Knot]) -> str:
    return "; ".join(str(knot) for knot in found)


# ---- the games ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", [
    "renaissance",
    "jungle",
    "galilei",
    "venice",
    "grandgame",
])
def test_a_games_imports_point_one_way(game: str) -> None:
    graph = import_graph(RULES / game)
    assert graph.unresolved == [], "imports naming no module of the package"
    found = knots(graph.edges)
    assert not found, f"import cycles: {describe(found)}"


# ---- Renaissance: the layers ---------------------------------------------------------------------------------

REN = "renaissance"
# Imports written inside a function, each with why it is there. Nothing else may import late: a cycle is broken
# by moving the shared piece into a module below both, never by hiding the arrow in a function.
LATE_IMPORTS_ALLOWED = {
    # The package itself: `RULESET` is loaded on first use, so that a rule module (or its test) is imported
    # without the intake, the printout and the whole ruleset.
    ("renaissance", "from . import ruleset"),
}


@pytest.fixture(scope="module")
def ren() -> ImportGraph:
    return import_graph(RULES / REN)


def rule_modules() -> set[str]:
    """The modules whose functions carry out an order or are a step of the month (registry.py's tables)."""
    from maild_rules.renaissance.registry import HANDLERS, MONTH

    functions = [*HANDLERS.values(), *(row.fn for row in MONTH)]
    return {fn.__module__.removeprefix(f"{INSTALLED_AS}.") for fn in functions}


def test_no_rule_module_imports_the_engine_or_the_registry(ren: ImportGraph) -> None:
    modules = rule_modules()
    assert {"renaissance.commerce", "renaissance.families", "renaissance.war.conflict"} <= modules
    for name in sorted(modules):
        above = reached(ren.edges, name) & {"renaissance.engine", "renaissance.registry", "renaissance.ruleset"}
        assert not above, f"{name} imports {sorted(above)}"


def test_the_context_and_the_ratings_import_no_rule_module(ren: ImportGraph) -> None:
    rules = rule_modules()
    for base in ("renaissance.context", "renaissance.ratings"):
        below = reached(ren.edges, base)
        assert below <= {"renaissance.calendar", "renaissance.context"}, f"{base} imports {sorted(below)}"
        assert not below & rules


def test_the_registry_is_imported_by_the_engine_alone(ren: ImportGraph) -> None:
    importers = sorted(name for name, arrows in ren.edges.items() if "renaissance.registry" in arrows)
    assert importers == ["renaissance.engine"]
    assert "renaissance.registry" in reached(ren.edges, "renaissance.ruleset")


def test_no_import_is_hidden_in_a_function_without_its_reason(ren: ImportGraph) -> None:
    assert set(ren.in_functions) <= LATE_IMPORTS_ALLOWED, "an import inside a function: see LATE_IMPORTS_ALLOWED"


# ---- the graph reader, on a package made for it -------------------------------------------------------------

def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_reader_follows_every_form_of_import_and_names_the_cycle(tmp_path: Path) -> None:
    game = write(tmp_path / "toy", {
        "__init__.py": "",
        "base.py": "X = 1\n",
        "a.py": "from . import base\nfrom .war import fight\n",
        "war/__init__.py": "",
        "war/fight.py": "from ..base import X\n\ndef late():\n    from .. import c\n",
        "c.py": f"import {INSTALLED_AS}.toy.a\nfrom {INSTALLED_AS}.toy.base import X\n",
    })
    graph = import_graph(game)
    assert graph.edges["toy.a"] == {"toy.base", "toy.war", "toy.war.fight"}
    assert graph.edges["toy.war.fight"] == {"toy.base", "toy.c"}
    assert graph.edges["toy.c"] == {"toy.a", "toy.base"}
    assert graph.in_functions == [("toy.war.fight", "from .. import c")]
    assert describe(knots(graph.edges)) == "toy.a -> toy.war.fight -> toy.c -> toy.a"
    assert reached(graph.edges, "toy.base") == set()


def test_the_reader_reports_an_import_of_a_module_that_is_not_there(tmp_path: Path) -> None:
    game = write(tmp_path / "toy", {"__init__.py": "", "a.py": "from .gone import X\nfrom ... import far\n"})
    assert import_graph(game).unresolved == ["toy.a: from .gone import X", "toy.a: from ... import far"]
    assert knots(import_graph(game).edges) == []


def test_an_import_for_the_type_checker_only_is_no_arrow(tmp_path: Path) -> None:
    # `if TYPE_CHECKING:` runs nothing: a module that names the type of the one that calls it makes no cycle.
    game = write(tmp_path / "toy", {
        "__init__.py": "",
        "season.py": "from . import land\n",
        "land.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .season import Season\n",
    })
    graph = import_graph(game)
    assert graph.edges["toy.land"] == set() and graph.edges["toy.season"] == {"toy.land"}
    assert knots(graph.edges) == []
