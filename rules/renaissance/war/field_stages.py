"""The half-stages of a field battle (Appendix D): the Reserves brought forward, the cannons, the archers, the
arquebusiers and the melee, each for the side that inflicts in that half. Each function changes the two Armies in
place, writes its figures to `out` and counts the losses in the stage's Tally.
"""

from __future__ import annotations

from fractions import Fraction as F

from .arith import loss
from .field_army import (
    ARCHER,
    ARQUEBUSIER,
    CENTER,
    FACING,
    FORWARD,
    KINDS,
    LEFT,
    LEFT_WING,
    LINE,
    REMAINDER_ORDER,
    RESERVES,
    RIGHT,
    RIGHT_WING,
    Army,
    Tally,
    count,
    describe,
    legal_places,
    men,
    new_division,
    take,
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
    scale_text,
    shot_text,
    volley,
)

FALCONET = F(1, 10)  # "each falconet is treated as one-tenth of a cannon"
SELF_DESTRUCT = F(2, 100)  # "2% of all cannons fired self-destruct"
FLANKING = 2  # "flanking divisions fight with doubled morale"

# "that unopposed division turns toward the Center ... and flanks the next opposing division" (RW-OQ-24): the
# opposing divisions it turns on, in order, when the first is empty too (the Center's list starts on the larger
# side).
FLANK_CHAIN: dict[str, tuple[str, ...]] = {
    LEFT_WING: (RIGHT, CENTER, LEFT, LEFT_WING),
    LEFT: (CENTER, LEFT, LEFT_WING, RIGHT_WING),
    RIGHT: (CENTER, RIGHT, RIGHT_WING, LEFT_WING),
    RIGHT_WING: (LEFT, CENTER, RIGHT, RIGHT_WING),
}


# ---- reserves ----------------------------------------------------------------------------------------------

def bring_up(army: Army, out: list[str]) -> None:
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
                out.append(f"{army.who(pid)} goes forward with them to the {filled[0].title()}")


# ---- stage 1: cannons ---------------------------------------------------------------------------------

def lose_guns(army: Army, gun: str, n: int, tally: Tally) -> None:
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

def cannon_half(firer: Army, target: Army, out: list[str], tally: Tally) -> None:
    """Appendix D, the first stage, for one side's guns (the text's schedule, RW-OQ-19 and 20)."""
    guns = firer.cannon + FALCONET * firer.falconet
    if guns == 0:
        out.append(f"{firer.name} has no cannons")
        return
    g = firer.side.gunnery()
    theirs = target.cannon + FALCONET * target.falconet
    out.append(f"{firer.name} fires {count(firer.cannon, 'cannon')} and {count(firer.falconet, 'falconet')} = "
               f"{count(guns, 'cannon')}, gunnery {g}")
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
                   f"cannons → {count(c, 'cannon')} and {count(f, 'falconet')} destroyed")
        lose_guns(target, "cannon", c, tally)
        lose_guns(target, "falconet", f, tally)
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
            out.append(f"  2% of {count(share_fired * held, gun)} fired = "
                       f"{fmt(SELF_DESTRUCT * share_fired * held)} → {n} self-destruct")
            lose_guns(firer, gun, n, tally)

# ---- stages 2 and 3: archery, arquebus ----------------------------------------------------------------

def aims(target: Army, d: str) -> list[tuple[str, F]]:
    """"Archers in the Left fire exclusively at the opposing Right" (and so on); fire meant for an empty
    division goes to the others of the opposing Left, Center and Right in equal shares (RW-OQ-24)."""
    facing = FACING[d]
    if men(target.divisions[facing]):
        return [(facing, F(1))]
    others = [x for x in LINE if x != facing and men(target.divisions[x])]
    return [(x, F(1, len(others))) for x in others]

def archery_half(firer: Army, target: Army, out: list[str], tally: Tally) -> None:
    fired = False
    for d in LINE:
        archers = firer.divisions[d][ARCHER]
        targets = aims(target, d) if archers else []
        if not targets:
            continue
        fired = True
        factor = firer.factor(d)
        scale = firer.morale * factor / 1000
        words = scale_text(firer.morale, factor)
        for t, part in targets:
            out.append(f"{fmt(archers * part)} of {firer.name}'s archers in the {d.title()} shoot at "
                       f"{target.name}'s {t.title()}")
            shots, _ = volley(archers * part, scale, ARCHERY, target.divisions[t])
            for shot in shots:
                out.append(f"  {shot_text(shot, words)}")
                tally.men(target, shot.lost)
    if not fired:
        out.append(f"{firer.name} has no archers shooting")

def arquebus_half(firer: Army, target: Army, out: list[str], tally: Tally) -> None:
    """"Each arquebusier kills .5xM/1000, but no more than 50% of the troops in the opposing division may be
    destroyed by this volley. Losses are apportioned proportionately among the various types of units"."""
    volleys: dict[str, F] = {}
    texts: dict[str, list[str]] = {}
    for d in LINE:
        shooters = firer.divisions[d][ARQUEBUSIER]
        factor = firer.factor(d)
        for t, part in aims(target, d) if shooters else []:
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

