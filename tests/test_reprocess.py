"""`maild mail reprocess ID...|--errors`: intake again on stored mail, keeping its receipt sequence; refused,
exit 2 with one line, for an unknown mail or one whose orders are booked or that was answered."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from maild.intake import pipeline
from maild.intake.pipeline import process_new
from maild.intake.reprocess import RefusedReprocess, reprocess
from maild.intake.store import store_batch
from tests.conftest import write_gm_config
from tests.mailflow import count_turns, fetched, game_app, gm_command, gm_config

NOW = "2026-11-22T09:00+01:00"


@pytest.fixture
def gm(tmp_path: Path) -> Path:
    return gm_config(tmp_path, NOW)


def maild(config: Path, *args: str) -> int:
    return gm_command(config, NOW, *args)


def eml(folder: Path, name: str, sender: str, body: str) -> str:
    path = folder / f"{name}.eml"
    path.write_text(f"From: {sender}\nTo: gm@example.org\nSubject: {name}\nMessage-ID: <{name}@x>\n\n{body}\n")
    return str(path)


def broken_for(monkeypatch: pytest.MonkeyPatch, *subjects: str) -> None:
    """A bug in intake that mails with these subjects meet (until the test's monkeypatch is undone)."""
    real = pipeline.handle_orders

    def handle_orders(s, app, row, game, player, mail, run):  # type: ignore[no-untyped-def]
        if mail.subject in subjects:
            raise RuntimeError("a bug in intake")
        return real(s, app, row, game, player, mail, run)

    monkeypatch.setattr(pipeline, "handle_orders", handle_orders)


def rows(config: Path, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(config.parent / "maild.db") as db:
        return db.execute(query).fetchall()


def test_reprocess_reads_a_failed_mail_again_with_its_receipt_sequence(
        gm: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    broken_for(monkeypatch, "first")
    first = eml(gm.parent, "first", "alice@example.org", "bid 5$ for 1 of silk tax")
    second = eml(gm.parent, "second", "bob@example.org", "#venice1 bob sesame\nbid 7$ for 1 of silk tax")
    assert maild(gm, "mail", "ingest", first, second) == 0
    assert "mail 1: error" in capsys.readouterr().out
    monkeypatch.undo()  # the bug is mended
    assert maild(gm, "mail", "reprocess", "1") == 0
    assert capsys.readouterr().out == "mail 1: orders\n"
    # Booked with its own receipt sequence, before the mail that came after it.
    assert rows(gm, "SELECT mail_id, seq, turn, status FROM order_sets ORDER BY seq") == [
        (1, 1, 1, "accepted"), (2, 2, 1, "accepted")]
    assert rows(gm, "SELECT key FROM outbound_mails WHERE kind = 'ack' ORDER BY key") == [("ack:1",), ("ack:2",)]
    assert rows(gm, "SELECT id, status, note FROM inbound_mails WHERE id = 1") == [(1, "orders", None)]


def test_reprocess_errors_takes_every_mail_in_error(gm: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    broken_for(monkeypatch, "bad", "worse")
    maild(gm, "mail", "ingest", eml(gm.parent, "bad", "alice@example.org", "bid 5$ for 1 of silk tax"),
          eml(gm.parent, "good", "carol@example.net", "bid 6$ for 1 of silk tax"),
          eml(gm.parent, "worse", "bob@example.org", "#venice1 bob sesame\nbid 1$ for 1 of silk tax"))
    errors = [r[0] for r in rows(gm, "SELECT id FROM inbound_mails WHERE status = 'error' ORDER BY id")]
    assert errors == [1, 3]
    capsys.readouterr()
    monkeypatch.undo()
    assert maild(gm, "mail", "reprocess", "--errors") == 0
    assert capsys.readouterr().out == "".join(f"mail {i}: orders\n" for i in errors)
    assert rows(gm, "SELECT count(*) FROM inbound_mails WHERE status = 'error'") == [(0,)]
    assert maild(gm, "mail", "reprocess", "--errors") == 0
    assert capsys.readouterr().out == "no mail in error\n"


@pytest.mark.parametrize("args, reason", [
    (["99"], "maild: no mail 99\n"),
    (["1"], "maild: mail 1 has its orders booked for turn 1 already\n"),
    (["2"], "maild: mail 2 was answered already (command)\n"),
    (["3", "99"], "maild: no mail 99\n"),
    ([], "maild: mail reprocess: give mail ids or --errors (one of them)\n"),
    (["1", "--errors"], "maild: mail reprocess: give mail ids or --errors (one of them)\n"),
])
def test_reprocess_refuses_with_one_line(gm: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], args: list[str], reason: str) -> None:
    broken_for(monkeypatch, "broken")
    maild(gm, "mail", "ingest", eml(gm.parent, "orders", "alice@example.org", "bid 5$ for 1 of silk tax"),
          eml(gm.parent, "status", "carol@example.net", "STATUS"),
          eml(gm.parent, "broken", "carol@example.net", "bid 5$ for 1 of silk tax"))
    capsys.readouterr()
    assert maild(gm, "mail", "reprocess", *args) == 2
    assert capsys.readouterr().err == reason
    # Nothing was reset: the mail in error (3) stays so until the GM asks for it alone.
    assert rows(gm, "SELECT id, status FROM inbound_mails ORDER BY id") == [
        (1, "orders"), (2, "command"), (3, "error")]


def test_reprocess_on_sqlite_and_postgresql(tmp_path: Path, db_url: str, venice_setup: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        store_batch(app, [fetched(n) for n in range(3)])
        broken_for(monkeypatch, "bids 0")
        assert process_new(app) == {"orders": 2, "error": 1}
        monkeypatch.undo()
        assert [(r.id, r.status) for r in reprocess(app, [1])] == [(1, "orders")]
        assert count_turns(app, 1) == {1: 3}
        with pytest.raises(RefusedReprocess, match="mail 1 has its orders booked for turn 1 already"):
            reprocess(app, [1])
        assert reprocess(app, None) == []
    finally:
        app.db.close()


def test_reprocess_reads_again_a_mail_not_understood_whose_ack_was_held_back(tmp_path: Path) -> None:
    config = write_gm_config(tmp_path, outbox="out")
    config.write_text(config.read_text() + "\n[limits]\nreplies_per_hour = 1\n")
    assert maild(config, "init") == 0
    assert maild(config, "mail", "ingest", eml(tmp_path, "good", "alice@example.org", "bid 5$ for 1 of silk tax"),
                 eml(tmp_path, "bad", "alice@example.org", "bid lots for everything")) == 0
    # The second mail books its line not understood (for the printout), but its ack was held back by the cap.
    assert rows(config, "SELECT mail_id, status FROM order_sets ORDER BY mail_id") == [
        (1, "accepted"), (2, "not_understood")]
    assert rows(config, "SELECT key FROM outbound_mails WHERE kind = 'ack'") == [("ack:1",)]
    assert maild(config, "mail", "reprocess", "2") == 0
    assert rows(config, "SELECT mail_id, status FROM order_sets ORDER BY mail_id") == [
        (1, "accepted"), (2, "not_understood")]
