"""The order of a council session: who acts when, and what runs between the actions.

BASIC GAME STRUCTURE: "The council session is divided into three parts; "Morning", "Afternoon" and
"Evening"." maild runs a session as one turn of two phases, the Morning and the Afternoon (the parts in
which characters act); the Evening, where "No actions are performed", runs at the end of the Afternoon's
resolution. docs/law-of-the-jungle.md, "Sessions, the order of actions, slaves and tenants", gives every
reading this module follows (LJ-OQ-09, 17, 26 to 30, 49, 50 and the sign-up period).

The Morning: the GM's update, the sign-ups (JOIN), then, once the game has begun, what arrives at the
beginning of the session (incomes, title bonuses), the priests' blessings of the festival's god and the
cities' revolts; then every character's first action from highest to lowest Fame. The Afternoon: every
character's second action from lowest to highest Fame (tenants toil, plans on both actions take their second
half), then the Evening: the research, production and policy draws, food, the session's beakers, hammers and
defences gone, the next festival drawn, the session closed. The kick-off closes the sign-up period.

The other parts of the game are reached through `step`: a session step another part provides (D2's
`begin_session`, C's `eat`, ...). A step whose module is not there is reported to the GM as not implemented,
never skipped silently.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from maild.ruleset import GM_ORDERS, SIGN_UP_ADDRESS, Order, PlacedOrder

from . import handlers  # noqa: F401 - every @handles of the game registers on import
from .actions import PREGAME
from .council import HANDLERS, Action, Council, Void
from .model import GODS, Character, Title, World, key

#: The sign-up order (JOINING THE GAME), which is no character's action.
JOIN = "join"
#: Receipt sequence of an action the engine gives (a tenant's toil): after every mail's.
AUTOMATIC = 1 << 62

# Where each step of a session lives: function -> module of maild_rules.jungle. Looked up when the session
# runs (`step`), which is the seam the engine's tests use to stand in the other parts' steps; every step is
# present in the game (tests/test_jungle_engine.py checks it), and a missing one is reported, never skipped.
STEPS: dict[str, str] = {
    "apply_update": "update",
    "join": "houses",
    "kick_off": "cities",
    "begin_session": "incomes",
    "priest_blessings": "gods",
    "revolts": "cities",
    "run_draws": "research",
    "eat": "food",
    "draw_festival": "gods",
    "gm_report": "todo",
    "check_join": "houses",
    "note_trapped": "houses",
    "may_sign_up_again": "houses",
}


def step(name: str) -> Callable[..., Any] | None:
    """The function `name` of the part of the game that provides it (None only if it has been taken away)."""
    module = importlib.import_module(f"{__package__}.{STEPS[name]}")
    return getattr(module, name, None)


def _missing(council: Council, name: str) -> None:
    council.event("error", step=name, message=f"{name} is not implemented: this step of the session was not run")


@dataclass
class Part:
    """What resolving one part gives the ruleset: the council (reports, events) and the to-do entries."""

    council: Council
    todo: list[dict[str, Any]] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)


# -- the order of actions -----------------------------------------------------------------------------------
def resolution_order(world: World, actions: list[Action], part: str) -> list[Action]:
    """The part's actions in the order they resolve (CHARACTER ACTIONS): the Morning from highest to lowest
    Fame, the Afternoon from lowest to highest, Fame read now (LJ-OQ-27: when the part begins, and fixed for
    the part), ties by the receipt order of the mail (LJ-OQ-26), then by name so the order is total."""
    sign = -1 if part == "morning" else 1

    def fame(a: Action) -> int:
        c = world.character(a.character)
        return c.fame if c is not None else 0

    return sorted(actions, key=lambda a: (sign * fame(a), a.seq, key(a.character)))


def signup_open(world: World) -> bool:
    """Whether the session being resolved is one of the sign-up period (before the kick-off)."""
    return not world.kicked_off


# -- gathering the actions of a part ------------------------------------------------------------------------
def sole_characters(world: World) -> dict[str, str]:
    """Each house with a single living character, and his name: the house as its mails for a part were read,
    taken before the part's opening steps (the GM's update, JOINs) can bring it another character."""
    out: dict[str, str] = {}
    for c in world.living():
        out[c.house] = "" if c.house in out else c.name
    return {h: n for h, n in out.items() if n}


def _acting_character(world: World, house: str, args: dict[str, Any],
                      sole: dict[str, str] | None = None) -> Character | str:
    """The character an order is for, or why none: an order that names nobody is the house's only one's, as
    the house was when the part opened to mail (`sole`): a character the GM's update gave the house since
    does not make the player's action ambiguous (docs: "An action that names nobody")."""
    name = args.get("character")
    if not name and sole and house in sole:
        name = sole[house]
    if not name:
        mine = world.members(house)
        if len(mine) == 1:
            return mine[0]
        if not mine:
            return "your house has no living character"
        return f"name the character who acts (your house has {', '.join(sorted(c.name for c in mine))})"
    from .ordercheck import character  # names as the orders read them ("the", case, spacing)

    c = character(world, str(name))
    if c is None:
        return f"there is no character named {name}"
    if not c.alive:
        return f"{c.name} is dead"
    return c


