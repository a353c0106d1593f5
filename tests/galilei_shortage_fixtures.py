"""Shared data for tests/test_galilei_shortage.py: six players in turn order and the example table."""

from __future__ import annotations

import tomllib

from maild.paths import EXAMPLES_DIR
from maild_rules.galilei.shortage import ShortageTable

# Seats 1 to 6 of a turn order.
ORDER = ["Venice", "Genoa", "Barcelona", "Paris", "London", "Hamburg"]


def example_table() -> ShortageTable:
    """The table shipped in examples/galilei/shortage.toml."""
    with (EXAMPLES_DIR / "galilei" / "shortage.toml").open("rb") as f:
        return ShortageTable.from_setup(tomllib.load(f)["shortage"]["table"])
