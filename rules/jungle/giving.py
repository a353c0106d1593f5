"""GIVE X: "A character may give things to another character in the same location."

Fame (the giver's own), food and gold (his house's stores, to the receiver's house), ownership of a slave,
captaincy of a unit, citizenship over a tile of land, rulership of a city. XP, Wisdom and Craftsmanship
cannot be given (they are not in the list, LJ-OQ-60). The changes of hands are `maild_rules.jungle.transfers`.
"""

from __future__ import annotations

from typing import Any

from .council import Action, Council, Void, handles
from .houses import acting_house, find_city, find_unit, head, pool
from .model import Character, World, key
from .places import same_location
from .transfers import lands_of, transfer_captaincy, transfer_land, transfer_rulership, transfer_slave


def _amount(action: Action, what: str) -> int:
    amount: Any = action.args.get("amount")
    if not isinstance(amount, int) or amount <= 0:
        raise Void(f"say how much {what} to give")
    return amount


def _check_same_place(world: World, actor: Character, to: Character) -> None:
    if not same_location(world, actor, to):
        raise Void(f"{to.name} is not in the same location as {actor.name}")


@handles("give")
def give(council: Council, actor: Character, action: Action) -> None:
    """GIVE: each kind is valid only if the giver holds what he gives at the moment of resolution (LJ-OQ-10:
    otherwise void, nothing is given in part)."""
    world = council.world
    what = str(action.args.get("what") or "").casefold()
    to = world.character(str(action.args.get("to") or ""))
    if to is None or not to.alive:
        raise Void(f"there is no character {action.args.get('to')!r} to give to")
    if to is actor:
        raise Void(f"{actor.name} cannot give to himself")
    _check_same_place(world, actor, to)
    house = acting_house(council, actor, action)
    if what == "fame":
        n = _amount(action, "Fame")
        if actor.fame < n:
            raise Void(f"{actor.name} has {actor.fame} Fame, not {n}")
        actor.fame -= n
        to.fame += n
        text = f"{actor.name} gives {n} Fame to {to.name}."
    elif what in ("food", "gold"):
        n = _amount(action, what)
        mine, theirs = pool(world, house), pool(world, to.house)
        if head(world, house) == head(world, to.house):
            raise Void(f"{to.name} shares the stores of the same house")
        have = getattr(mine, what)
        if have < n:
            raise Void(f"the house has {have} {what}, not {n}")
        setattr(mine, what, have - n)
        setattr(theirs, what, getattr(theirs, what) + n)
        text = f"{actor.name} gives {n} {what} to {to.name}."
    elif what == "slave":
        slave = world.character(str(action.args.get("object") or ""))
        if slave is None or not slave.alive or slave.owner is None or key(slave.owner) != key(actor.name):
            raise Void(f"{action.args.get('object')} is not a slave of {actor.name}")
        if slave is to:
            raise Void("to free a slave is not a gift the rules list; he can escape")
        transfer_slave(world, slave, to)
        text = f"{actor.name} gives his slave {slave.name} to {to.name}."
    elif what == "captaincy":
        unit = find_unit(world, action.args.get("object")) if action.args.get("object") else actor.unit
        u = world.units.get(unit) if unit else None
        if u is None or u.captain is None or key(u.captain) != key(actor.name):
            raise Void(f"{actor.name} is not the Captain of {action.args.get('object') or 'a unit'}")
        transfer_captaincy(world, u.name, to)
        text = f"{actor.name} gives the captaincy of {u.name} to {to.name}."
    elif what == "land":
        wanted = action.args.get("object")
        mine_land = lands_of(world, actor)
        tiles = [t for t in mine_land if wanted is None or key(t[1]) == key(str(wanted))]
        if not tiles:
            raise Void(f"{actor.name} owns no land {wanted or ''}".rstrip())
        if len(tiles) > 1:
            raise Void(f"{actor.name} owns {len(tiles)} tiles: name the one given")
        city, hex_name = tiles[0]
        transfer_land(world, hex_name, city, to)
        text = f"{actor.name} gives the citizenship over {hex_name} in {city} to {to.name}."
    elif what == "rulership":
        city = find_city(world, action.args.get("object")) if action.args.get("object") else actor.city
        c = world.cities.get(city) if city else None
        if c is None or c.tlatoani is None or key(c.tlatoani) != key(actor.name):
            raise Void(f"{actor.name} is not the Tlatoani of {action.args.get('object') or 'a city'}")
        transfer_rulership(world, c.name, to)
        text = f"{actor.name} gives the rulership of {c.name} to {to.name}, who is now its Tlatoani."
        council.announce(text)
    else:
        raise Void("one gives Fame, food, gold, a slave, the captaincy of a unit, land or the rulership of a city")
    council.tell(house, text)
    if head(world, to.house) != head(world, house):
        council.tell(to.house, text)
    council.event("give", character=actor.name, to=to.name, what=what, args=dict(action.args))
