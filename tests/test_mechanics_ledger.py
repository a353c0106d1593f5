"""maild/ledger.py: balances and postings in a JSON dict, exact fractions, overdraw refused, display rounding."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from maild.ledger import Ledger, Overdrawn, display, from_json, round_half_up, to_json


def test_gold_posts_and_balances_in_plain_ints() -> None:
    state: dict = {}
    gold = Ledger(state)
    assert gold.balance("house A", "gold") == 0
    assert gold.post(1, "house A", "gold", 12, "Tlatoani income") == 12
    assert gold.post(1, "house A", "gold", -6, "purchase 2 food at 3X gold: 3 x 2 = 6") == 6
    assert state["balances"] == {"house A": {"gold": 6}}
    assert [(p.amount, p.balance) for p in gold.postings("house A")] == [(12, 12), (-6, 6)]
    assert json.loads(json.dumps(state)) == state


def test_overdraw_is_refused_and_changes_nothing() -> None:
    state: dict = {}
    food = Ledger(state)
    food.post(1, "house A", "food", 3, "toil")
    before = json.dumps(state)
    with pytest.raises(Overdrawn) as caught:
        food.post(2, "house A", "food", -4, "procreate: (1+1)^2 = 4 food")
    assert (caught.value.balance, caught.value.amount) == (3, -4)
    assert str(caught.value) == "house A has 3 food, cannot pay 4"
    assert json.dumps(state) == before
    assert not food.can_pay("house A", "food", 4) and food.can_pay("house A", "food", 3)
    assert food.post(2, "house A", "food", -4, "GM allows", overdraw=True) == -1


def test_a_currency_may_be_allowed_to_go_negative() -> None:
    luck = Ledger({}, negative={"luck"})
    assert luck.post(1, "London", "luck", Fraction(-65, 72), "lost an attack") == Fraction(-65, 72)
    assert luck.can_pay("London", "luck", 5)


def test_transfer_is_both_postings_or_neither() -> None:
    state: dict = {}
    gold = Ledger(state)
    gold.post(1, "A", "gold", 10, "start")
    gold.transfer(1, "A", "B", "gold", 4, "give")
    assert gold.balances("gold") == {"A": 6, "B": 4}
    with pytest.raises(Overdrawn):
        gold.transfer(1, "B", "A", "gold", 5, "give")
    assert gold.balances("gold") == {"A": 6, "B": 4}
    assert len(state["postings"]) == 3
    with pytest.raises(ValueError):
        gold.transfer(1, "A", "A", "gold", 1, "to oneself")
    with pytest.raises(ValueError):
        gold.transfer(1, "A", "B", "gold", -1, "backwards")


def test_galilei_luck_is_exact_and_zero_sum() -> None:
    # Table 1, position 1: the attacker succeeds with 65/72 = 0.902777...; losing scores -65/72 (shown
    # -0.9028), the defender the same in positive. A second attack that wins scores 1 - 65/72 = 7/72 (0.0972).
    state: dict = {}
    luck = Ledger(state, negative={"luck"})
    luck.transfer(1, "London", "Paris", "luck", Fraction(65, 72), "London attacks Paris from 1st and loses")
    luck.transfer(1, "Paris", "London", "luck", Fraction(7, 72), "London attacks Paris from 1st and wins")
    # London: -65/72 + 7/72 = -58/72 = -29/36 = -0.80555... -> -0.8056
    assert luck.balance("London", "luck") == Fraction(-29, 36)
    assert display(luck.balance("London", "luck")) == "-0.8056"
    assert display(luck.balance("Paris", "luck")) == "0.8056"
    assert sum(luck.balances("luck").values()) == 0
    assert state["balances"]["London"]["luck"] == "-29/36"
    reread = Ledger(json.loads(json.dumps(state)), negative={"luck"})
    assert reread.balance("London", "luck") == Fraction(-29, 36)
    assert [p.amount for p in reread.postings("London")] == [Fraction(-65, 72), Fraction(7, 72)]


def test_floats_are_refused() -> None:
    with pytest.raises(TypeError):
        Ledger({}).post(1, "A", "gold", 0.5, "half")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        from_json(0.5)  # type: ignore[arg-type]


def test_json_amounts() -> None:
    assert to_json(Fraction(6, 3)) == 2 and to_json(Fraction(-1, 3)) == "-1/3" and to_json(7) == 7
    assert from_json("4/2") == 2 and from_json("-1/3") == Fraction(-1, 3)
    # decimals=4 (Galilei's luck, GA-OQ-04): four-digit amounts as decimal strings, read back exactly
    assert to_json(Fraction("-0.0972"), 4) == "-0.0972" and to_json(Fraction(1, 3), 4) == "1/3"
    assert to_json(Fraction(5, 2), 4) == "2.5000" and from_json("-0.0972") == Fraction(-243, 2500)


def test_display_rounds_half_up_to_four_digits() -> None:
    # Galilei 3.10: "0.16666 is rounded to 0,1667 and 0.83333 is rounded to 0.8333".
    assert display(Fraction("0.16666")) == "0.1667"
    assert display(Fraction("0.83333")) == "0.8333"
    assert display(Fraction(1, 6)) == "0.1667" and display(Fraction(5, 12)) == "0.4167"
    # A 5 in the fifth digit goes up on the magnitude, so a loss shows as the gain it matches.
    assert display(Fraction("0.00005")) == "0.0001" and display(Fraction("-0.00005")) == "-0.0001"
    assert display(Fraction("-0.90275")) == "-0.9028"
    assert display(Fraction("-0.00004")) == "0.0000"  # rounds to zero: no sign
    assert display(3) == "3.0000" and display(Fraction(-7, 2), digits=0) == "-4"
    assert display(Fraction("12.34565"), digits=2) == "12.35"
    assert round_half_up(Fraction(-65, 72)) == Fraction(-9028, 10000)
