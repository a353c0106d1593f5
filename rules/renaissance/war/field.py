"""FIELD BATLE and Appendix D: a pure function of two Sides (forces.py), no state, no RNG.

Contract (conflict.py calls it):

    fight(attacker: Side, defender: Side) -> BattleResult

- The Sides' contingents carry men (forces.MEN types), cannon, falconet, horses, ships and goods;
  `Side.dispositions` is the commander's arrangement as ordered, a list of (place, item, qty) with place one of
  forces.DIVISIONS (or its number, 1 to 6); `Side.places` puts personae in divisions (default the Reserves);
  `Side.held_back` are men omitted from the initial arrangement and added to the Reserves at the start of Stage 1
  (CROP DESTRUCTION).
- The result's `survivors` give each side's remaining men by type, cannon, falconet, horse, ships and goods
  (after captures); `captured` what the victor takes; `ducats_share` the portion of the loser's ducats taken;
  `dead` the personae killed (never the commander of a Side with `spare`); `stages` the report, stage by stage,
  each with its losses per role and the morale after it; `stages_fought` the stages, the retreat stage included.

The battle (docs/renaissance/war.md, section field, gives every reading with the rules' words):
- before it, field_dispose.py: horses, the arrangement, the held-back men;
- Stage 1 cannons, 2 archery, 3 arquebus, 4 and on melee (field_fire.py has the schedules). In each stage the
  defense inflicts, then the attack; at the start of its half a side brings its Reserves into its empty forward
  divisions; in a melee half an unopposed division flanks with doubled morale;
- morale moves at the end of each stage (morale.stage_change); from the end of the first melee stage on, a side
  below its retreat point retreats (RW-OQ-16), and a retreat stage follows (RW-OQ-25);
- a side with no men left is eliminated: its personae die and all its mobile assets go to the victor.
- The engine's own guard, not a rule of the text: a battle still undecided after MAX_STAGES stages is broken off,
  no victor (only a battle in which neither side can hurt the other runs so long).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction as F

from . import morale as mo
from . import ranks
from .arith import loss
from .field_army import (
    ARCHER,
    ARQUEBUSIER,
    CENTER,
    DIVISIONS,
    FACING,
    FORWARD,
    HORSED,
    ITEM_OF,
    KINDS,
    LEFT,
    LEFT_WING,
    LINE,
    REMAINDER_ORDER,
    RESERVES,
    RIGHT,
    RIGHT_WING,
    Division,
    describe,
    legal_places,
    men,
    new_division,
    plural,
    take,
)
from .field_dispose import (
    allot_horses,
    arrange,
    arrangement_text,
    fighting_force,
    hold_back,
    place_of,
)
from .field_fire import (
    ARCHERY,
    ARQUEBUS_CEILING,
    ARQUEBUS_RATE,
    CANNON,
    COUNTER_BATTERY,
    MELEE,
    PART_FIRERS_NAME,
    fmt,
    part_firers,
    shot_text,
    volley,
)
from .forces import ATTACKER, DEFENDER, MEN, BattleResult, Side, StageReport, other

MAX_STAGES = 100
FIRST_MELEE = 4
STAGE_NAMES = {1: "cannon", 2: "archery", 3: "arquebus"}
FALCONET = F(1, 10)  # "each falconet is treated as one-tenth of a cannon"
SELF_DESTRUCT = F(2, 100)  # "2% of all cannons fired self-destruct"
FLANKING = 2  # "flanking divisions fight with doubled morale"
ROLE_NAME = {ATTACKER: "the attacker", DEFENDER: "the defender"}

# "that unopposed division turns toward the Center ... and flanks the next opposing division" (RW-OQ-24): the
# opposing divisions it turns on, in order, when the first is empty too (the Center's list starts on the larger
# side).
FLANK_CHAIN: dict[str, tuple[str, ...]] = {
    LEFT_WING: (RIGHT, CENTER, LEFT, LEFT_WING),
    LEFT: (CENTER, LEFT, LEFT_WING, RIGHT_WING),
    RIGHT: (CENTER, RIGHT, RIGHT_WING, LEFT_WING),
    RIGHT_WING: (LEFT, CENTER, RIGHT, RIGHT_WING),
}


@dataclass
class Army:
    """One side as the battle moves it."""
    role: str
    side: Side
    divisions: dict[str, Division]
    morale: int
    cannon: int
    falconet: int
    horsed: dict[str, int]  # cannon, falconet and each good: how many have horses (or need none)
    horses: int
    goods: dict[str, int]
    ships: dict[str, int]
    slaves: int
    places: dict[str, str] = field(default_factory=dict)  # persona -> division
    dead: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return ROLE_NAME[self.role]

    def men(self) -> int:
        return sum(men(div) for div in self.divisions.values())

    def commander_alive(self) -> bool:
        return self.side.commander is None or self.side.commander not in self.dead

    def factor(self, division: str) -> F:
        """MORALE's multipliers (RW-OQ-14): the side's, or the commander's own division's while he lives there."""
        c = self.side.commander
        if (self.side.commander_factor is not None and c is not None and self.commander_alive()
                and self.places.get(c) == division):
            return F(self.side.commander_factor)
        return F(self.side.factor)

    def retreat_value(self) -> int:
        """MORALE: "When a persona dies in battle, his forces continue fighting until their morale goes below 400":
        the rank and popularity count only while the commander lives."""
        return self.side.retreat_value if self.commander_alive() else 0


class Tally:
    """One stage's losses, by side and item, and the men each side lost (the morale formula's casualties)."""

    def __init__(self) -> None:
        self.items: dict[str, Counter[str]] = {ATTACKER: Counter(), DEFENDER: Counter()}
        self.killed = {ATTACKER: 0, DEFENDER: 0}

    def men(self, army: Army, lost: dict[str, int]) -> None:
        """Men killed; a rider's horse dies with him."""
        for kind, q in lost.items():
            self.items[army.role][ITEM_OF[kind]] += q
            self.killed[army.role] += q
            if kind in HORSED:
                self.items[army.role]["horse"] += q
                army.horses -= q

    def thing(self, army: Army, item: str, q: int) -> None:
        if q:
            self.items[army.role][item] += q


