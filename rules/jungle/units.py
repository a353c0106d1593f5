"""Units and their Captains (UNITS, ENLIST, ORDER, DESERT, DISBAND, RETIRE, CAPTAIN OF UNIT X).

A unit's characters are the living characters whose `Character.unit` names it; the rest of its places, up to
its health, are NPCs, counted and never stored ("Any character spots not filled by player's characters are
filled by NPCs (not individually tracked)"). So a gain of health needs nothing done, and an Enlist displaces
an NPC simply by adding a character.

What other parts call:

- `health_changed(council, unit, old, new)`: the GM's update changed a unit's health; a loss kills;
- `share_unit_gain(council, unit, attribute, amount, general=None)`: "all characters within the unit earn
  the same amount";
- `succeed_captain(council, unit)`: a new Captain drawn by Fame (the Captain died or left), and `members(world,
  unit)`: both in captaincy.py, below deaths.py, which calls them when a Captain dies;
- `npcs(world, unit)`, `find_unit(world, name)`;
- `consume(council, unit, cause)`: a settler settled, a Great Person expended, a work boat used.

The readings (LJ-OQ-47, 52, 53, 54) are in docs/law-of-the-jungle.md, "Units, cities, Tlatoani and citizens".
"""

from __future__ import annotations

import random
from fractions import Fraction

from maild.draws import unweighted_sample, weighted_sample

from . import deaths
from .captaincy import captaincies, is_captain, members, succeed_captain
from .captains import captain_orders
from .council import Action, Council, Void, handles
from .houses import pool
from .model import Character, City, Unit, World, key
from .places import hex_distance
from .transfers import retenant, retenant_landlord

NPC_XP = 1  # "NPC characters are considered to have a permanent XP = 1."


# -- lookups ----------------------------------------------------------------------------------------------
def find_unit(world: World, name: str | None) -> Unit | None:
    return world.unit(name)


def find_city(world: World, name: str | None) -> City | None:
    return world.city(name)


def npcs(world: World, unit: Unit) -> int:
    """The NPCs in the unit: its places (its health) not filled by player characters."""
    return max(0, unit.health - len(members(world, unit)))


def random_hex(council: Council, city: City) -> str:
    """A workable hex of `city`, each equally likely (one draw) (LJ-OQ-54)."""
    hexes = list(city.hexes)
    if not hexes:
        return city.centre
    return unweighted_sample(hexes, 1, council.rng)[0]


def settle(world: World, character: Character, city: City, hex_name: str) -> None:
    """`character` leaves his unit and lives on `hex_name` of `city`; a soldier becomes a peasant (citizens
    and the Tlatoani keep their rank and their land)."""
    character.unit = None
    if character.role == "soldier":
        character.role = "peasant"
    character.city = city.name
    character.hex = hex_name
    retenant(world, character)
    retenant_landlord(world, character)  # back on his land: his tenants are his again


# -- health: deaths and NPCs ------------------------------------------------------------------------------
def casualties(world: World, unit: Unit, old: int, new: int, rng: random.Random) -> list[Character | None]:
    """Who dies when the unit's health falls from `old` to `new`: one draw per place lost, without
    replacement, weighted by 1/XP over the player characters and the NPCs (XP 1); None stands for an NPC.

    The unit had max(old, its player characters) places (an inconsistent figure from the GM counts its
    characters); it keeps `new` of them, so that many minus `new` die, all of them at health 0."""
    people = members(world, unit)
    pool: list[Character | None] = [*people, *([None] * max(0, old - len(people)))]
    weights = [Fraction(1, max(c.xp, 1)) if c is not None else Fraction(1, NPC_XP) for c in pool]
    k = max(0, len(pool) - max(new, 0))
    return weighted_sample(pool, weights, k, rng)


def health_changed(council: Council, unit: Unit | str, old: int, new: int) -> None:
    """The unit's health went from `old` to `new` (the GM's update): "When a unit loses health, some of those
    characters are killed ... Killed characters are selected at random, weighted by 1/XP." A gain needs
    nothing: "NPCs automatically and immediately fill in the restored character spots"."""
    if not isinstance(unit, Unit):
        found = find_unit(council.world, unit)
        if found is None:
            raise KeyError(f"no unit {unit!r}")
        unit = found
    unit.health = new
    if (new >= old and new > 0) or not members(council.world, unit):
        return  # a gain, or only NPCs to lose: nobody tracked dies, no draw is taken
    dead = [c for c in casualties(council.world, unit, old, new, council.rng) if c is not None]
    cause = f"unit {unit.name} was destroyed" if new <= 0 else f"killed while unit {unit.name} lost health"
    # The Captain dies last, so that his successor is drawn among the survivors only.
    dead.sort(key=lambda c: is_captain(c, unit))
    for c in dead:
        deaths.kill(council, c, cause)
    if new <= 0:
        unit.captain = None


