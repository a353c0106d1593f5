"""TRAVEL: movement by land (on foot, by ferry, by road), by water, aboard another persona's ship; the
carrying-capacity test, abandonment of excess cargo, movement attrition, drowning.

Readings of unclear rules are numbered in docs/renaissance/travel.md; the numbers appear below as (T<n>).

War along the way (BATTLE, SIEGE, CONFLICT ORDERS; war/interception.py decides, docs/renaissance/war.md RW-OQ-04, 05,
08): a move is met at each of its stops (where it starts, each waypoint, where it ends) by the forces ordered to
intercept it there, and a land move into besieged walls by the besieger; a fleet at a ferry's midpoint stops the
ferry. Every stop reached is noted as a passage (ctx.scratch["war.passages"]) and every entry into walls under
siege told to siege.py. A persona who fought may not move, and one who moved may not fight (ORDERS: "Conflict
orders take the place of movement orders").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from . import geography as geo
from . import ships as sh
from . import walls
from .context import Ctx, Outcome, Persona, done, fail
from .items import DUCATS, LIVESTOCK, SHIPS, TROOPS, WALKERS, cargo_weight
from .passengers import follow, kill, set_aboard
from .setup import find_location
from .war import interception, limits, siege

Assets = dict[str, int]

LAND_FREE_MILES = 200
LAND_TENTH_MILES = 300  # beyond the free distance, land movement this much further costs 10%
WATER_TENTH_MILES = 600
EXPOSURE_MILES = 1000  # land excess at which the persona himself is lost (T6)
OPEN_WATER_PENALTY = 600
FAST_FLEET_BONUS = 600
WINTER_PENALTY = 400
LOW_POPULARITY = 200
WATER_MILES_PER_POPULARITY_POINT = 3

# TRAVEL: land attrition reduces "all livestock, troops, crew and slaves".
LAND_ATTRITION_ITEMS = (*LIVESTOCK, *TROOPS, "crew", "slave")

# ctx.scratch keys other modules may read: "disembarked" is a set of persona ids who got off a ship this turn and
# may do nothing more; "abandon" the ids who ordered excess cargo abandoned before moving.
SCRATCH_DISEMBARKED = "disembarked"
SCRATCH_ABANDON = "abandon"
SCRATCH_OUTSIDE = "stay_outside"

Stop = tuple[str | None, geo.Point | None]  # a location's name, or a point of open water


# ---- attrition ---------------------------------------------------------------------------------------------

def attrition_rate(excess_miles: float, tenth_miles: float) -> float:
    """T1: rate = 10% × (2^(excess / tenth) − 1), capped at 100%. Exactly 10% at the rules' anchor (300 miles
    beyond on land, 600 at sea), nothing at or below the free distance, doubling-plus-a-bit for every further
    `tenth` miles ("geometrically greater the further")."""
    if excess_miles <= 0:
        return 0.0
    return min(1.0, 0.1 * (2 ** (excess_miles / tenth_miles) - 1))


def losses(count: int, rate: float) -> int:
    """ATTRITION: "always rounded up so as to maximize losses" (the tolerance keeps 30 × 10% at 3, not 4)."""
    if count <= 0 or rate <= 0:
        return 0
    return min(count, math.ceil(count * rate - 1e-9))


# ---- cargo -------------------------------------------------------------------------------------------------

def land_cargo(assets: Assets) -> int:
    """Cargo that must be carried on land: everything but walkers and ducats (ships at their overland weight)."""
    return sum(cargo_weight(item) * int(q) for item, q in assets.items()
               if q > 0 and item not in WALKERS and item != DUCATS)


def hauling_capacity(assets: Assets) -> Fraction:
    """Horses carry two cargo, slaves a quarter."""
    return 2 * int(assets.get("horse", 0)) + Fraction(int(assets.get("slave", 0)), 4)


def total_cargo(assets: Assets) -> int:
    """Every unit he takes along, walkers included: what a ferry charges for."""
    return sum(cargo_weight(item) * int(q) for item, q in assets.items() if q > 0)


def _land_excess(assets: Assets) -> Fraction:
    return land_cargo(assets) - hauling_capacity(assets)


def _water_excess(assets: Assets) -> Fraction:
    return Fraction(sh.cargo_at_sea(assets) - sh.capacity(assets))


def _drop(ctx: Ctx, assets: Assets, excess: Callable[[Assets], Fraction], weight: Callable[[str], int],
          eligible: Callable[[str], bool]) -> dict[str, int]:
    """Random abandonment (or loss) until the excess is gone. Each draw picks an item with odds by the cargo it
    makes up and sheds just enough of it (or all of it): the rules forbid choosing, so chance picks what goes,
    and only items that weigh count (dropping a horse or a slave would not help on land)."""
    lost: dict[str, int] = {}
    while (over := excess(assets)) > 0:
        items = sorted(i for i, q in assets.items() if q > 0 and eligible(i) and weight(i) > 0)
        if not items:
            break
        item = ctx.rng.choices(items, weights=[weight(i) * assets[i] for i in items])[0]
        k = min(assets[item], math.ceil(over / weight(item)))
        assets[item] -= k
        lost[item] = lost.get(item, 0) + k
    return lost


def drop_land(ctx: Ctx, assets: Assets) -> dict[str, int]:
    return _drop(ctx, assets, _land_excess, cargo_weight, lambda i: i not in WALKERS and i != DUCATS)


def drop_water(ctx: Ctx, assets: Assets) -> dict[str, int]:
    return _drop(ctx, assets, _water_excess, lambda i: cargo_weight(i, overland=False),
                 lambda i: i not in SHIPS and i != DUCATS)


def whole_miles(miles: float) -> int:
    """T11: a trip is measured in whole statute miles, rounded half up, so that a persona whose co-ordinates put him
    200.0000001 miles away is not charged attrition for a rounding error (set-up co-ordinates are given to about a
    mile anyway)."""
    return math.floor(miles + 0.5)


def _describe(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {item}" for item, n in sorted(counts.items()) if n) or "nothing"


# ---- distances -------------------------------------------------------------------------------------------------

def land_free_miles(persona: Persona) -> int:
    """200 miles; below 200 popularity, as many miles as popularity points."""
    return min(LAND_FREE_MILES, max(0, int(persona.get("popularity", 0))))


def water_free_miles(persona: Persona, assets: Assets, open_water: bool, summer: bool) -> tuple[float, str]:
    """The five modifications of TRAVEL, in the order: effective rating (manning, T4), popularity, open water,
    fast fleet, winter. Never below zero. Returns the miles and how they were reached, for the printout."""
    nav = int((persona.get("skills") or {}).get("navigation", 0))
    manned = sh.manning(assets)
    miles = nav * manned
    why = [f"navigation {nav}"]
    if manned < 1:
        why.append(f"× {manned:.0%} manned")
    pop = int(persona.get("popularity", 0))
    if pop < LOW_POPULARITY:
        cut = WATER_MILES_PER_POPULARITY_POINT * (LOW_POPULARITY - pop)
        miles -= cut
        why.append(f"− {cut} (popularity {pop})")
    if open_water:
        miles -= OPEN_WATER_PENALTY
        why.append(f"− {OPEN_WATER_PENALTY} (open water)")
    if sh.only_fast_sailers(assets):
        miles += FAST_FLEET_BONUS
        why.append(f"+ {FAST_FLEET_BONUS} (caravels and roundships only)")
    if not summer:
        miles -= WINTER_PENALTY
        why.append(f"− {WINTER_PENALTY} (non-summer sailing)")
    miles = max(0.0, miles)
    return miles, " ".join(why) + f" = {miles:.0f}"


# ---- where personae are --------------------------------------------------------------------------------------

def has_ingress(ctx: Ctx, location: str, family: str) -> bool:
    """Ingress is the right to enter: the family is on the location's ingress list (ingress.py)."""
    return walls.has_ingress(ctx.location(location), family)


