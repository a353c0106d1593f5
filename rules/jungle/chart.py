"""The character chart and the mail of a session part: each house's printout, the newsletter, the welcome.

Contexts for the templates (templates/jungle/*.j2): lists of ``{"title": ..., "lines": [...]}`` sections, built
in one pass over the reports and the characters, so rendering stays linear in the size of the game.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import islice
from typing import Any

from .captains import captained, word_limit
from .cities import spending_limit, spent
from .council import Report
from .model import Character, Unit, World, key
from .places import UNIT_REACH, hex_distance, unit_in_city

PART_TITLES = {"morning": "Morning", "afternoon": "Afternoon", "evening": "Evening"}
ATTRIBUTE_WORDS = (("xp", "XP"), ("fame", "Fame"), ("wisdom", "Wisdom"), ("craft", "Craftsmanship"))
#: A section's lines are printed indented by 2 (templates/sections.txt.j2): prose within 78 columns.
WIDTH = 76
#: At most this many names in a character's "same place" list; the chart says where everyone else is.
PLACE_NAMES = 40


def wrap(lines: list[str], width: int = WIDTH) -> list[str]:
    """Each line cut at spaces into lines of at most `width` (a word longer than that stays whole), the
    continuation indented 4 more than the line: for terminal mail programs. Runs of blanks between words
    become one."""
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        out.extend(_wrapped(line, width))
    return out


@lru_cache(maxsize=1024)
def _wrapped(line: str, width: int) -> tuple[str, ...]:
    """One long line wrapped; remembered, as every printout of a phase has the same lines of what the actions
    choose from. Cut by looking for the last blank that fits, not word by word: a session's mail is megabytes."""
    lead = line[:len(line) - len(line.lstrip())]
    piece, rest = _fitting(" ".join(line.split()), width - len(lead))
    out = [lead + piece]
    while rest:
        piece, rest = _fitting(rest, width - len(lead) - 4)
        out.append(f"{lead}    {piece}")
    return tuple(out)


def _fitting(words: str, room: int) -> tuple[str, str]:
    """The most of `words` (one blank between each) that fits in `room` columns, at least one word; and the rest."""
    if len(words) <= room:
        return words, ""
    cut = words.rfind(" ", 0, room + 1) if room >= 1 else -1
    if cut <= 0:
        cut = words.find(" ")
        if cut < 0:
            return words, ""
    return words[:cut], words[cut + 1:]


def sections(*parts: dict[str, Any]) -> list[dict[str, Any]]:
    """Sections with their lines wrapped."""
    return [{"title": p["title"], "lines": wrap(p["lines"])} for p in parts]


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


def character_lines(world: World, c: Character, told: str = "") -> list[str]:
    """One character of a house's chart: attributes, titles with their N, role, where, unit, actions used,
    what he commands or may spend."""
    acted = world.settings.get("acted", {}).get(c.name, 0)
    # Every line names him: two characters' lines must not read the same (a list names each thing once).
    lines = [f"{c.name}: {c.role}, {attributes(c)}", f"  {c.name} lives {where(c)}; titles: {titles(c)}"]
    if world.kicked_off:  # the sign-up period's purchases are no council actions
        lines.append(f"  {c.name} has used {acted} of his 2 actions this session")
    if c.beakers or c.hammers or c.defend:
        lines.append(f"  {c.name} this session: {c.beakers} beakers, {c.hammers} hammers, defending "
                     f"x{2 ** c.defend}")
    for unit in captained(world, c.name):
        lines.append(f"  Captain of {unit.name}: {unit_words(unit)}; his orders may have {word_limit(unit, False)} "
                     f"words ({word_limit(unit, True)} with both actions); standing orders: "
                     f"{standing_orders(unit, told)}")
    for city in world.cities.values():
        if city.tlatoani == c.name:
            lines.append(f"  Tlatoani of {city.name}: may Spend up to {spending_limit(world, city)} gold of the "
                         f"empire's this session ({spent(world, city, world.session + 1)} spent)")
    return lines


def unit_words(unit: Unit) -> str:
    """A unit as the chart shows it: kind, level, health, where."""
    level = "no level" if unit.level is None else f"level {unit.level}"
    at = f" at {unit.city}" if unit.city else ""
    return f"{unit.kind}, {level}, health {unit.health}{at}"


def standing_orders(unit: Unit, told: str = "") -> str:
    """A unit's standing orders; "those given above" when the printout's report (`told`) has just said them."""
    if unit.fortify:
        return "fortify (the last orders were over the word limit)"
    if unit.orders and " ".join(unit.orders.split()) in told:
        return "those given above"
    return unit.orders or "none"


