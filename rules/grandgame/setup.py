"""A new Grand Game from its setup file (TOML, already loaded into a dict): the players, the options, the map
(docs/grand-game.md, "The map file") and the decks. Every problem is reported at once, by its key."""

from __future__ import annotations

import re
from typing import Any

from maild.ruleset import SetupError
from maild.setupfile import Problems, array_of_tables, email, entries, password, unknown_keys, whole

from . import battlecards, decks
from .board import load_board
from .state import State, map_digest

TOP_KEYS = {"title", "players", "map", "options", "decks"}
PLAYER_KEYS = {"name", "email", "password"}
#: The options a setup may give, with their defaults (docs/grand-game.md, "The setup file").
OPTIONS: dict[str, Any] = {
    "turns": 10,  # "The game will end on turn 10 if nobody has won by that time."
    "battle_cards": True,  # False: battles are fought without battle cards (GG-OQ-01)
    "increment": 1,  # the picking's bids go up in steps of this many $ (GG-OQ-05: "$1 minimum increments")
}
PLAYER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*")


def new_game(setup: dict[str, Any]) -> State:
    problems = Problems()
    unknown_keys(problems, "setup", setup, TOP_KEYS)
    title = setup.get("title", "")
    if not isinstance(title, str):
        problems.add(f"title must be a string, found {title!r}")
        title = ""
    players = _players(problems, array_of_tables(problems, setup, "players", required=True))
    options = _options(problems, setup.get("options", {}))
    for problem in decks.check(setup.get("decks", {})):
        problems.add(problem)
    table = setup.get("decks", {})
    if isinstance(table, dict) and "battle" in table:
        for problem in battlecards.check_deck(table["battle"]):
            problems.add(problem)
    data = setup.get("map")
    board = None
    if not isinstance(data, dict):
        problems.add("map: missing (the board: a [map] table, docs/grand-game.md \"The map file\")")
    else:
        try:
            board = load_board(data)
        except SetupError as exc:
            problems.add(f"map: {exc}")
    if board is not None:
        offered = [c for c in board.countries.values() if not c.neutral]
        if len(players) > board.players:
            problems.add(f"players: the map is drawn for at most {board.players} players, the setup names "
                         f"{len(players)}")
        if len(players) > len(offered):
            problems.add(f"players: {len(players)} players and only {len(offered)} countries to pick")
    problems.raise_any()
    assert board is not None and isinstance(data, dict)
    return {
        "version": 1,
        "title": title or board.title,
        "map": data,
        "map_digest": map_digest(data),
        "options": options,
        "decks": setup.get("decks", {}),
        "players": [{**p, "country": None, "regime": None, "francs": 0, "gdp": 0, "research": 0, "bombs": 0,
                     "picked": None, "paid": 0, "victory": None, "start_land": 0, "bomb_built": False}
                    for p in players],
        # Until the picking, every country is a Neutral Power's (GG-OQ-03: the countries nobody picks stay so).
        "owners": {t.id: None for t in board.territories.values() if t.land},
        "zones": {z.id: z.value for z in board.zones.values()},
        "railroads": sorted(t.id for t in board.territories.values() if t.railroad),
        "forces": {},
        "pending": {},
        "turn": 1,
        "finished": False,
        "winners": [],
    }


def _options(problems: Problems, table: Any) -> dict[str, Any]:
    if not isinstance(table, dict):
        problems.add(f"options must be a table, found {table!r}")
        return dict(OPTIONS)
    unknown_keys(problems, "options", table, set(OPTIONS))
    options = dict(OPTIONS)
    for key, value in table.items():
        if key not in OPTIONS:
            continue
        default = OPTIONS[key]
        if isinstance(default, bool):
            if not isinstance(value, bool):
                problems.add(f"options.{key} must be true or false, found {value!r}")
                continue
            options[key] = value
        else:
            options[key] = whole(problems, f"options.{key}", value, minimum=1)
    return options


def _players(problems: Problems, tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if len(tables) < 2:
        problems.add("players: a game needs at least two [[players]] tables")
    players: list[dict[str, Any]] = []
    seen: set[str] = set()
    for name, where, t in entries(problems, "players", tables, PLAYER_KEYS, "name", PLAYER_NAME,
                                  "one word starting with a letter (letters, digits, '_', '.' or '-')"):
        address = email(problems, where, t.get("email"), name)
        for key in (name.casefold(), (address or "").casefold()):
            if key and key in seen:
                problems.add(f"{where}: {key} is used twice")
            seen.add(key)
        if address is not None:
            players.append({"name": name, "email": address,
                            "password": password(problems, where, t.get("password"))})
    return players
