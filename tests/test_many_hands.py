"""One database, many hands: a running daemon, CLI commands beside it, and turns that count every mail stored
before them, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest
from psycopg.errors import (
    AdminShutdown,
    ConfigurationLimitExceeded,
    DeadlockDetected,
    DiskFull,
    OutOfMemory,
    SerializationFailure,
    UniqueViolation,
)
from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from maild.app import App
from maild.db import Database, is_transient, upgrade
from maild.intake.pipeline import process_new
from maild.intake.store import store_batch
from maild.mail.maildir import deliver
from maild.models import InboundMail, OutboundMail
from maild.turn import run_turn
from tests.conftest import answering_every_mail, make_app, write_gm_config
from tests.dbfaults import fail_mail, transient_error
from tests.mailflow import BEFORE, count_turns, fetched, game_app, order_mail

NOW = "2026-11-22T09:00+01:00"  # the morning of turn 1 of write_gm_config's week


def maild_cmd(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`maild --config CONFIG ARGS` at the time the daemon beside it starts from (a `--now` in ARGS wins)."""
    return subprocess.run([sys.executable, "-m", "maild", "--config", str(config), "--now", NOW, *args],
                          capture_output=True, text=True, timeout=300, cwd=config.parent)


@pytest.mark.slow
def test_cli_commands_beside_a_running_daemon_all_succeed(tmp_path: Path, db_url: str) -> None:
    """The daemon works a steady stream of mail while a GM runs commands in other processes: every command
    succeeds, no mail ends `error` (today on SQLite: "database is locked") and what the GM ingested before his
    `turn run` counts for that turn."""
    config = write_gm_config(tmp_path, inbox="in", outbox="out", daemon="poll_interval = 1")
    config.write_text(config.read_text().replace('url = "sqlite:///maild.db"', f'url = "{db_url}"'))
    assert maild_cmd(config, "--now", NOW, "init").returncode == 0
    # A game that takes the GM's own orders (Venice takes none), run by hand: no deadline.
    assert maild_cmd(config, "game", "create", "ren1", "--ruleset", "renaissance").returncode == 0
    backlog = 600
    for n in range(backlog):
        deliver(tmp_path / "in", order_mail(n, "daemon"), name=f"first{n:04d}")
    # Its output goes to a file: a pipe nobody reads fills up and stops the daemon in mid-transaction.
    log_path = tmp_path / "daemon.log"
    daemon_log = log_path.open("w")
    daemon = subprocess.Popen([sys.executable, "-m", "maild", "--config", str(config), "run",
                               "--now", NOW], cwd=tmp_path,
                              stdout=daemon_log, stderr=subprocess.STDOUT, text=True)
    stop = threading.Event()

    def keep_mail_coming() -> None:  # the daemon keeps writing all through the test
        n = backlog
        while not stop.is_set():
            for _ in range(20):
                deliver(tmp_path / "in", order_mail(n, "daemon"), name=f"more{n:05d}")
                n += 1
            time.sleep(0.5)

    feeder = threading.Thread(target=keep_mail_coming)
    feeder.start()
    results: list[subprocess.CompletedProcess[str]] = []
    started = time.monotonic()
    try:
        time.sleep(1.5)  # the daemon is busy with the backlog
        for i in range(4):
            emls = []
            for j in range(5):
                path = tmp_path / f"cli{i}-{j}.eml"
                path.write_bytes(order_mail(1000 * (i + 1) + j, "cli"))
                emls.append(str(path))
            results.append(maild_cmd(config, "--now", NOW, "mail", "ingest", *emls))
            results.append(maild_cmd(config, "game", "list"))
            results.append(maild_cmd(config, "gm", "bulletin", "ren1", f"bulletin {i}"))
        results.append(maild_cmd(config, "turn", "run", "venice1", "--turn", "1", "--now", NOW))
        results.append(maild_cmd(config, "turn", "run", "venice1", "--turn", "2", "--now", NOW))
    finally:
        stop.set()
        feeder.join()
        time.sleep(2)
        daemon.terminate()
        daemon.wait(timeout=120)
        daemon_log.close()
        err = log_path.read_text()
    print(f"{len(results)} commands beside the daemon in {time.monotonic() - started:.1f} s")
    failed = [(r.args[4:], r.returncode, r.stderr[-500:]) for r in results if r.returncode != 0]
    assert not failed
    assert "database is locked" not in err
    db = Database(db_url)
    try:
        with db.session() as s:
            statuses = dict(s.execute(text("SELECT status, count(*) FROM inbound_mails GROUP BY status")).all())
            assert "error" not in statuses, statuses
            assert statuses.get("orders", 0) >= backlog + 20
            turns = s.execute(text("SELECT number, status FROM turns JOIN games ON games.id = turns.game_id "
                                   "WHERE games.name = 'venice1' ORDER BY number")).all()
            assert [tuple(t) for t in turns] == [(1, "done"), (2, "done"), (3, "open")]
            # Every mail the GM ingested before the first `turn run` counts for turn 1.
            assert s.execute(text("SELECT DISTINCT o.turn FROM order_sets o JOIN inbound_mails m ON m.id = o.mail_id "
                                  "WHERE m.source = 'ingest'")).all() == [(1,)]
    finally:
        db.close()


