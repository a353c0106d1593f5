"""Benchmark (not a test): one Renaissance month on a generated world, or a year of months with the hierarchies.

    .venv/bin/python bench/bench_renaissance.py [--locations 4000] [--families 1000] [--orders 10] [--db URL]
    .venv/bin/python bench/bench_renaissance.py --months 12   # issue 25: each month of a year, hierarchies present

A world of L locations and F families of five personae (rules.renaissance.worldgen) is set up; every family
mails ten coded orders per persona (transfers, sells, buys, training, letters, charity, movement); then:
1. parse: the mails' order text through the grammar (codes/s);
2. resolve: the ruleset's month alone (seconds);
3. render: every printout and the newsletter through the templates (printouts/s);
4. intake: the 1,000 family mails through the daemon (fetch, store, decode, parse, check, book, ack): mails/s;
5. the whole framework turn (order book, resolve, snapshot, printouts rendered and queued, commit) on a
   database (SQLite by default): seconds.
Peak memory is the process's maximum resident set size. Target (issue 3): the month under 30 s and 1.5 GB.

With --months N the world has the hierarchies' offices (worldgen.add_hierarchies: a king in every tenth family, a
Pope, archbishoprics with vacant sees, elective states, military orders without a grandmaster) and N months are
played in turn, each on the state the last one left, every family mailing its ten orders a persona and the
hierarchies' orders of the month (`hierarchy_codes`: elevations in February, grandmasters' and rulers' votes in
January, acceptances, bishops appointed each month, a cardinal's hat in March and September, the free cavalry).
For each month: resolve and render (seconds). Target (issue 25): each month under 10 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from maild.app import App  # noqa: E402
from maild.clock import Clock  # noqa: E402
from maild.config import parse_config  # noqa: E402
from maild.daemon import Daemon, PassReport  # noqa: E402
from maild.db import Database, upgrade  # noqa: E402
from maild.games import create_game  # noqa: E402
from maild.intake.pipeline import process_new  # noqa: E402
from maild.mail.maildir import MaildirInbox, MaildirSender, deliver  # noqa: E402
from maild.render import render  # noqa: E402
from maild.ruleset import OrderSet, PlacedOrder  # noqa: E402
from maild.turn import run_turn  # noqa: E402
from maild_rules.renaissance import RULESET  # noqa: E402
from maild_rules.renaissance.items import classes_of, code_of  # noqa: E402
from maild_rules.renaissance.worldgen import generate  # noqa: E402

NOW = datetime(1493, 1, 1, 9, 0, tzinfo=UTC)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def family_mail(state: dict, family: str, orders_per_persona: int, rng: random.Random,
                extra: dict[str, list[str]] | None = None) -> str:
    fam = state["families"][family]
    lines = [f"/{fam['player']} *{family}"]
    names = list(state["locations"])
    for pid in fam["personae"]:
        p = state["personae"][pid]
        loc = state["locations"][p["location"]]
        here = [q for q in fam["personae"] if q != pid and state["personae"][q]["location"] == p["location"]]
        codes: list[str] = []
        goods = [i for i, n in p["assets"].items() if i != "ducats" and n > 0]
        while len(codes) < orders_per_persona - 1:
            pick = rng.randrange(6)
            if pick == 0 and here and goods:
                codes.append(f"T{rng.choice(here)}{code_of(rng.choice(goods))}{rng.randint(1, 20)}")
            elif pick == 1 and (sellable := [(c, i) for i in goods for c in classes_of(i) if c in loc["demanded"]]):
                cls, item = rng.choice(sellable)
                codes.append(f"S0{cls[:3]}{code_of(item)}{rng.randint(1, 20)}")
            elif pick == 2 and loc["supplied"]:
                codes.append(f"B{code_of(rng.choice(list(loc['supplied'])))}{rng.randint(1, 30)}")
            elif pick == 3 and here:
                codes.append(f"I{rng.choice(here)}{rng.choice('mlnxe')}")
            elif pick == 4:
                codes.append(f"WL{rng.choice(fam['personae'])}")
            else:
                codes.append(f"HC{rng.randint(1, 5) * 1000}")
        codes += (extra or {}).get(pid, [])
        codes.append(f"ML{rng.choice(names).replace(' ', '')}")
        lines.append(f"*{p['location'].replace(' ', '')} .{pid}")
        lines.append(" ".join(codes))
    return "\n".join(lines) + "\n"


def hierarchy_codes(state: dict, month: int) -> dict[str, list[str]]:
    """The hierarchies' orders of the month, by persona, read from the state: kings and the Pope elevate their
    family's untitled personae to knight in February (the Pope five, a king three); an archbishop appoints one of
    his family to a vacant see of his archbishopric each month; the Pope grants a hat to an archbishop in March and
    September; the voters at an order's seat elect its first grandmaster in January and the elected accepts in
    February, then claims the order's free cavalry; the electors of a state electing for life vote in January."""
    people, locs = state["personae"], state["locations"]
    codes: dict[str, list[str]] = {}

    def add(pid: str, code: str) -> None:
        codes.setdefault(pid, []).append(code)

    def kin(pid: str) -> list[str]:
        return [q for q in state["families"][people[pid]["family"]]["personae"] if q != pid]

    pope = state.get("pope")
    if month == 2:
        for pid, p in people.items():
            rights = 5 if pid == pope else 3 if p.get("rank") == "king" else 0
            for q in [q for q in kin(pid) if people[q].get("rank", "none") == "none"][:rights]:
                add(pid, f"OE{q}knight")
    sees: dict[str, list[str]] = {}
    for name, loc in locs.items():
        if loc.get("see") and not loc["offices"].get("bishop"):
            sees.setdefault(loc["see"], []).append(name)
    for see, vacant in sees.items():
        archbishop = locs[see]["offices"].get("archbishop")
        if archbishop in people and vacant:
            others = kin(archbishop)
            add(archbishop, f"OP{others[month % len(others)]}{vacant[0].replace(' ', '')}")
    if pope in people and month in (3, 9):
        archbishops = sorted(loc["offices"]["archbishop"] for loc in locs.values()
                             if loc["offices"].get("archbishop") in people and loc["offices"]["archbishop"] != pope)
        if archbishops:
            add(pope, f"OK{archbishops[month % len(archbishops)]}")
    for order in (state.get("military_orders") or {}).values():
        if (order.get("election") or {}).get("turn") == month:
            voters = [pid for pid, p in people.items() if p.get("location") == order["seat"]]
            for pid in voters:
                add(pid, f"VG{voters[0]}")
        if (order.get("elected") or {}).get("persona") in people:
            add(order["elected"]["persona"], "OGA")
        if order.get("grandmaster") in people:
            add(order["grandmaster"], "OGC")
    for name, loc in locs.items():
        if (loc.get("ruler_election") or {}).get("turn") == month:
            electors = [pid for pid, p in people.items() if p.get("location") == name
                        and p["family"] in loc.get("ruler_electors", [])]
            for pid in electors:
                add(pid, f"VR{electors[0]}")
    return codes


