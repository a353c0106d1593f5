"""A backlog in the IMAP inbox (Dovecot) when a deadline has passed: every mail that reached the server before
the deadline counts for that deadline's turn, however many were waiting (more than IMAP's `max_batch` of a
listing) and however many deadlines passed while the daemon was down."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, text

from maild.app import App
from maild.clock import Clock
from maild.config import parse_config
from maild.daemon import Daemon
from maild.db import Database, upgrade
from maild.mail.factory import make_inbox
from maild.mail.maildir import MaildirSender
from maild.models import Turn
from tests.conftest import config_dict
from tests.mailflow import count_turns, order_mail, sent
from tests.servers import Dovecot, _q

ROME = ZoneInfo("Europe/Rome")
DEADLINE_1 = datetime(2026, 11, 22, 17, 15, tzinfo=ROME)
DEADLINE_2 = datetime(2026, 11, 23, 17, 15, tzinfo=ROME)
BACKLOG = 1200  # more than two listings of IMAP's default max_batch (500)


def imap_app(tmp_path: Path, db_url: str, setup: Path, dovecot: Dovecot) -> App:
    data = config_dict(tmp_path, db_url, setup)
    data["mail"]["inbound"] = {"kind": "imap", "host": dovecot.host, "port": dovecot.port, "tls": False,
                               "user": "gm", "password": dovecot.users["gm"], "folder": "INBOX"}
    config = parse_config(data, tmp_path, None)
    db = Database(config.database_url)
    upgrade(db.engine)
    return App(config=config, db=db, clock=Clock(DEADLINE_1 - timedelta(hours=8), frozen=True))


def append_all(dovecot: Dovecot, mails: list[tuple[bytes, datetime]]) -> None:
    """APPEND each mail with its INTERNALDATE (when the server received it), over one connection."""
    with dovecot.imap("gm") as conn:
        for raw, date in mails:
            typ, data = conn.append(_q("INBOX"), None, date, raw)
            assert typ == "OK", data


def run_once(app: App, at: datetime) -> float:
    """`maild run --once` at `at`; the seconds it took."""
    app.clock = Clock(at, frozen=True)
    assert app.config.outbound.path is not None
    start = time.monotonic()
    asyncio.run(Daemon(app, make_inbox(app.config, once=True), MaildirSender(app.config.outbound.path),
                       status_line=False).run(once=True))
    return time.monotonic() - start


def bid_mail(n: int, item: str) -> bytes:
    return order_mail(n).replace(b"of silk tax", f"of {item}".encode())


@pytest.mark.imap
def test_a_backlog_bigger_than_a_listing_counts_for_the_deadline_it_came_before(
        tmp_path: Path, db_url: str, venice_setup: Path, dovecot: Dovecot, capsys: pytest.CaptureFixture[str]
) -> None:
    app = imap_app(tmp_path, db_url, venice_setup, dovecot)
    append_all(dovecot, [(order_mail(n), DEADLINE_1 - timedelta(hours=2)) for n in range(BACKLOG)])
    took = run_once(app, DEADLINE_1 + timedelta(minutes=1))  # the daemon starts a minute after the deadline
    with capsys.disabled():
        print(f"\n{BACKLOG} mails waiting, max_batch 500, {db_url.split(':')[0]}: one pass took {took:.1f} s")
    # Every mail reached the server before the deadline: all count for turn 1 (before: 700 for turn 2).
    assert count_turns(app, 1) == {1: BACKLOG}
    assert all("\\Seen" in flags for flags in dovecot.list_flags("gm").values())
    with app.db.session() as s:
        assert s.scalars(select(Turn.status).order_by(Turn.number)).all() == ["done", "open"]
        if app.db.engine.dialect.name == "postgresql":  # the backlog's statistics taken before intake read it
            analyzed = s.execute(text("SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'inbound_mails' "
                                      "AND schemaname = current_schema()")).scalar()
            assert analyzed is not None


@pytest.mark.imap
def test_down_across_two_deadlines_each_mail_counts_for_the_deadline_it_came_before(
        tmp_path: Path, db_url: str, venice_setup: Path, dovecot: Dovecot) -> None:
    app = imap_app(tmp_path, db_url, venice_setup, dovecot)
    # Each turn's auction offers other items: a bid counts where its item is offered.
    append_all(dovecot, [(bid_mail(n, "silk tax"), DEADLINE_1 - timedelta(hours=1)) for n in range(3)]
               + [(bid_mail(n, "senator"), DEADLINE_1 + timedelta(hours=1)) for n in range(3, 6)]
               + [(bid_mail(n, "swiss mercenaries"), DEADLINE_2 + timedelta(minutes=10)) for n in range(6, 9)])
    run_once(app, DEADLINE_2 + timedelta(minutes=30))

    # Mails 1-3 came before the first deadline, 4-6 between the two, 7-9 after the second.
    with app.db.session() as s:
        rows = s.execute(select(Turn.number, Turn.status).order_by(Turn.number)).all()
    assert [tuple(r) for r in rows] == [(1, "done"), (2, "done"), (3, "open")]
    assert {turn: count_turns(app, first) for first, turn in ((1, 1), (4, 2), (7, 3))} == \
        {1: {1: 3, 2: 3, 3: 3}, 2: {2: 3, 3: 3}, 3: {3: 3}}
    acks = {str(m["Subject"]): m.get_content() for m in sent(app) if str(m["Subject"]).startswith("Re: ")}
    # Late for a turn that had not run when it came, a mail is told so, as it was before.
    assert "it came after the deadline of turn 1, so it counts for turn 2" in acks["Re: bids 4 [venice1]"]
    assert "it came after the deadline of turn 2, so it counts for turn 3" in acks["Re: bids 7 [venice1]"]
    assert "came after the deadline" not in acks["Re: bids 1 [venice1]"]
