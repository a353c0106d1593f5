"""The war's one rounding convention (war/arith.py, RW-OQ-01), the morale arithmetic (war/morale.py) and the
retreat point (war/ranks.py), each against figures worked by hand from the rules' words."""

from __future__ import annotations

from fractions import Fraction

import pytest

from maild_rules.renaissance.war import arith, morale, ranks


def test_a_loss_is_rounded_up_even_a_tiny_one() -> None:
    # ATTRITION: "always rounded up so as to maximize losses"; TRAVEL's NB: ".0001% ... the loss of one ship".
    assert arith.loss(Fraction(1, 1_000_000)) == 1
    assert arith.loss(Fraction(3, 5)) == 1  # 3 cannons x .2 x 500/500 = 0.6 -> 1 destroyed
    assert arith.loss(Fraction(2)) == 2  # exact: no extra man
    assert arith.loss(0) == 0
    assert arith.loss(Fraction(-1, 2)) == 0


def test_a_loss_never_exceeds_what_is_there() -> None:
    assert arith.loss(Fraction(57, 2), available=20) == 20  # 28.5 -> 29, but only 20 there
    assert arith.loss(Fraction(57, 2), available=0) == 0


def test_a_gain_is_rounded_down() -> None:
    # 1% of a sermonizing rating of 350 = 3.5 -> 3 (part 1's rule for every rating).
    assert arith.gain(Fraction(350, 100)) == 3
    assert arith.gain(Fraction(99, 100)) == 0
    assert arith.gain(-5) == 0


def test_the_nearest_whole_number_takes_a_half_upward() -> None:
    # DE FACTO CONTROL: looting "reduces a location's wealth by 7% (rounded to the nearest whole number)":
    # 7% of 150 = 10.5 -> 11 (a half is a loss, taken); 7% of 180 = 12.6 -> 13; 7% of 130 = 9.1 -> 9.
    assert arith.nearest(Fraction(7 * 150, 100)) == 11
    assert arith.nearest(Fraction(7 * 180, 100)) == 13
    assert arith.nearest(Fraction(7 * 130, 100)) == 9


def test_share_gives_whole_units_by_largest_remainder() -> None:
    # 10 lost between contingents of 30 and 20 men: 6 and 4 exactly.
    assert arith.share(10, {"a": 30, "b": 20}) == {"a": 6, "b": 4}
    # 7 between 1, 1, 1: 2.33 each -> 2, 2, 2 and the one left to the first written (equal remainders).
    assert arith.share(7, {"a": 1, "b": 1, "c": 1}) == {"a": 3, "b": 2, "c": 2}
    # 5 between 10 and 3: 3.846 and 1.154 -> 3 and 1, the remainder .846 > .154 to "a": 4 and 1.
    assert arith.share(5, {"a": 10, "b": 3}) == {"a": 4, "b": 1}
    assert arith.share(3, {"a": 0, "b": 5}) == {"a": 0, "b": 3}
    assert arith.share(0, {"a": 4}) == {"a": 0}


@pytest.mark.parametrize(("inflicted", "suffered", "change"), [
    (120, 100, -9),   # 2 x 100 - 120 = 80 > 0: sqrt(80) = 8.94, a fall rounded up: -9
    (300, 100, 10),   # 200 - 300 = -100: sqrt(100) = 10 added
    (250, 100, 7),    # 200 - 250 = -50: sqrt(50) = 7.07, a rise rounded down: +7
    (200, 100, 0),    # exactly 0: nothing
    (0, 8, -4),       # 16: -4 exactly
    (0, 0, 0),
])
def test_the_end_of_stage_morale_change(inflicted: int, suffered: int, change: int) -> None:
    # MORALE: "Casualties inflicted are deducted from a number equal to twice the casualties suffered. If this
    # number is negative, the square root of its absolute value is added to morale. If it is positive, its
    # square root is subtracted from morale."
    assert morale.stage_change(inflicted, suffered) == change


def test_morale_stays_a_rating() -> None:
    assert morale.apply_change(5, -9) == 0
    assert morale.apply_change(995, 10) == 999


def test_combined_morale_is_the_weighted_average_fraction_dropped() -> None:
    # MORALE: "When troops and/or crew of differing morale are combined, ... a weighted average":
    # 300 men at 400 and 100 at 200: (120,000 + 20,000) / 400 = 350.
    assert morale.combine([(300, 400), (100, 200)]) == 350
    # 2 at 500, 1 at 200: 1200 / 3 = 400; 2 at 201 and 1 at 200: 602 / 3 = 200.67 -> 200
    assert morale.combine([(2, 500), (1, 200)]) == 400
    assert morale.combine([(2, 201), (1, 200)]) == 200
    assert morale.combine([(0, 700)]) == 0


def test_men_joining_a_persona_average_into_his_morale_and_none_means_zero() -> None:
    persona = {"morale": 400, "assets": {"pikeman": 300}}
    # 100 mercenary pikemen at 500 join 300 at 400: (120,000 + 50,000) / 400 = 425.
    assert morale.receive(persona, 100, 500) == 425
    empty = {"morale": 0, "assets": {"ducats": 10}}
    assert morale.receive(empty, 50, 200) == 200  # nobody to average with: the newcomers' morale
    lost = {"morale": 380, "assets": {"crew": 0, "slave": 40}}
    morale.settle(lost)  # "When a persona controls neither troops, nor crew, his morale rating is zero."
    assert lost["morale"] == 0


