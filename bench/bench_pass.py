"""Benchmark (not a test): one whole daemon pass against the bare stdlib parse of the same mails.

    .venv/bin/python bench/bench_pass.py [--mails 2000] [--players 40] [--stored N [--stored-turns K]] [--db URL]
                                         [--profile FILE]

A generated setup makes the game, and a first pass with an empty inbox creates it and delivers its welcome
mails (untimed: the pass measured is intake's, not the game's creation). `--stored N` then writes N mails
already processed, from the same players, into the database as intake leaves them (the mail, its order set
on file, its answer recorded and sent), so that a mail's cost can be compared at 0 and at 50,000 stored.
N Venice order mails from P players are delivered into a temp Maildir. In the same run it times

1. the bare parse: every file read and parsed with `email.policy.default` + `get_body(("plain", "html"))`,
   nothing else (the floor any mail program pays for these mails), before and after the pass (the mean
   counts), and
2. one `maild run --once` pass over them (the Daemon, as the CLI builds it): store, intake (decode, route,
   parse, check, book, ack queued), then every ack delivered into the outbox Maildir and recorded as sent,

and prints both rates, their ratio (pass / bare parse), the milliseconds a mail and the SQL statements a mail
of the pass (counted by a `before_cursor_execute` listener on the engine). `--db postgresql+psycopg://...`
runs the pass on PostgreSQL (a fresh schema, dropped afterwards). `--profile FILE` writes a cProfile of the
pass: FILE for the event loop's thread, FILE.db for the database thread.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import email
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from email.policy import default
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchapp import venice_app  # noqa: E402
from maild.app import App  # noqa: E402
from maild.daemon import Daemon  # noqa: E402
from maild.mail.maildir import MaildirInbox, MaildirSender, deliver  # noqa: E402

# Before the first deadline, so the pass answers mail and runs no turn.
ITEMS = ("silk tax", "exile competitor", "opera", "senator", "swiss mercenaries")


def setup_toml(players: int) -> str:
    lines = ["credit_limit = 500", "interest_per_day = 0.05", f"scale_per_players = {max(1, players // 4)}", ""]
    for i in range(players):
        lines += ["[[players]]", f'name = "p{i:03d}"', f'email = "p{i:03d}@example.org"', ""]
    for name, value in (("silk tax", 20), ("exile competitor", 50)):
        lines += ["[[agendas]]", f'name = "{name}"', f"value = {value}", "force = 5", "popularity = 5",
                  "influence = 5", ""]
    for name in ("opera", "senator", "swiss mercenaries"):
        lines += ["[[assets]]", f'name = "{name}"', "force = 2", "popularity = 2", "influence = 2", ""]
    rounds = ['"silk tax" = 2, "exile competitor" = 1', '"opera" = 1, "senator" = 2',
              '"swiss mercenaries" = 2, "senator" = 1', '"senator" = 2', '"opera" = 1, "swiss mercenaries" = 1',
              '"senator" = 2, "swiss mercenaries" = 1', '"silk tax" = 1, "exile competitor" = 1']
    for items in rounds:
        lines += ["[[auctions]]", f"items = {{ {items} }}", ""]
    return "\n".join(lines)


def order_mail(n: int, player: int, rng: random.Random) -> bytes:
    """A mail as a player writes it: a few bids, now and then a loan, a signature."""
    bids = "\r\n".join(f"bid {rng.randint(1, 60)}$ for 1 of {rng.choice(ITEMS[:2])}" for _ in range(rng.randint(1, 3)))
    loan = "borrow 200$\r\n" if n % 7 == 0 else ""
    return (f"From: Player {player} <p{player:03d}@example.org>\r\nTo: gm@example.org\r\n"
            f"Subject: orders {n}\r\nMessage-ID: <pass-{n}@example.org>\r\n"
            f"Date: Sun, 22 Nov 2026 08:00:00 +0000\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n"
            f"{loan}{bids}\r\n\r\n-- \r\nPlayer {player}\r\n").encode()


def make_app(root: Path, db_url: str, players: int) -> App:
    return venice_app(root, db_url, setup_toml(players), create=False)  # the first, untimed, pass creates it


def daemon_of(app: App) -> Daemon:
    assert app.config.inbound.path is not None and app.config.outbound.path is not None
    return Daemon(app, MaildirInbox(app.config.inbound.path), MaildirSender(app.config.outbound.path),
                  status_line=False)


def create_game(app: App) -> None:
    """The daemon's start as a GM first runs it: the game created, its welcome mails delivered and recorded."""
    asyncio.run(daemon_of(app).run(once=True))


