"""SIEGE, SIEGE BOMBARDMENT, siege attrition, the September rule, CROP DESTRUCTION, RAZING OF FORTIFICATIONS.

FORTIFICATION, SIEGE: "A persona whose forces begin the turn outside the walls of a fortification may place it under
siege. Siege orders take effect the turn after their issuance. A besieging force intercepts all parties attempting
to enter the fortification by land movement. Siege orders fail when issued by a persona with fewer troops and crew
than the total number inside the fortification which he is besieging." Readings: docs/renaissance/war.md, section
"siege" (RW-OQ-30, 31, 32 and the further readings there).

The state: location["siege"] = {"besieger", "ordered", "since", "months", "blocked"} (docs/renaissance-state.md,
War) and location["crops_destroyed"] = {"year", "grain"}. Month-only bookkeeping (ctx.scratch):

- "war.siege.entries": location -> {"land", "water"}: how personae entered its walls this month (`note_entry`)
- "war.siege_cannons": pid -> the surviving cannons that siege-bombarded this month (they bombard once a month)
- "war.crops": pid -> troops destroying crops this month (`crop_troops` splits them by type)
- "war.raze": pid -> {item: men razing this month}; "war.razed": target -> the month's razing, summed exactly

Who else calls in here: travel and battle.py call `note_entry` for every entry into the walls, interception.py
calls `besieger` to find the interceptor of a land move; sides.py reads `crop_troops` (Side.held_back); the naval helper
calls `piety.gunfire` and reads `siege_cannons_used`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .. import offices, piety
from ..context import Ctx, Outcome, Persona, done, fail
from ..items import TROOPS
from . import fees, limits
from . import morale as mo
from .arith import loss, share
from .forces import persona_name
from .words import describe

Location = dict[str, Any]

LAND, WATER = "land", "water"
AUGUST = 8
SUMMER_TURNS = 3  # "successfully besieged during the June, July and August turns"
FAS_FLOOR = 1  # "No location may have its FAS reduced below '1'"
SELF_DESTRUCT = Fraction(2, 100)  # "2% of all cannons used for bombardment self-destruct"
COUNTER_BATTERY = Fraction(1, 1_000_000)  # ".000001 multiplied by its owner's gunnery rating multiplied by ... FAR"
RAZE_PER_MAN = Fraction(1, 10)  # "Each man allocated to the task destroys 1/10 of a fortification rating point"

ATTRITION_VICTIMS: tuple[str, ...] = (*TROOPS, "crew", "slave", "horse")  # "troops, crew, slaves and horses"
RAZERS: tuple[str, ...] = (*TROOPS, "crew", "slave")  # "his troops, crews and/or slaves"

_ENTRIES = "war.siege.entries"
_SIEGE_CANNONS = "war.siege_cannons"
_NAVAL_CANNONS = "war.naval_cannons"  # the naval helper's: cannons that bombarded ships this month
_CROPS = "war.crops"
_RAZE = "war.raze"
_RAZED = "war.razed"


# ---- who is where ---------------------------------------------------------------------------------------------

def _count(assets: dict[str, Any], item: str) -> int:
    return max(0, int(assets.get(item, 0) or 0))


def troops_and_crew(persona: Persona) -> int:
    return mo.men(persona.get("assets") or {})


def personae_inside(ctx: Ctx, location_name: str) -> list[Persona]:
    """The living personae within the walls of the location (those in its towers too), in id order."""
    inside = [p for p in ctx.state["personae"].values()
              if p.get("location") == location_name and p.get("inside") and p.get("alive", True)]
    return sorted(inside, key=lambda p: p["id"])


def inside_count(ctx: Ctx, location_name: str) -> int:
    """Troops and crew inside the walls, the town garrison included: what a besieger must at least match. Tower
    garrisons are left out ("Tower garrisons are not included in this computation unless the besieged
    fortification is a tower"): a siege here is always of the location's walls."""
    location = ctx.location(location_name)
    garrison = _count(location, "garrison") if location else 0
    return garrison + sum(troops_and_crew(p) for p in personae_inside(ctx, location_name))


def is_fortification(location: Location) -> bool:
    """A location is a fortification while its FAS is above zero (a bombardment or razing never takes it below 1)."""
    return _count(location, "fas") > 0


# ---- the siege and its besieger ------------------------------------------------------------------------------

def in_effect(location: Location, turn: int) -> bool:
    """Is the location's siege in effect during `turn` ("Siege orders take effect the turn after their
    issuance")? Says nothing of whether its besieger still stands: `besieger` does."""
    siege = location.get("siege")
    return bool(siege) and siege.get("since") is not None and int(siege["since"]) <= turn


def _died_since(persona: Persona, turn: int) -> bool:
    """A successor holds the id: the besieger himself died at or after `turn` (succession keeps the id)."""
    return any(int(p.get("turn", 0)) >= turn for p in persona.get("predecessors") or ())


def _holds_siege(ctx: Ctx, location_name: str, siege: dict[str, Any]) -> Persona | None:
    """The siege's besieger while he still holds it: alive, not replaced since his order, and at the location
    outside its walls ("A besieger who moves away or dies ends his siege")."""
    persona = ctx.persona(siege.get("besieger") or "")
    if persona is None or not persona.get("alive", True) or _died_since(persona, int(siege.get("ordered", 0))):
        return None
    if persona.get("location") != location_name or persona.get("inside"):
        return None
    return persona


def _why_not_held(ctx: Ctx, siege: dict[str, Any]) -> str:
    persona = ctx.persona(siege.get("besieger") or "")
    if persona is None or not persona.get("alive", True) or _died_since(persona, int(siege.get("ordered", 0))):
        return "its besieger died"
    return "its besieger is no longer outside its walls"


def besieger(ctx: Ctx, location_name: str) -> Persona | None:
    """The living besieger of a siege in effect at the location this turn, still outside its walls; None when
    there is none. He intercepts every land move into the walls (SIEGE: "A besieging force intercepts all parties
    attempting to enter the fortification by land movement")."""
    location = ctx.location(location_name)
    if location is None or not in_effect(location, ctx.turn):
        return None
    return _holds_siege(ctx, location_name, location["siege"])


def note_entry(ctx: Ctx, location_name: str, by: str) -> None:
    """Someone entered the walls of the location this month, `by` LAND or WATER. Any entry spares the location
    this month's siege attrition ("no personae enter that location by land, or by water, during the entire
    turn"); a LAND entry also means the siege did not prevent all overland ingress (no bombardment next month).
    Travel calls it for a move into the walls (by land, road or ferry: LAND; disembarking or sailing in: WATER),
    battle.py for a successful assault (LAND); a failed assault enters nothing (RW-OQ-31)."""
    if by not in (LAND, WATER):
        raise ValueError(f"an entry is by {LAND!r} or {WATER!r}, not {by!r}")
    ctx.scratch.setdefault(_ENTRIES, {}).setdefault(location_name, set()).add(by)


def entries(ctx: Ctx, location_name: str) -> set[str]:
    return set(ctx.scratch.get(_ENTRIES, {}).get(location_name, ()))


def _told(ctx: Ctx, location_name: str, besieger_pid: str | None, text: str) -> None:
    """The besieger's family and every family with a persona inside the walls."""
    families = [p["family"] for p in personae_inside(ctx, location_name)]
    holder = ctx.persona(besieger_pid or "")
    if holder is not None:
        families.insert(0, holder["family"])
    for family in dict.fromkeys(families):
        ctx.tell(family, text)


def _end(ctx: Ctx, location_name: str, why: str) -> None:
    location = ctx.state["locations"][location_name]
    siege = location.get("siege") or {}
    text = f"The siege of {location_name} has ended: {why}."
    ctx.publish(text)
    _told(ctx, location_name, siege.get("besieger"), text)
    location["siege"] = None


def _short_of_men(holder: Persona, inside: int) -> bool:
    return troops_and_crew(holder) < inside


def _fewer_text(holder: Persona, inside: int) -> str:
    return (f"{persona_name(holder)} has fewer troops and crew ({troops_and_crew(holder)}) than the {inside} "
            "inside its walls")


# ---- KS / KSX ---------------------------------------------------------------------------------------------------

def siege(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KS: lay a siege to the fortification outside whose walls he began the turn; it takes effect next month.
    KSX: lift his siege."""
    if args.get("lift"):
        return _lift(ctx, persona)
    pid = persona["id"]
    where = persona.get("location")
    location = ctx.location(where)
    if location is None or where is None:
        return fail("he is at sea: only a fortification can be besieged")
    if ctx.start_location.get(pid) != where:
        return fail(f"his forces did not begin the turn at {where}: a siege is laid by forces that began the turn "
                    "outside the walls")
    if ctx.start_inside.get(pid) or persona.get("inside"):
        return fail(f"he is inside the walls of {where}: a siege is laid by forces that began the turn outside them")
    if not is_fortification(location):
        return fail(f"{where} has no fortification (FAS 0) to besiege")
    standing = location.get("siege")
    if standing and (holder := _holds_siege(ctx, where, standing)) is not None:
        if holder["id"] == pid:
            return fail(f"he already besieges {where}")
        return fail(f"{where} is already besieged by {persona_name(holder)}: a location has one besieger at a time")
    if standing:  # its besieger died or left this month: that siege is over before this one is laid
        _end(ctx, where, _why_not_held(ctx, standing))
    return lay_siege(ctx, persona, location, where, inside_count(ctx, where), "", "inside the walls")


def lay_siege(ctx: Ctx, persona: Persona, fortification: dict[str, Any], name: str, inside: int, counted: str,
              against: str) -> Outcome:
    """The end of a siege order, whatever is besieged (a location's walls, a tower: `fortification` is the dict
    the siege is kept in): the rule on numbers, the fee, the siege line laid and published; it takes effect next
    month. `counted` adds to the rule's words what `inside` counts, `against` to the outcome whom he faces."""
    men = troops_and_crew(persona)
    if _short_of_men(persona, inside):
        return fail(f"siege orders fail when issued by a persona with fewer troops and crew than the total number "
                    f"inside{counted}: he has {men}, {inside} are inside {name}")
    if why := fees.credit_refusal(ctx, persona):
        return fail(why)
    fees.charge(ctx, persona, f"siege of {name}")
    fortification["siege"] = {"besieger": persona["id"], "ordered": ctx.turn, "since": None, "months": 0,
                              "blocked": []}
    # CONFLICT ORDERS speaks of "a siege line whose existence has been published in the Newsletter".
    ctx.publish(f"{persona_name(persona)} lays siege to {name}; the siege takes effect next month.")
    return done(f"ordered the siege of {name} ({men} troops and crew against {inside} {against}): it takes "
                "effect next month")


def _lift(ctx: Ctx, persona: Persona) -> Outcome:
    for name, location in sorted(ctx.state["locations"].items()):
        if (location.get("siege") or {}).get("besieger") == persona["id"]:
            _end(ctx, name, f"{persona_name(persona)} lifted it")
            return done(f"lifted his siege of {name}")
    return fail("he besieges no location")


# ---- the month's steps: taking effect, validity, attrition ---------------------------------------------------

def sieges_take_effect(ctx: Ctx) -> None:
    """Start of the month: every siege is tested (RW-OQ-31): it ends when its besieger died, left, or has fewer
    troops and crew than the total inside; a siege ordered last month that passes takes effect now."""
    for name, location in sorted(ctx.state["locations"].items()):
        siege = location.get("siege")
        if not siege:
            continue
        holder = _holds_siege(ctx, name, siege)
        if holder is None:
            _end(ctx, name, _why_not_held(ctx, siege))
            continue
        inside = inside_count(ctx, name)
        if _short_of_men(holder, inside):
            _end(ctx, name, _fewer_text(holder, inside))
            continue
        if siege.get("since") is None and int(siege["ordered"]) < ctx.turn:
            siege["since"] = ctx.turn
            siege["months"] = 0
            siege["blocked"] = []
            text = f"{name} is under siege by {persona_name(holder)}."
            ctx.publish(text)
            _told(ctx, name, holder["id"], text)


def siege_attrition(ctx: Ctx) -> None:
    """End of the month: a siege in effect the whole month whose besieger still holds it records the month in
    `blocked` when no one entered by land, and is a month of successful siege when no one entered at all: then the
    troops, crew, slaves and horses within the walls suffer n% siege attrition, n the consecutive months of
    successful siege; any entry resets the count."""
    for name, location in sorted(ctx.state["locations"].items()):
        siege = location.get("siege")
        if not siege or not in_effect(location, ctx.turn):
            continue
        if _holds_siege(ctx, name, siege) is None:
            _end(ctx, name, _why_not_held(ctx, siege))
            continue
        came = entries(ctx, name)
        if LAND not in came:
            siege.setdefault("blocked", []).append(ctx.turn)
        if came:
            siege["months"] = 0
            continue
        siege["months"] = int(siege.get("months", 0)) + 1
        suffer_attrition(ctx, name, siege["months"])


def suffer_attrition(ctx: Ctx, location_name: str, percent: int) -> None:
    """`percent`% of each victim type of each persona within the walls, and of the town garrison, each rounded up
    on its own (ATTRITION: "always rounded up so as to maximize losses"; RW-OQ-31: per persona and per type)."""
    rate = Fraction(percent, 100)
    for persona in personae_inside(ctx, location_name):
        attrit(ctx, persona, percent, f"the walls of {location_name}")
    location = ctx.state["locations"][location_name]
    garrison = _count(location, "garrison")
    if n := loss(garrison * rate, garrison):
        location["garrison"] = garrison - n
    ctx.publish(f"{location_name}, besieged, suffered {percent}% siege attrition.")


def attrit(ctx: Ctx, persona: Persona, percent: int, within: str) -> None:
    """`percent`% of each of his troops, crew, slaves and horses, each type rounded up on its own, for a month of
    successful siege of the fortification he is within (`within`: "the walls of Pisa", "tower 1 of Pisa")."""
    rate = Fraction(percent, 100)
    assets = persona.setdefault("assets", {})
    lost: dict[str, int] = {}
    for item in ATTRITION_VICTIMS:
        held = _count(assets, item)
        if n := loss(held * rate, held):
            assets[item] = held - n
            lost[item] = n
    if lost:
        mo.settle(persona)
        ctx.tell(persona["family"], f"{persona_name(persona)} lost {describe(lost)} to {percent}% siege attrition "
                                    f"inside {within}")


# ---- the Shia/Sunni piety loss --------------------------------------------------------------------------------

# ---- KB: siege bombardment ------------------------------------------------------------------------------------

@dataclass
class Bombardment:
    """What one siege bombardment does, computed on the guns as they stood before it (RW-OQ-32: simultaneous)."""

    fas_lost: int = 0
    self_destroyed: int = 0  # bombarding cannons lost to the 2%
    counter_destroyed: int = 0  # bombarding cannons destroyed by the counter-battery
    defenders_lost: dict[str, int] = field(default_factory=dict)  # pid -> his cannons lost to the 2%

    @property
    def bombarders_lost(self) -> int:
        return self.self_destroyed + self.counter_destroyed


def bombardment(cannons: int, gunnery: int, far: int, fas: int, defenders: dict[str, tuple[int, int]]) -> Bombardment:
    """SIEGE BOMBARDMENT, as arithmetic. `defenders`: pid -> (cannons, gunnery) of each persona inside the walls.

    "Each cannon bombarding the fortification reduces its FAS by 1/1000 of the difference between the bombarder's
    gunnery rating and the fortification's FAR (unless the latter is greater than the former ...)"; the FAS lost is
    rounded up and never takes FAS below 1. "2% of all cannons used for bombardment self-destruct." "Unless the
    fortification's FAR is zero, any cannons inside ... engage in counter-battery fire. 2% of all such cannons
    selfdestruct. Each cannon fired destroys ... .000001 x its owner's gunnery rating x the location's FAR"
    bombarding cannons. Each loss is rounded up on its own (RW-OQ-01); the defenders' 2% is taken from their total
    and shared back in proportion to the cannons each fired (arith.share), as a battle's losses are."""
    result = Bombardment()
    if gunnery > far:
        result.fas_lost = loss(Fraction(cannons * (gunnery - far), 1000), max(0, fas - FAS_FLOOR))
    result.self_destroyed = loss(cannons * SELF_DESTRUCT, cannons)
    firing = {pid: c for pid, (c, _) in defenders.items() if c > 0}
    if far > 0 and firing:
        hits = sum(Fraction(c * g * far) for c, g in defenders.values() if c > 0) * COUNTER_BATTERY
        result.counter_destroyed = loss(hits, cannons - result.self_destroyed)
        total = sum(firing.values())
        result.defenders_lost = {pid: n for pid, n in share(loss(total * SELF_DESTRUCT, total), firing).items() if n}
    return result


def siege_cannons_used(ctx: Ctx, pid: str) -> int:
    """Cannons of his that siege-bombarded this month and survived: they fire no second bombardment this month."""
    return int(ctx.scratch.get(_SIEGE_CANNONS, {}).get(pid, 0))


def free_cannons(ctx: Ctx, persona: Persona) -> int:
    """His cannons that may still bombard this month: those used for naval bombardment this turn may not, nor those
    that already siege-bombarded."""
    pid = persona["id"]
    held = _count(persona.get("assets") or {}, "cannon")
    naval = int(ctx.scratch.get(_NAVAL_CANNONS, {}).get(pid, 0))
    return max(0, held - naval - siege_cannons_used(ctx, pid))


def spend_cannons(ctx: Ctx, persona: Persona, cannons: int, lost: int) -> None:
    """His `cannons` fired a siege bombardment and `lost` of them were destroyed: the survivors fire no second one
    this month."""
    assets = persona.setdefault("assets", {})
    assets["cannon"] = _count(assets, "cannon") - lost
    used = ctx.scratch.setdefault(_SIEGE_CANNONS, {})
    used[persona["id"]] = used.get(persona["id"], 0) + cannons - lost


def bombard(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KB: the besieger bombards the fortification he besieges with his cannons, in a month that follows one in
    which his siege prevented all overland ingress."""
    pid = persona["id"]
    where = persona.get("location") or ""
    location = ctx.location(where)
    holder = besieger(ctx, where) if location is not None else None
    if location is None or holder is None or holder["id"] != pid:
        return fail("only a besieger whose siege is in effect may siege-bombard, at the fortification he besieges")
    if ctx.turn - 1 not in location["siege"].get("blocked", []):
        return fail(f"last month his siege of {where} did not prevent all overland ingress for the whole month: "
                    "he may bombard only in a month that follows one in which it did")
    if limits.has_assaulted(ctx, pid):
        return fail("he has assaulted this month: a bombardment may come before an assault, not after it")
    ordered = int(args.get("qty") or 0)
    if ordered <= 0:
        return fail("no cannons were named for the bombardment")
    free = free_cannons(ctx, persona)
    if free <= 0:
        return fail("he has no cannons free to bombard this month (cannons that bombarded ships or already "
                    "bombarded the walls this month may not)")
    if why := fees.credit_refusal(ctx, persona):
        return fail(why)
    return _fire(ctx, persona, where, location, min(ordered, free), ordered)


def _fire(ctx: Ctx, persona: Persona, where: str, location: Location, cannons: int, ordered: int) -> Outcome:
    gunnery = _count(persona.get("skills") or {}, "gunnery")
    far, fas = _count(location, "far"), _count(location, "fas")
    inside = [p for p in personae_inside(ctx, where) if _count(p.get("assets") or {}, "cannon") > 0]
    defenders = {p["id"]: (_count(p["assets"], "cannon"), _count(p.get("skills") or {}, "gunnery")) for p in inside}
    result = bombardment(cannons, gunnery, far, fas, defenders)

    fees.charge(ctx, persona, f"bombardment order ({where})")
    fees.charge(ctx, persona, f"bombardment of {where}")
    location["fas"] = fas - result.fas_lost
    spend_cannons(ctx, persona, cannons, result.bombarders_lost)
    piety.gunfire(ctx, persona)
    if far > 0:
        for p in inside:
            p["assets"]["cannon"] = _count(p["assets"], "cannon") - result.defenders_lost.get(p["id"], 0)
            piety.gunfire(ctx, p)
    walls = f"the walls of {where} were bombarded by {persona_name(persona)}: FAS {fas} -> {location['fas']}"
    for p in personae_inside(ctx, where):
        answer = ""
        if far > 0 and p["id"] in defenders:
            answer = (f"; {persona_name(p)}'s {defenders[p['id']][0]} cannons answered, "
                      f"{result.defenders_lost.get(p['id'], 0)} of them self-destructed")
        ctx.tell(p["family"], f"{walls}{answer}")
    cut = f" (he has {cannons} free of the {ordered} ordered)" if cannons < ordered else ""
    counter = (f"; the counter-battery of {sum(c for c, _ in defenders.values())} cannons destroyed "
               f"{result.counter_destroyed}" if far > 0 and defenders else "")
    ctx.publish(f"{persona_name(persona)} bombarded the walls of {where} with {cannons} cannons: FAS {fas} -> "
                f"{location['fas']} (FAR {far}).")
    return done(f"bombarded {where} with {cannons} cannons{cut} at gunnery {gunnery} against FAR {far}: FAS {fas} -> "
                f"{location['fas']}; {result.self_destroyed} of his cannons self-destructed{counter}")


# ---- KC: crop destruction -------------------------------------------------------------------------------------

def _troops(persona: Persona) -> dict[str, int]:
    assets = persona.get("assets") or {}
    return {t: _count(assets, t) for t in TROOPS}


def crop_troops(ctx: Ctx, persona: Persona) -> dict[str, int]:
    """His troops destroying crops this month, by type, for Side.held_back ("all troops ordered to destroy crops
    are omitted from the initial arrangement for battle, then added to the Reserves at the start of Stage 1"): the
    order names a number, so it is shared over the troop types he holds now in proportion (arith.share)."""
    held = _troops(persona)
    n = min(int(ctx.scratch.get(_CROPS, {}).get(persona["id"], 0)), sum(held.values()))
    return {t: k for t, k in share(n, held).items() if k}


def _razing_troops(ctx: Ctx, pid: str) -> int:
    return sum(n for item, n in ctx.scratch.get(_RAZE, {}).get(pid, {}).items() if item in TROOPS)


def grain_destroyed(location: Location, year: int) -> int:
    """Grain destroyed in the fields in `year`'s August, taken off that September's grain supply."""
    record = location.get("crops_destroyed") or {}
    return int(record.get("grain", 0)) if record.get("year") == year else 0


def crops(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KC: in August, troops (not crew) that began the turn outside the walls each destroy one unit of the grain
    the locals would add to the location's supply in September; they receive no other order this month."""
    if ctx.month != AUGUST:
        return fail("crops are destroyed only in the August turn")
    pid = persona["id"]
    where = ctx.start_location.get(pid)
    location = ctx.location(where)
    if location is None or where is None or ctx.start_inside.get(pid):
        return fail("troops destroying crops must begin the turn outside the walls of a location")
    if persona.get("location") != where or persona.get("inside"):
        return fail(f"he is no longer outside the walls of {where}, where his troops began the turn")
    if "grain" not in (location.get("supplied") or {}):
        return fail(f"the locals of {where} supply no grain: there are no crops to destroy")
    ordered = int(args.get("qty") or 0)
    if ordered <= 0:
        return fail("no troops were named to destroy crops")
    committed = int(ctx.scratch.get(_CROPS, {}).get(pid, 0)) + _razing_troops(ctx, pid)
    free = sum(_troops(persona).values()) - committed
    if free <= 0:
        return fail("he has no troops free to destroy crops (crew may not)")
    n = min(ordered, free)
    scratch = ctx.scratch.setdefault(_CROPS, {})
    scratch[pid] = scratch.get(pid, 0) + n
    location["crops_destroyed"] = {"year": ctx.year, "grain": grain_destroyed(location, ctx.year) + n}
    limits.pin(ctx, pid, "his troops are destroying crops and may receive no other orders this month")
    cut = f" (he has {free} troops free of the {ordered} ordered)" if n < ordered else ""
    ctx.publish(f"Troops of {persona_name(persona)} are burning the grain in the fields of {where}.")
    return done(f"{n} troops{cut} destroyed {n} grain of the crops {where}'s locals would supply in September")


# ---- KR: razing -----------------------------------------------------------------------------------------------

def razing_men(ctx: Ctx, pid: str) -> dict[str, int]:
    """His men razing a fortification this month, by item: "Men allocated to this task may receive no other
    orders during that turn"."""
    return dict(ctx.scratch.get(_RAZE, {}).get(pid, {}))


def _owns_tower(ctx: Ctx, location: Location, tower: dict[str, Any], persona: Persona) -> bool:
    """TOWERS: "A tower's owner is the family, or office-holder associated with it"."""
    owner = str(tower.get("owner") or "")
    if owner and owner == persona.get("family"):
        return True
    return owner.lower() in offices.OFFICES and offices.holds(ctx.state, location, owner.lower(), persona["id"])


def _raze_target(ctx: Ctx, persona: Persona, where: str, location: Location,
                 tower: int | None) -> tuple[str, dict[str, Any], str] | str:
    """(key, the dict holding "far"/"fas", its name) of what he may raze, or why he may not."""
    if tower is None:
        if offices.dfc(location) != persona["id"]:
            return f"only the de facto controller of {where} may raze its walls"
        if not is_fortification(location):
            return f"{where} has no fortification to raze"
        return where, location, f"the walls of {where}"
    towers = location.get("towers") or []
    if not 1 <= tower <= len(towers):
        return f"{where} has no tower number {tower}"
    if not _owns_tower(ctx, location, towers[tower - 1], persona):
        return f"only the owner of tower {tower} at {where} may raze it"
    if not persona.get("inside"):
        return f"a tower is razed from inside the walls of {where}"
    name = towers[tower - 1].get("name") or f"tower {tower}"
    return f"{where}#tower{tower}", towers[tower - 1], f"{name} at {where}"


def _free_razers(ctx: Ctx, persona: Persona, item: str) -> int:
    pid = persona["id"]
    held = _count(persona.get("assets") or {}, item)
    free = held - razing_men(ctx, pid).get(item, 0)
    if item in TROOPS:
        busy = int(ctx.scratch.get(_CROPS, {}).get(pid, 0)) + _razing_troops(ctx, pid)
        free = min(free, sum(_troops(persona).values()) - busy)
    return max(0, free)


def raze_points(target: dict[str, Any], razed: dict[str, Any], men: int) -> tuple[int, int]:
    """Razing by `men` more men: the FAR and FAS points lost now. `razed` is the month's razing of this target so
    far ({"points", "far", "fas"}, updated here): the month's points are summed exactly and rounded up once, so ten
    orders of one man raze what one order of ten does. "FAR is destroyed before FAS"; "The FAS of a location may not
    be reduced below '1'"."""
    razed["points"] = Fraction(razed.get("points", 0)) + men * RAZE_PER_MAN
    far_base = _count(target, "far") + int(razed.get("far", 0))
    fas_base = _count(target, "fas") + int(razed.get("fas", 0))
    on_far = min(razed["points"], Fraction(far_base))
    far_total = loss(on_far, far_base)
    fas_total = loss(razed["points"] - on_far, max(0, fas_base - FAS_FLOOR))
    far_now = max(0, far_total - int(razed.get("far", 0)))
    fas_now = max(0, min(fas_total - int(razed.get("fas", 0)), _count(target, "fas") - FAS_FLOOR))
    razed["far"], razed["fas"] = int(razed.get("far", 0)) + far_now, int(razed.get("fas", 0)) + fas_now
    return far_now, fas_now


def raze(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KR: the de facto controller of a location sets troops, crew or slaves to raze its walls (with `tower`, a
    tower's owner his tower); each man destroys 1/10 of a point this month, FAR before FAS."""
    item = str(args.get("item") or "")
    if item not in RAZERS:
        return fail(f"{item or 'nothing'}: only troops, crew or slaves raze a fortification")
    where = persona.get("location")
    location = ctx.location(where)
    if location is None or where is None:
        return fail("he is at sea: a fortification is razed by its controller's men on the spot")
    tower = args.get("tower")
    target = _raze_target(ctx, persona, where, location, int(tower) if tower else None)
    if isinstance(target, str):
        return fail(target)
    key, walls, name = target
    if _count(walls, "far") == 0 and _count(walls, "fas") <= FAS_FLOOR:
        return fail(f"nothing is left to raze of {name}: FAR 0, and FAS may not fall below 1")
    ordered = int(args.get("qty") or 0)
    if ordered <= 0:
        return fail("no men were named to raze")
    free = _free_razers(ctx, persona, item)
    if free <= 0:
        return fail(f"he has no {item} free to raze this month")
    n = min(ordered, free)
    far, fas = _count(walls, "far"), _count(walls, "fas")
    far_lost, fas_lost = raze_points(walls, ctx.scratch.setdefault(_RAZED, {}).setdefault(key, {}), n)
    if "far" in walls or far_lost:
        walls["far"] = far - far_lost
    walls["fas"] = fas - fas_lost
    men = ctx.scratch.setdefault(_RAZE, {}).setdefault(persona["id"], {})
    men[item] = men.get(item, 0) + n
    limits.pin(ctx, persona["id"], "his men are razing a fortification and may receive no other orders this month")
    cut = f" (he has {free} free of the {ordered} ordered)" if n < ordered else ""
    ctx.publish(f"Razing at {where}: {name} now stand at FAR {walls.get('far', 0)}, FAS {walls['fas']}.")
    return done(f"{n} {item}{cut} razed {name}: FAR {far} -> {walls.get('far', 0)}, FAS {fas} -> {walls['fas']}")


# ---- the September rule ---------------------------------------------------------------------------------------

def besieged_all_summer(location: Location) -> bool:
    """Asked at the start of September: was the location "successfully besieged during the June, July and August
    turns"? Yes when its siege stands with at least three consecutive months of successful siege (a month of
    siege attrition: in effect the whole month, no one entering by land or water) counted up to August's end."""
    siege = location.get("siege")
    return bool(siege) and siege.get("since") is not None and int(siege.get("months", 0)) >= SUMMER_TURNS
