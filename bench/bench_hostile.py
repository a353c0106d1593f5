"""Benchmark (not a test): hostile mail costs bounded time and memory.

    .venv/bin/python bench/bench_hostile.py [--mails 600] [--inbox-mb 1000] [--db URL] [--skip-memory]

1. Hostile mix: a Maildir inbox of order mails (first alone, for comparison) mixed with attacks (a
   From display name of 300,000 spaces, MIME nested 1,000 deep, NUL and control characters, an HTML
   body of 200,000 open tags, oversized mails, the same mail twice, mails sharing a Message-ID) goes
   through one daemon pass (fetch, store, intake; acks queued, not sent): mails/s, and what became of
   them.
2. Memory: the peak resident set size (ru_maxrss) of a process running `maild run --once` over a Maildir
   of big mails (9 MB each, under the 10 MB limit), once for a tenth of `--inbox-mb` and once for all of
   it: intake stores mail by mail, so the two peaks are about the same. The inboxes are made in a temp
   dir and deleted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchapp import venice_app  # noqa: E402
from maild.app import App  # noqa: E402
from maild.daemon import Daemon, PassReport  # noqa: E402
from maild.intake.pipeline import process_new  # noqa: E402
from maild.mail.maildir import MaildirInbox, MaildirSender, deliver  # noqa: E402

PLAYERS = 40
BIG_MAIL = 9_000_000


def setup_toml() -> str:
    lines = ["credit_limit = 100000", "interest_per_day = 0.05", f"scale_per_players = {PLAYERS}", ""]
    for i in range(PLAYERS):
        lines += ["[[players]]", f'name = "p{i:02d}"', f'email = "p{i:02d}@example.org"', ""]
    lines += ["[[agendas]]", 'name = "silk tax"', "value = 20", "force = 0", "popularity = 10", "influence = 20",
              "", "[[assets]]", 'name = "opera"', "force = 0", "popularity = 20", "influence = 0", "",
              "[[auctions]]", 'items = { "silk tax" = 10 }']
    lines += ["[[auctions]]", 'items = { "opera" = 1 }'] * 5 + ["[[auctions]]", 'items = { "silk tax" = 1 }']
    return "\n".join(lines) + "\n"


def make_app(root: Path, db_url: str | None) -> App:
    # The reply caps stay at their defaults: what they hold back of a hostile mix is part of the measure.
    return venice_app(root, db_url, setup_toml(), answer_all=False, daemon={"gm": "referee@example.org"})


def _head(sender: str, n: int, extra: str = "", subject: str = "bids") -> str:
    return (f"From: {sender}\r\nTo: gm@example.org\r\nSubject: {subject} {n}\r\n"
            f"Message-ID: <hostile-{n}@example.org>\r\n{extra}")


def normal(n: int, rng: random.Random) -> bytes:
    p = rng.randrange(PLAYERS)
    body = f"\r\nbid {rng.randint(1, 90)}$ for 1 of silk tax\r\n"
    return (_head(f"Player <p{p:02d}@example.org>", n) + body).encode()


def quadratic_from(n: int, rng: random.Random) -> bytes:
    return (_head("x" + " " * 300_000 + "<p01@example.org", n) + "\r\nbid 5$ for 1 of silk tax\r\n").encode()


def deep_mime(n: int, rng: random.Random) -> bytes:
    parts = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n' for i in range(1000))
    ends = "".join(f"--b{i}--\r\n" for i in reversed(range(1000)))
    return (_head("p02@example.org", n, "MIME-Version: 1.0\r\n") + parts +
            "Content-Type: text/plain\r\n\r\nbid 5$ for 1 of silk tax\r\n" + ends).encode()


def controls(n: int, rng: random.Random) -> bytes:
    return (_head("P\x00three <p03@example.org>", n, subject="bids\x00\x1b[2J") +
            "\r\nbid 5$\x00 for 1 of silk tax\x07\r\n").encode()


def open_tags(n: int, rng: random.Random) -> bytes:
    return (_head("p04@example.org", n, "Content-Type: text/html\r\n") + "\r\n" + "<a" * 100_000).encode()


def oversized(n: int, rng: random.Random) -> bytes:
    return (_head("p05@example.org", n) + "\r\n" + ("z" * 998 + "\r\n") * 10_500).encode()  # 10.5 MB


def shared_id(n: int, rng: random.Random) -> bytes:
    return normal(n, rng).replace(f"<hostile-{n}@".encode(), b"<shared@bulk.example>")


# Where in each run of 50 mails an attack stands (the rest are ordinary orders); one in 100 is oversized.
MIX: dict[int, tuple[str, Callable[[int, random.Random], bytes]]] = {
    3: ("quadratic From", quadratic_from), 11: ("MIME 1000 deep", deep_mime), 17: ("NUL/controls", controls),
    23: ("HTML open tags", open_tags), 29: ("shared Message-ID", shared_id), 37: ("NUL/controls", controls),
    43: ("shared Message-ID", shared_id),
}


def bench_mix(root: Path, mails: int, db_url: str | None, hostile: bool = True) -> None:
    app = make_app(root, db_url)
    rng = random.Random(8)
    assert app.config.inbound.path is not None and app.config.outbound.path is not None
    kinds: dict[str, int] = {}
    last: bytes | None = None
    for n in range(mails):
        kind, raw = "normal order", normal(n, rng)
        if not hostile:
            pass
        elif n % 50 in MIX:
            kind, maker = MIX[n % 50]
            raw = maker(n, rng)
        elif n % 100 == 49:
            kind, raw = "oversized 10.5 MB", oversized(n, rng)
        elif n % 25 == 7 and last is not None:
            kind, raw = "same mail twice", last
        if not hostile:  # ids of their own: a shared --db keeps the first run's mails
            raw = raw.replace(b"<hostile-", b"<plain-")
        last = raw
        kinds[kind] = kinds.get(kind, 0) + 1
        deliver(app.config.inbound.path, raw, name=f"{n:06d}.hostile")
    size = sum(p.stat().st_size for p in (app.config.inbound.path / "new").iterdir())
    daemon = Daemon(app, MaildirInbox(app.config.inbound.path), MaildirSender(app.config.outbound.path),
                    status_line=False)

    async def ingest() -> dict[str, int]:
        report = PassReport()
        await daemon.fetch(report)
        return await daemon.db(process_new, app)

    t0 = time.perf_counter()
    counts = asyncio.run(ingest())
    elapsed = time.perf_counter() - t0
    daemon._db.shutdown()
    what = "hostile mix" if hostile else "orders only"
    print(f"{what}: {mails} mails, {size / 1e6:.0f} MB, through fetch, store and intake in {elapsed:.1f} s: "
          f"{mails / elapsed:.0f} mails/s")
    print("  sent:     " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    with app.db.session() as s:
        from sqlalchemy import func, select

        from maild.models import InboundMail

        stored = dict(s.execute(select(InboundMail.status, func.count()).group_by(InboundMail.status)).all())
    print("  statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(stored.items())) + f" (this pass: {counts})")


_PEAK = textwrap.dedent("""
    import resource, sys
    from maild.cli import main
    code = main(["--config", sys.argv[1], "--now", "2026-11-22T10:00+00:00", "run", "--once"])
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
    sys.exit(code)