def prefill(app: App, stored: int, players: int, rng: random.Random, turns: int = 1) -> None:
    """`stored` mails already read, as intake leaves them: the mail row processed, its order set accepted on
    file, its ack recorded by the reply limits and sent. Written in bulk (reading them would take long); their
    orders are those of a few hundred mails parsed for real. With `turns` 1 (the worst case) every one is in
    the open turn's book and was received in the hours before the bench's clock, so that the reply caps count
    them all; with more, they are spread evenly over that many turns, a day each, up to the open one (a long
    season: the turns before it are numbered down from it, as past turns of the game)."""
    if not stored:
        return
    import hashlib

    import sqlalchemy as sa

    from maild.games import ruleset_named
    from maild.intake.orders import names_of, read_orders
    from maild.intake.read import read_mail
    from maild.models import Game, InboundMail, OrderSetRow, OutboundMail, Player, Reply

    ruleset = ruleset_named("venice")
    with app.db.session() as s:
        game = s.scalars(sa.select(Game)).one()
        ids = {p.email: p.id for p in s.scalars(sa.select(Player).where(Player.game_id == game.id))}
        game_id, turn = game.id, game.turn
    samples = []
    for n in range(min(stored, 300)):
        player = rng.randrange(players)
        raw = order_mail(-1 - n, player, rng)
        mail = read_mail(raw)
        parsed = read_orders(ruleset, mail.order_text, names_of(mail.from_display), mail.line_map).parsed
        samples.append([o.to_json() for o in parsed.orders])
    now = app.now()
    chunk = 5000
    for first in range(0, stored, chunk):
        mails = []
        for n in range(first, min(stored, first + chunk)):
            player = n % players
            address = f"p{player:03d}@example.org"
            raw = order_mail(-100_000 - n, player, rng)
            back = stored - n  # the last one stored is the newest
            at = now - (timedelta(seconds=back * 0.5) if turns == 1 else timedelta(days=back * turns / stored))
            mails.append(dict(source="prefill", uidvalidity=1, uid=str(n), raw=raw, size=len(raw),
                              message_id=f"<pass-{-100_000 - n}@example.org>",
                              digest=hashlib.sha256(raw).hexdigest(), received_at=at, status="orders",
                              attempts=1, sender=address, subject=f"orders {n}", game_id=game_id,
                              player_id=ids[address]))
        with app.db.session() as s:
            table = InboundMail.__table__
            mail_ids = s.scalars(sa.insert(table).returning(table.c.id, sort_by_parameter_order=True), mails).all()
            sets, replies, out = [], [], []
            for n, (mid, mail) in enumerate(zip(mail_ids, mails, strict=True), start=first):
                at, address, player_id = mail["received_at"], mail["sender"], mail["player_id"]
                book_turn = turn - (stored - 1 - n) * turns // stored
                sets.append(dict(game_id=game_id, player_id=player_id, turn=book_turn, mail_id=mid, seq=mid,
                                 orders=samples[n % len(samples)], diagnostics=[], status="accepted"))
                replies.append(dict(address=address, kind="ack", game_id=game_id, mail_id=mid, created_at=at,
                                    status="queued", message_id=f"<prefill-{n}@example.org>", echo=False))
                out.append(dict(key=f"ack:{mid}", message_id=f"<prefill-{n}@example.org>", kind="ack",
                                game_id=game_id, sender="gm@example.org", recipients=[address],
                                subject=f"Re: orders {n} [bench]", raw=b"(sent)", status="sent", attempts=1,
                                next_attempt_at=at, created_at=at, sent_at=at))
            for model, rows in ((OrderSetRow, sets), (Reply, replies), (OutboundMail, out)):
                s.execute(sa.insert(model.__table__), rows)
            s.commit()
    if app.db.engine.dialect.name == "postgresql":
        with app.db.engine.connect() as conn:  # as autovacuum would have, long before 50,000 mails
            conn.execution_options(isolation_level="AUTOCOMMIT").execute(sa.text("ANALYZE"))


class Statements:
    """SQL statements the engine sends while `counting`."""

    def __init__(self, app: App) -> None:
        self.count = 0
        self.counting = False
        event.listen(app.db.engine, "before_cursor_execute", self._seen)

    def _seen(self, *args: object) -> None:
        if self.counting:
            self.count += 1


class Timer:
    """Wall-clock and CPU seconds (this process, every thread) of a `with` block."""

    def __enter__(self) -> Timer:
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self._wall, time.process_time() - self._cpu


def bare_parse(folder: Path) -> tuple[int, Timer]:
    """Read and decode every mail in `folder` the plain stdlib way; (mails, time taken)."""
    files = sorted(folder.iterdir())
    with Timer() as timer:
        for path in files:
            msg = email.message_from_bytes(path.read_bytes(), policy=default)
            body = msg.get_body(("plain", "html"))  # type: ignore[attr-defined]
            assert body is not None and body.get_content()
    return len(files), timer


