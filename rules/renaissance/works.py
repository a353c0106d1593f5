"""Appendix A: ARCHITECTURE, ART, LETTERS (works that raise a sponsor's popularity or lower a victim's),
SERMONIZING and FORTIFICATION. Readings of the text are numbered in docs/renaissance/skills.md."""

from __future__ import annotations

import math
from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .ratings import add_rating

ART_MONTHS = (5, 8, 11)  # "During the August, November and May turns"
ART_COST = 1_000
LETTERS_COST = 100
ARCHITECTURE_COST = 20_000
ARCHITECTURE_MONTH = 8


def _ducats(persona: Persona) -> int:
    return int(persona.get("assets", {}).get("ducats", 0))


def _pay(persona: Persona, ducats: int) -> None:
    persona.setdefault("assets", {})["ducats"] = _ducats(persona) - ducats


def _skill(persona: Persona, skill: str) -> int:
    return int(persona.get("skills", {}).get(skill, 0))


def _who(persona: Persona) -> str:
    return f"{persona['name']} ({persona['id']})"


def negative_multiplier(ctx: Ctx, author: Persona, victim: Persona) -> int:
    """Doubled for the same religion, doubled for the same starting location, quadrupled for both."""
    mult = 1
    if (author.get("religion") or "").lower() == (victim.get("religion") or "").lower():
        mult *= 2
    start = ctx.start_location.get(author["id"])
    if start is not None and ctx.start_location.get(victim["id"]) == start:
        mult *= 2
    return mult


def negative_art_loss(art: int, mult: int) -> int:
    """.0125 x art rating x multiplier, fraction dropped (S20): .0125 = 1/80, kept exact."""
    return art * mult // 80


def negative_letters_loss(letters: int, mult: int) -> int:
    """letters rating x .0025 x multiplier, fraction dropped (S20): .0025 = 1/400."""
    return letters * mult // 400


def architecture_population(architecture: int, loyalty: int) -> int:
    """100 x A/1000 x L/1000, fraction dropped."""
    return 100 * architecture * loyalty // 1_000_000


