"""Galilei's cards: the deck, what is available, the public draw, and Master Art's discard (rules 2, 3.1).

Rule 3.1: "The cards are public, and one selects which card wants when it is his turn to draw a card among
those available." Rule 2: "Purchase of Master Art allows immediate discard. Further discards take place as
usual". The readings (GA-OQ-28, GA-OQ-29) are in docs/galilei.md, "The opening, turn order and cards".

Everything here is pure: the engine keeps in its state which cards each player holds and which are
discarded, and calls

- `load_deck(text)` / `default_deck()`: the deck from a TOML file the GM can replace
  (examples/galilei/cards.toml ships the Age of Renaissance history cards); `deck_from_tables(tables)` for
  cards a setup lists inline;
- `offer(deck, epoch, held, discarded)`: the cards a player may draw now, in the deck's order;
- `opening_pool(deck)`: the cards the opening draft (3.2) chooses among;
- `draw(order, offered, preferences, per_player)`: the draft of a draw phase, every pick published;
- `discards_allowed(...)` and `discard(hand, card)`: Master Art's immediate discard and the usual one.

A card is named in orders and lists by its `id` (two Stone cards are "Stone-1" and "Stone-2");
`find_card(deck, written)` reads what a player wrote, forgiving case and blanks.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from maild.draft import Pick, draft
from maild.paths import EXAMPLES_DIR

Kind = Literal["commodity", "event", "leader"]
KINDS: tuple[Kind, ...] = ("commodity", "event", "leader")
EPOCHS = (1, 2, 3)
DEFAULT_DECK = EXAMPLES_DIR / "galilei" / "cards.toml"


class DeckError(ValueError):
    """A deck file the game cannot use; the message names the card and what is wrong."""


@dataclass(frozen=True)
class Card:
    id: str  # unique in the deck; what players write
    name: str  # the printed name (two cards may share it)
    epoch: int  # 1, 2 or 3
    kind: Kind
    credit: int | None = None  # a leader's printed credit toward advances
    cost: int | None = None  # what holding it costs, where the GM's edition prints one
    held_out: bool = False  # kept out of the base game's starting deal


def load_deck(text: str) -> list[Card]:
    """The deck written in TOML as ``[[card]]`` tables (see examples/galilei/cards.toml), in file order.

    Raises DeckError for invalid TOML or a file without cards, and for what `deck_from_tables` refuses."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DeckError(f"the deck is not valid TOML: {e}") from None
    return deck_from_tables(data.get("card"))


def deck_from_tables(tables: object) -> list[Card]:
    """The deck from a list of tables (a deck file's ``[[card]]``, or cards a setup file lists inline).

    Each table has `name`, `epoch`, `kind` and may have `id` (the name when left out), `credit`, `cost`,
    `held_out`. Raises DeckError for a missing field, an unknown kind or epoch, a negative credit or cost,
    an unknown field, or an id used twice (ids are compared without regard to case and blanks, as
    `find_card` reads them: two cards of one name need ids of their own)."""
    if not isinstance(tables, list) or not tables:
        raise DeckError("the deck has no [[card]] entries")
    deck: list[Card] = []
    seen: dict[str, str] = {}
    for n, t in enumerate(tables, 1):
        where = f"card {n}"
        if not isinstance(t, dict):
            raise DeckError(f"{where} is not a table")
        for field in ("name", "epoch", "kind"):
            if field not in t:
                raise DeckError(f"{where} has no {field}")
        name, epoch, kind = t["name"], t["epoch"], t["kind"]
        card_id = t.get("id", name)
        if not isinstance(card_id, str) or not card_id.strip():
            raise DeckError(f"{where}: the id must be a non-empty string")
        where = f"card {n} ({card_id})"
        if not isinstance(name, str) or not name.strip():
            raise DeckError(f"{where}: the name must be a non-empty string")
        if isinstance(epoch, bool) or epoch not in EPOCHS:
            raise DeckError(f"{where}: epoch must be 1, 2 or 3, not {epoch!r}")
        if kind not in KINDS:
            raise DeckError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
        numbers: dict[str, int | None] = {}
        for field in ("credit", "cost"):
            v = t.get(field)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                raise DeckError(f"{where}: {field} must be a whole number from 0 up, not {v!r}")
            numbers[field] = v
        held_out = t.get("held_out", False)
        if not isinstance(held_out, bool):
            raise DeckError(f"{where}: held_out must be true or false")
        unknown = set(t) - {"id", "name", "epoch", "kind", "credit", "cost", "held_out"}
        if unknown:
            raise DeckError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        key = _fold(card_id)
        if key in seen:
            raise DeckError(f"{where}: the id is already used by {seen[key]!r}")
        seen[key] = card_id
        deck.append(Card(card_id.strip(), name.strip(), epoch, kind, numbers["credit"], numbers["cost"], held_out))
    return deck


