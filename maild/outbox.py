"""The durable outbox: every mail maild sends is a row first, sent later, retried until it goes."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from maild.app import App
from maild.crashpoints import crashpoint
from maild.mail.base import OutgoingMail, Sender, SendResult
from maild.mail.compose import compose
from maild.models import OutboundMail

log = logging.getLogger("maild.outbox")

# Temporary failures are retried with growing pauses for this long before the mail counts as failed.
RETRY_FOR = timedelta(days=2)
FIRST_RETRY = timedelta(seconds=30)
LONGEST_PAUSE = timedelta(hours=1)

AUTO_REPLIED = "auto-replied"  # RFC 3834: an answer to a mail (acks)
AUTO_GENERATED = "auto-generated"  # printouts, newsletters, reminders, GM notices


def outbound_row(app: App, *, key: str, kind: str, to: list[str], subject: str, body: str,
                 game_id: int | None = None, in_reply_to: str | None = None, references: tuple[str, ...] = (),
                 auto_submitted: str = AUTO_GENERATED, undisclosed: bool = False) -> dict[str, object]:
    """The outbox row of a mail, composed and ready to insert."""
    now = app.now()
    sender = app.config.from_addr
    composed = compose(key=key, sender=sender, to=to, subject=subject, body=body, date=now,
                       auto_submitted=auto_submitted, in_reply_to=in_reply_to, references=references,
                       undisclosed=undisclosed)
    return dict(key=key, message_id=composed.message_id, kind=kind, game_id=game_id, sender=sender,
                recipients=to, subject=subject, raw=composed.raw, status="queued", attempts=0,
                next_attempt_at=now, created_at=now)


def insert_rows(session: Session, rows: list[dict[str, object]]) -> None:
    # The bare table, parameters apart: one compiled INSERT, executed for many rows at once.
    if rows:
        session.execute(insert(OutboundMail.__table__), rows)


def queue_mail(session: Session, app: App, *, key: str, kind: str, to: list[str], subject: str, body: str,
               game_id: int | None = None, in_reply_to: str | None = None, references: tuple[str, ...] = (),
               auto_submitted: str = AUTO_GENERATED, fresh_key: bool = False) -> bool:
    """Queue a mail unless one with this key was queued before (so a re-run never mails twice).
    `fresh_key` says the caller knows the key is new (an ack's key is its mail's, processed once), which
    saves a query on the intake's hot path; the unique key still guards it."""
    if not fresh_key and session.scalar(select(OutboundMail.id).where(OutboundMail.key == key)) is not None:
        return False
    insert_rows(session, [outbound_row(app, key=key, kind=kind, to=to, subject=subject, body=body,
                                       game_id=game_id, in_reply_to=in_reply_to, references=references,
                                       auto_submitted=auto_submitted)])
    return True


def notify_gm(session: Session, app: App, key: str, subject: str, body: str, game_id: int | None = None) -> None:
    queue_mail(session, app, key=f"gm:{key}", kind="gm", to=[app.config.gm_addr], subject=f"[maild] {subject}",
               body=body, game_id=game_id)


def next_pause(attempts: int) -> timedelta:
    return min(FIRST_RETRY * (2 ** max(0, attempts - 1)), LONGEST_PAUSE)


_OUTBOUND = OutboundMail.__table__
# The next due mails after a given id: a pass walks the outbox in id order and never comes back to a mail it
# tried (a retried one is not due again until its pause is over), so it ends however mail keeps coming.
_NEXT = (select(_OUTBOUND.c.id, _OUTBOUND.c.message_id, _OUTBOUND.c.sender, _OUTBOUND.c.recipients,
                _OUTBOUND.c.raw)
         .where(_OUTBOUND.c.status == "queued", _OUTBOUND.c.next_attempt_at <= bindparam("now"),
                _OUTBOUND.c.id > bindparam("after"))
         .order_by(_OUTBOUND.c.id).limit(bindparam("size")))
