"""The siege and siege bombardment of a tower (KSTn, KBTnqqq): SIEGE, "(Tower garrisons are not included in this
computation unless the besieged fortification is a tower.)", and TOWERS, "Except where the rules expressly state
otherwise, towers are treated as regular fortifications subject to the same rules". Reading RW-S2 in
docs/renaissance/war.md.

A tower stands within its location's walls, so its besieger stands where its assaulter does ("Towers may only be
assaulted by personae who start the month inside the location"): he began the month inside the walls and is not
in the tower. What he must match is the tower garrison and the troops and crew of every persona in the tower. A
tower's FAR is zero ("Towers have ratings of zero against artillery"): every cannon bombarding it takes
gunnery/1000 off its FAS, and no counter-battery answers ("Unless the fortification's FAR is zero").

The state: tower["siege"] = {"besieger", "ordered", "since", "months", "blocked"}, the shape of a location's siege
(docs/renaissance-state.md). Month-only: ctx.scratch["war.tower_siege.in"]: (location, tower) -> the ids in the
tower when the month's sieges were tested, so that the month's end knows who entered it.
"""

from __future__ import annotations

from typing import Any

from .. import piety
from ..context import Ctx, Outcome, Persona, done, fail
from . import control, fees, limits, siege
from .forces import persona_name

Tower = dict[str, Any]

_IN_AT_START = "war.tower_siege.in"


def _towers(ctx: Ctx) -> list[tuple[str, int, Tower]]:
    """Every tower of every location, numbered as the location report lists them."""
    return [(where, n, tower) for where, location in sorted(ctx.state["locations"].items())
            for n, tower in enumerate(location.get("towers") or [], start=1)]


def in_tower(ctx: Ctx, where: str, n: int) -> list[Persona]:
    """The living personae in tower `n` of `where` (TOWERS: "assumed to be inside that tower at all times")."""
    return [p for p in siege.personae_inside(ctx, where) if control.tower_of(ctx.state, p) == n]


def inside_count(ctx: Ctx, where: str, n: int) -> int:
    """What the tower's besieger must at least match: its tower garrison, counted because "the besieged
    fortification is a tower", and the troops and crew of every persona in it."""
    return control.tower_garrison(ctx, where, n) + sum(siege.troops_and_crew(p) for p in in_tower(ctx, where, n))


def _outside_the_tower(ctx: Ctx, persona: Persona, where: str, n: int) -> bool:
    return (persona.get("location") == where and bool(persona.get("inside"))
            and control.tower_of(ctx.state, persona) != n)


def _holds(ctx: Ctx, where: str, n: int, held: dict[str, Any]) -> Persona | None:
    """The besieger while he holds the tower's siege: alive, the same man as ordered it, inside the walls and not in
    the tower (a besieger whose family comes to own it is inside it: his siege is over)."""
    persona = ctx.persona(held.get("besieger") or "")
    if persona is None or not persona.get("alive", True):
        return None
    if any(int(p.get("turn", 0)) >= int(held.get("ordered", 0)) for p in persona.get("predecessors") or ()):
        return None
    return persona if _outside_the_tower(ctx, persona, where, n) else None


def _name(location: dict[str, Any], where: str, n: int) -> str:
    tower = control._tower(location, n) or {}
    return f"tower {n} ({tower['name']}) of {where}" if tower.get("name") else f"tower {n} of {where}"


def _tell(ctx: Ctx, where: str, n: int, besieger: str | None, text: str) -> None:
    """The besieger's family and every family with a persona in the tower."""
    families = [p["family"] for p in in_tower(ctx, where, n)]
    holder = ctx.persona(besieger or "")
    if holder is not None:
        families.insert(0, holder["family"])
    for family in dict.fromkeys(families):
        ctx.tell(family, text)


def _end(ctx: Ctx, where: str, n: int, tower: Tower, why: str) -> None:
    text = f"The siege of {_name(ctx.state['locations'][where], where, n)} has ended: {why}."
    ctx.publish(text)
    _tell(ctx, where, n, (tower.get("siege") or {}).get("besieger"), text)
    tower["siege"] = None


def _why_not(ctx: Ctx, held: dict[str, Any]) -> str:
    persona = ctx.persona(held.get("besieger") or "")
    if persona is None or not persona.get("alive", True) or any(
            int(p.get("turn", 0)) >= int(held.get("ordered", 0)) for p in persona.get("predecessors") or ()):
        return "its besieger died"
    return "its besieger is no longer inside the walls outside the tower"


