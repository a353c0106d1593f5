"""The one clock every part of maild reads, so `--now` moves deadlines and receipt times alike."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta


class Clock:
    """Real time, or time starting at a given instant (`--now`) and running on from there."""

    def __init__(self, start: datetime | None = None, frozen: bool = False) -> None:
        if start is not None and start.tzinfo is None:
            raise ValueError("the clock needs an aware datetime")
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