def fight(attacker: Side, defender: Side) -> BattleResult:
    return Battle(attacker, defender).run()


def scale_text(morale: int, factor: F) -> str:
    return f"{morale}/1000" if factor == 1 else f"{fmt(factor)} × {morale}/1000"


class Battle:
    def __init__(self, attacker: Side, defender: Side) -> None:
        self.result = BattleResult(kind="field")
        self.armies = {DEFENDER: self.muster(defender), ATTACKER: self.muster(attacker)}
        self.result.morale_start = {r: self.armies[r].morale for r in (ATTACKER, DEFENDER)}

    # ---- before the battle --------------------------------------------------------------------------------

    def muster(self, side: Side) -> Army:
        name = ROLE_NAME[side.role]
        mounts = allot_horses(side)
        force = fighting_force(side, mounts)
        held = hold_back(force, side.held_back)
        divisions, how = arrange(side, force)
        goods = {i: side.total(i) for c in side.contingents for i in c.goods}
        army = Army(side.role, side, divisions, side.morale(), side.total("cannon"), side.total("falconet"),
                    {"cannon": mounts.cannon, "falconet": mounts.falconet, **mounts.goods}, side.total("horse"),
                    goods, {s: side.total(s) for c in side.contingents for s in c.ships}, side.total("slave"))
        notes = self.result.notes
        notes.append(f"{name}: {how}: {arrangement_text(divisions)}")
        notes.append(f"{name}: {side.total('horse')} horses: {mounts.heavy} to heavy cavalry, {mounts.riders} "
                     f"auxiliaries made light cavalry, {mounts.cannon} of {army.cannon} cannons, {mounts.falconet} "
                     f"of {army.falconet} falconets, goods carried: "
                     f"{describe({i: q for i, q in mounts.goods.items() if goods.get(i)})}; {mounts.spare} spare")
        if men(held):  # CROP DESTRUCTION: "then added to the Reserves at the start of Stage 1"
            for kind, q in held.items():
                army.divisions[RESERVES][kind] += q
            notes.append(f"{name}: held back from the arrangement, into the Reserves at Stage 1: {describe(held)}")
        self.place_personae(army)
        return army

    def place_personae(self, army: Army) -> None:
        """FIELD BATLE: "A persona may be assigned to any one division ... Personae not otherwise assigned go into
        the Reserves"; Appendix D: "Personae must always be with a division containing troops": one placed where
        there are none goes to the Reserves, or (none there either) to the division nearest the Center that has
        men."""
        for pid in army.side.personae():
            d = place_of(army.side.places.get(pid, RESERVES)) or RESERVES
            if not men(army.divisions[d]):
                d = next((x for x in (RESERVES, *REMAINDER_ORDER) if men(army.divisions[x])), RESERVES)
            army.places[pid] = d

    # ---- the battle ---------------------------------------------------------------------------------------

    def run(self) -> BattleResult:
        empty = [r for r in (DEFENDER, ATTACKER) if self.armies[r].men() == 0]
        if len(empty) == 2:
            self.result.outcome = "no battle: neither side has men to fight"
        elif empty:
            self.eliminate(self.armies[empty[0]], Tally(), [])
        else:
            self.stages()
        return self.finish()

    def stages(self) -> None:
        for number in range(1, MAX_STAGES + 1):
            report = StageReport(number, STAGE_NAMES.get(number, "melee"))
            self.result.stages.append(report)
            tally = Tally()
            gone = None
            for role in (DEFENDER, ATTACKER):
                firer, target = self.armies[role], self.armies[other(role)]
                self.bring_up(firer, report.lines)
                before = {d: men(div) for d, div in target.divisions.items()}
                self.half(number, firer, target, report.lines, tally)
                self.division_deaths(target, before, report.lines)
                if target.men() == 0:
                    gone = target
                    break
            self.adjust_morale(tally, report)
            if gone is not None:
                self.eliminate(gone, tally, report.lines)
                self.close(report, tally)
                return
            self.close(report, tally)
            if number >= FIRST_MELEE:
                loser = self.retreat_test(report.lines)
                if loser is not None:
                    self.retreat_stage(number + 1, loser)
                    return
        self.result.outcome = f"broken off after {MAX_STAGES} stages (the engine's guard)"
        self.result.notes.append(f"no side was eliminated or retreated in {MAX_STAGES} stages: the battle is broken "
                                 "off (a guard of the engine against a battle that cannot end, not a rule)")

    def close(self, report: StageReport, tally: Tally) -> None:
        report.losses = {r: dict(tally.items[r]) for r in (ATTACKER, DEFENDER) if tally.items[r]}

    def half(self, number: int, firer: Army, target: Army, out: list[str], tally: Tally) -> None:
        if number == 1:
            self.cannon_half(firer, target, out, tally)
        elif number == 2:
            self.archery_half(firer, target, out, tally)
        elif number == 3:
            self.arquebus_half(firer, target, out, tally)
        else:
            self.melee_half(firer, target, out, tally)

    # ---- reserves and personae ----------------------------------------------------------------------------

    def bring_up(self, army: Army, out: list[str]) -> None:
        """Appendix D: "When, at the start of a half-stage in which it is to inflict casualties upon the
        opposition, a side has one, or more, of its five forward divisions completely devoid of troops, then all
        eligible forces in the Reserves are brought forward to fill that gap. When more than one division is
        devoid of troops, then the Reserves are apportioned proportionately by type among the divisions to which
        they may be legally assigned": equal shares of each type, remainders as RW-OQ-22 (RW-OQ-24)."""
        reserves = army.divisions[RESERVES]
        gaps = [d for d in REMAINDER_ORDER if d in FORWARD and not men(army.divisions[d])]
        if not gaps or not men(reserves):
            return
        moved = {g: new_division() for g in gaps}
        for kind in KINDS:
            legal = [g for g in gaps if g in legal_places(kind)]
            if not reserves[kind] or not legal:
                continue
            each, rest = divmod(reserves[kind], len(legal))
            for i, g in enumerate(legal):
                moved[g][kind] += each + (1 if i < rest else 0)
            reserves[kind] = 0
        filled = [g for g in gaps if men(moved[g])]
        if not filled:
            return
        for g in filled:
            for kind, q in moved[g].items():
                army.divisions[g][kind] += q
        out.append(f"{army.name}'s Reserves come forward: "
                   + "; ".join(f"{describe(moved[g])} to the {g.title()}" for g in filled))
        if not men(reserves):  # "Personae in the Reserves are brought forward with the Reserves" (RW-OQ-26)
            for pid, d in army.places.items():
                if d == RESERVES and pid not in army.dead:
                    army.places[pid] = filled[0]
                    out.append(f"{pid} goes forward with them to the {filled[0].title()}")

    def die(self, army: Army, pid: str, why: str, out: list[str]) -> None:
        if pid in army.dead:
            return
        if army.side.spare and pid == army.side.commander:
            out.append(f"{pid} {why}, but is not to be killed (BATTLE) and survives")
            return
        army.dead.append(pid)
        self.result.dead.append(pid)
        out.append(f"{pid} dies: {why}")

    def division_deaths(self, army: Army, before: dict[str, int], out: list[str]) -> None:
        """Appendix D: "If a persona's division is eliminated, he dies." """
        for pid, d in army.places.items():
            if before.get(d, 0) and not men(army.divisions[d]):
                self.die(army, pid, f"{army.name}'s {d.title()} was eliminated", out)

    # ---- stage 1: cannons ---------------------------------------------------------------------------------

    def lose_guns(self, army: Army, gun: str, n: int, tally: Tally) -> None:
        """Guns destroyed: "(When there is a choice, destroyed cannons and falconets are assumed to have had no
        horse allocation.)" """
        held = army.cannon if gun == "cannon" else army.falconet
        n = min(n, held)
        unhorsed = held - army.horsed[gun]
        if n > unhorsed:
            army.horsed[gun] -= n - unhorsed
        if gun == "cannon":
            army.cannon -= n
        else:
            army.falconet -= n
        tally.thing(army, gun, n)

    def cannon_half(self, firer: Army, target: Army, out: list[str], tally: Tally) -> None:
        """Appendix D, the first stage, for one side's guns (the text's schedule, RW-OQ-19 and 20)."""
        guns = firer.cannon + FALCONET * firer.falconet
        if guns == 0:
            out.append(f"{firer.name} has no cannons")
            return
        g = firer.side.gunnery()
        theirs = target.cannon + FALCONET * target.falconet
        out.append(f"{firer.name} fires {firer.cannon} {plural('cannon', firer.cannon)} and {firer.falconet} "
                   f"{plural('falconet', firer.falconet)} = {fmt(guns)} cannons, gunnery {g}")
        # "If the defender has no more cannons than the attacker, [he] fires all of his cannons at the attacker's
        # cannons ... If [he] has more ..., he fires at the attacker's cannons only a number of cannons equal to
        # the attacker's number of cannons."
        at_guns = min(guns, theirs)
        fired = F(0)
        if at_guns > 0:
            exact = at_guns * COUNTER_BATTERY * g / 500
            part = min(F(1), exact / theirs)
            c = loss(part * target.cannon, target.cannon)
            f = loss(part * target.falconet, target.falconet)
            out.append(f"  at {target.name}'s {fmt(theirs)} cannons: {fmt(at_guns)} × 0.2 × {g}/500 = {fmt(exact)} "
                       f"cannons → {c} {plural('cannon', c)} and {f} {plural('falconet', f)} destroyed")
            self.lose_guns(target, "cannon", c, tally)
            self.lose_guns(target, "falconet", f, tally)
            fired += at_guns
        rest = guns - at_guns
        # "Remaining cannons are fired equally at the Left, Center and Right" (an empty one's share to the others,
        # RW-OQ-24).
        aims = [d for d in LINE if men(target.divisions[d])]
        if rest > 0 and aims:
            each = rest / len(aims)
            for d in aims:
                out.append(f"  at {target.name}'s {d.title()}: {fmt(each)} cannons")
                shots, _ = volley(each, F(g, 500), CANNON, target.divisions[d])
                for shot in shots:
                    out.append(f"    {shot_text(shot, f'{g}/500')}")
                    tally.men(target, shot.lost)
            fired += rest
        if fired == 0:
            out.append("  nothing to fire at")
            return
        share_fired = fired / guns
        for gun, held in (("cannon", firer.cannon), ("falconet", firer.falconet)):
            if held:
                n = loss(SELF_DESTRUCT * share_fired * held, held)
                out.append(f"  2% of {fmt(share_fired * held)} {plural(gun)} fired = "
                           f"{fmt(SELF_DESTRUCT * share_fired * held)} → {n} self-destruct")
                self.lose_guns(firer, gun, n, tally)

    # ---- stages 2 and 3: archery, arquebus ----------------------------------------------------------------

    def aims(self, target: Army, d: str) -> list[tuple[str, F]]:
        """"Archers in the Left fire exclusively at the opposing Right" (and so on); fire meant for an empty
        division goes to the others of the opposing Left, Center and Right in equal shares (RW-OQ-24)."""
        facing = FACING[d]
        if men(target.divisions[facing]):
            return [(facing, F(1))]
        others = [x for x in LINE if x != facing and men(target.divisions[x])]
        return [(x, F(1, len(others))) for x in others]

    def archery_half(self, firer: Army, target: Army, out: list[str], tally: Tally) -> None:
        fired = False
        for d in LINE:
            archers = firer.divisions[d][ARCHER]
            aims = self.aims(target, d) if archers else []
            if not aims:
                continue
            fired = True
            factor = firer.factor(d)
            scale = firer.morale * factor / 1000
            for t, part in aims:
                out.append(f"{fmt(archers * part)} of {firer.name}'s archers in the {d.title()} shoot at "
                           f"{target.name}'s {t.title()}")
                shots, _ = volley(archers * part, scale, ARCHERY, target.divisions[t])
                for shot in shots:
                    out.append(f"  {shot_text(shot, scale_text(firer.morale, factor))}")
                    tally.men(target, shot.lost)
        if not fired:
            out.append(f"{firer.name} has no archers shooting")

    def arquebus_half(self, firer: Army, target: Army, out: list[str], tally: Tally) -> None:
        """"Each arquebusier kills .5xM/1000, but no more than 50% of the troops in the opposing division may be
        destroyed by this volley. Losses are apportioned proportionately among the various types of units"."""
        volleys: dict[str, F] = {}
        texts: dict[str, list[str]] = {}
        for d in LINE:
            shooters = firer.divisions[d][ARQUEBUSIER]
            factor = firer.factor(d)
            for t, part in self.aims(target, d) if shooters else []:
                exact = shooters * part * ARQUEBUS_RATE * firer.morale * factor / 1000
                volleys[t] = volleys.get(t, F(0)) + exact
                texts.setdefault(t, []).append(f"{fmt(shooters * part)} from the {d.title()} × 0.5 × "
                                               f"{scale_text(firer.morale, factor)} = {fmt(exact)}")
        if not volleys:
            out.append(f"{firer.name} has no arquebusiers shooting")
        for t in LINE:
            if t not in volleys:
                continue
            div = target.divisions[t]
            present = men(div)
            capped = min(volleys[t], ARQUEBUS_CEILING * present)
            lost = take(div, loss(capped, present), "troops")
            out.append(f"{firer.name}'s arquebusiers at {target.name}'s {t.title()}: " + " + ".join(texts[t])
                       + f"; ceiling 50% of {present} → {sum(lost.values())} killed ({describe(lost)})")
            tally.men(target, lost)

    # ---- melee --------------------------------------------------------------------------------------------

    def flank_target(self, army: Army, d: str, enemy: Army) -> str | None:
        """The opposing division an unopposed division turns on: "toward the Center (but, if it is the Center
        division, it turns toward the larger adjacent opposing division)"; past an empty one to the next."""
        if d == CENTER:
            left, right = men(enemy.divisions[LEFT]), men(enemy.divisions[RIGHT])
            chain = (LEFT, LEFT_WING, RIGHT, RIGHT_WING) if left >= right else (RIGHT, RIGHT_WING, LEFT, LEFT_WING)
        else:
            chain = FLANK_CHAIN[d]
        return next((x for x in chain if men(enemy.divisions[x])), None)

    def engagements(self, firer: Army, target: Army) -> list[tuple[str, str, bool, str]]:
        """(division, the opposing division it strikes, flanking?, how it came to) for each forward division."""
        out = []
        for d in FORWARD:
            if not men(firer.divisions[d]):
                continue
            front = FACING[d]
            if men(target.divisions[front]):
                out.append((d, front, False, "engages"))
                continue
            # "When one side flanks an opposing division that would not otherwise be inflicting casualties, then
            # that division inflicts casualties upon the flanking division, but does so without the flanking
            # advantage."
            flankers = [e for e in FORWARD if men(target.divisions[e]) and not men(firer.divisions[FACING[e]])
                        and self.flank_target(target, e, firer) == d]
            if flankers:
                e = max(flankers, key=lambda x: men(target.divisions[x]))
                out.append((d, e, False, "strikes back at the flanking"))
                continue
            t = self.flank_target(firer, d, target)
            if t is not None:
                out.append((d, t, True, "is unopposed and flanks, morale doubled,"))
        return out

    def melee_half(self, firer: Army, target: Army, out: list[str], tally: Tally) -> None:
        """Appendix D's melee: parts A to D, each division of the side striking the division it engages."""
        plan = self.engagements(firer, target)
        if not plan:
            out.append(f"{firer.name} has no one to engage")
        for d, t, _, how in plan:
            out.append(f"{firer.name}'s {d.title()} {how} {target.name}'s {t.title()}")
        for part, lines in MELEE.items():
            for d, t, flank, _ in plan:
                firers = part_firers(part, firer.divisions[d])
                if not firers:
                    continue
                factor = firer.factor(d) * (FLANKING if flank else 1)
                shots, _ = volley(firers, firer.morale * factor / 1000, lines, target.divisions[t])
                out.append(f"  part {part}: {fmt(firers)} {PART_FIRERS_NAME[part]} of the {d.title()} "
                           f"at the {t.title()}" + ("" if shots else ": no one to kill"))
                for shot in shots:
                    out.append(f"    {shot_text(shot, scale_text(firer.morale, factor))}")
                    tally.men(target, shot.lost)

    # ---- end of a stage -----------------------------------------------------------------------------------

    def adjust_morale(self, tally: Tally, report: StageReport) -> None:
        """MORALE: "Casualties inflicted are deducted from a number equal to twice the casualties suffered. If this
        number is negative, the square root of its absolute value is added to morale. If it is positive, its
        square root is subtracted from morale." Casualties are men lost (RW-OQ-15)."""
        for role in (DEFENDER, ATTACKER):
            army = self.armies[role]
            suffered, inflicted = tally.killed[role], tally.killed[other(role)]
            change = mo.stage_change(inflicted, suffered)
            new = mo.apply_change(army.morale, change)
            report.lines.append(f"morale, {army.name}: 2 × {suffered} suffered − {inflicted} inflicted = "
                                f"{2 * suffered - inflicted} → {change:+d}: {army.morale} → {new}")
            army.morale = new
            report.morale[role] = new

    def retreat_test(self, out: list[str]) -> str | None:
        """MORALE: "Retreat occurs at the first opportunity after the total of morale + feudal rank value of the
        persona + 10% of his popularity come to less than 400"; Appendix D: "Retreats never occur before the
        completion of one melee stage." Both below: the further below retreats, equally far the attacker
        (RW-OQ-16)."""
        below: dict[str, int] = {}
        for role in (DEFENDER, ATTACKER):
            army = self.armies[role]
            value = army.retreat_value()
            gap = ranks.below_retreat_point(army.morale, value)
            can = army.side.can_retreat
            out.append(f"retreat test, {army.name}: morale {army.morale} + retreat value {value} = "
                       f"{army.morale + value} {'<' if gap > 0 else '≥'} {ranks.RETREAT_POINT}"
                       + ("" if can or gap <= 0 else " (it cannot retreat and fights on)"))
            if gap > 0 and can:
                below[role] = gap
        if not below:
            return None
        return max(below, key=lambda r: (below[r], r == ATTACKER))

    # ---- the retreat stage --------------------------------------------------------------------------------

    def retreat_stage(self, number: int, role: str) -> None:
        """Appendix D: "All retreating units form into one mass. This mass is attacked by all of the victor's
        surviving cavalry, which inflicts casualties at the usual melee rate, but suffers no losses": parts A and
        B at the victor's morale (RW-OQ-25); then the captures."""
        loser, victor = self.armies[role], self.armies[other(role)]
        report = StageReport(number, "retreat")
        self.result.stages.append(report)
        tally = Tally()
        out = report.lines
        mass = new_division()
        for div in loser.divisions.values():
            for kind, q in div.items():
                mass[kind] += q
        loser.divisions = {d: new_division() for d in DIVISIONS}
        loser.divisions[RESERVES] = mass
        for pid in loser.places:
            loser.places[pid] = RESERVES
        start = men(mass)
        out.append(f"{loser.name} retreats: {start} men in one mass ({describe(mass)})")
        for part in ("A", "B"):
            for d in DIVISIONS:
                firers = part_firers(part, victor.divisions[d])
                if not firers:
                    continue
                factor = victor.factor(d)
                shots, _ = volley(firers, victor.morale * factor / 1000, MELEE[part], mass)
                out.append(f"  part {part}: {fmt(firers)} {PART_FIRERS_NAME[part]} of {victor.name}'s {d.title()}")
                for shot in shots:
                    out.append(f"    {shot_text(shot, scale_text(victor.morale, factor))}")
                    tally.men(loser, shot.lost)
        casualties = tally.killed[role]
        self.adjust_morale(tally, report)
        self.result.retreated = role
        if not men(mass):
            self.eliminate(loser, tally, out)
        else:
            self.result.victor = other(role)
            self.result.outcome = f"{loser.name} retreated"
            self.capture_in_retreat(loser, F(casualties, start), tally, out)
        self.close(report, tally)

    def capture_in_retreat(self, loser: Army, portion: F, tally: Tally, out: list[str]) -> None:
        """Appendix D: "Any cannons and trade goods which did not have horses allocated to them at the start of the
        battle become the property of the victor ... Of those ... which did have horses allocated to them, a
        portion of each type equal to the proportion of casualties inlicted in the retreat stage is deemed to have
        been captured ... The same proportion of ducats is captured." The portion is the retreat stage's
        casualties over the men of the mass; what is taken is rounded up (RW-OQ-25). Only the loser forfeits
        (RW-OQ-23). Goods that walk or weigh nothing (ducats) count as carried."""
        out.append(f"captured portion: {tally.killed[loser.role]} casualties of the mass's "
                   f"{men(loser.divisions[RESERVES]) + tally.killed[loser.role]} men = {fmt(portion)}")
        stores = {"cannon": loser.cannon, "falconet": loser.falconet, **loser.goods}
        captured: dict[str, int] = {}
        for item, held in stores.items():
            horsed = min(held, loser.horsed.get(item, 0))
            q = (held - horsed) + loss(portion * horsed, horsed)
            if q:
                captured[item] = q
                out.append(f"  {item}: {held - horsed} without horses + {fmt(portion)} × {horsed} with them → "
                           f"{q} captured")
        for item, q in captured.items():
            if item in ("cannon", "falconet"):
                self.lose_guns(loser, item, q, tally)
            else:
                loser.goods[item] -= q
                tally.thing(loser, item, q)
        self.result.captured = captured
        self.result.ducats_share = portion if loser.goods.get("ducats", 0) + captured.get("ducats", 0) else F(0)

    # ---- elimination and the result -----------------------------------------------------------------------

    def eliminate(self, loser: Army, tally: Tally, out: list[str]) -> None:
        """Appendix D: "When one side is completely eliminated, its persona dies, and all of his remaining mobile
        assets become the property of the victor" (a spared commander lives, RW-OQ-07)."""
        self.result.eliminated = [loser.role]
        self.result.victor = other(loser.role)
        self.result.outcome = f"{loser.name} was eliminated"
        for pid in loser.side.personae():
            self.die(loser, pid, f"{loser.name} was eliminated", out)
        captured = {"slave": loser.slaves, "horse": loser.horses, "cannon": loser.cannon,
                    "falconet": loser.falconet, **loser.ships, **loser.goods}
        captured = {i: q for i, q in captured.items() if q > 0}
        for item, q in captured.items():
            tally.thing(loser, item, q)
        loser.slaves = loser.horses = loser.cannon = loser.falconet = 0
        loser.ships = dict.fromkeys(loser.ships, 0)
        loser.goods = dict.fromkeys(loser.goods, 0)
        self.result.captured = captured
        self.result.ducats_share = F(1) if captured.get("ducats") else F(0)
        if captured:
            out.append(f"{ROLE_NAME[other(loser.role)]} takes: {describe(captured)}")

    def survivors(self, army: Army) -> dict[str, int]:
        out = {t: 0 for t in MEN}
        for div in army.divisions.values():
            for kind, q in div.items():
                out[ITEM_OF[kind]] += q
        out["slave"] = army.slaves
        out.update({"cannon": army.cannon, "falconet": army.falconet, "horse": army.horses})
        out.update(army.ships)
        out.update(army.goods)
        return out

    def finish(self) -> BattleResult:
        r = self.result
        r.survivors = {role: self.survivors(self.armies[role]) for role in (ATTACKER, DEFENDER)}
        r.morale = {role: self.armies[role].morale for role in (ATTACKER, DEFENDER)}
        r.stages_fought = len(r.stages)
        return r
