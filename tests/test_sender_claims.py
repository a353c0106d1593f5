"""Intake claimed per sender (maild/intake/claims.py, attempts.py, senders.py): one player's mails are read in
receipt order and never two at once by two processes; other senders' mails go on meanwhile."""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import func, insert, select, update

from maild.app import App
from maild.db import Database, alembic_config, upgrade
from maild.intake import attempts, pipeline
from maild.intake.senders import key_of_from, sender_key
from maild.intake.store import store_batch
from maild.mail.base import FetchedMail
from maild.models import InboundMail
from tests.conftest import answering_every_mail
from tests.dbfaults import fail_mail, transient_error
from tests.mailflow import BEFORE, game_app

ALICE = "alice@example.org"


def raw_from(sender: str, n: int, body: str = "bid 1$ for 1 of silk tax") -> bytes:
    return (f"From: {sender}\r\nTo: gm@example.org\r\nSubject: bids {n}\r\nMessage-ID: <s-{n}@example.org>\r\n\r\n"
            f"{body}\r\n").encode()


def fetched_from(sender: str, n: int, body: str = "bid 1$ for 1 of silk tax") -> FetchedMail:
    return FetchedMail(source="test", uidvalidity=1, uid=f"s-{n}", raw=raw_from(sender, n, body), arrived_at=BEFORE)


def test_the_sender_key_is_the_from_address_without_tag_in_lower_case() -> None:
    assert key_of_from("Alice <Alice+venice1@Example.ORG>") == ALICE
    assert key_of_from("alice@example.org (Alice), bob@example.org") == ALICE  # the first address
    assert sender_key(b"From: =?utf-8?q?J=C3=BCrgen?=\r\n <Juergen+x@Example.ORG>\r\n\r\nFrom: x@y\r\n") \
        == "juergen@example.org"  # folded, encoded name
    assert key_of_from("+x@example.org") == "+x@example.org"  # no local part left without the tag: kept whole
    assert key_of_from("Alice") is None
    assert key_of_from(None) is None
    assert sender_key(raw_from("Bob <BOB@example.org>", 1)) == "bob@example.org"
    assert sender_key(b"Subject: no sender\r\n\r\nhi\r\n") is None


def test_plan_carries_each_mails_sender() -> None:
    steps = list(attempts.plan([(1, 0, "a"), (2, 0, "b"), (3, 1, "a"), (4, 0, None), (5, 0, "a")], batch=50,
                               max_attempts=3))
    assert [(s.ids, s.senders, s.retry) for s in steps] == [
        ([1, 2], ("a", "b"), False), ([3], ("a",), True), ([4, 5], (None, "a"), False)]
    assert [s.senders for s in attempts.plan([(1, 0), (2, 0)], batch=1, max_attempts=3)] == [(), ()]


