"""COLONIES: planting troops, crew or slaves in a location that "may be colonized"; the survivors of a turn."""

from __future__ import annotations

from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .items import TROOPS, item_by_code
from .war.morale import settle

SURVIVORS_PER_TURN = 100  # "Up to 100 colonists may be added to such a location's population each turn."
POPULATION_CAP = 5000  # "Colonies may not have their population increased beyond 5000 through colonization."
RELIGIONS = ("catholic", "orthodox")  # "Only Catholic, or Orthodox, personae may engage in colonization."
# A generic "troops" order takes troop types in this order, the least valuable first (ruling 12).
_GENERIC_TROOPS = tuple(reversed(TROOPS))


def _item(written: str) -> str | None:
    """"troops" (any troop type), a troop type, crew or slaves; None for anything else."""
    w = written.lower().replace(" ", "")
    if w in ("troops", "troop"):
        return "troops"
    item = item_by_code(w)
    return item if item in (*TROOPS, "crew", "slave") else None


def colonize(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    if persona.get("religion") not in RELIGIONS:
        return fail("only Catholic or Orthodox personae may colonize")
    where = persona.get("location")
    loc = ctx.location(where)
    if loc is None or not loc.get("may_colonize"):
        return fail("colonists may only be planted at a location that may be colonized")
    item = _item(str(args.get("item", "")))
    qty = args.get("qty")
    if item is None:
        return fail(f"colonists are troops, crew or slaves, not {args.get('item')!r}")
    if not isinstance(qty, int) or qty <= 0:
        return fail("give a number of colonists")
    assets = persona.setdefault("assets", {})
    kinds = [t for t in _GENERIC_TROOPS if assets.get(t, 0) > 0] if item == "troops" else [item]
    held = sum(assets.get(k, 0) for k in kinds)
    if held < qty:
        return fail(f"he has only {held} {item} to plant")
    room = POPULATION_CAP - loc.get("population", 0)
    if room <= 0:
        return fail(f"{where} has reached {POPULATION_CAP} people: colonization may not increase it further")
    planted = min(qty, room)
    # "no more than half may be slaves", counted over all the colonists planted at the location this turn
    # (ruling 11): slaves may be at most as many as the free colonists planted with them.
    slaves = ctx.scratch.setdefault("colonies.slaves", {})
    free = loc.get("colonists_this_turn", 0) - slaves.get(where, 0)
    new_slaves = slaves.get(where, 0) + (planted if item == "slave" else 0)
    new_free = free + (0 if item == "slave" else planted)
    if new_slaves > new_free:
        return fail(f"no more than half the colonists may be slaves: {new_slaves} slaves to {new_free} free "
                    f"colonists at {where} this turn")
    left = planted
    for k in kinds:
        take = min(left, assets.get(k, 0))
        assets[k] -= take
        left -= take
    settle(persona)  # MORALE: "When a persona controls neither troops, nor crew, his morale rating is zero"
    slaves[where] = new_slaves
    loc["population"] = loc.get("population", 0) + planted
    loc["colonists_this_turn"] = loc.get("colonists_this_turn", 0) + planted
    kept = f"; {qty - planted} kept, the colony being full" if planted < qty else ""
    return done(f"planted {planted} {item} as colonists at {where}{kept}")


def colonists_survive(ctx: Ctx) -> None:
    """"Should more than 100 be planted in a given turn, only 100 survive the turn." """
    for loc in ctx.state["locations"].values():
        planted = loc.get("colonists_this_turn", 0)
        if planted > SURVIVORS_PER_TURN:
            loc["population"] = max(0, loc.get("population", 0) - (planted - SURVIVORS_PER_TURN))
        if planted:
            loc["colonists_this_turn"] = 0
