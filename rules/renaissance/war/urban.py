"""URBAN BATTLE: a pure function of two Sides (forces.py), no state, no RNG. The readings are in
docs/renaissance/war.md, section "Urban battle, assaults, towers".

Contract (battle.py calls it; assault.tower fights its prelude with this module's melee):

    fight(attacker: Side, defender: Side, *, home: str, withdraw: bool = False,
          tower_room: dict[str, int | None] | None = None, egress_denied: bool = False) -> BattleResult

- `home` is the role (forces.ATTACKER or DEFENDER) of the home side, which sides.py decides from the families
  (URBAN BATTLE: "a citizen's, the tenant's, the bishop's, the feudatory's, the sovereign's"; RW-OQ-27).
- `withdraw`: the attacker is the home side, controls a tower and did not order the battle continued to its
  normal termination: it withdraws at the end of the first half of the first stage, with no morale change
  (RW-OQ-28). Ignored (with a note) when the attacker is not the home side.
- `tower_room[role]`: the troops and crew the tower that side controls can hold (None or absent: no tower). A side
  with a tower withdraws into it once its retreat point has been reached and its troops and crew fit (town
  garrison troops never fit: "Town garrison troops may never be inside towers"); the home side without one never
  retreats; the other side without one leaves town, unless `egress_denied` (then it fights to elimination).
  `Side.can_retreat` False forbids any retreat.

Every stage is an urban melee: all fight on foot, each man inflicting M/10,000 casualties (two crew as one man;
M the side's morale times Side.factor, or Side.commander_factor when given: the whole side is one mass, in the
commander's "division"); the home side first, then the other with what is left of it; losses in LOSS_ORDER, heavy
cavalry's halved; then both morales move (morale.stage_change, on men actually lost). An eliminated side's
personae die (never a spared commander) and its mobile assets go to the victor; a retreating side leaves behind
what its horses and slaves cannot carry (`left_behind`). After GUARD stages with neither end, the battle is broken
off (the engine's guard: with both morales at 0 nothing would ever happen).

The result: `stages` (one StageReport per stage, captures added to the last stage's losses), `survivors` by
role and item (every item the side brought, after losses and captures), `captured` (what the victor takes),
`dead`, `outcome`, `victor`, `retreated`, `eliminated`, `morale_start`, `morale` and `stages_fought`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from ..items import SHIPS, cargo_weight
from . import morale as mo
from . import ranks
from .arith import loss, share
from .forces import (
    ATTACKER,
    DEFENDER,
    FIGHTERS,
    GARRISON,
    GUNS,
    MEN,
    ROLES,
    BattleResult,
    Contingent,
    Side,
    StageReport,
    other,
)
from .words import describe

URBAN_RATE = Fraction(1, 10_000)  # "they inflict casualties at the rate of M/10,000"
GUARD = 100  # stages after which a battle that has not ended is broken off (the engine's, not the rules')

# "Losses are extracted first from garrison troops, then from auxiliaries, then arquebusiers, then pikemen, then
# archers, then crew, then heavy cavalry" (URBAN BATTLE; Appendix E says the same). Light cavalry are auxiliaries
# given horses (FIELD BATLE); on foot they are auxiliaries again and share the auxiliaries' losses in proportion.
LOSS_ORDER: tuple[tuple[str, ...], ...] = (
    (GARRISON,), ("auxiliary", "light cavalry"), ("arquebusier",), ("pikeman",), ("archer",), ("crew",),
    ("heavy cavalry",),
)
HEAVY_CAVALRY = "heavy cavalry"

# The retreat's horses (URBAN BATTLE): one a heavy cavalryman, 20 a cannon, 1/2 a falconet, then the goods; a
# slave carries 1/8 of what a horse does; a horse carries two cargo (RW-OQ-23).
HORSES_PER_CANNON = 20
HORSES_PER_FALCONET = Fraction(1, 2)
SLAVE_HORSE = Fraction(1, 8)
HORSE_CARGO = 2


# ---- men ------------------------------------------------------------------------------------------------------

def fighters(men: Mapping[str, int]) -> int:
    """Troops, crew and garrison: the men who fight (slaves do not)."""
    return sum(men.get(t, 0) for t in FIGHTERS)


def strength(men: Mapping[str, int]) -> Fraction:
    """The men inflicting casualties, two crew counting as one ("Each two crew inflict casualties at the same rate
    as one auxiliary", NAVIGATION; RW-OQ-27)."""
    return Fraction(fighters(men)) - Fraction(men.get("crew", 0), 2)


def take_losses(men: Mapping[str, int], amount: Fraction | int, *,
                halve_heavy_cavalry: bool = False) -> tuple[dict[str, int], Fraction]:
    """The men lost when `amount` casualties fall on `men`, in LOSS_ORDER, and what is left of `amount` when all of
    them are gone. Each type's loss is whole: the part of `amount` that reaches a type and does not exhaust it is
    rounded up (RW-OQ-01). With `halve_heavy_cavalry` (URBAN BATTLE), heavy cavalry lose half of what reaches them
    (each absorbs two casualties); the casualty is the man actually lost (RW-OQ-15)."""
    left = Fraction(amount)
    lost: dict[str, int] = {}
    for bucket in LOSS_ORDER:
        if left <= 0:
            break
        held = {t: men.get(t, 0) for t in bucket if men.get(t, 0) > 0}
        present = sum(held.values())
        if present == 0:
            continue
        per_man = 2 if halve_heavy_cavalry and bucket == (HEAVY_CAVALRY,) else 1
        reaching = left / per_man
        if reaching >= present:
            taken, left = present, left - present * per_man
        else:
            taken, left = loss(reaching), Fraction(0)
        for t, n in share(taken, held).items():
            if n:
                lost[t] = lost.get(t, 0) + n
    return lost, max(left, Fraction(0))


def remove(men: dict[str, int], lost: Mapping[str, int]) -> None:
    for t, n in lost.items():
        men[t] = men.get(t, 0) - n


def fits(men: Mapping[str, int], room: int | None) -> bool:
    """Do these troops and crew fit in a tower of `room`? Town garrison troops never do ("Town garrison troops may
    never be inside towers except when assaulting them")."""
    return room is not None and men.get(GARRISON, 0) == 0 and fighters(men) <= room


def fighting_men(contingents: Iterable[Contingent]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in contingents:
        for t in FIGHTERS:
            if c.men.get(t, 0) > 0:
                out[t] = out.get(t, 0) + c.men[t]
    return out


def inventory(contingents: Iterable[Contingent]) -> dict[str, int]:
    """Every item the contingents bring, by item: men by type, cannon, falconet, horse, ships, goods."""
    inv: dict[str, int] = {}

    def add(item: str, n: int) -> None:
        if n > 0:
            inv[item] = inv.get(item, 0) + n

    for c in contingents:
        for t, n in c.men.items():
            add(t, n)
        add("cannon", c.cannon)
        add("falconet", c.falconet)
        add("horse", c.horses)
        for s, n in c.ships.items():
            add(s, n)
        for g, n in c.goods.items():
            add(g, n)
    return inv


def remaining(inv: Mapping[str, int], result: BattleResult, role: str) -> dict[str, int]:
    lost = result.losses(role)
    return {item: n - lost.get(item, 0) for item, n in inv.items()}


def mobile_assets(held: Mapping[str, int]) -> dict[str, int]:
    """What an eliminated side leaves to the victor: all but its (dead) fighters, slaves included."""
    return {item: n for item, n in held.items() if item not in FIGHTERS and n > 0}


def side_factor(side: Side) -> Fraction:
    return side.commander_factor if side.commander_factor is not None else side.factor


# ---- words ----------------------------------------------------------------------------------------------------

def fmt(x: Fraction | int) -> str:
    """A figure for the printout (display only: no game value is rounded here)."""
    x = Fraction(x)
    if x.denominator == 1:
        return f"{int(x):,}"
    return f"{float(x):,.3f}".rstrip("0").rstrip(".")




NAMES = {ATTACKER: "the attacker", DEFENDER: "the defender"}


# ---- the melee ----------------------------------------------------------------------------------------------

@dataclass
class Force:
    """One side as the melee sees it."""
    role: str
    men: dict[str, int]  # the fighters still standing, by type
    morale: int
    value: int  # ranks.retreat_value of the commander; 0 once he is dead
    factor: Fraction
    reached: bool = False  # its retreat point has been reached: it retreats at the first opportunity (MORALE)

    def below(self) -> int:
        return ranks.below_retreat_point(self.morale, self.value)


def force_of(side: Side, contingents: list[Contingent] | None = None) -> Force:
    members = side.contingents if contingents is None else contingents
    return Force(role=side.role, men=fighting_men(members),
                 morale=mo.combine((c.fighters(), c.morale) for c in members), value=side.retreat_value,
                 factor=side_factor(side))


def strike(inflicter: Force, target: Force, report: StageReport, *, exposed: dict[str, int] | None = None,
           name: str | None = None) -> int:
    """Half a stage: `inflicter` inflicts M/10,000 a man on `target` (only on its `exposed` men when given: the
    prelude of a tower assault, RW-OQ-37). Returns the men the target lost."""
    who = name or NAMES[inflicter.role]
    if fighters(inflicter.men) == 0:
        report.lines.append(f"{who.capitalize()} has no one left to fight.")
        return 0
    pool = target.men if exposed is None else exposed
    men = strength(inflicter.men)
    m = inflicter.morale * inflicter.factor
    amount = men * m * URBAN_RATE
    lost, _ = take_losses(pool, amount, halve_heavy_cavalry=True)
    remove(target.men, lost)
    if exposed is not None:
        remove(exposed, lost)
    factor = f" x {fmt(inflicter.factor)}" if inflicter.factor != 1 else ""
    report.lines.append(f"{who.capitalize()} ({fmt(men)} fighting, morale {inflicter.morale}{factor}) inflicts "
                        f"{fmt(men)} x {fmt(m)}/10,000 = {fmt(amount)} casualties: {NAMES[target.role]} loses "
                        f"{describe(lost)}.")
    losses = report.losses.setdefault(target.role, {})
    for t, n in lost.items():
        losses[t] = losses.get(t, 0) + n
    return sum(lost.values())


def adjust_morale(forces: Mapping[str, Force], suffered: Mapping[str, int], report: StageReport) -> None:
    """MORALE: "Casualties inflicted are deducted from a number equal to twice the casualties suffered"."""
    for role in ROLES:
        f = forces[role]
        change = mo.stage_change(suffered[other(role)], suffered[role])
        new = mo.apply_change(f.morale, change)
        report.lines.append(f"Morale of {NAMES[role]}: 2 x {suffered[role]} suffered - {suffered[other(role)]} "
                            f"inflicted = {2 * suffered[role] - suffered[other(role)]}: {f.morale} -> {new}.")
        f.morale = new
        report.morale[role] = new


def melee_stage(number: int, forces: Mapping[str, Force], home: str, *,
                exposed: Mapping[str, dict[str, int]] | None = None, first_half_only: bool = False) -> StageReport:
    """One urban melee stage: the home side inflicts, then the other with its remaining forces, then morale moves
    (not after a lone first half: RW-OQ-28)."""
    report = StageReport(number=number, name="urban melee")
    suffered = dict.fromkeys(ROLES, 0)
    for role in (home, other(home)):
        target = forces[other(role)]
        if fighters(target.men) == 0 or fighters(forces[role].men) == 0:
            # A side eliminated in the first half: the stage is never complete, "After both sides have inflicted
            # casualties, morale is adjusted" (as the field battle reads "each complete stage", RW-OQ-26).
            if fighters(forces[role].men) == 0:
                report.lines.append(f"{NAMES[role].capitalize()} has no one left to fight.")
            return report
        suffered[target.role] += strike(forces[role], target, report,
                                        exposed=(exposed or {}).get(target.role))
        if first_half_only:
            report.lines.append(f"{NAMES[role].capitalize()} withdraws into its tower after the first half of "
                                f"the stage: no morale change.")
            report.morale = {r: forces[r].morale for r in ROLES}
            return report
    adjust_morale(forces, suffered, report)
    return report


def who_retreats(forces: Mapping[str, Force], able: Mapping[str, bool]) -> str | None:
    """The retreat test at the end of a stage (RW-OQ-16): a side whose retreat point has been reached (now or at
    an earlier stage: "Retreat occurs at the first opportunity after") retreats when it is able to; of two, the
    one further below its point, and the attacker when equally far."""
    for f in forces.values():
        if f.below() > 0:
            f.reached = True
    ready = [r for r in ROLES if forces[r].reached and able[r]]
    if len(ready) < 2:
        return ready[0] if ready else None
    return DEFENDER if forces[DEFENDER].below() > forces[ATTACKER].below() else ATTACKER


# ---- the end ------------------------------------------------------------------------------------------------

def left_behind(held: Mapping[str, int]) -> tuple[dict[str, int], list[str]]:
    """What a retreating side cannot carry (URBAN BATTLE): "one horse is allocated to each heavy cavalryman, then
    20 horses are allocated to each cannon, then 1/2 horse is allocated to each falconet, then the remaining horses
    are allocated proportionately among all other trade goods", slaves carrying "1/8 the capacity of a horse".
    Only whole allocations carry a gun (RW-OQ-23); a horse carries two cargo, ducats weigh nothing (TRAVEL); each
    good keeps the same carried portion and loses the rest, rounded up. Ships stay where they lie."""
    horses = held.get("horse", 0)
    cavalry = held.get(HEAVY_CAVALRY, 0)
    slaves = held.get("slave", 0)
    capacity = Fraction(max(0, horses - cavalry)) + slaves * SLAVE_HORSE
    lines = [f"Retreat: {horses} horses, {cavalry} for the heavy cavalry; {fmt(capacity)} horses' worth left with "
             f"{slaves} slaves at 1/8."]
    out: dict[str, int] = {}
    cannons = held.get("cannon", 0)
    carried = min(cannons, int(capacity // HORSES_PER_CANNON))
    capacity -= carried * HORSES_PER_CANNON
    if cannons:
        out["cannon"] = cannons - carried
        lines.append(f"{carried} of {cannons} cannons carried at 20 horses each.")
    falconets = held.get("falconet", 0)
    carried = min(falconets, int(capacity // HORSES_PER_FALCONET))
    capacity -= carried * HORSES_PER_FALCONET
    if falconets:
        out["falconet"] = falconets - carried
        lines.append(f"{carried} of {falconets} falconets carried at 1/2 horse each.")
    goods = {g: n for g, n in held.items()
             if n > 0 and g not in MEN and g not in GUNS and g != "horse" and g not in SHIPS}
    need = Fraction(sum(cargo_weight(g) * n for g, n in goods.items()), HORSE_CARGO)
    if need > capacity:
        portion = capacity / need
        for g, n in goods.items():
            if cargo_weight(g):
                out[g] = loss(n * (1 - portion), n)
        lines.append(f"Goods need {fmt(need)} horses, {fmt(capacity)} left: {fmt(portion * 100)}% of each "
                     f"carried.")
    out = {k: v for k, v in out.items() if v}
    lines.append(f"Left to the victor: {describe(out)}.")
    return out, lines


def add_to_stage(report: StageReport, role: str, items: Mapping[str, int]) -> None:
    losses = report.losses.setdefault(role, {})
    for item, n in items.items():
        if n:
            losses[item] = losses.get(item, 0) + n


def dead_of(side: Side) -> list[str]:
    """The personae of an eliminated side, but never a commander who is "not to be killed" (BATTLE; RW-OQ-07)."""
    return [p for p in side.personae() if not (side.spare and p == side.commander)]


def finish(result: BattleResult, inventories: Mapping[str, Mapping[str, int]], forces: Mapping[str, Force]) -> None:
    result.stages_fought = len(result.stages)
    result.survivors = {role: remaining(inventories[role], result, role) for role in ROLES}
    result.morale = {role: forces[role].morale for role in ROLES}


def eliminate(result: BattleResult, loser: Side, held: Mapping[str, int]) -> None:
    """The side is eliminated: its personae die, all its mobile assets become the victor's."""
    winner = other(loser.role)
    taken = mobile_assets(held)
    result.eliminated.append(loser.role)
    result.victor = winner
    result.captured = taken
    result.dead.extend(dead_of(loser))
    add_to_stage(result.stages[-1], loser.role, taken)
    result.stages[-1].lines.append(f"{NAMES[loser.role].capitalize()} is eliminated; the victor takes "
                                   f"{describe(taken)}.")
    result.outcome = f"{NAMES[loser.role]} was eliminated"


def retreat(result: BattleResult, side: Side, held: Mapping[str, int], where: str) -> None:
    taken, lines = left_behind(held)
    result.retreated = side.role
    result.victor = other(side.role)
    result.captured = taken
    add_to_stage(result.stages[-1], side.role, taken)
    result.stages[-1].lines.extend(lines)
    result.outcome = f"{NAMES[side.role]} {where}"


# ---- the battle ---------------------------------------------------------------------------------------------

def able_to_retreat(side: Side, force: Force, *, home: str, room: int | None, egress_denied: bool) -> bool:
    if not side.can_retreat:
        return False
    if room is not None:
        return fits(force.men, room)
    return side.role != home and not egress_denied


def fight(attacker: Side, defender: Side, *, home: str, withdraw: bool = False,
          tower_room: dict[str, int | None] | None = None, egress_denied: bool = False) -> BattleResult:
    sides = {ATTACKER: attacker, DEFENDER: defender}
    rooms = tower_room or {}
    forces = {role: force_of(side) for role, side in sides.items()}
    inventories = {role: inventory(side.contingents) for role, side in sides.items()}
    result = BattleResult(kind="urban", morale_start={role: forces[role].morale for role in ROLES})
    if withdraw and home != ATTACKER:
        result.notes.append("No withdrawal: the attacker is not the home side.")
        withdraw = False
    for number in range(1, GUARD + 1):
        report = melee_stage(number, forces, home, first_half_only=withdraw and number == 1)
        result.stages.append(report)
        loser = next((r for r in (other(home), home) if fighters(forces[r].men) == 0), None)
        if loser is not None:
            eliminate(result, sides[loser], remaining(inventories[loser], result, loser))
            break
        if withdraw:
            result.retreated = ATTACKER
            result.outcome = "the attacker withdrew into its tower"
            break
        able = {role: able_to_retreat(sides[role], forces[role], home=home, room=rooms.get(role),
                                      egress_denied=egress_denied) for role in ROLES}
        role = who_retreats(forces, able)
        if role is not None:
            where = "retreated into its tower" if rooms.get(role) is not None else "left town"
            retreat(result, sides[role], remaining(inventories[role], result, role), where)
            break
    else:
        result.outcome = f"broken off after {GUARD} stages"
    finish(result, inventories, forces)
    return result
