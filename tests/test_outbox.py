"""The outbox queue: retries with growing pauses on temporary failures, GM told of permanent ones."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from maild.clock import Clock
from maild.mail.base import OutgoingMail, SendResult
from maild.mail.maildir import MaildirSender
from maild.models import OutboundMail
from maild.outbox import next_pause, queue_mail, send_due
from tests.conftest import make_app

T0 = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


class ScriptedSender:
    """Answers each send with the next scripted result (a unit-test double; the real peers are in
    test_smtp.py and the end-to-end tests)."""

    def __init__(self, results: list[SendResult]) -> None:
        self.results = results
        self.sent: list[OutgoingMail] = []

    async def send(self, mail: OutgoingMail) -> SendResult:
        self.sent.append(mail)
        return self.results.pop(0)

    async def close(self) -> None:
        pass


async def run_db(fn, *args):
    return fn(*args)


def test_pauses_double_up_to_an_hour() -> None:
    assert [next_pause(n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert next_pause(20) == timedelta(hours=1)


def test_queue_is_idempotent_per_key(tmp_path: Path, db_url: str) -> None:
    app = make_app(tmp_path, db_url, T0)
    with app.db.session() as s:
        assert queue_mail(s, app, key="k1", kind="ack", to=["a@example.org"], subject="s", body="b")
        assert queue_mail(s, app, key="k1", kind="ack", to=["a@example.org"], subject="s", body="b") is False


def test_temporary_failure_is_retried_then_sent(tmp_path: Path, db_url: str) -> None:
    app = make_app(tmp_path, db_url, T0)
    with app.db.session() as s:
        queue_mail(s, app, key="k1", kind="printout", to=["a@example.org"], subject="s", body="b")
    sender = ScriptedSender([SendResult("temporary", "451 try later"), SendResult("sent")])
    assert asyncio.run(send_due(app, sender, run_db)) == (0, 0)
    # Not due again until the pause is over.
    app.clock = Clock(T0 + timedelta(seconds=10), frozen=True)
    assert asyncio.run(send_due(app, sender, run_db)) == (0, 0)
    assert len(sender.sent) == 1
    app.clock = Clock(T0 + timedelta(seconds=31), frozen=True)
    assert asyncio.run(send_due(app, sender, run_db)) == (1, 0)
    with app.db.session() as s:
        row = s.query(OutboundMail).one()
        assert (row.status, row.attempts) == ("sent", 2)
    # Both attempts carried the same Message-ID: a resend is recognisable as the same mail.
    assert sender.sent[0].message_id == sender.sent[1].message_id


def test_permanent_failure_is_kept_and_reported_to_the_gm(tmp_path: Path, db_url: str) -> None:
    app = make_app(tmp_path, db_url, T0)
    with app.db.session() as s:
        queue_mail(s, app, key="k1", kind="printout", to=["gone@example.org"], subject="s", body="b")
    sender = ScriptedSender([SendResult("permanent", "550 no such user"), SendResult("sent")])
    assert asyncio.run(send_due(app, sender, run_db)) == (1, 1)  # the GM notice went out
    with app.db.session() as s:
        rows = {r.kind: r for r in s.query(OutboundMail)}
        assert rows["printout"].status == "failed"
        assert rows["printout"].last_error == "550 no such user"
        assert rows["gm"].recipients == ["referee@example.org"]
        assert b"gone@example.org" in rows["gm"].raw


def test_temporary_failures_give_up_after_two_days(tmp_path: Path, db_url: str) -> None:
    app = make_app(tmp_path, db_url, T0)
    with app.db.session() as s:
        queue_mail(s, app, key="k1", kind="ack", to=["a@example.org"], subject="s", body="b")
    app.clock = Clock(T0 + timedelta(days=2, seconds=1), frozen=True)
    sender = ScriptedSender([SendResult("temporary", "timeout"), SendResult("sent")])
    asyncio.run(send_due(app, sender, run_db))
    with app.db.session() as s:
        assert {r.kind: r.status for r in s.query(OutboundMail)} == {"ack": "failed", "gm": "sent"}


def test_maildir_sender_is_idempotent(tmp_path: Path) -> None:
    sender = MaildirSender(tmp_path / "out")
    mail = OutgoingMail("<x@example.org>", "gm@example.org", ["a@example.org"], b"Subject: x\r\n\r\nhi\r\n")
    assert asyncio.run(sender.send(mail)).status == "sent"
    assert asyncio.run(sender.send(mail)).status == "sent"
    files = list((tmp_path / "out" / "new").iterdir())
    assert len(files) == 1 and files[0].read_bytes() == mail.raw
