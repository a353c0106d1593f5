"""Who holds which office of a location (THE LOCATIONS): the lookups every rule about offices shares.

An office holds a persona id ("0101"), the name of a non-player ruler ("Ludovico Sforza"), or null. Only a
persona id can ever match a persona; a non-player name is printed but never gives orders.
"""

from __future__ import annotations

from typing import Any

from .grandmasters import holds_office

State = dict[str, Any]
Location = dict[str, Any]

OFFICES: tuple[str, ...] = ("sovereign", "feudatory", "tenant", "magistrate", "bishop", "archbishop", "dfc")

# The letters of magistrate_selection that name an appointing office (MAGISTRATES); "e" is election.
SELECTION_OFFICE: dict[str, str] = {"s": "sovereign", "f": "feudatory", "t": "tenant", "b": "bishop",
                                    "a": "archbishop"}
SELECTION_METHODS: tuple[str, ...] = ("e", *SELECTION_OFFICE)

# How the printout words each office; "dfc" is printed only when it has passed from the tenancy.
OFFICE_TITLES = {"sovereign": "sovereign", "feudatory": "feudatory", "tenant": "tenant", "magistrate": "magistrate",
          "bishop": "bishop", "archbishop": "archbishop", "dfc": "de facto controller"}


def holder(location: Location, office: str) -> str | None:
    """Whoever holds the office: persona id, non-player name, or None."""
    return (location.get("offices") or {}).get(office)


def dfc(location: Location) -> str | None:
    """DE FACTO CONTROL: it "normally rests with the tenancy"; a separate dfc is recorded only when it has
    passed from the tenancy."""
    return holder(location, "dfc") or holder(location, "tenant")


def archbishop(state: State, location: Location) -> str | None:
    """The location's archbishop: its own office if set, else the archbishop of the see it belongs to."""
    own = holder(location, "archbishop")
    if own:
        return own
    see = state["locations"].get(location.get("see") or "")
    return holder(see, "archbishop") if see is not None and see is not location else None


def holds(state: State, location: Location, office: str, pid: str) -> bool:
    """Does persona `pid` hold `office` at the location? "dfc" means the de facto controller as the rules
    define him (the tenant unless control has passed), "archbishop" includes the see's archbishop."""
    if office == "dfc":
        return dfc(location) == pid
    if office == "archbishop":
        return archbishop(state, location) == pid
    return holder(location, office) == pid


def set_office(location: Location, office: str, who: str | None) -> None:
    location.setdefault("offices", {})[office] = who


def held_by(state: State, office: str, pid: str) -> list[str]:
    """The locations (canonical names, in state order) where `pid` holds `office` as `holds` reads it."""
    return [name for name, loc in state["locations"].items() if holds(state, loc, office, pid)]


def magistracy_of(state: State, pid: str) -> str | None:
    """The one location (MAGISTRATES: "only one location at a time") of which pid is magistrate."""
    found = held_by(state, "magistrate", pid)
    return found[0] if found else None


def office_location(state: State, persona: dict[str, Any], office: str) -> tuple[str | None, str]:
    """For orders that name no location (OS, DI/DE/AI/AE): the location where the persona is, if he holds the
    office there, else the only location where he holds it. Returns (name, "") or (None, why not)."""
    here = persona.get("location")
    if here in state["locations"] and holds(state, state["locations"][here], office, persona["id"]):
        return here, ""
    found = held_by(state, office, persona["id"])
    if len(found) == 1:
        return found[0], ""
    word = OFFICE_TITLES[office]
    if not found:
        return None, f"not the {word} of any location"
    return None, f"{word} of several locations ({', '.join(found)}): give this order at the location"


def offices_by_holder(state: State) -> dict[str, list[str]]:
    """Every holder's office lines, e.g. {"0101": ["sovereign of Florence", "magistrate of Pisa"]}, in one pass
    over the locations (the printout asks it for every persona). The de facto controller is listed only where
    control has passed from the tenancy (the tenant line says it)."""
    held: dict[str, list[str]] = {}
    for name, loc in state["locations"].items():
        offices = loc.get("offices") or {}
        for office in OFFICES:
            who = offices.get(office)
            if who:
                held.setdefault(who, []).append(f"{OFFICE_TITLES[office]} of {name}")
    return held


def offices_of(state: State, pid: str) -> list[str]:
    """The printout's office lines for one persona (or a non-player holder)."""
    return offices_by_holder(state).get(pid, [])


# ELECTIVE STATES: "Florence and Ragusa elect their rulers each December turn"; "The other elective states have
# rulers elected for life", marked on the location with "elective_ruler": true.
ELECTIVE_RULERS: tuple[str, ...] = ("Florence", "Ragusa")


def elective_sovereignty(name: str, location: Location) -> bool:
    """Is the sovereign of this location an elected ruler (his sovereignty is his office's, not his titles')?"""
    return name in ELECTIVE_RULERS or bool(location.get("elective_ruler", False))


def hereditary_sovereignties(state: State, pid: str) -> list[str]:
    """The locations of which `pid` is sovereign other than as an elected ruler or as a grandmaster (MILITARY ORDERS:
    the order's sovereignty is its elected grandmaster's office, RH-OQ-34): the sovereignty his titles hold, which
    passes to his successor (THE PERSONAE FAMILIES: "their hereditary positions")."""
    return [name for name, loc in state["locations"].items()
            if holder(loc, "sovereign") == pid and not elective_sovereignty(name, loc)
            and not holds_office(state, name, "sovereign")]


def elected_sovereignties(state: State, pid: str) -> list[str]:
    """The locations of which `pid` is sovereign by election: as the ruler of an elective state, or as the grandmaster
    of a military order that exercises the sovereignty (RH-OQ-34). APOSTASY: "Families which include a hereditary,
    elective, or appointive, sovereign may not change religion" reads this and `hereditary_sovereignties`."""
    return [name for name, loc in state["locations"].items()
            if holder(loc, "sovereign") == pid
            and (elective_sovereignty(name, loc) or holds_office(state, name, "sovereign"))]
