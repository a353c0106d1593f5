"""War (Galilei 3.7, 3.12): the roll, the luck of the three cases of 3.7, the 3.12 multiplier and modifiers rule.

Notation in the docstrings: D is one die minus another, -5..5, with P(D = k) = (6 - |k|)/36; its cumulative
counts (times 36) are P(D <= k): k=-5: 1, -4: 3, -3: 6, -2: 10, -1: 15, 0: 21, 1: 26, 2: 30, 3: 33, 4: 35,
5: 36.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from maild.ledger import display
from maild.testing import ScriptedRandom
from maild_rules.galilei.luck import LuckLedger, LuckPosting
from maild_rules.galilei.war import (
    City,
    WarDeclaration,
    WarRoll,
    chance_at_most,
    counted_cities,
    difference_odds,
    format_war,
    one_step_worse_or_less,
    resolve_war,
    settle_war,
    war_luck,
)

F = Fraction


def test_difference_of_two_dice():
    """D = die - die: 6 ways to 0, 5 to +-1, ..., 1 to +-5, out of 36; the cumulative counts above."""
    odds = difference_odds()
    assert odds == {k: F(6 - abs(k), 36) for k in range(-5, 6)}
    assert [chance_at_most(k) * 36 for k in range(-5, 6)] == [1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36]
    assert difference_odds(2) == {k + 2: F(6 - abs(k), 36) for k in range(-5, 6)}


# -- 3.7: the three figures -----------------------------------------------------------------------------------

def test_even_war_one_city_scores_05833():
    """3.7: "in an even situation, the result is that the winner gets 1 city. Then he scores 0.5833 positive
    points and the loser scores same in negative". Dice 4 v 3: the first wins 1 city. One step worse or less
    is a difference <= 0: P(D <= 0) = 21/36 = 7/12 = 0.58333, posted rounded to 0.5833 (GA-OQ-04)."""
    luck = war_luck(WarRoll(4, 3))
    assert luck.chance == F(7, 12)
    assert luck.first == F("0.5833") and luck.second == F("-0.5833")
    assert display(luck.first) == "0.5833" and display(luck.second) == "-0.5833"
    assert luck.multiplier == 1


def test_even_war_five_cities_scores_09722():
    """3.7: "If the winner gets 5 cities, he has had a luck of 0.9722". Dice 1 v 6: the second wins 5 cities;
    P(D <= 4) = 35/36 = 0.97222, posted 0.9722; the first scores it negative."""
    luck = war_luck(WarRoll(1, 6))
    assert luck.second == F("0.9722") and luck.first == F("-0.9722")
    assert display(luck.second) == "0.9722"


def test_plus_two_winner_of_one_city_scores_02778():
    """3.7: "If the winner had a +2 advantatge but gets only one city, he has had a luck of 0.2778". First +2,
    dice 2 v 3: totals 4 v 3, one city. One step worse or less: D + 2 <= 0, i.e. D <= -2: 10/36 = 0.27778 ->
    0.2778, as posted."""
    luck = war_luck(WarRoll(2, 3, first_modifier=2))
    assert luck.first == F("0.2778") and luck.second == F("-0.2778")
    assert display(luck.first) == "0.2778"


def test_the_measure_itself():
    """one_step_worse_or_less(c, s) = P(D + s <= c - 1): 1 city even 21/36, 5 cities 35/36, 1 city at +2
    10/36, 2 cities at -2 (the unmodified side beating a +2) P(D <= 3) = 33/36."""
    assert one_step_worse_or_less(1) == F(21, 36)
    assert one_step_worse_or_less(5) == F(35, 36)
    assert one_step_worse_or_less(1, 2) == F(10, 36)
    assert one_step_worse_or_less(2, -2) == F(33, 36)
    with pytest.raises(ValueError):
        one_step_worse_or_less(0)


def test_tie_scores_nothing():
    """3.7: "If they tie, both score nothing." Dice 3 v 3."""
    luck = war_luck(WarRoll(3, 3))
    assert luck.first == 0 and luck.second == 0


def test_tie_with_a_modifier_scores_nothing_without_the_option():
    """GA-OQ-17: without 3.12 a tie scores nothing even when one side has a modifier. First +2, dice 1 v 3:
    totals 3 v 3."""
    luck = war_luck(WarRoll(1, 3, first_modifier=2))
    assert luck.first == 0 and luck.second == 0


def test_unmodified_side_beating_a_modifier():
    """First +2, dice 1 v 5: totals 3 v 5, the second wins 2 cities. From the second's side the modifier is
    -2: one step worse or less is D - 2 <= 1, D <= 3: 33/36 = 0.91667, posted 0.9167; the first -0.9167."""
    luck = war_luck(WarRoll(1, 5, first_modifier=2))
    assert luck.second == F("0.9167") and luck.first == F("-0.9167")
    assert display(luck.second) == "0.9167"


def test_no_multiplier_without_the_option():
    """GA-OQ-19: without 3.12 the cities' values do not multiply. Dice 5 v 3, even: 2 cities (values 3, 1);
    luck P(D <= 1) = 26/36 = 0.72222, posted 0.7222, not 4 x 26/36."""
    result = settle_war(WarDeclaration("London", "Paris", first_targets=(City("A", 3), City("B", 1))),
                        WarRoll(5, 3))
    assert result.luck.first == F("0.7222") and result.luck.multiplier == 1
    assert result.luck_by_player == {"London": F("0.7222"), "Paris": F("-0.7222")}


def _exact_first(modifier: int, a: int, b: int, option_312: bool) -> Fraction:
    """The first side's luck before it is rounded to be posted: its sign, times the chance and multiplier."""
    luck = war_luck(WarRoll(a, b, first_modifier=modifier), option_312=option_312)
    sign = (luck.first > 0) - (luck.first < 0)
    return sign * luck.chance * luck.multiplier


