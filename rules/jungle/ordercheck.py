"""The actions of one mail checked against the state at intake: who acts, what the names mean, word limits.

`check(world, session, house, orders)` gives a Diagnostic for every action the ack must question: an error
(the action is refused, the player hears why and the nearest spelling of a name he got wrong) or a warning
(the action stands: a Captain's orders over the word limit, two actions for one character, an Order by one
who is not the Captain yet). Whether an action is *valid* is decided when it resolves (the handlers raise
`Void`); errors only for what cannot become right before then: a name that is not in the game, a character
not of the house.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from maild.ruleset import Diagnostic, Order

from . import wording
from .actions import PREGAME
from .captains import captain_orders, captained, known_names, over_limit_message
from .model import Character, World

#: An error lists the choices of Research, Produce or Support Policy up to this many (else points to the
#: newsletter, which lists them all).
LISTED = 30
#: What a warning about a captaincy the actor does not hold (yet) adds.
_UNLESS_CAPTAIN = "; the order is kept, and is void unless he is the Captain when it resolves"


def acting_character(world: World, house: str, args: dict[str, Any]) -> Character | None:
    """The character an action is for: the one named (``args["character"]``), else the house's only one."""
    name = args.get("character")
    if name is None:
        own = world.members(house)
        return own[0] if len(own) == 1 else None
    return character(world, name)


def character(world: World, name: str) -> Character | None:
    """The living or dead character `name` means (case, blanks, a leading article do not matter)."""
    found = world.character(wording.clean_name(name))
    if found is not None:
        return found
    key = wording.find(name, world.characters)
    return world.characters[key] if key is not None else None


def find_item(world: World, item: dict[str, Any]) -> tuple[str, str] | None:
    """The (kind, name in the state) of a Challenge's or Overthrow's item (``args["item"]``, LJ-OQ-40): of
    the kind written, else the first of a city, a unit, a character (a slave), a hex (land) so named."""
    name, kind = item.get("name"), item.get("kind")
    if not name:
        return None
    hexes = [h for c in world.cities.values() for h in c.hexes]
    tables: dict[str, Iterable[str]] = {"city": world.cities, "unit": world.units, "slave": world.characters,
                                        "land": hexes}
    for k in ([kind] if kind else ["city", "unit", "slave", "land"]):
        found = wording.find(name, tables[k])
        if found is not None:
            return k, found
    return None


