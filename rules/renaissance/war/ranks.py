"""The feudal rank values (THE HIERARCHIES, the table the reader's notes restore) and the Islamic retreat values, in
one place, and the retreat point they set (MORALE).

MORALE: "Retreat occurs at the first opportunity after the total of morale + feudal rank value of the persona + 10%
of his popularity come to less than 400." THE ISLAMIC HIERARCHY: "Emirs have a retreat value of 140. Beys and khans
have the same characteristics as emirs. Sultans have a retreat value of 200. Shahs have the same characteristics as
sultans."

A persona's rank is the word in his `rank` (the state's key since part 1; "none" for no title). Plurals, case and
the rules' spellings are accepted; an unknown word counts 0, like a bourgeois.
"""

from __future__ import annotations

from typing import Any

RETREAT_POINT = 400

# THE HIERARCHIES: feudal rank value by rank word.
FEUDAL_RANK_VALUES: dict[str, int] = {
    "hre": 200, "holy roman emperor": 200, "emperor": 200, "pope": 200,
    "king": 180,
    "grand duke": 160, "sovereign prince": 160, "sovereign duke": 160, "archduke": 160,
    "duke": 140, "prince": 140,
    "marquis": 120, "marquess": 120, "markgraf": 120,
    "count": 100, "earl": 100, "graf": 100,
    "viscount": 80,
    "baron": 60,
    "baronet": 40, "chevalier": 40,
    "knight": 20,
    "bourgeois": 0, "burger": 0, "none": 0,
}

# THE ISLAMIC HIERARCHY: the retreat value of the Islamic ranks, which stands for the feudal rank value.
ISLAMIC_RETREAT_VALUES: dict[str, int] = {"emir": 140, "bey": 140, "khan": 140, "sultan": 200, "shah": 200}


def _word(rank: Any) -> str:
    return " ".join(str(rank or "none").lower().replace("_", " ").replace(".", " ").split())


def rank_value(persona: dict[str, Any]) -> int:
    """The feudal rank value of his rank, or the Islamic retreat value of an emir, bey, khan, sultan or shah."""
    word = _word(persona.get("rank"))
    if word in ISLAMIC_RETREAT_VALUES:
        return ISLAMIC_RETREAT_VALUES[word]
    return FEUDAL_RANK_VALUES.get(word, 0)


def retreat_value(persona: dict[str, Any] | None) -> int:
    """Rank value + 10% of popularity, the fraction dropped (a gain, war/arith.py). A force with no persona (a
    garrison alone, a tower garrison) has none."""
    if persona is None:
        return 0
    return rank_value(persona) + int(persona.get("popularity", 0)) // 10


def below_retreat_point(morale: int, value: int) -> int:
    """How far below the retreat point a side stands (0 or less: it holds)."""
    return RETREAT_POINT - (morale + value)


def retreats(morale: int, value: int) -> bool:
    return below_retreat_point(morale, value) > 0


def outranks(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Is `a` higher in the feudal hierarchy than `b` (DUELING)? By rank value."""
    return rank_value(a) > rank_value(b)