def one_pass(app: App, profile: Path | None, statements: Statements) -> Timer:
    """The timed pass: `Daemon.one_pass` (fetch and store, intake, the acks delivered and recorded), the
    daemon's start (its games already made) and its close outside the timing."""
    daemon = daemon_of(app)

    async def timed(run: Callable[[], Any]) -> Timer:
        await daemon.db(lambda: None)  # the database thread started
        statements.counting = True
        with Timer() as timer:
            run()
            await daemon.one_pass()
        statements.counting = False
        await daemon.close()
        return timer

    if profile is None:
        return asyncio.run(timed(lambda: None))
    # cProfile sees one thread: profile the event loop, and each call on the database thread apart.
    loop_prof, db_prof = cProfile.Profile(), cProfile.Profile()
    on_db = daemon.db

    async def profiled_db(fn, *args):  # type: ignore[no-untyped-def]
        return await on_db(db_prof.runcall, fn, *args)

    daemon.db = profiled_db  # type: ignore[method-assign]
    daemon.delivery.outbox.run_db = profiled_db
    timer = asyncio.run(timed(loop_prof.enable))
    loop_prof.disable()
    loop_prof.dump_stats(profile)
    db_prof.dump_stats(profile.with_name(profile.name + ".db"))
    return timer


def postgres_schema(url: str) -> tuple[str, str]:
    """A fresh schema on the given PostgreSQL database: (its URL, its name)."""
    import sqlalchemy as sa

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}", schema


def drop_schema(url: str, schema: str) -> None:
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
    engine.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mails", type=int, default=2000)
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--stored", type=int, default=0, help="mails already processed in the database before the pass")
    ap.add_argument("--stored-turns", type=int, default=1, help="spread the stored mails over this many daily turns "
                                                                 "up to the open one (default 1: all in its book)")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in the temp dir); PostgreSQL "
                                               "gets a fresh schema, dropped afterwards")
    ap.add_argument("--profile", type=Path, default=None, help="write cProfiles of the pass to FILE and FILE.db")
    args = ap.parse_args()
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory(prefix="maild-pass-") as tmp:
        root = Path(tmp)
        schema = None
        url = args.db or f"sqlite:///{root / 'bench.db'}"
        if url.startswith("postgresql"):
            url, schema = postgres_schema(args.db)
        try:
            app = make_app(root, url, args.players)
            create_game(app)
            welcomes = {f.name for f in (root / "out" / "new").iterdir()}
            prefill(app, args.stored, args.players, rng, args.stored_turns)
            for n in range(args.mails):
                deliver(root / "in", order_mail(n, rng.randrange(args.players), rng), name=f"{n:06d}.bench")
            statements = Statements(app)
            # Before and after the pass (the mails are in cur/ then), so that a change in the machine's load
            # during the run weighs on both sides alike.
            parsed, before = bare_parse(root / "in" / "new")
            passed = one_pass(app, args.profile, statements)
            again, after = bare_parse(root / "in" / "cur")
            assert again == parsed, f"{again} mails in cur/ after the pass, {parsed} before"
            app.db.close()
            # What the pass delivered: an ack (RFC 3834 auto-replied) for each mail.
            acks = sum(b"\nAuto-Submitted: auto-replied\n" in f.read_bytes()
                       for f in (root / "out" / "new").iterdir() if f.name not in welcomes)
        finally:
            if schema:
                drop_schema(args.db, schema)
    assert acks == args.mails, f"{acks} acks delivered for {args.mails} mails"
    parse_wall, parse_cpu = (before.wall + after.wall) / 2, (before.cpu + after.cpu) / 2
    print(f"database: {'PostgreSQL' if schema else 'SQLite'}; {args.mails} Venice order mails from "
          f"{args.players} players; {args.stored} mails stored before"
          + (f" over {args.stored_turns} turns" if args.stored_turns > 1 else ""))
    print(f"bare parse (email.policy.default + get_body): {parsed / parse_wall:7.0f} mails/s  "
          f"({parse_wall:.2f} s; CPU {parse_cpu:.2f} s)")
    print(f"whole pass (store, intake, ack, delivery):    {args.mails / passed.wall:7.0f} mails/s  "
          f"({passed.wall:.2f} s; CPU {passed.cpu:.2f} s)")
    print(f"pass: {1000 * passed.wall / args.mails:.2f} ms a mail; {statements.count / args.mails:.2f} SQL "
          f"statements a mail ({statements.count} in all)")
    # The CPU ratio is steadier on a busy machine; the wall-clock one is what a GM sees.
    print(f"CPU ratio pass / bare parse: {parse_cpu / passed.cpu:.2f}")
    print(f"ratio pass / bare parse: {parse_wall / passed.wall:.2f}")


if __name__ == "__main__":
    main()
