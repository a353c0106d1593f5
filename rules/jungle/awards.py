"""Titles with a value (N) earned from the empire's deeds: Inventor, Builder, Minister, Conqueror, Hero and
Destroyer (CHARACTER TITLES), and the rules' formulas for the N of the three city titles.

The GM's update (maild_rules.jungle.update) and the policy draw (maild_rules.jungle.policies) award them;
the per-session bonus each gives is paid by maild_rules.jungle.incomes.
"""

from __future__ import annotations

from .model import Character, Title


def award(character: Character, kind: str, subject: str, n: int) -> Title:
    """Give `character` the title `kind` of `subject` with value `n`. The same title earned again (a second
    Monument built, a city conquered a second time) adds `n` to the N it has, as a Priest's sacrifices add up
    ("Priest of God X (N1 + N2)"): one title per kind and subject, its N the sum (docs: LJ-OQ-46)."""
    title = character.title(kind, subject)
    if title is None:
        title = Title(kind, subject, n)
        character.titles.append(title)
    else:
        title.n = (title.n or 0) + n
    return title


def conqueror_n(citizens_after: int) -> int:
    """CONQUEROR OF CITY X (N): "The number of citizens in the city AFTER it is captured"."""
    return citizens_after


def hero_n(citizens_before: int, previously_aztec: bool, founded_by_aztecs: bool) -> int:
    """HERO OF CITY X (N): the citizens before the capture, times 2 if the Aztecs controlled the city before,
    times 3 (not 2 x 3) if they founded it (LJ-OQ-46)."""
    return citizens_before * _factor(previously_aztec, founded_by_aztecs)


def destroyer_n(citizens_before: int, previously_aztec: bool, founded_by_aztecs: bool) -> int:
    """DESTROYER OF CITY X (N): the citizens before the capture x 2, a half of that if the Aztecs controlled
    the city before, a third if they founded it, rounded down (LJ-OQ-46)."""
    return citizens_before * 2 // _factor(previously_aztec, founded_by_aztecs)


def _factor(previously_aztec: bool, founded_by_aztecs: bool) -> int:
    # A city the Aztecs founded was controlled by them too: the founding's factor is the stronger form of
    # the same condition, not a second one multiplied in.
    if founded_by_aztecs:
        return 3
    return 2 if previously_aztec else 1
