"""Galilei's opening double bid (3.2) and the turn-order bids (GA-OQ-27), worked by hand.

Rule 3.2: "the highest bidder in each category getting first to chose card (first) and capital (later) and
so on. In case of ties global bid will be taken into account. In case of double tie, the first message
received goes first." The global bid is the sum of a player's two bids (GA-OQ-24); the receipt is that of the
mail carrying the bid in force (GA-OQ-26); both bids are paid (GA-OQ-25).
"""

from __future__ import annotations

import pytest

from maild.ranking import NAME, RECEIPT
from maild_rules.galilei.draftwords import opening_lines, turn_order_lines
from maild_rules.galilei.opening import (
    CAPITAL_BID,
    CARD_BID,
    GLOBAL_BID,
    OpeningBid,
    Preferences,
    check_bid,
    check_preferences,
    resolve_opening,
)
from maild_rules.galilei.turnorder import CAPITAL_CHOICE, TURN_BID, TurnBid, check_turn_bid, turn_order

CAPITALS = ["Venice", "Genoa", "Barcelona", "Paris", "London", "Hamburg"]
CARDS = ["Stone-1", "Wool-1", "Armor", "Charlemagne", "Famine", "Metal-1", "Fur-1"]


def order(placed):
    return [p.entry.player for p in placed]


def reasons(placed):
    return [p.decided_by for p in placed]


def test_a_tie_on_one_category_is_broken_by_the_global_bid():
    """Cards: Ann 10, Bob 10, Cid 7. Capitals: Ann 2, Bob 5, Cid 9. Mails: Ann first (seq 1), Bob 2, Cid 3.

    Card ranking: Ann and Bob tie at 10; global bids Ann 10+2 = 12, Bob 10+5 = 15, so Bob first, Ann second
    ("the global bid"), Cid 7 third ("the card bid"). Capital ranking: Cid 9, Bob 5, Ann 2, no tie; each
    place after the first is decided by the capital bid. Without the global bid, the receipt order would
    have put Ann (seq 1) before Bob: the test fails if the global bid is not used."""
    bids = [OpeningBid("Ann", 10, 2, 1), OpeningBid("Bob", 10, 5, 2), OpeningBid("Cid", 7, 9, 3)]
    r = resolve_opening(bids, CAPITALS, CARDS, {})
    assert order(r.card_order) == ["Bob", "Ann", "Cid"]
    assert reasons(r.card_order) == [None, GLOBAL_BID, CARD_BID]
    assert order(r.capital_order) == ["Cid", "Bob", "Ann"]
    assert reasons(r.capital_order) == [None, CAPITAL_BID, CAPITAL_BID]


def test_ties_in_both_categories_each_broken_by_the_global_bid():
    """A tie in each category, between different players: Ann 6/3 and Bob 6/5 tie on cards; Cid 2/8 and
    Dan 4/8 tie on capitals. (The same two players tied in both categories are tied on the sum too: that is
    the double tie of the next tests.)

    Cards: Ann 6 (global 9) and Bob 6 (global 11) -> Bob, Ann; Dan 4, Cid 2 follow. So Bob, Ann, Dan, Cid,
    with reasons None, global bid, card bid, card bid.
    Capitals: Cid 8 (global 10) and Dan 8 (global 12) -> Dan, Cid; then Bob 5, Ann 3. So Dan, Cid, Bob, Ann,
    with reasons None, global bid, capital bid, capital bid. Receipt order (Ann 1, Bob 2, Cid 3, Dan 4) would
    give the opposite in both ties."""
    bids = [OpeningBid("Ann", 6, 3, 1), OpeningBid("Bob", 6, 5, 2), OpeningBid("Cid", 2, 8, 3),
            OpeningBid("Dan", 4, 8, 4)]
    r = resolve_opening(bids, CAPITALS, CARDS, {})
    assert order(r.card_order) == ["Bob", "Ann", "Dan", "Cid"]
    assert reasons(r.card_order) == [None, GLOBAL_BID, CARD_BID, CARD_BID]
    assert order(r.capital_order) == ["Dan", "Cid", "Bob", "Ann"]
    assert reasons(r.capital_order) == [None, GLOBAL_BID, CAPITAL_BID, CAPITAL_BID]


