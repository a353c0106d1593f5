"""The checkout the tests run from (for its docs/ and examples/ as files, not as installed data)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
