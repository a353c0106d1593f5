"""Cities, their Tlatoani and citizens (CITIZEN, SPECIALIST, TLATOANI, SPENDING GOLD, DIPLOMACY, PROPOSE,
SPEND, ANNEX, KICKING OFF THE GAME).

Who holds land and thrones is `maild_rules.jungle.transfers`' (one place for every change of hands); this
module decides *who* is drawn: the first Tlatoani and citizen (`kick_off`), new citizens when the GM's update
raises a city's citizens (`new_citizens`), the citizen demoted when it lowers them (`demote`, by 1/Fame), the
new Tlatoani of a revolt (`revolts`) or of a dead Tlatoani, and the Tlatoani's powers: Spend within
`spending_limit`, Propose, and Annex by a citizen of a puppet city.

"The number of citizens in a city is equal to the number of citizens in the game": the citizen characters of
a city follow its population in the strategy game, so `citizens_changed` is what the GM's update calls, and
a citizen character who dies leaves a place that a new citizen fills (LJ-OQ-11, docs).

Every draw goes through maild.draws; "Random Number" is `Council.random` (LJ-OQ-01).
"""

from __future__ import annotations

import random
from fractions import Fraction

from maild.draws import unweighted_sample, weighted_choice, weighted_sample

from .council import Action, Council, Void, handles
from .model import Character, City, World, key
from .transfers import landlord_of, lands_of, retenant, retenant_tile, transfer_land, transfer_rulership

CITIZEN_ROLES = ("citizen", "specialist")


# -- who is where ---------------------------------------------------------------------------------------------
def residents(world: World, city: City) -> list[Character]:
    """The living characters living in the city (on its hexes; not soldiers in a unit), by name."""
    return sorted((c for c in world.living() if c.unit is None and c.city is not None
                   and key(c.city) == key(city.name)), key=lambda c: c.name)


def citizens_of(world: World, city: City) -> list[Character]:
    """The citizen characters of the city (citizens and specialists), by name."""
    return [c for c in residents(world, city) if c.role in CITIZEN_ROLES]


def specialists_of(world: World, city: City) -> list[Character]:
    return [c for c in residents(world, city) if c.role == "specialist"]


def eligible(world: World, city: City) -> list[Character]:
    """Who may be drawn to rise in `city` (LJ-OQ-12): its resident peasants and tenants, no slave (a
    citizen is "lower nobility who has earned the right to own land"; a slave is owned)."""
    return [c for c in residents(world, city) if c.role == "peasant" and c.owner is None]


def free_tiles(world: World, city: City) -> list[str]:
    """The land tiles of the city nobody living owns (the city hex is the Tlatoani's, never free)."""
    return [h for h in city.hexes if h != city.centre and landlord_of(world, city.name, h) is None]


def fame_draw(people: list[Character], k: int, rng: random.Random) -> list[Character]:
    """`k` of `people` drawn one by one "at random, weighted by Fame"; when nobody left has any Fame the draw
    is unweighted (maild.draws' rule, LJ-OQ-12)."""
    return weighted_sample(people, [c.fame for c in people], min(k, len(people)), rng)


def inverse_fame_choice(people: list[Character], rng: random.Random) -> Character:
    """One of `people` "weighted by 1/Fame" (LJ-OQ-11): a weight of 1/0 is infinite, so when some have Fame 0
    one of them is drawn for certain (each of them equally likely); otherwise weights 1/Fame."""
    zeros = [c for c in people if c.fame <= 0]
    if zeros:
        return unweighted_sample(zeros, 1, rng)[0]
    return weighted_choice(people, [Fraction(1, c.fame) for c in people], rng)


def _city(world: World, city: City | str) -> City:
    if isinstance(city, City):
        return city
    found = world.city(city)
    if found is None:
        raise KeyError(f"no city {city!r}")
    return found