def _arrive(ctx: Ctx, persona: Persona, location: str | None, point: geo.Point | None, by: str) -> None:
    if location is not None:
        persona["location"] = location
        persona["at_sea"] = None
        persona["inside"] = _enters(ctx, persona, location)
        if persona["inside"]:
            _entered(ctx, location, by)
    else:
        assert point is not None
        persona["location"] = None
        persona["at_sea"] = {"lat": point[0], "lon": point[1]}
        persona["inside"] = False
    follow(ctx, persona)


def _entered(ctx: Ctx, location: str, by: str) -> None:
    """SIEGE: an entry into walls spares the location this month's siege attrition (siege.py keeps the record);
    only a location with a siege on file has one to spare."""
    if (ctx.location(location) or {}).get("siege"):
        siege.note_entry(ctx, location, by)


def _halt(ctx: Ctx, persona: Persona, location: str | None, point: geo.Point | None) -> None:
    """He stands at a stop of his move, outside the walls: where interceptors meet him ("ceases movement at the
    point of the encounter")."""
    persona["location"] = location
    persona["at_sea"] = None if location is not None or point is None else {"lat": point[0], "lon": point[1]}
    persona["inside"] = False
    follow(ctx, persona)


def _encounter(ctx: Ctx, persona: Persona, stops: list[Stop], by: str, enters: bool) -> int | None:
    """The war along the route: at each stop in turn (noted as a passage), the forces that intercept him there
    (and, at the last, the besieger of the walls he enters by land). Returns the index of the stop where he
    ceased movement, or None when he goes on to the end (no one there, or all outnumbered twenty to one)."""
    last = len(stops) - 1
    for i, (name, point) in enumerate(stops):
        if name is not None and by == "water":
            # NAVAL BOMBARDMENT fires at ships "passing through" its water: a fleet sailing, not one carried
            # overland (TRAVEL: "Ships are cargo only during land movement").
            interception.note_passage(ctx, name, persona["id"])
        found = interception.interceptors(ctx, persona, name, point, by=by, entering=enters and i == last)
        if not found:
            continue
        _halt(ctx, persona, name, point)
        if interception.meet(ctx, persona, found, name, point):
            return i
    return None


