"""Press relayed by the game's address (issue 26, "Press"; docs/season.md): white and grey, replies back through
the relay, the GM's copy, the reply limits, a ruleset closing press, and never an address of another player in
any mail maild sends."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from maild.config import ReplyLimits
from maild.ruleset import register, unregister
from maild.testing import Table, sent, text_of
from tests import rps_game  # noqa: F401 - registers rps
from tests.rps_game import EXAMPLE_SETUP, RockPaperScissors

ADDRESSES = {"ann": "ann@example.org", "bob": "bob@example.org", "cat": "cat@example.org"}
BOB = "#rps1 bob sesame\n"  # bob's mails carry his password line


def setup() -> dict[str, Any]:
    return copy.deepcopy(EXAMPLE_SETUP)


@pytest.fixture
def table_of(tmp_path: Path, db_url: str) -> Iterator[Any]:
    tables: list[Table] = []

    def make(press: str) -> Table:
        table = Table(tmp_path, db_url=db_url)
        table.create_game("rps1", "rps", setup(), options={"press": press})
        table.intake()
        tables.append(table)
        return table

    yield make
    for t in tables:
        t.close()


def to(mails: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in mails if str(m["To"]) == address]


def whole(mail: EmailMessage) -> str:
    """Every header and the text of a mail, as a reader could see them."""
    return "\n".join(f"{k}: {v}" for k, v in mail.items()) + "\n" + text_of(mail)


def assert_no_leak(table: Table) -> None:
    """No mail to a player names another player's address, in a header or in its text."""
    for mail in sent(table.app, welcomes=True):
        reader = str(mail["To"])
        if reader not in ADDRESSES.values():
            continue  # the GM's copies name everyone: he knows them
        for address in ADDRESSES.values():
            if address != reader:
                assert address not in whole(mail).lower(), (reader, address, whole(mail))


def test_white_press_is_signed_relayed_copied_to_the_gm_and_answered_back(table_of: Any) -> None:
    table = table_of("white")
    table.send("ann@example.org", "PRESS TO bob\nBob, shall we both throw rock?\nAnn (ann@example.org)")
    mails = table.intake()
    [relayed] = to(mails, "bob@example.org")
    assert str(relayed["Subject"]) == "[rps1] press from ann"
    assert "Bob, shall we both throw rock?" in text_of(relayed)
    assert "Ann ([address removed])" in text_of(relayed)  # his own signature's address is blanked too
    [ack] = to(mails, "ann@example.org")
    assert "relayed to bob, signed \"ann\"" in text_of(ack)
    [copy_] = to(mails, "referee@example.org")
    assert "From: ann" in text_of(copy_) and "To: bob" in text_of(copy_)
    assert not to(mails, "cat@example.org")
    # bob answers the relayed mail: In-Reply-To names it, and it goes back to ann, signed bob.
    table.send("bob@example.org", BOB + "Only if you go first.", subject="Re: [rps1] press from ann",
               headers={"In-Reply-To": str(relayed["Message-ID"])})
    mails = table.intake()
    [back] = to(mails, "ann@example.org")
    assert str(back["Subject"]) == "[rps1] reply to your press, from bob"
    assert "Only if you go first." in text_of(back)
    [ack] = to(mails, "bob@example.org")
    assert "relayed to ann" in text_of(ack)
    # ann's reply to that goes back to bob: every relayed mail is answerable.
    table.send("ann@example.org", "Deal.", subject="Re: reply", headers={"In-Reply-To": str(back["Message-ID"])})
    [again] = to(table.intake(), "bob@example.org")
    assert "Deal." in text_of(again)
    assert_no_leak(table)


def test_grey_press_to_all_is_signed_someone_and_its_reply_does_not_name_the_author(table_of: Any) -> None:
    table = table_of("grey")
    table.send("ann@example.org", "press to all\nWatch out for cat.")
    mails = table.intake()
    relayed = to(mails, "bob@example.org") + to(mails, "cat@example.org")
    assert len(relayed) == 2
    for mail in relayed:
        assert str(mail["Subject"]) == "[rps1] press from someone"
        assert "ann" not in whole(mail).lower()
        assert "Watch out for cat." in text_of(mail)
    [copy_] = to(mails, "referee@example.org")
    assert "From: ann" in text_of(copy_)  # the GM knows who wrote it
    bob_copy = to(mails, "bob@example.org")[0]
    table.send("bob@example.org", BOB + "Who is this?", subject="Re: press",
               headers={"References": str(bob_copy["Message-ID"])})
    mails = table.intake()
    [back] = to(mails, "ann@example.org")
    assert "Who is this?" in text_of(back) and "from someone" in str(back["Subject"])
    [ack] = to(mails, "bob@example.org")
    assert "ann" not in text_of(ack).lower()  # bob is told it went back, not to whom
    assert "the author of the press you answered" in text_of(ack)
    assert_no_leak(table)


def test_a_game_without_press_refuses_it_and_relays_nothing(table_of: Any) -> None:
    table = table_of("none")
    table.send("ann@example.org", "PRESS TO bob\nhello")
    mails = table.intake()
    assert not to(mails, "bob@example.org")
    [ack] = to(mails, "ann@example.org")
    assert "was not relayed: rps1 has no press" in text_of(ack)


def test_unknown_names_are_said_and_the_others_get_it(table_of: Any) -> None:
    table = table_of("white")
    table.send("ann@example.org", "PRESS TO bob, zed\nhello")
    mails = table.intake()
    assert len(to(mails, "bob@example.org")) == 1
    [ack] = to(mails, "ann@example.org")
    assert "No player of rps1 is called zed" in text_of(ack)


def test_press_is_bounded_by_the_reply_limits(table_of: Any) -> None:
    table = table_of("white")
    table.app.config = table.app.config.__class__(**{**table.app.config.__dict__,
                                                     "limits": ReplyLimits(replies_per_hour=2,
                                                                           replies_per_day=2)})
    for n in range(4):
        table.send("cat@example.org", f"PRESS TO bob\nspam {n}")
    mails = table.intake()
    assert len(to(mails, "bob@example.org")) == 2  # bob's caps stop the flood
    assert len([m for m in to(mails, "referee@example.org") if "press from cat" in str(m["Subject"])]) == 2


class Quiet(RockPaperScissors):
    """rps with press closed from turn 2 on."""

    name = "rpsquiet"

    def press_open(self, state: dict[str, Any], turn: int, phase: str | None) -> bool:
        return turn < 2


def test_a_ruleset_closes_press(tmp_path: Path) -> None:
    register(Quiet())
    try:
        with Table(tmp_path) as table:
            table.create_game("q1", "rpsquiet", setup(), options={"press": "white"})
            table.intake()
            table.send("ann@example.org", "PRESS TO bob\nturn one")
            assert len(to(table.intake(), "bob@example.org")) == 1
            table.run_turn("q1")
            table.send("ann@example.org", "PRESS TO bob\nturn two")
            mails = table.intake()
            assert not to(mails, "bob@example.org")
            assert "closed in this turn by the rules of the game" in text_of(to(mails, "ann@example.org")[0])
    finally:
        unregister("rpsquiet")
