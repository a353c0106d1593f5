"""Houses and their characters: joining the game, the house's stores, and the actions that grow or spend them:
Procreate, Recruit, Train, Purchase, Join Houses, Split Houses and Propose Rule.

A house is a player (`House.name` is the player's name). After Join Houses the houses stay separate players
(each mails for his own characters) but are "a single house for all game purposes": they share one store of
food and gold, kept by the house they joined (`House.joined`), and count as one for Current Characters and
for "the highest Fame character" of the house. `pool` and `group` are how every part of the game should
find a character's stores and housemates.

Costs are paid in full or the action is void (LJ-OQ-10): "Actions that are not valid at the moment of
resolution will be considered void." Stores never go negative.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from .council import Action, Council, Void, handles
from .deaths import kill
from .model import JOINS_CHANGED, Character, House, World, find_name, key
from .transfers import retenant

ATTRIBUTE_WORDS = {"xp": "XP", "fame": "Fame", "wisdom": "Wisdom", "craft": "Craftsmanship"}
PROPOSAL_POINTS = 25  # "an offering of 25 points of XP, Wisdom, Craftsmanship and/or Fame"
PURCHASE_PRICE = 3  # "buy X points of science beakers, production hammers or food at a cost of 3X gold"


# -- houses and their stores ------------------------------------------------------------------------------

def head(world: World, house: str) -> str:
    """The house whose stores `house` uses: itself, or the house it joined."""
    seen = set()
    while house in world.houses and world.houses[house].joined and house not in seen:
        seen.add(house)
        house = world.houses[house].joined or house
    return house


def pool(world: World, house: str) -> House:
    """The House record holding the food and gold `house` uses (Join Houses shares one store)."""
    return world.houses[head(world, house)]


def group(world: World, house: str) -> list[str]:
    """Every house that is "a single house for all game purposes" with `house` (itself included)."""
    return list(_groups(world).get(head(world, house), ()))


def _groups(world: World) -> dict[str, list[str]]:
    """The houses by the house whose stores they use (`head`), by name: made again only when a house joined or
    split (`model.JOINS_CHANGED`) or came into the game, not at each of the thousands of calls of a session."""
    stamp = (world.houses, len(world.houses), JOINS_CHANGED[0])
    cached = world.__dict__.get("_groups")
    if cached is not None and cached[0][0] is stamp[0] and cached[0][1:] == stamp[1:]:
        return cached[1]
    groups: dict[str, list[str]] = {}
    for h in sorted(world.houses):
        groups.setdefault(head(world, h), []).append(h)
    world.__dict__["_groups"] = (stamp, groups)
    return groups


def characters_of(world: World, house: str) -> list[Character]:
    """The living characters of `house` and the houses joined with it, in the world's order."""
    houses = group(world, house)
    if len(houses) == 1:
        return world.members(houses[0])
    order = world.roster().order
    return sorted((c for h in houses for c in world.members(h)), key=lambda c: order[c.name])


def store_groups(world: World) -> list[tuple[House, list[Character]]]:
    """Each store of food and gold with the living characters it feeds: one entry per house that is not
    joined to another, holding its characters and those of the houses joined with it (for eating, stealing
    and the charts: a joined house's own record holds no stores)."""
    return [(h, characters_of(world, name)) for name, h in sorted(world.houses.items()) if head(world, name) == name]


def current_characters(world: World, house: str) -> int:
    """"Current Characters" of Procreate and Recruit (LJ-OQ-56): the house's living characters counted when
    the action resolves, wherever they are (in units, enslaved by others: a slave still belongs to his house);
    slaves the house owns belong to their own houses and do not count."""
    return len(characters_of(world, house))


def highest_fame(world: World, house: str, *, own_only: bool = False) -> list[Character]:
    """The character(s) of highest Fame of the house (all of them when tied)."""
    members = world.members(house) if own_only else characters_of(world, house)
    if not members:
        return []
    top = max(c.fame for c in members)
    return [c for c in members if c.fame == top]


