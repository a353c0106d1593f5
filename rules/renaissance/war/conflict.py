"""Who fights whom, and what a battle does to the game: BATTLE (and ALLIANCE), THE SWORD GARRISONS (sortie, support),
URBAN BATTLE's home side, TOWERS, DE FACTO CONTROL, CONFLICT ORDERS, CREDIT.

- The conflict orders: `intercept` (KI), `attack` (KF, KU, KN), `garrison_attack` (KG), `assault` (KA, KT),
  `alliance` (KL, KX), `no_support` (KO), `dispose` (Z) and `post` (ZP).
- Interception and siege lines, for travel.py: `interceptors`, `meet`, `ferry_blockade`; the month's record of
  passages (`note_passage`, ctx.scratch["war.passages"]) and of moves (`note_move`, `has_moved`).
- What the month's order loop asks (families.py): `after_battle` before every order, `note_executed` after it.
- The one path of every battle: the Sides built from the state (`Battle`), the engine (field.py, urban.py,
  assault.py, naval.py, called through their modules), the result applied to the state (`apply`), the stages
  counted and the fee charged to the initiator, the report (war/reports.py).

Readings: docs/renaissance/war.md, section "conflict" (RW-OQ-03 to 08, 45; the further readings K1 ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .. import geography as geo
from .. import piety
from ..calendar import MONTHS
from ..engine import Ctx, Outcome, Persona, done, fail
from ..items import SHIPS, TROOPS
from ..offices import dfc, holder
from . import assault as assault_engine
from . import control, fees, limits, naval, ranks, reports, siege, urban
from . import field as field_engine
from . import forces as fo
from . import morale as mo
from .arith import gain
from .forces import ATTACKER, DEFENDER, GARRISON, BattleResult, Contingent, Side

State = dict[str, Any]
Location = dict[str, Any]
Point = tuple[float, float]

# BATTLE: "A persona may not execute other orders subsequently in the same turn after having executed battle
# orders" (RW-OQ-03): the battle orders, which alone may follow one another.
BATTLE_ORDERS = frozenset({"attack", "garrison_attack", "assault"})
# "A persona who executes an assault order may not execute other military orders in the month of the assault";
# "A persona may 'siege bombard' a location before assaulting it later in the same turn" (bombard is not here).
MILITARY_ORDERS = frozenset({"intercept", "attack", "garrison_attack", "assault", "siege", "naval_bombardment",
                             "crops", "raze"})
MAX_ALLIES = 6  # ALLIANCE: "allied to the members of up to six families"
MAX_TARGETS = 7  # BATTLE: "'all' or ... a list of not more than seven families"
ALL = "ALL"
TWENTY_TO_ONE = 20  # TRAVEL: "outnumbers the intercepting force by more than twenty to one"
SAME_POINT_MILES = 1  # two places at sea within a mile of each other are the same point (K2)
HOME_OFFICES = ("tenant", "bishop", "feudatory", "sovereign")  # URBAN BATTLE, after "a citizen's"
LAND, WATER = "land", "water"  # how a move goes, as siege.note_entry names it

# Z places: FIELD BATLE's six divisions, the four walls of ASSAULT, NAVAL BATTLES' Left, Center, Right, Reserve.
FIELD_PLACES = {str(n): d for n, d in enumerate(fo.DIVISIONS, start=1)}
WALL_PLACES = {w[0].upper(): w for w in fo.WALLS}
NAVAL_PLACES = {"2": "left", "3": "center", "4": "right", "6": "reserves"}
PLACEABLE = (*TROOPS, "crew", *fo.GUNS, *SHIPS)
KIND_WORDS = {"field": "field battle", "urban": "urban battle", "naval": "naval battle", "assault": "assault",
              "tower": "tower assault"}

_Z = "war.z"  # pid -> {"dispositions": [(place code, item, qty)], "post": place code | None}
_NO_SUPPORT = "war.no_support"  # pids who ordered KO this month
_WITHDRAWN = "war.withdrawn"  # (attacker pid, defender pid): withdrew from an urban battle after half a stage
_MOVED = "war.moved"  # pids whose movement order ran this month (done or failed: travel.md T2)
_EXECUTED = "war.executed"  # pid -> kinds of the orders he carried out this month
_PASSAGES = "war.passages"  # location -> pids whose move started at, passed through or ended at it
_INTERCEPTORS = "war.interceptors"  # pids with intercept orders valid this month (built once a month)


# ---- little things about personae ------------------------------------------------------------------------------

def alive(p: Persona | None) -> bool:
    return p is not None and bool(p.get("alive", True))


def troops(p: Persona) -> int:
    """ALLIANCE's "the greater number of troops": the six troop types (crew are not troops)."""
    assets = p.get("assets") or {}
    return sum(max(0, int(assets.get(t, 0))) for t in TROOPS)


def men(p: Persona) -> int:
    """Troops and crew: the force of the twenty-to-one rule (RW-OQ-04)."""
    return mo.men(p.get("assets") or {})


def name(p: Persona) -> str:
    return fo.persona_name(p)


def sea_point(p: Persona) -> Point | None:
    sea = p.get("at_sea")
    if p.get("location") is None and sea:
        return (float(sea["lat"]), float(sea["lon"]))
    return None


def same_point(a: Point, b: Point) -> bool:
    return geo.great_circle_miles(a, b) <= SAME_POINT_MILES


def at(p: Persona, where: str | None, point: Point | None) -> bool:
    """Is he at the location `where` (either side of its walls), or at sea at `point`?"""
    if where is not None:
        return p.get("location") == where and not p.get("at_sea")
    here = sea_point(p)
    return here is not None and point is not None and same_point(here, point)


def present(ctx: Ctx, where: str, inside: bool) -> list[Persona]:
    """The living personae at `where` on that side of its walls (passengers aboard another's ship, who have nothing
    to fight with, excepted), in id order."""
    here = [p for p in ctx.state["personae"].values()
            if p.get("location") == where and alive(p) and not p.get("at_sea") and not p.get("with")
            and bool(p.get("inside")) == inside]
    return sorted(here, key=lambda p: p["id"])


def started_here(ctx: Ctx, p: Persona, where: str, inside: bool) -> bool:
    return ctx.start_location.get(p["id"]) == where and bool(ctx.start_inside.get(p["id"])) == inside


def in_tower(state: State, p: Persona) -> int | None:
    """The tower he is in (TOWERS: "assumed to be inside that tower at all times"), or None."""
    return control.tower_of(state, p)


def tower_controlled(state: State, p: Persona) -> int | None:
    """The tower he controls at his location, even when a standing order keeps him outside of it (URBAN BATTLE:
    "When either side in an urban battle controls a tower, it withdraws to that tower")."""
    return control.tower_of(state, {**p, "outside_towers": False})


# ---- the month's records -----------------------------------------------------------------------------------------

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


def note_executed(ctx: Ctx, pid: str, kind: str) -> None:
    ctx.scratch.setdefault(_EXECUTED, {}).setdefault(pid, []).append(kind)


def executed(ctx: Ctx, pid: str) -> list[str]:
    return list(ctx.scratch.get(_EXECUTED, {}).get(pid, ()))


