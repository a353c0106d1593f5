"""End to end against real servers: Dovecot (IMAP) started on loopback, aiosmtpd as the SMTP peer.
Several players mail bids, get acks, the deadline passes (`--now`), printouts and results arrive."""

from __future__ import annotations

import asyncio
import email
import time
from dataclasses import replace
from datetime import datetime
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from maild.app import App
from maild.clock import Clock
from maild.config import parse_config
from maild.daemon import Daemon
from maild.db import Database, upgrade
from maild.mail.factory import make_inbox, make_sender
from tests.conftest import config_dict
from tests.servers import Dovecot, SmtpPeer

ROME = ZoneInfo("Europe/Rome")
MORNING = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)


def imap_app(tmp_path: Path, db_url: str, setup: Path, dovecot: Dovecot, peer: SmtpPeer) -> App:
    data = config_dict(tmp_path, db_url, setup)
    data["mail"]["inbound"] = {"kind": "imap", "host": dovecot.host, "port": dovecot.port, "tls": False,
                               "user": "gm", "password": dovecot.users["gm"], "folder": "INBOX"}
    data["mail"]["outbound"] = {"kind": "smtp", "host": peer.host, "port": peer.port, "tls": False,
                                "starttls": False, "from": "gm@example.org"}
    config = parse_config(data, tmp_path, None)
    db = Database(config.database_url)
    upgrade(db.engine)
    return App(config=config, db=db, clock=Clock(MORNING, frozen=True))


def run_pass(app: App, at: datetime) -> None:
    app.clock = Clock(at, frozen=True)
    asyncio.run(Daemon(app, make_inbox(app.config, once=True), make_sender(app.config),
                       status_line=False).run(once=True))


def received(peer: SmtpPeer) -> list[tuple[list[str], EmailMessage]]:
    """What the peer got, without the players' welcomes (mailed when the first pass creates the game)."""
    mails = [(m.rcpt_tos, email.message_from_bytes(m.content, policy=default))  # type: ignore[misc]
             for m in peer.received]
    return [(r, m) for r, m in mails if "] welcome, " not in str(m["Subject"])]


def order_mail(sender: str, body: str, n: int, to: str = "gm@example.org", subject: str = "bids") -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <e2e-{n}@example.org>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode()


@pytest.mark.imap
def test_players_bid_over_imap_and_get_acks_and_printouts_over_smtp(
        tmp_path: Path, db_url: str, venice_setup: Path, dovecot: Dovecot, smtp_peer: SmtpPeer) -> None:
    app = imap_app(tmp_path, db_url, venice_setup, dovecot, smtp_peer)
    dovecot.deliver("gm", order_mail("alice@example.org", "borrow 300$\nbid 30$ for 2 of silk tax", 1),
                    date=MORNING)
    dovecot.deliver("gm", order_mail("Bob <BOB@example.org>", "#venice1 bob sesame\nborrow 200$\n"
                                     "bid 45$ for 1 of exile competitor", 2, to="gm+venice1@example.org"),
                    date=MORNING)
    dovecot.deliver("gm", order_mail("carol@example.net", "bid 25$ for 1 of silk tax\nbid 10$ for 9 of silk tax",
                                     3, subject="[venice1] orders"), date=MORNING)
    run_pass(app, MORNING)

    acks = received(smtp_peer)
    assert sorted(r[0] for r, _ in acks) == ["alice@example.org", "bob@example.org", "carol@example.net"]
    carol = next(m for r, m in acks if r == ["carol@example.net"]).get_content()
    # 9 units of silk tax are more than the 2 offered: refused at intake, with the line named.
    assert "line 2: bid 10$ for 9 of silk tax" in carol
    # Stored mails are flagged seen on the server; nothing is fetched twice.
    assert all("\\Seen" in flags for flags in dovecot.list_flags("gm").values())
    run_pass(app, MORNING.replace(hour=12))
    assert len(received(smtp_peer)) == 3

    run_pass(app, MORNING.replace(hour=17, minute=16))
    mails = received(smtp_peer)[3:]
    subjects = sorted(str(m["Subject"]) for _, m in mails)
    assert subjects == sorted([f"[venice1] turn 1 printout for {p}" for p in ("alice", "bob", "carol")]
                              + ["[venice1] turn 1 newsletter"])
    # One newsletter, every player a recipient of the same SMTP transaction, none named in its headers.
    [(readers, _)] = [(r, m) for r, m in mails if "newsletter" in str(m["Subject"])]
    assert sorted(readers) == ["alice@example.org", "bob@example.org", "carol@example.net"]
    printouts = {r[0]: m.get_content() for r, m in mails if "printout" in str(m["Subject"])}
    # Alice: borrowed 300, paid 2 × 30 for silk tax → 240. Bob: 200 − 45 → 155. Carol won nothing: 0.
    assert "240" in printouts["alice@example.org"]
    assert "155" in printouts["bob@example.org"]
    newsletter = next(m for _, m in mails if "newsletter" in str(m["Subject"])).get_content()
    assert "silk tax" in newsletter and "alice" in newsletter


@pytest.mark.imap
def test_the_running_daemon_is_woken_by_idle_and_answers_at_once(
        tmp_path: Path, db_url: str, venice_setup: Path, dovecot: Dovecot, smtp_peer: SmtpPeer) -> None:
    """`maild run` (not --once) with a poll interval of ten minutes: only IMAP IDLE can make it answer
    a mail within seconds."""
    app = imap_app(tmp_path, db_url, venice_setup, dovecot, smtp_peer)
    app.config = replace(app.config, poll_interval=600)
    app.clock = Clock(MORNING)  # running from --now, not frozen

    async def scenario() -> float:
        daemon = Daemon(app, make_inbox(app.config), make_sender(app.config), status_line=False)
        task = asyncio.create_task(daemon.run())
        await asyncio.sleep(1.5)  # the first pass is done and the daemon idles
        start = time.monotonic()
        await asyncio.to_thread(dovecot.deliver, "gm", order_mail("alice@example.org", "bid 5$ for 1 of silk tax", 9),
                                date=MORNING)
        while not received(smtp_peer) and time.monotonic() - start < 20:
            await asyncio.sleep(0.1)
        elapsed = time.monotonic() - start
        daemon.stop()
        await asyncio.wait_for(task, 30)
        return elapsed

    elapsed = asyncio.run(scenario())
    assert [r for r, _ in received(smtp_peer)] == [["alice@example.org"]]
    assert elapsed < 10
