"""A battle fought: the engine run (field.py, urban.py, assault.py, naval.py, called through their modules at call
time so that a test may put a stand-in in their place) and its result carried into the state (K10): each
contingent's losses, the dead, what the victor takes and who receives it (K11), each persona's morale, where the
survivors stand (RW-OQ-08), de facto control and the slaves of a captured town (K12), the gunners' piety; then the
initiator's stages and fee (RW-OQ-03, 45) and the report (war/reports.py).

Readings: docs/renaissance/war.md, section "conflict".
"""

from __future__ import annotations

from fractions import Fraction

from .. import piety
from ..context import Ctx, Persona
from ..offices import Location, dfc, holder
from . import assault as assault_engine
from . import control, fees, limits, naval, reports, siege, urban
from . import field as field_engine
from . import forces as fo
from . import morale as mo
from .arith import gain
from .forces import ATTACKER, DEFENDER, GARRISON, BattleResult, Contingent, Side
from .presence import alive, name, present, strongest, tower_controlled
from .sides import KIND_WORDS, Battle, tenant_of


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


# ---- the result carried into the state ------------------------------------------------------------------------

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
            siege.note_entry(ctx, b.where, siege.LAND)
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
