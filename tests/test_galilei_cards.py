"""Galilei's cards (rules 2, 3.1): the shipped deck, what is on offer, the public draw, Master Art's discard.

Rule 3.1: "one selects which card wants when it is his turn to draw a card among those available." Rule 2:
"Purchase of Master Art allows immediate discard. Further discards take place as usual". Readings GA-OQ-28
and GA-OQ-29 in docs/galilei.md.
"""

from __future__ import annotations

from collections import Counter

import pytest

from maild_rules.galilei.cards import (
    Card,
    DeckError,
    deck_from_tables,
    default_deck,
    discard,
    discards_allowed,
    draw,
    find_card,
    load_deck,
    offer,
    opening_pool,
)


def test_the_shipped_deck_is_age_of_renaissance_history_deck():
    """64 cards: Epoch I 29 (11 commodities, 13 events, 5 leaders), Epoch II 22 (9, 5, 8), Epoch III 13
    (7 commodities, 6 leaders). Five Epoch I cards are held out of the starting deal: Silk, Spice, The
    Crusades, Rashid ad Din, Walter the Penniless. Every leader has a credit."""
    deck = default_deck()
    assert len(deck) == 64
    per = Counter((c.epoch, c.kind) for c in deck)
    assert per == {(1, "commodity"): 11, (1, "event"): 13, (1, "leader"): 5,
                   (2, "commodity"): 9, (2, "event"): 5, (2, "leader"): 8,
                   (3, "commodity"): 7, (3, "leader"): 6}
    assert {c.name for c in deck if c.held_out} == {"Silk", "Spice", "The Crusades", "Rashid ad Din",
                                                     "Walter the Penniless"}
    assert all(c.credit is not None for c in deck if c.kind == "leader")
    assert [c.credit for c in deck if c.name in ("Rashid ad Din", "Christopher Columbus")] == [10, 30]
    assert len({c.id for c in deck}) == 64


def test_the_opening_pool_is_epoch_one_less_the_held_out_cards():
    """29 Epoch I cards less the 5 held out: 24, in the deck's order (Stone-1 first)."""
    pool = opening_pool(default_deck())
    assert len(pool) == 24
    assert pool[0].id == "Stone-1"
    assert all(c.epoch == 1 and not c.held_out for c in pool)


DECK_TEXT = """
[[card]]
id = "Stone-1"
name = "Stone"
epoch = 1
kind = "commodity"

[[card]]
id = "Stone-2"
name = "Stone"
epoch = 1
kind = "commodity"

[[card]]
id = "War"
name = "War!"
epoch = 1
kind = "event"

[[card]]
id = "Marco Polo"
name = "Marco Polo"
epoch = 2
kind = "leader"
credit = 20
cost = 3

[[card]]
id = "Galileo Galilei"
name = "Galileo Galilei"
epoch = 3
kind = "leader"
credit = 20
"""


def small_deck() -> list[Card]:
    return load_deck(DECK_TEXT)


def test_load_deck_reads_fields_in_order():
    deck = small_deck()
    assert [c.id for c in deck] == ["Stone-1", "Stone-2", "War", "Marco Polo", "Galileo Galilei"]
    assert deck[3] == Card("Marco Polo", "Marco Polo", 2, "leader", credit=20, cost=3)


