"""Secret victory cards: dealt at the end of the picking, checked after every phase, scored at the last turn.
STUB: being written."""

from __future__ import annotations

import random

from .report import Report
from .state import State


def deal(state: State, rng: random.Random, report: Report) -> None:
    """Deal every player his secret victory card (once every country is picked)."""


def winners(state: State) -> list[str]:
    """The players who meet their condition now (the game ends at once when there are any)."""
    return []
