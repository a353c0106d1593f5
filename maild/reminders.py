"""Reminders to players with nothing on file, a configurable time before the deadline."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.deadlines import format_deadline_for, game_timezone
from maild.games import get_turn
from maild.models import Game, Turn
from maild.orderbook import players_without_orders
from maild.outbox import queue_mail
from maild.phases import open_row
from maild.render import render


def _reminder_turns(s: Session, app: App, games: Collection[str] | None = None
                    ) -> Iterator[tuple[timedelta, Game, Turn, str | None]]:
    """Each game with reminders set (of `games`, if given), its open turn (which has a deadline), how long
    before it to remind, and in a turn of phases the phase open (the turn's deadline is that phase's; it may set
    its own time)."""
    for gcfg in app.config.games:
        if games is not None and gcfg.name not in games:
            continue
        schedule = gcfg.schedule
        if schedule is None or (schedule.remind_before is None and
                                not any(p.remind_before for p in schedule.phases)):
            continue
        game = s.scalar(select(Game).where(Game.name == gcfg.name))
        if game is None or game.finished or game.paused_at is not None:  # a paused game's deadline is frozen
            continue
        turn = get_turn(s, game, game.turn)
        if turn is None or turn.deadline is None or turn.status != "open":
            continue
        phase = open_row(s, game.id, turn.number) if schedule.phases else None
        name = phase.name if phase is not None else None
        own = next((p.remind_before for p in schedule.phases if p.name == name), None)
        before = own or schedule.remind_before
        if before is not None:
            yield before, game, turn, name


def reminder_times(app: App) -> list[tuple[str, datetime]]:
    """When each game's next reminder is due (for the scheduler)."""
    with app.db.session() as s:
        return [(game.name, turn.deadline - before) for before, game, turn, _phase in _reminder_turns(s, app)
                if turn.deadline is not None]


def queue_reminders(app: App, games: Collection[str] | None = None) -> int:
    """Queue the reminders due (of `games`, if given: a daemon's own on PostgreSQL)."""
    now = app.now()
    queued = 0
    with app.db.session() as s:
        for before, game, turn, name in _reminder_turns(s, app, games):
            assert turn.deadline is not None
            if not (turn.deadline - before <= now < turn.deadline):
                continue
            tz = game_timezone(app.config, game.name)
            # In a turn of phases, a reminder before each phase.
            which = f"the {name} of turn {turn.number}" if name else f"turn {turn.number}"
            for player in players_without_orders(s, game, turn.number):
                body = render(game.ruleset, "reminder.txt.j2", game=game.name, player=player.name,
                              turn=turn.number, deadline=format_deadline_for(turn.deadline, tz, player.timezone),
                              phase=name)
                queued += queue_mail(s, app, key=f"reminder:{game.name}:{turn.number}{f':{name}' if name else ''}:"
                                     f"{player.name}", kind="reminder", to=[player.email], game_id=game.id,
                                     subject=f"[{game.name}] no orders on file for {which}", body=body)
    return queued
