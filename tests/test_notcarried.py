"""A printout's "Orders not carried out" (maild/notcarried.py) from the player's side: what stood and failed,
each once, in the printout of the phase that ran it; not the lines a later mail put right."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conftest import make_app
from tests.mailcheck import long_prose_lines, repeated_lines, section
from tests.mailflow import ROME, by_subject, drop, mail, run_pass, sent
from tests.phasegame.flow import mails_to, make_phase_app, send
from tests.phasegame.game import installed

LONG = ("I think that we should all agree to bid moderately on the silk tax this time and not ruin each other "
        "as we did in the last game")


def test_a_line_a_later_mail_put_right_is_not_repeated_and_a_line_said_twice_is_listed_once(
        tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    morning = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)
    app = make_app(tmp_path, db_url, morning, venice_setup)
    # Alice misspells the item, reads the ack, and sends the bid again corrected: it wins.
    drop(app, mail("alice@example.org", "borrow 300$\nbid 35$ for 2 of silk tx\nI go big on silk", 1,
                   subject="first"), morning)
    drop(app, mail("alice@example.org", "bid 35$ for 2 of silk tax", 2, subject="second"), morning)
    # Carol's bid stands; then two mails that hold nothing readable, the same chatter in both.
    drop(app, mail("carol@example.net", "borrow 100$\nbid 25$ for 1 of silk tax", 3), morning)
    drop(app, mail("carol@example.net", "bid lots for everything\nsee you at the auction", 4, subject="more"),
         morning)
    drop(app, mail("carol@example.net", f"see you at the auction\nbid lots of gold\n{LONG}", 5, subject="again"),
         morning)
    drop(app, mail("bob@example.org", "#venice1 bob sesame\nbid 45$ for 1 of exile competitor", 6), morning)
    run_pass(app, morning)
    run_pass(app, morning.replace(hour=17, minute=16))

    alice = by_subject(sent(app), "turn 1 printout for alice").get_content()
    assert "35$ each for up to 2 of silk tax: won 2 for 70$" in alice
    assert "silk tx" not in alice and "I go big on silk" not in alice
    assert "Orders not carried out" not in alice
    carol = by_subject(sent(app), "turn 1 printout for carol").get_content()
    missed = section(carol, "Orders not carried out")
    assert "line 1: bid lots for everything" in missed and "line 2: bid lots of gold" in missed
    assert missed.count("see you at the auction") == 1
    assert repeated_lines(missed) == {}
    # Her long line is quoted whole, wrapped like the rest of the mail.
    assert LONG in " ".join(missed.split()) and long_prose_lines(carol) == []


@pytest.fixture
def twophase() -> Iterator[None]:
    with installed():
        yield


@pytest.mark.usefixtures("twophase")
def test_each_phase_s_printout_lists_what_that_phase_did_not_carry_out(tmp_path: Path, db_url: str) -> None:
    app = make_phase_app(tmp_path, db_url)
    nine = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    send(app, "alice", "pick 3\npick a card\npick a winner", nine)
    send(app, "bob", "pick 5", nine)
    send(app, "carol", "pick 7", nine)
    run_pass(app, nine)  # everyone picked: the morning closes early
    ten = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
    send(app, "alice", "guess bob 5\nguess who", ten)
    send(app, "bob", "guess alice 3", ten)
    run_pass(app, ten)
    run_pass(app, datetime(2026, 11, 21, 18, 0, tzinfo=UTC))

    morning = mails_to(app, "alice", "(morning)")[0].get_content()
    assert "line 2: pick a card\n      line 3: pick a winner\n          expected pick N" in morning
    assert morning.count("expected pick N") == 1 and "guess who" not in morning  # a reason once, for both
    afternoon = mails_to(app, "alice", "(afternoon)")[0].get_content()
    assert "line 2: guess who" in afternoon and "pick a card" not in afternoon
    assert "Orders not carried out" not in mails_to(app, "bob", "(afternoon)")[0].get_content()
