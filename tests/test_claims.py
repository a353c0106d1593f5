"""Intake attempts under contention: only a real crash or stall counts. The daemon and the GM's commands read
the same stored mail; a mail one of them began is that one's, a look at it or a lock wait never counts as an
attempt, and an attempt taken back after a transient failure is taken back even when the database refuses
at first. On real processes, SQLite and PostgreSQL."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import OperationalError

from maild.app import App
from maild.db import Database
from maild.intake import attempts, claims
from maild.intake.pipeline import process_new
from maild.intake.store import store_batch
from maild.mail.maildir import deliver
from maild.models import InboundMail
from tests.conftest import write_gm_config
from tests.dbfaults import fail_mail, transient_error
from tests.mailflow import fetched, game_app, order_mail

NOW = "2026-11-22T09:00+01:00"


def maild_cmd(config: Path, *args: str, **popen: object) -> subprocess.Popen[str]:
    """`maild --config CONFIG ARGS` at NOW (a `--now` in ARGS wins)."""
    return subprocess.Popen([sys.executable, "-m", "maild", "--config", str(config), "--now", NOW, *args],
                            cwd=config.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **popen)  # type: ignore[call-overload]


def attempts_of(app: App) -> dict[int, tuple[str, int]]:
    with app.db.session() as s:
        return {r.id: (r.status, r.attempts) for r in s.execute(select(InboundMail.id, InboundMail.status,
                                                                         InboundMail.attempts))}


def wait_for(path: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.05)


# A `maild mail ingest` that stops between counting its attempts and reading the mails (where another process
# can get in: SQLite gives the write lock to whoever asks, PostgreSQL holds no lock in between) until told.
_PAUSED_INGEST = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from maild.intake import pipeline
    real = pipeline._process_batch_retrying
    began, go = Path(sys.argv[1]), Path(sys.argv[2])

    def paused(app, batch, run, *senders):
        began.touch()
        while not go.exists():
            time.sleep(0.02)
        return real(app, batch, run, *senders)

    pipeline._process_batch_retrying = paused
    from maild.cli import main
    sys.exit(main(sys.argv[3:]))
""")


def test_a_mail_another_process_began_is_its_own(tmp_path: Path, db_url: str) -> None:
    """While the GM's `mail ingest` has counted its attempt on a mail and not yet read it, the daemon's intake
    leaves the mail alone: it neither counts an attempt of its own nor reads it (before, it took the count for a
    crash, counted again and read the mail as a retry; a few such looks made a good mail poison)."""
    config = write_gm_config(tmp_path, inbox="in", outbox="out")
    config.write_text(config.read_text().replace('url = "sqlite:///maild.db"', f'url = "{db_url}"'))
    eml = tmp_path / "orders.eml"
    eml.write_bytes(order_mail(1))
    began, go = tmp_path / "began", tmp_path / "go"
    ingest = subprocess.Popen([sys.executable, "-c", _PAUSED_INGEST, str(began), str(go), "--config", str(config),
                               "--now", NOW, "mail", "ingest", str(eml)], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(began)
        from maild.cli import build_parser, make_app

        app = make_app(build_parser().parse_args(["--config", str(config), "--now", NOW, "game", "list"]))
        try:
            for _ in range(3):  # three passes of the daemon meanwhile
                assert process_new(app) == {}
            assert attempts_of(app) == {1: ("new", 1)}
            go.touch()
            out, err = ingest.communicate(timeout=120)
            assert ingest.returncode == 0, err
            assert out.strip() == f"{eml}: mail 1: orders"
            assert attempts_of(app) == {1: ("orders", 1)}
        finally:
            app.db.close()
    finally:
        go.touch()
        ingest.wait(timeout=120)


def test_an_attempt_taken_back_while_the_database_refuses_is_taken_back_later(
        tmp_path: Path, db_url: str, venice_setup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mail left new by a transient failure gets its attempt back; if the database refuses that too, the
    attempt is owed and taken back before the next count (before, it stayed: a database in the way for three
    passes made a good mail poison)."""
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        store_batch(app, [fetched(n) for n in range(3)])
        fail_mail(monkeypatch, "bids 1", transient_error(db_url), times=1000)
        real = app.db.transaction
        refused: list[str] = []

        def transaction(fn, what="a transaction"):  # type: ignore[no-untyped-def]
            if what == "forgiving intake attempts" and not refused:
                refused.append(what)
                raise OperationalError("UPDATE inbound_mails", {}, Exception("the database is away"))
            return real(fn, what)

        monkeypatch.setattr(app.db, "transaction", transaction)
        assert process_new(app) == {"orders": 2, "retry": 1}
        assert refused and attempts_of(app)[2] == ("new", 1)  # owed
        monkeypatch.undo()
        assert process_new(app) == {"orders": 1}
        assert attempts_of(app) == {1: ("orders", 1), 2: ("orders", 1), 3: ("orders", 1)}
    finally:
        app.db.close()


# Another process holding the mails of argv[3] (a JSON list), with the senders of argv[4], until killed.
_HOLDER = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from maild.db import Database
    from maild.intake import claims
    db = Database(sys.argv[1])
    ids, senders = json.loads(sys.argv[3]), json.loads(sys.argv[4])
    with claims.holding(db, ids, senders) as held:
        assert held == ids, held
        Path(sys.argv[2]).touch()
        time.sleep(3600)
""")


def holder_process(tmp_path: Path, db_url: str, ids: list[int],
                   senders: list[str | None] | None = None) -> subprocess.Popen[bytes]:
    """A process of its own holding `ids` (through `senders`), once it holds them."""
    ready = tmp_path / "ready"
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, db_url, str(ready), json.dumps(ids),
                               json.dumps(senders or [])], cwd=tmp_path)
    wait_for(ready)
    return holder


