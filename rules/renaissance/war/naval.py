"""NAVAL BATTLES and Appendix F (the engine is naval_battle.py, the fleets and the cargo adjustment naval_fleet.py);
NAVAL BOMBARDMENT: the order (KV) and the month step that fires it; the piety a Shia or Sunni loses to gunfire.

NAVAL BOMBARDMENT: "A persona starting a turn next to a body of water may have his cannons fire at ships anchored
in, or passing through, that body of water, but he may not fire at ships more than 5,000 yards from his cannons. To
fire his cannons, he must have issued "naval bombardment" orders during the preceding turn (describing in no more
than 30 letters the personae whose ships he wishes to bombard), and he must abstain from movement during the turn
of bombardment. Bombarding cannons score a number of hits equal to .3xG/1000 (G=the bombarder's gunnery skill). 2%
of all firing cannon self-destruct. The largest ships in the bombarded fleet are the first to be hit. Three hits
sink a galley. Two hits sink a roundship. One hit sinks a galliot, caravel or barque. Hits scored against galleys
and roundships are not dispersed. They are concentrated against one ship until it is sunk. Then they are
concentrated against the next. Ships that are hit, but not sunk, are immediately repaired by their crew. ... When
ships are sunk, cargo is adjusted as in naval battle. Morale is unaffected. Cannons used for naval bombardment may
not be used for siege bombardment in the same turn."

The readings (RW-OQ-42 and the naval section's own) are in docs/renaissance/war.md, section "naval".
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .. import geography as geo
from .. import piety
from .. import ships as sh
from ..context import Ctx, Outcome, Persona, done, fail
from ..names import find_family
from ..passengers import kill
from . import fees
from . import morale as mo
from .arith import loss
from .forces import persona_name
from .naval_battle import NavalResult, NavalStage, fight
from .naval_fleet import BY_SIZE, throw_overboard
from .words import describe

MAX_FAMILIES = 7  # CONFLICT ORDERS: "'all', or a list of no more than seven families"
HIT_RATE = Fraction(3, 10)  # hits per cannon x G/1000 (RW-OQ-42: per cannon, the battery's hits rounded up)
CANNON_SELF_DESTRUCT = Fraction(2, 100)
HITS_TO_SINK = {"galley": 3, "roundship": 2, "caravel": 1, "galliot": 1, "barque": 1}

SCRATCH_PASSAGES = "war.passages"  # location -> ids whose move started at, passed through or ended at it
SCRATCH_NAVAL_CANNONS = "war.naval_cannons"  # pid -> cannons fired in naval bombardment this month
SCRATCH_SIEGE_CANNONS = "war.siege_cannons"  # pid -> cannons fired in siege bombardment this month (siege.py)

# battle.py calls naval.fight(a, b) -> NavalResult (naval_battle.py).
__all__ = ["NavalResult", "NavalStage", "fight", "naval_bombardment", "naval_bombardments"]


# ---- REPUTATION FOR PIETY ---------------------------------------------------------------------------------

# ---- the order ----------------------------------------------------------------------------------------------

def _targets(ctx: Ctx, args: dict[str, Any]) -> tuple[list[str], str]:
    """The families named (their keys in the state), or ["ALL"]; a reason when the list cannot stand."""
    written = [str(t).strip() for t in args.get("targets") or [] if str(t).strip()]
    if not written:
        return [], "the order names no one: write ALL or up to seven family names"
    if any(t.upper() == "ALL" for t in written):
        return ["ALL"], ""
    keys = {k.upper(): k for k in ctx.state["families"]}
    named: list[str] = []
    for t in written:
        key = keys.get(t.upper()) or find_family(ctx.state, t)  # "the Borgias": BORGIA
        if key is None:
            return [], f"there is no family {t}"
        if key not in named:
            named.append(key)
    if len(named) > MAX_FAMILIES:
        return [], f"{len(named)} families named; no more than {MAX_FAMILIES} (CONFLICT ORDERS)"
    return named, ""


def _whom(targets: list[str]) -> str:
    return "every other family" if targets == ["ALL"] else ", ".join(targets)


def naval_bombardment(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KV: fire next month at the ships of the families named (or ALL). Charged now, as the order is carried out
    (RW-OQ-45), after CREDIT's test; the firing is charged again."""
    targets, why = _targets(ctx, args)
    if not targets:
        return fail(why)
    refusal = fees.credit_refusal(ctx, persona)
    if refusal:
        return fail(refusal)
    persona["naval_bombardment"] = {"targets": targets, "turn": ctx.turn + 1}
    fees.charge(ctx, persona, "naval bombardment order")
    return done(f"next month his cannons fire at the ships of {_whom(targets)} in the water by him, if he starts "
                f"that month at a port and does not move")


