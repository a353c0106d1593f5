"""RESEND and HISTORY by mail (issue 26): the last printout and newsletter sent again as they went, the game's
turns listed, a turn's newsletter sent again; each mail through the reply limits, none with another player's
address."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from maild.config import ReplyLimits
from maild.testing import Table, text_of
from tests.rps_game import EXAMPLE_SETUP

ADDRESSES = {"ann@example.org", "bob@example.org", "cat@example.org"}


def _only_own_address(table: Table) -> None:
    """No mail to a player names another player's address (the newsletter goes to all undisclosed)."""
    for mail in table.mails():
        to = str(mail["To"] or "")
        text = text_of(mail) + str(mail["Subject"]) + str(mail["Cc"] or "")
        for address in ADDRESSES - {to}:
            assert address not in text, (mail["Subject"], address)


def _play_two_turns(table: Table) -> None:
    table.create_game("rps1", "rps", EXAMPLE_SETUP)
    table.intake()
    table.send("ann@example.org", "throw rock\nsay first round")
    table.intake()
    table.run_turn("rps1")
    table.send("ann@example.org", "throw paper\nsay second round")
    table.intake()
    table.run_turn("rps1")


def test_resend_sends_the_last_printout_and_newsletter_again_as_they_went(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        _play_two_turns(table)
        table.send("ann@example.org", "RESEND")
        fresh = table.intake()
        subjects = sorted(str(m["Subject"]) for m in fresh)
        assert subjects == ["Re: orders [rps1]", "[rps1] turn 2 newsletter (sent again)",
                            "[rps1] turn 2 printout for ann (sent again)"]
        again = {str(m["Subject"]): m for m in fresh}
        assert text_of(again["[rps1] turn 2 printout for ann (sent again)"]) == table.printout("rps1", 2, "ann")
        assert text_of(again["[rps1] turn 2 newsletter (sent again)"]) == table.newsletter("rps1", 2)
        assert all(str(m["To"]) == "ann@example.org" for m in fresh)
        ack = table.ack("ann@example.org")
        assert "RESEND, your printout ([rps1] turn 2 printout for ann): sent again" in ack
        _only_own_address(table)


def test_history_lists_the_turns_and_resends_a_turns_newsletter(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        _play_two_turns(table)
        table.send("bob@example.org", "#rps1 bob sesame\nHISTORY")
        table.intake()
        ack = table.ack("bob@example.org")
        assert re.search(r"turn 1: ran \d{4}-\d\d-\d\d \d\d:\d\d UTC\n  turn 2: ran .*\n  turn 3: open", ack), ack
        table.send("bob@example.org", "#rps1 bob sesame\nhistory 1")
        fresh = table.intake()
        (letter,) = [m for m in fresh if str(m["Subject"]) == "[rps1] turn 1 newsletter (sent again)"]
        assert text_of(letter) == table.newsletter("rps1", 1)
        assert "first round" in text_of(letter)
        table.send("bob@example.org", "#rps1 bob sesame\nHISTORY 9")
        table.intake()
        assert "HISTORY 9: turn 9 has no newsletter (it has not run)." in table.ack("bob@example.org")
        # Not read as an order: nothing "not understood".
        assert "Not understood" not in table.ack("bob@example.org")
        _only_own_address(table)


def test_resend_is_bounded_by_the_reply_limits(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        _play_two_turns(table)
        table.app.config = replace(table.app.config, limits=ReplyLimits(replies_per_hour=3, replies_per_day=100))
        table.send("cat@example.org", "RESEND")
        table.intake()  # the printout, the newsletter and the ack: three
        table.send("cat@example.org", "RESEND")
        fresh = table.intake()
        assert [m for m in fresh if str(m["To"]) == "cat@example.org"] == []
        gm = [m for m in fresh if str(m["To"]) == "referee@example.org"]
        assert gm and "held back" in str(gm[0]["Subject"])
