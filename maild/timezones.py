"""`TIMEZONE Europe/Berlin` by mail: a player's own time zone (docs/season.md, "Time zones and calendars").

A mail whose text starts with a line ``TIMEZONE`` and an IANA zone name (any case: ``europe/berlin``; ``UTC``;
``TIMEZONE NONE`` to go back to the game's zone only) sets it for him in that game. From then on his acks,
reminders, STATUS and the announcements of a changed deadline show each deadline in the game's zone and in his.
The answer shows the deadline so and carries the game's calendar file (maild/calendar.py). A mail that is a
TIMEZONE mail is nothing else: lines after it are not read as orders (the answer says so).
"""

from __future__ import annotations

import re
from functools import cache
from zoneinfo import available_timezones

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.calendar import calendar_file
from maild.deadlines import format_deadline_for, game_timezone, player_zone
from maild.intake.ackecho import Echo
from maild.intake.read import ReadMail
from maild.intake.run import IntakeRun, MailRow
from maild.models import Game, Player, Turn
from maild.render import render
from maild.replylimits import Answer, give

_LINE = re.compile(r"\**\s*time\s?zone\s*:?\s+(\S{1,64})\s*\**", re.IGNORECASE)
NONE = "none"


def timezone_line(text: str) -> str | None:
    """The zone a ``TIMEZONE`` line heading `text` names, as written; None when the first line that is not blank
    is no such line."""
    first = next((line for line in text.split("\n") if line.strip()), None)
    m = _LINE.fullmatch(first.strip()) if first is not None else None
    return m.group(1) if m else None


@cache
def _zones() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}


def zone_named(written: str) -> str | None:
    """The IANA name `written` stands for (any case), or None if it is none."""
    name = _zones().get(written.lower())
    return name if name is not None and player_zone(name) is not None else None


def set_timezone(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, player: Player, mail: ReadMail,
                 written: str) -> None:
    """Set `player`'s own zone to `written` (or clear it) and answer with the deadline in it and the calendar."""
    problem = None
    if written.lower() == NONE:
        player.timezone = None
    elif (name := zone_named(written)) is None:
        problem = (f"{Echo(app.config.limits).line(written)} is not a time zone this game knows: write one as the "
                   "time zone database names it, a region and a city (Europe/Berlin, America/New_York, "
                   "Asia/Tokyo), or UTC")
    else:
        player.timezone = name
    tz = game_timezone(app.config, game.name)
    turn = s.scalar(select(Turn).where(Turn.game_id == game.id, Turn.number == game.turn))
    deadline = turn.deadline if turn is not None and not game.finished else None
    rest = [line for line in mail.order_text.split("\n") if line.strip()][1:]
    calendar = calendar_file(s, app, game) if problem is None else None
    body = render(game.ruleset, "timezone.txt.j2", game=game.name, player=player.name, problem=problem,
                  zone=player.timezone, game_zone=tz.key, turn=game.turn, finished=game.finished,
                  deadline=format_deadline_for(deadline, tz, player.timezone) if deadline else None,
                  ignored=len(rest), calendar=calendar is not None)
    row.status = "command"
    row.note = problem or f"time zone set to {player.timezone or 'none (the game' + chr(39) + 's only)'}"
    give(s, app, Answer(kind="ack", key=f"ack:{row.id}", outbox_kind="ack", to=player.email,
                        subject=f"[{game.name}] your time zone", body=body, game_id=game.id, mail_id=row.id,
                        in_reply_to=mail.message_id, thread=mail.thread,
                        attachments=(calendar,) if calendar is not None else ()), run.gate)
