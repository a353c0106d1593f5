"""Passes that fail because the database is unreachable (PostgreSQL behind a connection that is cut, for real):
the daemon tries again after pauses that double, however much mail waits, logs one line when passes begin to fail
and one when they work again, mails the GM once straight through the transport (the outbox is in the database
that is away), and once through the outbox when passes work again."""

from __future__ import annotations

import asyncio
import email
import io
import logging
import time
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from maild.clock import Clock
from maild.daemon import Daemon
from maild.logs import KeyValueFormatter
from maild.mail.maildir import MaildirInbox, MaildirSender
from maild.models import InboundMail
from maild.testing import open_app
from tests.conftest import config_dict
from tests.dbfaults import count_passes
from tests.mailflow import drop, order_mail
from tests.tcpproxy import TcpProxy

MORNING = datetime(2026, 11, 22, 10, 0, tzinfo=ZoneInfo("Europe/Rome"))
AWAY_S = 20.0  # how long the database stays unreachable


def outbox(folder: Path) -> list[EmailMessage]:
    new = folder / "outbox" / "new"
    return [email.message_from_bytes(p.read_bytes(), policy=default)  # type: ignore[misc]
            for p in (new.iterdir() if new.is_dir() else [])]


def subjects(folder: Path, start: str) -> list[str]:
    return [str(m["Subject"]) for m in outbox(folder) if str(m["Subject"]).startswith(start)]


async def until(check: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        await asyncio.sleep(0.2)
    return check()


@pytest.mark.postgres
@pytest.mark.slow
def test_passes_back_off_while_the_database_is_unreachable_and_the_gm_hears_once(
        tmp_path: Path, pg_url: str, venice_setup: Path, capsys: pytest.CaptureFixture[str]) -> None:
    proxy = TcpProxy(("127.0.0.1", 5432))
    data = config_dict(tmp_path, pg_url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}"), venice_setup)
    data["daemon"]["alarm_after"] = "5s"
    app = open_app(data, tmp_path, MORNING)
    app.clock = Clock(MORNING)  # running on, as the daemon's does
    log = io.StringIO()
    handler = logging.StreamHandler(log)
    handler.setFormatter(KeyValueFormatter())
    maild_log = logging.getLogger("maild")
    maild_log.addHandler(handler)
    level = maild_log.level
    maild_log.setLevel(logging.INFO)  # as `maild run` logs when its stderr is no terminal (a service)
    tries: list[float] = []

    async def scenario() -> tuple[int, int]:
        daemon = Daemon(app, MaildirInbox(tmp_path / "inbox"), MaildirSender(tmp_path / "outbox"),
                        status_line=False)
        count_passes(daemon, tries)
        task = asyncio.create_task(daemon.run())
        try:
            assert await until(lambda: len(tries) >= 1 and bool(subjects(tmp_path, "[venice1] welcome")), 30)
            proxy.cut()
            drop(app, order_mail(1), MORNING)  # mail waiting makes no pass come sooner
            before, logged = len(tries), log.tell()
            await asyncio.sleep(AWAY_S)
            passes, volume = len(tries) - before, log.tell() - logged
            proxy.mend()
            await until(lambda: bool(subjects(tmp_path, "[maild] passes work again")), 60)
            return passes, volume
        finally:
            daemon.stop()
            await asyncio.wait_for(task, 30)

    try:
        passes, volume = asyncio.run(scenario())
        with app.db.session() as s:
            read = s.scalars(select(InboundMail.status)).all()
    finally:
        maild_log.removeHandler(handler)
        maild_log.setLevel(level)
        app.db.close()
        proxy.close()
    text = log.getvalue()
    with capsys.disabled():
        print(f"\ndatabase away {AWAY_S:.0f} s: {passes} passes, {volume} bytes of log")
    # Pauses of 1, 2, 4, 8 s between tries (each try itself retries its transaction a few times): a handful.
    assert passes <= 6, passes
    assert volume < 30_000, text[-3000:]
    assert text.count("passes failing: ") == 1 and text.count("passes work again after ") == 1, text[-3000:]
    # A traceback once, with the line that says passes (or the delivery beside them) began to fail.
    records = ["ts=" + r for r in text.split("\nts=")]
    told = sorted(r.split(' msg="')[1].split(":")[0] for r in records if "\n" in r.strip())
    assert told in (["passes failing"], ["deliveries failing", "passes failing"]), text[-3000:]
    # The GM: one alarm, straight through the transport, and one notice once passes work again.
    [alarm] = [m for m in outbox(tmp_path) if str(m["Subject"]).startswith("[maild] passes failing")]
    assert alarm["To"] == "referee@example.org"
    assert "OperationalError: connection failed" in str(alarm["Subject"])
    assert "since 2026-11-22 09:0" in alarm.get_content()
    [back] = [m for m in outbox(tmp_path) if str(m["Subject"]) == "[maild] passes work again"]
    assert "failures over" in back.get_content()
    assert read == ["orders"]  # the mail that waited meanwhile


