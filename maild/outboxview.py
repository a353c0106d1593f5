"""The outbox as the GM sees it: `maild outbox list` (what waits, what failed, what was sent but partly refused
by the server or bounced) and `maild outbox retry` (try now)."""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from maild.app import App
from maild.models import OutboundMail
from maild.outbox import retry_now

EMPTY = "the outbox is empty: nothing queued or failed"


def listed(s: Session) -> list[OutboundMail]:
    """Queued and failed mail, and sent mail the server partly refused or that bounced, by id."""
    troubled = (OutboundMail.status == "sent") & (OutboundMail.last_error.like("refused:%")
                                                  | OutboundMail.last_error.like("%bounced: %"))
    return list(s.scalars(select(OutboundMail).where(
        or_(OutboundMail.status.in_(("queued", "failed", "bounced")), troubled)).order_by(OutboundMail.id)))


def line(row: OutboundMail) -> str:
    # A sent mail's last_error holds the server's words ("refused: ...", "bounced: ..."); for the others it is
    # the error of the last try.
    said = "" if not row.last_error else f"  {row.last_error}" if row.status in ("sent", "bounced") else \
        f"  error: {row.last_error}"
    # A queued mail a daemon has claimed is being sent by it, or was when it died (maild/outbox_claims.py).
    claim = f"  claimed by {row.claimed_by} until {row.claim_until:%Y-%m-%d %H:%M:%S} UTC (database time)" \
        if row.status == "queued" and row.claimed_by and row.claim_until else ""
    return (f"{row.id}  {row.status:<7}  {row.kind:<10}  to {', '.join(row.recipients)}  attempts {row.attempts}  "
            f"{row.subject!r}{said}{claim}")


class NothingToRetry(ValueError):
    """An id asked for is no mail, or one already sent: one line for the GM."""


def retry(app: App, ids: list[int] | None) -> list[str]:
    """Make the mails `ids` (None: every queued and failed mail) due now; a line per mail changed. Nothing is
    changed if an id is no mail or a mail already sent."""
    now = app.now()

    def tx(s: Session) -> list[str]:
        if ids is None:
            rows = list(s.scalars(select(OutboundMail).where(OutboundMail.status.in_(("queued", "failed")))
                                  .order_by(OutboundMail.id)))
        else:
            rows = []
            for mail_id in sorted(set(ids)):
                row = s.get(OutboundMail, mail_id)
                if row is None:
                    raise NothingToRetry(f"no outbound mail {mail_id}")
                if row.status not in ("queued", "failed"):
                    raise NothingToRetry(f"outbound mail {mail_id} was {row.status} already: nothing to retry")
                rows.append(row)
        return [f"{row.id}  {retry_now(row, now)}  to {', '.join(row.recipients)}  {row.subject!r}" for row in rows]

    return app.db.transaction(tx, "retrying outbound mail")