def share_unit_gain(council: Council, unit: Unit, attribute: str, amount: int, general: Unit | None = None
                    ) -> list[Character]:
    """"all characters within the unit earn the same amount of XP, Fame or Gold": `share_unit_gains` of one
    attribute ("xp", "fame" or "gold")."""
    return share_unit_gains(council, unit, {attribute: amount}, general)


def share_unit_gains(council: Council, unit: Unit, gains: dict[str, int], general: Unit | None = None
                     ) -> list[Character]:
    """"all characters within the unit earn the same amount of XP, Fame or Gold": each player character in
    `unit` (and in the General's unit whose combat bonus it had) gains each amount of `gains` ("xp", "fame",
    "gold"; gold to his house: each character earns it), told in one line. Who is in the unit is taken now
    (LJ-OQ-47). Returns them."""
    for attribute in gains:
        if attribute not in ("xp", "fame", "gold"):
            raise ValueError(f"a unit shares XP, Fame or gold, not {attribute!r}")
    gains = {a: n for a, n in gains.items() if n}
    world = council.world
    people = members(world, unit)
    if general is not None and general.name != unit.name:
        people += [c for c in members(world, general) if c not in people]
    words = [f"{n} {_word(a)}" for a, n in gains.items()]
    earned = " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)
    for c in people:
        for attribute, amount in gains.items():
            if attribute == "gold":
                pool(world, c.house).gold += amount
            else:
                setattr(c, attribute, getattr(c, attribute) + amount)
        if earned:
            council.tell(c.house, f"{c.name} earns {earned} with unit {unit.name}.")
    return people


def _word(attribute: str) -> str:
    return {"xp": "XP", "fame": "Fame", "gold": "gold"}[attribute]


# -- Captains ----------------------------------------------------------------------------------------------
def consume(council: Council, unit: Unit, cause: str) -> None:
    """"Settling a city, expending a Great Person, or using a work boat consumes the Captain of the unit. Any
    other characters within the unit are treated as if the unit had disbanded." The Captain leaves the game
    (he is dead to it: deaths.kill with `cause`), without a successor; the others are scattered as by
    Disband."""
    world = council.world
    captain = world.character(unit.captain) if unit.captain else None
    unit.captain = None
    if captain is not None:
        captain.drop_title("Captain", unit.name)
        deaths.kill(council, captain, cause)
    _scatter(council, unit)


def capture_unit(council: Council, unit: Unit | str) -> list[Character]:
    """"If a settler or worker is captured, all characters within the unit are removed from the game, but will
    be returned if the unit is later rescued." They are held (`World.held`): out of the living, so they
    neither act nor eat, but not dead (no death's consequences, their XP kept). Returns them."""
    world = council.world
    unit = unit if isinstance(unit, Unit) else find_unit(world, unit)
    if unit is None:
        return []
    people = members(world, unit)
    for c in people:
        c.alive = False
        council.tell(c.house, f"{c.name} is taken with unit {unit.name}, captured: out of the game until it "
                              "is rescued.")
    world.held.setdefault(unit.name, []).extend(c.name for c in people)
    return people


def rescue_unit(council: Council, unit: Unit | str) -> list[Character]:
    """The captured unit is rescued: its held characters return to it, its Captain with his captaincy."""
    world = council.world
    name = unit.name if isinstance(unit, Unit) else unit
    held_key = next((n for n in world.held if key(n) == key(name)), None)
    if held_key is None:
        return []
    back = [world.characters[n] for n in world.held.pop(held_key) if n in world.characters]
    target = find_unit(world, name)
    for c in back:
        c.alive = True
        if target is not None:
            c.unit = target.name
            c.city = target.city
        council.tell(c.house, f"{c.name} is back: unit {name} is rescued.")
    if target is not None and target.captain is not None and not any(is_captain(c, target) for c in back):
        captain = world.character(target.captain)
        if captain is None or not captain.alive:
            target.captain = None
    return back


