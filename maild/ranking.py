"""Ranking sealed bids: a chain of tie-breaks, then the receipt sequence, then the bidder's name.

For every game that orders players by what they wrote unseen: Venice's auction (price, then the earlier
mail; `maild/auction.py` ranks with this), Galilei's opening ("the highest bidder in each category getting
first to chose ... In case of ties global bid will be taken into account. In case of double tie, the first
message received goes first"), turn-order bids.

`rank(entries, chain, seq=..., name=...)` sorts by each `By` of `chain` in turn (highest first unless
``descending=False``), then by receipt sequence (the smaller, i.e. the earlier mail, first), then by the
bidder's name, so the result never depends on the order the entries are given in. Each `Placed` entry
carries its 1-based place and ``decided_by``: the name of the first criterion that put it after the entry
before it ("the global bid", "the first mail received", ...), for a report that says why; None for the first
entry, and for an entry equal to the one before on every criterion (two entries from one bidder in one
mail, which a game should not let in: they keep the order given).

Which receipt sequence counts (that of the first bid, or of the mail carrying the bid in force) is the
caller's to choose; a resubmission policy's `PlacedOrder.seq` is the latter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")

RECEIPT = "the first mail received"
NAME = "the bidder's name"


@dataclass(frozen=True)
class By(Generic[T]):
    """One criterion of the chain: a key of an entry, and the words a report uses for it."""

    name: str
    key: Callable[[T], Any]
    descending: bool = True


@dataclass(frozen=True)
class Placed(Generic[T]):
    entry: T
    place: int  # 1-based
    decided_by: str | None  # the criterion that put it after the entry before it


def rank(entries: Iterable[T], chain: Sequence[By[T]], *, seq: Callable[[T], int],
         name: Callable[[T], str]) -> list[Placed[T]]:
    """`entries` ranked by `chain`, then receipt sequence, then name (see the module docstring)."""
    criteria: list[By[T]] = [*chain, By(RECEIPT, seq, descending=False), By(NAME, name, descending=False)]
    ordered = list(entries)
    for criterion in reversed(criteria):  # stable sorts, least significant first
        ordered.sort(key=criterion.key, reverse=criterion.descending)
    placed: list[Placed[T]] = []
    for i, entry in enumerate(ordered):
        decided = None
        if i:
            before = ordered[i - 1]
            decided = next((c.name for c in criteria if c.key(entry) != c.key(before)), None)
        placed.append(Placed(entry, i + 1, decided))
    return placed