def test_the_feudal_rank_values_are_the_hierarchy_table() -> None:
    # THE HIERARCHIES (the reader's notes' table): HRE & Pope 200, king 180, grand duke 160, duke 140, marquis 120,
    # count 100, viscount 80, baron 60, baronet 40, knight 20, bourgeois 0.
    expected = {"HRE": 200, "Pope": 200, "king": 180, "grand duke": 160, "Sovereign Prince": 160, "archduke": 160,
                "duke": 140, "prince": 140, "marquis": 120, "markgraf": 120, "count": 100, "Earl": 100,
                "graf": 100, "viscount": 80, "baron": 60, "baronet": 40, "chevalier": 40, "knight": 20,
                "burger": 0, "none": 0, "cardinal": 0}
    for rank, value in expected.items():
        assert ranks.rank_value({"rank": rank}) == value, rank
    # THE ISLAMIC HIERARCHY: "Emirs have a retreat value of 140 ... Sultans have a retreat value of 200."
    assert ranks.rank_value({"rank": "emir"}) == 140
    assert ranks.rank_value({"rank": "khan"}) == 140
    assert ranks.rank_value({"rank": "shah"}) == 200


def test_the_retreat_point() -> None:
    # MORALE: retreat when "morale + feudal rank value of the persona + 10% of his popularity come to less than 400".
    count = {"rank": "count", "popularity": 255}  # 100 + 25 (25.5 rounded down)
    assert ranks.retreat_value(count) == 125
    assert not ranks.retreats(275, 125)  # 400: not less than 400
    assert ranks.retreats(274, 125)  # 399
    assert ranks.below_retreat_point(250, 125) == 25
    assert ranks.retreat_value(None) == 0  # a garrison alone: morale alone against 400
    assert ranks.outranks({"rank": "duke"}, {"rank": "count"})
    assert not ranks.outranks({"rank": "count"}, {"rank": "earl"})


def test_inflict_factors_multiply() -> None:
    state = {"locations": {"Tunis": {"name": "Tunis", "offices": {"sovereign": "0501"}}},
             "military_orders": {"rhodes": {"name": "Rhodes", "seat": "Rhodes", "grandmaster": "0601"}}}
    sultan = {"id": "0501", "religion": "sunni", "bonus_city": "Tunis", "titles": []}
    master = {"id": "0601", "religion": "catholic", "titles": ["Grandmaster of Rhodes"]}
    # A Shia/Sunni sovereign with his bonus city: x2, x3 in his own division.
    assert morale.inflict_factor(state, sultan, master) == 2
    assert morale.inflict_factor(state, sultan, master, same_division_as_commander=True) == 3
    # A grandmaster fighting a Sunni: x2; against a Catholic: x1.
    assert morale.inflict_factor(state, master, sultan) == 2
    assert morale.inflict_factor(state, master, {"religion": "catholic"}) == 1
    # No bonus city on file, or not its sovereign: no bonus.
    assert morale.inflict_factor(state, {**sultan, "bonus_city": None}, master) == 1
    assert morale.inflict_factor({"locations": {"Tunis": {"offices": {"sovereign": "0999"}}}}, sultan, master) == 1


def test_the_confucian_halving_rounds_down_and_doubles_back() -> None:
    # MORALE: "reduced by 50% (with the result rounded down) at the start of any battle fought in a location not
    # initially set up as having the Emperor of China as sovereign ... doubled at the end".
    confucian = {"religion": "confucian"}
    assert morale.confucian_battle(confucian, {"see": "Rome"})
    assert not morale.confucian_battle(confucian, {"see": "Canton"})
    assert not morale.confucian_battle({"religion": "catholic"}, {"see": "Rome"})
    assert morale.confucian_start(455) == 227
    assert morale.confucian_end(227) == 454


def test_men_lost_to_disease_or_planted_as_colonists_leave_no_morale_behind() -> None:
    # MORALE: "When a persona controls neither troops, nor crew, his morale rating is zero." Pestilence kills 10% of
    # each troop type, rounded up: 1 archer -> 1 lost, none left; planting his last 5 crew as colonists.
    from maild_rules.renaissance import colonies, pestilence
    from tests.renaissance_fixtures import month_ctx

    native = {"id": "0901", "name": "Tupac", "family": "INCA", "origin": "american", "alive": True, "morale": 300,
              "assets": {"archer": 1}, "location": "Cuzco", "inside": False}
    spaniard = {"id": "0801", "name": "Pedro", "family": "PIZARRO", "origin": "european", "alive": True,
                "religion": "catholic", "morale": 350, "assets": {"crew": 5}, "location": "Cuzco",
                "inside": False}
    ctx = month_ctx([native, spaniard], [{"name": "Cuzco", "may_colonize": True, "population": 100}])
    pestilence.pestilence(ctx)
    assert native["assets"]["archer"] == 0 and native["morale"] == 0
    assert colonies.colonize(ctx, spaniard, {"item": "crew", "qty": 5}).ok
    assert spaniard["morale"] == 0