def acting_house(council: Council, actor: Character, action: Action) -> str:
    """The house an action works for: the house whose mail gave it (a slave's owner's for a dictated action,
    whose house "is awarded" what is gained, LJ-OQ-49), else the actor's."""
    return action.house if action.house in council.world.houses else actor.house


# -- joining the game -------------------------------------------------------------------------------------

def starting_gold(world: World, house: str, email: str | None = None) -> int:
    """The setup's starting gold of a house ("If you played in the previous game, A More Pefect Union, then you
    start with gold equal to your AMPU score"): setting ``starting_gold`` is a number for everyone or a table
    player -> gold, the player named by his house or his e-mail address (a player who joins by mail names his
    house at JOIN, so the GM knows him by his address); 0 for a player the table does not list."""
    table = world.settings.get("starting_gold", 0)
    if isinstance(table, dict):
        wanted = {key(house)} | ({key(email)} if email else set())
        found = next((v for k, v in table.items() if key(k) in wanted), 0)
        return int(found)
    return int(table)


def workable_hexes(world: World, city: str | None = None) -> list[tuple[str, str]]:
    """The (city, hex) tiles one may live on: every hex the GM listed for a city (City.hexes are the workable
    ones), in a fixed order so a random draw is repeatable."""
    cities = [world.cities[city]] if city is not None else [world.cities[n] for n in sorted(world.cities)]
    return [(c.name, h) for c in cities for h in sorted(c.hexes)]


def find_city(world: World, name: str | None) -> str | None:
    return find_name(world.cities, name)


def find_hex(world: World, city: str, name: str | None) -> str | None:
    return find_name(world.cities[city].hexes, name)


def find_unit(world: World, name: str | None) -> str | None:
    return find_name(world.units, name)


def check_join(world: World, name: str, city: str | None, hex: str | None,  # noqa: A002 - the rules' word
               house: str | None = None) -> str | None:
    """Why a JOIN cannot be accepted, in a player's words, or None. `house` is the player signing up, for
    signing up again (LJ-OQ-59)."""
    if not name or not name.strip():
        return "give your character a name: JOIN <name> in <city>"
    if world.character(name) is not None or any(key(u) == key(name) for u in world.units):
        return f"the name {name.strip()} is taken: choose another"
    if house is not None and house in world.houses and characters_of(world, house):
        if not may_sign_up_again(world, house):
            return "you already have characters in the game"
    if city is not None and find_city(world, city) is None:
        unit = find_unit(world, city)
        if unit is not None:
            if world.kicked_off:
                return "enlisting instead of choosing a tile is only for the pre-game sign-up period"
            return None
        return f"there is no city {city.strip()}"
    if hex is not None:
        cities = [find_city(world, city)] if city is not None else sorted(world.cities)
        if not any(find_hex(world, c, hex) for c in cities if c is not None):
            where = f" in {find_city(world, city)}" if city is not None else ""
            return f"there is no workable hex {hex.strip()}{where}"
    if not workable_hexes(world, find_city(world, city)):
        return "there is no workable hex to live on yet"
    return None


def may_sign_up_again(world: World, house: str) -> bool:
    """SIGNING UP AGAIN (LJ-OQ-59): a player all of whose characters are Slave-Tenants may sign up again once
    they have been so for 3 council sessions, counted from the session `note_trapped` first saw it."""
    trapped = world.houses[house].trapped_since
    return trapped is not None and world.session - trapped >= 3


def note_trapped(world: World) -> None:
    """Evening bookkeeping for signing up again: remember since when every character of a house is a
    Slave-Tenant (a slave who is a tenant); forget it as soon as one is not."""
    for h, house in world.houses.items():
        members = world.members(h)
        if bool(members) and all(c.owner and c.landlord for c in members):
            if house.trapped_since is None:
                house.trapped_since = world.session
        else:
            house.trapped_since = None


