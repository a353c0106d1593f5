"""A draft: choosers take items from a common pool in a fixed order, each by his own preference list.

For games where a ranking decides who chooses first (Galilei: "the highest bidder in each category getting
first to chose card (first) and capital (later) and so on"; the choosers' order comes from
`maild.ranking.rank`). Every chooser sends his list at once, sealed, so nobody waits for the others' turns.

`draft(order, pool, preferences)`:

- Choosers pick one at a time in `order`; a chooser named twice in `order` picks twice (more rounds are
  the order written out as the game wants: repeated, or reversed for a snake).
- At his pick a chooser takes the first item of his list that is still free. Items of his list already
  taken are passed over and listed in the pick's ``passed_over`` (for the report: "your first choice went
  to ..."); an item that is not in the pool at all is passed over silently (the game checks lists against
  the pool at intake and tells the player there).
- A chooser with no list, or whose list has nothing free left, gets the default: by default the first free
  item in the pool's own order (the order the game gives the pool, e.g. the catalogue); a game may pass its
  own ``default(chooser, free)`` that returns one of the free items or None. Such a pick says ``by =
  "default"``.
- When the pool is empty the pick is ``item=None``, ``by="none"``.
- Pool items are distinct and hashable; each is taken at most once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

I = TypeVar("I", bound=Hashable)  # noqa: E741 - the item type
How = Literal["list", "default", "none"]


@dataclass(frozen=True)
class Pick(Generic[I]):
    chooser: str
    item: I | None
    by: How  # from his list, by the default, or nothing left
    passed_over: tuple[I, ...] = ()  # items of his list ahead of this one that were already taken


def first_free(chooser: str, free: list[I]) -> I | None:
    """The default: the first free item in the pool's order."""
    return free[0] if free else None


def draft(order: Sequence[str], pool: Sequence[I], preferences: Mapping[str, Sequence[I]], *,
          default: Callable[[str, list[I]], I | None] = first_free) -> list[Pick[I]]:
    """The picks in `order` (see the module docstring)."""
    if len(set(pool)) != len(pool):
        raise ValueError("the pool has an item twice")
    free: dict[I, None] = dict.fromkeys(pool)  # insertion-ordered: the pool's order
    taken: set[I] = set()
    read_to: dict[str, int] = {}  # how far each chooser's list has been read
    picks: list[Pick[I]] = []
    for chooser in order:
        wanted = preferences.get(chooser, ())
        at = read_to.get(chooser, 0)
        passed: list[I] = []
        item: I | None = None
        while at < len(wanted) and item is None:
            candidate = wanted[at]
            at += 1
            if candidate in free:
                item = candidate
            elif candidate in taken:
                passed.append(candidate)
        read_to[chooser] = at
        how: How = "list"
        if item is None:
            item = default(chooser, list(free))
            if item is not None and item not in free:
                raise ValueError(f"the default for {chooser} gave {item!r}, which is not free")
            how = "default" if item is not None else "none"
        if item is not None:
            del free[item]
            taken.add(item)
        picks.append(Pick(chooser, item, how, tuple(passed)))
    return picks