def test_a_claim_is_held_while_its_process_lives_and_freed_when_it_is_killed(tmp_path: Path, db_url: str) -> None:
    holder = holder_process(tmp_path, db_url, [1, 2, 3])
    db = Database(db_url)
    try:
        with claims.holding(db, [2, 3, 4]) as held:
            assert held == [4]
        holder.kill()
        holder.wait()
        deadline = time.monotonic() + 10  # PostgreSQL ends the session when it reads the closed socket
        while True:
            with claims.holding(db, [1, 2, 3]) as held:
                if held == [1, 2, 3] or time.monotonic() > deadline:
                    break
            time.sleep(0.05)
        assert held == [1, 2, 3]
    finally:
        holder.kill()
        holder.wait()
        db.close()


def test_a_sender_held_by_another_process_holds_all_its_mails_until_it_is_killed(tmp_path: Path, db_url: str) -> None:
    holder = holder_process(tmp_path, db_url, [1, 2], ["alice@example.org", None])
    db = Database(db_url)
    try:
        # Alice's other mails are hers too; mail 2 is held alone (no sender); mail 3 of Bob is free.
        with claims.holding(db, [2, 3, 7, 8], [None, "bob@example.org", "alice@example.org", None]) as held:
            assert held == [3, 8]
        with claims.holding(db, [1, 2], ["bob@example.org", "alice@example.org"]) as held:  # by sender, not id
            assert held == [1]
        holder.kill()
        holder.wait()
        deadline = time.monotonic() + 10  # PostgreSQL ends the session when it reads the closed socket
        while True:
            with claims.holding(db, [7], ["alice@example.org"]) as held:
                if held == [7] or time.monotonic() > deadline:
                    break
            time.sleep(0.05)
        assert held == [7]  # a killed holder's senders are free
    finally:
        holder.kill()
        holder.wait()
        db.close()


def test_claims_come_back_after_their_connection_was_cut(db_url: str) -> None:
    """PostgreSQL ends the claims' own session (a restart, an idle-connection killer): the next claim opens a
    new one instead of failing."""
    if db_url.startswith("sqlite"):
        pytest.skip("SQLite's claims are file locks of this process")
    db = Database(db_url)
    try:
        with claims.holding(db, [1]) as held:
            assert held == [1]
        session = claims._for(db)._connection()  # type: ignore[union-attr]
        pid = session.execute(text("SELECT pg_backend_pid()")).scalar()
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar()
        with claims.holding(db, [1, 2]) as held:
            assert held == [1, 2]
    finally:
        db.close()