def test_a_double_tie_goes_by_the_first_mail_received():
    """Eve and Fay both bid 5 for cards and 5 for capitals: tied on each category and on the global bid
    (10 and 10), the "double tie". Fay's mail came first (seq 3) and Eve's later (seq 7): Fay goes first in
    both categories, "the first mail received". Gus bids 9/1 (global 10): first for cards (9), last for
    capitals (1). Cards: Gus, Fay, Eve; capitals: Fay, Eve, Gus. Sorting by name would put Eve first: the
    test fails if the receipt order is not used."""
    bids = [OpeningBid("Eve", 5, 5, 7), OpeningBid("Fay", 5, 5, 3), OpeningBid("Gus", 9, 1, 5)]
    r = resolve_opening(bids, CAPITALS, CARDS, {})
    assert order(r.card_order) == ["Gus", "Fay", "Eve"]
    assert reasons(r.card_order) == [None, CARD_BID, RECEIPT]
    assert order(r.capital_order) == ["Fay", "Eve", "Gus"]
    assert reasons(r.capital_order) == [None, RECEIPT, CAPITAL_BID]


def test_three_tied_on_cards_two_of_them_on_both_categories_and_the_global_bid():
    """Ann 5/5 (seq 2), Bob 5/5 (seq 1), Cid 5/3 (seq 0, the earliest mail). Cards: all three tie at 5;
    globals 10, 10, 8: Cid last by "the global bid" although his mail came first; Ann and Bob tie on both
    bids and the global bid, and Bob's mail came first: Bob, Ann, Cid. Capitals: Ann and Bob 5, Cid 3: Bob,
    Ann (receipt), Cid (capital bid)."""
    bids = [OpeningBid("Ann", 5, 5, 2), OpeningBid("Bob", 5, 5, 1), OpeningBid("Cid", 5, 3, 0)]
    r = resolve_opening(bids, CAPITALS, CARDS, {})
    assert order(r.card_order) == ["Bob", "Ann", "Cid"]
    assert reasons(r.card_order) == [None, RECEIPT, GLOBAL_BID]
    assert order(r.capital_order) == ["Bob", "Ann", "Cid"]
    assert reasons(r.capital_order) == [None, RECEIPT, CAPITAL_BID]


def test_the_receipt_that_counts_is_that_of_the_bid_in_force():
    """GA-OQ-26: Hal mailed first (seq 1) and replaced his bid at seq 9; Ida's only mail is seq 4. Both
    bid 3/3. The engine hands in the bid in force with its mail's seq (9 for Hal), so Ida goes first."""
    bids = [OpeningBid("Hal", 3, 3, 9), OpeningBid("Ida", 3, 3, 4)]
    r = resolve_opening(bids, CAPITALS, CARDS, {})
    assert order(r.card_order) == ["Ida", "Hal"]
    assert order(r.capital_order) == ["Ida", "Hal"]


