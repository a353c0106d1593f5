"""A circuit breaker for one mail server: once it could not be reached, it rests for a while.

Without it every due mail would wait out its own connect timeout against a dead server, one after another,
and the daemon's pass with them (100 mails and a silent server: 50 minutes). With it the first failure opens
the breaker; mail stays queued untouched until the cool-down is over, then one mail tries the server again:
an answer closes the breaker, another failure opens it for twice as long, up to LONGEST_COOL_DOWN.
"""

from __future__ import annotations

import time
from collections.abc import Callable

FIRST_COOL_DOWN = 30.0  # seconds
LONGEST_COOL_DOWN = 600.0


class Breaker:
    """Open (resting) or closed, on the monotonic clock so that a stepped system clock changes no cool-down."""

    def __init__(self, name: str, *, first: float = FIRST_COOL_DOWN, longest: float = LONGEST_COOL_DOWN,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.name = name  # the server, "host:port", for logs and the GM
        self.first, self.longest = first, longest
        self.monotonic = monotonic
        self.cool_down = 0.0  # the last cool-down given; 0 while the server answers
        self.open_until = float("-inf")
        self.down_since: float | None = None  # when the current outage began (its first failure)
        self.last_error = ""

    def available_in(self) -> float:
        """Seconds until the server may be tried again; 0 if it may be now."""
        return max(0.0, self.open_until - self.monotonic())

    def failed(self, error: str) -> float:
        """The server could not be reached: rest it. Returns the cool-down."""
        now = self.monotonic()
        if self.down_since is None:
            self.down_since = now
        self.cool_down = min(self.cool_down * 2, self.longest) if self.cool_down else self.first
        self.open_until = now + self.cool_down
        self.last_error = error
        return self.cool_down

    def answered(self) -> float | None:
        """The server answered: close. Returns how long it had been down, or None if it was not."""
        since, self.down_since = self.down_since, None
        self.cool_down, self.open_until, self.last_error = 0.0, float("-inf"), ""
        return None if since is None else self.monotonic() - since
