"""Helpers for the season tests: orders as a player writes them, a season resolved, what the report says."""

from __future__ import annotations

import random
from typing import Any

from maild.ruleset import Order, PlacedOrder
from maild_rules.grandgame import season
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.state import add
from tests.grandgame_support import started


def game(no_cards: bool = True, owners: dict[str, str | None] | None = None) -> dict[str, Any]:
    """The example game with countries taken, no units; battle cards off unless asked (the figures of the rules
    are without cards); `owners` changes who holds what."""
    state = started()
    state["options"]["battle_cards"] = not no_cards
    for t, who in (owners or {}).items():
        state["owners"][t] = who
    return state


def put(state: dict[str, Any], territory: str, side: str, **units: int) -> None:
    """put(state, "E3", "alice", infantry=5, supply=5); light_fleet= and heavy_fleet= for fleets; cargo_x= aboard."""
    for key, n in units.items():
        cargo = key.startswith("cargo_")
        kind = key.removeprefix("cargo_").replace("_", " ")
        add(state, territory, side, kind, n, cargo=cargo)


def orders(**by_player: list[str] | str) -> dict[str, list[PlacedOrder]]:
    """{player: [PlacedOrder]} from lines; receipt order as listed, players in the call's order."""
    out: dict[str, list[PlacedOrder]] = {}
    seq = 0
    for name, lines in by_player.items():
        placed = []
        for number, line in enumerate([lines] if isinstance(lines, str) else lines, start=1):
            read = season.read_line(line)
            assert read is not None and not isinstance(read, str), (line, read)
            seq += 1
            placed.append(PlacedOrder(Order(number, line, read.kind, read.args, read.summary), seq))
        out[name] = placed
    return out


def resolve(state: dict[str, Any], season_name: str = "spring", seed: int = 1,
            **by_player: list[str] | str) -> tuple[Report, list[str] | None]:
    report = Report()
    result = season.resolve(state, 1, season_name, orders(**by_player), random.Random(seed), report)
    return report, result


def news(report: Report) -> str:
    """The newsletter as one text, lines joined (a wrapped sentence reads whole)."""
    return " ".join(" ".join(line.split()) for lines in report.public.values() for line in lines)


def mine(report: Report, player: str) -> str:
    return " ".join(" ".join(line.split()) for lines in report.private.get(player, {}).values() for line in lines)
