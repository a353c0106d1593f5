"""The arithmetic of CHARACTER ATTACKS, as pure functions: strengths as sums of square roots, title bonuses,
the result number and its five bands, losses, gains and their division among winners.

Every random number is an argument (a `Fraction` from `council.random()`), so a test works the numbers by
hand. Strengths are floats (sums of square roots); attributes, losses and gains are whole numbers, rounded
down (docs/law-of-the-jungle.md, LJ-OQ-02, LJ-OQ-03, LJ-OQ-32, LJ-OQ-33).
"""

from __future__ import annotations

import math
from fractions import Fraction

from .model import Character, Title

#: attack type -> (attributes of the attack strength, attributes of the defence strength), as the TYPES OF
#: ATTACKS sections name them ("The attack strength is based on XP and Wisdom." ...).
STRENGTH_ATTRIBUTES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "duel": (("xp",), ("xp",)),
    "assassinate": (("xp", "wisdom"), ("xp",)),
    "debate": (("wisdom",), ("wisdom",)),
    "discredit": (("wisdom", "fame"), ("wisdom",)),
    "challenge": (("fame",), ("fame",)),
    "overthrow": (("fame", "xp"), ("fame",)),
    "steal": (("wisdom", "xp"), ("fame",)),
    "capture": (("xp", "wisdom", "fame"), ("xp", "wisdom", "fame")),
    "escape": (("xp", "wisdom", "fame"), ("xp", "wisdom", "fame")),
}

#: The combat titles, lowest first, and how much each adds to the holder's strength in attacks of its type
#: ("increased by 25% / 50% / 100% in any future attacks/defenses of that type").
COMBAT_TITLES: tuple[tuple[str, Fraction], ...] = (
    ("Experienced", Fraction(1, 4)), ("Skilled", Fraction(1, 2)), ("Master", Fraction(1)),
)

# The bands of ATTACK RESULTS, as printed (0.33, 0.67, not thirds). Each band holds its upper edge: "greater
# than 1.5" is the last band's own wording, and a result of exactly 1 (all an attacker with no strength at all
# can reach) is the draw, not a success (LJ-OQ-32).
ALL_ATTACKERS_FAIL = "all attackers fail"
PRINCIPAL_ATTACKER_FAILS = "the principal attacker fails"
DRAW = "draw"
PRINCIPAL_DEFENDER_LOSES = "the principal defender loses"
ALL_DEFENDERS_LOSE = "all defenders lose"
BANDS = ((Fraction(33, 100), ALL_ATTACKERS_FAIL), (Fraction(67, 100), PRINCIPAL_ATTACKER_FAILS),
         (Fraction(1), DRAW), (Fraction(3, 2), PRINCIPAL_DEFENDER_LOSES))
ATTACKER_WINS = (PRINCIPAL_DEFENDER_LOSES, ALL_DEFENDERS_LOSE)
DEFENDER_WINS = (ALL_ATTACKERS_FAIL, PRINCIPAL_ATTACKER_FAILS)


def subject(attack_type: str) -> str:
    """The X of "Experienced at Attack Type X": the type as a title reads it ("Duel")."""
    return attack_type.capitalize()


def combat_title(c: Character, attack_type: str) -> str | None:
    """The highest combat title `c` holds for `attack_type` ("Experienced", "Skilled", "Master") or None."""
    held = None
    for kind, _ in COMBAT_TITLES:
        if c.title(kind, subject(attack_type)) is not None:
            held = kind
    return held


def title_bonus(c: Character, attack_type: str) -> Fraction:
    """The share added to `c`'s strength by his combat title for this type (1/4, 1/2, 1 or 0)."""
    held = combat_title(c, attack_type)
    return dict(COMBAT_TITLES).get(held, Fraction(0)) if held else Fraction(0)


def strength(values: list[int], factor: int = 1, bonus: Fraction = Fraction(0)) -> float:
    """One character's strength: sqrt(N1) + sqrt(N2) + ... of his attributes, each multiplied by `factor`
    first (x2 desperate, x2 per Defend: "attributes are doubled"), the title bonus applied to the sum."""
    return sum(math.sqrt(max(0, v) * factor) for v in values) * float(1 + bonus)


