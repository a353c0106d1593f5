from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from maild.config import ConfigError, embedded_default, load_config, parse_config, parse_duration
from maild.deadlines import deadline_for

ROOT = Path(__file__).resolve().parent.parent


def test_example_config_loads() -> None:
    config = load_config(ROOT / "config.example.toml")
    assert config.inbound.kind == "imap"
    assert config.outbound.kind == "smtp"
    assert config.outbound.options["connect_timeout"] == 15  # a key of [mail.outbound], not refused as a typo
    game = config.game("venice1")
    assert game is not None and game.schedule is not None
    assert game.setup == ROOT / "examples/venice/setup.toml"
    assert game.schedule.remind_before == timedelta(hours=6)
    assert game.aliases == ("venice@example.org",)


def test_embedded_default_is_sqlite_and_maildirs_under_var() -> None:
    config = embedded_default()
    assert config.database_url == "sqlite:///var/maild.db"
    assert config.inbound.path == Path("var/mail/inbox")
    assert config.outbound.path == Path("var/mail/outbox")
    assert [g.name for g in config.games] == ["venice-demo"]


def test_relative_paths_follow_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "gm.toml").write_text('[database]\nurl = "sqlite:///db/m.db"\n')
    config = load_config(tmp_path / "gm.toml")
    assert config.database_url == f"sqlite:///{tmp_path}/db/m.db"
    assert config.inbound.path == tmp_path / "var/mail/inbox"


