"""Deadlines moved while a turn is open (a grace, an absent player's wait: maild/grace.py), kept in the table
`graces` so that taking the deadlines from the config again (a daemon's start, `maild.games.sync_games`)
does not undo them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from maild.models import Grace


def extended(s: Session, game_id: int, turn: int, phase: str | None, deadline: datetime | None
             ) -> datetime | None:
    """`deadline` (the config's) or, when a grace or an absence moved it later, the moved one."""
    moved = s.scalar(select(func.max(Grace.until)).where(Grace.game_id == game_id, Grace.turn == turn,
                                                         Grace.phase == (phase or "")))
    if moved is None or deadline is None:
        return deadline
    return max(deadline, moved)