def join(world: World, house: str, email: str, name: str, city: str | None, hex: str | None,  # noqa: A002
         session: int, rng: random.Random) -> Character:
    """JOINING THE GAME: a new house (or a player signing up again) gets one peasant with XP 1, Wisdom 1,
    Craftsmanship 1, Fame 0, living on the chosen workable hex, or on one drawn at random (uniform) in the
    chosen city or, with no city, among every city's workable hexes. A new house has food 0 and gold 0, or the
    setup's starting gold. Before the kick-off the "city" may name the starting unit: he enlists in it.
    ``since`` is `session`: he acts from the next session (LJ-OQ-30). Raises ValueError with the reason when
    `check_join` refuses."""
    reason = check_join(world, name, city, hex, house)
    if reason is not None:
        raise ValueError(reason)
    if house not in world.houses:
        world.houses[house] = House(house, email, food=0, gold=starting_gold(world, house, email),
                                     since=session)
    ch = Character(name.strip(), house, xp=1, fame=0, wisdom=1, craft=1, role="peasant", since=session)
    unit = find_unit(world, city) if find_city(world, city) is None else None
    if unit is not None:
        u = world.units[unit]
        ch.role, ch.unit, ch.city = "soldier", unit, u.city
    else:
        place_city = find_city(world, city)
        place_hex = None
        if hex is not None:
            cities = [place_city] if place_city is not None else sorted(world.cities)
            place_city = next(c for c in cities if c is not None and find_hex(world, c, hex))
            place_hex = find_hex(world, place_city, hex)
        if place_hex is None:
            place_city, place_hex = random_tile(world, place_city, rng)
        ch.city, ch.hex = place_city, place_hex
    world.characters[ch.name] = ch
    retenant(world, ch)
    return ch


def random_tile(world: World, city: str | None, rng: random.Random) -> tuple[str, str]:
    """A workable hex drawn uniformly (in `city`, or anywhere): one `rng.randrange` over `workable_hexes`."""
    tiles = workable_hexes(world, city)
    return tiles[rng.randrange(len(tiles))]


# -- new characters ---------------------------------------------------------------------------------------

def _fresh_name(world: World, wanted: Any, fallback: str) -> tuple[str, str]:
    """The new character's name: the one the player chose if free, else `fallback` numbered till free."""
    if isinstance(wanted, str) and wanted.strip() and world.character(wanted) is None:
        return wanted.strip(), ""
    n, name = 1, fallback
    while world.character(name) is not None:
        n += 1
        name = f"{fallback} {n}"
    note = f" (the name {wanted.strip()} is taken)" if isinstance(wanted, str) and wanted.strip() else ""
    return name, note


def _newcomer(council: Council, actor: Character, house: str, name: str) -> Character:
    """A new peasant of `house` on the actor's hex, acting from the next session (LJ-OQ-30)."""
    ch = Character(name, house, xp=1, fame=0, wisdom=1, craft=1, role="peasant", city=actor.city,
                   hex=actor.hex, since=council.session)
    council.world.characters[name] = ch
    retenant(council.world, ch)
    return ch


def _on_a_tile(actor: Character, what: str) -> None:
    if actor.unit is not None or actor.city is None or actor.hex is None:
        raise Void(f"{actor.name} is in a unit, not on a hex of an Aztec city: only there can he {what}")


def family_cost(characters: int) -> int:
    """Procreate's food and Recruit's Fame: (Current Characters+1)^2."""
    return (characters + 1) ** 2


@handles("procreate")
def procreate(council: Council, actor: Character, action: Action) -> None:
    """PROCREATE: food (Current Characters+1)^2 from the house; a new peasant on the actor's hex. "Only
    characters located within Aztec territory may procreate": a character living on a hex of a city (a
    soldier's unit may stand anywhere, and the child needs "the same hex as the character")."""
    world = council.world
    _on_a_tile(actor, "procreate")
    house = acting_house(council, actor, action)
    store = pool(world, house)
    cost = family_cost(current_characters(world, house))
    if store.food < cost:
        raise Void(f"raising a child costs {cost} food and the house has {store.food}")
    store.food -= cost
    name, note = _fresh_name(world, action.args.get("name"), f"Child of {actor.name}")
    _newcomer(council, actor, house, name)
    council.tell(house, f"{actor.name} raises a child, {name}{note}, for {cost} food; {name} acts from the "
                        "next council session.")
    council.event("procreate", character=actor.name, child=name, cost=cost)


