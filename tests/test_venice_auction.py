"""Venice auctions, rule by rule, with the numbers worked by hand.

The default test game (tests/test_venice_fixtures.py) has 3 players, scale 4 (so counts x1), credit 500$,
and the opening auction offers, in this order: 2 silk tax, then 1 exile competitor.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from maild.ruleset import Order, PlacedOrder
from maild_rules.venice import RULESET
from tests.venice_fixtures import (
    LINEUPS,
    bid_record,
    book,
    holdings,
    money,
    new_game,
    play,
    play_quiet_turns,
)


def test_borrowing_comes_before_the_bids_of_turn_one() -> None:
    # alice starts with 0$; her borrow line comes after her bid in the mail, yet the loan is granted at
    # the start of the resolution: 100$ - 100$ for the exile competitor = 0$.
    result = play(new_game(), 1, [("alice", "bid 100$ for 1 of exile competitor\nborrow 100$")])
    assert bid_record(result, "alice", "exile competitor")["outcome"] == "won"
    assert money(result.state)["alice"] == 0
    assert result.state["ledger"]["alice"]["borrowed"] == 100
    # Interest: 100 x 5% x 7 days = 35.
    assert result.state["ledger"]["alice"]["interest_due"] == 35
    assert result.printouts["alice"]["loan"] == {"player": "alice", "amount": 100, "interest": 35}


def test_without_a_loan_every_bid_is_nullified() -> None:
    # Money starts at 0$: 1 x 1$ = 1 > 0.
    result = play(new_game(), 1, [("alice", "bid 1$ for 1 of silk tax")])
    assert bid_record(result, "alice", "silk tax")["outcome"] == "nullified"


def test_later_borrow_replaces_the_earlier() -> None:
    # 500$ first, then 30$: only the 30$ stands. Interest 30 x 0.05 x 7 = 10.50 -> 11 (half up).
    result = play(new_game(), 1, [("alice", "borrow 500$"), ("alice", "borrow 30$")])
    assert result.state["ledger"]["alice"] == {"money": 30, "borrowed": 30, "interest_due": 11, "holdings": {}}


def test_highest_bid_first_then_next_until_the_supply_is_gone() -> None:
    # 2 silk tax. bob 12$ for 1 -> 1 unit (12$); alice 10$ for 2 -> min(2, 1 left) = 1 unit (10$);
    # carol 9$ -> none left.
    result = play(new_game(), 1, [
        ("alice", "borrow 100$\nbid 10$ for 2 of silk tax"),
        ("bob", "borrow 100$\nbid 12$ for 1 of silk tax"),
        ("carol", "borrow 100$\nbid 9$ for 1 of silk tax"),
    ])
    assert [(b["player"], b["outcome"], b["won"], b["paid"]) for b in result.state["auctions_held"][0]["bids"]] == [
        ("bob", "won", 1, 12), ("alice", "partly_won", 1, 10), ("carol", "lost", 0, 0)]
    assert money(result.state) == {"alice": 90, "bob": 88, "carol": 100}
    assert holdings(result.state, "alice") == {"silk tax": 1}
    assert bid_record(result, "carol", "silk tax")["reason"] == "all 2 went to higher bids"


def test_you_pay_only_for_what_you_win() -> None:
    # alice bids 10$ for 2 but wins only 1: she pays 10$, not 20$.
    result = play(new_game(), 1, [("bob", "borrow 50$\nbid 20$ for 1 of silk tax"),
                                  ("alice", "borrow 50$\nbid 10$ for 2 of silk tax")])
    assert bid_record(result, "alice", "silk tax")["paid"] == 10
    assert money(result.state)["alice"] == 40


def test_bid_nullified_when_the_player_cannot_pay_in_full_and_next_bidder_served() -> None:
    # alice has 50$ and bids 30$ for 2: she would win both, 2 x 30 = 60 > 50 -> nullified (not 1 unit);
    # bob, 20$ for 2 with 100$, is served next: 2 x 20 = 40 -> 60 left.
    result = play(new_game(), 1, [("alice", "borrow 50$\nbid 30$ for 2 of silk tax"),
                                  ("bob", "borrow 100$\nbid 20$ for 2 of silk tax")])
    alice = bid_record(result, "alice", "silk tax")
    assert (alice["outcome"], alice["won"], alice["paid"]) == ("nullified", 0, 0)
    assert alice["reason"] == "2 at 30$ would have cost 60$ but you had only 50$ when the bid was reached"
    bob = bid_record(result, "bob", "silk tax")
    assert (bob["outcome"], bob["won"]) == ("won", 2)
    assert money(result.state) == {"alice": 50, "bob": 60, "carol": 0}
    assert holdings(result.state, "alice") == {}


def test_bid_not_nullified_when_the_units_left_are_affordable() -> None:
    # bob takes 1 of the 2 silk tax at 40$; alice (50$) bids 30$ for 2 but only 1 is left:
    # min(2, 1) x 30 = 30 <= 50 -> partly won, not nullified; 50 - 30 = 20 left.
    result = play(new_game(), 1, [("bob", "borrow 40$\nbid 40$ for 1 of silk tax"),
                                  ("alice", "borrow 50$\nbid 30$ for 2 of silk tax")])
    alice = bid_record(result, "alice", "silk tax")
    assert (alice["outcome"], alice["won"], alice["paid"]) == ("partly_won", 1, 30)
    assert alice["reason"] == "only 1 of the 2 you wanted were left when your bid was reached"
    assert money(result.state)["alice"] == 20


@pytest.mark.parametrize(("seqs", "winner", "loser"), [([1, 2], "alice", "bob"), ([2, 1], "bob", "alice")])
def test_equal_prices_go_to_the_earlier_mail(seqs: list[int], winner: str, loser: str) -> None:
    # One exile competitor, both bid 25$: the mail with the lower receipt sequence wins;
    # swapping the sequences swaps the winner.
    result = play(new_game(), 1, [("alice", "borrow 50$\nbid 25$ for 1 of exile competitor"),
                                  ("bob", "borrow 50$\nbid 25$ for 1 of exile competitor")], seqs=seqs)
    assert bid_record(result, winner, "exile competitor")["outcome"] == "won"
    assert bid_record(result, loser, "exile competitor")["outcome"] == "lost"
    assert bid_record(result, loser, "exile competitor")["reason"] == (
        "all 1 went to higher bids or equal bids received before yours")


def test_replacing_a_bid_takes_the_replacing_mails_place_among_equal_bids() -> None:
    # Mails: alice #1 25$, bob #2 25$, alice #3 25$ again. alice's standing bid is the one of mail #3,
    # so bob's (#2) is now the earlier: bob wins.
    result = play(new_game(), 1, [
        ("alice", "borrow 50$\nbid 25$ for 1 of exile competitor"),
        ("bob", "borrow 50$\nbid 25$ for 1 of exile competitor"),
        ("alice", "bid 25$ for 1 of Exile Competitor"),
    ])
    assert bid_record(result, "bob", "exile competitor")["outcome"] == "won"
    assert bid_record(result, "alice", "exile competitor")["seq"] == 3


def test_later_bid_replaces_the_earlier_even_when_lower() -> None:
    # alice first bids 40$, then 10$: the 10$ stands and bob's 25$ wins.
    result = play(new_game(), 1, [
        ("alice", "borrow 50$\nbid 40$ for 1 of exile competitor"),
        ("bob", "borrow 50$\nbid 25$ for 1 of exile competitor"),
        ("alice", "bid 10$ for 1 of exile competitor"),
    ])
    assert bid_record(result, "bob", "exile competitor")["outcome"] == "won"
    assert bid_record(result, "alice", "exile competitor")["price"] == 10
    assert money(result.state) == {"alice": 50, "bob": 25, "carol": 0}


def test_items_are_sold_in_the_announced_order() -> None:
    # Announced order: silk tax, then exile competitor. alice has 50$: silk tax 30$ -> 20$ left;
    # exile competitor 25$ > 20$ -> nullified, although her mail names exile competitor first.
    mails = [("alice", "borrow 50$\nbid 25$ for 1 of exile competitor\nbid 30$ for 1 of silk tax")]
    result = play(new_game(), 1, mails)
    assert bid_record(result, "alice", "silk tax")["outcome"] == "won"
    assert bid_record(result, "alice", "exile competitor")["outcome"] == "nullified"
    assert money(result.state)["alice"] == 20
    # Announce exile competitor first instead: 50 - 25 = 25 left, then silk tax 30$ > 25$ -> nullified.
    swapped = [{"exile competitor": 1, "silk tax": 2}] + LINEUPS[1:]
    result = play(new_game(lineups=swapped), 1, mails)
    assert bid_record(result, "alice", "exile competitor")["outcome"] == "won"
    assert bid_record(result, "alice", "silk tax")["outcome"] == "nullified"
    assert money(result.state)["alice"] == 25


def test_money_carries_over_from_auction_to_auction() -> None:
    # Turn 1: alice borrows 60$, buys an exile competitor for 40$ -> 20$. Turn 2: opera 25$ > 20$ -> nullified;
    # 2 senators at 10$ = 20$ -> 0$.
    state = play(new_game(), 1, [("alice", "borrow 60$\nbid 40$ for 1 of exile competitor")]).state
    result = play(state, 2, [("alice", "bid 25$ for 1 of opera\nbid 10$ for 2 of senator")])
    assert bid_record(result, "alice", "opera")["outcome"] == "nullified"
    assert bid_record(result, "alice", "senator")["outcome"] == "won"
    assert money(result.state)["alice"] == 0
    assert holdings(result.state, "alice") == {"exile competitor": 1, "senator": 2}


def test_unsold_units_are_reported() -> None:
    result = play(new_game(), 1, [("alice", "borrow 10$\nbid 10$ for 1 of silk tax")])
    silk = result.state["auctions_held"][0]["items"][0]
    assert (silk["item"], silk["offered"], silk["sold"], silk["left"]) == ("silk tax", 2, 1, 1)
    assert silk["winners"] == [{"player": "alice", "price": 10, "units": 1, "paid": 10}]


# --- orders that cannot stand are refused at resolution too (they may have been filed for a later turn) --

def placed(text: str, seq: int) -> PlacedOrder:
    (order,) = RULESET.parse(text).orders
    return PlacedOrder(order, seq)


def test_borrow_after_turn_one_is_refused_at_resolution() -> None:
    state = play_quiet_turns(new_game(), 1, 1)
    result = RULESET.resolve(state, 2, {"alice": [placed("borrow 100$", 5)], "bob": [], "carol": []},
                             random.Random(0))
    assert result.state["ledger"]["alice"]["borrowed"] == 0
    assert result.printouts["alice"]["refused"] == [{
        "line": 1, "text": "borrow 100$",
        "reason": "you can borrow only before the opening auction (turn 1); this is turn 2"}]


def test_bids_refused_at_resolution_take_no_part() -> None:
    orders = {"alice": [placed("borrow 100$", 1), placed("bid 10$ for 1 of opera", 1),
                        placed("bid 10$ for 3 of silk tax", 1), placed("bid 10$ for 1 of gondola", 1)],
              "bob": [], "carol": []}
    result = RULESET.resolve(new_game(), 1, orders, random.Random(0))
    assert result.state["auctions_held"][0]["bids"] == []
    assert len(result.printouts["alice"]["refused"]) == 3
    assert money(result.state)["alice"] == 100


def test_duplicate_standing_bids_count_once() -> None:
    # Should two bids for one item reach resolve, only the last (by receipt, then line) stands.
    orders = {"alice": [placed("borrow 100$", 1), placed("bid 10$ for 1 of silk tax", 1),
                        placed("bid 20$ for 1 of Silk Tax", 2)], "bob": [], "carol": []}
    result = RULESET.resolve(new_game(), 1, orders, random.Random(0))
    (bid,) = result.state["auctions_held"][0]["bids"]
    assert (bid["price"], bid["outcome"]) == (20, "won")


def test_unknown_order_kind_is_refused() -> None:
    orders = {"alice": [PlacedOrder(Order(1, "dance", "dance", {}, "dance"), 1)], "bob": [], "carol": []}
    result = RULESET.resolve(new_game(), 1, orders, random.Random(0))
    assert result.printouts["alice"]["refused"][0]["reason"] == "'dance' is not a Venice order"


# --- the resolution itself -------------------------------------------------------------------------------

def test_no_randomness_the_rng_is_not_used() -> None:
    state = new_game()
    mails = [("alice", "borrow 50$\nbid 25$ for 1 of exile competitor"),
             ("bob", "borrow 50$\nbid 25$ for 1 of exile competitor")]
    orders = book(state, 1, mails)
    rng = random.Random(1)
    first = RULESET.resolve(state, 1, orders, rng)
    assert rng.random() == random.Random(1).random()  # untouched
    second = RULESET.resolve(state, 1, orders, random.Random(999))
    assert first == second


def test_resolve_leaves_the_old_state_alone_and_the_new_one_is_json() -> None:
    state = new_game()
    before = copy.deepcopy(state)
    result = play(state, 1, [("alice", "borrow 50$\nbid 25$ for 1 of exile competitor")])
    assert state == before
    assert json.loads(json.dumps(result.state)) == result.state
    json.dumps(result.printouts)
    json.dumps(result.newsletter)
    json.dumps(result.events)


def test_turns_must_come_in_order() -> None:
    with pytest.raises(ValueError):
        RULESET.resolve(new_game(), 2, {}, random.Random(0))
    state = play_quiet_turns(new_game(), 1, 7)
    with pytest.raises(ValueError):
        RULESET.resolve(state, 8, {}, random.Random(0))


def test_auctions_held_are_recorded_in_the_state() -> None:
    state = play_quiet_turns(new_game(), 1, 3)
    assert [(a["turn"], a["kind"], a["name"]) for a in state["auctions_held"]] == [
        (1, "opening", "opening auction"), (2, "common", "first common auction"),
        (3, "common", "second common auction")]


def test_events() -> None:
    result = play(new_game(), 1, [("alice", "borrow 50$\nbid 25$ for 1 of exile competitor")])
    kinds = [e["type"] for e in result.events]
    assert kinds == ["loan", "bid", "sale", "sale"]
    # 50 x 0.05 x 7 = 17.50 -> 18 (half up)
    assert result.events[0] == {"type": "loan", "turn": 1, "player": "alice", "amount": 50, "interest": 18}
    assert result.finished is False