def test_a_sender_is_read_in_order(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    """A mail is begun only with every earlier mail of its sender still unread, whatever the other senders do;
    on both databases (the rule's subquery must see the rows as they were before the count)."""
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        ids = store_batch(app, [fetched_from(ALICE, 1), fetched_from(ALICE, 2), fetched_from(ALICE, 3),
                                fetched_from("carol@example.net", 4), fetched_from("Nobody", 5)])
        assert ids == [1, 2, 3, 4, 5]
        with app.db.session() as s:
            assert list(s.scalars(select(InboundMail.sender_key).order_by(InboundMail.id))) == [
                ALICE, ALICE, ALICE, "carol@example.net", None]
        step = attempts.Step([2, 3, 4, 5], senders=(ALICE, ALICE, "carol@example.net", None))
        assert attempts.in_turn(app, step) == ([4, 5], ("carol@example.net", None))  # alice's 1 comes first
        assert attempts.begin(app, [2, 3, 4]) == [4]  # under the claim, the count keeps the order too
        assert attempts.begin(app, [1, 2]) == [1, 2]  # earlier mails counted with them
        with app.db.session() as s:  # mail 3 left by a process that died on it: its count is 1 now
            s.execute(update(InboundMail).where(InboundMail.id.in_([1, 2])).values(status="orders"))
            s.execute(update(InboundMail).where(InboundMail.id == 3).values(attempts=1))
            s.execute(insert(InboundMail), [dict(source="test", uidvalidity=1, uid="later", raw=raw_from(ALICE, 6),
                                                 size=10, received_at=BEFORE, sender_key=ALICE)])
        assert attempts.begin(app, [3, 6]) == []  # 3 is not at the count the plan read, so 6 waits for it too
        assert attempts.begin(app, [3], seen=1) == [3]
    finally:
        app.db.close()


@pytest.mark.postgres
def test_two_intakes_racing_read_one_senders_twenty_mails_in_order_each_once(
        tmp_path: Path, pg_url: str, venice_setup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two intakes at once on one PostgreSQL database (threads, each with its own engine and claims' session),
    in batches of four over alice's 20 order mails among 20 strangers' mails, hers last in one batch and first in
    the next: alice's are read in receipt order, each once, and both intakes work. (With claims per mail, one
    intake read the first of a batch while the other had the last of the batch before in hand.)"""
    apps = [answering_every_mail(game_app(tmp_path / name, pg_url, venice_setup)) for name in ("a", "b")]
    try:
        mails = [fetched_from(ALICE, n, f"bid {n % 30 + 1}$ for 1 of silk tax") if n % 4 in (0, 3)
                 else fetched_from(f"stranger{n}@example.com", n, "hello") for n in range(40)]
        ids = store_batch(apps[0], mails)
        alices = [i for i, m in zip(ids, mails, strict=True) if m.raw.startswith(f"From: {ALICE}".encode())]
        assert len(alices) == 20
        monkeypatch.setattr(pipeline, "INTAKE_BATCH", 4)
        read: list[tuple[str, int]] = []
        lock = threading.Lock()
        real = pipeline.process_mail

        def noted(s, app, row, run, mail=None):  # type: ignore[no-untyped-def]
            with lock:
                read.append((threading.current_thread().name, row.id))
            time.sleep(0.02)  # long enough for the other intake to come by
            real(s, app, row, run, mail)

        monkeypatch.setattr(pipeline, "process_mail", noted)
        start = threading.Barrier(2)
        failed: list[BaseException] = []

        def unread(app: App) -> int:
            with app.db.session() as s:
                return s.scalar(select(func.count()).where(InboundMail.status == "new")) or 0

        def intake(app: App) -> None:
            try:
                start.wait()
                deadline = time.monotonic() + 120
                while unread(app) and time.monotonic() < deadline:
                    if not pipeline.process_new(app):
                        time.sleep(0.01)  # the rest is the other's, for now
            except BaseException as exc:
                failed.append(exc)

        threads = [threading.Thread(target=intake, args=(app,), name=name) for app, name in zip(apps, "ab",
                                                                                               strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=180)
        assert not failed, failed
        assert Counter(i for _name, i in read) == Counter(ids)  # every mail read once
        assert [i for _name, i in read if i in alices] == alices  # alice's in receipt order
        assert {name for name, _i in read} == {"a", "b"}  # both intakes read
        with apps[0].db.session() as s:
            rows = s.execute(select(InboundMail.id, InboundMail.status, InboundMail.attempts)).all()
        assert {r.id for r in rows if r.status == "orders"} == set(alices)
        assert {r.attempts for r in rows} == {1} and "new" not in {r.status for r in rows}
    finally:
        for app in apps:
            app.db.close()


def test_the_migration_gives_waiting_mail_its_sender(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'maild.db'}")
    try:
        command.upgrade(alembic_config(db.engine), "0014_substitutes")
        with db.engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO inbound_mails (source, uidvalidity, uid, raw, size, received_at, status, attempts) "
                "VALUES ('t', 1, '1', ?, 10, '2026-11-22 09:00:00', 'new', 0), "
                "('t', 1, '2', ?, 10, '2026-11-22 09:00:00', 'orders', 1)",
                (raw_from("Alice <Alice+x@Example.org>", 1), raw_from(ALICE, 2)))
        upgrade(db.engine)
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT uid, sender_key FROM inbound_mails ORDER BY id").all() == [
                ("1", ALICE), ("2", None)]  # only the mail intake has still to read
    finally:
        db.close()


def test_a_mail_left_unread_holds_back_its_senders_later_mails_of_the_batch(
        tmp_path: Path, db_url: str, venice_setup: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch that fails transiently is read one mail at a time; alice's first mail still fails (the database,
    not the mail): her later mails of the batch wait for it, carol's are read. The next pass reads alice's in
    order (before, her second and third were read before her first)."""
    app = answering_every_mail(game_app(tmp_path, db_url, venice_setup))
    try:
        store_batch(app, [fetched_from(ALICE, 1, "bid 3$ for 1 of silk tax"), fetched_from(ALICE, 2),
                          fetched_from("carol@example.net", 3), fetched_from(ALICE, 4)])
        real_handle_orders = pipeline.handle_orders
        fail_mail(monkeypatch, "bids 1", transient_error(db_url), times=1000)
        read: list[int] = []
        real = pipeline.process_mail

        def noted(s, app, row, run, mail=None):  # type: ignore[no-untyped-def]
            read.append(row.id)
            real(s, app, row, run, mail)

        monkeypatch.setattr(pipeline, "process_mail", noted)
        assert pipeline.process_new(app) == {"orders": 1, "retry": 3}
        with app.db.session() as s:
            assert dict(s.execute(select(InboundMail.id, InboundMail.status)).all()) == {
                1: "new", 2: "new", 3: "orders", 4: "new"}
        monkeypatch.setattr(pipeline, "handle_orders", real_handle_orders)
        read.clear()
        assert pipeline.process_new(app) == {"orders": 3}
        assert read == [1, 2, 4]
    finally:
        app.db.close()
