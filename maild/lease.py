"""A lease on PostgreSQL: who may work, held in a row of table `leases` and checked in every transaction.

The daemon used to hold a PostgreSQL advisory lock. That lock is its session's: an idle-connection killer, a
server restart or `pg_terminate_backend` ended it without the daemon noticing, a second daemon started, and
the two sent the same mails (319 of 450). A lease is a row instead, so it outlives connections:

- **taken** when there is none or it has lapsed (`expires_at` before the database server's clock: daemons on
  several machines agree on one clock), with a `token` one larger than the last holder's;
- **renewed** every period/3 by a thread of its own (`Heartbeat`), on a connection of its own, so that neither
  a long transaction nor a busy pool delays it; a lease that lapsed while the database was away and that
  nobody took is simply renewed (a database restart loses and doubles nothing);
- **fenced**: every transaction of the holder first reads the row `FOR KEY SHARE` (`Lease.fence`) and goes on
  only if it still names this holder and token. A taker locks the row `FOR UPDATE`, which waits for the
  holder's transactions in flight and makes the holder's next ones wait for the taking; so once a lease is
  taken, the old holder's next transaction sees the new holder and raises `LeaseLost` before it writes. The
  heartbeat's UPDATE changes no key, so it never waits for the holder's own transactions;
- **released** on a clean exit (its expiry set to now; the row stays, so tokens keep growing).

A holder whose lease lapsed and which still holds a transaction open (stopped, hung, cut off from the network)
would keep the row locked and a taker waiting; the taker ends that holder's sessions (they carry its run in
their `application_name`), which rolls the transaction back, and takes the lease. A holder that is surely
gone (it names this host, no process here has its pid, the server closed its sessions: a daemon killed on this
machine) is taken over at once, without waiting for its lease to lapse.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

log = logging.getLogger("maild.lease")

DAEMON = "daemon"  # a daemon run's own lease is "daemon:<run>" (`presence`); the one lease of older daemons
DEFAULT_PERIOD_S = 60.0

# The database server's clock, in UTC like every column: the statement's own time, not its transaction's (a
# taker may have waited for a lock since the transaction began).
SERVER_NOW = "(clock_timestamp() AT TIME ZONE 'UTC')"
_NOW = SERVER_NOW
_PERIOD = "make_interval(secs => :period)"

_INSERT = text(f"INSERT INTO leases (name, holder, token, acquired_at, renewed_at, expires_at) "
               f"VALUES (:name, :holder, 1, {_NOW}, {_NOW}, {_NOW} + {_PERIOD}) "
               "ON CONFLICT (name) DO NOTHING RETURNING token")
_LOOK = f"SELECT holder, token, expires_at, expires_at < {_NOW} AS lapsed FROM leases WHERE name = :name"
_TAKE = text(f"UPDATE leases SET holder = :holder, token = token + 1, acquired_at = {_NOW}, renewed_at = {_NOW}, "
             f"expires_at = {_NOW} + {_PERIOD} WHERE name = :name RETURNING token")
# One statement renews every lease of a holder (its presence, an inbox, its games): the names and tokens it
# holds, not every row naming it, so that a lease it gave back is not renewed by a renewal already under way.
_HELD = ("holder = :holder AND (name, token) IN "
         "(SELECT * FROM unnest(CAST(:names AS text[]), CAST(:tokens AS bigint[])))")
_RENEW = text(f"UPDATE leases SET renewed_at = {_NOW}, expires_at = {_NOW} + {_PERIOD} WHERE {_HELD} RETURNING name")
_RELEASE = text(f"UPDATE leases SET expires_at = {_NOW} WHERE {_HELD}")
_FENCE = text("SELECT holder, token FROM leases WHERE name = :name FOR KEY SHARE")
_END_SESSIONS = text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                     "WHERE application_name = :app AND datname = current_database() AND pid <> pg_backend_pid()")

# How often a taker ends a lapsed holder's sessions and tries again before it gives up.
TAKE_TRIES = 3


class LeaseLost(BaseException):  # noqa: N818 - a signal to stop, like SystemExit, not an error to report
    """This process no longer holds its lease: another took it. Nothing more may be written.

    A BaseException, as SystemExit is: every `except Exception` on the way (a batch done again mail by mail, a
    mail marked `error`, a pass tried again after the poll interval) would try to go on working, and here
    going on is the one thing that must not happen."""


class LeaseHeld(RuntimeError):
    """Another process holds the lease, live."""

    def __init__(self, holder: str, expires_at: datetime, why: str = "") -> None:
        super().__init__(f"{holder} holds the lease until {expires_at:%Y-%m-%d %H:%M:%S} UTC (database time)"
                         + (f"; {why}" if why else ""))
        self.holder, self.expires_at = holder, expires_at


class LeaseUncertain(RuntimeError):
    """The lease was not renewed for so long that it may lapse before work outside the database is done."""


def new_holder() -> str:
    """This run's name in the lease: its host and pid for the GM, and a random part that no other run has."""
    return f"{socket.gethostname()[:120]} pid {os.getpid()} run {secrets.token_hex(6)}"