@handles("recruit")
def recruit(council: Council, actor: Character, action: Action) -> None:
    """RECRUIT: the actor's Fame (Current Characters+1)^2; a new peasant on the actor's hex."""
    world = council.world
    _on_a_tile(actor, "recruit")
    house = acting_house(council, actor, action)
    cost = family_cost(current_characters(world, house))
    if actor.fame < cost:
        raise Void(f"recruiting costs {cost} Fame and {actor.name} has {actor.fame}")
    actor.fame -= cost
    name, note = _fresh_name(world, action.args.get("name"), f"Recruit of {actor.name}")
    _newcomer(council, actor, house, name)
    council.tell(house, f"{actor.name} recruits {name}{note} for {cost} Fame; {name} acts from the next "
                        "council session.")
    council.event("recruit", character=actor.name, recruit=name, cost=cost)


# -- spending gold ----------------------------------------------------------------------------------------

def train_cost(level: int) -> int:
    """TRAIN: "(Current Level +1)^2" gold for 1 point."""
    return (level + 1) ** 2


def attribute_named(word: Any) -> str:
    text = str(word or "").strip().casefold()
    aliases = {"xp": "xp", "experience": "xp", "combat experience": "xp", "fame": "fame", "wisdom": "wisdom",
               "craft": "craft", "craftsmanship": "craft"}
    if text not in aliases:
        raise Void(f"{word!r} is not an attribute: XP, Wisdom, Craftsmanship or Fame")
    return aliases[text]


@handles("train")
def train(council: Council, actor: Character, action: Action) -> None:
    """TRAIN: +1 to an attribute for (level+1)^2 gold from the house. Before the kick-off only Fame, Wisdom
    and Craftsmanship (the pre-game list; LJ-OQ-58)."""
    world = council.world
    attr = attribute_named(action.args.get("attribute"))
    if attr == "xp" and not world.kicked_off:
        raise Void("before the game starts only Fame, Wisdom or Craftsmanship can be increased")
    house = acting_house(council, actor, action)
    store = pool(world, house)
    level = getattr(actor, attr)
    cost = train_cost(level)
    if store.gold < cost:
        raise Void(f"raising {ATTRIBUTE_WORDS[attr]} from {level} costs {cost} gold and the house has "
                   f"{store.gold}")
    store.gold -= cost
    setattr(actor, attr, level + 1)
    council.tell(house, f"{actor.name} trains {ATTRIBUTE_WORDS[attr]}: {level} -> {level + 1} for {cost} gold.")
    council.event("train", character=actor.name, attribute=attr, cost=cost)


def purchase_cost(points: int) -> int:
    """PURCHASE: "X points ... at a cost of 3X gold"."""
    return PURCHASE_PRICE * points


@handles("purchase")
def purchase(council: Council, actor: Character, action: Action) -> None:
    """PURCHASE: X beakers or hammers (the actor's, for this session) or food (the house's) for 3X gold."""
    world = council.world
    resource = str(action.args.get("resource") or "").casefold()
    resource = {"beaker": "beakers", "science": "beakers", "science beakers": "beakers", "hammer": "hammers",
                "production": "hammers", "production hammers": "hammers"}.get(resource, resource)
    if resource not in ("beakers", "hammers", "food"):
        raise Void("only science beakers, production hammers or food can be purchased")
    amount = action.args.get("amount")
    if not isinstance(amount, int) or amount <= 0:
        raise Void("say how many points to purchase")
    house = acting_house(council, actor, action)
    store = pool(world, house)
    cost = purchase_cost(amount)
    if store.gold < cost:
        raise Void(f"{amount} {resource} cost {cost} gold and the house has {store.gold}")
    store.gold -= cost
    if resource == "food":
        store.food += amount
    else:
        setattr(actor, resource, getattr(actor, resource) + amount)
    council.tell(house, f"{actor.name} purchases {amount} {resource} for {cost} gold.")
    council.event("purchase", character=actor.name, resource=resource, amount=amount, cost=cost)