class _Checker:
    def __init__(self, world: World, house: str, orders: list[Order]) -> None:
        self.world = world
        self.house = house
        self.joining = {wording.fold(o.args["name"]) for o in orders if o.kind == "join"}
        self.out: list[Diagnostic] = []
        self.order: Order | None = None
        self._names: list[str] | None = None

    # -- reporting ----------------------------------------------------------------------------------------
    def error(self, message: str) -> None:
        assert self.order is not None
        self.out.append(Diagnostic(self.order.line, self.order.text, message))

    def warn(self, message: str) -> None:
        assert self.order is not None
        self.out.append(Diagnostic(self.order.line, self.order.text, message, warning=True))

    def names(self) -> list[str]:
        if self._names is None:
            self._names = known_names(self.world)
        return self._names

    # -- lookups ------------------------------------------------------------------------------------------
    def someone(self, name: str, what: str = "character") -> Character | None:
        """The character `name` means, or None after an error (a character joining in this mail passes)."""
        found = character(self.world, name)
        if found is None and wording.fold(name) not in self.joining:
            self.error(f"there is no {what} '{name}' in the game"
                       f"{wording.did_you_mean(name, self.world.characters)}")
        elif found is not None and not found.alive:
            self.error(f"{found.name} is dead")
            return None
        return found

    def one_of(self, name: str, names: Iterable[str], what: str, listed: bool = False) -> str | None:
        """The name of `names` that `name` means, or None after an error; `listed`: the error lists them
        (the choices of Research, Produce and Support Policy, which the newsletter lists too)."""
        names = list(names)
        found = wording.find(name, names)
        if found is None:
            near = wording.did_you_mean(name, names)
            choices = ""
            if listed and not near:
                ordered = sorted(names, key=str.casefold)
                choices = (f": one of {', '.join(ordered)}" if len(ordered) <= LISTED
                           else f": the newsletter lists the {len(ordered)} there are")
            self.error(f"there is no {what} '{name}'{near}{choices}")
        return found

    def hex_of(self, name: str, city: str | None) -> None:
        cities = [self.world.cities[city]] if city in self.world.cities else list(self.world.cities.values())
        hexes = [h for c in cities for h in c.hexes]
        if hexes and wording.find(name, hexes) is None:
            where = f" in {city}" if city in self.world.cities else ""
            self.error(f"there is no workable hex '{name}'{where}{wording.did_you_mean(name, hexes)}")

    def city_and_hex(self, args: dict[str, Any]) -> None:
        city = None
        if args.get("city"):
            city = self.one_of(args["city"], self.world.cities, "city")
            if city is None:
                return
        if args.get("hex"):
            self.hex_of(args["hex"], city)

    # -- the checks ---------------------------------------------------------------------------------------
    def run(self, orders: list[Order]) -> list[Diagnostic]:
        seen: dict[tuple[str, str | None], int] = {}
        for order in orders:
            self.order = order
            if order.kind == "join":
                self.join(order.args)
                continue
            actor = self.actor(order.args)
            if actor is None:
                continue
            if not self.world.kicked_off:
                # The sign-up period: each purchase is carried out, one after another; nothing else is.
                if order.kind not in PREGAME:
                    self.warn("the game has not begun: before the kick-off a house may only Purchase, Train and "
                              "Recruit, so this action will not be carried out")
                continue
            self.will_fail(order, actor, orders)
            slot = (actor.name, order.args.get("part"))
            if slot in seen:
                self.warn(f"{actor.name} already has an action in this mail (line {seen[slot]}); a character has "
                          "one action in each part of the session: this later one replaces it")
            seen[slot] = order.line
            getattr(self, "k_" + order.kind.replace(" ", "_"), lambda a, c: None)(order.args, actor)
        return self.out

    def actor(self, args: dict[str, Any]) -> Character | None:
        name = args.get("character")
        if name is None:
            own = self.world.members(self.house)
            if len(own) == 1:
                return own[0]
            if not own:
                if not self.joining:
                    self.error("your house has no character in the game: sign up first with "
                               "JOIN NAME in CITY")
                return None
            listed = ", ".join(sorted(c.name for c in own))
            heading = args.get("heading")  # a line ending in a colon that names nobody (orders.refine)
            unknown = (f"'{heading}:' names none of your characters{wording.did_you_mean(heading, listed.split(', '))}"
                       "; " if heading else "")
            self.error(f"{unknown}your house has {len(own)} characters ({listed}): say who acts with a line such "
                       f"as '{sorted(c.name for c in own)[0]}:' before his actions")
            return None
        if wording.fold(name) in self.joining and character(self.world, name) is None:
            return None  # he joins with this mail: his actions are checked when he is in the game
        found = character(self.world, name)
        if found is None:
            mine = [c.name for c in self.world.characters.values()
                    if c.house == self.house or self.owned(c)]
            self.error(f"there is no character '{name}' in your house{wording.did_you_mean(name, mine)}")
            return None
        if not found.alive:
            self.error(f"{found.name} is dead")
            return None
        if found.house != self.house and not self.owned(found):
            self.error(f"{found.name} is not of your house (nor your slave)")
            return None
        return found

    def part_of(self, order: Order) -> str:
        """The part an action is for: its label, else the part whose orders are due. The Morning of this
        session has resolved once the engine has noted who began it as a tenant (`tenants_at_start`)."""
        label = order.args.get("part")
        if label:
            return str(label)
        return "afternoon" if "tenants_at_start" in self.world.settings else "morning"

    def will_fail(self, order: Order, actor: Character, orders: list[Order]) -> None:
        """A warning for an action the state already says will not be carried out (the engine's `gather`
        says the same when the part resolves): the player's chance to send another before the deadline."""
        part = self.part_of(order)
        if part == "morning" and "tenants_at_start" in self.world.settings and order.args.get("part"):
            self.warn("the Morning of this session is over: this action will not be carried out")
            return
        if part != "afternoon":
            return
        if actor.house != self.house and self.owned(actor):
            self.warn(f"{actor.name} is your slave: his owner may demand his action only for the Morning (SLAVE "
                      "OF CHARACTER X), so this Afternoon action will not be carried out")
            return
        if order.args.get("both"):
            self.warn("an action on both actions of a session is sent for the Morning: this one, for the "
                      "Afternoon, will not be carried out")
            return
        plan = self.world.both.get(actor.name)
        if plan is None and "tenants_at_start" not in self.world.settings:
            # the same mail's Morning action on both actions takes his Afternoon too
            plan = next((o.args | {"text": o.summary} for o in orders if o.args.get("both")
                         and o.args.get("part") != "afternoon" and o.line != order.line
                         and acting_character(self.world, self.house, o.args) is actor), None)
        if plan is not None:
            self.warn(f"{actor.name} spends both actions of this session on {plan['text']}: this Afternoon "
                      "action will not be carried out")
            return
        began = self.world.settings.get("tenants_at_start")
        tenant = actor.landlord and (began is None or actor.name in began)
        if tenant and order.kind != "toil":
            self.warn(f"{actor.name} is a tenant of {actor.landlord}: a tenant's second action is always to toil "
                      "(TENANT OF CITIZEN X), so this Afternoon action will not be carried out unless he stops "
                      "being a tenant in the Morning")

    def owned(self, c: Character) -> bool:
        owner = character(self.world, c.owner) if c.owner else None
        return owner is not None and owner.house == self.house

    def join(self, args: dict[str, Any]) -> None:
        if character(self.world, args["name"]) is not None:
            self.error(f"the name {args['name']} is taken: choose another")
        if args.get("city"):
            if wording.find(args["city"], self.world.units) is not None:
                return  # the pre-game sign-up may enlist in the starting warrior (JOINING THE GAME)
            self.city_and_hex(args)
        elif args.get("hex"):
            self.hex_of(args["hex"], None)

    def k_sacrifice(self, args: dict[str, Any], actor: Character) -> None:
        self.someone(args["victim"])

    def k_move(self, args: dict[str, Any], actor: Character) -> None:
        self.hex_of(args["hex"], actor.city)

    def k_travel(self, args: dict[str, Any], actor: Character) -> None:
        self.city_and_hex(args)

    k_desert = k_travel

    def k_retire(self, args: dict[str, Any], actor: Character) -> None:
        if self.captain({}, actor):
            self.city_and_hex(args)

    def k_enlist(self, args: dict[str, Any], actor: Character) -> None:
        self.one_of(args["unit"], self.world.units, "unit")

    def k_disband(self, args: dict[str, Any], actor: Character) -> None:
        self.captain(args, actor)

    def captain(self, args: dict[str, Any], actor: Character) -> bool:
        own = captained(self.world, actor.name)
        if args.get("unit"):
            unit = wording.find(args["unit"], self.world.units)
            if unit is None and not (self.order and self.order.kind == "order" and len(own) == 1):
                self.error(f"there is no unit '{args['unit']}'{wording.did_you_mean(args['unit'], self.world.units)}")
                return False
            if unit is not None and all(u.name != unit for u in own):
                # A warning, not a refusal: a captaincy may be given earlier in the part, or come with the GM's
                # update applied when the Morning resolves; "Actions that are not valid at the moment of
                # resolution will be considered void" (CHARACTER ACTIONS) decides then.
                self.warn(f"{actor.name} is not the Captain of {unit}: only the Captain orders, disbands or "
                          f"retires from a unit{_UNLESS_CAPTAIN}")
                return False
        elif not own:
            self.warn(f"{actor.name} is not the Captain of any unit{_UNLESS_CAPTAIN}")
            return False
        elif len(own) > 1:
            self.error(f"{actor.name} is Captain of {len(own)} units: name the unit, e.g. "
                       f"**{self.order.kind.title() if self.order else 'Order'}** {own[0].name}: ...")
            return False
        return True

    def k_order(self, args: dict[str, Any], actor: Character) -> None:
        if not self.captain(args, actor):
            return
        orders = captain_orders(self.world, actor.name, args, self.names())
        message = over_limit_message(orders, bool(args.get("both")))
        if message:
            self.warn(message)

    def k_evict(self, args: dict[str, Any], actor: Character) -> None:
        self.someone(args["tenant"])
        self.hex_of(args["hex"], actor.city)

    def k_attack(self, args: dict[str, Any], actor: Character) -> None:
        self.someone(args["target"])
        for name in args["joint"]:
            self.someone(name)
        principal = args.get("principal")
        if principal and wording.fold(principal) not in {wording.fold(n) for n in (*args["joint"], actor.name)}:
            self.error(f"the principal attacker {principal} is not one of the attackers "
                       f"({', '.join([actor.name, *args['joint']])})")
        item = args.get("item")
        if item and item.get("name"):
            self.item(item)

    def item(self, item: dict[str, Any]) -> None:
        """The item of a Challenge or Overthrow (LJ-OQ-40): a city, land (a hex), a unit or a slave."""
        if find_item(self.world, item) is not None:
            return
        kind = item.get("kind")
        names = {"city": list(self.world.cities), "unit": list(self.world.units),
                 "slave": list(self.world.characters),
                 "land": [h for c in self.world.cities.values() for h in c.hexes]}
        if kind is not None:
            what = {"land": "hex", "slave": "character"}.get(kind, kind)
            self.error(f"there is no {what} '{item['name']}'{wording.did_you_mean(item['name'], names[kind])}")
        else:
            every = [n for table in names.values() for n in table]
            self.error(f"'{item['name']}' is no city, hex, unit or character"
                       f"{wording.did_you_mean(item['name'], every)}")

    def k_research(self, args: dict[str, Any], actor: Character) -> None:
        empire = self.world.empire
        if wording.find(args["technology"], empire.known):
            self.error(f"{args['technology']} is already discovered")
        elif empire.technologies:
            self.one_of(args["technology"], empire.technologies, "technology to research now", listed=True)

    def k_produce(self, args: dict[str, Any], actor: Character) -> None:
        city = self.world.cities.get(actor.city or "")
        builds = list(city.builds) if city and city.builds else [b for c in self.world.cities.values()
                                                                  for b in c.builds]
        if builds:
            where = f" in {city.name}" if city and city.builds else ""
            self.one_of(args["item"], builds, f"building or unit to produce{where}", listed=True)

    def k_give(self, args: dict[str, Any], actor: Character) -> None:
        self.someone(args["to"])
        what, thing = args["what"], args.get("object")
        if what == "slave":
            self.someone(thing)
        elif what == "captaincy":
            self.one_of(thing, self.world.units, "unit")
        elif what == "rulership":
            self.one_of(thing, self.world.cities, "city")
        elif what == "land":
            self.hex_of(thing, None)

    def k_join_houses(self, args: dict[str, Any], actor: Character) -> None:
        other = self.someone(args["with"])
        if other is not None and other.house == self.house:
            self.error(f"{other.name} is already of your house")

    def k_split_houses(self, args: dict[str, Any], actor: Character) -> None:
        for name in args["leaving"]:
            c = self.someone(name)
            if c is not None and c.house != self.house:
                self.error(f"{c.name} is not of your house")

    def k_annex(self, args: dict[str, Any], actor: Character) -> None:
        if args.get("city"):
            self.one_of(args["city"], self.world.cities, "city")

    def k_support_policy(self, args: dict[str, Any], actor: Character) -> None:
        if self.world.empire.policies:
            self.one_of(args["policy"], self.world.empire.policies, "policy to adopt now", listed=True)

    def k_propose_rule(self, args: dict[str, Any], actor: Character) -> None:
        for part in args["offering"]:
            if part["character"]:
                c = self.someone(part["character"])
                if c is not None and c.house != self.house:
                    self.error(f"{c.name} is not of your house: the offering comes from your own characters")


def check(world: World, session: int, house: str, orders: list[Order]) -> list[Diagnostic]:
    """Every action of `house`'s mail checked against `world` (the state before session `session`)."""
    return _Checker(world, house, orders).run(orders)
