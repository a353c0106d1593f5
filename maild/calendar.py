"""A game's coming deadlines as a calendar file (RFC 5545, written with the `icalendar` library), attached to the
welcome, to every announcement of a changed deadline and to the answer to TIMEZONE (docs/season.md, "Time zones
and calendars").

Each deadline is an event whose UID names the game and the turn (and the phase), so the file a player gets after
a change updates the events his calendar program holds in place: same UID, a higher SEQUENCE (the game's
`calendar_sequence`, one more at each change). An event has a start and no end: RFC 5545 §3.6.1 reads that as
an event at that instant. Its DTSTART is written in the game's zone with that zone's VTIMEZONE, so a deadline on
the far side of a change of summer time is the right instant in every program.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.deadlines import deadline_for, game_timezone
from maild.models import Game, Snapshot, Turn
from maild.phases import open_row
from maild.ruleset import Attachment, load_ruleset

# How many deadlines a calendar file holds: the open turn's and those the schedule gives the turns after it.
COMING = 5


def coming_deadlines(s: Session, app: App, game: Game) -> list[tuple[int, str | None, datetime]]:
    """(turn, phase, instant) of the game's coming deadlines: the open turn's (its open phase's, in a game of
    phases, which has no more: a phase's deadline is set when it opens), then the turns after it as the config's
    schedule will give them, as far as the game lasts."""
    turn = s.scalar(select(Turn).where(Turn.game_id == game.id, Turn.number == game.turn))
    if game.finished or turn is None or turn.deadline is None:
        return []
    gcfg = app.config.game(game.name)
    ruleset = load_ruleset(game.ruleset)
    row = open_row(s, game.id, turn.number)
    if row is not None:
        return [(turn.number, row.name, turn.deadline)]
    found: list[tuple[int, str | None, datetime]] = [(turn.number, None, turn.deadline)]
    if gcfg is None or gcfg.schedule is None:
        return found
    last = ruleset.total_turns(_state(s, game)) or turn.number + COMING
    when: datetime | None = turn.deadline
    for number in range(turn.number + 1, min(last, turn.number + COMING - 1) + 1):
        when = deadline_for(gcfg.schedule, number, when) if when is not None else None
        if when is None:
            break
        found.append((number, None, when))
    return found


def _state(s: Session, game: Game) -> dict[str, Any]:
    snap = s.scalar(select(Snapshot.state).where(Snapshot.game_id == game.id, Snapshot.turn == game.turn))
    return snap or {}


def calendar_file(s: Session, app: App, game: Game) -> Attachment | None:
    """The game's coming deadlines as `GAME-deadlines.ics`, or None when it has none."""
    deadlines = coming_deadlines(s, app, game)
    if not deadlines:
        return None
    from icalendar import Calendar, Event  # only when a calendar is written: `game list` does without it

    tz = game_timezone(app.config, game.name)
    domain = app.config.from_addr.rpartition("@")[2] or "localhost"
    cal = Calendar()
    cal.add("prodid", "-//maild//game deadlines//EN")
    cal.add("version", "2.0")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", f"{game.name} deadlines")
    for number, phase, when in deadlines:
        event = Event()
        event.add("uid", f"{game.name}-turn-{number}" + (f"-{phase}" if phase else "") + f"@{domain}")
        event.add("sequence", game.calendar_sequence)
        event.add("dtstamp", app.now())
        event.add("dtstart", when.astimezone(tz))
        what = f"the {phase} of turn {number}" if phase else f"turn {number}"
        event.add("summary", f"{game.name}: orders for {what} due")
        event.add("description", f"The deadline of {what} of {game.name}. Mail your orders before it.")
        cal.add_component(event)
    cal.add_missing_timezones()
    return Attachment(f"{game.name}-deadlines.ics", "text/calendar", cal.to_ical(), inline=False)
