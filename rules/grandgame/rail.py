"""Rail movement and rail permissions (sections Railroads and Railway Permissions).

"a unit which *starts* on a railroad territory ... may move any number of spaces along the railway and must end
at some point along the railway, so long as the player controls all of the railway territories at the beginning
of his turn or obtains written permission from another player to use his railway." "the rail permissions must
accomodate the rail order *as a whole*. If the permission does not grant the full order, *none* of the order is
executed, and teh units travel as far along the railroad as possible before the conflict occurs."
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .economy import SUPPLY


@dataclass
class Permission:
    """One "allow bruno rail ..." line: `grantor` lets `grantee` use his railways within its limits."""

    grantor: str
    grantee: str
    territories: frozenset[str] | None = None  # only these of the grantor's territories
    most: int | None = None  # at most so many units over the season (supplies not counted)
    supplies_only: bool = False
    not_cities: bool = False  # his units may not end in the grantor's cities
    used: int = 0

    @classmethod
    def from_args(cls, grantor: str, args: dict[str, Any], grantee: str) -> Permission:
        territories = args.get("territories")
        return cls(grantor, grantee, frozenset(territories) if territories else None, args.get("most"),
                   bool(args.get("supplies_only")), bool(args.get("not_cities")))

    def allows(self, path: Iterable[str], owners: dict[str, str | None], end: str, units: int, board: Board) -> str:
        """Why this permission does not cover the order ('' when it does): every territory of the grantor on the
        path, the number of units, supplies only, the end in one of his cities."""
        mine = [t for t in path if owners.get(t) == self.grantor]
        if self.territories is not None and any(t not in self.territories for t in mine):
            outside = ", ".join(t for t in mine if t not in self.territories)
            return f"{self.grantor} allows his railways only in {', '.join(sorted(self.territories))}, not {outside}"
        if self.supplies_only and units:
            return f"{self.grantor} allows supplies only"
        if self.most is not None and self.used + units > self.most:
            return (f"{self.grantor} allows {self.most} units" + (f" ({self.used} used)" if self.used else "")
                    + f", the order moves {units}")
        if self.not_cities and owners.get(end) == self.grantor and board.territories[end].city:
            return f"{self.grantor} does not let your units end in his cities"
        return ""


def path(board: Board, railroads: set[str], owners: dict[str, str | None], mover: str, src: str,
         dst: str) -> list[str] | None:
    """A way from `src` to `dst` through railroad territories next to one another (the state's railroads: the
    built ones, none destroyed), crossing as few territories of others as possible, then as few territories
    as possible, ties in the map's order of neighbours. None when they are not on one railway."""
    if src not in railroads or dst not in railroads:
        return None
    # 0-1 breadth first: a step onto the mover's own territory costs 0, onto another's 1.
    best: dict[str, tuple[int, int]] = {src: (0, 0)}
    before: dict[str, str] = {}
    todo: deque[str] = deque([src])
    while todo:
        here = todo.popleft()
        cost = best[here]
        for n in sorted(board.territories[here].neighbours):
            if n not in railroads:
                continue
            step = (cost[0] + (owners.get(n) != mover), cost[1] + 1)
            if n not in best or step < best[n]:
                best[n] = step
                before[n] = here
                if step[0] == cost[0]:
                    todo.appendleft(n)
                else:
                    todo.append(n)
    if dst not in best:
        return None
    way = [dst]
    while way[-1] != src:
        way.append(before[way[-1]])
    return way[::-1]


@dataclass
class Journey:
    """Where a rail order ends and why."""

    end: str
    complete: bool
    reason: str = ""
    used: list[Permission] = field(default_factory=list)


def journey(board: Board, railroads: set[str], owners: dict[str, str | None], mover: str, src: str, dst: str,
            units: dict[str, int], permissions: list[Permission]) -> Journey:
    """Where `units` ordered by rail from `src` to `dst` end: at `dst` when every territory of the way is the
    mover's or covered, as a whole, by a permission of its holder; else at the last territory of the way the
    mover holds before the first one not covered ("all units stop at the last territory on the railway that
    Jeff controls and none of his units use my railway")."""
    way = path(board, railroads, owners, mover, src, dst)
    if way is None:
        return Journey(src, False, f"{src} and {dst} are not on one railway")
    count = sum(n for k, n in units.items() if k != SUPPLY)
    used: list[Permission] = []
    for grantor in dict.fromkeys(owners.get(t) for t in way[1:] if owners.get(t) != mover):
        if grantor is None:
            reason = "a Neutral Power's railway is closed to you"
        else:
            mine = [p for p in permissions if p.grantor == grantor and p.grantee == mover]
            reasons = [p.allows(way, owners, dst, count, board) for p in mine]
            ok = next((p for p, r in zip(mine, reasons, strict=True) if not r), None)
            if ok is not None:
                used.append(ok)
                continue
            reason = reasons[0] if reasons else f"{grantor} has not allowed you to use his railways"
        stop = src
        for t in way[1:]:
            if owners.get(t) != mover:
                break
            stop = t
        return Journey(stop, False, reason)
    for p in used:
        p.used += count
    return Journey(dst, True, "", used)
