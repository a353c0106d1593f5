"""Reading stored mail again (`maild mail reprocess`): after a failure is mended, or a player was added, the
GM sends mail back through intake. The raw bytes and the receipt sequence (the row id) stay; what intake
made of the mail is forgotten and made again. A mail whose orders are booked, or that was answered, is not
read again: its orders would count twice and its sender would get a second answer."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from maild.app import App
from maild.intake.pipeline import process_new
from maild.models import InboundMail, OrderSetRow, OutboundMail
from maild.orderbook import NOT_UNDERSTOOD


class RefusedReprocess(ValueError):
    """The mails asked for cannot be read again; the message says which and why, in one line."""


@dataclass
class Reread:
    id: int
    status: str
    note: str | None


def why_not(s: Session, mail_id: int) -> str | None:
    """Why mail `mail_id` may not be read again, or None if it may."""
    row = s.get(InboundMail, mail_id)
    if row is None:
        return f"no mail {mail_id}"
    # A set of lines not understood books no order: read again, the mail books it anew (`_reset` drops it).
    booked = s.scalar(select(OrderSetRow.turn).where(OrderSetRow.mail_id == mail_id,
                                                     OrderSetRow.status != NOT_UNDERSTOOD))
    if booked is not None:
        return f"mail {mail_id} has its orders booked for turn {booked} already"
    if s.scalar(select(OutboundMail.id).where(OutboundMail.key == f"ack:{mail_id}")) is not None:
        return f"mail {mail_id} was answered already ({row.status})"
    return None


def _reset(s: Session, ids: list[int] | None) -> list[int]:
    if ids is None:
        chosen = list(s.scalars(select(InboundMail.id).where(InboundMail.status == "error")
                                .order_by(InboundMail.id)))
        chosen = [mail_id for mail_id in chosen if why_not(s, mail_id) is None]
    else:
        chosen = sorted(set(ids))
        for mail_id in chosen:
            problem = why_not(s, mail_id)
            if problem:  # nothing is reset: the GM mends the command and gives it again
                raise RefusedReprocess(problem)
    if chosen:
        s.execute(delete(OrderSetRow).where(OrderSetRow.mail_id.in_(chosen), OrderSetRow.status == NOT_UNDERSTOOD))
        s.execute(update(InboundMail).where(InboundMail.id.in_(chosen)).values(
            status="new", note=None, game_id=None, player_id=None, attempts=0))
    return chosen


def reprocess(app: App, ids: list[int] | None) -> list[Reread]:
    """Run intake again on the mails `ids` (None: every mail that ended in error), in receipt order, with
    whatever else is waiting. Returns what became of each."""
    chosen = app.db.transaction(lambda s: _reset(s, ids), "resetting mail for intake")
    if not chosen:
        return []
    process_new(app)
    with app.db.session() as s:
        rows = s.execute(select(InboundMail.id, InboundMail.status, InboundMail.note)
                         .where(InboundMail.id.in_(chosen)).order_by(InboundMail.id)).all()
    return [Reread(*row) for row in rows]
