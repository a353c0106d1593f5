"""A player's own time zone and the game's calendar file (issue 26, "Time zones and calendars"; docs/season.md).

Figures: rps1 is due every day at 18:00 in Europe/Berlin; the game starts Friday 26 March 2027 at 09:00 UTC.
Summer time begins in the EU on Sunday 28 March 2027 at 01:00 UTC, so 18:00 in Berlin is 17:00 UTC on the 26th
and 27th and 16:00 UTC from the 28th. New York has been on summer time (UTC-4) since 14 March: 17:00 UTC is
13:00 EDT. Tokyo is UTC+9 all year: 17:00 UTC is 02:00 JST the next day.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from icalendar import Calendar
from sqlalchemy import select

from maild.deadline_changes import extend
from maild.models import Game
from maild.testing import Table, attachments_of, sent, text_of
from tests import rps_game  # noqa: F401 - registers rps
from tests.rps_game import EXAMPLE_SETUP

START = datetime(2027, 3, 26, 9, 0, tzinfo=UTC)


@pytest.fixture
def table(tmp_path: Path, db_url: str) -> Iterator[Table]:
    setup = copy.deepcopy(EXAMPLE_SETUP)
    setup["rounds"] = 10
    with Table(tmp_path, db_url=db_url, now=START) as t:
        t.create_game("rps1", "rps", setup, schedule={"timezone": "Europe/Berlin", "cron": "0 18 * * *",
                                                      "remind_before": "6h"})
        t.intake()
        yield t


def calendar_of(mail: EmailMessage) -> Calendar:
    [(name, kind, data)] = [a for a in attachments_of(mail) if a[1] == "text/calendar"]
    assert name == "rps1-deadlines.ics"
    return Calendar.from_ical(data)


def events(cal: Calendar) -> list[tuple[str, int, datetime]]:
    """(UID, SEQUENCE, the instant in UTC) of each event, as a calendar program reads the file."""
    return [(str(e["uid"]), int(e["sequence"]), e.decoded("dtstart").astimezone(UTC)) for e in cal.walk("VEVENT")]


def utc(day: int, hour: int) -> datetime:
    return datetime(2027, 3, day, hour, 0, tzinfo=UTC)


def mail_to(mails: list[EmailMessage], address: str, subject: str) -> EmailMessage:
    [mail] = [m for m in mails if str(m["To"]) == address and subject in str(m["Subject"])]
    return mail


def test_the_welcome_carries_the_coming_deadlines_across_the_change_to_summer_time(table: Table) -> None:
    welcome = mail_to(sent(table.app, welcomes=True), "ann@example.org", "welcome")
    cal = calendar_of(welcome)
    assert str(cal["method"]) == "PUBLISH"
    assert events(cal) == [("rps1-turn-1@example.org", 0, utc(26, 17)), ("rps1-turn-2@example.org", 0, utc(27, 17)),
                           ("rps1-turn-3@example.org", 0, utc(28, 16)), ("rps1-turn-4@example.org", 0, utc(29, 16)),
                           ("rps1-turn-5@example.org", 0, utc(30, 16))]
    assert [str(tz["tzid"]) for tz in cal.walk("VTIMEZONE")] == ["Europe/Berlin"]


def test_timezone_by_mail_shows_deadlines_in_both_zones_everywhere(table: Table) -> None:
    table.send("ann@example.org", "TIMEZONE america/new_york")
    answer = mail_to(table.intake(), "ann@example.org", "your time zone")
    both = ("Friday 26 March 2027, 18:00 CET (Europe/Berlin); for you Friday 26 March 2027, 13:00 EDT "
            "(America/New_York)")
    assert both in " ".join(text_of(answer).split())
    assert events(calendar_of(answer))[0] == ("rps1-turn-1@example.org", 0, utc(26, 17))
    table.send("ann@example.org", "throw rock\nSTATUS")
    ack = mail_to(table.intake(), "ann@example.org", "orders")
    assert both in " ".join(text_of(ack).split())
    table.send("cat@example.org", "timezone Asia/Tokyo")
    table.send("bob@example.org", "#rps1 bob sesame\nTIMEZONE Mars/Olympus")
    mails = table.intake()
    assert "Mars/Olympus is not a time zone" in text_of(mail_to(mails, "bob@example.org", "your time zone"))
    table.advance(hours=2)  # 11:00 UTC: six hours before the deadline, the reminders go
    reminder = mail_to(table.intake(), "cat@example.org", "no orders on file")
    assert "for you Saturday 27 March 2027, 02:00 JST (Asia/Tokyo)" in " ".join(text_of(reminder).split())


def test_a_deadline_change_sends_the_calendar_again_with_the_same_uids_and_a_higher_sequence(table: Table) -> None:
    table.send("ann@example.org", "TIMEZONE America/New_York")
    table.intake()
    table.app.db.transaction(lambda s: extend(s, table.app, "rps1", timedelta(days=1)))
    mails = table.intake()
    news = mail_to(mails, "ann@example.org", "extended")
    assert "for you Saturday 27 March 2027, 13:00 EDT (America/New_York)" in " ".join(text_of(news).split())
    assert events(calendar_of(news)) == [
        ("rps1-turn-1@example.org", 1, utc(27, 17)), ("rps1-turn-2@example.org", 1, utc(28, 16)),
        ("rps1-turn-3@example.org", 1, utc(29, 16)), ("rps1-turn-4@example.org", 1, utc(30, 16)),
        ("rps1-turn-5@example.org", 1, utc(31, 16))]
    bob = mail_to(mails, "bob@example.org", "extended")
    assert "for you" not in text_of(bob)  # bob keeps the game's zone only


def test_game_list_shows_the_deadline_in_the_games_zone(table: Table) -> None:
    from maild.cli import game_line
    from maild.deadlines import game_timezone

    with table.app.db.session() as s:
        game = s.scalars(select(Game).where(Game.name == "rps1")).one()
        line = game_line(s, game, game_timezone(table.app.config, "rps1"))
    assert "deadline 2027-03-26T18:00+01:00 Europe/Berlin" in line
