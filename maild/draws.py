"""Weighted random selection without replacement, exact and repeatable from the RNG a game is given.

For games that pick characters or projects "at random, weighted by" something (The Law of the Jungle: new
citizens and Tlatoani weighted by Fame, research by beakers x Wisdom, production by hammers x
Craftsmanship, policies by Fame spent, the dead weighted by 1/XP).

`weighted_sample(items, weights, k, rng)` draws `k` distinct items, one at a time: each draw picks among the
items not yet drawn with probability weight / (sum of their weights). The method is a walk: the weights are
made exact (`fractions.Fraction`; an int or a float converts without loss) and scaled to whole numbers over
their common denominator, one `rng.randrange(total)` is taken per draw, and the item drawn is the first, in
the order given, whose running sum of weights exceeds that number. So the result depends only on the RNG's
state and on the order of the items, never on float rounding or on the platform; the same weights written
as 2, 2.0 or Fraction(2) draw the same.

Edge cases:

- A weight of zero is never drawn while any item left has a positive weight.
- When every item left has weight zero (all weights zero from the start, or every positive one drawn), the
  draw is unweighted (uniform among the items left) with ``exhausted="unweighted"`` (the default: the Law of
  the Jungle's "the remaining selections are made randomly (unweighted)"), and the sample stops short of `k`
  with ``exhausted="stop"``.
- ``k`` larger than the number of items, a negative ``k``, a negative, infinite or NaN weight, or weights
  and items of different lengths raise ValueError: these are mistakes of the caller, not chances of play.
- A game's own threshold for dropping weights altogether (the Law of the Jungle's kick-off: "not at least 2
  characters with some Fame ... the first Tlatoani and citizen selection will be unweighted") is the
  game's to test; it then calls `unweighted_sample`.

Each draw costs one `randrange` and a walk over the items left (O(n) per draw, O(n*k) in all), which is
nothing at the sizes of a council of characters.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from math import lcm
from typing import Literal, TypeVar

T = TypeVar("T")
Weight = int | float | Fraction
Exhausted = Literal["unweighted", "stop"]


def _exact(weights: Sequence[Weight]) -> list[int]:
    """The weights as whole numbers in the same proportions (over their common denominator)."""
    fractions: list[Fraction] = []
    for w in weights:
        if isinstance(w, float) and not math.isfinite(w):
            raise ValueError(f"a weight must be a finite number, got {w}")
        f = Fraction(w)
        if f < 0:
            raise ValueError(f"a weight must not be negative, got {w}")
        fractions.append(f)
    denominator = lcm(*(f.denominator for f in fractions)) if fractions else 1
    return [int(f * denominator) for f in fractions]


def _pick(weights: list[int], rng: random.Random) -> int:
    """The index drawn by one walk: the first whose running sum exceeds rng.randrange(sum)."""
    r = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("unreachable: r < sum(weights)")


def weighted_sample(items: Sequence[T], weights: Sequence[Weight], k: int, rng: random.Random, *,
                    exhausted: Exhausted = "unweighted") -> list[T]:
    """`k` distinct items drawn one by one, each with probability proportional to its weight among those left;
    in the order drawn. See the module docstring for zero weights and the edge cases."""
    if len(items) != len(weights):
        raise ValueError(f"{len(items)} items but {len(weights)} weights")
    if not 0 <= k <= len(items):
        raise ValueError(f"cannot draw {k} of {len(items)} items")
    left = list(items)
    scaled = _exact(weights)
    drawn: list[T] = []
    while len(drawn) < k:
        if not any(scaled):
            if exhausted == "stop":
                break
            scaled = [1] * len(left)
        i = _pick(scaled, rng)
        drawn.append(left.pop(i))
        scaled.pop(i)
    return drawn


def unweighted_sample(items: Sequence[T], k: int, rng: random.Random) -> list[T]:
    """`k` distinct items, each draw uniform among those left (the same walk with every weight 1)."""
    return weighted_sample(items, [1] * len(items), k, rng)


def weighted_choice(items: Sequence[T], weights: Sequence[Weight], rng: random.Random) -> T:
    """One item, with probability proportional to its weight (uniform if every weight is zero)."""
    if not items:
        raise ValueError("cannot choose from no items")
    return weighted_sample(items, weights, 1, rng)[0]
