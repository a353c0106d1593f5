"""The Grand Game's state: what the framework stores between phases (a JSON dict), and the few ways every part
of the engine reads and changes it. Nothing else in the package knows the dict's layout by heart.

The state::

    {
      "title": str,
      "map": {...},                 # the map table of the setup (docs/grand-game.md, "The map file")
      "options": {...},             # the setup's options (setup.py: turns, increment, battle_cards, ...)
      "decks": {...},               # battle, political and victory cards (decks.py), the GM's or the default
      "players": [                  # in the setup's order
        {"name", "email", "password",
         "country": id | None, "regime": "democracy" | "dictatorship" | None,
         "francs": int, "gdp": int, "research": int, "bombs": int,
         "picked": int | None,      # 1 for the first country picked, 2 for the next ...
         "paid": int,               # his winning bid
         "victory": {...} | None,   # his secret victory card
         "start_land": int,         # land territories he held when the game began
         "bomb_built": bool}        # he has reached 300 units of research and built his bomb
      ],
      "owners": {territory: player | None},   # every land territory; None: a Neutral Power's (its home country's)
      "zones": {zone: value},                 # each economic zone's value now
      "railroads": [territory, ...],          # land territories with a railroad now, sorted
      "forces": {territory: {side: stack}},   # side: a player's name, or NEUTRAL
      "pending": {...},                       # what one phase leaves for a later one (sealed allocations, ...)
      "turn": int, "finished": bool, "winners": [player, ...]
    }

A stack is ``{kind: count}`` over UNITS and SUPPLY, with ``"cargo": {kind: count}`` for what a player's fleets
in a sea territory carry (land units, aircraft on heavy fleets, supplies). Counts of zero are dropped, and an
empty stack or territory is removed, so two states that mean the same are the same dict.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from .board import Board, load_board
from .combat import AIRCRAFT, ARMOR, HEAVY_FLEET, INFANTRY, LIGHT_FLEET
from .economy import SUPPLY

State = dict[str, Any]
Stack = dict[str, Any]

#: The side of a Neutral Power's forces (a player's name never starts with #).
NEUTRAL = "#neutral"
UNITS = (INFANTRY, ARMOR, AIRCRAFT, LIGHT_FLEET, HEAVY_FLEET)
LAND_UNITS = (INFANTRY, ARMOR)
FLEETS = (LIGHT_FLEET, HEAVY_FLEET)
CARGO = "cargo"
DEMOCRACY = "democracy"
DICTATORSHIP = "dictatorship"
REGIMES = (DEMOCRACY, DICTATORSHIP)

#: Phase names, as players read them and the config names them ([games.schedule.phases.<name>]).
PICKING = "picking"
PURCHASE = "purchase"
PLACEMENT = "placement"
ALLOCATION = "allocation"
SEASONS = ("spring", "fall", "winter")
#: The most picking rounds a game can need: one a player, and a map is drawn for at most this many.
MOST_ROUNDS = 12


def picking_round(number: int) -> str:
    """The name of picking round `number` (the first round is the phase PICKING itself)."""
    return PICKING if number == 1 else f"{PICKING}-{number}"


def league_of(season: str) -> str:
    """The extra phase in which the League of Nations meets during `season`."""
    return f"{season}-league"


# ---- the board ------------------------------------------------------------------------------------------------

def board(state: State) -> Board:
    """The board of the game: loaded and checked once per process for each map (the map never changes)."""
    return _board(state.get("map_digest") or map_digest(state["map"]), state["map"])


def map_digest(data: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


_BOARDS: dict[str, Board] = {}


def _board(digest: str, data: dict[str, Any]) -> Board:
    found = _BOARDS.get(digest)
    if found is None:
        found = _BOARDS[digest] = load_board(data)
    return found


# ---- players --------------------------------------------------------------------------------------------------

def player(state: State, name: str) -> dict[str, Any]:
    for p in state["players"]:
        if p["name"] == name:
            return p
    raise KeyError(name)


def player_names(state: State) -> list[str]:
    return [p["name"] for p in state["players"]]


def playing(state: State) -> list[str]:
    """The players who hold a country (after the picking, everyone)."""
    return [p["name"] for p in state["players"] if p["country"] is not None]


def player_of_country(state: State, country: str) -> str | None:
    return next((p["name"] for p in state["players"] if p["country"] == country), None)


def country_name(state: State, name: str) -> str:
    """A player's country's name as the map gives it (his own name before he picked)."""
    country = player(state, name)["country"]
    return board(state).countries[country].name if country else name


# ---- territories ----------------------------------------------------------------------------------------------

def owner(state: State, territory: str) -> str | None:
    """The player who holds a land territory, or None for a Neutral Power (and for a sea)."""
    return state["owners"].get(territory)


def held_by(state: State, name: str) -> list[str]:
    """The land territories `name` holds, in the map's order."""
    return [t for t, who in state["owners"].items() if who == name]