# -- citizens ------------------------------------------------------------------------------------------------
def make_citizen(council: Council, city: City, character: Character) -> bool:
    """`character` becomes a citizen of `city`: of the tile he lives on if nobody owns it, else of a free tile
    drawn at random (he moves there); with no free land, of a free specialist slot ("A citizen may choose to
    occupy a specialist slot instead of a land tile"). False when the city has no room."""
    world = council.world
    lives_here = character.city is not None and key(character.city) == key(city.name)
    tiles = free_tiles(world, city)
    if lives_here and character.hex in tiles:
        tile = character.hex
    elif tiles:
        tile = unweighted_sample(tiles, 1, council.rng)[0]
    elif len(specialists_of(world, city)) < city.specialist_slots:
        character.role = "specialist"
        if not lives_here:
            character.city, character.hex = city.name, city.centre
        retenant(world, character)
        council.tell(character.house, f"{character.name} becomes a citizen of {city.name}, in a specialist slot.")
        return True
    else:
        return False
    assert tile is not None
    transfer_land(world, tile, city.name, character)
    council.tell(character.house, f"{character.name} becomes a citizen of {city.name}, owning the land {tile}.")
    return True


def new_citizens(council: Council, city: City | str, count: int) -> list[Character]:
    """"New citizens are chosen at random, weighted by Fame": `count` of the city's peasants (LJ-OQ-12), as
    long as there is land or a specialist slot for them. Returns those drawn."""
    world = council.world
    city = _city(world, city)
    chosen: list[Character] = []
    for _ in range(count):
        if not free_tiles(world, city) and len(specialists_of(world, city)) >= city.specialist_slots:
            break
        people = eligible(world, city)
        if not people:
            break
        c = fame_draw(people, 1, council.rng)[0]
        make_citizen(council, city, c)
        chosen.append(c)
        council.announce(f"{c.name} of the house of {c.house} is a new citizen of {city.name}.")
        council.event("citizen", city=city.name, character=c.name)
    return chosen


def demote(council: Council, city: City | str) -> Character | None:
    """"a random citizen is demoted to peasant, weighted by 1/Fame": one of the city's citizen characters
    (LJ-OQ-11); he loses his land and stays where he lives, a peasant. None when the city has none (an NPC
    citizen starved)."""
    world = council.world
    city = _city(world, city)
    people = citizens_of(world, city)
    if not people:
        return None
    c = inverse_fame_choice(people, council.rng)
    c.role = "peasant"
    for city_name, tile in lands_of(world, c):
        if key(city_name) == key(city.name):
            city.hexes[tile].citizen = None
            retenant_tile(world, city.name, tile)
    retenant(world, c)
    council.tell(c.house, f"{c.name} is demoted to peasant in {city.name}.")
    council.announce(f"{c.name} is no longer a citizen of {city.name}.")
    council.event("demoted", city=city.name, character=c.name)
    return c


def citizens_changed(council: Council, city: City | str, old: int, new: int) -> None:
    """The GM's update changed the city's citizens from `old` to `new`: each citizen gained brings a new
    citizen character, each citizen lost (a citizen "starves to death in game") demotes one (LJ-OQ-11)."""
    city = _city(council.world, city)
    city.citizens = new
    if new > old:
        new_citizens(council, city, new - old)
    for _ in range(max(0, old - new)):
        demote(council, city)


# -- Tlatoani ------------------------------------------------------------------------------------------------
def tlatoani_city(world: World, character: Character) -> City | None:
    """The city `character` rules, if any."""
    return next((c for c in world.cities.values()
                 if c.tlatoani is not None and key(c.tlatoani) == key(character.name)), None)


def crown(council: Council, city: City, exclude: Character | None = None) -> Character | None:
    """"New Tlatoani are chosen at random, weighted by Fame": one of the city's residents who is no slave
    (LJ-OQ-12; unweighted when nobody has Fame), `exclude` left out; he takes the throne with
    transfers.transfer_rulership. None when there is nobody."""
    world = council.world
    people = [c for c in residents(world, city) if c.owner is None and c is not exclude
              and c.role != "tlatoani"]
    if not people:
        return None
    new = fame_draw(people, 1, council.rng)[0]
    transfer_rulership(world, city.name, new)
    council.tell(new.house, f"{new.name} is the new Tlatoani of {city.name}.")
    council.announce(f"{new.name} of the house of {new.house} is the new Tlatoani of {city.name}.")
    council.event("tlatoani", city=city.name, character=new.name)
    return new


