"""What the outbox tests share: a scripted sender (a unit-test double), an inline database runner, and time
moved by hand (the app's wall clock and a monotonic clock, together or apart)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from maild.app import App
from maild.clock import Clock
from maild.mail.base import OutgoingMail, SendResult


class ScriptedSender:
    """Answers each send with the next scripted result (a unit-test double; the real peers are in
    test_smtp.py, test_outbox_faults.py and the end-to-end tests)."""

    def __init__(self, results: list[SendResult]) -> None:
        self.results = results
        self.sent: list[OutgoingMail] = []

    async def send(self, mail: OutgoingMail) -> SendResult:
        self.sent.append(mail)
        return self.results.pop(0)

    async def close(self) -> None:
        pass


async def run_db(fn: Any, *args: Any) -> Any:
    return fn(*args)


class Monotonic:
    """A monotonic clock that moves only when told."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


class ManualTime:
    """The app's wall clock and a monotonic clock: `advance` moves both (time passes), `step_wall` only the
    wall clock (NTP stepping it, a GM setting the date)."""

    def __init__(self, app: App, start: datetime) -> None:
        self.app = app
        self.wall = start
        self.monotonic = Monotonic()
        self.elapsed = 0.0  # seconds advanced so far
        self._set()

    def advance(self, seconds: float) -> None:
        self.monotonic.now += seconds
        self.elapsed += seconds
        self.wall += timedelta(seconds=seconds)
        self._set()

    def step_wall(self, step: timedelta) -> None:
        self.wall += step
        self._set()

    def _set(self) -> None:
        self.app.clock = Clock(self.wall, frozen=True)
