"""The character chart and the mail of a session part: each house's printout, the newsletter, the welcome.

Contexts for the templates (templates/jungle/*.j2): lists of ``{"title": ..., "lines": [...]}`` sections, built
in one pass over the reports and the characters, so rendering stays linear in the size of the game.
"""

from __future__ import annotations

from typing import Any

from .council import Report
from .model import Character, World, key

PART_TITLES = {"morning": "Morning", "afternoon": "Afternoon", "evening": "Evening"}
ATTRIBUTE_WORDS = (("xp", "XP"), ("fame", "Fame"), ("wisdom", "Wisdom"), ("craft", "Craftsmanship"))


def where(c: Character) -> str:
    """Where a character is, in words: his hex and city, or his unit."""
    if c.unit:
        return f"in unit {c.unit}" + (f" near {c.city}" if c.city else "")
    if c.hex and c.city:
        return f"on {c.hex} in {c.city}"
    if c.city:
        return f"in {c.city}"
    return "nowhere yet"


def titles(c: Character) -> str:
    return ", ".join(t.label() for t in c.titles) or "none"


def attributes(c: Character) -> str:
    return ", ".join(f"{word} {getattr(c, attr)}" for attr, word in ATTRIBUTE_WORDS)


def character_lines(world: World, c: Character) -> list[str]:
    """One character of a house's chart: attributes, titles with their N, role, where, unit, actions used."""
    acted = world.settings.get("acted", {}).get(c.name, 0)
    lines = [f"{c.name}: {c.role}, {attributes(c)}", f"  lives {where(c)}; titles: {titles(c)}"]
    if world.kicked_off:  # the sign-up period's purchases are no council actions
        lines.append(f"  actions used this session: {acted} of 2")
    if c.beakers or c.hammers or c.defend:
        lines.append(f"  this session: {c.beakers} beakers, {c.hammers} hammers, defending x{2 ** c.defend}")
    return lines


def by_house(world: World) -> dict[str, list[Character]]:
    """Every character (living or dead) by house, in one pass: for charts of every house at once."""
    out: dict[str, list[Character]] = {}
    for c in world.characters.values():
        out.setdefault(c.house, []).append(c)
    return out


def house_chart(world: World, house: str, characters: list[Character] | None = None) -> list[str]:
    """The chart of a house: its stores, then each living character (by Fame, then name). `characters`: the
    house's characters if the caller has them (`by_house`)."""
    h = world.houses.get(house)
    mine = characters if characters is not None else [c for c in world.characters.values() if c.house == house]
    lines = [f"House of {house}: food {h.food if h else 0}, gold {h.gold if h else 0}"]
    for c in sorted((c for c in mine if c.alive), key=lambda c: (-c.fame, key(c.name))):
        lines += character_lines(world, c)
    dead = sorted(c.name for c in mine if not c.alive)
    if dead:
        lines.append(f"Dead: {', '.join(dead)}")
    return lines


def public_chart(world: World) -> list[str]:
    """Every living character: name, house, role, Fame and titles, by Fame (highest first), then name."""
    ranked = sorted(world.living(), key=lambda c: (-c.fame, key(c.name)))
    return [f"{i}. {c.name} (house of {c.house}), {c.role}, Fame {c.fame}; {titles(c)}"
            for i, c in enumerate(ranked, start=1)] or ["(no characters yet)"]


def report_lines(reports: list[Report]) -> dict[str | None, dict[str, list[str]]]:
    """The reports by house (None: the newsletter), then by part, in the order told: one pass."""
    out: dict[str | None, dict[str, list[str]]] = {}
    for r in reports:
        out.setdefault(r.house, {}).setdefault(r.part, []).append(r.text)
    return out


def session_name(world: World, session: int) -> str:
    """How a session is named in the mail: the sign-up sessions, then the councils T0, T1, ..."""
    first = int(world.settings.get("council_from", 0))
    if not first or session < first:
        return f"session {session} (sign-up)"
    return f"session {session} (council of T{session - first})"


def printouts(world: World, houses: list[str], reports: list[Report], session: int, parts: tuple[str, ...]
              ) -> dict[str, dict[str, Any]]:
    """Every house's printout for one phase: what its actions did, part by part, and its chart."""
    told = report_lines(reports)
    characters = by_house(world)
    return {h: printout(world, h, told.get(h, {}), session, parts, characters.get(h, [])) for h in houses}


def printout(world: World, house: str, told: dict[str, list[str]], session: int, parts: tuple[str, ...],
             characters: list[Character] | None = None) -> dict[str, Any]:
    """A house's printout for one phase from what it was told, by part (`report_lines`), and its chart."""
    sections = [{"title": f"{PART_TITLES[p]} of {session_name(world, session)}",
                 "lines": told.get(p) or ["Nothing for your house."]} for p in parts]
    sections.append({"title": "Your house", "lines": house_chart(world, house, characters)})
    return {"sections": sections, "session": session}


def newsletter(world: World, reports: list[Report], session: int, parts: tuple[str, ...]) -> dict[str, Any]:
    """The newsletter of one phase: the festival, the council report of each part, the public chart."""
    by_part = report_lines(reports).get(None, {})
    if not world.festival:
        festival = "No festival is held yet: the first is drawn at the kick-off."
    elif "evening" in parts:
        festival = f"The next council session, {session_name(world, session + 1)}, is held during the festival of " \
                   f"{world.festival}."
    else:
        festival = f"This council session, {session_name(world, session)}, is held during the festival of " \
                   f"{world.festival}."
    sections = [{"title": "Festival", "lines": [festival]}]
    sections += [{"title": f"Council report: {PART_TITLES[p]} of {session_name(world, session)}",
                  "lines": by_part.get(p) or ["Nothing to report."]} for p in parts]
    sections.append({"title": "The chart", "lines": public_chart(world)})
    return {"sections": sections, "session": session}
