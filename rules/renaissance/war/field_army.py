"""The field battle's men as they fight (Appendix D): the kinds of fighter, the classes the schedules aim at, the
divisions, and who absorbs a loss inflicted on a class.

Kinds. The six troop types, crew and garrison, and two more that exist only in battle:
- "unmounted heavy cavalry": FIELD BATLE, "Unmounted heavy cavalry fight as pikemen"; they come back as heavy
  cavalry (RW-OQ-21).
- "mounted auxiliary": an auxiliary given a horse ("transforming auxiliaries into light cavalry") fights as light
  cavalry and comes back an auxiliary; his horse dies with him (BATTLE: "When troops are lost in battle, their
  mounts and weapons ... destroyed").
Light cavalry a persona holds as an asset fight mounted without a horse of the side's (RW-OQ-44).

Classes (RW-OQ-21): "heavy cavalry"; "light cavalry" (with the mounted auxiliaries); "pikemen" (with the unmounted
heavy cavalry); "other infantry" = "infantry other than pikemen" (garrison, auxiliaries, arquebusiers, archers,
crew); "infantry" (the archery schedule's plain word: pikemen and other infantry); "troops" (everyone in the
division: the final, proportional lines and the arquebus volley).

A loss on a class (take): garrison troops first (THE SWORD GARRISONS: "When there is a choice, garrison troops
always take losses first"), then the other kinds of the class in proportion (Appendix D, "In field battle executed
by computer, losses ... are exacted proportionately"), crew last: NAVIGATION, "In land battle, crew do not suffer
losses until all infantry in their division have been lost". While infantry outside the class stands in the
division (pikemen, for "other infantry"), the crew are out of the class's reach altogether.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction as F

from .arith import share
from .forces import ATTACKER, DEFENDER, Side

HEAVY = "heavy cavalry"
UNHORSED = "unmounted heavy cavalry"
LIGHT = "light cavalry"
RIDER = "mounted auxiliary"
PIKE = "pikeman"
ARCHER = "archer"
ARQUEBUSIER = "arquebusier"
AUXILIARY = "auxiliary"
GARRISON = "garrison"
CREW = "crew"

KINDS: tuple[str, ...] = (HEAVY, LIGHT, RIDER, PIKE, UNHORSED, ARCHER, ARQUEBUSIER, AUXILIARY, GARRISON, CREW)
CAVALRY: tuple[str, ...] = (HEAVY, LIGHT, RIDER)
INFANTRY: tuple[str, ...] = (PIKE, UNHORSED, GARRISON, AUXILIARY, ARQUEBUSIER, ARCHER, CREW)

# What each kind is again once the battle is over.
ITEM_OF: dict[str, str] = {**{k: k for k in KINDS}, UNHORSED: HEAVY, RIDER: AUXILIARY}
# Kinds that ride one of the side's horses, which dies with its rider.
HORSED: tuple[str, ...] = (HEAVY, RIDER)

CLASSES: dict[str, tuple[str, ...]] = {
    "heavy cavalry": (HEAVY,),
    "light cavalry": (LIGHT, RIDER),
    "pikemen": (PIKE, UNHORSED),
    "other infantry": (GARRISON, AUXILIARY, ARQUEBUSIER, ARCHER, CREW),
    "infantry": INFANTRY,
    "troops": KINDS,
}

LEFT_WING, LEFT, CENTER, RIGHT, RIGHT_WING, RESERVES = ("left wing", "left", "center", "right", "right wing",
                                                        "reserves")
DIVISIONS: tuple[str, ...] = (LEFT_WING, LEFT, CENTER, RIGHT, RIGHT_WING, RESERVES)
FORWARD: tuple[str, ...] = (LEFT_WING, LEFT, CENTER, RIGHT, RIGHT_WING)
LINE: tuple[str, ...] = (LEFT, CENTER, RIGHT)  # the three the 15% and 20% rules and the cannons name
# Where a remainder goes one by one (RW-OQ-22), and which gap is "nearest the Center" (RW-OQ-26).
REMAINDER_ORDER: tuple[str, ...] = (CENTER, LEFT, RIGHT, RESERVES, LEFT_WING, RIGHT_WING)
# "Those in the Left engage those in the opposing Right and vice-versa" (and the wings likewise).
FACING: dict[str, str] = {LEFT_WING: RIGHT_WING, LEFT: RIGHT, CENTER: CENTER, RIGHT: LEFT, RIGHT_WING: LEFT_WING}

Division = dict[str, int]


def legal_places(kind: str) -> tuple[str, ...]:
    """FIELD BATLE: "Cavalry may be assigned to any division ... Infantry may be assigned to the Left, Center,
    Right or Reserves." Crew, garrison and unmounted heavy cavalry are on foot: infantry."""
    return DIVISIONS if kind in CAVALRY else (LEFT, CENTER, RIGHT, RESERVES)