# ---- KSTn --------------------------------------------------------------------------------------------------------

def lay(ctx: Ctx, persona: Persona, n: int) -> Outcome:
    """KSTn: lay a siege to tower n of the location inside whose walls he began the turn; it takes effect next
    month."""
    pid = persona["id"]
    where = persona.get("location")
    location = ctx.location(where)
    if location is None or where is None:
        return fail("he is at sea: a tower is besieged from inside its location's walls")
    tower = control._tower(location, n)
    if tower is None:
        return fail(f"{where} has no tower {n} (it has {len(location.get('towers') or [])})")
    name = _name(location, where, n)
    if ctx.start_location.get(pid) != where or not ctx.start_inside.get(pid) or not persona.get("inside"):
        return fail(f"a tower is besieged by forces that began the turn inside the walls of its location, outside "
                    f"the tower; he did not begin it inside the walls of {where}")
    if control.tower_of(ctx.state, persona) == n:
        return fail(f"he is inside {name}: a siege is laid by forces outside the fortification")
    standing = tower.get("siege")
    if standing and (holder := _holds(ctx, where, n, standing)) is not None:
        if holder["id"] == pid:
            return fail(f"he already besieges {name}")
        return fail(f"{name} is already besieged by {persona_name(holder)}: a fortification has one besieger at a "
                    "time")
    if standing:
        _end(ctx, where, n, tower, _why_not(ctx, standing))
    return siege.lay_siege(ctx, persona, tower, name, inside_count(ctx, where, n),
                           ", tower garrisons included when the fortification is a tower",
                           "inside, its tower garrison counted")


def lift(ctx: Ctx, persona: Persona) -> Outcome | None:
    """KSX for a tower's besieger (None when he besieges no tower)."""
    for where, n, tower in _towers(ctx):
        if (tower.get("siege") or {}).get("besieger") == persona["id"]:
            _end(ctx, where, n, tower, f"{persona_name(persona)} lifted it")
            return done(f"lifted his siege of {_name(ctx.state['locations'][where], where, n)}")
    return None


def under_siege(tower: Tower, turn: int) -> bool:
    held = tower.get("siege")
    return bool(held) and held.get("since") is not None and int(held["since"]) <= turn


# ---- the month's steps -------------------------------------------------------------------------------------------

def tower_sieges_take_effect(ctx: Ctx) -> None:
    """Start of the month, with the location sieges: a tower's siege ends when its besieger died, left, or has fewer
    troops and crew than are inside; one ordered last month takes effect now. Who is in each besieged tower now is
    kept, for the month's end to see who entered."""
    start = ctx.scratch.setdefault(_IN_AT_START, {})
    for where, n, tower in _towers(ctx):
        held = tower.get("siege")
        if not held:
            continue
        holder = _holds(ctx, where, n, held)
        if holder is None:
            _end(ctx, where, n, tower, _why_not(ctx, held))
            continue
        inside = inside_count(ctx, where, n)
        if siege.troops_and_crew(holder) < inside:
            _end(ctx, where, n, tower, f"{persona_name(holder)} has fewer troops and crew "
                                       f"({siege.troops_and_crew(holder)}) than the {inside} inside it")
            continue
        if held.get("since") is None and int(held["ordered"]) < ctx.turn:
            held.update(since=ctx.turn, months=0, blocked=[])
            text = f"{_name(ctx.state['locations'][where], where, n)} is under siege by {persona_name(holder)}."
            ctx.publish(text)
            _tell(ctx, where, n, holder["id"], text)
        start[(where, n)] = {p["id"] for p in in_tower(ctx, where, n)}