def default_deck() -> list[Card]:
    """The deck shipped with maild: Age of Renaissance's history cards (examples/galilei/cards.toml)."""
    return load_deck(DEFAULT_DECK.read_text(encoding="utf-8"))


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def find_card(deck: Sequence[Card], written: str) -> Card | None:
    """The card whose id is `written`, ignoring case and runs of blanks; None when there is none.

    Where the id fails, a printed name that only one card of the deck bears is accepted too ("War!" for the
    card "War"); a name two cards share ("Stone") needs the id, as the ack tells the player."""
    key = _fold(written)
    for card in deck:
        if _fold(card.id) == key:
            return card
    named = [card for card in deck if _fold(card.name) == key]
    return named[0] if len(named) == 1 else None


def offer(deck: Sequence[Card], epoch: int, held: Collection[str], discarded: Collection[str]) -> list[Card]:
    """The cards available to draw now (GA-OQ-28), in the deck's order.

    Available: every card of the current epoch or an earlier one that nobody holds and that is not in the
    discard pile. Cards of a later epoch are not yet in play. `held` and `discarded` are card ids; the engine
    empties `discarded` when a new epoch begins, as the base game shuffles the discards back into the deck
    then, so those cards are offered again."""
    if epoch not in EPOCHS:
        raise ValueError(f"epoch must be 1, 2 or 3, not {epoch}")
    out = set(held) | set(discarded)
    return [card for card in deck if card.epoch <= epoch and card.id not in out]


def opening_pool(deck: Sequence[Card]) -> list[Card]:
    """The cards the opening draft chooses among (3.2, GA-OQ-25): the Epoch I cards the base game deals
    from at the start, that is every Epoch I card that is not held out of the starting deal."""
    return [card for card in deck if card.epoch == 1 and not card.held_out]


def draw(order: Sequence[str], offered: Sequence[Card], preferences: Mapping[str, Sequence[str]], *,
         per_player: int = 1) -> list[Pick[str]]:
    """The draft of one draw phase (3.1, GA-OQ-28): card ids picked, every pick to be published.

    `order` is the turn order (the player in position 1 first). Each player draws `per_player` cards, one a
    round: round after round in the same order, so the first in turn order has the first choice in each
    round. At his pick a player takes the first card of his preference list (card ids, his choice mailed when
    his turn came or ahead of time) that is still on offer; with no list, or nothing on it left, he gets the
    first card still on offer in the deck's order (`maild.draft.first_free`), a rule he can read and
    predict. When the offer runs out, the picks left say ``by="none"``."""
    if per_player < 0:
        raise ValueError("per_player cannot be negative")
    if len(set(order)) != len(order):
        raise ValueError("a player is named twice in the order")
    return draft(list(order) * per_player, [card.id for card in offered], preferences)


def discards_allowed(*, holds_master_art: bool, bought_master_art_now: bool, discarded_this_turn: int) -> int:
    """How many cards a player may still discard this turn (rule 2, GA-OQ-29).

    The base game lets a holder of Master Art discard one card a turn, in the Buy Cards phase, which comes
    before the Purchase phase where advances are bought. "Purchase of Master Art allows immediate discard.
    Further discards take place as usual": the turn he buys it, a player discards one card at once (he could
    not in that turn's Buy Cards phase, not holding it yet); from the next turn on, one a turn as usual. So
    one discard a turn for a buyer or a holder, none for anybody else, less what he discarded this turn.
    (`holds_master_art` may already be true for the buyer: buying it now allows the same one discard, at once,
    in the Purchase phase; a holder's discard belongs to the Buy Cards phase, which the engine enforces.)"""
    if discarded_this_turn < 0:
        raise ValueError("discarded_this_turn cannot be negative")
    allowed = 1 if bought_master_art_now or holds_master_art else 0
    return max(0, allowed - discarded_this_turn)


def discard(hand: Sequence[str], card: str) -> list[str]:
    """The hand (card ids) without `card`; ValueError when the player does not hold it. The card goes to the
    discard pile, which the engine keeps (it is public, as every card is: 3.1 "so let's make it public")."""
    if card not in hand:
        raise ValueError(f"{card!r} is not in the hand")
    rest = list(hand)
    rest.remove(card)
    return rest
