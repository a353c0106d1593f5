"""One daemon per database: a second `maild run` on the same database refuses to start.

Two daemons would not apply an order twice (unique keys forbid it) but would trip over each other's
transactions and report errors; a GM who starts one by mistake should hear so at once.
"""

from __future__ import annotations

import fcntl
import os
import time
import zlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from maild.db import Database
from maild.intake.stall import RESTARTED


class AlreadyRunning(RuntimeError):
    pass


# How long a daemon started again after a stall (stall.RESTARTED) waits for its predecessor's lock.
RESTART_WAIT_S = 30.0


@contextmanager
def single_daemon(db: Database) -> Iterator[None]:
    waiting = os.environ.pop(RESTARTED, None) is not None
    deadline = time.monotonic() + RESTART_WAIT_S
    with ExitStack() as stack:
        while True:
            try:
                stack.enter_context(_single_daemon(db))
                break
            except AlreadyRunning:
                if not waiting or time.monotonic() >= deadline:
                    raise
                time.sleep(0.5)
        yield


@contextmanager
def _single_daemon(db: Database) -> Iterator[None]:
    url = make_url(db.url)
    if url.get_backend_name() == "sqlite":
        path = Path(url.database or "maild.db")
        with _file_lock(path.with_name(path.name + ".daemon.lock")):
            yield
    elif url.get_backend_name() == "postgresql":
        with _advisory_lock(db):
            yield
    else:
        yield


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise AlreadyRunning(f"another maild daemon is running on this database (lock {path})") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        os.close(fd)  # closing releases the lock; the kernel releases it too if we are killed


@contextmanager
def _advisory_lock(db: Database) -> Iterator[None]:
    with db.engine.connect() as conn:
        # Keyed by schema: two games' databases may share a server and a database under other schemas.
        schema = conn.execute(text("SELECT current_schema()")).scalar() or ""
        key = zlib.crc32(f"maild daemon:{schema}".encode())
        if not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar():
            raise AlreadyRunning("another maild daemon is running on this database (PostgreSQL advisory lock)")
        conn.commit()
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
            conn.commit()