def said(name: str, text: str) -> str:
    """An action as the printout names it: "Itzel: **Train** XP", or the orders' summary when it already
    begins with the character's name ("Itzel trains XP (+1)")."""
    return text if key(text).startswith(key(name)) else f"{name}: {text}"


def _is_owner_house(world: World, slave: Character, house: str) -> bool:
    owner = world.character(slave.owner) if slave.owner else None
    return owner is not None and owner.house == house


def _action(c: Character, placed: PlacedOrder, part: str, house: str) -> Action:
    o = placed.order
    args = dict(o.args)
    args.pop("character", None)
    text = (o.summary or o.text).replace("your character", c.name, 1)  # the orders' words for a nameless actor
    return Action(character=c.name, keyword=o.kind, args=args, part=part, seq=placed.seq, house=house,
                  text=text, both=bool(args.get("both", False)))


def _latest(actions: list[Action]) -> tuple[Action | None, list[Action]]:
    """The action that stands (the last received: the later mail, the later line) and those it replaced."""
    if not actions:
        return None, []
    return actions[-1], actions[:-1]


def gather(council: Council, orders: dict[str, list[PlacedOrder]]) -> list[Action]:
    """Every action of the part being resolved from the players' orders in force, with the rules of who may
    act: new characters wait a session (LJ-OQ-30), a slave's owner dictates his Morning (SLAVE OF CHARACTER
    X), a tenant toils in the Afternoon (TENANT OF CITIZEN X), a Morning plan on both actions fills the
    Afternoon (LJ-OQ-29), and before the kick-off only the pre-game purchases. What is not carried out is
    told to the house that sent it, with the reason."""
    world, part = council.world, council.part
    session = council.session
    sole: dict[str, str] = council.scratch.get("sole", {})
    own: dict[str, list[Action]] = {}
    dictated: dict[str, list[Action]] = {}
    for house in sorted(orders):
        if house == GM_ORDERS:
            continue
        for placed in sorted(orders[house], key=lambda p: (p.seq, p.order.line)):
            if placed.order.kind == JOIN:
                continue
            label = placed.order.args.get("part")
            if label == "afternoon" and part == "morning":  # one mail for both parts: kept for the Afternoon
                kept, text = placed.order, placed.order.summary or placed.order.text
                if not kept.args.get("character") and house in sole:  # his, as when the mail was read
                    kept = replace(kept, args={**kept.args, "character": sole[house]})
                    text = text.replace("your character", sole[house], 1)
                world.settings.setdefault("afternoon_orders", []).append(
                    {"house": house, "seq": placed.seq, "order": kept.to_json()})
                council.tell(house, f"{text}: kept for the Afternoon.")
                continue
            if label == "morning" and part == "afternoon":
                council.tell(house, f"{placed.order.summary or placed.order.text}: not carried out: it is for the "
                                    "Morning, which is over.")
                continue
            c = _acting_character(world, house, placed.order.args, sole)
            if isinstance(c, str):
                council.tell(house, f"{placed.order.summary or placed.order.text}: not carried out: {c}.")
                continue
            if c.house == house:
                own.setdefault(c.name, []).append(_action(c, placed, part, house))
            elif c.owner and _is_owner_house(world, c, house):
                if part != "morning":
                    council.tell(house, f"{said(c.name, placed.order.summary or placed.order.text)}: not carried out: "
                                        "an owner may demand his slave's action only for the Morning.")
                    continue
                dictated.setdefault(c.name, []).append(_action(c, placed, part, house))
            else:
                council.tell(house, f"{placed.order.summary or placed.order.text}: not carried out: "
                                    f"{c.name} is not of your house.")
    chosen: list[Action] = []
    names = sorted(set(own) | set(dictated) | set(world.both) | set(_tenants(world)), key=key)
    for name in names:
        c = world.character(name)
        if c is None or not c.alive:
            continue
        if signup_open(world):
            chosen += _pregame(council, c, own.get(name, []) + dictated.get(name, []))
            continue
        if c.since >= session:
            for a in own.get(name, []) + dictated.get(name, []):
                council.tell(a.house, f"{said(c.name, a.text)}: not carried out: {c.name} came into the game this "
                                      "session and acts from the next one.")
            continue
        mine, replaced = _latest(own.get(name, []))
        ordered, replaced_too = _latest(dictated.get(name, []))
        for a in replaced + replaced_too:
            council.tell(a.house, f"{said(c.name, a.text)}: not carried out: a later action for {c.name} replaced it.")
        if part == "morning":
            action = _morning_choice(council, c, mine, ordered)
        else:
            action = _afternoon_choice(council, c, mine)
        if action is not None:
            chosen.append(action)
    return chosen


