"""The tiny game of docs/writing-a-ruleset.md (tests/rps_game.py) by mail through maild.testing, on SQLite and
PostgreSQL: its rules worked by hand, its GM order and its mail command."""

from __future__ import annotations

import email
import random
from email.policy import default
from pathlib import Path

import pytest
from sqlalchemy import select

from maild.games import get_game, get_turn
from maild.gmcli import record
from maild.models import OutboundMail
from maild.testing import Table
from tests.rps_game import EXAMPLE_SETUP, THROWS


def test_a_round_scored_by_hand(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps", EXAMPLE_SETUP)
        table.send("ann@example.org", "throw paper\nthrow rock")  # the later throw of a mail stands
        table.send("bob@example.org", "#rps1 bob sesame\nthrow scissors")
        table.send("cat@example.org", "throw scissors")
        table.send("cat@example.org", "THROW Rock\nsay well played")  # a later mail's throw replaces the earlier
        table.intake()
        assert "line 1: throw paper\n      a later throw in this mail replaces this one" in table.ack("ann@example.org")
        table.run_turn("rps1")
        # Rule 2 with win 2, draw 1: ann rock v bob scissors, ann wins: ann 2. ann rock v cat rock, a draw: ann 3,
        # cat 1. bob scissors v cat rock, cat wins: cat 3. So ann 3, cat 3, bob 0 (equal scores by name).
        assert table.printout("rps1", 1, "bob").count("lost") == 2
        newsletter = table.newsletter("rps1", 1)
        assert "Standings\n  1. ann: 3\n  2. cat: 3\n  3. bob: 0\n" in newsletter
        assert "Said\n  cat: well played\n" in newsletter
        assert "Round 1 of 3\n  ann: rock\n  bob: scissors\n  cat: rock\n" in newsletter
        welcome = table.welcome("rps1", "bob")
        assert "The game\n  3 rounds; each round you meet ann, cat.\n  A win scores 2, a draw 1.\n" in welcome
        assert "Your orders for turn 1 are due: none set yet: the GM runs the turn." in welcome


def test_a_missing_throw_is_drawn_by_lot_from_the_turns_rng(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("rps1", "rps", EXAMPLE_SETUP)
        table.send("ann@example.org", "throw rock")
        table.send("cat@example.org", "throw rock")
        table.intake()
        table.run_turn("rps1")
        with table.app.db.session() as s:
            turn = get_turn(s, get_game(s, "rps1"), 1)
            assert turn is not None
            seed = turn.seed
        # Rule 3: bob sent nothing; his throw is the first draw of the turn's RNG (the only one: ann and cat threw).
        lot = random.Random(seed).choice(THROWS)
        assert f"  bob: {lot} (by lot)\n" in table.newsletter("rps1", 1)
        assert f"{lot} (drawn by lot: you sent no throw)" in table.printout("rps1", 1, "bob")


def test_the_gm_bonus_counts_in_the_round_it_was_given_for(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("rps1", "rps", EXAMPLE_SETUP)
        for who in ("ann", "cat"):
            table.send(f"{who}@example.org", "throw paper")
        table.send("bob@example.org", "#rps1 bob sesame\nthrow paper")
        table.intake()
        with table.app.db.session() as s:  # what `maild gm bonus rps1 CAT 5 --note "fair play"` does
            assert record(s, table.app, "rps1", "bonus", ["rps1", "CAT", "5", "--note", "fair play"]) == \
                "rps1: 5 bonus points to cat recorded for turn 1 (GM order 1)"
        table.run_turn("rps1")
        # Three papers: three draws, 1 point each per bout, 2 bouts each: 2 each; cat 2 + 5 = 7.
        newsletter = table.newsletter("rps1", 1)
        assert "The GM's bonuses\n  5 to cat: fair play\n" in newsletter
        assert "1. cat: 7\n  2. ann: 2\n  3. bob: 2\n" in newsletter


def test_scores_answers_with_the_standings_and_the_game_ends_after_its_rounds(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("rps1", "rps", {**EXAMPLE_SETUP, "rounds": 2})
        table.send("ann@example.org", "throw rock")
        table.send("cat@example.org", "throw scissors")
        table.send("bob@example.org", "#rps1 bob sesame\nthrow scissors")
        table.intake()
        table.run_turn("rps1")
        assert "Next deadline: " in table.newsletter("rps1", 1)
        table.send("cat@example.org", "scores")
        table.intake()
        # ann's rock beats both scissors: 4; bob and cat draw: 1 each.
        assert "rps1: SCORES (turn 2)\n\n  1. ann: 4\n  2. bob: 1\n  3. cat: 1\n" in table.ack("cat@example.org")
        table.run_turn("rps1")
        assert "The game is over." in table.newsletter("rps1", 2)


def test_the_frameworks_printout_repeats_what_was_not_understood(tmp_path: Path) -> None:
    # The tiny game has no printout template of its own: the framework's shows the orders not carried out.
    with Table(tmp_path) as table:
        table.create_game("rps1", "rps", EXAMPLE_SETUP)
        table.send("ann@example.org", "throw rock\nthrow lizard", subject="round one")
        table.intake()
        table.run_turn("rps1")
        printout = table.printout("rps1", 1, "ann")
        assert "Orders not carried out\n" in printout
        assert "line 2: throw lizard" in printout.split("Orders not carried out")[1]
        assert "Orders not carried out" not in table.printout("rps1", 1, "cat")


def test_a_failed_turns_mail_counts_only_the_gm_orders_still_pending(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from maild.gmcli import withdraw
    from maild.ruleset import load_ruleset
    from maild.turn import run_turn

    with Table(tmp_path) as table:
        table.create_game("rps1", "rps", EXAMPLE_SETUP)
        with table.app.db.session() as s:
            record(s, table.app, "rps1", "bonus", ["rps1", "cat", "5"])
            record(s, table.app, "rps1", "bonus", ["rps1", "ann", "2"])
        with table.app.db.session() as s:
            withdraw(s, table.app, 2)

        def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("no lots left")

        monkeypatch.setattr(load_ruleset("rps"), "resolve", broken)
        assert run_turn(table.app, "rps1", force=True).status == "failed"
        with table.app.db.session() as s:  # queued for the GM, not sent yet
            [raw] = s.scalars(select(OutboundMail.raw).where(OutboundMail.kind == "gm"))
        body = " ".join(email.message_from_bytes(raw, policy=default).get_content().split())  # type: ignore[attr-defined]
        assert "1 GM order is pending for this turn" in body  # the withdrawn bonus does not count
