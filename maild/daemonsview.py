"""`maild daemons`: which daemon holds what on a PostgreSQL database, and since when (maild/shares.py).

One line per daemon run whose lease is live or lapsed within the last day: its host, pid and run, when it
started, until when its lease runs (or when it lapsed, and who took it for dead), the inbox it fetches and the
games it works on. SQLite has one daemon, kept by a lock file, and no leases to show.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from maild.lease import _NOW, DAEMON, presence
from maild.shares import GAME, INBOX

_ROWS = text(f"SELECT name, holder, acquired_at, expires_at, expires_at < {_NOW} AS lapsed FROM leases "
             "WHERE name LIKE 'daemon:%' OR name LIKE 'game:%' OR name LIKE 'inbox:%' ORDER BY acquired_at, name")
_HOLDER = re.compile(r"^(?P<host>.*) pid (?P<pid>\d+) run (?P<run>[0-9a-f]+)$")


@dataclass
class DaemonRun:
    run: str
    host: str
    pid: int | None
    since: datetime
    expires: datetime
    live: bool
    taken_by: str | None = None  # the daemon that took this one for dead
    inbox: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)

    def line(self) -> str:
        who = f"{self.host} pid {self.pid} run {self.run}" if self.pid is not None else f"run {self.run}"
        if not self.live:
            taken = f", taken for dead by {self.taken_by}" if self.taken_by else ""
            return (f"{who}  since {self.since:%Y-%m-%d %H:%M:%S} UTC  lapsed at {self.expires:%Y-%m-%d %H:%M:%S} UTC"
                    f"{taken}")
        holds = (f"  inbox {', '.join(self.inbox)}" if self.inbox else "") + \
            (f"  games {', '.join(self.games)}" if self.games else "")
        return (f"{who}  since {self.since:%Y-%m-%d %H:%M:%S} UTC  live until {self.expires:%Y-%m-%d %H:%M:%S} UTC"
                f"{holds or '  holds nothing'}")

    def export(self) -> dict[str, Any]:
        data = asdict(self)
        data["since"], data["expires"] = (f"{t.astimezone(UTC):%Y-%m-%dT%H:%M:%SZ}" for t in (self.since, self.expires))
        return data


def _utc(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


def daemon_runs(s: Session) -> list[DaemonRun]:
    """The daemon runs of the database, oldest first (none on SQLite)."""
    if s.get_bind().dialect.name != "postgresql":
        return []
    rows = s.execute(_ROWS).all()
    runs: dict[str, DaemonRun] = {}
    for row in rows:
        if row.name.startswith(DAEMON + ":"):
            match = _HOLDER.match(row.holder)
            run = row.name[len(DAEMON) + 1:]
            own = presence(row.holder) == row.name
            runs[run] = DaemonRun(run=run, host=match["host"] if match and own else "?",
                                  pid=int(match["pid"]) if match and own else None, since=_utc(row.acquired_at),
                                  expires=_utc(row.expires_at), live=own and not row.lapsed,
                                  taken_by=None if own else row.holder)
    for row in rows:
        if row.lapsed or row.name.startswith(DAEMON + ":"):
            continue
        run = runs.get(presence(row.holder)[len(DAEMON) + 1:])
        if run is None or not run.live:
            continue
        if row.name.startswith(GAME):
            run.games.append(row.name[len(GAME):])
        elif row.name.startswith(INBOX):
            run.inbox.append(row.name[len(INBOX):])
    for run in runs.values():
        run.games.sort()
    return list(runs.values())


def game_holders(s: Session) -> dict[str, str]:
    """Game: the daemon that holds it now, as `host pid N` (for `maild game list` on PostgreSQL)."""
    held = {}
    for run in daemon_runs(s):
        for game in run.games:
            held[game] = f"{run.host} pid {run.pid}"
    return held
