"""Raising troops and the orders that raise morale: THE SWORD GARRISONS (EG), FEUDAL LEVIES (EL), PROFESSIONAL
SOLDIERS (EP) and their recruit pools, MORALE's bonuses (UB), alcohol (UA) and the Shia/Sunni bonus city (UC).

Mercenaries ("items supplied") are bought with commerce.buy, which gives them their starting morale; troops
passed between personae carry their morale through commerce.transfer. Both use morale.receive, as every handler
here does: men joining a persona's troops and crew always join his morale by weighted average.

Readings (RW-OQ-09 to 13 and the further ones): docs/renaissance/war.md, section "raising". Rounding: men raised
and morale gained are gains, rounded down (war/arith.py).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..commerce import give_asset, item_named, take_asset
from ..context import Ctx, Outcome, Persona, done, fail
from ..items import CLASSES, DUCATS
from ..loyalty import add_loyalty, allowed
from ..offices import holder, holds
from ..ratings import add_rating, spend_popularity
from ..setup import find_location
from . import limits
from .arith import gain, loss
from .morale import ISLAM, men, receive

# THE SWORD GARRISONS: "not ... above 5% of the population", "No more than 0.5% of a location's population may be
# recruited for garrison duty in any one month" (per thousand, to stay in whole numbers).
GARRISON_TOTAL_PER_MILLE = 50
GARRISON_MONTHLY_PER_MILLE = 5

# FEUDAL LEVIES: "one percent of the population"; loyalty and popularity "by ten points"; "initial morale of 200".
LEVY_PERCENT = 1
LEVY_LOYALTY_COST = 10
LEVY_POPULARITY_COST = 10
LEVY_MORALE = 200

# PROFESSIONAL SOLDIERS: the types that may be raised, each with its enlistment bonus and its weapon.
ENLISTMENT: dict[str, tuple[int, str]] = {
    "auxiliary": (5, "small arms"),
    "arquebusier": (10, "arquebus"),
    "pikeman": (15, "pike"),
    "archer": (20, "bow"),
    "heavy cavalry": (50, "armor"),
}
OUTSIDE_WALLS_FACTOR = 3  # "This ducat cost is tripled when the persona ... is outside the walls"
SOLDIER_PERCENT = 20  # "never in numbers exceeding 20% of the number of troops of that type already under his control"
SMALL_HOLDING = 4  # "a persona with 1, 2, 3 or 4 troops of a given type may raise one additional troop"
SOLDIER_MORALE = 200  # "initial morale of 200, but, when their recruiter's popularity is below 200, ... his popularity"
RECRUIT_PERCENT = 10  # "equal to 10% of its population"
CARRYOVER_CAP = 1000  # "but this carryover may never exceed 1,000"

# MORALE: alcohol gives "20 divided by the total number of troops and crew" a unit, "No more than 20 points ... per
# turn per persona".
ALCOHOL_POINTS = 20
ALCOHOL_CAP = 20

SMALL_ARMS = "small arms"
AUXILIARY = "auxiliary"

# Month-only bookkeeping (ctx.scratch).
_BASE = "war.raising.base"  # pid -> {type: held when the month's orders began}: the 20% base
_HIRED = "war.raising.hired"  # (pid, type) -> professional soldiers he raised this month
_GARRISONED = "war.raising.garrisoned"  # location -> garrison troops recruited there this month
_LEVIED = "war.raising.levied"  # locations where a feudal levy was raised this month
_ALCOHOL = "war.raising.alcohol"  # pid -> (type of alcohol, points gained this month)


def _held(persona: Persona, item: str) -> int:
    return max(0, int((persona.get("assets") or {}).get(item, 0)))


def _qty(args: dict[str, Any], key: str = "qty") -> int:
    try:
        return int(args.get(key, 0))
    except (TypeError, ValueError):
        return 0


def _starting_location(ctx: Ctx, persona: Persona) -> tuple[str, dict[str, Any]] | None:
    """The location the persona began the turn at (inside or outside the walls), if any."""
    name = ctx.start_location.get(persona["id"])
    location = ctx.location(name)
    return (name, location) if name is not None and location is not None else None


# ---- THE SWORD GARRISONS -----------------------------------------------------------------------------------

def garrison_ceilings(population: int) -> tuple[int, int]:
    """(the most a garrison may number, the most recruited in a month): 5% and 0.5% of the population, rounded
    down (men raised are a gain). 70,000: 3,500 and 350."""
    return (gain(Fraction(population * GARRISON_TOTAL_PER_MILLE, 1000)),
            gain(Fraction(population * GARRISON_MONTHLY_PER_MILLE, 1000)))


def control_is_separate(location: dict[str, Any]) -> bool:
    """DE FACTO CONTROL: de facto control has passed from the tenancy (a separate controller is recorded)."""
    separate = holder(location, "dfc")
    return bool(separate) and separate != holder(location, "tenant")


def recruit_garrison(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """EGqqq: the tenant recruits garrison troops at the location he began the turn at (in or outside the
    walls: "only when he is present at the start of the turn"), cut to the 5% and 0.5% ceilings (RW-OQ-09), each
    given one small arms from his assets; no ducats; the garrison has no morale of its own."""
    pid = persona["id"]
    wanted = _qty(args)
    if wanted <= 0:
        return fail("no garrison troops to recruit")
    start = _starting_location(ctx, persona)
    if start is None:
        return fail("garrison troops are recruited by a tenant present at the location at the start of the turn")
    name, location = start
    if not holds(ctx.state, location, "tenant", pid):
        return fail(f"only the tenant of {name} may recruit its garrison")
    if control_is_separate(location):
        return fail(f"de facto control of {name} is separate from its tenancy: it may not have garrison troops")
    if not allowed(location, "garrison"):
        return fail(f"loyalty at {name} is {location.get('loyalty', 0)}: below 200 no garrison troops may be "
                    f"recruited")
    total_cap, month_cap = garrison_ceilings(int(location.get("population", 0)))
    garrison = max(0, int(location.get("garrison", 0)))
    recruited = ctx.scratch.setdefault(_GARRISONED, {})
    room = min(total_cap - garrison, month_cap - recruited.get(name, 0))
    if room <= 0:
        if garrison >= total_cap:
            return fail(f"the garrison of {name} ({garrison:,}) is at 5% of the population ({total_cap:,})")
        return fail(f"0.5% of {name}'s population ({month_cap:,}) has been recruited for its garrison this month")
    n = min(wanted, room)
    arms = _held(persona, SMALL_ARMS)
    if arms < n:
        return fail(f"{n:,} garrison troops need {n:,} small arms; he has {arms:,}")
    take_asset(persona, SMALL_ARMS, n)
    location["garrison"] = garrison + n
    recruited[name] = recruited.get(name, 0) + n
    cut = (f" (cut from {wanted:,}: at most {total_cap:,}, 5% of the population, and {month_cap:,} a month, 0.5%)"
           if n < wanted else "")
    return done(f"recruited {n:,} garrison troops at {name}{cut}, given {n:,} small arms; garrison now "
                f"{location['garrison']:,}")


# ---- FEUDAL LEVIES -----------------------------------------------------------------------------------------

def levy_size(population: int) -> int:
    """One percent of the population, rounded down (men raised are a gain): 70,000 gives 700, 9,999 gives 99."""
    return gain(Fraction(population * LEVY_PERCENT, 100))


def levy(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """EL: the feudatory conscripts 1% of the population of the location he began the turn at and spends the whole
    month at (he is pinned there). The levy is all auxiliaries, armed from his small arms: those he cannot arm are
    lost, the levy's costs (loyalty -10, popularity -10) stand. Initial morale 200, joined by weighted average."""
    pid = persona["id"]
    start = _starting_location(ctx, persona)
    if start is None:
        return fail("a feudal levy is raised by the feudatory in a turn he spends entirely at the location")
    name, location = start
    if not holds(ctx.state, location, "feudatory", pid):
        return fail(f"only the feudatory of {name} may raise a feudal levy there")
    if persona.get("location") != name or persona.get("at_sea"):
        return fail(f"he has left {name}: a levy needs a turn spent entirely at the location")
    if persona.get("with"):
        return fail(f"he is aboard another persona's ship, which may sail: a levy needs a turn spent entirely at "
                    f"{name}")
    levied: set[str] = ctx.scratch.setdefault(_LEVIED, set())
    if name in levied:
        return fail(f"a feudal levy has already been raised at {name} this month")
    if not allowed(location, "feudal_levy"):
        return fail(f"loyalty at {name} is {location.get('loyalty', 0)}: below 300 no feudal levy may be raised")
    size = levy_size(int(location.get("population", 0)))
    if size <= 0:
        return fail(f"1% of {name}'s population is not one man")
    if not spend_popularity(persona, LEVY_POPULARITY_COST):
        return fail(f"a levy costs {LEVY_POPULARITY_COST} popularity and he has {persona.get('popularity', 0)}: "
                    f"no action may drive popularity below zero")
    armed = min(size, _held(persona, SMALL_ARMS))
    if armed:
        take_asset(persona, SMALL_ARMS, armed)
        receive(persona, armed, LEVY_MORALE)
        give_asset(persona, AUXILIARY, armed)
    add_loyalty(location, -LEVY_LOYALTY_COST)
    levied.add(name)
    limits.pin(ctx, pid, f"he raised a feudal levy at {name} and must spend the whole month there")
    unarmed = f"; {size - armed:,} he could not arm are lost" if armed < size else ""
    # A levy is a public act: a town's loyalty falls and its men are under arms.
    ctx.publish(f"{persona['name']} ({pid}) raised a feudal levy of {armed:,} men at {name}.")
    return done(f"raised a feudal levy of {size:,} at {name}: {armed:,} auxiliaries armed with small arms{unarmed}; "
                f"loyalty now {location['loyalty']}, popularity {persona['popularity']}, morale {persona['morale']}")


