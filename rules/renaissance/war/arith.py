"""The one rounding convention of every war step (docs/renaissance/war.md, RW-OQ-01).

The rules round in five named places, in three directions, and say nothing elsewhere. The convention:

- **What anyone loses is rounded up**, at the moment it is lost: men, cannons, falconets, ships, horses and goods
  killed, sunk, destroyed, captured or thrown overboard; points of FAS or FAR battered down; a fall of morale.
  ATTRITION: "All forms of attrition are always rounded up so as to maximize losses", and TRAVEL's NB, "Since
  all losses are rounded up".
- **What anyone gains is rounded down**: a rise of morale, popularity or a rating, men raised, climbers reaching
  the top of a wall. That is how every rating of the game already moves (ratings.add_rating drops fractions).
- **Where the text names a rounding, the text wins**: looting's 7% "rounded to the nearest whole number" (a half
  rounds up: it is a loss); the Confucian halving "rounded down"; the tower garrison's 10% "rounded down".
- Inside one computation everything is exact (fractions.Fraction): firers may be fractional where a ceiling
  stops part of them (RW-OQ-20); only what is lost or gained is rounded, each line of a schedule on its own.
- Men are whole at every moment of a battle; no loss ever exceeds what is there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import TypeVar

Number = int | Fraction
K = TypeVar("K")


def loss(amount: Number, available: int | None = None) -> int:
    """A loss, rounded up, never more than `available` (when given) nor below zero."""
    if amount <= 0:
        return 0
    n = math.ceil(Fraction(amount))
    return n if available is None else min(n, max(0, available))


def gain(amount: Number) -> int:
    """A gain, rounded down (fractions dropped), never below zero."""
    if amount <= 0:
        return 0
    return math.floor(Fraction(amount))


def nearest(amount: Number) -> int:
    """Rounded to the nearest whole number, a half upward (looting's 7%: a half is a loss, so it is taken)."""
    return math.floor(Fraction(amount) + Fraction(1, 2))


def isqrt_up(n: int) -> int:
    """The square root of a whole number, rounded up (a fall)."""
    r = math.isqrt(n)
    return r if r * r == n else r + 1


def share(total: int, weights: Mapping[K, Number]) -> dict[K, int]:
    """`total` whole units shared in proportion to `weights`: each gets the whole part of its share, and the units
    left over go one each to the largest remainders, ties to the key written first. Used wherever whole things
    are split between parties in proportion (a side's losses back to the personae who brought the men)."""
    keys = [k for k, w in weights.items() if w > 0]
    out: dict[K, int] = dict.fromkeys(weights, 0)
    if total <= 0 or not keys:
        return out
    if all(type(weights[k]) is int for k in keys):
        # Whole weights (men, guns): the same shares in integer arithmetic, every remainder over one denominator.
        whole_int = sum(int(weights[k]) for k in keys)
        rest: dict[K, int] = {}
        for k in keys:
            out[k], rest[k] = divmod(total * int(weights[k]), whole_int)
        remainders: dict[K, Number] = dict(rest)
    else:
        whole = sum(Fraction(weights[k]) for k in keys)
        exact = {k: Fraction(total) * Fraction(weights[k]) / whole for k in keys}
        for k in keys:
            out[k] = math.floor(exact[k])
        remainders = {k: exact[k] - out[k] for k in keys}
    left = total - sum(out.values())
    if left:
        position = {k: i for i, k in enumerate(keys)}
        for k in sorted(keys, key=lambda k: (-remainders[k], position[k]))[:left]:
            out[k] += 1
    return out


def figure(x: Number, places: int = 3) -> str:
    """A figure as a report writes it: a whole number as it is, any other to `places` decimals, trailing zeros
    dropped ("26.88", "0.6", "12")."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.{places}f}".rstrip("0").rstrip(".")
