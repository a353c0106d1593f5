"""Several daemons on one PostgreSQL database: which daemon works on what, each piece under a lease.

A daemon run holds rows of table `leases` (maild/lease.py), all renewed by its one heartbeat in one statement:

- `daemon:<run>`, its presence: taken at the start (maild/lock.py), it fences every transaction of the run and
  counts the live daemons. A presence that lapsed, or whose holder is surely gone from this machine, is taken
  by the first daemon that sees it (reaped) and given back at once: the run, should it wake, finds it taken and
  stops, and `maild daemons` shows who took it;
- `inbox:<source>`: the inbox one daemon fetches and stores (any daemon reads stored mail: intake is claimed
  mail by mail, maild/intake/claims.py);
- `game:<name>`: the games whose turns, phases and reminders it runs; every transaction of that work is fenced
  by the game's lease too (`working_on`), so that a daemon that lost a game writes nothing more of it and goes
  on with its other games.

Games are shared fairly: each pass a daemon takes free or lapsed games up to its share, ceil(open games / live
daemons), and gives back what it holds beyond it, so that a daemon started later gets work at its next pass.

A turn must not run before the mail that came by its deadline is stored, and another daemon may hold the inbox:
the inbox's holder notes, after each fetch, the time (the daemon's clock) the fetch began in the row
`fetched:<source>` (a mark, not a lease: nobody holds it), and a turn due at a deadline runs only once a fetch
that began after it is noted.
"""

from __future__ import annotations

import logging
import math
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from maild.config import Config
from maild.db import Database
from maild.lease import (
    _NOW,
    DAEMON,
    Lease,
    LeaseHeld,
    LeaseLost,
    _gone,
    lease_engine,
    presence,
    take_on,
)

log = logging.getLogger("maild.shares")
T = TypeVar("T")

GAME, INBOX, FETCHED = "game:", "inbox:", "fetched:"
# Presences lapsed longer ago than this are forgotten (`maild daemons` shows the recently lapsed ones).
FORGET_AFTER = "interval '1 day'"

_ROWS = text(f"SELECT name, holder, token, acquired_at, expires_at, expires_at < {_NOW} AS lapsed FROM leases "
             "WHERE name LIKE 'daemon:%' OR name LIKE 'game:%' OR name LIKE 'inbox:%'")
_FENCE = text("SELECT name, holder, token FROM leases WHERE name IN (:presence, :game) FOR KEY SHARE")
_FORGET = text(f"DELETE FROM leases WHERE name LIKE 'daemon:%' AND expires_at < {_NOW} - {FORGET_AFTER}")
_GIVE_BACK = text(f"UPDATE leases SET expires_at = {_NOW} WHERE name = :name AND holder = :holder AND token = :token")
_MARK = text("INSERT INTO leases (name, holder, token, acquired_at, renewed_at, expires_at) "
             "VALUES (:name, :holder, 0, :at, :at, :at) ON CONFLICT (name) DO UPDATE "
             "SET holder = :holder, renewed_at = :at WHERE leases.renewed_at < :at")
_MARKED = text("SELECT renewed_at FROM leases WHERE name = :name")


class GameLost(LeaseLost):  # noqa: N818 - like LeaseLost: a signal to stop working on one game
    """Another daemon took this game's lease: nothing more of it may be written; the daemon goes on with the
    others."""


def game_lease(game: str) -> str:
    return GAME + game


def inbox_source(config: Config) -> str:
    """What names the inbox in its lease: two daemons configured for the same mailbox share one."""
    box = config.inbound
    if box.kind == "maildir":
        assert box.path is not None
        return f"maildir {box.path.resolve()}"
    o = box.options
    return f"{box.kind} {o.get('user', '')}@{o.get('host')}:{o.get('port', 'default')}/{o.get('folder', 'INBOX')}"


