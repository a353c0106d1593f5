"""SQLite writers taking turns: the daemon and the GM's commands share one write lock, and each gets it.

SQLite gives its write lock to whichever connection asks the moment it is free, and a waiting connection asks
only now and then (its busy handler sleeps between tries, up to 100 ms). A daemon working through a backlog
commits and begins again within microseconds, so a command beside it could sleep through every free moment
until its timeout ends in "database is locked". So a waiting writer says that it waits (a shared flock on a
file beside the database, held while it waits), and a writer that has just committed steps aside for a moment
when someone does. Nobody waiting costs one failed open() per transaction.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from pathlib import Path

# SQLite's own busy wait for one try at BEGIN IMMEDIATE; between tries the overall timeout is checked.
WAIT_SLICE_MS = 10
# How long a writer that just committed leaves the lock to a waiting one: several of its tries.
STEP_ASIDE_S = 0.03

# SQLite's primary result codes for "another connection holds the lock".
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6


def sqlite_busy(exc: BaseException) -> bool:
    """Whether `exc` is SQLite saying another connection holds the lock."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    text = str(exc)
    return "database is locked" in text or "database table is locked" in text


class WriterQueue:
    def __init__(self, database: Path, timeout_s: float) -> None:
        self.path = database.with_name(database.name + ".waiting")
        self.timeout_s = timeout_s

    def begin(self, conn: sqlite3.Connection) -> None:
        """BEGIN IMMEDIATE, waiting for the write lock up to the timeout (then SQLite's error is raised).
        `conn` has a busy timeout of WAIT_SLICE_MS."""
        deadline = time.monotonic() + self.timeout_s
        waiting: int | None = None
        try:
            while True:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    if not sqlite_busy(exc) or time.monotonic() >= deadline:
                        raise
                if waiting is None:
                    waiting = self._announce()
        finally:
            if waiting is not None and waiting >= 0:
                os.close(waiting)  # no longer waiting: closing drops the shared lock

    def _announce(self) -> int:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:  # a folder we may not write to: wait unannounced, as SQLite alone would
            return -1
        fcntl.flock(fd, fcntl.LOCK_SH)  # waits at most for another's step_aside check, microseconds
        return fd

    def step_aside(self) -> None:
        """Called after a transaction ended: if another writer waits, give it time to take the lock."""
        try:
            fd = os.open(self.path, os.O_RDWR)
        except FileNotFoundError:  # nobody has ever waited
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # someone holds it shared: waiting
            time.sleep(STEP_ASIDE_S)
        finally:
            os.close(fd)
