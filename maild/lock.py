"""Who may run a daemon on a database: SQLite one at a time, PostgreSQL as many as the GM starts.

SQLite: an `flock` on `<database>.daemon.lock`, which the kernel holds for the process and drops when it ends;
a second `maild run` on the same database refuses to start (two would trip over each other's transactions
and send mail twice: a batch read by both before either recorded it).
PostgreSQL: each daemon run takes a lease of its own, `daemon:<run>` (maild/lease.py), a row that outlives
connections, renewed by a heartbeat and checked in each of the run's transactions; the daemons share the
inbox and the games under further leases (maild/shares.py), and claim outbound mail row by row.
"""

from __future__ import annotations

import fcntl
import logging
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from sqlalchemy.engine import make_url

from maild.db import Database, upgrade
from maild.intake.stall import RESTARTED
from maild.lease import (
    DEFAULT_PERIOD_S,
    Heartbeat,
    Lease,
    LeaseHeld,
    name_sessions,
    new_holder,
    presence,
    take,
)

log = logging.getLogger("maild.lock")


class AlreadyRunning(RuntimeError):
    pass


# How long a daemon started again after a stall (stall.RESTARTED) waits for its predecessor's lock.
RESTART_WAIT_S = 30.0
# This run's lease holder, in the environment: a daemon started again in place after a stall (the same
# process, its memory gone) takes its predecessor's lease at once instead of waiting for it to lapse.
HOLDER_ENV = "MAILD_LEASE_HOLDER"
# `maild run` ends with this status when another daemon took its lease (it stopped working at once).
EXIT_LEASE_LOST = 3


@contextmanager
def single_daemon(db: Database, lease_period: float = DEFAULT_PERIOD_S,
                  on_lost: Callable[[str], None] | None = None) -> Iterator[Lease | None]:
    """Hold the daemon's lock for the block: SQLite's one lock, or on PostgreSQL this run's own lease, which it
    yields (None on SQLite). `on_lost` is called (once, from any thread) when another daemon took the lease (the
    run was taken for dead); from then on every transaction on `db` raises LeaseLost."""
    waiting = os.environ.pop(RESTARTED, None) is not None
    deadline = time.monotonic() + RESTART_WAIT_S
    with ExitStack() as stack:
        while True:
            try:
                held = stack.enter_context(_single_daemon(db, lease_period, on_lost, waiting))
                break
            except AlreadyRunning:
                if not waiting or time.monotonic() >= deadline:
                    raise
                time.sleep(0.5)
        yield held


@contextmanager
def _single_daemon(db: Database, lease_period: float, on_lost: Callable[[str], None] | None,
                   restarted: bool) -> Iterator[Lease | None]:
    url = make_url(db.url)
    if url.get_backend_name() == "sqlite":
        path = Path(url.database or "maild.db")
        with _file_lock(path.with_name(path.name + ".daemon.lock")):
            yield None
    elif url.get_backend_name() == "postgresql":
        with _daemon_lease(db, lease_period, on_lost, os.environ.get(HOLDER_ENV) if restarted else None) as lease:
            yield lease
    else:
        yield None


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
def _daemon_lease(db: Database, period: float, on_lost: Callable[[str], None] | None,
                  predecessor: str | None) -> Iterator[Lease]:
    upgrade(db.engine)  # the lease is a row of the schema (`maild run` has brought it up to date: a no-op then)
    holder = predecessor or new_holder()
    try:
        lease = take(db.url, presence(holder), period, holder=holder, predecessor=predecessor)
    except LeaseHeld as exc:
        raise AlreadyRunning(f"another maild daemon is running on this database: {exc}") from None
    lease.on_lost = on_lost
    os.environ[HOLDER_ENV] = lease.holder
    unname = name_sessions(db.engine, lease.holder)  # a taker finds our sessions by it, should we hang
    db.fence = lease.fence
    heartbeat = Heartbeat(lease)
    heartbeat.start()
    log.info("took lease %s as %s (token %d, %.0f s)", lease.name, lease.holder, lease.token, period)
    try:
        yield lease
    finally:
        heartbeat.stop()
        db.fence = None
        unname()
        lease.release()
        lease.engine.dispose()
        os.environ.pop(HOLDER_ENV, None)  # ended here, not by a start in place: nobody's predecessor


def stop_this_process(why: str) -> None:
    """What `maild run` does when its lease is lost: say so, and stop the daemon the way SIGTERM does (it
    finishes nothing: every transaction raises LeaseLost from now on); a one-off pass simply ends."""
    print(f"maild: the daemon's lease was lost ({why}); stopping, another daemon works on this database",
          file=sys.stderr, flush=True)
    os.kill(os.getpid(), signal.SIGTERM)