def run_of(holder: str) -> str:
    """The random part of a holder's name, which names its run."""
    match = re.search(r"run ([0-9a-f]+)$", holder)
    return match.group(1) if match else holder[-40:]


def presence(holder: str) -> str:
    """The name of a daemon run's own lease, which says it is alive."""
    return f"{DAEMON}:{run_of(holder)}"


def session_name(holder: str) -> str:
    """The `application_name` of a holder's connections, by which a taker finds them (at most 63 bytes)."""
    return f"maild lease {run_of(holder)}"


def name_sessions(engine: Engine, holder: str) -> Callable[[], None]:
    """Make every new connection of `engine` carry the holder's session name; returns what undoes it."""
    def on_connect(_dialect: object, _record: object, _args: object, params: dict[str, object]) -> None:
        params["application_name"] = session_name(holder)

    event.listen(engine, "do_connect", on_connect)
    engine.dispose()  # connections opened before carry no name: open them again
    return lambda: event.remove(engine, "do_connect", on_connect)


@dataclass
class Lease:
    """A lease this process holds (or held: `lost` says why not any more)."""

    engine: Engine  # a small engine of its own (see `take`)
    name: str
    holder: str
    token: int
    period: float  # seconds
    monotonic: Callable[[], float] = time.monotonic
    renewed: float = 0.0  # monotonic time just before the last renewal that the database took
    lost: str | None = None
    on_lost: Callable[[str], None] | None = None
    # Further leases of the same holder (name: token), renewed with this one in one statement and released with
    # it (a daemon's inbox and games, maild/shares.py); one another took is dropped and `on_dropped` told.
    others: dict[str, int] = field(default_factory=dict)
    on_dropped: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        self._lost_once = threading.Lock()
        self.wake = threading.Event()  # set: the heartbeat renews now (`nudge`)
        # Held while the set of leases changes and while it is renewed: a lease given back is not renewed again.
        self.holding = threading.Lock()

    def remaining(self) -> float:
        """Seconds the lease surely still runs, by the monotonic clock since its last renewal began."""
        return self.period - (self.monotonic() - self.renewed)

    def fence(self, s: Session) -> None:
        """Run first in each of the holder's transactions (`Database.fence`): the row must still name us, and
        stays so (`FOR KEY SHARE`) until the transaction ends."""
        if self.lost is None:
            row = s.execute(_FENCE, {"name": self.name}).first()
            if row is not None and (row.holder, row.token) == (self.holder, self.token):
                return
            self.lose(f"the lease is held by {row.holder} now" if row is not None else "the lease row is gone")
        raise LeaseLost(self.lost)

    def deliverable(self) -> bool:
        """Whether mail may leave now (a delivery cannot be taken back): the lease is ours and runs long enough
        for a batch to go out, a third of the period, which is left only once two renewals in a row failed.
        Raises LeaseLost once it is another's."""
        if self.lost is not None:
            raise LeaseLost(self.lost)
        return self.remaining() >= self.period / 3

    def nudge(self) -> None:
        """Ask the heartbeat to renew now rather than at its next turn."""
        self.wake.set()

    def held(self) -> dict[str, int]:
        """Every lease held: this one and the others, name: token."""
        return {self.name: self.token, **self.others}

    def _params(self, held: dict[str, int]) -> dict[str, Any]:
        return {"holder": self.holder, "names": list(held), "tokens": list(held.values()), "period": self.period}

    def renew(self) -> None:
        started = self.monotonic()
        with self.holding:
            held = self.held()
            with self.engine.begin() as conn:
                renewed = set(conn.execute(_RENEW, self._params(held)).scalars())
            for name in set(self.others) - renewed:
                del self.others[name]
        for name in sorted(set(held) - renewed - {self.name}):
            log.warning("lease %s was taken by another daemon; this one stops working on it", name)
            if self.on_dropped is not None:
                self.on_dropped(name)
        if self.name not in renewed:
            with self.engine.connect() as conn:
                row = conn.execute(text(_LOOK), {"name": self.name}).first()
            self.lose(f"the lease is held by {row.holder} now" if row is not None else "the lease row is gone")
            raise LeaseLost(self.lost)
        if started - self.renewed > self.period:
            log.warning("lease %s renewed after %.0f s without the database; nobody had taken it", self.name,
                        started - self.renewed)
        self.renewed = started

    def lose(self, why: str) -> None:
        with self._lost_once:
            if self.lost is not None:
                return
            self.lost = why
        log.critical("lease %s lost: %s; this process stops working", self.name, why)
        if self.on_lost is not None:
            self.on_lost(why)

    def release(self, names: list[str] | None = None) -> None:
        """Give back every lease held (on a clean exit), or only the others named."""
        if self.lost is not None:
            return
        with self.holding:
            held = self.held() if names is None else {n: self.others[n] for n in names if n in self.others}
            try:
                with self.engine.begin() as conn:
                    conn.execute(_RELEASE, self._params(held))
            except OperationalError:
                log.warning("could not release lease %s; it lapses by itself", ", ".join(held), exc_info=True)
                return
            for name in held:
                self.others.pop(name, None)


