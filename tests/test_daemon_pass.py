"""One daemon pass over many mails: acks of committed intake batches are delivered while intake goes on,
and still every mail gets exactly one ack, recorded as sent."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from maild.app import App
from maild.daemon import Daemon
from maild.games import sync_games
from maild.intake.pipeline import INTAKE_BATCH
from maild.mail.base import OutgoingMail, SendResult
from maild.mail.maildir import MaildirInbox, MaildirSender, deliver
from maild.models import InboundMail, OutboundMail
from tests.conftest import answering_every_mail, make_app

MORNING = datetime(2026, 11, 22, 10, 0, tzinfo=ZoneInfo("Europe/Rome"))
MAILS = INTAKE_BATCH * 3 + 7


class WatchingSender(MaildirSender):
    """The real Maildir sender, noting how many stored mails intake had not yet processed at each batch."""

    def __init__(self, path: Path, app: App) -> None:
        super().__init__(path)
        self.app = app
        self.unprocessed: list[int] = []

    async def send_batch(self, mails: list[OutgoingMail]) -> list[SendResult]:
        with self.app.db.session() as s:
            self.unprocessed.append(s.scalar(select(func.count()).where(InboundMail.status == "new")))
        return await super().send_batch(mails)


def test_acks_go_out_while_intake_goes_on_and_each_once(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    # Two players mail many times: the reply caps are raised so that every mail is answered.
    app = answering_every_mail(app)
    app.config = replace(app.config, send_batch=20)
    with app.db.session() as s:
        sync_games(s, app.config, app.now())
    for n in range(MAILS):
        sender = ("alice@example.org", "carol@example.net")[n % 2]
        deliver(tmp_path / "inbox", (f"From: {sender}\r\nTo: gm@example.org\r\nSubject: bids {n}\r\n"
                                     f"Message-ID: <pass-{n}@example.org>\r\n\r\n"
                                     f"bid {n % 40 + 1}$ for 1 of silk tax\r\n").encode(), name=f"{n:04d}")
    sender = WatchingSender(tmp_path / "sent", app)
    daemon = Daemon(app, MaildirInbox(tmp_path / "inbox"), sender, status_line=False)
    report = asyncio.run(daemon.one_pass())
    asyncio.run(daemon.close())

    assert report.processed == {"orders": MAILS}
    assert report.sent == MAILS and report.failed == 0
    # Some batches went out before intake had finished ...
    assert sender.unprocessed[0] > 0
    # ... and every mail has exactly one ack, delivered once and recorded as sent.
    assert len(list((tmp_path / "sent" / "new").iterdir())) == MAILS
    with app.db.session() as s:
        rows = list(s.execute(select(OutboundMail.key, OutboundMail.status, OutboundMail.attempts)))
    assert sorted(key for key, _, _ in rows) == sorted(f"ack:{i}" for i in range(1, MAILS + 1))
    assert {(status, attempts) for _, status, attempts in rows} == {("sent", 1)}


def test_the_daemon_logs_one_startup_line(tmp_path: Path, db_url: str, venice_setup: Path,
                                          caplog: pytest.LogCaptureFixture) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    daemon = Daemon(app, MaildirInbox(tmp_path / "inbox"), MaildirSender(tmp_path / "sent"), status_line=False)
    with caplog.at_level(logging.INFO, logger="maild.start"):
        asyncio.run(daemon.run(once=True))
    [start] = [r for r in caplog.records if r.name == "maild.start"]
    assert start.getMessage() == "maild started"
    # The config's deadline is 17:15 in Rome, 16:15 UTC.
    assert start.games == "venice1 (turn 1 due 2026-11-22T16:15Z)"  # type: ignore[attr-defined]
    assert start.inbox == f"maildir {tmp_path / 'inbox'}"  # type: ignore[attr-defined]
    assert start.database.startswith(db_url.split(":")[0])  # type: ignore[attr-defined]
