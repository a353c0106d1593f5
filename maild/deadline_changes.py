"""A deadline that changes while a turn is open, and every player told (docs/season.md, "Pause and extend").

- `maild game pause GAME`: no turn runs and no reminder goes while the game is paused (the deadline is frozen:
  mail is still read and acked, and orders are booked for the open turn).
- `maild game resume GAME`: the time that was left is given back: the open turn's deadline moves on by as long
  as the pause lasted (a turn whose deadline had passed when it was paused runs at once).
- `maild game extend GAME 2d`: the open turn (in a game of phases, the open phase) gets that much longer.
- A deadline the GM changed in the config is taken at the next start (`games.sync_games`), as before, and now
  announced the same way, whether it moved later or earlier.

An extension is kept on the turn's row apart from the deadline the config gives (`Turn.extended_by`), so the
config read again at a start keeps it; the turns after follow the config (a cron rule counts from the deadline
before, so they move too; an `at` list is the GM's to edit). The announcements are not answers to a player's
mail: like reminders, they go to every player once each, with a key that names the change (never twice).
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from maild.app import App
from maild.errors import GameError
from maild.extensions import announce, deadline_words, lengthen, span
from maild.games import get_game, open_turn
from maild.models import Game, Turn


def _open(s: Session, name: str) -> tuple[Game, Turn]:
    game = get_game(s, name, lock=True)
    turn = open_turn(s, game)
    if turn is None:
        raise GameError(f"{name} is over: there is no turn to pause or extend")
    return game, turn


def pause(s: Session, app: App, name: str) -> str:
    game, turn = _open(s, name)
    if game.paused_at is not None:
        return f"{name} has been paused since {game.paused_at:%Y-%m-%d %H:%M} UTC; nothing changed"
    game.paused_at = app.now()
    announce(s, app, game, turn, "paused", "the GM has paused the game: no turn runs until he resumes it")
    return f"{name} paused: turn {turn.number} will not run until `maild game resume {name}`; players told"


def resume(s: Session, app: App, name: str) -> str:
    game, turn = _open(s, name)
    if game.paused_at is None:
        return f"{name} is not paused; nothing changed"
    paused = max(app.now() - game.paused_at, timedelta())
    game.paused_at = None
    lengthen(s, game, turn, paused)
    announce(s, app, game, turn, "resumed", "the GM has resumed the game: the time that was left when it was "
             f"paused is given back ({span(paused)} later than before)")
    return f"{name} resumed after {span(paused)}: {deadline_words(app, game, turn)}; players told"


def extend(s: Session, app: App, name: str, by: timedelta) -> str:
    if by <= timedelta():
        raise GameError("an extension must be longer than nothing (e.g. 2d, 12h)")
    game, turn = _open(s, name)
    if turn.deadline is None:
        raise GameError(f"{name} turn {turn.number} has no deadline to extend: the GM runs it")
    lengthen(s, game, turn, by)
    announce(s, app, game, turn, "extended", f"the GM has extended the deadline by {span(by)}")
    return f"{name} extended by {span(by)}: {deadline_words(app, game, turn)}; players told"
