"""Galilei's turn order: each turn's sealed bids (rule 1, the base game; GA-OQ-27).

Galilei says nothing of the turn order ("1. Basic Rules (6 players)"), so it is the base game's: each turn
every player buys tokens, and the one who buys the fewest goes first in every phase, the next fewest second,
and so on. By mail the number bought is a sealed bid, opened at the deadline. The setup says which way the
bids order the players (`fewest_first`, the base game's, or the most first) and how ties are broken:

- ``"receipt"`` (the default, as the issue asks): the earlier mail goes first;
- ``"capital choice"``: the base game's, "broken by who picked country last at the start of the game",
  read as the player who chose his capital later in the opening draft goes first (it compensates the
  later chooser); the receipt order then breaks what is left.

A player who sends no bid buys no tokens: he bids 0 and ranks after every mail among those who bid 0.
Which receipt counts for a replaced bid is that of the mail carrying the bid in force (as GA-OQ-26).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from maild.ranking import By, Placed, rank

from .opening import NO_MAIL

TURN_BID = "the turn bid"
CAPITAL_CHOICE = "the later choice of capital"
TieBreak = Literal["receipt", "capital choice"]


@dataclass(frozen=True)
class TurnBid:
    """A player's sealed turn-order bid (tokens bought); `seq` the receipt of the mail carrying it."""

    player: str
    amount: int
    seq: int
    mailed: bool = True


def check_turn_bid(amount: object, most: int | None = None) -> str | None:
    """Why a turn bid is refused at intake, or None: a whole number from 0 up, no more than `most` (what the
    player can buy, when the engine knows it)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        return "the turn bid must be a whole number"
    if amount < 0:
        return "the turn bid cannot be negative"
    if most is not None and amount > most:
        return f"the turn bid ({amount}) is more than you can buy ({most})"
    return None


def turn_order(bids: Sequence[TurnBid], *, players: Sequence[str] | None = None, fewest_first: bool = True,
               ties: TieBreak = "receipt", capital_picks: Sequence[str] | None = None) -> list[Placed[TurnBid]]:
    """The players in turn order (place 1 first), each with the criterion that put him after the one before.

    `bids`: one in force per player. `players`: everyone who had to bid (a missing one bids 0 after every
    mail). `fewest_first`: the base game's direction. `ties`: see the module docstring; ``"capital choice"``
    needs `capital_picks`, the players in the order they chose their capitals in the opening."""
    by_player: dict[str, TurnBid] = {}
    for b in bids:
        if b.player in by_player:
            raise ValueError(f"{b.player} has two turn bids in force")
        reason = check_turn_bid(b.amount)
        if reason:
            raise ValueError(f"{b.player}: {reason}")
        by_player[b.player] = b
    for p in players or ():
        by_player.setdefault(p, TurnBid(p, 0, NO_MAIL, mailed=False))
    chain: list[By[TurnBid]] = [By(TURN_BID, lambda b: b.amount, descending=not fewest_first)]
    if ties == "capital choice":
        if capital_picks is None:
            raise ValueError("the capital-choice tie-break needs the order the capitals were chosen in")
        at = {p: i for i, p in enumerate(capital_picks)}
        missing = [p for p in by_player if p not in at]
        if missing:
            raise ValueError(f"not in the capital choice order: {', '.join(sorted(missing))}")
        chain.append(By(CAPITAL_CHOICE, lambda b: at[b.player], descending=True))
    elif ties != "receipt":
        raise ValueError(f"unknown tie-break {ties!r}")
    return rank(by_player.values(), chain, seq=lambda b: b.seq, name=lambda b: b.player)
