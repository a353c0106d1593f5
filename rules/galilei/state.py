"""The Galilei game state: one JSON dict the framework stores, read and written through these helpers.

Layout (every key is written by `setup.new_game`):

- ``players``: name -> ``{"email", "password", "seat", "capital", "advances": {advance: bool}}``; ``seat`` is
  the setup's order (1..6), used before the first turn-order bid; ``capital`` is None until the opening
  draft gives one; ``advances`` holds the advances that matter to maild (ADVANCES), as declared by the player
  in his battle orders or set by the GM (`gm advances`).
- ``capitals``: the six capitals of the setup, in its order (the draft's pool order).
- ``deck``: the cards, as cards.py's Card fields (``id``, ``name``, ``epoch``, ``kind``, ...); ``epoch``: the
  epoch now drawn from; ``held``: name -> the card ids he holds (public, 3.1); ``discarded``: the card ids
  discarded, in order.
- ``order``: the players in turn order, position 1 first (3.3, 3.4 read positions from it).
- ``luck``: a `maild.ledger.Ledger` dict, currency LUCK: every posting a four-digit decimal, each score their
  exact sum (3.10, GA-OQ-04), written as decimal strings ("-0.0972"); a game stored before that reading may
  hold other fractions ("p/q"), read as they are.
- ``rolls``: the public history of every battle, war and mill roll (3.4): one dict per roll.
- ``shortage``: ``{"history": name -> the sides he determined, oldest first (shortage.py's balance),
  "chaosed": [names] (this turn's, set by the GM), "results": [the last two results]}``.
- ``option_312``: whether option 3.12 is in force; ``table``: the shortage/surplus table of the setup.
- the setup's choices (`setup.py`; read with `choice`, which gives the default to a game created before
  they existed): ``starting_cash`` (the bound of the opening's two bids together, None: none),
  ``fewest_first`` and ``ties`` (the turn order), ``cards_each`` (the opening's cards), ``cards_per_turn``.
- ``opening``: the published result of the opening double bid (3.2), None before it.
- ``turn_bids``: the last turn-order bids, published; ``draws``: the last card draft, published.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from maild.ledger import Ledger

from .cards import Card
from .luck import DIGITS, LuckLedger

#: The one currency of the luck ledger.
LUCK = "luck"
#: The advances maild reads (issue: "advances that matter here"): their keys in a player's ``advances``.
ADVANCES = ("proselytism", "cathedral", "mill", "military", "master_art")
ADVANCE_WORDS = {"proselytism": "Proselytism", "cathedral": "Cathedral", "mill": "Wind/Watermill",
                 "military": "military advantage", "master_art": "Master Art"}
#: Rule 1: "Basic Rules (6 players)".
PLAYERS = 6


#: The setup's choices and their defaults, for a state written before a choice existed.
CHOICES: dict[str, Any] = {"starting_cash": None, "fewest_first": True, "ties": "receipt", "cards_each": 1,
                           "cards_per_turn": 1}


def choice(state: dict[str, Any], key: str) -> Any:
    """The setup's choice `key` (CHOICES), its default if the state predates it."""
    return state.get(key, CHOICES[key])


def luck_ledger(state: dict[str, Any]) -> Ledger:
    """The luck ledger over ``state["luck"]``: scores may go below zero (3.4 "negative luck points")."""
    return Ledger(state["luck"], negative={LUCK}, decimals=DIGITS)


def luck(state: dict[str, Any]) -> LuckLedger:
    """The luck ledger as battles.py and luck.py read it (scores, postings in order)."""
    return LuckLedger(state["luck"])


def deck(state: dict[str, Any]) -> list[Card]:
    """The deck of the state as cards.py's Card values."""
    return [Card(**c) for c in state["deck"]]


def deck_json(cards: list[Card]) -> list[dict[str, Any]]:
    """The deck as plain values for the state."""
    return [asdict(c) for c in cards]


def card_names(state: dict[str, Any]) -> dict[str, str]:
    """Card id -> its printed name, for the published lines."""
    return {c["id"]: c["name"] for c in state["deck"]}


def order(state: dict[str, Any]) -> list[str]:
    """The players in turn order, position 1 first."""
    return list(state["order"])


def position(state: dict[str, Any], player: str) -> int:
    """A player's 1-based position in the turn order."""
    return order(state).index(player) + 1


def owner_of(state: dict[str, Any], word: str) -> str | None:
    """The player named `word` (any case), or holding the capital `word`; None if neither."""
    w = word.strip().lower()
    for name, p in state["players"].items():
        if name.lower() == w or (p.get("capital") or "").lower() == w:
            return name
    return None
