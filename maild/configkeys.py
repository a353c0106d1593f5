"""The keys a config file may hold, so that a typo is refused with a suggestion instead of being ignored.

A misspelt key (`pol_interval`, `[games.schedul]`) would otherwise silently give the default, and the GM
would learn it only when a deadline did not fire. Each table lists its keys; a key that is a table of its
own names its sub-schema. Tables whose keys are the GM's own names (phases of a turn) are marked FREE.
"""

from __future__ import annotations

import difflib
from typing import Any

from maild.errors import ConfigError

FREE = "free"  # a table whose keys are names the GM chooses; its values are checked with the given schema

Schema = dict[str, "Schema | None | tuple[str, Schema]"]

_PASSWORD = {"password": None, "password_env": None, "password_file": None}
_INBOUND: Schema = {"kind": None, "path": None, "host": None, "port": None, "tls": None, "user": None,
                    "folder": None, "ca_file": None, "allow_plain": None, "done_action": None, "idle": None,
                    "timeout": None, **_PASSWORD}
_OUTBOUND: Schema = {"kind": None, "path": None, "from": None, "batch": None, "host": None, "port": None,
                     "tls": None, "starttls": None, "user": None, "ca_file": None, "allow_plain": None,
                     "timeout": None, "connect_timeout": None, "local_hostname": None, **_PASSWORD}
_PHASE: Schema = {"at": None, "cron": None, "duration": None, "remind_before": None}
_SCHEDULE: Schema = {"timezone": None, "at": None, "cron": None, "remind_before": None,
                     "phases": (FREE, _PHASE)}
GAME: Schema = {"name": None, "ruleset": None, "setup": None, "address": None, "aliases": None,
                "schedule": _SCHEDULE, "safety": {"missing_fraction": None, "over_usual": None},
                "auth": {"authserv_id": None, "require_for": None},
                "missed": {"defaults_after": None, "disorder_after": None, "remove_after": None},
                "grace": None, "absence": {"rule": None, "max_days": None, "announce": None}, "press": None,
                "substitutes": {"extension": None}}
TOP: Schema = {
    "database": {"url": None},
    "mail": {"inbound": _INBOUND, "outbound": _OUTBOUND},
    "daemon": {"gm": None, "poll_interval": None, "max_mail_bytes": None, "max_intake_attempts": None,
               "intake_mail_seconds": None, "lease": None, "alarm_after": None},
    "limits": {"replies_per_hour": None, "replies_per_day": None, "loop_replies": None,
               "strangers_per_hour": None, "ack_lines": None, "ack_line_chars": None, "loop_window": None,
               "signups_per_day": None, "password_failures_per_sender_hour": None,
               "password_failures_per_sender_day": None, "password_failures_per_player_hour": None,
               "password_failures_per_player_day": None},
    "games": None,  # an array of tables, checked entry by entry with GAME
}


def suggestion(key: str, known: list[str]) -> str:
    """'; did you mean cron?' for the nearest known key, or the list of keys when none is near."""
    near = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if near:
        return f"; did you mean {near[0]}?"
    return f" (expected one of: {', '.join(sorted(known))})"


def check_keys(table: dict[str, Any], schema: Schema, where: str, prefix: str = "") -> None:
    """Refuse the first key of `table` (depth first, in file order) that `schema` does not name."""
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if key not in schema:
            raise ConfigError(f"{where}: {dotted}: unknown key{suggestion(key, list(schema))}")
        sub = schema[key]
        if isinstance(sub, tuple):  # a FREE table: every value is a table of the given schema
            if isinstance(value, dict):
                for name, entry in value.items():
                    if isinstance(entry, dict):
                        check_keys(entry, sub[1], where, f"{dotted}.{name}.")
        elif isinstance(sub, dict) and isinstance(value, dict):
            check_keys(value, sub, where, f"{dotted}.")