def year(args: argparse.Namespace, rng: random.Random) -> None:
    """--months N: the months in turn over the world with the hierarchies, each timed (resolve + render)."""
    t = time.perf_counter()
    state = RULESET.new_game(generate(locations=args.locations, families=args.families, hierarchies=True))
    print(f"world with hierarchies: {len(state['locations'])} locations, {len(state['families'])} families, "
          f"{len(state['personae'])} personae, {len(state.get('military_orders') or {})} military orders; set up "
          f"in {time.perf_counter() - t:.2f} s")
    for player in state["players"].values():  # in credit all year: a player who owes executes no orders (CREDIT)
        player.setdefault("account", {"history": []})["balance"] = 1e9
    hierarchy_kinds = ("OE", "OP", "OK", "OI", "OA", "VG", "OGA", "OGC", "VR")
    times = []
    for turn in range(1, args.months + 1):
        extra = hierarchy_codes(state, turn)
        mails = {f: family_mail(state, f, args.orders, rng, extra) for f in state["families"]}
        orders: dict[str, list[PlacedOrder]] = {code: [] for code in state["players"]}
        for seq, (f, text) in enumerate(mails.items(), start=1):
            parsed = RULESET.parse(text)
            orders[state["families"][f]["player"]] += RULESET.effective([OrderSet(f, seq, parsed.orders)])
        t = time.perf_counter()
        result = RULESET.resolve(state, turn, orders, random.Random(turn))
        resolve_s = time.perf_counter() - t
        t = time.perf_counter()
        common = {"game": "bench", "turn": turn, "finished": False, "next_deadline": "the first of next month"}
        for code, context in result.printouts.items():
            render("renaissance", "printout.txt.j2", **common, player=code, **context)
        render("renaissance", "newsletter.txt.j2", **common, **result.newsletter)
        render_s = time.perf_counter() - t
        times.append(resolve_s + render_s)
        ran = [e for e in result.events if e["type"] == "order" and str(e.get("code", "")).startswith(hierarchy_kinds)]
        print(f"month {turn:2d}: resolve {resolve_s:5.2f} s, render {render_s:5.2f} s, "
              f"month {resolve_s + render_s:5.2f} s; hierarchy orders {sum(1 for e in ran if e['ok'])} done of "
              f"{len(ran)}")
        state = result.state
    print(f"months: mean {sum(times) / len(times):.2f} s, max {max(times):.2f} s; peak RSS {peak_mb():.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--locations", type=int, default=4000)
    ap.add_argument("--families", type=int, default=1000)
    ap.add_argument("--orders", type=int, default=10)
    ap.add_argument("--months", type=int, default=0, help="play N months with the hierarchies (issue 25)")
    ap.add_argument("--db", default=None)
    args = ap.parse_args()
    rng = random.Random(7)
    if args.months:
        year(args, rng)
        return

    t = time.perf_counter()
    setup = generate(locations=args.locations, families=args.families)
    state = RULESET.new_game(setup)
    print(f"world: {len(state['locations'])} locations, {len(state['families'])} families, "
          f"{len(state['personae'])} personae; set up in {time.perf_counter() - t:.2f} s")

    mails = {f: family_mail(state, f, args.orders, rng) for f in state["families"]}
    t = time.perf_counter()
    parsed = {f: RULESET.parse(text) for f, text in mails.items()}
    dt = time.perf_counter() - t
    n_orders = sum(len(p.orders) for p in parsed.values())
    bad = sum(len(p.diagnostics) for p in parsed.values())
    print(f"parse: {n_orders} codes ({bad} diagnostics) in {dt:.2f} s = {n_orders / dt:,.0f} codes/s")

    orders: dict[str, list[PlacedOrder]] = {code: [] for code in state["players"]}
    for seq, (f, p) in enumerate(parsed.items(), start=1):
        orders[state["families"][f]["player"]] += RULESET.effective([OrderSet(f, seq, p.orders)])
    t = time.perf_counter()
    result = RULESET.resolve(state, 1, orders, random.Random(1))
    resolve_s = time.perf_counter() - t
    done = sum(1 for e in result.events if e["type"] == "order" and e["ok"])
    print(f"resolve: {resolve_s:.2f} s ({done} of {n_orders} orders done)")

    t = time.perf_counter()
    common = {"game": "bench", "turn": 1, "finished": False, "next_deadline": "1 February 1493"}
    size = 0
    for code, context in result.printouts.items():
        size += len(render("renaissance", "printout.txt.j2", **common, player=code, **context))
    size += len(render("renaissance", "newsletter.txt.j2", **common, **result.newsletter))
    render_s = time.perf_counter() - t
    print(f"render: {len(result.printouts)} printouts ({size / 1e6:.1f} MB) in {render_s:.2f} s = "
          f"{len(result.printouts) / render_s:,.0f} printouts/s")
    print(f"month (resolve + render): {resolve_s + render_s:.2f} s; peak RSS so far {peak_mb():.0f} MB")

    with tempfile.TemporaryDirectory() as tmp, scratch_schema(args.db) as db_url:
        framework_turn(Path(tmp), db_url, setup, mails)
    print(f"peak RSS: {peak_mb():.0f} MB")


