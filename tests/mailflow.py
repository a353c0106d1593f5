"""Helpers for tests that run mail through the daemon (no tests here): mails dropped into a Maildir inbox,
a pass of the daemon at a given time, what it sent; and order mails stored as if fetched, for tests of intake
and turns without a transport."""

from __future__ import annotations

import asyncio
import email
import os
from datetime import datetime
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import func, select

from maild.app import App
from maild.clock import Clock
from maild.daemon import Daemon
from maild.games import sync_games
from maild.mail.base import FetchedMail
from maild.mail.maildir import MaildirInbox, MaildirSender, deliver
from maild.models import OrderSetRow
from tests.conftest import make_app

ROME = ZoneInfo("Europe/Rome")


def mail(sender: str, body: str, n: int, subject: str = "my bids", extra: str = "") -> bytes:
    return (f"From: Player <{sender}>\r\nTo: gm@example.org\r\nSubject: {subject}\r\n"
            f"Message-ID: <flow-{n}@example.org>\r\n{extra}\r\n{body}\r\n").encode()


def drop(app: App, raw: bytes, when: datetime) -> None:
    assert app.config.inbound.path is not None
    path = deliver(app.config.inbound.path, raw)
    os.utime(path, (when.timestamp(), when.timestamp()))


def run_pass(app: App, at: datetime) -> None:
    app.clock = Clock(at, frozen=True)
    assert app.config.inbound.path and app.config.outbound.path
    daemon = Daemon(app, MaildirInbox(app.config.inbound.path), MaildirSender(app.config.outbound.path),
                    status_line=False)
    asyncio.run(daemon.run(once=True))


def sent(app: App, welcomes: bool = False) -> list[EmailMessage]:
    """The mail delivered so far, oldest first; without the players' welcomes (mailed when the daemon's first
    pass creates the game) unless `welcomes`."""
    assert app.config.outbound.path is not None
    files = sorted((app.config.outbound.path / "new").iterdir(), key=lambda p: p.stat().st_mtime_ns)
    mails = [email.message_from_bytes(p.read_bytes(), policy=default) for p in files]
    return [m for m in mails if welcomes or not _is_welcome(m)]  # type: ignore[misc]


def _is_welcome(mail: EmailMessage) -> bool:
    return "] welcome, " in str(mail["Subject"]) and mail["In-Reply-To"] is None  # an ack answers a mail


def by_subject(mails: list[EmailMessage], text: str) -> EmailMessage:
    found = [m for m in mails if text in str(m["Subject"])]
    assert len(found) == 1, [str(m["Subject"]) for m in mails]
    return found[0]


BEFORE = datetime(2026, 11, 22, 12, 0, tzinfo=ROME)  # turn 1's deadline is 17:15 that day
PLAYERS = [("alice@example.org", ""), ("bob@example.org", "#venice1 bob sesame\n"), ("carol@example.net", "")]


def order_mail(n: int, tag: str = "m") -> bytes:
    sender, header = PLAYERS[n % len(PLAYERS)]
    return (f"From: {sender}\r\nTo: gm@example.org\r\nSubject: bids {n}\r\n"
            f"Message-ID: <{tag}-{n}@example.org>\r\n\r\n{header}bid {n % 40 + 1}$ for 1 of silk tax\r\n").encode()


def fetched(n: int, tag: str = "m") -> FetchedMail:
    return FetchedMail(source="test", uidvalidity=1, uid=f"{tag}-{n}", raw=order_mail(n, tag), arrived_at=BEFORE)


def game_app(tmp_path: Path, db_url: str, setup: Path) -> App:
    """An app with the game venice1 created, as the daemon's start or `maild init` leaves it."""
    app = make_app(tmp_path, db_url, BEFORE, setup)
    with app.db.session() as s:
        sync_games(s, app.config, app.now())
    return app


def count_turns(app: App, first: int) -> dict[int, int]:
    with app.db.session() as s:
        rows = s.execute(select(OrderSetRow.turn, func.count()).where(OrderSetRow.mail_id >= first)
                         .group_by(OrderSetRow.turn)).all()
        return dict(rows)  # type: ignore[arg-type]
