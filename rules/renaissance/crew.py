"""Recruiting crew in ports (rules section NAVIGATION).

"Crew may be recruited only in ports. The first 0.1% of a port's population may be recruited for ten ducats
apiece. Each additional 0.1% of the population recruited for crew by the same persona in the same turn cost ten
ducats more per man than the preceding 0.1%, but no more than 1% of a port's population may be recruited per
turn per persona."
"""

from __future__ import annotations

from typing import Any

from .context import Ctx, Outcome, Persona, done, fail

PRICE_STEP = 10  # ducats a man in the first tenth of a percent, and the rise for each further tenth
TIERS = 10  # 1% of the population is ten tenths of a percent


def tier_size(population: int) -> int:
    """Men in 0.1% of a population, whole men (reading R1: a port under 1,000 souls yields no crew)."""
    return population // 1000


def crew_cost(population: int, already: int, men: int) -> int:
    """Ducats for `men` more crew from a port of `population`, when this persona recruited `already` there this
    turn: each man costs ten ducats times the tenth of a percent he falls in."""
    size = tier_size(population)
    return sum(PRICE_STEP * ((already + i) // size + 1) for i in range(men)) if size else 0


def recruit_crew(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    where = persona.get("location")
    loc = ctx.location(where) if not persona.get("at_sea") else None
    if loc is None or loc.get("harbor") is None:
        return fail("crew may be recruited only in ports")
    size = tier_size(int(loc["population"]))
    recruited: dict[tuple[str, str], int] = ctx.scratch.setdefault("crew_recruited", {})
    already = recruited.get((persona["id"], where), 0)
    room = size * TIERS - already
    if room <= 0:
        return fail(f"no more than 1% of {where}'s population ({size * TIERS:,}) may be recruited by one persona "
                    f"in a month")
    men = min(int(args["qty"]), room)
    cost = crew_cost(int(loc["population"]), already, men)
    assets = persona.setdefault("assets", {})
    if assets.get("ducats", 0) < cost:
        return fail(f"{men:,} crew cost {cost:,} ducats; he has {assets.get('ducats', 0):,}")
    assets["ducats"] -= cost
    assets["crew"] = assets.get("crew", 0) + men
    recruited[(persona["id"], where)] = already + men
    capped = f" (the 1% limit: {size * TIERS:,} a month)" if men < int(args["qty"]) else ""
    return done(f"recruited {men:,} crew at {where} for {cost:,} ducats{capped}")
