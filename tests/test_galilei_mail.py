"""Galilei from the player's side (issue 23): what he mails and what he gets back, for the points the first
games by mail met: chaos's stand-in, the setup's choices and the starting cash, luck spent on a war or a mill,
the GM's luck corrections in the public history, the capitals in every printout, and the warnings in the ack
about an order the state already says will fail."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from maild.games import get_game, state_before
from maild.orderbook import players_without_orders
from maild.phases import state_after_phases
from maild.ruleset import SetupError
from maild.testing import Table
from maild_rules.galilei import RULESET, orders
from maild_rules.galilei import state as st
from tests.galilei_engine_fixtures import example_setup, new_state

PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank"]
# Turn order after BIDS (fewest first, ties by receipt): erin 0, frank 1, dave 2, bob 3, carol 4, alice 5.
BIDS = {"alice": "turn bid 5", "bob": "turn bid 3", "carol": "turn bid 4", "dave": "turn bid 2",
        "erin": "turn bid 0", "frank": "turn bid 1"}
OPENING = {"alice": "bid 12 for cards, 8 for capitals\nprefer capitals: Venice",
           "bob": "bid 10 for cards, 10 for capitals\nprefer capitals: Genoa",
           "carol": "bid 9 for cards, 9 for capitals\nprefer capitals: Barcelona",
           "dave": "bid 8 for cards, 7 for capitals\nprefer capitals: Paris",
           "erin": "bid 3 for cards, 6 for capitals\nprefer capitals: London",
           "frank": "bid 0 for cards, 5 for capitals\nprefer capitals: Hamburg"}


def address(name: str) -> str:
    return f"{name}@example.org"


def gm(table: Table, *argv: str) -> str:
    """A GM order for the game, as `maild gm WORD gal ARGS` records it."""
    return table.gm("gal", *argv)


def phase_state(table: Table) -> dict[str, Any]:
    with table.app.db.session() as s:
        game = get_game(s, "gal")
        return state_after_phases(s, game.id, game.turn) or state_before(s, game, game.turn)


def open_game(table: Table, setup: dict[str, Any] | str = "example:galilei") -> None:
    table.create_game("gal", "galilei", setup)
    table.intake()  # the welcomes


def play_bids(table: Table) -> None:
    for name in PLAYERS:
        table.send(address(name), f"{OPENING[name]}\n{BIDS[name]}")
    table.intake()


def play_shortage(table: Table, turn: int = 1) -> None:
    """erin 1st, frank 2nd, dave 3rd, bob 4th: numbers; carol 5th, alice 6th: sides, the other side in turn
    2 (rule 3.3's balance)."""
    sides = ("surplus", "shortage") if turn == 1 else ("shortage", "surplus")
    for name, text in {"erin": "number 2", "frank": "number 3", "dave": "number 4", "bob": "number 5",
                       "carol": sides[0], "alice": sides[1]}.items():
        table.send(address(name), text)
    table.intake()


# -- 3: luck spent on a war, on a mill; the GM's corrections ---------------------------------------------------------
def test_a_spend_on_a_war_is_refused_by_rule_3_7_with_the_figure_as_written(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        open_game(table)
        play_bids(table)
        play_shortage(table)
        table.send(address("alice"), "war against bob, spend 0.3889")
        table.intake()
        ack = table.ack(address("alice"))
        assert "spend 0.3889" in ack and "rule 3.7" in ack, ack
        assert "0 3889" not in ack and "at position 2" not in ack, ack  # no battle's hints for a war
    [d] = RULESET.check(new_state(), 1, "alice", orders.parse("war against bob, spend 0.3889").orders)
    assert d.rule == "3.7" and not d.warning


def test_a_clause_not_understood_is_quoted_as_written_with_the_orders_own_hints() -> None:
    [d] = orders.parse("war against Genoa, cities 3 2, bribe 0.25").diagnostics
    assert "'bribe 0.25' was not understood" in d.message and "'my modifier +2'" in d.message
    assert "position" not in d.message and "spend" not in d.message.split("e.g.")[1]


def test_a_mill_spend_written_as_an_amount_is_read_at_intake_and_rolled(tmp_path: Path) -> None:
    """3.9 "in the same conditions as the attacks": as a battle's spend, an amount is read as the steps it
    pays for (0.1667 is one step of 1/6), and one that pays for no whole steps is refused in the ack."""
    with Table(tmp_path) as table:
        open_game(table)
        gm(table, "luck", "alice", "-0.1667")  # posted as typed (GA-OQ-04)
        gm(table, "luck", "bob", "1/6")  # posted rounded: 0.1667, the cost of one step
        play_bids(table)
        play_shortage(table)
        table.send(address("alice"), "mill against bob, need 3, spend 0.15")
        table.intake()
        ack = table.ack(address("alice"))
        assert "0.15 is not the cost of whole steps of the mill: steps 1 for 0.1667" in ack, ack
        table.send(address("alice"), "mill against bob, need 3, spend 0.1667")
        for name in PLAYERS[1:]:
            table.send(address(name), "pass")
        table.intake()
        news = table.newsletter("gal", 1, "battles")
        assert "Wind/Watermill alice after taking a city from bob: needs 3 or less, chance 0.5000; spends " \
               "0.1667 (1 step, needs 4 or less" in " ".join(news.split()), news


def test_gm_corrections_are_in_the_public_history_and_a_typed_figure_leaves_no_remainder(tmp_path: Path) -> None:
    """Hand-worked: alice (6th, position 6) attacks frank and the roll decides; the GM then puts alice back
    to 0 by typing the four digits her printout shows. The history shows the battle's entries and the
    correction, and each score is the sum of the entries shown: alice's -0.4167 (lost: -30/72 = -0.41667,
    posted -0.4167) or +0.5833 (won: 42/72 = 0.58333, posted 0.5833), then the GM's opposite, 0.0000;
    exactly 0, so she may neither spend nor be spent against (GA-OQ-08), which a remainder of -0.00003 would
    hide. A correction of 0.15 (no number of 72nds, refused before GA-OQ-04 was read anew) is posted as
    written: frank's score is his battle's entry plus 0.1500, to the last digit."""
    with Table(tmp_path) as table:
        open_game(table)
        play_bids(table)
        play_shortage(table)
        table.send(address("alice"), "attack frank")
        for name in PLAYERS[1:]:
            table.send(address(name), "pass")
        table.intake()
        table.send(address("alice"), "card Stone-1")
        for name in PLAYERS[1:]:
            table.send(address(name), "pass")
        table.intake()
        shown = re.search(r"^\s*\d\s+alice\s+\S+\s+(-?\d\.\d{4})\s", table.printout("gal", 1, "alice", "cards"),
                          re.M)
        assert shown is not None and shown.group(1) in ("-0.4167", "0.5833")
        typed = shown.group(1).removeprefix("-") if shown.group(1).startswith("-") else "-" + shown.group(1)
        assert "recorded" in gm(table, "luck", "alice", typed, "--reason", "battle replayed")
        assert "recorded" in gm(table, "luck", "frank", "0.15", "--reason", "a typo in turn 1")
        for name in PLAYERS:
            table.send(address(name), BIDS[name])
        table.intake()
        printout = table.printout("gal", 2, "bob", "bids")
        assert re.search(r"^\s*\d\s+alice\s+\S+\s+0\.0000\s", printout, re.M), printout
        play_shortage(table, 2)
        printout = table.printout("gal", 2, "bob", "shortage")
        history = printout.split("History of rolls")[1]
        assert f"GM correction (battle replayed): alice {'+' if typed[0] != '-' else ''}{typed}" in \
            " ".join(history.split()), history
        assert "GM correction (a typo in turn 1): frank +0.1500" in " ".join(history.split()), history
        state = phase_state(table)
        assert Fraction(st.luck_ledger(state).balance("alice", st.LUCK)) == 0
        assert Fraction(st.luck_ledger(state).balance("frank", st.LUCK)) == -Fraction(shown.group(1)) + \
            Fraction("0.15")


# -- 5: warnings in the ack about an order the state says will fail --------------------------------------------------
def test_a_discard_without_master_art_is_accepted_with_a_warning(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        open_game(table)
        gm(table, "advances", "bob", "master_art")
        play_bids(table)
        play_shortage(table)
        for name in PLAYERS:
            table.send(address(name), "pass")
        table.intake()
        table.send(address("alice"), "card Stone-1\ndiscard Stone-1")
        table.send(address("bob"), "discard Stone-2")
        table.intake()
        ack = table.ack(address("alice"))
        assert "Please note" in ack and "you do not hold Master Art" in ack and "(rule 2)" in ack, ack
        assert "Master Art" not in table.ack(address("bob"))
    [d] = RULESET.check(new_state(), 1, "alice", orders.parse("discard Stone-1").orders)
    assert d.warning


# -- 4: who holds which capital, in every printout ------------------------------------------------------------------
def test_every_printout_and_newsletter_names_each_players_capital(tmp_path: Path) -> None:
    """Battles and wars are written by capital ("attack Genoa"): after the opening every phase's mail says who
    holds which, in the table of the players in turn order."""
    with Table(tmp_path) as table:
        open_game(table)
        play_bids(table)
        play_shortage(table)
        capitals = {"alice": "Venice", "bob": "Genoa", "carol": "Barcelona", "dave": "Paris", "erin": "London",
                    "frank": "Hamburg"}
        for text in (table.printout("gal", 1, "dave", "bids"), table.printout("gal", 1, "dave", "shortage"),
                     table.newsletter("gal", 1, "shortage")):
            for name, capital in capitals.items():
                assert re.search(rf"^\s*\d\s+{name}\s+{capital}\s", text, re.M), (name, text)


# -- 2: the setup's choices and the starting cash -------------------------------------------------------------------
def test_an_opening_bid_over_the_starting_cash_is_refused_in_the_ack_with_the_figures(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        open_game(table)  # the example setup: starting_cash = 40
        assert "may not exceed your starting cash of 40" in table.welcome("gal", "alice")
        table.send(address("alice"), "bid 500 for cards, 1 for capitals")
        table.intake()
        ack = table.ack(address("alice"))
        assert "the two bids together (501) are more than your starting cash (40)" in ack, ack
        assert "Orders on file" not in ack  # the bid is not filed
        table.send(address("alice"), "bid 30 for cards, 10 for capitals")
        table.intake()
        assert "more than your starting cash" not in table.ack(address("alice"))


def test_the_setup_chooses_the_most_first_ties_by_the_later_capital_choice_and_two_cards_each(
        tmp_path: Path) -> None:
    """fewest_first = false: the most tokens bought go first. ties = "capital choice": bob and carol both
    bid 3; in the opening bob chose his capital 1st and carol 2nd (their capital bids 10 and 9), so carol, who
    chose later, goes first. cards_each = 2: twelve cards drafted, two a player."""
    setup = example_setup() | {"fewest_first": False, "ties": "capital choice", "cards_each": 2}
    with Table(tmp_path) as table:
        open_game(table, setup)
        assert "the most tokens bought first; ties go to who chose his capital later" in \
            " ".join(table.welcome("gal", "bob").split())
        bids = {"alice": "turn bid 1", "bob": "turn bid 3", "carol": "turn bid 3", "dave": "turn bid 5",
                "erin": "turn bid 0", "frank": "turn bid 2"}
        for name in PLAYERS:
            table.send(address(name), f"{OPENING[name]}\n{bids[name]}")
        table.intake()
        state = phase_state(table)
        assert st.order(state) == ["dave", "carol", "bob", "frank", "alice", "erin"]
        assert all(len(hand) == 2 for hand in state["held"].values())
        news = " ".join(table.newsletter("gal", 1, "bids").split())
        assert "3rd bob: bid 3 (after carol by the later choice of capital)" in news, news


def test_a_setup_with_a_wrong_choice_is_refused_naming_it() -> None:
    setup = example_setup() | {"fewest_first": "no", "ties": "dice", "starting_cash": -5, "cards_each": 9}
    with pytest.raises(SetupError) as err:
        RULESET.new_game(setup)
    text = str(err.value)
    assert "fewest_first must be true" in text and "ties must be \"receipt\" or \"capital choice\"" in text
    assert "starting_cash must be a whole number >= 0" in text and "cards_each" in text


# -- 1: chaos: the stand-in answers for two seats, and the phase waits for both ---------------------------------------
def test_the_shortage_phase_waits_until_the_stand_in_has_answered_for_the_chaosed_seat(tmp_path: Path) -> None:
    """3.3 "In case of players chaosed, the player occupying a position 3 greater than him will act twice".
    carol (5th) is chaosed; frank (2nd) acts for her seat too (GA-OQ-23: 5 -> 2 counting round). His own
    number does not close the phase: the ack reminds him of carol's seat, the phase stays open, and only his
    "surplus for carol" (or for carol's capital) closes it, with the side he chose, not a drawn one."""
    with Table(tmp_path) as table:
        open_game(table)
        gm(table, "chaos", "carol")
        play_bids(table)
        printout = table.printout("gal", 1, "frank", "bids")
        assert "send number 1-6 (seat 2); shortage or surplus for carol (seat 5)" in \
            " ".join(printout.split()), printout
        for name, text in {"erin": "number 2", "frank": "number 3", "dave": "number 4", "bob": "number 5",
                           "alice": "shortage"}.items():
            table.send(address(name), text)
        table.intake()
        assert phase_state(table)["shortage"]["results"] == [], "closed before the chaosed seat was answered"
        ack = " ".join(table.ack(address("frank")).split())
        assert "you also act for carol this turn (seat 5, rule 3.3)" in ack, ack
        with table.app.db.session() as s:  # the reminders and `maild status` name him
            assert [p.name for p in players_without_orders(s, get_game(s, "gal"), 1)] == ["frank"]
        table.send(address("frank"), "surplus for Barcelona")  # carol's capital names her seat
        table.intake()
        news = " ".join(table.newsletter("gal", 1, "shortage").split())
        assert "5 carol (chaosed; frank acting): surplus" in news and "(no answer: drawn)" not in news, news


def test_a_gm_writes_a_negative_fraction_of_luck_as_it_is(tmp_path: Path) -> None:
    """`maild gm luck gal alice -7/72`: a figure, not an option; posted rounded half up, -0.0972 (GA-OQ-04),
    at the start of the open turn's first phase."""
    with Table(tmp_path) as table:
        open_game(table)
        said = gm(table, "luck", "alice", "-7/72", "--reason", "a roll misread")
        assert "recorded" in said, said
        play_bids(table)
        printout = table.printout("gal", 1, "bob", "bids")
        assert re.search(r"^\s*\d\s+alice\s+\S+\s+-0\.0972\s", printout, re.M), printout
