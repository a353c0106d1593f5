"""Turn numbers and months: each turn is one month of game time, starting from the setup's start month."""

from __future__ import annotations

from typing import Any

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def _index(state: dict[str, Any], turn: int) -> int:
    start = state["calendar"]
    return start["year"] * 12 + (start["month"] - 1) + (turn - 1)


def month_of(state: dict[str, Any], turn: int) -> int:
    return _index(state, turn) % 12 + 1


def year_of(state: dict[str, Any], turn: int) -> int:
    return _index(state, turn) // 12


def month_name(state: dict[str, Any], turn: int) -> str:
    return f"{MONTHS[month_of(state, turn) - 1]} {year_of(state, turn)}"


def turn_of(state: dict[str, Any], year: int, month: int) -> int:
    """The turn number of a month (may be before turn 1 or far ahead)."""
    start = state["calendar"]
    return (year * 12 + month - 1) - (start["year"] * 12 + start["month"] - 1) + 1
