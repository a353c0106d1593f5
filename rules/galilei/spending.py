"""Spending negative luck (3.5, 3.11, 3.12): who may spend how much against whom, and how a player writes
the luck he spends.

The bounds, for a cost C (rows x step x tokens, rounded to four digits as it is charged, GA-OQ-04), compared
with the four-digit scores:

- "Players with non negative "luck" score may not modify tables": the spender's score must be below 0
  (a score of exactly 0 is non negative: no spending, GA-OQ-08);
- "The amount spent must be lower or equal than his negative score": C <= -score of the spender;
- "and must also be lower or equal to the positive score of the defending player", and "players with non
  positive "luck" score may not be affected by others": the defender's score must be above 0 (exactly 0 is
  non positive, GA-OQ-08) and C <= his score. Option 3.12 ("let's remove that condition") removes these two,
  and only these (GA-OQ-13): the defender may then have any score, "(or even negative luck)"; the spender
  still needs the negative luck he spends.

`refusal` states the first bound broken; the Wind/Watermill spend (3.9: "in the same conditions as the
attacks") can use it with its own cost.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from .luck import read_amount, rounded, show
from .odds import percent, success_chance


def refusal(spender: str, defender: str, cost: Fraction, scores: Mapping[str, Fraction],
            option_312: bool) -> str | None:
    """Why `spender` may not spend `cost` against `defender` with these scores, or None if he may. A cost of 0
    is no spend and is always allowed."""
    if cost <= 0:
        return None
    # The four-digit figures (3.10, GA-OQ-04): a score is one already, unless the game was stored with exact
    # fractions before that reading; then the score compared is the one the player is shown.
    own = rounded(Fraction(scores.get(spender, 0)))
    theirs = rounded(Fraction(scores.get(defender, 0)))
    if own >= 0:
        return (f"{spender}'s luck score is {show(own)}: only a player with a negative score may spend luck "
                "(3.5: players with non negative luck score may not modify tables)")
    if cost > -own:
        return f"spending {show(cost)} needs a score of -{show(cost)} or less; {spender}'s is {show(own)} (3.5)"
    if option_312:
        return None
    if theirs <= 0:
        return (f"{defender}'s luck score is {show(theirs)}: a player whose score is not positive may not be "
                "affected by others (3.5)")
    if cost > theirs:
        return (f"spending {show(cost)} against {defender} needs his score to be {show(cost)} or more; it is "
                f"{show(theirs)} (3.5)")
    return None


class SpendUnreadable(ValueError):
    """The luck to spend as written names no whole number of rows; the message says what would."""


_ROWS = re.compile(r"^(\d+)\s*(?:positions?|rows?|steps?)$")
_TO_ROW = re.compile(r"^to\s+(?:position|row)\s+(\d+)(?:st|nd|rd|th)?$")
_PERCENT = re.compile(r"^(?:to\s+)?([0-9.,]+)\s*%$")
_NOTHING = {"", "0", "none", "nothing", "no", "0 positions", "0 rows", "0 steps"}


def read_spend(written: str, row: int, advantage: bool, tokens: int) -> int:
    """The number of rows the player asks to climb, from what he wrote (GA-OQ-07, GA-OQ-31), for an attack
    from table row `row` (after Proselytism) with `tokens` tokens:

    - "1 position", "2 positions" (also "row(s)", "step(s)"): that many rows;
    - "to position 2" (also "to row 2", "to position 2nd"): up to that row of the table;
    - "80.55%" or "to 80,55 %": up to the row whose chance of success that is, within 0.01 points (the rules
      write 80.55% for 58/72 = 80.5555...%);
    - a figure, "0.3889" or "0,3889" (a minus sign is allowed: "negative luck points"): the TOTAL luck spent,
      tokens included (3.11), within 0.0001 per row and token of the exact cost, which takes in every figure
      the rules print for a cost (the tables' 0.5832 for 42/72, the example's 0.0973 for 7/72);
    - "0", "none", nothing: no spend.

    A figure that is no such cost is refused, not rounded to a step: a spend is "declared before the combat"
    and maild does not guess a different one. Whether the rows are within the table and the bounds is
    `battles.check_battle`'s."""
    if tokens < 1:
        raise ValueError(f"an attack engages at least one token, not {tokens}")
    text = " ".join(written.strip().lower().split())
    if text in _NOTHING:
        return 0
    if m := _ROWS.match(text):
        return int(m.group(1))
    if m := _TO_ROW.match(text):
        target = int(m.group(1))
        if target > row:
            raise SpendUnreadable(f"row {target} is below the row you fight from ({row}): spending moves up")
        return row - target
    if m := _PERCENT.match(text):
        wanted = read_amount(m.group(1)) / 100
        for target in range(row, -1, -1):
            if abs(success_chance(target, advantage) - wanted) <= Fraction(1, 10000):
                return row - target
        raise SpendUnreadable(f"{m.group(1)}% is the chance of no row from {row} up: "
                              + ", ".join(_percent_of(t, advantage) for t in range(row - 1, -1, -1)))
    try:
        amount = abs(read_amount(text))
    except ValueError:
        raise SpendUnreadable(f"cannot read the luck to spend: {written.strip()!r}; write e.g. \"1 position\", "
                              "\"to position 2\" or the amount, \"0.0972\"") from None
    one_row = tokens * (success_chance(0, advantage) - success_chance(1, advantage))
    rows = round(amount / one_row)
    if abs(amount - rows * one_row) <= Fraction(max(1, rows * tokens), 10000):
        return rows
    costs = ", ".join(f"{k} for {show(k * one_row)}" for k in range(1, row + 1)) or "none"
    token_words = f" with {tokens} tokens" if tokens != 1 else ""
    raise SpendUnreadable(f"{show(amount)} is not the cost of whole rows{token_words}: rows {costs}")


def _percent_of(row: int, advantage: bool) -> str:
    return f"{percent(success_chance(row, advantage))} (row {row})"