@pytest.mark.parametrize(("change", "message"), [
    (('epoch = 3\nkind = "leader"\ncredit = 20\n', 'epoch = 4\nkind = "leader"\ncredit = 20\n'),
     "epoch must be 1, 2 or 3"),
    (('kind = "event"', 'kind = "disaster"'), "kind must be one of"),
    (('id = "Stone-2"', 'id = "stone-1"'), "already used by 'Stone-1'"),
    (("cost = 3", "cost = -3"), "cost must be a whole number"),
    (("cost = 3", "price = 3"), "unknown field(s) price"),
    (('name = "War!"\n', ''), "has no name"),
])
def test_load_deck_refuses_bad_decks_with_reasons(change, message):
    old, new = change
    assert old in DECK_TEXT
    with pytest.raises(DeckError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_deck(DECK_TEXT.replace(old, new, 1))
    with pytest.raises(DeckError, match="no \\[\\[card\\]\\]"):
        load_deck("")


def test_find_card_by_id_or_by_a_name_only_one_card_bears():
    """ "stone-2" and "  STONE-2 " find Stone-2; "War!" (a name one card bears) finds War; "Stone" (two
    cards) finds nothing: the player must write which; "Tulips" nothing."""
    deck = small_deck()
    assert find_card(deck, "stone-2").id == "Stone-2"
    assert find_card(deck, "  STONE-2 ").id == "Stone-2"
    assert find_card(deck, "war!").id == "War"
    assert find_card(deck, "Stone") is None
    assert find_card(deck, "Tulips") is None


def test_offer_is_the_undrawn_cards_of_this_epoch_and_before():
    """GA-OQ-28. Epoch 1: Stone-1, Stone-2, War (Marco Polo is Epoch 2, Galileo 3). Stone-1 held, War
    discarded: Stone-2 alone. Epoch 2, discards shuffled back (discarded empty): Stone-2, War, Marco Polo.
    Epoch 3: Galileo Galilei joins."""
    deck = small_deck()
    assert [c.id for c in offer(deck, 1, held=set(), discarded=set())] == ["Stone-1", "Stone-2", "War"]
    assert [c.id for c in offer(deck, 1, held={"Stone-1"}, discarded={"War"})] == ["Stone-2"]
    assert [c.id for c in offer(deck, 2, held={"Stone-1"}, discarded=set())] == ["Stone-2", "War", "Marco Polo"]
    assert [c.id for c in offer(deck, 3, held={"Stone-1"}, discarded=set())][-1] == "Galileo Galilei"
    with pytest.raises(ValueError):
        offer(deck, 4, held=(), discarded=())


def test_draw_in_turn_order_from_choices_and_lists():
    """Turn order Cy, Al, Bo, one card each, offer Stone-1, Stone-2, War, Marco Polo (epoch 2).
    Cy mailed "card Marco Polo" (a list of one) -> Marco Polo. Al's list: Marco Polo, War -> War (Marco Polo
    passed over). Bo sent nothing -> the first card on offer in the deck's order: Stone-1."""
    deck = small_deck()
    offered = offer(deck, 2, held=(), discarded=())
    picks = draw(["Cy", "Al", "Bo"], offered, {"Cy": ["Marco Polo"], "Al": ["Marco Polo", "War"]})
    assert [(p.chooser, p.item, p.by, p.passed_over) for p in picks] == [
        ("Cy", "Marco Polo", "list", ()), ("Al", "War", "list", ("Marco Polo",)), ("Bo", "Stone-1", "default", ())]


def test_draw_two_each_in_rounds_and_running_out():
    """Offer of 3 cards (epoch 1: Stone-1, Stone-2, War), two each for Al and Bo: rounds Al, Bo, Al, Bo.
    Al's list War, Stone-2. Round 1: Al War; Bo default Stone-1. Round 2: Al Stone-2; Bo: nothing left."""
    deck = small_deck()
    picks = draw(["Al", "Bo"], offer(deck, 1, (), ()), {"Al": ["War", "Stone-2"]}, per_player=2)
    assert [(p.chooser, p.item, p.by) for p in picks] == [
        ("Al", "War", "list"), ("Bo", "Stone-1", "default"), ("Al", "Stone-2", "list"), ("Bo", None, "none")]
    with pytest.raises(ValueError):
        draw(["Al", "Al"], offer(deck, 1, (), ()), {})


def test_master_art_allows_one_immediate_discard_then_one_a_turn():
    """GA-OQ-29. The turn a player buys Master Art: one discard at once (he did not hold it in that turn's
    Buy Cards phase). A holder: one a turn. Nobody else: none. Once used this turn: none left."""
    assert discards_allowed(holds_master_art=False, bought_master_art_now=True, discarded_this_turn=0) == 1
    assert discards_allowed(holds_master_art=True, bought_master_art_now=True, discarded_this_turn=0) == 1
    assert discards_allowed(holds_master_art=True, bought_master_art_now=False, discarded_this_turn=0) == 1
    assert discards_allowed(holds_master_art=True, bought_master_art_now=False, discarded_this_turn=1) == 0
    assert discards_allowed(holds_master_art=False, bought_master_art_now=False, discarded_this_turn=0) == 0


def test_discard_takes_the_card_from_the_hand():
    assert discard(["Stone-1", "War", "Stone-1x"], "War") == ["Stone-1", "Stone-1x"]
    with pytest.raises(ValueError, match="not in the hand"):
        discard(["Stone-1"], "War")


def test_cards_listed_inline_take_their_name_as_id_unless_two_share_it():
    """A setup may list cards inline without ids: the name is the id. Two cards named Stone without ids
    are refused (the second "is already used"), with ids they are two cards."""
    deck = deck_from_tables([{"name": "Armor", "epoch": 1, "kind": "event"}])
    assert deck == [Card("Armor", "Armor", 1, "event")]
    two = [{"name": "Stone", "epoch": 1, "kind": "commodity"}, {"name": "Stone", "epoch": 1, "kind": "commodity"}]
    with pytest.raises(DeckError, match="card 2 \\(Stone\\): the id is already used by 'Stone'"):
        deck_from_tables(two)
    two[0]["id"], two[1]["id"] = "Stone-1", "Stone-2"
    assert [c.id for c in deck_from_tables(two)] == ["Stone-1", "Stone-2"]
    with pytest.raises(DeckError, match="not a table"):
        deck_from_tables(["Armor"])
