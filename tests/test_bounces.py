"""Bounces (issue 22): a delivery status notification for mail maild sent is read (flufl.bounce and
maild/intake/dsn.py), recorded with the mail it returns, that mail marked `bounced`, the GM told once per player
a day, the player shown unreachable by `maild game list` until he writes again; and a bounce is never answered.
The bounces are tests/bounces/, after the formats Postfix, Exim, qmail and Gmail write."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path
from string import Template

import pytest
from sqlalchemy import Text, cast, func, select

from maild.app import App
from maild.cli import main
from maild.intake.dsn import read_bounce
from maild.models import Bounce, InboundMail, OutboundMail, Player
from maild.turn import run_turn
from tests.conftest import write_gm_config
from tests.mailflow import BEFORE, drop, game_app, mail, run_pass, sent

BOUNCES = Path(__file__).parent / "bounces"
OURS = "<maild.0123456789abcdef.a1b2c3d4e5f6@example.org>"
USER_UNKNOWN = "550 5.1.1 <carol@example.net>: Recipient address rejected: User unknown in virtual mailbox table"


def bounce(name: str, recipient: str = "carol@example.net", message_id: str = OURS, subject: str = "printout"
           ) -> bytes:
    text = (BOUNCES / name).read_text()
    return Template(text).substitute(recipient=recipient, message_id=message_id, subject=subject).encode()


@pytest.mark.parametrize("name, reason", [
    ("postfix-dsn.eml", USER_UNKNOWN),
    ("exim-dsn.eml", USER_UNKNOWN),
    ("exim-plain.eml", "550 5.1.1 <carol@example.net>... User unknown"),
    ("qmail.eml", "550 5.1.1 <carol@example.net>... User unknown"),
    ("gmail-dsn.eml", "550 5.1.1 The email account that you tried to reach does not exist. Please try "
                      "double-checking the recipient's email address for typos or unnecessary spaces. Learn more at "
                      "https://support.google.com/mail/?p=NoSuchUser 5b1f17b1804b1-40e4c1a2b3csi123456wmo.12 - gsmtp"),
])
def test_each_format_names_the_address_the_reason_and_our_mail(name: str, reason: str) -> None:
    report = read_bounce(bounce(name))
    assert [(f.address, f.permanent, f.reason) for f in report.failures] == [("carol@example.net", True, reason)]
    assert report.message_ids[0] == OURS


def test_a_delay_is_no_failure_for_good() -> None:
    report = read_bounce(bounce("postfix-delayed.eml"))
    assert [(f.address, f.permanent, f.reason) for f in report.failures] == [
        ("carol@example.net", False, "connect to mx.example.net[192.0.2.25]:25: Connection timed out")]
    assert report.permanent == []


def test_a_person_s_mail_is_no_bounce() -> None:
    assert read_bounce(mail("alice@example.org", "bid 5$ for 1 of silk tax", 1)).failures == []


# The flows: venice1 of tests/conftest.py, its players alice, bob (with a password) and carol@example.net.

def printout_sent(app: App) -> OutboundMail:
    """Turn 1 run by the GM and its mail sent; carol's printout."""
    assert run_turn(app, "venice1", force=True, number=1).status == "done"
    run_pass(app, BEFORE)
    with app.db.session() as s:
        row = s.scalars(select(OutboundMail).where(OutboundMail.key == "printout:venice1:1:carol")).one()
        assert row.status == "sent"
        s.expunge(row)
        return row


def outbound(app: App, key: str) -> tuple[str, str | None]:
    with app.db.session() as s:
        row = s.scalars(select(OutboundMail).where(OutboundMail.key == key)).one()
        return row.status, row.last_error


def inbound(app: App, mail_id: int) -> tuple[str, str | None]:
    with app.db.session() as s:
        row = s.get(InboundMail, mail_id)
        assert row is not None
        return row.status, row.note


def bounce_rows(app: App) -> list[tuple[object, ...]]:
    with app.db.session() as s:
        rows = s.execute(select(Bounce.address, Bounce.outbound_id, Bounce.mail_id, Bounce.player_id, Bounce.reason)
                         .order_by(Bounce.id)).all()
        return [tuple(r) for r in rows]


def player_id(app: App, name: str) -> int:
    with app.db.session() as s:
        found = s.scalar(select(Player.id).where(Player.name == name))
        assert found is not None
        return found