class Places:
    """Who is in the same location as whom (LOCATIONS, `places.same_location`), worked out per place (a city,
    a unit) rather than per pair of characters, so the charts of a game of thousands stay linear."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.members: dict[tuple[str, str], list[str]] = {}
        for c in sorted(world.living(), key=lambda c: key(c.name)):
            place = self.place(c)
            if place is not None:
                self.members.setdefault(place, []).append(c.name)
        self._linked: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self._around_place: dict[tuple[str, str], tuple[list[str], set[str]]] = {}  # see _around

    def place(self, c: Character) -> tuple[str, str] | None:
        if c.unit is not None:
            unit = self.world.unit(c.unit)
            return ("unit", unit.name) if unit is not None else None
        city = self.world.city(c.city)
        return ("city", city.name) if city is not None else None

    def linked(self, place: tuple[str, str]) -> list[tuple[str, str]]:
        """The places whose characters count as in the same location as those of `place`."""
        if place not in self._linked:
            kind, name = place
            units = self.world.units.values()
            if kind == "city":
                city = self.world.cities[name]
                out = [place, *(("unit", u.name) for u in units if unit_in_city(u, city))]
            else:
                unit = self.world.units[name]
                near = [("unit", u.name) for u in units if u is unit or (
                    u.position is not None and unit.position is not None
                    and hex_distance(u.position, unit.position) <= UNIT_REACH)]
                out = near + [("city", c.name) for c in self.world.cities.values() if unit_in_city(unit, c)]
            self._linked[place] = out
        return self._linked[place]

    def together(self, characters: list[Character]) -> list[str]:
        """For a house's characters, one line per place they stand in: who else is in the same location
        (whom they may attack or give to), at most PLACE_NAMES names; the chart says where everyone is."""
        groups: dict[tuple[str, str], list[Character]] = {}
        for c in characters:
            place = self.place(c)
            if place is not None:
                groups.setdefault(place, []).append(c)
        lines = []
        for (_, name), group in sorted(groups.items(), key=lambda kv: key(kv[0][1])):
            ours = {c.name for c in group}
            # The first names of the place's list, not the whole list: a city holds a share of every character.
            everyone, present = self._around(group[0])
            shown = list(islice((n for n in everyone if n not in ours), PLACE_NAMES))
            count = len(everyone) - len(ours & present)
            more = f" and {count - len(shown)} more (the chart says where)" if count > len(shown) else ""
            who = " and ".join(sorted(ours, key=key))
            lines.append(f"With {who} in {name} (whom they may attack or give to): "
                         f"{', '.join(shown) or 'nobody'}{more}")
        return lines

    def nearby(self, c: Character) -> list[str]:
        """The living characters in the same location as `c`, by name."""
        return [n for n in self._around(c)[0] if n != c.name]

    def _around(self, c: Character) -> tuple[list[str], set[str]]:
        """The living characters in the same location as `c`, him included: by name, and as a set. Made once a
        place, not once a house's character there."""
        place = self.place(c)
        if place is None:
            return [], set()
        if place not in self._around_place:
            names = {n for p in self.linked(place) for n in self.members.get(p, [])}
            self._around_place[place] = (sorted(names, key=key), names)
        return self._around_place[place]


def by_house(world: World) -> dict[str, list[Character]]:
    """Every character (living or dead) by house, in one pass: for charts of every house at once."""
    out: dict[str, list[Character]] = {}
    for c in world.characters.values():
        out.setdefault(c.house, []).append(c)
    return out


def house_chart(world: World, house: str, characters: list[Character] | None = None,
                places: Places | None = None, told: str = "") -> list[str]:
    """The chart of a house: its stores, then each living character (by Fame, then name). `characters`: the
    house's characters if the caller has them (`by_house`); `places`: who is where, if the caller has it."""
    h = world.houses.get(house)
    mine = characters if characters is not None else [c for c in world.characters.values() if c.house == house]
    places = places or Places(world)
    lines = [f"House of {house}: food {h.food if h else 0}, gold {h.gold if h else 0}"]
    living = sorted((c for c in mine if c.alive), key=lambda c: (-c.fame, key(c.name)))
    for c in living:
        lines += character_lines(world, c, told)
    lines += places.together(living)
    dead = sorted(c.name for c in mine if not c.alive)
    if dead:
        lines.append(f"Dead: {', '.join(dead)}")
    return lines


def public_chart(world: World) -> list[str]:
    """The character chart every player reads: every living character, his house, role, attributes, where he
    is and his titles, by Fame (highest first: the Morning's order), then name."""
    ranked = sorted(world.living(), key=lambda c: (-c.fame, key(c.name)))
    return [f"{i}. {c.name} (house of {c.house}), {c.role}, {attributes(c)}; {where(c)}; titles: {titles(c)}"
            for i, c in enumerate(ranked, start=1)] or ["(no characters yet)"]


