"""The outbox queue: retries with growing pauses on temporary failures, GM told of permanent ones."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from maild.clock import Clock
from maild.mail import maildir
from maild.mail.base import OutgoingMail, SendResult
from maild.mail.maildir import MaildirSender
from maild.models import OutboundMail
from maild.outbox import expired, next_pause, queue_mail, send_due, waited_before
from tests.conftest import make_app
from tests.outbox_helpers import ScriptedSender, run_db

T0 = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


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


def test_expiry_counts_the_pauses_worked_out_by_hand() -> None:
    # Pauses after tries 1 to 7: 30, 60, 120, 240, 480, 960 and 1,920 s, together 3,810 s; after every later
    # try the longest, 3,600 s. Before try n (n >= 8) a mail has waited 3,810 + (n - 8) * 3,600 s, and two
    # days are 172,800 s:
    #   try 54: 3,810 + 46 * 3,600 = 169,410 s (47 h 3 min 30 s), under two days: retried once more;
    #   try 55: 3,810 + 47 * 3,600 = 173,010 s (48 h 3 min 30 s): a temporary failure there is the end.
    assert waited_before(1) == timedelta(0)
    assert waited_before(8) == timedelta(seconds=3_810)
    assert waited_before(54) == timedelta(seconds=169_410)
    assert waited_before(55) == timedelta(seconds=173_010)
    assert not expired(54) and expired(55)


def test_a_clock_step_of_three_days_fails_no_mail(tmp_path: Path, db_url: str) -> None:
    app = make_app(tmp_path, db_url, T0)
    with app.db.session() as s:
        queue_mail(s, app, key="k1", kind="ack", to=["a@example.org"], subject="s", body="b")
    sender = ScriptedSender([SendResult("temporary", "451 later")] * 3)
    asyncio.run(send_due(app, sender, run_db))
    app.clock = Clock(T0 + timedelta(seconds=30), frozen=True)
    asyncio.run(send_due(app, sender, run_db))  # tried twice
    app.clock = Clock(T0 + timedelta(days=3), frozen=True)  # the clock stepped three days ahead
    asyncio.run(send_due(app, sender, run_db))
    with app.db.session() as s:
        [row] = s.query(OutboundMail).all()  # no GM notice: nothing failed
        assert (row.status, row.attempts) == ("queued", 3)
        assert row.next_attempt_at == T0 + timedelta(days=3, seconds=120)


def test_the_55th_try_is_the_last(tmp_path: Path, db_url: str) -> None:
    app = make_app(tmp_path, db_url, T0)
    with app.db.session() as s:
        queue_mail(s, app, key="k1", kind="ack", to=["a@example.org"], subject="s", body="b")
        s.query(OutboundMail).update({"attempts": 53})  # as if tried for 46 h already
    sender = ScriptedSender([SendResult("temporary", "451 later"), SendResult("temporary", "451 later"),
                             SendResult("sent")])
    asyncio.run(send_due(app, sender, run_db))  # try 54
    with app.db.session() as s:
        row = s.query(OutboundMail).one()
        assert (row.status, row.attempts, row.next_attempt_at) == ("queued", 54, T0 + timedelta(hours=1))
    app.clock = Clock(T0 + timedelta(hours=1), frozen=True)
    asyncio.run(send_due(app, sender, run_db))  # try 55, and the GM's notice of it
    with app.db.session() as s:
        rows = {r.kind: r for r in s.query(OutboundMail)}
        assert (rows["ack"].status, rows["ack"].attempts) == ("failed", 55)
        assert rows["gm"].status == "sent"


def test_maildir_sender_is_idempotent(tmp_path: Path) -> None:
    sender = MaildirSender(tmp_path / "out")
    mail = OutgoingMail("<x@example.org>", "gm@example.org", ["a@example.org"], b"Subject: x\r\n\r\nhi\r\n")
    assert asyncio.run(sender.send(mail)).status == "sent"
    assert asyncio.run(sender.send(mail)).status == "sent"
    files = list((tmp_path / "out" / "new").iterdir())
    assert len(files) == 1 and files[0].read_bytes() == mail.raw


def test_maildir_sender_does_not_rewrite_a_mail_already_delivered(tmp_path: Path) -> None:
    # A re-delivery after a crash must leave the file the first delivery made (its inode) alone.
    sender = MaildirSender(tmp_path / "out")
    mails = [OutgoingMail(f"<m{i}@example.org>", "gm@example.org", ["a@example.org"], f"mail {i}\r\n".encode())
             for i in range(3)]
    asyncio.run(sender.send_batch(mails[:2]))
    inodes = {f.name: f.stat().st_ino for f in (tmp_path / "out" / "new").iterdir()}
    results = asyncio.run(sender.send_batch(mails))
    assert [r.detail == "already in the outbox Maildir" for r in results] == [True, True, False]
    after = {f.name: f.stat().st_ino for f in (tmp_path / "out" / "new").iterdir()}
    assert len(after) == 3 and all(after[name] == ino for name, ino in inodes.items())
    assert not list((tmp_path / "out" / "tmp").iterdir())


def test_maildir_sender_syncs_once_per_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    syncs: list[Path] = []
    real_sync = maildir.sync_filesystem
    monkeypatch.setattr(maildir, "sync_filesystem", lambda path: (syncs.append(path), real_sync(path)))
    sender = MaildirSender(tmp_path / "out")
    mails = [OutgoingMail(f"<m{i}@example.org>", "gm@example.org", ["a@example.org"], b"x\r\n") for i in range(50)]
    assert {r.status for r in asyncio.run(sender.send_batch(mails))} == {"sent"}
    assert len(syncs) == 1
    assert len(list((tmp_path / "out" / "new").iterdir())) == 50


def test_maildir_sender_reports_a_failed_sync_as_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(path: Path) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(maildir, "sync_filesystem", broken)
    sender = MaildirSender(tmp_path / "out")
    mail = OutgoingMail("<x@example.org>", "gm@example.org", ["a@example.org"], b"x\r\n")
    result = asyncio.run(sender.send(mail))
    assert result.status == "temporary" and "cannot sync" in result.detail
    # Nothing reached new/, so the retry writes it afresh.
    assert not list((tmp_path / "out" / "new").iterdir())


class CountingDb:
    """Runs database calls inline and names each, so a test can count them."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def __call__(self, fn, *args):
        self.calls.append(fn.__name__)
        return fn(*args)


