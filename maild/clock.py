"""The one clock every part of maild reads, so `--now` moves deadlines and receipt times alike."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta

# Set (to anything but "" or "0") where nothing may read the wall clock through a Clock: tests/conftest.py sets
# it for the whole suite and every process it starts, so a test that forgets `--now` or an injected clock fails
# at once instead of on the day its dates fall behind the real one (docs/daemon.md, "Time").
NO_WALL_CLOCK = "MAILD_NO_WALL_CLOCK"


class WallClockForbidden(RuntimeError):
    """A Clock on real time was made where MAILD_NO_WALL_CLOCK forbids it."""


def wall_clock_forbidden() -> bool:
    return os.environ.get(NO_WALL_CLOCK, "") not in ("", "0")


class Clock:
    """Real time, or time starting at a given instant (`--now`) and running on from there."""

    def __init__(self, start: datetime | None = None, frozen: bool = False) -> None:
        if start is not None and start.tzinfo is None:
            raise ValueError("the clock needs an aware datetime")
        if start is None and wall_clock_forbidden():
            raise WallClockForbidden(f"a clock on real time, but {NO_WALL_CLOCK} is set: tests must pass --now "
                                     "(command line) or an injected clock (Clock(start), maild.testing.open_app)")
        self._start = start
        self._frozen = frozen
        self._mono0 = time.monotonic()

    def now(self) -> datetime:
        if self._start is None:
            return datetime.now(UTC)
        if self._frozen:
            return self._start.astimezone(UTC)
        return (self._start + timedelta(seconds=time.monotonic() - self._mono0)).astimezone(UTC)


def parse_now(text: str) -> datetime:
    """`--now` accepts ISO-8601; without an offset it is taken in the local time zone."""
    dt = datetime.fromisoformat(text)
    if dt.tzinfo is None:
        dt = dt.astimezone()  # local time zone of the machine
    return dt