def test_turn_run_counts_every_mail_stored_before_it(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    """Mail stored but not yet read when the GM runs the turn counts for that turn, on both databases."""
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        ids = store_batch(app, [fetched(n) for n in range(300)])
        assert all(ids)
        outcome = run_turn(app, "venice1", force=True)
        assert outcome.status == "done"
        with app.db.session() as s:
            assert s.scalar(select(func.count()).where(InboundMail.status == "new")) == 0
        assert count_turns(app, 1) == {1: 300}
    finally:
        app.db.close()


@pytest.mark.slow
def test_turn_run_beside_intake_counts_every_mail_stored_before_it(tmp_path: Path, db_url: str,
                                                                   venice_setup: Path) -> None:
    """The daemon's intake works through 2,000 stored mails in another thread while the GM runs the turn:
    every one of them counts for the turn being run (today PostgreSQL pushes most to the next turn)."""
    app = game_app(tmp_path, db_url, venice_setup)
    other = make_app(tmp_path, db_url, BEFORE, venice_setup)
    try:
        for start in range(0, 2000, 500):
            store_batch(app, [fetched(n) for n in range(start, start + 500)])
        errors: list[BaseException] = []

        def intake() -> None:
            try:
                process_new(other)
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                errors.append(exc)

        worker = threading.Thread(target=intake)
        worker.start()
        time.sleep(0.5)
        outcome = run_turn(app, "venice1", force=True)
        worker.join()
        assert not errors
        assert outcome.status == "done"
        with app.db.session() as s:
            statuses = dict(s.execute(select(InboundMail.status, func.count()).group_by(InboundMail.status)).all())
        assert statuses == {"orders": 2000}
        assert count_turns(app, 1) == {1: 2000}
    finally:
        app.db.close()
        other.db.close()



def statuses_of(app: App) -> dict[int, str]:
    with app.db.session() as s:
        return dict(s.execute(select(InboundMail.id, InboundMail.status)).all())  # type: ignore[arg-type]


def gm_notices(app: App) -> list[str]:
    with app.db.session() as s:
        return list(s.scalars(select(OutboundMail.subject).where(OutboundMail.kind == "gm")))


def test_a_mail_failed_by_a_transient_error_is_retried_and_booked(tmp_path: Path, db_url: str, venice_setup: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock or serialization failure while reading a mail is the database's, not the mail's: the mail is read
    again and booked (today it ends `error` for good, the GM told of a mail that was fine)."""
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        store_batch(app, [fetched(n) for n in range(3)])
        calls = fail_mail(monkeypatch, "bids 1", transient_error(db_url), times=3)
        assert process_new(app) == {"orders": 3}
        assert len(calls) == 4
        assert set(statuses_of(app).values()) == {"orders"}
        assert count_turns(app, 1) == {1: 3}
        assert gm_notices(app) == []
    finally:
        app.db.close()


def test_a_mail_still_failing_transiently_waits_new_for_the_next_pass(
        tmp_path: Path, db_url: str, venice_setup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        store_batch(app, [fetched(n) for n in range(3)])
        fail_mail(monkeypatch, "bids 1", transient_error(db_url), times=1000)
        counts = process_new(app)
        assert counts == {"orders": 2, "retry": 1}
        assert statuses_of(app) == {1: "orders", 2: "new", 3: "orders"}
        monkeypatch.undo()  # the database is itself again
        assert process_new(app) == {"orders": 1}
        assert count_turns(app, 1) == {1: 3}
        assert gm_notices(app) == []
    finally:
        app.db.close()


def test_a_real_bug_still_ends_error_and_the_gm_is_told(tmp_path: Path, db_url: str, venice_setup: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        store_batch(app, [fetched(n) for n in range(3)])
        calls = fail_mail(monkeypatch, "bids 1", KeyError("a bug"), times=1000)
        assert process_new(app) == {"orders": 2, "error": 1}
        assert len(calls) == 2  # the batch, then the mail alone: a bug is not tried again and again
        assert statuses_of(app) == {1: "orders", 2: "error", 3: "orders"}
        assert gm_notices(app) == ["[maild] mail 2 could not be processed"]
    finally:
        app.db.close()


@pytest.mark.parametrize("exc, transient", [
    (OperationalError("BEGIN", {}, sqlite3.OperationalError("database is locked")), True),
    (sqlite3.OperationalError("database is locked"), True),
    (OperationalError("SELECT", {}, sqlite3.OperationalError("no such table: games")), False),
    (OperationalError("UPDATE", {}, SerializationFailure("could not serialize access")), True),
    (OperationalError("UPDATE", {}, DeadlockDetected("deadlock detected")), True),
    (OperationalError("SELECT", {}, AdminShutdown("terminating connection")), True),
    (DBAPIError("SELECT", {}, Exception("server closed the connection"), connection_invalidated=True), True),
    (IntegrityError("INSERT", {}, UniqueViolation("duplicate key")), False),
    (KeyError("a bug"), False),
    # A full disk or an I/O error is the database's trouble, not the mail's: it passes once space returns.
    (OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full")), True),
    (OperationalError("COMMIT", {}, sqlite3.OperationalError("disk I/O error")), True),
    (OperationalError("INSERT", {}, DiskFull("could not extend file")), True),
    (OperationalError("SELECT", {}, OutOfMemory("out of memory")), True),
    (OperationalError("SELECT", {}, ConfigurationLimitExceeded("too many locks")), False),
    # The server not there at all: psycopg's own failure, without a SQLSTATE.
    (OperationalError("connect", {}, psycopg.OperationalError("connection failed: Connection refused")), True),
    (psycopg.OperationalError("the connection is closed"), True),
    (psycopg.ProgrammingError("a bug"), False),
])
def test_which_failures_are_transient(exc: BaseException, transient: bool) -> None:
    assert is_transient(exc) is transient


def test_a_writer_gets_its_turn_beside_one_that_commits_back_to_back(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A daemon working through a backlog begins a transaction the moment it committed the last; SQLite's own
    busy wait would let a command beside it wait until the backlog is done, or time out. Writers take turns."""
    url = f"sqlite:///{tmp_path / 'maild.db'}"
    busy, gm = Database(url), Database(url)
    upgrade(busy.engine)
    stop = threading.Event()
    commits = [0]

    def backlog() -> None:
        while not stop.is_set():
            with busy.session() as s:
                s.execute(text("UPDATE games SET turn = turn + 1"))
                time.sleep(0.02)  # a batch of mails being read
            commits[0] += 1

    worker = threading.Thread(target=backlog)
    worker.start()
    try:
        time.sleep(0.3)
        waits = []
        for _ in range(5):
            start = time.monotonic()
            with gm.session() as s:
                s.execute(text("UPDATE games SET finished = finished"))
            waits.append(time.monotonic() - start)
        assert commits[0] > 10 and not stop.is_set()
    finally:
        stop.set()
        worker.join()
        busy.close()
        gm.close()
    assert max(waits) < 1.0, waits


def test_two_intakes_at_once_read_each_mail_once(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    """The daemon's intake and a GM's `mail ingest` (or a second daemon one day) working through the same
    stored mail: each mail is read once, booked once, answered once, and none ends `error` (today SQLite says
    "database is locked"; on PostgreSQL the second intake read the mail too and was stopped by the unique keys,
    now it waits for the first one's row lock and leaves the mail)."""
    apps = [game_app(tmp_path, db_url, venice_setup), make_app(tmp_path, db_url, BEFORE, venice_setup)]
    for app in apps:  # three players mail 600 times: the reply caps are raised so that each mail is answered
        answering_every_mail(app)
    try:
        store_batch(apps[0], [fetched(n) for n in range(600)])
        errors: list[BaseException] = []

        def intake(app: App) -> None:
            try:
                process_new(app)
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                errors.append(exc)

        workers = [threading.Thread(target=intake, args=(app,)) for app in apps]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert not errors
        assert set(statuses_of(apps[0]).values()) == {"orders"}
        assert count_turns(apps[0], 1) == {1: 600}
        with apps[0].db.session() as s:
            assert s.scalar(select(func.count()).where(OutboundMail.kind == "ack")) == 600
        assert gm_notices(apps[0]) == []
    finally:
        for app in apps:
            app.db.close()
