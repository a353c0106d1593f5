"""Assaults of fortifications (SIEGE BOMBARDMENT ... ASSAULT, TOWERS, Appendix E): pure functions of two Sides
(forces.py), no state, no RNG. The readings are in docs/renaissance/war.md, section "Urban battle, assaults,
towers".

Contract (battle.py calls them):

    walls(attacker: Side, defender: Side, *, far: int, fas: int, retreat_room: int | None = None) -> BattleResult
    tower(attacker: Side, defender: Side, *, fas: int, room: int, attacker_room: int | None = None,
          egress_denied: bool = False) -> BattleResult

- `walls`: an assault of a location's four walls. `Side.dispositions` holds each side's allocation to walls
  ((place, item, qty), place one of forces.WALLS, item a fighting type); what is not allocated is divided equally
  among the four walls (`divide`). `Side.places` posts personae (default: the North wall, for both sides; the
  assaulter's post only decides where his commander_factor applies). All troops fight on foot; slaves, horses and
  goods take no part. The defenders' cannons and falconets (their contingents', each with its owner's gunnery)
  fire in Stage 1 when FAR > 0. `retreat_room`: the troops and crew the defenders' tower can hold (Appendix E:
  "Defenders never retreat unless they own a tower with enough space to hold all of their troops"), None when they
  have none.
- `tower`: the assault of a tower of `fas` (one wall, FAR 0), preceded by the urban prelude against the
  defender's men who do not fit in its `room` (TOWERS, RW-OQ-37). The defender's Side includes the tower garrison
  as a contingent whose key begins "tower:" (forces.of_tower_garrison): it sits out the prelude and defends the
  tower at its own morale, never retreating. `attacker_room` and `egress_denied` are the prelude's urban rules
  for the attacker (a tower of his own to withdraw to; egress denied); in the tower assault itself he withdraws
  as any assaulter does.
- The result's `victor` is ATTACKER when the fortification falls (its defenders eliminated, or the last of them
  retreated into a tower: RW-OQ-35) and DEFENDER when the assaulters withdraw or are eliminated; `survivors`,
  `captured`, `dead`, `stages` as for every battle. The morale bonus of a successful assault (one point per whole
  hundred defenders killed, the prelude's included) is in the attacker's final morale. When the assaulting force
  is eliminated, `receiver` names the defending persona with the most troops left (alive), who takes its assets
  when the de facto controller is absent (Appendix E), or None.
- In `tower`, the defender's `morale_start` and `morale` are those of the defending personae's men (the tower
  garrison's when they have none): `morale - morale_start` is the change in the overall morale, prelude and
  assault together, that each defending persona takes (Appendix E).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from ..items import TROOPS
from . import morale as mo
from .arith import gain, loss, share
from .forces import (
    ATTACKER,
    DEFENDER,
    FIGHTERS,
    ROLES,
    WALLS,
    BattleResult,
    Contingent,
    Side,
    StageReport,
    split_losses,
)
from .urban import (
    GUARD,
    LOSS_ORDER,
    Force,
    able_to_retreat,
    add_to_stage,
    adjust_morale,
    dead_of,
    fighters,
    fighting_men,
    finish,
    fits,
    fmt,
    force_of,
    inventory,
    melee_stage,
    mobile_assets,
    remaining,
    remove,
    retreat,
    strength,
    take_losses,
    who_retreats,
)
from .words import describe

TOWER = "tower"  # the one wall of a tower ("towers are treated as having only one wall")
TOWER_GARRISON_PREFIX = "tower:"
NORTH = WALLS[0]

CANNON_KILLS = 100  # "Each cannon kills 100xG/1000xFAR/1000 of the assaulting troops"
FALCONET = Fraction(1, 10)  # "each falconet is treated as the equivalent of 1/10th of a cannon"
SELF_DESTRUCT = Fraction(2, 100)  # "2% of all firing cannons self-destruct"
STAGE_2_RATE = 4  # "kill assaulters at the rate of 4xM/1000xFAS/1000"
TOP_BASE = Fraction(3, 10)  # "M/1000x(.3+FAS/1000)"
TOP_ASSAULTER_RATE = Fraction(1, 2)  # ".5xM/1000"
MORALE_BONUS_MEN = 100  # "one morale point for each one hundred defenders eliminated"

TYPE_ORDER: tuple[str, ...] = tuple(t for bucket in LOSS_ORDER for t in bucket)


# ---- dividing men ---------------------------------------------------------------------------------------------

def divide(men: Mapping[str, int], parts: int) -> list[dict[str, int]]:
    """Men divided equally among `parts` (walls), type by type in the loss order; each type's remainder goes one
    man at a time round the parts in their order (North, East, South, West), starting where the previous type's
    remainder stopped, so that no wall gets every odd man."""
    out: list[dict[str, int]] = [{} for _ in range(parts)]
    start = 0
    for t in TYPE_ORDER:
        n = men.get(t, 0)
        if n <= 0:
            continue
        each, rest = divmod(n, parts)
        for i in range(parts):
            extra = 1 if (i - start) % parts < rest else 0
            if each + extra:
                out[i][t] = each + extra
        start = (start + rest) % parts
    return out


def take(men: dict[str, int], n: int) -> dict[str, int]:
    """`n` men taken out of `men`, each type in proportion to its numbers (arith.share)."""
    n = min(n, fighters(men))
    taken = {t: k for t, k in share(n, {t: men.get(t, 0) for t in TYPE_ORDER}).items() if k}
    remove(men, taken)
    return taken


def add(men: dict[str, int], more: Mapping[str, int]) -> None:
    for t, n in more.items():
        if n:
            men[t] = men.get(t, 0) + n


def allocate(side: Side, men: Mapping[str, int], walls: tuple[str, ...], notes: list[str]) -> dict[str, dict]:
    """The side's men at each wall: its dispositions as ordered (cut to what it has), the rest divided equally
    (SIEGE BOMBARDMENT: "If an assaulter does not allocate his troops to specific walls, they are divided equally
    among the four walls"; "all defending troops are allocated equally among the four walls")."""
    at: dict[str, dict[str, int]] = {w: {} for w in walls}
    free = {t: n for t, n in men.items() if n > 0}
    if len(walls) > 1:
        for place, item, qty in side.dispositions:
            wall = str(place).lower()
            if wall not in at or item not in FIGHTERS or qty <= 0:
                notes.append(f"Disposition of {qty} {item} to {place} ignored.")
                continue
            placed = min(qty, free.get(item, 0))
            if placed < qty:
                notes.append(f"Only {placed} of {qty} {item} could go to the {wall} wall.")
            if placed:
                add(at[wall], {item: placed})
                free[item] -= placed
    for wall, part in zip(walls, divide(free, len(walls)), strict=True):
        add(at[wall], part)
    return at


# ---- the walls ----------------------------------------------------------------------------------------------

@dataclass
class Wall:
    name: str
    foot: dict[str, int] = field(default_factory=dict)  # assaulters at the foot of the wall
    top: dict[str, int] = field(default_factory=dict)  # assaulters on the top (RW-OQ-33: they stay there)
    defenders: dict[str, int] = field(default_factory=dict)

    def assaulters(self) -> int:
        return fighters(self.foot) + fighters(self.top)

    def held(self) -> int:
        return fighters(self.defenders)


def total(walls: list[Wall], part: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for w in walls:
        if part == ATTACKER:
            add(out, w.foot)
            add(out, w.top)
        else:
            add(out, w.defenders)
    return out


def shift_supernumeraries(walls: list[Wall]) -> list[str]:
    """SIEGE BOMBARDMENT: when at the start some wall's defenders are outnumbered by its assaulters, every wall with
    more defenders than assaulters sends its supernumerary defenders (defenders minus assaulters) to the outnumbered
    walls, "allocated proportionately": in proportion to each one's shortfall, rounded down, the rest to the wall
    with the largest shortfall (RW-OQ-34; the first in wall order on a tie). The men sent are taken from each wall
    in proportion to its types."""
    short = {w.name: w.assaulters() - w.held() for w in walls if w.assaulters() > w.held()}
    if not short:
        return []
    pool: dict[str, int] = {}
    lines = []
    for w in walls:
        spare = w.held() - w.assaulters()
        if spare > 0:
            sent = take(w.defenders, spare)
            add(pool, sent)
            lines.append(f"The {w.name} wall sends its {spare} supernumerary defenders ({describe(sent)}).")
    moving = fighters(pool)
    if moving == 0:
        return lines
    whole = sum(short.values())
    counts = {name: moving * s // whole for name, s in short.items()}
    largest = max(short, key=lambda name: short[name])  # max keeps the first of equals, in wall order
    counts[largest] += moving - sum(counts.values())
    for w in walls:
        if w.name in counts:
            got = take(pool, counts[w.name])
            add(w.defenders, got)
            lines.append(f"The {w.name} wall (short by {short[w.name]} of {whole}) receives "
                         f"{counts[w.name]} ({describe(got)}).")
    return lines


def reinforce(walls: list[Wall]) -> list[str]:
    """Appendix E: a wall under assault without defenders receives, at the start of the next stage, all the
    defenders of walls not under assault; when there are none, half of the defenders of each wall under assault
    (rounded down, even if that leaves them outnumbered: RW-OQ-34); among several such walls, equally (`divide`)."""
    empty = [w for w in walls if w.assaulters() > 0 and w.held() == 0]
    if not empty:
        return []
    idle = [w for w in walls if w.assaulters() == 0 and w.held() > 0]
    pool: dict[str, int] = {}
    lines = []
    if idle:
        for w in idle:
            moved = take(w.defenders, w.held())
            add(pool, moved)
            lines.append(f"All {fighters(moved)} defenders of the {w.name} wall, not under assault, move.")
    else:
        for w in walls:
            if w.assaulters() > 0 and w.held() > 0:
                moved = take(w.defenders, w.held() // 2)
                add(pool, moved)
                lines.append(f"Half of the defenders of the {w.name} wall move: {fighters(moved)}.")
    for w, part in zip(empty, divide(pool, len(empty)), strict=True):
        add(w.defenders, part)
        lines.append(f"The {w.name} wall, without defenders, receives {describe(part)}.")
    return lines


# ---- the assault ------------------------------------------------------------------------------------------

def post_of(side: Side, persona: str | None, walls: tuple[str, ...]) -> str:
    """Where a persona stands: his post (Side.places) if it is one of the walls, else the North wall ("defending
    personae are deemed to be with the defenders of the North wall unless posted"); a tower's one wall."""
    wall = str(side.places.get(persona or "", "")).lower()
    return wall if wall in walls else walls[0]


class Assault:
    """The stages of Appendix E over a set of walls, recorded into `result` (which a tower's prelude may have
    begun)."""

    def __init__(self, sides: Mapping[str, Side], walls: list[Wall], forces: Mapping[str, Force], *, far: int,
                 fas: int, retreat_room: int | None, result: BattleResult, guns: list[Contingent]) -> None:
        self.sides = sides
        self.walls = walls
        self.forces = forces
        self.far = far
        self.fas = fas
        self.retreat_room = retreat_room
        self.result = result
        self.guns = guns
        self.cannon = sum(c.cannon for c in guns)
        self.falconet = sum(c.falconet for c in guns)
        names = tuple(w.name for w in walls)
        self.posts = {p: post_of(sides[DEFENDER], p, names) for p in sides[DEFENDER].personae()}
        self.commander_wall = {role: post_of(sides[role], sides[role].commander, names) for role in ROLES}
        self.dead: list[str] = []

    # -- figures --

    def factor(self, role: str, wall: Wall) -> Fraction:
        """Side.factor, or Side.commander_factor on the wall where the commander stands (a wall is the assault's
        division; RW-OQ-14)."""
        side = self.sides[role]
        if side.commander_factor is not None and self.commander_wall[role] == wall.name:
            return side.commander_factor
        return side.factor

    def m(self, role: str, wall: Wall) -> Fraction:
        return self.forces[role].morale * self.factor(role, wall)

    def record(self, report: StageReport, role: str, lost: Mapping[str, int]) -> int:
        add_to_stage(report, role, lost)
        return sum(n for t, n in lost.items() if t in FIGHTERS)

    # -- the stages --

    def cannon_fire(self, report: StageReport, suffered: dict[str, int]) -> None:
        """Stage 1: "Each cannon kills 100xG/1000xFAR/1000 of the assaulting troops ... Losses are allocated in
        proportion to the number of assaulters at each wall. 2% of all firing cannons self-destruct." Nothing when
        FAR is 0. The kills are rounded up once (RW-OQ-01), then shared among the walls (arith.share)."""
        if self.far == 0:
            report.lines.append("FAR 0: the first stage has no effect.")
            return
        if self.cannon == 0 and self.falconet == 0:
            report.lines.append("The defenders have no cannons to fire.")
            return
        kills = sum((Fraction(c.cannon) + c.falconet * FALCONET) * CANNON_KILLS * Fraction(c.gunnery, 1000)
                    * Fraction(self.far, 1000) for c in self.guns)
        at = {w.name: fighters(w.foot) for w in self.walls}
        killed = loss(kills, sum(at.values()))
        report.lines.append(f"The defenders fire {self.cannon} cannons and {self.falconet} falconets (1/10 each) at "
                            f"FAR {self.far}: {fmt(kills)} killed, {killed} rounded up.")
        shares = share(killed, at)
        for w in self.walls:
            n = shares[w.name]
            lost, _ = take_losses(w.foot, n)
            remove(w.foot, lost)
            suffered[ATTACKER] += self.record(report, ATTACKER, lost)
            if n:
                report.lines.append(f"The {w.name} wall's assaulters lose {describe(lost)}.")
        wrecked = {"cannon": loss(self.cannon * SELF_DESTRUCT), "falconet": loss(self.falconet * SELF_DESTRUCT)}
        wrecked = {k: v for k, v in wrecked.items() if v}
        self.cannon -= wrecked.get("cannon", 0)
        self.falconet -= wrecked.get("falconet", 0)
        self.record(report, DEFENDER, wrecked)
        report.lines.append(f"2% of the firing guns self-destruct: {describe(wrecked)}.")

    def fire_from_the_walls(self, report: StageReport, suffered: dict[str, int]) -> None:
        """Stage 2: "all troops defending assaulted walls kill assaulters at the rate of 4xM/1000xFAS/1000"."""
        for w in self.walls:
            if w.held() == 0 or fighters(w.foot) == 0:
                continue
            m = self.m(DEFENDER, w)
            amount = strength(w.defenders) * STAGE_2_RATE * m / 1000 * Fraction(self.fas, 1000)
            lost, _ = take_losses(w.foot, amount)
            remove(w.foot, lost)
            suffered[ATTACKER] += self.record(report, ATTACKER, lost)
            report.lines.append(f"{w.name.capitalize()}: {fmt(strength(w.defenders))} defenders x 4 x "
                                f"{fmt(m)}/1000 x {self.fas}/1000 = {fmt(amount)}: the assaulters lose "
                                f"{describe(lost)}.")

    def climb(self, number: int, report: StageReport, suffered: dict[str, int]) -> None:
        """Stage 3 and after: 1% (Stage 3), 2% (Stage 4), one more each stage, of the men at the foot reach the top
        (rounded down: RW-OQ-33) and join those already there; the defenders each kill M/1000x(.3+FAS/1000) of
        them, the balance falling on the foot of the wall; the survivors on the top each kill .5xM/1000 of the
        wall's defenders."""
        percent = number - 2
        for w in self.walls:
            if w.assaulters() == 0:
                continue
            climbers = take(w.foot, gain(Fraction(fighters(w.foot) * percent, 100)))
            add(w.top, climbers)
            report.lines.append(f"{w.name.capitalize()}: {fighters(climbers)} reach the top ({percent}% of the "
                                f"foot), {fighters(w.top)} on the top.")
            if w.held() == 0:
                report.lines.append(f"{w.name.capitalize()}: no defenders on this wall.")
                continue
            m = self.m(DEFENDER, w)
            amount = strength(w.defenders) * m / 1000 * (TOP_BASE + Fraction(self.fas, 1000))
            on_top, left = take_losses(w.top, amount)
            remove(w.top, on_top)
            below, _ = take_losses(w.foot, left)
            remove(w.foot, below)
            suffered[ATTACKER] += self.record(report, ATTACKER, on_top) + self.record(report, ATTACKER, below)
            report.lines.append(f"{w.name.capitalize()}: {fmt(strength(w.defenders))} defenders x {fmt(m)}/1000 x "
                                f"(.3 + {self.fas}/1000) = {fmt(amount)}: on the top {describe(on_top)} lost"
                                + (f", at the foot {describe(below)}" if below else "") + ".")
            if fighters(w.top) == 0:
                continue
            m = self.m(ATTACKER, w)
            amount = strength(w.top) * TOP_ASSAULTER_RATE * m / 1000
            lost, _ = take_losses(w.defenders, amount)
            remove(w.defenders, lost)
            suffered[DEFENDER] += self.record(report, DEFENDER, lost)
            report.lines.append(f"{w.name.capitalize()}: {fmt(strength(w.top))} on the top x .5 x {fmt(m)}/1000 = "
                                f"{fmt(amount)}: the defenders lose {describe(lost)}.")

    def deaths(self, before: Mapping[str, int], report: StageReport) -> None:
        """"A persona dies when all of the defending troops on his wall are eliminated"; "When a persona dies in
        battle, his forces continue fighting until their morale goes below 400": the side's retreat value goes."""
        for w in self.walls:
            if before[w.name] > 0 and w.held() == 0:
                for p in dead_of(self.sides[DEFENDER]):
                    if self.posts.get(p) == w.name and p not in self.dead:
                        self.dead.append(p)
                        report.lines.append(f"All the defenders of the {w.name} wall are gone: {p} dies.")
        if self.sides[DEFENDER].commander in self.dead:
            self.forces[DEFENDER].value = 0

    def stage(self, number: int) -> StageReport:
        report = StageReport(number=number, name="cannon" if number == 1 else "assault")
        if number > 1:
            report.lines.extend(reinforce(self.walls))
        before = {w.name: w.held() for w in self.walls}
        suffered = dict.fromkeys(ROLES, 0)
        if number == 1:
            self.cannon_fire(report, suffered)
        elif number == 2:
            self.fire_from_the_walls(report, suffered)
        else:
            self.climb(number, report, suffered)
        self.deaths(before, report)
        for role in ROLES:
            self.forces[role].men = total(self.walls, role)
        adjust_morale(self.forces, suffered, report)
        return report

    # -- the whole --

    def run(self) -> None:
        """Stages until the defenders are eliminated or retreat, the assaulters are eliminated or withdraw, or the
        guard breaks it off."""
        result = self.result
        for number in range(1, GUARD + 1):
            result.stages.append(self.stage(number))
            if fighters(self.forces[DEFENDER].men) == 0:
                return self.taken("the defenders were eliminated")
            if fighters(self.forces[ATTACKER].men) == 0:
                return self.repelled_to_the_last()
            able = {ATTACKER: self.sides[ATTACKER].can_retreat,
                    DEFENDER: self.sides[DEFENDER].can_retreat and fits(self.forces[DEFENDER].men,
                                                                         self.retreat_room)}
            role = who_retreats(self.forces, able)
            if role == ATTACKER:
                result.retreated = ATTACKER
                result.victor = DEFENDER
                result.outcome = "the assaulters withdrew to their siege lines"
                return None
            if role == DEFENDER:
                result.retreated = DEFENDER
                return self.taken("the last defenders retreated into their tower")
        result.outcome = f"broken off after {GUARD} stages"
        return None

    def taken(self, how: str) -> None:
        """The fortification falls: "Should the defenders all be eliminated, then ... all of the defending personae
        are killed and their mobile assets become the victor's property"; a retreat into a tower saves them and
        their assets (RW-OQ-35). The bonus: one point a whole hundred defenders killed."""
        result = self.result
        result.victor = ATTACKER
        report = result.stages[-1]
        if result.retreated is None:
            result.eliminated.append(DEFENDER)
            for p in dead_of(self.sides[DEFENDER]):
                if p not in self.dead:
                    self.dead.append(p)
            result.captured = mobile_assets(remaining(inventory(self.sides[DEFENDER].contingents), result, DEFENDER))
            add_to_stage(report, DEFENDER, result.captured)
            report.lines.append(f"The defenders are eliminated; the assaulter takes {describe(result.captured)}.")
        killed = sum(n for t, n in result.losses(DEFENDER).items() if t in FIGHTERS)
        bonus = killed // MORALE_BONUS_MEN
        attacker = self.forces[ATTACKER]
        report.lines.append(f"Success: {killed} defenders eliminated, a bonus of {bonus} morale: {attacker.morale} -> "
                            f"{mo.apply_change(attacker.morale, bonus)}.")
        attacker.morale = mo.apply_change(attacker.morale, bonus)
        result.outcome = how + ": the assaulter takes the fortification"

    def repelled_to_the_last(self) -> None:
        """"Should an entire assaulting force be eliminated, the assaulting persona dies, and all of his mobile assets
        become the property of the de facto controller ..., [else] of the defending persona with the greatest
        number of troops under his control. When there are no defending personae, the assets cease to be game
        factors.\""""
        result = self.result
        result.victor = DEFENDER
        result.eliminated.append(ATTACKER)
        attacker = self.sides[ATTACKER]
        held = remaining(inventory(attacker.contingents), result, ATTACKER)
        result.captured = mobile_assets(held)
        add_to_stage(result.stages[-1], ATTACKER, result.captured)
        self.dead.extend(p for p in dead_of(attacker) if p not in self.dead)
        result.receiver = strongest_defender(self.sides[DEFENDER], result, self.dead)
        result.stages[-1].lines.append(f"The assaulting force is eliminated; its {describe(result.captured)} go to "
                                       f"{result.receiver or 'no one'}.")
        result.outcome = "the assaulting force was eliminated"


def strongest_defender(side: Side, result: BattleResult, dead: list[str]) -> str | None:
    """The living defending persona with the greatest number of troops (crew and garrisons are not his troops)
    after the battle, each contingent having lost its share of the side's losses (forces.split_losses); the
    first written of equals; None when there is no such persona."""
    lost = split_losses(side, remaining(inventory(side.contingents), result, side.role))
    best, most = None, -1
    for c in side.contingents:
        if c.persona is None or c.persona in dead:
            continue
        troops = sum(c.men.get(t, 0) - lost[c.key].get(t, 0) for t in TROOPS)
        if troops > most:
            best, most = c.persona, troops
    return best


# ---- the four walls ----------------------------------------------------------------------------------------

def walls(attacker: Side, defender: Side, *, far: int, fas: int, retreat_room: int | None = None) -> BattleResult:
    sides = {ATTACKER: attacker, DEFENDER: defender}
    forces = {role: force_of(side) for role, side in sides.items()}
    result = BattleResult(kind="assault", morale_start={role: forces[role].morale for role in ROLES})
    assaulters = allocate(attacker, forces[ATTACKER].men, WALLS, result.notes)
    defenders = allocate(defender, forces[DEFENDER].men, WALLS, result.notes)
    at = [Wall(w, foot=assaulters[w], defenders=defenders[w]) for w in WALLS]
    result.notes.extend(f"{w.name.capitalize()}: {describe(w.foot)} against {describe(w.defenders)}." for w in at)
    result.notes.extend(shift_supernumeraries(at))
    assault = Assault(sides, at, forces, far=far, fas=fas, retreat_room=retreat_room, result=result,
                      guns=defender.contingents)
    assault.run()
    close(result, sides, forces, assault)
    return result


def close(result: BattleResult, sides: Mapping[str, Side], forces: Mapping[str, Force], assault: Assault) -> None:
    result.dead = list(dict.fromkeys([*result.dead, *assault.dead]))
    finish(result, {role: inventory(side.contingents) for role, side in sides.items()}, forces)


# ---- a tower -----------------------------------------------------------------------------------------------

def is_tower_garrison(c: Contingent) -> bool:
    return c.key.startswith(TOWER_GARRISON_PREFIX)


def inside(men: Mapping[str, int], room: int) -> dict[str, int]:
    """The defender's men inside his tower during the prelude: those the loss order reaches last (heavy cavalry,
    crew, archers, ...) up to the room; town garrison troops never (RW-OQ-37)."""
    out: dict[str, int] = {}
    left = room
    for t in reversed(TYPE_ORDER):
        if t == "garrison" or left <= 0:
            continue
        n = min(men.get(t, 0), left)
        if n > 0:
            out[t] = n
            left -= n
    return out


def tower(attacker: Side, defender: Side, *, fas: int, room: int, attacker_room: int | None = None,
          egress_denied: bool = False) -> BattleResult:
    sides = {ATTACKER: attacker, DEFENDER: defender}
    garrison = [c for c in defender.contingents if is_tower_garrison(c)]
    outside_the_garrison = [c for c in defender.contingents if not is_tower_garrison(c)]
    forces = {ATTACKER: force_of(attacker), DEFENDER: force_of(defender, outside_the_garrison)}
    start = forces[DEFENDER].morale if fighters(forces[DEFENDER].men) else mo.combine(
        (c.fighters(), c.morale) for c in garrison)
    result = BattleResult(kind="tower", morale_start={ATTACKER: forces[ATTACKER].morale, DEFENDER: start})
    inventories = {role: inventory(side.contingents) for role, side in sides.items()}
    if not prelude(result, sides, forces, room, attacker_room=attacker_room, egress_denied=egress_denied):
        finish(result, inventories, forces)
        return result
    change = forces[DEFENDER].morale - start if result.stages else 0  # the prelude's (none without one)
    persona_men = dict(forces[DEFENDER].men)
    defenders = dict(persona_men)
    add(defenders, fighting_men(garrison))
    combined = mo.combine([(fighters(persona_men), forces[DEFENDER].morale),
                           *((c.fighters(), c.morale) for c in garrison)])
    result.notes.append(f"The tower assault: {describe(forces[ATTACKER].men)} against {describe(defenders)} at "
                        f"morale {combined} (the tower garrison's with the defender's).")
    tower_force = Force(role=DEFENDER, men=defenders, morale=combined, value=0, factor=forces[DEFENDER].factor)
    assault_forces = {ATTACKER: forces[ATTACKER], DEFENDER: tower_force}
    wall = Wall(TOWER, foot=dict(forces[ATTACKER].men), defenders=dict(defenders))
    # No retreat_room: a tower's defenders have nowhere to go (RW-OQ-36).
    assault = Assault(sides, [wall], assault_forces, far=0, fas=fas, retreat_room=None, result=result, guns=[])
    assault.run()
    close(result, sides, assault_forces, assault)
    result.morale[DEFENDER] = mo.apply_change(start, change + tower_force.morale - combined)
    return result


def prelude(result: BattleResult, sides: Mapping[str, Side], forces: Mapping[str, Force], room: int, *,
            attacker_room: int | None, egress_denied: bool) -> bool:
    """TOWERS: "an urban battle being fought as a prelude to the tower assault. In such urban battles the defender
    is automatically the home side and can lose only those troops and crew which are not inside the tower, but the
    defender inflicts casualties with all of his troops". It ends when his men fit (True: the tower assault
    follows) or with the attacker eliminated or gone (False). The defender never retreats in it: his tower cannot
    hold him until the prelude is over."""
    exposed = {t: n - inside(forces[DEFENDER].men, room).get(t, 0) for t, n in forces[DEFENDER].men.items()}
    exposed = {t: n for t, n in exposed.items() if n > 0}
    if exposed:
        result.notes.append(f"Prelude: {describe(exposed)} of the defender's men do not fit in the tower "
                            f"({room}).")
    number = 0
    while fighters(exposed) > 0:
        number += 1
        if number > GUARD:
            result.outcome = f"broken off after {GUARD} stages"
            return False
        result.stages.append(melee_stage(number, forces, DEFENDER, exposed={DEFENDER: exposed}))
        if fighters(forces[ATTACKER].men) == 0:
            result.victor = DEFENDER
            result.eliminated.append(ATTACKER)
            held = remaining(inventory(sides[ATTACKER].contingents), result, ATTACKER)
            result.captured = mobile_assets(held)
            add_to_stage(result.stages[-1], ATTACKER, result.captured)
            result.dead.extend(dead_of(sides[ATTACKER]))
            result.receiver = strongest_defender(sides[DEFENDER], result, [])
            result.outcome = "the attacker was eliminated in the urban battle before the tower"
            return False
        able = {ATTACKER: able_to_retreat(sides[ATTACKER], forces[ATTACKER], home=DEFENDER, room=attacker_room,
                                          egress_denied=egress_denied), DEFENDER: False}
        if who_retreats(forces, able) == ATTACKER:
            held = remaining(inventory(sides[ATTACKER].contingents), result, ATTACKER)
            retreat(result, sides[ATTACKER], held,
                    "retreated into its tower" if attacker_room is not None else "left town")
            return False
    return True