def _expected_luck(modifier: int, option_312: bool = False) -> Fraction:
    """The first side's mean luck (the measure itself, unrounded) over the 36 equally likely rolls (cities of
    value 2 under 3.12)."""
    return sum((_exact_first(modifier, a, b, option_312) for a in range(1, 7) for b in range(1, 7)), F(0)) / 36


def test_expected_luck_under_37():
    """GA-OQ-18: 3.7's measure gives an even war an expected luck of 0 but a modified side a positive one.
    +1, totals difference g = D + 1, P(D = k) counts 6 - |k| (/36):
      g=1 (D=0, 6 ways): P(D <= -1) = 15;  g=2 (5): P(D <= 0) = 21;  g=3 (4): 26;  g=4 (3): 30;  g=5 (2): 33;
      g=6 (1): 35  -> 6*15 + 5*21 + 4*26 + 3*30 + 2*33 + 35 = 490;
      g=-1 (D=-2, 4 ways): the other wins 1 at -1, P(-D - 1 <= 0) = P(D >= -1) = 26;  g=-2 (3): P(D >= -2) =
      30;  g=-3 (2): 33;  g=-4 (1): 35 -> 4*26 + 3*30 + 2*33 + 35 = 295;
      mean = (490 - 295) / 1296 = 195/1296 = 65/432 (about +0.1505 a war). Even: by symmetry 0.
    +2, the same way: g=1 (D=-1, 5 ways): P(D <= -2) = 10; g=2 (6): 15; g=3 (5): 21; g=4 (4): 26; g=5 (3):
      30; g=6 (2): 33; g=7 (1): 35 -> 50 + 90 + 105 + 104 + 90 + 66 + 35 = 540; g=-1 (D=-3, 3 ways): the other
      wins 1 at -2, P(-D - 2 <= 0) = P(D >= -2) = 30; g=-2 (2): P(D >= -3) = 33; g=-3 (1): P(D >= -4) = 35 ->
      90 + 66 + 35 = 191; the tie (D=-2) scores 0; mean = (540 - 191) / 1296 = 349/1296 (about +0.2693)."""
    assert _expected_luck(0) == 0
    assert _expected_luck(1) == F(65, 432)
    assert _expected_luck(2) == F(349, 1296)
    # Under 3.12 the chance is taken on the dice alone: with cities of value 2 everywhere the multiplier
    # is 2 x |dice difference| whoever wins, so the mean is 0 with a modifier too.
    assert _expected_luck(2, option_312=True) == 0


