"""Land combat's arithmetic: combat values, strengths, the chances of victory and of a kill, the cap on kills,
the draws, and who holds the space after a battle. Pure functions: no board, no I/O; every draw from the
`random.Random` passed in (the game's seeded RNG) through chances.happens.

The rules' words each function rests on are quoted beside it; the readings of open points (GG-OQ-nn) are in
docs/grand-game.md, "Combat, costs and chances", each with the test that holds it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .chances import happens, successes

INFANTRY = "infantry"
ARMOR = "armor"
AIRCRAFT = "aircraft"
LIGHT_FLEET = "light fleet"
HEAVY_FLEET = "heavy fleet"
FLEETS = (LIGHT_FLEET, HEAVY_FLEET)

#: "Base Combat Value and Cost": (attack, defense), "their fully-supplied base values".
BASE_VALUES: dict[str, tuple[int, int]] = {
    INFANTRY: (2, 3),
    ARMOR: (4, 2),
    AIRCRAFT: (1, 1),
    LIGHT_FLEET: (2, 2),
    HEAVY_FLEET: (4, 2),
}
#: "Unsupplied units fight at a value of 1." (the table's row "Unsupplied Unit | 1 | 1").
UNSUPPLIED_VALUE = 1
#: "1 unit is only capable of killing a maximum of 2 opposing units."
KILL_CAP = 2

#: "Rivers, Canals, and Shoreline provide a directional +1 defensive bonus to infantry when the attacking units
#: fight across them."
DIRECTIONAL = frozenset({"river", "canal", "shoreline"})


def base_value(kind: str, attacking: bool, supplied: bool = True) -> int:
    """A unit's value before modifiers: the table's attack or defense value, 1 when unsupplied. "Aircraft do not
    require supply": a plane is never unsupplied."""
    attack, defense = BASE_VALUES[kind]
    if not supplied and kind != AIRCRAFT:
        return UNSUPPLIED_VALUE
    return attack if attacking else defense


def terrain_bonus(*, city: bool = False, mountain: bool = False, crossed: Iterable[str] = (),
                  winter: bool = False) -> int:
    """What each DEFENDING INFANTRY unit adds for the ground it holds (GG-OQ-19: the bonuses add up).

    "Cities, Ports, and Mountains add +1 to the combat value of *each* defending infantry." A port is a city
    ("They receive the same defensive bonus as a city"), so `city` covers both: one +1. `crossed` names the
    directional features every attacking unit of the battle fights across ("river", "canal", "shoreline"),
    +1 each. "When fighting in winter, all defending infantry receive an additional +1." "The territory
    modifiers work together": a city on a mountain gives +2."""
    crossed = set(crossed)
    unknown = crossed - DIRECTIONAL
    if unknown:
        raise ValueError(f"not a directional feature: {sorted(unknown)}")
    return int(city) + int(mountain) + len(crossed) + int(winter)


def crossed_by_all(crossings: Iterable[Iterable[str]]) -> set[str]:
    """The directional features that count in a battle, from what each attacking army crosses: those every
    army crosses (GG-OQ-19). "Rivers, Canals, and Shoreline provide a directional +1 defensive bonus to infantry
    when the attacking units fight across them": the attacking units, all of them; an attack that also comes
    over open ground is not held at the river. No attacking army, no bonus."""
    sets = [set(c) for c in crossings]
    return set.intersection(*sets) if sets else set()


def unit_value(kind: str, *, attacking: bool, supplied: bool = True, terrain: int = 0, air_superiority: bool = False,
               in_port: bool = False) -> int:
    """One unit's combat value in a battle.

    - the base value (`base_value`), 1 unsupplied;
    - `terrain` (from `terrain_bonus`) only for defending infantry: "There is only one type of terrain
      modifier: modifiers that add points to the combat value of defending infantry", "Terrain modifiers to not
      give defensive advantages to armor!";
    - +1 with air superiority, for every unit, attacking or defending, armor too: "he adds +1 to the combat
      value of every unit in the entire air zone", "Unlike other bonuses, "air superiority" does count towards
      the defensive bonus of armor", "The maximum effect is +1";
    - +1 for a fleet defending in port: "The defending fleet receives a +1 defensive bonus for fighting within
      the port."

    An unsupplied unit gets its modifiers on top of its value of 1 (GG-OQ-18): the table lists the unsupplied
    value among the base values, and air superiority is for "every unit"."""
    if terrain < 0:
        raise ValueError(f"a terrain bonus is not negative, got {terrain}")
    value = base_value(kind, attacking, supplied)
    if kind == INFANTRY and not attacking:
        value += terrain
    if kind in FLEETS and in_port and not attacking:
        value += 1
    if air_superiority:
        value += 1
    return value