_SENT = (update(_OUTBOUND).where(_OUTBOUND.c.id == bindparam("row_id"))
         .values(status="sent", sent_at=bindparam("now"), attempts=_OUTBOUND.c.attempts + 1))


class OutboxRun:
    """One pass's sending: due mail a batch at a time, in id order, each batch delivered and then recorded
    in one transaction. `send_more` goes on from where it stopped, so the daemon can send the acks of
    committed intake batches while intake goes on, and once more at the end of the pass."""

    def __init__(self, app: App, sender: Sender, run_db) -> None:
        self.app, self.sender, self.run_db = app, sender, run_db
        self.after = 0  # the last id tried
        self.sent = self.failed = 0

    async def send_more(self) -> None:
        while batch := await self.run_db(next_batch, self.app, self.after, self.app.config.send_batch):
            self.after = batch[-1][0]
            results = await deliver_batch(self.sender, [mail for _row_id, mail in batch])
            outcomes = await self.run_db(record_results, self.app, [(row_id, result) for (row_id, _mail), result
                                                                    in zip(batch, results, strict=True)])
            crashpoint("send.recorded")
            self.sent += outcomes.count("sent")
            self.failed += outcomes.count("failed")


async def send_due(app: App, sender: Sender, run_db) -> tuple[int, int]:
    """Send every queued mail whose time has come (and the GM's notices of failures among them). Returns
    (sent, failed now)."""
    run = OutboxRun(app, sender, run_db)
    await run.send_more()
    return run.sent, run.failed


def next_batch(app: App, after: int, size: int) -> list[tuple[int, OutgoingMail]]:
    # A batch at a time, so a big outbox is never all in memory. (Several daemons would claim the rows
    # here with FOR UPDATE SKIP LOCKED; see docs/design.md, "Beyond one machine".)
    with app.db.session() as s:
        return [(r.id, OutgoingMail(r.message_id, r.sender, list(r.recipients), r.raw))
                for r in s.execute(_NEXT, {"now": app.now(), "after": after, "size": size})]


async def deliver_batch(sender: Sender, mails: list[OutgoingMail]) -> list[SendResult]:
    """Hand a batch to the transport: at once where it can take batches (Maildir: one sync for all), else
    mail by mail over its one connection."""
    send_batch = getattr(sender, "send_batch", None)
    if send_batch is not None:
        return list(await send_batch(mails))
    results = []
    for mail in mails:
        results.append(await sender.send(mail))
        crashpoint("send.delivered")
    return results


def record_results(app: App, results: list[tuple[int, SendResult]]) -> list[str]:
    """Record a delivered batch in one transaction; returns each mail's outcome (sent / retry / failed).
    Plain successes, nearly all of them, are one executemany UPDATE."""
    now = app.now()
    with app.db.session() as s:
        plain = [row_id for row_id, result in results if result.status == "sent" and not result.refused]
        if plain:
            s.execute(_SENT, [{"row_id": row_id, "now": now} for row_id in plain])
        return ["sent" if result.status == "sent" and not result.refused
                else _record_one(s, app, now, row_id, result) for row_id, result in results]


def _record_one(s: Session, app: App, now: datetime, row_id: int, result: SendResult) -> str:
    row = s.get(OutboundMail, row_id)
    assert row is not None
    row.attempts += 1
    if result.status == "sent":
        row.status = "sent"
        row.sent_at = now
        row.last_error = "refused: " + "; ".join(f"{r}: {why}" for r, why in result.refused.items())
        _report_failure(s, app, row, row.last_error)
        return "sent"
    row.last_error = result.detail
    if result.status == "temporary" and now - row.created_at < RETRY_FOR:
        row.next_attempt_at = now + next_pause(row.attempts)
        log.warning("temporary failure sending %s (attempt %d): %s", row.key, row.attempts, result.detail)
        return "retry"
    row.status = "failed"
    log.error("could not send %s: %s", row.key, result.detail)
    _report_failure(s, app, row, result.detail)
    return "failed"


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
