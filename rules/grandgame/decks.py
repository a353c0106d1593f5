"""The Grand Game's political and victory decks: the defaults written for this project, the GM's own from the
setup's [decks] table, their check, and the draws.

The rules give no political card ("TODO: ... fix politics cards", GG-OQ-02): the default political decks below
were WRITTEN FOR maild, after the spirit of the section Political Spending; they are not the original game's
cards. A GM replaces them with `[[decks.political]]` tables (docs/grand-game.md, "The decks").

A political card is a dict::

    {"name": str, "text": str,
     "francs": number,   # the turn's Francs are the political spending times this (rounded down); 1 if left out
     "plus": int,        # Francs added after that (may be negative; the turn's Francs never go below 0)
     "gdp": int,         # added to the GDP he allocates next turn (one turn only: GDP is recounted each turn)
     "zone": int}        # the value one of his zones loses for good (drawn among the zones he controls)

The victory deck is the text's table (End Game, "assuming 10 players in the game"), scaled to the players.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .economy import POLITICAL_LEVELS
from .state import DEMOCRACY, DICTATORSHIP, REGIMES, State

Card = dict[str, Any]
CARD_KEYS = {"name", "text", "francs", "plus", "gdp", "zone"}
#: What a setup's [[decks.political]] table may hold: a card, and which deck it is in and how many copies.
TABLE_KEYS = CARD_KEYS | {"level", "regime", "copies"}
#: The most a card may multiply the Francs by (a GM's slip of the pen, 15 for 1.5, is caught).
MOST_FRANCS = 5


def _card(name: str, text: str, francs: float = 1, plus: int = 0, gdp: int = 0, zone: int = 0) -> Card:
    return {"name": name, "text": text, "francs": francs, "plus": plus, "gdp": gdp, "zone": zone}


def _deck(*entries: tuple[int, Card]) -> list[Card]:
    return [card for copies, card in entries for _ in range(copies)]


# ---- the default political decks (written for maild) ----------------------------------------------------------
#
# "Dictators are more stable (both internally and externally) but face more serious consequences from inadequate
# spending. Democracies, by comparison, have much less stable policy options but are more profitable and rarely
# have severe domestic political upheaval." and "the political down-side for 0% and 10% political spending have
# been softened". So: a dictator's 0% deck holds the only lasting harm (a zone loses value) and most of the GDP
# losses; his 15% and 30% decks pay the spending as it is, nearly always. A democracy's decks swing more (a
# campaign pays half as much again, a scandal pays nothing) and pay more on the whole; its 0% deck is mild.
# Eight cards a deck.

DEFAULT_POLITICAL: dict[tuple[int, str], list[Card]] = {
    (0, DEMOCRACY): _deck(
        (3, _card("Business as usual", "Parliament sits; nothing changes.")),
        (2, _card("Opposition gains", "The opposition gains seats and blocks the budget.", gdp=-2)),
        (1, _card("Grassroots donations", "Small donors fill the party's coffers.", plus=5)),
        (1, _card("Strikes", "The unions strike in the factories.", gdp=-2)),
        (1, _card("Thrift praised", "The press praises a lean government.", gdp=1)),
    ),
    (0, DICTATORSHIP): _deck(
        (2, _card("The regime holds", "The police keep order; nothing changes.")),
        (2, _card("Unrest in the provinces", "Unpaid officials let the provinces drift.", gdp=-2)),
        (1, _card("Purge of the ministries", "The ministries are purged; work stops.", gdp=-2)),
        (2, _card("Riots", "Riots burn a district; its industry is lost.", zone=1)),
        (1, _card("Loyal cronies", "Old friends of the regime pay their dues.", plus=5)),
    ),
    (15, DEMOCRACY): _deck(
        (3, _card("Campaign pays off", "A winning campaign: donors give half as much again.", francs=1.5)),
        (2, _card("Steady coalition", "The coalition holds.")),
        (1, _card("Lobbyists' gift", "Industry thanks the government.", plus=5)),
        (1, _card("Cabinet scandal", "A scandal swallows the party's funds.", francs=0)),
        (1, _card("Public works", "Roads and harbours are built.", gdp=1)),
    ),
    (15, DICTATORSHIP): _deck(
        (5, _card("Order keeps", "The party is paid; the country is quiet.")),
        (1, _card("Party dues", "The party collects its dues.", plus=5)),
        (1, _card("Grumbling barracks", "The army grumbles at its pay.", gdp=-2)),
        (1, _card("Corrupt governor", "A governor strips his province.", zone=1)),
    ),
    (30, DEMOCRACY): _deck(
        (3, _card("Landslide", "A landslide victory: donors give half as much again.", francs=1.5)),
        (2, _card("Popular mandate", "The government governs.")),
        (1, _card("Grateful allies", "Allies abroad repay old favours.", plus=5)),
        (1, _card("Industrial policy", "Subsidies bear fruit.", gdp=1)),
        (1, _card("Cabinet scandal", "A scandal swallows the party's funds.", francs=0)),
    ),
    (30, DICTATORSHIP): _deck(
        (6, _card("Iron grip", "The regime is feared and obeyed.")),
        (1, _card("Tribute", "The provinces send tribute.", plus=5)),
        (1, _card("State industry", "The five-year plan delivers.", gdp=1)),
    ),
}


def deck_name(level: int, regime: str) -> str:
    """The deck's name as the rules write it: "15% Dictator"."""
    return f"{level}% {'Dictator' if regime == DICTATORSHIP else 'Democracy'}"


