"""Air combat's arithmetic: planes fighting for an air zone, who has air superiority and by how much, what
strategic bombing leaves of a zone's value. Pure functions; every draw from the `random.Random`
passed in through chances.happens.

"When combat reconciliation begins, air units fight first to determine "air superiority"." The ground bonus
of superiority is combat.unit_value's `air_superiority` (+1, "The maximum effect is +1").
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from itertools import combinations

from .chances import successes

#: "Air units fight each other at 1 attack and 1 defense (out of 6)." (GG-OQ-23: each plane hits with 1/6.)
PLANE_HIT = Fraction(1, 6)


def air_battle(planes: Mapping[str, int], rng: random.Random) -> dict[str, int]:
    """The planes each side has left after the fight for one air zone (side -> planes assigned there).

    GG-OQ-23: "(out of 6)" is a die: each plane fires once at each enemy side and kills one of its planes with
    chance 1/6, attacker and defender alike ("1 attack and 1 defense"); "If any units are killed, they are
    removed from the "air superiority" equation". With three sides or more, each side fights each other in
    pairs, as in multi-way combat ("Each player fights each other player in pairwise combat at full strength";
    "Losses are removed from each individual paired in combat"), all at once, a side never losing more planes
    than it has. Draws: pairs in the mapping's order, in each pair the first side's planes, then the second's."""
    if any(count < 0 for count in planes.values()):
        raise ValueError("plane counts are not negative")
    losses = dict.fromkeys(planes, 0)
    for a, b in combinations(planes, 2):
        losses[b] += sum(successes(planes[a], PLANE_HIT, rng))
        losses[a] += sum(successes(planes[b], PLANE_HIT, rng))
    return {side: max(planes[side] - losses[side], 0) for side in planes}


def superiority(survivors: Mapping[str, int]) -> tuple[str, int] | None:
    """Who has air superiority in the zone and its margin: "If one player has more planes than the other, he
    has "air superiority"." With three sides or more, the side with more planes than every other, by its lead
    over the next (GG-OQ-23). None when the most planes are tied (or there are none)."""
    ranked = sorted(survivors.items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] == 0:
        return None
    runner_up = ranked[1][1] if len(ranked) > 1 else 0
    if ranked[0][1] == runner_up:
        return None
    return ranked[0][0], ranked[0][1] - runner_up


def bombed_value(zone_value: int, margin: int) -> int:
    """A zone's value after strategic bombing by a side with superiority `margin`: "Air superiority *does* stack
    for strategic bombing!", "Air superiority of 5 planes would do 5 economic damage to the selected economic
    zone", "Strategic bombing *can* reduce an economic zone below its starting value to a minimum of 0"."""
    if margin < 0:
        raise ValueError(f"a margin is not negative, got {margin}")
    return max(zone_value - margin, 0)