def victory_chance(strength: int, enemy: int) -> Fraction:
    """The chance that the side of `strength` wins against `enemy`: S/(S+E). "Attacking Army has a combined
    combat strength of 30, while Defending Army has a combined combat strength of 10. In this example, the
    strengths are 30:10 in favor of the attack, or 75%:25%." A side with no strength facing one with some never
    wins; two sides of no strength cannot fight."""
    if strength < 0 or enemy < 0:
        raise ValueError(f"strengths are not negative: {strength}, {enemy}")
    if strength + enemy == 0:
        raise ValueError("two sides of strength 0 do not fight")
    return Fraction(strength, strength + enemy)


def kill_chance(strength: int, enemy: int) -> Fraction:
    """The chance that the side of `strength` kills EACH unit of the enemy: half its own victory chance. "To
    calculate casualties, relative combat strength is reduced by half and applied against each enemy unit";
    "(75%:25%), Attacking Army has a 37% chance of killing each defending unit, while Defending Army has a
    12.5% chance of killing each attacking unit" (37.5% exactly: the text cuts the half)."""
    return victory_chance(strength, enemy) / 2


def kill_cap(units: int) -> int:
    """The most units a side of `units` units can kill in one battle: two each (GG-OQ-20: the cap bounds the
    side's total). "The number of possible casualties inflicted per unit is capped at 2"."""
    return KILL_CAP * units


def draw_victory(attack: int, defense: int, rng: random.Random) -> bool:
    """Whether the attack wins: one draw of `victory_chance(attack, defense)`. "Victory and defeat are determined
    randomly using the methodoloy described above: combat strength v. combat strength."
    """
    return happens(victory_chance(attack, defense), rng)


def draw_kills(strength: int, enemy: int, firing_units: int, targets: int, rng: random.Random) -> int:
    """How many of `targets` enemy units the side of `strength` with `firing_units` units kills: one draw of
    `kill_chance` per target, in order, then at most `kill_cap(firing_units)` of the hits count. Every target
    has the same chance, so what the draws decide is the number killed; which units go is the loser's choice
    (see docs/grand-game.md, GG-OQ-20)."""
    hits = sum(successes(targets, kill_chance(strength, enemy), rng))
    return min(hits, kill_cap(firing_units))


@dataclass(frozen=True)
class Battle:
    """What one land battle's draws decided."""

    attacker_wins: bool
    attackers_lost: int
    defenders_lost: int


def fight(attack: int, defense: int, attackers: int, defenders: int, rng: random.Random) -> Battle:
    """One battle between an attacking army of `attackers` units and combat strength `attack` and a defending
    one of `defenders` units and strength `defense`. "Keep in mind: "Victory" and "Casualties" are separate
    calculations!": the draws, in this order, are victory (`victory_chance` of the attack), then one kill draw
    per defending unit, then one per attacking unit. Two armies attacking each other's spaces fight with
    both strengths at attack value ("both sets of units will fight at "attack" strength"): the caller passes
    those. Coordinated armies are one side: their strengths and units added ("their combat values are added
    together")."""
    if attackers < 0 or defenders < 0:
        raise ValueError("unit counts are not negative")
    attacker_wins = draw_victory(attack, defense, rng)
    defenders_lost = draw_kills(attack, defense, attackers, defenders, rng)
    attackers_lost = draw_kills(defense, attack, defenders, attackers, rng)
    return Battle(attacker_wins, attackers_lost, defenders_lost)


def attacker_takes_space(attacker_wins: bool, attackers_left: int, defenders_left: int) -> bool:
    """Whether the attacker holds the space after the battle (GG-OQ-21).

    - "if the victorious army "wins" the battle but has no units remaining, they do not take the space";
    - "if a defending army "wins" the combat but has no units remaining while the attacking army does, the
      defense loses the space": the attacker, the only army left, takes it ("to conquer a territory you must
      have some land units remaining");
    - "In the event both sides are entirely destroyed, the defender retains control of the territory."
    """
    if attackers_left == 0:
        return False
    return attacker_wins or defenders_left == 0


def multiway_occupant(survivors: Mapping[str, int], holder: str | None) -> str | None:
    """Who occupies a land territory after a multi-way battle: "the country with surviving units with the
    highest total value occupies the territory" (the values each surviving unit fought at). With no survivor,
    or a tie for the highest value, the holder keeps it (GG-OQ-22), as "In the event both sides are entirely
    destroyed, the defender retains control"."""
    alive = {country: value for country, value in survivors.items() if value > 0}
    if not alive:
        return holder
    best = max(alive.values())
    leaders = [country for country, value in alive.items() if value == best]
    return leaders[0] if len(leaders) == 1 else holder


