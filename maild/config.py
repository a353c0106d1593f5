"""The GM's config file (TOML), with the embedded default when there is none."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from maild.configkeys import GAME, TOP, check_keys
from maild.errors import ConfigError
from maild.filemodes import check_config_file, check_password_file
from maild.mail.base import MAX_HEADER_BYTES
from maild.paths import setup_path
from maild.walltime import first_instant

DEFAULT_CONFIG = Path("maild.toml")


@dataclass(frozen=True)
class MailboxConfig:
    kind: str  # "maildir", "imap" or "smtp"
    path: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)  # the table as written, for IMAP/SMTP details
    base_dir: Path = Path(".")


@dataclass(frozen=True)
class PhaseSchedule:
    """[games.schedule.phases.<name>]: when a phase of a turn closes (see docs/phases.md)."""

    name: str
    at: tuple[datetime, ...] = ()  # one deadline per turn
    cron: str | None = None  # the first time after the phase before it closed
    duration: timedelta | None = None  # this long after the phase opened
    remind_before: timedelta | None = None  # instead of the schedule's, before this phase


@dataclass(frozen=True)
class Schedule:
    timezone: ZoneInfo
    at: tuple[datetime, ...] = ()  # aware datetimes, one per turn
    cron: str | None = None
    remind_before: timedelta | None = None
    phases: tuple[PhaseSchedule, ...] = ()  # in the order written; instead of at/cron, for turns of phases


@dataclass(frozen=True)
class Safety:
    # A turn is held when at least this share of players have nothing on file ...
    missing_fraction: float = 0.5
    # ... and that share is this much above the usual share of the last turns.
    over_usual: float = 0.25


@dataclass(frozen=True)
class ReplyLimits:
    """[limits]: how much maild answers mail (acks, HELP, refusals, strangers), per recipient address. Mail
    maild sends on its own (printouts, newsletters, reminders, GM notices) is not an answer and not capped."""

    replies_per_hour: int = 20
    replies_per_day: int = 60
    # A correspondent whose mails answer maild's own answers this many times within `loop_window` is a loop
    # (a forwarding rule, a responder that sets no RFC 3834 header): further such mails are not answered.
    loop_replies: int = 5
    loop_window: timedelta = timedelta(hours=1)
    # Strangers get one answer a day each, and all of them together this many an hour: mail with forged
    # senders must not turn maild into a source of backscatter.
    strangers_per_hour: int = 30
    # Sign-ups by mail (a game's JOIN) each game takes in 24 hours: a wave of forged mail must not fill a game.
    signups_per_day: int = 20
    # What an ack echoes of the mail: at most this many items per list, each line at most this long.
    ack_lines: int = 200
    ack_line_chars: int = 200


@dataclass(frozen=True)
class GuessingLimits:
    """[limits] password_failures_*: wrong (or missing) passwords in a player's name that maild takes before it
    stops reading mail naming him (maild/intake/guessing.py), per sender address and from all senders
    together, in the last hour and the last 24 hours. The player's own mail from his registered address with
    his password is always read, so these bound a guesser without locking the player out: from one address
    3 tries an hour and 10 a day (a player mistyping at another address has his tries); from however many
    addresses, 30 a day, about 900 a month, and the GM hears of it on the first day."""

    per_sender_hour: int = 3
    per_sender_day: int = 10
    per_player_hour: int = 10
    per_player_day: int = 30


AUTH_REQUIRE_FOR = ("players_without_password", "everyone")


@dataclass(frozen=True)
class AuthCheck:
    """[games.auth]: trust the GM's receiving server's Authentication-Results header (see intake.authres)."""

    authserv_id: str  # the id the GM's own receiving server writes, e.g. "mx.example.org"
    # "players_without_password": a password given correctly is proof enough; "everyone": mail must be
    # verified whatever the password says
    require_for: str = "players_without_password"


@dataclass(frozen=True)
class MissedLadder:
    """[games.missed]: what befalls a player who misses turns in a row (maild/ladder.py). Each missed turn is
    warned by mail; after `defaults_after` his position plays on the ruleset's default orders, after
    `disorder_after` it is in civil disorder (run by defaults, open to a substitute), after `remove_after` he is
    removed where the ruleset allows it. 0 turns a step off."""

    defaults_after: int = 1
    disorder_after: int = 3
    remove_after: int = 0


ABSENCE_RULES = ("move_deadline", "defaults")
ABSENCE_ANNOUNCE = ("none", "gm", "players")


@dataclass(frozen=True)
class AbsenceRule:
    """[games.absence]: what a declared absence does (maild/absences.py). "move_deadline" (a small game waits
    for him: a deadline that falls in his absence moves to the day after it, at the same time); "defaults" (a
    large game goes on: his position plays on default orders and the missed turns do not count on the ladder).
    `max_days`: the days of absence a player may declare in the game; `announce`: who is told of one."""

    rule: str = "defaults"
    max_days: int = 21
    announce: str = "players"


@dataclass(frozen=True)
class GameConfig:
    name: str
    ruleset: str
    setup: Path
    address: str | None
    aliases: tuple[str, ...]
    schedule: Schedule | None
    safety: Safety
    auth: AuthCheck | None = None
    missed: MissedLadder | None = None  # None: no ladder (a silent player is what the rules make of him)
    grace: timedelta | None = None  # a deadline with players missing waits this long for them (maild/grace.py)
    absence: AbsenceRule = AbsenceRule()
    # Press between players, relayed by the game's address (maild.press): "none", "white" (signed with the
    # sender's player name) or "grey" (signed "someone").
    press: str = "none"

    # [games.substitutes] extension: how far a handover to a substitute moves the open deadline (docs/season.md).
    substitute_extension: timedelta = timedelta(days=2)

#: The values of a game's `press` key.
PRESS_MODES = ("none", "white", "grey")


@dataclass(frozen=True)
class Config:
    path: Path | None
    database_url: str
    inbound: MailboxConfig
    outbound: MailboxConfig
    from_addr: str
    gm_addr: str
    games: tuple[GameConfig, ...]
    poll_interval: float = 60.0
    max_mail_bytes: int = 10_000_000  # checked before a mail's body is read (Maildir file size, RFC822.SIZE)
    max_intake_attempts: int = 3  # intake runs begun on one mail before it is set aside as poison
    intake_mail_seconds: float = 300.0  # one mail's intake may take this long before the process ends (0: no limit)
    lease: float = 60.0  # seconds the daemon's lease runs unrenewed on PostgreSQL (maild/lease.py)
    # Passes that have failed this long (the database away, a full disk) are mailed to the GM, once.
    alarm_after: timedelta = timedelta(minutes=10)
    limits: ReplyLimits = ReplyLimits()
    guessing: GuessingLimits = GuessingLimits()
    send_batch: int = 100  # outbound mails delivered, synced and recorded together

    def game(self, name: str) -> GameConfig | None:
        return next((g for g in self.games if g.name == name), None)


def load_config(path: Path | None) -> Config:
    """Read `path`; None means ./maild.toml if it exists, else the embedded default."""
    if path is None:
        if not DEFAULT_CONFIG.exists():
            return embedded_default()
        path = DEFAULT_CONFIG
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    config = parse_config(data, path.resolve().parent, path)
    _check_secret_files(path, data, path.resolve().parent)
    return config


def _check_secret_files(path: Path, data: dict[str, Any], base_dir: Path) -> None:
    """Refuse a config or password_file others can write; warn of one others can read that holds a password
    (maild/filemodes.py)."""
    mail = data.get("mail") if isinstance(data.get("mail"), dict) else {}
    tables = [t for t in (mail.get("inbound"), mail.get("outbound")) if isinstance(t, dict)]
    check_config_file(path, holds_password=any(t.get("password") is not None for t in tables))
    for t in tables:
        if isinstance(t.get("password_file"), str):
            check_password_file(base_dir / Path(t["password_file"]))


def embedded_default() -> Config:
    """SQLite and Maildirs under ./var, running the Venice demo game so a fresh install has something to do."""
    data = {
        "database": {"url": "sqlite:///var/maild.db"},
        "mail": {
            "inbound": {"kind": "maildir", "path": "var/mail/inbox"},
            "outbound": {"kind": "maildir", "path": "var/mail/outbox", "from": "gm@localhost"},
        },
        "games": [{
            "name": "venice-demo",
            "ruleset": "venice",
            "setup": "example:venice",
            "address": "gm@localhost",
            "schedule": {"timezone": "Europe/Rome", "cron": "15 17 * * *"},
        }],
    }
    return parse_config(data, Path("."), None)


def parse_config(data: dict[str, Any], base_dir: Path, path: Path | None) -> Config:
    where = str(path) if path else "embedded default"
    check_keys(data, TOP, where)

    def table(d: dict[str, Any], key: str, ctx: str) -> dict[str, Any]:
        value = d.get(key, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: [{ctx}] must be a table")
        return value

    db = table(data, "database", "database")
    url = db.get("url", "sqlite:///var/maild.db")
    url = _resolve_sqlite_url(url, base_dir)
    mail = table(data, "mail", "mail")
    inbound = _mailbox(table(mail, "inbound", "mail.inbound"), "mail.inbound", base_dir, where,
                       default_path="var/mail/inbox", kinds=("maildir", "imap"))
    outbound_t = table(mail, "outbound", "mail.outbound")
    outbound = _mailbox(outbound_t, "mail.outbound", base_dir, where,
                        default_path="var/mail/outbox", kinds=("maildir", "smtp"))
    from_addr = str(outbound_t.get("from", "gm@localhost"))
    daemon = table(data, "daemon", "daemon")
    gm_addr = str(daemon.get("gm", from_addr))
    games_list = data.get("games", [])
    if not isinstance(games_list, list):
        raise ConfigError(f"{where}: [[games]] must be an array of tables")
    games = tuple(_game(g, base_dir, where) for g in games_list)
    names = [g.name for g in games]
    if len(set(names)) != len(names):
        raise ConfigError(f"{where}: [[games]]: a game name is used twice")
    return Config(
        path=path,
        database_url=url,
        inbound=inbound,
        outbound=outbound,
        from_addr=from_addr,
        gm_addr=gm_addr,
        games=games,
        poll_interval=float(daemon.get("poll_interval", 60)),
        max_mail_bytes=_positive_int(daemon, "max_mail_bytes", 10_000_000, "daemon", where, minimum=MAX_HEADER_BYTES),
        max_intake_attempts=_positive_int(daemon, "max_intake_attempts", 3, "daemon", where),
        intake_mail_seconds=_seconds(daemon, "intake_mail_seconds", 300.0, where),
        lease=_lease_period(daemon, where),
        alarm_after=_duration(daemon, "alarm_after", f"{where}: daemon") or Config.alarm_after,
        limits=_limits(table(data, "limits", "limits"), where),
        guessing=_guessing(table(data, "limits", "limits"), where),
        send_batch=_positive_int(outbound_t, "batch", Config.send_batch, "mail.outbound", where),
    )


def _seconds(t: dict[str, Any], key: str, default: float, where: str) -> float:
    value = t.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(f"{where}: daemon.{key}: expected a number of seconds (0 for no limit), got {value!r}")
    return float(value)


def _lease_period(t: dict[str, Any], where: str) -> float:
    value = t.get("lease", "60s")
    try:
        seconds = parse_duration(value).total_seconds() if isinstance(value, str) else None
    except ValueError:
        seconds = None
    if seconds is None or seconds < 1:
        raise ConfigError(f"{where}: daemon.lease: expected a duration of at least 1s like \"60s\" or \"2m\", "
                          f"got {value!r}")
    return seconds


def _positive_int(t: dict[str, Any], key: str, default: int, ctx: str, where: str, minimum: int = 1) -> int:
    value = t.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{where}: {ctx}.{key}: expected a whole number of at least {minimum}, got {value!r}")
    return value


_LIMIT_COUNTS = ("replies_per_hour", "replies_per_day", "loop_replies", "strangers_per_hour", "ack_lines",
                 "ack_line_chars", "signups_per_day")


def _limits(t: dict[str, Any], where: str) -> ReplyLimits:
    counts: dict[str, Any] = {}
    for key in _LIMIT_COUNTS:
        if key in t:
            value = t[key]
            # bool is an int in Python; `true` is no count.
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{where}: limits.{key}: expected a whole number of at least 1, got {value!r}")
            counts[key] = value
    if counts.get("ack_line_chars", ReplyLimits.ack_line_chars) < 20:
        raise ConfigError(f"{where}: limits.ack_line_chars: at least 20, got {counts['ack_line_chars']}")
    if "loop_window" in t:
        try:
            counts["loop_window"] = parse_duration(str(t["loop_window"]))
        except ValueError as exc:
            raise ConfigError(f"{where}: limits.loop_window: {exc}") from None
        if not counts["loop_window"]:
            raise ConfigError(f"{where}: limits.loop_window: must be longer than 0")
    limits = ReplyLimits(**counts)
    if limits.replies_per_day < limits.replies_per_hour:
        raise ConfigError(f"{where}: limits.replies_per_day: {limits.replies_per_day} is less than "
                          f"limits.replies_per_hour ({limits.replies_per_hour})")
    return limits


GUESSING_PREFIX = "password_failures_"  # [limits] password_failures_per_sender_hour ... -> GuessingLimits


def _guessing(t: dict[str, Any], where: str) -> GuessingLimits:
    counts: dict[str, int] = {}
    for scope in ("sender", "player"):
        hour, day = (f"per_{scope}_{span}" for span in ("hour", "day"))
        for field_name in (hour, day):
            counts[field_name] = _positive_int(t, GUESSING_PREFIX + field_name, getattr(GuessingLimits, field_name),
                                               "limits", where)
        if counts[day] < counts[hour]:
            raise ConfigError(f"{where}: limits.{GUESSING_PREFIX}{day}: {counts[day]} is less than "
                              f"limits.{GUESSING_PREFIX}{hour} ({counts[hour]})")
    return GuessingLimits(**counts)


def _resolve_sqlite_url(url: str, base_dir: Path) -> str:
    # Relative SQLite paths are relative to the config file, like every other path in it.
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and ":memory:" not in url:
        return prefix + str(base_dir / url[len(prefix):])
    return url


def _mailbox(t: dict[str, Any], ctx: str, base_dir: Path, where: str, default_path: str,
             kinds: tuple[str, ...]) -> MailboxConfig:
    kind = t.get("kind", "maildir")
    if kind not in kinds:
        raise ConfigError(f"{where}: {ctx}.kind: expected one of {', '.join(kinds)}, got {kind!r}")
    path = base_dir / t.get("path", default_path) if kind == "maildir" else None
    return MailboxConfig(kind=kind, path=path, options=dict(t), base_dir=base_dir)


_DURATION = re.compile(r"^\s*(\d+)\s*([smhd])\s*$")


def parse_duration(text: str) -> timedelta:
    """'90m', '6h', '1d', '30s'."""
    m = _DURATION.match(text)
    if not m:
        raise ValueError(f"expected a duration like 30m, 6h or 1d, got {text!r}")
    n, unit = int(m.group(1)), m.group(2)
    return timedelta(**{{"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}[unit]: n})


def _game(g: Any, base_dir: Path, where: str) -> GameConfig:
    if not isinstance(g, dict):
        raise ConfigError(f"{where}: [[games]] entries must be tables")
    for key in ("name", "ruleset", "setup"):
        if key not in g:
            raise ConfigError(f"{where}: [[games]]: missing key {key!r}")
    name = str(g["name"])
    ctx = f"{where}: games {name!r}"
    check_keys(g, GAME, ctx)
    schedule = None
    if "schedule" in g:
        schedule = _schedule(g["schedule"], ctx)
    safety_t = g.get("safety", {})
    safety = Safety(
        missing_fraction=float(safety_t.get("missing_fraction", Safety.missing_fraction)),
        over_usual=float(safety_t.get("over_usual", Safety.over_usual)),
    )
    auth = _auth(g["auth"], ctx) if "auth" in g else None
    press = str(g.get("press", "none")).lower()
    if press not in PRESS_MODES:
        raise ConfigError(f"{ctx}: press: expected one of {', '.join(PRESS_MODES)}, got {g['press']!r}")
    substitutes = g.get("substitutes", {})
    if not isinstance(substitutes, dict):
        raise ConfigError(f"{ctx}: [games.substitutes] must be a table")
    extension = _duration(substitutes, "extension", f"{ctx}: substitutes")
    address = g.get("address")
    try:
        setup = setup_path(str(g["setup"]), base_dir)
    except ValueError as exc:
        raise ConfigError(f"{ctx}: setup: {exc}") from None
    return GameConfig(
        name=name,
        ruleset=str(g["ruleset"]),
        setup=setup,
        address=address.lower() if address else None,
        aliases=tuple(a.lower() for a in g.get("aliases", [])),
        schedule=schedule,
        safety=safety,
        auth=auth,
        missed=_missed(g["missed"], ctx) if "missed" in g else None,
        grace=_duration(g, "grace", ctx),
        absence=_absence(g.get("absence", {}), ctx),
        press=press,
        substitute_extension=extension if extension is not None else GameConfig.substitute_extension,
    )


def _count(t: dict[str, Any], key: str, default: int, ctx: str) -> int:
    value = t.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"{ctx}.{key}: expected a whole number of 0 or more, got {value!r}")
    return value


def _missed(t: Any, ctx: str) -> MissedLadder:
    if not isinstance(t, dict):
        raise ConfigError(f"{ctx}: [games.missed] must be a table")
    ladder = MissedLadder(**{key: _count(t, key, getattr(MissedLadder, key), f"{ctx}: missed")
                             for key in ("defaults_after", "disorder_after", "remove_after")})
    steps = [n for n in (ladder.defaults_after, ladder.disorder_after, ladder.remove_after) if n]
    if steps != sorted(steps):
        raise ConfigError(f"{ctx}: missed: the steps must come in order, defaults_after <= disorder_after <= "
                          f"remove_after (0 leaves a step out), got {steps}")
    return ladder


def _absence(t: Any, ctx: str) -> AbsenceRule:
    if not isinstance(t, dict):
        raise ConfigError(f"{ctx}: [games.absence] must be a table")
    rule = t.get("rule", AbsenceRule.rule)
    if rule not in ABSENCE_RULES:
        raise ConfigError(f"{ctx}: absence.rule: expected one of {', '.join(ABSENCE_RULES)}, got {rule!r}")
    announce = t.get("announce", AbsenceRule.announce)
    if announce not in ABSENCE_ANNOUNCE:
        raise ConfigError(f"{ctx}: absence.announce: expected one of {', '.join(ABSENCE_ANNOUNCE)}, "
                          f"got {announce!r}")
    return AbsenceRule(rule=rule, max_days=_count(t, "max_days", AbsenceRule.max_days, f"{ctx}: absence"),
                       announce=announce)


def _auth(t: Any, ctx: str) -> AuthCheck:
    if not isinstance(t, dict):
        raise ConfigError(f"{ctx}: [games.auth] must be a table")
    sid = t.get("authserv_id")
    if not isinstance(sid, str) or not sid.strip() or any(c.isspace() or c in ";()\"" for c in sid.strip()):
        raise ConfigError(f"{ctx}: auth.authserv_id: expected the id your receiving server writes in its "
                          f"Authentication-Results header (e.g. \"mx.example.org\"), got {sid!r}")
    require_for = t.get("require_for", AuthCheck.require_for)
    if require_for not in AUTH_REQUIRE_FOR:
        raise ConfigError(f"{ctx}: auth.require_for: expected one of {', '.join(AUTH_REQUIRE_FOR)}, "
                          f"got {require_for!r}")
    return AuthCheck(authserv_id=sid.strip().lower(), require_for=require_for)


def _schedule(s: Any, ctx: str) -> Schedule:
    if not isinstance(s, dict):
        raise ConfigError(f"{ctx}: [games.schedule] must be a table")
    try:
        tz = ZoneInfo(str(s.get("timezone", "UTC")))
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"{ctx}: schedule.timezone: unknown time zone {s.get('timezone')!r}") from None
    at, cron = _deadlines(s, tz, f"{ctx}: schedule")
    phases = _phase_schedules(s.get("phases"), tz, ctx)
    if phases and (at or cron is not None):
        raise ConfigError(f"{ctx}: schedule: give either 'at'/'cron' (one deadline a turn) or [games.schedule."
                          "phases.<name>] (a deadline per phase), not both")
    if not at and cron is None and not phases:
        raise ConfigError(f"{ctx}: schedule needs 'at' (a list of deadlines) or 'cron'")
    return Schedule(timezone=tz, at=tuple(at), cron=str(cron) if cron else None,
                    remind_before=_duration(s, "remind_before", f"{ctx}: schedule"), phases=phases)


def _duration(t: dict[str, Any], key: str, ctx: str) -> timedelta | None:
    if key not in t:
        return None
    try:
        return parse_duration(str(t[key]))
    except ValueError as exc:
        raise ConfigError(f"{ctx}.{key}: {exc}") from None


def _deadlines(s: dict[str, Any], tz: ZoneInfo, ctx: str) -> tuple[list[datetime], str | None]:
    """A table's `at` list (instants in UTC, read on `tz`'s wall clock where no offset is written, by
    maild.walltime's rule) and `cron` rule, checked."""
    at: list[datetime] = []
    for item in s.get("at", []):
        try:
            dt = item if isinstance(item, datetime) else datetime.fromisoformat(str(item))
        except ValueError:
            raise ConfigError(f"{ctx}.at: {item!r} is not an ISO-8601 date and time") from None
        when = first_instant(dt, tz) if dt.tzinfo is None else dt.astimezone(UTC)
        if at and when <= at[-1]:
            raise ConfigError(f"{ctx}.at: deadlines must be strictly increasing: {_as_written(item)} means "
                              f"{_on_wall(when, tz)}, not after the one before it ({_on_wall(at[-1], tz)})")
        at.append(when)
    cron = s.get("cron")
    if cron is not None:
        from maild.deadlines import validate_cron

        try:
            validate_cron(str(cron))
        except ValueError as exc:
            raise ConfigError(f"{ctx}.cron: {exc}") from None
    return at, str(cron) if cron is not None else None


