"""Where the data files that ship beside the code live."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR_DIR = ROOT / "grammar"
TEMPLATE_DIR = ROOT / "templates"
MIGRATIONS_DIR = ROOT / "migrations"
