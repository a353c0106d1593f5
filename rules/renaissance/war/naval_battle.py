"""NAVAL BATTLES and Appendix F: a pure function of two Sides (forces.py), no state, no RNG.

Contract (battle.py calls it):

    fight(a: Side, b: Side) -> NavalResult          (a BattleResult; `a` is the attacker)

- The contingents carry ships, men (troops, crew, slaves), goods (ducats included), horses, cannons and falconets;
  `Side.dispositions` is the commander's arrangement as ordered, (place, item, qty) with place one of
  forces.NAVAL_DIVISIONS and item a ship type, a troop type, crew or a gun; `Side.places` may post the commander
  in a division (default the Reserves: "the owner of the ships goes with the Reserve"); `Side.factor` /
  `commander_factor` multiply M in the melee (RW-OQ-14).
- The result: `stages` (NavalStage: lines with the figures, losses per role and item, and apart the ships sunk,
  what was captured and what went overboard), `survivors` per role by item (ships included; captured items taken
  out), `taken` per role (what that role captured from the other: captures go both ways in a naval battle, and
  battle.py gives them to the capturing side's commander, RW-OQ-41), `captured` (what the victor took),
  `dead`, `morale` / `morale_start`, `outcome`, `victor`, `retreated`, `eliminated`, `stages_fought`,
  `guns_fired` (falconets fired by each role: the piety a Shia or Sunni loses, piety.gunfire).

The stages, in Appendix F's words, are in docs/renaissance/war.md, section "naval"; the figures of each are
exact fractions until what is lost is rounded up (war/arith.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from .. import ships as sh
from ..items import SHIPS
from . import morale as mo
from . import ranks
from .arith import figure, loss, share
from .forces import (
    ATTACKER,
    DEFENDER,
    MEN,
    NAVAL_DIVISIONS,
    ROLES,
    BattleResult,
    Side,
    StageReport,
    other,
    split_losses,
)
from .naval_fleet import (
    CENTER,
    FORWARD,
    LEFT,
    REMAINDER_ORDER,
    RESERVES,
    RIGHT,
    Division,
    divide,
    manning,
    overboard,
    sink,
    split_ships,
    spread_load,
)
from .words import describe

STAGE_GUARD = 100  # the engine's own stop: Appendix F's melee repeats "until" a break that may never come
FACING = {LEFT: RIGHT, CENTER: CENTER, RIGHT: LEFT}  # "each side's Left inflicts damage upon the opposing Right"
_POSITION = {LEFT: 0, CENTER: 1, RIGHT: 2}
# Appendix F: "No more than five falconets may be fired per galley, three per roundship, one per caravel and one
# per galliot (in the firing division)." A barque fires none.
FALCONETS_PER_SHIP = {"galley": 5, "roundship": 3, "caravel": 1, "galliot": 1, "barque": 0}

FALCONET_RATE = Fraction(100)  # x G/1000 x N/1000 men per falconet
FALCONET_SELF_DESTRUCT = Fraction(2, 100)
RAM_RATE = Fraction(1, 10)  # stage 3: x N/1000 ships per galley
ARCHER_RATE = Fraction(1)  # x N/1000
ARQUEBUS_RATE = Fraction(1, 2)  # x N/1000
MELEE_RATE = Fraction(1, 10)  # x M/1000

STAGE_NAMES = {1: "falconets", 2: "ramming", 3: "ramming", 4: "archery", 5: "arquebus"}


@dataclass
class NavalStage(StageReport):
    # role -> item -> how much of `losses` came each way (losses holds them all)
    sunk: dict[str, dict[str, int]] = field(default_factory=dict)
    captured: dict[str, dict[str, int]] = field(default_factory=dict)  # taken FROM this role
    overboard: dict[str, dict[str, int]] = field(default_factory=dict)
    killed: dict[str, dict[str, int]] = field(default_factory=dict)
    destroyed: dict[str, dict[str, int]] = field(default_factory=dict)  # falconets self-destroyed
    casualties: dict[str, int] = field(default_factory=dict)  # men lost, for the morale formula (RW-OQ-15)


@dataclass
class NavalResult(BattleResult):
    taken: dict[str, dict[str, int]] = field(default_factory=dict)  # role -> what it captured from the other
    initiative: str | None = None
    navigation: dict[str, Fraction] = field(default_factory=dict)  # effective navigation by role
    arrangement: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)  # role -> division -> items
    # role -> falconets fired over the battle: a Shia or Sunni persona of a side that fired loses 100 piety
    # (piety.gunfire; battle.py calls it for the personae whose falconets the side brought)
    guns_fired: dict[str, int] = field(default_factory=dict)


@dataclass
class _Fleet:
    role: str
    side: Side
    divs: dict[str, Division]
    nav: Fraction
    gunnery: int
    morale: int
    commander_at: str
    emptied: dict[str, int | None]  # forward division -> the stage it became devoid of ships (0: from the start)
    taken: dict[str, int] = field(default_factory=dict)

    def n_ships(self) -> int:
        return sum(d.n_ships() for d in self.divs.values())

    def fighters(self) -> int:
        return sum(d.fighters() for d in self.divs.values())

    def holdings(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for d in self.divs.values():
            for item, n in d.items().items():
                out[item] = out.get(item, 0) + n
        return out


def fight(a: Side, b: Side) -> NavalResult:
    """A naval battle between attacker `a` and defender `b` (Appendix F)."""
    return _Battle(a, b).run()


# ---- building the fleets ----------------------------------------------------------------------------------

def _fleet_of(side: Side) -> dict[str, int]:
    return {s: n for s in SHIPS if (n := side.total(s)) > 0}


def _load_of(side: Side) -> dict[str, int]:
    """Everything the side's ships carry: men, goods, horses, cannons, falconets."""
    load: dict[str, int] = {}
    for c in side.contingents:
        for item, n in (*c.men.items(), *c.goods.items(), ("horse", c.horses), ("cannon", c.cannon),
                        ("falconet", c.falconet)):
            if n > 0:
                load[item] = load.get(item, 0) + n
    return load