def political_decks(state: State) -> dict[tuple[int, str], list[Card]]:
    """The game's political decks: the GM's (the setup's [[decks.political]]) or the defaults. A GM's table is
    checked here too, since a state may come from anywhere: a broken one is an error naming its problems."""
    table = state.get("decks", {}).get("political")
    if table is None:
        return DEFAULT_POLITICAL
    problems = _check_political(table)
    if problems:
        raise ValueError("decks.political: " + "; ".join(problems))
    decks: dict[tuple[int, str], list[Card]] = {}
    for entry in table:
        card = _card(entry["name"], entry.get("text", ""), entry.get("francs", 1), entry.get("plus", 0),
                     entry.get("gdp", 0), entry.get("zone", 0))
        decks.setdefault((entry["level"], entry["regime"]), []).extend([card] * entry.get("copies", 1))
    return decks


def draw_political(state: State, level: int, regime: str, rng: random.Random) -> Card:
    """One card of the deck for `level` and `regime`, drawn with replacement: one `rng.randrange(len(deck))`
    (GG-OQ-02: every draw is from the whole deck, as if the card were shuffled back at once)."""
    deck = political_decks(state)[(level, regime)]
    return deck[rng.randrange(len(deck))]


def francs_of(card: Card, spending: int) -> int:
    """The turn's Francs: the political spending times the card's factor, rounded down, plus its bonus; never
    below 0 ("You receive the amount of in-game cash equal to your political spending (in GDP), subject to
    modifications on the political cards themselves")."""
    times = Fraction(str(card.get("francs", 1)))
    return max(0, math.floor(spending * times) + card.get("plus", 0))


def effects(card: Card) -> str:
    """A card's effects in words: "Francs x1.5", "+5 Francs", "GDP -2 next turn", "a zone loses 1"."""
    parts = []
    times = Fraction(str(card.get("francs", 1)))
    if times != 1:
        parts.append(f"Francs x{_number(times)}")
    if card.get("plus", 0):
        parts.append(f"{card['plus']:+d} Francs")
    if card.get("gdp", 0):
        parts.append(f"GDP {card['gdp']:+d} next turn")
    if card.get("zone", 0):
        parts.append(f"a zone loses {card['zone']}")
    return ", ".join(parts) or "no effect"


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


# ---- the victory deck -----------------------------------------------------------------------------------------

FRANCS, TERRITORIES, GDP, BOMB, DESTROY = "francs", "territories", "gdp", "bomb", "destroy"
#: "Players will draw randomly from the following options (assuming 10 players in the game)".
DEFAULT_VICTORY: dict[str, int] = {FRANCS: 10, TERRITORIES: 5, GDP: 10, BOMB: 5, DESTROY: 10}
#: The goal of each countable card: "Accumulate 400 Francs", "Conquer 20 territories", "Reach Domestic GDP of
#: 200"; the bomb's is the research it costs (300).
GOALS: dict[str, int] = {FRANCS: 400, TERRITORIES: 20, GDP: 200, BOMB: 300}
CARD_NAMES = {FRANCS: "Accumulate 400 Francs", TERRITORIES: "Conquer 20 territories",
              GDP: "Reach Domestic GDP of 200", BOMB: "Develop the Atomic Bomb", DESTROY: "Destroy Player X"}
