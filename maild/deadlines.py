"""When each turn's deadline falls, from the config's schedule (explicit list or cron rule)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from apscheduler.triggers.cron import CronTrigger

from maild.config import Config, PhaseSchedule, Schedule
from maild.walltime import elapsed, first_instant, wall_clock

# crontab(5) counts the days of the week from 0 = Sunday (7 is Sunday too); APScheduler's CronTrigger from 0 =
# Monday. A GM writes crontab, so the day field is read as crontab means it and handed on as day names.
_CRON_DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")


def _cron_day(token: str) -> int:
    word = token.strip().lower()[:3]
    if word in _CRON_DAYS:
        return _CRON_DAYS.index(word)
    if not word.isdigit() or int(word) > 7:
        raise ValueError(f"day of week {token!r}: expected 0-7 (0 and 7 are Sunday) or a day's name")
    return int(word) % 7


def crontab_days(field: str) -> str:
    """The day-of-week field of a crontab line as day names, which APScheduler reads the same way."""
    if field == "*":
        return field
    days: set[int] = set()
    for part in field.split(","):
        span, _, step_text = part.partition("/")
        step = int(step_text) if step_text else 1
        if step < 1:
            raise ValueError(f"day of week {part!r}: the step must be at least 1")
        if span == "*":
            first, last = 0, 6
        elif "-" in span:
            a, b = span.split("-", 1)
            first, last = _cron_day(a), _cron_day(b)
            if b.strip() == "7":
                last = 7  # "5-7" is Friday to Sunday
        else:
            first = last = _cron_day(span)
            if step_text:
                last = 6  # "1/2": from Monday, every other day
        if last < first:
            raise ValueError(f"day of week {part!r}: a range must not run backwards")
        days.update(d % 7 for d in range(first, last + 1, step))
    return ",".join(_CRON_DAYS[d] for d in sorted(days))


def cron_trigger(expr: str) -> CronTrigger:
    """A trigger for a crontab line (minute hour day month day-of-week), day numbers as crontab means them,
    that runs on a wall clock without changes of offset: UTC stands in for the game's wall clock, and
    `next_cron` turns the wall times it gives into instants. APScheduler's own reading of a zone's changes
    is not used: on the night the clocks go back it gives the second 02:30 and then that same time again
    for ever, and in spring it gives an instant an hour after the skipped 02:30 (APScheduler 3.11)."""
    fields = expr.split()
    if len(fields) == 5:
        fields[4] = crontab_days(fields[4])
    return CronTrigger.from_crontab(" ".join(fields), timezone=UTC)


def validate_cron(expr: str) -> None:
    cron_trigger(expr)


def next_cron(expr: str, tz: ZoneInfo, after: datetime) -> datetime | None:
    """The first instant strictly after `after` at which a calendar occurrence of the crontab line `expr` falls
    on the wall clock of `tz` (each occurrence taken by `first_instant`); None if the rule has none left."""
    trigger = cron_trigger(expr)
    wall = wall_clock(after, tz)
    while True:
        # The trigger answers "at or after"; a microsecond on, whole seconds round up to the next one.
        fire = trigger.get_next_fire_time(None, wall.replace(tzinfo=UTC) + timedelta(microseconds=1))
        if fire is None:
            return None
        wall = fire.replace(tzinfo=None)
        when = first_instant(wall, tz)
        # A deadline must come strictly after the one before: an occurrence that maps onto it or before it (the
        # rest of a skipped hour; the repeated hour's wall times after its first pass) is passed over.
        if when > after:
            return when


def deadline_for(schedule: Schedule, turn: int, after: datetime) -> datetime | None:
    """Deadline of `turn`: the turn-th entry of `at`, or the first cron time strictly after `after`
    (the previous turn's deadline, or the game's start for turn 1). None when the schedule has run out.
    With a deadline per phase, that of the turn's first phase (the first written with `at` or `cron`)."""
    if schedule.phases:
        first = next(p for p in schedule.phases if p.at or p.cron)
        return phase_deadline(schedule, first, turn, after, after)
    return _deadline(schedule.at, schedule.cron, schedule.timezone, turn, after)


def phase_deadline(schedule: Schedule, phase: PhaseSchedule, turn: int, after: datetime, opened: datetime
                   ) -> datetime | None:
    """Deadline of a phase of `turn`: as a turn's from its `at` or `cron` (`after` being the deadline of the
    phase before it), or `duration` after it `opened`."""
    if phase.duration is not None:
        return elapsed(opened, phase.duration)
    return _deadline(phase.at, phase.cron, schedule.timezone, turn, after)


def _deadline(at: tuple[datetime, ...], cron: str | None, tz: ZoneInfo, turn: int, after: datetime
              ) -> datetime | None:
    if at:
        return at[turn - 1] if turn <= len(at) else None
    assert cron is not None
    return next_cron(cron, tz, after)


def expected_deadline(schedule: Schedule | None, known: int, known_deadline: datetime | None,
                      turn: int) -> datetime | None:
    """The deadline turn `turn` (after turn `known`, whose deadline is `known_deadline`) will be given when its
    row is made as the turns before it finish: what a late or forward mail's ack names before that row
    exists. A cron deadline follows the one before it, so each turn between is worked out in turn; None
    with no schedule, when it runs out, or when a cron chain starts from a turn with no deadline."""
    if schedule is None:
        return None
    if schedule.at:
        return deadline_for(schedule, turn, known_deadline or datetime.min)
    when = known_deadline
    for number in range(known + 1, turn + 1):
        if when is None:
            return None
        when = deadline_for(schedule, number, when)
    return when


def game_timezone(config: Config, game_name: str) -> ZoneInfo:
    """The time zone deadlines of a game are shown in: its schedule's, else UTC."""
    gcfg = config.game(game_name)
    if gcfg is not None and gcfg.schedule is not None:
        return gcfg.schedule.timezone
    return ZoneInfo("UTC")


def format_deadline(when: datetime | None, tz: ZoneInfo) -> str:
    """A deadline as players read it: 'Sunday 22 November 2026, 17:15 CET (Europe/Rome)'."""
    if when is None:
        return "none set yet: the GM runs the turn"
    local = when.astimezone(tz)
    return f"{local:%A %d %B %Y, %H:%M} {local.tzname()} ({tz.key})"


def player_zone(name: str | None) -> ZoneInfo | None:
    """A player's own time zone (`Player.timezone`), or None for none or one this machine no longer knows."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError, OSError):  # ZoneInfoNotFoundError is a KeyError
        return None


def format_deadline_for(when: datetime | None, tz: ZoneInfo, own: str | None) -> str:
    """A deadline in the game's zone and, for a player who set his own (`TIMEZONE`) to another, in his too:
    'Sunday 22 November 2026, 17:15 CET (Europe/Rome); for you Sunday 22 November 2026, 11:15 EST
    (America/New_York)'."""
    text = format_deadline(when, tz)
    zone = player_zone(own)
    if when is None or zone is None or zone.key == tz.key:
        return text
    # On a line of its own: the two would not fit in the 78 columns of a mail's line.
    return f"{text};\nfor you {format_deadline(when, zone)}"
