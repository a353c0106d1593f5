"""Which process works on which mail: a claim held while intake works on it, gone when its process is.

Intake counts an attempt on a mail before it reads it (maild/intake/attempts.py), so that a run that dies on
the mail counts. Another process that then sees the count cannot tell a run that died from one still at work
(the daemon and a GM's `mail ingest` or `turn run` read the same stored mail): it took the count for a crash,
counted again, and after a few such looks a mail nobody had failed on was set aside as poison (7 of 291 order
mails with 20 commands beside the daemon on SQLite). So a process holds a claim on each mail from before it
counts the attempt until its intake transaction has ended, and leaves the mails another live process holds.
The holds are what the operating system or the database ends with the process, so a crash frees them:

- SQLite (one machine): a POSIX lock on the byte at the mail's id in `<database>.claims`, released by the
  kernel when the process ends (killed, or started again in place after a stall: the file is closed on exec);
- PostgreSQL: a session advisory lock (the schema's key, the mail's id) on a connection of its own, released
  by the server when the session ends.

Threads of one process share POSIX locks: two intakes in one process are kept apart by the attempt count
alone (`attempts.begin`), which is enough for fresh mail.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import make_url

from maild.db import Database, retry_transient
from maild.filemodes import PRIVATE_FILE


class _FileClaims:
    """SQLite's: byte locks in one file. One descriptor per file and process, never closed while the process
    lives: closing any descriptor of a file drops every POSIX lock the process holds on it."""

    _open: dict[Path, int] = {}
    _guard = threading.Lock()

    def __init__(self, database: Path) -> None:
        path = database.with_name(database.name + ".claims").resolve()
        with self._guard:
            if path not in self._open:
                self._open[path] = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
            self._fd = self._open[path]

    def hold(self, ids: list[int]) -> list[int]:
        held = []
        for mail_id in ids:
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, mail_id)
            except (BlockingIOError, PermissionError):  # EAGAIN or EACCES: another live process holds it
                continue
            held.append(mail_id)
        return held

    def release(self, ids: list[int]) -> None:
        for mail_id in ids:
            fcntl.lockf(self._fd, fcntl.LOCK_UN, 1, mail_id)


class _SessionClaims:
    """PostgreSQL's: advisory locks on one connection kept for them (autocommit: they outlive transactions),
    keyed by the schema (two games' databases may share a server under other schemas) and the mail's id."""

    _KEY = "hashtext('maild intake claim:' || current_schema())"
    _HOLD = text(f"SELECT id FROM unnest(CAST(:ids AS integer[])) AS id WHERE pg_try_advisory_lock({_KEY}, id)")
    _RELEASE = text(f"SELECT pg_advisory_unlock({_KEY}, id) FROM unnest(CAST(:ids AS integer[])) AS id")

    def __init__(self, engine: Engine) -> None:
        # The engine, not the Database: the registry below holds this weakly by its Database, which a strong
        # reference back would keep alive for ever.
        self._engine = engine
        self._conn: Connection | None = None

    def _connection(self) -> Connection:
        if self._conn is None or self._conn.invalidated or self._conn.closed:
            self._conn = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        return self._conn

    def hold(self, ids: list[int]) -> list[int]:
        def once() -> list[int]:
            try:
                return sorted(self._connection().execute(self._HOLD, {"ids": ids}).scalars())
            except Exception:
                # A lost session lost its locks with it: start a new one (the caller's steps hold nothing yet).
                self.close()
                raise

        return retry_transient(once, "claiming mails")

    def release(self, ids: list[int]) -> None:
        try:
            self._connection().execute(self._RELEASE, {"ids": ids})
        except Exception:
            self.close()  # the session, and with it every lock, is gone

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass


_claims: WeakKeyDictionary[Database, _FileClaims | _SessionClaims] = WeakKeyDictionary()


def _for(db: Database) -> _FileClaims | _SessionClaims:
    if db not in _claims:
        url = make_url(db.url)
        if url.get_backend_name() == "sqlite":
            database = url.database if url.database and url.database != ":memory:" else "memory.db"
            _claims[db] = _FileClaims(Path(database))
        else:
            claims = _SessionClaims(db.engine)
            _claims[db] = claims
            db.on_close.append(claims.close)
    return _claims[db]


@contextmanager
def holding(db: Database, ids: list[int]) -> Iterator[list[int]]:
    """Hold the mails of `ids` that no other live process holds, and yield those (in the order given); the
    rest are another process's work. Released when the block ends."""
    claims = _for(db)
    held = claims.hold(ids)
    kept = set(held)
    try:
        yield [i for i in ids if i in kept]
    finally:
        claims.release(held)
