"""The success chances of an attack by the attacker's position, military advantage and Proselytism (3.4-3.6),
as exact fractions, and the rules' four tables derived from them.

Where the chances come from (GA-OQ-05): the rules never state the base game's attack procedure; they print
its chances through tables 1 and 2, and every printed figure there is the four-digit rounding of exactly one
multiple of 1/72 (consecutive 72nds are 0.0139 apart, far more than a rounding). Read so, the chance of
FAILURE from row r is

    r x 7/72 without military advantage (table 1: 0.0972, 0.1944, ... 0.5833)
    r x 5/72 with military advantage    (table 2: 0.0694, 0.1389, ... 0.4167)

and the chance of success is one minus that. The row is the attacker's place in turn order (1 to 6: "a
player acting first", "London being 6th"), one row higher, r - 1, with Proselytism ("If attacker has
proselytism just consider him one row higher", GA-OQ-06). Row 0 is the row above the first: failure 0, a
sure victory; it is where Proselytism puts an attacker acting first, and where the 3.5 example's spend takes
London "from 90.27% to 100% (as if he had Proselitysm)".

Spending luck (3.5) moves the attacker up rows; each row costs "the difference from the succes chance he has,
and the succes chance he would have if he were one (or more) position(s) less", which is the step itself
(7/72 or 5/72) per row, whatever the row: the cost tables 3 and 4 are multiples of it ("as it must be
mathematically"). maild charges the difference 3.5 defines, rounded to four digits as every figure is when it
is charged (GA-OQ-03, GA-OQ-04: 3 rows are 21/72 = 0.29166..., charged 0.2917); the tables print multiples of
the rounded step (0.2916), which `cost_table(..., as_printed=True)` reproduces.

Every chance is a whole number of 72nds, so one `rng.randrange(72)` rolls it exactly (see battles.py).
"""

from __future__ import annotations

from fractions import Fraction

from maild.ledger import display, round_half_up

#: One die of the tables: every chance is a whole number of these.
DENOMINATOR = 72
#: The chance of failure added by each row down the table, without / with military advantage.
STEP = {False: Fraction(7, DENOMINATOR), True: Fraction(5, DENOMINATOR)}
#: The attacker's places in turn order (rule 1: six players).
POSITIONS = range(1, 7)


def row_of(position: int, proselytism: bool) -> int:
    """The table row an attacker at `position` fights from: one row higher (r - 1) with Proselytism, never
    above row 0, the sure victory."""
    if position not in POSITIONS:
        raise ValueError(f"a position is 1 to 6, got {position}")
    return max(position - 1, 0) if proselytism else position


def step(advantage: bool) -> Fraction:
    """What one row is worth: the difference in the chance of success, and the cost of spending one row."""
    return STEP[advantage]


def failure_chance(row: int, advantage: bool) -> Fraction:
    """The chance that an attack from `row` (0 to 6) fails: row x 7/72, or row x 5/72 with advantage."""
    if not 0 <= row <= 6:
        raise ValueError(f"a row is 0 to 6, got {row}")
    return row * STEP[advantage]


def success_chance(row: int, advantage: bool) -> Fraction:
    """The chance that an attack from `row` succeeds (1 at row 0)."""
    return 1 - failure_chance(row, advantage)


def success_72nds(row: int, advantage: bool) -> int:
    """The chance of success as a whole number of 72nds (the roll's threshold)."""
    n = success_chance(row, advantage) * DENOMINATOR
    assert n.denominator == 1
    return n.numerator


def luck_if_won(row: int, advantage: bool) -> Fraction:
    """Per token, what a winning attacker scores (3.4: "in an amount equal to the percentange chance of
    failure"); the defender scores its opposite."""
    return failure_chance(row, advantage)


def luck_if_lost(row: int, advantage: bool) -> Fraction:
    """Per token, what a losing attacker scores (3.4: "negative "luck" points equal to the chance of
    succes"); the defender scores its opposite."""
    return -success_chance(row, advantage)


def spend_cost(row: int, rows: int, advantage: bool, tokens: int = 1) -> Fraction:
    """The luck it costs to fight `rows` rows higher than `row`, times the tokens (3.5, 3.11):
    success(row - rows) - success(row), = rows x step, exactly (charged rounded to four digits:
    battles.BattleDeclaration.cost)."""
    if not 0 <= rows <= row:
        raise ValueError(f"from row {row} one can spend 0 to {row} rows, not {rows}")
    return tokens * (success_chance(row - rows, advantage) - success_chance(row, advantage))


def percent(chance: Fraction) -> str:
    """A chance as a percentage with two decimals, rounded half up like every figure (3.10): 65/72 ->
    "90.28%" (the rules' examples truncate: 90.27%)."""
    return f"{display(chance * 100, 2)}%"


def luck_table(advantage: bool) -> list[tuple[int, str, str]]:
    """Table 1 (or 2 with `advantage`): per position, the luck a losing and a winning attacker scores, shown
    to four digits as the rules print them ("-0.9028", "0.0972")."""
    return [(p, display(luck_if_lost(p, advantage)), display(luck_if_won(p, advantage))) for p in POSITIONS]


def cost_table(advantage: bool, *, as_printed: bool = False) -> list[tuple[int, list[str]]]:
    """Table 3 (or 4 with `advantage`): per position, the luck needed to go 1 to `position` rows higher.

    By default the costs maild charges: the exact difference rounded once (21/72 -> "0.2917"). With `as_printed`
    the rules' own construction: the one-row cost rounded first, then multiplied ("The digits in these tables
    have been rounded so that they all coincide"), which gives every printed cell (3 x 0.0972 = "0.2916")."""
    one = round_half_up(STEP[advantage])
    rows = []
    for p in POSITIONS:
        if as_printed:
            cells = [display(k * one) for k in range(1, p + 1)]
        else:
            cells = [display(spend_cost(p, k, advantage)) for k in range(1, p + 1)]
        rows.append((p, cells))
    return rows
