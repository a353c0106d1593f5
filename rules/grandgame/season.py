"""A combat season: orders for every unit, resolved in the rules' order. STUB: being written."""

from __future__ import annotations

import random

from maild.ruleset import Diagnostic, Order, PlacedOrder

from .reading import Read
from .report import Report
from .state import State

KINDS: frozenset[str] = frozenset()
LEAGUE_KINDS: frozenset[str] = frozenset()


def read_line(line: str) -> Read | str | None:
    return None


def check(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    return []


def resolve(state: State, turn: int, season: str, orders: dict[str, list[PlacedOrder]], rng: random.Random,
            report: Report) -> list[str] | None:
    """Resolve `season`; when units attack a Neutral Power, stop before anything moves and return who may
    contribute to the League (every player): the League's phase then opens and `resolve_league` goes on."""
    return None


def resolve_league(state: State, turn: int, season: str, orders: dict[str, list[PlacedOrder]],
                   rng: random.Random, report: Report) -> None:
    """The League's contributions, then the rest of the season."""
