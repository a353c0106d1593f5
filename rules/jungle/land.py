"""Living on the land: Move, Travel, Toil and Evict, and trade routes between cities.

Where a character lives is `Character.city` / `Character.hex`; who owns a tile is `Hex.citizen` (the city
hex is the Tlatoani's). A citizen's land is the tile he lives on: when he moves, his citizenship moves with
him ("The title of Tenant is immediately lost if either the peasant or the citizen move from the hex."). After
every move `transfers.retenant` works the Tenant titles out again.
"""

from __future__ import annotations

from typing import Any

from .council import Action, Council, Void, handles
from .houses import acting_house, find_city, find_hex, pool, random_tile
from .model import Character, World, key
from .transfers import landlord_of, retenant, retenant_tile


def trade_routes(world: World) -> list[tuple[str, str]]:
    """The pairs of cities connected by a trade route, as the GM lists them in the setup or an update:
    setting ``trade_routes = [["Tenochtitlan", "Texcoco"], ...]``."""
    pairs = world.settings.get("trade_routes") or []
    return [(str(a), str(b)) for a, b in pairs]


def connected(world: World, a: str, b: str) -> bool:
    """Whether two cities are "connected by trade routes": a chain of routes joins them (as in the strategy
    game, where cities are connected through the network, not only pairwise)."""
    links: dict[str, set[str]] = {}
    for x, y in trade_routes(world):
        links.setdefault(key(x), set()).add(key(y))
        links.setdefault(key(y), set()).add(key(x))
    seen, todo = {key(a)}, [key(a)]
    while todo:
        for nxt in links.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return key(b) in seen


def _both(action: Action) -> bool:
    return bool(action.both or action.args.get("both"))


def _free_to_go(world: World, actor: Character, what: str) -> None:
    if actor.unit is not None:
        raise Void(f"{actor.name} is in the unit {actor.unit}: he must desert or retire from it to {what}")
    if actor.city is None or actor.hex is None:
        raise Void(f"{actor.name} does not live on a hex of a city")
    city = world.cities.get(actor.city)
    if city is None or actor.hex not in city.hexes:
        # the GM's update took the city or the tile away (razed, captured, no longer workable)
        raise Void(f"{actor.name}'s home, {actor.hex} in {actor.city}, is no longer a workable hex of an Aztec city")


def _leave_tile(world: World, actor: Character) -> None:
    """What a citizen or Tlatoani leaves behind when he goes to another city: he "become[s] a peasant in the
    destination city", so his tile has no citizen and his throne no Tlatoani (until the GM's update or the
    draws of the cities' part fill them)."""
    city = world.cities[actor.city] if actor.city else None
    if city is None:
        return
    if actor.role == "tlatoani" and city.tlatoani is not None and key(city.tlatoani) == key(actor.name):
        city.tlatoani = None
    for h in city.hexes.values():
        if h.citizen is not None and key(h.citizen) == key(actor.name):
            h.citizen = None


@handles("move")
def move(council: Council, actor: Character, action: Action) -> None:
    """MOVE: "Peasants and Citizens may move to another workable hex tile within the same city." A citizen
    takes his citizenship to the new tile, which must be nobody else's land; a specialist (a citizen in a
    specialist slot, with no land) just moves. The Tlatoani lives on the city hex and does not move."""
    world = council.world
    if actor.role not in ("peasant", "citizen", "specialist"):
        raise Void(f"only peasants and citizens may move; {actor.name} is a {actor.role}")
    _free_to_go(world, actor, "move")
    assert actor.city is not None and actor.hex is not None
    city = world.cities[actor.city]
    target = find_hex(world, city.name, action.args.get("hex"))
    if target is None:
        raise Void(f"{action.args.get('hex')} is not a workable hex of {city.name}")
    if target == actor.hex:
        raise Void(f"{actor.name} already lives on {target}")
    old = actor.hex
    if actor.role == "citizen":
        owner = landlord_of(world, city.name, target)
        if owner is not None and key(owner) != key(actor.name):
            raise Void(f"{target} is the land of {owner}: a citizen moves only to a tile nobody owns")
        if key(city.hexes[old].citizen or "") == key(actor.name):
            city.hexes[old].citizen = None
            city.hexes[target].citizen = actor.name
    actor.hex = target
    retenant(world, actor)
    retenant_tile(world, city.name, old)
    retenant_tile(world, city.name, target)
    house = acting_house(council, actor, action)
    tenancy = f", a tenant of {actor.landlord}" if actor.landlord else ""
    council.tell(house, f"{actor.name} moves from {old} to {target} in {city.name}{tenancy}.")
    council.event("move", character=actor.name, city=city.name, hex=target)