def _stopped_text(stops: list[Stop], i: int) -> str:
    name, point = stops[i]
    where = name or (f"{point[0]:+.2f} {point[1]:+.2f}" if point else "open water")
    return f"intercepted at {where}, where he ceases movement"


def _enters(ctx: Ctx, persona: Persona, location: str) -> bool:
    """INGRESS: "Unless their movement orders expressly state otherwise, personae whose families have ingress to a
    location automatically enter that location's walls when moving to the location" (T21: MO states otherwise)."""
    if persona["id"] in ctx.scratch.get(SCRATCH_OUTSIDE, ()):
        return False
    return has_ingress(ctx, location, persona["family"])


def _where(persona: Persona) -> tuple[str | None, geo.Point | None]:
    sea = persona.get("at_sea")
    if persona.get("location") is None and sea:
        return None, (float(sea["lat"]), float(sea["lon"]))
    return persona.get("location"), None


def _stranded_outside(ctx: Ctx, persona: Persona) -> str:
    """Failing the carrying-capacity test: "ending the turn in the area immediately outside the location where
    he started the turn". A persona who started at sea stays where he is."""
    start = ctx.start_location.get(persona["id"], persona.get("location"))
    if start is not None:
        persona["location"] = start
        persona["at_sea"] = None
        persona["inside"] = False
        follow(ctx, persona)
        return f"he ends the month outside {start}"
    return "he stays where he is"


def _denied_egress(ctx: Ctx, persona: Persona) -> str | None:
    """T8: a family denied egress leaves the walls only by urban battle, so no movement order takes him out."""
    loc = ctx.location(persona.get("location"))
    if loc and persona.get("inside") and persona["family"] in (loc.get("egress_denied") or ()):
        return f"the {persona['family']} family is denied egress from {persona['location']}"
    return None


def _mobile_assets(persona: Persona) -> bool:
    return any(q > 0 for q in (persona.get("assets") or {}).values())


# ---- orders ------------------------------------------------------------------------------------------------