def named(items: dict[str, int]) -> str:
    return ", ".join(f"{n} ({v})" for n, v in sorted(items.items(), key=lambda kv: key(kv[0]))) or "none"


def choices(world: World) -> list[str]:
    """What actions choose from, empire-wide: technologies to Research, policies to Support (with their era),
    the technologies known."""
    empire = world.empire
    lines = [f"Research (era): {named(empire.technologies)}",
             f"Support Policy (era): {named(empire.policies)}"
             + ("; a policy is due to be adopted" if empire.policy_due else ""),
             f"Discovered: {', '.join(sorted(empire.known, key=key)) or 'none'}",
             f"The empire's treasury: {empire.treasury} gold"]
    return lines


def world_lines(world: World) -> list[str]:
    """The map as the GM's game has it: each city with what it may Produce and its workable hexes (output and
    whose land), then each unit."""
    lines: list[str] = []
    for city in sorted(world.cities.values(), key=lambda c: key(c.name)):
        ruler = "a puppet city" if city.puppet else f"Tlatoani {city.tlatoani or 'none'}"
        citizens = f"{city.citizens} citizen{'' if city.citizens == 1 else 's'}"
        lines.append(f"{city.name}: {ruler}, {citizens}, strength {city.strength}, happiness "
                     f"{city.happiness}; Produce (cost): {named(city.builds)}")
        for hx in sorted(city.hexes.values(), key=lambda h: key(h.name)):
            owner = f"{city.tlatoani or 'nobody'}'s (the city hex)" if hx.name == city.centre else \
                f"{hx.citizen}'s land" if hx.citizen else "nobody's land"
            # The city in each hex's line: two cities may have hexes of one name, and no two lines are alike.
            lines.append(f"  hex {hx.name} ({city.name}): food {hx.food}, hammers {hx.hammers}, beakers "
                         f"{hx.beakers}, gold {hx.gold}; {owner}")
    for unit in sorted(world.units.values(), key=lambda u: key(u.name)):
        lines.append(f"Unit {unit.name}: {unit_words(unit)}, melee {unit.melee}; Captain "
                     f"{unit.captain or 'none (the GM commands it)'}; orders up to {word_limit(unit, False)} words")
    return lines or ["(no cities or units yet)"]


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
    places = Places(world)
    menu = Menu(world)
    return {h: printout(world, h, told.get(h, {}), session, parts, characters.get(h, []), places, menu)
            for h in houses}


class Menu:
    """What a house's actions choose from (`choices`, and what each city may Produce): the same lines in every
    printout of a phase, made once a phase rather than once a house."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.empire = choices(world)[:2]
        self._produce: dict[str, str] = {}

    def lines(self, cities: list[str]) -> list[str]:
        for n in cities:
            if n not in self._produce:
                self._produce[n] = f"Produce in {n} (cost): {named(self.world.cities[n].builds)}"
        return [*self.empire, *(self._produce[n] for n in cities),
                "The newsletter lists the cities, hexes and units, and where every character is."]


def printout(world: World, house: str, told: dict[str, list[str]], session: int, parts: tuple[str, ...],
             characters: list[Character] | None = None, places: Places | None = None,
             menu: Menu | None = None) -> dict[str, Any]:
    """A house's printout for one phase from what it was told, by part (`report_lines`), its chart, and what
    its characters' actions choose from (the newsletter has the map and every character)."""
    told_parts = [{"title": f"{PART_TITLES[p]} of {session_name(world, session)}",
                   "lines": told.get(p) or ["Nothing for your house."]} for p in parts]
    mine = characters if characters is not None else world.members(house)
    cities = sorted({c.city for c in mine if c.alive and c.city and c.city in world.cities}, key=key)
    return {"sections": sections(
        *told_parts,
        {"title": "Your house", "lines": house_chart(world, house, characters, places,
                                                    " ".join(" ".join(told.get(p, [])) for p in parts))},
        {"title": "What your actions choose from", "lines": (menu or Menu(world)).lines(cities)}),
        "session": session}


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
    told = [{"title": f"Council report: {PART_TITLES[p]} of {session_name(world, session)}",
             "lines": by_part.get(p) or ["Nothing to report."]} for p in parts]
    return {"sections": sections(
        {"title": "Festival", "lines": [festival]}, *told,
        {"title": "The chart", "lines": public_chart(world)},
        {"title": "The empire", "lines": choices(world)},
        {"title": "Cities, hexes and units", "lines": world_lines(world)}), "session": session}