def work(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    kind = str(args.get("work", ""))
    tid = str(args.get("target", ""))
    target = ctx.persona(tid)
    if kind not in ("art", "negative_art", "letters", "negative_letters", "architecture"):
        return fail(f"there is no kind of work {kind!r}")
    if target is None or not target.get("alive", True):
        return fail(f"there is no persona {tid}")
    if kind == "architecture":
        return _architecture(ctx, persona, target)
    field = "art" if kind.endswith("art") else "letters"
    if field == "art" and ctx.month not in ART_MONTHS:
        return fail("works of art are produced only in the May, August and November turns")
    rating = _skill(persona, field)
    if rating <= 0:
        return fail(f"he has no skill in {field}")
    cost = ART_COST if field == "art" else LETTERS_COST
    if _ducats(persona) < cost:
        return fail(f"a work of {field} costs {cost} ducats; he has {_ducats(persona)}")
    # One work of art and one of letters a turn; a negative work is made "in lieu of" the ordinary one (S21).
    if not ctx.once("work", field, persona["id"]):
        return fail(f"he has already produced a work of {field} this turn")
    _pay(persona, cost)
    noun = "art" if field == "art" else "letters"
    if kind.startswith("negative"):
        mult = negative_multiplier(ctx, persona, target)
        loss = negative_art_loss(rating, mult) if field == "art" else negative_letters_loss(rating, mult)
        lost = -add_rating(target, "popularity", -loss)
        ctx.publish(f"{_who(persona)} produced a negative work of {noun} against {_who(target)}.")
        if target["family"] != persona["family"]:
            ctx.tell(target["family"], f"{_who(target)} lost {lost} popularity to a negative work of {noun} by "
                                       f"{_who(persona)}")
        return done(f"produced a negative work of {noun} against {target['name']}: popularity -{lost}")
    gain = rating // 10 if field == "art" else rating * 2 // 100  # 10% of art, 2% of letters
    gained = add_rating(target, "popularity", gain)
    ctx.publish(f"{_who(persona)} produced a work of {noun} sponsored by {_who(target)}.")
    if target["family"] != persona["family"]:
        ctx.tell(target["family"], f"{_who(target)} sponsored a work of {noun} by {_who(persona)}: "
                                   f"popularity +{gained}")
    return done(f"produced a work of {noun} sponsored by {target['name']}: popularity +{gained}")


def _architecture(ctx: Ctx, persona: Persona, sponsor: Persona) -> Outcome:
    pid = persona["id"]
    if ctx.month != ARCHITECTURE_MONTH:
        return fail("works of architecture are organized only in the August turn")
    where = ctx.start_location.get(pid)
    if where is None or persona.get("at_sea"):
        return fail("a work of architecture needs a location to stand in")
    if _skill(persona, "architecture") <= 0:
        return fail("he has no skill in architecture")
    if _ducats(persona) < ARCHITECTURE_COST:
        return fail(f"a work of architecture costs {ARCHITECTURE_COST} ducats; he has {_ducats(persona)}")
    if not ctx.once("work", "architecture", pid):
        return fail("he may organize only one work of architecture a turn")
    # He must remain at the location "during the entire August turn", and movement runs after this order: the
    # work is settled at the end of the month (S22).
    ctx.scratch.setdefault("works.architecture", []).append((pid, sponsor["id"], where))
    return done(f"is organizing a work of architecture at {where} sponsored by {sponsor['name']}; it is built "
                f"if he remains there to the end of the month")


def settle_architecture(ctx: Ctx) -> None:
    """After passengers follow their ship (registry.MONTH): a passenger carried away has not remained."""
    for pid, sid, where in ctx.scratch.get("works.architecture", []):
        persona, sponsor = ctx.persona(pid), ctx.persona(sid)
        if persona is None or not persona.get("alive", True):
            continue
        if persona.get("location") != where or persona.get("at_sea"):
            ctx.tell(persona["family"], f"{_who(persona)} left {where}: no work of architecture was built")
            continue
        if _ducats(persona) < ARCHITECTURE_COST:
            ctx.tell(persona["family"], f"{_who(persona)} no longer had {ARCHITECTURE_COST} ducats: no work of "
                                        f"architecture was built at {where}")
            continue
        _pay(persona, ARCHITECTURE_COST)
        a = _skill(persona, "architecture")
        gained = add_rating(sponsor, "popularity", a // 5) if sponsor and sponsor.get("alive", True) else 0
        location = ctx.location(where)
        grown = 0
        if location is not None:
            grown = architecture_population(a, int(location.get("loyalty", 0)))
            location["population"] = int(location.get("population", 0)) + grown
        ctx.publish(f"{_who(persona)} built a work of architecture at {where}"
                    + (f" sponsored by {_who(sponsor)}." if sponsor else "."))
        ctx.tell(persona["family"], f"{_who(persona)} built a work of architecture at {where}: sponsor's "
                                    f"popularity +{gained}, population +{grown}")
        if sponsor and sponsor["family"] != persona["family"]:
            ctx.tell(sponsor["family"], f"{_who(sponsor)} sponsored a work of architecture by {_who(persona)} at "
                                        f"{where}: popularity +{gained}")


# --- SERMONIZING --------------------------------------------------------------------------------------------

def _religion(persona: Persona | None) -> str:
    return ((persona or {}).get("religion") or "").lower()


def sovereign_religion(ctx: Ctx, location: dict[str, Any]) -> str:
    """The sovereign's religion; for a non-player or absent sovereign, the location's own (S24)."""
    sovereign = (location.get("offices") or {}).get("sovereign")
    person = ctx.persona(sovereign) if isinstance(sovereign, str) else None
    if person is not None:
        return _religion(person)
    return (location.get("religion") or "").lower()


def sermon(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    rating = _skill(persona, "sermonizing")
    rise = rating // 100  # 1% of the sermonizing rating, fraction dropped
    if rise <= 0:
        return fail(f"his sermonizing ({rating}) is too weak to move anyone (1% of it is less than a point)")
    if ctx.scratch.get("works.sermon", {}).get(pid):
        return fail("he has already delivered a sermon this turn")
    target = str(args.get("target", "populace"))
    if target.lower() == "populace":
        where = None if persona.get("at_sea") else persona.get("location")
        location = ctx.location(where)
        if location is None:
            return fail("a sermon to the populace is delivered at a location")
        if sovereign_religion(ctx, location) != _religion(persona):
            return fail(f"the sovereign of {where} is not of his religion")
        old = int(location.get("loyalty", 0))
        location["loyalty"] = min(999, old + rise)
        outcome = done(f"preached to the populace of {where}: loyalty {old} -> {location['loyalty']}")
    else:
        hearer = ctx.persona(target)
        if hearer is None or not hearer.get("alive", True):
            return fail(f"there is no persona {target}")
        if _religion(hearer) != _religion(persona):
            return fail(f"{hearer['name']} is not of his religion")
        if _religion(hearer) in ("shia", "sunni"):
            return fail("troops of a Shia or Sunni persona gain no morale from sermons")
        start = ctx.start_location.get(pid)
        if (start is None or ctx.start_location.get(target) != start or persona.get("location") != start
                or hearer.get("location") != start):
            return fail(f"{hearer['name']} did not start the turn, and is not, at the same location as he")
        gained = add_rating(hearer, "morale", rise)
        if hearer["family"] != persona["family"]:
            ctx.tell(hearer["family"], f"{persona['name']} preached to the troops of {_who(hearer)}: morale "
                                       f"+{gained}")
        outcome = done(f"preached to the troops of {hearer['name']}: morale +{gained}")
    ctx.scratch.setdefault("works.sermon", {})[pid] = True
    return outcome


# --- FORTIFICATION ------------------------------------------------------------------------------------------

TOWER_COST = 1_000
TOWER_MAX = 999  # "Towers may never have a rating above 999."


def fortification_cost(population: int) -> int:
    """One ducat per capita, never fewer than 1,000."""
    return max(1_000, int(population))


def fortify(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    pid = persona["id"]
    where = ctx.start_location.get(pid)
    location = ctx.location(where)
    if location is None or not ctx.start_inside.get(pid):
        return fail("fortifications are improved only by one who started the turn inside the location")
    skill = _skill(persona, "fortification")
    rise = math.isqrt(skill)  # square root, fraction dropped (S25)
    if rise <= 0:
        return fail("he has no skill in fortification")
    if ctx.scratch.get("works.fortify", {}).get(pid):
        return fail("he has already improved one fortification measure this turn")
    measure = str(args.get("measure", "")).lower()
    if measure in ("fas", "far"):
        cost = fortification_cost(int(location.get("population", 0)))
        if _ducats(persona) < cost:
            return fail(f"improving {where}'s {measure.upper()} costs {cost} ducats; he has {_ducats(persona)}")
        _pay(persona, cost)
        old = int(location.get(measure, 0))
        location[measure] = old + rise
        text = f"improved {where}'s {measure.upper()} from {old} to {location[measure]} for {cost} ducats"
    elif measure == "tower":
        towers = location.get("towers") or []
        n = int(args.get("tower", 1) or 1)
        if not 1 <= n <= len(towers):
            return fail(f"{where} has no tower number {n}")
        tower = towers[n - 1]
        old = int(tower.get("fas", 0))
        if old >= TOWER_MAX:
            return fail(f"the tower's FAS is already {TOWER_MAX}")
        if _ducats(persona) < TOWER_COST:
            return fail(f"improving a tower costs {TOWER_COST} ducats; he has {_ducats(persona)}")
        _pay(persona, TOWER_COST)
        tower["fas"] = min(TOWER_MAX, old + rise)
        text = f"improved the FAS of {tower.get('name', f'tower {n}')} at {where} from {old} to {tower['fas']}"
    else:
        return fail(f"there is no fortification measure {measure!r} (FAS, FAR or a tower)")
    ctx.scratch.setdefault("works.fortify", {})[pid] = True
    return done(text)