def _pregame(council: Council, c: Character, actions: list[Action]) -> list[Action]:
    ok = []
    for a in actions:
        if a.keyword in PREGAME:
            ok.append(a)
        else:
            council.tell(a.house, f"{said(c.name, a.text)}: not carried out: the game has not begun; before the "
                                  "kick-off a house may only Purchase, Train and Recruit.")
    return ok


def defiance(slave: Character, attacks_owner: bool) -> int:
    """Add a defiance to the slave's "Defiant Slave (N)" and give the new N (DEFIANT SLAVE (N): "Each time a
    slave is defiant the value of N is increased by 1. If a slave attacks his owner (including escape
    attempt) while disobeying an order, the value of N is increased by 2 instead of 1."; the step is the
    attacks' `defiance_step`)."""
    from .attacks import defiance_step

    title = slave.title("Defiant Slave")
    if title is None:
        title = Title("Defiant Slave", n=0)
        slave.titles.append(title)
    title.n = (title.n or 0) + defiance_step(slave, attacks_owner)
    return title.n


def _morning_choice(council: Council, c: Character, mine: Action | None, ordered: Action | None
                    ) -> Action | None:
    """SLAVE OF CHARACTER X's three cases: the owner's demand alone is followed (its gains to the owner's
    house, LJ-OQ-49), the slave's own alone is followed, and both: the slave's is followed and he is defiant."""
    if ordered is not None and mine is None:
        council.tell(c.house, f"{c.name} obeys his owner {c.owner}: {ordered.text}.")
        return ordered
    if ordered is not None and mine is not None:
        from .attacks import attacks_owner

        n = defiance(c, attacks_owner(council.world, c, mine))
        council.tell(c.house, f"{c.name} defies his owner {c.owner} and does as you say: Defiant Slave ({n}).")
        council.tell(ordered.house, f"{said(c.name, ordered.text)}: not carried out: {c.name} defied you and "
                                    f"did as his own house said (Defiant Slave ({n})).")
        council.event("defiance", character=c.name, owner=c.owner, n=n)
        return mine
    return mine


