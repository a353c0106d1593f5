"""Galilei's opening: the double bid and the draft of cards and capitals (rule 3.2).

"At the start, no card is dealt. Instead, the players bid 2 simultaneously quantities (one for card and
another for capital) as normal with the highest bidder in each category getting first to chose card (first)
and capital (later) and so on. In case of ties global bid will be taken into account. In case of double tie,
the first message received goes first."

Each player mails, sealed, two amounts and may add preference lists of cards and capitals, so the whole
draft resolves at the deadline without another round. `resolve_opening` ranks the card bids and the capital
bids (`maild.ranking.rank`: the category's bid, then the global bid, then the receipt order of the mail),
then drafts the cards and the capitals in those orders (`maild.draft.draft`). The readings GA-OQ-24..26 are
in docs/galilei.md, "The opening, turn order and cards":

- the global bid is the sum of the player's two bids, the higher first (GA-OQ-24);
- both bids are paid from the player's starting cash, whatever he wins, and every bid is published after the
  deadline; each player drafts `cards_each` cards (the setup's number) from the Epoch I cards of the starting
  deal, and one capital (GA-OQ-25);
- the receipt that counts is that of the mail carrying the bid in force (GA-OQ-26).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from maild.draft import Pick, draft
from maild.ranking import By, Placed, rank

CARD_BID = "the card bid"
CAPITAL_BID = "the capital bid"
GLOBAL_BID = "the global bid"
NO_MAIL = 2**62  # the receipt sequence of a player who sent no bid: after every mail


@dataclass(frozen=True)
class OpeningBid:
    """One player's sealed double bid. `seq` is the receipt sequence of the mail carrying the bid in force
    (GA-OQ-26); `mailed` is False for a player who sent none (he bids 0 and 0)."""

    player: str
    cards: int
    capitals: int
    seq: int
    mailed: bool = True

    @property
    def global_bid(self) -> int:
        """GA-OQ-24: the sum of the two bids."""
        return self.cards + self.capitals


@dataclass(frozen=True)
class Preferences:
    """A player's lists, best first: card ids and capital names."""

    cards: tuple[str, ...] = ()
    capitals: tuple[str, ...] = ()


@dataclass(frozen=True)
class OpeningResult:
    """Everything the opening publishes: every bid, both rankings with the reason for each place, every pick,
    and what each player pays."""

    bids: tuple[OpeningBid, ...]  # every bid, in the order of the card ranking
    card_order: list[Placed[OpeningBid]]
    capital_order: list[Placed[OpeningBid]]
    card_picks: list[Pick[str]]
    capital_picks: list[Pick[str]]
    paid: dict[str, int] = field(default_factory=dict)  # both bids, from the starting cash
    cards_of: dict[str, list[str]] = field(default_factory=dict)
    capital_of: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """Plain values for the game's JSON state and the turn's events: every bid, each ranking with place
        and reason, each pick with how it was made."""
        def ranking(order: list[Placed[OpeningBid]]) -> list[dict[str, Any]]:
            return [{"player": p.entry.player, "place": p.place, "decided_by": p.decided_by} for p in order]

        def picks(ps: list[Pick[str]]) -> list[dict[str, Any]]:
            return [{"player": p.chooser, "item": p.item, "by": p.by, "passed_over": list(p.passed_over)}
                    for p in ps]

        return {
            "bids": {b.player: {"cards": b.cards, "capitals": b.capitals, "global": b.global_bid,
                                "mailed": b.mailed} for b in self.bids},
            "card_order": ranking(self.card_order),
            "capital_order": ranking(self.capital_order),
            "card_picks": picks(self.card_picks),
            "capital_picks": picks(self.capital_picks),
            "paid": dict(self.paid),
            "cards_of": {k: list(v) for k, v in self.cards_of.items()},
            "capital_of": dict(self.capital_of),
        }

    @property
    def missing(self) -> list[str]:
        """Players who sent no bid (they bid 0 and 0 and rank after every mail)."""
        return [b.player for b in self.bids if not b.mailed]


def check_bid(cards: object, capitals: object, cash: int | None) -> str | None:
    """Why a double bid is refused at intake, or None: each amount a whole number from 0 up, and together no
    more than the player's starting cash (GA-OQ-25: he pays both), when the setup gives one."""
    for what, v in (("card", cards), ("capital", capitals)):
        if isinstance(v, bool) or not isinstance(v, int):
            return f"the {what} bid must be a whole number"
        if v < 0:
            return f"the {what} bid cannot be negative"
    assert isinstance(cards, int) and isinstance(capitals, int)
    if cash is not None and cards + capitals > cash:
        return f"the two bids together ({cards + capitals}) are more than your starting cash ({cash})"
    return None


