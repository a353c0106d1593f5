"""Benchmark (not a test): a Grand Game season on a large board, and its pictures.

    .venv/bin/python bench/bench_grandgame.py [--units 3000] [--seed 1]

The board is bench/grandgame_bigmap.py's grid (about 400 territories: 380 land, 21 seas, 12 countries).
Twelve players take the twelve countries; `--units` infantry and armor are spread over their land with
supplies, and every player orders each of his border stacks to attack the neighbour across the border
(the rest hold). It times, in one run:

1. the season's resolution (`RULESET.resolve_phase(state, 1, "spring", orders, rng)`: orders read, every
   battle drawn, advances and retreats, the printouts' and newsletter's texts), and
2. its pictures: the PNG and SVG of the phase, drawn once and shared by every printout and the newsletter,

and prints both against the issue's bounds (a season < 3 s, its pictures < 2 s).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grandgame_bigmap import build  # noqa: E402

from maild.ruleset import Order, PlacedOrder  # noqa: E402
from maild_rules.grandgame import pictures, start  # noqa: E402
from maild_rules.grandgame.ruleset import RULESET  # noqa: E402
from maild_rules.grandgame.state import DEMOCRACY, add, board, held_by, owner  # noqa: E402

PLAYERS = 12


def game(units: int, seed: int) -> dict[str, Any]:
    players = [{"name": f"p{i:02d}", "email": f"p{i:02d}@example.org"} for i in range(PLAYERS)]
    state = RULESET.new_game({"players": players, "map": build()})
    countries = sorted(board(state).countries)
    for p, country in zip(players, countries, strict=True):
        start.take_country(state, p["name"], country, DEMOCRACY)
    rng = random.Random(seed)
    land = [t for t in board(state).territories.values() if t.land]
    for i in range(units):
        t = land[i % len(land)]
        add(state, t.id, owner(state, t.id), "infantry" if rng.random() < 0.6 else "armor", 1)
    for t in land:
        add(state, t.id, owner(state, t.id), "supply", 3)
    return state


def border_attacks(state: dict[str, Any]) -> dict[str, list[PlacedOrder]]:
    """Each player's stacks on a border attack the first foreign neighbour with everything they hold."""
    b = board(state)
    orders: dict[str, list[PlacedOrder]] = {}
    for seq, p in enumerate(state["players"], start=1):
        name, lines = p["name"], []
        for t in held_by(state, name):
            here = state["forces"].get(t, {}).get(name, {})
            target = next((n for n in sorted(b.territories[t].neighbours)
                           if b.territories[n].land and owner(state, n) != name), None)
            if target is None:
                continue
            for kind in ("infantry", "armor"):
                if here.get(kind):
                    lines.append(f"{here[kind]} {kind} {t} -> {target} attack")
        parsed = RULESET.parse("\n".join(lines))
        assert not parsed.diagnostics, parsed.diagnostics[:3]
        orders[name] = [PlacedOrder(Order(o.line, o.text, o.kind, o.args, o.summary), seq) for o in parsed.orders]
    return orders


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    state = game(args.units, args.seed)
    b = board(state)
    print(f"board: {len(b.territories)} territories ({sum(t.land for t in b.territories.values())} land), "
          f"{len(b.zones)} zones; {args.units} units")
    orders = border_attacks(state)
    print(f"orders: {sum(len(v) for v in orders.values())} lines")
    began = time.perf_counter()
    result = RULESET.resolve_phase(state, 1, "spring", orders, random.Random(args.seed))
    season = time.perf_counter() - began
    spec = result.newsletter["picture"]
    began = time.perf_counter()
    files = pictures.draw(b, spec)
    drawn = time.perf_counter() - began
    print(f"season resolved in {season:.2f} s (bound 3 s); {len(spec['attacks'])} attack arrows")
    print(f"pictures drawn in {drawn:.2f} s (bound 2 s): PNG {len(files[0]) // 1024} kB, "
          f"SVG {len(files[1]) // 1024} kB")


if __name__ == "__main__":
    main()