def _place(word: str) -> str:
    w = str(word).strip().lower()
    return RESERVES if w in ("reserve", "reserves") else w


def commanders_arrangement(side: Side, fleet: dict[str, int]) -> tuple[dict[str, dict[str, int]] | None, str]:
    """The ships by division as the commander ordered them, or None and why it is set aside. NAVAL BATTLES: "A
    commander who arranges his fleet for battle himself must put at least 20% of his ships in each of the three
    forward divisions"; FIELD BATLE: "When a player's requested battle dispositions are illegal, or impossible,
    then they are ignored". Ships he does not place go with the Reserves; lines placing men or guns are
    `commanders_load`'s. None and no reason when he placed no ship: the ships are then divided as standard."""
    placed: dict[str, dict[str, int]] = {p: {} for p in NAVAL_DIVISIONS}
    named = False
    for place, item, qty in side.dispositions:
        if item not in SHIPS:
            continue
        p = _place(place)
        if p not in NAVAL_DIVISIONS:
            return None, f"{place!r} is not a division of a fleet (Left, Center, Right, Reserves)"
        if int(qty) < 0:
            return None, f"a negative number of {item}"
        placed[p][item] = placed[p].get(item, 0) + int(qty)
        named = True
    if not named:
        return None, ""
    for ship in SHIPS:
        given = sum(placed[p].get(ship, 0) for p in NAVAL_DIVISIONS)
        if given > fleet.get(ship, 0):
            return None, f"{given} {ship} placed, {fleet.get(ship, 0)} at hand"
        if fleet.get(ship, 0) > given:
            placed[RESERVES][ship] = placed[RESERVES].get(ship, 0) + fleet[ship] - given
    total = sum(fleet.values())
    for d in FORWARD:
        if 5 * sum(placed[d].values()) < total:
            return None, f"fewer than 20% of his {total} ships in the {d.title()}"
    return {p: {s: n for s, n in ships.items() if n > 0} for p, ships in placed.items()}, ""


