"""Secret victory cards (End Game, Alternate Victory Conditions): dealt once every country is picked, checked at
each reconciliation, scored when the last turn ends with nobody having won.

A player's card is ``{"kind": ..., "name": ...}``, with ``"target"`` (a player's name) for "Destroy Player X".
Readings: docs/grand-game.md, "Victory and the end" (GG-OQ-09, GG-OQ-27)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from . import decks
from .decks import BOMB, CARD_NAMES, DESTROY, FRANCS, GDP, GOALS, TERRITORIES
from .economy import destroy_score, goal_score, has_bomb
from .report import Report
from .state import State, board, country_name, held_by, player, playing

TITLE = "Your victory card"
#: The player's figure a countable card is measured by (territories are counted on the board).
FIGURE = {FRANCS: "francs", GDP: "gdp", BOMB: "research"}


def deal(state: State, rng: random.Random, report: Report) -> None:
    """Deal every player with a country his secret card (once: a player who holds one keeps it). The deck is the
    text's, scaled to the players (decks.victory_deck), shuffled with `rng` and dealt from the top in the
    players' order, without replacement; "Destroy Player X" names one of the OTHER players, drawn with `rng`."""
    names = playing(state)
    deck = decks.victory_deck(decks.victory_counts(state), len(names))
    rng.shuffle(deck)
    for name in names:
        p = player(state, name)
        if p["victory"] is not None:
            continue
        kind = deck.pop()
        card: dict[str, Any] = {"kind": kind, "name": CARD_NAMES[kind]}
        if kind == DESTROY:
            others = [n for n in names if n != name]
            target = others[rng.randrange(len(others))]
            card.update(target=target, name=f"Destroy Player {target}")
        p["victory"] = card
        report.tell(name, TITLE, f"{card['name']}: {goal_words(state, card)}")
        report.tell(name, TITLE, "Nobody else knows it. You win at once when you meet it at a reconciliation.")
        report.event("victory-card", player=name)
    report.say("Victory cards", "Every player has drawn a secret victory card.")


def goal_words(state: State, card: dict[str, Any]) -> str:
    kind = card["kind"]
    if kind == FRANCS:
        return "hold 400 Francs at a reconciliation"
    if kind == TERRITORIES:
        return "hold 20 land territories outside the country you picked"
    if kind == GDP:
        return "reach a GDP of 200"
    if kind == BOMB:
        return "build the atomic bomb (300 units of research)"
    target = card["target"]
    return f"{target} ({country_name(state, target)}) holds no land territory"


def conquered(state: State, name: str) -> int:
    """The land territories `name` holds outside the country he picked: "Conquer 20 territories" (GG-OQ-27)."""
    home = player(state, name)["country"]
    where = board(state)
    return sum(1 for t in held_by(state, name) if where.home_country(t) != home)


def progress(state: State, name: str) -> tuple[int, int] | None:
    """What `name` has reached of his countable goal and the goal (None for "Destroy Player X" or no card)."""
    card = player(state, name)["victory"]
    if card is None or card["kind"] == DESTROY:
        return None
    kind = card["kind"]
    reached = conquered(state, name) if kind == TERRITORIES else player(state, name)[FIGURE[kind]]
    return reached, GOALS[kind]


def met(state: State, name: str) -> bool:
    """Whether `name` meets his card now."""
    card = player(state, name)["victory"]
    if card is None:
        return False
    if card["kind"] == DESTROY:
        return not held_by(state, card["target"])
    if card["kind"] == BOMB:
        return has_bomb(player(state, name)["research"])
    found = progress(state, name)
    assert found is not None
    return found[0] >= found[1]


def winners(state: State) -> list[str]:
    """The players who meet their condition now, in the players' order (the game ends at once when there are
    any; two or more at the same reconciliation win together, GG-OQ-27)."""
    return [name for name in playing(state) if met(state, name)]


def score(state: State, name: str) -> Fraction:
    """A player's end score, 0 to 1: what he reached over his goal ("if your victory condition was "Accumulate
    400 Francs" and you accumulated 350, your end game score would be 87.5%"); "Destroy Player X" the share of
    X's starting territories he has lost (economy.destroy_score)."""
    card = player(state, name)["victory"]
    if card is None:
        return Fraction(0)
    if card["kind"] == DESTROY:
        target = player(state, card["target"])
        return destroy_score(target["start_land"], len(held_by(state, card["target"])))
    found = progress(state, name)
    assert found is not None
    return goal_score(*found)


def scores(state: State) -> dict[str, Fraction]:
    return {name: score(state, name) for name in playing(state)}


def best(state: State) -> list[str]:
    """Who wins when the last turn ends with nobody having met his card: "who came the closest to achieving his
    stated objective", the highest score; players tied for it share the win (GG-OQ-27)."""
    found = scores(state)
    if not found:
        return []
    top = max(found.values())
    return [name for name, s in found.items() if s == top]


def percent(value: Fraction) -> str:
    """87.5% (one decimal at most, rounded down)."""
    tenths = value * 1000 // 1
    return f"{tenths // 10}%" if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10}%"
