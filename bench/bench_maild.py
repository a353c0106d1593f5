"""Benchmarks (not tests): intake throughput and one Venice auction at scale.

    .venv/bin/python bench/bench_maild.py [--mails 10000] [--players 1000] [--bids 20] [--db URL] [--passwords]

1. Ingest: N Venice order mails in a Maildir are fetched, stored, decoded, parsed, checked, booked and
   acked (ack queued, not sent): mails/s. With --passwords every player has one and every mail carries it on a
   `#bench PLAYER PASSWORD` line (each player's first mail of the run costs an argon2 check).
2. Turn: one auction with P players × B bids each: the ruleset's resolve alone, then the whole framework
   turn (order book, resolve, snapshot, every printout and newsletter rendered and queued): seconds.
Peak memory is the process's maximum resident set size.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchapp import venice_app  # noqa: E402
from maild.app import App  # noqa: E402
from maild.daemon import Daemon, PassReport  # noqa: E402
from maild.intake.pipeline import process_new  # noqa: E402
from maild.mail.maildir import MaildirInbox, MaildirSender, deliver  # noqa: E402
from maild.ruleset import Order, PlacedOrder, load_ruleset  # noqa: E402
from maild.turn import run_turn  # noqa: E402


def setup_toml(players: int, items: int, passwords: bool = False) -> str:
    lines = ["credit_limit = 100000", "interest_per_day = 0.05", f"scale_per_players = {players}", ""]
    for i in range(players):
        lines += ["[[players]]", f'name = "p{i:05d}"', f'email = "p{i:05d}@example.org"',
                  *([f'password = "pw{i:05d}"'] if passwords else []), ""]
    for i in range(items):
        lines += ["[[agendas]]", f'name = "agenda {i}"', f"value = {10 + i}", "force = 1", "popularity = 1",
                  "influence = 1", ""]
    lines += ["[[assets]]", 'name = "opera"', "force = 0", "popularity = 20", "influence = 0", ""]
    opening = ", ".join(f'"agenda {i}" = {players // 4 + 1}' for i in range(items))
    lines += ["[[auctions]]", f"items = {{ {opening} }}"]
    for _ in range(5):
        lines += ["[[auctions]]", 'items = { "opera" = 1 }']
    lines += ["[[auctions]]", 'items = { "agenda 0" = 1 }']
    return "\n".join(lines) + "\n"


def make_app(root: Path, db_url: str | None, players: int, items: int, passwords: bool = False) -> App:
    return venice_app(root, db_url, setup_toml(players, items, passwords))


def bench_ingest(app: App, mails: int, players: int, items: int, rng: random.Random, passwords: bool = False
                 ) -> float:
    assert app.config.inbound.path is not None
    for n in range(mails):
        p = rng.randrange(players)
        bids = "\n".join(f"bid {rng.randint(1, 90)}$ for {rng.randint(1, 3)} of agenda {rng.randrange(items)}"
                         for _ in range(rng.randint(1, 4)))
        raw = (f"From: Player {p} <p{p:05d}@example.org>\r\nTo: gm@example.org\r\nSubject: bids {n}\r\n"
               f"Message-ID: <bench-{n}@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
               f"{f'#bench p{p:05d} pw{p:05d}' + chr(10) if passwords else ''}"
               f"{'borrow 5000$' + chr(10) if n % 7 == 0 else ''}{bids}\r\n\r\n-- \r\nPlayer {p}\r\n").encode()
        deliver(app.config.inbound.path, raw, name=f"{n:06d}.bench")
    assert app.config.outbound.path is not None
    daemon = Daemon(app, MaildirInbox(app.config.inbound.path), MaildirSender(app.config.outbound.path),
                    status_line=False)

    async def ingest() -> dict[str, int]:
        await daemon.fetch(PassReport())
        return await daemon.db(process_new, app)

    t0 = time.perf_counter()
    counts = asyncio.run(ingest())
    elapsed = time.perf_counter() - t0
    daemon._db.shutdown()
    assert counts.get("orders", 0) == mails, counts
    return elapsed


def bench_resolve(app: App, players: int, bids: int, items: int, rng: random.Random) -> tuple[float, float]:
    ruleset = load_ruleset("venice")
    from maild.games import get_game, state_before

    with app.db.session() as s:
        game = get_game(s, "bench")
        state = state_before(s, game, 1)
        names = [f"p{i:05d}" for i in range(players)]
    orders: dict[str, list[PlacedOrder]] = {}
    seq = 0
    for name in names:
        placed = [PlacedOrder(Order(0, "borrow 5000$", "borrow", {"amount": 5000}, "borrow 5000$"), seq)]
        for k in rng.sample(range(items), min(bids, items)):
            seq += 1
            text = f"bid {rng.randint(1, 90)}$ for {rng.randint(1, 3)} of agenda {k}"
            parsed = ruleset.parse(text)
            placed.append(PlacedOrder(parsed.orders[0], seq))
        orders[name] = placed
    t0 = time.perf_counter()
    ruleset.resolve(state, 1, orders, random.Random(1))
    resolve_s = time.perf_counter() - t0
    # The whole framework turn, over the order book the ingest filled.
    t0 = time.perf_counter()
    outcome = run_turn(app, "bench", force=True)
    turn_s = time.perf_counter() - t0
    assert outcome.status == "done", outcome
    return resolve_s, turn_s


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mails", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=1_000)
    ap.add_argument("--bids", type=int, default=20)
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temp dir)")
    ap.add_argument("--ingest-only", action="store_true")
    ap.add_argument("--passwords", action="store_true", help="every player has a password, every mail carries it")
    args = ap.parse_args()
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory(prefix="maild-bench-") as tmp:
        t0 = time.perf_counter()
        app = make_app(Path(tmp), args.db, args.players, args.bids, args.passwords)
        print(f"game created with {args.players} players in {time.perf_counter() - t0:.2f} s")
        ingest_s = bench_ingest(app, args.mails, args.players, args.bids, rng, args.passwords)
        print(f"ingest: {args.mails} mails in {ingest_s:.2f} s = {args.mails / ingest_s:.0f} mails/s "
              f"(fetch, store, decode, parse, check, book, ack queued)")
        if args.ingest_only:
            app.db.close()
            return
        resolve_s, turn_s = bench_resolve(app, args.players, args.bids, args.bids, rng)
        print(f"auction: {args.players} players x {args.bids} bids: resolve {resolve_s:.3f} s")
        print(f"turn (framework, {args.players} players' order book from the ingest, printouts and "
              f"newsletters rendered and queued): {turn_s:.2f} s")
        app.db.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main()
