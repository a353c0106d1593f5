"""Drawing an exact chance with the game's seeded RNG.

Every chance of The Grand Game is a fraction: S_a/(S_a+S_d) for victory, half of it for a kill, a tenth per
ship for a sea search, 1/6 for a plane in air-to-air combat. `happens` draws one such chance exactly: one
`rng.randrange(denominator)` below the numerator, so a chance of 3/8 is drawn as eight equal cases of which
three happen (no float, no rounding). Every draw of the game goes through it, so the statistical tests of
tests/test_grandgame_odds.py check the draws the game makes.
"""

from __future__ import annotations

import random
from fractions import Fraction


def happens(chance: Fraction, rng: random.Random) -> bool:
    """Whether an event of `chance` (0 to 1) happens: one `rng.randrange(chance.denominator)`, true when it falls
    below the numerator. A chance of 0 or 1 is decided without a draw (the draws that follow stay the same
    whether or not a sure event was drawn)."""
    # Whole-number comparisons: this runs for every unit of every battle.
    numerator, denominator = chance.numerator, chance.denominator
    if numerator < 0 or numerator > denominator:
        raise ValueError(f"a chance is 0 to 1, got {chance}")
    if numerator in (0, denominator):
        return numerator != 0
    return rng.randrange(denominator) < numerator


def successes(count: int, chance: Fraction, rng: random.Random) -> list[bool]:
    """`count` independent draws of `chance`, in order (one `happens` each)."""
    return [happens(chance, rng) for _ in range(count)]


def pick(count: int, rng: random.Random) -> int:
    """One of `count` equal cases (0 to count - 1): one `rng.randrange(count)`, as drawing a card from a
    shuffled deck of `count` cards. No draw for a single case."""
    if count < 1:
        raise ValueError(f"nothing to pick from, got {count}")
    return 0 if count == 1 else rng.randrange(count)