def test_seeded_wars_match_the_stated_chances():
    """GA-OQ-18, statistically: 20,000 wars at +1 from seeded RNGs; the share of each total difference is
    within 0.01 of its chance, and the mean luck within 0.02 of 65/432 (its standard deviation is below 0.6,
    so the mean's is below 0.0043: 0.02 is over 4 of them)."""
    rng = random.Random(20261125)
    declaration = WarDeclaration("Venice", "Genoa", first_modifier=1)
    n = 20_000
    counts: dict[int, int] = {}
    total = F(0)
    for _ in range(n):
        result = resolve_war(declaration, rng)
        counts[result.roll.difference] = counts.get(result.roll.difference, 0) + 1
        total += result.luck.first
    for g, p in difference_odds(1).items():
        assert abs(counts.get(g, 0) / n - float(p)) < 0.01
    assert abs(float(total / n) - 65 / 432) < 0.02


# -- 3.12 --------------------------------------------------------------------------------------------------------

def _cities(*values: int) -> tuple[City, ...]:
    return tuple(City(f"C{i}v{v}", v) for i, v in enumerate(values, 1))


def test_312_even_war_multiplied_by_the_cities_taken():
    """3.12: "the luck you get/loss in war is the chances to get the result you get, but multiplied by the
    number of tokens of the value of the cities you get/lose". Even, dice 5 v 3: 2 cities of the targets 3, 1, 5
    -> 3 and 1, sum 4; chance P(D <= 1) = 26/36; luck 4 x 26/36 = 26/9 = 2.88889, posted 2.8889 (rounded
    once, on the product)."""
    decl = WarDeclaration("London", "Paris", first_targets=_cities(3, 1, 5), option_312=True)
    result = settle_war(decl, WarRoll(5, 3))
    assert [c.value for c in result.taken] == [3, 1]
    assert result.luck.multiplier == 4 and result.luck.first == F("2.8889")
    assert display(result.luck.first) == "2.8889" and display(result.luck.second) == "-2.8889"


def test_312_plus_two_removes_biggest_and_smallest():
    """3.12: "If the modifier was a +2 remove the biggest and smallest." First +2, dice 5 v 3: totals 7 v 3,
    4 cities, values 3, 1, 5, 2; remove 5 and 1 -> 3 and 2, sum 5 (the dice lead of 2 counts 2 cities).
    Chance on the dice difference 2: P(D <= 1) = 26/36; luck 5 x 26/36 = 65/18 = 3.61111, posted 3.6111."""
    roll = WarRoll(5, 3, first_modifier=2)
    luck = war_luck(roll, _cities(3, 1, 5, 2), option_312=True)
    assert [c.value for c in luck.counted] == [3, 2]
    assert luck.first == F("3.6111") and display(luck.first) == "3.6111"


def test_312_plus_one_removes_the_biggest():
    """3.12: "In case of only a +1 modifier, we will remove the biggest." First +1, dice 4 v 3: totals 5 v 3,
    2 cities, values 4 and 2; remove 4 -> 2. Dice lead 1: P(D <= 0) = 21/36; luck 2 x 21/36 = 7/6 = 1.16667,
    posted 1.1667."""
    luck = war_luck(WarRoll(4, 3, first_modifier=1), _cities(4, 2), option_312=True)
    assert [c.value for c in luck.counted] == [2]
    assert luck.first == F("1.1667") and display(luck.first) == "1.1667"


def test_312_tie_with_plus_two_is_bad_luck_two_cities_of_value_2():
    """3.12: "In case of tie when one player had a positive modifier, that player has had bad luck (consider a
    city(ies) of value 2)". First +2, dice 1 v 3: totals 3 v 3. The second leads the dice by 2: two cities of
    value 2, multiplier 4; chance P(D <= 1) = 26/36; first -4 x 26/36 = -26/9 = -2.88889, posted -2.8889,
    second +2.8889."""
    luck = war_luck(WarRoll(1, 3, first_modifier=2), option_312=True)
    assert [c.value for c in luck.counted] == [2, 2]
    assert luck.first == F("-2.8889") and luck.second == F("2.8889")
    assert display(luck.first) == "-2.8889"


