"""Benchmark (not a test): a month of war on the generated 1,000-family world.

    .venv/bin/python bench/bench_renaissance_war.py [--field 200] [--sieges 50] [--naval 20] [--size 3000]

The world of bench_renaissance.py (4,000 locations, 1,000 families of five personae) is set up, then armed:
- `--field` pairs of personae of different families stand outside the walls of one location, each with an army
  of about `--size` men of every troop type, horses, cannons and falconets; the first attacks the second (KF);
- `--sieges` besiegers stand outside fortified towns whose siege has held since last month, each with an army and
  twenty cannons, facing a garrison and a defending persona: they bombard (KB20) and assault the walls (KA);
- `--naval` pairs of fleets (galleys and roundships, crew, rowing slaves, archers, arquebusiers, falconets) meet at
  one point of open water; the first attacks the second (KN).
Every family with a part mails its orders in code; the mails are parsed and the whole month is resolved by the
ruleset (maintenance, every family's orders, every battle, the month's end), and every printout (with its battle
reports, stage by stage) and the newsletter are rendered. Peak memory is the process's
maximum resident set size. Target (issue 16): the month under 10 s and 1.5 GB.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from maild.render import render  # noqa: E402
from maild.ruleset import OrderSet, PlacedOrder  # noqa: E402
from maild_rules.renaissance import RULESET  # noqa: E402
from maild_rules.renaissance.worldgen import generate  # noqa: E402

TURN = 1  # January 1493: food maintenance; every army is given grain enough


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def army(size: int, rng: random.Random) -> dict[str, int]:
    """About `size` men of every troop type, horses for the cavalry and the guns, food for the month."""
    share = {"heavy cavalry": 0.08, "pikeman": 0.25, "archer": 0.15, "arquebusier": 0.12, "auxiliary": 0.40}
    men = {t: max(1, int(size * f * rng.uniform(0.8, 1.2))) for t, f in share.items()}
    return {**men, "horse": men["heavy cavalry"] + 100 + 20 * 4 + 3, "cannon": 4, "falconet": 6,
            "grain": size, "ducats": 100_000}


def fleet(rng: random.Random) -> dict[str, int]:
    galleys, roundships = rng.randint(2, 4), rng.randint(2, 5)
    return {"galley": galleys, "roundship": roundships, "crew": 40 * galleys + 20 * roundships,
            "slave": 250 * galleys, "archer": 60 * galleys, "arquebusier": 40 * roundships, "falconet": 8,
            "grain": 2000, "ducats": 50_000}


def arm(state: dict[str, Any], args: argparse.Namespace, rng: random.Random) -> dict[str, list[str]]:
    """Put the armies in place; returns family -> its order lines (persona header and codes)."""
    personae = [pid for f in state["families"].values() for pid in f["personae"]]
    rng.shuffle(personae)
    people = state["personae"]
    places = sorted(state["locations"])
    lines: dict[str, list[str]] = {}
    for player in state["players"].values():  # CREDIT: conflict orders need the month's fees prepaid
        player.setdefault("account", {"balance": 0.0, "history": []})["balance"] = 1000.0

    def take() -> dict[str, Any]:
        return people[personae.pop()]

    def order(p: dict[str, Any], codes: str) -> None:
        where = (p["location"] or "sea").replace(" ", "")
        lines.setdefault(p["family"], []).append(f"*{where} .{p['id']}\n{codes}")

    def set_up(p: dict[str, Any], assets: dict[str, int], at: str | None, morale: int, **skills: int) -> None:
        p["assets"] = assets
        p["morale"] = morale
        p["skills"] = {**p.get("skills", {}), **skills}
        p["location"], p["inside"], p["with"] = at, False, None
        p["at_sea"] = None if at else {"lat": 38.0 + rng.random(), "lon": 5.0 + rng.random()}

    for _ in range(args.field):
        a, b = take(), take()
        while b["family"] == a["family"]:
            b = take()
        at = rng.choice(places)
        set_up(a, army(args.size, rng), at, rng.randint(420, 520), gunnery=rng.randint(300, 700))
        set_up(b, army(args.size, rng), at, rng.randint(420, 520), gunnery=rng.randint(300, 700))
        order(a, f"KF{b['id']}")

    # Towns where nobody else stands, so that the besieger outnumbers those inside (SIEGE) and the siege holds.
    crowded = {p.get("location") for p in people.values()}
    towns = rng.sample([n for n in places if state["locations"][n].get("population", 0) >= 5000 and n not in crowded],
                       args.sieges)
    for town in towns:
        besieger, defender = take(), take()
        while defender["family"] == besieger["family"]:
            defender = take()
        loc = state["locations"][town]
        loc.update({"far": 40, "fas": 120, "garrison": 150,
                    "siege": {"besieger": besieger["id"], "ordered": TURN - 2, "since": TURN - 1, "months": 1,
                              "blocked": [TURN - 1]}})
        set_up(besieger, {**army(args.size, rng), "cannon": 24}, town, 480, gunnery=600)
        set_up(defender, army(400, rng), town, 450, gunnery=400)
        defender["inside"] = True
        order(besieger, "KB20 KA")

    for _ in range(args.naval):
        a, b = take(), take()
        while b["family"] == a["family"]:
            b = take()
        set_up(a, fleet(rng), None, 450, navigation=rng.randint(400, 700), gunnery=500)
        set_up(b, fleet(rng), None, 450, navigation=rng.randint(400, 700), gunnery=500)
        b["at_sea"] = dict(a["at_sea"])
        order(a, f"KN{b['id']}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--locations", type=int, default=4000)
    ap.add_argument("--families", type=int, default=1000)
    ap.add_argument("--field", type=int, default=200)
    ap.add_argument("--sieges", type=int, default=50)
    ap.add_argument("--naval", type=int, default=20)
    ap.add_argument("--size", type=int, default=3000)
    args = ap.parse_args()
    rng = random.Random(16)

    t = time.perf_counter()
    state = RULESET.new_game(generate(locations=args.locations, families=args.families))
    lines = arm(state, args, rng)
    print(f"world: {len(state['locations'])} locations, {len(state['personae'])} personae, "
          f"{len(lines)} families at war; set up in {time.perf_counter() - t:.2f} s")

    t = time.perf_counter()
    parsed = {f: RULESET.parse(f"/{state['families'][f]['player']} *{f}\n" + "\n".join(ls) + "\n")
              for f, ls in lines.items()}
    bad = [d for p in parsed.values() for d in p.diagnostics]
    print(f"parse: {sum(len(p.orders) for p in parsed.values())} war codes, {len(bad)} diagnostics in "
          f"{time.perf_counter() - t:.2f} s" + (f" (first: {bad[0].message})" if bad else ""))
    orders: dict[str, list[PlacedOrder]] = {code: [] for code in state["players"]}
    for seq, (f, p) in enumerate(parsed.items(), start=1):
        orders[state["families"][f]["player"]] += RULESET.effective([OrderSet(f, seq, p.orders)])

    t = time.perf_counter()
    result = RULESET.resolve(state, TURN, orders, random.Random(1))
    resolve_s = time.perf_counter() - t
    outcomes = [e for e in result.events if e["type"] == "order"]
    failed = [e for e in outcomes if not e["ok"]]
    print(f"resolve: the month in {resolve_s:.2f} s; {len(outcomes) - len(failed)} of {len(outcomes)} war orders "
          f"carried out")
    for e in failed[:5]:
        print(f"   not carried out: {e.get('code')}: {e.get('text')}")

    t = time.perf_counter()
    common = {"game": "bench", "turn": TURN, "finished": False, "next_deadline": "1 February 1493"}
    size = sum(len(render("renaissance", "printout.txt.j2", **common, player=code, **context))
               for code, context in result.printouts.items())
    size += len(render("renaissance", "newsletter.txt.j2", **common, **result.newsletter))
    print(f"render: {len(result.printouts)} printouts with their battle reports and the newsletter, "
          f"{size / 1e6:.1f} MB, in {time.perf_counter() - t:.2f} s")
    print(f"peak RSS: {peak_mb():.0f} MB")


if __name__ == "__main__":
    main()
