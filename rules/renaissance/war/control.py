"""Control of locations: tenancy, feudatory and sovereignty transfers (simultaneous orders), DE FACTO CONTROL (its
transfer, its passing by force, looting) and TOWERS (transfer, combining, staying out of them, their garrisons).

Rules: THE LOCATIONS, TENANTS, FEUDATORIES, SOVEREIGNS, DE FACTO CONTROL, TOWERS, INGRESS ("Recipients of towers
... are recorded as 'waiting for ingress'"), Appendix E (the assaulter "becomes the de facto controller"). The
readings are docs/renaissance/war.md, section "control" (RW-OQ-29 and the readings C1... after it).

What other war modules call here:

- `tower_garrison`, `lose_tower_garrison`: a tower's garrison this month (10% of its FAS, rounded down, less its
  losses this month);
- `tower_of`, `tower_room`: which tower a persona is in, and how much it holds;
- `set_controller`, `control_after_battle`, `assault_taken`: de facto control passing by force;
- `looted`: whether a persona looted this month (he does nothing else that month).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..context import Ctx, Outcome, Persona, State, done, fail
from ..items import DUCATS
from ..loyalty import add_loyalty
from ..names import find_family
from ..offices import archbishop, dfc, holder, set_office
from ..ranks import barred_from
from ..setup import find_location
from ..taxes import tax_yield
from ..walls import await_ingress
from . import limits
from . import morale as mo
from .arith import loss, nearest
from .forces import ATTACKER, DEFENDER, GARRISON, BattleResult, persona_name

Location = dict[str, Any]

# TENANTS: "through the simultaneous order of the location's sovereign, feudatory and de facto controller";
# FEUDATORIES: "of the sovereign and the de facto controller"; SOVEREIGNS: "by its de facto controller".
ORDERERS: dict[str, tuple[str, ...]] = {
    "tenant": ("sovereign", "feudatory", "dfc"),
    "feudatory": ("sovereign", "dfc"),
    "sovereign": ("dfc",),
}
# TENANTS: "Tenancy may not be transferred in the same turn as the transferral of feudatory, or sovereign, status";
# FEUDATORIES: "Feudatory status may not be transferred in the same month as sovereignty". The transfer named as
# the reference event stands; the one the sentence forbids is void (reading C2).
BLOCKED_BY: dict[str, tuple[str, ...]] = {
    "tenant": ("sovereign", "feudatory"),
    "feudatory": ("sovereign",),
    "sovereign": (),
}
SETTLE_ORDER = ("sovereign", "feudatory", "tenant")
OFFICE_WORDS = {"tenant": "the tenancy", "feudatory": "feudatory status", "sovereign": "sovereignty"}
ROLE_WORDS = {"sovereign": "sovereign", "feudatory": "feudatory", "dfc": "de facto controller"}

# TOWERS: "to any family, or to the location's sovereign, feudatory, tenant, magistrate, bishop or archbishop".
TOWER_OFFICES = ("sovereign", "feudatory", "tenant", "magistrate", "bishop", "archbishop")
TOWER_MAX = 999  # "Towers may never have a rating above 999" (RW-OQ-36)
FAMILY_TOWERS_MAX = 17  # "No location may have more than 17 family-controlled towers."
TOWER_GARRISON_SHARE = Fraction(1, 10)  # "a tower garrison equal to 10% (rounded down) of their FAS"

# DE FACTO CONTROL: looting.
LOOT_WEALTH = Fraction(7, 100)  # "reduces a location's wealth by 7% (rounded to the nearest whole number)"
LOOT_PER_SOLDIER = 10  # "no more than ten ducats per soldier (excluding crew)"
LOOT_SOVEREIGN_FLOOR = 100  # "the greater of 50% or 100 points"

_OFFICE_ORDERS = "war.control.office_orders"  # (location, office, to) -> [orderer pids], in the order given
_TOWER_LOST = "war.control.tower_lost"  # location -> {tower number: garrison lost this month}
_TOWER_START_FAS = "war.control.tower_start_fas"  # location -> {tower number: its FAS before this month's bombardment}
_TOWERS_ORDERED = "war.control.towers_ordered"  # pids who gave MTO/MTI this month
_LOOTED = "war.control.looted"  # pids who looted this month


def _who(state: State, who: str | None) -> str:
    if who is None:
        return "nobody"
    p = state["personae"].get(who)
    return persona_name(p) if p is not None else who


# ---- office transfers -----------------------------------------------------------------------------------------

def _role_holder(location: Location, role: str) -> str | None:
    """The sovereign, the feudatory, or the de facto controller as the rules define him (the tenant unless
    control has passed)."""
    return dfc(location) if role == "dfc" else holder(location, role)


def _orderers(location: Location, office: str) -> list[tuple[str, str]]:
    """(role, holder) of each office whose order the transfer needs. A vacant office gives none: there is no one
    to order (reading C3)."""
    out: list[tuple[str, str]] = []
    for role in ORDERERS[office]:
        who = _role_holder(location, role)
        if who:
            out.append((role, who))
    return out


def _rank_refusal(office: str, recipient: Persona) -> str | None:
    """FEUDATORIES and SOVEREIGNS: the titles that may not receive the office (reading C4; the rows barred are
    ranks.barred_from's)."""
    if not barred_from(office, recipient):
        return None
    rank = recipient.get("rank", "none")
    if office == "feudatory":
        return (f"feudatory status may not be transferred to a {rank} (FEUDATORIES: not to a knight, baronet, "
                "chevalier, baron or viscount)")
    return (f"sovereignty may not be transferred to a {rank} (SOVEREIGNS: not to a feudal title ranking below "
            "that of duke)")


def _missing_orders(state: State, location: Location, office: str, orderers: list[str]) -> list[str]:
    """The holders whose order is still wanting, in words; empty when the transfer may be carried out."""
    missing = []
    roles = _orderers(location, office)
    if not roles:
        return ["a de facto controller (there is none)" if office == "sovereign" else "any office-holder"]
    for role, who in roles:
        if who not in state["personae"]:
            missing.append(f"the {ROLE_WORDS[role]} ({who}, who is not a player's persona and gives no orders)")
        elif who not in orderers:
            missing.append(f"the {ROLE_WORDS[role]} ({_who(state, who)})")
    return missing


def transfer_office(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """ON/OF/OV: one of the holders orders the transfer of the tenancy, feudatory status or sovereignty of a
    location. Recorded now; `settle_office_transfers` carries it out once every family's orders have run, if the
    order of every holder the rules name is in by then ("the simultaneous order")."""
    office = args.get("office")
    if office not in ORDERERS:
        return fail(f"unknown office {office!r}: tenant, feudatory or sovereign")
    where = find_location(ctx.state, args.get("location"))
    if where is None:
        return fail(f"there is no location {args.get('location')!r}")
    location = ctx.state["locations"][where]
    recipient = ctx.persona(str(args.get("to", "")))
    if recipient is None or not recipient.get("alive", True):
        return fail(f"there is no persona {args.get('to')!r} to receive {OFFICE_WORDS[office]} of {where}")
    if holder(location, office) == recipient["id"]:
        return fail(f"{persona_name(recipient)} already holds {OFFICE_WORDS[office]} of {where}")
    if why := _rank_refusal(office, recipient):
        return fail(why)
    roles = _orderers(location, office)
    if not roles:
        return fail(f"{OFFICE_WORDS[office]} of {where} cannot be transferred: no one holds the offices that "
                    "would order it")
    npc = [(role, who) for role, who in roles if who not in ctx.state["personae"]]
    if npc:
        role, who = npc[0]
        return fail(f"{OFFICE_WORDS[office]} of {where} cannot be transferred: its {ROLE_WORDS[role]} is {who}, "
                    "who is not a player's persona and gives no orders")
    mine = [ROLE_WORDS[role] for role, who in roles if who == persona["id"]]
    if not mine:
        needed = ", ".join(ROLE_WORDS[r] for r in ORDERERS[office])
        return fail(f"only the {needed} of {where} may order {OFFICE_WORDS[office]} transferred")
    orders = ctx.scratch.setdefault(_OFFICE_ORDERS, {})
    given = orders.setdefault((where, office, recipient["id"]), [])
    if persona["id"] in given:
        return fail(f"he has already ordered {OFFICE_WORDS[office]} of {where} transferred to "
                    f"{persona_name(recipient)} this month")
    given.append(persona["id"])
    others = [f"the {ROLE_WORDS[role]} ({_who(ctx.state, who)})" for role, who in roles if who != persona["id"]]
    needs = f"; it also needs the order of {' and '.join(others)}" if others else ""
    return done(f"ordered, as {' and '.join(mine)} of {where}, {OFFICE_WORDS[office]} transferred to "
                f"{persona_name(recipient)}: carried out at the end of the month{needs}")


def halve_loyalty(location: Location) -> int:
    """TENANTS, FEUDATORIES, SOVEREIGNS: "reduces loyalty by 50%", a loss rounded up (301 loses 151). Returns the
    points lost."""
    return -add_loyalty(location, -loss(Fraction(int(location.get("loyalty", 0)), 2)))


def _carry_out(ctx: Ctx, where: str, office: str, to: str) -> str:
    location = ctx.state["locations"][where]
    old = holder(location, office)
    set_office(location, office, to)
    before = int(location.get("loyalty", 0))
    halve_loyalty(location)
    said = [f"loyalty {before} -> {location['loyalty']}"]
    if office == "tenant":
        if int(location.get("garrison", 0)) > 0:
            said.append(f"its garrison of {location['garrison']} disbanded")
        location["garrison"] = 0  # TENANTS: "Such an action ... disbands the garrison."
        if holder(location, "dfc") == to:
            _return_to_tenancy(location)  # the separate controller became the tenant: control rests with him
    said += office_towers_to_family(ctx, where, office, old, to)
    return "; ".join(said)


def settle_office_transfers(ctx: Ctx) -> None:
    """After every family's orders: carry out each transfer whose orders are all in. Sovereignty first, then
    feudatory status, then tenancy, so that a transfer the rules forbid in the same month as another is the one
    left undone (reading C2); of two transfers of the same office of one location, the first ordered."""
    orders: dict[tuple[str, str, str], list[str]] = ctx.scratch.get(_OFFICE_ORDERS, {})
    moved: dict[str, list[str]] = {}  # location -> offices transferred this month
    for office in SETTLE_ORDER:
        for (where, kind, to), given in orders.items():
            if kind != office:
                continue
            outcome = _settle_one(ctx, where, office, to, given, moved.get(where, []))
            if outcome is None:
                moved.setdefault(where, []).append(office)


def _settle_one(ctx: Ctx, where: str, office: str, to: str, given: list[str], moved: list[str]) -> str | None:
    """Carry out one recorded transfer, or say (to the orderers' families) why not. None when carried out."""
    state = ctx.state
    location = state["locations"][where]
    recipient = state["personae"].get(to)
    what = f"{OFFICE_WORDS[office]} of {where} to {_who(state, to)}"
    why: str | None = None
    blocker = next((o for o in moved if o == office or o in BLOCKED_BY[office]), None)
    if blocker is not None:
        why = (f"{OFFICE_WORDS[blocker]} of {where} was transferred this month, and "
               + ("an office is transferred once a month" if blocker == office else
                  f"{OFFICE_WORDS[office]} may not be transferred in the same month"))
    elif recipient is None or not recipient.get("alive", True):
        why = f"{_who(state, to)} is dead"
    elif holder(location, office) == to:
        why = f"{_who(state, to)} already holds it"
    elif (refused := _rank_refusal(office, recipient)) is not None:
        why = refused
    elif missing := _missing_orders(state, location, office, given):
        why = f"the order of {' and '.join(missing)} was not given"
    families = {state["personae"][pid].get("family") for pid in given if pid in state["personae"]}
    if why is not None:
        for family in sorted(f for f in families if f):
            ctx.tell(family, f"The transfer of {what} was not carried out: {why}.")
        return why
    old = holder(location, office)
    said = _carry_out(ctx, where, office, to)
    ctx.publish(f"{OFFICE_WORDS[office].capitalize()} of {where} passes from {_who(state, old)} to "
                f"{_who(state, to)} ({said}).")
    return None


# ---- de facto control ------------------------------------------------------------------------------------------

def _return_to_tenancy(location: Location) -> None:
    set_office(location, "dfc", None)
    location.pop("dfc_since", None)


def transfer_control(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OD: "When de facto control does not rest with a location's tenancy, the de facto controller may freely
    transfer his control to any other persona. The transfer of de facto control has no impact on loyalty."
    Transferred to the tenant, control rests with the tenancy again (RW-OQ-29)."""
    where = find_location(ctx.state, args.get("location"))
    if where is None:
        return fail(f"there is no location {args.get('location')!r}")
    location = ctx.state["locations"][where]
    pid = persona["id"]
    if holder(location, "dfc") != pid:
        if holder(location, "tenant") == pid:
            return fail(f"de facto control of {where} rests with its tenancy: only a de facto controller apart "
                        "from the tenancy may transfer it (the tenancy moves by ON orders)")
        return fail(f"he is not the de facto controller of {where}")
    recipient = ctx.persona(str(args.get("to", "")))
    if recipient is None or not recipient.get("alive", True):
        return fail(f"there is no persona {args.get('to')!r} to receive de facto control of {where}")
    if recipient["id"] == pid:
        return fail(f"he is already the de facto controller of {where}")
    if holder(location, "tenant") == recipient["id"]:
        _return_to_tenancy(location)
        ctx.publish(f"De facto control of {where} returns to its tenant, {persona_name(recipient)}.")
        return done(f"de facto control of {where} handed back to its tenant, {persona_name(recipient)}: it rests "
                    "with the tenancy again; loyalty unchanged")
    set_office(location, "dfc", recipient["id"])
    location["dfc_since"] = ctx.turn
    ctx.publish(f"De facto control of {where} passes from {persona_name(persona)} to {persona_name(recipient)}.")
    return done(f"de facto control of {where} transferred to {persona_name(recipient)}; loyalty unchanged")


def set_controller(ctx: Ctx, where: str, pid: str) -> None:
    """De facto control of `where` taken by force by persona `pid` (a garrison eliminated, a de facto controller
    defeated, the tenant outnumbered inside the walls, the walls assaulted): he becomes the de facto controller,
    from this month (`dfc_since`, for looting), unless he is the tenant, with whom control then rests again.

    DE FACTO CONTROL: "A location whose de facto control is separate from its tenancy may not have garrison
    troops": a garrison still standing when control passes apart from the tenancy is disbanded (reading C7;
    control usually passes by the garrison's elimination, so it is rarely there)."""
    location = ctx.state["locations"][where]
    if holder(location, "tenant") == pid:
        if holder(location, "dfc") is not None:
            _return_to_tenancy(location)
            ctx.publish(f"De facto control of {where} returns to its tenant, {_who(ctx.state, pid)}.")
        return
    if holder(location, "dfc") == pid:
        return
    set_office(location, "dfc", pid)
    location["dfc_since"] = ctx.turn
    disbanded = int(location.get("garrison", 0))
    location["garrison"] = 0
    also = f"; its garrison of {disbanded} is disbanded" if disbanded else ""
    ctx.publish(f"{_who(ctx.state, pid)} takes de facto control of {where}{also}.")


def troops_of(persona: Persona | None) -> int:
    """Troops he controls: the six troop types; crew are not troops, garrisons are no one's assets."""
    return mo.troops(persona.get("assets") or {}) if persona is not None else 0


def _inside(persona: Persona | None, where: str) -> bool:
    return persona is not None and persona.get("location") == where and bool(persona.get("inside"))


def _garrison_eliminated(result: BattleResult) -> str | None:
    """The role whose garrison (town garrison: the caller does not ask for tower assaults) started the battle and
    was eliminated in it, or None."""
    for role in (ATTACKER, DEFENDER):
        left = int(result.survivors.get(role, {}).get(GARRISON, 0))
        started = left + int(result.losses(role).get(GARRISON, 0))
        if started > 0 and left == 0:
            return role
    return None


# Battles fought "inside the location": inside the walls (urban), at them from within (assault of the walls), or
# at a tower (reading C8). A field battle is "fought outside of fortifications".
INSIDE_BATTLES = ("urban", "assault", "tower")


def _dfc_defeated(ctx: Ctx, where: str, result: BattleResult | None, role: str, kind: str) -> str | None:
    """Is the separate de facto controller, fighting as `role`, defeated (DE FACTO CONTROL's three kinds of
    defeat, reading C8)? Returns how, or None."""
    state = ctx.state
    location = state["locations"][where]
    controller = holder(location, "dfc")
    person = state["personae"].get(controller or "")
    dead = set(result.dead) if result is not None else set()
    opponent_role = DEFENDER if role == ATTACKER else ATTACKER
    if kind == "urban" and role == DEFENDER:
        # "when the DFC is attacked in urban battle at the location while he is not present (or is inside a tower)"
        if result is None or (person is not None and controller not in dead
                              and (not _inside(person, where) or tower_of(state, person) is not None)):
            return "attacked in urban battle while absent or inside a tower"
    if result is None or kind not in INSIDE_BATTLES:
        return None
    if controller in dead:
        return "killed in battle inside the location"
    lost, lost_by_opponent = result.men_lost(role), result.men_lost(opponent_role)
    took_tower = kind == "tower" and role == ATTACKER and result.victor == ATTACKER
    if lost > lost_by_opponent and not took_tower:
        return f"greater losses ({lost} men against {lost_by_opponent}) in battle inside the location"
    return None


def control_after_battle(ctx: Ctx, where: str, result: BattleResult | None, attacker_pid: str | None,
                         defender_pid: str | None, kind: str) -> str | None:
    """DE FACTO CONTROL after a battle at `where`, once the battle's result has been applied to the state (the dead
    marked, the garrison and the personae's troops updated). `kind` is the result's kind ("field", "urban",
    "assault" of the walls, "tower"); `result` is None when an urban battle order against a persona found no one to
    fight (he was absent or unattainable in his tower). `attacker_pid` issued the battle order; `defender_pid` is
    the persona attacked (None for a garrison or tower garrison alone). Returns the new de facto controller's id,
    or None when control did not change hands.

    - With a garrison: "a persona gains de facto control of the location by eliminating its garrison".
    - Control apart from the tenancy: "a persona who defeats the last de facto controller becomes its new de facto
      controller", defeat being one of three (`_dfc_defeated`).
    - No garrison, control with the tenancy: "a persona already inside its walls gains de facto control of the
      location by issuing urban battle orders against the tenant ... and at the conclusion of any resulting battle
      having more troops inside the location's walls (excluding tower garrisons) than does the tenant".
    A persona killed in the battle gains nothing (reading C8)."""
    state = ctx.state
    location = state["locations"][where]
    dead = set(result.dead) if result is not None else set()
    pids = {ATTACKER: attacker_pid, DEFENDER: defender_pid}

    def winner(pid: str | None) -> str | None:
        if pid is None or pid in dead or pid not in state["personae"]:
            return None
        if not state["personae"][pid].get("alive", True):
            return None
        set_controller(ctx, where, pid)
        return pid

    if holder(location, "dfc") is None:
        if result is not None and kind not in ("tower", "naval"):
            role = _garrison_eliminated(result)
            if role is not None:
                return winner(pids[DEFENDER if role == ATTACKER else ATTACKER])
        tenant = holder(location, "tenant")
        if (kind == "urban" and tenant and defender_pid == tenant and int(location.get("garrison", 0)) == 0
                and attacker_pid is not None):
            attacker = state["personae"].get(attacker_pid)
            if _inside(attacker, where) and troops_of(attacker) > (
                    troops_of(state["personae"].get(tenant)) if _inside(state["personae"].get(tenant), where) else 0):
                return winner(attacker_pid)
        return None
    controller = holder(location, "dfc")
    for role in (ATTACKER, DEFENDER):
        if pids[role] == controller:
            how = _dfc_defeated(ctx, where, result, role, kind)
            if how is None:
                return None
            opponent = pids[DEFENDER if role == ATTACKER else ATTACKER]
            new = winner(opponent)
            if new is not None:
                ctx.tell(state["personae"][new].get("family", ""),
                         f"{_who(state, new)} defeated {_who(state, controller)} ({how}) and holds de facto "
                         f"control of {where}.")
            return new
    return None


def assault_taken(ctx: Ctx, where: str, pid: str, tower: int | None = None) -> None:
    """A successful assault by `pid`. Of the walls (`tower` None): Appendix E, "the assaulter becomes the de facto
    controller of the location" (also "When a location's last defenders retreat"). Of tower number `tower`: TOWERS,
    "When a tower is taken by assault, the family of the assaulter becomes its new owner" (combined with a tower his
    family already owns there); control of the location is not the tower's (reading C9)."""
    if tower is None:
        set_controller(ctx, where, pid)
        return
    persona = ctx.state["personae"][pid]
    family = persona.get("family", "")
    location = ctx.state["locations"][where]
    name = _tower_name(location, tower)
    _give_to_family(ctx, where, tower, family)
    ctx.publish(f"{name} at {where} is taken by assault by {persona_name(persona)}; it now belongs to the "
                f"{family} family.")


def looted(ctx: Ctx, pid: str) -> bool:
    """Did he loot this month? "Troops ordered to loot may not move or execute other orders that turn"."""
    return pid in ctx.scratch.get(_LOOTED, set())


def loot(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OL, in the movement phase in place of his move: DE FACTO CONTROL's looting (RW-OQ-29, reading C10)."""
    pid = persona["id"]
    where = persona.get("location")
    location = ctx.location(where)
    if location is None or where is None:
        return fail("he is at no location to loot")
    if holder(location, "dfc") != pid:
        return fail(f"only a de facto controller who is not its tenant may loot {where}, and he is not")
    if location.get("dfc_since") is not None and int(location["dfc_since"]) >= ctx.turn:
        return fail(f"he became de facto controller of {where} this month: he may loot it in any later month")
    if ctx.start_location.get(pid, where) != where or ctx.start_inside.get(pid, persona.get("inside")) != bool(
            persona.get("inside")):
        return fail("he has moved this month: troops ordered to loot may not move")
    if limits.has_fought(ctx, pid):
        return fail("he executed battle orders this month and may execute no other orders")
    soldiers = troops_of(persona)
    if soldiers <= 0:
        return fail(f"he has no soldiers to loot {where} with (crew do not loot)")
    if looted(ctx, pid):
        return fail("he has already looted this month")
    taxes = tax_yield(location)[0]
    ducats = min(2 * taxes, LOOT_PER_SOLDIER * soldiers)
    wealth = int(location.get("wealth", 0))
    wealth_lost = min(wealth, nearest(LOOT_WEALTH * wealth))
    location["wealth"] = wealth - wealth_lost
    assets = persona.setdefault("assets", {})
    assets[DUCATS] = int(assets.get(DUCATS, 0)) + ducats
    said = [f"looted {where}: {ducats:,} ducats (twice one month's taxes, {2 * taxes:,}, at most ten per soldier, "
            f"{LOOT_PER_SOLDIER * soldiers:,}); wealth {wealth} -> {location['wealth']}"]
    if holder(location, "sovereign") == pid:
        before = int(location.get("loyalty", 0))
        add_loyalty(location, -max(loss(Fraction(before, 2)), LOOT_SOVEREIGN_FLOOR))
        said.append(f"loyalty {before} -> {location['loyalty']} (looted by its own sovereign)")
    ctx.scratch.setdefault(_LOOTED, set()).add(pid)
    limits.pin(ctx, pid, f"his troops looted {where} this month")
    ctx.publish(f"{persona_name(persona)} has looted {where}.")
    return done("; ".join(said))


# ---- towers -------------------------------------------------------------------------------------------------

def _tower(location: Location | None, n: int) -> dict[str, Any] | None:
    towers = (location or {}).get("towers") or []
    return towers[n - 1] if isinstance(n, int) and 1 <= n <= len(towers) else None


def _tower_name(location: Location, n: int) -> str:
    tower = _tower(location, n) or {}
    return str(tower.get("name") or f"tower {n}")


def _is_office(owner: Any) -> bool:
    return owner in TOWER_OFFICES


def _office_holder(state: State, location: Location, office: str) -> str | None:
    return archbishop(state, location) if office == "archbishop" else holder(location, office)


def family_tower(location: Location, family: str) -> int | None:
    """The number of the one family-controlled tower `family` owns at the location, or None."""
    for n, tower in enumerate(location.get("towers") or [], start=1):
        if tower.get("owner") == family:
            return n
    return None


def family_towers(location: Location) -> int:
    """How many family-controlled towers the location has (towers owned by an office are not counted)."""
    return sum(1 for t in location.get("towers") or [] if t.get("owner") and not _is_office(t.get("owner")))


def tower_room(location: Location, n: int) -> int:
    """TOWERS: "Towers have a capacity (expressed in cargo units) equal to their FAS." 0 for no such tower."""
    tower = _tower(location, n)
    return int(tower.get("fas", 0)) if tower else 0


def full_tower_garrison(tower: dict[str, Any]) -> int:
    """The garrison a tower starts every turn with: "a tower garrison equal to 10% (rounded down) of their FAS"."""
    return int(TOWER_GARRISON_SHARE * int(tower.get("fas", 0)))


def tower_garrison(ctx: Ctx, where: str, n: int) -> int:
    """The garrison tower `n` of `where` has now: "Towers always start the turn with a tower garrison equal to 10%
    (rounded down) of their FAS. Tower garrisons appear at the start of each turn without regard to siege, or the
    destruction of the prior turn's garrison" (so nothing is stored between months); less what it has lost this
    month (`lose_tower_garrison`). A tower combined with another this month has the garrison of its new FAS less
    what both lost."""
    tower = _tower(ctx.location(where), n)
    if tower is None:
        return 0
    start = ctx.scratch.get(_TOWER_START_FAS, {}).get(where, {}).get(n)
    full = full_tower_garrison(tower if start is None else {"fas": start})
    lost = ctx.scratch.get(_TOWER_LOST, {}).get(where, {}).get(n, 0)
    return max(0, full - lost)


def keep_start_garrison(ctx: Ctx, where: str, n: int) -> None:
    """Tower `n`'s FAS is about to fall this month (a siege bombardment): the garrison it started the turn with
    stays this month's ("Towers always start the turn with a tower garrison equal to 10% ... of their FAS")."""
    tower = _tower(ctx.location(where), n)
    if tower is not None:
        ctx.scratch.setdefault(_TOWER_START_FAS, {}).setdefault(where, {}).setdefault(n, int(tower.get("fas", 0)))


def lose_tower_garrison(ctx: Ctx, where: str, n: int, k: int) -> int:
    """Tower `n` of `where` loses `k` men of its garrison this month (never more than it has); returns the men
    actually lost."""
    lost = min(max(0, int(k)), tower_garrison(ctx, where, n))
    if lost:
        by_tower = ctx.scratch.setdefault(_TOWER_LOST, {}).setdefault(where, {})
        by_tower[n] = by_tower.get(n, 0) + lost
    return lost


def _remove_tower(ctx: Ctx, where: str, gone: int, into: int) -> int:
    """Drop tower `gone` (combined into tower `into`): its garrison's losses join `into`'s, later towers move up one
    number. Returns the new number of `into`."""
    towers = ctx.state["locations"][where]["towers"]
    del towers[gone - 1]
    by_tower = ctx.scratch.get(_TOWER_LOST, {}).get(where)
    if by_tower:
        moved = by_tower.pop(gone, 0)
        by_tower[into] = by_tower.get(into, 0) + moved
        renumbered = {(n - 1 if n > gone else n): lost for n, lost in by_tower.items()}
        by_tower.clear()
        by_tower.update(renumbered)
    return into - 1 if into > gone else into


def _give_to_family(ctx: Ctx, where: str, n: int, family: str) -> int:
    """Tower `n` becomes `family`'s. TOWERS: "A family may never own more than one family-controlled tower per
    location. When a family which already owns a tower acquires a second tower at the same location, they are
    combined into one tower with a rating equal to the sum of the ratings of the two original towers", capped at
    999 (RW-OQ-36). Returns the number of the family's tower afterwards."""
    location = ctx.state["locations"][where]
    towers = location["towers"]
    existing = family_tower(location, family)
    if existing is None or existing == n:
        towers[n - 1]["owner"] = family
        return n
    keep = towers[existing - 1]
    keep["fas"] = min(TOWER_MAX, int(keep.get("fas", 0)) + int(towers[n - 1].get("fas", 0)))
    return _remove_tower(ctx, where, n, existing)


def office_towers_to_family(ctx: Ctx, where: str, office: str, old: str | None, new: str) -> list[str]:
    """TOWERS: "When a family which holds an office which carries with it control over a tower loses that office by
    means other than resignation or death, then the office-controlled tower associated with that office becomes a
    family-controlled tower owned by the family losing the office." A transfer out of the family is such a loss
    (reading C5); one to another member of the family is not (the family still holds the office)."""
    previous = ctx.state["personae"].get(old or "")
    family = previous.get("family") if previous else None
    if not family:
        return []  # a non-player holder is no family: the tower stays the office's
    if (ctx.state["personae"].get(new) or {}).get("family") == family:
        return []
    location = ctx.state["locations"][where]
    said = []
    while (n := next((i for i, t in enumerate(location.get("towers") or [], 1) if t.get("owner") == office),
                     None)) is not None:
        name = _tower_name(location, n)
        kept = _give_to_family(ctx, where, n, family)
        said.append(f"{name} becomes the {family} family's tower" + (
            f", combined with its tower ({location['towers'][kept - 1]['fas']})" if kept != n else ""))
    return said


def _tower_recipient(ctx: Ctx, location: Location, written: str) -> tuple[str, str | None] | str:
    """(owner as recorded, the family to record as waiting for ingress) for a tower's recipient, or why not."""
    word = written.strip().lower()
    if word in TOWER_OFFICES:
        who = _office_holder(ctx.state, location, word)
        p = ctx.state["personae"].get(who or "")
        return word, (p.get("family") if p else None)
    family = find_family(ctx.state, written.strip())
    if family is None:
        return f"there is no family {written!r} (nor is it an office: {', '.join(w.upper() for w in TOWER_OFFICES)})"
    return family, family


def _may_transfer(ctx: Ctx, persona: Persona, location: Location, tower: dict[str, Any]) -> bool:
    owner = tower.get("owner")
    if _is_office(owner):
        return _office_holder(ctx.state, location, owner) == persona["id"]
    return bool(owner) and owner == persona.get("family")


def _under_siege(ctx: Ctx, location: Location, n: int) -> bool:
    """A tower is under siege when a siege in effect is laid to it (KSTn), or to the walls enclosing it (reading
    C6)."""
    for held in (location.get("siege"), (_tower(location, n) or {}).get("siege")):
        if held and held.get("since") is not None and int(held["since"]) <= ctx.turn:
            return True
    return False


def transfer_tower(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """OWnffff: TOWERS, "Although they may not be transferred while they are under siege, towers may otherwise be
    freely transferred to any family, or to the location's sovereign, feudatory, tenant, magistrate, bishop or
    archbishop." The tower is at his location, owned by his family or by an office he holds."""
    where = persona.get("location")
    location = ctx.location(where)
    if location is None or where is None:
        return fail("he is at no location")
    n = args.get("tower")
    tower = _tower(location, n) if isinstance(n, int) else None
    if tower is None:
        count = len(location.get("towers") or [])
        return fail(f"{where} has no tower {n} (it has {count})")
    name = _tower_name(location, n)
    if not _may_transfer(ctx, persona, location, tower):
        return fail(f"{name} at {where} belongs to {tower.get('owner') or 'no one'}: only his family's tower, or one "
                    "of an office he holds, is his to transfer")
    if _under_siege(ctx, location, n):
        return fail(f"{name} at {where} is under siege: towers may not be transferred while under siege")
    recipient = _tower_recipient(ctx, location, str(args.get("to", "")))
    if isinstance(recipient, str):
        return fail(recipient)
    owner, waiting = recipient
    if owner == tower.get("owner"):
        return fail(f"{name} at {where} already belongs to {owner}")
    adds_family_tower = not _is_office(owner) and family_tower(location, owner) is None and _is_office(
        tower.get("owner"))
    if adds_family_tower and family_towers(location) >= FAMILY_TOWERS_MAX:
        return fail(f"{where} already has {FAMILY_TOWERS_MAX} family-controlled towers, the most a location may have")
    if _is_office(owner):
        tower["owner"] = owner
        said = f"{name} at {where} transferred to the {owner} of {where}"
    else:
        before = family_tower(location, owner)
        kept = _give_to_family(ctx, where, n, owner)
        said = f"{name} at {where} transferred to the {owner} family"
        if before is not None:
            said += (f", combined with its tower: {_tower_name(location, kept)} (tower {kept}) now has FAS "
                     f"{location['towers'][kept - 1]['fas']}")
    if waiting:
        said += f"; {await_ingress(ctx.state, where, waiting, ctx.turn)}"
    return done(said)


def towers(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """MTO / MTI: the standing order "stay outside of all towers" and its reversal. TOWERS: "An order to 'stay out of
    all towers' may be reversed in any subsequent turn": not in the month it was given (reading C11)."""
    outside = bool(args.get("outside"))
    pid = persona["id"]
    if bool(persona.get("outside_towers")) == outside:
        return fail("he already has standing orders to stay outside of all towers" if outside else
                    "he has no standing order to stay outside of all towers")
    ordered = ctx.scratch.setdefault(_TOWERS_ORDERED, set())
    if pid in ordered:
        return fail("an order to stay out of all towers may be reversed only in a later month")
    ordered.add(pid)
    persona["outside_towers"] = outside
    if outside:
        return done("standing orders: he stays outside of all towers until the order is reversed")
    return done("his standing order to stay outside of all towers is reversed")


def _has_access(state: State, location: Location, tower: dict[str, Any], persona: Persona) -> bool:
    """TOWERS: "Personae inside a location containing a tower owned by a member of their family are assumed to be
    inside that tower"; "A tower's owner is the family, or office-holder associated with it": an office's tower
    shelters the office-holder's family (reading C12)."""
    owner = tower.get("owner")
    family = persona.get("family")
    if not owner or not family:
        return False
    if _is_office(owner):
        who = state["personae"].get(_office_holder(state, location, owner) or "")
        return who is not None and who.get("family") == family
    return bool(owner == family)


def tower_of(state: State, persona: Persona) -> int | None:
    """The number of the tower a persona is in, or None. He is in a tower when he is inside the walls of a location
    with a tower his family owns, or one owned by an office a member of his family holds, and has no standing
    orders to stay outside of all towers; with access to several, "he is deemed to be inside the largest" (by FAS;
    equal ones, the first listed)."""
    where = persona.get("location")
    if not where or not persona.get("inside") or persona.get("outside_towers") or not persona.get("alive", True):
        return None
    location = state["locations"].get(where)
    if location is None:
        return None
    best: int | None = None
    for n, tower in enumerate(location.get("towers") or [], start=1):
        if _has_access(state, location, tower, persona) and (
                best is None or int(tower.get("fas", 0)) > int(location["towers"][best - 1].get("fas", 0))):
            best = n
    return best