def revolt_chance(happiness: int) -> Fraction:
    """"The odds of being overthrown by the angry mob of NPC peasants is equal to abs|City Happiness/100|",
    only when happiness is below 0, and at most certain (LJ-OQ-13): -30 -> 3/10, -150 -> 1."""
    if happiness >= 0:
        return Fraction(0)
    return min(Fraction(1), Fraction(-happiness, 100))


def revolts(council: Council) -> list[str]:
    """Each city with a Tlatoani and happiness below 0 rolls once per session (at its beginning, on the GM's
    latest happiness): a Random Number at most the chance is a revolt (LJ-OQ-13). The new Tlatoani is drawn
    by Fame among the city's residents (not the deposed one); the deposed one becomes a peasant on the hex
    the new one came from (LJ-OQ-14, transfers.transfer_rulership). Returns the cities that revolted."""
    world = council.world
    fallen: list[str] = []
    for city in list(world.cities.values()):
        if city.puppet or city.tlatoani is None or city.happiness >= 0:
            continue
        old = world.character(city.tlatoani)
        if old is None or not old.alive:
            continue
        roll = council.random()
        chance = revolt_chance(city.happiness)
        council.event("revolt roll", city=city.name, roll=str(roll), chance=str(chance))
        if roll > chance:
            continue
        fallen.append(city.name)
        council.tell(old.house, f"The angry mob of {city.name} overthrows {old.name}!")
        council.announce(f"The NPC peasants of {city.name} revolt and overthrow {old.name}.")
        new = crown(council, city, exclude=old)
        if new is None:
            # Nobody to crown: the throne stays empty until the GM's update or a death fills it.
            city.tlatoani = None
            old.role = "citizen" if lands_of(world, old) else "peasant"
            old.hex = old.hex or city.centre
            retenant(world, old)
            retenant_tile(world, city.name, city.centre)
    return fallen


def after_death(council: Council, character: Character) -> None:
    """What a citizen's or a Tlatoani's death leaves (deaths.kill calls this): a dead Tlatoani's city draws a
    new one by Fame; a dead citizen's place is filled by a new citizen drawn by Fame, the city's population
    being unchanged (LJ-OQ-11, 12)."""
    world = council.world
    ruled = tlatoani_city(world, character)
    if ruled is not None:
        ruled.tlatoani = None
        crown(council, ruled)
    if character.role not in CITIZEN_ROLES:
        return
    places = []
    for city_name, tile in lands_of(world, character):
        world.cities[city_name].hexes[tile].citizen = None
        if city_name not in places:
            places.append(city_name)
    if not places and character.city is not None:  # a specialist: no land, his city
        places.append(character.city)
    for name in places:
        city = world.city(name)
        if city is not None:
            new_citizens(council, city, 1)


# -- gold ----------------------------------------------------------------------------------------------------
def total_citizens(world: World) -> int:
    return sum(c.citizens for c in world.cities.values())


def spending_limit(world: World, city: City) -> int:
    """"(Total Gold)*(Citizen's in City)/(Total Aztec Citizens)", rounded down (LJ-OQ-16): Total Gold is the
    empire's treasury as the GM last gave it (maild never spends it: the GM does, from the to-do list);
    1000 gold, 3 of 7 citizens -> 3000/7 = 428."""
    total = total_citizens(world)
    if total <= 0:
        return 0
    return world.empire.treasury * city.citizens // total


def spent(world: World, city: City, session: int) -> int:
    """What the city's Tlatoani has spent in `session` so far (the limit is for the whole session)."""
    return sum(int(e["amount"]) for e in world.todo
               if e.get("kind") == "spend" and e.get("session") == session and key(e["city"]) == key(city.name))


def _ruled(world: World, actor: Character, what: str) -> City:
    city = tlatoani_city(world, actor)
    if city is None:
        raise Void(f"{actor.name} is not a Tlatoani: only a Tlatoani may {what}")
    return city


