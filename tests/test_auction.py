"""maild/auction.py: sealed bids ranked by price then receipt, served until the supply is gone."""

from __future__ import annotations

import pytest

from maild.auction import Bid, rank_bids, sell


def test_rank_by_price_then_receipt_sequence() -> None:
    bids = [Bid("carol", 10, 1, seq=3), Bid("alice", 10, 1, seq=1), Bid("bob", 12, 1, seq=9)]
    # 12 beats 10 whatever the receipt; between the two 10s, seq 1 came before seq 3.
    assert [b.bidder for b in rank_bids(bids)] == ["bob", "alice", "carol"]


def test_rank_does_not_depend_on_input_order() -> None:
    bids = [Bid("a", 5, 1, 2), Bid("b", 5, 1, 1), Bid("c", 7, 1, 3), Bid("d", 5, 1, 2)]
    assert rank_bids(bids) == rank_bids(list(reversed(bids)))


def test_serve_highest_first_each_takes_min_of_wanted_and_left() -> None:
    # 5 units: bob 12$ wants 2 -> gets 2 (3 left); alice 10$ wants 4 -> gets min(4, 3) = 3; carol gets nothing.
    sale = sell(5, [Bid("alice", 10, 4, 1), Bid("bob", 12, 2, 2), Bid("carol", 8, 1, 3)])
    got = {a.bid.bidder: (a.outcome, a.units, a.paid) for a in sale.awards}
    assert got == {"bob": ("won", 2, 24), "alice": ("partly_won", 3, 30), "carol": ("lost", 0, 0)}
    assert sale.left == 0
    assert sale.funds is None
    assert [a.rank for a in sale.awards] == [1, 2, 3]


def test_unsold_units_are_left() -> None:
    sale = sell(3, [Bid("alice", 10, 1, 1)])
    assert sale.left == 2
    assert sale.awards[0].outcome == "won"


def test_no_supply_every_bid_lost() -> None:
    sale = sell(0, [Bid("alice", 10, 1, 1)])
    assert [a.outcome for a in sale.awards] == ["lost"]


def test_nullified_when_bidder_cannot_pay_in_full_then_next_served() -> None:
    # alice has 50$ and bids 30$ for 2: she would win 2, 2 x 30 = 60 > 50 -> nullified, not partly filled;
    # bob (20$ for 2, has 100$) is served next: 2 x 20 = 40, leaving him 60.
    sale = sell(2, [Bid("alice", 30, 2, 1), Bid("bob", 20, 2, 2)], funds={"alice": 50, "bob": 100})
    alice, bob = sale.awards
    assert (alice.outcome, alice.units, alice.paid, alice.needed, alice.had) == ("nullified", 0, 0, 60, 50)
    assert (bob.outcome, bob.units, bob.paid) == ("won", 2, 40)
    assert sale.funds == {"alice": 50, "bob": 60}


def test_not_nullified_when_the_units_left_are_affordable() -> None:
    # bob takes 1 of 2 first; alice (50$) bids 30$ for 2 but only 1 is left: 1 x 30 = 30 <= 50 -> partly won.
    sale = sell(2, [Bid("bob", 40, 1, 1), Bid("alice", 30, 2, 2)], funds={"alice": 50, "bob": 40})
    bob, alice = sale.awards
    assert (bob.outcome, bob.units) == ("won", 1)
    assert (alice.outcome, alice.units, alice.paid) == ("partly_won", 1, 30)
    assert sale.funds == {"alice": 20, "bob": 0}


def test_exactly_enough_money_is_enough() -> None:
    sale = sell(2, [Bid("alice", 25, 2, 1)], funds={"alice": 50})
    assert sale.awards[0].outcome == "won"
    assert sale.funds == {"alice": 0}


def test_bidder_missing_from_funds_has_nothing() -> None:
    sale = sell(1, [Bid("alice", 1, 1, 1)], funds={})
    assert sale.awards[0].outcome == "nullified"


def test_funds_given_are_not_changed() -> None:
    funds = {"alice": 10}
    sell(1, [Bid("alice", 5, 1, 1)], funds=funds)
    assert funds == {"alice": 10}


@pytest.mark.parametrize(("alice_seq", "bob_seq", "winner"), [(1, 2, "alice"), (2, 1, "bob")])
def test_equal_prices_go_to_the_earlier_mail(alice_seq: int, bob_seq: int, winner: str) -> None:
    # One unit, both 25$: the lower receipt sequence wins; swapping the sequences swaps the winner.
    sale = sell(1, [Bid("alice", 25, 1, alice_seq), Bid("bob", 25, 1, bob_seq)])
    assert [a.bid.bidder for a in sale.awards if a.outcome == "won"] == [winner]


def test_nullified_bid_frees_its_place_even_in_a_tie() -> None:
    # alice (earlier) and bob tie at 30$ for 1; alice has 10$ -> nullified; bob is served.
    sale = sell(1, [Bid("alice", 30, 1, 1), Bid("bob", 30, 1, 2)], funds={"alice": 10, "bob": 30})
    assert [(a.bid.bidder, a.outcome) for a in sale.awards] == [("alice", "nullified"), ("bob", "won")]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        sell(-1, [])
    with pytest.raises(ValueError):
        sell(1, [Bid("alice", 5, 0, 1)])
    with pytest.raises(ValueError):
        sell(1, [Bid("alice", -5, 1, 1)])
