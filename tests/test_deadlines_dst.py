"""Deadlines across the nights the clocks change (maild/walltime.py, maild/deadlines.py, the config's `at`).

The rule: a local time is the first instant at which the game's wall clock reads that time or later. Rome
2026/27, worked by hand:

- autumn, Sunday 2026-10-25: at 03:00 CEST (01:00 UTC) the clocks go back to 02:00 CET, so 02:30 is read
  twice, at 00:30 UTC (CEST, UTC+2) and at 01:30 UTC (CET, UTC+1). The deadline is the first: 00:30 UTC.
- spring, Sunday 2027-03-28: at 02:00 CET (01:00 UTC) the clocks jump to 03:00 CEST, so 02:30 is never read.
  The first instant the clock reads 02:30 or later is the jump itself: 03:00 CEST, 01:00 UTC.

Tokyo (UTC+9 all year) and UTC keep 24 hours between daily deadlines on both nights.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from maild.clock import Clock
from maild.config import PhaseSchedule, Schedule, parse_config
from maild.deadlines import deadline_for, phase_deadline
from maild.errors import ConfigError
from maild.games import get_game, sync_games
from maild.models import Turn
from maild.phases import deadline_of
from maild.reminders import queue_reminders, reminder_times
from maild.ruleset import Phase
from maild.turn import due_turns, run_turn
from maild.walltime import first_instant
from tests.conftest import make_app

ROME = ZoneInfo("Europe/Rome")
TOKYO = ZoneInfo("Asia/Tokyo")
AUTUMN = date(2026, 10, 25)
SPRING = date(2027, 3, 28)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


def cron_chain(cron: str, tz: ZoneInfo, start: datetime, until: datetime) -> list[datetime]:
    """The deadlines a cron schedule gives turn after turn, each from the one before, as the turns table gets them."""
    schedule = Schedule(timezone=tz, cron=cron)
    chain: list[datetime] = []
    when = deadline_for(schedule, 1, start)
    while when is not None and when < until:
        chain.append(when)
        when = deadline_for(schedule, len(chain) + 1, when)
        assert when is None or when > chain[-1], f"turn {len(chain) + 1}: {when} is not after {chain[-1]}"
    return chain


def local_days(chain: list[datetime], tz: ZoneInfo) -> list[date]:
    return [d.astimezone(tz).date() for d in chain]


def days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def test_the_rule_names_one_instant_on_both_nights() -> None:
    assert first_instant(datetime(2026, 10, 25, 2, 30), ROME) == utc(2026, 10, 25, 0, 30)  # the first 02:30
    assert first_instant(datetime(2026, 10, 25, 3, 0), ROME) == utc(2026, 10, 25, 2, 0)  # 03:00 CET
    assert first_instant(datetime(2027, 3, 28, 2, 30), ROME) == utc(2027, 3, 28, 1, 0)  # the jump, 03:00 CEST
    assert first_instant(datetime(2027, 3, 28, 2, 0), ROME) == utc(2027, 3, 28, 1, 0)  # the skipped hour's start
    assert first_instant(datetime(2027, 3, 28, 3, 0), ROME) == utc(2027, 3, 28, 1, 0)  # 03:00 CEST is read then
    assert first_instant(datetime(2027, 3, 28, 1, 59), ROME) == utc(2027, 3, 28, 0, 59)  # 01:59 CET
    assert first_instant(datetime(2027, 3, 28, 2, 30), TOKYO) == utc(2027, 3, 27, 17, 30)
    with pytest.raises(ValueError):
        first_instant(datetime(2027, 3, 28, 2, 30, tzinfo=UTC), ROME)


def test_a_daily_cron_gives_one_deadline_a_day_through_both_nights_in_rome() -> None:
    chain = cron_chain("30 2 * * *", ROME, utc(2026, 10, 20, 12, 0), utc(2027, 4, 2, 12, 0))
    # One deadline per calendar day from 21 October to 2 April, each strictly after the one before.
    assert local_days(chain, ROME) == days(date(2026, 10, 21), date(2027, 4, 2))
    assert all(a < b for a, b in zip(chain, chain[1:], strict=False))
    by_day = dict(zip(local_days(chain, ROME), chain, strict=True))
    # Summer time (UTC+2) until the autumn night, whose deadline is the first 02:30: 00:30 UTC.
    assert by_day[date(2026, 10, 24)] == utc(2026, 10, 24, 0, 30)
    assert by_day[AUTUMN] == utc(2026, 10, 25, 0, 30)
    # Winter time (UTC+1) from the next day: 02:30 CET is 01:30 UTC, 25 hours after the autumn night's.
    assert by_day[date(2026, 10, 26)] == utc(2026, 10, 26, 1, 30)
    assert by_day[date(2027, 3, 27)] == utc(2027, 3, 27, 1, 30)
    # The skipped 02:30 is the jump: 03:00 CEST = 01:00 UTC, 23.5 hours after the day before's.
    assert by_day[SPRING] == utc(2027, 3, 28, 1, 0)
    assert by_day[date(2027, 3, 29)] == utc(2027, 3, 29, 0, 30)
    # Every other day the wall clock reads 02:30 at the deadline; on the spring night it reads 03:00.
    readings = {d: w.astimezone(ROME).strftime("%H:%M") for d, w in by_day.items()}
    assert readings.pop(SPRING) == "03:00" and set(readings.values()) == {"02:30"}


@pytest.mark.parametrize("tz", [TOKYO, ZoneInfo("UTC")], ids=["Asia/Tokyo", "UTC"])
def test_a_daily_cron_in_a_zone_without_summer_time_keeps_24_hours(tz: ZoneInfo) -> None:
    chain = cron_chain("30 2 * * *", tz, utc(2026, 10, 20, 12, 0), utc(2027, 4, 2, 12, 0))
    assert local_days(chain, tz)[0] == date(2026, 10, 21)
    assert local_days(chain, tz) == days(local_days(chain, tz)[0], local_days(chain, tz)[-1])
    assert {b - a for a, b in zip(chain, chain[1:], strict=False)} == {timedelta(hours=24)}
    assert {d.astimezone(tz).strftime("%H:%M") for d in chain} == {"02:30"}
    if tz is TOKYO:  # 02:30 JST is 17:30 UTC the day before
        assert first_instant(datetime(2026, 10, 25, 2, 30), tz) in chain
        assert utc(2027, 3, 27, 17, 30) in chain


def test_a_cron_rule_with_several_times_in_the_changing_hour_gives_each_occurrence_once() -> None:
    # 02:00, 02:20 and 02:40 each day. Autumn: each is the first pass, then the repeated hour gives nothing
    # more; the next is 02:00 CET on the 26th (01:00 UTC).
    autumn = cron_chain("*/20 2 * * *", ROME, utc(2026, 10, 24, 12, 0), utc(2026, 10, 26, 12, 0))
    assert autumn == [utc(2026, 10, 25, 0, 0), utc(2026, 10, 25, 0, 20), utc(2026, 10, 25, 0, 40),
                      utc(2026, 10, 26, 1, 0), utc(2026, 10, 26, 1, 20), utc(2026, 10, 26, 1, 40)]
    # Spring: all three are skipped; they give one deadline, the jump (01:00 UTC), then 02:00 CEST next day.
    spring = cron_chain("*/20 2 * * *", ROME, utc(2027, 3, 27, 12, 0), utc(2027, 3, 29, 12, 0))
    assert spring == [utc(2027, 3, 28, 1, 0), utc(2027, 3, 29, 0, 0), utc(2027, 3, 29, 0, 20),
                      utc(2027, 3, 29, 0, 40)]


def test_a_cron_chain_from_inside_the_repeated_hour_moves_to_the_next_day() -> None:
    # Turn 1 made at 02:10 CET (01:10 UTC), the second pass of the hour: that day's 02:30 was the first pass,
    # 40 minutes ago, so the next deadline is 02:30 CET on the 26th (01:30 UTC), never the second 02:30.
    schedule = Schedule(timezone=ROME, cron="30 2 * * *")
    assert deadline_for(schedule, 1, utc(2026, 10, 25, 1, 10)) == utc(2026, 10, 26, 1, 30)
    # From the first 02:30's deadline itself, likewise.
    assert deadline_for(schedule, 2, utc(2026, 10, 25, 0, 30)) == utc(2026, 10, 26, 1, 30)


def rome_schedule(**kw: object) -> Schedule:
    data = {"games": [{"name": "g", "ruleset": "venice", "setup": "s",
                       "schedule": {"timezone": "Europe/Rome", **kw}}]}
    schedule = parse_config(data, Path("."), None).games[0].schedule
    assert schedule is not None
    return schedule


def test_an_at_list_naming_0230_on_both_nights() -> None:
    s = rome_schedule(at=["2026-10-24T02:30", "2026-10-25T02:30", "2026-10-26T02:30", "2027-03-27T02:30",
                          "2027-03-28T02:30", "2027-03-29T02:30"])
    assert s.at == (utc(2026, 10, 24, 0, 30), utc(2026, 10, 25, 0, 30), utc(2026, 10, 26, 1, 30),
                    utc(2027, 3, 27, 1, 30), utc(2027, 3, 28, 1, 0), utc(2027, 3, 29, 0, 30))
    assert [deadline_for(s, n, utc(2026, 1, 1)) for n in range(1, 7)] == list(s.at)
    # Both passes of the repeated hour can be named with their offsets: then each is taken as written.
    both = rome_schedule(at=["2026-10-25T02:30+02:00", "2026-10-25T02:30+01:00"])
    assert both.at == (utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 1, 30))
    tokyo = parse_config({"games": [{"name": "g", "ruleset": "venice", "setup": "s", "schedule": {
        "timezone": "Asia/Tokyo", "at": ["2026-10-25T02:30", "2027-03-28T02:30"]}}]}, Path("."), None)
    assert tokyo.games[0].schedule.at == (utc(2026, 10, 24, 17, 30), utc(2027, 3, 27, 17, 30))  # type: ignore[union-attr]


@pytest.mark.parametrize(("at", "message"), [
    # Both in the skipped hour: both mean the jump, 03:00 CEST.
    (["2027-03-28T02:15", "2027-03-28T02:45"],
     "schedule.at: deadlines must be strictly increasing: 2027-03-28T02:45 means 2027-03-28 03:00 CEST, not after "
     "the one before it (2027-03-28 03:00 CEST)"),
    # The second 02:30 written with its offset, then 02:45 read as the first pass: 45 minutes earlier.
    (["2026-10-25T02:30+01:00", "2026-10-25T02:45"],
     "schedule.at: deadlines must be strictly increasing: 2026-10-25T02:45 means 2026-10-25 02:45 CEST, not after "
     "the one before it (2026-10-25 02:30 CET)"),
    (["2026-11-22T17:15", "2026-11-22T17:15"], "2026-11-22T17:15 means 2026-11-22 17:15 CET, not after"),
])
def test_an_at_list_that_is_not_strictly_increasing_after_conversion_is_refused(at: list[str],
                                                                                message: str) -> None:
    with pytest.raises(ConfigError) as exc:
        rome_schedule(at=at)
    assert message in str(exc.value)


@pytest.mark.parametrize(("opened", "deadline"), [
    # Autumn: 24 hours after noon CEST on the 24th is 11:00 CET on the 25th, the hour given back.
    (datetime(2026, 10, 24, 12, 0, tzinfo=ROME), utc(2026, 10, 25, 10, 0)),
    # Spring: 24 hours after noon CET on the 27th is 13:00 CEST on the 28th, the hour taken away.
    (datetime(2027, 3, 27, 12, 0, tzinfo=ROME), utc(2027, 3, 28, 11, 0)),
    (datetime(2027, 3, 27, 12, 0, tzinfo=TOKYO), utc(2027, 3, 28, 3, 0)),
])
def test_a_duration_is_elapsed_time_across_the_night(opened: datetime, deadline: datetime) -> None:
    schedule = Schedule(timezone=ROME, phases=(PhaseSchedule("day", cron="0 12 * * *"),
                                               PhaseSchedule("vote", duration=timedelta(hours=24))))
    when = phase_deadline(schedule, schedule.phases[1], 1, opened, opened)
    assert when == deadline and when - opened == timedelta(hours=24)
    # An extra phase's duration from the ruleset, when the config names none, reads the same way.
    extra = deadline_of(None, Phase("poll", extra=True, duration=timedelta(hours=24)), 1, opened, opened)
    assert extra == deadline


@pytest.mark.parametrize("night", [AUTUMN, SPRING], ids=["autumn", "spring"])
def test_phase_deadlines_stay_strictly_increasing_through_the_night(night: date) -> None:
    # A day phase at 02:30 and a vote of an hour after it, each phase resolved at its deadline.
    schedule = Schedule(timezone=ROME, phases=(PhaseSchedule("day", cron="30 2 * * *"),
                                               PhaseSchedule("vote", duration=timedelta(hours=1))))
    day, vote = schedule.phases
    after = datetime.combine(night - timedelta(days=2), datetime.min.time(), ROME)
    chain: list[datetime] = []
    for turn in range(1, 6):
        closes = phase_deadline(schedule, day, turn, after, after)
        assert closes is not None
        voted = phase_deadline(schedule, vote, turn, closes, closes)
        assert voted is not None
        chain += [closes, voted]
        after = voted
    assert all(a < b for a, b in zip(chain, chain[1:], strict=False)), chain
    assert local_days(chain[::2], ROME) == days(night - timedelta(days=2), night + timedelta(days=2))
    # Autumn: the vote after the first 02:30 (00:30 UTC) closes at 01:30 UTC, when the clock reads 02:30 again;
    # the next day phase is the 26th's 02:30 CET, not that second 02:30. Spring: the day closes at the jump.
    if night == AUTUMN:
        assert chain[4:7] == [utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 1, 30), utc(2026, 10, 26, 1, 30)]
    else:
        assert chain[4:7] == [utc(2027, 3, 28, 1, 0), utc(2027, 3, 28, 2, 0), utc(2027, 3, 29, 0, 30)]


@pytest.mark.parametrize(("at", "reminder"), [
    # 6 real hours before 08:00 CET (07:00 UTC) on the autumn night: 01:00 UTC, when the clock reads 02:00
    # the second time.
    ("2026-10-25T08:00", utc(2026, 10, 25, 1, 0)),
    # 6 real hours before 08:00 CEST (06:00 UTC) on the spring night: 00:00 UTC, 01:00 CET.
    ("2027-03-28T08:00", utc(2027, 3, 28, 0, 0)),
], ids=["autumn", "spring"])
def test_a_reminder_comes_its_real_hours_before_the_deadline(tmp_path: Path, db_url: str, venice_setup: Path,
                                                            at: str, reminder: datetime) -> None:
    start = reminder - timedelta(days=1)
    app = make_app(tmp_path, db_url, start, venice_setup,
                   schedule={"timezone": "Europe/Rome", "at": [at], "remind_before": "6h"})
    with app.db.session() as s:
        sync_games(s, app.config, app.now())
    assert reminder_times(app) == [("venice1", reminder)]
    app.clock = Clock(reminder - timedelta(minutes=1), frozen=True)
    assert queue_reminders(app) == 0
    app.clock = Clock(reminder, frozen=True)
    assert queue_reminders(app) == 3  # alice, bob and carol have nothing on file


@pytest.mark.parametrize(("start", "deadlines"), [
    # Autumn: turn 3 is the first 02:30 of the 25th (00:30 UTC); turn 4 the 26th's 02:30 CET (01:30 UTC).
    (utc(2026, 10, 22, 10, 0),
     [utc(2026, 10, 23, 0, 30), utc(2026, 10, 24, 0, 30), utc(2026, 10, 25, 0, 30), utc(2026, 10, 26, 1, 30),
      utc(2026, 10, 27, 1, 30), utc(2026, 10, 28, 1, 30), utc(2026, 10, 29, 1, 30)]),
    # Spring: turn 3 is the jump, 03:00 CEST on the 28th (01:00 UTC); turn 4 the 29th's 02:30 CEST.
    (utc(2027, 3, 25, 10, 0),
     [utc(2027, 3, 26, 1, 30), utc(2027, 3, 27, 1, 30), utc(2027, 3, 28, 1, 0), utc(2027, 3, 29, 0, 30),
      utc(2027, 3, 30, 0, 30), utc(2027, 3, 31, 0, 30), utc(2027, 4, 1, 0, 30)]),
], ids=["autumn", "spring"])
def test_a_game_on_a_daily_cron_runs_one_turn_per_deadline_through_the_night(
        tmp_path: Path, db_url: str, venice_setup: Path, start: datetime, deadlines: list[datetime]) -> None:
    # Nobody sends orders here: the safety gate, which holds a turn nobody sent orders for, is set out of reach.
    app = make_app(tmp_path, db_url, start, venice_setup, schedule={"timezone": "Europe/Rome", "cron": "30 2 * * *"},
                   safety={"missing_fraction": 1.01})
    with app.db.session() as s:
        sync_games(s, app.config, app.now())
    ran: dict[int, datetime] = {}
    step = start
    # The clock moves on a quarter of an hour at a time; at each step every turn due runs, until none is (as
    # the daemon's pass does after a downtime).
    while step < start + timedelta(days=8):
        app.clock = Clock(step, frozen=True)
        while due := due_turns(app):
            for turn in due:
                assert run_turn(app, turn.game).status == "done"
                assert turn.number not in ran
                ran[turn.number] = step
        step += timedelta(minutes=15)
    # Each turn ran alone, at the step of its deadline (the steps fall on every deadline): before, the autumn
    # night's second 02:30 came back as the deadline of every turn after the third, and they ran together.
    assert ran == dict(enumerate(deadlines, start=1))
    with app.db.session() as s:
        game = get_game(s, "venice1")
        rows = s.scalars(select(Turn).where(Turn.game_id == game.id).order_by(Turn.number)).all()
        assert [t.deadline for t in rows] == deadlines
        assert game.finished  # after its seventh auction
