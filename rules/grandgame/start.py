"""The start of the game: countries picked by sealed-bid rounds by mail, regimes, initial Francs, the initial
purchase and the placement (section Starting the Game). STUB: being written."""

from __future__ import annotations

import random

from maild.ruleset import Diagnostic, Order, PlacedOrder

from .reading import Read
from .report import Report
from .state import State, board, player

PICKING_KINDS: frozenset[str] = frozenset()
PURCHASE_KINDS: frozenset[str] = frozenset()
PLACEMENT_KINDS: frozenset[str] = frozenset()


def read_line(line: str) -> Read | str | None:
    return None


def check(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    return []


def take_country(state: State, name: str, country: str, regime: str) -> None:
    """`name` takes `country` under `regime`: its land becomes his, his GDP is counted, his start recorded."""
    from .state import gdp

    p = player(state, name)
    p["country"], p["regime"] = country, regime
    for t in board(state).countries[country].territories:
        state["owners"][t] = name
    p["gdp"] = gdp(state, name)
    p["start_land"] = len(board(state).countries[country].territories)


def resolve_picking(state: State, round_no: int, orders: dict[str, list[PlacedOrder]], rng: random.Random,
                    report: Report) -> list[str] | None:
    """One round of the picking; returns who bids in the next round, or None when every player has a country."""
    raise NotImplementedError


def resolve_purchase(state: State, orders: dict[str, list[PlacedOrder]], rng: random.Random, report: Report) -> None:
    raise NotImplementedError


def resolve_placement(state: State, orders: dict[str, list[PlacedOrder]], rng: random.Random,
                      report: Report) -> None:
    raise NotImplementedError