# -- joining and splitting houses -------------------------------------------------------------------------

@handles("join houses")
def join_houses(council: Council, actor: Character, action: Action) -> None:
    """JOIN HOUSES: "a Join House action is required by the highest Fame character of BOTH houses". The first
    action stands as an offer for the rest of the session; the second, naming a character of the first house,
    joins them: the second house's stores go into the first's, which keeps them for both."""
    world = council.world
    other = world.character(str(action.args.get("with") or ""))
    if other is None or not other.alive:
        raise Void(f"there is no character {action.args.get('with')!r} to join houses with")
    mine, theirs = head(world, actor.house), head(world, other.house)
    if mine == theirs:
        raise Void(f"{other.name} is already of the same house")
    if actor not in highest_fame(world, actor.house):
        raise Void(f"only the highest Fame character of the house can join it to another; {actor.name} is not")
    offer = world.houses[theirs].join_offer
    if offer and offer.get("with") == mine and offer.get("session") == council.session:
        their_pool, my_pool = world.houses[theirs], world.houses[mine]
        their_pool.food += my_pool.food
        their_pool.gold += my_pool.gold
        my_pool.food = my_pool.gold = 0
        my_pool.joined = theirs
        their_pool.join_offer = None
        my_pool.join_offer = None
        text = f"The houses of {theirs} and {mine} are joined: one house for all game purposes."
        council.tell_all(group(world, theirs), text)
        council.announce(text)
        council.event("join houses", houses=[theirs, mine])
        return
    world.houses[mine].join_offer = {"with": theirs, "session": council.session}
    council.tell(mine, f"{actor.name} offers to join houses with the house of {other.house}; the highest Fame "
                       "character of that house must give Join Houses too in this council session.")
    council.tell(other.house, f"{actor.name} of the house of {actor.house} offers to join houses with yours: "
                              "your highest Fame character answers with **Join Houses** "
                              f"{actor.name} in this council session.")


def split_share(stores: int, r: Fraction) -> int:
    """LJ-OQ-55: the leaving house takes (Random Number) of the stores, read as a fraction (the literal
    "percent" of a number between 0 and 1 would be under 1%), rounded down."""
    return int(stores * r)  # int() of a non-negative Fraction is the floor


@handles("split houses")
def split_houses(council: Council, actor: Character, action: Action) -> None:
    """SPLIT HOUSES: "a Split House action is required by the highest Fame character of either house": the
    actor must be the highest Fame character of his own player's house. The leaving house is the one whose
    characters the action names (characters go with their player's house: naming those of two houses is
    void), or the actor's own when none are named. It takes floor(R x food) and floor(R x gold), one Random
    Number each (LJ-OQ-55)."""
    world = council.world
    members = group(world, actor.house)
    if len(members) < 2:
        raise Void(f"the house of {actor.house} is not joined to another house")
    if actor not in highest_fame(world, actor.house, own_only=True):
        raise Void(f"only the highest Fame character of the house of {actor.house} can split it; {actor.name} "
                   "is not")
    named = [world.character(str(n)) for n in action.args.get("leaving") or []]
    if any(c is None or c.house not in members for c in named):
        raise Void("the characters who leave must be of this joined house")
    leaving = sorted({c.house for c in named if c is not None})
    if len(leaving) > 1:
        raise Void(f"characters leave with their own player's house; {_and_names(leaving)} are different houses: "
                   "name the characters of one")
    mine = leaving[0] if leaving else actor.house
    top = head(world, mine)
    store = world.houses[top]
    r_food, r_gold = council.random(), council.random()
    food, gold = split_share(store.food, r_food), split_share(store.gold, r_gold)
    store.food -= food
    store.gold -= gold
    staying = [h for h in members if h != mine]
    if mine == top:
        # The house that kept the stores leaves: the remainder goes to the first house staying, which keeps
        # them for the others from now on.
        new_top = staying[0]
        world.houses[new_top].food, world.houses[new_top].gold = store.food, store.gold
        world.houses[new_top].joined = None
        for h in staying[1:]:
            world.houses[h].joined = new_top
        store.food, store.gold = food, gold
    else:
        for h in members:
            if world.houses[h].joined == mine:
                world.houses[h].joined = top
        world.houses[mine].food, world.houses[mine].gold = food, gold
    world.houses[mine].joined = None
    text = (f"The house of {mine} splits from the house of {', '.join(staying)}, taking {food} food and {gold} "
            f"gold (Random Numbers {float(r_food):.2f} and {float(r_gold):.2f}).")
    council.tell_all(members, text)
    council.announce(text)
    council.event("split houses", leaving=mine, food=food, gold=gold)