def notices(app: App, player: str) -> list[str]:
    return [m.get_content() for m in sent(app) if str(m["Subject"]) == f"[maild] venice1: mail to {player} bounced"]


def answers_to(app: App, address: str) -> int:
    with app.db.session() as s:
        return s.scalar(select(func.count()).where(cast(OutboundMail.recipients, Text).contains(address))) or 0


@pytest.mark.parametrize("name", ["postfix-dsn.eml", "exim-plain.eml"])
def test_a_printout_that_bounced(tmp_path: Path, db_url: str, venice_setup: Path, name: str) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        printout = printout_sent(app)
        mails_out = len(sent(app, welcomes=True))
        arrived = BEFORE + timedelta(minutes=30)
        drop(app, bounce(name, message_id=printout.message_id, subject=printout.subject), arrived)
        run_pass(app, arrived)
        reason = USER_UNKNOWN if name == "postfix-dsn.eml" else "550 5.1.1 <carol@example.net>... User unknown"
        assert inbound(app, 1) == ("bounce", f"bounce: carol@example.net ({reason}): printout:venice1:1:carol "
                                             "marked bounced")
        assert outbound(app, "printout:venice1:1:carol") == ("bounced", f"bounced: carol@example.net: {reason}")
        assert bounce_rows(app) == [("carol@example.net", printout.id, 1, player_id(app, "carol"), reason)]
        # The GM's notice is the one mail the bounce brought: nothing answers MAILER-DAEMON.
        assert len(sent(app, welcomes=True)) == mails_out + 1
        [notice] = notices(app, "carol")
        assert f"  reason:   {reason}\n" in notice
        assert f"  the mail: {printout.subject}\n            (printout:venice1:1:carol, sent " in notice
        assert "  bounce:   mail 1 (`maild mail show 1` shows it)\n" in notice
        assert answers_to(app, "mail.example.org") == answers_to(app, "mx.example.org") == 0
    finally:
        app.db.close()


@pytest.mark.parametrize("name", ["exim-dsn.eml", "qmail.eml"])
def test_an_ack_that_bounced(tmp_path: Path, db_url: str, venice_setup: Path, name: str) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        drop(app, mail("carol@example.net", "bid 5$ for 1 of silk tax", 1), BEFORE)
        run_pass(app, BEFORE)
        status, _ = outbound(app, "ack:1")
        assert status == "sent"
        with app.db.session() as s:
            ack = s.scalars(select(OutboundMail).where(OutboundMail.key == "ack:1")).one()
            message_id, subject = ack.message_id, ack.subject
        later = BEFORE + timedelta(minutes=5)
        drop(app, bounce(name, message_id=message_id, subject=subject), later)
        run_pass(app, later)
        assert inbound(app, 2)[0] == "bounce"
        status, error = outbound(app, "ack:1")
        assert status == "bounced" and error is not None and error.startswith("bounced: carol@example.net: 550 5.1.1")
        with app.db.session() as s:
            from maild.bounces import unreachable
            from maild.games import get_game

            assert [u.player for u in unreachable(s, get_game(s, "venice1"))] == ["carol"]
        # She writes again from her address: reachable, whatever the bounce said.
        drop(app, mail("carol@example.net", "bid 6$ for 1 of silk tax", 3), later + timedelta(minutes=5))
        run_pass(app, later + timedelta(minutes=5))
        with app.db.session() as s:
            assert unreachable(s, get_game(s, "venice1")) == []
    finally:
        app.db.close()


