"""Galilei's engine: setup, the orders by mail, and each phase of a turn, with numbers worked by hand from
the rules (quoted by number in each docstring)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from maild.ledger import display
from maild.ruleset import SetupError
from maild.testing import ScriptedRandom
from maild_rules.galilei import RULESET, orders
from maild_rules.galilei import state as st
from maild_rules.galilei import turn as tn
from tests.galilei_engine_fixtures import PLAYERS, example_setup, gm, new_state, placed


def luck(state: dict, player: str) -> Fraction:
    return Fraction(st.luck_ledger(state).balance(player, st.LUCK))


def set_luck(state: dict, **scores: Fraction) -> None:
    ledger = st.luck_ledger(state)
    for who, amount in scores.items():
        ledger.post(0, who, st.LUCK, amount, "given")


# -- setup -----------------------------------------------------------------------------------------------------------
def test_the_example_setup_gives_six_players_in_seat_order_with_nothing_yet() -> None:
    state = new_state()
    assert st.order(state) == PLAYERS
    assert state["capitals"] == ["Venice", "Genoa", "Barcelona", "Paris", "London", "Hamburg"]
    assert all(p["capital"] is None for p in state["players"].values())
    assert state["option_312"] is False and state["opening"] is None
    # Without [[cards]] the shipped deck (cards.default_deck): ids are what players write.
    assert [c["id"] for c in state["deck"][:3]] == ["Stone-1", "Stone-2", "Wool-1"]
    assert all(hand == [] for hand in state["held"].values())


def test_a_bad_setup_is_refused_with_every_reason_at_once() -> None:
    """Rule 1 "Basic Rules (6 players)": five players and five capitals are refused, with the advance typo."""
    setup = example_setup()
    setup["players"] = setup["players"][:5]
    setup["players"][0]["advances"] = ["prosel"]
    setup["capitals"] = setup["capitals"][:5]
    setup["option_312"] = "yes"
    with pytest.raises(SetupError) as err:
        RULESET.new_game(setup)
    text = str(err.value)
    assert "Galilei is for 6 players (rule 1), found 5" in text
    assert "Galilei has 6 capitals" in text and "found 5" in text
    assert "advances must be a list of proselytism, cathedral, mill, military" in text
    assert "option_312 must be true or false" in text


def test_a_setup_without_the_shortage_table_or_enough_cards_is_refused() -> None:
    setup = example_setup()
    del setup["shortage_table"]
    setup["cards"] = [{"name": "Silk", "epoch": 1}]
    with pytest.raises(SetupError) as err:
        RULESET.new_game(setup)
    assert "shortage_table: one commodity for each of the rows" in str(err.value)
    assert "cards: card 1 has no kind" in str(err.value)


# -- orders by mail ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, kind, args", [
    ("bid 12 for cards, 8 for capitals", "bid", {"cards": 12, "capitals": 8}),
    ("Bid capitals: 8 and cards 12", "bid", {"cards": 12, "capitals": 8}),
    ("BIDS 12 cards 8 capitals", "bid", {"cards": 12, "capitals": 8}),
    ("prefer cards: Master Art, Silk; capitals: Venice, Genoa", "prefer",
     {"cards": ["Master Art", "Silk"], "capitals": ["Venice", "Genoa"]}),
    ("preferences capitals Venice and Genoa", "prefer", {"capitals": ["Venice", "Genoa"]}),
    ("turn bid 5", "turn", {"amount": 5}),
    ("Turn order bid: 3", "turn", {"amount": 3}),
    ("number 4", "number", {"number": 4, "for": None}),
    ("Surplus", "shortage", {"choice": "surplus", "for": None}),
    ("number 5 for bob", "number", {"number": 5, "for": "bob"}),
    ("shortage for Genoa", "shortage", {"choice": "shortage", "for": "Genoa"}),
    ("war against Genoa, my modifier +2, cities 3 2 1", "war",
     {"opponent": "Genoa", "modifier": 2, "his_modifier": 0, "cities": [3, 2, 1], "his_cities": []}),
    ("card Papal Decree, Stone-1", "card", {"cards": ["Papal Decree", "Stone-1"]}),
    ("discard Silk", "discard", {"card": "Silk"}),
    ("pass", "pass", {}),
    # GA-OQ-32: "battle", "attack", "combat" are one order
    ("combat: Paris, 2 tokens", "battle", {"target": "Paris", "spend": None, "position": None, "military": False,
                                          "proselytism": False, "cathedral": False, "tokens": 2}),
])
def test_orders_are_read_however_people_write_them(text: str, kind: str, args: dict) -> None:
    parsed = orders.parse(text)
    assert parsed.diagnostics == []
    assert [(o.kind, o.args) for o in parsed.orders] == [(kind, args)]


def test_a_battle_declaration_with_every_detail() -> None:
    """The brief's example line, and the same battle spending one position instead of an amount."""
    a = orders.parse("battle: attack Paris at position 2 with military advantage, proselytism, 4 tokens, "
                     "spend 0.0972").orders[0].args
    assert a == {"target": "Paris", "position": 2, "military": True, "proselytism": True, "cathedral": False,
                 "tokens": 4, "spend": "0.0972"}
    b = orders.parse("Attack London as 6th, cathedral, spend 1 position").orders[0].args
    assert (b["target"], b["position"], b["cathedral"], b["tokens"], b["spend"]) == \
        ("London", 6, True, 1, "1 position")
    c = orders.parse("attack London, spend to position 2").orders[0].args
    assert (c["position"], c["spend"]) == (None, "to position 2")


