"""Booking a mail read again into the turn the GM names (`maild mail reprocess ID --turn N`).

A player's mail that intake answered as empty, or read wrong (a bug since mended, orders taken for an
auto-reply), is read again and its orders booked into turn N, even though it was answered: its old order set
gives way to the new reading and it gets a new ack (a key of its own, `ack:ID:2`). N must be the turn the
mail arrived for: the turn open when it was received, or, if it came after that turn's deadline, the next one
where the game's late policy sends late mail. A turn that has run already takes it too (the GM then recomputes
that turn with `maild turn rerun`); in a game of several phases a turn only the open turn does, since a phase
once resolved is not recomputed from one mail. Intake's own choice of turn (`pipeline.handle_orders`) is
replaced by `forced_turn` when `IntakeRun.book_turn` is set.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.models import Game, Turn
from maild.ruleset import Ruleset


class RefusedReprocess(ValueError):
    """The mails asked for cannot be read again; the message says which and why, in one line."""


def arrival_turns(s: Session, game: Game, ruleset: Ruleset, received: datetime) -> list[int]:
    """The turns a mail received at `received` may count for: the one open then (the first not processed by
    that time) and, if the mail came after its deadline, the next one too where the late policy sends it."""
    turns = list(s.scalars(select(Turn).where(Turn.game_id == game.id).order_by(Turn.number)))
    open_then = next((t for t in turns if t.processed_at is None or t.processed_at > received), None)
    if open_then is None:
        return []
    late = open_then.deadline is not None and received > open_then.deadline
    return [open_then.number, open_then.number + 1] if late and ruleset.late_policy == "next_turn" else \
        [open_then.number]


def forced_turn(s: Session, game: Game, ruleset: Ruleset, mail_id: int, received: datetime, wanted: int,
                current: Turn | None, phased: bool, late_note: str | None) -> tuple[Turn | None, str | None]:
    """The turn row to book into (the open one for a turn not made yet) and the note for a late mail; raises
    RefusedReprocess when `wanted` is not a turn the mail arrived for."""
    if game.finished and wanted >= game.turn:
        raise RefusedReprocess(f"{game.name} is over: turn {wanted} will not run")
    allowed = arrival_turns(s, game, ruleset, received)
    if wanted not in allowed:
        raise RefusedReprocess(f"mail {mail_id} arrived for turn {' or '.join(map(str, allowed)) or '(none)'} "
                               f"of {game.name}, not turn {wanted}")
    if wanted < game.turn:
        if phased:
            raise RefusedReprocess(f"{game.name} has phases: a mail is booked again only into its open turn "
                                   f"({game.turn}), not into turn {wanted}, whose phases have run")
        return s.scalar(select(Turn).where(Turn.game_id == game.id, Turn.number == wanted)), None
    return current, late_note if wanted > game.turn else None
