"""Where characters are, for the rules' LOCATIONS: "most actions involving other characters require that both
characters be in the same location" (Attack, Sacrifice, Give ...), and which location strength an attack
meets (CHARACTER ATTACKS, LOCATION STRENGTH). docs/law-of-the-jungle.md, LJ-OQ-31.

A character stands in his unit when he is enlisted in one (`Character.unit`), otherwise in his city
(`Character.city`, whatever hex of it he lives on). Map positions are the GM's Civilization V coordinates
(x, y): hexes in rows, every odd row pushed half a hex to the right ("odd-r" offset coordinates);
`hex_distance` converts them to cube coordinates to count steps.
"""

from __future__ import annotations

from .model import Character, City, Unit, World, key

#: "Characters in two different units within 2 hexes of each other": 2 steps or fewer (inclusive).
UNIT_REACH = 2


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two hexes given as odd-r offset coordinates (x column, y row; odd rows shifted right)."""
    ax, ay, az = _cube(a)
    bx, by, bz = _cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def _cube(pos: tuple[int, int]) -> tuple[int, int, int]:
    col, row = pos
    x = col - (row - (row & 1)) // 2
    z = row
    return x, -x - z, z


def unit_of(world: World, c: Character) -> Unit | None:
    if c.unit is None:
        return None
    return world.unit(c.unit)


def city_of(world: World, c: Character) -> City | None:
    if c.city is None:
        return None
    return world.city(c.city)


def unit_in_city(unit: Unit, city: City) -> bool:
    """"Characters in a city and characters in a unit within the city": the unit stands on the city's hex. The
    positions decide when the GM gave both; without them, the unit's `city` names the city."""
    if unit.position is not None and city.position is not None:
        return tuple(unit.position) == tuple(city.position)
    return unit.city is not None and key(unit.city) == key(city.name)


def same_location(world: World, a: Character, b: Character) -> bool:
    """Whether `a` and `b` are "counted as the same location for the purpose of actions" (LOCATIONS)."""
    ua, ub = unit_of(world, a), unit_of(world, b)
    if ua is not None and ub is not None:
        if ua is ub:
            return True  # "Both characters in the same unit."
        # "Characters in two different units within 2 hexes of each other."
        return (ua.position is not None and ub.position is not None
                and hex_distance(ua.position, ub.position) <= UNIT_REACH)
    if ua is None and ub is None:
        ca, cb = city_of(world, a), city_of(world, b)
        # "Both characters in the same city (they do not have to be on the same hex)."
        return ca is not None and ca is cb
    # "Characters in a city and characters in a unit within the city."
    unit, other = (ua, b) if ua is not None else (ub, a)
    city = city_of(world, other)
    return unit is not None and city is not None and unit_in_city(unit, city)


def location_strength(world: World, defender: Character) -> int:
    """The location strength an attack on `defender` meets: "either the city strength or the unit's melee
    strength, whichever is relevant" - the place where the (principal) defender stands, his unit's melee
    strength (0 for a unit without one) or his city's strength (LJ-OQ-31)."""
    unit = unit_of(world, defender)
    if unit is not None:
        return max(0, unit.melee)
    city = city_of(world, defender)
    return max(0, city.strength) if city is not None else 0