def test_every_line_not_understood_gets_a_diagnostic_naming_it_and_what_was_expected() -> None:
    parsed = orders.parse("bid 12 for cards, 8 for capitals\nbid 12\nnumber 9\nbattle: attack Paris with "
                          "dragons\nfrobnicate\n\nturn bid 2")
    assert [o.kind for o in parsed.orders] == ["bid", "turn"]
    by_line = {d.line: d for d in parsed.diagnostics}
    assert set(by_line) == {2, 3, 4, 5}
    assert "expected 'cards' or 'capitals' after '12'" in by_line[2].message
    assert "the secret number must be from 1 to 6, found 9" in by_line[3].message
    assert "'dragons' was not understood" in by_line[4].message
    assert "at the start of the line, but found 'frobnicate'" in by_line[5].message
    assert by_line[5].text == "frobnicate"


def test_check_refuses_names_and_places_that_do_not_fit() -> None:
    state = new_state()
    got = orders.parse("prefer capitals: Rome\ncard Dragon\nbattle: attack Rome\nnumber 3\nsurplus").orders
    # alice is at position 1: her number stands, her surplus does not.
    messages = [d.message for d in RULESET.check(state, 1, "alice", got)]
    assert messages == ["Rome is no capital of this game (Venice, Genoa, Barcelona, Paris, London, Hamburg)",
                        "Dragon is no card of this game's deck (write its id, e.g. Stone-1)",
                        "Rome is neither a player nor a capital held",
                        "seat 1 records a number from 1 to 6, not a shortage or surplus"]
    assert [d.message for d in RULESET.check(state, 1, "erin", orders.parse("number 3").orders)] == \
        ["seat 5 chooses shortage or surplus, not a number"]


# -- phase 1: the opening and turn order -------------------------------------------------------------------------------
def test_opening_ties_on_one_category_on_both_and_on_the_global_bid_go_by_receipt_order() -> None:
    """3.2 through opening.resolve_opening. Cards: alice 10, bob 10, carol 10, dave 9, erin and frank sent
    nothing (0 and 0, after every mail, by name). alice and bob tie at 10 for cards and their global bids
    (10+5=15 against 10+8=18) put bob first; carol ties bob on both bids (10, 8) and so on the global 18,
    and her mail came later (seq 3 > 2): bob, carol, alice, dave, erin, frank. bob takes War from his list;
    carol's War is gone, she takes Armor; alice's Armor is gone and her list is empty: the first card of the
    opening pool, Stone-1. Capitals: dave 20, then bob and carol at 8 (global 18, bob's mail first), alice 5."""
    state = new_state()
    p = placed({"alice": ("bid 10 for cards, 5 for capitals\nprefer cards: Armor; capitals: Genoa", 1),
                "bob": ("bid 10 for cards, 8 for capitals\nprefer cards: War; capitals: Genoa, Paris", 2),
                "carol": ("bid 10 for cards, 8 for capitals\nprefer cards: War, Armor", 3),
                "dave": ("bid 9 for cards, 20 for capitals\nprefer capitals: Genoa", 4)})
    report = tn.Report()
    tn.run_opening(state, p, PLAYERS, report)
    got = state["opening"]
    assert [(d["player"], d["decided_by"]) for d in got["card_order"]] == [
        ("bob", None), ("carol", "the first mail received"), ("alice", "the global bid"),
        ("dave", "the card bid"), ("erin", "the card bid"), ("frank", "the bidder's name")]
    assert [(d["player"], d["item"], d["by"]) for d in got["card_picks"][:3]] == [
        ("bob", "War", "list"), ("carol", "Armor", "list"), ("alice", "Stone-1", "default")]
    assert [(d["player"], d["item"]) for d in got["capital_picks"][:4]] == [
        ("dave", "Genoa"), ("bob", "Paris"), ("carol", "Venice"), ("alice", "Barcelona")]
    assert state["held"]["bob"] == ["War"] and state["players"]["dave"]["capital"] == "Genoa"
    assert any("alice" in line and "the global bid" in line for line in report.public), report.public


