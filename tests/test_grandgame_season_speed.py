"""A season on a large board resolves quickly: 400 territories and about 3,000 units, every border of eight
countries attacked, rail moves and air orders, in less than 3 seconds (issue 24: no quadratic scans)."""

from __future__ import annotations

import random
import time
from typing import Any

from maild_rules.grandgame import season, start
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.ruleset import RULESET
from maild_rules.grandgame.state import DEMOCRACY, NEUTRAL, add
from tests.grandgame_season_support import orders

SIDE = 20  # a 20 x 20 grid of land territories: rows A..T, columns 1..20
PLAYERS = [f"p{i}" for i in range(8)]


def tid(r: int, c: int) -> str:
    return f"{chr(65 + r)}{c + 1}"


def big_map() -> dict[str, Any]:
    territories = []
    for r in range(SIDE):
        for c in range(SIDE):
            nxt = [tid(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                   if 0 <= r + dr < SIDE and 0 <= c + dc < SIDE]
            x, y = c * 10, r * 10
            territories.append({"id": tid(r, c), "name": f"Land {tid(r, c)}", "kind": "land", "next": nxt,
                                "railroad": r % 2 == 0, "at": [x + 5, y + 5],
                                "outline": [[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10]]})
    zones = [{"id": f"Z{r}x{c}", "name": f"Zone {r} {c}", "value": 4,
              "territories": [tid(r + i, c + j) for i in (0, 1) for j in (0, 1)]}
             for r in range(0, SIDE, 2) for c in range(0, SIDE, 2)]
    countries = [{"id": f"C{k}", "name": f"Country {k}", "size": "large",
                  "territories": [tid(r, c) for r in (2 * k, 2 * k + 1) for c in range(SIDE)]} for k in range(10)]
    return {"title": "Grid", "players": 8, "drawing": {"width": SIDE * 10, "height": SIDE * 10},
            "territory": territories, "zone": zones, "country": countries}


def big_game() -> dict[str, Any]:
    state = RULESET.new_game({"title": "Speed", "map": big_map(),
                              "players": [{"name": p, "email": f"{p}@example.org"} for p in PLAYERS]})
    for k, name in enumerate(PLAYERS):
        start.take_country(state, name, f"C{k}", DEMOCRACY)
    for r in range(SIDE):
        for c in range(SIDE):
            t = tid(r, c)
            if r < 16:
                who = PLAYERS[r // 2]
                add(state, t, who, "infantry", 7)
                add(state, t, who, "armor", 2)
                add(state, t, who, "supply", 6)
                if c % 4 == 0:
                    add(state, t, who, "aircraft", 1)
            else:
                add(state, t, NEUTRAL, "infantry", 1)
                add(state, t, NEUTRAL, "supply", 3)
    return state


def test_a_season_with_400_territories_and_3000_units_under_3_seconds() -> None:
    state = big_game()
    units = sum(n for sides in state["forces"].values() for s in sides.values() for k, n in s.items()
                if k != "supply")
    assert len(state["owners"]) == 400 and units >= 2900
    lines: dict[str, list[str]] = {}
    for k, name in enumerate(PLAYERS[:7]):
        front, back = 2 * k + 1, 2 * k
        mine = [f"7 inf, 2 arm {tid(front, c)} -> {tid(front + 1, c)} attack" for c in range(SIDE)]
        mine += [f"rail 3 inf {tid(back, 0)} -> {tid(back, SIDE - 1)}", "only 4 infantry use supply in "
                 + tid(back, 5)]
        mine += [f"1 air {tid(back, c)} -> Z{back if back % 2 == 0 else back - 1}x{c} land {tid(back, c)}"
                 for c in range(0, SIDE, 4)]
        lines[name] = mine
    placed = orders(**lines)
    report = Report()
    began = time.perf_counter()
    assert season.resolve(state, 1, "spring", placed, random.Random(1), report) is None
    took = time.perf_counter() - began
    assert took < 3.0, took
    assert len(report.public["Battles"]) > 100


def test_after_a_big_season_every_army_stands_on_its_own_land() -> None:
    # No permission was given, so every land stack is its holder's (a Neutral Power's on neutral land), and no unit
    # appeared from nowhere.
    state = big_game()

    def units() -> int:
        return sum(n for sides in state["forces"].values() for s in sides.values() for k, n in s.items()
                   if k != "supply")
    before = units()
    lines = {name: [f"7 inf, 2 arm {tid(2 * k + 1, c)} -> {tid(2 * k + 2, c)} attack" for c in range(SIDE)]
             + [f"7 inf {tid(2 * k + 2, c)} -> {tid(2 * k + 1, c)} attack" for c in range(0, SIDE, 3)]
             for k, name in enumerate(PLAYERS[:7])}
    season.resolve(state, 1, "winter", orders(**lines), random.Random(7), Report())
    assert units() < before
    for t, sides in state["forces"].items():
        for side in sides:
            assert side == (state["owners"][t] or NEUTRAL), (t, side, state["owners"][t])
