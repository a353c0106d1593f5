"""Shared helpers for the Galilei engine tests: the example game's state and orders placed as by mail."""

from __future__ import annotations

import tomllib
from typing import Any

from maild.paths import EXAMPLES_DIR
from maild.ruleset import Order, PlacedOrder
from maild_rules.galilei import RULESET, orders

PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank"]


def example_setup() -> dict[str, Any]:
    with open(EXAMPLES_DIR / "galilei" / "setup.toml", "rb") as f:
        return tomllib.load(f)


def new_state(**changes: Any) -> dict[str, Any]:
    """The example game's state before turn 1, with `changes` to its setup."""
    setup = example_setup()
    setup.update(changes)
    return RULESET.new_game(setup)


def placed(texts: dict[str, tuple[str, int]]) -> dict[str, list[PlacedOrder]]:
    """player -> (order text, receipt sequence): every line parsed, each order placed with that sequence;
    every player of the example game has an entry (an empty list if he sent nothing)."""
    out: dict[str, list[PlacedOrder]] = {p: [] for p in PLAYERS}
    for player, (text, seq) in texts.items():
        parsed = orders.parse(text)
        assert not parsed.diagnostics, parsed.diagnostics
        out[player] = [PlacedOrder(o, seq) for o in parsed.orders]
    return out


def gm(kind: str, **args: Any) -> PlacedOrder:
    return PlacedOrder(Order(0, kind, kind, args, kind), 0)
