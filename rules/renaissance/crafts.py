"""Appendix A: the making of things. CANNONMAKING (cannons or falconets), GUNSMITHING (arquebuses), ARMORY
(small arms, pikes or armor), BOWMAKING (bows), ALCHEMY (verdigris or vermilion) and the five kinds of
shipbuilding (May only, in a port). One `fabricate` order makes one kind of thing; a skill serves one order a
turn. An order for more than the skill or the purse allows makes as many as they allow (S30). Readings of the
text are numbered in docs/renaissance/skills.md."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .items import item_by_code


def _over(*steps: tuple[int, int]) -> Callable[[int], int]:
    """A limit by thresholds: _over((799, 2), (499, 1)) makes two over 799, one over 499, else none."""
    def limit(rating: int) -> int:
        for threshold, n in steps:
            if rating > threshold:
                return n
        return 0
    return limit


def falconet_limit(rating: int) -> int:
    """One over 299, two over 399, one more per further 100 points, at most eight (a 999 rating, the highest,
    makes seven: S31)."""
    if rating <= 299:
        return 0
    return min(8, 1 + (rating - 300) // 100)


@dataclass(frozen=True)
class Craft:
    item: str
    skill: str
    limit: Callable[[int], int]  # how many a turn for a rating
    ducats: int  # per unit
    materials: dict[str, int] = field(default_factory=dict)  # whole units of material per unit made
    tenth_iron: bool = False  # 1/10th iron per unit, whole iron consumed, the fraction left over lost (S32)
    metal: int = 0  # units of iron, brass or bronze per unit (S33)
    source: str | None = None  # alchemy: the material four units are made from
    ship: bool = False  # May only, starting the turn in a port


CRAFTS: dict[str, Craft] = {c.item: c for c in (
    Craft("cannon", "cannonmaking", _over((799, 2), (499, 1)), 1_000, metal=40),
    Craft("falconet", "cannonmaking", falconet_limit, 500, metal=2),
    Craft("arquebus", "gunsmithing", lambda r: r // 3, 5, tenth_iron=True),
    Craft("small arms", "armory", lambda r: r, 1, tenth_iron=True),
    Craft("pike", "armory", lambda r: r // 2, 2, tenth_iron=True),
    Craft("armor", "armory", lambda r: r // 20, 20, {"iron": 1}),
    Craft("bow", "bowmaking", lambda r: r // 2, 2),
    Craft("verdigris", "alchemy", lambda r: 4 * r, 0, source="copper"),
    Craft("vermilion", "alchemy", lambda r: 4 * r, 0, source="mercury"),
    Craft("galley", "galleybuilding", _over((799, 1)), 50_000, {"timber": 4_000}, ship=True),
    Craft("galliot", "galliotbuilding", _over((799, 2), (399, 1)), 3_000, {"timber": 400}, ship=True),
    Craft("roundship", "roundshipbuilding", _over((799, 1)), 10_000, {"timber": 1_200, "sail": 3}, ship=True),
    Craft("caravel", "caravelbuilding", _over((799, 2), (399, 1)), 2_000, {"timber": 400, "sail": 3}, ship=True),
    Craft("barque", "barquebuilding", _over((899, 3), (599, 2), (299, 1)), 1_000, {"timber": 200, "sail": 1},
          ship=True),
)}

METALS = ("iron", "brass", "bronze")  # "bronze only if he has no brass or iron, brass only if he has no iron"
SHIP_MONTH = 5


def craft_named(written: str) -> Craft | None:
    w = (written or "").strip().lower()
    if w in CRAFTS:
        return CRAFTS[w]
    item = item_by_code(w)
    return CRAFTS.get(item) if item else None


def tenth_iron(units: int) -> int:
    """Whole iron consumed for `units` at 1/10th iron each: 15 arquebuses use 1.5 iron, so 2 iron are
    expended and the half left over is lost (S32)."""
    return -(-units // 10)


def metal_for(assets: dict[str, Any]) -> str:
    """The one metal a cannon or falconet may be made of: iron if he holds any, else brass if any, else bronze."""
    for metal in METALS:
        if int(assets.get(metal, 0)) > 0:
            return metal
    return "bronze"


def _plural(item: str, n: int) -> str:
    if n == 1 or item in ("small arms", "armor", "verdigris", "vermilion"):
        return f"{n} {item}"
    return f"{n} {item}es" if item.endswith("s") else f"{n} {item}s"


def fabricate(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    craft = craft_named(str(args.get("item", "")))
    if craft is None:
        return fail(f"{args.get('item')!r} is nothing a persona can make")
    asked = int(args.get("qty", 0) or 0)
    if asked <= 0:
        return fail("say how many to make")
    if craft.ship:
        if ctx.month != SHIP_MONTH:
            return fail("ships are built only in the May turn")
        start = ctx.location(ctx.start_location.get(pid))
        if start is None or start.get("harbor") is None:
            return fail("ships are built only by one who started the turn in a port")
    rating = int(persona.get("skills", {}).get(craft.skill, 0))
    allowed = craft.limit(rating)
    if allowed <= 0:
        return fail(f"his {craft.skill} ({rating}) is too low to make any {craft.item}")
    if ctx.scratch.get("crafts.used", {}).get((pid, craft.skill)):
        return fail(f"his {craft.skill} has already served an order this turn")
    assets = persona.setdefault("assets", {})
    n = min(asked, allowed)
    why = f"his {craft.skill} allows {allowed}" if asked > allowed else ""
    if craft.source:
        # Four units made per unit expended: an order for 10 makes 8 from 2 (S34).
        n = min(n // 4, int(assets.get(craft.source, 0))) * 4
        if n <= 0:
            return fail(f"{craft.item} is made four units at a time from {craft.source}; he has "
                        f"{int(assets.get(craft.source, 0))} {craft.source}")
    # What the purse and the stores allow.
    ducats = int(assets.get("ducats", 0))
    caps: list[tuple[int, str]] = []
    if craft.ducats:
        caps.append((ducats // craft.ducats, f"{craft.ducats} ducats each"))
    for material, per in craft.materials.items():
        caps.append((int(assets.get(material, 0)) // per, f"{per} {material} each"))
    if craft.tenth_iron:
        caps.append((int(assets.get("iron", 0)) * 10, "1/10th iron each"))
    metal = metal_for(assets)
    if craft.metal:
        caps.append((int(assets.get(metal, 0)) // craft.metal,
                     f"{craft.metal} {metal} each (he may use brass only with no iron, bronze only with neither)"))
    for cap, what in caps:
        if cap < n:
            n, why = cap, f"he can afford only {cap} at {what}"
    if n <= 0:
        return fail(f"no {craft.item} made: {why}")
    spent: dict[str, int] = {}
    if craft.ducats:
        spent["ducats"] = n * craft.ducats
    for material, per in craft.materials.items():
        spent[material] = n * per
    if craft.tenth_iron:
        spent["iron"] = tenth_iron(n)
    if craft.metal:
        spent[metal] = n * craft.metal
    if craft.source:
        spent[craft.source] = n // 4
    for item, qty in spent.items():
        assets[item] = int(assets.get(item, 0)) - qty
    assets[craft.item] = int(assets.get(craft.item, 0)) + n
    ctx.scratch.setdefault("crafts.used", {})[(pid, craft.skill)] = True
    cost = ", ".join(f"{qty} {item}" for item, qty in spent.items())
    short = f" (of {asked} ordered: {why})" if n < asked else ""
    return done(f"made {_plural(craft.item, n)}{short} for {cost}")