@contextmanager
def scratch_schema(db_url: str | None) -> Iterator[str | None]:
    """On PostgreSQL, a schema of its own for the run, dropped after: the benchmark leaves nothing behind."""
    if not db_url or not db_url.startswith("postgresql"):
        yield db_url
        return
    from maild.testing import postgres_schema

    with postgres_schema(db_url, prefix="bench") as url:
        yield url


def framework_turn(tmp: Path, db_url: str | None, setup: dict, mails: dict[str, str]) -> None:
    import maild.games

    # The generated setup is a dict; writing it out as TOML only to read it back would measure nothing.
    maild.games.load_setup = lambda path: setup  # type: ignore[assignment]
    config = parse_config({
        "database": {"url": db_url or f"sqlite:///{tmp / 'bench.db'}"},
        "mail": {"inbound": {"kind": "maildir", "path": str(tmp / "in")},
                 "outbound": {"kind": "maildir", "path": str(tmp / "out"), "from": "gm@example.org"}},
        "games": [],
    }, tmp, None)
    db = Database(config.database_url)
    upgrade(db.engine)
    app = App(config=config, db=db, clock=Clock(NOW, frozen=True))
    state = RULESET.new_game(setup)
    with db.session() as s:
        create_game(s, "bench", "renaissance", tmp / "setup.toml", NOW)
    # Every family's orders as a player mails them, through the daemon's intake: fetch, store, decode, parse,
    # check against the state, book, ack queued.
    for n, (family, text) in enumerate(mails.items()):
        player = state["families"][family]["player"]
        raw = (f"From: <{state['players'][player]['email']}>\r\nTo: gm@example.org\r\n"
               f"Subject: [bench] orders {family}\r\n"
               f"Message-ID: <bench-{n}@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
               f"{text.replace(chr(10), chr(13) + chr(10))}").encode()
        deliver(tmp / "in", raw, name=f"{n:06d}.bench")
    daemon = Daemon(app, MaildirInbox(tmp / "in"), MaildirSender(tmp / "out"), status_line=False)

    async def ingest() -> dict[str, int]:
        await daemon.fetch(PassReport())
        return await daemon.db(process_new, app)

    t = time.perf_counter()
    counts = asyncio.run(ingest())
    dt = time.perf_counter() - t
    daemon._db.shutdown()
    print(f"intake: {len(mails)} family mails ({counts}) in {dt:.2f} s = {len(mails) / dt:,.0f} mails/s")
    t = time.perf_counter()
    outcome = run_turn(app, "bench", force=True)
    print(f"framework turn ({db.engine.url.get_backend_name()}): {outcome.status} in "
          f"{time.perf_counter() - t:.2f} s")
    db.close()


if __name__ == "__main__":
    main()
