"""A season's air war: aircraft assigned to air zones, the fight for each zone (air.py), who has superiority
where, strategic bombing, the atomic bomb and the landing (section Air Combat, Strategic Bombing, The Bomb).

"During the turn, air units are assigned to an air zone covering either their current air zone or an adjacent
air zone." "An aircraft can potentially move as many as 2 zones if it goes from zone A, attacks zone B, and
lands in zone C." "If an aircraft ends its turn in a zone that is controlled by the enemy, the unit is lost."
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from .air import air_battle, bombed_value, superiority
from .board import Board


@dataclass
class Flight:
    """Aircraft of one air order: taken off `origin` (a territory), fighting over `zone`, landing in `land`."""

    player: str
    origin: str
    zone: str
    land: str
    count: int
    seq: int
    summary: str


def zone_distance(board: Board, a: str, b: str, most: int = 2) -> int | None:
    """Steps from air zone `a` to `b` through neighbouring zones, None beyond `most`."""
    seen, frontier = {a}, {a}
    for steps in range(most + 1):
        if b in frontier:
            return steps
        frontier = {n for z in frontier for n in board.zone_neighbours(z)} - seen
        seen |= frontier
    return None


def range_problem(board: Board, origin: str, zone: str, land: str) -> str:
    """Why aircraft based in `origin` may not fight over `zone` and land in `land` ('' when they may)."""
    if zone not in board.zones:
        return f"{zone} is not an air zone"
    if land not in board.territories:
        return f"there is no territory {land} to land in"
    home = board.zone_of(origin)
    if zone_distance(board, home, zone, 1) is None:
        return f"{zone} is neither {origin}'s air zone {home} nor next to it (section Air Combat)"
    if zone_distance(board, zone, board.zone_of(land), 1) is None:
        return (f"{land} is in zone {board.zone_of(land)}, neither {zone} nor next to it: a plane moves at most 2 "
                "zones a season (section Air Combat)")
    return ""


@dataclass
class Sky:
    """Each air zone's fight: the planes each player assigned, what is left, who has superiority."""

    assigned: dict[str, dict[str, int]]
    left: dict[str, dict[str, int]]

    def superior(self, zone: str) -> tuple[str, int] | None:
        return superiority(self.left.get(zone, {}))

    def superior_over(self, zones: Iterable[str]) -> tuple[str, int] | None:
        """Superiority over several zones at once: "air superiority is determined by combining the aircraft from
        both air zones (if two or more zones are involved)"."""
        planes: dict[str, int] = {}
        for z in dict.fromkeys(zones):
            for who, n in self.left.get(z, {}).items():
                planes[who] = planes.get(who, 0) + n
        return superiority(planes)


def fight_for_the_skies(flights: list[Flight], rng: random.Random) -> Sky:
    """Every zone with planes of two players or more fights (air.air_battle, players in the order of their
    first air order); losses fall on a player's last flights over the zone first."""
    assigned: dict[str, dict[str, int]] = {}
    for f in flights:
        assigned.setdefault(f.zone, {})
        assigned[f.zone][f.player] = assigned[f.zone].get(f.player, 0) + f.count
    left: dict[str, dict[str, int]] = {}
    for zone in sorted(assigned):
        planes = assigned[zone]
        left[zone] = air_battle(planes, rng) if len(planes) > 1 else dict(planes)
        for player, n in planes.items():
            lost = n - left[zone][player]
            for f in reversed([f for f in flights if f.zone == zone and f.player == player]):
                take = min(lost, f.count)
                f.count -= take
                lost -= take
    return Sky(assigned, left)


def bomb_damage(zone_value: int, margin: int, bombers: int | None) -> tuple[int, int]:
    """A zone's value after strategic bombing with superiority `margin`, and the damage done. "Air superiority
    *does* stack for strategic bombing!"; the order's number of planes, when given, is the most it does."""
    damage = margin if bombers is None else min(margin, bombers)
    after = bombed_value(zone_value, damage)
    return after, zone_value - after
