"""The durable outbox: every mail maild sends is a row first, sent later, retried until it goes."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from maild.app import App
from maild.crashpoints import crashpoint
from maild.lease import new_holder
from maild.mail.base import OutgoingMail, Sender, SendResult
from maild.mail.breaker import Breaker
from maild.mail.compose import compose
from maild.models import OutboundMail
from maild.outbox_claims import CLAIM, RELEASE, SURE_FOR, claim_params, claims_rows, earliest_free_due
from maild.outbox_waits import LONGEST_PAUSE, RetryWaits, due_clause, due_params, earliest_due, reschedule
from maild.ruleset import Attachment

log = logging.getLogger("maild.outbox")
T = TypeVar("T")

# Temporary failures are retried with growing pauses (FIRST_RETRY doubling up to LONGEST_PAUSE) until the
# pauses given add up to RETRY_FOR; then the mail counts as failed.
RETRY_FOR = timedelta(days=2)
FIRST_RETRY = timedelta(seconds=30)
# Seconds a mail server may stay unreachable before the GM is told (once per outage).
OUTAGE_NOTICE_AFTER = 600.0

AUTO_REPLIED = "auto-replied"  # RFC 3834: an answer to a mail (acks)
AUTO_GENERATED = "auto-generated"  # printouts, newsletters, reminders, GM notices


def outbound_row(app: App, *, key: str, kind: str, to: list[str], subject: str, body: str,
                 game_id: int | None = None, in_reply_to: str | None = None, references: tuple[str, ...] = (),
                 auto_submitted: str = AUTO_GENERATED, undisclosed: bool = False,
                 attachments: Sequence[Attachment] = ()) -> dict[str, object]:
    """The outbox row of a mail, composed and ready to insert; with `attachments`, a multipart mail."""
    now = app.now()
    sender = app.config.from_addr
    composed = compose(key=key, sender=sender, to=to, subject=subject, body=body, date=now,
                       auto_submitted=auto_submitted, in_reply_to=in_reply_to, references=references,
                       undisclosed=undisclosed, attachments=attachments)
    return dict(key=key, message_id=composed.message_id, kind=kind, game_id=game_id, sender=sender,
                recipients=to, subject=subject, raw=composed.raw, status="queued", attempts=0,
                next_attempt_at=now, created_at=now)


def insert_rows(session: Session, rows: list[dict[str, object]]) -> None:
    # The bare table, parameters apart: one compiled INSERT, executed for many rows at once.
    if rows:
        session.execute(insert(OutboundMail.__table__), rows)


def queue_mail(session: Session, app: App, *, key: str, kind: str, to: list[str], subject: str, body: str,
               game_id: int | None = None, in_reply_to: str | None = None, references: tuple[str, ...] = (),
               auto_submitted: str = AUTO_GENERATED, fresh_key: bool = False, undisclosed: bool = False,
               attachments: Sequence[Attachment] = ()) -> bool:
    """Queue a mail unless one with this key was queued before (so a re-run never mails twice).
    `fresh_key` says the caller knows the key is new (an ack's key is its mail's, processed once), which
    saves a query on the intake's hot path; the unique key still guards it."""
    if not fresh_key and session.scalar(select(OutboundMail.id).where(OutboundMail.key == key)) is not None:
        return False
    insert_rows(session, [outbound_row(app, key=key, kind=kind, to=to, subject=subject, body=body,
                                       game_id=game_id, in_reply_to=in_reply_to, references=references,
                                       auto_submitted=auto_submitted, undisclosed=undisclosed,
                                       attachments=attachments)])
    return True


def queue_to_many(session: Session, app: App, *, key: str, kind: str, to: list[str], subject: str, body: str,
                  game_id: int | None = None, per_mail: int = 50) -> int:
    """One text to many players, undisclosed (no reader sees another's address), `per_mail` recipients a mail
    (as a newsletter goes out). Returns the mails queued."""
    return sum(queue_mail(session, app, key=f"{key}:{part}", kind=kind, to=to[start:start + per_mail],
                          subject=subject, body=body, game_id=game_id, undisclosed=True)
               for part, start in enumerate(range(0, len(to), per_mail), start=1))