def lease_engine(url: str, holder: str, period: float) -> Engine:
    """One connection for the lease's own statements, named like the holder's others, and not waiting longer
    to connect than a renewal may take."""
    return create_engine(url, pool_size=1, max_overflow=0, pool_pre_ping=True,
                         connect_args={"connect_timeout": max(1, int(period / 3)),
                                       "application_name": session_name(holder)})


def take(url: str, name: str, period: float, holder: str | None = None, predecessor: str | None = None,
         monotonic: Callable[[], float] = time.monotonic) -> Lease:
    """Take lease `name` for `period` seconds if it is free or has lapsed (or is held by `predecessor`, this
    very process before it started itself again in place); raises LeaseHeld if another holds it, live."""
    holder = holder or new_holder()
    engine = lease_engine(url, holder, period)
    try:
        started = monotonic()
        token = take_on(engine, name, holder, period, predecessor)
        return Lease(engine, name, holder, token, period, monotonic, renewed=started)
    except BaseException:
        engine.dispose()
        raise


def take_on(engine: Engine, name: str, holder: str, period: float, predecessor: str | None = None) -> int:
    """Take lease `name` for `holder` on `engine` (see `take`); its token. Raises LeaseHeld."""
    for attempt in range(TAKE_TRIES + 1):
        token = _try_take(engine, name, holder, period, predecessor, give_up=attempt == TAKE_TRIES)
        if token is not None:
            return token
    raise AssertionError("unreachable")