""")


def peak_rss(root: Path, megabytes: int) -> tuple[int, int, float, int]:
    """(mails, peak RSS in MB, seconds, inbox bytes) of one `maild run --once` over an inbox of big mails."""
    root.mkdir()
    (root / "setup.toml").write_text(setup_toml())
    config = root / "maild.toml"
    config.write_text(textwrap.dedent(f"""
        [database]
        url = "sqlite:///{root / 'bench.db'}"
        [mail.inbound]
        kind = "maildir"
        path = "{root / 'in'}"
        [mail.outbound]
        kind = "maildir"
        path = "{root / 'out'}"
        from = "gm@example.org"
        [[games]]
        name = "bench"
        ruleset = "venice"
        setup = "setup.toml"
        address = "gm@example.org"
    """))
    mails = max(1, megabytes * 1_000_000 // BIG_MAIL)
    rng = random.Random(1)
    chunk = os.urandom(BIG_MAIL // 4 * 3 // 100 * 100)  # base64 of it is about BIG_MAIL
    import base64

    attachment = base64.encodebytes(chunk)
    total = 0
    for n in range(mails):
        p = rng.randrange(PLAYERS)
        raw = (f"From: p{p:02d}@example.org\r\nTo: gm@example.org\r\nSubject: map {n}\r\n"
               f"Message-ID: <big-{n}@example.org>\r\nMIME-Version: 1.0\r\n"
               f'Content-Type: multipart/mixed; boundary="B"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\n'
               f"bid 5$ for 1 of silk tax\r\n--B\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n"
               f'Content-Disposition: attachment; filename="map{n}.png"\r\n\r\n').encode() + attachment + b"--B--\r\n"
        total += len(raw)
        deliver(root / "in", raw, name=f"{n:06d}.big")
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _PEAK, str(config)], capture_output=True, text=True, cwd=root)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return mails, int(done.stdout.split()[-1]), elapsed, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mails", type=int, default=600)
    ap.add_argument("--inbox-mb", type=int, default=1000)
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temp dir)")
    ap.add_argument("--skip-memory", action="store_true")
    args = ap.parse_args()
    for hostile in (False, True):
        with tempfile.TemporaryDirectory(prefix="maild-hostile-") as tmp:
            bench_mix(Path(tmp), args.mails, args.db, hostile)
    if args.skip_memory:
        return
    for megabytes in (args.inbox_mb // 10, args.inbox_mb):
        with tempfile.TemporaryDirectory(prefix="maild-inbox-") as tmp:
            mails, peak, elapsed, total = peak_rss(Path(tmp) / "run", megabytes)
        print(f"peak RSS of `maild run --once` over {mails} mails, {total / 1e6:.0f} MB of inbox: {peak} MB "
              f"({elapsed:.0f} s)")


if __name__ == "__main__":
    main()
