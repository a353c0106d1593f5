"""A rerun says what changed (maild/corrections.py): `maild turn rerun GAME N --yes --mail` mails only the
players whose printout changed, the lines removed and added first, and the newsletter only if it changed; its
output names who was mailed and why, and who was not. Through the daemon (maild.testing.Table) with the tiny
game, on SQLite and PostgreSQL."""

from __future__ import annotations

import argparse
import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from maild.cli import cmd_turn
from maild.corrections import CHANGED_LINES, HEAD, RULE, changes, headed, text_without_head
from maild.models import OutboundMail, Snapshot
from maild.ruleset import PlacedOrder, TurnResult, register
from maild.testing import Table, text_of
from tests.rps_game import EXAMPLE_SETUP, RockPaperScissors


class PrivateScores(RockPaperScissors):
    """rps whose printout shows only the player's own throw and score (so a bonus to one player changes his
    printout alone), and whose GM bonus may correct a round that has run."""

    name = "rps_private"
    gm_orders = tuple(dataclasses.replace(spec, retroactive=True) for spec in RockPaperScissors.gm_orders)

    def resolve(self, state: dict[str, Any], turn: int, orders: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        result = super().resolve(state, turn, orders, rng)
        for name, printout in result.printouts.items():
            printout["sections"] = [printout["sections"][0],
                                    {"title": "Your score", "lines": [str(result.state["scores"][name])]}]
        return result


register(PrivateScores())

THROWS = {"ann@example.org": "throw rock", "bob@example.org": "#rps1 bob sesame\nthrow scissors",
          "cat@example.org": "throw paper"}


def _played_round(table: Table) -> None:
    table.create_game("rps1", "rps_private", EXAMPLE_SETUP, seed=7)
    table.intake()  # the welcomes
    for address, body in THROWS.items():
        table.send(address, body)
    table.intake()
    table.run_turn("rps1")


def _rerun(table: Table, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """`maild turn rerun rps1 1 --yes --mail`, then a pass that sends its mail; what the command printed."""
    capsys.readouterr()
    args = argparse.Namespace(turn_cmd="rerun", name="rps1", number=1, mail=True, yes=True)
    assert cmd_turn(table.app, args) == 0
    return capsys.readouterr().out.splitlines()


def test_only_the_changed_printout_is_mailed_with_its_changes_first(tmp_path: Path, db_url: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        _played_round(table)
        # Rock, scissors, paper: each wins one bout (2 points) and loses one.
        assert "Your score\n  2\n" in table.printout("rps1", 1, "cat")
        table.advance(hours=1)
        said = table.gm("rps1", "bonus", "cat", "5", "--turn", "1")
        assert "recorded for turn 1" in said
        out = _rerun(table, capsys)
        mails = table.intake()
        corrected = [m for m in mails if "(corrected)" in str(m["Subject"])]
        # cat's printout changed (2 + 5 = 7 points); ann's and bob's did not: they get nothing.
        assert sorted(str(m["Subject"]) for m in corrected) == ["[rps1] turn 1 newsletter (corrected)",
                                                                "[rps1] turn 1 printout for cat (corrected)"]
        cat = text_of(next(m for m in corrected if "printout" in str(m["Subject"])))
        head, _, printout = cat.partition(RULE)
        assert head == HEAD + "  -   2\n  +   7\n"
        assert "Your score\n  7" in printout
        letter = text_of(next(m for m in corrected if "newsletter" in str(m["Subject"])))
        assert letter.startswith(HEAD) and "  +   5 to cat: bonus\n" in letter.split(RULE)[0]
        assert out == ["rps1 turn 1: result changed",
                       "  mailed (printout changed): cat (2 lines)",
                       "  not mailed (printout unchanged): ann, bob",
                       "  newsletter: changed, mailed again to every player"]

        # A second correction is compared with the corrected mail, not with the first printout.
        table.advance(hours=1)
        table.gm("rps1", "bonus", "cat", "1", "--turn", "1")
        _rerun(table, capsys)
        again = table.intake()
        cat = text_of(next(m for m in again if "printout for cat" in str(m["Subject"])))
        assert cat.partition(RULE)[0] == HEAD + "  -   7\n  +   8\n"
        assert not [m for m in again if "printout for ann" in str(m["Subject"])]


def test_a_result_changed_in_state_only_mails_nobody(tmp_path: Path, db_url: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        _played_round(table)
        table.advance(hours=1)
        with table.app.db.session() as s:  # the stored state after the turn differs from what a rerun computes
            after = s.scalar(select(Snapshot).where(Snapshot.turn == 2))
            assert after is not None
            after.state = {**after.state, "played": []}
        out = _rerun(table, capsys)
        assert out == ["rps1 turn 1: result changed", "  mailed: nobody (no printout changed)",
                       "  not mailed (printout unchanged): ann, bob, cat",
                       "  newsletter: unchanged, not mailed again"]
        assert table.intake() == []
        with table.app.db.session() as s:
            assert not s.scalars(select(OutboundMail.key).where(OutboundMail.key.contains(":rerun:"))).all()


def test_the_changed_lines_by_hand() -> None:
    assert changes("a\nb\nc\n", "a\nB\nc\nd\n") == ["- b", "+ B", "+ d"]
    assert changes(None, "new\n") == ["+ new"]
    assert changes("same\n", "same\n") == []
    many = [f"+ line {n}" for n in range(CHANGED_LINES + 3)]
    text = headed("the printout\n", many)
    assert text.count("\n  + line") == CHANGED_LINES and "  ... and 3 more changed lines\n" in text
    assert text_without_head(text) == "the printout\n"
    assert text_without_head("no head\n") == "no head\n"