# ---- PROFESSIONAL SOLDIERS ---------------------------------------------------------------------------------

def recruit_ceiling(held: int) -> int:
    """Soldiers of a type he may raise in a month on a holding of `held` at its start: 20% rounded down; with 1 to 4
    held, one; with none, none (RW-OQ-11). 12 -> 2, 5 -> 1, 4 -> 1, 0 -> 0."""
    if held <= 0:
        return 0
    if held <= SMALL_HOLDING:
        return 1
    return gain(Fraction(held * SOLDIER_PERCENT, 100))


def refresh_pool(ctx: Ctx, location: dict[str, Any]) -> dict[str, int]:
    """This month's recruits at the location: 10% of the population (rounded down) plus what last month's recruits
    left unhired, that carryover at most 1,000. Computed once a month; a location with no record of last month
    (the game's first month) carries nothing over."""
    record = location.get("recruits")
    if isinstance(record, dict) and record.get("turn") == ctx.turn:
        return record
    last = int(record.get("available", 0)) if isinstance(record, dict) and record.get("turn") == ctx.turn - 1 else 0
    # Rounded down (a gain), in whole numbers: this runs for every location every month.
    fresh = max(0, int(location.get("population", 0))) * RECRUIT_PERCENT // 100
    location["recruits"] = {"turn": ctx.turn, "available": fresh + min(CARRYOVER_CAP, max(0, last))}
    return location["recruits"]