def _and_names(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


# -- rule changes -----------------------------------------------------------------------------------------

@handles("propose rule")
def propose_rule(council: Council, actor: Character, action: Action) -> None:
    """PROPOSING CHANGES TO THE RULES: the offering of 25 points of XP, Wisdom, Craftsmanship and/or Fame from
    non-slave characters of the house is taken when the proposal is made, whatever the GM decides (LJ-OQ-57);
    an XP offering that leaves a character at 0 XP kills him ("A character with 0 XP immediately dies").
    The proposal goes to the GM (world.proposals)."""
    world = council.world
    house = acting_house(council, actor, action)
    text = str(action.args.get("text") or "").strip()
    if not text:
        raise Void("write the proposal after **Propose Rule**")
    pieces = action.args.get("offering") or []
    if not pieces:
        raise Void(f"name the {PROPOSAL_POINTS} points offered: e.g. \"offering: 25 Fame from {actor.name}\"")
    mine = {c.name for c in characters_of(world, house)}
    taken: dict[tuple[str, str], int] = {}
    total = 0
    for piece in pieces:
        ch = world.character(str(piece.get("character") or actor.name))
        if ch is None or not ch.alive or ch.name not in mine:
            raise Void(f"{piece.get('character')} is not a character of your house")
        if ch.owner is not None:
            raise Void(f"{ch.name} is a slave: the offering comes from non-slave characters")
        attr = attribute_named(piece.get("attribute"))
        amount = int(piece.get("amount") or 0)
        if amount <= 0:
            raise Void("every part of the offering needs a number of points")
        taken[(ch.name, attr)] = taken.get((ch.name, attr), 0) + amount
        total += amount
    if total < PROPOSAL_POINTS:
        raise Void(f"the offering is {total} points; Yahzuk demands {PROPOSAL_POINTS}")
    for (name, attr), amount in taken.items():
        have = getattr(world.characters[name], attr)
        if have < amount:
            raise Void(f"{name} has {have} {ATTRIBUTE_WORDS[attr]}, not {amount}")
    for (name, attr), amount in taken.items():
        ch = world.characters[name]
        setattr(ch, attr, getattr(ch, attr) - amount)
    offering = [{"character": n, "attribute": a, "amount": v} for (n, a), v in taken.items()]
    world.proposals.append({"kind": "rule", "session": council.session, "house": house,
                            "character": actor.name, "text": text, "offering": offering})
    parts = ", ".join(f"{v} {ATTRIBUTE_WORDS[a]} from {n}" for (n, a), v in taken.items())
    council.tell(house, f"{actor.name} proposes a rule change to the GM, offering {parts}.")
    council.event("propose rule", character=actor.name, offering=offering)
    for (name, attr), _ in taken.items():
        ch = world.characters[name]
        if attr == "xp" and ch.xp <= 0:
            kill(council, ch, "gave his last XP to Yahzuk with a rule proposal")

