"""The two-phase test game run through the daemon (no tests here): its setup and schedule, an app on it, a mail
sent by a player, the mails a player got."""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from maild.app import App
from maild.clock import Clock
from maild.config import parse_config
from maild.db import Database, upgrade
from tests.conftest import config_dict
from tests.mailflow import drop, mail, sent

SETUP = "".join(f'[[players]]\nname = "{n}"\nemail = "{n}@example.org"\n' for n in ("alice", "bob", "carol"))

START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)  # a Saturday
MORNING = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
AFTERNOON = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
AT = {"morning": {"at": ["2026-11-21T12:00", "2026-11-28T12:00"]},
      "afternoon": {"at": ["2026-11-21T18:00", "2026-11-28T18:00"]},
      "vote": {"duration": "2h"}}


def game_entry(tmp_path: Path, phases: dict[str, Any], **schedule: Any) -> dict[str, Any]:
    setup = tmp_path / "duo.toml"
    setup.write_text(SETUP)
    return {"name": "duo", "ruleset": "twophase", "setup": str(setup), "address": "gm@example.org",
            "schedule": {"timezone": "UTC", "phases": phases, **schedule}}


def make_phase_app(tmp_path: Path, db_url: str, phases: dict[str, Any] | None = None, **schedule: Any) -> App:
    data = config_dict(tmp_path, db_url)
    data["games"].append(game_entry(tmp_path, phases or AT, **schedule))
    data["limits"] = {"replies_per_hour": 100, "replies_per_day": 100}
    config = parse_config(data, tmp_path, None)
    db = Database(config.database_url)
    upgrade(db.engine)
    return App(config=config, db=db, clock=Clock(START, frozen=True))


counter = iter(range(1000, 100000))


def send(app: App, who: str, body: str, when: datetime) -> None:
    drop(app, mail(f"{who}@example.org", body, next(counter), subject="orders"), when)


def mails_to(app: App, who: str, text: str) -> list[EmailMessage]:
    return [m for m in sent(app) if m["To"] == f"{who}@example.org" and text in str(m["Subject"])]
