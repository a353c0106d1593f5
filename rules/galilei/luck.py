"""The public luck ledger (3.4, 3.10): each player's score as an exact Fraction and every posting with what
caused it, kept in the game's JSON state through `maild.ledger.Ledger`; and how luck is shown and read.

Exact inside, rounded for display only (GA-OQ-04): entries are the exact fractions the odds give (65/72, not
0.9028), scores are their exact sums, and every figure a player reads is rounded to four digits half up
(3.10: "rounding 4th digit to closest number depending on next digit being lower than 5 or not") by
`maild.ledger.display`. So a gain and the loss it matches always show the same digits, a score never drifts
from the sum of what the history shows by more than the rounding of its last figure, and the spending bounds
compare exact amounts (a score of -7/72 pays a cost of 7/72 exactly).

Figures are written with a point (GA-OQ-31); a player may write a comma ("0,0973", as 3.10 once does).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from maild.ledger import Ledger, Posting, display

#: The ledger's currency name for luck; it may go negative.
LUCK = "luck"


@dataclass(frozen=True)
class LuckPosting:
    """One entry of the ledger: `amount` (exact, signed) to `player`, for `reason`."""

    player: str
    amount: Fraction
    reason: str


def show(amount: Fraction | int) -> str:
    """A score or entry to four digits, half up, sign kept: -65/72 -> "-0.9028", 1/6 -> "0.1667"."""
    return display(amount)


def show_signed(amount: Fraction | int) -> str:
    """An entry with its sign always written: 7/72 -> "+0.0972", -65/72 -> "-0.9028", 0 -> "0.0000"."""
    text = display(amount)
    return text if text.startswith("-") or text == display(0) else f"+{text}"


_NUMBER = re.compile(r"^\s*([+-]?)\s*(\d*)(?:[.,](\d+))?\s*$")


def read_amount(text: str) -> Fraction:
    """A decimal figure as a player writes it, with a point or a comma: "0.0973", "0,0973", ".5", "-0.3889",
    "2" (exact: "0.0973" is 973/10000). Raises ValueError for anything else."""
    m = _NUMBER.match(text)
    if not m or not (m.group(2) or m.group(3)):
        raise ValueError(f"not a figure: {text.strip()!r}")
    sign, whole, part = m.group(1), m.group(2) or "0", m.group(3) or ""
    value = Fraction(int(whole + part), 10 ** len(part))
    return -value if sign == "-" else value


#: Every figure the rules score or charge is a whole number of 72nds: battles 7r/72 and 5r/72 (times tokens),
#: wars k/36 (times city values), the mill k/6 (times 6). A score is a sum of them.
UNIT = Fraction(1, 72)


def read_correction(text: str) -> Fraction:
    """A GM's luck figure, exact: a fraction as written ("7/72", "-65/72"), or a decimal read as the whole
    number of 72nds it shows to four digits ("0.9028" is 65/72, not 9028/10000), so that a correction typed
    from a printout leaves no hidden remainder behind the digits shown. ValueError, with the nearest figures,
    for a decimal that no number of 72nds shows."""
    written = text.strip().replace(",", ".")
    if "/" in written:
        try:
            return Fraction(written.replace(" ", ""))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"not a figure: {text.strip()!r}; write e.g. -0.0972 or -7/72") from None
    value = read_amount(written)
    nearest = round(value / UNIT) * UNIT
    if display(nearest) == display(value):
        return nearest
    below, above = (nearest - UNIT, nearest) if nearest > value else (nearest, nearest + UNIT)
    raise ValueError(f"{text.strip()} is no whole number of 72nds, which every luck figure is; "
                     f"the nearest are {display(below)} ({_fraction(below)}) and {display(above)} "
                     f"({_fraction(above)}); write one of them, or an exact fraction")


def _fraction(amount: Fraction) -> str:
    n = amount / UNIT
    return f"{n.numerator}/72" if n.denominator == 1 else str(amount)


class LuckLedger:
    """The luck ledger over the JSON dict `data` the game keeps in its state (changed in place)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.ledger = Ledger(data, negative={LUCK})

    def score(self, player: str) -> Fraction:
        """The player's exact score (0 before his first entry)."""
        return Fraction(self.ledger.balance(player, LUCK))

    def scores(self, players: Iterable[str] = ()) -> dict[str, Fraction]:
        """Every score on the ledger, and 0 for each of `players` not on it yet."""
        out = {p: Fraction(0) for p in players}
        out.update({p: Fraction(v) for p, v in self.ledger.balances(LUCK).items()})
        return out

    def record(self, turn: int, postings: Iterable[LuckPosting]) -> dict[str, Fraction]:
        """Post the entries in order (a zero entry is kept: a battle that scored nothing is still in the public
        history); the new scores of the players posted to."""
        after: dict[str, Fraction] = {}
        for p in postings:
            after[p.player] = Fraction(self.ledger.post(turn, p.player, LUCK, p.amount, p.reason))
        return after

    def history(self, player: str | None = None) -> Iterator[Posting]:
        """The entries in the order made, of one player if given; each carries the balance after it."""
        return self.ledger.postings(player, LUCK)

    def standings(self, players: Iterable[str]) -> str:
        """One line of running scores in the order of `players`: "London -0.2222, Genoa -0.1667"."""
        scores = self.scores(players)
        return ", ".join(f"{p} {show(scores[p])}" for p in players)