def _as_written(item: Any) -> str:
    return item.isoformat() if isinstance(item, datetime) else str(item)


def _on_wall(when: datetime, tz: ZoneInfo) -> str:
    """An instant as the game's wall clock shows it, with the zone's abbreviation: which of two 02:30s (or
    that a skipped 02:30 became 03:00) is plain to read."""
    local = when.astimezone(tz)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"


def _phase_schedules(t: Any, tz: ZoneInfo, ctx: str) -> tuple[PhaseSchedule, ...]:
    """[games.schedule.phases.<name>] tables, in the order written: each `at`, `cron` or `duration`. Whether
    the names are the ruleset's phases is checked when the game starts (maild.phases.check_schedule)."""
    if t is None:
        return ()
    if not isinstance(t, dict) or not all(isinstance(v, dict) for v in t.values()):
        raise ConfigError(f"{ctx}: schedule.phases: expected tables [games.schedule.phases.<name>]")
    phases = []
    for name, p in t.items():
        where = f"{ctx}: schedule.phases.{name}"
        at, cron = _deadlines(p, tz, where)
        duration, remind = (_duration(p, key, where) for key in ("duration", "remind_before"))
        if sum(1 for given in (at, cron, duration) if given) != 1:
            raise ConfigError(f"{where}: give exactly one of 'at', 'cron' or 'duration'")
        phases.append(PhaseSchedule(name=name, at=tuple(at), cron=cron, duration=duration, remind_before=remind))
    with_at = [p for p in phases if p.at]
    # Within a turn the phases close in the order written: the k-th deadline of each phase comes after the
    # k-th of the phase before it, and before the (k+1)-th of the first.
    for before, after in zip(with_at, with_at[1:], strict=False):
        for n, (a, b) in enumerate(zip(before.at, after.at, strict=False), start=1):
            if b <= a:
                raise ConfigError(f"{ctx}: schedule.phases.{after.name}.at: the deadline of turn {n} "
                                  f"({b.isoformat()}) is not after that of {before.name} ({a.isoformat()})")
    if len(with_at) > 1:
        first, last = with_at[0], with_at[-1]
        for n, (a, b) in enumerate(zip(last.at, first.at[1:], strict=False), start=1):
            if b <= a:
                raise ConfigError(f"{ctx}: schedule.phases.{first.name}.at: the deadline of turn {n + 1} "
                                  f"({b.isoformat()}) is not after the last phase of turn {n} "
                                  f"({a.isoformat()})")
    return tuple(phases)