def test_a_delay_notice_marks_nothing(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        printout = printout_sent(app)
        arrived = BEFORE + timedelta(hours=4)
        drop(app, bounce("postfix-delayed.eml", message_id=printout.message_id), arrived)
        run_pass(app, arrived)
        assert inbound(app, 1) == ("auto", "bounce: carol@example.net delayed (connect to mx.example.net"
                                           "[192.0.2.25]:25: Connection timed out): the server still tries; "
                                           "nothing marked")
        assert outbound(app, "printout:venice1:1:carol") == ("sent", None)
        assert bounce_rows(app) == []
        assert notices(app, "carol") == []
    finally:
        app.db.close()


def test_a_bounce_for_an_address_never_mailed(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        printout_sent(app)
        arrived = BEFORE + timedelta(minutes=30)
        drop(app, bounce("backscatter.eml", recipient="someone@elsewhere.example",
                         message_id="<forged.1@spammer.example>"), arrived)
        run_pass(app, arrived)
        status, note = inbound(app, 1)
        assert status == "bounce"
        assert note == ("bounce: someone@elsewhere.example (550 5.1.1 <someone@elsewhere.example>: Recipient address "
                        "rejected: User unknown in virtual mailbox table): maild never mailed it and no player has "
                        "it; nothing marked")
        assert [r[:4] for r in bounce_rows(app)] == [("someone@elsewhere.example", None, 1, None)]
        with app.db.session() as s:
            assert s.scalar(select(func.count()).where(OutboundMail.status == "bounced")) == 0
        assert [m for m in sent(app) if "bounced" in str(m["Subject"])] == []
    finally:
        app.db.close()


def test_the_gm_hears_once_per_player_a_day(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = game_app(tmp_path, db_url, venice_setup)
    try:
        printout = printout_sent(app)
        for name, when in [("postfix-dsn.eml", BEFORE + timedelta(minutes=30)),
                           ("gmail-dsn.eml", BEFORE + timedelta(hours=2)), ("qmail.eml", BEFORE + timedelta(days=1))]:
            drop(app, bounce(name, message_id=printout.message_id), when)
            run_pass(app, when)
        assert len(bounce_rows(app)) == 3
        assert len(notices(app, "carol")) == 2  # the first day's two bounces, one notice; the next day's, one
        with app.db.session() as s:
            keys = s.scalars(select(OutboundMail.key).where(OutboundMail.key.like("gm:bounce:%"))
                             .order_by(OutboundMail.id)).all()
        assert keys == ["gm:bounce:venice1:carol:2026-11-22", "gm:bounce:venice1:carol:2026-11-23"]
    finally:
        app.db.close()


def test_game_list_shows_unreachable_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_gm_config(tmp_path, outbox="out")

    def maild(now: str, *args: str) -> int:
        return main(["--config", str(config), "--now", now, *args])

    assert maild("2026-11-22T09:00+01:00", "turn", "run", "venice1", "--turn", "1") == 0
    assert maild("2026-11-22T09:01+01:00", "run", "--once") == 0
    with sqlite3.connect(tmp_path / "maild.db") as db:
        [(message_id,)] = db.execute("SELECT message_id FROM outbound_mails WHERE key = 'printout:venice1:1:carol'")
    dsn = tmp_path / "dsn.eml"
    dsn.write_bytes(bounce("postfix-dsn.eml", message_id=message_id))
    assert maild("2026-11-22T09:30+01:00", "mail", "ingest", str(dsn)) == 0
    capsys.readouterr()
    assert maild("2026-11-22T09:31+01:00", "game", "list") == 0
    assert capsys.readouterr().out == (
        "venice1  venice  turn 2  deadline 2026-11-23T17:15+01:00 Europe/Rome  no orders from: alice, bob, carol  "
        f"unreachable: carol ({USER_UNKNOWN}, 2026-11-22)\n")
    assert maild("2026-11-22T09:31+01:00", "outbox", "list") == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split("  ", 1)[1] for line in listed] == [
        "bounced  printout    to carol@example.net  attempts 1  '[venice1] turn 1 printout for carol'  "
        f"bounced: carol@example.net: {USER_UNKNOWN}",
        "queued   gm          to gm@example.org  attempts 0  '[maild] venice1: mail to carol bounced'"]
    assert maild("2026-11-22T09:31+01:00", "game", "show", "venice1", "--json") == 0
    export = json.loads(capsys.readouterr().out)
    assert export["unreachable"] == {"carol": {"reason": USER_UNKNOWN, "since": "2026-11-22T08:30:00+00:00"}}
    assert maild("2026-11-22T09:31+01:00", "game", "show", "venice1") == 0
    assert f"unreachable (their mail bounced): carol ({USER_UNKNOWN}, 2026-11-22)\n" in capsys.readouterr().out


def test_bounces_of_hostile_size_are_read_in_linear_time() -> None:
    import time

    # A report whose notification is one line of a megabyte with no address in it, and one of many addresses.
    head = bounce("postfix-dsn.eml").split(b"This is the mail system", 1)[0]
    for filler in (b"a" * 1_000_000, b"x@y " * 250_000, b"550 " * 250_000):
        start = time.perf_counter()
        read_bounce(head + filler + b"\n")
        assert time.perf_counter() - start < 5.0