@pytest.mark.parametrize("data, message", [
    ({"mail": {"inbound": {"kind": "pop3"}}}, "mail.inbound.kind"),
    ({"games": [{"name": "g", "ruleset": "venice"}]}, "missing key 'setup'"),
    ({"games": [{"name": "g", "ruleset": "venice", "setup": "s", "schedule": {"cron": "99 * * * *"}}]},
     "schedule.cron"),
    ({"games": [{"name": "g", "ruleset": "venice", "setup": "s", "schedule": {"timezone": "Mars/Olympus"}}]},
     "unknown time zone"),
    ({"games": [{"name": "g", "ruleset": "venice", "setup": "s", "schedule": {}}]}, "needs 'at'"),
    ({"mail": {"outbound": {"batch": 0}}}, "mail.outbound.batch"),
    ({"mail": {"outbound": {"batch": "many"}}}, "mail.outbound.batch"),
])
def test_bad_configs_name_the_key(data: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(data, Path("."), Path("gm.toml"))


def test_outbound_batch_defaults_to_100_and_can_be_set() -> None:
    assert embedded_default().send_batch == 100
    assert parse_config({"mail": {"outbound": {"batch": 7}}}, Path("."), None).send_batch == 7


def test_durations() -> None:
    assert parse_duration("90m") == timedelta(minutes=90)
    assert parse_duration("1d") == timedelta(days=1)
    with pytest.raises(ValueError):
        parse_duration("soon")


def schedule(**kw):
    data = {"games": [{"name": "g", "ruleset": "venice", "setup": "s",
                       "schedule": {"timezone": "Europe/Rome", **kw}}]}
    return parse_config(data, Path("."), None).games[0].schedule


def test_explicit_deadlines_are_in_the_game_time_zone() -> None:
    s = schedule(at=["2026-11-22T17:15", "2026-11-23T17:15"])
    # Rome is UTC+1 in November: 17:15 there is 16:15 UTC.
    assert deadline_for(s, 1, datetime(2026, 11, 1, tzinfo=UTC)) == datetime(2026, 11, 22, 16, 15, tzinfo=UTC)
    assert deadline_for(s, 2, datetime(2026, 11, 1, tzinfo=UTC)) == datetime(2026, 11, 23, 16, 15, tzinfo=UTC)
    assert deadline_for(s, 3, datetime(2026, 11, 1, tzinfo=UTC)) is None


def test_cron_deadline_comes_strictly_after_the_previous_one() -> None:
    s = schedule(cron="15 17 * * *")
    first = deadline_for(s, 1, datetime(2026, 11, 22, 10, 0, tzinfo=UTC))
    assert first == datetime(2026, 11, 22, 16, 15, tzinfo=UTC)
    # From the previous deadline itself the next one is a day later, not the same instant.
    second = deadline_for(s, 2, first)
    assert second == datetime(2026, 11, 23, 16, 15, tzinfo=UTC)
    # Summer time: on 2027-03-28 Rome moves to UTC+2, so 17:15 is 15:15 UTC.
    summer = deadline_for(s, 9, datetime(2027, 3, 28, 12, 0, tzinfo=UTC))
    assert summer == datetime(2027, 3, 28, 15, 15, tzinfo=UTC)


def test_reply_limits_default_and_parse() -> None:
    from maild.config import ReplyLimits

    assert parse_config({}, Path("."), None).limits == ReplyLimits()
    limits = parse_config({"limits": {"replies_per_hour": 5, "replies_per_day": 9, "loop_replies": 2,
                                      "loop_window": "30m", "ack_lines": 10, "ack_line_chars": 80}},
                          Path("."), None).limits
    assert (limits.replies_per_hour, limits.replies_per_day, limits.loop_replies) == (5, 9, 2)
    assert limits.loop_window == timedelta(minutes=30) and (limits.ack_lines, limits.ack_line_chars) == (10, 80)
    assert load_config(ROOT / "config.example.toml").limits == ReplyLimits()  # the example shows the defaults


@pytest.mark.parametrize("limits, message", [
    ({"replies_per_hour": 0}, "limits.replies_per_hour: expected a whole number"),
    ({"replies_per_day": "10"}, "limits.replies_per_day: expected a whole number"),
    ({"loop_replies": True}, "limits.loop_replies"),
    ({"replies_per_hour": 50, "replies_per_day": 10}, "limits.replies_per_day: 10 is less than"),
    ({"loop_window": "soon"}, "limits.loop_window: expected a duration"),
    ({"loop_window": "0m"}, "limits.loop_window: must be longer than 0"),
    ({"ack_line_chars": 5}, "limits.ack_line_chars: at least 20"),
    ({"replies_per_minute": 1}, "limits.replies_per_minute: unknown key"),
])
def test_bad_reply_limits_name_the_key(limits: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config({"limits": limits}, Path("."), Path("gm.toml"))


@pytest.mark.parametrize("text, message", [
    # A typo would otherwise give the default silently: the GM learns of it when a deadline does not fire.
    ('[daemon]\npol_interval = 5\n', "gm.toml: daemon.pol_interval: unknown key; did you mean poll_interval?"),
    ('[databse]\nurl = "sqlite:///x.db"\n', "gm.toml: databse: unknown key; did you mean database?"),
    ('[mail.outbound]\nkind = "smtp"\nhost = "h"\nstarttl = true\n',
     "gm.toml: mail.outbound.starttl: unknown key; did you mean starttls?"),
    ('[mail.inbound]\nkind = "imap"\nfolders = "INBOX"\n',
     "gm.toml: mail.inbound.folders: unknown key; did you mean folder?"),
    ('[[games]]\nname = "v"\nruleset = "venice"\nsetup = "s.toml"\n[games.schedule]\ncrn = "15 17 * * *"\n',
     "gm.toml: games 'v': schedule.crn: unknown key; did you mean cron?"),
    ('[[games]]\nname = "v"\nruleset = "venice"\nsetup = "s.toml"\nadress = "gm@x.org"\n',
     "gm.toml: games 'v': adress: unknown key; did you mean address?"),
    ('[[games]]\nname = "v"\nruleset = "venice"\nsetup = "s.toml"\n[games.safety]\nmissing = 0.5\n',
     "gm.toml: games 'v': safety.missing: unknown key; did you mean missing_fraction?"),
    ('[weather]\nsunny = true\n', "gm.toml: weather: unknown key \\(expected one of: daemon, database, games"),
])
def test_unknown_keys_are_refused_with_a_suggestion(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "gm.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message.replace("gm.toml", str(path).replace("\\", "\\\\"))):
        load_config(path)


def test_every_key_of_the_example_config_is_known() -> None:
    load_config(ROOT / "config.example.toml")  # raises on a key the checker does not know