def after_battle(ctx: Ctx, pid: str, kind: str) -> str | None:
    """Why an order may not run because he executed battle orders earlier this month (RW-OQ-03), or None."""
    if limits.has_fought(ctx, pid) and kind not in BATTLE_ORDERS:
        return ("he executed battle orders earlier this month, and a persona may not execute other orders "
                "subsequently in the same turn (BATTLE)")
    return None


def z_orders(ctx: Ctx, pid: str) -> dict[str, Any]:
    return ctx.scratch.setdefault(_Z, {}).setdefault(pid, {"dispositions": [], "post": None})


def refused_support(ctx: Ctx, pid: str) -> bool:
    return pid in ctx.scratch.get(_NO_SUPPORT, set())


# ---- what every conflict order asks first -----------------------------------------------------------------------

def conflict_refusal(ctx: Ctx, persona: Persona) -> str | None:
    """Conflict orders take the place of movement (ORDERS): not after a move, not when he may not move; none
    after an assault ("may not execute other military orders"); none unless the month's fees are prepaid
    (CREDIT)."""
    pid = persona["id"]
    if has_moved(ctx, pid):
        return "he moved this month, and conflict orders take the place of movement orders (ORDERS)"
    if (why := limits.pinned(ctx, pid)) is not None:
        return f"he may not move this month ({why}), and conflict orders take the place of movement orders"
    if limits.has_assaulted(ctx, pid):
        return "he assaulted a fortification this month and may execute no other military order (BATTLE)"
    return fees.credit_refusal(ctx, persona)


def battle_refusal(ctx: Ctx, persona: Persona) -> str | None:
    return conflict_refusal(ctx, persona) or limits.may_initiate(ctx, persona["id"])


# ---- the orders that only prepare a battle ------------------------------------------------------------------------

def place_code(written: Any) -> str | None:
    """A Z place as the code writes it (1 to 6, N, E, S, W), or a division's or wall's name."""
    text = str(written or "").strip().lower().removesuffix(" wall")
    for code, word in (*FIELD_PLACES.items(), *WALL_PLACES.items()):
        if text in (code.lower(), word):
            return code
    return "6" if text == "reserve" else None


def place_for(code: str | None, kind: str) -> str | None:
    """A Z place in the battle being fought: a division of a field battle, a wall of an assault, a division of a
    naval battle; None where it has no meaning there (it is then ignored, FIELD BATLE: "they are ignored")."""
    if code is None:
        return None
    if kind == "field":
        return FIELD_PLACES.get(code)
    if kind == "assault":
        return WALL_PLACES.get(code)
    if kind == "naval":
        return NAVAL_PLACES.get(code)
    return None


