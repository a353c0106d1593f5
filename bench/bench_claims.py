"""What the claims of several daemons cost, and what two claimers gain, on PostgreSQL (not a test).

    .venv/bin/python bench/bench_claims.py [--mails 2000] [--players 200] [--db postgresql+psycopg://...]

1. Delivery: N queued mails sent to a sender that takes each at once (no transport: the database's work is
   what is measured), a batch of 100 at a time: one deliverer reading its batches as SQLite does (a plain
   SELECT), one claiming them (maild/outbox_claims.py), two claiming at once (two processes).
2. Intake: N Venice order mails from P players, stored, then read: one intake without the per-sender look
   (`attempts.in_turn` skipped), one with it, two at once (two processes, claims per sender).
Each in a fresh schema of the database, dropped afterwards. Rates are mails per second of wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, func, select, text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_maild import make_app  # noqa: E402
from maild.app import App  # noqa: E402
from maild.intake import attempts  # noqa: E402
from maild.intake.pipeline import process_new  # noqa: E402
from maild.intake.store import store_batch  # noqa: E402
from maild.mail.base import FetchedMail, OutgoingMail, SendResult  # noqa: E402
from maild.models import InboundMail, OutboundMail  # noqa: E402
from maild.outbox import OutboxRun, queue_mail  # noqa: E402
from maild.testing import postgres_schema  # noqa: E402

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
ITEMS = 10
BENCH = "bench-claims"  # the application_name of the intakes' sessions, by which their waits are sampled


class Taker:
    async def send(self, mail: OutgoingMail) -> SendResult:
        return SendResult("sent")

    async def close(self) -> None:
        pass


async def inline(fn: Callable[..., object], *args: object) -> object:
    return fn(*args)


def together(url: str, players: int, count: int, work: Callable[[App], int]) -> float:
    """Seconds of wall time for `work` in `count` processes at once, each with its app on `url` (processes,
    not threads: intake is Python's work, and one process runs it on one core at a time). Prints what each did
    (the mails `work` returns, its CPU seconds) when there are several."""
    ctx = multiprocessing.get_context("fork")
    start = ctx.Barrier(count + 1)
    done = ctx.Queue()

    def run() -> None:
        app = app_on(url, players)
        try:
            start.wait()
            cpu = time.process_time()
            mails = work(app)
            done.put((mails, time.process_time() - cpu))
        finally:
            app.db.close()

    procs = [ctx.Process(target=run) for _ in range(count)]
    for proc in procs:
        proc.start()
    start.wait()
    t0 = time.perf_counter()
    shares = [done.get() for _ in procs]
    for proc in procs:
        proc.join()
    elapsed = time.perf_counter() - t0
    assert all(proc.exitcode == 0 for proc in procs), [proc.exitcode for proc in procs]
    if count > 1:
        print("    each process: " + ", ".join(f"{mails} mails in {cpu:.1f} s of CPU" for mails, cpu in shares))
    else:
        print(f"    {shares[0][1]:.1f} s of CPU")
    return elapsed


def app_on(url: str, players: int) -> App:
    return make_app(Path(tempfile.mkdtemp(prefix="bench-claims-")), url, players, ITEMS)


@contextmanager
def sampling_waits(db: str) -> Iterator[Counter[str]]:
    """What the bench's active sessions wait for (pg_stat_activity, "cpu" for nothing), every 20 ms while the
    block runs: locks would show as Lock:..."""
    waits: Counter[str] = Counter()
    done = threading.Event()
    engine = create_engine(db)

    def sample() -> None:
        with engine.connect() as conn:
            while not done.is_set():
                waits.update(dict(conn.execute(_WAITS).all()))
                conn.commit()  # a fresh snapshot of the view each time
                time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        yield waits
    finally:
        done.set()
        sampler.join()
        engine.dispose()


_WAITS = text("SELECT coalesce(wait_event_type || ':' || wait_event, 'cpu'), count(*) FROM pg_stat_activity "
              f"WHERE application_name = '{BENCH}' AND state = 'active' GROUP BY 1")


def left_new(app: App) -> int:
    with app.db.session() as s:
        return s.scalar(select(func.count()).where(InboundMail.status == "new")) or 0


def bench_delivery(db: str, mails: int, players: int, claimers: int, claiming: bool) -> float:
    with postgres_schema(db) as url:
        app = app_on(url, players)
        try:
            with app.db.session() as s:
                for n in range(mails):
                    queue_mail(s, app, key=f"k{n}", kind="printout", to=[f"p{n % players:05d}@example.org"],
                               subject="s", body="b" * 2000, fresh_key=True)

            def deliver(app: App) -> int:
                run = OutboxRun(app, Taker(), inline)
                run.claiming = claiming
                asyncio.run(run.send_more())
                return run.sent

            rate = mails / together(url, players, claimers, deliver)
            with app.db.session() as s:
                assert s.scalar(select(func.count()).where(OutboundMail.status == "sent")) == mails
            return rate
        finally:
            app.db.close()


def order_mails(mails: int, players: int, rng: random.Random) -> list[FetchedMail]:
    out = []
    for n in range(mails):
        p = rng.randrange(players)
        bids = "\n".join(f"bid {rng.randint(1, 90)}$ for {rng.randint(1, 3)} of agenda {rng.randrange(ITEMS)}"
                         for _ in range(rng.randint(1, 4)))
        raw = (f"From: Player {p} <p{p:05d}@example.org>\r\nTo: gm@example.org\r\nSubject: bids {n}\r\n"
               f"Message-ID: <bench-{n}@example.org>\r\n\r\n{bids}\r\n").encode()
        out.append(FetchedMail(source="bench", uidvalidity=1, uid=str(n), raw=raw, arrived_at=None))
    return out


def bench_intake(db: str, mails: int, players: int, intakes: int, look: bool) -> float:
    with postgres_schema(f"{db}{'&' if '?' in db else '?'}application_name={BENCH}") as url:
        app = app_on(url, players)
        real = attempts.in_turn
        try:
            fetched = order_mails(mails, players, random.Random(7))
            for chunk in range(0, mails, 500):
                store_batch(app, fetched[chunk:chunk + 500])
            if not look:
                attempts.in_turn = lambda app, step: (step.ids, step.senders)  # type: ignore[assignment]

            def intake(app: App) -> int:
                read = 0
                while left_new(app):
                    counts = process_new(app)
                    read += sum(counts.values())
                    if not counts:
                        time.sleep(0.01)  # what is left is another's, for now
                return read

            with sampling_waits(db) as waits:
                rate = mails / together(url, players, intakes, intake)
            assert left_new(app) == 0
            if intakes > 1:
                print(f"    what the sessions did, sampled every 20 ms: {dict(waits.most_common())}")
            return rate
        finally:
            attempts.in_turn = real  # type: ignore[assignment]
            app.db.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--db", default=PG)
    args = parser.parse_args()
    n, p = args.mails, args.players
    print(f"delivery, {n} mails, batches of 100, mails/s:")
    print(f"  one deliverer, plain SELECT   {bench_delivery(args.db, n, p, 1, claiming=False):7.0f}")
    print(f"  one deliverer, claiming       {bench_delivery(args.db, n, p, 1, claiming=True):7.0f}")
    print(f"  two deliverers, claiming      {bench_delivery(args.db, n, p, 2, claiming=True):7.0f}")
    print(f"intake, {n} order mails from {p} players, mails/s:")
    print(f"  one intake, no per-sender look  {bench_intake(args.db, n, p, 1, look=False):7.0f}")
    print(f"  one intake                      {bench_intake(args.db, n, p, 1, look=True):7.0f}")
    print(f"  two intakes at once             {bench_intake(args.db, n, p, 2, look=True):7.0f}")


if __name__ == "__main__":
    main()
