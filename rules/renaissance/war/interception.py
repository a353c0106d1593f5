"""Interception along a move, for travel.py (BATTLE, TRAVEL, SIEGE, CONFLICT ORDERS): who stops a mover at a stop of
his move (`interceptors`: the intercept orders valid this month, the besieger of walls entered by land), the meeting
(`meet`: the 20-to-1 rule, else a battle at the point of the encounter), the ferry stopped by a fleet at its
midpoint (`ferry_blockade`); the month's record of moves (`note_move`, `has_moved`) and of passages (`note_passage`,
ctx.scratch["war.passages"], which the naval bombardment reads).

Readings: docs/renaissance/war.md, section "conflict" (RW-OQ-04, 05, 08; K1, K2, K3, K17).
"""

from __future__ import annotations

from .. import geography as geo
from ..context import Ctx, Persona
from ..items import SHIPS, TROOPS
from . import battle, fees, limits, reports, siege
from . import morale as mo
from .presence import Point, alive, at, men, name, same_point, sea_point
from .sides import Battle

ALL = "ALL"
TWENTY_TO_ONE = 20  # TRAVEL: "outnumbers the intercepting force by more than twenty to one"

_MOVED = "war.moved"  # pids whose movement order ran this month (done or failed: travel.md T2)
_PASSAGES = "war.passages"  # location -> pids whose move started at, passed through or ended at it
_INTERCEPTORS = "war.interceptors"  # pids with intercept orders valid this month (built once a month)


# ---- the month's record of moves ---------------------------------------------------------------------------------

def note_move(ctx: Ctx, pid: str) -> None:
    ctx.scratch.setdefault(_MOVED, set()).add(pid)


def has_moved(ctx: Ctx, pid: str) -> bool:
    return pid in ctx.scratch.get(_MOVED, set())


def note_passage(ctx: Ctx, where: str, pid: str) -> None:
    """His move this month started at, passed through or ended at `where` (NAVAL BOMBARDMENT reads it: ships
    "anchored in, or passing through")."""
    seen = ctx.scratch.setdefault(_PASSAGES, {}).setdefault(where, [])
    if pid not in seen:
        seen.append(pid)


# ---- interception ------------------------------------------------------------------------------------------------

def interceptor_ids(ctx: Ctx) -> list[str]:
    """The personae with intercept orders valid this month, found once a month (a scan of every persona per move
    would make a month of thousands of moves quadratic)."""
    ids = ctx.scratch.get(_INTERCEPTORS)
    if ids is None:
        ids = [pid for pid, p in sorted(ctx.state["personae"].items())
               if (p.get("intercept") or {}).get("turn") == ctx.turn]
        ctx.scratch[_INTERCEPTORS] = ids
    return ids


def intercepts(interceptor: Persona, mover: Persona) -> bool:
    """Does his order name the mover? "directed at 'all' or at a list of ... families"; never his own family (K1)."""
    if interceptor["id"] == mover["id"] or interceptor.get("family") == mover.get("family"):
        return False
    targets = (interceptor.get("intercept") or {}).get("targets") or []
    return ALL in targets or mover.get("family") in targets


def interceptors(ctx: Ctx, mover: Persona, where: str | None, point: Point | None, *, by: str,
                 entering: bool) -> list[tuple[Persona, str]]:
    """Who stops `mover` at this stop of his move (RW-OQ-08): each persona with intercept orders for this month
    naming his family, outside the walls of `where` (or at `point` at sea), with men to intercept with, in id
    order; then, when the move enters the walls of `where` by land, its besieger ("A besieging force intercepts all
    parties attempting to enter the fortification by land movement"; he "is always assumed to be closer to the
    fortification than any other force"). Each comes as (persona, "intercept" | "siege")."""
    found: list[tuple[Persona, str]] = []
    for pid in interceptor_ids(ctx):
        p = ctx.state["personae"][pid]
        if alive(p) and not p.get("inside") and not p.get("with") and at(p, where, point) and men(p) > 0 \
                and intercepts(p, mover):
            found.append((p, "intercept"))
    location = ctx.location(where)
    if entering and by == siege.LAND and location is not None and location.get("siege"):
        besieger = siege.besieger(ctx, where)
        if besieger is not None and besieger.get("family") != mover.get("family") and men(besieger) > 0 \
                and besieger["id"] not in {p["id"] for p, _ in found}:
            found.append((besieger, "siege"))
    return found


