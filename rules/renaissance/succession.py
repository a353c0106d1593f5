"""THE PERSONAE FAMILIES: a dead persona is replaced by a new one under the same id and player.

"New personae, however, do not inherit their predecessor's offices, skills, popularity, reputation for piety or
personal assets. When a persona dies, his replacement is given the deceased's final popularity rating, but never
more than 200. All other ratings start at zero. The new persona normally starts outside the town of which he is a
citizen." and (THE HIERARCHIES) "When a persona dies, his successor receives all of his hereditary titles."

Other modules kill by setting persona["alive"] = False and persona["died"] = "<cause>"; the end-of-month step here
(registry.MONTH) kills the passengers of a dead ship owner (TRAVEL), vacates the dead men's non-hereditary offices and
puts a successor in each dead persona's place. Readings: docs/renaissance/upkeep.md, "Succession".
"""

from __future__ import annotations

import random
from typing import Any

from .context import Ctx, Persona, State

POPULARITY_CAP = 200
HEIR_AGE = 20

# Sovereignty, feudatory status and tenancy are held by titles ("Tenancy may be transferred to any title"), which
# are hereditary: they pass to the successor. Every other office of a location is personal and falls vacant.
HEREDITARY_OFFICES = ("sovereign", "feudatory", "tenant")
# ELECTIVE STATES: "Florence and Ragusa elect their rulers"; other elective states are marked on the location.
ELECTIVE_RULERS = ("Florence", "Ragusa")

# Titles that die with their holder: knighthood is "non-hereditary" (feudal table), so are the elective dignities.
NON_HEREDITARY_TITLES = ("knight", "sir ", "cardinal", "pope", "holy roman emperor", "emperor of the holy roman",
                         "grandmaster", "grand master")
NON_HEREDITARY_RANKS = ("knight", "hre", "pope")

GIVEN_NAMES = ("Alessandro", "Alfonso", "Antonio", "Bernardo", "Carlo", "Cosimo", "Ercole", "Federico", "Ferrante",
               "Filippo", "Francesco", "Galeazzo", "Giovanni", "Giuliano", "Guido", "Jacopo", "Lorenzo", "Ludovico",
               "Matteo", "Niccolo", "Ottaviano", "Pietro", "Raffaele", "Rodrigo", "Sigismondo", "Tommaso", "Ugo")


def _hereditary_title(title: str) -> bool:
    low = title.lower()
    return not any(low.startswith(word) for word in NON_HEREDITARY_TITLES)


def _name(state: State, dead: Persona, rng: random.Random | None) -> str:
    """A generated name: a given name drawn with the turn's rng, the predecessor's surname. Without an rng (or when
    every name is taken) "Heir of <name>"."""
    name = dead.get("name") or dead["id"]
    words = name.split(" ", 1)
    surname = words[1] if len(words) == 2 else f"of {dead.get('family', '').title()}".rstrip()
    family = state.get("families", {}).get(dead.get("family"), {})
    taken = {(state["personae"].get(p) or {}).get("name", "").split(" ", 1)[0] for p in family.get("personae", [])}
    taken.add(words[0])
    choices = [g for g in GIVEN_NAMES if g not in taken]
    if rng is None or not choices:
        return f"Heir of {name}"
    return f"{rng.choice(choices)} {surname}"


def _start(state: State, dead: Persona) -> tuple[str | None, dict[str, Any] | None]:
    """Outside the town of which he is a citizen; a citizen of nowhere known starts where his predecessor died (or
    at sea, where he was)."""
    town = dead.get("citizenship")
    if town and town in state.get("locations", {}):
        return town, None
    if dead.get("location"):
        return dead["location"], None
    return None, dead.get("at_sea")


