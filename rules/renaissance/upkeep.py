"""MAINTENANCE: the monthly upkeep of men, livestock and ships, paid by their owner at the start of the turn.

Readings (numbered as in docs/renaissance/upkeep.md):
 1. A unit type may be paid in part: as many whole men (ten ducats each) or heads (half a unit of food each) as
    the owner can pay are maintained; the rest are "the units not maintained" and lose 20% of their number.
 2. Food is counted in half units. A unit opened for an odd number of heads leaves a half that the next unit
    type in priority may eat this turn; a half nobody eats is lost with the unit (the whole unit is consumed).
 3. The first 1,000 horses, sheep and cattle are free in October, November, December and March. Animals eaten
    by the men earlier in the same step need no food, so the free thousand is counted against the herd when its
    turn in the priority comes.
 4. Ducats or materials short of one more man or ship are not spent.
 5. Attrition is rounded up ("ATTRITION"), in whole-number arithmetic so 20% of 35 is exactly 7.

The step leaves a record per persona in ctx.scratch["maintenance"][pid] for the printout:
{"month": 5, "kind": "ducats" | "food" | "naval",
 "units": {"crew": {"heads": 50, "paid": 20, "unpaid": 30, "lost": 6}}, "spent": {"ducats": 1000}}
and tells the family one line per persona.
"""

from __future__ import annotations

from typing import Any

from .calendar import MONTHS
from .context import Ctx, Persona
from .items import DUCATS
from .war.morale import settle

DUCATS_PER_MAN = 10
ATTRITION_PERCENT = 20
FREE_HEADS = 1000
FREE_MONTHS = (10, 11, 12, 3)
NAVAL_MONTH = 4

_HERDS = ("horse", "sheep", "cattle")

# Ten ducats per man, by month.
DUCAT_MONTHS: dict[int, tuple[str, ...]] = {
    5: ("heavy cavalry", "crew", "archer", "pikeman", "arquebusier"),
    6: ("heavy cavalry", "archer", "pikeman"),
    7: ("heavy cavalry", "auxiliary", "crew"),
    8: ("heavy cavalry", "archer"),
    9: ("heavy cavalry", "archer", "pikeman", "arquebusier", "crew"),
}

# Half a unit of food per head, by month.
FOOD_MONTHS: dict[int, tuple[str, ...]] = {
    10: (*_HERDS,),
    11: (*_HERDS, "heavy cavalry", "crew"),
    12: (*_HERDS, "heavy cavalry", "archer", "slave"),
    1: (*_HERDS, "heavy cavalry", "archer", "pikeman", "slave"),
    2: (*_HERDS, "heavy cavalry", "archer", "crew", "pikeman", "arquebusier"),
    3: (*_HERDS, "heavy cavalry", "archer", "pikeman", "arquebusier", "auxiliary"),
}

# "priority will be given to horses, then heavy cavalrymen, ..." when the owner cannot maintain everything.
PRIORITY: tuple[str, ...] = ("horse", "heavy cavalry", "archer", "pikeman", "arquebusier", "crew", "auxiliary",
                             "slave", "cattle", "sheep", "roundship", "caravel", "galley", "galliot", "barque")

# The order in which a persona's foods are eaten; horses last ("when no other food is available").
FOOD_ORDER: tuple[str, ...] = ("butter", "fish", "fruit", "oil", "cheese", "honey", "candy", "nut", "salt fish",
                               "sheep", "cattle", "grain", "sugar", "horse")

# "Only grain may be used to provide food maintenance for horses, sheep and cattle."
HERD_FOOD: tuple[str, ...] = ("grain",)

# April: naval materials per ship.
NAVAL: dict[str, dict[str, int]] = {
    "galley": {"pitch": 100, "timber": 100},
    "galliot": {"pitch": 10, "timber": 10},
    "roundship": {"pitch": 20, "timber": 20, "sail": 1, "cordage": 10},
    "caravel": {"pitch": 5, "timber": 5, "sail": 1, "cordage": 5},
    "barque": {"pitch": 2, "timber": 2, "sail": 1, "cordage": 2},
}