@pytest.mark.slow
def test_order_mails_beside_twenty_commands_are_each_read_once_and_never_poison(tmp_path: Path) -> None:
    """SQLite: `maild run` works through a stream of order mails while 20 commands that write (`mail ingest`,
    which runs intake too, `gm bulletin`, `game list`) run at once, twice over. Every order mail is read once,
    acked once, counted one attempt, and none is set aside as poison (before: mails counted 2 to 4 attempts
    without any crash, and some were set aside as poison)."""
    config = write_gm_config(tmp_path, inbox="in", outbox="out", daemon="poll_interval = 1")
    config.write_text(config.read_text() + "[limits]\nreplies_per_hour = 100000\nreplies_per_day = 100000\n")
    assert maild_cmd(config, "--now", NOW, "init").wait() == 0
    assert maild_cmd(config, "game", "create", "ren1", "--ruleset", "renaissance").wait() == 0
    for n in range(100):
        deliver(tmp_path / "in", order_mail(n, "d"), name=f"a{n:05d}")
    log_path = tmp_path / "daemon.log"
    with log_path.open("w") as log:
        daemon = subprocess.Popen([sys.executable, "-m", "maild", "--config", str(config), "run", "--now", NOW],
                                  cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, text=True)
        stop = threading.Event()

        def keep_mail_coming() -> None:
            n = 100
            while not stop.is_set():
                for _ in range(10):
                    deliver(tmp_path / "in", order_mail(n, "d"), name=f"b{n:05d}")
                    n += 1
                time.sleep(0.3)

        feeder = threading.Thread(target=keep_mail_coming)
        feeder.start()
        failed = []
        try:
            time.sleep(1)
            m = 0
            for round_ in range(2):
                commands = []
                for i in range(20):
                    if i % 2 == 0:
                        files = []
                        for _ in range(3):
                            files.append(tmp_path / f"c{m}.eml")
                            files[-1].write_bytes(order_mail(m, "c"))
                            m += 1
                        commands.append(maild_cmd(config, "--now", NOW, "mail", "ingest", *map(str, files)))
                    elif i % 4 == 1:
                        commands.append(maild_cmd(config, "gm", "bulletin", "ren1", f"bulletin {round_} {i}"))
                    else:
                        commands.append(maild_cmd(config, "game", "list"))
                for c in commands:
                    _out, err = c.communicate(timeout=300)
                    if c.returncode:
                        failed.append((c.args[4:7], err[-300:]))
        finally:
            stop.set()
            feeder.join()
            # Whatever was delivered is read before the daemon stops.
            deadline = time.monotonic() + 120
            while any((tmp_path / "in" / "new").iterdir()) and time.monotonic() < deadline:
                time.sleep(0.5)
            time.sleep(3)
            daemon.terminate()
            daemon.wait(timeout=120)
    assert not failed
    db = sqlite3.connect(tmp_path / "maild.db")
    statuses = dict(db.execute("SELECT status, count(*) FROM inbound_mails GROUP BY status").fetchall())
    counted = dict(db.execute("SELECT attempts, count(*) FROM inbound_mails GROUP BY attempts").fetchall())
    mails = sum(statuses.values())
    print(f"{mails} mails: {statuses}; attempts counted: {counted}")
    assert statuses == {"orders": mails}
    assert counted == {1: mails}
    acks = db.execute("SELECT count(*), count(DISTINCT key) FROM outbound_mails WHERE kind = 'ack'").fetchone()
    assert acks == (mails, mails)


def test_plan_remembers_the_count_it_read() -> None:
    steps = list(attempts.plan([(1, 0), (2, 2), (3, 3)], batch=50, max_attempts=3))
    assert [(s.ids, s.seen, s.retry, s.poison) for s in steps] == [
        ([1], 0, False, False), ([2], 2, True, False), ([3], 3, True, True)]