def check_preferences(preferences: Preferences, capitals: Sequence[str], cards: Sequence[str]) -> list[str]:
    """What the ack tells a player about his lists: each item that is no capital of the setup, or no card of
    the opening's pool, and each item named twice. The draft passes over such items silently; this is where
    the player hears of them. An empty result means both lists are fine."""
    problems: list[str] = []
    for what, items, known in (("card", preferences.cards, set(cards)), ("capital", preferences.capitals,
                                                                           set(capitals))):
        seen: set[str] = set()
        for item in items:
            if item not in known:
                problems.append(f"{item!r} is not a {what} you can choose at the start")
            elif item in seen:
                problems.append(f"{item!r} is twice in your {what} list")
            seen.add(item)
    return problems


def card_ranking(bids: Sequence[OpeningBid]) -> list[Placed[OpeningBid]]:
    """Who chooses cards first: the card bid, then the global bid, then the earlier mail (then the name)."""
    return rank(bids, [By(CARD_BID, lambda b: b.cards), By(GLOBAL_BID, lambda b: b.global_bid)],
                seq=lambda b: b.seq, name=lambda b: b.player)


def capital_ranking(bids: Sequence[OpeningBid]) -> list[Placed[OpeningBid]]:
    """Who chooses a capital first: the capital bid, then the global bid, then the earlier mail (then the
    name)."""
    return rank(bids, [By(CAPITAL_BID, lambda b: b.capitals), By(GLOBAL_BID, lambda b: b.global_bid)],
                seq=lambda b: b.seq, name=lambda b: b.player)


def resolve_opening(bids: Sequence[OpeningBid], capitals: Sequence[str], cards: Sequence[str],
                    preferences: Mapping[str, Preferences], *, players: Sequence[str] | None = None,
                    cards_each: int = 1, cash: int | None = None) -> OpeningResult:
    """The opening resolved (see the module docstring).

    `bids`: the bids in force, one per player. `capitals`: the capitals in the setup's order. `cards`: the
    card ids on offer (`cards.opening_pool`), in the deck's order. `preferences`: each player's lists.
    `players`: everyone who had to bid; one without a bid bids 0 and 0 after every mail. `cards_each`: cards
    each player drafts, one a round, every round in the card ranking's order. `cash`: the starting cash the
    bids are checked against (ValueError for a bid that `check_bid` refuses: intake should have).

    A player with no usable list (none, or every item on it taken) gets the first card, or capital, still
    free in the order given (the deck's, the setup's)."""
    by_player: dict[str, OpeningBid] = {}
    for b in bids:
        if b.player in by_player:
            raise ValueError(f"{b.player} has two bids in force")
        reason = check_bid(b.cards, b.capitals, cash)
        if reason:
            raise ValueError(f"{b.player}: {reason}")
        by_player[b.player] = b
    for p in players or ():
        by_player.setdefault(p, OpeningBid(p, 0, 0, NO_MAIL, mailed=False))
    everyone = list(by_player.values())
    if len(capitals) < len(everyone):
        raise ValueError(f"{len(everyone)} players and only {len(capitals)} capitals")
    if cards_each < 0:
        raise ValueError("cards_each cannot be negative")

    card_order = card_ranking(everyone)
    capital_order = capital_ranking(everyone)
    # Cards first, capitals later (3.2); the pools are apart, so the order only fixes what is published first.
    card_picks = draft([p.entry.player for p in card_order] * cards_each, list(cards),
                       {who: prefs.cards for who, prefs in preferences.items()})
    capital_picks = draft([p.entry.player for p in capital_order], list(capitals),
                          {who: prefs.capitals for who, prefs in preferences.items()})
    cards_of: dict[str, list[str]] = {b.player: [] for b in everyone}
    for pick in card_picks:
        if pick.item is not None:
            cards_of[pick.chooser].append(pick.item)
    capital_of = {pick.chooser: pick.item for pick in capital_picks if pick.item is not None}
    return OpeningResult(
        bids=tuple(p.entry for p in card_order),
        card_order=card_order,
        capital_order=capital_order,
        card_picks=card_picks,
        capital_picks=capital_picks,
        paid={b.player: b.global_bid for b in everyone},
        cards_of=cards_of,
        capital_of=capital_of,
    )