def attrition(unpaid: int, percent: int = ATTRITION_PERCENT) -> int:
    """`percent` of `unpaid`, rounded up to maximize losses (ATTRITION); integer arithmetic, no float error."""
    return -(-unpaid * percent // 100) if unpaid > 0 else 0


def _take(assets: dict[str, Any], item: str, qty: int, spent: dict[str, int]) -> None:
    if qty <= 0:
        return
    assets[item] = int(assets.get(item, 0)) - qty
    spent[item] = spent.get(item, 0) + qty


def _lose(assets: dict[str, Any], unit: str, unpaid: int) -> int:
    lost = min(int(assets.get(unit, 0)), attrition(unpaid))
    assets[unit] = int(assets.get(unit, 0)) - lost
    return lost


def _ordered(units: tuple[str, ...]) -> list[str]:
    return [u for u in PRIORITY if u in units]


def pay_ducats(persona: Persona, units: tuple[str, ...]) -> dict[str, Any]:
    """Ten ducats per man for `units`, in priority order, from the persona's own ducats."""
    assets = persona.setdefault("assets", {})
    spent: dict[str, int] = {}
    report: dict[str, dict[str, int]] = {}
    for unit in _ordered(units):
        heads = int(assets.get(unit, 0))
        if heads <= 0:
            continue
        paid = min(heads, int(assets.get(DUCATS, 0)) // DUCATS_PER_MAN)
        _take(assets, DUCATS, paid * DUCATS_PER_MAN, spent)
        unpaid = heads - paid
        report[unit] = {"heads": heads, "paid": paid, "unpaid": unpaid, "lost": _lose(assets, unit, unpaid)}
    return {"kind": "ducats", "units": report, "spent": spent}


def pay_food(persona: Persona, units: tuple[str, ...], free_heads: int) -> dict[str, Any]:
    """Half a unit of food per head for `units`, in priority order. Herds eat only grain; men eat the foods in
    FOOD_ORDER (so they may eat sheep, cattle and finally horses, which shrinks those herds)."""
    assets = persona.setdefault("assets", {})
    spent: dict[str, int] = {}
    report: dict[str, dict[str, int]] = {}
    open_halves: dict[str, int] = {}  # reading 2: the uneaten half of a unit opened this step
    for unit in _ordered(units):
        count = int(assets.get(unit, 0))
        herd = unit in _HERDS
        heads = max(0, count - free_heads) if herd else count
        if heads <= 0:
            continue
        got = 0  # halves eaten
        for food in HERD_FOOD if herd else FOOD_ORDER:
            if got >= heads:
                break
            use = min(open_halves.get(food, 0), heads - got)
            open_halves[food] = open_halves.get(food, 0) - use
            got += use
            units_needed = -(-(heads - got) // 2)
            k = min(max(0, int(assets.get(food, 0))), units_needed)
            _take(assets, food, k, spent)
            use = min(2 * k, heads - got)
            got += use
            open_halves[food] = open_halves.get(food, 0) + 2 * k - use
        unpaid = heads - got
        report[unit] = {"heads": heads, "paid": got, "unpaid": unpaid, "lost": _lose(assets, unit, unpaid)}
    return {"kind": "food", "units": report, "spent": spent}


def pay_naval(persona: Persona) -> dict[str, Any]:
    """April: naval materials per ship, in priority order; a ship is maintained only with all its materials."""
    assets = persona.setdefault("assets", {})
    spent: dict[str, int] = {}
    report: dict[str, dict[str, int]] = {}
    for ship in _ordered(tuple(NAVAL)):
        heads = int(assets.get(ship, 0))
        if heads <= 0:
            continue
        need = NAVAL[ship]
        paid = min(heads, *(int(assets.get(m, 0)) // q for m, q in need.items()))
        paid = max(0, paid)
        for material, q in need.items():
            _take(assets, material, q * paid, spent)
        unpaid = heads - paid
        report[ship] = {"heads": heads, "paid": paid, "unpaid": unpaid, "lost": _lose(assets, ship, unpaid)}
    return {"kind": "naval", "units": report, "spent": spent}


def _summary(persona: Persona, month: int, rec: dict[str, Any]) -> str:
    paid = ", ".join(f"{r['paid']} {u}" for u, r in rec["units"].items() if r["paid"])
    spent = ", ".join(f"{q:,} {i}" for i, q in rec["spent"].items())
    parts = [f"{persona['id']} {persona.get('name', '')}: {MONTHS[month - 1]} maintenance"]
    parts.append(f"spent {spent} for {paid}" if spent else "nothing spent")
    short = [f"{r['unpaid']} {u} not maintained, {r['lost']} lost" for u, r in rec["units"].items() if r["unpaid"]]
    return "; ".join(parts + short) + "."


def _record(ctx: Ctx, persona: Persona, rec: dict[str, Any]) -> None:
    rec["month"] = ctx.month
    ctx.scratch.setdefault("maintenance", {})[persona["id"]] = rec
    if any(r["lost"] for r in rec["units"].values()):
        settle(persona)  # MORALE: "When a persona controls neither troops, nor crew, his morale rating is zero."
    if rec["units"]:
        ctx.tell(persona["family"], _summary(persona, ctx.month, rec))


def _living(ctx: Ctx) -> list[Persona]:
    return [p for _, p in sorted(ctx.state["personae"].items()) if p.get("alive", True)]


def maintenance(ctx: Ctx) -> None:
    """Ducats in May to September, food in October to March, for every living persona's own units."""
    month = ctx.month
    if month in DUCAT_MONTHS:
        for persona in _living(ctx):
            _record(ctx, persona, pay_ducats(persona, DUCAT_MONTHS[month]))
    elif month in FOOD_MONTHS:
        free = FREE_HEADS if month in FREE_MONTHS else 0
        for persona in _living(ctx):
            _record(ctx, persona, pay_food(persona, FOOD_MONTHS[month], free))


def naval_maintenance(ctx: Ctx) -> None:
    """Naval materials are consumed "at the start of the April turn"."""
    if ctx.month != NAVAL_MONTH:
        return
    for persona in _living(ctx):
        _record(ctx, persona, pay_naval(persona))
