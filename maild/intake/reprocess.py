"""Reading stored mail again (`maild mail reprocess`): after a failure is mended, or a player was added, the
GM sends mail back through intake. The raw bytes and the receipt sequence (the row id) stay; what intake
made of the mail is forgotten and made again. A mail whose orders are booked, or that was answered, is not
read again: its orders would count twice and its sender would get a second answer; `reprocess_into` (`mail
reprocess ID --turn N`) is how the GM books such a mail anyway (see maild/intake/rereading.py)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from maild import inforce
from maild.app import App
from maild.controlchars import strip_controls
from maild.intake.pipeline import notify_held, process_mail, process_new
from maild.intake.rereading import RefusedReprocess
from maild.intake.run import IntakeRun, iter_new
from maild.models import Game, InboundMail, OrderSetRow, OutboundMail, Turn
from maild.orderbook import NOT_UNDERSTOOD
from maild.outbox import notify_gm

__all__ = ["RefusedReprocess", "Reread", "reprocess", "reprocess_into", "why_not"]


@dataclass
class Reread:
    id: int
    status: str
    note: str | None
    game: str | None = None
    turn: int | None = None  # the turn `reprocess_into` booked it into
    turn_done: bool = False  # that turn has run: the GM reruns it for the mail to count


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


# A mail whose bytes were not kept (an oversized one keeps its headers only, a duplicate none) cannot be read.
UNREADABLE = ("new", "duplicate", "oversized")


def reprocess_into(app: App, mail_id: int, turn: int) -> Reread:
    """Read mail `mail_id` again and book its orders into `turn`, even though it was answered, in one
    transaction: its old order set gives way, it gets a new ack, its note and a notice to the GM record it (the
    GM's log). Refused (RefusedReprocess, nothing changed) unless it reads as a player's mail and `turn` is
    the one it arrived for."""
    now = app.now()

    def tx(s: Session) -> Reread:
        row = s.get(InboundMail, mail_id, with_for_update=True)
        if row is None:
            raise RefusedReprocess(f"no mail {mail_id}")
        if row.status in UNREADABLE:
            raise RefusedReprocess(f"mail {mail_id} cannot be read again ({row.status})")
        old = s.execute(select(OrderSetRow.game_id, OrderSetRow.turn, OrderSetRow.player_id)
                        .where(OrderSetRow.mail_id == mail_id, OrderSetRow.status == "accepted")).first()
        s.execute(delete(OrderSetRow).where(OrderSetRow.mail_id == mail_id))
        if old is not None:  # the set gives way: the orders in force it was part of are worked out anew
            inforce.invalidate(s, old.game_id, old.turn, old.player_id)
        row.status, row.note, row.game_id, row.player_id, row.attempts = "new", None, None, None, 0
        s.flush()
        run = IntakeRun()
        run.book_turn = turn
        for mail in iter_new(s, [mail_id], app.config.max_mail_bytes):
            process_mail(s, app, mail, run)
            if mail.status == "empty":  # rolled back, as every refusal here: the mail stays as it was
                raise RefusedReprocess(f"mail {mail_id} reads as empty again: nothing to book")
            if run.booked_into is None:
                why = strip_controls(mail.note or "")[:200]
                raise RefusedReprocess(f"mail {mail_id} reads as {mail.status} ({why}), not as a player's orders: "
                                       "nothing was booked")
            line = f"read again by the GM at {now:%Y-%m-%d %H:%M} UTC and booked for turn {turn}"
            mail.note = f"{mail.note}; {line}" if mail.note else line
            run.save(mail)
        run.flush(s)
        notify_held(s, app, run)
        s.refresh(row)  # written by intake's own UPDATE
        game = s.get(Game, row.game_id)
        assert game is not None
        done = s.scalar(select(Turn.status).where(Turn.game_id == game.id, Turn.number == turn)) == "done"
        _log_for_gm(s, app, row, game, turn, done)
        return Reread(mail_id, row.status, row.note, game.name, turn, done)

    return app.db.transaction(tx, f"reading mail {mail_id} again")


def _log_for_gm(s: Session, app: App, row: InboundMail, game: Game, turn: int, done: bool) -> None:
    """The GM's log of a mail booked by hand: a notice in his mailbox (beside the mail's note), so that what
    changed a turn's orders after the fact stays on record where he keeps the rest of maild's reports."""
    rerun = f"\nTurn {turn} has run: `maild turn rerun {game.name} {turn}` recomputes it with them.\n" if done else ""
    subject = f"{game.name}: mail {row.id} booked for turn {turn}"
    notify_gm(s, app, f"reprocess:{row.id}:{app.now().isoformat()}", subject,
              f"Mail {row.id} (from {row.sender or 'unknown'}, received {row.received_at:%Y-%m-%d %H:%M} UTC) was read "
              f"again by `maild mail reprocess {row.id} --turn {turn}` and is now {row.status}.\n{rerun}"
              f"`maild mail show {row.id}` shows what it booked and what was answered.\n", game.id)
