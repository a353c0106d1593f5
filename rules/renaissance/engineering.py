"""TRAVEL's roadbuilding paragraph, Appendix A ENGINEERING and HARBORS: building and lengthening roads,
deepening harbors. "A given persona may execute only one engineering order per turn" (all three kinds, S40).
Readings of the text are numbered in docs/renaissance/skills.md."""

from __future__ import annotations

from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .geography import miles_between, road_key, same_landmass
from .ratings import add_skill
from .setup import find_location

ROAD_DUCATS = 200_000
ROAD_AUXILIARIES = 1_000
ROAD_FLOOR = 0.5  # "No such distance may be reduced to less than 50% of its original distance."
HARBOR_MEN = 20_000
HARBOR_MIN_DEPTH = 2
HARBOR_SKILL_PER_FOOT = 66


def _engineering(persona: Persona) -> int:
    return int(persona.get("skills", {}).get("engineering", 0))


def _here(persona: Persona) -> str | None:
    return None if persona.get("at_sea") else persona.get("location")


def _engineered(ctx: Ctx, pid: str) -> bool:
    return bool(ctx.scratch.get("engineering.done", {}).get(pid))


def _mark(ctx: Ctx, pid: str) -> None:
    ctx.scratch.setdefault("engineering.done", {})[pid] = True


def _who(persona: Persona) -> str:
    return f"{persona['name']} ({persona['id']})"