def abandon(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    ctx.scratch.setdefault(SCRATCH_ABANDON, set()).add(persona["id"])
    return done("excess cargo, ships included, will be abandoned if his movement this month needs it")


def stay_outside(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """MO: the month's move ends outside the walls even where his family has ingress (T21). Phase OTHER runs
    before movement, wherever it is written."""
    ctx.scratch.setdefault(SCRATCH_OUTSIDE, set()).add(persona["id"])
    return done("he will stay outside the walls wherever his movement this month ends")


def permit_boarding(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """Permission given this month lets the passenger board next month (T10). Only the first permission a
    persona receives in a month counts; later ones are void."""
    pid = str(args.get("passenger", ""))
    passenger = ctx.persona(pid)
    if passenger is None or not passenger.get("alive", True):
        return fail(f"there is no living persona {pid}")
    if pid == persona["id"]:
        return fail("he needs no permission to board his own ships")
    held = passenger.get("boarding_permission")
    if held and held.get("turn") == ctx.turn:
        return fail(f"{pid} already received boarding permission from {held['owner']} this month; "
                    "only the first permission counts")
    passenger["boarding_permission"] = {"owner": persona["id"], "turn": ctx.turn}
    granted = [p for p in persona.get("boarding_permits") or []
               if (ctx.persona(p) or {}).get("boarding_permission", {}).get("owner") == persona["id"] and p != pid]
    persona["boarding_permits"] = [*granted, pid]
    return done(f"{pid} may board his ships next month")


def move(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    mode = args.get("mode")
    if limits.has_fought(ctx, persona["id"]):
        return fail("he executed battle orders this month: conflict orders take the place of movement orders "
                    "(ORDERS), so one who fought does not move")
    if (why := limits.pinned(ctx, persona["id"])) is not None:
        return fail(f"he may not move this month: {why}")
    # "A persona may move by land or by water each turn, but ... not by both": one movement order (T2).
    if not ctx.once("move", persona["id"]):
        return fail("he has already moved this month; a persona moves once per turn")
    interception.note_move(ctx, persona["id"])
    if persona.get("with"):
        if mode != "disembark":
            return fail(f"he is aboard {persona['with']}'s ship; his only movement can be to disembark")
        return _disembark(ctx, persona)
    if mode == "disembark":
        return fail("he is not aboard anyone's ship")
    if mode == "inside":
        return _inside(ctx, persona)
    if mode not in ("land", "ferry", "road", "water"):
        return fail(f"unknown movement {mode!r}")
    if mode == "water" and not sh.fleet(persona.get("assets") or {}) and not _mobile_assets(persona):
        return _board(ctx, persona)
    if why := _denied_egress(ctx, persona):
        return fail(why)
    if mode == "water":
        return _water(ctx, persona, args)
    return _land(ctx, persona, args, mode)


def _inside(ctx: Ctx, persona: Persona) -> Outcome:
    """ "Inside" as the destination: into the walls of his starting location, no carrying-capacity test."""
    here = persona.get("location")
    if here is None:
        return fail("he is at sea, not at a location")
    if persona.get("inside"):
        return done(f"already inside {here}")
    if not has_ingress(ctx, here, persona["family"]):
        return fail(f"the {persona['family']} family has no ingress to {here}")
    stops: list[Stop] = [(here, None)]
    if _encounter(ctx, persona, stops, siege.LAND, enters=True) is not None:
        return done(f"{_stopped_text(stops, 0)}, outside the walls of {here}")
    persona["inside"] = True
    _entered(ctx, here, siege.LAND)
    follow(ctx, persona)
    return done(f"moved inside {here}")


def _board(ctx: Ctx, persona: Persona) -> Outcome:
    """A persona with no mobile assets who orders a water move boards the ship of whoever gave him (the first)
    permission last month, if that owner is where he is (T9, T10)."""
    held = persona.get("boarding_permission")
    if not held or held.get("turn") != ctx.turn - 1:
        return fail("he has no ships, and no permission to board anyone's received last month")
    owner = ctx.persona(held["owner"])
    if owner is None or not owner.get("alive", True):
        return fail(f"{held['owner']}, who let him board, is not alive")
    if not sh.fleet(owner.get("assets") or {}):
        return fail(f"{owner['id']} has no ship to board")
    if owner.get("with"):
        return fail(f"{owner['id']} is himself a passenger")
    if _where(owner) != _where(persona):
        return fail(f"{owner['id']} is not where he is")
    set_aboard(ctx, persona, owner["id"])
    follow(ctx, owner)
    here = owner.get("location") or "open water"
    return done(f"boarded {owner['id']}'s ship at {here}; he goes wherever {owner['id']} goes")


def _disembark(ctx: Ctx, persona: Persona) -> Outcome:
    owner = ctx.persona(persona["with"])
    place = owner.get("location") if owner else persona.get("location")
    if place is None:
        return fail("the ship is in open water")
    set_aboard(ctx, persona, None)
    persona["location"] = place
    persona["at_sea"] = None
    persona["inside"] = _enters(ctx, persona, place)
    if persona["inside"]:
        _entered(ctx, place, siege.WATER)
    ctx.scratch.setdefault(SCRATCH_DISEMBARKED, set()).add(persona["id"])
    return done(f"disembarked at {place}")


def _resolve_via(ctx: Ctx, via: list[str] | None) -> tuple[list[str], str | None]:
    out = []
    for w in via or []:
        name = find_location(ctx.state, w)
        if name is None:
            return [], f"no location {w!r} has been set up"
        out.append(name)
    return out, None


def _ferry_route(ctx: Ctx, start: str, dest: str, via: list[str]) -> tuple[list[str], int, str | None]:
    """The route and the index of its ferry leg. T3: with waypoints, legs are as written and exactly one leg
    crosses water by ferry; without, the shortest route with the ferry first or last."""
    st = ctx.state
    if via:
        route = [start, *via, dest]
        legs = list(zip(route, route[1:], strict=False))
        must = [i for i, (a, b) in enumerate(legs) if not geo.same_landmass(st, a, b)]
        if len(must) > 1:
            return route, -1, "a persona may not use more than one ferry per turn"
        ferry = must[0] if must else next((i for i, (a, b) in enumerate(legs) if geo.ferry_between(st, a, b)), -1)
        if ferry < 0 or not geo.ferry_between(st, *legs[ferry]):
            a, b = legs[ferry] if ferry >= 0 else (start, dest)
            return route, -1, f"no ferry runs between {a} and {b}"
        for i, (a, b) in enumerate(legs):
            if i != ferry and not geo.same_landmass(st, a, b):
                return route, -1, f"no land route from {a} to {b}"
        if not (geo.is_ferry_point(st, start) or geo.is_ferry_point(st, dest)):
            return route, -1, "to use a ferry he must begin, or end, his movement at a ferry point"
        return route, ferry, None
    if geo.ferry_between(st, start, dest):
        return [start, dest], 0, None
    options: list[tuple[float, list[str], int]] = []
    for f in geo.ferry_points(st, start):
        if geo.same_landmass(st, f, dest):
            options.append((geo.route_miles([geo.point_of(st, x) for x in (start, f, dest)]), [start, f, dest], 0))
    for f in geo.ferry_points(st, dest):
        if geo.same_landmass(st, start, f):
            options.append((geo.route_miles([geo.point_of(st, x) for x in (start, f, dest)]), [start, f, dest], 1))
    if not options:
        return [], -1, f"no single ferry joins {start} and {dest} with a ferry point at either end"
    _miles, route, ferry = min(options, key=lambda o: (o[0], o[1]))
    return route, ferry, None


def _land(ctx: Ctx, persona: Persona, args: dict[str, Any], mode: str) -> Outcome:
    st = ctx.state
    start = persona.get("location")
    if start is None:
        return fail("he is at sea: he can move only by water")
    dest = find_location(st, args.get("to"))
    if dest is None:
        return fail(f"no location {args.get('to')!r} has been set up")
    via, err = _resolve_via(ctx, args.get("via"))
    if err:
        return fail(err)
    assets: Assets = persona.setdefault("assets", {})
    ferry = -1
    if mode == "road":
        if via:
            return fail("road movement may not be combined with other movement: one road, no waypoints")
        if geo.road_miles(st, start, dest) is None:
            return fail(f"no road has been built between {start} and {dest}")
        route, how = [start, dest], f"by road from {start} to {dest}"
    elif mode == "ferry":
        route, ferry, err = _ferry_route(ctx, start, dest, via)
        if err:
            return fail(err)
        landing = route[ferry + 1]
        if not has_ingress(ctx, landing, persona["family"]):
            return fail(f"the ferry will not carry him to {landing}: its de facto controller denies the "
                        f"{persona['family']} family ingress")
        if (fleet := interception.ferry_blockade(ctx, route[ferry], landing)) is not None:
            return fail(f"the ferry between {route[ferry]} and {landing} does not run: the fleet of "
                        f"{fleet['name']} lies at its midpoint and stops all traffic (CONFLICT ORDERS)")
        how = f"by land and ferry ({route[ferry]}–{landing}) via {' – '.join(route)}"
    else:
        route = [start, *via, dest]
        for a, b in zip(route, route[1:], strict=False):
            if not geo.same_landmass(st, a, b):
                return fail(f"no land route from {a} to {b} (different land masses; a ferry must be ordered)")
        how = f"by land from {start} to {dest}" + (f" via {', '.join(via)}" if via else "")

    notes: list[str] = []
    if _land_excess(assets) > 0:
        if persona["id"] not in ctx.scratch.get(SCRATCH_ABANDON, ()):
            need, cap = land_cargo(assets), hauling_capacity(assets)
            where = _stranded_outside(ctx, persona)
            return fail(f"cargo {need} exceeds his hauling capacity {float(cap):g}; {where}")
        notes.append(f"abandoned {_describe(drop_land(ctx, assets))}")
    fee = 0
    if mode == "ferry":
        # T5: 1/100 ducat per cargo unit, rounded up to whole ducats, at least one.
        fee = max(1, math.ceil(Fraction(total_cargo(assets), 100)))
        if assets.get(DUCATS, 0) < fee:
            return fail(f"the ferry costs {fee} ducats and he has {assets.get(DUCATS, 0)}")

    stops: list[Stop] = [(name, None) for name in route]
    stop = _encounter(ctx, persona, stops, siege.LAND, enters=_enters(ctx, persona, dest))
    travelled = route if stop is None else route[: stop + 1]
    if stop is not None:
        notes.append(_stopped_text(stops, stop))
    if not persona.get("alive", True):
        return done("; ".join([f"set out {how}", *notes, "he was killed in battle"]))
    if mode == "ferry" and len(travelled) > ferry + 1:
        assets[DUCATS] -= fee
        notes.append(f"ferry fee {fee} ducats")
    miles = _land_miles(st, mode, travelled)
    free = land_free_miles(persona)  # a road's effective miles count against the same allowance
    excess = miles - free
    rate = attrition_rate(excess, LAND_TENTH_MILES)
    text = f"moved {how}, {miles} miles (attrition-free {free})"
    if rate > 0:
        lost = {item: losses(int(assets.get(item, 0)), rate) for item in LAND_ATTRITION_ITEMS}
        for item, n in lost.items():
            if n:
                assets[item] -= n
        notes.append(f"attrition {rate:.1%}: lost {_describe(lost)}")
        if _land_excess(assets) > 0:
            notes.append(f"cargo the survivors cannot carry lost: {_describe(drop_land(ctx, assets))}")
    if stop is None:
        _arrive(ctx, persona, dest, None, siege.LAND)
    if excess >= EXPOSURE_MILES:
        kill(ctx, persona, f"died of exposure on the way to {travelled[-1]}")
        notes.append(f"{persona['name']} died of exposure, {excess:.0f} miles beyond his attrition-free distance")
    return done("; ".join([text, *notes]))


def _land_miles(st: dict[str, Any], mode: str, travelled: list[str]) -> int:
    """The miles of the route as far as he went (a road is one leg, at its effective miles)."""
    if len(travelled) < 2:
        return 0
    if mode == "road":
        road = geo.road_miles(st, travelled[0], travelled[1])
        return whole_miles(road or 0.0)
    return whole_miles(geo.route_miles([geo.point_of(st, x) for x in travelled]))


def _water_stops(ctx: Ctx, start: str | None, start_point: geo.Point, via: list[str],
                 dest: str | None, dest_point: geo.Point) -> list[Stop] | str:
    """Where a voyage starts, each waypoint (a port or a point of open water), where it ends."""
    stops: list[Stop] = [(start, None) if start is not None else (None, start_point)]
    for w in via:
        name = find_location(ctx.state, w)
        point = None if name else geo.parse_point(w)
        if name is None and point is None:
            return f"waypoint {w!r} is neither a location nor a latitude and longitude"
        stops.append((name, point))
    stops.append((dest, None) if dest is not None else (None, dest_point))
    return stops


def _point_of_stop(st: dict[str, Any], stop: Stop) -> geo.Point:
    name, point = stop
    if name is not None:
        return geo.point_of(st, name)
    assert point is not None
    return point


def _water(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    st = ctx.state
    assets: Assets = persona.setdefault("assets", {})
    if not sh.fleet(assets):
        return fail("he has no ships (only a persona with no mobile assets at all may board another's ship)")
    start, start_point = _where(persona)
    if start is not None:
        if not geo.is_port(st, start):
            return fail(f"{start} is not a port")
        start_point = geo.point_of(st, start)
    assert start_point is not None
    dest: str | None = None
    if args.get("lat") is not None and args.get("lon") is not None:
        dest_point: geo.Point = (float(args["lat"]), float(args["lon"]))
        if not (-90 <= dest_point[0] <= 90 and -180 <= dest_point[1] <= 180):
            return fail("latitude or longitude out of range")
    else:
        dest = find_location(st, args.get("to"))
        if dest is None:
            return fail(f"no location {args.get('to')!r} has been set up")
        if not geo.is_port(st, dest):
            return fail(f"{dest} is not a port")
        dest_point = geo.point_of(st, dest)
    stops = _water_stops(ctx, start, start_point, list(args.get("via") or []), dest, dest_point)
    if isinstance(stops, str):
        return fail(stops)

    notes: list[str] = []
    if _water_excess(assets) > 0:
        if persona["id"] not in ctx.scratch.get(SCRATCH_ABANDON, ()):
            need, cap = sh.cargo_at_sea(assets), sh.capacity(assets)
            where = _stranded_outside(ctx, persona)
            return fail(f"cargo {need} exceeds his ships' capacity {cap}; {where}")
        notes.append(f"abandoned {_describe(drop_water(ctx, assets))}")
    if dest is not None:
        depth = st["locations"][dest].get("harbor")
        if not sh.may_enter(depth, assets):
            return fail(f"his fleet needs {sh.draft(assets):.1f} feet of water and the harbor of {dest} is "
                        f"{depth} feet deep")

    target = dest or f"{dest_point[0]:+.2f} {dest_point[1]:+.2f}"
    stop = _encounter(ctx, persona, stops, siege.WATER, enters=False)
    if stop is not None:
        notes.append(_stopped_text(stops, stop))
        stops = stops[: stop + 1]
    if not persona.get("alive", True):
        return done("; ".join([f"set sail from {start or 'open water'} to {target}", *notes,
                               "he was killed in battle"]))
    end, end_point = stops[-1]
    points = [_point_of_stop(st, x) for x in stops]
    miles = whole_miles(geo.route_miles(points))
    open_water = start is None or end is None
    free, why = water_free_miles(persona, assets, open_water, geo.summer_route(points, ctx.month))
    rate = attrition_rate(miles - free, WATER_TENTH_MILES)
    text = f"sailed from {start or 'open water'} to {target}, {miles} miles (attrition-free {why})"
    landed = _point_of_stop(st, stops[-1])
    if rate > 0:
        sunk = {s: losses(n, rate) for s, n in sh.fleet(assets).items()}
        for s, n in sunk.items():
            assets[s] -= n
        notes.append(f"attrition {rate:.1%}: lost {_describe(sunk)}")
        if not sh.fleet(assets):
            # T7: drowned with his last ship; what it carried goes down too.
            persona["assets"] = {}
            _finish_voyage(ctx, persona, end, landed, stopped=stop is not None)
            dead = kill(ctx, persona, f"drowned sailing to {target}")
            notes.append("he lost his last ship and drowned" + (f", with {', '.join(dead[1:])}" if dead[1:] else ""))
            return done("; ".join([text, *notes]))
        if _water_excess(assets) > 0:
            notes.append(f"cargo the remaining ships cannot carry lost: {_describe(drop_water(ctx, assets))}")
    _finish_voyage(ctx, persona, end, landed, stopped=stop is not None)
    return done("; ".join([text, *notes]))


def _finish_voyage(ctx: Ctx, persona: Persona, end: str | None, point: geo.Point, *, stopped: bool) -> None:
    """Where a voyage ends: at its destination (inside the walls where his family has ingress), or, intercepted,
    where the encounter was, outside any walls."""
    if stopped:
        _halt(ctx, persona, end, None if end is not None else point)
    else:
        _arrive(ctx, persona, end, point, siege.WATER)


# ---- end of turn -------------------------------------------------------------------------------------------

def passengers_follow_their_ship(ctx: Ctx) -> None:
    """A living owner's passengers end the month where his ship is (T9). Passengers of an owner who died this
    month are not touched here: succession (a later step, registry.MONTH) kills them ("his passengers all die with
    him")."""
    for _pid, p in sorted(ctx.state["personae"].items()):
        owner = ctx.persona(p.get("with") or "")
        if owner is None or not p.get("alive", True) or not owner.get("alive", True):
            continue
        p["location"] = owner.get("location")
        p["at_sea"] = dict(owner["at_sea"]) if owner.get("at_sea") else None
        p["inside"] = bool(owner.get("inside"))