def test_a_preference_list_draft_of_cards_and_capitals():
    """Six players, all bids different, mails in seq 1..6. Cards (bid): A 12, B 9, C 7, D 5, E 3, F 0.
    Capitals (bid): F 10, E 8, D 6, C 4, B 2, A 1.

    Card draft, one card each in the card order A, B, C, D, E, F, pool in the deck's order
    [Stone-1, Wool-1, Armor, Charlemagne, Famine, Metal-1, Fur-1]:
      A lists Charlemagne, Armor            -> Charlemagne
      B lists Charlemagne, Armor            -> Charlemagne taken (passed over), Armor
      C lists Armor, Famine                 -> Armor taken, Famine
      D has no list                         -> first free in the deck's order: Stone-1 (default)
      E lists Famine, Charlemagne           -> both taken, the default: Wool-1
      F lists Nonsuch, Fur-1                -> Nonsuch is no card (skipped), Fur-1
    Capital draft in the capital order F, E, D, C, B, A, pool in the setup's order:
      F lists Venice, Genoa -> Venice; E lists Venice, Genoa -> Genoa (Venice passed over);
      D no list -> Barcelona (first free); C lists London -> London;
      B lists London, Venice -> both taken, default: Paris; A lists Hamburg -> Hamburg.
    Each pays both bids: A 13, B 11, C 11, D 11, E 11, F 10."""
    bids = [OpeningBid("A", 12, 1, 1), OpeningBid("B", 9, 2, 2), OpeningBid("C", 7, 4, 3),
            OpeningBid("D", 5, 6, 4), OpeningBid("E", 3, 8, 5), OpeningBid("F", 0, 10, 6)]
    prefs = {
        "A": Preferences(("Charlemagne", "Armor"), ("Hamburg",)),
        "B": Preferences(("Charlemagne", "Armor"), ("London", "Venice")),
        "C": Preferences(("Armor", "Famine"), ("London",)),
        "E": Preferences(("Famine", "Charlemagne"), ("Venice", "Genoa")),
        "F": Preferences(("Nonsuch", "Fur-1"), ("Venice", "Genoa")),
    }
    r = resolve_opening(bids, CAPITALS, CARDS, prefs)
    assert [(p.chooser, p.item, p.by, p.passed_over) for p in r.card_picks] == [
        ("A", "Charlemagne", "list", ()),
        ("B", "Armor", "list", ("Charlemagne",)),
        ("C", "Famine", "list", ("Armor",)),
        ("D", "Stone-1", "default", ()),
        ("E", "Wool-1", "default", ("Famine", "Charlemagne")),
        ("F", "Fur-1", "list", ()),
    ]
    assert [(p.chooser, p.item, p.by) for p in r.capital_picks] == [
        ("F", "Venice", "list"), ("E", "Genoa", "list"), ("D", "Barcelona", "default"),
        ("C", "London", "list"), ("B", "Paris", "default"), ("A", "Hamburg", "list"),
    ]
    assert r.capital_of == {"A": "Hamburg", "B": "Paris", "C": "London", "D": "Barcelona", "E": "Genoa",
                            "F": "Venice"}
    assert r.cards_of["E"] == ["Wool-1"]
    assert r.paid == {"A": 13, "B": 11, "C": 11, "D": 11, "E": 11, "F": 10}
    # Every bid is published, in the card ranking's order.
    assert [(b.player, b.cards, b.capitals) for b in r.bids] == [
        ("A", 12, 1), ("B", 9, 2), ("C", 7, 4), ("D", 5, 6), ("E", 3, 8), ("F", 0, 10)]


def test_two_cards_each_are_drafted_in_rounds_in_the_same_order():
    """cards_each=2, card order Ann (8), Bob (4), Cid (1). Round one: Ann, Bob, Cid; round two the same
    order again (not reversed), so Ann picks 1st and 4th. Lists: Ann Armor, Famine, Fur-1; Bob Armor,
    Famine; Cid none. Round 1: Ann Armor; Bob Armor taken -> Famine; Cid default Stone-1. Round 2: Ann reads
    on: Famine taken -> Fur-1; Bob's list is spent -> default Wool-1; Cid default Charlemagne (Stone-1,
    Wool-1, Armor gone; next in the deck's order)."""
    bids = [OpeningBid("Ann", 8, 0, 3), OpeningBid("Bob", 4, 0, 2), OpeningBid("Cid", 1, 0, 1)]
    prefs = {"Ann": Preferences(("Armor", "Famine", "Fur-1")), "Bob": Preferences(("Armor", "Famine"))}
    r = resolve_opening(bids, CAPITALS, CARDS, prefs, cards_each=2)
    assert [(p.chooser, p.item) for p in r.card_picks] == [
        ("Ann", "Armor"), ("Bob", "Famine"), ("Cid", "Stone-1"),
        ("Ann", "Fur-1"), ("Bob", "Wool-1"), ("Cid", "Charlemagne")]
    assert r.cards_of == {"Ann": ["Armor", "Fur-1"], "Bob": ["Famine", "Wool-1"], "Cid": ["Stone-1", "Charlemagne"]}