def as_utc(when: datetime) -> datetime:
    """A column's naive UTC value from an aware time, and back (text() statements skip the column type)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC).replace(tzinfo=None)


class Shares:
    """What one daemon run holds beside its presence, and the fence of its transactions."""

    def __init__(self, db: Database, lease: Lease, source: str) -> None:
        self.db, self.lease = db, lease
        self.inbox, self.mark = INBOX + source, FETCHED + source
        # Its own connection: taking a lapsed lease may wait for a third of the period, and the heartbeat's
        # renewal must not wait behind it.
        self.engine: Engine = lease_engine(db.url, lease.holder, lease.period)
        self._working = threading.local()
        db.fence = self.fence

    def close(self) -> None:
        self.db.fence = self.lease.fence
        self.engine.dispose()

    # -- what this daemon holds ------------------------------------------------------------------------------

    def games(self) -> set[str]:
        with self.lease.holding:  # the heartbeat drops what another took
            names = list(self.lease.others)
        return {name[len(GAME):] for name in names if name.startswith(GAME)}

    def fetches(self) -> bool:
        return self.inbox in self.lease.others

    def fence(self, s: Session) -> None:
        """Every transaction: the presence must still be ours; in work on a game (`working_on`), its lease too."""
        game = getattr(self._working, "game", None)
        if game is None:
            self.lease.fence(s)
            return
        name = game_lease(game)
        token = self.lease.others.get(name)
        if self.lease.lost is None and token is not None:
            rows = {r.name: (r.holder, r.token) for r in s.execute(_FENCE, {"presence": self.lease.name,
                                                                              "game": name})}
            if rows.get(self.lease.name) != (self.lease.holder, self.lease.token):
                self.lease.lose(f"the lease is held by {rows[self.lease.name][0]} now" if self.lease.name in rows
                                else "the lease row is gone")
            elif rows.get(name) == (self.lease.holder, token):
                return
            else:
                self._drop(name, token)
        if self.lease.lost is not None:
            raise LeaseLost(self.lease.lost)
        raise GameLost(f"the lease of game {game} is another daemon's now")

    def _drop(self, name: str, token: int) -> None:
        with self.lease.holding:
            if self.lease.others.get(name) == token:
                del self.lease.others[name]
        log.warning("lease %s was taken by another daemon; this one stops working on it", name)

    @contextmanager
    def working_on(self, game: str) -> Iterator[None]:
        """Fence the transactions of this thread by the game's lease for the block."""
        self._working.game = game
        try:
            yield
        finally:
            self._working.game = None

    def for_game(self, game: str, fn: Callable[..., T], *args: Any) -> T:
        with self.working_on(game):
            return fn(*args)

    # -- sharing ---------------------------------------------------------------------------------------------

    def share(self, open_games: list[str]) -> int:
        """Take free or lapsed games up to this daemon's share and give back the rest; take the inbox if nobody
        holds it. Returns how many daemons are live."""
        with self.engine.begin() as conn:
            rows = {r.name: r for r in conn.execute(_ROWS)}
        live = self._live(rows)
        want = math.ceil(len(open_games) / len(live)) if open_games else 0
        mine = self.games()
        keep = sorted(g for g in mine if g in open_games)[:want]
        give_back = [game_lease(g) for g in mine if g not in keep]
        if give_back:
            log.info("giving back %s (%d daemons share %d games)", ", ".join(give_back), len(live),
                     len(open_games))
            self.lease.release(give_back)
        free = [g for g in open_games if g not in mine and self._free(rows.get(game_lease(g)), live)]
        random.shuffle(free)  # daemons that start together do not all reach for the same games first
        for game in free:
            if len(self.games()) >= want:
                break
            self._take(game_lease(game))
        if not self.fetches() and self._free(rows.get(self.inbox), live):
            self._take(self.inbox)
        return len(live)

    def _free(self, row: Any, live: set[str]) -> bool:
        return row is None or row.lapsed or row.holder == self.lease.holder or row.holder not in live

    def _take(self, name: str) -> bool:
        try:
            # This very process before it started itself again in place holds the lease under the same name.
            token = take_on(self.engine, name, self.lease.holder, self.lease.period, predecessor=self.lease.holder)
        except LeaseHeld:
            return False  # another took it first, or its holder lives after all
        with self.lease.holding:
            self.lease.others[name] = token
        log.info("took lease %s (token %d)", name, token)
        return True

    def _live(self, rows: dict[str, Any]) -> set[str]:
        """The holders of live presences; a lapsed one, or one surely gone from this machine, is reaped."""
        live = {self.lease.holder}
        for row in rows.values():
            if not row.name.startswith(DAEMON + ":") or row.name == self.lease.name:
                continue
            if presence(row.holder) != row.name:
                continue  # reaped already: it names whoever reaped it
            if row.lapsed or self._surely_gone(row.holder):
                self._reap(row.name)
            else:
                live.add(row.holder)
        return live

    def _surely_gone(self, holder: str) -> bool:
        with self.engine.begin() as conn:
            return _gone(conn, holder)

    def _reap(self, name: str) -> None:
        """Take a dead run's presence, and give it back at once: should the run wake, it stops at its next
        transaction; its leases lapsed with it (one heartbeat renewed them all) and are taken in the pass."""
        try:
            token = take_on(self.engine, name, self.lease.holder, self.lease.period)
        except LeaseHeld:
            return
        with self.engine.begin() as conn:
            conn.execute(_GIVE_BACK, {"name": name, "holder": self.lease.holder, "token": token})
            conn.execute(_FORGET)
        log.warning("daemon %s is gone (its lease lapsed, or its process is gone from this machine); its work is "
                    "shared out", name)

    # -- the inbox fetched -----------------------------------------------------------------------------------

    def fetched(self, began: datetime) -> None:
        """Note that a fetch that began at `began` (the daemon's clock) stored what the inbox held."""
        try:
            with self.engine.begin() as conn:
                conn.execute(_MARK, {"name": self.mark, "holder": self.lease.holder, "at": as_utc(began)})
        except OperationalError:
            log.warning("could not note the fetch; turns due wait for the next one", exc_info=True)

    def fetched_at(self) -> datetime | None:
        """When the last fetch noted began (the daemon's clock); None if none was."""
        with self.engine.begin() as conn:
            at = conn.execute(_MARKED, {"name": self.mark}).scalar()
        return as_utc(at) if at is not None else None


@contextmanager
def sharing(db: Database, lease: Lease | None, config: Config) -> Iterator[Shares | None]:
    """Shares for a daemon holding `lease` (None, SQLite's one daemon: it works on everything)."""
    if lease is None:
        yield None
        return
    shares = Shares(db, lease, inbox_source(config))
    try:
        yield shares
    finally:
        shares.close()