def notify_gm(session: Session, app: App, key: str, subject: str, body: str, game_id: int | None = None) -> None:
    queue_mail(session, app, key=f"gm:{key}", kind="gm", to=[app.config.gm_addr], subject=f"[maild] {subject}",
               body=body, game_id=game_id)


def next_pause(attempts: int) -> timedelta:
    # The doubling stops long past LONGEST_PAUSE but before timedelta overflows (from try 43 it would).
    return min(FIRST_RETRY * 2 ** min(max(0, attempts - 1), 20), LONGEST_PAUSE)


def waited_before(attempts: int) -> timedelta:
    """The pauses the schedule gave a mail between its first try and its try number `attempts`: how long it
    has waited for its retries, by a measure that a stepped clock cannot change (nor a daemon that was down,
    nor a server the breaker rested, since neither tried the mail)."""
    return sum((next_pause(n) for n in range(1, attempts)), timedelta())


def expired(attempts: int) -> bool:
    """Whether a temporary failure at try number `attempts` ends the mail's retries. With 30 s doubling to
    1 h: 3,810 s of pauses before try 8, an hour more before each later one, so try 55 is the last
    (waited_before(55) = 48 h 3 min 30 s; waited_before(54) = 47 h 3 min 30 s, still under two days)."""
    return waited_before(attempts) >= RETRY_FOR


_OUTBOUND = OutboundMail.__table__
# The next due mails after a given id: a pass walks the outbox in id order, and a mail it tried is not due
# again until its pause is over, so a walk ends however mail keeps coming.
_NEXT = (select(_OUTBOUND.c.id, _OUTBOUND.c.message_id, _OUTBOUND.c.sender, _OUTBOUND.c.recipients,
                _OUTBOUND.c.raw)
         .where(due_clause(), _OUTBOUND.c.id > bindparam("after"))
         .order_by(_OUTBOUND.c.id).limit(bindparam("size")))
_SENT = (update(_OUTBOUND).where(_OUTBOUND.c.id == bindparam("row_id"))
         .values(status="sent", sent_at=bindparam("now"), attempts=_OUTBOUND.c.attempts + 1, claimed_by=None,
                 claim_until=None))
_QUEUED = select(func.count()).select_from(_OUTBOUND).where(_OUTBOUND.c.status == "queued")

RunDb = Callable[..., Awaitable[Any]]


