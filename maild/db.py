"""Engine and sessions: SQLite (WAL) as the embedded default, PostgreSQL in production.

Several hands write to one database: the daemon, the GM's commands beside it, one day several daemons on one
PostgreSQL. Writers wait their turn (SQLite: every transaction begins IMMEDIATE, so it queues for the write
lock under the busy timeout instead of failing when it later tries to write) and a transaction that still
fails for a passing reason (a lock, a serialization failure or deadlock, a dropped connection) is done again
from the start by `retry_transient`.
"""

from __future__ import annotations

import logging
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from maild.filemodes import prepare_database_file
from maild.paths import MIGRATIONS_DIR
from maild.schema_version import at_head
from maild.sqlite_writers import WAIT_SLICE_MS, WriterQueue, sqlite_busy

if TYPE_CHECKING:
    from alembic.config import Config as AlembicConfig

log = logging.getLogger("maild.db")
T = TypeVar("T")

# How long a SQLite writer waits for the lock before giving up (then `retry_transient` tries again): longer
# than any one transaction of the daemon (a batch of mails, one game's turn) takes. Writers take turns
# (maild/sqlite_writers.py), so a steady stream of the daemon's transactions does not starve a command.
BUSY_TIMEOUT_S = 30
# A transient failure is tried again this many times in all, after pauses growing from FIRST_PAUSE_S.
RETRY_ATTEMPTS = 6
FIRST_PAUSE_S = 0.05


def make_engine(url: str, writers: WriterQueue | None = None) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            prepare_database_file(Path(parsed.database))  # 0600 before SQLite opens it: -wal and -shm follow
        engine = create_engine(url, connect_args={"timeout": WAIT_SLICE_MS / 1000})
        _sqlite_setup(engine, writers or writer_queue(url))
    else:
        engine = create_engine(url, pool_pre_ping=True)
    _count_writes(engine)
    return engine


_written = [0]  # transactions of this process that committed a write (see committed_writes)
_writing: set[int] = set()  # id() of the connections whose transaction under way wrote


def committed_writes() -> int:
    """How many transactions of this process committed a write so far. A command that failed on a passing
    database failure is done again only if this did not change meanwhile: else it might do its work twice."""
    return _written[0]


def _count_writes(engine: Engine) -> None:
    # Cheap: it runs for every statement of the daemon's hot path. A connection's id reused by a later one can
    # only make a transaction count as writing: a command is then not done again, which is the safe side.
    @event.listens_for(engine, "before_cursor_execute")
    def note(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not statement.startswith("SELECT") and statement.lstrip()[:6].upper() != "SELECT":
            _writing.add(id(conn))  # anything but a SELECT may write (a SAVEPOINT too: no matter)

    @event.listens_for(engine, "commit")
    def count(conn: Any) -> None:
        # Counted before the commit is sent: a commit whose answer was lost may have written.
        if id(conn) in _writing:
            _writing.discard(id(conn))
            _written[0] += 1

    @event.listens_for(engine, "rollback")
    def forget(conn: Any) -> None:
        _writing.discard(id(conn))


def writer_queue(url: str) -> WriterQueue:
    database = make_url(url).database
    return WriterQueue(Path(database if database and database != ":memory:" else "memory.db"), BUSY_TIMEOUT_S)


def _sqlite_setup(engine: Engine, writers: WriterQueue) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        # pysqlite's own transaction handling defers BEGIN and breaks SAVEPOINT; we issue BEGIN ourselves.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        # Short: the long wait for the write lock is WriterQueue.begin's, which lets others know it waits.
        cur.execute(f"PRAGMA busy_timeout={WAIT_SLICE_MS}")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Any) -> None:
        # IMMEDIATE takes the write lock at the start, waiting for it. A deferred BEGIN reads first and fails at
        # once with "database is locked" when it then writes after another process committed (SQLite cannot
        # move a reader's snapshot forward), whatever the busy timeout.
        try:
            writers.begin(conn.connection.driver_connection)
        except sqlite3.OperationalError as exc:
            raise OperationalError("BEGIN IMMEDIATE", None, exc) from exc


