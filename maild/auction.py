"""Sealed-bid auctions of identical units: rank the bids, then serve them in turn until the supply is gone.

Shared by every game that sells lots to sealed bids. A bid names a price per unit and the most units the
bidder wants. Bids are served from the highest price down; equal prices go by receipt sequence (the
earlier mail first), because a player cannot see the others' bids and so "first come" is the only fair
order left. Each bid served takes min(units wanted, units left). A bid whose bidder cannot pay in full for
what it would take when its turn comes is nullified — not partly filled — and the next bid is served.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from maild import ranking

Outcome = Literal["won", "partly_won", "lost", "nullified"]


@dataclass(frozen=True, slots=True)
class Bid:
    bidder: str
    price: int  # per unit
    units: int  # the most units wanted
    seq: int  # receipt sequence of the mail that carried the bid: earlier mail wins a tie on price


@dataclass(frozen=True, slots=True)
class Award:
    """What became of one bid."""

    bid: Bid
    outcome: Outcome
    rank: int  # 1-based place in the ranking of all bids for the lot
    units: int  # units won (0 unless won or partly won)
    paid: int  # units × price
    needed: int = 0  # for a nullified bid: what it would have cost
    had: int = 0  # for a nullified bid: what the bidder had at that moment


@dataclass(frozen=True, slots=True)
class Sale:
    awards: list[Award]  # in ranking order
    left: int  # units nobody took
    funds: dict[str, int] | None  # everybody's funds after paying, or None if funds were not limited


_BY_PRICE: list[ranking.By[Bid]] = [ranking.By("the price", lambda b: b.price)]


def rank_bids(bids: Iterable[Bid]) -> list[Bid]:
    """Highest price first; equal prices by receipt sequence, earlier first.

    The bidder's name breaks what is left so the order never depends on the input's order; with one mail
    per receipt sequence it only matters for two bids from one mail, which a game normally forbids.
    """
    return ranking.order_by(bids, _BY_PRICE, seq=lambda b: b.seq, name=lambda b: b.bidder)


def sell(supply: int, bids: Iterable[Bid], funds: Mapping[str, int] | None = None) -> Sale:
    """Serve `bids` from `supply` units. With `funds`, a bidder pays as the bid is served and a bid that
    would cost more than the bidder has left is nullified; a bidder missing from `funds` has nothing."""
    if supply < 0:
        raise ValueError(f"supply must not be negative, got {supply}")
    ranked = rank_bids(bids)
    for bid in ranked:
        if bid.price < 0 or bid.units < 1:
            raise ValueError(f"a bid needs a price >= 0 and at least one unit: {bid}")
    wallet = dict(funds) if funds is not None else None
    left = supply
    awards: list[Award] = []
    for rank, bid in enumerate(ranked, start=1):
        if left == 0:
            awards.append(Award(bid, "lost", rank, 0, 0))
            continue
        take = min(bid.units, left)
        cost = take * bid.price
        if wallet is not None:
            have = wallet.get(bid.bidder, 0)
            if cost > have:
                awards.append(Award(bid, "nullified", rank, 0, 0, needed=cost, had=have))
                continue
            wallet[bid.bidder] = have - cost
        left -= take
        awards.append(Award(bid, "won" if take == bid.units else "partly_won", rank, take, cost))
    return Sale(awards, left, wallet)