def _tenants(world: World) -> list[str]:
    return list(world.settings.get("tenants_at_start", []))


def _began_as_tenant(world: World, name: str) -> bool:
    """Whether `name` began the session as a tenant: a set made once from the list the Morning noted, not a
    scan of that list for each of the Afternoon's thousands of characters."""
    noted = world.settings.get("tenants_at_start", [])
    cached = world.__dict__.get("_tenants_at_start")
    if cached is None or cached[0] is not noted or cached[1] != len(noted):
        cached = world.__dict__["_tenants_at_start"] = (noted, len(noted), set(noted))
    return name in cached[2]


def _afternoon_choice(council: Council, c: Character, mine: Action | None) -> Action | None:
    """The second action: the second half of a Morning plan on both actions (LJ-OQ-29), a tenant's toil
    (TENANT OF CITIZEN X, LJ-OQ-50), else his own."""
    world = council.world
    plan = world.both.get(c.name)
    if _began_as_tenant(world, c.name) and c.landlord:
        if plan is not None:
            council.tell(plan["house"], f"{c.name}: the second half of {plan['text']}: not carried out: {c.name} "
                                        f"is a tenant of {c.landlord} and must toil.")
        if mine is not None and mine.keyword == "toil":
            return mine
        if mine is not None:
            council.tell(mine.house, f"{said(c.name, mine.text)}: not carried out: {c.name} began this session as "
                                     f"a tenant of {c.landlord} and must toil.")
        return Action(c.name, "toil", {}, "afternoon", AUTOMATIC, c.house, "Toil (automatic: a tenant toils)")
    if plan is not None:
        if mine is not None:
            council.tell(mine.house, f"{said(c.name, mine.text)}: not carried out: {c.name} spends both actions of "
                                     f"this session on {plan['text']}.")
        return Action(**{**plan, "part": "afternoon"})
    if mine is not None and mine.both:
        council.tell(mine.house, f"{said(c.name, mine.text)}: not carried out: an action on both actions of a "
                                 "session is sent for the Morning.")
        return None
    return mine


# -- resolving ------------------------------------------------------------------------------------------------
def run_actions(council: Council, actions: list[Action]) -> None:
    """Resolve `actions` in resolution order; each one valid at its moment, else void with the reason."""
    council.actions = resolution_order(council.world, actions, council.part)
    for i, action in enumerate(council.actions):
        council.position = i
        resolve_one(council, action)


def resolve_one(council: Council, action: Action) -> None:
    world = council.world
    actor = world.character(action.character)
    acted = world.settings.setdefault("acted", {})
    acted[action.character] = acted.get(action.character, 0) + 1
    houses = {action.house} | ({actor.house} if actor is not None else set())
    if actor is None or not actor.alive:
        council.tell_all(houses, f"{action.character}: {action.text}: void: {action.character} is dead.")
        return
    handler = HANDLERS.get(action.keyword)
    heading = said(actor.name, action.text)
    council.tell_all(houses, heading)
    if handler is None:
        council.tell_all(houses, f"  void: {action.keyword} is not implemented yet; the GM has been told.")
        council.event("error", action=action.keyword, message=f"no handler for {action.keyword}")
        return
    start = len(council.reports)
    try:
        handler(council, actor, action)
    except Void as void:
        _indent(council, start, houses)
        council.tell_all(houses, f"  void: {void}")
        council.event("void", character=actor.name, action=action.keyword, reason=str(void))
        if action.both and action.part == "morning":
            world.both.pop(actor.name, None)  # LJ-OQ-29: a void first half voids the plan
        return
    _indent(council, start, houses)
    council.event("action", character=actor.name, action=action.keyword, house=action.house)
    if action.both and action.part == "morning" and actor.alive:
        # LJ-OQ-29: the plan's second half takes the Afternoon slot.
        world.both[actor.name] = {"character": action.character, "keyword": action.keyword, "args": action.args,
                                  "part": "afternoon", "seq": action.seq, "house": action.house,
                                  "text": action.text, "both": True}


