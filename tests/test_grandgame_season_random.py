"""Seasons of random orders on the example board, right and wrong ones mixed as players send them: the resolution
never fails, and the state stays whole (no count below one, land units only on land, what is at sea aboard
fleets, every land army on its holder's land, every line of the newsletter within 78 characters)."""

from __future__ import annotations

import copy
import random

import pytest

from maild_rules.grandgame import season
from maild_rules.grandgame.printout import sections_of
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.state import NEUTRAL, board, player
from tests.grandgame_season_support import game, orders, put

BASE = game(no_cards=False)
BOARD = board(BASE)
NAMES = [p["name"] for p in BASE["players"]]


def random_game(r: random.Random) -> dict:
    state = copy.deepcopy(BASE)
    for t, terr in BOARD.territories.items():
        if terr.land:
            who = state["owners"][t] or NEUTRAL
            put(state, t, who, infantry=r.randint(0, 4), armor=r.randint(0, 2), supply=r.randint(0, 4),
                aircraft=r.randint(0, 1))
            if terr.port and who != NEUTRAL:
                put(state, t, who, light_fleet=r.randint(0, 2), heavy_fleet=r.randint(0, 1))
        else:
            for who in r.sample(NAMES, 2):
                put(state, t, who, light_fleet=r.randint(0, 3), heavy_fleet=r.randint(0, 2),
                    cargo_infantry=r.randint(0, 1), cargo_supply=r.randint(0, 3))
    for name in NAMES:
        player(state, name)["francs"] = r.randint(0, 40)
        player(state, name)["bombs"] = r.randint(0, 1)
    return state


def random_line(r: random.Random) -> str:
    ts, zs = list(BOARD.territories), list(BOARD.zones)
    t = r.choice(ts)
    u = r.choice(sorted(BOARD.territories[t].neighbours))
    return r.choice([
        f"{r.randint(1, 5)} inf, {r.randint(0, 2)} arm {t} -> {u} attack",
        f"{r.randint(1, 5)} inf, {r.randint(0, 2)} arm {t} -> {u} attack",
        f"{r.randint(1, 3)} arm {t} -> {u} with {r.choice(NAMES)}",
        f"rail {r.randint(1, 3)} inf {t} -> {r.choice(ts)}",
        f"allow {r.choice(NAMES)} rail" + r.choice(["", " up to 2 units", " supplies only", " not in my cities"]),
        f"{r.randint(1, 2)} air {t} -> {r.choice(zs)} land {r.choice(ts)}",
        f"bomb zone {r.choice(zs)}", f"drop bomb on {r.choice(zs)}",
        f"{r.randint(1, 3)} lf {t} -> {u}" + r.choice(["", " with 1 inf"]),
        f"unload 1 inf {t} -> {u}", f"load 1 inf {t} onto {u}", f"destroy railroad {t}", f"reserve 1 inf {t}",
        f"losses {t} {r.choice(NAMES)}", f"attack {u} with {r.choice(NAMES)}", f"only 1 inf use supply in {t}",
    ])


@pytest.mark.parametrize("seed", range(40))
def test_a_season_of_random_orders_keeps_the_state_whole(seed: int) -> None:
    r = random.Random(seed)
    state = random_game(r)
    lines: dict[str, list[str]] = {name: [] for name in NAMES}
    for _ in range(150):
        lines[r.choice(NAMES)].append(random_line(r))
    report = Report()
    if season.resolve(state, 1, r.choice(["spring", "fall", "winter"]), orders(**lines), random.Random(seed), report):
        season.resolve_league(state, 1, "spring", orders(**{n: f"contribute {r.randint(0, 30)}" for n in NAMES}),
                              random.Random(seed), report)
    for t, sides in state["forces"].items():
        land = BOARD.territories[t].land
        for side, here in sides.items():
            assert all(n > 0 for k, n in here.items() if k != "cargo")
            assert all(n > 0 for n in here.get("cargo", {}).values())
            if land:
                assert "cargo" not in here
                if here.get("infantry") or here.get("armor"):
                    assert side == (state["owners"][t] or NEUTRAL), (t, side)
            else:
                assert not any(here.get(k) for k in ("infantry", "armor", "aircraft", "supply")), (t, side)
    assert all(len(line) <= 76 for s in sections_of(report.public) for line in s["lines"])
