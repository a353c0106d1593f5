"""LOYALTY: its thresholds and holding court. (The access orders of TENANTS and INGRESS are ingress.py's.)"""

from __future__ import annotations

import math
from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .offices import holds

# LOYALTY: "When loyalty is less than 400, taxes may not be collected. When it is below 300, feudal levies may
# not be raised. When it is below 200, garrison troops may not be recruited. When it is below 100, tithes may
# not be collected."
THRESHOLDS: dict[str, int] = {"taxes": 400, "feudal_levy": 300, "garrison": 200, "tithes": 100}

# Loyalty is a rating like the personae's: kept within 0..999 (ruling 9 in docs/renaissance/offices.md).
LOYALTY_MAX = 999


def allowed(location: dict[str, Any], what: str) -> bool:
    """May `what` ("taxes", "feudal_levy", "garrison", "tithes") be done at this location's loyalty?"""
    return location.get("loyalty", 0) >= THRESHOLDS[what]


def add_loyalty(location: dict[str, Any], delta: float) -> int:
    """Change a location's loyalty within 0..999, fractions dropped; returns the change actually made."""
    old = location.get("loyalty", 0)
    location["loyalty"] = max(0, min(LOYALTY_MAX, int(old + delta)))
    return location["loyalty"] - old


def hold_court(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    where = ctx.start_location.get(pid)
    loc = ctx.location(where)
    if loc is None or not holds(ctx.state, loc, "sovereign", pid):
        return fail("a sovereign holds court only at a location of his that he started the turn at")
    # Holding court twice in one turn would double the rise the rules give for "holding court".
    if not ctx.once("loyalty.hold_court", where):
        return fail(f"court has already been held at {where} this turn")
    # sqrt rounded down: a rating is a whole number and add_rating drops fractions the same way.
    gain = add_loyalty(loc, math.isqrt(max(0, persona.get("popularity", 0))))
    return done(f"held court at {where}: loyalty +{gain}, now {loc['loyalty']}")
