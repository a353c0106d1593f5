"""Retry pauses that a stepped system clock can neither stretch nor cut short.

A mail's `next_attempt_at` is a wall-clock time in the database, so that it survives a restart. Two rules keep
it honest when the clock steps:

- In the running process, each pause is also measured on the monotonic clock (`RetryWaits`). When the wall
  clock has moved against the monotonic one, the retry times this process wrote are rewritten to when their
  pauses really end (`reschedule`), so the database, `maild outbox list` and the wait for the next due mail
  agree with the monotonic measure again.
- In the database, a retry time further ahead than the longest pause the schedule gives (plus a margin) can
  only come from a clock that stepped back since it was written (say by an earlier run of the daemon): such a
  mail is due now (`due_clause`). A never-tried mail is always due: it has no pause to wait.

A smaller step back between two runs of the daemon still delays the retries the earlier run scheduled by the
size of the step, at most STEPPED_BACK_AFTER: the new process cannot tell it from a pause.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, bindparam, exists, func, or_, select, update

from maild.app import App
from maild.models import OutboundMail

log = logging.getLogger("maild.outbox")

LONGEST_PAUSE = timedelta(hours=1)
# A retry time further ahead than this was written before the clock stepped back: the mail is due now.
STEPPED_BACK_AFTER = LONGEST_PAUSE + timedelta(minutes=5)
# Seconds the wall clock may drift against the monotonic one before retry times are rewritten (NTP slews
# the clock by well under this between two sends; a step is larger).
STEP_TOLERANCE = 1.0

_OUTBOUND = OutboundMail.__table__


def due_clause() -> ColumnElement[bool]:
    """Queued mail whose time has come at bind parameter `now` (`stepped` = now + STEPPED_BACK_AFTER)."""
    return and_(_OUTBOUND.c.status == "queued",
                or_(_OUTBOUND.c.attempts == 0, _OUTBOUND.c.next_attempt_at <= bindparam("now"),
                    _OUTBOUND.c.next_attempt_at > bindparam("stepped")))


def due_params(now: datetime) -> dict[str, datetime]:
    return {"now": now, "stepped": now + STEPPED_BACK_AFTER}


_ANY_DUE = select(exists().where(due_clause()))
_EARLIEST = select(func.min(_OUTBOUND.c.next_attempt_at)).where(_OUTBOUND.c.status == "queued")


def earliest_due(app: App) -> float | None:
    """Seconds until the first queued mail is due (0: one is due now), or None if nothing is queued."""
    now = app.now()
    with app.db.session() as s:
        if s.scalar(_ANY_DUE, due_params(now)):
            return 0.0
        first = s.scalar(_EARLIEST)
    return None if first is None else max(0.0, (first - now).total_seconds())


_MOVE = (update(_OUTBOUND)
         .where(_OUTBOUND.c.id == bindparam("row_id"), _OUTBOUND.c.status == "queued",
                _OUTBOUND.c.next_attempt_at == bindparam("written"))
         .values(next_attempt_at=bindparam("corrected")))


def reschedule(app: App, moves: list[tuple[int, datetime, datetime]]) -> set[int]:
    """Rewrite retry times (row id, as written, as corrected); a row someone else changed meanwhile (sent,
    failed, retried by the GM) is left as it is. Returns the ids rewritten."""
    moved = set()
    with app.db.session() as s:
        for row_id, written, corrected in moves:  # a row at a time, for its rowcount; clock steps are rare
            if s.execute(_MOVE, {"row_id": row_id, "written": written, "corrected": corrected}).rowcount:
                moved.add(row_id)
    return moved


class RetryWaits:
    """The retries this process scheduled: row id -> (when its pause ends on the monotonic clock, the
    `next_attempt_at` written for it). Kept by the one OutboxRun the daemon keeps across passes."""

    def __init__(self, now: datetime, mono: float) -> None:
        self._due: dict[int, tuple[float, datetime]] = {}
        self._offset = now.timestamp() - mono  # wall minus monotonic, when last in step

    def __len__(self) -> int:
        return len(self._due)

    def scheduled(self, row_id: int, written: datetime, mono_due: float) -> None:
        self._due[row_id] = (mono_due, written)

    def forget(self, row_id: int) -> None:
        self._due.pop(row_id, None)

    def moves(self, now: datetime, mono: float) -> tuple[float, list[tuple[int, datetime, datetime]]]:
        """If the wall clock stepped against the monotonic one since the last look: the step in seconds and
        the retry times to rewrite (row id, as written, where its pause really ends on the new wall clock)."""
        offset = now.timestamp() - mono
        step = offset - self._offset
        if abs(step) < STEP_TOLERANCE:
            return 0.0, []
        self._offset = offset
        moves = []
        for row_id, (mono_due, written) in self._due.items():
            corrected = now + timedelta(seconds=max(0.0, mono_due - mono))
            if abs((corrected - written).total_seconds()) >= STEP_TOLERANCE:
                moves.append((row_id, written, corrected))
        return step, moves

    def moved(self, moves: list[tuple[int, datetime, datetime]], done: set[int]) -> None:
        for row_id, written, corrected in moves:
            entry = self._due.get(row_id)
            if entry is None or entry[1] != written:  # scheduled afresh meanwhile: that entry stands
                continue
            if row_id in done:
                self._due[row_id] = (entry[0], corrected)
            else:  # no longer the retry we scheduled (sent, failed, retried by the GM): not ours to move
                del self._due[row_id]