def new_division() -> Division:
    return dict.fromkeys(KINDS, 0)


def men(div: Division) -> int:
    return sum(div.values())


# Each class's kinds other than crew, and, for a class with crew, the infantry outside it that shields them.
_NOT_CREW: dict[str, tuple[str, ...]] = {c: tuple(k for k in ks if k != CREW) for c, ks in CLASSES.items()}
_SHIELDS: dict[str, tuple[str, ...]] = {c: tuple(k for k in INFANTRY if k != CREW and k not in ks)
                                        for c, ks in CLASSES.items() if CREW in ks}


def _crew_reachable(div: Division, cls: str) -> bool:
    """Crew may be hit through this class only when no infantry outside it stands in the division."""
    shields = _SHIELDS.get(cls)
    return shields is not None and not any(div[k] for k in shields)


def available(div: Division, cls: str) -> int:
    """How many men of a class a schedule can reach in the division now (its ceilings and "needed to eliminate"
    are taken over this)."""
    n = 0
    for k in _NOT_CREW[cls]:
        n += div[k]
    return n + div[CREW] if div[CREW] and _crew_reachable(div, cls) else n


def take(div: Division, n: int, cls: str) -> Division:
    """`n` men of a class lost from the division (the module's docstring gives the order); returns them by kind."""
    kinds = CLASSES[cls]
    lost = dict.fromkeys(KINDS, 0)
    n = min(n, available(div, cls))
    while n > 0:
        if GARRISON in kinds and div[GARRISON]:
            tier = [GARRISON]
        else:
            tier = [k for k in kinds if k not in (GARRISON, CREW) and div[k]]
            if CREW in kinds and div[CREW] and not any(div[k] for k in INFANTRY if k != CREW):
                tier.append(CREW)
        if not tier:
            break
        if len(tier) == 1:  # one kind: no sharing to do
            got = {tier[0]: min(n, div[tier[0]])}
        elif n < sum(div[k] for k in tier):
            got = share(n, {k: div[k] for k in tier})
        else:
            got = {k: div[k] for k in tier}
        for k, q in got.items():
            div[k] -= q
            lost[k] += q
            n -= q
    return {k: q for k, q in lost.items() if q}


def describe(div: Division | dict[str, int]) -> str:
    """"100 pikemen, 20 heavy cavalry" for the reports."""
    parts = [f"{q} {plural(k, q)}" for k, q in div.items() if q]
    return ", ".join(parts) if parts else "nobody"


_PLURALS = {PIKE: "pikemen", ARCHER: "archers", ARQUEBUSIER: "arquebusiers", AUXILIARY: "auxiliaries",
            RIDER: "mounted auxiliaries", "cannon": "cannons", "falconet": "falconets", "horse": "horses",
            "slave": "slaves"}


def plural(kind: str, n: int | F | None = None) -> str:
    return kind if n == 1 else _PLURALS.get(kind, kind)


def count(n: int | F, kind: str) -> str:
    """"1 cannon", "0.9 falconets", "12 pikemen"."""
    x = F(n)
    shown = str(x.numerator) if x.denominator == 1 else f"{float(x):.3f}".rstrip("0").rstrip(".")
    return f"{shown} {plural(kind, n)}"


# ---- a side as the battle moves it ---------------------------------------------------------------------------

ROLE_NAME = {ATTACKER: "the attacker", DEFENDER: "the defender"}


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

    def who(self, pid: str) -> str:
        return next((c.name for c in self.side.contingents if c.persona == pid), pid)

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
