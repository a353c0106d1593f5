"""The feudal rank values (THE HIERARCHIES, the table the reader's notes restore) and the Islamic retreat values, in
one place, and the retreat point they set (MORALE).

MORALE: "Retreat occurs at the first opportunity after the total of morale + feudal rank value of the persona + 10%
of his popularity come to less than 400." THE ISLAMIC HIERARCHY: "Emirs have a retreat value of 140. Beys and khans
have the same characteristics as emirs. Sultans have a retreat value of 200. Shahs have the same characteristics as
sultans."

The values are the one rank table of the game, rules/renaissance/ranks.py (feudal elevation reads it too); this module
holds only what war makes of them.
"""

from __future__ import annotations

from typing import Any

from ..ranks import feudal_value, rank_value

RETREAT_POINT = 400

__all__ = ["RETREAT_POINT", "below_retreat_point", "outranks", "rank_value", "retreat_value", "retreats"]


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
    """Is `a` "higher ranking in the feudal hierarchy" than `b` (DUELING)? By feudal rank value alone: an Islamic
    title is no rank of the feudal hierarchy (RH-OQ-12, docs/renaissance/hierarchies.md)."""
    return feudal_value(a) > feudal_value(b)