def dispose(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """Z: a disposition for any battle he fights later this month (NAVAL BATTLES, ASSAULT: "Unless contrary orders
    have been issued earlier in the same month")."""
    code = place_code(args.get("place"))
    item = str(args.get("item") or "")
    qty = int(args.get("qty") or 0)
    if code is None:
        return fail("the place is 1 to 6 (the divisions) or N, E, S, W (the walls)")
    if item not in PLACEABLE:
        return fail(f"battle dispositions place troops, crew, cannons, falconets or ships, not {item!r}")
    if qty <= 0:
        return fail("a disposition places at least one")
    z_orders(ctx, persona["id"])["dispositions"].append((code, item, qty))
    where = FIELD_PLACES.get(code) or f"{WALL_PLACES[code]} wall"
    return done(f"{qty:,} {item} to the {where} in any battle he fights later this month")


def post(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """ZP: where he himself stands in any battle later this month (FIELD BATLE: "A persona may be assigned to any
    one division"; Appendix E: "unless posted on a different wall by orders executed earlier")."""
    code = place_code(args.get("place"))
    if code is None:
        return fail("the place is 1 to 6 (the divisions) or N, E, S, W (the walls)")
    z_orders(ctx, persona["id"])["post"] = code
    where = FIELD_PLACES.get(code) or f"{WALL_PLACES[code]} wall"
    return done(f"he will stand in the {where} in any battle he fights later this month")


def alliance(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KL declares, KX discontinues (ALLIANCE: "up to six families"; "To discontinue an alliance, a persona's
    orders must identify the ally by family name")."""
    family = str(args.get("target_family") or "").upper()
    if family not in ctx.state["families"]:
        return fail(f"there is no family {family or '(none named)'}")
    allies = [f for f in persona.get("allies") or []]
    if not args.get("allied", True):
        if family not in allies:
            return fail(f"he is not allied to the {family} family")
        persona["allies"] = [f for f in allies if f != family]
        return done(f"no longer allied to the {family} family")
    if family in allies:
        return done(f"already allied to the {family} family")
    if len(allies) >= MAX_ALLIES:
        return fail(f"he is allied to six families ({', '.join(allies)}): a persona may be allied to the members "
                    f"of up to six (ALLIANCE)")
    persona["allies"] = [*allies, family]
    return done(f"allied to the {family} family")


def no_support(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KO: THE SWORD GARRISONS, "automatically support each other unless otherwise ordered that turn (prior to the
    battle)". His forces neither support nor are supported by the garrison this month; the tenant's KO keeps the
    garrison from supporting anyone (K8)."""
    ctx.scratch.setdefault(_NO_SUPPORT, set()).add(persona["id"])
    return done("no automatic support between the garrison and his forces for the rest of this month")


# ---- interception ------------------------------------------------------------------------------------------------

def intercept(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KI: BATTLE, "In lieu of moving, a persona may issue intercept orders ... valid during the turn subsequent to
    that in which they are issued, and only during that turn". Charged when issued (CONFLICT ORDERS, RW-OQ-45)."""
    if (why := conflict_refusal(ctx, persona)) is not None:
        return fail(why)
    targets = [str(t).upper() for t in args.get("targets") or []]
    if not targets or (ALL in targets and len(targets) > 1):
        return fail("the victims are ALL or a list of families")
    if len(targets) > MAX_TARGETS:
        return fail("the victims are ALL or at most seven families (CONFLICT ORDERS)")
    unknown = [t for t in targets if t != ALL and t not in ctx.state["families"]]
    if unknown:
        return fail(f"there is no family {', '.join(unknown)}")
    ferries = bool(args.get("ferries"))
    persona["intercept"] = {"targets": targets, "ferries": ferries, "turn": ctx.turn + 1}
    fees.charge(ctx, persona, "interception order")
    limits.pin(ctx, persona["id"], "he issued intercept orders in lieu of moving")
    whom = "all traffic, ferries included" if ferries else ("all" if targets == [ALL] else ", ".join(targets))
    return done(f"he will intercept {whom} next month where he then stands")


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
    if entering and by == LAND and location is not None and location.get("siege"):
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
        battle = Battle.between(ctx, kind, interceptor, mover, where=where, initiator=initiator, spare=False)
        battle.title += " (interception)" if why == "intercept" else " (the siege line crossed)"
        fight(ctx, battle)
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


# ---- who stands on each side --------------------------------------------------------------------------------------

def allied(a: Persona, b: Persona) -> bool:
    """ALLIANCE: "two personae each allied to the other's family"."""
    return b.get("family") in (a.get("allies") or []) and a.get("family") in (b.get("allies") or [])


def defenders_in_turn(ctx: Ctx, victim: Persona, attacker: Persona | None, where: str | None,
                      inside: bool) -> list[Persona]:
    """The personae the attacker must fight, one battle each, to reach `victim` (RW-OQ-06): his mutual allies at
    the same location and on the same side of its walls, all having started the turn there, who have more troops
    than he has, the strongest first; then the victim. ALLIANCE: "the one with the greater number of troops will
    fight any attacker before his ally will. Alliances do not work across walls. For an alliance to be effective,
    the allies must be at, and have started the turn at, the same location and on the same side of all walls."
    At sea there is no location to have started at: no alliance works there (K4). An ally in his tower is not
    brought out (K5)."""
    if where is None or not started_here(ctx, victim, where, inside):
        return [victim]
    allies = [p for p in present(ctx, where, inside)
              if p["id"] != victim["id"] and (attacker is None or p["id"] != attacker["id"]) and allied(victim, p)
              and started_here(ctx, p, where, inside) and not (inside and in_tower(ctx.state, p) is not None)]
    order = sorted([victim, *allies], key=lambda p: (-troops(p), p["id"] != victim["id"], p["id"]))
    return order[: order.index(victim) + 1]


def tenant_of(ctx: Ctx, location: Location) -> Persona | None:
    tenant = ctx.persona(holder(location, "tenant") or "")
    return tenant if alive(tenant) else None


def tenant_with_garrison(ctx: Ctx, location: Location) -> bool:
    """"When accompanied by their tenant": he is inside the walls, where the garrison is."""
    tenant = tenant_of(ctx, location)
    return tenant is not None and tenant.get("location") == location["name"] and bool(tenant.get("inside")) \
        and not tenant.get("at_sea")


def garrison_morale(ctx: Ctx, location: Location) -> int:
    """THE SWORD GARRISONS: "When accompanied by their tenant, the morale of town garrison troops is their tenant's.
    When he is not present, their morale is equal to the town's loyalty" (a copy: RW-OQ-18)."""
    if tenant_with_garrison(ctx, location):
        tenant = tenant_of(ctx, location)
        assert tenant is not None
        return int(tenant.get("morale", 0))
    return int(location.get("loyalty", 0))


def garrison_contingent(ctx: Ctx, location: Location) -> Contingent | None:
    if int(location.get("garrison", 0)) <= 0:
        return None
    return fo.of_garrison(location, garrison_morale(ctx, location))


def support_group(ctx: Ctx, location: Location, defender: Persona, attacker: Persona | None,
                  fought: set[str]) -> tuple[list[Persona], bool]:
    """RW-OQ-06: when `defender` is of the tenant's family, inside the walls, the garrison and every member of that
    family inside the walls (not in a tower) fight as one side with him, unless one of them (or the tenant, for the
    garrison) ordered KO this month. THE SWORD GARRISONS: "Garrison troops and forces attached to members of the
    family of the tenant automatically support each other unless otherwise ordered that turn (prior to the
    battle), but they only support one another when they are on the same side of all walls." Returns the other
    members and whether the garrison joins."""
    tenant_id = holder(location, "tenant")
    tenant = ctx.persona(tenant_id or "")
    if tenant is None or tenant.get("family") != defender.get("family") or not defender.get("inside") \
            or refused_support(ctx, defender["id"]):
        return [], False
    garrison = int(location.get("garrison", 0)) > 0 and not refused_support(ctx, tenant["id"])
    members = [p for p in present(ctx, location["name"], True)
               if p.get("family") == defender.get("family") and p["id"] != defender["id"] and p["id"] not in fought
               and (attacker is None or p["id"] != attacker["id"]) and in_tower(ctx.state, p) is None
               and not refused_support(ctx, p["id"])]
    return members, garrison


def home_rank(state: State, p: Persona, location: Location) -> int | None:
    """URBAN BATTLE's list, "a citizen's, the tenant's, the bishop's, the feudatory's, the sovereign's": 0 for a
    citizen of the location himself (RW-OQ-27), then 1 to 4 for a member of the office holder's family; None."""
    if p.get("citizenship") == location["name"]:
        return 0
    for rank, office in enumerate(HOME_OFFICES, start=1):
        holder_p = state["personae"].get(holder(location, office) or "")
        if holder_p is not None and holder_p.get("family") == p.get("family"):
            return rank
    return None


def home_side(state: State, location: Location, attacker: Persona | None, defender: Persona | None) -> str:
    """URBAN BATTLE: "the home side is that of the persona who is a member of the first of the following families
    ... Should neither participant be a member of any of these families, or should both participants be citizens,
    then the defender is given the home advantage. Exception: Garrisons not commanded by a persona are always the
    home side." Two of the same rank (both citizens, or of the same family): the defender."""
    if attacker is None:
        return ATTACKER
    if defender is None:
        return DEFENDER
    a, d = home_rank(state, attacker, location), home_rank(state, defender, location)
    if a is not None and (d is None or a < d):
        return ATTACKER
    return DEFENDER


# ---- a battle: its Sides ------------------------------------------------------------------------------------------

@dataclass
class Battle:
    """One battle about to be fought: what the engine is given, and what applying its result needs."""

    kind: str  # "field" | "urban" | "naval" | "assault" | "tower"
    where: str | None  # the location (None at sea)
    sides: dict[str, Side]
    personae: dict[str, Persona]  # every persona with a contingent, by id
    initiator: Persona | None  # pays the fee, counts the stages (BATTLE; RW-OQ-05)
    attacker: str | None  # the persona who attacks (None for a garrison alone), for DE FACTO CONTROL
    defender: str | None  # the persona attacked (None for a garrison alone)
    title: str
    engine_args: dict[str, Any] = field(default_factory=dict)
    tower: int | None = None  # the tower assaulted
    halved: set[str] = field(default_factory=set)  # Confucian personae whose troops fight at half morale
    morale_before: dict[str, int] = field(default_factory=dict)  # pid -> his morale before the battle
    sortie: bool = False

    @staticmethod
    def between(ctx: Ctx, kind: str, attacker: Persona, defender: Persona, *, where: str | None,
                initiator: Persona | None, spare: bool) -> Battle:
        """A battle of one persona against another (no allies, no garrison): interceptions."""
        b = Battle(kind=kind, where=where, sides={}, personae={}, initiator=initiator, attacker=attacker["id"],
                   defender=defender["id"], title="")
        b.sides[ATTACKER] = b.side(ctx, ATTACKER, [attacker], attacker, defender)
        b.sides[DEFENDER] = b.side(ctx, DEFENDER, [defender], defender, attacker, spare=spare)
        b.title = battle_title(ctx, b)
        return b

    def contingent(self, ctx: Ctx, p: Persona) -> Contingent:
        """His forces; MORALE: "Troops attached to a Confucian persona have their morale reduced by 50% (with the
        result rounded down) at the start of any battle fought in a location not initially set up as having the
        Emperor of China as sovereign"."""
        c = fo.of_persona(p)
        self.personae[p["id"]] = p
        self.morale_before[p["id"]] = int(p.get("morale", 0))
        if mo.confucian_battle(p, ctx.location(self.where)):
            self.halved.add(p["id"])
            c.morale = mo.confucian_start(c.morale)
        return c

    def side(self, ctx: Ctx, role: str, members: list[Persona], commander: Persona | None,
             enemy: Persona | None, *, spare: bool = False, garrison: Contingent | None = None,
             extra: list[Contingent] | None = None, all_dispositions: bool = False) -> Side:
        contingents = [self.contingent(ctx, p) for p in members]
        if garrison is not None:
            contingents.append(garrison)
        contingents += extra or []
        s = Side(role=role, contingents=contingents, commander=commander["id"] if commander else None,
                 retreat_value=ranks.retreat_value(commander), spare=spare)
        s.factor = mo.inflict_factor(ctx.state, commander, enemy)
        own = mo.inflict_factor(ctx.state, commander, enemy, same_division_as_commander=True)
        if own != s.factor:
            s.commander_factor = own
        self.orders(ctx, s, members, commander, all_dispositions)
        return s

    def orders(self, ctx: Ctx, s: Side, members: list[Persona], commander: Persona | None,
               all_dispositions: bool) -> None:
        """The Z orders issued earlier this month: each persona's post; the commander's dispositions (every
        defender's, in an assault: "Unless the persona controlling them has issued contrary orders earlier in
        the same turn"); the troops destroying crops held back from a field battle (CROP DESTRUCTION)."""
        kind = "assault" if self.kind == "tower" else self.kind
        for p in members:
            z = z_orders(ctx, p["id"])
            if (place := place_for(z["post"], kind)) is not None:
                s.places[p["id"]] = place
            if all_dispositions or (commander is not None and p["id"] == commander["id"]):
                s.dispositions += [(place, item, qty) for code, item, qty in z["dispositions"]
                                   if (place := place_for(code, kind)) is not None]
            if self.kind == "field":
                for t, n in siege.crop_troops(ctx, p).items():
                    s.held_back[t] = s.held_back.get(t, 0) + n


def battle_title(ctx: Ctx, b: Battle) -> str:
    place = f"at {b.where}" if b.where else "at sea"
    if b.kind == "field" and b.where:
        place += ", outside the walls"
    elif b.kind == "urban":
        place += ", inside the walls"
    elif b.kind == "tower" and b.tower is not None:
        place = f"on tower {b.tower} {place}"
    who = {role: reports.commander_name(s) for role, s in b.sides.items()}
    month = f"{MONTHS[ctx.month - 1]} {ctx.year}"
    return f"{KIND_WORDS[b.kind].upper()} {place} ({month}): {who[ATTACKER]} against {who[DEFENDER]}"


# ---- a battle: the engine and the result -------------------------------------------------------------------------

def run_engine(b: Battle) -> BattleResult:
    """The engines are called through their modules, so that a test may put a stand-in in their place."""
    a, d = b.sides[ATTACKER], b.sides[DEFENDER]
    if b.kind == "field":
        return field_engine.fight(a, d)
    if b.kind == "urban":
        return urban.fight(a, d, **b.engine_args)
    if b.kind == "naval":
        return naval.fight(a, d)
    if b.kind == "assault":
        return assault_engine.walls(a, d, **b.engine_args)
    return assault_engine.tower(a, d, **b.engine_args)


def fight(ctx: Ctx, b: Battle) -> BattleResult:
    """Fight the battle and carry out its result: the state, the initiator's stages and fee, the report."""
    result = run_engine(b)
    applied = apply(ctx, b, result)
    if b.initiator is not None:
        limits.add_stages(ctx, b.initiator["id"], result.stages_fought)
        if result.stages_fought > 0:  # a battle fought always moves men or morale (RW-OQ-45)
            fees.charge(ctx, b.initiator, f"{KIND_WORDS[b.kind]} {b.where or 'at sea'}")
    place = b.where or "sea"
    reports.record(ctx, title=b.title, place=place, kind=KIND_WORDS[b.kind], sides=b.sides, result=result,
                   applied=applied, families=families_of(ctx, b))
    return result


def families_of(ctx: Ctx, b: Battle) -> list[str]:
    """The families whose printouts show the battle: every persona's who fought, the tenant's for a garrison, the
    initiator's."""
    out = {p.get("family", "") for p in b.personae.values()}
    if b.initiator is not None:
        out.add(b.initiator.get("family", ""))
    location = ctx.location(b.where)
    if location is not None and any(c.key.startswith("garrison:") for s in b.sides.values() for c in s.contingents):
        tenant = ctx.persona(holder(location, "tenant") or "")
        if tenant is not None:
            out.add(tenant.get("family", ""))
    return sorted(f for f in out if f)


def take_assets(p: Persona, lost: dict[str, int]) -> None:
    assets = p.setdefault("assets", {})
    for item, n in lost.items():
        assets[item] = max(0, int(assets.get(item, 0)) - n)
        if assets[item] == 0:
            del assets[item]


def give_assets(p: Persona, items: dict[str, int]) -> None:
    assets = p.setdefault("assets", {})
    for item, n in items.items():
        if n > 0:
            assets[item] = int(assets.get(item, 0)) + n


def apply(ctx: Ctx, b: Battle, result: BattleResult) -> reports.Applied:
    """Carry a battle's result into the state (K10): each contingent's share of its side's losses off the personae,
    the garrison and the tower garrison; what the victor takes to its receiver; the dead; each persona's morale;
    where the survivors stand; de facto control."""
    applied = reports.Applied()
    for role, s in b.sides.items():
        split = fo.split_losses(s, result.survivors.get(role, {}))
        for c in s.contingents:
            applied.names[c.key] = c.name
            applied.losses[c.key] = split[c.key]
            lose(ctx, b, c, split[c.key])
    for pid in result.dead:
        kill(ctx, b, pid)
        applied.dead.append(name(b.personae[pid]) if pid in b.personae else pid)
    receiver = receiver_of(ctx, b, result)
    if result.captured:
        applied.captured = dict(result.captured)
        if receiver is not None:
            give_assets(receiver, result.captured)
            applied.receiver = name(receiver)
    # A naval battle's captures go both ways (RW-OQ-41): what the side that did not win took, to its commander.
    for role, items in (getattr(result, "taken", None) or {}).items():
        if role == result.victor or not any(items.values()):
            continue
        taker = side_receiver(ctx, b, role)
        if taker is not None:
            give_assets(taker, items)
            applied.after.append(f"{name(taker)} takes {', '.join(f'{n:,} {i}' for i, n in items.items() if n)} "
                                 "from the ships he captured")
    for gunner in gunners(b, result):
        if (lost := piety.gunfire(ctx, gunner)):
            applied.after.append(f"{name(gunner)} fired guns this month: his piety falls by {lost} (REPUTATION FOR "
                                 "PIETY)")
    for role, s in b.sides.items():
        settle_morale(b, s, result, role, applied)
    applied.after += positions(ctx, b, result)
    applied.after += control_after(ctx, b, result)
    return applied


def lose(ctx: Ctx, b: Battle, c: Contingent, lost: dict[str, int]) -> None:
    if not lost:
        return
    if c.persona is not None:
        take_assets(b.personae[c.persona], lost)
    elif c.key.startswith("garrison:") and b.where is not None:
        location = ctx.state["locations"][b.where]
        location["garrison"] = max(0, int(location.get("garrison", 0)) - lost.get(GARRISON, 0))
    elif c.key.startswith("tower:") and b.where is not None:
        control.lose_tower_garrison(ctx, b.where, int(c.key.rsplit(":", 1)[1]), lost.get(GARRISON, 0))


def kill(ctx: Ctx, b: Battle, pid: str) -> None:
    """The succession step replaces him at the end of the month (succession.py)."""
    p = ctx.persona(pid)
    if p is None:
        return
    p["alive"] = False
    p["died"] = f"killed in battle ({KIND_WORDS[b.kind]} {'at ' + b.where if b.where else 'at sea'})"


def settle_morale(b: Battle, s: Side, result: BattleResult, role: str, applied: reports.Applied) -> None:
    """Appendix E: "the change in the overall morale for the defense becomes the change in morale for each of the
    defending personae" (every side: RW-OQ-06, RW-OQ-18); MORALE: the Confucian's troops' morale "is doubled at
    the end of such battles"; "When a persona controls neither troops, nor crew, his morale rating is zero"."""
    start, end = result.morale_start.get(role), result.morale.get(role)
    change = end - start if start is not None and end is not None else 0
    for c in s.contingents:
        if c.persona is None:
            continue
        p = b.personae[c.persona]
        if not alive(p):
            continue
        new = mo.apply_change(c.morale, change)
        if c.persona in b.halved:
            new = mo.confucian_end(new)
        p["morale"] = new
        mo.settle(p)
        applied.morale[c.persona] = (b.morale_before.get(c.persona, 0), int(p["morale"]))


def strongest(personae: list[Persona]) -> Persona | None:
    living = [p for p in personae if alive(p)]
    return min(living, key=lambda p: (-troops(p), p["id"])) if living else None


def receiver_of(ctx: Ctx, b: Battle, result: BattleResult) -> Persona | None:
    """Who takes what the victor captured (K11): the victorious side's commander, or, if he fell, its living persona
    with the most troops; a garrison's victory is its tenant's. An assaulting force eliminated leaves its assets to
    the de facto controller when present, else to the defending persona with the most troops, else to no one
    (Appendix E); from a tower assault, to the tower's family (RW-OQ-36)."""
    if result.victor is None or not result.captured:
        return None
    location = ctx.location(b.where)
    if b.kind in ("assault", "tower") and result.victor == DEFENDER:
        return assault_receiver(ctx, b, result, location)
    taker = side_receiver(ctx, b, result.victor)
    if taker is not None:
        return taker
    return tenant_of(ctx, location) if location is not None else None


def side_receiver(ctx: Ctx, b: Battle, role: str) -> Persona | None:
    """A side's commander, or, if he fell, its living persona with the most troops."""
    s = b.sides[role]
    commander = ctx.persona(s.commander or "")
    if alive(commander):
        return commander
    return strongest([b.personae[p] for p in s.personae()])


def gunners(b: Battle, result: BattleResult) -> list[Persona]:
    """The personae whose cannons or falconets fired in this battle (REPUTATION FOR PIETY: a Shia or Sunni "fires
    cannons, or falconets"): in a field battle every gun is in the first stage's volley; in an assault of the walls
    the defenders' guns fire when the FAR is above zero; in a naval battle the falconets of a side that fired. An
    urban battle and a tower assault (FAR 0) fire none."""
    fired: list[Contingent] = []
    for role, s in b.sides.items():
        with_guns = [c for c in s.contingents if c.persona is not None and (c.cannon or c.falconet)]
        if b.kind == "field" and result.stages_fought > 0:
            fired += with_guns
        elif b.kind == "assault" and role == DEFENDER and b.engine_args.get("far", 0) > 0:
            fired += with_guns
        elif b.kind == "naval" and (getattr(result, "guns_fired", None) or {}).get(role, 0) > 0:
            fired += [c for c in with_guns if c.falconet]
    return [b.personae[c.persona] for c in fired if c.persona in b.personae]


def assault_receiver(ctx: Ctx, b: Battle, result: BattleResult, location: Location | None) -> Persona | None:
    if location is None:
        return None
    if b.kind == "assault":
        controller = ctx.persona(dfc(location) or "")
        if alive(controller) and controller is not None and controller.get("location") == location["name"] \
                and controller.get("inside"):
            return controller
    engine_pick = ctx.persona(result.receiver or "")
    if alive(engine_pick):
        return engine_pick
    if b.kind == "tower":
        return strongest([p for p in present(ctx, location["name"], True)
                          if tower_controlled(ctx.state, p) == b.tower])
    return None


def left_town(b: Battle, result: BattleResult) -> str | None:
    """The role that left town: the non-home side without a tower at its retreat point in an urban battle, or the
    attacker so broken in the urban prelude of a tower assault (URBAN BATTLE: "it leaves town"); a withdrawal after
    half a stage and a retreat into a tower stay inside."""
    role = result.retreated
    if role is None:
        return None
    if b.kind == "urban":
        if role == ATTACKER and b.engine_args.get("withdraw"):
            return None
        return role if b.engine_args.get("tower_room", {}).get(role) is None else None
    if b.kind == "tower" and role == ATTACKER and b.engine_args.get("attacker_room") is None \
            and result.stages and result.stages[-1].name == "urban melee":
        return role
    return None


def positions(ctx: Ctx, b: Battle, result: BattleResult) -> list[str]:
    """Where the survivors stand (RW-OQ-08): a side that leaves town is outside the walls of the same location; a
    successful assaulter of the walls is inside them (an entry: siege.note_entry); an assault repulsed goes back to
    the siege lines, outside; a sortie goes back inside the walls; everyone else stays where the battle was."""
    out: list[str] = []

    def living(role: str) -> list[Persona]:
        return [b.personae[pid] for pid in b.sides[role].personae() if alive(b.personae[pid])]

    if (role := left_town(b, result)) is not None:
        for p in living(role):
            p["inside"] = False
            out.append(f"{name(p)} leaves town: he stands outside the walls of {b.where}.")
    if b.kind == "assault" and result.victor == ATTACKER:
        for p in living(ATTACKER):
            p["inside"] = True
            out.append(f"{name(p)} is inside the walls of {b.where}.")
        if b.where is not None and (ctx.location(b.where) or {}).get("siege"):
            siege.note_entry(ctx, b.where, LAND)
    elif b.kind == "assault":
        out += [f"{name(p)} is back at the siege lines, outside the walls of {b.where}." for p in living(ATTACKER)]
    if b.sortie:
        out += [f"{name(p)} goes back inside the walls of {b.where}." for p in living(ATTACKER)]
    return out


def control_after(ctx: Ctx, b: Battle, result: BattleResult) -> list[str]:
    """DE FACTO CONTROL and TOWERS after the battle (control.py decides; RW-OQ-35 the slaves of a captured town)."""
    if b.where is None or b.kind == "naval":
        return []
    location = ctx.state["locations"][b.where]
    before = dfc(location)
    out: list[str] = []
    if b.kind == "assault" and result.victor == ATTACKER and b.attacker is not None:
        control.assault_taken(ctx, b.where, b.attacker)
        out += enslave(ctx, b, location)
    elif b.kind == "tower" and result.victor == ATTACKER and b.attacker is not None:
        control.assault_taken(ctx, b.where, b.attacker, tower=b.tower)
        out.append(f"Tower {b.tower} at {b.where} is taken by assault.")
    else:
        control.control_after_battle(ctx, b.where, result, b.attacker, b.defender, b.kind)
    after = dfc(location)
    if after != before:
        holder_p = ctx.persona(after or "")
        out.append(f"De facto control of {b.where} passes to {name(holder_p) if holder_p else after}.")
    return out


def enslave(ctx: Ctx, b: Battle, location: Location) -> list[str]:
    """Appendix E: "When a fortification captured by assault has a sovereign of a religion other than that of the
    assaulter, he may enslave 1% of its population immediately after the successful completion of the assault";
    the slaves come out of the population (RW-OQ-35). The sovereign's religion is his, or the location's when he is
    no persona (K12)."""
    assaulter = ctx.persona(b.attacker or "")
    if not alive(assaulter) or assaulter is None:
        return []
    sovereign = ctx.persona(holder(location, "sovereign") or "")
    faith = sovereign.get("religion") if sovereign is not None else location.get("religion")
    if not faith or str(faith).lower() == str(assaulter.get("religion", "")).lower():
        return []
    slaves = gain(Fraction(int(location.get("population", 0)), 100))
    if slaves <= 0:
        return []
    location["population"] = int(location["population"]) - slaves
    give_assets(assaulter, {"slave": slaves})
    return [f"{name(assaulter)} enslaves {slaves:,} of {location['name']} (1% of its population; its sovereign is "
            f"{faith})."]


# ---- attack orders ------------------------------------------------------------------------------------------------

def withdrew(ctx: Ctx, attacker: str, defender: str) -> bool:
    return (attacker, defender) in ctx.scratch.get(_WITHDRAWN, set())


def plan_attack(p: Persona, target: Persona, kind: str, *, tenant: bool) -> tuple[str, bool, str] | str:
    """The battle an attack order makes, (kind, sortie, note), or why it cannot be fought (K6). At sea only a naval
    battle; at a location, "Fleets in port fight under the rules for land battles" (a KN there is fought as the land
    battle the walls decide: RW-OQ-41), "Land battles fought outside of fortifications are field battles" and
    "When battle occurs inside of a location" it is urban; from inside the walls against one under them only the
    tenant's sortie ("When accompanied by the location's tenant, a town garrison may be ordered to sortie outside its
    walls, and attack any persona under those walls. Resulting battles are fought under the rules for field
    battles"); from outside, those inside are reached only by assault."""
    here, there = sea_point(p), sea_point(target)
    if here is not None or there is not None:
        if here is None or there is None or not same_point(here, there):
            return f"{name(target)} is not where he is"
        if kind != "naval":
            return "at sea a battle is a naval battle (KN)"
        return "naval", False, ""
    if p.get("location") != target.get("location"):
        return f"{name(target)} is not at {p.get('location')}"
    mine, theirs = bool(p.get("inside")), bool(target.get("inside"))
    note = ""
    if kind == "naval":
        kind = "urban" if mine and theirs else "field"
        note = f"fleets in port fight under the rules for land battles: fought as a {kind} battle"
    if mine and theirs:
        return ("urban", False, note) if kind == "urban" else "both are inside the walls: a battle there is urban (KU)"
    if not mine and not theirs:
        return ("field", False, note) if kind == "field" else "both are outside the walls: a battle there is a " \
                                                               "field battle (KF)"
    if mine:
        if kind == "field" and tenant:
            return "field", True, note
        return ("from inside the walls only the tenant attacks a persona under them, leading his garrison out in a "
                "sortie (KF): a field battle")
    return (f"{name(target)} is inside the walls of {p.get('location')} and he is not: the walls are reached by "
            f"assault (KA)")


def attack(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KF, KU, KN: BATTLE, "Battle also results when a persona's troops, in lieu of movement, are ordered to attack
    another persona present at the attacker's location at the time the attack orders are executed"."""
    kind = str(args.get("battle") or "").lower()
    if kind not in ("field", "urban", "naval"):
        return fail("the battle is field (KF), urban (KU) or naval (KN)")
    if (why := battle_refusal(ctx, persona)) is not None:
        return fail(why)
    target = ctx.persona(str(args.get("target") or ""))
    if not alive(target) or target is None:
        return fail(f"there is no living persona {args.get('target')}")
    if target["id"] == persona["id"]:
        return fail("a persona does not attack himself")
    if withdrew(ctx, persona["id"], target["id"]):
        return fail(f"he withdrew from an urban battle against {name(target)} this month and may not attack him "
                    f"again in the same turn (URBAN BATTLE)")
    if kind == "urban" and (unreached := unattainable(ctx, persona, target)) is not None:
        return unreached
    location = ctx.location(persona.get("location"))
    plan = plan_attack(persona, target, kind,
                       tenant=location is not None and holder(location, "tenant") == persona["id"])
    if isinstance(plan, str):
        return fail(plan)
    kind, sortie, note = plan
    limits.fought(ctx, persona["id"])
    spare, go_on = bool(args.get("spare")), bool(args.get("continue"))
    texts = [note] if note else []
    texts += battles_in_turn(ctx, persona, target, kind, spare=spare, go_on=go_on, sortie=sortie)
    return done("; ".join(texts))


def unattainable(ctx: Ctx, persona: Persona, target: Persona) -> Outcome | None:
    """An urban battle order against one the attacker cannot reach inside the walls: absent, or inside his tower
    ("unattainable except by assault orders", TOWERS). DE FACTO CONTROL still reads the order: "Defeat occurs when
    the DFC is attacked in urban battle at the location while he is not present (or is inside a tower)"; "a persona
    already inside its walls gains de facto control ... by issuing urban battle orders against the tenant (even if
    the tenant should be inside a tower ...)". When the tenant so attacked has a garrison that supports him, the
    garrison alone meets the attack (K7). None: the target is within reach."""
    where = persona.get("location")
    location = ctx.location(where)
    if location is None or not persona.get("inside") or sea_point(persona) is not None:
        return None
    here = target.get("location") == where and bool(target.get("inside")) and sea_point(target) is None
    if here and in_tower(ctx.state, target) is None:
        return None
    if target["id"] not in (holder(location, "tenant"), holder(location, "dfc")):
        if here:
            return fail(f"{name(target)} is inside a tower at {where}: only an assault (KT) reaches him (TOWERS)")
        return None  # not there: plan_attack says so
    if target["id"] == holder(location, "tenant") and int(location.get("garrison", 0)) > 0 \
            and not refused_support(ctx, target["id"]):
        limits.fought(ctx, persona["id"])
        return done(garrison_defends(ctx, persona, target, location))
    before = dfc(location)
    control.control_after_battle(ctx, location["name"], None, persona["id"], target["id"], "urban")
    if dfc(location) == before:
        return fail(f"{name(target)} is out of reach ({'in a tower' if here else 'not present'}): no battle")
    limits.fought(ctx, persona["id"])
    fees.charge(ctx, persona, f"urban battle order at {where}")
    return done(f"{name(target)} is out of reach ({'in a tower' if here else 'not present'}); {name(persona)} "
                f"takes de facto control of {where}")


def garrison_defends(ctx: Ctx, persona: Persona, tenant: Persona, location: Location) -> str:
    b = Battle(kind="urban", where=location["name"], sides={}, personae={}, initiator=persona,
               attacker=persona["id"], defender=tenant["id"], title="")
    garrison = garrison_contingent(ctx, location)
    b.sides[ATTACKER] = b.side(ctx, ATTACKER, [persona], persona, None)
    b.sides[DEFENDER] = Side(role=DEFENDER, contingents=[garrison] if garrison else [], commander=None)
    b.engine_args = urban_args(ctx, b, location, go_on=True)
    b.title = battle_title(ctx, b)
    result = fight(ctx, b)
    return f"the garrison of {location['name']} fights for its absent tenant: {result.outcome}"


def urban_args(ctx: Ctx, b: Battle, location: Location, *, go_on: bool) -> dict[str, Any]:
    """The urban engine's arguments: the home side (RW-OQ-27), the withdrawal of a home attacker who controls a
    tower unless he ordered the battle continued (C), each side's tower room, the non-home side's egress."""
    state = ctx.state
    commanders = {role: ctx.persona(s.commander or "") for role, s in b.sides.items()}
    home = home_side(state, location, commanders[ATTACKER], commanders[DEFENDER])
    rooms: dict[str, int | None] = {}
    for role, p in commanders.items():
        n = tower_controlled(state, p) if p is not None else None
        rooms[role] = control.tower_room(location, n) if n is not None else None
    away = commanders[ATTACKER if home == DEFENDER else DEFENDER]
    denied = away is not None and away.get("family") in (location.get("egress_denied") or [])
    withdraw = home == ATTACKER and rooms[ATTACKER] is not None and not go_on
    return {"home": home, "withdraw": withdraw, "tower_room": rooms, "egress_denied": denied}


def battles_in_turn(ctx: Ctx, persona: Persona | None, victim: Persona, kind: str, *, spare: bool, go_on: bool,
                    sortie: bool, garrison_only: Location | None = None, initiator: Persona | None = None) -> list[str]:
    """The attack fought against the victim's stronger allies one after another, then against him (RW-OQ-06),
    while the attacker neither retreats nor is eliminated and may still initiate battles. `persona` attacks (with
    the garrison in a sortie); `garrison_only` is the location whose garrison attacks alone (KG)."""
    initiator = initiator or persona
    assert initiator is not None
    where = victim.get("location") if sea_point(victim) is None else None
    inside = bool(victim.get("inside")) if where else False
    sequence = defenders_in_turn(ctx, victim, persona, where, inside)
    texts: list[str] = []
    fought_ids: set[str] = set()
    for number, defender in enumerate(sequence):
        if number and (why := limits.may_initiate(ctx, initiator["id"])) is not None:
            texts.append(f"no battle against {name(defender)}: {why}")
            break
        b = attack_battle(ctx, persona, defender, kind, where=where, spare=spare and defender is victim,
                          go_on=go_on, sortie=sortie, garrison_only=garrison_only, initiator=initiator,
                          fought=fought_ids)
        fought_ids.update(b.personae)
        result = fight(ctx, b)
        texts.append(f"{KIND_WORDS[b.kind]} against {name(defender)}: {result.outcome}")
        if kind == "urban" and result.retreated == ATTACKER and b.engine_args.get("withdraw") and persona:
            ctx.scratch.setdefault(_WITHDRAWN, set()).add((persona["id"], defender["id"]))
        if result.victor != ATTACKER or not attacker_stands(ctx, persona, garrison_only):
            break
    return texts


def attacker_stands(ctx: Ctx, persona: Persona | None, garrison_only: Location | None) -> bool:
    if garrison_only is not None:
        return int(garrison_only.get("garrison", 0)) > 0
    return persona is not None and alive(persona) and men(persona) > 0


def attack_battle(ctx: Ctx, persona: Persona | None, defender: Persona, kind: str, *, where: str | None,
                  spare: bool, go_on: bool, sortie: bool, garrison_only: Location | None,
                  initiator: Persona, fought: set[str]) -> Battle:
    location = ctx.location(where)
    b = Battle(kind=kind, where=where, sides={}, personae={}, initiator=initiator,
               attacker=persona["id"] if persona and not garrison_only else None, defender=defender["id"],
               title="", sortie=sortie)
    if garrison_only is not None:
        garrison = garrison_contingent(ctx, garrison_only)
        b.sides[ATTACKER] = Side(role=ATTACKER, contingents=[garrison] if garrison else [], commander=None)
    else:
        assert persona is not None
        with_garrison = garrison_contingent(ctx, location) if sortie and location is not None else None
        if sortie and location is not None and refused_support(ctx, persona["id"]):
            with_garrison = None
        b.sides[ATTACKER] = b.side(ctx, ATTACKER, [persona], persona, defender, garrison=with_garrison)
    members: list[Persona] = []
    garrison_joins = False
    if kind == "urban" and location is not None and garrison_only is None:
        members, garrison_joins = support_group(ctx, location, defender, persona, fought)
    own_garrison = garrison_contingent(ctx, location) if garrison_joins and location is not None else None
    enemy = persona if garrison_only is None else None
    b.sides[DEFENDER] = b.side(ctx, DEFENDER, [defender, *members], defender, enemy, spare=spare,
                               garrison=own_garrison)
    if kind == "urban" and location is not None:
        b.engine_args = urban_args(ctx, b, location, go_on=go_on)
    b.title = battle_title(ctx, b)
    return b


def garrison_attack(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KG: the tenant's garrison attacks a persona at its location. Inside the walls it is an urban battle of a
    garrison "not commanded by a persona", "always the home side" (URBAN BATTLE), at its tenant's morale when he is
    with it, else the loyalty; against one under the walls it is the sortie, which the tenant must accompany
    ("When accompanied by the location's tenant, a town garrison may be ordered to sortie outside its walls, and
    attack any persona under those walls"): a field battle of the tenant and his garrison (K9)."""
    if (why := battle_refusal(ctx, persona)) is not None:
        return fail(why)
    target = ctx.persona(str(args.get("target") or ""))
    if not alive(target) or target is None or target["id"] == persona["id"]:
        return fail(f"there is no other living persona {args.get('target')}")
    where = target.get("location")
    location = ctx.location(where)
    if location is None or sea_point(target) is not None:
        return fail(f"{name(target)} is at sea, where no garrison reaches")
    if holder(location, "tenant") != persona["id"]:
        return fail(f"he is not the tenant of {where}: only the tenant commands its garrison (THE SWORD GARRISONS)")
    if int(location.get("garrison", 0)) <= 0:
        return fail(f"{where} has no garrison")
    spare = bool(args.get("spare"))
    if not target.get("inside"):
        if not tenant_with_garrison(ctx, location):
            return fail(f"the garrison sorties only when its tenant accompanies it, inside the walls of {where}")
        limits.fought(ctx, persona["id"])
        return done("; ".join(battles_in_turn(ctx, persona, target, "field", spare=spare, go_on=True, sortie=True)))
    if in_tower(ctx.state, target) is not None:
        return fail(f"{name(target)} is inside a tower at {where}: only an assault (KT) reaches him (TOWERS)")
    limits.fought(ctx, persona["id"])
    return done("; ".join(battles_in_turn(ctx, None, target, "urban", spare=spare, go_on=True, sortie=False,
                                          garrison_only=location, initiator=persona)))


# ---- assaults -----------------------------------------------------------------------------------------------------

def earlier_military(ctx: Ctx, pid: str) -> list[str]:
    return [k for k in executed(ctx, pid) if k in MILITARY_ORDERS]


def assault(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """KA, KT: SIEGE BOMBARDMENT ... ASSAULT, TOWERS. "A persona who executes an assault order may not execute other
    military orders in the month of the assault" (a siege bombardment may come before it: RW-OQ-03)."""
    if (why := battle_refusal(ctx, persona)) is not None:
        return fail(why)
    if limits.has_fought(ctx, persona["id"]) or earlier_military(ctx, persona["id"]):
        return fail("he executed other military orders this month, and one who assaults may execute no other "
                    "military order that month (BATTLE)")
    location = ctx.location(persona.get("location"))
    if location is None or sea_point(persona) is not None:
        return fail("he is at no location to assault")
    spare = bool(args.get("spare"))
    if args.get("target") == "tower":
        return tower_assault(ctx, persona, location, args, spare)
    return walls_assault(ctx, persona, location, spare)


def walls_assault(ctx: Ctx, persona: Persona, location: Location, spare: bool) -> Outcome:
    """KA: "A persona who begins a turn outside a fortification may order his troops to assault that
    fortification"; "all forces (excluding tower garrisons, but including forces attached to personae who would
    otherwise be inside a tower) within the walls of the fortification participate in its defense" with the
    garrison ("they automatically defend against assault"), the assaulter's own family excepted (K13)."""
    where = location["name"]
    pid = persona["id"]
    if ctx.start_location.get(pid) != where or ctx.start_inside.get(pid) or persona.get("inside"):
        return fail(f"only a persona who began the month outside the walls of {where} assaults them")
    if int(location.get("fas", 0)) <= 0:
        return fail(f"{where} has no fortification to assault (FAS 0)")
    defenders = [p for p in present(ctx, where, True) if p.get("family") != persona.get("family")]
    commander = wall_commander(ctx, location, defenders)
    b = Battle(kind="assault", where=where, sides={}, personae={}, initiator=persona, attacker=pid,
               defender=commander["id"] if commander else None, title="")
    b.sides[ATTACKER] = b.side(ctx, ATTACKER, [persona], persona, commander)
    b.sides[DEFENDER] = b.side(ctx, DEFENDER, defenders, commander, persona, spare=spare,
                               garrison=garrison_contingent(ctx, location), all_dispositions=True)
    n = tower_controlled(ctx.state, commander) if commander is not None else None
    b.engine_args = {"far": int(location.get("far", 0)), "fas": int(location.get("fas", 0)),
                     "retreat_room": control.tower_room(location, n) if n is not None else None}
    b.title = battle_title(ctx, b)
    limits.fought(ctx, pid)
    limits.assaulted(ctx, pid)
    result = fight(ctx, b)
    return done(f"assault of the walls of {where}: {result.outcome}")


def wall_commander(ctx: Ctx, location: Location, defenders: list[Persona]) -> Persona | None:
    """The defenders' commander (RW-OQ-16): the de facto controller when he is among them, else the defender with
    the most troops."""
    controller = dfc(location)
    for p in defenders:
        if p["id"] == controller:
            return p
    return strongest(defenders)


def tower_assault(ctx: Ctx, persona: Persona, location: Location, args: dict[str, Any], spare: bool) -> Outcome:
    """KT: "Towers may only be assaulted by personae who start the month inside the location at which the tower is
    situated." The defenders: the personae inside the tower (TOWERS: "assumed to be inside that tower") and its
    tower garrison; the prelude's urban rules are the engine's (RW-OQ-37)."""
    where = location["name"]
    pid = persona["id"]
    if ctx.start_location.get(pid) != where or not ctx.start_inside.get(pid) or not persona.get("inside"):
        return fail(f"only a persona who started the month inside {where} assaults its towers")
    number = tower_number(ctx, location, args)
    if isinstance(number, str):
        return fail(number)
    if in_tower(ctx.state, persona) == number:
        return fail(f"he is inside tower {number} himself")
    occupants = [p for p in present(ctx, where, True) if in_tower(ctx.state, p) == number]
    named = ctx.persona(str(args.get("occupant") or ""))
    ids = [p["id"] for p in occupants]
    commander = named if named is not None and named["id"] in ids else strongest(occupants)
    b = Battle(kind="tower", where=where, sides={}, personae={}, initiator=persona, attacker=pid,
               defender=commander["id"] if commander else None, title="", tower=number)
    garrison = fo.of_tower_garrison(location, number, control.tower_garrison(ctx, where, number))
    b.sides[ATTACKER] = b.side(ctx, ATTACKER, [persona], persona, commander)
    b.sides[DEFENDER] = b.side(ctx, DEFENDER, occupants, commander, persona, spare=spare, extra=[garrison],
                               all_dispositions=True)
    own = tower_controlled(ctx.state, persona)
    b.engine_args = {"fas": min(999, int(location["towers"][number - 1].get("fas", 0))),
                     "room": control.tower_room(location, number),
                     "attacker_room": control.tower_room(location, own) if own is not None else None,
                     "egress_denied": persona.get("family") in (location.get("egress_denied") or [])}
    b.title = battle_title(ctx, b)
    limits.fought(ctx, pid)
    limits.assaulted(ctx, pid)
    result = fight(ctx, b)
    return done(f"assault of tower {number} at {where}: {result.outcome}")


def tower_number(ctx: Ctx, location: Location, args: dict[str, Any]) -> int | str:
    towers = location.get("towers") or []
    if args.get("tower") is not None:
        n = int(args["tower"])
        return n if 1 <= n <= len(towers) else f"{location['name']} has no tower {n}"
    occupant = ctx.persona(str(args.get("occupant") or ""))
    if not alive(occupant) or occupant is None or occupant.get("location") != location["name"]:
        return f"there is no persona {args.get('occupant')} at {location['name']}"
    n = in_tower(ctx.state, occupant)
    return n if n is not None else f"{name(occupant)} is in no tower"