def character_strength(c: Character, attack_type: str, attacking: bool, factor: int = 1) -> float:
    """`c`'s own share of a side's strength in an attack of `attack_type`."""
    attrs = STRENGTH_ATTRIBUTES[attack_type][0 if attacking else 1]
    return strength([getattr(c, a) for a in attrs], factor, title_bonus(c, attack_type))


def result_number(rnd: Fraction, attack: float, defence: float, location: float) -> Fraction | None:
    """(Random Number) * (A + D + L) / (D + L), exact from the floats given. None stands for an infinite
    result: D + L = 0 with an attack of some strength (LJ-OQ-33: the formula's limit, a full success). With
    A + D + L = 0 nobody has any strength: the result is 0 of nothing, read as a draw (returned as 1)."""
    a, d, loc = Fraction(attack), Fraction(defence), Fraction(location)
    if d + loc == 0:
        return None if a > 0 else Fraction(1)
    return rnd * (a + d + loc) / (d + loc)


def band(result: Fraction | None) -> str:
    """Which of the five results of ATTACK RESULTS a result number gives (None: infinite)."""
    if result is None:
        return ALL_DEFENDERS_LOSE
    for top, name in BANDS:
        if result <= top:
            return name
    return ALL_DEFENDERS_LOSE


def loss(rnd: Fraction, value: int) -> int:
    """"(Random Number)*(XP)*(1.5)", rounded down, and "A character cannot lose more ... than they started
    with"."""
    return min(max(0, value), math.floor(rnd * max(0, value) * Fraction(3, 2)))


def gain(rnd: Fraction, enemy_lost: int, rnd_if_attacker_wins: Fraction | None = None) -> int:
    """"(Random Number)*(Enemy X Lost)[*(Random Number if Attacker Wins)], rounded down": the winning side's
    whole gain before it is divided. `rnd_if_attacker_wins` is the second draw, given only when it applies."""
    value = rnd * enemy_lost
    if rnd_if_attacker_wins is not None:
        value *= rnd_if_attacker_wins
    return math.floor(value)


def split_by_strength(total: int, strengths: list[float]) -> list[int]:
    """`total` whole points "divided among winners according to combat strength" (LJ-OQ-03): each winner gets
    the whole part of his share total * s / sum(s); the points left go one each to the largest fractional
    parts, ties to the earlier winner (the principal comes first). All strengths 0: shares are equal."""
    if not strengths:
        return []
    exact = [Fraction(s) for s in strengths]
    whole = sum(exact)
    if whole == 0:
        exact, whole = [Fraction(1)] * len(strengths), Fraction(len(strengths))
    shares = [total * s / whole for s in exact]
    parts = [math.floor(s) for s in shares]
    left = total - sum(parts)
    order = sorted(range(len(shares)), key=lambda i: (-(shares[i] - parts[i]), i))
    for i in order[:left]:
        parts[i] += 1
    return parts


def halved(value: int) -> int:
    """A desperate attacker's attribute after the attack: "decreased by half", the decrease rounded down
    (LJ-OQ-36), so an attribute of 1 stays 1."""
    return value - value // 2


def earned_title(attack: float, defence: float, defenders_skilled: bool) -> str:
    """The title a winning attacker earns: "Master" against a defender holding Skilled (or Master) at the type,
    "Skilled" when the defence strength was greater than the attack strength (the sides' totals as they met,
    without the location), otherwise "Experienced"."""
    if defenders_skilled:
        return "Master"
    if defence > attack:
        return "Skilled"
    return "Experienced"


def raise_title(c: Character, attack_type: str, kind: str) -> bool:
    """Give `c` the combat title `kind` for the type, replacing a lower one; a win never lowers a title.
    Returns whether his title changed."""
    ranks = [k for k, _ in COMBAT_TITLES]
    held = combat_title(c, attack_type)
    if held is not None and ranks.index(held) >= ranks.index(kind):
        return False
    for k in ranks:
        c.drop_title(k, subject(attack_type))
    c.titles.append(Title(kind, subject(attack_type)))
    return True
