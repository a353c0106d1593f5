"""REPUTATION FOR PIETY and charity (POPULARITY): pilgrimage, veneration of relics and icons, alms,
indulgences, charity. Readings of the text are numbered in docs/renaissance/skills.md (S-entries)."""

from __future__ import annotations

import re
from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .ratings import add_rating, gain_piety
from .setup import location_key

# Religions grouped as the pilgrimage table's columns: "Monophysites are subject to the same rules as the
# Orthodox, and Druses are subject to the same rules as Moslems" (pilgrimage and veneration only).
_GROUP = {"catholic": "catholic", "orthodox": "orthodox", "monophysite": "orthodox", "shia": "moslem",
          "sunni": "moslem", "shia/sunni": "moslem", "moslem": "moslem", "muslim": "moslem", "druse": "moslem",
          "druze": "moslem", "buddhist": "buddhist", "hindu": "hindu", "jewish": "jewish", "jew": "jewish"}


def religion_group(religion: str | None) -> str | None:
    """The pilgrimage-table column a religion belongs to, or None (e.g. pagans have no column)."""
    return _GROUP.get((religion or "").strip().lower())


# The pilgrimage table, as reconstructed in docs/renaissance/skills.md S1: centre -> column -> [[month, points]].
# Setup may copy an entry into a location's "pilgrimage" key; a location without that key falls back to this.
PILGRIMAGE_CENTRES: dict[str, dict[str, list[list[int]]]] = {
    "Rome": {"catholic": [[2, 30]]},
    "Jerusalem": {"catholic": [[4, 100]], "orthodox": [[4, 100]], "jewish": [[4, 120], [6, 40], [9, 40]]},
    "Benares": {"buddhist": [[4, 60]], "hindu": [[4, 100]]},
    "Mecca": {"moslem": [[4, 200]]},
    "Bethlehem": {"catholic": [[4, 50]], "orthodox": [[4, 50]]},
    "Canterbury": {"catholic": [[7, 10]]},
    "Kusinagara": {"buddhist": [[7, 30]]},
    "Kiev": {"orthodox": [[7, 30]]},
    "Santiago de Compostela": {"catholic": [[9, 50]]},
    "Kapilavastu": {"buddhist": [[9, 30]]},
    "Aachen": {"catholic": [[9, 10]]},
    "Loreto": {"catholic": [[12, 20]]},
    "Gaya": {"buddhist": [[12, 30]], "hindu": [[12, 50]]},
    "Mount Athos": {"orthodox": [[12, 50]]},
}


_CENTRES_BY_SQUASHED = {location_key(name): table for name, table in PILGRIMAGE_CENTRES.items()}


def pilgrimage_points(location: dict[str, Any], religion: str | None, month: int) -> int:
    """Piety a pilgrim of `religion` earns at `location` in `month` (0 if none). The location's own
    "pilgrimage" data rules when present; its religion keys may name a religion or a column ("shia")."""
    group = religion_group(religion)
    if group is None:
        return 0
    table = location.get("pilgrimage")
    if table is None:
        table = _CENTRES_BY_SQUASHED.get(location_key(location.get("name", "")), {})
    best = 0
    for key, entries in table.items():
        if religion_group(key) != group:
            continue
        for entry_month, points in entries:
            if int(entry_month) == month:
                best = max(best, int(points))
    return best


def _ducats(persona: Persona) -> int:
    return int(persona.get("assets", {}).get("ducats", 0))


def _pay(persona: Persona, ducats: int) -> None:
    persona.setdefault("assets", {})["ducats"] = _ducats(persona) - ducats


