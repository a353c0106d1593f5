"""No single mail or answer stops the daemon (issue 22).

The reproduction: a wrong-password mail whose refusal notice went out, read again with `maild mail reprocess`;
the next notice owed for it took the first one's outbox key, and from then on every pass failed on
`UNIQUE constraint failed: outbound_mails.key` and read no mail until the database was mended by hand. Now
an answer to a mail read again is a new mail with a key of its own (`badauth:1:2`), and a notice that cannot
be queued for any other reason is set aside (`failed` in `maild replies list`, the GM told once) while intake
goes on with the rest."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from maild.cli import main
from maild.intake import refusals
from maild.intake.reprocess import reprocess
from maild.models import InboundMail, OutboundMail, Reply
from tests.conftest import write_gm_config
from tests.mailflow import BEFORE, drop, game_app, mail, run_pass, sent

TODAY = "2026-11-22T09:00+01:00"
LATER = "2026-11-22T09:30+01:00"
TOMORROW = "2026-11-23T10:00+01:00"

NO_PASSWORD = "bid 5$ for 1 of silk tax"  # bob's game has a password, and this mail does not give it


def maild(config: Path, now: str, *args: str) -> int:
    return main(["--config", str(config), "--now", now, *args])


def eml(folder: Path, name: str, sender: str, body: str) -> str:
    path = folder / f"{name}.eml"
    path.write_text(f"From: {sender}\nTo: gm@example.org\nSubject: {name}\nMessage-ID: <{name}@x>\n\n{body}\n")
    return str(path)


def rows(config: Path, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(config.parent / "maild.db") as db:
        return db.execute(query).fetchall()


def test_a_wrong_password_mail_read_again_stops_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_gm_config(tmp_path, outbox="out")
    assert maild(config, TODAY, "init") == 0
    assert maild(config, TODAY, "mail", "ingest", eml(tmp_path, "nopass", "bob@example.org", NO_PASSWORD)) == 0
    assert maild(config, TODAY, "mail", "reprocess", "1") == 0
    capsys.readouterr()
    # A day later the notice owed for the mail read again goes out, and the pass goes on to the new mail.
    assert maild(config, TOMORROW, "mail", "ingest", eml(tmp_path, "later", "alice@example.org",
                                                         "bid 6$ for 1 of silk tax")) == 0
    assert capsys.readouterr().out.endswith("later.eml: mail 2: orders\n")
    assert maild(config, TOMORROW, "run", "--once") == 0
    assert rows(config, "SELECT key FROM outbound_mails WHERE key LIKE 'badauth:%' ORDER BY id") == [
        ("badauth:1",), ("badauth:1:2",)]
    assert rows(config, "SELECT status FROM replies WHERE kind = 'refusal' ORDER BY id") == [("queued",), ("told",),
                                                                                            ("queued",)]
    # And again the day after: nothing is owed, nothing fails.
    assert maild(config, "2026-11-24T10:00+01:00", "run", "--once") == 0


def test_the_reproduction_through_a_daemon_pass(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        drop(app, mail("bob@example.org", NO_PASSWORD, 1), BEFORE)
        run_pass(app, BEFORE)
        assert [(r.id, r.status) for r in reprocess(app, [1])] == [(1, "bad_password")]
        tomorrow = BEFORE + timedelta(days=1)
        drop(app, mail("alice@example.org", "bid 6$ for 1 of silk tax", 2), tomorrow)
        run_pass(app, tomorrow)
        with app.db.session() as s:
            assert s.scalar(select(InboundMail.status).where(InboundMail.id == 2)) == "orders"
            keys = s.scalars(select(OutboundMail.key).where(OutboundMail.key.like("badauth:%"))
                             .order_by(OutboundMail.id)).all()
        assert keys == ["badauth:1", "badauth:1:2"]
        refused = [m for m in sent(app) if "orders in your name were refused" in str(m["Subject"])]
        assert len(refused) == 2
    finally:
        app.db.close()


def test_a_notice_that_cannot_be_queued_is_set_aside(tmp_path: Path, db_url: str, venice_setup: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        drop(app, mail("bob@example.org", NO_PASSWORD, 1), BEFORE)
        drop(app, mail("bob@example.org", NO_PASSWORD, 2), BEFORE + timedelta(minutes=5))
        run_pass(app, BEFORE + timedelta(minutes=5))  # the first is told at once, the second batched

        def broken(*args: object) -> None:
            raise RuntimeError("the notice's template is broken")

        monkeypatch.setattr(refusals, "summary", broken)
        tomorrow = BEFORE + timedelta(days=1)
        drop(app, mail("alice@example.org", "bid 6$ for 1 of silk tax", 3), tomorrow)
        run_pass(app, tomorrow)
        run_pass(app, tomorrow + timedelta(hours=1))  # set aside once: not tried, nor told, again
        with app.db.session() as s:
            assert s.scalar(select(InboundMail.status).where(InboundMail.id == 3)) == "orders"
            failed = s.execute(select(Reply.mail_id, Reply.status, Reply.reason).where(Reply.kind == "refusal")
                               .order_by(Reply.id)).all()
            assert [tuple(r) for r in failed] == [
                (1, "queued", None),
                (2, "failed", "the notice could not be queued: RuntimeError: the notice's template is broken")]
        notices = [m for m in sent(app) if "a refusal notice to bob@example.org was set aside" in str(m["Subject"])]
        assert len(notices) == 1
        assert "(mails 2)" in notices[0].get_content()
    finally:
        app.db.close()


def test_replies_list_shows_a_notice_set_aside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    config = write_gm_config(tmp_path, outbox="out")
    assert maild(config, TODAY, "init") == 0
    assert maild(config, TODAY, "mail", "ingest", eml(tmp_path, "one", "bob@example.org", NO_PASSWORD),
                 eml(tmp_path, "two", "bob@example.org", NO_PASSWORD)) == 0

    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(refusals, "summary", broken)
    assert maild(config, TOMORROW, "run", "--once") == 0
    capsys.readouterr()
    assert maild(config, TOMORROW, "replies", "list") == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "2  2026-11-22 08:00  failed      refusal   to bob@example.org  mail 2  "
        "the notice could not be queued: RuntimeError: boom")