def test_a_player_without_a_bid_bids_nothing_and_comes_after_every_mail():
    """Jo sent nothing; Kit bid 0/0 at seq 5. Both are 0/0 (global 0); Kit's mail is received, Jo's never:
    Kit before Jo in both rankings. Lee 1/1 is first in both."""
    bids = [OpeningBid("Kit", 0, 0, 5), OpeningBid("Lee", 1, 1, 8)]
    r = resolve_opening(bids, CAPITALS, CARDS, {}, players=["Jo", "Kit", "Lee"])
    assert order(r.card_order) == ["Lee", "Kit", "Jo"]
    assert order(r.capital_order) == ["Lee", "Kit", "Jo"]
    assert r.missing == ["Jo"]
    assert r.paid["Jo"] == 0


def test_bids_are_checked_against_the_starting_cash():
    """Both bids are paid from the starting cash (GA-OQ-25): with cash 40, 25 + 15 = 40 is allowed, 25 + 16
    = 41 is not; negative or fractional amounts never are."""
    assert check_bid(25, 15, 40) is None
    assert "more than your starting cash (40)" in check_bid(25, 16, 40)
    assert check_bid(-1, 0, 40) == "the card bid cannot be negative"
    assert check_bid(1, 2.5, 40) == "the capital bid must be a whole number"
    assert check_bid(500, 500, None) is None
    with pytest.raises(ValueError, match="Ann: the two bids"):
        resolve_opening([OpeningBid("Ann", 30, 11, 1)], CAPITALS, CARDS, {}, cash=40)
    with pytest.raises(ValueError, match="capitals"):
        resolve_opening([OpeningBid(str(i), 1, 1, i) for i in range(7)], CAPITALS, CARDS, {})


def test_the_result_does_not_depend_on_the_order_the_bids_are_given():
    """The same three bids handed in reversed give the same rankings and picks."""
    bids = [OpeningBid("Ann", 10, 2, 1), OpeningBid("Bob", 10, 5, 2), OpeningBid("Cid", 7, 9, 3)]
    a = resolve_opening(bids, CAPITALS, CARDS, {})
    b = resolve_opening(bids[::-1], CAPITALS, CARDS, {})
    assert a.card_picks == b.card_picks and a.capital_picks == b.capital_picks


# ---- turn order (GA-OQ-27)

def test_turn_order_fewest_tokens_first_ties_by_receipt():
    """The base game: the fewest tokens bought goes first. Bids: Ann 6 (seq 4), Bob 2 (seq 9), Cid 2
    (seq 3), Dan 10 (seq 1). Order: Cid and Bob tie at 2, Cid's mail earlier -> Cid, Bob; then Ann 6, Dan
    10. Reasons: None, receipt, turn bid, turn bid."""
    bids = [TurnBid("Ann", 6, 4), TurnBid("Bob", 2, 9), TurnBid("Cid", 2, 3), TurnBid("Dan", 10, 1)]
    placed = turn_order(bids)
    assert order(placed) == ["Cid", "Bob", "Ann", "Dan"]
    assert reasons(placed) == [None, RECEIPT, TURN_BID, TURN_BID]


