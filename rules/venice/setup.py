"""A new Venice game from its setup file (TOML, already loaded into a dict).

Every problem found is reported at once, so a GM fixes the file in one go; the message names the table
and key ("agendas #2 (silk tax): value must be a whole number >= 0, found -5").
"""

from __future__ import annotations

import math
import re
from typing import Any

from maild.setupfile import Problems, array_of_tables, email, entries, password, unknown_keys, whole

from .state import (
    DAYS,
    RESOURCES,
    TOTAL_TURNS,
    State,
    auction_kind,
    auction_name,
    kind_offered,
    normalize,
)

TOP_KEYS = {"title", "credit_limit", "interest_per_day", "scale_per_players",
            "players", "agendas", "assets", "auctions"}
PLAYER_KEYS = {"name", "email", "password"}
AGENDA_KEYS = {"name", "value", *RESOURCES}
ASSET_KEYS = {"name", *RESOURCES}
AUCTION_KEYS = {"items"}
DEFAULT_INTEREST = 0.05  # the rules: "interest amounting to 5%/day"

# A player's name is a word of the `#GAME PLAYER PASSWORD` header line, so no blanks in it.
PLAYER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*")
# Quotes would make a name impossible to write in a quoted bid; '#' at the start of an order line
# makes the line a header.
BAD_ITEM_CHARS = re.compile(r'["\u201c\u201d\n]')


def new_game(setup: dict[str, Any]) -> State:
    problems = Problems()
    unknown_keys(problems, "setup", setup, TOP_KEYS)

    if "credit_limit" not in setup:
        problems.add("credit_limit: missing (the most each player may borrow before the opening auction, "
                     "0 for no credit)")
    credit_limit = whole(problems, "credit_limit", setup.get("credit_limit", 0))
    rate = setup.get("interest_per_day", DEFAULT_INTEREST)
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not math.isfinite(rate) or rate < 0:
        problems.add(f"interest_per_day must be a number >= 0 (0.05 is 5%), found {rate!r}")
        rate = DEFAULT_INTEREST
    if "scale_per_players" not in setup:
        problems.add("scale_per_players: missing (each count in a lineup is for this many players)")
    per = whole(problems, "scale_per_players", setup.get("scale_per_players", 1), minimum=1)
    title = setup.get("title")
    if title is not None and not isinstance(title, str):
        problems.add(f"title must be a string, found {title!r}")
        title = None

    players = _players(problems, array_of_tables(problems, setup, "players", required=True))
    items: dict[str, dict[str, Any]] = {}
    _items(problems, array_of_tables(problems, setup, "agendas", required=True), "agendas", "agenda", items)
    _items(problems, array_of_tables(problems, setup, "assets", required=True), "assets", "asset", items)
    scale = max(1, math.ceil(len(players) / per))
    auctions = _auctions(problems, array_of_tables(problems, setup, "auctions", required=True), items, scale)
    problems.raise_any()

    return {
        "version": 1,
        "title": title,
        "credit_limit": credit_limit,
        "interest_per_day": float(rate),
        "interest_days": TOTAL_TURNS,  # from the opening auction to the closing auction, both counted
        "scale_per_players": per,
        "scale": scale,
        "players": players,
        "items": items,
        "auctions": auctions,
        "ledger": {p["name"]: {"money": 0, "borrowed": 0, "interest_due": 0, "holdings": {}}
                   for p in players},
        "auctions_held": [],
        "final": None,
    }


def _players(problems: Problems, tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not tables:
        problems.add("players: a game needs at least one [[players]] table")
    players: list[dict[str, Any]] = []
    names: set[str] = set()
    emails: set[str] = set()
    for name, where, t in entries(problems, "players", tables, PLAYER_KEYS, "name", PLAYER_NAME,
                                  "one word of letters, digits, '_', '.' or '-'"):
        if name.casefold() in names:
            problems.add(f"{where}: the name {name} is used twice")
        names.add(name.casefold())
        address = email(problems, where, t.get("email"), name)
        if address is None:
            continue
        if address.casefold() in emails:
            problems.add(f"{where}: the email {address} is used twice")
        emails.add(address.casefold())
        players.append({"name": name, "email": address, "password": password(problems, where, t.get("password"))})
    return players


def _items(problems: Problems, tables: list[dict[str, Any]], key: str, kind: str,
           items: dict[str, dict[str, Any]]) -> None:
    for i, t in enumerate(tables, start=1):
        where = f"{key} #{i}"
        unknown_keys(problems, where, t, AGENDA_KEYS if kind == "agenda" else ASSET_KEYS)
        raw = t.get("name")
        if not isinstance(raw, str) or not raw.strip() or BAD_ITEM_CHARS.search(raw) or raw.strip()[0] == "#":
            problems.add(f"{where}: name must be a non-empty string without quotes or a leading '#', "
                         f"found {raw!r}")
            continue
        name = " ".join(raw.split())
        where = f"{key} #{i} ({name})"
        clash = next((other for other in items if normalize(other) == normalize(name)), None)
        if clash is not None:
            problems.add(f"{where}: the name is already used by the {items[clash]['kind']} {clash!r} "
                         "(names are compared ignoring case)")
            continue
        spec: dict[str, Any] = {"kind": kind}
        if kind == "agenda":
            if "value" not in t:
                problems.add(f"{where}: value missing (the $ it provides if realized)")
            spec["value"] = whole(problems, f"{where}: value", t.get("value", 0))
        for r in RESOURCES:
            spec[r] = whole(problems, f"{where}: {r}", t.get(r, 0))
        items[name] = spec


def _auctions(problems: Problems, tables: list[dict[str, Any]], items: dict[str, dict[str, Any]],
              scale: int) -> list[dict[str, Any]]:
    if len(tables) != TOTAL_TURNS:
        problems.add(f"auctions: expected exactly {TOTAL_TURNS} (opening, five common, closing), "
                     f"found {len(tables)}")
    by_norm = {normalize(name): name for name in items}
    auctions = []
    for turn, t in enumerate(tables[:TOTAL_TURNS], start=1):
        where = f"auctions #{turn} ({auction_name(turn)})"
        unknown_keys(problems, where, t, AUCTION_KEYS)
        lineup_in = t.get("items")
        if not isinstance(lineup_in, dict) or not lineup_in:
            problems.add(f"{where}: items must be a non-empty table of item = count, "
                         'e.g. items = { "silk tax" = 2 }')
            lineup_in = {}
        want = kind_offered(turn)
        lineup: list[dict[str, Any]] = []
        seen: set[str] = set()
        for raw, count in lineup_in.items():
            item = by_norm.get(normalize(raw))
            if item is None:
                known = ", ".join(n for n, s in items.items() if s["kind"] == want) or "none defined"
                problems.add(f"{where}: unknown item {raw!r} (the {want}s are: {known})")
                continue
            if items[item]["kind"] != want:
                offers = ("common auctions offer only assets" if want == "asset"
                          else "the opening and closing auctions offer only agendas")
                problems.add(f"{where}: {item!r} is an {items[item]['kind']}; {offers}")
                continue
            if item in seen:
                problems.add(f"{where}: {item!r} is listed twice")
                continue
            seen.add(item)
            base = whole(problems, f"{where}: count of {item!r}", count, minimum=1)
            lineup.append({"item": item, "count": base * scale, "base_count": base})
        auctions.append({"turn": turn, "kind": auction_kind(turn), "name": auction_name(turn),
                         "day": DAYS[turn - 1], "lineup": lineup})
    return auctions
