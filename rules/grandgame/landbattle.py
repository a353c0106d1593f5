"""One land battle of a season: the armies (troops) on each side, their supply, their values and strengths, the
draws (with a battle card), and who loses which units. The arithmetic is combat.py's; this module applies it
to the troops the season puts together (season.py), and says in the newsletter what happened.

A troop is one player's units in one battle coming from one place (an attack from K14, the stack defending
K15). A side is one or more troops fighting together: a player's attacks on one territory from several places,
coordinated armies, or every stack defending a territory.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from . import battlecards
from .chances import happens
from .combat import (
    AIRCRAFT,
    ARMOR,
    INFANTRY,
    draw_kills,
    multiway_losses,
    multiway_occupant,
    shared_losses,
    supplied_units,
    unit_value,
    victory_chance,
)
from .combat import disputed_losses as combat_disputed_losses
from .economy import GDP_PRICES
from .state import SHORT

ORDER = (INFANTRY, ARMOR, AIRCRAFT)


@dataclass(eq=False)  # troops are compared by identity: two alike are still two armies
class Troop:
    player: str  # a player's name or NEUTRAL
    src: str  # where it came from (for a defender, the territory it defends)
    units: dict[str, int]
    supply: int = 0  # the supplies it carries or holds
    attacking: bool = False
    fed: dict[str, int] = field(default_factory=dict)  # units that have their supply for the season
    unfed: dict[str, int] = field(default_factory=dict)  # units that may not use supply (destroying a railroad)
    only: int | None = None  # at most so many of its units use supply ("only 2 infantry use supply")
    reserve: dict[str, int] = field(default_factory=dict)
    by_sea: bool = False  # landing from a sea: back aboard if beaten
    seq: int = 0
    partners: frozenset[str] = frozenset()
    orders: list[str] = field(default_factory=list)  # the summaries of the orders it came from (printouts)

    def total(self) -> int:
        return sum(self.units.values())

    def land_units(self) -> int:
        return self.units.get(INFANTRY, 0) + self.units.get(ARMOR, 0)

    def short(self) -> str:
        parts = [f"{self.units[k]}{SHORT[k]}" for k in ORDER if self.units.get(k)]
        return " ".join(parts) or "nothing"

    def merge(self, other: Troop) -> None:
        for table, more in ((self.units, other.units), (self.fed, other.fed), (self.unfed, other.unfed),
                            (self.reserve, other.reserve)):
            for k, n in more.items():
                table[k] = table.get(k, 0) + n
        self.supply += other.supply
        self.orders += other.orders
        self.partners |= other.partners


def feed(troop: Troop) -> int:
    """Give each unit of `troop` that has no supply yet this season one from its supplies (combat.supplied_units:
    the units that gain most first, at most `only`), and return how many were used. A unit uses one supply a
    season, however many battles it fights ("each unit only loses one supply")."""
    kinds: list[str] = []
    for kind in ORDER:
        if kind == AIRCRAFT:
            continue
        waiting = troop.units.get(kind, 0) - troop.fed.get(kind, 0) - troop.unfed.get(kind, 0)
        kinds += [kind] * max(waiting, 0)
    already = sum(troop.fed.values())
    only = None if troop.only is None else max(troop.only - already, 0)
    chosen = supplied_units(kinds, troop.supply, troop.attacking, only)
    used = 0
    for kind, supplied in zip(kinds, chosen, strict=True):
        if supplied:
            troop.fed[kind] = troop.fed.get(kind, 0) + 1
            used += 1
    troop.supply -= used
    return used


@dataclass(frozen=True)
class Footing:
    """How a troop fights in one battle: at attack values or not, its terrain bonus (defending infantry only),
    and whether its player has air superiority there."""

    attacking: bool
    terrain: int = 0
    air: bool = False


def values(troop: Troop, footing: Footing) -> list[tuple[int, str, bool]]:
    """(value, kind, supplied) of each unit of the troop as it fights."""
    out = []
    for kind in ORDER:
        n = troop.units.get(kind, 0)
        fed = n if kind == AIRCRAFT else min(troop.fed.get(kind, 0), n)
        for supplied, count in ((True, fed), (False, n - fed)):
            value = unit_value(kind, attacking=footing.attacking, supplied=supplied,
                               terrain=footing.terrain, air_superiority=footing.air)
            out += [(value, kind, supplied)] * count
    return out


def strength(troops: Iterable[Troop], footing: Callable[[Troop], Footing]) -> int:
    return sum(v for t in troops for v, _, _ in values(t, footing(t)))


def lose(troop: Troop, count: int, footing: Footing) -> dict[str, int]:
    """Take `count` units off `troop`, the least worth first: lowest value as it fought, then cheapest (an
    unsupplied infantry before a plane), then infantry, armor, aircraft. Returns the units lost by kind."""
    ranked = sorted(values(troop, footing), key=lambda u: (u[0], GDP_PRICES[u[1]], ORDER.index(u[1]), u[2]))
    lost: dict[str, int] = {}
    for _, kind, supplied in ranked[:count]:
        lost[kind] = lost.get(kind, 0) + 1
        troop.units[kind] -= 1
        if supplied and kind != AIRCRAFT:
            troop.fed[kind] -= 1
    for table in (troop.units, troop.fed):
        for kind in [k for k, n in table.items() if n <= 0]:
            del table[kind]
    for kind in list(troop.unfed):
        troop.unfed[kind] = min(troop.unfed[kind], troop.units.get(kind, 0))
    return lost


def prorata(lost: int, armies: dict[str, int]) -> dict[str, int]:
    """`lost` shared in proportion to each army's units, rounded down, the units left over to the larger armies
    first (then the mapping's order); nobody loses more than he has."""
    total = sum(armies.values())
    if total == 0:
        return dict.fromkeys(armies, 0)
    lost = min(lost, total)
    share = {a: lost * n // total for a, n in armies.items()}
    left = lost - sum(share.values())
    for a in sorted(armies, key=lambda a: -armies[a]):
        if left == 0:
            break
        if share[a] < armies[a]:
            share[a] += 1
            left -= 1
    return share


@dataclass
class Split:
    """How a side's losses were shared among its players, and what the report says of it."""

    shares: dict[str, int]
    note: str = ""


def split(lost: int, troops: list[Troop], footing: Callable[[Troop], Footing], first: set[str], owner: str | None,
          rng: random.Random) -> Split:
    """Share a side's `lost` units among its players (GG-OQ-22). One player: all his. Several: as they agreed in
    their orders ("losses K15 bruno": everyone who wrote one named the same player, who takes as many as
    possible); if nobody wrote one, in proportion to their units; if they named different players, the text's
    rule for those who "cannot come to an agreement": defending, "the player that owns the territory takes as
    many of the losses as possible"; attacking, "the two armies then fight each other at attack strength, and
    the losing army takes as many of the losses as possible, with cumulative losses for both battles"."""
    armies: dict[str, int] = {}
    for t in troops:
        armies[t.player] = armies.get(t.player, 0) + t.total()
    if len(armies) == 1:
        (only,) = armies
        return Split({only: min(lost, armies[only])})
    named = {n for n in first if n in armies}
    if not first:
        return Split(prorata(lost, armies), "shared in proportion to their units")
    if len(first) == 1 and named:
        (who,) = named
        return Split(shared_losses(lost, armies, who), f"{who} takes them first, as agreed")
    attacking = troops[0].attacking
    if not attacking or len(armies) != 2:
        who = owner if owner in armies else min(armies, key=lambda p: min(t.seq for t in troops if t.player == p))
        return Split(shared_losses(lost, armies, who), f"no agreement: {who} takes them first")
    a, b = armies
    strength_of = {p: strength([t for t in troops if t.player == p], footing) for p in armies}
    dispute = combat_disputed_losses(lost, (a, strength_of[a], armies[a]), (b, strength_of[b], armies[b]), rng)
    return Split(dispute.lost, f"no agreement: {a} and {b} fight it out, {dispute.loser} loses")


def remove(troops: list[Troop], shares: dict[str, int],
           footing: Callable[[Troop], Footing]) -> dict[str, dict[str, int]]:
    """Take each player's share of losses off his troops, the least worth first across them."""
    lost: dict[str, dict[str, int]] = {}
    for player, count in shares.items():
        mine = [t for t in troops if t.player == player]
        left = count
        # The weakest units of all his troops go first: rank them together, then take from each.
        ranked = sorted(((v, GDP_PRICES[k], ORDER.index(k), i) for i, t in enumerate(mine)
                         for v, k, _ in values(t, footing(t))))[:left]
        per_troop: dict[int, int] = {}
        for *_, i in ranked:
            per_troop[i] = per_troop.get(i, 0) + 1
        for i, n in per_troop.items():
            for kind, k in lose(mine[i], n, footing(mine[i])).items():
                lost.setdefault(player, {})[kind] = lost.setdefault(player, {}).get(kind, 0) + k
    return lost


@dataclass
class Outcome:
    """What a two-sided battle decided."""

    attacker_wins: bool
    chance: Fraction  # the attacker's chance of victory, card included
    card: battlecards.Card | None
    strengths: tuple[int, int]
    lost: dict[str, dict[str, int]]  # player -> kind -> units lost
    notes: list[str]
    before: dict[int, str]  # id(troop) -> its units as they went into battle


def fight(attackers: list[Troop], defenders: list[Troop], footing: Callable[[Troop], Footing],
          cards: tuple[battlecards.Card, ...], rng: random.Random, first: set[str], owner: str | None) -> Outcome:
    """A battle between two sides: supply, strengths, a card, then combat.fight's draws in its order (victory,
    one kill draw per defending unit, one per attacking unit), then each side's losses shared among its
    players. `first`: the players named in the coordinating players' "losses" orders."""
    before = {id(t): t.short() for t in (*attackers, *defenders)}
    for t in (*attackers, *defenders):
        feed(t)
    a = strength(attackers, footing)
    d = strength(defenders, footing)
    card = battlecards.draw(cards, rng)
    chance = battlecards.shifted(victory_chance(a, d), card)
    wins = happens(chance, rng)
    a_units = sum(t.total() for t in attackers)
    d_units = sum(t.total() for t in defenders)
    d_lost = draw_kills(a, d, a_units, d_units, rng)
    a_lost = draw_kills(d, a, d_units, a_units, rng)
    notes: list[str] = []
    lost: dict[str, dict[str, int]] = {}
    for side, count in ((attackers, a_lost), (defenders, d_lost)):
        if count:
            shared = split(count, side, footing, first, owner, rng)
            if shared.note:
                notes.append(f"losses {shared.note}")
            lost.update(remove(side, shared.shares, footing))
    return Outcome(wins, chance, card, (a, d), lost, notes, before)


@dataclass
class Melee:
    """What a multi-way battle decided."""

    occupant: int | None  # the index of the side that occupies the territory, None: its holder keeps it
    strengths: list[int]
    lost: dict[str, dict[str, int]]
    survivors: list[int]


def melee(sides: list[list[Troop]], footing: Callable[[Troop], Footing], holder: int | None, rng: random.Random,
          first: set[str], owner: str | None) -> Melee:
    """A multi-way battle: every side fights every other at full strength (combat.multiway_losses, casualties
    only), each side's losses shared among its players, and the side whose surviving units have the highest
    total value, as they fought, occupies the territory (combat.multiway_occupant; a tie: the holder keeps it).
    `holder`: the index of the defending side, if any."""
    for side in sides:
        for t in side:
            feed(t)
    strengths = [strength(side, footing) for side in sides]
    losses = multiway_losses({str(i): (strengths[i], sum(t.total() for t in side)) for i, side in enumerate(sides)},
                             rng)
    lost: dict[str, dict[str, int]] = {}
    for i, side in enumerate(sides):
        count = losses[str(i)]
        if count:
            lost.update(remove(side, split(count, side, footing, first, owner, rng).shares, footing))
    # Only land units conquer: a side of planes alone occupies nothing.
    survivors = [strength(side, footing) if any(t.land_units() for t in side) else 0 for side in sides]
    found = multiway_occupant({str(i): v for i, v in enumerate(survivors)}, None if holder is None else str(holder))
    return Melee(None if found is None else int(found), strengths, lost, survivors)
