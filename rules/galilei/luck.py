"""The public luck ledger (3.4, 3.10): each player's score and every posting with what caused it, kept in
the game's JSON state through `maild.ledger.Ledger`; and how luck is shown and read.

"All decimals are used with 4 exact digits" (3.10, GA-OQ-04): every posting (a battle's luck, a spend, a
war, a mill, a GM correction, an amendment) is rounded half up to four decimals when it is posted, on its
magnitude with the sign kept, so a gain and the loss it matches have the same digits (`rounded`), and is kept
exactly as that four-digit decimal. A score is the exact sum of its postings, so every score shown is the
sum of the entries shown (issue 23: "the ledger shows every posting and the scores are the sum of what it
shows"). A cost paid with luck is rounded the same way when it is charged, and the spending bounds compare
those four-digit figures (spending.py). Three wins at row 1 post 3 x 0.0972 = 0.2916, not 21/72 = 0.2917.

A game stored before this reading keeps its exact "p/q" postings and scores as they are; new postings are
rounded (docs/galilei.md, GA-OQ-04).

Figures are written with a point (GA-OQ-31); a player may write a comma ("0,0973", as 3.10 once does).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from maild.ledger import Ledger, Posting, display, round_half_up

#: The ledger's currency name for luck; it may go negative.
LUCK = "luck"


#: 3.10: "All decimals are used with 4 exact digits".
DIGITS = 4


def rounded(amount: Fraction | int) -> Fraction:
    """A luck figure as it is posted or charged (3.10): four decimals, the fourth rounded half up on the
    magnitude, the sign kept: 7/72 -> 0.0972, -65/72 -> -0.9028, 1/6 -> 0.1667, 0.1500 -> 0.1500."""
    return round_half_up(amount, DIGITS)


@dataclass(frozen=True)
class LuckPosting:
    """One entry of the ledger: `amount` (signed, four digits: `rounded`) to `player`, for `reason`."""

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


def read_correction(text: str) -> Fraction:
    """A GM's luck figure as it will be posted: a decimal as written ("-0.0972", "0,1500"; more than four
    digits are rounded like every posting), or a fraction ("7/72", "-65/72") rounded to four digits (7/72 ->
    0.0972). What is typed from a printout is what is posted: no remainder hides behind the digits shown.
    ValueError for anything else."""
    written = text.strip().replace(",", ".")
    if "/" in written:
        try:
            return rounded(Fraction(written.replace(" ", "")))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"not a figure: {text.strip()!r}; write e.g. -0.0972 or -7/72") from None
    try:
        return rounded(read_amount(written))
    except ValueError:
        raise ValueError(f"not a figure: {text.strip()!r}; write e.g. -0.0972 or -7/72") from None


class LuckLedger:
    """The luck ledger over the JSON dict `data` the game keeps in its state (changed in place)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.ledger = Ledger(data, negative={LUCK}, decimals=DIGITS)

    def score(self, player: str) -> Fraction:
        """The player's score, the exact sum of his postings (0 before his first entry)."""
        return Fraction(self.ledger.balance(player, LUCK))

    def scores(self, players: Iterable[str] = ()) -> dict[str, Fraction]:
        """Every score on the ledger, and 0 for each of `players` not on it yet."""
        out = {p: Fraction(0) for p in players}
        out.update({p: Fraction(v) for p, v in self.ledger.balances(LUCK).items()})
        return out

    def record(self, turn: int, postings: Iterable[LuckPosting]) -> dict[str, Fraction]:
        """Post the entries in order, each rounded to four digits (3.10; the callers round already, so that the
        scores their lines print are these), a zero entry kept (a battle that scored nothing is still in the
        public history); the new scores of the players posted to."""
        after: dict[str, Fraction] = {}
        for p in postings:
            after[p.player] = Fraction(self.ledger.post(turn, p.player, LUCK, rounded(p.amount), p.reason))
        return after

    def history(self, player: str | None = None) -> Iterator[Posting]:
        """The entries in the order made, of one player if given; each carries the balance after it."""
        return self.ledger.postings(player, LUCK)

    def standings(self, players: Iterable[str]) -> str:
        """One line of running scores in the order of `players`: "London -0.2222, Genoa -0.1667"."""
        scores = self.scores(players)
        return ", ".join(f"{p} {show(scores[p])}" for p in players)
