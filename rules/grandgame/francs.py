"""STUB: being written."""

from __future__ import annotations

import random

from maild.ruleset import Diagnostic, Order, PlacedOrder

from .reading import Read
from .report import Report
from .state import State

KINDS: frozenset[str] = frozenset()


def read_line(line: str) -> Read | str | None:
    return None


def check(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    return []


def resolve(state: State, turn: int, orders: dict[str, list[PlacedOrder]], rng: random.Random,
            report: Report) -> None:
    """Carry out this phase's orders of this kind."""
