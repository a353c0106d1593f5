"""Wind/Watermill (Galilei 3.9, 3.12): one die for the change of card, luck in steps of 1/6, spending on it."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from maild.ledger import display
from maild.testing import ScriptedRandom
from maild_rules.galilei.luck import LuckLedger, LuckPosting
from maild_rules.galilei.mill import (
    MillDeclaration,
    format_mill,
    mill_chance,
    mill_luck,
    resolve_mill,
    spend_cost,
    spend_refusal,
)

F = Fraction


def test_success_scores_the_chance_of_failure():
    """3.9 "as in an attack situation": needs 2 or less, chance 2/6; a die of 2 succeeds: the roller scores
    1 - 2/6 = 4/6 = 0.66667, posted 0.6667 (GA-OQ-04), the loser of the city -0.6667."""
    rng = ScriptedRandom(2)
    result = resolve_mill(MillDeclaration("Genoa", "Venice", target=2), {}, rng)
    assert rng.calls == [("randint", 1, 6)]
    assert result.success and result.die == 2 and result.chance == F(1, 3)
    assert result.luck == {"Genoa": F("0.6667"), "Venice": F("-0.6667")}
    assert display(result.luck["Genoa"]) == "0.6667"


def test_failure_scores_minus_the_chance_of_success():
    """Needs 2 or less; a die of 3 fails: the roller scores -2/6 = -0.33333, posted -0.3333, the loser
    +0.3333."""
    result = resolve_mill(MillDeclaration("Genoa", "Venice", target=2), {}, ScriptedRandom(3))
    assert not result.success
    assert result.luck == {"Genoa": F("-0.3333"), "Venice": F("0.3333")}
    assert display(result.luck["Venice"]) == "0.3333"


def test_luck_goes_in_steps_of_one_sixth():
    """3.9: "given that only one dice is used, they go in steps of 0.1667": every score for every target and
    outcome is a whole number of sixths (target t: success 6 - t sixths, failure -t sixths), posted to four
    digits: 1/6 = 0.16667 -> 0.1667, 2/6 = 0.33333 -> 0.3333, 3/6 = 0.5000, 4/6 = 0.66667 -> 0.6667,
    5/6 = 0.83333 -> 0.8333, 6/6 = 1.0000."""
    posted = ["0", "0.1667", "0.3333", "0.5", "0.6667", "0.8333", "1"]
    for target in range(0, 7):
        for success in (True, False):
            amount = mill_luck(MillDeclaration("A", "B", target=target), success)["A"]
            assert amount == (F(posted[6 - target]) if success else -F(posted[target]))
    assert display(mill_chance(1)) == "0.1667"


def test_spending_a_step_raises_the_chance_and_is_a_transfer():
    """3.9: "Luck points can also be spent here ... in the same conditions as the attacks". Genoa -0.5000,
    Venice +0.3333; needs 2 or less, Genoa spends 1 step (1/6 charged as 0.1667 <= 0.5000 and <= 0.3333):
    needs 3 or less, chance 3/6. Die 3: success, luck +3/6 = 0.5000. Genoa's change: +0.1667 (spent) +
    0.5000 = +0.6667 -> score 0.1667; Venice -0.1667 - 0.5000 = -0.6667 -> score 0.3333 - 0.6667 = -0.3334
    (the sum of the four-digit entries, not -1/3)."""
    scores = {"Genoa": F("-0.5"), "Venice": F("0.3333")}
    result = resolve_mill(MillDeclaration("Genoa", "Venice", target=2, steps=1), scores, ScriptedRandom(3))
    assert result.chance == F(1, 2) and result.success and result.spent == F("0.1667")
    changes = result.changes()
    assert changes == {"Genoa": F("0.6667"), "Venice": F("-0.6667")}
    assert result.scores_after == {"Genoa": F("0.1667"), "Venice": F("-0.3334")}


def test_spending_bounds_as_in_attacks():
    """3.5's bounds with the city's loser as the defender: the spender needs a negative score at least the cost,
    the loser a positive one at least the cost. 1 step costs 1/6, charged 0.1667; 2 steps 2/6, charged
    0.3333 (GA-OQ-04): the four-digit figures are compared, so -0.1666 cannot pay 0.1667."""
    decl = MillDeclaration("Genoa", "Venice", target=2, steps=1)
    assert spend_refusal(decl, {"Genoa": F("-0.1667"), "Venice": F("0.1667")}) is None
    assert "only a player with a negative score" in spend_refusal(decl, {"Genoa": F(0), "Venice": F(1)})
    assert "needs a score of -0.1667 or less" in spend_refusal(decl, {"Genoa": F("-0.0833"), "Venice": F(1)})
    assert "needs a score of -0.1667 or less" in spend_refusal(decl, {"Genoa": F("-0.1666"), "Venice": F(1)})
    assert "may not be affected" in spend_refusal(decl, {"Genoa": -F(1), "Venice": F(0)})
    assert "needs his score to be 0.1667 or more" in spend_refusal(decl, {"Genoa": -F(1), "Venice": F("0.0833")})
    two = MillDeclaration("Genoa", "Venice", target=2, steps=2)
    assert spend_refusal(two, {"Genoa": F("-0.3333"), "Venice": F("0.3333")}) is None
    assert spend_refusal(two, {"Genoa": F("-0.25"), "Venice": F("0.3333")}) is not None


def test_a_spend_beyond_the_bounds_is_cut_as_an_attacks():
    """As an attack's spend is cut to the rows the bounds allow: Genoa -0.2500, Venice +1 declare 2 steps
    (0.3333 > 0.2500): 1 step (0.1667) is spent; needs 3 or less. With Genoa at 0 nothing is spent and the
    roll is at 2/6."""
    scores = {"Genoa": F("-0.25"), "Venice": F(1)}
    result = resolve_mill(MillDeclaration("Genoa", "Venice", target=2, steps=2), scores, ScriptedRandom(3))
    assert result.steps == 1 and result.spent == F("0.1667") and result.success
    assert "needs a score of -0.3333 or less" in result.cut
    result = resolve_mill(MillDeclaration("Genoa", "Venice", target=2, steps=1), {"Venice": F(1)},
                          ScriptedRandom(3))
    assert result.steps == 0 and not result.success and "negative score" in result.cut


def test_no_spend_beyond_certainty_and_a_sure_success_rolls_nothing():
    """Needs 4 or less: 2 steps make it certain (6/6), 3 would go beyond. Certain: no die, luck 1 - 1 = 0; the
    2 steps cost 2/6 = 0.33333, charged 0.3333."""
    with pytest.raises(ValueError, match="beyond certainty"):
        resolve_mill(MillDeclaration("A", "B", target=4, steps=3), {"A": -F(5), "B": F(5)}, ScriptedRandom())
    rng = ScriptedRandom()
    result = resolve_mill(MillDeclaration("A", "B", target=4, steps=2), {"A": -F(1), "B": F(1)}, rng)
    assert rng.calls == [] and result.die is None and result.success
    assert result.luck == {"A": 0, "B": 0} and result.spent == F("0.3333")


def test_312_multiplies_scores_and_costs_by_six():
    """GA-OQ-15, 3.12: "Regarding WW, the score will also be the chances of succes multiplied by 6". Needs 2 or
    less: a success scores 6 x 4/6 = 4, a failure 6 x -2/6 = -2; a step costs 6 x 1/6 = 1 (whole: nothing
    to round); without 3.12 a step is charged 1/6 = 0.16667 -> 0.1667."""
    decl = MillDeclaration("Genoa", "Venice", target=2, option_312=True)
    assert resolve_mill(decl, {}, ScriptedRandom(1)).luck == {"Genoa": 4, "Venice": -4}
    assert resolve_mill(decl, {}, ScriptedRandom(5)).luck == {"Genoa": -2, "Venice": 2}
    assert spend_cost(1, option_312=True) == 1 and spend_cost(1) == F("0.1667")


def test_312_removes_the_loser_condition_but_not_the_spenders():
    """GA-OQ-13 as battles read it: under 3.12 the loser may have any score; the spender still needs -1 a step."""
    decl = MillDeclaration("Genoa", "Venice", target=2, steps=1, option_312=True)
    assert spend_refusal(decl, {"Genoa": -F(1), "Venice": -F(3)}) is None
    assert spend_refusal(decl, {"Genoa": -F(1, 2), "Venice": F(3)}) is not None


def test_seeded_mill_rolls_match_the_chance():
    """12,000 seeded rolls needing 2 or less: the share of successes within 0.015 of 1/3, the mean luck within
    0.015 of 0 (luck is +2/3 or -1/3, standard deviation 0.4714, the mean's 0.0043)."""
    rng = random.Random(3)
    decl = MillDeclaration("A", "B", target=2)
    n = 12_000
    results = [resolve_mill(decl, {}, rng) for _ in range(n)]
    assert abs(sum(r.success for r in results) / n - 1 / 3) < 0.015
    assert abs(float(sum((r.luck["A"] for r in results), F(0)) / n)) < 0.015


def test_format_mill_for_the_ledger():
    """Genoa -0.5000 + 0.1667 (spent) - 0.5000 (die 4 fails at 3/6) = -0.8333; Venice 0.3333 - 0.1667 +
    0.5000 = 0.6666: each score is the sum of the entries the line shows."""
    scores = {"Genoa": F("-0.5"), "Venice": F("0.3333")}
    line = format_mill(resolve_mill(MillDeclaration("Genoa", "Venice", target=2, steps=1), scores,
                                    ScriptedRandom(4)))
    assert line == ("Wind/Watermill Genoa after taking a city from Venice: needs 2 or less, chance 0.3333; "
                    "spends 0.1667 (1 step, needs 3 or less, chance 0.5000); die 4: no change of card. "
                    "Luck Genoa -0.5000, Venice +0.5000. Scores Genoa -0.8333, Venice 0.6666.")


def test_postings_for_the_luck_ledger():
    """The entries in order, spend first, as battles post them; recorded on the ledger they give the scores
    after, each the sum of four-digit entries (die 4 fails at 3/6): Genoa -0.5000 + 0.1667 - 0.5000 =
    -0.8333, Venice 0.3333 (1/3 rounded when posted) - 0.1667 + 0.5000 = 0.6666."""
    ledger = LuckLedger({})
    ledger.record(1, [LuckPosting("Genoa", -F(1, 2), "before"), LuckPosting("Venice", F(1, 3), "before")])
    assert ledger.scores() == {"Genoa": F("-0.5"), "Venice": F("0.3333")}
    result = resolve_mill(MillDeclaration("Genoa", "Venice", target=2, steps=1), ledger.scores(),
                          ScriptedRandom(4))
    assert [(p.player, p.amount) for p in result.postings] == [
        ("Genoa", F("0.1667")), ("Venice", F("-0.1667")), ("Genoa", F("-0.5")), ("Venice", F("0.5"))]
    assert ledger.record(2, result.postings) == result.scores_after == {"Genoa": F("-0.8333"),
                                                                        "Venice": F("0.6666")}


def test_declaration_checks():
    with pytest.raises(ValueError):
        MillDeclaration("A", "A", target=2)
    with pytest.raises(ValueError):
        MillDeclaration("A", "B", target=7)
    with pytest.raises(ValueError):
        MillDeclaration("A", "B", target=2, steps=-1)


def test_read_steps_as_a_battles_spend_is_read():
    """3.9 "in the same conditions as the attacks": steps, or the amount they cost (x 6 under 3.12), within
    0.0001 a step; an amount that is no whole number of steps is refused with the costs, never rounded."""
    from maild_rules.galilei.mill import read_steps
    from maild_rules.galilei.spending import SpendUnreadable

    assert [read_steps(w) for w in ("1 step", "2 steps", "0.1667", "0,3333", "-0.5", "none", "0")] == \
        [1, 2, 1, 2, 3, 0, 0]
    assert [read_steps(w, option_312=True) for w in ("1", "2", "1 step")] == [1, 2, 1]
    with pytest.raises(SpendUnreadable, match=r"^0.15 is not the cost of whole steps of the mill: steps 1 for "
                                              r"0.1667, 2 for 0.3333$"):
        read_steps("0.15", most=2)
    with pytest.raises(SpendUnreadable, match="cannot read"):
        read_steps("lots")
