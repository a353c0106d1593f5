"""Taxes (SOVEREIGNS) and tithes (BISHOPS): the appointment of a collector for the next turn, and collection.

A collector's appointment is a `persona["collector"]` entry {kind: "tax" | "tithe", location, turn}. The readings
behind the numbers (rounding, the tithe's popularity, one collector per location) are in
docs/renaissance/offices.md.
"""

from __future__ import annotations

from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .items import DUCATS
from .loyalty import add_loyalty, allowed
from .offices import holder, holds
from .ratings import spend_popularity
from .setup import find_location

# kind -> (the office that authorizes it, the loyalty threshold's name, the collector's title)
_KINDS: dict[str, tuple[str, str, str]] = {
    "tax": ("sovereign", "taxes", "tax-collector"),
    "tithe": ("bishop", "tithes", "tithe-collector"),
}


def tax_yield(location: dict[str, Any]) -> tuple[int, int, int]:
    """(ducats, wealth lost, popularity and loyalty lost) of one tax collection. SOVEREIGNS: 1% of wealth times
    population; wealth -1% "but no less than one point"; popularity -population/1000 "no more than 100 points,
    and no less than one point". Fractions are dropped: the "no less than one point" floors only matter if
    fractions are dropped (ruling 1)."""
    wealth, population = location.get("wealth", 0), location.get("population", 0)
    return wealth * population // 100, max(1, wealth // 100), max(1, min(100, population // 1000))


def tithe_yield(location: dict[str, Any]) -> int:
    """BISHOPS: 1/1000 of wealth times population, fractions dropped."""
    return location.get("wealth", 0) * location.get("population", 0) // 1000


def _religion_of(ctx: Ctx, who: str | None, location: dict[str, Any]) -> str | None:
    """A persona's religion; for a non-player office holder, the location's (ruling 4)."""
    p = ctx.persona(who) if who else None
    return p.get("religion") if p is not None else location.get("religion")


def _appoint(ctx: Ctx, persona: Persona, args: dict[str, Any], kind: str) -> Outcome:
    office, _, title = _KINDS[kind]
    where = find_location(ctx.state, args.get("location"))
    if where is None:
        return fail(f"there is no location {args.get('location')!r}")
    loc = ctx.state["locations"][where]
    if not holds(ctx.state, loc, office, persona["id"]):
        return fail(f"only the {office} of {where} may appoint its {title}")
    if kind == "tithe" and persona.get("religion") != _religion_of(ctx, holder(loc, "sovereign"), loc):
        # THE ECCLESIASTICAL OFFICES: "To have tithe-collection powers, a bishop must be of the same religion
        # as the sovereign of the location where he wishes to have tithes collected."
        return fail(f"a bishop collects tithes at {where} only if of the same religion as its sovereign")
    appointee = ctx.persona(str(args.get("appointee", "")))
    if appointee is None or not appointee.get("alive", True):
        return fail(f"there is no persona {args.get('appointee')!r} to appoint")
    turn = ctx.turn + 1
    # "a tax-collector for that specific location": one per location and turn; a later order replaces him.
    for other in ctx.state["personae"].values():
        entries = other.get("collector") or []
        kept = [e for e in entries if (e["kind"], e["location"], e["turn"]) != (kind, where, turn)]
        if len(kept) != len(entries):
            other["collector"] = kept
    appointee.setdefault("collector", []).append({"kind": kind, "location": where, "turn": turn})
    return done(f"{appointee['id']} {appointee.get('name', '')} appointed {title} of {where} for next turn")


def appoint_tax_collector(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return _appoint(ctx, persona, args, "tax")


def appoint_tithe_collector(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    return _appoint(ctx, persona, args, "tithe")


def _appointment(ctx: Ctx, persona: Persona, kind: str) -> tuple[dict[str, Any] | None, str]:
    """The collector entry that lets this persona collect now, or (None, why not)."""
    title = _KINDS[kind][2]
    due = [e for e in persona.get("collector") or [] if e["kind"] == kind and e["turn"] == ctx.turn]
    if not due:
        return None, f"not appointed {title} for this turn"
    pid = persona["id"]
    start = ctx.start_location.get(pid)
    for entry in due:
        if entry["location"] == start and ctx.start_inside.get(pid):
            return entry, ""
    places = ", ".join(e["location"] for e in due)
    return None, f"a {title} collects only if he started the turn inside the location ({places})"


def collect_taxes(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    entry, why = _appointment(ctx, persona, "tax")
    if entry is None:
        return fail(why)
    where = entry["location"]
    loc = ctx.state["locations"][where]
    if not allowed(loc, "taxes"):
        return fail(f"loyalty at {where} is {loc.get('loyalty', 0)}: taxes may not be collected below 400")
    ducats, wealth_lost, points = tax_yield(loc)
    # POPULARITY's "declines ... when he collects taxes" is this same loss, not a second one (ruling 2).
    if not spend_popularity(persona, points):
        return fail(f"collecting taxes at {where} would cost {points} popularity, more than he has")
    persona["collector"].remove(entry)
    assets = persona.setdefault("assets", {})
    assets[DUCATS] = assets.get(DUCATS, 0) + ducats
    loc["wealth"] = max(0, loc.get("wealth", 0) - wealth_lost)
    add_loyalty(loc, -points)
    return done(f"collected {ducats} ducats of taxes at {where} (wealth -{wealth_lost}, popularity -{points}, "
                f"loyalty -{points})")


def collect_tithe(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    entry, why = _appointment(ctx, persona, "tithe")
    if entry is None:
        return fail(why)
    where = entry["location"]
    loc = ctx.state["locations"][where]
    if not allowed(loc, "tithes"):
        return fail(f"loyalty at {where} is {loc.get('loyalty', 0)}: tithes may not be collected below 100")
    ducats = tithe_yield(loc)
    persona["collector"].remove(entry)
    assets = persona.setdefault("assets", {})
    assets[DUCATS] = assets.get(DUCATS, 0) + ducats
    # BISHOPS: "no impact on popularity or loyalty" (ruling 3).
    loc["wealth"] = max(0, loc.get("wealth", 0) - 1)
    return done(f"collected {ducats} ducats of tithes at {where} (wealth -1)")


def expire_collectors(ctx: Ctx) -> None:
    """Appointments are for one turn: those for past turns lapse unused."""
    for persona in ctx.state["personae"].values():
        entries = persona.get("collector")
        if entries:
            persona["collector"] = [e for e in entries if e["turn"] >= ctx.turn]
