"""Hostile mail through the real intake (SQLite and PostgreSQL): control characters, MIME depth."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import select

from maild.intake.decode import decode_mail
from maild.models import InboundMail, OrderSetRow, OutboundMail
from tests.conftest import make_app
from tests.test_flow import drop, run_pass, sent

ROME = ZoneInfo("Europe/Rome")
MORNING = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)
CONTROLS = "".join(chr(c) for c in [*range(0, 9), 11, 12, *range(14, 32), 127, *range(0x80, 0xA0)])


def test_nul_and_controls_never_reach_the_database_or_a_header(tmp_path: Path, db_url: str,
                                                                 venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    raw = (b"From: Al\x00ice\x1b[31m <alice@example.org>\nTo: gm@example.org\n"
           b"Subject: my\x00 bids\x1b[2J =?utf-8?q?now=00=07=C2=85?=\nMessage-ID: <nul\x00@example.org>\n"
           b"Content-Type: text/plain; charset=utf-8\n\n"
           b"borrow 300$\x00\nbid 30$ for 2 of\x07 silk tax\x1b\n")
    drop(app, raw, MORNING)
    run_pass(app, MORNING)
    with app.db.session() as s:
        row = s.scalars(select(InboundMail)).one()
        assert row.status == "orders", row.note
        sets = s.scalars(select(OrderSetRow)).all()
        assert [o.status for o in sets] == ["accepted"]
        outs = s.scalars(select(OutboundMail).where(OutboundMail.kind != "welcome")).all()
        assert [o.kind for o in outs] == ["ack"]  # no GM notice of an error
        stored = [row.subject or "", row.sender or "", outs[0].subject, str(sets[0].orders)]
    [ack] = sent(app)
    written = [*stored, *(str(v) for v in ack.values())]
    assert not [w for w in written if any(c in CONTROLS for c in w)]
    assert ack["Subject"] == "Re: my bids[2J now [venice1]"  # ESC gone; the rest is harmless text


def _nested(depth: int) -> bytes:
    head = b"From: Alice <alice@example.org>\nTo: gm@example.org\nSubject: deep\nMIME-Version: 1.0\n"
    body = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i) for i in range(depth))
    body += b"Content-Type: text/plain\n\nbid 30$ for 2 of silk tax\n"
    body += b"".join(b"--b%d--\n" % i for i in reversed(range(depth)))
    return head + body


def test_mime_nested_1000_deep_is_answered_with_the_reason(tmp_path: Path, db_url: str,
                                                           venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    drop(app, _nested(1000), MORNING)
    run_pass(app, MORNING)
    with app.db.session() as s:
        row = s.scalars(select(InboundMail)).one()
        assert row.sender == "alice@example.org"  # was: "no sender address could be read"
    [ack] = sent(app)
    assert ack["To"] == "alice@example.org"
    assert "MIME nested deeper than 20 levels" in ack.get_content()


def test_mime_depth_limit_reads_what_is_within_it() -> None:
    shallow = decode_mail(_nested(15))
    assert shallow.text.strip() == "bid 30$ for 2 of silk tax"
    assert not [p for p in shallow.problems if "nested" in p]
    deep = decode_mail(_nested(25))
    assert deep.from_addr == "alice@example.org"
    assert "MIME nested deeper than 20 levels; the parts below were not read" in deep.problems