# -- where leavers go ----------------------------------------------------------------------------------------
def nearest_city(world: World, unit: Unit) -> City | None:
    """The nearest Aztec city of a unit (LJ-OQ-54): the GM's `Unit.city` ("the city it is in or nearest
    to"); without it the city nearest its map position (`places.hex_distance`, ties by name)."""
    c = find_city(world, unit.city)
    if c is not None:
        return c
    placed = [c for c in world.cities.values() if c.position is not None]
    if unit.position is None or not placed:
        return None
    here = unit.position
    return min(sorted(placed, key=lambda c: c.name), key=lambda c: hex_distance(here, c.position))


def destination(council: Council, args: dict, unit: Unit) -> tuple[City, str]:
    """Where a deserter or a retiring Captain goes: "any workable hex in any city", as the player named it;
    no city named: the unit's nearest city; no hex named: a random workable hex of the city (LJ-OQ-54)."""
    world = council.world
    city = find_city(world, args.get("city"))
    if args.get("city") and city is None:
        raise Void(f"there is no city {args['city']}")
    if city is None and args.get("hex"):
        city = next((c for c in world.cities.values() if any(key(h) == key(args["hex"]) for h in c.hexes)),
                    None)
    if city is None:
        city = nearest_city(world, unit)
    if city is None:
        raise Void(f"unit {unit.name} is near no city: name the city to go to")
    if args.get("hex"):
        hex_name = next((h for h in city.hexes if key(h) == key(args["hex"])), None)
        if hex_name is None:
            raise Void(f"{args['hex']} is not a workable hex of {city.name}")
        return city, hex_name
    return city, random_hex(council, city)


def _scatter(council: Council, unit: Unit) -> None:
    """"all characters of the unit become peasants in the nearest Aztec city", each on a hex drawn at random
    (one draw each, in name order)."""
    world = council.world
    city = nearest_city(world, unit)
    for c in members(world, unit):
        if city is None:
            c.unit = None  # no city known: he is left where he stands, for the GM to place
            if c.role == "soldier":
                c.role = "peasant"
            council.tell(c.house, f"{c.name} leaves unit {unit.name}; no city is near, the GM will place him.")
            continue
        hex_name = random_hex(council, city)
        settle(world, c, city, hex_name)
        council.tell(c.house, f"{c.name} leaves unit {unit.name} and lives on {hex_name} in {city.name}.")


# -- the actions ---------------------------------------------------------------------------------------------
def _own_unit(world: World, actor: Character, named: str | None) -> Unit:
    """The unit an Order, Disband or Retire is about: the one named, or the actor's only captaincy; the actor
    must be its Captain ("Only characters with the title "Captain of Unit X" may ...")."""
    if named:
        unit = find_unit(world, named)
        if unit is None:
            raise Void(f"there is no unit {named}")
        if not is_captain(actor, unit):
            raise Void(f"{actor.name} is not the Captain of unit {unit.name}")
        return unit
    own = captaincies(world, actor)
    if not own:
        raise Void(f"{actor.name} is not the Captain of any unit")
    if len(own) > 1:
        raise Void(f"{actor.name} is Captain of {', '.join(u.name for u in own)}: name the unit")
    return own[0]


@handles("enlist")
def enlist(council: Council, actor: Character, action: Action) -> None:
    """ENLIST: "Characters may only enlist in a unit in which the number of currently enlisted characters is
    less than the unit's health." Currently enlisted: the player characters (LJ-OQ-53); the enlisting
    character displaces an NPC. A soldier moves from his unit to the new one; a Captain must first Retire,
    Disband or give his captaincy."""
    world = council.world
    unit = find_unit(world, action.args.get("unit"))
    if unit is None:
        raise Void(f"there is no unit {action.args.get('unit')}")
    if actor.unit is not None and key(actor.unit) == key(unit.name):
        raise Void(f"{actor.name} is already in unit {unit.name}")
    if captaincies(world, actor):
        raise Void(f"{actor.name} is a Captain: he leaves his unit only by Retire, Disband, Desert "
                   "or giving the captaincy")
    if unit.health <= 0:
        raise Void(f"unit {unit.name} is destroyed")
    enlisted = len(members(world, unit))
    if enlisted >= unit.health:
        raise Void(f"unit {unit.name} is full: {enlisted} characters enlisted, health {unit.health}")
    if actor.role == "peasant":
        actor.role = "soldier"
    actor.unit = unit.name
    actor.city = unit.city
    actor.hex = None
    retenant(world, actor)  # his own tenancy; the land he owns stays his,
    retenant_landlord(world, actor)  # but not its tenants while he is away (TENANT OF CITIZEN X)
    council.tell(actor.house, f"{actor.name} enlists in unit {unit.name}.")