def pilgrimage(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    where = ctx.start_location.get(pid)
    location = ctx.location(where)
    if location is None or not ctx.start_inside.get(pid):
        return fail("a pilgrimage is completed only by one inside a centre of pilgrimage at the start of the month")
    points = pilgrimage_points(location, persona.get("religion"), ctx.month)
    if points <= 0:
        return fail(f"{where} is no centre of pilgrimage for his religion this month")
    if not ctx.once("pilgrimage", pid):
        return fail("he has already completed a pilgrimage this month")
    gained = gain_piety(persona, points)
    return done(f"completed a pilgrimage to {where}: piety +{gained}")


# Which religious objects each column venerates in April.
_VENERATED = {"catholic": "relic", "orthodox": "icon"}


def venerate(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    if ctx.month != 4:
        return fail("relics and icons are venerated only in April")
    item = _VENERATED.get(religion_group(persona.get("religion")) or "")
    if item is None:
        return fail("only Catholics venerate relics and only the Orthodox icons")
    if not ctx.once("venerate", persona["id"]):
        return fail("he already venerates this month")
    # "relics in his possession at the end of his turn": counted by the end step (S3), after transfers
    # and sales later in the month.
    ctx.scratch.setdefault("piety.venerate", []).append(persona["id"])
    return done(f"will venerate the {item}s he holds at the end of the month")


def settle_veneration(ctx: Ctx) -> None:
    for pid in ctx.scratch.get("piety.venerate", []):
        persona = ctx.persona(pid)
        if persona is None or not persona.get("alive", True):
            continue
        item = _VENERATED[religion_group(persona.get("religion")) or "catholic"]
        held = int(persona.get("assets", {}).get(item, 0))
        gained = gain_piety(persona, min(held * held, 100)) if held > 0 else 0
        ctx.tell(persona["family"], f"{persona['name']} ({pid}) venerated {held} {item}(s): piety +{gained}")


ALMS_CAP_PER_YEAR = 100


def alms(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    if ctx.month != 4:
        return fail("alms are given only in April")
    # Only Shia and Sunni: Druses share the Moslems' rules for pilgrimage and veneration only (S4).
    if (persona.get("religion") or "").lower() not in ("shia", "sunni"):
        return fail("only Shia and Sunni personae give alms")
    offered = int(args.get("ducats", 0))
    by_year = persona.setdefault("alms_year", {})
    year = str(ctx.year)
    room = ALMS_CAP_PER_YEAR - int(by_year.get(year, 0))
    points = min(offered // 100, room)
    if offered < 100:
        return fail("alms earn one point of piety per 100 ducats: give at least 100")
    if points <= 0:
        return fail(f"he has already earned {ALMS_CAP_PER_YEAR} points of piety by alms this year")
    cost = points * 100  # only what earns piety is disbursed (S5)
    if _ducats(persona) < cost:
        return fail(f"he has fewer than {cost} ducats")
    _pay(persona, cost)
    by_year[year] = int(by_year.get(year, 0)) + points
    gained = gain_piety(persona, points)
    return done(f"gave {cost} ducats in alms: piety +{gained}")


def charity(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    offered = int(args.get("ducats", 0))
    if offered < 1000:
        return fail("charity earns one point of popularity per 1,000 ducats: give at least 1,000")
    # Only whole thousands are given: the odd hundreds would buy nothing (S6).
    cost = offered // 1000 * 1000
    if _ducats(persona) < cost:
        return fail(f"he has fewer than {cost} ducats")
    _pay(persona, cost)
    gained = add_rating(persona, "popularity", cost // 1000)
    return done(f"gave {cost} ducats in charity: popularity +{gained}")


def is_pope(ctx: Ctx, pid: str) -> bool:
    """The Pope: state["pope"] names him, or one of his titles is "Pope" (S7)."""
    if ctx.state.get("pope") == pid:
        return True
    persona = ctx.persona(pid) or {}
    return any(re.search(r"\bpope\b", str(title), re.I) for title in persona.get("titles", []))


def is_archbishop_over(ctx: Ctx, pid: str, where: str) -> bool:
    """Is `pid` the archbishop whose see contains `where` (the location's own archbishop, or its see's)?"""
    location = ctx.location(where) or {}
    if (location.get("offices") or {}).get("archbishop") == pid:
        return True
    see = ctx.location(location.get("see"))
    return see is not None and (see.get("offices") or {}).get("archbishop") == pid


def indulgence(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    if ctx.month != 2:
        return fail("indulgences are granted only in February")
    pid = persona["id"]
    target = str(args.get("beneficiary", ""))
    beneficiary = ctx.persona(target)
    if beneficiary is None or not beneficiary.get("alive", True):
        return fail(f"there is no persona {target}")
    if target == pid:
        return fail("he may not grant himself an indulgence")
    if (persona.get("religion") or "").lower() != "catholic":
        return fail("only the Pope and Catholic archbishops grant indulgences")
    if (beneficiary.get("religion") or "").lower() != "catholic":
        return fail(f"{beneficiary['name']} is not a Catholic")
    where = ctx.start_location.get(pid)
    if (where is None or ctx.start_location.get(target) != where or persona.get("location") != where
            or beneficiary.get("location") != where):
        return fail(f"{beneficiary['name']} did not start the month, and is not, at the same location as he")
    if not (is_pope(ctx, pid) or is_archbishop_over(ctx, pid, where)):
        return fail(f"he is neither the Pope nor the archbishop whose see contains {where}")
    if not ctx.once("indulgence", target):
        return fail(f"{beneficiary['name']} has already received an indulgence this month")
    gained = gain_piety(beneficiary, 20)
    ctx.tell(beneficiary["family"], f"{beneficiary['name']} ({target}) received an indulgence from "
                                    f"{persona['name']}: piety +{gained}")
    return done(f"granted an indulgence to {beneficiary['name']}: piety +{gained}")


GUNFIRE_PIETY = 100
_GUNFIRE = "piety.gunfire"  # ctx.once key: the loss falls once a month


def gunfire(ctx: Ctx, persona: Persona) -> int:
    """REPUTATION FOR PIETY: "The piety rating of a Sunni, or Shia, persona diminishes by 100 points in any month in
    which he fires cannons, or falconets." Called wherever a persona's guns fire (a battle, a siege or naval
    bombardment, counter-battery); the loss falls once a month, never below 0. Returns the points lost by this
    call. Piety falling moves no popularity (only a rise does, POPULARITY)."""
    if str(persona.get("religion") or "").lower() not in ("shia", "sunni"):
        return 0
    if not ctx.once(_GUNFIRE, persona["id"]):
        return 0
    return -add_rating(persona, "piety", -GUNFIRE_PIETY)
