"""MORALE: one rating per persona for all his troops and crew, how it combines, how a battle moves it, and what
multiplies it when casualties are inflicted.

MORALE: "When troops and/or crew of differing morale are combined, the resulting morale is arrived at through the
use of a weighted average. When a persona controls neither troops, nor crew, his morale rating is zero."
"During battle, morale is modified for each side at the end of each stage. Casualties inflicted are deducted from
a number equal to twice the casualties suffered. If this number is negative, the square root of its absolute value
is added to morale. If it is positive, its square root is subtracted from morale."

The orders that raise morale (bonuses, alcohol) and the Shia/Sunni bonus city are raising.py's handlers; the
sermon is works.sermon (part 1). Rounding: war/arith.py (a fall rounded up, a rise down).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from ..grandmasters import is_grandmaster
from ..items import TROOPS
from .arith import isqrt_up

Persona = dict[str, Any]
MAX_RATING = 999

# The men whose morale the persona's rating is: "troops and/or crew". Slaves have none.
MORALE_MEN: tuple[str, ...] = (*TROOPS, "crew")
ISLAM = frozenset({"shia", "sunni"})


def troops(assets: dict[str, Any]) -> int:
    """Troops held: the six troop types (crew are not troops; garrisons are no one's assets)."""
    return sum(max(0, int(assets.get(t, 0))) for t in TROOPS)


def men(assets: dict[str, Any]) -> int:
    """Troops and crew held: the men a persona's morale belongs to."""
    return sum(max(0, int(assets.get(t, 0))) for t in MORALE_MEN)


def combine(parts: Iterable[tuple[int, int]]) -> int:
    """The weighted average of (men, morale) pairs, fractions dropped; zero when there are no men."""
    pairs = [(n, m) for n, m in parts if n > 0]
    total = sum(n for n, _ in pairs)
    if total == 0:
        return 0
    return min(MAX_RATING, sum(n * m for n, m in pairs) // total)


def receive(persona: Persona, count: int, morale: int) -> int:
    """`count` men of morale `morale` join the persona's troops and crew (call this BEFORE adding them to his
    assets): his morale becomes the weighted average. Returns the new morale."""
    held = men(persona.get("assets") or {})
    persona["morale"] = combine([(held, int(persona.get("morale", 0))), (count, morale)])
    return persona["morale"]


def settle(persona: Persona) -> None:
    """"When a persona controls neither troops, nor crew, his morale rating is zero": called after losses."""
    if men(persona.get("assets") or {}) == 0:
        persona["morale"] = 0


def stage_change(inflicted: int, suffered: int) -> int:
    """The end-of-stage change: 2 x suffered - inflicted; a positive number's root is subtracted (rounded up), a
    negative number's root added (rounded down). 100 suffered, 120 inflicted: 80, -9 (√80 = 8.94 up)."""
    x = 2 * suffered - inflicted
    if x > 0:
        return -isqrt_up(x)
    return math.isqrt(-x)


def apply_change(morale: int, change: int) -> int:
    """Morale after a change, within the ratings' 0..999 (THE PERSONAE FAMILIES)."""
    return max(0, min(MAX_RATING, morale + change))


# ---- multipliers where morale inflicts casualties (RW-OQ-14: they multiply, wherever M inflicts) --------------

def islamic_sovereign_bonus(state: dict[str, Any], persona: Persona) -> bool:
    """MORALE: a Shia or Sunni sovereign with a "bonus city" on file, who is sovereign over that location."""
    if str(persona.get("religion", "")).lower() not in ISLAM:
        return False
    city = state["locations"].get(persona.get("bonus_city") or "")
    return city is not None and (city.get("offices") or {}).get("sovereign") == persona.get("id")


def inflict_factor(state: dict[str, Any], persona: Persona | None, enemy: Persona | None,
                   same_division_as_commander: bool = False) -> Fraction:
    """The factor on M for the troops of `persona` fighting `enemy`:
    - a Shia/Sunni sovereign's troops (with his bonus city) x2, those in his own division x3 instead;
    - a grandmaster's troops fighting a Shia or Sunni persona x2 (MILITARY ORDERS, RH-OQ-35: the grandmaster of
      a military order as the state records him, grandmasters.is_grandmaster).
    Flanking (x2) is the battle engine's, on top of this."""
    if persona is None:
        return Fraction(1)
    factor = Fraction(1)
    if islamic_sovereign_bonus(state, persona):
        factor *= 3 if same_division_as_commander else 2
    moslem_enemy = enemy is not None and str(enemy.get("religion", "")).lower() in ISLAM
    if moslem_enemy and is_grandmaster(state, persona.get("id")):
        factor *= 2
    return factor


# ---- the Confucian halving (MORALE) ---------------------------------------------------------------------------

def confucian_battle(persona: Persona | None, location: dict[str, Any] | None) -> bool:
    """"Troops attached to a Confucian persona have their morale reduced by 50% (with the result rounded down) at
    the start of any battle fought in a location not initially set up as having the Emperor of China as sovereign
    (... belonging to the archiepiscopal see of Canton.) Their morale is doubled at the end of such battles." At
    sea there is no such location, so the halving applies there too."""
    if persona is None or str(persona.get("religion", "")).lower() != "confucian":
        return False
    return location is None or str(location.get("see") or "").lower() != "canton"


def halved(morale: int) -> int:
    """A morale "reduced by 50%": the half rounded down, as the Confucian halving says ("with the result rounded
    down"). The one halving of a morale rating: the Confucian battle's and apostasy's (apostasy.py, RH-OQ-40 and
    RH-OQ-41; RW-OQ-18)."""
    return morale // 2


def confucian_start(morale: int) -> int:
    return halved(morale)


def confucian_end(morale: int) -> int:
    return min(MAX_RATING, morale * 2)
