"""Battle cards (GG-OQ-01): one card drawn for each land battle, shifting the attacker's chance of victory by a
few percentage points.

The rules announce them and give none: "Battle cards have been introduced: battle cards are drawn for every
battle affect the outcome of every battle. No battle card should affect the outcome by more than 25%", "it
should never change the odds more than 25% in either direction; most will change the odds less than 10%".
DEFAULT_DECK is a small deck WRITTEN FOR THIS PROJECT (not the original game's cards, which were never
published): twelve cards, each a change of the attacker's victory chance in percentage points, two at the
bound of 25, the rest 10 or less, as many for the attack as for the defense (the deck's changes add up to 0).
A setup's ``[decks] battle = [{name = "...", attack = 5}, ...]`` replaces it (checked by `check_deck`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .chances import pick

#: "No battle card should affect the outcome by more than 25%": percentage points of the victory chance.
MOST = 25


@dataclass(frozen=True)
class Card:
    name: str
    attack: int  # percentage points added to the attacker's chance of victory (negative: the defender's favour)

    def line(self) -> str:
        side = "attack" if self.attack > 0 else "defense"
        return f"'{self.name}' ({abs(self.attack)} points for the {side})" if self.attack else f"'{self.name}'"


DEFAULT_DECK: tuple[Card, ...] = (
    Card("Fog of war", 0),
    Card("Stalemate on the line", 0),
    Card("Scouts find a ford", 5),
    Card("Sentries asleep", 5),
    Card("Artillery ranged in", 10),
    Card("Dawn surprise", 25),
    Card("Mud on the roads", -5),
    Card("Dug in", -5),
    Card("Flank holds", -10),
    Card("Ammunition dump explodes", -25),
    Card("Runner gets through", 3),
    Card("Orders misread", -3),
)


def check_deck(data: Any) -> list[str]:
    """What is wrong with a deck as a setup writes it (a list of tables with `name` and `attack`), one line each."""
    if not isinstance(data, list) or not data:
        return ["decks.battle must be a non-empty list of cards ({name = \"...\", attack = 5})"]
    problems = []
    for i, card in enumerate(data, start=1):
        if not isinstance(card, dict) or set(card) != {"name", "attack"}:
            problems.append(f"decks.battle card #{i}: a card has exactly a name and an attack")
            continue
        if not isinstance(card["name"], str) or not card["name"].strip():
            problems.append(f"decks.battle card #{i}: name must be a non-empty string")
        attack = card["attack"]
        if isinstance(attack, bool) or not isinstance(attack, int) or abs(attack) > MOST:
            problems.append(f"decks.battle card #{i}: attack must be a whole number of points from -{MOST} to "
                            f"{MOST} (\"never change the odds more than 25% in either direction\"), found {attack!r}")
    return problems


def deck(state: dict[str, Any]) -> tuple[Card, ...]:
    """The game's battle deck: the setup's `decks.battle` when given (refused with ValueError when it is not a
    deck), else DEFAULT_DECK; an empty deck when the setup plays without battle cards."""
    if not state.get("options", {}).get("battle_cards", True):
        return ()
    data = state.get("decks", {}).get("battle")
    if data is None:
        return DEFAULT_DECK
    problems = check_deck(data)
    if problems:
        raise ValueError("; ".join(problems))
    return tuple(Card(c["name"], c["attack"]) for c in data)


def draw(cards: tuple[Card, ...], rng: random.Random) -> Card | None:
    """One card for a battle, every card equally likely, the deck whole again for the next battle (a card is
    put back: a game fights far more battles than any deck has cards)."""
    return cards[pick(len(cards), rng)] if cards else None


def shifted(chance: Fraction, card: Card | None) -> Fraction:
    """The attacker's chance of victory with `card`: shifted by its points, kept within 0 and 1. A sure
    outcome (a side with no strength) stays sure: a card changes the odds of a fight, not who can fight."""
    if card is None or chance in (0, 1):
        return chance
    return min(max(chance + Fraction(card.attack, 100), Fraction(0)), Fraction(1))