def test_turn_order_fewest_first_ties_by_the_first_mail_received() -> None:
    """turnorder.turn_order (the base game's direction, fewest first: GA-OQ-27) with the issue's receipt order
    for ties. Bids: alice 3 (seq 5), bob 7, carol 3 (seq 1), dave 0 (seq 4), erin 9, frank none (0, after
    every mail). Order: dave 0, frank 0, carol 3 (earlier mail than alice), alice 3, bob 7, erin 9."""
    state = new_state()
    p = placed({"alice": ("turn bid 3", 5), "bob": ("turn bid 7", 2), "carol": ("turn bid 3", 1),
                "dave": ("turn bid 0", 4), "erin": ("turn bid 9", 3)})
    tn.run_turn_order(state, p, PLAYERS, tn.Report())
    assert st.order(state) == ["dave", "frank", "carol", "alice", "bob", "erin"]


# -- phase 2: shortage and surplus -------------------------------------------------------------------------------------
def results(state: dict) -> list[tuple]:
    return [(r["total"], r["commodity"], r["side"], r["decided_by"]) for r in state["shortage"]["results"]]


def test_shortage_numbers_and_decisions_give_two_results() -> None:
    """3.3 by shortage.resolve_shortage: 1&3 (alice 2, carol 5: total 7, Wine in the example's table) with 5
    (erin: surplus); 2&4 (bob 6, dave 6: 12, Gold) with 6 (frank: shortage). Nothing drawn."""
    state = new_state()
    p = placed({"alice": ("number 2", 1), "bob": ("number 6", 2), "carol": ("number 5", 3),
                "dave": ("number 6", 4), "erin": ("surplus", 5), "frank": ("shortage", 6)})
    report = tn.Report()
    tn.resolve_shortage(state, 1, p, ScriptedRandom(), report)
    assert results(state) == [(7, "Wine", "surplus", "erin"), (12, "Gold", "shortage", "frank")]
    assert state["shortage"]["history"]["erin"] == ["surplus"]
    assert "1&3 with 5: 2 + 5 = 7: Wine, surplus" in report.public


def test_alternation_forces_the_opposite_and_missing_orders_take_the_documented_defaults() -> None:
    """3.3 "the next time he is in 5th or 6th position, he is bounded to determine the opposite": erin
    decided surplus before, so her surplus is set aside (she is told) and her seat takes the forced shortage;
    frank (shortage, shortage, surplus: one shortage ahead) sends nothing: forced surplus. The four numbers
    nobody sent are drawn in seat order (shortage.py's default): 1, 2, 3, 4: totals 1+3 = 4 (Timber) and
    2+4 = 6 (Cloth)."""
    state = new_state()
    state["shortage"]["history"]["erin"] = ["surplus"]
    state["shortage"]["history"]["frank"] = ["shortage", "shortage", "surplus"]
    report = tn.Report()
    rng = ScriptedRandom(1, 2, 3, 4)
    tn.resolve_shortage(state, 2, placed({"erin": ("surplus", 1)}), rng, report)
    assert rng.done
    assert results(state) == [(4, "Timber", "shortage", "erin"), (6, "Cloth", "surplus", "frank")]
    assert "you must choose shortage this time" in report.private["erin"][0]
    assert state["shortage"]["history"]["erin"] == ["surplus", "shortage"]


