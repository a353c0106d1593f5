"""Galilei's odds (3.4-3.6) and the rules' four tables reproduced from exact fractions (acceptance 2)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from maild.ledger import display
from maild_rules.galilei import odds
from maild_rules.galilei.battles import BattleDeclaration

# The four tables as the rules print them (rows "POSITION LOSE WIN" and "POSITION -1 ... -6").
TABLE_1 = """1 -0.9028 0.0972
2 -0.8056 0.1944
3 -0.7083 0.2917
4 -0.6111 0.3889
5 -0.5139 0.4861
6 -0.4167 0.5833"""
TABLE_2 = """1 -0.9306 0.0694
2 -0.8611 0.1389
3 -0.7917 0.2083
4 -0.7222 0.2778
5 -0.6528 0.3472
6 -0.5833 0.4167"""
TABLE_3 = """1 0.0972 - - - - -
2 0.0972 0.1944 - - - -
3 0.0972 0.1944 0.2916 - - -
4 0.0972 0.1944 0.2916 0.3888 - -
5 0.0972 0.1944 0.2916 0.3888 0.4860 -
6 0.0972 0.1944 0.2916 0.3888 0.4860 0.5832"""
TABLE_4 = """1 0.0694 - - - - -
2 0.0694 0.1388 - - - -
3 0.0694 0.1388 0.2082 - - -
4 0.0694 0.1388 0.2082 0.2776 - -
5 0.0694 0.1388 0.2082 0.2776 0.3470 -
6 0.0694 0.1388 0.2082 0.2776 0.3470 0.4164"""


def printed_luck(table: str) -> list[tuple[int, str, str]]:
    return [(int(p), lose, win) for p, lose, win in (line.split() for line in table.splitlines())]


def printed_costs(table: str) -> list[tuple[int, list[str]]]:
    return [(int(cells[0]), [c for c in cells[1:] if c != "-"]) for cells in (ln.split() for ln in table.splitlines())]


def test_table_1_every_row_from_72nds():
    """Failure from row r without advantage is 7r/72; a win scores it, a loss minus the success 1 - 7r/72.
    By hand: r=1 7/72 = 0.097222 -> 0.0972, 65/72 = 0.902777 -> 0.9028; r=3 21/72 = 0.291666 -> 0.2917,
    51/72 = 0.708333 -> 0.7083; r=6 42/72 = 0.583333 -> 0.5833, 30/72 = 0.416666 -> 0.4167."""
    assert odds.luck_table(False) == printed_luck(TABLE_1)
    assert odds.luck_if_won(1, False) == Fraction(7, 72)
    assert odds.luck_if_lost(1, False) == Fraction(-65, 72)
    assert odds.luck_if_lost(6, False) == Fraction(-30, 72)


def test_table_2_every_row_from_72nds():
    """With military advantage failure is 5r/72: r=1 5/72 = 0.069444 -> 0.0694, 67/72 = 0.930555 -> 0.9306;
    r=4 20/72 = 0.277777 -> 0.2778, 52/72 = 0.722222 -> 0.7222; r=6 30/72 -> 0.4167, 42/72 -> 0.5833."""
    assert odds.luck_table(True) == printed_luck(TABLE_2)
    assert odds.luck_if_won(4, True) == Fraction(20, 72)
    assert odds.luck_if_lost(6, True) == Fraction(-42, 72)


def test_each_printed_chance_is_exactly_one_72nd():
    """GA-OQ-05: 1/72 = 0.0139 is far more than a rounding (0.00005 either side), so each printed figure of
    tables 1 and 2 names exactly one n/72, and it is the n the odds use."""
    for adv, table in ((False, TABLE_1), (True, TABLE_2)):
        for p, lose, win in printed_luck(table):
            for figure, exact in ((win, odds.failure_chance(p, adv)), (lose, -odds.success_chance(p, adv))):
                near = [n for n in range(-72, 73) if abs(Fraction(n, 72) - Fraction(figure)) <= Fraction(1, 20000)]
                assert near == [exact * 72]


def test_tables_3_and_4_as_printed_are_multiples_of_the_rounded_step():
    """The tables' note: "The digits in these tables have been rounded so that they all coincide": cell k is
    k x 0.0972 (table 3) or k x 0.0694 (table 4), e.g. 3 x 0.0972 = 0.2916, 6 x 0.0694 = 0.4164."""
    assert odds.cost_table(False, as_printed=True) == printed_costs(TABLE_3)
    assert odds.cost_table(True, as_printed=True) == printed_costs(TABLE_4)


def test_exact_costs_differ_from_printed_in_the_documented_cells():
    """GA-OQ-03, GA-OQ-04: maild charges k x 7/72 or k x 5/72 rounded once to four digits (what a battle's
    `cost` is, checked below). These differ from the printed
    cells where k x (step - rounded step) reaches half a unit: table 3 from k = 3 (21/72 = 0.29166 -> 0.2917
    against 0.2916; 28/72 -> 0.3889 against 0.3888; 35/72 -> 0.4861 against 0.4860; 42/72 -> 0.5833 against
    0.5832), table 4 from k = 2 (10/72 = 0.13888 -> 0.1389 against 0.1388; 0.2083/0.2082; 0.2778/0.2776;
    0.3472/0.3470; 0.4167/0.4164). Every difference is under 0.0001 per row."""
    expected_3 = {3: "0.2917", 4: "0.3889", 5: "0.4861", 6: "0.5833"}
    expected_4 = {2: "0.1389", 3: "0.2083", 4: "0.2778", 5: "0.3472", 6: "0.4167"}
    for adv, table, expected in ((False, TABLE_3, expected_3), (True, TABLE_4, expected_4)):
        exact = dict(odds.cost_table(adv))
        for p, printed in printed_costs(table):
            for k, cell in enumerate(printed, start=1):
                shown = exact[p][k - 1]
                assert shown == expected.get(k, cell)
                assert BattleDeclaration("A", "D", p, advantage=adv, spend=k).cost() == Fraction(shown)
                assert abs(Fraction(shown) - Fraction(cell)) <= Fraction(k, 10000)


def test_cost_is_the_difference_3_5_defines():
    """3.5: the cost is "the difference from the succes chance he has, and the succes chance he would have if
    he were one (or more) position(s) less": from row 6 four rows up, 58/72 - 30/72 = 28/72 (the example's
    0.3889); times 4 tokens (3.11) 112/72. Spending beyond row 0 (the '-' cells) is refused."""
    assert odds.spend_cost(6, 4, False) == Fraction(28, 72)
    assert display(odds.spend_cost(6, 4, False)) == "0.3889"
    assert odds.spend_cost(6, 4, False, tokens=4) == Fraction(112, 72)
    assert odds.spend_cost(3, 2, True) == Fraction(10, 72)
    with pytest.raises(ValueError):
        odds.spend_cost(2, 3, False)


def test_proselytism_is_the_row_above():
    """GA-OQ-06: "just consider him one row higher" is row p - 1: position 3 fights from row 2 (58/72
    without, 62/72 with advantage); position 1 from row 0, a sure victory ("from 90.27% to 100% (as if he
    had Proselitysm)")."""
    assert odds.row_of(3, True) == 2
    assert odds.success_chance(odds.row_of(3, True), False) == Fraction(58, 72)
    assert odds.success_chance(odds.row_of(3, True), True) == Fraction(62, 72)
    assert odds.row_of(1, True) == 0
    assert odds.success_chance(0, False) == 1 and odds.success_chance(0, True) == 1
    assert odds.row_of(4, False) == 4
    with pytest.raises(ValueError):
        odds.row_of(7, False)


def test_percentages_two_decimals_half_up():
    """GA-OQ-31: 65/72 = 90.2777% -> 90.28% (the rules truncate: 90.27%), 30/72 = 41.666% -> 41.67%,
    58/72 = 80.555% -> 80.56%, 1 -> 100.00%."""
    assert odds.percent(Fraction(65, 72)) == "90.28%"
    assert odds.percent(Fraction(30, 72)) == "41.67%"
    assert odds.percent(Fraction(58, 72)) == "80.56%"
    assert odds.percent(Fraction(1)) == "100.00%"


def test_success_in_72nds():
    """The roll's thresholds: row 1 65, row 6 30; with advantage row 1 67, row 6 42; row 0 72."""
    assert [odds.success_72nds(r, False) for r in range(7)] == [72, 65, 58, 51, 44, 37, 30]
    assert [odds.success_72nds(r, True) for r in range(7)] == [72, 67, 62, 57, 52, 47, 42]
