"""A run of failures of work the daemon does again and again (its pass, its delivery): told once when it begins
and once when it ends, never once a try, and the pause before the next try, doubling up to a cap.

A database that is away fails every pass the same way; logging each failure with its traceback made 10 MB of log
in 20 s, and trying again at once made 59 passes a second.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

FIRST_PAUSE_S = 1.0
MAX_PAUSE_S = 300.0


def reason_of(exc: BaseException) -> str:
    """The first line of what went wrong, for a log line or a mail (the database's own words where it gave
    them, without SQLAlchemy's statement and parameters)."""
    cause = getattr(exc, "orig", None) or exc
    lines = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {lines[0][:300] if lines else ''}".rstrip(": ")


@dataclass
class Spell:
    """A run of failures that ended: how many, over how long (seconds)."""

    failures: int
    seconds: float

    def words(self) -> str:
        minutes, seconds = divmod(round(self.seconds), 60)
        span = f"{minutes} min {seconds} s" if minutes else f"{seconds} s"
        return f"{self.failures} failure{'s' if self.failures != 1 else ''} over {span}"


class Trouble:
    """The state of one kind of repeated work: working, or failing since when, how often, and why."""

    def __init__(self, what: str, log: logging.Logger, first_pause: float = FIRST_PAUSE_S,
                 max_pause: float = MAX_PAUSE_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.log = what, log
        self.first_pause, self.max_pause = first_pause, max_pause
        self.clock = clock
        self.failures = 0
        self.since = 0.0  # clock() at the first failure of the run
        self.reason = ""
        self._kind = ""

    @property
    def failing(self) -> bool:
        return self.failures > 0

    def failed(self, exc: BaseException) -> None:
        reason = reason_of(exc)
        # Digits left out: a mail's id or a port in the message is the same trouble.
        kind = re.sub(r"\d+", "N", reason)
        if not self.failing:
            self.since = self.clock()
            self.log.error("%s failing: %s", self.what, reason, exc_info=exc)
        elif kind != self._kind:
            self.log.error("%s still failing, now: %s", self.what, reason)
        self.failures += 1
        self.reason, self._kind = reason, kind

    def worked(self) -> Spell | None:
        """The work went through: the run of failures that this ends, if any (logged)."""
        if not self.failing:
            return None
        spell = Spell(self.failures, self.clock() - self.since)
        self.log.warning("%s work again after %s", self.what, spell.words())
        self.failures = 0
        return spell

    def failing_for(self) -> float:
        return self.clock() - self.since if self.failing else 0.0

    def pause(self) -> float:
        """Seconds to wait before the next try: FIRST_PAUSE_S after the first failure, doubling to the cap."""
        return min(self.max_pause, self.first_pause * 2 ** max(0, self.failures - 1))
