"""The outbox's delivery, a task of its own beside the daemon's pass.

The pass (fetch, intake, turns, reminders) queues mail and wakes the delivery; it never waits for a mail
server. A server that accepts connections and never answers used to hold each due mail for its whole timeout
inside the pass, so intake, turns and SIGTERM waited behind it (a turn ran 154 s late). Now only the delivery
waits. It is woken when a pass queued mail and when the next retry of a mail falls due, and sends what is due a
round at a time (`OutboxRun`). Stopping cancels it wherever it is: a mail in flight was not recorded as sent, so
it stays queued and goes out after the restart, with the same Message-ID.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from maild.app import App
from maild.mail.base import Sender
from maild.outbox import OutboxRun
from maild.trouble import Trouble

log = logging.getLogger("maild.delivery")

# What one round of delivery may take before it leaves the rest for the next (OutboxRun.send_more's budget): a
# round never holds up a stop, and a slow server shares the task with the retries that fall due meanwhile.
ROUND_BUDGET_S = 60.0
# How long stopping waits for the cancelled round to unwind.
STOP_WAIT_S = 2.0

RunDb = Callable[..., Awaitable[Any]]


class Delivery:
    """Sends the outbox in rounds, in a task of its own. `follow_retries`: also wake for the next retry (the
    daemon; `run --once` only sends what is due at the end of its pass)."""

    def __init__(self, app: App, sender: Sender, run_db: RunDb, follow_retries: bool = False,
                 holder: str | None = None) -> None:
        self.app, self.sender, self.run_db = app, sender, run_db
        self.follow_retries = follow_retries
        # One for the daemon's life: it measures retry pauses on the monotonic clock and rests a dead server
        # (maild/outbox.py), which a new one each round would forget.
        # `holder`: the name its claims on outbound rows carry (PostgreSQL), the daemon's (maild/lease.py).
        self.outbox = OutboxRun(app, sender, run_db, holder=holder)
        self.trouble = Trouble("deliveries", log)
        self._again = False
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def kick(self) -> None:
        """Mail was queued, or may be due: send what is due, now or after the round under way."""
        self._again = True
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._rounds())

    async def finish(self) -> None:
        """Send what is due now, and return when that is done (the end of `run --once`'s pass)."""
        self.kick()
        assert self._task is not None
        await self._task

    async def stop(self) -> None:
        """Stop at once, wherever the round is."""
        if self._timer is not None:
            self._timer.cancel()
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=STOP_WAIT_S)

    async def _rounds(self) -> None:
        while self._again:
            self._again = False
            await self._round()
        if self.follow_retries:
            await self._wake_for_next_retry()

    @property
    def sent(self) -> int:  # over every round so far
        return self.outbox.sent

    @property
    def failed(self) -> int:
        return self.outbox.failed

    async def _round(self) -> None:
        try:
            await self.outbox.send_more(ROUND_BUDGET_S)
        except Exception as exc:  # the database away, most likely: the next wake-up tries again
            self.trouble.failed(exc)
        else:
            self.trouble.worked()

    async def _wake_for_next_retry(self) -> None:
        delay: float | None = self.trouble.pause() if self.trouble.failing else None
        if delay is None:
            try:
                due = await self.outbox.next_due_in()
            except Exception as exc:
                self.trouble.failed(exc)
                delay = self.trouble.pause()
            else:
                # At least a second: a mail due at once was just tried, and must not make the task spin.
                delay = None if due is None else max(1.0, due)
        if self._timer is not None:
            self._timer.cancel()
        if delay is not None:
            self._timer = asyncio.get_running_loop().call_later(delay, self.kick)
