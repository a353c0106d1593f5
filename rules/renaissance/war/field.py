"""FIELD BATLE and Appendix D: a pure function of two Sides (forces.py), no state, no RNG.

Contract (battle.py calls it):

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
- Stage 1 cannons, 2 archery, 3 arquebus, 4 and on melee (field_stages.py fights each half-stage, field_fire.py
  holds the schedules, field_army.py the kinds of men, the target classes and who absorbs a loss). In each stage the
  defense inflicts, then the attack; at the start of its half a side brings its Reserves into its empty forward
  divisions; in a melee half an unopposed division flanks with doubled morale;
- morale moves at the end of each stage (morale.stage_change); from the end of the first melee stage on, a side
  below its retreat point retreats (RW-OQ-16), and a retreat stage follows (RW-OQ-25);
- a side with no men left is eliminated: its personae die and all its mobile assets go to the victor.
- The engine's own guard, not a rule of the text: a battle still undecided after MAX_STAGES stages is broken off,
  no victor (only a battle in which neither side can hurt the other runs so long).
"""

from __future__ import annotations

from fractions import Fraction as F

from . import morale as mo
from . import ranks
from .arith import loss
from .field_army import (
    DIVISIONS,
    ITEM_OF,
    REMAINDER_ORDER,
    RESERVES,
    ROLE_NAME,
    Army,
    Tally,
    describe,
    men,
    new_division,
)
from .field_dispose import allot_horses, arrange, arrangement_text, fighting_force, hold_back, place_of
from .field_fire import MELEE, PART_FIRERS_NAME, fmt, part_firers, scale_text, shot_text, volley
from .field_stages import archery_half, arquebus_half, bring_up, cannon_half, lose_guns, melee_half
from .forces import ATTACKER, DEFENDER, MEN, BattleResult, Side, StageReport, other

MAX_STAGES = 100
FIRST_MELEE = 4
STAGE_NAMES = {1: "cannon", 2: "archery", 3: "arquebus"}




def fight(attacker: Side, defender: Side) -> BattleResult:
    return Battle(attacker, defender).run()


def with_troops(army: Army, d: str) -> str:
    """Appendix D: "Personae must always be with a division containing troops": `d` if it has men, else the
    Reserves, else the division with men nearest the Center (RW-OQ-26); the Reserves when no one is left."""
    if men(army.divisions[d]):
        return d
    return next((x for x in (RESERVES, *REMAINDER_ORDER) if men(army.divisions[x])), RESERVES)


class Battle:
    def __init__(self, attacker: Side, defender: Side) -> None:
        self.result = BattleResult(kind="field")
        self.armies = {DEFENDER: self.muster(defender), ATTACKER: self.muster(attacker)}
        self.result.morale_start = {r: self.armies[r].morale for r in (ATTACKER, DEFENDER)}
        # The sides whose total has come to less than 400 at the end of some stage: they retreat "at the first
        # opportunity after", even if the total has risen again by then (MORALE; RW-OQ-16).
        self.reached: set[str] = set()

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
                     f"{describe({i: q for i, q in mounts.goods.items() if goods.get(i)}).replace('nobody', 'none')}; "
                     f"{mounts.spare} spare")
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
            army.places[pid] = with_troops(army, place_of(army.side.places.get(pid, RESERVES)) or RESERVES)

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
            halves = 0
            for role in (DEFENDER, ATTACKER):
                firer, target = self.armies[role], self.armies[other(role)]
                bring_up(firer, report.lines)
                before = {d: men(div) for d, div in target.divisions.items()}
                self.half(number, firer, target, report.lines, tally)
                halves += 1
                self.division_deaths(target, before, report.lines)
                if target.men() == 0:
                    gone = target
                    break
            # Appendix D: "Morale adjustments are made at the end of each complete stage": not after a stage cut
            # short by the attacker's elimination in its first half (RW-OQ-26).
            if halves == 2:
                self.adjust_morale(tally, report)
            if gone is not None:
                self.eliminate(gone, tally, report.lines)
                self.close(report, tally)
                return
            self.close(report, tally)
            if number < FIRST_MELEE:
                self.note_reached(report.lines)
            else:
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
            cannon_half(firer, target, out, tally)
        elif number == 2:
            archery_half(firer, target, out, tally)
        elif number == 3:
            arquebus_half(firer, target, out, tally)
        else:
            melee_half(firer, target, out, tally)

    # ---- reserves and personae ----------------------------------------------------------------------------

    def die(self, army: Army, pid: str, why: str, out: list[str]) -> None:
        if pid in army.dead:
            return
        if army.side.spare and pid == army.side.commander:
            # "Personae must always be with a division containing troops": he leaves the one that fell.
            army.places[pid] = d = with_troops(army, army.places.get(pid, RESERVES))
            moved = f"; he goes to the {d.title()}" if men(army.divisions[d]) else ""
            out.append(f"{army.who(pid)}: {why}, but he is not to be killed (BATTLE) and survives{moved}")
            return
        army.dead.append(pid)
        self.result.dead.append(pid)
        out.append(f"{army.who(pid)} dies: {why}")

    def division_deaths(self, army: Army, before: dict[str, int], out: list[str]) -> None:
        """Appendix D: "If a persona's division is eliminated, he dies." """
        for pid, d in army.places.items():
            if before.get(d, 0) and not men(army.divisions[d]):
                self.die(army, pid, f"{army.name}'s {d.title()} was eliminated", out)

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
            earlier = gap <= 0 and role in self.reached
            out.append(f"retreat test, {army.name}: morale {army.morale} + retreat value {value} = "
                       f"{army.morale + value} {'<' if gap > 0 else '≥'} {ranks.RETREAT_POINT}"
                       + (" (it came below 400 at an earlier stage: this is its first opportunity)" if earlier
                          else "")
                       + ("" if can or (gap <= 0 and not earlier) else " (it cannot retreat and fights on)"))
            if (gap > 0 or earlier) and can:
                below[role] = gap
        if not below:
            return None
        return max(below, key=lambda r: (below[r], r == ATTACKER))

    def note_reached(self, out: list[str]) -> None:
        """The end of a stage before the first melee: a side whose total is below 400 will retreat at its first
        opportunity, after the first melee stage ("Retreats never occur before the completion of one melee
        stage")."""
        for role in (DEFENDER, ATTACKER):
            army = self.armies[role]
            value = army.retreat_value()
            if ranks.retreats(army.morale, value) and role not in self.reached:
                self.reached.add(role)
                out.append(f"{army.name}: morale {army.morale} + retreat value {value} = {army.morale + value} < "
                           f"{ranks.RETREAT_POINT}: it will retreat at the first opportunity, after the first melee "
                           "stage")

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
                words = scale_text(victor.morale, factor)
                for shot in shots:
                    out.append(f"    {shot_text(shot, words)}")
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
                lose_guns(loser, item, q, tally)
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
