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

`order_by` gives the same order without places and reasons, for hot paths (the auction).

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


def _runs(criteria: Sequence[By[T]]) -> list[tuple[list[int], bool]]:
    """The criteria's indices cut into runs of one direction, most significant run first."""
    runs: list[tuple[list[int], bool]] = []
    for i, c in enumerate(criteria):
        if runs and runs[-1][1] == c.descending:
            runs[-1][0].append(i)
        else:
            runs.append(([i], c.descending))
    return runs


def _ranked(entries: Iterable[T], criteria: list[By[T]]) -> tuple[list[T], list[tuple[Any, ...]], list[int]]:
    """The entries, each one's keys (computed once), and the ranked order as indices into them."""
    items = list(entries)
    keys = [tuple(c.key(e) for c in criteria) for e in items]
    order = list(range(len(items)))
    # One stable sort per run of criteria that go the same way, least significant run first.
    for indices, descending in reversed(_runs(criteria)):
        run_keys = [k[indices[0]] for k in keys] if len(indices) == 1 else [tuple(k[j] for j in indices) for k in keys]
        order.sort(key=run_keys.__getitem__, reverse=descending)
    return items, keys, order


def _criteria(chain: Sequence[By[T]], seq: Callable[[T], int], name: Callable[[T], str]) -> list[By[T]]:
    return [*chain, By(RECEIPT, seq, descending=False), By(NAME, name, descending=False)]


def order_by(entries: Iterable[T], chain: Sequence[By[T]], *, seq: Callable[[T], int],
             name: Callable[[T], str]) -> list[T]:
    """The entries in the order `rank` gives, without places and reasons (for hot paths)."""
    items, _, order = _ranked(entries, _criteria(chain, seq, name))
    return [items[i] for i in order]


def rank(entries: Iterable[T], chain: Sequence[By[T]], *, seq: Callable[[T], int],
         name: Callable[[T], str]) -> list[Placed[T]]:
    """`entries` ranked by `chain`, then receipt sequence, then name (see the module docstring)."""
    criteria = _criteria(chain, seq, name)
    items, keys, order = _ranked(entries, criteria)
    placed: list[Placed[T]] = []
    for place, i in enumerate(order, start=1):
        decided = None
        if place > 1:
            mine, before = keys[i], keys[order[place - 2]]
            decided = next((c.name for c, a, b in zip(criteria, mine, before, strict=True) if a != b), None)
        placed.append(Placed(items[i], place, decided))
    return placed
