"""A new Galilei game from its setup file (TOML, already loaded into a dict).

Rule 1: "Basic Rules (6 players)": exactly six players and six capitals. Every problem is reported at once
("players: Galilei is for 6 players, found 5"), so the GM fixes the file in one go.
"""

from __future__ import annotations

import re
from typing import Any

from maild.setupfile import Problems, array_of_tables, email, password, unknown_keys, whole

from . import cards, shortage
from .state import ADVANCES, PLAYERS, deck_json

TOP_KEYS = {"title", "option_312", "capitals", "players", "cards", "shortage_table", "epoch", "starting_cash",
            "fewest_first", "ties", "cards_each", "cards_per_turn"}
#: How `ties` may break a tie of turn-order bids (turnorder.py, GA-OQ-27).
TIES = ("receipt", "capital choice")

PLAYER_KEYS = {"name", "email", "password", "advances"}
# A player's name is a word of the `#GAME PLAYER PASSWORD` header line.
PLAYER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*")


def new_game(setup: dict[str, Any]) -> dict[str, Any]:
    """The state before turn 1 (layout in state.py), or SetupError naming every problem."""
    problems = Problems()
    unknown_keys(problems, "setup", setup, TOP_KEYS)
    option = setup.get("option_312", False)
    if not isinstance(option, bool):
        problems.add(f"option_312 must be true or false, found {option!r}")
        option = False

    capitals = setup.get("capitals")
    if not isinstance(capitals, list) or not all(isinstance(c, str) and c.strip() for c in capitals):
        problems.add("capitals: a list of the six capitals' names, e.g. [\"London\", \"Paris\", ...]")
        capitals = []
    capitals = [c.strip() for c in capitals]
    if capitals and len(capitals) != PLAYERS:
        problems.add(f"capitals: Galilei has {PLAYERS} capitals (rule 1, six players), found {len(capitals)}")
    if len({c.lower() for c in capitals}) != len(capitals):
        problems.add("capitals: a capital is named twice")

    players: dict[str, dict[str, Any]] = {}
    tables = array_of_tables(problems, setup, "players")
    if len(tables) != PLAYERS:
        problems.add(f"players: Galilei is for {PLAYERS} players (rule 1), found {len(tables)}")
    seen_mail: set[str] = set()
    for i, t in enumerate(tables, start=1):
        where = f"players #{i}"
        unknown_keys(problems, where, t, PLAYER_KEYS)
        name = t.get("name")
        if not isinstance(name, str) or not PLAYER_NAME.fullmatch(name):
            problems.add(f"{where}: name must be one word of letters, digits, _ . - starting with a letter, "
                         f"found {name!r}")
            continue
        if name.lower() in {n.lower() for n in players}:
            problems.add(f"{where}: the name {name} is taken (names are unique ignoring case)")
            continue
        if name.lower() in {c.lower() for c in capitals}:
            problems.add(f"{where}: {name} is also a capital's name; battle orders name either")
        address = email(problems, where, t.get("email"), "alice@example.org")
        if address is not None and address.lower() in seen_mail:
            problems.add(f"{where}: the address {address} is another player's")
        seen_mail.add((address or "").lower())
        advances = t.get("advances", [])
        if not isinstance(advances, list) or any(a not in ADVANCES for a in advances):
            problems.add(f"{where}: advances must be a list of {', '.join(ADVANCES)}, found {advances!r}")
            advances = []
        players[name] = {"email": address, "password": password(problems, where, t.get("password")),
                         "seat": i, "capital": None, "advances": {a: a in advances for a in ADVANCES}}

    # The deck: the cards listed inline ([[cards]], cards.deck_from_tables), else the one shipped with maild
    # (examples/galilei/cards.toml, the history cards of Age of Renaissance).
    try:
        deck = cards.deck_from_tables(setup["cards"]) if "cards" in setup else cards.default_deck()
    except cards.DeckError as e:
        problems.add(f"cards: {e}")
        deck = []
    if deck and len(cards.opening_pool(deck)) < PLAYERS:
        problems.add(f"cards: the opening draft needs at least {PLAYERS} Epoch I cards not held out, found "
                     f"{len(cards.opening_pool(deck))}")
    table = setup.get("shortage_table", {})
    try:  # the 2d6 table of 3.3 (shortage.py reads it)
        shortage.ShortageTable.from_setup(table if isinstance(table, dict) else {})
        table = {str(k): v.strip() for k, v in table.items()}
    except ValueError as e:
        problems.add(f"shortage_table: one commodity for each of the rows \"2\" to \"12\" of the 2d6 table ({e})")
        table = {}
    epoch = whole(problems, "epoch", setup.get("epoch", 1), 1, 3)
    # The choices the readings leave to the GM (docs/galilei.md, GA-OQ-25, GA-OQ-27, GA-OQ-28).
    cash = setup.get("starting_cash")
    cash = None if cash is None else whole(problems, "starting_cash", cash, 0)
    fewest_first = setup.get("fewest_first", True)
    if not isinstance(fewest_first, bool):
        problems.add(f"fewest_first must be true (the base game's: the fewest tokens bought go first) or false, "
                     f"found {fewest_first!r}")
        fewest_first = True
    ties = setup.get("ties", "receipt")
    if ties not in TIES:
        problems.add(f"ties must be \"receipt\" or \"capital choice\", found {ties!r}")
        ties = "receipt"
    cards_each = whole(problems, "cards_each", setup.get("cards_each", 1), 0, 4)
    if deck and len(cards.opening_pool(deck)) < PLAYERS * cards_each:
        problems.add(f"cards_each: {cards_each} cards for each of {PLAYERS} players need "
                     f"{PLAYERS * cards_each} cards in the opening draft, found {len(cards.opening_pool(deck))}")
    per_turn = whole(problems, "cards_per_turn", setup.get("cards_per_turn", 1), 0, 4)
    problems.raise_any()

    first = list(players)
    return {
        "title": setup.get("title"),
        "option_312": option,
        "capitals": capitals,
        "players": players,
        "deck": deck_json(deck),
        "epoch": epoch,
        "starting_cash": cash,
        "fewest_first": fewest_first,
        "ties": ties,
        "cards_each": cards_each,
        "cards_per_turn": per_turn,
        "held": {n: [] for n in players},
        "discarded": [],
        "order": first,
        "luck": {"balances": {}, "postings": []},
        "rolls": [],
        "shortage": {"history": {n: [] for n in players}, "chaosed": [],
                     "results": []},
        "table": table,
        "opening": None,
        "turn_bids": None,
        "draws": None,
    }