def commanders_load(side: Side, load: dict[str, int], ships: dict[str, dict[str, int]]
                    ) -> tuple[dict[str, dict[str, int]] | None, str]:
    """The troops, crew and guns the commander placed in each division, or None and why the arrangement is set
    aside. Appendix F fights division against division ("each side's Left inflicts damage upon the opposing
    Right"; "Should all the troops and crew in a division be eliminated"), and NAVAL BATTLES divides a side
    equally "Unless contrary orders have been issued": a commander's Z lines place men in a division as they
    place ships (reading N1 of docs/renaissance/war.md, naval). Impossible, so ignored whole (FIELD BATLE): more
    of an item than the side has, or more placed in a division than its ships carry."""
    placed: dict[str, dict[str, int]] = {p: {} for p in NAVAL_DIVISIONS}
    for place, item, qty in side.dispositions:
        if item in SHIPS:
            continue
        p = _place(place)
        if p not in NAVAL_DIVISIONS:
            return None, f"{place!r} is not a division of a fleet (Left, Center, Right, Reserves)"
        placed[p][item] = placed[p].get(item, 0) + int(qty)
    for item in {i for d in placed.values() for i in d}:
        given = sum(d.get(item, 0) for d in placed.values())
        if given > load.get(item, 0):
            return None, f"{given} {item} placed, {load.get(item, 0)} at hand"
    for p, men in placed.items():
        room = sh.capacity(ships[p])
        if sh.cargo_at_sea(men) > room:
            return None, f"{sh.cargo_at_sea(men)} cargo placed in the {p.title()}, whose ships carry {room}"
    return placed, ""


def arrange(side: Side) -> tuple[dict[str, Division], str]:
    """The four divisions of a side and a note on how they were made: the ships as the commander placed them (or
    divided equally), the men and guns he placed with them, and the rest of the load shared by the room each
    division's ships have left (RW-OQ-39, N1)."""
    fleet, load = _fleet_of(side), _load_of(side)
    ships, why = commanders_arrangement(side, fleet) if side.dispositions else (None, "")
    if ships is None and not why:
        ships = split_ships(fleet, REMAINDER_ORDER) if side.dispositions else None
    placed, why_men = commanders_load(side, load, ships) if ships is not None else (None, "")
    if ships is None or placed is None:
        why = why or why_men
        note = "standard dispositions" + (f" (the arrangement ordered is set aside: {why})" if why else "")
        return divide(fleet, load, REMAINDER_ORDER), note
    rest = {i: n - sum(d.get(i, 0) for d in placed.values()) for i, n in load.items()}
    room = {p: max(0, sh.capacity(ships[p]) - sh.cargo_at_sea(placed[p])) for p in REMAINDER_ORDER}
    loads = spread_load({i: n for i, n in rest.items() if n > 0}, room)
    divisions = {}
    for p in REMAINDER_ORDER:
        carried = dict(placed[p])
        for i, n in loads[p].items():
            carried[i] = carried.get(i, 0) + n
        divisions[p] = Division(dict(ships[p]), carried)
    return divisions, "the commander's arrangement"


def effective_navigation(side: Side) -> Fraction:
    """NAVAL BATTLES: "Should either side have fewer than the standard number of crew and rowers, its effective
    navigation rating is reduced proportionately" (RW-OQ-39: crew and rowers together, ships.manning), as the side
    comes to the battle."""
    return Fraction(side.navigation()) * manning(_fleet_of(side), side.total("crew"), side.total("slave"))


