"""After the closing auction: interest, agendas realized in the best combination, repayment, ranking."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from maild_rules.venice import RULESET
from maild_rules.venice.ending import rank, realize
from maild_rules.venice.state import interest
from tests.venice_fixtures import ASSETS, money, new_game, play, play_quiet_turns

# --- interest: borrowed x rate x 7 days, simple, rounded half up to the dollar -----------------------------

@pytest.mark.parametrize(("borrowed", "rate", "due"), [
    (500, 0.05, 175),   # 500 x 0.05 x 7 = 175 exactly
    (100, 0.05, 35),    # 35 exactly
    (30, 0.05, 11),     # 10.50 -> 11 (half up; Python's round() would give 10)
    (50, 0.05, 18),     # 17.50 -> 18
    (333, 0.05, 117),   # 116.55 -> 117
    (1, 0.05, 0),       # 0.35 -> 0
    (10, 0.025, 2),     # 1.75 -> 2
    (5, 0.3, 11),       # 10.50 -> 11, although the float 0.3 is a hair below 3/10
    (500, 0, 0),
])
def test_interest(borrowed: int, rate: float, due: int) -> None:
    assert interest(borrowed, rate, 7) == due


def test_loan_and_interest_repaid_after_the_closing_auction() -> None:
    # Borrow 500$, buy nothing: 500 - 500 - 175 interest = -175$.
    state = play(new_game(), 1, [("alice", "borrow 500$")]).state
    state = play_quiet_turns(state, 2, 6)
    assert money(state)["alice"] == 500  # nothing is repaid before the end
    result = play(state, 7, [])
    assert money(result.state) == {"alice": -175, "bob": 0, "carol": 0}
    final = result.state["final"]["players"]["alice"]
    assert (final["money_after_auctions"], final["value"], final["repaid"], final["interest"], final["money"]) == (
        500, 0, 500, 175, -175)
    assert result.finished is True


# --- realizing agendas -----------------------------------------------------------------------------------

AGENDAS = [
    {"name": "silk tax", "value": 20, "force": 0, "popularity": 10, "influence": 20},
    {"name": "exile competitor", "value": 50, "force": 20, "popularity": 5, "influence": 10},
    {"name": "doge's favour", "value": 50, "force": 0, "popularity": 30, "influence": 0},
    {"name": "bridge of sighs", "value": 35, "force": 0, "popularity": 25, "influence": 0},
    {"name": "salt monopoly", "value": 30, "force": 10, "popularity": 0, "influence": 5},
    {"name": "carnival", "value": 5, "force": 0, "popularity": 0, "influence": 0},
]
LINEUPS = [{"silk tax": 1}] + [{"opera": 1}] * 5 + [{"exile competitor": 1}]


def game() -> dict[str, Any]:
    return new_game(agendas=AGENDAS, assets=ASSETS, lineups=LINEUPS)


def realized(holdings: dict[str, int]) -> tuple[dict[str, int], int]:
    result = realize(game(), holdings)
    return {r["agenda"]: r["copies"] for r in result["realized"]}, result["value"]


def test_best_combination_where_greedy_by_value_and_by_ratio_both_fail() -> None:
    # Resources: 2 opera (popularity 2 x 20 = 40) + 2 senators (popularity 2 x 5 = 10, influence 10):
    # popularity 50. Agendas held: 1 doge's favour (50$, popularity 30), 2 bridge of sighs (35$, popularity 25).
    # Greedy by value takes doge's favour (50$); 50 - 30 = 20 < 25, no bridge fits: 50$.
    # Greedy by value per resource also starts with doge's favour (50/30 = 1.67 > 35/25 = 1.4): 50$.
    # Best: both bridges, 25 + 25 = 50 <= 50 popularity, 35 + 35 = 70$.
    assert realized({"opera": 2, "senator": 2, "doge's favour": 1, "bridge of sighs": 2}) == (
        {"bridge of sighs": 2}, 70)


def test_best_combination_where_greedy_by_value_fails_over_three_resources() -> None:
    # Resources: 2 swiss mercenaries (force 2 x 10 = 20) + 2 senators (popularity 2 x 5 = 10, influence 10):
    # force 20, popularity 10, influence 10.
    # exile competitor (50$) needs force 20, popularity 5, influence 10: it fits, and then nothing else does.
    # 2 salt monopoly (30$ each) need force 2 x 10 = 20, influence 2 x 5 = 10: they fit together, 60$ > 50$.
    assert realized({"swiss mercenaries": 2, "senator": 2, "exile competitor": 1, "salt monopoly": 2}) == (
        {"salt monopoly": 2}, 60)


def test_resources_of_all_assets_and_copies_are_summed() -> None:
    # 2 swiss mercenaries (force 20), 1 opera (popularity 20), 2 spy networks (force 10, influence 30):
    # force 30, popularity 20, influence 30.
    # silk tax (0, 10, 20) + exile competitor (20, 5, 10) need (20, 15, 30): both fit, 20 + 50 = 70$.
    # A second silk tax would need popularity 25 and influence 50 in all: no.
    result = realize(game(), {"swiss mercenaries": 2, "opera": 1, "spy network": 2,
                              "silk tax": 2, "exile competitor": 1})
    assert result["resources"] == {"force": 30, "popularity": 20, "influence": 30}
    assert result["used"] == {"force": 20, "popularity": 15, "influence": 30}
    assert [(r["agenda"], r["copies"], r["value"]) for r in result["realized"]] == [
        ("silk tax", 1, 20), ("exile competitor", 1, 50)]
    assert result["unrealized"] == [{"agenda": "silk tax", "copies": 1}]
    assert result["value"] == 70


def test_each_copy_of_an_agenda_counts() -> None:
    # 2 silk tax need popularity 20, influence 40; 4 spy networks give influence 60, 1 opera popularity 20.
    assert realized({"silk tax": 2, "spy network": 4, "opera": 1}) == ({"silk tax": 2}, 40)
    # With 2 spy networks (influence 30) only one copy fits.
    assert realized({"silk tax": 2, "spy network": 2, "opera": 1}) == ({"silk tax": 1}, 20)


def test_agenda_without_costs_is_always_realized_and_assets_alone_give_nothing() -> None:
    assert realized({"carnival": 3}) == ({"carnival": 3}, 15)
    assert realized({"opera": 5}) == ({}, 0)


def test_realization_through_the_closing_auction() -> None:
    # Holdings as in the greedy test, set by hand before turn 7; alice buys nothing in the closing auction.
    state = play_quiet_turns(game(), 1, 6)
    state = copy.deepcopy(state)
    state["ledger"]["alice"]["holdings"] = {"opera": 2, "senator": 2, "doge's favour": 1, "bridge of sighs": 2}
    result = RULESET.resolve(state, 7, {"alice": [], "bob": [], "carol": []}, random.Random(0))
    assert money(result.state)["alice"] == 70  # 0 + 70 - 0 - 0
    assert result.printouts["alice"]["final"]["realized"] == [
        {"agenda": "bridge of sighs", "copies": 2, "value_each": 35, "value": 70}]
    assert result.events[-1]["type"] == "ranking"
    assert {"type": "realized", "turn": 7, "player": "alice", "agendas": {"bridge of sighs": 2}, "value": 70} \
        in result.events


# --- ranking ---------------------------------------------------------------------------------------------

def test_rank_by_money_ties_share_a_rank_listed_alphabetically() -> None:
    # bob 20 first; carol and alice 10 share second (listed a, c); dave 5 is fourth, not third.
    assert rank({"carol": 10, "alice": 10, "bob": 20, "dave": 5}) == [
        {"rank": 1, "player": "bob", "money": 20},
        {"rank": 2, "player": "alice", "money": 10},
        {"rank": 2, "player": "carol", "money": 10},
        {"rank": 4, "player": "dave", "money": 5},
    ]


def test_only_money_after_repayment_ranks() -> None:
    # alice borrows 200$ and wins an agenda worth more than bob's, but pays 70$ interest.
    # alice: 200 - 100 (silk tax, turn 1) = 100; bob: 0.
    # Closing: alice has no resources -> value 0: 100 - 200 - 70 = -170. bob 0 - 0 = 0. carol 0.
    state = play(game(), 1, [("alice", "borrow 200$\nbid 100$ for 1 of silk tax")]).state
    state = play_quiet_turns(state, 2, 6)
    result = play(state, 7, [])
    assert result.state["final"]["ranking"] == [
        {"rank": 1, "player": "bob", "money": 0},
        {"rank": 1, "player": "carol", "money": 0},
        {"rank": 3, "player": "alice", "money": -170},
    ]
