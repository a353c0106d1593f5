"""Helpers for tests that run mail through the daemon (no tests here): mails dropped into a Maildir inbox,
a pass of the daemon at a given time, what it sent; and order mails stored as if fetched, for tests of intake
and turns without a transport."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import func, select

from maild.app import App
from maild.cli import main
from maild.games import sync_games
from maild.mail.base import FetchedMail
from maild.models import OrderSetRow
from maild.testing import drop, run_pass, sent
from tests.conftest import make_app, write_gm_config

ROME = ZoneInfo("Europe/Rome")

__all__ = ["drop", "run_pass", "sent"]  # the harness's, for the tests that import them from here


def mail(sender: str, body: str, n: int, subject: str = "my bids", extra: str = "") -> bytes:
    return (f"From: Player <{sender}>\r\nTo: gm@example.org\r\nSubject: {subject}\r\n"
            f"Message-ID: <flow-{n}@example.org>\r\n{extra}\r\n{body}\r\n").encode()


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


def gm_config(tmp_path: Path, now: str) -> Path:
    """A GM's config (Venice game venice1, outbox Maildir `out`) and its database made by `maild init` at `now`."""
    config = write_gm_config(tmp_path, outbox="out")
    assert gm_command(config, now, "init") == 0
    return config


def gm_command(config: Path, now: str, *args: str) -> int:
    """`maild --config CONFIG --now NOW ARGS...` in this process; its exit status."""
    return main(["--config", str(config), "--now", now, *args])