# ---- the month step -----------------------------------------------------------------------------------------

def naval_bombardments(ctx: Ctx) -> None:
    """After every family's orders: each persona whose bombardment order is for this month fires, or is told why
    not. The order is spent either way."""
    for pid in sorted(ctx.state["personae"]):
        persona = ctx.state["personae"][pid]
        order = persona.get("naval_bombardment")
        if not order or order.get("turn") != ctx.turn:
            continue
        persona["naval_bombardment"] = None
        if persona.get("alive", True):
            _bombard(ctx, persona, list(order.get("targets") or []))


def _moved(ctx: Ctx, persona: Persona, where: str) -> bool:
    """"He must abstain from movement during the turn of bombardment": he is where he started, and no move of
    his was recorded anywhere this month."""
    if persona.get("location") != where or persona.get("at_sea"):
        return True
    return any(persona["id"] in ids for ids in (ctx.scratch.get(SCRATCH_PASSAGES) or {}).values())


def _why_not(ctx: Ctx, persona: Persona, where: str | None) -> str | None:
    if where is None or ctx.location(where) is None or not geo.is_port(ctx.state, where):
        return "he did not start the month at a port, next to a body of water"
    if _moved(ctx, persona, where):
        return "he moved this month, and a bombarder must abstain from movement"
    refusal = fees.credit_refusal(ctx, persona)
    if refusal:
        return refusal
    if _free_cannons(ctx, persona) <= 0:
        return "he has no cannons free to fire"
    return None


def _free_cannons(ctx: Ctx, persona: Persona) -> int:
    """His cannons, less any that fired in siege bombardment this month (the two uses exclude each other)."""
    used = int((ctx.scratch.get(SCRATCH_SIEGE_CANNONS) or {}).get(persona["id"], 0))
    return max(0, int((persona.get("assets") or {}).get("cannon", 0)) - used)


def _aimed_at(persona: Persona, other: Persona, targets: list[str]) -> bool:
    """ALL is every family but his own; a named family is fired at even if it is his."""
    if targets == ["ALL"]:
        return other.get("family") != persona.get("family")
    return other.get("family") in targets


def targets_in_water(ctx: Ctx, persona: Persona, where: str, targets: list[str]) -> list[tuple[Persona, bool]]:
    """The personae whose ships are "anchored in, or passing through" his water, with whether each is anchored:
    at his location when the step runs (anchored), or recorded in ctx.scratch["war.passages"][where] (passing).
    By persona id."""
    passing = set((ctx.scratch.get(SCRATCH_PASSAGES) or {}).get(where) or ())
    out: list[tuple[Persona, bool]] = []
    for vid in sorted(ctx.state["personae"]):
        other = ctx.state["personae"][vid]
        if vid == persona["id"] or not other.get("alive", True) or not sh.fleet(other.get("assets") or {}):
            continue
        if not _aimed_at(persona, other, targets):
            continue
        anchored = other.get("location") == where and not other.get("at_sea")
        if anchored or vid in passing:
            out.append((other, anchored))
    return out


def hits_scored(cannons: int, gunnery: int) -> int:
    """".3xG/1000" per cannon, the battery's total rounded up (RW-OQ-42: a loss to the fleet hit)."""
    return loss(cannons * HIT_RATE * gunnery / 1000)


