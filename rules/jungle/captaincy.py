"""Who captains a unit, and who succeeds a Captain who died or left (CAPTAIN OF UNIT X, UNITS).

Below deaths.py, which calls `after_death` when a character dies, and units.py, which kills through deaths.py
and names these as its own: so a death's consequences for a unit need no import of units.py from deaths.py.
"""

from __future__ import annotations

from maild.draws import weighted_choice

from .council import Council
from .model import Character, Unit, World, key
from .transfers import transfer_captaincy


def members(world: World, unit: Unit | str) -> list[Character]:
    """The living player characters in the unit, by name (the order every draw over them walks)."""
    name = unit.name if isinstance(unit, Unit) else unit
    return sorted((c for c in world.living() if c.unit is not None and key(c.unit) == key(name)),
                  key=lambda c: c.name)


def is_captain(character: Character, unit: Unit) -> bool:
    return unit.captain is not None and key(unit.captain) == key(character.name)


def captaincies(world: World, character: Character) -> list[Unit]:
    return [u for u in world.units.values() if is_captain(character, u)]


def succeed_captain(council: Council, unit: Unit) -> Character | None:
    """"If the Captain is killed, a randomly selected character, weighted by Fame, is promoted to Captain."
    Among the unit's player characters (LJ-OQ-53: NPCs are not in the draw; all at Fame 0: unweighted); none
    left: the unit has no Captain and "is controlled by Yahzuk"."""
    world = council.world
    old = world.character(unit.captain) if unit.captain else None
    if old is not None:
        old.drop_title("Captain", unit.name)
    people = [c for c in members(world, unit) if old is None or c is not old]
    if not people:
        unit.captain = None
        council.event("captain", unit=unit.name, captain=None)
        return None
    new = weighted_choice(people, [c.fame for c in people], council.rng)
    unit.captain = None  # the old Captain's title is gone already: transfer only gives it
    transfer_captaincy(world, unit.name, new)
    council.tell(new.house, f"{new.name} is promoted to Captain of Unit {unit.name}.")
    council.announce(f"{new.name} is the new Captain of Unit {unit.name}.")
    council.event("captain", unit=unit.name, captain=new.name)
    return new


def after_death(council: Council, character: Character) -> None:
    """A dead Captain's unit gets a new Captain (deaths.kill calls this)."""
    for unit in captaincies(council.world, character):
        succeed_captain(council, unit)