@handles("travel")
def travel(council: Council, actor: Character, action: Action) -> None:
    """TRAVEL: to another city, arriving a peasant on the chosen workable hex (or one drawn at random, as at
    sign-up). Without a trade route it takes both actions (LJ-OQ-29): the first (Morning) half sets out and
    checks everything, the second (Afternoon) half arrives; if the first half is void the engine drops the
    second, and the second is checked again when it resolves (a character captured or enlisted on the way
    does not arrive)."""
    world = council.world
    _free_to_go(world, actor, "travel")
    assert actor.city is not None
    dest = find_city(world, action.args.get("city"))
    if dest is None:
        raise Void(f"there is no city {action.args.get('city')}")
    house = acting_house(council, actor, action)
    if dest == actor.city:
        if _both(action) and action.part == "afternoon":
            council.tell(house, f"{actor.name} is already in {dest}: his second action of the journey is spent.")
            return
        raise Void(f"{actor.name} already lives in {dest}")
    hex_wanted: Any = action.args.get("hex")
    target = find_hex(world, dest, hex_wanted) if hex_wanted else None
    if hex_wanted and target is None:
        raise Void(f"{hex_wanted} is not a workable hex of {dest}")
    if not world.cities[dest].hexes:
        raise Void(f"{dest} has no workable hex to live on")
    route = connected(world, actor.city, dest)
    if not route:
        if not _both(action):
            raise Void(f"{actor.city} and {dest} are not connected by a trade route: travelling there takes "
                       "both actions of the council session")
        if action.part == "morning":
            council.tell(house, f"{actor.name} sets out from {actor.city} for {dest}; he arrives with his "
                                "second action.")
            council.event("travel out", character=actor.name, city=dest)
            return
    if target is None:
        _, target = random_tile(world, dest, council.rng)
    _arrive(council, actor, dest, target, house)


def _arrive(council: Council, actor: Character, dest: str, target: str, house: str) -> None:
    world = council.world
    old_city, old_hex = actor.city, actor.hex
    _leave_tile(world, actor)
    actor.role = "peasant"
    actor.city, actor.hex = dest, target
    retenant(world, actor)
    if old_city is not None and old_hex is not None:
        retenant_tile(world, old_city, old_hex)
    tenancy = f", a tenant of {actor.landlord}" if actor.landlord else ""
    council.tell(house, f"{actor.name} travels from {old_city} to {dest} and lives as a peasant on {target}"
                        f"{tenancy}.")
    council.event("travel", character=actor.name, city=dest, hex=target)


def toil_output(world: World, city: str, hex_name: str) -> dict[str, int]:
    """The output of a tile: its food, gold, hammers and beakers as the GM gives them."""
    tile = world.cities[city].hexes[hex_name]
    return {"food": tile.food, "gold": tile.gold, "hammers": tile.hammers, "beakers": tile.beakers}


@handles("toil")
def toil(council: Council, actor: Character, action: Action) -> None:
    """TOIL: "Work the land you are living on to earn its output for your house. Only peasants may toil."
    Food and gold go to the house's stores, hammers and beakers to the toiler for this session's draws. A
    tenant's output goes to the citizen owning the land: food and gold to his house, hammers and beakers to
    him (LJ-OQ-50: the tenancy of the moment of resolution decides; a tenant who moved away in the Morning
    toils for himself). A slave's dictated toil earns for his owner's house (the acting house)."""
    world = council.world
    if actor.role != "peasant":
        raise Void(f"only peasants may toil; {actor.name} is a {actor.role}")
    _free_to_go(world, actor, "toil")
    assert actor.city is not None and actor.hex is not None
    retenant(world, actor)
    out = toil_output(world, actor.city, actor.hex)
    landlord = world.character(actor.landlord) if actor.landlord else None
    if landlord is not None:
        earner, house = landlord, landlord.house
    else:
        earner, house = actor, acting_house(council, actor, action)
    store = pool(world, house)
    store.food += out["food"]
    store.gold += out["gold"]
    earner.hammers += out["hammers"]
    earner.beakers += out["beakers"]
    what = ", ".join(f"{v} {k}" for k, v in out.items() if v) or "nothing"
    if landlord is not None:
        text = f"{actor.name} toils on {actor.hex} for his landlord {landlord.name}: {what}."
        council.tell(house, text)
        if actor.house != house:
            council.tell(actor.house, text)
    else:
        council.tell(house, f"{actor.name} toils on {actor.hex}: {what}.")
    council.event("toil", character=actor.name, earner=earner.name, house=house, **out)


@handles("evict")
def evict(council: Council, actor: Character, action: Action) -> None:
    """EVICT: "A citizen may evict a tenant from his land, forcing the tenant to move to another tile of the
    citizen's choice within the city." The Tlatoani evicts from the city hex the same way ("Tenants of
    Tlatoani are handled in exactly the same way")."""
    world = council.world
    tenant = world.character(str(action.args.get("tenant") or ""))
    if tenant is None or not tenant.alive:
        raise Void(f"there is no character {action.args.get('tenant')!r}")
    retenant(world, tenant)
    if tenant.landlord is None or key(tenant.landlord) != key(actor.name):
        raise Void(f"{tenant.name} is not a tenant of {actor.name}")
    assert tenant.city is not None
    city = world.cities[tenant.city]
    target = find_hex(world, city.name, action.args.get("hex"))
    if target is None:
        raise Void(f"name the workable hex of {city.name} {tenant.name} is moved to")
    if target == tenant.hex:
        raise Void(f"{tenant.name} already lives on {target}")
    old = tenant.hex
    tenant.hex = target
    retenant(world, tenant)
    house = acting_house(council, actor, action)
    text = f"{actor.name} evicts {tenant.name} from {old} to {target} in {city.name}."
    council.tell(house, text)
    if tenant.house != house:
        council.tell(tenant.house, text)
    council.event("evict", character=actor.name, tenant=tenant.name, hex=target)