def place_hits(fleets: list[tuple[str, dict[str, int]]], hits: int) -> dict[str, dict[str, int]]:
    """Ships sunk by `hits`, by owner: the largest first (by weight as cargo, RW-OQ-42), the owners in the order
    given; hits concentrated on one ship until it sinks. Hits too few to sink the next ship are spent on it, and
    it is repaired: they never reach a smaller ship."""
    sunk: dict[str, dict[str, int]] = {}
    for ship in BY_SIZE:
        for owner, fleet in fleets:
            n = fleet.get(ship, 0)
            if n <= 0:
                continue
            k = min(n, hits // HITS_TO_SINK[ship])
            if k:
                sunk.setdefault(owner, {})[ship] = k
                hits -= k * HITS_TO_SINK[ship]
            if k < n:
                return sunk
    return sunk


def sink_ships(ctx: Ctx, victim: Persona, sunk: dict[str, int], anchored: bool,
               cause: str) -> tuple[dict[str, int], bool]:
    """Sink his ships and adjust his cargo "as in naval battle". What was aboard is what the ships could carry:
    a persona in port may hold more than his ships' capacity ashore, and only what was aboard the sunk ships is
    thrown (the excess of min(cargo, capacity before) over the capacity after). One at sea who loses his last ship
    drowns with everything (TRAVEL: "Personae drown when they lose their last ship"). Returns (thrown, drowned)."""
    assets = victim.setdefault("assets", {})
    before, cargo = sh.capacity(assets), sh.cargo_at_sea(assets)
    for ship, n in sunk.items():
        assets[ship] = int(assets.get(ship, 0)) - n
    excess = min(cargo, before) - sh.capacity(assets)
    thrown = throw_overboard(sh.fleet(assets), assets, excess) if excess > 0 else {}
    if not anchored and not sh.fleet(assets):
        victim["assets"] = {}
        kill(ctx, victim, cause)
        return thrown, True
    mo.settle(victim)  # "Morale is unaffected", save that a persona with no troops and no crew has none
    return thrown, False


def _bombard(ctx: Ctx, persona: Persona, targets: list[str]) -> None:
    family, name = persona.get("family", ""), persona_name(persona)
    where = ctx.start_location.get(persona["id"])
    why = _why_not(ctx, persona, where)
    victims = targets_in_water(ctx, persona, where, targets) if why is None and where is not None else []
    if why is None and not victims:
        why = f"no ships of {_whom(targets)} were anchored at, or passed through, {where}"
    if why is not None or where is None:
        ctx.tell(family, f"{name}: naval bombardment not fired: {why}")
        return
    assets = persona["assets"]
    cannons = _free_cannons(ctx, persona)
    gunnery = int((persona.get("skills") or {}).get("gunnery", 0))
    hits = hits_scored(cannons, gunnery)
    sunk = place_hits([(v["id"], sh.fleet(v["assets"])) for v, _ in victims], hits)
    destroyed = loss(CANNON_SELF_DESTRUCT * cannons, cannons)
    assets["cannon"] = int(assets.get("cannon", 0)) - destroyed
    fired = ctx.scratch.setdefault(SCRATCH_NAVAL_CANNONS, {})
    fired[persona["id"]] = fired.get(persona["id"], 0) + cannons
    piety_lost = piety.gunfire(ctx, persona)
    fees.charge(ctx, persona, f"naval bombardment fired at {where}")

    news: list[str] = []
    for victim, anchored in victims:
        lost = sunk.get(victim["id"])
        if not lost:
            continue
        thrown, drowned = sink_ships(ctx, victim, lost, anchored,
                                     f"drowned when {name}'s cannons sank his last ship at {where}")
        news.append(f"{describe(lost)} of {persona_name(victim)}, {victim.get('family')}")
        ctx.tell(victim.get("family", ""),
                 f"{persona_name(victim)}: bombarded at {where} by {name}; sunk {describe(lost)}"
                 + (f"; thrown overboard {describe(thrown)}" if thrown else "")
                 + ("; he lost his last ship and drowned" if drowned else ""))
    ctx.tell(family, f"{name}: naval bombardment at {where}: {cannons} cannons x .3 x {gunnery}/1000 = "
                     f"{float(cannons * HIT_RATE * gunnery / 1000):g}, {hits} hits; sunk "
                     f"{'; '.join(news) if news else 'nothing'}; {destroyed} cannons self-destructed (2%)"
                     + (f"; his piety falls by {piety_lost} for firing cannons" if piety_lost else ""))
    ctx.publish(f"Naval bombardment at {where}: the cannons of {name}, {family}, "
                + (f"sank {'; '.join(news)}." if news else "sank nothing."))