def test_turn_order_most_first_when_the_setup_says_so():
    """Same bids with fewest_first=False: Dan 10, Ann 6, then Cid and Bob (2, by receipt: Cid seq 3)."""
    bids = [TurnBid("Ann", 6, 4), TurnBid("Bob", 2, 9), TurnBid("Cid", 2, 3), TurnBid("Dan", 10, 1)]
    assert order(turn_order(bids, fewest_first=False)) == ["Dan", "Ann", "Cid", "Bob"]


def test_turn_order_ties_by_the_later_choice_of_capital():
    """The base game's tie-break, read as "who picked country last" goes first: capitals were chosen in the
    order Cid, Bob, Ann. Ann and Bob both bid 3, Ann's mail earlier (seq 1, Bob seq 2); Ann chose later
    (3rd against 2nd), so Ann first by "the later choice of capital", not by receipt. Cid 5 last."""
    bids = [TurnBid("Ann", 3, 1), TurnBid("Bob", 3, 2), TurnBid("Cid", 5, 3)]
    placed = turn_order(bids, ties="capital choice", capital_picks=["Cid", "Bob", "Ann"])
    assert order(placed) == ["Ann", "Bob", "Cid"]
    assert reasons(placed) == [None, CAPITAL_CHOICE, TURN_BID]
    # With the receipt tie-break, the earlier mail: Ann (seq 1) too, but for the other reason.
    assert reasons(turn_order(bids)) == [None, RECEIPT, TURN_BID]
    # Swap the receipts: receipt order gives Bob first, the capital choice still Ann.
    swapped = [TurnBid("Ann", 3, 2), TurnBid("Bob", 3, 1), TurnBid("Cid", 5, 3)]
    assert order(turn_order(swapped)) == ["Bob", "Ann", "Cid"]
    assert order(turn_order(swapped, ties="capital choice", capital_picks=["Cid", "Bob", "Ann"])) == [
        "Ann", "Bob", "Cid"]


def test_a_missing_turn_bid_buys_nothing_after_every_mail():
    """Zoe sends nothing (0 tokens, after every mail); Yan bids 0 at seq 8; Xan 1. Fewest first: Yan, Zoe,
    Xan; Zoe after Yan by the receipt (she has none)."""
    placed = turn_order([TurnBid("Yan", 0, 8), TurnBid("Xan", 1, 2)], players=["Xan", "Yan", "Zoe"])
    assert order(placed) == ["Yan", "Zoe", "Xan"]
    assert reasons(placed) == [None, RECEIPT, TURN_BID]
    assert not placed[1].entry.mailed


def test_turn_bid_checks():
    assert check_turn_bid(0) is None
    assert check_turn_bid(-2) == "the turn bid cannot be negative"
    assert check_turn_bid("3") == "the turn bid must be a whole number"
    assert check_turn_bid(9, most=8) == "the turn bid (9) is more than you can buy (8)"
    with pytest.raises(ValueError, match="capital-choice tie-break"):
        turn_order([TurnBid("A", 1, 1)], ties="capital choice")
    # Equal on every criterion but the name: only possible for two players without mail.
    assert [p.decided_by for p in turn_order([], players=["B", "A"])] == [None, NAME]


# ---- the published words