def initiative(a: Side, b: Side) -> tuple[str, str]:
    """Who has the initiative, and why. "The side whose commander has the higher navigation rating ... If both
    commanders have the same navigation rating, then the side with the fewer ships has the initiative." Same
    navigation and as many ships: the defender (Appendix D's defense strikes first; the text is silent)."""
    na, nb = effective_navigation(a), effective_navigation(b)
    if na != nb:
        role = ATTACKER if na > nb else DEFENDER
        return role, f"higher effective navigation ({_num(max(na, nb))} against {_num(min(na, nb))})"
    sa, sb = sum(_fleet_of(a).values()), sum(_fleet_of(b).values())
    if sa != sb:
        role = ATTACKER if sa < sb else DEFENDER
        return role, f"same navigation ({_num(na)}), fewer ships ({min(sa, sb)} against {max(sa, sb)})"
    return DEFENDER, f"same navigation ({_num(na)}) and as many ships ({sa}): the defender"


def _num(x: Fraction | int) -> str:
    return figure(x, 4)


def _title(role: str, d: str) -> str:
    return f"the {role}'s {d.title()}"


# ---- the battle ---------------------------------------------------------------------------------------------

class _Battle:
    def __init__(self, a: Side, b: Side) -> None:
        self.result = NavalResult(kind="naval")
        self.fleets: dict[str, _Fleet] = {}
        for side, role in ((a, ATTACKER), (b, DEFENDER)):
            divs, note = arrange(side)
            place = _place(side.places.get(side.commander or "", RESERVES))
            self.fleets[role] = _Fleet(
                role=role, side=side, divs=divs, nav=effective_navigation(side), gunnery=side.gunnery(),
                morale=side.morale(), commander_at=place if place in NAVAL_DIVISIONS else RESERVES,
                emptied={d: (0 if divs[d].empty() else None) for d in FORWARD})
            self.result.notes.append(f"the {role}: {note}; " + "; ".join(
                f"{d.title()} {describe(divs[d].ships)}" for d in REMAINDER_ORDER))
            self.result.arrangement[role] = {d: divs[d].items() for d in REMAINDER_ORDER}
            self.result.navigation[role] = self.fleets[role].nav
        self.first, why = initiative(a, b)
        self.result.initiative = self.first
        self.result.notes.append(f"the {self.first} has the initiative: {why}")
        self.st = NavalStage(number=0, name="")

    # ---- bookkeeping ----

    def _remove(self, role: str, division: Division, items: dict[str, int], how: str) -> None:
        """Take items out of a division, recording them as lost this stage (`how`: killed, sunk, overboard,
        captured, destroyed)."""
        bucket = getattr(self.st, how)
        for item, n in items.items():
            if n <= 0:
                continue
            held = division.ships if item in SHIPS else division.load
            held[item] -= n
            if held[item] <= 0:
                del held[item]
            losses = self.st.losses.setdefault(role, {})
            losses[item] = losses.get(item, 0) + n
            kind = bucket.setdefault(role, {})
            kind[item] = kind.get(item, 0) + n
            if item in MEN and how != "captured":
                self.st.casualties[role] = self.st.casualties.get(role, 0) + n

    def _capture(self, role: str, division: Division, label: str) -> None:
        items = division.items()
        if not items:
            return
        self._remove(role, division, items, "captured")
        taker = self.fleets[other(role)]
        for item, n in items.items():
            taker.taken[item] = taker.taken.get(item, 0) + n
        self.st.lines.append(f"{label}: {describe(items)} captured intact by the {other(role)}")

    def _over(self) -> bool:
        return any(f.n_ships() == 0 or f.fighters() == 0 for f in self.fleets.values())

    # ---- between half-stages ----

    def _fill_gaps(self) -> None:
        """"Should all the ships in a division be sunk, or captured, then the Reserves take their place at the
        start of the following half-stage. Should two, or three, divisions become devoid of ships at the same time,
        then the Reserves are split equally among them" (each type equally, the remainder Center first, the load
        by capacity: RW-OQ-39). The owner goes with the Reserves, to the first gap."""
        for role, f in self.fleets.items():
            gaps = [d for d in REMAINDER_ORDER[:3] if f.divs[d].empty()]
            if not gaps or f.divs[RESERVES].empty():
                continue
            held = f.divs[RESERVES].clear()
            parts = divide(held.ships, held.load, gaps)
            for g in gaps:
                f.divs[g].add(parts[g])
                if not f.divs[g].empty():
                    f.emptied[g] = None
                    self.st.lines.append(f"the {role}'s Reserves ({describe(parts[g].ships)}) take the place of "
                                         f"its {g.title()}")
            if f.commander_at == RESERVES:
                f.commander_at = gaps[0]

    def _captures(self) -> None:
        """"Should all the troops and crew in a division be eliminated, then all the remaining ships in that
        division (and their trade goods) are captured intact by the opposing force" (slaves with the goods,
        RW-OQ-41). The Reserves, not engaged, are captured only with the whole fleet (_finish_off)."""
        for role, f in self.fleets.items():
            for d in FORWARD:
                div = f.divs[d]
                if not div.empty() and div.fighters() == 0:
                    self._capture(role, div, _title(role, d))

    def _mark_empties(self) -> None:
        for f in self.fleets.values():
            for d in FORWARD:
                if f.divs[d].empty() and f.emptied[d] is None:
                    f.emptied[d] = self.st.number

    # ---- who strikes whom ----

    def _target(self, role: str, d: str) -> tuple[str | None, bool]:
        """The opposing division a division strikes, and whether it flanks. Its facing division while that has
        ships; once it is devoid of ships and no Reserves came, "in the following stage, the victorious division
        flanks the adjacent division with the greater number of troops and crew" (the nearest that has ships)."""
        if self.fleets[role].divs[d].empty():
            return None, False
        enemy = self.fleets[other(role)]
        face = FACING[d]
        if not enemy.divs[face].empty():
            return face, False
        since = enemy.emptied[face]
        if since is None or since >= self.st.number:
            return None, False
        live = [x for x in FORWARD if not enemy.divs[x].empty()]
        if not live:
            return None, False
        return min(live, key=lambda x: (abs(_POSITION[x] - _POSITION[face]), -enemy.divs[x].fighters(),
                                        REMAINDER_ORDER.index(x))), True

    def _engagement(self, role: str, d: str) -> tuple[list[str], bool]:
        """The opposing divisions a division's blows fall on, and whether it flanks (double casualties). A flanked
        division strikes its facing division and its flankers together, in proportion ("Flanking units ... suffer
        casualties normally and proportionately with any other division(s) attacking the flanked one")."""
        target, flanking = self._target(role, d)
        victims = [target] if target else []
        for x in FORWARD:
            if x not in victims and self._target(other(role), x) == (d, True):
                victims.append(x)
        return victims, flanking

    # ---- blows ----

    def _manned(self, role: str, d: str) -> tuple[list[str], bool]:
        """The engagement of a division that strikes men: only victims with men left (a division killed to the last
        man earlier in the half-stage is captured at its end, and takes no more blows)."""
        victims, flanking = self._engagement(role, d)
        enemy = self.fleets[other(role)]
        return [v for v in victims if enemy.divs[v].n_men() > 0], flanking

    def _kill(self, role: str, victims: list[str], amount: Fraction) -> tuple[int, dict[str, int]]:
        """`amount` men of the victims' divisions killed, rounded up, shared in proportion among the divisions and
        then among the men of each (crew and slaves included)."""
        enemy = self.fleets[other(role)]
        pool = {v: enemy.divs[v].n_men() for v in victims}
        total = loss(amount, sum(pool.values()))
        dead: dict[str, int] = {}
        for v, k in share(total, pool).items():
            if k:
                died = share(k, enemy.divs[v].men())
                self._remove(other(role), enemy.divs[v], died, "killed")
                for item, n in died.items():
                    dead[item] = dead.get(item, 0) + n
        return total, {i: n for i, n in dead.items() if n}

    def _sink(self, role: str, victims: list[str], amount: Fraction) -> dict[str, int]:
        """`amount` ships of the victims' divisions rammed and sunk, rounded up (RW-OQ-39), galleys first."""
        enemy = self.fleets[other(role)]
        pool = {v: enemy.divs[v].n_ships() for v in victims}
        sunk: dict[str, int] = {}
        for v, k in share(loss(amount, sum(pool.values())), pool).items():
            if k:
                gone = sink(dict(enemy.divs[v].ships), k)
                self._remove(other(role), enemy.divs[v], gone, "sunk")
                for s, n in gone.items():
                    sunk[s] = sunk.get(s, 0) + n
        return sunk

    def _falconets(self, role: str) -> None:
        """Stage 1: "each falconet ... kills opposing men at the rate of 100xG/1000xN/1000 ... 2% of all falconets
        fired self-destruct" (RW-OQ-38: the men of the facing division)."""
        f = self.fleets[role]
        each = FALCONET_RATE * f.gunnery / 1000 * f.nav / 1000
        fired_by: dict[str, int] = {}
        for d in FORWARD:
            victims, flanking = self._manned(role, d)
            div = f.divs[d]
            ceiling = sum(FALCONETS_PER_SHIP[s] * n for s, n in div.ships.items())
            fired = min(div.load.get("falconet", 0), ceiling)
            if not victims or fired == 0:
                continue
            fired_by[d] = fired
            amount = fired * each * (2 if flanking else 1)
            total, dead = self._kill(role, victims, amount)
            self.st.lines.append(
                f"{_title(role, d)} fires {fired} falconets (at most {ceiling} from its ships) at "
                f"{', '.join(_title(other(role), v) for v in victims)}: {fired} x 100 x {f.gunnery}/1000 x "
                f"{_num(f.nav)}/1000{' x 2 flanking' if flanking else ''} = {_num(amount)}, {total} killed "
                f"({describe(dead)})")
        fired = sum(fired_by.values())
        if fired:
            self.result.guns_fired[role] = self.result.guns_fired.get(role, 0) + fired
        lost = loss(FALCONET_SELF_DESTRUCT * fired, fired)
        for d, k in share(lost, fired_by).items():
            if k:
                self._remove(role, f.divs[d], {"falconet": k}, "destroyed")
        if lost:
            self.st.lines.append(f"2% of the {role}'s {fired} falconets fired self-destruct: {lost}")

    def _ram(self, role: str, per_galley: Fraction, formula: str) -> None:
        f = self.fleets[role]
        for d in FORWARD:
            victims, flanking = self._engagement(role, d)
            galleys = f.divs[d].ships.get("galley", 0)
            if not victims or galleys == 0 or per_galley <= 0:
                continue
            amount = galleys * per_galley * (2 if flanking else 1)
            sunk = self._sink(role, victims, amount)
            self.st.lines.append(
                f"{_title(role, d)}'s {galleys} galleys ram {', '.join(_title(other(role), v) for v in victims)}: "
                f"{galleys} x {formula}{' x 2 flanking' if flanking else ''} = {_num(amount)}, sunk "
                f"{describe(sunk)}")

    def _ram_by_difference(self, role: str) -> None:
        """Stage 2: "each galley on the side with the initiative rams a number of ships equal to 1/1000th of the
        difference in navigation rating between its commander and that of the opposing side"."""
        mine, theirs = self.fleets[role].nav, self.fleets[other(role)].nav
        self._ram(role, (mine - theirs) / 1000, f"({_num(mine)} - {_num(theirs)})/1000")

    def _ram_at_rate(self, role: str) -> None:
        """Stage 3: galleys "sink opposing ships at the rate of .1xN/1000"."""
        nav = self.fleets[role].nav
        self._ram(role, RAM_RATE * nav / 1000, f".1 x {_num(nav)}/1000")

    def _shoot(self, role: str, men: str, rate: Fraction, rate_text: str) -> None:
        """Stages 4 and 5: archers (1xN/1000), arquebusiers (.5xN/1000) "kill opposing men (in proportion to their
        numbers)"."""
        f = self.fleets[role]
        for d in FORWARD:
            victims, flanking = self._manned(role, d)
            firers = f.divs[d].load.get(men, 0)
            if not victims or firers == 0:
                continue
            amount = firers * rate * f.nav / 1000 * (2 if flanking else 1)
            total, dead = self._kill(role, victims, amount)
            self.st.lines.append(
                f"{_title(role, d)}'s {firers} {men}s shoot at "
                f"{', '.join(_title(other(role), v) for v in victims)}: {firers} x {rate_text} x {_num(f.nav)}/1000"
                f"{' x 2 flanking' if flanking else ''} = {_num(amount)}, {total} killed ({describe(dead)})")

    def _archers(self, role: str) -> None:
        self._shoot(role, "archer", ARCHER_RATE, "1")

    def _arquebusiers(self, role: str) -> None:
        self._shoot(role, "arquebusier", ARQUEBUS_RATE, ".5")

    def _melee(self, role: str) -> None:
        """Stage 6 and after: "all surviving troops and crew ... kill opposing men (in proportion to their numbers)
        at the rate of .1xM/1000", M multiplied as morale.inflict_factor says (RW-OQ-14)."""
        f = self.fleets[role]
        for d in FORWARD:
            victims, flanking = self._manned(role, d)
            firers = f.divs[d].fighters()
            if not victims or firers == 0:
                continue
            factor = f.side.factor
            if f.commander_at == d and f.side.commander_factor is not None:
                factor = f.side.commander_factor
            amount = firers * MELEE_RATE * f.morale / 1000 * factor * (2 if flanking else 1)
            total, dead = self._kill(role, victims, amount)
            extra = (f" x {_num(factor)}" if factor != 1 else "") + (" x 2 flanking" if flanking else "")
            self.st.lines.append(
                f"{_title(role, d)}'s {firers} troops and crew board "
                f"{', '.join(_title(other(role), v) for v in victims)}: {firers} x .1 x {f.morale}/1000{extra} = "
                f"{_num(amount)}, {total} killed ({describe(dead)})")

    # ---- a stage ----

    def _halves(self, n: int) -> tuple[Callable[[str], None], tuple[str, ...]]:
        first, second = self.first, other(self.first)
        if n == 1:
            return self._falconets, (first, second)
        if n == 2:
            return self._ram_by_difference, (first,)  # "The opposing side does not reciprocate during this stage."
        if n == 3:
            return self._ram_at_rate, (first, second)
        if n == 4:
            return self._archers, (first, second)
        if n == 5:
            return self._arquebusiers, (first, second)
        return self._melee, (first, second)

    def _adjust_cargo(self) -> None:
        """Stages 2 and 3: "Total cargo is then adjusted for each division so that there is no excess" (RW-OQ-40:
        the men of sunk ships crowd onto the division's other ships; the excess is thrown over)."""
        for role, f in self.fleets.items():
            for d in REMAINDER_ORDER:
                thrown = overboard(f.divs[d])
                if thrown:
                    self._remove(role, f.divs[d], thrown, "overboard")
                    self.st.lines.append(f"{_title(role, d)} over capacity: {describe(thrown)} thrown overboard")

    def _finish_off(self) -> None:
        """A fleet with ships but no troops or crew left anywhere is captured whole; one with no ship left loses
        what it still carried (nothing to carry it)."""
        for role, f in self.fleets.items():
            if f.n_ships() > 0 and f.fighters() == 0:
                for d in REMAINDER_ORDER:
                    self._capture(role, f.divs[d], _title(role, d))
            elif f.n_ships() == 0:
                for d in REMAINDER_ORDER:
                    rest = f.divs[d].items()
                    if rest:
                        self._remove(role, f.divs[d], rest, "overboard")
                        self.st.lines.append(f"{_title(role, d)} has no ship left: {describe(rest)} lost")

    def _morale(self) -> None:
        """MORALE: "Casualties inflicted are deducted from a number equal to twice the casualties suffered"; every
        man a side loses is inflicted by the other (thrown overboard included, RW-OQ-15)."""
        for role, f in self.fleets.items():
            suffered = self.st.casualties.get(role, 0)
            inflicted = self.st.casualties.get(other(role), 0)
            change = mo.stage_change(inflicted, suffered)
            before = f.morale
            f.morale = mo.apply_change(f.morale, change)
            self.st.morale[role] = f.morale
            self.st.lines.append(f"the {role}'s morale: 2 x {suffered} suffered - {inflicted} inflicted = "
                                 f"{2 * suffered - inflicted}: {before} -> {f.morale}")

    def _stage(self, n: int) -> None:
        self.st = NavalStage(number=n, name=STAGE_NAMES.get(n, "naval melee"))
        self.result.stages.append(self.st)
        blow, roles = self._halves(n)
        for role in roles:
            if self._over():
                break
            self._fill_gaps()
            blow(role)
            self._captures()
            self._mark_empties()
        if n in (2, 3):
            self._adjust_cargo()
            self._captures()
            self._mark_empties()
        self._finish_off()
        self._morale()

    # ---- the end ----

    def _breaking(self) -> str | None:
        """"When, at the end of a stage, one side's morale is found to be below its retreat point, then the
        engagement is broken, but no engagement is broken before the end of the third stage." Both below: the
        further below breaks; equally far, the attacker (RW-OQ-16)."""
        below = {role: ranks.below_retreat_point(f.morale, f.side.retreat_value)
                 for role, f in self.fleets.items() if f.side.can_retreat}
        below = {role: x for role, x in below.items() if x > 0}
        if not below:
            return None
        return max(ROLES, key=lambda r: (below.get(r, 0), r == ATTACKER)) if len(below) > 1 else next(iter(below))

    def _decided(self, n: int) -> bool:
        r = self.result
        out = [role for role, f in self.fleets.items() if f.n_ships() == 0 or f.fighters() == 0]
        if out:
            r.eliminated = out
            r.victor = other(out[0]) if len(out) == 1 else None
            r.outcome = ("both fleets were eliminated" if len(out) > 1 else
                         f"the {out[0]}'s fleet was eliminated (no ship, or no troops and crew, left)")
            return True
        if n >= 3:
            role = self._breaking()
            if role is not None:
                f = self.fleets[role]
                r.retreated, r.victor = role, other(role)
                r.outcome = (f"the engagement was broken: the {role}'s morale {f.morale} + retreat value "
                             f"{f.side.retreat_value} fell below {ranks.RETREAT_POINT}")
                return True
        if n >= STAGE_GUARD:
            r.outcome = f"the engagement was broken off after {STAGE_GUARD} stages without a decision"
            return True
        return False

    def _dead(self) -> list[str]:
        """TRAVEL: "Personae drown when they lose their last ship": a persona whose own ships (his share of the
        side's losses, forces.split_losses) are all sunk or captured dies; never the commander of a side that is
        "not to be killed"."""
        dead: list[str] = []
        for role, f in self.fleets.items():
            lost = split_losses(f.side, self.result.survivors[role])
            for c in f.side.contingents:
                had = sum(c.ships.values())
                if c.persona is None or had == 0:
                    continue
                if had - sum(lost[c.key].get(s, 0) for s in SHIPS) > 0:
                    continue
                if f.side.spare and c.persona == f.side.commander:
                    self.result.notes.append(f"{c.name} lost his last ship but is not to be killed")
                    continue
                dead.append(c.persona)
        return dead

    def run(self) -> NavalResult:
        r = self.result
        r.morale_start = {role: f.morale for role, f in self.fleets.items()}
        n = 0
        if self._over():
            self.st = NavalStage(number=0, name="no fight")  # a fleet with no ship or no man: nothing to fight
            r.stages.append(self.st)
            self._finish_off()
            self._decided(0)
        else:
            while True:
                n += 1
                self._stage(n)
                if self._decided(n):
                    break
        r.stages_fought = n
        r.morale = {role: f.morale for role, f in self.fleets.items()}
        r.survivors = {role: f.holdings() for role, f in self.fleets.items()}
        r.taken = {role: dict(f.taken) for role, f in self.fleets.items()}
        r.captured = dict(r.taken[r.victor]) if r.victor else {}
        r.dead = self._dead()
        return r
