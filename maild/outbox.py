"""The durable outbox: every mail maild sends is a row first, sent later, retried until it goes."""

from __future__ import annotations

import logging
from datetime import timedelta

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from maild.app import App
from maild.crashpoints import crashpoint
from maild.mail.base import OutgoingMail, Sender
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


async def send_due(app: App, sender: Sender, run_db) -> tuple[int, int]:
    """Send every queued mail whose time has come. Returns (sent, failed now)."""
    now = app.now()

    def due() -> list[tuple[int, OutgoingMail]]:
        with app.db.session() as s:
            rows = s.scalars(select(OutboundMail).where(OutboundMail.status == "queued",
                                                        OutboundMail.next_attempt_at <= now)
                             .order_by(OutboundMail.id))
            return [(r.id, OutgoingMail(r.message_id, r.sender, list(r.recipients), r.raw)) for r in rows]

    sent = failed = 0
    tried: set[int] = set()
    # A failure queues a notice for the GM; a second round sends it in the same pass.
    for _round in range(2):
        batch = [(row_id, mail) for row_id, mail in await run_db(due) if row_id not in tried]
        for row_id, mail in batch:
            tried.add(row_id)
            result = await sender.send(mail)
            crashpoint("send.delivered")
            outcome = await run_db(record_result, app, row_id, result.status, result.detail, result.refused)
            crashpoint("send.recorded")
            sent += outcome == "sent"
            failed += outcome == "failed"
    return sent, failed


def record_result(app: App, row_id: int, status: str, detail: str, refused: dict[str, str]) -> str:
    now = app.now()
    with app.db.session() as s:
        row = s.get(OutboundMail, row_id)
        assert row is not None
        row.attempts += 1
        if status == "sent":
            row.status = "sent"
            row.sent_at = now
            if refused:
                row.last_error = "refused: " + "; ".join(f"{r}: {why}" for r, why in refused.items())
                _report_failure(s, app, row, row.last_error)
            return "sent"
        row.last_error = detail
        if status == "temporary" and now - row.created_at < RETRY_FOR:
            row.next_attempt_at = now + next_pause(row.attempts)
            log.warning("temporary failure sending %s (attempt %d): %s", row.key, row.attempts, detail)
            return "retry"
        row.status = "failed"
        log.error("could not send %s: %s", row.key, detail)
        _report_failure(s, app, row, detail)
        return "failed"


def _report_failure(s: Session, app: App, row: OutboundMail, detail: str) -> None:
    if row.kind == "gm":  # a notice about a notice would never end
        return
    notify_gm(s, app, f"failed:{row.id}", f"could not deliver {row.kind} to {', '.join(row.recipients)}",
              f"maild could not deliver this mail:\n\n  to:      {', '.join(row.recipients)}\n"
              f"  subject: {row.subject}\n  error:   {detail}\n\n"
              "It is kept; `maild outbox list` shows it.\n", row.game_id)


def outbox_rows(session: Session, statuses: tuple[str, ...] = ("queued", "failed")) -> list[OutboundMail]:
    return list(session.scalars(select(OutboundMail).where(OutboundMail.status.in_(statuses))
                                .order_by(OutboundMail.id)))
