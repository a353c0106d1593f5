"""Mail through intake for the tests of answers and their limits (no tests here): an app with `[limits]` of its
choosing, mails stored as the inbox would and read, and the answers and GM notices read back from the outbox."""

from __future__ import annotations

import email
from datetime import datetime
from email.policy import default
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select

from maild.app import App
from maild.clock import Clock
from maild.config import parse_config
from maild.db import Database, upgrade
from maild.games import sync_games
from maild.intake.pipeline import process_new
from maild.intake.store import store_batch
from maild.mail.base import FetchedMail
from maild.models import OutboundMail
from tests.conftest import config_dict

ROME = ZoneInfo("Europe/Rome")
MORNING = datetime(2026, 11, 22, 9, 0, tzinfo=ROME)


def limited_app(tmp_path: Path, db_url: str, setup: Path, now: datetime = MORNING, **limits: Any) -> App:
    data = config_dict(tmp_path, db_url, setup)
    data["limits"] = limits
    data["daemon"]["max_mail_bytes"] = 10_000_000
    config = parse_config(data, tmp_path, None)
    db = Database(config.database_url)
    upgrade(db.engine)
    app = App(config=config, db=db, clock=Clock(now, frozen=True))
    with db.session() as s:
        sync_games(s, config, now)
    return app


_uid = iter(range(10**9))


def deliver(app: App, *raws: bytes) -> dict[str, int]:
    """Store the mails as the inbox would, then run intake over them."""
    store_batch(app, [FetchedMail("test", 0, str(next(_uid)), raw, None) for raw in raws])
    return process_new(app)


def at(app: App, when: datetime) -> App:
    app.clock = Clock(when, frozen=True)
    return app


_mid = iter(range(10**9))


def mail(sender: str, body: str, subject: str = "my bids", headers: str = "") -> bytes:
    return (f"From: {sender}\r\nTo: gm@example.org\r\nSubject: {subject}\r\n"
            f"Message-ID: <r{next(_mid)}@example.net>\r\n{headers}\r\n{body}\r\n").encode()


def answers(app: App, to: str, kind: str | None = None) -> list[OutboundMail]:
    with app.db.session() as s:
        rows = list(s.scalars(select(OutboundMail).where(OutboundMail.kind != "gm").order_by(OutboundMail.id)))
    return [r for r in rows if r.recipients == [to] and (kind is None or r.kind == kind)]


def gm_notices(app: App) -> list[OutboundMail]:
    with app.db.session() as s:
        return list(s.scalars(select(OutboundMail).where(OutboundMail.kind == "gm").order_by(OutboundMail.id)))


def text_of(row: OutboundMail) -> str:
    return email.message_from_bytes(row.raw, policy=default).get_content()  # type: ignore[attr-defined]


def header(row: OutboundMail, name: str) -> str:
    return str(email.message_from_bytes(row.raw, policy=default)[name] or "")
