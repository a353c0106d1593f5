"""Benchmark (not a test): one council session of The Law of the Jungle on a generated world.

    .venv/bin/python bench/jungle_session.py [--houses 500] [--characters 2000] [--cities 25] [--seed 1]

A world of H houses with C characters in all, spread over the cities' hexes and a few units, with Tlatoani,
citizens and tenants, the empire's technologies and builds; most houses short of food. Every character acts
in the Morning and the Afternoon: plenty of attacks of every type, research, production, toil, purchases,
training, offerings. Then:
1. the Morning: `Jungle.resolve_phase(state, 1, "morning", ...)` (the engine, the handlers, the printouts'
   and newsletter's contexts): seconds;
2. the Afternoon and the Evening (draws over the ten gameturns, food eaten, the festival): seconds;
3. rendering every printout and the newsletter of both parts through the templates: seconds.
With --framework, then the same session through maild itself (SQLite, or PostgreSQL with --db URL): every
house's Morning mail through the daemon's intake (parse, check, book, ack), the Morning phase run
(`maild turn run`: resolve, store, printouts rendered and queued), the Afternoon's mails and phase likewise.
Peak memory is the process's maximum resident set size. Target (issue 10): the session under 5 s and 500 MB;
(issue 27): linear in the houses, 2,000 houses (`--houses 2000 --characters 8000`) under 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import sys
import tempfile
import time
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from maild.render import render  # noqa: E402
from maild.ruleset import Order, PlacedOrder  # noqa: E402
from maild_rules.jungle import RULESET  # noqa: E402
from maild_rules.jungle.actions import ATTACK_TYPES  # noqa: E402
from maild_rules.jungle.model import GODS, Character, City, Empire, Hex, House, Title, Unit, World  # noqa: E402

TECHS = {f"Technology {i}": 1 + i // 5 for i in range(20)}
BUILDS = {"Monument": 40, "Granary": 60, "Warrior": 25, "Temple": 80, "Walls": 70}


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def generate(houses: int, characters: int, cities: int, rng: random.Random) -> World:
    """A kicked-off world in its first council session."""
    w = World(kicked_off=True, festival="Tlaloc")
    w.settings = {"signup_sessions": 1, "kickoff_houses": 2, "starting_gold": 0, "council_from": 1,
                  "trade_routes": [[f"City {i}", f"City {i + 1}"] for i in range(cities - 1)]}
    w.empire = Empire(treasury=5000, expenses=50, beakers_per_citizen=2, hammers_per_citizen=2, food_per_citizen=2,
                      technologies=dict(TECHS), policies={"Tradition": 1, "Liberty": 1})
    for i in range(cities):
        name = f"City {i}"
        hexes = {f"{name} hex {j}": Hex(f"{name} hex {j}", food=rng.randint(0, 3), hammers=rng.randint(0, 3),
                                          beakers=rng.randint(0, 2), gold=rng.randint(0, 2)) for j in range(20)}
        centre = f"{name} hex 0"
        w.cities[name] = City(name, hexes=hexes, centre=centre, citizens=rng.randint(2, 12), specialist_slots=2,
                              happiness=rng.randint(-10, 10), strength=rng.randint(4, 20), income=rng.randint(5, 30),
                              expenses=rng.randint(0, 5), food=rng.randint(0, 6), position=(i * 3, i % 4),
                              builds=dict(BUILDS))
    for i in range(cities // 2):
        city = f"City {i}"
        w.units[f"Unit {i}"] = Unit(f"Unit {i}", level=rng.randint(1, 4), health=10, melee=rng.randint(3, 12),
                                    city=city, position=w.cities[city].position)
    names = [f"House{i}" for i in range(houses)]
    for h in names:
        # Food shortage: most houses have little or no food for the Evening.
        w.houses[h] = House(h, f"{h.lower()}@example.org", food=rng.choice((0, 0, 1, 2, 5, 30)),
                            gold=rng.randint(0, 60))
    for n in range(characters):
        house = names[n % houses]
        city = w.cities[f"City {rng.randrange(cities)}"]
        hx = rng.choice(list(city.hexes))
        c = Character(f"Char{n}", house, xp=rng.randint(1, 30), fame=rng.randint(0, 40), wisdom=rng.randint(1, 10),
                      craft=rng.randint(1, 10), city=city.name, hex=hx, beakers=rng.randint(0, 4),
                      hammers=rng.randint(0, 4))
        w.characters[c.name] = c
    living = list(w.characters.values())
    for city in w.cities.values():  # a Tlatoani and citizens owning land, their tenants
        residents = [c for c in living if c.city == city.name and c.role == "peasant" and not c.unit]
        if not residents:
            continue
        t = residents[0]
        t.role, city.tlatoani, t.hex = "tlatoani", t.name, city.centre
        city.hexes[city.centre].citizen = t.name
        for c in residents[1:4]:
            c.role = "citizen"
            city.hexes[c.hex].citizen = c.name
        for c in residents[4:]:
            owner = city.hexes[c.hex].citizen
            if owner and owner != c.name:
                c.titles.append(Title("Tenant", owner))
    for unit in w.units.values():
        soldiers = [c for c in living if c.city == unit.city and c.role == "peasant" and not c.landlord][:6]
        for c in soldiers:
            c.unit, c.role, c.hex = unit.name, "soldier", None
        if soldiers:
            unit.captain = soldiers[0].name
            soldiers[0].titles.append(Title("Captain", unit.name))
    for i in range(0, characters // 20):  # some slaves
        slave, owner = living[i * 7 % characters], living[(i * 7 + 3) % characters]
        if slave.house != owner.house and not slave.owner:
            slave.titles.append(Title("Slave", owner.name))
            owner.titles.append(Title("Owner", slave.name))
    return w


def _order(kind: str, character: str, args: dict[str, Any], line: int) -> Order:
    return Order(line, f"**{kind.title()}** ...", kind, {"character": character, "both": False, **args},
                 f"{character}: {kind}")


def orders_for(w: World, part: str, rng: random.Random) -> dict[str, list[PlacedOrder]]:
    """An action for every living character: about a third attacks someone of his city."""
    by_city: dict[str, list[Character]] = {}
    for c in w.living():
        by_city.setdefault(c.city or "", []).append(c)
    out: dict[str, list[PlacedOrder]] = {h: [] for h in w.houses}
    seq = 0
    for i, c in enumerate(w.living()):
        seq += 1
        roll = rng.random()
        others = [o for o in by_city.get(c.city or "", []) if o.house != c.house]
        if roll < 0.35 and others:
            target = rng.choice(others)
            kind, args = "attack", {"target": target.name, "type": rng.choice(ATTACK_TYPES),
                                    "desperate": rng.random() < 0.2, "joint": [], "principal": None, "item": None}
        elif roll < 0.5:
            kind, args = "research", {"technology": rng.choice(list(TECHS))}
        elif roll < 0.65:
            kind, args = "produce", {"item": rng.choice(list(BUILDS))}
        elif roll < 0.75:
            kind, args = "toil", {}
        elif roll < 0.82:
            kind, args = "purchase", {"resource": rng.choice(("food", "beakers", "hammers")), "amount": 2}
        elif roll < 0.88:
            kind, args = "train", {"attribute": rng.choice(("xp", "wisdom", "craft", "fame"))}
        elif roll < 0.94:
            kind, args = "offering", {"god": rng.choice(GODS), "amount": 1}
        else:
            kind, args = "defend", {}
        out[c.house].append(PlacedOrder(_order(kind, c.name, args, i + 1), seq))
    return out


PROFILE = None  # a profiler the intake can run under (set by hand when looking into it)
WRITTEN = {"xp": "XP", "wisdom": "Wisdom", "craft": "Craftsmanship", "fame": "Fame"}
OFFERED = {"Huitzilopochtli": "XP", "Quetzalcoatl": "Wisdom", "Tezcatlipoca": "Fame", "Tlaloc": "food"}


def written(order: Order) -> str:
    """An action as a player writes it (grammar/jungle.lark's forms)."""
    a = order.args
    if order.kind == "attack":
        return f"**Attack** {a['target']}, {a['type']}" + (", desperate" if a["desperate"] else "")
    if order.kind == "research":
        return f"**Research** {a['technology']}"
    if order.kind == "produce":
        return f"**Produce** {a['item']}"
    if order.kind == "purchase":
        return f"**Purchase** {a['amount']} {a['resource']}"
    if order.kind == "train":
        return f"**Train** {WRITTEN[a['attribute']]}"
    if order.kind == "offering":
        return f"**Offering** {a['amount']} {OFFERED[a['god']]} to {a['god']}"
    return f"**{order.kind.title()}**"


def mails_of(orders: dict[str, list[PlacedOrder]]) -> dict[str, str]:
    """Each house's mail: a "Name:" line before each character's action."""
    return {house: "\n".join(f"{p.order.args['character']}:\n{written(p.order)}\n" for p in placed)
            for house, placed in orders.items() if placed}


def setup_of(world: World) -> dict[str, Any]:
    """The generated world as a setup file holds it: a game already under way (signup_sessions = 0)."""
    def city(c: City) -> dict[str, Any]:
        d = asdict(c)
        d["hexes"] = list(d["hexes"].values())
        d["position"] = list(c.position) if c.position else None
        return {k: v for k, v in d.items() if v is not None}

    def unit(u: Unit) -> dict[str, Any]:
        d = asdict(u)
        d["position"] = list(u.position) if u.position else None
        return {k: v for k, v in d.items() if v is not None}

    characters: dict[str, list[dict[str, Any]]] = {}
    for c in world.characters.values():
        characters.setdefault(c.house, []).append({k: v for k, v in asdict(c).items() if v is not None})
    houses = [{**{k: v for k, v in asdict(h).items() if v is not None}, "characters": characters[h.name]}
              for h in world.houses.values() if h.name in characters]
    return {"signup_sessions": 0, "festival": world.festival, "starting_gold": 0,
            "trade_routes": world.settings["trade_routes"], "empire": asdict(world.empire),
            "cities": [city(c) for c in world.cities.values()], "units": [unit(u) for u in world.units.values()],
            "houses": houses}


def framework_session(world: World, rng: random.Random, db_url: str | None) -> None:
    """The session through maild: intake of every house's mail, each phase run, stored and mailed."""
    import maild.games
    from maild.app import App
    from maild.clock import Clock
    from maild.config import parse_config
    from maild.daemon import Daemon, PassReport
    from maild.db import Database, upgrade
    from maild.games import create_game
    from maild.intake.pipeline import process_new
    from maild.mail.maildir import MaildirInbox, MaildirSender, deliver
    from maild.phases import state_after_phases
    from maild.turn import run_turn

    now = datetime(2027, 1, 9, 9, 0, tzinfo=UTC)
    setup = setup_of(world)
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        maild.games.load_setup = lambda path: setup  # type: ignore[assignment]  # no TOML round trip to time
        config = parse_config({
            "database": {"url": db_url or f"sqlite:///{tmp / 'bench.db'}"},
            "mail": {"inbound": {"kind": "maildir", "path": str(tmp / "in")},
                     "outbound": {"kind": "maildir", "path": str(tmp / "out"), "from": "gm@example.org"}},
            "games": []}, tmp, None)
        db = Database(config.database_url)
        upgrade(db.engine)
        app = App(config=config, db=db, clock=Clock(now, frozen=True))
        t = time.perf_counter()
        with db.session() as s:
            create_game(s, "bench", "jungle", tmp / "setup.toml", now)
        print(f"framework: game created in {time.perf_counter() - t:.2f} s")
        daemon = Daemon(app, MaildirInbox(tmp / "in"), MaildirSender(tmp / "out"), status_line=False)
        total = 0.0
        for phase in ("morning", "afternoon"):
            with db.session() as s:  # the state the phase starts from: the turn's, or after the Morning
                game = maild.games.get_game(s, "bench")
                state = World.load(state_after_phases(s, game.id, 1) or maild.games.state_before(s, game, 1))
            mails = mails_of(orders_for(state, phase, rng))
            for n, (house, text) in enumerate(mails.items()):
                raw = (f"From: <{world.houses[house].email}>\r\nTo: gm@example.org\r\n"
                       f"Subject: [bench] {phase}\r\nMessage-ID: <bench-{phase}-{n}@example.org>\r\n"
                       f"Content-Type: text/plain; charset=utf-8\r\n\r\n{text.replace(chr(10), chr(13) + chr(10))}"
                       ).encode()
                deliver(tmp / "in", raw, name=f"{phase}-{n:06d}.bench")

            async def ingest() -> dict[str, int]:
                await daemon.fetch(PassReport())
                return await daemon.db(process_new, app) if not PROFILE else PROFILE(process_new, app)

            t = time.perf_counter()
            counts = asyncio.run(ingest())
            intake_s = time.perf_counter() - t
            t = time.perf_counter()
            outcome = run_turn(app, "bench", force=True)
            phase_s = time.perf_counter() - t
            total += phase_s
            print(f"framework {phase}: intake of {len(mails)} mails {intake_s:.2f} s ({counts}); phase run "
                  f"({db.engine.url.get_backend_name()}): {outcome.status} in {phase_s:.2f} s")
        daemon._db.shutdown()
        print(f"framework session (both phases run, stored, mailed): {total:.2f} s")
        db.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--houses", type=int, default=500)
    ap.add_argument("--characters", type=int, default=2000)
    ap.add_argument("--cities", type=int, default=25)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--framework", action="store_true", help="also run the session through maild itself")
    ap.add_argument("--db", default=None, help="the database URL for --framework (default: SQLite in a temp dir)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    world = generate(a.houses, a.characters, a.cities, rng)
    state = world.dump()
    morning_orders = orders_for(world, "morning", rng)
    print(f"world: {len(world.houses)} houses, {len(world.characters)} characters, {len(world.cities)} cities, "
          f"{len(world.units)} units; {sum(len(v) for v in morning_orders.values())} Morning actions")

    t0, c0 = time.perf_counter(), time.process_time()
    morning = RULESET.resolve_phase(state, 1, "morning", morning_orders, random.Random(a.seed + 1))
    t1, c1 = time.perf_counter(), time.process_time()
    afternoon_orders = orders_for(World.load(morning.state), "afternoon", rng)
    t2, c2 = time.perf_counter(), time.process_time()
    afternoon = RULESET.resolve_phase(morning.state, 1, "afternoon", afternoon_orders, random.Random(a.seed + 2))
    t3, c3 = time.perf_counter(), time.process_time()
    common = {"game": "bench", "turn": 1, "finished": False, "next_deadline": "Saturday 12:00"}
    chars = 0
    for phase, result in (("morning", morning), ("afternoon", afternoon)):
        for player, context in result.printouts.items():
            chars += len(render("jungle", "printout.txt.j2", **common, phase=phase, player=player, **context))
        chars += len(render("jungle", "newsletter.txt.j2", **common, phase=phase, **result.newsletter))
    t4 = time.perf_counter()
    kinds: dict[str, int] = {}
    for e in morning.events + afternoon.events:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    after = World.load(afternoon.state)
    print(f"morning:   {t1 - t0:6.2f} s")
    print(f"afternoon: {t3 - t2:6.2f} s (with the Evening)")
    print(f"session:   {t1 - t0 + t3 - t2:6.2f} s resolved (CPU {c1 - c0 + c3 - c2:.2f} s: the figure to compare on a "
          f"busy machine); render {t4 - t3:6.2f} s ({chars:,} characters of mail)")
    print(f"events: {dict(sorted(kinds.items()))}")
    print(f"after the session: {len(after.living())} characters alive, session {after.session}, "
          f"festival {after.festival}")
    print(f"peak RSS: {peak_mb():.0f} MB")
    if a.framework:
        framework_session(world, random.Random(a.seed + 3), a.db)
        print(f"peak RSS: {peak_mb():.0f} MB")


if __name__ == "__main__":
    main()