def test_outbox_sends_and_records_in_batches(tmp_path: Path, db_url: str) -> None:
    app = make_app(tmp_path, db_url, T0)
    app.config = replace(app.config, send_batch=10)
    with app.db.session() as s:
        for i in range(25):
            queue_mail(s, app, key=f"k{i}", kind="ack", to=[f"p{i}@example.org"], subject=f"s{i}", body="b")
    run = CountingDb()
    sender = MaildirSender(tmp_path / "sent")
    assert asyncio.run(send_due(app, sender, run)) == (25, 0)
    assert run.calls.count("record_results") == 3  # 10 + 10 + 5, one transaction each
    assert run.calls.count("next_batch") == 4  # the fourth finds nothing more
    assert len(list((tmp_path / "sent" / "new").iterdir())) == 25
    with app.db.session() as s:
        rows = list(s.query(OutboundMail))
        assert {(r.status, r.attempts, r.sent_at) for r in rows} == {("sent", 1, T0)}
    # Nothing is due any more: a second pass sends nothing.
    assert asyncio.run(send_due(app, sender, run)) == (0, 0)


def test_a_batch_with_mixed_results_records_each_mail(tmp_path: Path, db_url: str) -> None:
    app = make_app(tmp_path, db_url, T0)
    with app.db.session() as s:
        for i in range(4):
            queue_mail(s, app, key=f"k{i}", kind="printout", to=[f"p{i}@example.org"], subject=f"s{i}", body="b")
    sender = ScriptedSender([SendResult("sent"), SendResult("temporary", "451 later"),
                             SendResult("permanent", "550 gone"),
                             SendResult("sent", "250 ok", {"x@example.org": "550 no"}),
                             SendResult("sent"), SendResult("sent")])  # the two GM notices
    assert asyncio.run(send_due(app, sender, run_db)) == (4, 1)
    with app.db.session() as s:
        rows = {r.key: r for r in s.query(OutboundMail)}
        assert [rows[f"k{i}"].status for i in range(4)] == ["sent", "queued", "failed", "sent"]
        assert rows["k1"].next_attempt_at == T0 + timedelta(seconds=30)
        assert rows["k3"].last_error == "refused: x@example.org: 550 no"
        assert sorted(k for k in rows if k.startswith("gm:")) == ["gm:failed:3", "gm:failed:4"]


def test_mails_delivered_in_one_second_are_read_in_delivery_order(tmp_path: Path) -> None:
    import os

    from maild.mail.maildir import MaildirInbox, deliver

    # Same mtime for all (as a test's drop or a restored backup gives): the names alone keep the order.
    paths = [deliver(tmp_path / "inbox", f"Subject: {n}\r\n\r\nx\r\n".encode()) for n in range(30)]
    for path in paths:
        os.utime(path, (1_700_000_000, 1_700_000_000))
    fetched = asyncio.run(MaildirInbox(tmp_path / "inbox").fetch_new())
    assert [m.raw.split(b"\r\n")[0] for m in fetched] == [f"Subject: {n}".encode() for n in range(30)]