def test_312_tie_with_plus_one_is_one_city_of_value_2():
    """Second +1, dice 3 v 2: totals 3 v 3. The first leads the dice by 1: one city of value 2; P(D <= 0) =
    21/36; the first scores +2 x 21/36 = 7/6 = 1.16667, posted 1.1667, the modified second -1.1667."""
    luck = war_luck(WarRoll(3, 2, second_modifier=1), option_312=True)
    assert luck.first == F("1.1667") and luck.second == F("-1.1667")
    assert display(luck.second) == "-1.1667"


def test_312_plus_two_winning_by_one_has_bad_luck():
    """3.12: "a player with modifier +2 may won a war with global difference of +1 and be considered that he
    has has bad luck!" First +2, dice 2 v 3: totals 4 v 3, the first takes 1 city (value 5), yet the second led
    the dice by 1: one city of value 2 counts (the first's city is the modifier's); P(D <= 0) = 21/36;
    first -2 x 21/36 = -7/6 = -1.16667, posted -1.1667."""
    decl = WarDeclaration("London", "Paris", first_modifier=2, first_targets=_cities(5), option_312=True)
    result = settle_war(decl, WarRoll(2, 3, first_modifier=2))
    assert result.winner == "London" and [c.value for c in result.taken] == [5]
    assert result.luck.first == F("-1.1667") and result.luck_by_player["Paris"] == F("1.1667")


def test_312_unmodified_side_beating_plus_two():
    """First +2, dice 1 v 6: totals 3 v 6, the second takes 3 cities (4, 1, 3: sum 8). Its dice lead is 5: the
    3 cities plus 2 points that only overcame the modifier, counted as cities of value 2: 8 + 4 = 12. Chance
    P(D <= 4) = 35/36; second +12 x 35/36 = 35/3 = 11.66667, posted 11.6667."""
    decl = WarDeclaration("London", "Paris", first_modifier=2, second_targets=_cities(4, 1, 3, 6),
                          option_312=True)
    result = settle_war(decl, WarRoll(1, 6, first_modifier=2))
    assert [c.value for c in result.luck.counted] == [4, 1, 3, 2, 2]
    assert result.luck.second == F("11.6667") and display(result.luck.second) == "11.6667"


def test_312_equal_dice_score_nothing_even_when_the_modifier_takes_cities():
    """First +2, dice 4 v 4: totals 6 v 4, 2 cities, both the modifier's: dice difference 0, nothing scored."""
    luck = war_luck(WarRoll(4, 4, first_modifier=2), _cities(5, 5), option_312=True)
    assert luck.first == 0 and luck.second == 0 and luck.counted == ()


def test_312_modifiers_are_netted():
    """Both +1: an even war. Dice 4 v 3: totals 5 v 4, 1 city of value 3, nothing removed; P(D <= 0) = 21/36;
    3 x 21/36 = 7/4 = 1.7500 exactly. A -1 on the first is a +1 on the second: second +1, dice 3 v 4 -> 3 v 5,
    second takes cities 4 and 2, removes the biggest (4): 2 x 21/36 = 7/6 = 1.16667, posted 1.1667."""
    luck = war_luck(WarRoll(4, 3, first_modifier=1, second_modifier=1), _cities(3), option_312=True)
    assert luck.first == F("1.75")
    luck = war_luck(WarRoll(3, 4, first_modifier=-1), _cities(4, 2), option_312=True)
    assert luck.second == F("1.1667") and [c.value for c in luck.counted] == [2]


def test_312_modifier_above_two_goes_on_alternately():
    """Extension (GA-OQ-14): +3 removes the biggest, the smallest, the biggest. First +3, dice 4 v 2: totals 7 v
    2, 5 cities 1..5; remove 5, 1, 4 -> 2, 3, sum 5; P(D <= 1) = 26/36; 5 x 26/36 = 65/18 = 3.61111, posted
    3.6111."""
    luck = war_luck(WarRoll(4, 2, first_modifier=3), _cities(1, 2, 3, 4, 5), option_312=True)
    assert [c.value for c in luck.counted] == [2, 3] and luck.first == F("3.6111")