def _try_take(engine: Engine, name: str, holder: str, period: float, predecessor: str | None,
              give_up: bool) -> int | None:
    """One try in one transaction: the token taken, or None when a lapsed holder's open transaction kept the
    row locked (its sessions are then ended, and the caller tries again)."""
    params = {"name": name, "holder": holder, "period": period}
    with engine.begin() as conn:
        token = conn.execute(_INSERT, params).scalar()
        if token is not None:
            return int(token)
        # Look first without waiting: a live holder's transactions hold the row, and the answer is no anyway.
        _check_free(conn, conn.execute(text(_LOOK), params).one(), predecessor)
        # Not longer than a renewal's interval: a holder that renews lets go of nothing it holds in between.
        conn.execute(text(f"SET LOCAL lock_timeout = {max(100, int(period * 1000 / 3))}"))
        try:
            with conn.begin_nested():
                row = conn.execute(text(_LOOK + " FOR UPDATE"), params).one()
        except OperationalError as exc:
            if getattr(exc.orig, "sqlstate", None) != "55P03":  # lock_not_available
                raise
            row = conn.execute(text(_LOOK), params).one()
            if give_up:
                raise LeaseHeld(row.holder, row.expires_at, "it has lapsed, but its sessions still hold it "
                                "and could not be ended; try again later") from None
            _end_sessions(conn, row.holder)
            return None
        _check_free(conn, row, predecessor)  # renewed meanwhile?
        return int(conn.execute(_TAKE, params).scalar_one())


def _check_free(conn: Connection, row: Any, predecessor: str | None) -> None:
    if not row.lapsed and row.holder != predecessor and not _gone(conn, row.holder):
        raise LeaseHeld(row.holder, row.expires_at)


_HOLDER = re.compile(r"^(?P<host>.*) pid (?P<pid>\d+) run [0-9a-f]+$")
_SESSIONS = text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :app")
# How long a taker waits for the server to close the sessions of a holder whose process is gone.
SESSIONS_GONE_WAIT_S = 5.0


def _gone(conn: Connection, holder: str) -> bool:
    """Whether a holder whose lease still runs is surely gone, so that a daemon started again after a crash on
    the same machine need not wait for the lease to lapse: the holder names this host, no process has its pid
    here, and the server has closed its sessions (a daemon alive elsewhere under the same host name, another
    container, still has them). A process with its pid, whatever it is, counts as alive: the lease then lapses."""
    match = _HOLDER.match(holder)
    if match is None or match["host"] != socket.gethostname()[:120]:
        return False
    try:
        os.kill(int(match["pid"]), 0)
    except ProcessLookupError:
        pass
    except OSError:  # it exists, another user's
        return False
    else:
        return False
    give_up = time.monotonic() + SESSIONS_GONE_WAIT_S
    while True:
        conn.execute(text("SELECT pg_stat_clear_snapshot()"))  # the activity view is read once a transaction
        if not conn.execute(_SESSIONS, {"app": session_name(holder)}).scalar():
            log.warning("the lease of %s still ran, but that process is gone (none with its pid on this host, no "
                        "session left): taking it over", holder)
            return True
        if time.monotonic() >= give_up:
            return False
        time.sleep(0.1)


def _end_sessions(conn: Connection, holder: str) -> None:
    """End the sessions of a holder whose lease lapsed with a transaction still open: the server rolls it back,
    and nothing it did after its lease lapsed is kept."""
    ended = conn.execute(_END_SESSIONS, {"app": session_name(holder)}).scalar()
    log.warning("the lease of %s lapsed with its transaction open; ended %s of its sessions", holder, ended)


class Heartbeat(threading.Thread):
    """Renews a lease every period/3 on its own connection, or at once when nudged; after a failure, tries again
    twice as often. A renewal that finds another holder loses the lease (`Lease.lose`), and the thread ends."""

    def __init__(self, lease: Lease) -> None:
        super().__init__(name=f"maild-lease-{lease.name}", daemon=True)
        self.lease = lease
        self._stopping = False

    def run(self) -> None:
        pause = self.lease.period / 3
        while True:
            self.lease.wake.wait(pause)
            self.lease.wake.clear()
            if self._stopping:
                return
            try:
                self.lease.renew()
                pause = self.lease.period / 3
            except LeaseLost:
                return
            except Exception as exc:
                log.warning("cannot renew lease %s (%.0f s of it left): %s", self.lease.name,
                            max(0.0, self.lease.remaining()), str(exc).splitlines()[0][:200])
                pause = self.lease.period / 6

    def stop(self) -> None:
        self._stopping = True
        self.lease.wake.set()
        self.join(timeout=self.lease.period)
