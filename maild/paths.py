"""Where the data files that ship with maild live.

The source tree keeps them in top-level folders (`grammar/`, `templates/`, `migrations/`, `examples/`);
the wheel carries them as the packages `maild.grammar`, `maild.templates`, `maild.migrations` and
`maild.examples` (pyproject's package-dir), and an editable install maps the same names onto the checkout.
They are found with importlib.resources, so an installed maild works from any directory.
"""

import re
from importlib.resources import files
from pathlib import Path


def _data_dir(package: str) -> Path:
    # pip installs packages unzipped, so the traversable is a real directory: Lark, Jinja's loader and
    # Alembic all want a path.
    return Path(str(files(package)))


GRAMMAR_DIR = _data_dir("maild.grammar")
TEMPLATE_DIR = _data_dir("maild.templates")
MIGRATIONS_DIR = _data_dir("maild.migrations")
EXAMPLES_DIR = _data_dir("maild.examples")

EXAMPLE_PREFIX = "example:"
# What an example's name may be: one folder name of examples/, never a path (`example:../../etc` must not
# reach a file outside it, nor an absolute path replace it).
EXAMPLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


def setup_path(text: str, base_dir: Path) -> Path:
    """A setup file named in a config or on the command line: `example:NAME` is the example shipped with
    maild (`examples/NAME/setup.toml`), anything else a path relative to `base_dir`. Raises ValueError for
    an example name that is no plain name."""
    if text.startswith(EXAMPLE_PREFIX):
        return EXAMPLES_DIR / example_name(text[len(EXAMPLE_PREFIX):]) / "setup.toml"
    return base_dir / text


def example_name(name: str) -> str:
    """The folder of examples/ that `name` names: the folder of that name, else the one whose name is the same
    without its hyphens (`example:grandgame` is examples/grand-game, as `--ruleset grand-game` is grandgame)."""
    if not EXAMPLE_NAME.fullmatch(name):
        raise ValueError(f"{EXAMPLE_PREFIX}{name}: an example is named by a plain name (letters, digits, - and _), "
                         f"not a path; the examples shipped with maild are: {', '.join(shipped_examples())}")
    if (EXAMPLES_DIR / name).is_dir():
        return name
    plain = without_hyphens(name)
    return next((p.name for p in EXAMPLES_DIR.iterdir() if p.is_dir() and without_hyphens(p.name) == plain), name)


def without_hyphens(name: str) -> str:
    """A game's name as the code spells it: the words of `grand-game` run together (`grandgame`)."""
    return name.replace("-", "")


def shipped_examples() -> list[str]:
    return sorted(p.name for p in EXAMPLES_DIR.iterdir() if (p / "setup.toml").is_file())


def example_orders(name: str) -> dict[str, str]:
    """Orders players of the example `name` may send for its first turn: examples/NAME/orders/PLAYER.txt, by
    player name (the contract test mails them)."""
    folder = EXAMPLES_DIR / example_name(name) / "orders"
    if not folder.is_dir():
        return {}
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))}
