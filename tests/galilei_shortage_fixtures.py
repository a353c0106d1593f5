"""Shared data for tests/test_galilei_shortage.py: six players in turn order and the example table."""

from __future__ import annotations

from maild_rules.galilei.shortage import ShortageTable

# Seats 1 to 6 of a turn order.
ORDER = ["Venice", "Genoa", "Barcelona", "Paris", "London", "Hamburg"]


def example_table() -> ShortageTable:
    """A setup's `[shortage_table]`, the commodity of each total 2 to 12, as these tests work their results."""
    return ShortageTable.from_setup({
        "2": "Ivory", "3": "Silk", "4": "Fur", "5": "Metal", "6": "Wine", "7": "Grain", "8": "Cloth",
        "9": "Timber", "10": "Wool", "11": "Spice", "12": "Gold"})