@handles("spend")
def spend(council: Council, actor: Character, action: Action) -> None:
    """SPEND: a Tlatoani spends the empire's gold, within his limit for the session (LJ-OQ-16); the GM makes
    the purchase (a to-do entry)."""
    world = council.world
    city = _ruled(world, actor, "spend the empire's gold")
    amount = int(action.args.get("amount") or 0)
    if amount <= 0:
        raise Void("name the amount of gold to spend")
    limit = spending_limit(world, city)
    used = spent(world, city, council.session)
    if used + amount > limit:
        raise Void(f"{actor.name} may spend {limit} gold this session and has spent {used}: {amount} is too much")
    text = str(action.args.get("on") or "").strip()
    world.todo.append({"kind": "spend", "character": actor.name, "city": city.name, "amount": amount,
                       "text": text, "session": council.session})
    council.tell(actor.house, f"{actor.name} spends {amount} gold of the empire for {city.name}: {text} "
                              f"({limit - used - amount} left to spend this session).")
    council.announce(f"{actor.name}, Tlatoani of {city.name}, spends {amount} gold: {text}.")


@handles("propose")
def propose(council: Council, actor: Character, action: Action) -> None:
    """PROPOSE: "Only Tlatoani may propose diplomatic agreements." The GM proposes it in his game."""
    world = council.world
    city = _ruled(world, actor, "propose a diplomatic agreement")
    text = str(action.args.get("text") or "").strip()
    if not text:
        raise Void("the proposal says nothing")
    nation = action.args.get("nation")
    world.proposals.append({"kind": "proposal", "character": actor.name, "city": city.name, "nation": nation,
                            "text": text, "session": council.session})
    council.tell(actor.house, f"{actor.name} proposes on behalf of Aztlan"
                              + (f" to {nation}" if nation else "") + f": {text}")
    council.announce(f"{actor.name}, Tlatoani of {city.name}, proposes a diplomatic agreement"
                     + (f" to {nation}" if nation else "") + ".")


@handles("annex")
def annex(council: Council, actor: Character, action: Action) -> None:
    """ANNEX: "A citizen in a puppet city may annex the city, becoming Tlatoani of the new city." The GM
    annexes it in his game."""
    world = council.world
    city = world.city(actor.city)
    if city is None or actor.unit is not None:
        raise Void(f"{actor.name} lives in no city")
    if not city.puppet:
        raise Void(f"{city.name} is not a puppet city")
    if actor.role not in CITIZEN_ROLES:
        raise Void(f"{actor.name} is not a citizen of {city.name}")
    city.puppet = False
    transfer_rulership(world, city.name, actor)
    world.todo.append({"kind": "annex", "character": actor.name, "city": city.name,
                       "text": f"annex {city.name}", "session": council.session})
    council.tell(actor.house, f"{actor.name} annexes {city.name} and is its Tlatoani.")
    council.announce(f"{actor.name} annexes the puppet city {city.name} and rules it as Tlatoani.")


# -- the kick-off --------------------------------------------------------------------------------------------
def capital(world: World) -> City | None:
    """The city of the first Tlatoani: the setup's `capital`, else the first city."""
    name = world.settings.get("capital")
    city = world.city(name) if name else None
    return city or next(iter(world.cities.values()), None)


def kick_off(council: Council) -> list[Character]:
    """KICKING OFF THE GAME: "two characters will be randomly selected to begin as the first Tlatoani and
    citizen", weighted by Fame, unweighted when fewer than 2 characters have some Fame (LJ-OQ-17). The first
    drawn is the Tlatoani of the capital, the second its citizen; drawn among every living character not in
    a unit. Returns [Tlatoani, citizen] (fewer when fewer characters)."""
    world = council.world
    city = capital(world)
    world.kicked_off = True
    if city is None:
        return []
    people = sorted((c for c in world.living() if c.unit is None), key=lambda c: c.name)
    k = min(2, len(people))
    if sum(1 for c in people if c.fame > 0) < 2:
        drawn = unweighted_sample(people, k, council.rng)
    else:
        drawn = weighted_sample(people, [c.fame for c in people], k, council.rng)
    if drawn:
        first = drawn[0]
        transfer_rulership(world, city.name, first)
        council.announce(f"{first.name} of the house of {first.house} is the first Tlatoani of {city.name}.")
        council.tell(first.house, f"{first.name} is the first Tlatoani of {city.name}.")
    if len(drawn) > 1:
        second = drawn[1]
        if make_citizen(council, city, second):
            council.announce(f"{second.name} of the house of {second.house} is the first citizen of {city.name}.")
    council.event("kick-off", city=city.name, drawn=[c.name for c in drawn])
    return drawn
