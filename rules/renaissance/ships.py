"""The ship table of NAVIGATION and what a fleet can do: carry, draw, and how fully it is manned.

The flattened table of the rules is read as in the reader's notes (cross-checked with the shipbuilding
appendix): sailing ships have no rowers and need sails; galleys and galliots are rowed and need no sails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .items import DUCATS, SHIPS, cargo_weight

Assets = dict[str, int]


@dataclass(frozen=True)
class Ship:
    name: str
    cost: int  # ducats to begin construction
    crew: int
    rowers: int
    timber: int
    sails: int
    capacity: int  # cargo; crew and rowers use up part of it
    draft: int  # feet, empty; fully loaded twice this
    weight: int  # cargo units carried overland, empty


TABLE: dict[str, Ship] = {s.name: s for s in (
    Ship("roundship", 10_000, 20, 0, 1_200, 3, 500, 8, 1_203),
    Ship("caravel", 2_000, 10, 0, 400, 3, 200, 4, 403),
    Ship("barque", 1_000, 5, 0, 200, 1, 100, 2, 201),
    Ship("galley", 50_000, 40, 250, 4_000, 0, 1_000, 5, 4_000),
    Ship("galliot", 3_000, 10, 50, 400, 0, 300, 4, 400),
)}
assert set(TABLE) == set(SHIPS)
assert all(cargo_weight(s.name) == s.weight for s in TABLE.values()), "items.py and the ship table disagree"

SAILING_FAST = frozenset({"caravel", "roundship"})  # modification 2: a fleet of only these sails 600 miles further


def fleet(assets: Assets) -> dict[str, int]:
    """Ships held, by type (only types with at least one)."""
    return {s: int(assets.get(s, 0)) for s in SHIPS if assets.get(s, 0) > 0}


def capacity(assets: Assets) -> int:
    return sum(TABLE[s].capacity * n for s, n in fleet(assets).items())


def cargo_at_sea(assets: Assets) -> int:
    """Everything but the ships themselves must ride in them, crew and rowing slaves included."""
    return sum(cargo_weight(item, overland=False) * int(qty) for item, qty in assets.items()
               if item not in SHIPS and item != DUCATS and qty > 0)


def crew_needed(assets: Assets) -> int:
    return sum(TABLE[s].crew * n for s, n in fleet(assets).items())


def rowers_needed(assets: Assets) -> int:
    return sum(TABLE[s].rowers * n for s, n in fleet(assets).items())


def manning(assets: Assets) -> float:
    """Share of the fleet's complement (crew plus rowers) filled, 0..1. Slaves can only row; crew may sail or row
    and "are automatically assigned to rowing in numbers such as to maximize the distance". Read proportionally:
    every missing man of either kind costs the same share, so the best assignment simply fills as many seats as
    possible: slaves to the oars, then crew to the remaining seats of either kind."""
    need_crew, need_rowers = crew_needed(assets), rowers_needed(assets)
    total = need_crew + need_rowers
    if total == 0:
        return 1.0
    slaves_rowing = min(int(assets.get("slave", 0)), need_rowers)
    crew_seated = min(int(assets.get("crew", 0)), total - slaves_rowing)
    return (slaves_rowing + crew_seated) / total


def only_fast_sailers(assets: Assets) -> bool:
    f = fleet(assets)
    return bool(f) and set(f) <= SAILING_FAST


def load_fraction(assets: Assets) -> float:
    cap = capacity(assets)
    if cap == 0:
        return 0.0
    return min(1.0, cargo_at_sea(assets) / cap)


def draft(assets: Assets) -> float:
    """The fleet's draft requirement in feet: the deepest-drawing type, each "loaded proportionately" so drawing
    empty × (1 + load fraction) (twice the empty draft when full)."""
    f = fleet(assets)
    if not f:
        return 0.0
    return max(TABLE[s].draft for s in f) * (1 + load_fraction(assets))


def may_enter(harbor_depth: Any, assets: Assets) -> bool:
    """A port of depth d admits the fleet when d >= its draft requirement (a fleet needing 7.2 feet does not fit
    a 7-foot harbor)."""
    return harbor_depth is not None and float(harbor_depth) >= draft(assets) - 1e-9