def outnumbers(mover: Persona, interceptor: Persona) -> bool:
    """TRAVEL: "when the moving force outnumbers the intercepting force by more than twenty to one" (troops and
    crew, each interceptor on his own: RW-OQ-04)."""
    return men(mover) > TWENTY_TO_ONE * men(interceptor)


def destroy_force(ctx: Ctx, interceptor: Persona, mover: Persona, where_words: str) -> None:
    """"the intercepting force is destroyed without battle": his troops and crew are gone (K3)."""
    assets = interceptor.setdefault("assets", {})
    lost = {t: int(assets.get(t, 0)) for t in (*TROOPS, "crew") if int(assets.get(t, 0)) > 0}
    for t in lost:
        assets[t] = 0
    mo.settle(interceptor)
    text = (f"{name(mover)} ({men(mover):,} troops and crew) outnumbered the intercepting force of "
            f"{name(interceptor)} ({sum(lost.values()):,}) more than twenty to one {where_words}: it was destroyed "
            f"without battle ({reports.describe(lost)}), and he went on.")
    for family in {interceptor.get("family", ""), mover.get("family", "")}:
        ctx.tell(family, text)
    ctx.publish(text)


def meet(ctx: Ctx, mover: Persona, found: list[tuple[Persona, str]], where: str | None,
         point: Point | None) -> bool:
    """The mover meets the forces that intercept him here, one after another (RW-OQ-04): each that he outnumbers
    more than twenty to one is destroyed without battle; each other attacks him in a field battle (at sea, a
    naval battle). The interceptor is the attacker and the initiator; at a siege line the besieger is the attacker
    and the crosser the initiator (RW-OQ-05). Returns True when he ceases movement here ("ceases movement at the
    point of the encounter", win or lose: RW-OQ-08). travel.py has put him at this stop, outside the walls."""
    stopped = False
    where_words = f"at {where}" if where else "at sea"
    for interceptor, why in found:
        if not alive(mover):
            break
        if not alive(interceptor) or men(interceptor) == 0:
            continue
        if why == "intercept" and (refusal := fees.credit_refusal(ctx, interceptor) or
                                   limits.may_initiate(ctx, interceptor["id"])):
            ctx.tell(interceptor.get("family", ""), f"{name(interceptor)} did not intercept {name(mover)} "
                     f"{where_words}: {refusal}.")
            continue
        if outnumbers(mover, interceptor):
            destroy_force(ctx, interceptor, mover, where_words)
            continue
        initiator = interceptor if why == "intercept" else mover
        kind = "field" if where is not None else "naval"
        b = Battle.between(ctx, kind, interceptor, mover, where=where, initiator=initiator, spare=False)
        b.title += " (interception)" if why == "intercept" else " (the siege line crossed)"
        battle.fight(ctx, b)  # looked up at call time: battle imports naval, which imports travel, which imports us
        stopped = True
    return stopped


def ferry_blockade(ctx: Ctx, a: str, b: str) -> Persona | None:
    """CONFLICT ORDERS: "Naval interception orders for a fleet situated at the midpoint of a ferry route may be
    directed at 'all traffic including ferries'. While a fleet remains at that point with such orders in effect,
    that ferry will be prevented from operating." The fleet stopping the ferry between `a` and `b`, or None."""
    mid = midpoint(geo.point_of(ctx.state, a), geo.point_of(ctx.state, b))
    for pid in interceptor_ids(ctx):
        p = ctx.state["personae"][pid]
        order = p.get("intercept") or {}
        here = sea_point(p)
        fleet = any(int((p.get("assets") or {}).get(s, 0)) > 0 for s in SHIPS)
        if alive(p) and order.get("ferries") and fleet and here is not None and same_point(here, mid):
            return p
    return None


def midpoint(a: Point, b: Point) -> Point:
    """The midpoint of a ferry route: the mean of its ends (ferry routes are a few miles long: the great circle's
    own midpoint lies within yards of it)."""
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
