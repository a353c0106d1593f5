"""A new game of The Law of the Jungle from the setup file's TOML (examples/jungle/setup.toml shows every key).

The setup gives the empire as the GM's strategy game has it when the game starts (cities with their workable
hexes, units, the empire's figures) and the options of the sign-up period; houses may be listed (players
signed up before the game was created), or the game may start empty and everyone JOIN by mail.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from maild.ruleset import SetupError
from maild.setupfile import Problems, password

from .houses import starting_gold
from .model import GODS, City, Empire, Hex, House, Title, Unit, World, key

OPTIONS = {
    "title": str,
    "signup_sessions": int,  # sessions of sign-up before the kick-off (at least 1)
    "kickoff_houses": int,  # houses needed for the kick-off; fewer: the sign-up period goes on
    "starting_gold": (int, dict),  # a new house's gold (JOINING THE GAME: 0, or the AMPU score): see _gold
    "festival": str,  # the festival of the first session, if the GM wants one announced at once
    "trade_routes": list,  # [["CityA", "CityB"], ...]: cities connected by trade routes (TRAVEL)
}


WANTED = {"starting_gold": "a whole number 0 or more for every new house, or a table of player (his house or "
                           "his e-mail address) = gold"}


def _check_gold(gold: Any) -> None:
    """JOINING THE GAME: "If you played in the previous game ... you start with gold equal to your AMPU
    score": one number for everybody, or each player's own (`houses.starting_gold` reads it)."""
    values = gold.items() if isinstance(gold, dict) else [("", gold)]
    for player, v in values:
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            where = f"starting_gold.{player}" if player else "starting_gold"
            raise SetupError(f"{where}: {WANTED['starting_gold']}, not {v!r}")


def _table(d: Any, where: str) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise SetupError(f"{where}: a table is needed")
    return d


def _build(cls: type, d: dict[str, Any], where: str) -> Any:
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(d) - known)
    if unknown:
        raise SetupError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
    try:
        return cls(**d)
    except TypeError as exc:
        raise SetupError(f"{where}: {exc}") from None


def _password(value: Any, where: str) -> str | None:
    """A house's password as the state keeps it: its hash, made by the helper every game's setup uses."""
    problems = Problems()
    hashed = password(problems, where, value)
    problems.raise_any()
    return hashed


def new_world(setup: dict[str, Any]) -> World:
    """The World before session 1. Raises SetupError naming the key at fault."""
    world = World()
    for name, kind in OPTIONS.items():
        if name in setup:
            if not isinstance(setup[name], kind) or isinstance(setup[name], bool):
                raise SetupError(f"{name}: {WANTED.get(name) or 'a ' + kind.__name__} is needed")
            world.settings[name] = setup[name]
    _check_gold(setup.get("starting_gold", 0))
    known = set(OPTIONS) | {"cities", "units", "empire", "houses"}
    unknown = sorted(set(setup) - known)
    if unknown:
        raise SetupError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
    if world.settings.setdefault("signup_sessions", 1) < 0:
        raise SetupError("signup_sessions: 0 or more (the kick-off runs at the Evening of the last one)")
    world.settings.setdefault("kickoff_houses", 2)
    world.settings.setdefault("starting_gold", 0)
    festival = world.settings.get("festival")
    if festival is not None:
        match = [g for g in GODS if key(g) == key(festival)]
        if not match:
            raise SetupError(f"festival: one of {', '.join(GODS)}")
        world.festival = match[0]
    if world.settings["signup_sessions"] == 0:
        # A game already under way (carried over from a forum thread): no sign-up period, no kick-off draw;
        # the setup gives the Tlatoani, citizens and roles, and the festival of the first session.
        if world.festival is None:
            raise SetupError("festival: a game without a sign-up period (signup_sessions = 0) names the festival "
                             "of its first council session")
        world.kicked_off = True
        world.settings["council_from"] = 1
    for i, c in enumerate(setup.get("cities", [])):
        c = dict(_table(c, f"cities[{i}]"))
        hexes = c.pop("hexes", [])
        if "position" in c:
            c["position"] = tuple(c["position"])
        city = _build(City, c, f"cities[{i}]")
        for j, h in enumerate(hexes):
            hx = _build(Hex, _table(h, f"cities[{i}].hexes[{j}]"), f"cities[{i}].hexes[{j}]")
            city.hexes[hx.name] = hx
        if not city.centre and city.hexes:
            city.centre = next(iter(city.hexes))
        world.cities[city.name] = city
    for i, u in enumerate(setup.get("units", [])):
        u = dict(_table(u, f"units[{i}]"))
        if "position" in u:
            u["position"] = tuple(u["position"])
        unit = _build(Unit, u, f"units[{i}]")
        world.units[unit.name] = unit
    world.empire = _build(Empire, _table(setup.get("empire", {}), "empire"), "empire")
    for i, h in enumerate(setup.get("houses", [])):
        h = dict(_table(h, f"houses[{i}]"))
        characters = h.pop("characters", [])
        h.setdefault("gold", starting_gold(world, str(h.get("name", "")), str(h.get("email") or "")))
        if "password" in h:
            h["password"] = _password(h["password"], f"houses[{i}]")
        house = _build(House, h, f"houses[{i}]")
        if house.name in world.houses:
            raise SetupError(f"houses[{i}]: house {house.name} twice")
        world.houses[house.name] = house
        if not characters:
            raise SetupError(f"houses[{i}]: a house needs a character")
        for j, c in enumerate(characters):
            c = dict(_table(c, f"houses[{i}].characters[{j}]"))
            c["titles"] = [Title(**t) for t in c.get("titles", [])]
            c["house"] = house.name
            from .model import Character

            character = _build(Character, c, f"houses[{i}].characters[{j}]")
            if world.character(character.name) is not None:
                raise SetupError(f"houses[{i}].characters[{j}]: the name {character.name} is taken")
            if character.city and character.city not in world.cities:
                raise SetupError(f"houses[{i}].characters[{j}]: no city {character.city}")
            world.characters[character.name] = character
    return world