def _indent(council: Council, start: int, houses: set[str]) -> None:
    """What the action told the houses of its heading goes under the heading in their printouts."""
    for r in council.reports[start:]:
        if r.house in houses:
            r.text = "  " + r.text


# -- the parts of a session -----------------------------------------------------------------------------------
def morning(world: World, orders: dict[str, list[PlacedOrder]], rng: random.Random,
            emails: dict[str, str] | None = None) -> Part:
    """Resolve the Morning of the session `world.session + 1`."""
    council = Council(world, rng, "morning")
    world.settings.pop("acted", None)  # the actions used last session, shown until this one begins
    council.scratch["sole"] = sole_characters(world)  # the houses as this part's mails were read
    _gm_updates(council, orders.get(GM_ORDERS, []))
    _joins(council, orders, emails or {})
    if world.kicked_off:
        for name in ("begin_session", "priest_blessings", "revolts"):
            fn = step(name)
            if fn is None:
                _missing(council, name)
            else:
                fn(council)
        # TENANT OF CITIZEN X: "A character that begins a council session as a tenant must have "toil" as
        # their 2nd action" (LJ-OQ-50): who is a tenant now, after the session's opening.
        world.settings["tenants_at_start"] = sorted(c.name for c in world.living() if c.landlord)
    actions = gather(council, orders)
    run_actions(council, actions)
    return Part(council, actions=council.actions)


def afternoon(world: World, orders: dict[str, list[PlacedOrder]], rng: random.Random,
              emails: dict[str, str] | None = None) -> tuple[Part, Part]:
    """Resolve the Afternoon and then the Evening of the session `world.session + 1`."""
    council = Council(world, rng, "afternoon")
    council.scratch["sole"] = sole_characters(world)  # the houses as this part's mails were read
    _joins(council, orders, emails or {})
    orders = with_kept(world, orders)
    actions = gather(council, orders)
    run_actions(council, actions)
    return Part(council, actions=council.actions), evening(world, rng)


def with_kept(world: World, orders: dict[str, list[PlacedOrder]]) -> dict[str, list[PlacedOrder]]:
    """The Afternoon's orders with those the Morning's mails labelled "Afternoon:" (kept in the state): a
    later mail's action for the same character replaces them, as any later mail's does."""
    kept = world.settings.pop("afternoon_orders", [])
    if not kept:
        return orders
    merged = {house: list(placed) for house, placed in orders.items()}
    for k in kept:
        merged.setdefault(k["house"], []).append(PlacedOrder(Order.from_json(k["order"]), k["seq"]))
    return merged


def evening(world: World, rng: random.Random) -> Part:
    """The Evening: "the results of the Afternoon are announced, food is consumed and the council session is
    ended. No actions are performed." Before the kick-off there is no council: the sign-up period only ends
    with the kick-off when enough houses have signed up."""
    council = Council(world, rng, "evening")
    todo: list[dict[str, Any]] = []
    if world.kicked_off:
        draws = step("run_draws")
        if draws is None:
            _missing(council, "run_draws")
        else:
            todo = list(draws(council) or [])
        eat = step("eat")
        if eat is None:
            _missing(council, "eat")
        else:
            eat(council)
        # SCIENCE BEAKERS / PRODUCTION HAMMERS are the session's; a Defend lasts the session (DEFEND).
        for c in world.characters.values():
            c.beakers = c.hammers = c.defend = 0
    world.both.clear()
    world.settings.pop("tenants_at_start", None)
    world.session += 1
    trapped = step("note_trapped")  # SIGNING UP AGAIN counts sessions spent as Slave-Tenants
    if trapped is not None:
        trapped(world)
    if not world.kicked_off and world.session >= int(world.settings.get("signup_sessions", 1)):
        _kick_off(council)
    if world.kicked_off:
        _next_festival(council)
    return Part(council, todo=todo)


