"""Real database faults for tests (no tests here): a SQLite file that may not grow (SQLITE_FULL, as on a full
disk), and PostgreSQL connections terminated by the server between two statements."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import pytest
import sqlalchemy as sa
from psycopg.errors import SerializationFailure
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from maild.daemon import Daemon
from maild.db import Database
from maild.intake import pipeline


class FullDisk:
    """The SQLite database of `db` may not grow past its present size: `max_page_count`, set on every connection
    `db` opens, makes SQLite fail a write that needs a new page with SQLITE_FULL, as a full disk does."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.limit: int | None = None
        event.listen(db.engine, "connect", self._limit)

    def _limit(self, dbapi_conn: Any, _record: Any) -> None:
        if self.limit is not None:
            dbapi_conn.execute(f"PRAGMA max_page_count = {self.limit}")

    def fill(self, room: int = 0) -> None:
        """No room left: the file's free pages are used up by a table of filler, and it may not grow; with `room`,
        it may then grow by that many pages (a disk nearly full: a small write goes through, a big one not)."""
        with self.db.session() as s:
            s.execute(sa.text("CREATE TABLE IF NOT EXISTS filler (x BLOB)"))
            self.limit = s.execute(sa.text("PRAGMA page_count")).scalar()
        self.db.engine.dispose()  # the pooled connections take the limit as they open again
        for _ in range(10_000):
            try:
                with self.db.session() as s:
                    s.execute(sa.text("INSERT INTO filler VALUES (randomblob(2000))"))
            except sa.exc.OperationalError as exc:
                assert "full" in str(exc), exc
                if room:
                    assert self.limit is not None
                    self.limit += room
                    self.db.engine.dispose()
                return
        raise AssertionError("the database never filled up")

    def lift(self) -> None:
        self.limit = 1_073_741_823
        self.db.engine.dispose()


class Terminator:
    """Before a statement containing `pattern` runs, the server terminates the backend of the connection about to
    run it (`pg_terminate_backend`, as a restart of PostgreSQL or a proxy's timeout would): the statement meets a
    connection that is gone. `times` such statements after the first `skip`; `target` is an engine, or the Engine
    class for every engine the process makes (a command builds its own)."""

    def __init__(self, admin_url: str, target: Any, pattern: str, times: int = 1, skip: int = 0) -> None:
        self.admin = sa.create_engine(admin_url)
        self.target, self.pattern, self.left, self.skip = target, pattern, times, skip
        self.done = 0
        event.listen(target, "before_cursor_execute", self._before)

    def _before(self, conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if self.left <= 0 or self.pattern not in statement or conn.dialect.name != "postgresql":
            return
        if self.skip:
            self.skip -= 1
            return
        self.left -= 1
        pid = conn.connection.driver_connection.info.backend_pid
        with self.admin.begin() as admin:
            admin.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            for _ in range(500):  # until the backend is gone
                if not admin.execute(sa.text("SELECT 1 FROM pg_stat_activity WHERE pid = :pid"),
                                     {"pid": pid}).first():
                    break
                time.sleep(0.01)
        self.done += 1

    def close(self) -> None:
        event.remove(self.target, "before_cursor_execute", self._before)
        self.admin.dispose()


def transient_error(db_url: str) -> OperationalError:
    """What the database says when another writer is in the way: SQLite's lock, PostgreSQL's serialization
    failure."""
    if db_url.startswith("sqlite"):
        return OperationalError("UPDATE inbound_mails", {}, sqlite3.OperationalError("database is locked"))
    return OperationalError("UPDATE inbound_mails", {}, SerializationFailure("could not serialize access"))


def fail_mail(monkeypatch: pytest.MonkeyPatch, subject: str, exc: Exception, times: int) -> list[int]:
    """Intake fails with `exc` the first `times` times it reads the mail with `subject`."""
    real = pipeline.handle_orders
    calls: list[int] = []

    def handle_orders(s, app, row, game, player, mail, run):  # type: ignore[no-untyped-def]
        if mail.subject == subject:
            calls.append(row.id)
            if len(calls) <= times:
                raise exc
        return real(s, app, row, game, player, mail, run)

    monkeypatch.setattr(pipeline, "handle_orders", handle_orders)
    monkeypatch.setattr("maild.db.FIRST_PAUSE_S", 0.001, raising=False)
    return calls


def count_passes(daemon: Daemon, tries: list[float]) -> None:
    """Note in `tries` the monotonic time each pass of `daemon` begins: how often a failing daemon tries."""
    one_pass = daemon.one_pass

    async def counted(*args: Any, **kwargs: Any) -> Any:
        tries.append(time.monotonic())
        return await one_pass(*args, **kwargs)

    daemon.one_pass = counted  # type: ignore[method-assign]
