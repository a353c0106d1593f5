"""Benchmark (not a test): one Renaissance month on a generated world.

    .venv/bin/python bench/bench_renaissance.py [--locations 4000] [--families 1000] [--orders 10] [--db URL]

A world of L locations and F families of five personae (rules.renaissance.worldgen) is set up; every family
mails ten coded orders per persona (transfers, sells, buys, training, letters, charity, movement); then:
1. parse: the mails' order text through the grammar (codes/s);
2. resolve: the ruleset's month alone (seconds);
3. render: every printout and the newsletter through the templates (printouts/s);
4. intake: the 1,000 family mails through the daemon (fetch, store, decode, parse, check, book, ack): mails/s;
5. the whole framework turn (order book, resolve, snapshot, printouts rendered and queued, commit) on a
   database (SQLite by default): seconds.
Peak memory is the process's maximum resident set size. Target (issue 3): the month under 30 s and 1.5 GB.
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


def family_mail(state: dict, family: str, orders_per_persona: int, rng: random.Random) -> str:
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
        codes.append(f"ML{rng.choice(names).replace(' ', '')}")
        lines.append(f"*{p['location'].replace(' ', '')} .{pid}")
        lines.append(" ".join(codes))
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--locations", type=int, default=4000)
    ap.add_argument("--families", type=int, default=1000)
    ap.add_argument("--orders", type=int, default=10)
    ap.add_argument("--db", default=None)
    args = ap.parse_args()
    rng = random.Random(7)

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