def successor(state: State, pid: str, rng: random.Random | None = None, turn: int = 0) -> Persona:
    """The persona that replaces dead `pid` (not yet put into the state): same id, family, player, religion,
    origin and citizenship; hereditary titles; popularity min(final, 200); every other rating zero; no skills,
    offices, guild rank, permits or assets."""
    dead = state["personae"][pid]
    location, at_sea = _start(state, dead)
    rank = dead.get("rank", "none")
    return {
        "id": pid, "name": _name(state, dead, rng), "family": dead.get("family"), "female": False,
        "religion": dead.get("religion"), "origin": dead.get("origin"), "alive": True, "age": HEIR_AGE,
        "popularity": max(0, min(int(dead.get("popularity", 0)), POPULARITY_CAP)), "piety": 0, "morale": 0,
        "skills": {}, "guild": None,
        "titles": [t for t in dead.get("titles", []) if _hereditary_title(t)],
        "rank": "none" if str(rank).lower() in NON_HEREDITARY_RANKS else rank,
        "assets": {}, "location": location, "at_sea": at_sea, "inside": False, "with": None,
        "citizenship": dead.get("citizenship"), "boarding_permits": [], "alms_year": {}, "collector": [],
        "predecessors": [*dead.get("predecessors", []),
                         {"name": dead.get("name"), "died": dead.get("died", "unknown causes"), "turn": turn}],
    }


def _drown_passengers(state: State) -> None:
    """TRAVEL: passengers aboard ("with") a dead owner's ships "all die with him"; repeated until none is left."""
    changed = True
    while changed:
        changed = False
        for p in state["personae"].values():
            owner = state["personae"].get(p.get("with") or "")
            if p.get("alive", True) and owner is not None and not owner.get("alive", True):
                p["alive"] = False
                p["died"] = f"died aboard the ship of {owner.get('name', owner['id'])}"
                changed = True


def _held(state: State, dead: set[str]) -> dict[str, list[tuple[str, str]]]:
    """dead persona -> (location, office) he held, in location then office order: one pass over the world for
    all the month's deaths, not one per death."""
    held: dict[str, list[tuple[str, str]]] = {}
    for where, loc in sorted(state.get("locations", {}).items()):
        for office, who in sorted((loc.get("offices") or {}).items()):
            if who in dead:
                held.setdefault(who, []).append((where, office))
    return held


def _vacate(ctx: Ctx, pid: str, name: str, held: list[tuple[str, str]]) -> list[str]:
    vacated: list[str] = []
    for where, office in held:
        loc = ctx.state["locations"][where]
        elective = where in ELECTIVE_RULERS or loc.get("elective_ruler", False)
        if office in HEREDITARY_OFFICES and not (office == "sovereign" and elective):
            continue
        loc["offices"][office] = None
        vacated.append(f"{office} of {where}")
    if vacated:
        ctx.publish(f"On the death of {name}, vacant: {', '.join(vacated)}.")
    return vacated


def succession(ctx: Ctx) -> None:
    state = ctx.state
    _drown_passengers(state)
    dead = [pid for pid, p in sorted(state["personae"].items()) if not p.get("alive", True)]
    held = _held(state, set(dead)) if dead else {}
    for pid in dead:
        old = state["personae"][pid]
        name = old.get("name") or pid
        _vacate(ctx, pid, name, held.get(pid, []))
        heir = successor(state, pid, ctx.rng, ctx.turn)
        state["personae"][pid] = heir
        for other in state["personae"].values():  # a permit was granted to the dead man, not to his heir
            if pid in other.get("boarding_permits", []):
                other["boarding_permits"] = [x for x in other["boarding_permits"] if x != pid]
        family = old.get("family", "")
        ctx.publish(f"{name} ({pid}) of the {family} family has died ({old.get('died', 'unknown causes')}). "
                    f"{heir['name']} succeeds him.")
        lost = {k: v for k, v in old.get("assets", {}).items() if v}
        if lost:
            ctx.tell(family, f"{pid}: {name}'s personal assets are lost with him: "
                     + ", ".join(f"{v:,} {k}" for k, v in lost.items()) + ".")
