"""The GM's changes to an open turn's deadline, kept apart from the config's (`Turn.extended_by`), and the mail
that tells every player of a change (docs/season.md, "Pause and extend"). `maild.deadline_changes` holds the
GM's commands; `maild.games.refresh_deadline` keeps an extension when it takes a deadline again from the config.

The announcements are not answers to a player's mail: like reminders, they go to every player once each, with
a key that names the change (never twice).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.calendar import calendar_file
from maild.deadlines import format_deadline, format_deadline_for, game_timezone
from maild.models import Game, Player, Turn
from maild.outbox import queue_mail
from maild.phases import is_phased, open_row
from maild.render import render
from maild.ruleset import load_ruleset


def open_phase_name(s: Session, game: Game, turn: Turn) -> str | None:
    """The open phase of `turn` in a game of phases, else None."""
    if not is_phased(load_ruleset(game.ruleset)):
        return None
    row = open_row(s, game.id, turn.number)
    return row.name if row is not None else None


def extension(s: Session, game: Game, turn: Turn) -> timedelta:
    """What the GM added to the config's deadline of the open turn (or of its open phase)."""
    if not turn.extended_by or turn.extended_phase != open_phase_name(s, game, turn):
        return timedelta()
    return timedelta(seconds=turn.extended_by)


def set_deadline(s: Session, game: Game, turn: Turn, deadline: datetime | None) -> None:
    turn.deadline = deadline
    phase = open_phase_name(s, game, turn)
    if phase is not None:
        row = open_row(s, game.id, turn.number)
        if row is not None:
            row.deadline = deadline


def lengthen(s: Session, game: Game, turn: Turn, by: timedelta) -> None:
    phase = open_phase_name(s, game, turn)
    kept = turn.extended_by if turn.extended_phase == phase else 0
    turn.extended_by = kept + int(by.total_seconds())
    turn.extended_phase = phase
    if turn.deadline is not None:
        set_deadline(s, game, turn, turn.deadline + by)


def config_changed(s: Session, app: App, game: Game, turn: Turn, before: datetime | None) -> None:
    """Tell every player that the config gave the open turn a deadline other than `before` (its old one)."""
    if turn.deadline == before:
        return
    tz = game_timezone(app.config, game.name)
    if turn.deadline is not None and before is not None and turn.deadline < before:
        why = ("the GM has changed the game's schedule: the deadline is EARLIER than before "
               f"({format_deadline(before, tz)})")
    else:
        why = f"the GM has changed the game's schedule (the deadline was {format_deadline(before, tz)})"
    announce(s, app, game, turn, "deadline changed", why)


def deadline_words(app: App, game: Game, turn: Turn) -> str:
    what = f"turn {turn.number}'s deadline is {format_deadline(turn.deadline, game_timezone(app.config, game.name))}"
    return what + (" (paused)" if game.paused_at is not None else "")


def announce(s: Session, app: App, game: Game, turn: Turn, what: str, why: str) -> None:
    """A mail to every player of `game` saying `what` happened to the open turn's deadline and why."""
    now = app.now()
    tz = game_timezone(app.config, game.name)
    game.calendar_sequence += 1  # the calendar file below updates the events of the one before in place
    calendar = calendar_file(s, app, game)
    for player in s.scalars(select(Player).where(Player.game_id == game.id).order_by(Player.name)):  # noqa: E501
        body = render(game.ruleset, "deadline_change.txt.j2", game=game.name, player=player.name, turn=turn.number,
                      what=what, why=why, deadline=format_deadline_for(turn.deadline, tz, player.timezone),
                      paused=game.paused_at is not None, calendar=calendar is not None)
        queue_mail(s, app, key=f"deadline:{game.name}:{turn.number}:{what}:{now.isoformat()}:{player.name}",
                   kind="announcement", to=[player.email], game_id=game.id, subject=f"[{game.name}] {what}: turn "
                   f"{turn.number}", body=body, attachments=[calendar] if calendar is not None else [])


def span(delta: timedelta) -> str:
    """'2 days 3 hours', '45 minutes'."""
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 1440)
    hours, minutes = divmod(rest, 60)
    parts = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((days, "day"), (hours, "hour"),
                                                                    (minutes, "minute")) if n]
    return " ".join(parts) or "less than a minute"