def test_chaos_the_player_three_positions_further_acts_twice() -> None:
    """3.3 "the player occupying a position 3 greater than him will act twice": bob (seat 2) chaosed, so the
    player at seat 5, erin, acts for him too ("number 5 for bob"); frank (seat 6) chaosed, 6 + 3 round the
    order is seat 3, carol ("shortage for frank"). A chaosed player sends nothing, so the phase waits only
    for the others. Totals: 1&3 = 1 + 2 = 3 (Wool) with erin's surplus; 2&4 = 5 + 3 = 8 (Metal) with carol's
    shortage for frank."""
    state = new_state()
    state["shortage"]["chaosed"] = ["bob", "frank"]
    assert RULESET.must_send(state, 1, "shortage") == ["alice", "carol", "dave", "erin"]
    p = placed({"alice": ("number 1", 1), "carol": ("number 2\nshortage for frank", 2), "dave": ("number 3", 3),
                "erin": ("number 5 for bob\nsurplus", 4)})
    tn.resolve_shortage(state, 1, p, ScriptedRandom(), tn.Report())
    assert results(state) == [(3, "Wool", "surplus", "erin"), (8, "Metal", "shortage", "carol")]
    assert state["shortage"]["chaosed"] == []  # for one turn only


# -- phase 3: battles, war ---------------------------------------------------------------------------
def test_a_declaration_takes_the_turn_order_position_and_the_advances_held() -> None:
    """The position written, else the attacker's place in turn order; Proselytism and the military advantage
    written, or held (set by the GM). carol is 3rd and holds Proselytism: row 3 - 1 = 2."""
    state = new_state()
    state["players"]["carol"]["advances"]["proselytism"] = True
    decl = tn.battle_declaration(state, "carol", orders.parse("attack dave, 2 tokens").orders[0].args)
    assert (decl.position, decl.proselytism, decl.advantage, decl.row, decl.tokens) == (3, True, False, 2, 2)
    decl = tn.battle_declaration(state, "carol", orders.parse("attack dave at position 5, military advantage")
                                 .orders[0].args)
    assert (decl.position, decl.advantage, decl.row) == (5, True, 4)
    assert "no other player" in tn.battle_declaration(state, "carol", {"target": "carol"})


def _battle(state: dict, attacker: str, text: str, rng: random.Random) -> tn.Report:
    report = tn.Report()
    tn.battle(state, 1, attacker, orders.parse(text).orders[0].args, rng, report, {})
    return report


def test_a_lost_battle_scores_the_chance_of_success_times_the_tokens() -> None:
    """3.4 and 3.11: "a player losing 4 tokens and playing first will score 4x0.9027=3.6108 negative points"
    (maild: one posting for the 4 tokens, 4 x 65/72 = 65/18 = 3.61111, posted -3.6111). The roll 71 of 72
    (randrange 70) is above 65: lost."""
    state = new_state()
    rng = ScriptedRandom(70)
    _battle(state, "alice", "battle: attack bob, 4 tokens", rng)
    assert luck(state, "alice") == Fraction("-3.6111") and display(luck(state, "alice")) == "-3.6111"
    assert luck(state, "bob") == Fraction("3.6111")
    assert rng.calls == [("randrange", 0, 72)] and state["rolls"][0]["won"] is False


def test_the_worked_example_of_3_5_with_four_digit_figures() -> None:
    """3.5: London (here frank, position 6) at -0.8056 (table 1 row 2 LOSE) attacks Genoa (dave) at +0.5833.
    Spending 4 positions costs 4 x 7/72 = 28/72 = 0.38889, charged 0.3889 (the rules' figure); London goes
    to -0.8056 + 0.3889 = -0.4167 and Genoa to 0.5833 - 0.3889 = 0.1944 ("0.1945" in the rules, truncated
    sums). Chance from 41.67% (30/72) to 80.56% (58/72). He wins (roll 1): 14/72 = 0.19444, posted 0.1944,
    to London, -0.1944 to Genoa: London -0.4167 + 0.1944 = -0.2223 (rules: -0.2220), Genoa 0. He attacks
    again and spends 1: Genoa's score is not positive, so the spend is cut to nothing."""
    state = new_state()
    state["order"] = ["alice", "bob", "carol", "erin", "dave", "frank"]
    set_luck(state, frank=Fraction("-0.8056"), dave=Fraction("0.5833"))
    report = _battle(state, "frank", "battle: attack dave, spend 0.3889", ScriptedRandom(0))
    roll = state["rolls"][0]
    assert Fraction(roll["spent"]) == Fraction("0.3889") and Fraction(roll["chance"]) == Fraction(58, 72)
    assert luck(state, "frank") == Fraction("-0.2223") and display(luck(state, "frank")) == "-0.2223"
    assert luck(state, "dave") == 0
    assert "spends 0.3889 (4 rows, to 80.56%)" in report.public[0], report.public
    report = _battle(state, "frank", "battle: attack dave, spend 1 position", ScriptedRandom(71))
    assert Fraction(state["rolls"][1]["spent"]) == 0 and "declared 1" in report.public[0], report.public