def flank_target(d: str, enemy: Army) -> str | None:
    """The opposing division an unopposed division turns on: "toward the Center (but, if it is the Center
    division, it turns toward the larger adjacent opposing division)"; past an empty one to the next."""
    if d == CENTER:
        left, right = men(enemy.divisions[LEFT]), men(enemy.divisions[RIGHT])
        chain = (LEFT, LEFT_WING, RIGHT, RIGHT_WING) if left >= right else (RIGHT, RIGHT_WING, LEFT, LEFT_WING)
    else:
        chain = FLANK_CHAIN[d]
    return next((x for x in chain if men(enemy.divisions[x])), None)

def unopposed(army: Army, enemy: Army) -> dict[str, str | None]:
    """Each occupied forward division of `army` whose facing division is empty, and the one it would turn on."""
    return {d: flank_target(d, enemy) for d in FORWARD
            if men(army.divisions[d]) and not men(enemy.divisions[FACING[d]])}


def flanking(mine: dict[str, str | None], theirs: dict[str, str | None]) -> tuple[set[str], set[str]]:
    """Which unopposed divisions flank (of each side). "When one side flanks an opposing division that would not
    otherwise be inflicting casualties, then that division inflicts casualties upon the flanking division, but
    does so without the flanking advantage": an unopposed division turned on by a division that flanks strikes back
    instead of flanking; one turned on only by divisions that strike back themselves flanks (RW-OQ-24). Divisions
    left undecided turn on each other in a ring (two, say, each the other's target): they all strike back."""
    sides = {"mine": mine, "theirs": theirs}
    other_side = {"mine": "theirs", "theirs": "mine"}
    status: dict[tuple[str, str], bool] = {}  # (side, division) -> flanks?
    changed = True
    while changed:
        changed = False
        for s, divs in sides.items():
            for d in divs:
                if (s, d) in status:
                    continue
                turned_on_by = [e for e, t in sides[other_side[s]].items() if t == d]
                if any(status.get((other_side[s], e)) for e in turned_on_by):
                    status[(s, d)] = False
                elif all(status.get((other_side[s], e)) is False for e in turned_on_by):
                    status[(s, d)] = True
                else:
                    continue
                changed = True
    flanks = {s: {d for d in divs if status.get((s, d), False)} for s, divs in sides.items()}
    return flanks["mine"], flanks["theirs"]


def engagements(firer: Army, target: Army) -> list[tuple[str, str, bool, str]]:
    """(division, the opposing division it strikes, flanking?, how it came to) for each forward division."""
    mine, theirs = unopposed(firer, target), unopposed(target, firer)
    my_flankers, their_flankers = flanking(mine, theirs) if mine else (set(), set())
    out = []
    for d in FORWARD:
        if not men(firer.divisions[d]):
            continue
        front = FACING[d]
        if d not in mine:
            out.append((d, front, False, "engages"))
            continue
        if d not in my_flankers:
            turned_on_by = [e for e, t in theirs.items() if t == d]
            strikers = [e for e in turned_on_by if e in their_flankers] or turned_on_by
            e = max(strikers, key=lambda x: men(target.divisions[x]))
            out.append((d, e, False, "strikes back at the flanking"))
            continue
        t = mine[d]
        if t is not None:
            out.append((d, t, True, "is unopposed and flanks, morale doubled,"))
    return out

def melee_half(firer: Army, target: Army, out: list[str], tally: Tally) -> None:
    """Appendix D's melee: parts A to D, each division of the side striking the division it engages."""
    plan = engagements(firer, target)
    if not plan:
        out.append(f"{firer.name} has no one to engage")
    # Each division's M/1000 and its words, once for the four parts (the side's factor and its commander's place
    # do not change while it strikes).
    strikes = []
    for d, t, flank, how in plan:
        out.append(f"{firer.name}'s {d.title()} {how} {target.name}'s {t.title()}")
        factor = firer.factor(d) * (FLANKING if flank else 1)
        strikes.append((d, t, firer.morale * factor / 1000, scale_text(firer.morale, factor),
                        f"of the {d.title()} at the {t.title()}"))
    for part, lines in MELEE.items():
        name = PART_FIRERS_NAME[part]
        for d, t, scale, words, where in strikes:
            firers = part_firers(part, firer.divisions[d])
            if not firers:
                continue
            shots, _ = volley(firers, scale, lines, target.divisions[t])
            out.append(f"  part {part}: {fmt(firers)} {name} {where}" + ("" if shots else ": no one to kill"))
            for shot in shots:
                out.append(f"    {shot_text(shot, words)}")
                tally.men(target, shot.lost)