def _road_ends(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> tuple[str, str] | str:
    """(here, there) for a road order, or why not."""
    here = _here(persona)
    if here is None or ctx.location(here) is None:
        return "roads are built from a location, not at sea"
    there = find_location(ctx.state, str(args.get("to", "")))
    if there is None:
        return f"there is no location {args.get('to')!r}"
    if there == here:
        return "a road joins two different locations"
    if not same_landmass(ctx.state, here, there):
        return f"{there} is not on the same land mass as {here}"
    return here, there


def _afford(persona: Persona) -> str | None:
    assets = persona.get("assets", {})
    if int(assets.get("ducats", 0)) < ROAD_DUCATS:
        return f"road work costs {ROAD_DUCATS:,} ducats; he has {int(assets.get('ducats', 0)):,}"
    if int(assets.get("auxiliary", 0)) < ROAD_AUXILIARIES:
        return f"road work expends {ROAD_AUXILIARIES:,} auxiliaries; he has {int(assets.get('auxiliary', 0)):,}"
    return None


def _road_order(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> tuple[str, str, int] | str:
    """What building and lengthening a road both ask first: his one engineering order this turn, the two ends,
    and some skill. The ends and his rating, or why not."""
    if _engineered(ctx, persona["id"]):
        return "he has already executed an engineering order this turn"
    ends = _road_ends(ctx, persona, args)
    if isinstance(ends, str):
        return ends
    rating = _engineering(persona)
    if rating <= 0:
        return "he has no skill in engineering"
    return ends[0], ends[1], rating


def _pay_road(persona: Persona) -> None:
    assets = persona["assets"]
    assets["ducats"] = int(assets["ducats"]) - ROAD_DUCATS
    assets["auxiliary"] = int(assets["auxiliary"]) - ROAD_AUXILIARIES


def build_road(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    order = _road_order(ctx, persona, args)
    if isinstance(order, str):
        return fail(order)
    here, there, rating = order
    original = miles_between(ctx.state, here, there)
    roads = ctx.state.setdefault("roads", {})
    key = road_key(here, there)
    effective = float(roads.get(key, original))
    floor = original * ROAD_FLOOR
    if effective <= floor + 0.005:
        return fail(f"the road {here}-{there} is already at half its original {original:.2f} miles")
    why = _afford(persona)
    if why:
        return fail(why)
    _pay_road(persona)
    # One percent of the rating in miles, kept to hundredths (S41).
    new = round(max(effective - rating / 100, floor), 2)
    roads[key] = new
    gained = add_skill(persona, "engineering", 1)
    _mark(ctx, pid)
    ctx.publish(f"{_who(persona)} built a road between {here} and {there}: now {new:.2f} miles "
                f"(originally {original:.2f}).")
    return done(f"built a road between {here} and {there}: {effective:.2f} -> {new:.2f} miles; engineering "
                f"+{gained}")


def lengthen_road(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    order = _road_order(ctx, persona, args)
    if isinstance(order, str):
        return fail(order)
    here, there, rating = order
    roads = ctx.state.setdefault("roads", {})
    key = road_key(here, there)
    if key not in roads:
        return fail(f"there is no road between {here} and {there}")
    why = _afford(persona)
    if why:
        return fail(why)
    original = miles_between(ctx.state, here, there)
    effective = float(roads[key])
    _pay_road(persona)
    new = round(min(effective + rating / 200, original), 2)  # one-half of one percent of the rating
    if new >= round(original, 2):
        # Back at the original distance: no longer reduced, so no longer a road (TRAVEL) (S42).
        del roads[key]
        text = f"lengthened the road between {here} and {there} back to its original {original:.2f} miles: it is gone"
    else:
        roads[key] = new
        text = f"lengthened the road between {here} and {there}: {effective:.2f} -> {new:.2f} miles"
    _mark(ctx, pid)
    ctx.publish(f"{_who(persona)} {text}.")
    return done(text)


def harbor_cost(depth: int, engineering: int) -> int:
    """HARBORS: (port depth x 100,000) + 300,000 - (engineering skill x 500)."""
    return depth * 100_000 + 300_000 - engineering * 500


def deepen_harbor(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    if _engineered(ctx, pid):
        return fail("he has already executed an engineering order this turn")
    here = _here(persona)
    location = ctx.location(here)
    if location is None or location.get("harbor") is None:
        return fail("he is not at a port")
    deepened = ctx.state.setdefault("harbor_deepened", {})
    already = deepened.get(here) == ctx.turn
    # A second order the same turn is judged by the depth the month started with (S43).
    depth = int(location["harbor"]) - (1 if already else 0)
    if depth < HARBOR_MIN_DEPTH:
        return fail(f"the harbor of {here} is {depth} ft deep; only harbors at least {HARBOR_MIN_DEPTH} ft deep "
                    f"may be deepened")
    rating = _engineering(persona)
    if rating < HARBOR_SKILL_PER_FOOT * depth:
        return fail(f"a {depth} ft harbor needs an engineering rating of {HARBOR_SKILL_PER_FOOT * depth}; "
                    f"he has {rating}")
    assets = persona.setdefault("assets", {})
    slaves, auxiliaries = int(assets.get("slave", 0)), int(assets.get("auxiliary", 0))
    if slaves + auxiliaries < HARBOR_MEN:
        return fail(f"deepening expends {HARBOR_MEN:,} slaves or auxiliaries; he has {slaves + auxiliaries:,}")
    cost = harbor_cost(depth, rating)
    if int(assets.get("ducats", 0)) < cost:
        return fail(f"deepening the {depth} ft harbor of {here} costs him {cost:,} ducats; he has "
                    f"{int(assets.get('ducats', 0)):,}")
    # "The computer will subtract slaves before auxiliaries."
    from_slaves = min(slaves, HARBOR_MEN)
    assets["slave"] = slaves - from_slaves
    assets["auxiliary"] = auxiliaries - (HARBOR_MEN - from_slaves)
    assets["ducats"] = int(assets["ducats"]) - cost
    _mark(ctx, pid)
    spent = f"{from_slaves:,} slaves, {HARBOR_MEN - from_slaves:,} auxiliaries and {cost:,} ducats"
    if already:
        return done(f"spent {spent} on the harbor of {here}, already deepened this month: the net deepening is "
                    f"one foot")
    location["harbor"] = depth + 1
    deepened[here] = ctx.turn
    gained = add_skill(persona, "engineering", 1)
    ctx.publish(f"{_who(persona)} deepened the harbor of {here} to {depth + 1} ft.")
    return done(f"deepened the harbor of {here} from {depth} to {depth + 1} ft for {spent}; engineering +{gained}")