def test_option_3_12_lifts_the_defenders_bound_and_proselytism_can_make_victory_sure() -> None:
    """Without 3.12 alice (-0.1944) cannot spend against bob (0). With it she spends 2 rows at position 2:
    14/72 = 0.19444, charged 0.1944, chance 1: sure victory, no die rolled, nothing scored; alice 0, bob
    -0.1944."""
    state = new_state(option_312=True)
    set_luck(state, alice=Fraction("-0.1944"))
    state["order"] = ["bob", "alice", "carol", "dave", "erin", "frank"]
    rng = ScriptedRandom()
    _battle(state, "alice", "battle: attack bob, spend 2 positions", rng)
    assert rng.calls == [] and state["rolls"][0]["won"] is True and state["rolls"][0]["roll"] is None
    assert luck(state, "alice") == 0 and luck(state, "bob") == Fraction("-0.1944")


def test_a_cathedral_attack_is_rolled_but_scores_nothing() -> None:
    """3.8: "Attacks with cathedral application do not provide "luck" points"."""
    state = new_state()
    _battle(state, "carol", "battle: attack dave, cathedral, 3 tokens", ScriptedRandom(71))
    assert state["rolls"][0]["won"] is False and luck(state, "carol") == 0 and luck(state, "dave") == 0


@pytest.mark.parametrize("dice, text, winner, figure", [
    ((4, 3), "war against bob", "alice", "0.5833"),  # even, 1 city: P(d <= 0) = 21/36
    ((6, 1), "war against bob", "alice", "0.9722"),  # 5 cities: P(d <= 4) = 35/36
    ((1, 2), "war against bob, my modifier +2", "alice", "0.2778"),  # +2, 1 city: P(d + 2 <= 0) = 10/36
    ((3, 3), "war against bob", None, "0.0000"),  # "If they tie, both score nothing"
    ((1, 4), "war against bob, my modifier +1", "bob", "0.8333"),  # bob leads 4-(1+1)=2: P(d-1 <= 1)=30/36
])
def test_war_luck_is_the_chance_of_one_step_worse_or_less(dice: tuple[int, int], text: str, winner: str | None,
                                                          figure: str) -> None:
    """3.7, with each side a die plus its modifier and the lead the cities taken; the figures are 3.7's."""
    state = new_state()
    report = tn.Report()
    tn.war(state, 1, "alice", orders.parse(text).orders[0].args, ScriptedRandom(*dice), report)
    assert state["rolls"][0]["winner"] == winner
    got = luck(state, winner) if winner else luck(state, "alice")
    assert display(got) == figure
    assert luck(state, "alice") + luck(state, "bob") == 0


# -- phase 4: cards; GM orders; the whole phase hook -----------------------------------------------------------------
def test_cards_are_drawn_in_turn_order_by_preference_and_discards_need_master_art() -> None:
    """3.1 by cards.draw: bob (first) wants War: he takes it; alice wants War then Armor: Armor; the others
    get the first card on offer in the deck's order (Stone-1, Stone-2, Wool-1, Wool-2). Rule 2: alice, who
    holds the advance Master Art, discards Armor; carol, without it, may not discard her Stone-1."""
    state = new_state()
    state["order"] = ["bob", "alice", "carol", "dave", "erin", "frank"]
    state["players"]["alice"]["advances"]["master_art"] = True
    p = placed({"bob": ("card War", 1), "alice": ("card War, Armor\ndiscard Armor", 2),
                "carol": ("discard Stone-1", 3)})
    report = tn.Report()
    tn.resolve_cards(state, 1, p, report)
    assert [(d["player"], d["card"]) for d in state["draws"]] == [
        ("bob", "War"), ("alice", "Armor"), ("carol", "Stone-1"), ("dave", "Stone-2"), ("erin", "Wool-1"),
        ("frank", "Wool-2")]
    assert state["held"]["alice"] == [] and state["discarded"] == ["Armor"]
    assert state["held"]["carol"] == ["Stone-1"] and "Master Art" in report.private["carol"][0]


