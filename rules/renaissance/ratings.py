"""Ratings and skills: every change to popularity, piety, morale or a skill goes through these, within 0..999.

Like context.py, this module imports no rule module, so that every rule module may import it.
"""

from __future__ import annotations

from .context import Persona


def clamp_rating(value: float) -> int:
    """No rating may ever exceed 999, or decline below 0 (THE PERSONAE FAMILIES)."""
    return max(0, min(999, int(value)))


def add_rating(persona: Persona, key: str, delta: float) -> int:
    """Change a rating (popularity, piety, morale) within 0..999; returns the change actually made. Fractions
    are dropped after the sum (a rating is a whole number)."""
    old = persona.get(key, 0)
    persona[key] = clamp_rating(old + delta)
    return persona[key] - old


def add_skill(persona: Persona, skill: str, delta: float) -> int:
    """Like add_rating, for a skill in persona["skills"]."""
    skills = persona.setdefault("skills", {})
    old = skills.get(skill, 0)
    skills[skill] = clamp_rating(old + delta)
    return skills[skill] - old


def spend_popularity(persona: Persona, points: int) -> bool:
    """POPULARITY: "A persona may not commit an action that would drive his popularity rating below zero. Any
    attempt to do so would fail." Returns False (and changes nothing) when he cannot afford it."""
    if points > persona.get("popularity", 0):
        return False
    persona["popularity"] -= points
    return True


def gain_piety(persona: Persona, points: float) -> int:
    """Piety rises, and popularity with it "by 10% of the increase in perceived piety" (POPULARITY), rounded
    down; returns the piety actually gained (a rating stops at 999)."""
    gained = add_rating(persona, "piety", points)
    if gained > 0:
        add_rating(persona, "popularity", gained // 10)
    return gained