def test_the_opening_is_published_with_every_bid_the_reason_of_each_place_and_each_pick():
    """Ann 10/2 (seq 1), Bob 10/5 (seq 2), Cid 7/9 (seq 3), as in the first test: cards Bob, Ann (global
    bid), Cid (card bid); capitals Cid, Bob, Ann. Ann lists Armor; Bob lists Armor, Famine. Card picks: Bob
    Armor (list), Ann: Armor taken, default Stone-1; Cid no list, default Wool-1. Capitals by default in the
    setup's order: Cid Venice, Bob Genoa, Ann Barcelona."""
    bids = [OpeningBid("Ann", 10, 2, 1), OpeningBid("Bob", 10, 5, 2), OpeningBid("Cid", 7, 9, 3)]
    prefs = {"Ann": Preferences(("Armor",)), "Bob": Preferences(("Armor", "Famine"))}
    lines = opening_lines(resolve_opening(bids, CAPITALS, CARDS, prefs), names={"Stone-1": "Stone"})
    assert lines == [
        "Choosing cards:",
        "1st Bob: the card bid 10; 10 for cards, 5 for capitals, global 15",
        "2nd Ann: the card bid 10; 10 for cards, 2 for capitals, global 12 (after Bob by the global bid)",
        "3rd Cid: the card bid 7; 7 for cards, 9 for capitals, global 16 (after Ann by the card bid)",
        "Cards taken:",
        "1. Bob takes Armor (from his list)",
        "2. Ann takes Stone (no choice of his left; Armor already taken: the first still free)",
        "3. Cid takes Wool-1 (no choice of his left: the first still free)",
        "Choosing capitals:",
        "1st Cid: the capital bid 9; 7 for cards, 9 for capitals, global 16",
        "2nd Bob: the capital bid 5; 10 for cards, 5 for capitals, global 15 (after Cid by the capital bid)",
        "3rd Ann: the capital bid 2; 10 for cards, 2 for capitals, global 12 (after Bob by the capital bid)",
        "Capitals taken:",
        "1. Cid takes Venice (no choice of his left: the first still free)",
        "2. Bob takes Genoa (no choice of his left: the first still free)",
        "3. Ann takes Barcelona (no choice of his left: the first still free)",
    ]


def test_turn_order_is_published_with_every_bid():
    placed = turn_order([TurnBid("Bob", 2, 9), TurnBid("Cid", 2, 3)], players=["Bob", "Cid", "Dee"])
    assert turn_order_lines(placed) == [
        "1st Dee: no bid (0)", "2nd Cid: bid 2 (after Dee by the turn bid)",
        "3rd Bob: bid 2 (after Cid by the first mail received)"]


def test_preference_lists_are_checked_for_the_ack():
    """Held-out or later cards are not in the opening pool ("Marco Polo"), "Rome" is no capital, and
    "Venice" named twice is pointed out; a clean list gives nothing."""
    prefs = Preferences(("Armor", "Marco Polo"), ("Venice", "Rome", "Venice"))
    assert check_preferences(prefs, CAPITALS, CARDS) == [
        "'Marco Polo' is not a card you can choose at the start",
        "'Rome' is not a capital you can choose at the start",
        "'Venice' is twice in your capital list",
    ]
    assert check_preferences(Preferences(("Armor",), ("Genoa",)), CAPITALS, CARDS) == []


def test_the_result_as_json_for_the_state():
    """Two players: Ann 3/1 (seq 2), Bob 1/3 (seq 1). Cards: Ann (3), Bob; capitals: Bob (3), Ann. No lists:
    Ann takes Stone-1, Bob Wool-1; Bob Venice, Ann Genoa. The JSON form survives json.dumps unchanged."""
    import json

    r = resolve_opening([OpeningBid("Ann", 3, 1, 2), OpeningBid("Bob", 1, 3, 1)], CAPITALS, CARDS, {})
    j = r.as_json()
    assert json.loads(json.dumps(j)) == j
    assert j["bids"] == {"Ann": {"cards": 3, "capitals": 1, "global": 4, "mailed": True},
                         "Bob": {"cards": 1, "capitals": 3, "global": 4, "mailed": True}}
    assert j["card_order"] == [{"player": "Ann", "place": 1, "decided_by": None},
                               {"player": "Bob", "place": 2, "decided_by": CARD_BID}]
    assert j["capital_picks"] == [{"player": "Bob", "item": "Venice", "by": "default", "passed_over": []},
                                  {"player": "Ann", "item": "Genoa", "by": "default", "passed_over": []}]
    assert j["cards_of"] == {"Ann": ["Stone-1"], "Bob": ["Wool-1"]}
    assert j["paid"] == {"Ann": 4, "Bob": 4}