def test_gm_orders_set_advances_and_correct_a_score_exactly() -> None:
    state = new_state()
    report = tn.Report()
    tn.apply_gm(state, 1, [gm("gm_advances", player="bob", advances="proselytism, military"),
                           gm("gm_luck", player="bob", change="-7/72", reason="slip"),
                           gm("gm_luck", player="bob", change="0.0972"), gm("gm_chaos", player="bob"),
                           gm("gm_chaos", player="frank"), gm("gm_chaos", player="bob")], report)
    assert state["shortage"]["chaosed"] == ["bob", "frank"]
    assert state["players"]["bob"]["advances"] == {"proselytism": True, "cathedral": False, "mill": False,
                                                   "military": True, "master_art": False}
    # GA-OQ-04: the fraction -7/72 = -0.097222 is posted rounded, -0.0972; the decimal the GM typed from the
    # printout, 0.0972, is posted as typed: -0.0972 + 0.0972 = 0, no remainder is left.
    assert luck(state, "bob") == 0
    assert [r["line"] for r in state["rolls"]] == ["GM correction (slip): bob -0.0972. Score bob -0.0972.",
                                                   "GM correction (amendment): bob +0.0972. Score bob 0.0000."]
    assert RULESET.check_gm(state, "gm_advances", {"advances": "telescope"}) is not None
    assert RULESET.check_gm(state, "gm_luck", {"change": "lots"}) is not None


def test_every_phase_prints_the_ledger_and_the_history() -> None:
    """resolve_phase's printouts: the phase's results, the running scores and the history of rolls."""
    state = new_state()
    p = placed({"alice": ("battle: attack bob, 2 tokens", 1)})
    result = RULESET.resolve_phase(state, 1, "battles", p, ScriptedRandom(0))
    titles = [s["title"] for s in result.printouts["bob"]["sections"]]
    assert titles[:3] == ["Results of the battles phase",
                          "Players in turn order: capitals, luck scores (3.4), cards held (3.1)",
                          "History of rolls and GM corrections before this phase"]
    table = result.newsletter["sections"][1]["lines"]  # no capital yet: the opening is not resolved here
    assert table[1].split() == ["1", "alice", "-", "0.1944", "-"] and table[2].split() == ["2", "bob", "-",
                                                                                          "-0.1944", "-"]


def test_a_mill_after_a_battle_won_rolls_against_the_city_lost() -> None:
    """3.9 by mill.resolve_mill: alice (1st) wins against bob (roll 1 of 72: 7/72 = 0.09722, posted
    +0.0972), then "mill, need 3": the loser is bob, her last battle's defender; chance 3/6, die 2: success,
    +0.5000 to alice, -0.5000 to bob. alice 0.0972 + 0.5000 = 0.5972. A mill with nobody to roll against is
    not rolled, and said so."""
    state = new_state()
    p = placed({"alice": ("battle: attack bob\nmill, need 3", 1), "carol": ("mill, need 3", 2)})
    report = tn.Report()
    rng = ScriptedRandom(0, 2)
    tn.resolve_battles(state, 1, p, rng, report)
    assert rng.done and [r["type"] for r in state["rolls"]] == ["battle", "mill"]
    assert luck(state, "alice") == Fraction("0.5972") and luck(state, "bob") == Fraction("-0.5972")
    assert "not rolled" in report.private["carol"][0]


def test_a_battle_the_tables_cannot_fight_is_refused_at_intake() -> None:
    """spending.read_spend refuses 0.15 (no whole number of rows of 7/72 = 0.0972) and battles.check_form
    five rows from position 2; both are told in the ack."""
    state = new_state()
    got = orders.parse("attack bob, spend 0.15\nattack bob at position 2, spend 5 positions").orders
    messages = [d.message for d in RULESET.check(state, 1, "alice", got)]
    assert len(messages) == 2 and "0.1500 is not the cost of whole rows" in messages[0], messages