def zone_control(state: State, zone: str) -> tuple[str | None, str]:
    """Who controls an economic zone and how: (player, "full") when he holds all its land, (player, "partial")
    when he holds at least 51% of it, else (None, "none") (section Economic Zones)."""
    land = board(state).zones[zone].land
    counts: dict[str, int] = {}
    for t in land:
        who = owner(state, t)
        if who is not None:
            counts[who] = counts.get(who, 0) + 1
    for who, held in counts.items():
        if held == len(land):
            return who, "full"
        if held * 100 >= 51 * len(land):
            return who, "partial"
    return None, "none"


def gdp(state: State, name: str) -> int:
    """A player's GDP: the value of every zone he has full or partial control of (GG-OQ-10)."""
    return sum(value for zone, value in state["zones"].items() if zone_control(state, zone)[0] == name)


# ---- forces ---------------------------------------------------------------------------------------------------

def stack(state: State, territory: str, side: str) -> Stack:
    """The forces of `side` in `territory`, read only (an empty dict when there are none)."""
    return state["forces"].get(territory, {}).get(side, {})


def sides_in(state: State, territory: str) -> list[str]:
    return list(state["forces"].get(territory, {}))


def count(state: State, territory: str, side: str, kind: str) -> int:
    return stack(state, territory, side).get(kind, 0)


def add(state: State, territory: str, side: str, kind: str, number: int, cargo: bool = False) -> None:
    """Add `number` (may be negative) of `kind` to a stack (to its fleets' cargo with `cargo`); never below 0."""
    if number == 0:
        return
    here = state["forces"].setdefault(territory, {}).setdefault(side, {})
    table = here.setdefault(CARGO, {}) if cargo else here
    left = table.get(kind, 0) + number
    if left < 0:
        raise ValueError(f"{side} has {table.get(kind, 0)} {kind} in {territory}, not {-number}")
    if left:
        table[kind] = left
    else:
        table.pop(kind, None)
    _tidy(state, territory, side)


def _tidy(state: State, territory: str, side: str) -> None:
    here = state["forces"][territory][side]
    if CARGO in here and not here[CARGO]:
        del here[CARGO]
    if not here:
        del state["forces"][territory][side]
    if not state["forces"][territory]:
        del state["forces"][territory]


def units_of(state: State, side: str) -> Iterator[tuple[str, Stack]]:
    """(territory, stack) of every stack of `side`, in the map's order."""
    for territory in board(state).territories:
        found = state["forces"].get(territory, {}).get(side)
        if found:
            yield territory, found


def unit_total(stack_: Stack) -> int:
    """Combat units in a stack (supplies and cargo not counted)."""
    return sum(stack_.get(kind, 0) for kind in UNITS)


# ---- words ----------------------------------------------------------------------------------------------------

#: How players may name each kind, singular and plural, in any case (the first is how maild writes it).
KIND_WORDS: dict[str, tuple[str, ...]] = {
    INFANTRY: ("inf", "infantry", "infantries", "i"),
    ARMOR: ("arm", "armor", "armour", "armors", "armours", "tank", "tanks", "a"),
    AIRCRAFT: ("air", "aircraft", "aircrafts", "plane", "planes", "p"),
    LIGHT_FLEET: ("lf", "light fleet", "light fleets", "light", "lights"),
    HEAVY_FLEET: ("hf", "heavy fleet", "heavy fleets", "heavy", "heavies"),
    SUPPLY: ("sup", "supply", "supplies", "s"),
}
KIND_OF_WORD: dict[str, str] = {w: kind for kind, words in KIND_WORDS.items() for w in words}


def kind_of(word: str) -> str | None:
    """The unit kind (or SUPPLY) a player's word names, or None."""
    return KIND_OF_WORD.get(" ".join(word.lower().split()))


def describe(stack_: Stack, short: bool = False) -> str:
    """A stack in words, in the table's order: "3 infantry, 1 armor, 5 supply" (short: "3i 1a 5s")."""
    parts = []
    for kind in (*UNITS, SUPPLY):
        n = stack_.get(kind, 0)
        if n:
            parts.append(f"{n}{SHORT[kind]}" if short else f"{n} {kind}")
    aboard = stack_.get(CARGO)
    if aboard:
        inner = describe(aboard, short)
        parts.append(f"({inner} aboard)" if not short else f"[{inner}]")
    return (" " if short else ", ").join(parts)


SHORT = {INFANTRY: "i", ARMOR: "a", AIRCRAFT: "p", LIGHT_FLEET: "L", HEAVY_FLEET: "H", SUPPLY: "s"}