def _kick_off(council: Council) -> None:
    """KICKING OFF THE GAME, at the Evening of the last session of the sign-up period, so the council of T0
    is the next session (docs: the sign-up period)."""
    world = council.world
    needed = int(world.settings.get("kickoff_houses", 2))
    if len([h for h in world.houses if world.members(h)]) < needed:
        council.announce(f"The sign-up goes on: the game begins once {needed} houses have signed up.")
        return
    fn = step("kick_off")
    if fn is None:
        _missing(council, "kick_off")
    else:
        fn(council)
    world.kicked_off = True
    world.settings["council_from"] = world.session + 1
    world.settings.pop("acted", None)  # the sign-up's purchases were no council actions
    council.announce(f"The game has begun: the council of T0 is session {world.session + 1}.")


def _next_festival(council: Council) -> None:
    """The next session's festival, drawn now and announced with this Evening's results (LJ-OQ-41 is the
    draw's: gods.draw_festival), so players know it before they send their Morning actions."""
    world = council.world
    draw = step("draw_festival")
    if draw is None:
        world.festival = GODS[council.rng.randrange(len(GODS))]
        _missing(council, "draw_festival")
    else:
        world.festival = draw(council.rng)
    council.announce(f"The next council session is held during the festival of {world.festival}.")
    council.event("festival", god=world.festival, session=world.session + 1)


def _gm_updates(council: Council, gm: Iterable[PlacedOrder]) -> None:
    apply = None
    for placed in gm:
        if apply is None:
            apply = step("apply_update")
        if apply is None:
            _missing(council, "apply_update")
            return
        args = placed.order.args
        apply(council, args.get("file", args))
        council.event("gm_update", order=placed.order.kind)


def _joins(council: Council, orders: dict[str, list[PlacedOrder]], emails: dict[str, str]) -> None:
    """Sign-ups first in the part (the JOIN orders, by receipt order): the house and its peasant exist from
    now, and act from the next session (LJ-OQ-30) except the pre-game purchases of the sign-up period."""
    world = council.world
    joins = sorted(((p.seq, p.order.line, house, p.order) for house, placed in orders.items() if house != GM_ORDERS
                    for p in placed if p.order.kind == JOIN), key=lambda t: t[:3])
    if not joins:
        return
    join = step("join")
    for _seq, _line, house, order in joins:
        again = step("may_sign_up_again")  # SIGNING UP AGAIN: a house of Slave-Tenants for 3 sessions
        if house in world.houses and world.members(house) and not (again is not None and again(world, house)):
            council.tell(house, f"{order.summary or order.text}: not carried out: your house is already in the "
                                "game (a house signs up again once it has no character left, or after 3 sessions "
                                "with all its characters Slave-Tenants).")
            continue
        if join is None:
            _missing(council, "join")
            council.tell(house, "JOIN: not carried out yet: the GM has been told.")
            continue
        args = order.args
        try:
            email = str(args.get(SIGN_UP_ADDRESS) or args.get("email") or emails.get(house, ""))
            c = join(world, house, email, args.get("name"), args.get("city"), args.get("hex"),
                     council.session, council.rng)
        except (Void, ValueError) as why:
            council.tell(house, f"{order.summary or order.text}: not carried out: {why}")
            continue
        where = f"{c.hex} in {c.city}" if c.hex else (c.unit or c.city or "nowhere yet")
        council.tell(house, f"{c.name} joins the game: a peasant of the house of {house}, living on {where}.")
        council.announce(f"{c.name} of the house of {house} joins the game.")
        council.event("join", house=house, character=c.name)