def test_a_later_mail_replaces_the_orders_of_the_same_kind_and_the_others_stand() -> None:
    """The resubmission policy: mail 1 has the opening bid, the lists and a turn bid; mail 2 only a new turn
    bid: the opening bid and lists of mail 1 stand (seq 1), the turn bid is mail 2's. In the battles phase a
    second mail's declarations replace the first mail's two battles whole."""
    from maild.ruleset import OrderSet

    first = OrderSet("alice", 1, orders.parse("bid 3 for cards, 4 for capitals\nprefer capitals: Genoa\n"
                                              "turn bid 2").orders)
    second = OrderSet("alice", 2, orders.parse("turn bid 5").orders)
    got = [(p.order.kind, p.seq) for p in RULESET.effective([second, first])]
    assert got == [("bid", 1), ("prefer", 1), ("turn", 2)]
    a = OrderSet("alice", 1, orders.parse("attack bob\nattack carol").orders)
    b = OrderSet("alice", 2, orders.parse("war against dave").orders)
    assert [p.order.kind for p in RULESET.effective([a, b])] == ["war"]
    c = OrderSet("erin", 3, orders.parse("number 4 for bob\nsurplus").orders)
    d = OrderSet("erin", 4, orders.parse("shortage").orders)
    assert [(p.order.summary, p.seq) for p in RULESET.effective([c, d])] == [("secret number 4 for bob", 3),
                                                                             ("shortage", 4)]


def test_an_amendment_file_corrects_advances_capital_hand_and_sets_a_score_exactly() -> None:
    """`maild gm amend`: bob's score is -0.0972 (a row-1 loss of the defender, 7/72 as posted) and the file
    sets it to 14/72, rounded to 0.1944 like every figure: the ledger posts 0.1944 + 0.0972 = +0.2916 (not
    21/72 = 0.2917) with the note; his hand and capital are set; a file naming an unknown card is refused."""
    state = new_state()
    set_luck(state, bob=Fraction("-0.0972"))
    doc = {"note": "turn 2 misread", "players": {"bob": {"luck": "14/72", "cards": ["War", "Stone-1"],
                                                         "capital": "Genoa", "advances": ["cathedral"]}}}
    assert RULESET.check_gm(state, "gm_amend", {"amendment": doc}) is None
    tn.apply_gm(state, 2, [gm("gm_amend", amendment=doc)], tn.Report())
    assert luck(state, "bob") == Fraction("0.1944")
    last = list(st.luck_ledger(state).postings("bob"))[-1]
    assert Fraction(last.amount) == Fraction("0.2916") and last.reason == "GM: turn 2 misread"
    assert state["held"]["bob"] == ["War", "Stone-1"] and state["players"]["bob"]["capital"] == "Genoa"
    assert state["players"]["bob"]["advances"]["cathedral"] is True
    bad = {"players": {"bob": {"cards": ["Dragon"]}}}
    assert "card ids of the deck" in RULESET.check_gm(state, "gm_amend", {"amendment": bad})


def test_a_gm_figure_is_posted_as_typed_to_four_digits() -> None:
    """GA-OQ-04: a GM's correction is what he types, to four digits (3.10): 0.9028 is 0.9028 (no hidden
    remainder behind the digits, no longer read as 65/72), 0.15 is 0.1500; a fifth digit and a fraction are
    rounded half up as every posting is: 0.97222 -> 0.9722, 0.00005 -> 0.0001, 7/72 = 0.097222 -> 0.0972,
    -65/72 = -0.902777 -> -0.9028, 1/7 = 0.142857 -> 0.1429."""
    from maild_rules.galilei.luck import read_correction

    typed = ("0.9028", "-0,0972", "0.15", "0.97222", "0.00005", "7/72", "-65/72", "2", "1/7")
    assert [read_correction(w) for w in typed] == [Fraction(x) for x in (
        "0.9028", "-0.0972", "0.15", "0.9722", "0.0001", "0.0972", "-0.9028", "2", "0.1429")]
    for bad in ("lots", "1/0", "0.1.2"):
        with pytest.raises(ValueError, match="not a figure"):
            read_correction(bad)