#: The table's deck is for this many players.
TABLE_PLAYERS = 10


def victory_counts(state: State) -> dict[str, int]:
    """The victory deck's make-up for 10 players: the GM's [decks.victory] counts, or the text's table."""
    table = state.get("decks", {}).get("victory")
    if table is None:
        return dict(DEFAULT_VICTORY)
    problems = _check_victory(table)
    if problems:
        raise ValueError("decks.victory: " + "; ".join(problems))
    return {kind: table.get(kind, 0) for kind in DEFAULT_VICTORY}


def victory_deck(counts: Mapping[str, int], players: int) -> list[str]:
    """The deck for `players` (GG-OQ-27): each kind's count for 10 players scaled to `players`, rounded up, so
    every kind keeps a card and the deck never runs short (4 cards a player or more with the text's table; 8
    players: 8, 4, 8, 4, 8)."""
    return [kind for kind, n in counts.items() for _ in range(math.ceil(n * players / TABLE_PLAYERS))]


# ---- checks ---------------------------------------------------------------------------------------------------

def check(table: Any) -> list[str]:
    """The problems of a setup's [decks] table, each naming its key (an empty list: good). Only the political
    and victory decks are looked at; other decks (battle cards) are another module's."""
    if not isinstance(table, dict):
        return [f"decks must be a table, found {table!r}"]
    problems = []
    if "political" in table:
        problems += [f"decks.political: {p}" for p in _check_political(table["political"])]
    if "victory" in table:
        problems += [f"decks.victory: {p}" for p in _check_victory(table["victory"])]
    return problems


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_political(table: Any) -> list[str]:
    if not isinstance(table, list) or not all(isinstance(e, dict) for e in table):
        return ["must be [[decks.political]] tables, one a card"]
    problems = []
    for n, entry in enumerate(table, start=1):
        where = f"card #{n}"
        unknown = sorted(set(entry) - TABLE_KEYS)
        if unknown:
            problems.append(f"{where}: unknown key {', '.join(unknown)} (a card has {', '.join(sorted(TABLE_KEYS))})")
        if not isinstance(entry.get("name"), str) or not entry.get("name"):
            problems.append(f"{where}: name must be a word or more")
        if not isinstance(entry.get("text", ""), str):
            problems.append(f"{where}: text must be a string")
        if entry.get("level") not in POLITICAL_LEVELS or not _whole(entry.get("level")):
            problems.append(f"{where}: level must be one of {', '.join(map(str, POLITICAL_LEVELS))}")
        if entry.get("regime") not in REGIMES:
            problems.append(f"{where}: regime must be {' or '.join(REGIMES)}")
        francs = entry.get("francs", 1)
        if isinstance(francs, bool) or not isinstance(francs, int | float) or not 0 <= francs <= MOST_FRANCS:
            problems.append(f"{where}: francs must be a number from 0 to {MOST_FRANCS} (the Francs' factor)")
        for key in ("plus", "gdp"):
            if not _whole(entry.get(key, 0)):
                problems.append(f"{where}: {key} must be a whole number")
        for key, least in (("zone", 0), ("copies", 1)):
            if not _whole(entry.get(key, least)) or entry.get(key, least) < least:
                problems.append(f"{where}: {key} must be a whole number of at least {least}")
    given = {(e.get("level"), e.get("regime")) for e in table}
    for level in POLITICAL_LEVELS:
        for regime in REGIMES:
            if (level, regime) not in given:
                problems.append(f"no card for the deck {deck_name(level, regime)} (level {level}, {regime})")
    return problems


def _check_victory(table: Any) -> list[str]:
    if not isinstance(table, dict):
        return ["must be a table of counts: francs, territories, gdp, bomb, destroy"]
    problems = [f"unknown card {key} (the cards are {', '.join(DEFAULT_VICTORY)})"
                for key in table if key not in DEFAULT_VICTORY]
    problems += [f"{key} must be a whole number of at least 0" for key, n in table.items()
                 if key in DEFAULT_VICTORY and (not _whole(n) or n < 0)]
    if not problems and sum(table.values()) < TABLE_PLAYERS:
        problems.append(f"the deck has {sum(table.values())} cards: at least {TABLE_PLAYERS} (one a player of the "
                        f"{TABLE_PLAYERS} it is counted for)")
    return problems
