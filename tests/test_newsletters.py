"""Newsletters go to every player: they carry what the rules make public and never an address or an account.
Rendered as the turn renders them (maild/turn.py: the framework's game, turn, finished and next_deadline beside
the ruleset's context)."""

from __future__ import annotations

import random
from typing import Any

from maild.render import render
from maild.ruleset import GM_ORDERS, Order, OrderSet, PlacedOrder
from maild_rules.renaissance import RULESET as RENAISSANCE
from tests.renaissance_fixtures import small_state
from tests.test_venice_fixtures import new_game, newsletter_text, play, play_quiet_turns


def renaissance_newsletter(state: dict[str, Any], mails: list[tuple[str, str]] = (),
                           bulletin: str | None = None) -> str:
    orders: dict[str, list[PlacedOrder]] = {code: [] for code in state["players"]}
    for seq, (player, text) in enumerate(mails, start=1):
        parsed = RENAISSANCE.parse(text)
        assert parsed.diagnostics == []
        orders[player] += RENAISSANCE.effective([OrderSet(player, seq, parsed.orders)])
    if bulletin:
        orders[GM_ORDERS] = [PlacedOrder(Order(0, bulletin, "gm_bulletin", {"text": bulletin}, bulletin), 0)]
    result = RENAISSANCE.resolve(state, 1, orders, random.Random(1))
    return render("renaissance", "newsletter.txt.j2", game="ren1", turn=1, finished=False,
                  next_deadline="Tuesday 1 December 2026, 12:00", **result.newsletter)


def test_renaissance_newsletter_has_no_address_and_no_account() -> None:
    state = small_state()
    state["players"]["LMD"]["account"] = {"balance": 123.45, "history": []}
    text = renaissance_newsletter(state, [("LMD", "/LMD *MEDICI\n*Florence .0101\nWL0102\n")])
    for p in state["players"].values():
        assert p["email"] not in text
    assert "@" not in text and "123.45" not in text
    assert "ACCOUNT" not in text and "balance" not in text.lower() and "giglio" not in text  # LMD's password


def test_renaissance_newsletter_carries_the_months_public_news() -> None:
    # Piero's work of letters for Giovanni is public (works.py publishes it); the offices of the families'
    # personae (Piero sovereign of Florence and Pisa, Giovanni bishop of Florence, Andrea magistrate of Genoa);
    # prices: the cheapest grain is Pisa's at 2, the dearest demand for food Genoa's at 4 (the fixture's markets).
    text = renaissance_newsletter(small_state(), [("LMD", "/LMD *MEDICI\n*Florence .0101\nWL0102\n")])
    assert "produced a work of letters sponsored by" in text
    assert "A quiet month." not in text
    assert "Piero de' Medici (MEDICI .0101): sovereign of Florence, sovereign of Pisa" in text
    assert "Andrea Doria (DORIA .0201): magistrate of Genoa" in text
    assert "Francesco Valori" not in text  # a non-player magistrate: in the Florence location report only
    lines = text.splitlines()
    assert any(line.split()[:3] == ["grain", "2", "Pisa"] for line in lines)
    assert any(line.split()[:3] == ["food", "4", "Genoa"] for line in lines)


def test_a_quiet_month_only_when_nothing_public_happened() -> None:
    assert "A quiet month." in renaissance_newsletter(small_state())
    with_word = renaissance_newsletter(small_state(), bulletin="The conclave meets in Rome.")
    assert "The conclave meets in Rome." in with_word and "A quiet month." not in with_word


def test_venice_newsletter_has_no_address_and_no_loan_until_the_ranking() -> None:
    # alice borrows 300$ and wins 2 silk tax at 30$: her money (240$) and loan stay hers until the final
    # ranking; the newsletter shows the winning bids and holdings, which the rules make public.
    state = new_game()
    result = play(state, 1, [("alice", "borrow 300$\nbid 30$ for 2 of silk tax")])
    text = newsletter_text(result, 1)
    assert "@" not in text
    assert "alice won 2 at 30$ each (60$)" in text
    assert "240" not in text and "300" not in text and "borrow" not in text.lower() and "loan" not in text.lower()
    # After the closing auction the ranking, which the rules make the point of the game, is published.
    end = play(play_quiet_turns(result.state, 2, 6), 7, [])
    final = newsletter_text(end, 7)
    assert "@" not in final and "loan" in final
