"""maild/ranking.py and maild/draft.py: sealed bids ranked by a tie-break chain, then drafted by preference."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from maild.auction import Bid, rank_bids
from maild.draft import draft
from maild.ranking import By, order_by, rank


@dataclass(frozen=True)
class Opening:
    player: str
    card: int
    capital: int
    seq: int

    @property
    def overall(self) -> int:
        return self.card + self.capital


# Galilei 3.2: "the highest bidder in each category getting first to chose card (first) and capital
# (later) ... In case of ties global bid will be taken into account. In case of double tie, the first message
# received goes first." Global bid read here as card + capital.
BIDS = [Opening("London", 5, 3, 10), Opening("Paris", 5, 1, 4), Opening("Genoa", 7, 0, 12),
        Opening("Venice", 5, 3, 7), Opening("Hamburg", 2, 6, 2)]
GLOBAL = By[Opening]("the global bid", lambda b: b.overall)


def ranked(chain: list[By[Opening]]) -> list[tuple[str, int, str | None]]:
    return [(p.entry.player, p.place, p.decided_by)
            for p in rank(BIDS, chain, seq=lambda b: b.seq, name=lambda b: b.player)]


def test_galilei_card_order_by_card_bid_then_global_bid_then_first_mail() -> None:
    # Card bids: Genoa 7 first. London, Paris, Venice 5: globals London 8, Venice 8, Paris 6, so Paris is
    # last of the three; London and Venice tie on 8 too, and Venice's mail (7) came before London's (10).
    # Hamburg's 2 is last.
    assert ranked([By("the card bid", lambda b: b.card), GLOBAL]) == [
        ("Genoa", 1, None), ("Venice", 2, "the card bid"), ("London", 3, "the first mail received"),
        ("Paris", 4, "the global bid"), ("Hamburg", 5, "the card bid")]


def test_galilei_capital_order() -> None:
    # Capital bids: Hamburg 6; London 3 and Venice 3 (both global 8: Venice's earlier mail); Paris 1; Genoa 0.
    assert [p for p, _, _ in ranked([By("the capital bid", lambda b: b.capital), GLOBAL])] == [
        "Hamburg", "Venice", "London", "Paris", "Genoa"]


def test_ascending_criterion_and_name_as_the_last_tie_break() -> None:
    entries = [("b", 3, 1), ("a", 3, 1), ("c", 1, 5)]
    out = rank(entries, [By("fewest tokens", lambda e: e[1], descending=False)], seq=lambda e: e[2],
               name=lambda e: e[0])
    assert [(p.entry[0], p.decided_by) for p in out] == [("c", None), ("a", "fewest tokens"),
                                                         ("b", "the bidder's name")]


def test_result_does_not_depend_on_the_input_order() -> None:
    chain = [By[Opening]("the card bid", lambda b: b.card), GLOBAL]
    first = rank(BIDS, chain, seq=lambda b: b.seq, name=lambda b: b.player)
    for seed in range(10):
        shuffled = BIDS[:]
        random.Random(seed).shuffle(shuffled)
        assert rank(shuffled, chain, seq=lambda b: b.seq, name=lambda b: b.player) == first


def test_order_by_is_the_order_of_rank() -> None:
    chain = [By[Opening]("the capital bid", lambda b: b.capital), GLOBAL]
    assert order_by(BIDS, chain, seq=lambda b: b.seq, name=lambda b: b.player) == [
        p.entry for p in rank(BIDS, chain, seq=lambda b: b.seq, name=lambda b: b.player)]


def test_venice_auction_ranking_is_what_it_was() -> None:
    # The auction's ranking before it used maild/ranking.py: highest price, then earlier mail, then name.
    rng = random.Random(4)
    for _ in range(200):
        bids = [Bid(rng.choice("abcd"), rng.randrange(5), 1, rng.randrange(4)) for _ in range(rng.randrange(8))]
        assert rank_bids(bids) == sorted(bids, key=lambda b: (-b.price, b.seq, b.bidder))


# --- draft -----------------------------------------------------------------------------------------------

def picks(order: list[str], pool: list[str], prefs: dict[str, list[str]], **kw: object) -> list[tuple]:
    return [(p.chooser, p.item, p.by, p.passed_over) for p in draft(order, pool, prefs, **kw)]  # type: ignore[arg-type]


def test_draft_in_rank_order_from_preference_lists_with_the_default() -> None:
    order = ["Genoa", "Venice", "London", "Paris", "Hamburg"]
    prefs = {"Genoa": ["C", "A"], "Venice": ["C", "B"], "London": [], "Paris": ["X", "A", "B", "D"]}
    # Genoa: C. Venice: C is gone -> B. London: empty list -> the first free in pool order, A. Paris: X is no
    # card (passed silently), A and B gone -> D. Hamburg: no list -> the first free, E. F is left.
    assert picks(order, list("ABCDEF"), prefs) == [
        ("Genoa", "C", "list", ()), ("Venice", "B", "list", ("C",)), ("London", "A", "default", ()),
        ("Paris", "D", "list", ("A", "B")), ("Hamburg", "E", "default", ())]


def test_a_chooser_named_twice_picks_twice_reading_on_in_his_list() -> None:
    # x: 1. y: 1 gone, list exhausted -> default 2. x: 2 gone (his list read on) -> default 3.
    assert picks(["x", "y", "x"], ["1", "2", "3"], {"x": ["1", "2"], "y": ["1"]}) == [
        ("x", "1", "list", ()), ("y", "2", "default", ("1",)), ("x", "3", "default", ("2",))]


def test_own_default_empty_pool_and_mistakes() -> None:
    assert picks(["x"], ["1", "2"], {}, default=lambda c, free: free[-1]) == [("x", "2", "default", ())]
    assert picks(["x", "y"], ["1"], {}) == [("x", "1", "default", ()), ("y", None, "none", ())]
    with pytest.raises(ValueError, match="not free"):
        draft(["x"], ["1"], {}, default=lambda c, free: "9")
    with pytest.raises(ValueError, match="twice"):
        draft(["x"], ["1", "1"], {})
