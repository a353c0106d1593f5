"""The conflict orders (CONFLICT ORDERS, BATTLE, ALLIANCE, THE SWORD GARRISONS, ASSAULT, TOWERS) and the small checks
they share; what they set in motion lives beside them in the war package.

- The orders: `intercept` (KI), `attack` (KF, KU, KN), `garrison_attack` (KG), `assault` (KA, KT), `alliance` (KL,
  KX), `no_support` (KO), `dispose` (Z) and `post` (ZP).
- What the month's order loop asks (families.py): `after_battle` before every order, `note_executed` after it.
- What stops a conflict order: `conflict_refusal`, `battle_refusal` (K16, CREDIT).
- Elsewhere: interception along a move and the month's record of moves and passages (interception.py), who stands on
  each side and how the Sides are built (sides.py), a battle fought and its result carried into the state
  (battle.py), the little facts about personae all of them ask (presence.py).

Readings: docs/renaissance/war.md, section "conflict" (RW-OQ-03 to 08, 45; the further readings K1 ...).
"""

from __future__ import annotations

from typing import Any

from ..context import Ctx, Outcome, Persona, done, fail
from ..items import SHIPS, TROOPS
from ..names import find_family
from ..offices import Location, dfc, holder
from . import control, fees, limits
from . import forces as fo
from .battle import fight
from .forces import ATTACKER, DEFENDER, Side
from .interception import ALL, has_moved
from .presence import alive, in_tower, men, name, present, same_point, sea_point, strongest, tower_controlled
from .sides import (
    FIELD_PLACES,
    KIND_WORDS,
    WALL_PLACES,
    Battle,
    attack_battle,
    battle_title,
    defenders_in_turn,
    garrison_contingent,
    note_no_support,
    place_code,
    refused_support,
    tenant_with_garrison,
    urban_args,
    z_orders,
)

# BATTLE: "A persona may not execute other orders subsequently in the same turn after having executed battle
# orders" (RW-OQ-03): the battle orders, which alone may follow one another.
BATTLE_ORDERS = frozenset({"attack", "garrison_attack", "assault"})
# "A persona who executes an assault order may not execute other military orders in the month of the assault";
# "A persona may 'siege bombard' a location before assaulting it later in the same turn" (bombard is not here).
MILITARY_ORDERS = frozenset({"intercept", "attack", "garrison_attack", "assault", "siege", "naval_bombardment",
                             "crops", "raze"})
MAX_ALLIES = 6  # ALLIANCE: "allied to the members of up to six families"
MAX_TARGETS = 7  # BATTLE: "'all' or ... a list of not more than seven families"
PLACEABLE = (*TROOPS, "crew", *fo.GUNS, *SHIPS)

_WITHDRAWN = "war.withdrawn"  # (attacker pid, defender pid): withdrew from an urban battle after half a stage
_EXECUTED = "war.executed"  # pid -> kinds of the orders he carried out this month


# ---- the month's record of orders executed ------------------------------------------------------------------------

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
    written = str(args.get("target_family") or "").upper()
    family = find_family(ctx.state, written) or written  # "the Borgias": BORGIA
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
    note_no_support(ctx, persona["id"])
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
    targets = [t if t == ALL else find_family(ctx.state, t) or t for t in targets]  # "the Borgias": BORGIA
    unknown = [t for t in targets if t != ALL and t not in ctx.state["families"]]
    if unknown:
        return fail(f"there is no family {', '.join(unknown)}")
    ferries = bool(args.get("ferries"))
    persona["intercept"] = {"targets": targets, "ferries": ferries, "turn": ctx.turn + 1}
    fees.charge(ctx, persona, "interception order")
    limits.pin(ctx, persona["id"], "he issued intercept orders in lieu of moving")
    whom = "all traffic, ferries included" if ferries else ("all" if targets == [ALL] else ", ".join(targets))
    return done(f"he will intercept {whom} next month where he then stands")


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