def test_312_cities_not_named_count_two():
    """A winner who named fewer cities than he won: each missing one counts 2. Even, dice 4 v 1: 3 cities, one
    named (value 6): 6 + 2 + 2 = 10; P(D <= 2) = 30/36; 10 x 30/36 = 25/3 = 8.33333, posted 8.3333."""
    decl = WarDeclaration("London", "Paris", first_targets=_cities(6), option_312=True)
    result = settle_war(decl, WarRoll(4, 1))
    assert result.luck.multiplier == 10 and result.luck.first == F("8.3333")


def test_counted_cities_is_one_per_point_of_dice_difference():
    """Whatever the modifiers, 3.12 counts |dice difference| cities ("only the value of difference will be
    considered"): checked over all 36 rolls at modifiers -2..+2 with 6 named targets."""
    targets = _cities(6, 5, 4, 3, 2, 1, 1, 1)
    for m in range(-2, 3):
        for a in range(1, 7):
            for b in range(1, 7):
                roll = WarRoll(a, b, first_modifier=m)
                assert len(counted_cities(roll, targets[: roll.cities])) == abs(a - b)


# -- resolving and the ledger -------------------------------------------------------------------------------------

def test_resolve_war_draws_first_then_second_die():
    """Scripted dice 6 then 2: the first side's die is 6, the second's 2; even war, first takes 4 cities;
    P(D <= 3) = 33/36 = 0.91667, posted 0.9167."""
    rng = ScriptedRandom(6, 2)
    result = resolve_war(WarDeclaration("Hamburg", "London"), rng)
    assert rng.calls == [("randint", 1, 6), ("randint", 1, 6)] and rng.done
    assert (result.roll.first_die, result.roll.second_die) == (6, 2)
    assert result.winner == "Hamburg" and result.loser == "London" and result.roll.cities == 4
    assert result.luck.chance == F(33, 36) and result.luck.first == F("0.9167")


def test_no_luck_can_be_spent_on_a_war():
    """3.7: "No luck points can be used to modify the war dice rolls": a war declaration has no spend."""
    with pytest.raises(TypeError):
        WarDeclaration("London", "Paris", spend=F(1, 6))  # type: ignore[call-arg]


def test_format_war_for_the_ledger():
    """The public line: sides with modifiers, dice, totals, the cities, each side's luck to four digits."""
    decl = WarDeclaration("London", "Paris", first_modifier=2, first_targets=_cities(3, 1, 5, 2), option_312=True)
    line = format_war(settle_war(decl, WarRoll(5, 3, first_modifier=2)))
    assert line.startswith("War London (+2) v Paris: dice 5 v 3, totals 7 v 3; London takes 4 cities from Paris")
    assert "Luck London +3.6111, Paris -3.6111" in line
    tie = format_war(settle_war(WarDeclaration("London", "Paris"), WarRoll(2, 2)))
    assert "a tie. Luck London 0.0000, Paris 0.0000: a tie scores nothing (3.7)." in tie
    with_scores = format_war(settle_war(WarDeclaration("London", "Paris"), WarRoll(4, 3)),
                             {"London": F(7, 12), "Paris": -F(1, 3)})
    assert with_scores.endswith("chance of a tie or worse for the winner (3.7). Scores London 0.5833, "
                                "Paris -0.3333.")


def test_war_postings_for_the_luck_ledger():
    """Recorded on the ledger, a war moves both scores by its luck as posted (even war, dice 4 v 3, 1 city:
    21/36 = 0.58333, posted 0.5833): London 0 + 0.5833, Paris 0.2500 - 0.5833 = -0.3333."""
    ledger = LuckLedger({})
    ledger.record(1, [LuckPosting("Paris", F(1, 4), "before")])
    result = settle_war(WarDeclaration("London", "Paris"), WarRoll(4, 3))
    assert [(p.player, p.amount) for p in result.postings] == [("London", F("0.5833")), ("Paris", F("-0.5833"))]
    assert result.postings[0].reason == "war London v Paris: London takes 1 city"
    assert ledger.record(2, result.postings) == {"London": F("0.5833"), "Paris": F("-0.3333")}


def test_a_war_needs_two_players_and_real_dice():
    with pytest.raises(ValueError):
        WarDeclaration("London", "London")
    with pytest.raises(ValueError):
        WarRoll(0, 3)