def supplied_units(kinds: list[str], supplies: int, attacking: bool, only: int | None = None) -> list[bool]:
    """Which units of a stack use a supply in a battle (GG-OQ-17). "Unless otherwise specified, units
    automatically consume supplied if supplies are available"; "1 supply will be drained for every unit in a
    stack of units unless otherwise specified (i.e. one can order "only # infantry will use supply if
    attacked")".

    Each unit that needs supply (not aircraft) takes one while the stack has any (at most `only` units, when the
    orders say so); when there are fewer than units, those that gain most from it go first (on attack armor
    4 over infantry 2, on defense infantry 3 over armor 2), ties in the stack's order. Returns, per unit,
    whether it fights supplied (aircraft always)."""
    limit = supplies if only is None else min(supplies, only)
    needs = [i for i, kind in enumerate(kinds) if kind != AIRCRAFT]
    needs.sort(key=lambda i: -(base_value(kinds[i], attacking) - UNSUPPLIED_VALUE))
    chosen = set(needs[:max(limit, 0)])
    return [kind == AIRCRAFT or i in chosen for i, kind in enumerate(kinds)]


def multiway_losses(sides: Mapping[str, tuple[int, int]], rng: random.Random) -> dict[str, int]:
    """The units each side loses in a multi-way battle (side -> (strength as it fights, units)). "Each player
    fights each other player in pairwise combat at full strength. If the army is attacking, they fight at attack
    strength." "Losses are removed from each individual paired in combat (so, for example, if in two separate
    combats I lose 1 unit and 2 units, I lose a total of 3 units)."

    Each pairing is a battle of its own with its own cap (GG-OQ-20); a side loses at most the units it has. The
    pairings draw only casualties: who occupies a land territory is `multiway_occupant`'s, by the survivors'
    value, so a pairing's victory decides nothing and is not drawn (GG-OQ-22). Draws: pairings in the mapping's
    order (first with second, first with third, ..., second with third, ...), in each the first side's kills,
    then the second's."""
    names = list(sides)
    lost = dict.fromkeys(names, 0)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (strength_a, units_a), (strength_b, units_b) = sides[a], sides[b]
            lost[b] += draw_kills(strength_a, strength_b, units_a, units_b, rng)
            lost[a] += draw_kills(strength_b, strength_a, units_b, units_a, rng)
    return {name: min(lost[name], sides[name][1]) for name in names}


def shared_losses(lost: int, armies: Mapping[str, int], first: str) -> dict[str, int]:
    """A coordinated side's `lost` units shared out when its players do not agree: `first` "takes as many of
    the losses as possible", the rest fall on the other armies in the mapping's order (`armies`: army -> units).
    Defending: "the player that owns the territory takes as many of the losses as possible"."""
    if first not in armies:
        raise ValueError(f"{first} is not one of the coordinated armies")
    share = dict.fromkeys(armies, 0)
    left = lost
    for army in [first, *(a for a in armies if a != first)]:
        share[army] = min(left, armies[army])
        left -= share[army]
    return share


@dataclass(frozen=True)
class Dispute:
    """How coordinated attackers who did not agree on their losses end: the loser of their own battle, and
    each army's losses over both battles."""

    loser: str
    lost: dict[str, int]


def disputed_losses(lost: int, first: tuple[str, int, int], second: tuple[str, int, int],
                    rng: random.Random) -> Dispute:
    """Coordinated attackers who cannot agree who takes `lost` units: "the two armies then fight each other at
    attack strength, and the losing army takes as many of the losses as possible, with cumulative losses for
    both battles (so if additional losses are incurred during the second attack, they are added to the total
    losses)". Each army is (name, attack strength, units) as it stood in the first battle: the losses are not
    shared out until the second is fought. The second battle is `fight` with `first` as attacker; then the
    loser takes the first battle's losses as far as his units go, each army adds its losses of the second
    battle, and no army loses more units than it has."""
    (name_a, strength_a, units_a), (name_b, strength_b, units_b) = first, second
    battle = fight(strength_a, strength_b, units_a, units_b, rng)
    loser = name_b if battle.attacker_wins else name_a
    share = shared_losses(lost, {name_a: units_a, name_b: units_b}, loser)
    total = {name_a: min(share[name_a] + battle.attackers_lost, units_a),
             name_b: min(share[name_b] + battle.defenders_lost, units_b)}
    return Dispute(loser, total)
