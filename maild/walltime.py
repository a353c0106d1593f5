"""A time written on the game's wall clock (a schedule's `at`, a cron rule's hour) as the instant it means.

The rule (docs/daemon.md, "Time"): a local time is the first instant at which the wall clock reads that time
or later. On the night the clocks go back a time of the repeated hour is its first pass (summer time); on the
night they go forward a time of the skipped hour is the instant of the jump. Every schedule kind converts
through `first_instant`, so the GM reads one rule for all of them.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo


def wall_clock(instant: datetime, tz: ZoneInfo) -> datetime:
    """What the wall clock in `tz` reads at `instant` (naive)."""
    return instant.astimezone(tz).replace(tzinfo=None)


def first_instant(wall: datetime, tz: ZoneInfo) -> datetime:
    """The first instant (aware, UTC) at which the wall clock in `tz` reads `wall` (naive) or later."""
    if wall.tzinfo is not None:
        raise ValueError("first_instant takes a wall-clock time without a zone")
    # zoneinfo reads a wall time with the offset before a change (fold=0) or after it (fold=1); away from a
    # change both name the same instant.
    candidates = sorted(wall.replace(tzinfo=tz, fold=fold).astimezone(UTC) for fold in (0, 1))
    shown = [c for c in candidates if wall_clock(c, tz) == wall]
    if shown:
        return shown[0]  # in a repeated hour, the first pass
    return _jump(candidates[0], candidates[1], wall, tz)


def _jump(before: datetime, after: datetime, wall: datetime, tz: ZoneInfo) -> datetime:
    """In a skipped stretch the wall clock reads less than `wall` at `before` and more at `after`: the first
    instant between them at which it reads `wall` or more is the change itself, found by halving the span.
    Zone changes fall on whole seconds, so the search runs over seconds."""
    lo = math.floor(before.timestamp())  # reads less than `wall`
    hi = math.ceil(after.timestamp())  # reads more
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if wall_clock(datetime.fromtimestamp(mid, UTC), tz) >= wall:
            hi = mid
        else:
            lo = mid
    return datetime.fromtimestamp(hi, UTC)


def elapsed(start: datetime, span: timedelta) -> datetime:
    """`span` of real time after `start`. Python adds a timedelta to an aware datetime on its wall clock (a
    day after noon in Rome is noon, 23 or 25 hours later across a change); in UTC wall time and real time agree."""
    return start.astimezone(UTC) + span
