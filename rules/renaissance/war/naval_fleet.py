"""The fleet side of NAVAL BATTLES and NAVAL BOMBARDMENT: divisions of ships and what they carry, how a fleet is
arranged into them, how fully it is manned, and the cargo adjustment both the battle and the bombardment use.

NAVAL BATTLES: "each side is separated into four equal divisions; a Left, Center, Right and Reserve". RW-OQ-39:
ships are divided by type equally, the remainder one by one to the Center, Left, Right, Reserves; men, goods and
falconets follow the ships in proportion to their cargo capacity, save those the commander places (naval_battle,
reading N1).

Appendix F, the cargo adjustment: "To achieve cargo balance, units are lost in the following order: first slaves
in excess of those needed to row, then other trade goods (including horses) in proportion to the number of units
held, auxiliaries, crew in excess of those needed to row or crew, cannons, pikemen, arquebusiers, archers and
heavy cavalry." RW-OQ-40: a falconet is one cargo (a trade good of Appendix B's weaponry, thrown with the goods);
goods go in proportion to units held; when the excess survives the whole list, rowing slaves go next, then the
needed crew. Light cavalry, which the list does not name, go right after the auxiliaries they are made of
(RW-OQ-44: light cavalry are auxiliaries given horses).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .. import ships as sh
from ..items import SHIPS, TROOPS, cargo_weight
from .arith import share
from .forces import MEN

LEFT, CENTER, RIGHT, RESERVES = "left", "center", "right", "reserves"
FORWARD: tuple[str, ...] = (LEFT, CENTER, RIGHT)
# RW-OQ-39: where a remainder goes, one by one; also the order in which gaps take the Reserves' remainder.
REMAINDER_ORDER: tuple[str, ...] = (CENTER, LEFT, RIGHT, RESERVES)
# Appendix F: "galleys are rammed first, then galliots, then roundships, then caravels, then barques".
RAM_ORDER: tuple[str, ...] = ("galley", "galliot", "roundship", "caravel", "barque")
# RW-OQ-42: "largest" by weight as cargo: galley 4,000, roundship 1,203, caravel 403, galliot 400, barque 201.
BY_SIZE: tuple[str, ...] = tuple(sorted(SHIPS, key=lambda s: -sh.TABLE[s].weight))

FIGHTING_MEN: tuple[str, ...] = (*TROOPS, "crew")  # "troops and crew"; slaves do not fight
# The fixed part of the cargo-adjustment list (after the slaves, the goods, and before the last resort).
_TROOPS_THROWN = ("pikeman", "arquebusier", "archer", "heavy cavalry")


@dataclass
class Division:
    """Ships and what they carry: men by type, goods, horses, cannons, falconets, ducats."""

    ships: dict[str, int] = field(default_factory=dict)
    load: dict[str, int] = field(default_factory=dict)

    def count(self, item: str) -> int:
        return self.ships.get(item, 0) if item in SHIPS else self.load.get(item, 0)

    def n_ships(self) -> int:
        return sum(self.ships.values())

    def empty(self) -> bool:
        """"Devoid of ships"."""
        return self.n_ships() == 0

    def capacity(self) -> int:
        return sh.capacity(self.ships)

    def cargo(self) -> int:
        return sh.cargo_at_sea(self.load)

    def men(self) -> dict[str, int]:
        return {t: n for t in MEN if (n := self.load.get(t, 0)) > 0}

    def n_men(self) -> int:
        return sum(self.men().values())

    def fighters(self) -> int:
        return sum(self.load.get(t, 0) for t in FIGHTING_MEN)

    def add(self, other: Division) -> None:
        for s, n in other.ships.items():
            self.ships[s] = self.ships.get(s, 0) + n
        for i, n in other.load.items():
            self.load[i] = self.load.get(i, 0) + n

    def clear(self) -> Division:
        """Empty this division; returns what it held."""
        held = Division(dict(self.ships), dict(self.load))
        self.ships.clear()
        self.load.clear()
        return held

    def items(self) -> dict[str, int]:
        return {k: n for k, n in (*self.ships.items(), *self.load.items()) if n > 0}


# ---- arrangement ----------------------------------------------------------------------------------------------

def split_ships(fleet: Mapping[str, int], places: Sequence[str]) -> dict[str, dict[str, int]]:
    """Each type equally among `places`, the remainder one by one in the order `places` are given (RW-OQ-39)."""
    out: dict[str, dict[str, int]] = {p: {} for p in places}
    for ship in SHIPS:
        n = int(fleet.get(ship, 0))
        if n <= 0 or not places:
            continue
        each, rest = divmod(n, len(places))
        for i, p in enumerate(places):
            k = each + (1 if i < rest else 0)
            if k:
                out[p][ship] = k
    return out


def spread_load(load: Mapping[str, int], capacities: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """Every item of `load` shared among the places in proportion to their cargo capacity (RW-OQ-39); the whole
    units left over go to the largest remainders, ties to the place written first. With no capacity anywhere the
    load stays with the first place (there is nothing to carry it; the cargo adjustment will say so)."""
    places = list(capacities)
    out: dict[str, dict[str, int]] = {p: {} for p in places}
    if not places:
        return out
    for item, n in load.items():
        if n <= 0:
            continue
        parts = share(n, capacities) if sum(capacities.values()) > 0 else {places[0]: n}
        for p, k in parts.items():
            if k:
                out[p][item] = k
    return out


def divide(fleet: Mapping[str, int], load: Mapping[str, int], places: Sequence[str]) -> dict[str, Division]:
    """Ships split by type equally among `places`, the load spread by capacity: the standard arrangement (places =
    REMAINDER_ORDER) and the Reserves split among several gaps."""
    parts = split_ships(fleet, places)
    loads = spread_load(load, {p: sh.capacity(parts[p]) for p in places})
    return {p: Division(parts[p], loads[p]) for p in places}


# ---- manning ------------------------------------------------------------------------------------------------

def manning(fleet: Mapping[str, int], crew: int, slaves: int) -> Fraction:
    """The share of the complement (crew plus rowers) filled, exactly (ships.manning's reading: slaves row, crew
    fill every other seat). The float ships.manning gives is a fraction whose denominator is the complement, so it
    is recovered exactly from it."""
    complement = sh.crew_needed(dict(fleet)) + sh.rowers_needed(dict(fleet))
    if complement == 0:
        return Fraction(1)
    filled = sh.manning({**fleet, "crew": crew, "slave": slaves})
    return Fraction(filled).limit_denominator(complement)


# ---- the cargo adjustment -----------------------------------------------------------------------------------

def _weight(item: str) -> int:
    return cargo_weight(item, overland=False)


def _goods(load: Mapping[str, int]) -> dict[str, int]:
    """"Other trade goods (including horses)": everything carried that is neither a man nor a cannon and weighs
    something (ducats weigh nothing and are never thrown)."""
    return {i: n for i, n in load.items() if n > 0 and i not in MEN and i != "cannon" and _weight(i) > 0}


def throw_overboard(fleet: Mapping[str, int], load: dict[str, int], excess: int) -> dict[str, int]:
    """Throw units of `load` overboard, in Appendix F's order, until `excess` cargo units are gone (each step takes
    whole units, as few as clear what is left of the excess: a loss rounded up). Changes `load` (which may be a
    persona's assets: ships and ducats weigh nothing at sea and are never thrown); returns what was thrown."""
    thrown: dict[str, int] = {}
    left = excess

    def drop(item: str, most: int) -> None:
        nonlocal left
        if left <= 0 or most <= 0 or _weight(item) == 0:
            return
        n = min(most, math.ceil(Fraction(left, _weight(item))))
        load[item] -= n
        thrown[item] = thrown.get(item, 0) + n
        left -= n * _weight(item)

    rowers = sh.rowers_needed(dict(fleet))
    crew_needed = sh.crew_needed(dict(fleet))
    drop("slave", load.get("slave", 0) - rowers)
    goods = _goods(load)
    weight = sum(n * _weight(i) for i, n in goods.items())
    if left > 0 and weight > 0:
        # "in proportion to the number of units held": the same fraction of every kind, each kind's loss rounded up
        # (so the weight thrown covers the excess whenever the goods can).
        part = min(Fraction(1), Fraction(left, weight))
        for item, n in goods.items():
            k = min(n, math.ceil(part * n))
            load[item] -= k
            thrown[item] = thrown.get(item, 0) + k
            left -= k * _weight(item)
    drop("auxiliary", load.get("auxiliary", 0))
    drop("light cavalry", load.get("light cavalry", 0))
    rowing_slaves = min(load.get("slave", 0), rowers)
    drop("crew", load.get("crew", 0) - (crew_needed + rowers - rowing_slaves))
    drop("cannon", load.get("cannon", 0))
    for t in _TROOPS_THROWN:
        drop(t, load.get(t, 0))
    drop("slave", load.get("slave", 0))  # RW-OQ-40: the excess survived the list: rowing slaves, then needed crew
    drop("crew", load.get("crew", 0))
    for item in sorted(load):  # anything the list cannot name (there should be nothing left to weigh)
        drop(item, load.get(item, 0))
    return {i: n for i, n in thrown.items() if n > 0}


def overboard(division: Division) -> dict[str, int]:
    """What Appendix F's adjustment throws out of a division ("Total cargo is then adjusted for each division so
    that there is no excess"), without changing it. A division left with no ship keeps nothing: what weighs nothing
    (ducats) goes down with the last ship."""
    load = dict(division.load)
    thrown = throw_overboard(division.ships, load, division.cargo() - division.capacity())
    if division.empty():
        for item, n in load.items():
            if n > 0:
                thrown[item] = thrown.get(item, 0) + n
    return thrown


def sink(fleet: dict[str, int], count: int, order: Iterable[str] = RAM_ORDER) -> dict[str, int]:
    """Take `count` ships out of `fleet` in `order` (ramming: galleys first, ... barques last). Returns the sunk."""
    sunk: dict[str, int] = {}
    for ship in order:
        if count <= 0:
            break
        k = min(count, fleet.get(ship, 0))
        if k:
            fleet[ship] -= k
            sunk[ship] = k
            count -= k
    for ship in [s for s, n in fleet.items() if n <= 0]:
        del fleet[ship]
    return sunk


