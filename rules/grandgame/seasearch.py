"""Sea combat's arithmetic: the search chance of an armada, whether two armadas engage, the casualties of a
naval battle, and which ships sink first. Pure functions; every draw from the `random.Random` passed in
through chances.happens.

"Combat at sea takes place with two components: Searching and Casualties." "There is no "Victory" chance in
sea combat. The only way to remove ships is by inflicting casualties."
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from .chances import happens
from .combat import HEAVY_FLEET, LIGHT_FLEET, draw_kills

#: "an armada gains a 10% chance of finding an enemy armada for every ship in its group": one tenth a ship, so
#: "10 ships have a 100% chance".
SHIPS_SURE = 10


#: "Light fleets can carry up to two land units and six supply." "Heavy fleets can base up to one aircraft and
#: six supply." (kind -> (units, supplies) a fleet carries at most)
CARGO: dict[str, tuple[int, int]] = {LIGHT_FLEET: (2, 6), HEAVY_FLEET: (1, 6)}


def search_chance(ships: int, air_superiority: bool = False) -> Fraction:
    """The chance that an armada of `ships` fleets (light and heavy) finds the enemy armada: 10% a ship, at most
    certain. "a lone ship has only a 10% chance of finding an enemy armada; 5 ships have a 50% chance; 10 ships
    have a 100% chance." "Air superiority guarantees the fleet will be spotted": an armada whose side has air
    superiority over the sea finds the other for sure."""
    if ships < 0:
        raise ValueError(f"ships are not negative, got {ships}")
    if air_superiority and ships > 0:
        return Fraction(1)
    return Fraction(min(ships, SHIPS_SURE), SHIPS_SURE)


def engagement_chance(ships: int, enemy_ships: int, air_superiority: bool = False,
                      enemy_air_superiority: bool = False) -> Fraction:
    """The chance that two armadas fight: "Combat takes place if one fleet finds the other. If neither fleet
    searches successfully, no combat takes place." Each search is "rolled once for the entire armada", each
    armada its own: 1 - (1 - a)(1 - b)."""
    a = search_chance(ships, air_superiority)
    b = search_chance(enemy_ships, enemy_air_superiority)
    return 1 - (1 - a) * (1 - b)


@dataclass(frozen=True)
class Search:
    """The two searches' outcomes."""

    finds: bool
    enemy_finds: bool

    @property
    def engaged(self) -> bool:
        return self.finds or self.enemy_finds


def draw_search(ships: int, enemy_ships: int, rng: random.Random, *, air_superiority: bool = False,
                enemy_air_superiority: bool = False, in_port: bool = False) -> Search:
    """Both armadas' searches, in that order, one draw each (none for a sure one). "Combat in ports
    automatically triggers an engagement and no "search" roll is necessary": in port, no draw, engaged."""
    if in_port:
        return Search(True, True)
    finds = happens(search_chance(ships, air_superiority), rng)
    enemy_finds = happens(search_chance(enemy_ships, enemy_air_superiority), rng)
    return Search(finds, enemy_finds)


@dataclass(frozen=True)
class NavalBattle:
    """The ships each side lost."""

    lost: int
    enemy_lost: int


def naval_battle(strength: int, ships: int, enemy_strength: int, enemy_ships: int,
                 rng: random.Random) -> NavalBattle:
    """Casualties only, with the general system: each side kills each enemy ship with half its relative
    strength, at most 2 ships per ship of its own ("Fleet units all have a combat value (see the table of
    combat values)"). Draws: the first side's kills (one per enemy ship), then the enemy's (one per own ship).
    Strengths as fought: both at attack strength ("If the fleets find each other, they both fight at attack
    strength"; GG-OQ-24), a fleet defending in port at defense + 1 (combat.unit_value)."""
    enemy_lost = draw_kills(strength, enemy_strength, ships, enemy_ships, rng)
    lost = draw_kills(enemy_strength, strength, enemy_ships, ships, rng)
    return NavalBattle(lost, enemy_lost)


def sinking_order(fleets: list[tuple[str, bool]]) -> list[int]:
    """The order in which an armada's fleets sink, as indexes into `fleets` (kind, loaded). "For the sake of
    simplicity, unloaded light fleets will be sunk before loaded fleets. Imagine that light fleets are
    comprised of destroyers and transports and that the destroyers are destroyed first." GG-OQ-24: every
    empty fleet before every loaded one, light before heavy within each, then the armada's order."""
    rank = {LIGHT_FLEET: 0, HEAVY_FLEET: 1}
    return sorted(range(len(fleets)), key=lambda i: (fleets[i][1], rank[fleets[i][0]]))