class OutboxRun:
    """Delivery of the outbox: due mail a batch at a time, in id order, each batch delivered and then recorded
    in one transaction.

    The daemon keeps ONE OutboxRun for its whole life, made once beside its sender, and calls `send_more`
    whenever mail should go: after intake commits a batch, after a turn, or from a sender task of its own
    that sleeps `await next_due_in()` seconds between calls. Kept alive, it measures retry pauses on the
    monotonic clock (maild/outbox_waits.py) and tells the GM once of a mail server that stays away. A fresh
    one per pass still works (the database's rules alone), as `send_due` shows.

    - `await send_more(budget_s=None)` sends what is due, going on from where the last call stopped. With a
      budget (seconds, monotonic) it starts no new mail once that much time is spent: the mail in hand is
      finished (an SMTP send is bounded by the sender's timeouts), the rest is left for the next call. While
      the sender's server rests after a connection failure (`SmtpSender.breaker`) it returns at once and
      leaves every mail queued as it was, no attempt counted. Calls must not overlap: one task drives it.
    - `await next_due_in()`: seconds on the monotonic clock until anything could be due (0: now, say after a
      spent budget; never before the resting server may be tried again), or None when nothing is queued.
      Mail queued after the call is not foreseen: wake the sender task when intake or a turn queues mail.
    - `sent`, `failed`: counts since the object was made (a pass report takes differences).
    - Several daemons on one PostgreSQL database: each batch is claimed for this run's `holder` before it is
      sent (maild/outbox_claims.py), so each mail goes from one daemon; what a round leaves untried is given
      back at once. A mail is not handed over once its batch's claim has run SURE_FOR of its period (the
      daemon's lease period, `daemon.lease`): the rest is claimed afresh first.
    - Cancelling `send_more` (SIGTERM) is safe at any await. Mails handed over before the cancellation are
      still recorded: the cancelled task finishes that one transaction (milliseconds) before it ends, so
      await it. The mail in hand stays queued, unrecorded, and the sender drops its connection; it goes again
      later with the same Message-ID. If the server had already accepted its DATA when the cancellation came,
      the player gets it twice: that window, between the server's acceptance and our record of it, is the
      one duplicate no design closes (a kill -9 has the same window, as wide as a batch).
    """

    def __init__(self, app: App, sender: Sender, run_db: RunDb, *, holder: str | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.app, self.sender, self.run_db, self.monotonic = app, sender, run_db, monotonic
        # Who claims the rows it sends (PostgreSQL): the daemon's holder name, or one of this run's own.
        self.holder = holder or new_holder()
        self.claiming = claims_rows(app.db.engine)
        self._claimed_at = 0.0  # monotonic time just before the batch in hand was claimed
        self.after = 0  # the last id tried in this walk through the outbox
        self.sent = self.failed = 0
        self.waits = RetryWaits(app.now(), monotonic())
        self._cut = False  # the last send_more spent its budget with mail left
        self._told: float | None = None  # the outage (its breaker's down_since) the GM was told of

    async def send_more(self, budget_s: float | None = None) -> None:
        started = self.monotonic()
        self._cut = False
        await self._follow_clock()
        from_start = self.after == 0
        while not self._resting():
            if self._spent(started, budget_s):
                self._cut = True
                break
            self._claimed_at = self.monotonic()
            batch = await self.run_db(next_batch, self.app, self.after, self.app.config.send_batch,
                                      self.holder if self.claiming else None)
            if not batch:
                self.after = 0
                if from_start:
                    break
                from_start = True  # a walk begun by an earlier call: what it passed may have come due since
                continue
            done = await self._deliver(batch, started, budget_s)
            if not done:
                break
            self.after = done[-1][0]
        await self._mind_outage()

    async def next_due_in(self) -> float | None:
        await self._follow_clock()
        if self._cut:
            due: float | None = 0.0
        elif self.claiming:
            due = await self.run_db(earliest_free_due, self.app, self.holder)
        else:
            due = await self.run_db(earliest_due, self.app)
        breaker = self._breaker()
        if due is None or breaker is None:
            return due
        due = max(due, breaker.available_in())
        if breaker.down_since is not None and breaker.down_since != self._told:
            due = min(due, max(0.0, OUTAGE_NOTICE_AFTER - (breaker.monotonic() - breaker.down_since)))
        return due

    async def _deliver(self, batch: list[tuple[int, OutgoingMail]], started: float,
                       budget_s: float | None) -> list[tuple[int, SendResult]]:
        """Hand a batch to the transport and record what it took: at once where it takes batches (Maildir:
        one sync for all), else mail by mail over its one connection, stopping early when the budget is spent
        or the server is found away. Returns the mails tried, each with its result."""
        done: list[tuple[int, SendResult]] = []
        try:
            send_batch = getattr(self.sender, "send_batch", None)
            if send_batch is not None:
                results = await send_batch([mail for _row_id, mail in batch])
                done = [(row_id, result) for (row_id, _mail), result in zip(batch, results, strict=True)]
                return done
            for row_id, mail in batch:
                if done and (self._resting() or self._spent(started, budget_s) or not self._claim_sure()):
                    break
                result = await self.sender.send(mail)
                if result.held:  # not tried: nothing to record
                    break
                done.append((row_id, result))
                crashpoint("send.delivered")
            return done
        finally:
            # Cancelled or not: what was handed over is recorded, so it is not sent again; what was not is
            # given back, for another daemon or the next round.
            untried = [row_id for row_id, _mail in batch[len(done):]] if self.claiming else []
            if done or untried:
                await _finish(self._record(done, untried))

    async def _record(self, done: list[tuple[int, SendResult]], untried: list[int]) -> None:
        now, mono = self.app.now(), self.monotonic()
        recorded = await self.run_db(record_results, self.app, done, now, untried, self.holder)
        crashpoint("send.recorded")
        for (row_id, _result), entry in zip(done, recorded, strict=True):
            if entry.retry_at is None:
                self.waits.forget(row_id)
            else:
                self.waits.scheduled(row_id, entry.retry_at, mono + (entry.retry_at - now).total_seconds())
        self.sent += sum(entry.outcome == "sent" for entry in recorded)
        self.failed += sum(entry.outcome == "failed" for entry in recorded)

    async def _follow_clock(self) -> None:
        """If the wall clock stepped, move the retries this process scheduled to where their pauses end."""
        step, moves = self.waits.moves(self.app.now(), self.monotonic())
        if not moves:
            return
        moved = await self.run_db(reschedule, self.app, moves)
        self.waits.moved(moves, moved)
        log.warning("the clock jumped %+.0f s; %d queued retries moved so that each waits its pause and no more",
                    step, len(moved))

    async def _mind_outage(self) -> None:
        """Tell the GM, once, of a mail server that has stayed away OUTAGE_NOTICE_AFTER seconds."""
        breaker = self._breaker()
        if breaker is None or breaker.down_since is None or breaker.down_since == self._told:
            return
        down = breaker.monotonic() - breaker.down_since
        if down < OUTAGE_NOTICE_AFTER:
            return
        await self.run_db(notify_outage, self.app, breaker.name, breaker.down_since,
                          self.app.now() - timedelta(seconds=down), breaker.last_error)
        self._told = breaker.down_since

    def _breaker(self) -> Breaker | None:
        return getattr(self.sender, "breaker", None)

    def _resting(self) -> bool:
        breaker = self._breaker()
        return breaker is not None and breaker.available_in() > 0

    def _claim_sure(self) -> bool:
        """Whether the batch's claim runs long enough for one more mail to be handed over under it."""
        return not self.claiming or self.monotonic() - self._claimed_at < self.app.config.lease * SURE_FOR

    def _spent(self, started: float, budget_s: float | None) -> bool:
        return budget_s is not None and self.monotonic() - started >= budget_s


async def _finish(aw: Awaitable[T]) -> T:
    """Await `aw` to its end even if this task is cancelled meanwhile; the cancellation is raised after."""
    task = asyncio.ensure_future(aw)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        if not task.cancelled() and task.exception() is not None:
            log.error("failed while being cancelled: %r", task.exception())
        raise asyncio.CancelledError
    return task.result()


async def send_due(app: App, sender: Sender, run_db: RunDb) -> tuple[int, int]:
    """Send every queued mail whose time has come (and the GM's notices of failures among them). Returns
    (sent, failed now)."""
    run = OutboxRun(app, sender, run_db)
    await run.send_more()
    return run.sent, run.failed


def next_batch(app: App, after: int, size: int, holder: str | None = None) -> list[tuple[int, OutgoingMail]]:
    """The next due mails after id `after`, at most `size` (a batch at a time, so a big outbox is never all in
    memory), in id order. With a `holder` on PostgreSQL, claimed for it (maild/outbox_claims.py): rows another
    daemon claims are left out."""
    params = {**due_params(app.now()), "after": after, "size": size}
    with app.db.session() as s:
        if holder is not None and claims_rows(app.db.engine):
            rows = sorted(s.execute(CLAIM, {**params, **claim_params(holder, app.config.lease)}),
                          key=lambda r: r.id)
        else:
            rows = list(s.execute(_NEXT, params))
        return [(r.id, OutgoingMail(r.message_id, r.sender, list(r.recipients), r.raw)) for r in rows]


class Recorded(NamedTuple):
    outcome: str  # sent / retry / failed
    retry_at: datetime | None = None  # the next_attempt_at written, for a retry


def record_results(app: App, results: list[tuple[int, SendResult]], now: datetime | None = None,
                   untried: Sequence[int] = (), holder: str | None = None) -> list[Recorded]:
    """Record a delivered batch in one transaction, each mail's claim cleared, and give back the claims of
    `holder` on the batch's `untried` mails; returns each mail's outcome. Plain successes, nearly all of them,
    are one executemany UPDATE."""
    now = app.now() if now is None else now
    with app.db.session() as s:
        if untried:
            s.execute(RELEASE, [{"row_id": row_id, "holder": holder} for row_id in untried])
        plain = [row_id for row_id, result in results if result.status == "sent" and not result.refused]
        if plain:
            s.execute(_SENT, [{"row_id": row_id, "now": now} for row_id in plain])
        return [Recorded("sent") if result.status == "sent" and not result.refused
                else _record_one(s, app, now, row_id, result) for row_id, result in results]


def _record_one(s: Session, app: App, now: datetime, row_id: int, result: SendResult) -> Recorded:
    row = s.get(OutboundMail, row_id)
    assert row is not None
    row.attempts += 1
    row.claimed_by = row.claim_until = None
    if result.status == "sent":
        row.status = "sent"
        row.sent_at = now
        row.last_error = "refused: " + "; ".join(f"{r}: {why}" for r, why in result.refused.items())
        _report_failure(s, app, row, row.last_error)
        return Recorded("sent")
    row.last_error = result.detail
    if result.status == "temporary" and not expired(row.attempts):
        row.next_attempt_at = now + next_pause(row.attempts)
        log.warning("temporary failure sending %s (attempt %d): %s", row.key, row.attempts, result.detail)
        return Recorded("retry", row.next_attempt_at)
    row.status = "failed"
    log.error("could not send %s: %s", row.key, result.detail)
    _report_failure(s, app, row, result.detail)
    return Recorded("failed")


def notify_outage(app: App, server: str, outage: float, since: datetime, error: str) -> None:
    """The GM's one notice of a mail server that stays away. Its key names the outage by the monotonic time it
    began (`Breaker.down_since`), which no clock step and no second OutboxRun changes, so it is queued once."""
    with app.db.session() as s:
        waiting = s.scalar(_QUEUED)
        notify_gm(s, app, f"smtp-down:{server}:{outage:.3f}",
                  f"mail server {server} unreachable since {since:%Y-%m-%d %H:%M} UTC",
                  f"maild has not been able to reach the mail server {server} since {since:%Y-%m-%d %H:%M} UTC.\n"
                  f"The last error: {error}\n\n"
                  f"{waiting} mails wait in the outbox (`maild outbox list`). They are kept, and go out once each\n"
                  "when the server answers again; maild tries it again every ten minutes at most, and counts no\n"
                  "attempt against the mails it holds back meanwhile.\n\n"
                  "This notice is itself queued and goes out the same way. The daemon's log has the same news\n"
                  "(\"SMTP server ... cannot be reached\").\n")


def _report_failure(s: Session, app: App, row: OutboundMail, detail: str) -> None:
    if row.kind == "gm":  # a notice about a notice would never end
        return
    notify_gm(s, app, f"failed:{row.id}", f"could not deliver {row.kind} to {', '.join(row.recipients)}",
              f"maild could not deliver this mail:\n\n  to:      {', '.join(row.recipients)}\n"
              f"  subject: {row.subject}\n  error:   {detail}\n\n"
              "It is kept; `maild outbox list` shows it.\n", row.game_id)


def mark_bounced(row: OutboundMail, address: str, reason: str) -> None:
    """A bounce says that `address` never got this mail, which was sent: `last_error` says so ("bounced:
    ADDRESS: REASON", after any earlier words), and a mail with no other recipient is `bounced` (never sent
    again: the server said no for good). A newsletter to many stays `sent`, the others had it."""
    line = f"bounced: {address}: {reason}"
    if row.last_error and line in row.last_error:  # the same bounce again (a resent DSN)
        return
    row.last_error = f"{row.last_error}; {line}"[-2000:] if row.last_error else line
    if [r.lower() for r in row.recipients] == [address.lower()]:
        row.status = "bounced"


def retry_now(row: OutboundMail, now: datetime) -> str | None:
    """Make a queued mail due now and put a failed one back in the queue, due now (`maild outbox retry`); what
    changed, in words, or None for a mail that was sent. A queued mail keeps its attempts: it is still within
    its retries, only its pause is cut short. A failed mail starts a new round: its attempts go back to 0, so
    its pauses start short again and, where the retries end by the pauses given (RETRY_FOR of them), it gets
    a whole new round, as the GM who mended the cause (an address, a password, the server) means."""
    if row.status == "queued":
        was = row.next_attempt_at
        row.next_attempt_at = now
        return "queued, due now" + (f" (was due {was:%Y-%m-%d %H:%M} UTC)" if was > now else "")
    if row.status == "failed":
        tried = row.attempts
        row.status, row.next_attempt_at, row.attempts = "queued", now, 0
        return f"failed, queued again, due now (after {tried} attempt{'s' if tried != 1 else ''})"
    return None


def outbox_rows(session: Session, statuses: tuple[str, ...] = ("queued", "failed")) -> list[OutboundMail]:
    return list(session.scalars(select(OutboundMail).where(OutboundMail.status.in_(statuses))
                                .order_by(OutboundMail.id)))