@handles("order")
def order(council: Council, actor: Character, action: Action) -> None:
    """ORDER: only the Captain; the orders replace the standing ones ("The Captain may not "add-on" to a
    previous sessions orders"); over the word limit the unit fortifies, and keeps fortifying until valid
    orders come (LJ-OQ-52). The unit, the text and the words are read by `captains.captain_orders`, the
    same reading and count the ack gave (LJ-OQ-51)."""
    world = council.world
    both = bool(action.both or action.args.get("both"))
    read = captain_orders(world, actor.name, {**action.args, "both": both})
    unit = _own_unit(world, actor, read.unit.name if read.unit is not None else action.args.get("unit"))
    if read.unit is None or read.count is None or read.unit is not unit:
        raise Void(f"{actor.name} is not the Captain of unit {unit.name}")
    text, count, limit = read.text.strip(), read.count.count, read.count.limit
    unit.orders_session = council.session
    if not read.count.within:
        unit.fortify = True
        unit.orders = ""
        council.tell(actor.house, f"The orders of {actor.name} to unit {unit.name} have {count} words; the limit "
                                  f"is {limit}: the unit is confused and fortifies until it gets valid orders.")
    else:
        unit.fortify = False
        unit.orders = text
        # The orders' text is in the action's own line just above (the ack's summary): not said twice.
        council.tell(actor.house, f"Unit {unit.name} has these new orders from {actor.name} ({count} of {limit} "
                                  "words).")
    council.event("orders", unit=unit.name, fortify=unit.fortify, words=count, limit=limit)


@handles("desert")
def desert(council: Council, actor: Character, action: Action) -> None:
    """DESERT: "Characters may desert a unit and move to any workable hex in any city. Upon deserting a
    character's Fame is reduced by half, rounded down." A deserting Captain's unit draws a new Captain."""
    world = council.world
    unit = find_unit(world, actor.unit)
    if unit is None:
        raise Void(f"{actor.name} is in no unit")
    city, hex_name = destination(council, action.args, unit)
    was_captain = is_captain(actor, unit)
    actor.fame = deserter_fame(actor.fame)
    settle(world, actor, city, hex_name)
    council.tell(actor.house, f"{actor.name} deserts unit {unit.name} (Fame now {actor.fame}) and lives on "
                              f"{hex_name} in {city.name}.")
    council.announce(f"{actor.name} deserted unit {unit.name}.")
    if was_captain:
        succeed_captain(council, unit)


def deserter_fame(fame: int) -> int:
    """"Upon deserting a character's Fame is reduced by half, rounded down": 7 -> 3 (the Fame left)."""
    return fame // 2


def retirement_bonus(fame: int) -> int:
    """"Upon retiring a character earns a bonus of 50% of their Fame", rounded down (LJ-OQ-54): 7 -> 3."""
    return fame // 2


@handles("retire")
def retire(council: Council, actor: Character, action: Action) -> None:
    """RETIRE: only the Captain; Fame bonus 50% (rounded down); he goes to any workable hex in any city; his
    unit draws a new Captain by Fame."""
    world = council.world
    unit = _own_unit(world, actor, action.args.get("unit") or actor.unit)
    if actor.unit is None or key(actor.unit) != key(unit.name):
        # A Captain given the captaincy while outside the unit (the GM's data): he just gives it up.
        city, hex_name = (find_city(world, actor.city), actor.hex)
    else:
        city, hex_name = destination(council, action.args, unit)
    bonus = retirement_bonus(actor.fame)
    actor.fame += bonus
    if city is not None and hex_name is not None:
        settle(world, actor, city, hex_name)
    council.tell(actor.house, f"{actor.name} retires from unit {unit.name} with a bonus of {bonus} Fame"
                              + (f" and lives on {hex_name} in {city.name}." if city and hex_name else "."))
    council.announce(f"{actor.name} retired as Captain of Unit {unit.name}.")
    succeed_captain(council, unit)


@handles("disband")
def disband(council: Council, actor: Character, action: Action) -> None:
    """DISBAND: only the Captain; "Characters from the disbanded unit become peasants on randomly selected
    hexes within the nearest city." The GM disbands the unit in his game (a to-do entry)."""
    world = council.world
    unit = _own_unit(world, actor, action.args.get("unit"))
    actor.drop_title("Captain", unit.name)
    unit.captain = None
    _scatter(council, unit)
    world.todo.append({"kind": "disband", "character": actor.name, "unit": unit.name,
                       "session": council.session, "text": f"disband unit {unit.name}"})
    del world.units[unit.name]
    council.announce(f"{actor.name} disbanded unit {unit.name}.")