def tower_siege_attrition(ctx: Ctx) -> None:
    """End of the month, with the location sieges: a tower under siege the whole month that no one entered is a
    month of successful siege. A tower stands inside the town: whoever enters it comes to it over land, so a month
    no one entered is also one that prevented all overland ingress (the next month's bombardment may follow). The
    troops, crew, slaves and horses of the personae in it suffer n% siege attrition; its tower garrison appears
    anew each month "without regard to siege" and is not counted."""
    start = ctx.scratch.get(_IN_AT_START, {})
    for where, n, tower in _towers(ctx):
        held = tower.get("siege")
        if not held or not under_siege(tower, ctx.turn):
            continue
        if _holds(ctx, where, n, held) is None:
            _end(ctx, where, n, tower, _why_not(ctx, held))
            continue
        now = in_tower(ctx, where, n)
        if {p["id"] for p in now} - start.get((where, n), set()):
            held["months"] = 0
            continue
        held.setdefault("blocked", []).append(ctx.turn)
        held["months"] = int(held.get("months", 0)) + 1
        name = _name(ctx.state["locations"][where], where, n)
        for persona in now:
            siege.attrit(ctx, persona, held["months"], name)
        ctx.publish(f"{name[0].upper()}{name[1:]}, besieged, suffered {held['months']}% siege attrition.")


# ---- KBTnqqq -----------------------------------------------------------------------------------------------------

def bombard(ctx: Ctx, persona: Persona, n: int, ordered: int) -> Outcome:
    """KBTnqqq: the besieger of tower n bombards it, in a month that follows one in which his siege held it."""
    pid = persona["id"]
    where = persona.get("location") or ""
    location = ctx.location(where)
    tower = control._tower(location, n) if location is not None else None
    held = (tower or {}).get("siege")
    if tower is None or not held or not under_siege(tower, ctx.turn) or held.get("besieger") != pid \
            or _holds(ctx, where, n, held) is None:
        return fail(f"only the besieger of tower {n}, his siege in effect, may siege-bombard it, from inside the "
                    "walls of its location")
    name = _name(location, where, n)
    if ctx.turn - 1 not in held.get("blocked", []):
        return fail(f"last month his siege of {name} did not keep everyone out of it for the whole month: he may "
                    "bombard only in a month that follows one in which it did")
    if limits.has_assaulted(ctx, pid):
        return fail("he has assaulted this month: a bombardment may come before an assault, not after it")
    free = siege.free_cannons(ctx, persona)
    if free <= 0:
        return fail("he has no cannons free to bombard this month (cannons that bombarded ships or already "
                    "bombarded this month may not)")
    if why := fees.credit_refusal(ctx, persona):
        return fail(why)
    cannons = min(ordered, free)
    gunnery = int((persona.get("skills") or {}).get("gunnery", 0) or 0)
    fas = int(tower.get("fas", 0))
    # FAR 0: no counter-battery, and every cannon does damage unless his gunnery is 0.
    result = siege.bombardment(cannons, gunnery, 0, fas, {})
    fees.charge(ctx, persona, f"bombardment order ({name})")
    fees.charge(ctx, persona, f"bombardment of {name}")
    control.keep_start_garrison(ctx, where, n)
    tower["fas"] = fas - result.fas_lost
    siege.spend_cannons(ctx, persona, cannons, result.self_destroyed)
    piety.gunfire(ctx, persona)
    _tell(ctx, where, n, None, f"{name} was bombarded by {persona_name(persona)}: FAS {fas} -> {tower['fas']}")
    ctx.publish(f"{persona_name(persona)} bombarded {name} with {cannons} cannons: FAS {fas} -> {tower['fas']}.")
    cut = f" (he has {cannons} free of the {ordered} ordered)" if cannons < ordered else ""
    return done(f"bombarded {name} with {cannons} cannons{cut} at gunnery {gunnery} against FAR 0: FAS {fas} -> "
                f"{tower['fas']}; {result.self_destroyed} of his cannons self-destructed")


# ---- the orders' handlers: a tower's when the order names one ----------------------------------------------------

def siege_order(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KS, KSX, KSTn."""
    if args.get("tower"):
        return lay(ctx, persona, int(args["tower"]))
    if args.get("lift"):
        lifted = lift(ctx, persona)
        besieges_walls = any((loc.get("siege") or {}).get("besieger") == persona["id"]
                             for loc in ctx.state["locations"].values())
        if lifted is not None and not besieges_walls:
            return lifted
    return siege.siege(ctx, persona, args)


def bombard_order(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KBqqq, KBTnqqq."""
    if args.get("tower"):
        ordered = int(args.get("qty") or 0)
        if ordered <= 0:
            return fail("no cannons were named for the bombardment")
        return bombard(ctx, persona, int(args["tower"]), ordered)
    return siege.bombard(ctx, persona, args)