def _troop_holding(persona: Persona) -> dict[str, int]:
    assets = persona.get("assets") or {}
    return {t: n for t in ENLISTMENT if (n := int(assets.get(t, 0))) > 0}


def note_holdings(ctx: Ctx) -> None:
    """The 20% base: every living persona's professional troop types as the month's orders begin."""
    ctx.scratch[_BASE] = {pid: _troop_holding(p) for pid, p in ctx.state["personae"].items() if p.get("alive", True)}


def recruit_pools(ctx: Ctx) -> None:
    """Month step, before the orders: every location's recruits for the month, and each persona's holding of each
    type (the base of his 20%). Both are whole-world passes of a few dict operations per location and persona."""
    for location in ctx.state["locations"].values():
        refresh_pool(ctx, location)
    note_holdings(ctx)


def base_holding(ctx: Ctx, persona: Persona, kind: str) -> int:
    """What he held of `kind` as the month's orders began. Without the month step (a handler called on its own),
    the holding at his first recruiting order of the month stands for it, and is kept for the month."""
    base = ctx.scratch.setdefault(_BASE, {})
    if persona["id"] not in base:
        base[persona["id"]] = _troop_holding(persona)
    return int(base[persona["id"]].get(kind, 0))


def recruit_soldiers(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """EPiiiiiiiiqqq: professional soldiers of one type raised where he is, cut to his 20% of the month and to the
    location's recruits left (RW-OQ-09, 11); enlistment bonuses (tripled outside the walls) and one weapon each;
    initial morale 200, or his popularity when below 200, joined by weighted average."""
    pid = persona["id"]
    kind = item_named(args.get("item"))
    wanted = _qty(args)
    if kind == "light cavalry":
        return fail("light cavalry are not recruited: they are auxiliaries given horses in battle (recruit "
                    "auxiliaries)")
    if kind not in ENLISTMENT:
        return fail(f"{args.get('item')!r} is not a professional soldier: auxiliary, arquebusier, pikeman, archer or "
                    f"heavy cavalry")
    if wanted <= 0:
        return fail("no soldiers to recruit")
    name = None if persona.get("at_sea") else persona.get("location")
    location = ctx.location(name)
    if name is None or location is None:
        return fail("professional soldiers are recruited at a location")
    held = base_holding(ctx, persona, kind)
    ceiling = recruit_ceiling(held)
    hired = ctx.scratch.setdefault(_HIRED, {})
    used = hired.get((pid, kind), 0)
    if ceiling - used <= 0:
        if ceiling == 0:
            return fail(f"he held no {kind} at the start of the turn: 20% of none is none")
        return fail(f"he has raised {used:,} {kind} this month, all that 20% of the {held:,} he held allows")
    pool = refresh_pool(ctx, location)
    if pool["available"] <= 0:
        return fail(f"all of {name}'s professional soldier recruits have been hired this month")
    n = min(wanted, ceiling - used, pool["available"])
    bonus, weapon = ENLISTMENT[kind]
    outside = not persona.get("inside")
    cost = n * bonus * (OUTSIDE_WALLS_FACTOR if outside else 1)
    if _held(persona, DUCATS) < cost:
        return fail(f"{n:,} {kind} cost {cost:,} ducats in enlistment bonuses; he has {_held(persona, DUCATS):,}")
    if _held(persona, weapon) < n:
        return fail(f"{n:,} {kind} need {n:,} {weapon}; he has {_held(persona, weapon):,}")
    take_asset(persona, DUCATS, cost)
    take_asset(persona, weapon, n)
    receive(persona, n, min(SOLDIER_MORALE, int(persona.get("popularity", 0))))
    give_asset(persona, kind, n)
    pool["available"] -= n
    hired[(pid, kind)] = used + n
    cut = f" (cut from {wanted:,})" if n < wanted else ""
    where = "outside the walls, tripled" if outside else "inside the walls"
    return done(f"recruited {n:,} {kind} at {name}{cut} for {cost:,} ducats of enlistment bonuses ({where}) and "
                f"{n:,} {weapon}; morale now {persona['morale']}")


# ---- MORALE: bonuses, alcohol, the bonus city ---------------------------------------------------------------

def morale_bonus(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """UBqqq: the total stated is paid out to every troop and crew he controls; morale rises by the ducats a man,
    rounded down (RW-OQ-13). Shia and Sunni troops take bonuses like any (MORALE excludes them only from sermons
    and alcohol)."""
    paid = _qty(args, "ducats")
    if paid <= 0:
        return fail("no ducats stated for bonuses")
    count = men(persona.get("assets") or {})
    if count == 0:
        return fail("he controls neither troops nor crew to pay bonuses to")
    if _held(persona, DUCATS) < paid:
        return fail(f"has only {_held(persona, DUCATS):,} ducats, cannot pay {paid:,} in bonuses")
    take_asset(persona, DUCATS, paid)
    rise = add_rating(persona, "morale", gain(Fraction(paid, count)))
    return done(f"paid {paid:,} ducats in bonuses to {count:,} troops and crew: morale +{rise}, now "
                f"{persona['morale']}")


def alcohol_units_for(points: int, count: int) -> int:
    """Units of alcohol that give `points` to `count` men at 20/count a unit: rounded up, since fewer would fall
    short. 20 points to 1,000 men: 1,000 units; to 9 men: 9."""
    return loss(Fraction(points * count, ALCOHOL_POINTS))


def alcohol(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """UAiiiiiiiiqqq: each unit gives 20 / (his troops and crew) points; one type of alcohol a month, at most 20
    points a month; an order worth more is cut to the units the 20 points need (RW-OQ-09), the rest kept. Troops
    of a Shia or Sunni persona gain nothing from alcohol (and none is expended)."""
    pid = persona["id"]
    kind = item_named(args.get("item"))
    stated = _qty(args)
    if kind not in CLASSES["alcohol"]:
        return fail(f"{args.get('item')!r} is not alcohol: wine, beer, ale or spirits")
    if stated <= 0:
        return fail("no alcohol stated")
    if str(persona.get("religion", "")).lower() in ISLAM:
        return fail("troops controlled by a Shia or Sunni persona receive no morale from alcohol")
    count = men(persona.get("assets") or {})
    if count == 0:
        return fail("he controls neither troops nor crew to give alcohol to")
    if _held(persona, kind) < stated:
        return fail(f"has only {_held(persona, kind):,} {kind}, cannot issue {stated:,}")
    given: dict[str, tuple[str, int]] = ctx.scratch.setdefault(_ALCOHOL, {})
    first, points_so_far = given.get(pid, (kind, 0))
    if first != kind:
        return fail(f"he has given his troops {first} this month: only one type of alcohol a turn")
    left = ALCOHOL_CAP - points_so_far
    if left <= 0:
        return fail(f"his troops have gained the {ALCOHOL_CAP} points alcohol may give in a month")
    units = min(stated, alcohol_units_for(left, count))
    points = min(left, gain(Fraction(units * ALCOHOL_POINTS, count)))
    take_asset(persona, kind, units)
    rise = add_rating(persona, "morale", points)
    given[pid] = (kind, points_so_far + points)
    cut = f" (of {stated:,} stated: the {ALCOHOL_CAP}-point limit needs no more)" if units < stated else ""
    return done(f"issued {units:,} {kind} to {count:,} troops and crew{cut}: morale +{rise}, now {persona['morale']}")


def bonus_city(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """UCllll: a Shia or Sunni persona puts his bonus city on file (MORALE: "They may change their 'bonus' city in
    any set of orders"); it gives the bonus only while he is sovereign over it (morale.islamic_sovereign_bonus)."""
    if str(persona.get("religion", "")).lower() not in ISLAM:
        return fail("only a Shia or Sunni persona has a bonus city")
    name = find_location(ctx.state, args.get("location"))
    if name is None:
        return fail(f"no location {args.get('location')!r}")
    persona["bonus_city"] = name
    location = ctx.state["locations"][name]
    note = "" if holds(ctx.state, location, "sovereign", persona["id"]) else \
        f" (it gives his troops their bonus only while he is sovereign of {name})"
    return done(f"bonus city now {name}{note}")