# PostgreSQL SQLSTATEs worth a second try: classes 40 (serialization failure, deadlock), 08 (connection) and 53
# (insufficient resources: disk full, out of memory, too many connections), a lock wait that timed out, the
# server shutting down. 53400 (a configured limit exceeded) stays until the GM changes the setting.
_PG_TRANSIENT_CLASSES = ("40", "08", "53")
_PG_TRANSIENT_STATES = frozenset({"55P03", "57P01", "57P02", "57P03"})
_PG_LASTING_STATES = frozenset({"53400"})
# SQLite's primary result codes for a full disk (also a database at its max_page_count) and an I/O error: space
# or the device comes back, and the mail being written is not at fault.
_SQLITE_IOERR, _SQLITE_FULL = 10, 13


def is_transient(exc: BaseException) -> bool:
    """Whether `exc` is a database failure that doing the same transaction again may not meet."""
    orig: BaseException | None = exc
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated:  # SQLAlchemy recognised a lost connection
            return True
        orig = exc.orig
    if isinstance(orig, sqlite3.Error):
        return sqlite_busy(orig) or _sqlite_out_of_room(orig)
    if not hasattr(orig, "sqlstate"):
        return False
    sqlstate = getattr(orig, "sqlstate", None)
    if isinstance(sqlstate, str):
        return (sqlstate[:2] in _PG_TRANSIENT_CLASSES and sqlstate not in _PG_LASTING_STATES) \
            or sqlstate in _PG_TRANSIENT_STATES
    # psycopg's own failures carry no SQLSTATE: a connection refused, lost or closed is OperationalError.
    return type(orig).__name__ == "OperationalError"


def _sqlite_out_of_room(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_FULL, _SQLITE_IOERR)
    text = str(exc)
    return "database or disk is full" in text or "disk I/O error" in text


def retry_transient(fn: Callable[[], T], what: str = "a transaction", attempts: int = RETRY_ATTEMPTS) -> T:
    """Call `fn` (one whole transaction, which a failure rolled back) again while it fails transiently, with
    growing pauses; a failure that is not transient, or the last one, is raised."""
    for attempt in range(1, attempts + 1):
        try:
            return fn()
        except Exception as exc:
            if attempt == attempts or not is_transient(exc):
                raise
            # Random spread, so that two writers who failed together do not come back together.
            pause = FIRST_PAUSE_S * 2 ** (attempt - 1) * (1 + random.random())
            # Debug only: a lock waited out is routine, and a failure that lasts is the caller's to tell, once
            # (a database away made five lines a try of every pass).
            log.debug("%s failed (%s), trying again in %.2f s (attempt %d of %d)", what,
                      str(exc).splitlines()[0][:200], pause, attempt + 1, attempts)
            time.sleep(pause)
    raise AssertionError("unreachable")


def alembic_config(engine: Engine) -> AlembicConfig:
    from alembic.config import Config as AlembicConfig

    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration. A schema already there costs one query, not
    Alembic's import (maild/schema_version.py)."""
    if at_head(engine):
        return
    from alembic import command

    command.upgrade(alembic_config(engine), "head")


def is_initialized(engine: Engine) -> bool:
    return inspect(engine).has_table("games")


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        is_sqlite = make_url(url).get_backend_name() == "sqlite"
        self._writers = writer_queue(url) if is_sqlite else None
        self.engine = make_engine(url, self._writers)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # What else lives on this database's connections and ends with it (maild/intake/claims.py).
        self.on_close: list[Callable[[], None]] = []
        # Run first in every transaction: the daemon's lease check (maild/lease.py), which raises if another
        # daemon took the lease, before this transaction writes anything.
        self.fence: Callable[[Session], None] | None = None

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        try:
            with self._sessions() as s, s.begin():
                if self.fence is not None:
                    self.fence(s)
                yield s
        finally:
            if self._writers is not None:
                self._writers.step_aside()

    def transaction(self, fn: Callable[[Session], T], what: str = "a transaction") -> T:
        """`fn` in one transaction, done again from the start while it fails for a passing reason. `fn` must
        do nothing outside the database that a second run would repeat."""
        def once() -> T:
            with self.session() as s:
                return fn(s)

        return retry_transient(once, what)

    def close(self) -> None:
        for hook in self.on_close:
            hook()
        self.engine.dispose()
