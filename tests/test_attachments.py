"""Pictures a game attaches to its printouts and newsletters (`Ruleset.attachments`, maild/mail/compose.py):
a multipart/mixed mail whose text part is the plain mail's, each attachment in base64 beside it; a mail without
attachments stays the hand-written text/plain one, byte for byte."""

from __future__ import annotations

import email
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

import maild.mail.compose as compose_module
from maild.mail.compose import ATTACHMENT_BYTES, compose
from maild.models import OutboundMail, Snapshot
from maild.ruleset import Attachment, Ruleset, register, unregister
from maild.testing import Table
from maild.turn import NEWSLETTER_RECIPIENTS, rerun_turn
from tests.rps_game import EXAMPLE_SETUP, RockPaperScissors

# Any bytes behind the PNG signature do for a mail: nothing here decodes the picture.
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'
DATE = datetime(2026, 11, 22, tzinfo=UTC)


@pytest.fixture
def fixed_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Message-IDs without their random part, so that two composings of a mail can be compared byte for byte."""
    monkeypatch.setattr(compose_module.secrets, "token_hex", lambda n: "ab" * n)


def printout(**kw: Any) -> bytes:
    args: dict[str, Any] = dict(key="printout:g:1:ann", sender="gm@example.org", to=["ann@example.org"],
                                subject="[g] turn 1 printout for ann", body="Héllo = world\nline two\n",
                                date=DATE, auto_submitted="auto-generated")
    return compose(**{**args, **kw}).raw


def parsed(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=default)  # type: ignore[return-value]


def test_a_mail_without_attachments_is_the_plain_text_mail_of_before(fixed_ids: None) -> None:
    # The bytes maild wrote for this mail before attachments existed (its Message-ID's random part fixed).
    before = (b'From: gm@example.org\nTo: ann@example.org\nSubject: [g] turn 1 printout for ann\n'
              b'Date: Sun, 22 Nov 2026 00:00:00 +0000\n'
              b'Message-ID: <maild.b544bda76a647202.abababababab@example.org>\nAuto-Submitted: auto-generated\n'
              b'X-Auto-Response-Suppress: All\nMIME-Version: 1.0\nContent-Type: text/plain; charset="utf-8"\n'
              b'Content-Transfer-Encoding: quoted-printable\n\nH=C3=A9llo =3D world\nline two\n')
    assert printout() == before
    assert printout(attachments=()) == before and printout(attachments=[]) == before


def test_attachments_make_a_multipart_mail_with_the_same_text(fixed_ids: None) -> None:
    # A text that looks like a boundary, and ends without a newline: neither disturbs the parts.
    body = "Your map is below.\n--=_maild_0\n\nbye"
    raw = printout(body=body, attachments=[Attachment("map.png", "image/png", PNG),
                                           Attachment("map.svg", "image/svg+xml", SVG, inline=False)])
    mail = parsed(raw)
    assert mail.get_content_type() == "multipart/mixed" and mail.defects == []
    text = mail.get_body(("plain",))
    assert text is not None and text.get_content() == parsed(printout(body=body)).get_content() == body
    assert str(text["Content-Transfer-Encoding"]) == "quoted-printable"
    got = [(a.get_content_type(), a.get_filename(), a.get_content_disposition(), a.get_payload(decode=True))
           for a in mail.iter_attachments()]
    assert got == [("image/png", "map.png", "inline", PNG), ("image/svg+xml", "map.svg", "attachment", SVG)]
    ids = [str(a["Content-ID"]) for a in mail.iter_attachments()]
    assert len(set(ids)) == 2 and all(i.startswith("<") and i.endswith("@example.org>") for i in ids)
    # The headers above the parts are the plain mail's, but for its type.
    head = raw.split(b"\n\n", 1)[0].decode()
    plain_head = printout().split(b"\n\n", 1)[0].decode()
    assert head.split("\nMIME-Version")[0] == plain_head.split("\nMIME-Version")[0]
    assert raw.isascii()


def test_a_text_ending_in_a_newline_keeps_it_and_a_name_out_of_ascii_is_encoded() -> None:
    mail = parsed(printout(body="one\ntwo\n", attachments=[Attachment("carte été.png", "image/png", PNG)]))
    body = mail.get_body(("plain",))
    assert body is not None and body.get_content() == "one\ntwo\n"
    (picture,) = mail.iter_attachments()
    assert picture.get_filename() == "carte été.png" and picture.get_payload(decode=True) == PNG


def test_an_attachment_over_the_cap_or_of_no_type_is_a_rulesets_bug() -> None:
    with pytest.raises(ValueError, match="attachment 'huge.png' is 5242881 bytes, over the 5242880"):
        printout(attachments=[Attachment("huge.png", "image/png", b"\0" * (ATTACHMENT_BYTES + 1))])
    printout(attachments=[Attachment("big.png", "image/png", b"\0" * ATTACHMENT_BYTES)])  # at the cap: taken
    with pytest.raises(ValueError, match="'a picture' is not a MIME type"):
        printout(attachments=[Attachment("map.png", "a picture", PNG)])
    with pytest.raises(ValueError, match="needs a file name"):
        printout(attachments=[Attachment("map\n.png", "image/png", PNG)])


class Pictured(RockPaperScissors):
    """The tiny game, with a picture for each printout (his own) and one for the newsletter."""

    name = "rpspics"

    def __init__(self) -> None:
        self.asked: list[tuple[int, str | None, str | None]] = []

    def attachments(self, state: dict[str, Any], turn: int, phase: str | None, player: str | None,
                    context: dict[str, Any]) -> list[Attachment]:
        if not state["played"]:  # a welcome, before any turn (asked too: see the grand game's by-mail test)
            return []
        self.asked.append((turn, phase, player))
        assert context["sections"]  # the printout's or newsletter's own context
        assert state["played"][-1]["turn"] == turn  # the state after the turn
        who = player or "all"
        return [Attachment(f"round-{turn}-{who}.png", "image/png", PNG + who.encode())]


@pytest.fixture
def pictured() -> Iterator[Pictured]:
    game = register(Pictured())
    try:
        yield game
    finally:
        unregister(game.name)


def outbox(table: Table) -> dict[str, EmailMessage]:
    with table.app.db.session() as s:
        return {r.key: parsed(r.raw) for r in s.scalars(select(OutboundMail).where(
            OutboundMail.kind.in_(("printout", "newsletter"))))}


def picture(mail: EmailMessage) -> tuple[str | None, bytes]:
    (part,) = mail.iter_attachments()
    return part.get_filename(), part.get_payload(decode=True)  # type: ignore[return-value]


def test_a_turns_printouts_and_newsletter_carry_the_rulesets_pictures(tmp_path: Path, pictured: Pictured
                                                                      ) -> None:
    with Table(tmp_path) as table:
        table.create_game("pics", "rpspics", EXAMPLE_SETUP)
        table.send("ann@example.org", "throw rock")
        table.intake()
        table.run_turn("pics")
        mails = outbox(table)
        assert sorted(mails) == ["newsletter:pics:1:1", "printout:pics:1:ann", "printout:pics:1:bob",
                                 "printout:pics:1:cat"]
        for name in ("ann", "bob", "cat"):
            mail = mails[f"printout:pics:1:{name}"]
            assert str(mail["Subject"]) == f"[pics] turn 1 printout for {name}"
            body = mail.get_body(("plain",))
            assert body is not None and body.get_content() == table.printout("pics", 1, name)
            assert "pics: turn 1 printout for " + name in body.get_content()
            assert picture(mail) == (f"round-1-{name}.png", PNG + name.encode())
        letter = mails["newsletter:pics:1:1"]
        body = letter.get_body(("plain",))
        assert body is not None and body.get_content() == table.newsletter("pics", 1)
        assert picture(letter) == ("round-1-all.png", PNG + b"all")
        # The harness reads them from the mails sent, as a game's tests would.
        assert table.pictures("pics", 1, "bob") == [("round-1-bob.png", "image/png", PNG + b"bob")]
        assert table.pictures("pics", 1) == [("round-1-all.png", "image/png", PNG + b"all")]
        # Asked once per printout and once for the newsletter, with no phase (a game of one phase a turn).
        assert sorted(pictured.asked, key=str) == sorted([(1, None, "ann"), (1, None, "bob"), (1, None, "cat"),
                                                          (1, None, None)], key=str)

        # A rerun with --mail mails the corrected results with their pictures (to every player: the scores
        # before the turn are made different, so every printout and the newsletter change).
        table.advance(hours=1)
        assert [o.status for o in rerun_turn(table.app, "pics", 1, mail=True)] == ["same"]
        with table.app.db.session() as s:
            before = s.scalar(select(Snapshot).where(Snapshot.turn == 1))
            assert before is not None
            before.state = {**before.state, "scores": {"ann": 99, "bob": 50, "cat": 20}}
        assert [o.status for o in rerun_turn(table.app, "pics", 1, mail=True)] == ["changed"]
        corrected = {k: m for k, m in outbox(table).items() if ":rerun:" in k}
        assert sorted(k.split(":rerun:")[0] for k in corrected) == sorted(mails)
        for key, mail in corrected.items():
            assert picture(mail) == picture(mails[key.split(":rerun:")[0]])


def test_every_part_of_a_big_newsletter_carries_its_pictures(tmp_path: Path, pictured: Pictured) -> None:
    players = [{"name": f"p{n:02}", "email": f"p{n:02}@example.org"} for n in range(NEWSLETTER_RECIPIENTS + 1)]
    with Table(tmp_path) as table:
        table.create_game("crowd", "rpspics", {"rounds": 2, "players": players})
        table.run_turn("crowd")
        mails = outbox(table)
        parts = [mails["newsletter:crowd:1:1"], mails["newsletter:crowd:1:2"]]
        assert [picture(m) for m in parts] == [("round-1-all.png", PNG + b"all")] * 2
        assert sum(p is None for _t, _ph, p in pictured.asked) == 1  # computed once for both parts


def test_a_ruleset_that_keeps_the_default_is_never_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_args: object) -> list[Attachment]:
        raise AssertionError("the default attachments hook was called")

    monkeypatch.setattr(Ruleset, "attachments", never)  # the default is this function now: still skipped
    with Table(tmp_path) as table:
        table.create_game("plain", "rps", EXAMPLE_SETUP)
        table.run_turn("plain")
        mails = outbox(table)
        assert all(m.get_content_type() == "text/plain" for m in mails.values())
