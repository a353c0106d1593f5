"""A sender that delivers only under a live lease (PostgreSQL's daemon lease, maild/lease.py).

A delivery cannot be taken back, and the outbox records it only after it happened. If the lease lapsed
while a batch was going out, another daemon could take over, find the batch unrecorded and send it again.
So before each mail (SMTP) or each batch (Maildir) the lease must have been renewed recently enough
(`Lease.deliverable`, on the monotonic clock; the sender waits a moment for a renewal first); if not, nothing
is handed over (a mail comes back `held`, not tried; a batch raises LeaseUncertain), the mails stay queued and
the next pass sends them. What stays possible is a mail or batch
under way when the process was frozen (SIGSTOP, a VM paused) longer than the lease: docs/daemon.md, "Many
hands".
"""

from __future__ import annotations

import asyncio

from maild.lease import Lease, LeaseUncertain
from maild.mail.base import OutgoingMail, Sender, SendResult
from maild.mail.breaker import Breaker

# How often a sender waiting for a renewal looks again.
LOOK_EVERY_S = 0.05


class LeasedSender:
    def __init__(self, sender: Sender, lease: Lease) -> None:
        self.sender, self.lease = sender, lease

    @property
    def breaker(self) -> Breaker | None:
        """The transport's own breaker, which the outbox looks for (maild/mail/breaker.py)."""
        return getattr(self.sender, "breaker", None)

    async def unsure(self) -> str | None:
        """None once the lease is sure enough to deliver under, else why not. After the database was away the
        heartbeat is asked to renew at once, and a few milliseconds later mail goes again; if it cannot renew
        within a third of the period, the reason. LeaseLost if the lease is another's."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.lease.period / 3
        while not self.lease.deliverable():
            if loop.time() >= give_up:
                since = self.lease.period - self.lease.remaining()
                return (f"the daemon's lease has not been renewed for {since:.0f} s (it runs "
                        f"{self.lease.period:.0f} s unrenewed); no mail is sent until it is")
            self.lease.nudge()
            await asyncio.sleep(LOOK_EVERY_S)
        return None

    async def send(self, mail: OutgoingMail) -> SendResult:
        why = await self.unsure()
        if why is not None:  # not tried: the outbox leaves the mail as it was, for the next pass
            return SendResult("temporary", why, held=True)
        return await self.sender.send(mail)

    async def close(self) -> None:
        await self.sender.close()


class LeasedBatchSender(LeasedSender):
    """For a transport that takes a batch at once (the outbox looks for `send_batch`)."""

    async def send_batch(self, mails: list[OutgoingMail]) -> list[SendResult]:
        why = await self.unsure()
        if why is not None:  # nothing handed over: the pass reports it, the mails stay queued
            raise LeaseUncertain(why)
        return list(await self.sender.send_batch(mails))  # type: ignore[attr-defined]


def leased(sender: Sender, lease: Lease | None) -> Sender:
    """`sender`, delivering only while `lease` is sure (no lease: SQLite's lock, held by the kernel)."""
    if lease is None:
        return sender
    return LeasedBatchSender(sender, lease) if hasattr(sender, "send_batch") else LeasedSender(sender, lease)
