"""War (rules 3.7 and 3.12): the war roll, the luck it scores, and its line in the public ledger.

The war procedure (GA-OQ-16). Each side of a war rolls one six-sided die and adds its modifier; the side with
the higher total wins, and takes as many cities as the difference of the totals; equal totals are a tie and
no city changes hands. The rules' figures fix it: 3.7's "in an even situation, the result is that the winner
gets 1 city. Then he scores 0.5833" is P(dice difference <= 0) = 21/36; "If the winner gets 5 cities, he has
had a luck of 0.9722" is P(difference <= 4) = 35/36; "If the winner had a +2 advantatge but gets only one
city, he has had a luck of 0.2778" is P(difference + 2 <= 0) = 10/36. Each is exact in this model only.

Luck without option 3.12 (rule 3.7): the winner scores "the chances of getting one step worse than the
result achived of less", the chance, under his own modifiers, that the totals differ in his favour by at most
one city fewer than they did (one step below one city is the tie; below that, losing); the loser scores the
same amount negative. A tie scores nothing for both, with or without a modifier (GA-OQ-17). No multiplier
(GA-OQ-19).

Luck under option 3.12: the same measure, but taken on the dice difference alone, as in an even war ("the luck
value should be the corresponding to the difference in dice roll, not the cities lost"), and multiplied by
the sum of the values of the cities counted, one city per point of dice difference (GA-OQ-14):

- the side whose die is higher (the "dice winner", by d points) scores +P(D <= d - 1) times that sum, the
  other side the same negative (D: the difference of two dice, -5..5); equal dice score nothing;
- with no net modifier the counted cities are those the winner takes;
- when the side with the positive net modifier m wins the dice, it took d + m cities and m of them are
  removed before counting: for m = 1 the biggest, for m = 2 the biggest and the smallest ("If the modifier
  was a +2 remove the biggest and smallest. In case of only a +1 modifier, we will remove the biggest"); a
  larger m goes on alternately (biggest, smallest, biggest, ...);
- when the other side wins the dice by d, it counts the cities it took (if it won the war) and, for the
  rest of its d points, cities of value 2 ("consider a city(ies) of value 2"): a tie with a +2 modifier
  counts 2 cities of value 2, a +2 side winning with a total difference of 1 (dice -1) counts one;
- a city counted but not named (a winner who named fewer cities than he won) counts 2 as well.

Both sides' modifiers are netted (a +1 against a +1 is an even war; a -1 on one side is a +1 on the other).
Luck is never spent on a war (3.7: "No luck points can be used to modify the war dice rolls"): a
`WarDeclaration` has no field for it.

All arithmetic is in `fractions.Fraction`; the luck each side scores is rounded to four digits as it is
posted (3.10, GA-OQ-04: 21/36 scores 0.5833), the chance it rests on is kept exact. The dice come
from the RNG handed in, first side's die first (two `randint(1, 6)`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import product

from .luck import LuckPosting, rounded, show, show_signed

#: Value of a city that is counted under 3.12 but did not change hands ("consider a city(ies) of value 2").
UNNAMED_CITY_VALUE = 2


@dataclass(frozen=True)
class City:
    """A city by its name and its value (the tokens 3.12 multiplies by)."""

    name: str
    value: int


def _unnamed() -> City:
    """The placeholder counted for a point of dice difference with no city behind it (3.12)."""
    return City("(a city of value 2)", UNNAMED_CITY_VALUE)


@dataclass(frozen=True)
class WarDeclaration:
    """A war between two players, as the engine hands it over.

    `first_modifier` / `second_modifier`: each side's modifier added to its die (a military advantage, +1 or +2
    in the rules' examples). `first_targets` / `second_targets`: the cities each side takes if it wins, in the
    order it takes them (only the first as many as it wins are taken); they matter only under 3.12, where
    their values multiply the luck. `option_312`: whether option 3.12 is in force."""

    first: str
    second: str
    first_modifier: int = 0
    second_modifier: int = 0
    first_targets: tuple[City, ...] = ()
    second_targets: tuple[City, ...] = ()
    option_312: bool = False

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError(f"a war needs two players, got {self.first} twice")


@dataclass(frozen=True)
class WarRoll:
    """The dice of a war and the modifiers they were rolled with."""

    first_die: int
    second_die: int
    first_modifier: int = 0
    second_modifier: int = 0

    def __post_init__(self) -> None:
        for die in (self.first_die, self.second_die):
            if not 1 <= die <= 6:
                raise ValueError(f"a die shows 1 to 6, got {die}")

    @property
    def dice_difference(self) -> int:
        """First die minus second die (the modifiers left out)."""
        return self.first_die - self.second_die

    @property
    def net_modifier(self) -> int:
        """The first side's modifier minus the second's."""
        return self.first_modifier - self.second_modifier

    @property
    def difference(self) -> int:
        """First total minus second total: positive when the first side wins, its size the cities won."""
        return self.dice_difference + self.net_modifier

    @property
    def cities(self) -> int:
        """Cities the winner takes (0 for a tie)."""
        return abs(self.difference)


@dataclass(frozen=True)
class WarLuck:
    """What a war scores: `first` and `second` are each side's luck (always opposite); `chance` is the
    probability the score rests on (0 when nothing is scored), `multiplier` the 3.12 factor (1 without the
    option), `counted` the cities whose values make it, `why` a short explanation for the ledger."""

    first: Fraction
    second: Fraction
    chance: Fraction
    multiplier: int
    counted: tuple[City, ...]
    why: str


@dataclass(frozen=True)
class WarResult:
    """A resolved war: the declaration, the dice, the cities taken (by the winner, from the loser) and the luck."""

    declaration: WarDeclaration
    roll: WarRoll
    winner: str | None
    loser: str | None
    taken: tuple[City, ...]
    luck: WarLuck
    luck_by_player: dict[str, Fraction] = field(default_factory=dict)

    @property
    def postings(self) -> tuple[LuckPosting, LuckPosting]:
        """The two entries for the luck ledger (`LuckLedger.record`), first side first; a tie's are 0 and are
        still posted, so the war stands in the public history."""
        d = self.declaration
        if self.winner is None:
            what = "a tie"
        else:
            n = self.roll.cities
            what = f"{self.winner} takes {n} {'city' if n == 1 else 'cities'}"
        reason = f"war {d.first} v {d.second}: {what}"
        return LuckPosting(d.first, self.luck.first, reason), LuckPosting(d.second, self.luck.second, reason)


# -- the odds ---------------------------------------------------------------------------------------------------

def difference_odds(shift: int = 0) -> dict[int, Fraction]:
    """The distribution of (one die - another die + `shift`): each value with its exact probability."""
    odds: dict[int, Fraction] = {}
    for a, b in product(range(1, 7), repeat=2):
        odds[a - b + shift] = odds.get(a - b + shift, Fraction(0)) + Fraction(1, 36)
    return odds


@cache
def chance_at_most(k: int, shift: int = 0) -> Fraction:
    """P(die - die + shift <= k)."""
    return sum((p for x, p in difference_odds(shift).items() if x <= k), Fraction(0))


def one_step_worse_or_less(cities: int, shift: int = 0) -> Fraction:
    """3.7's measure for a winner of `cities` (>= 1) whose own net modifier is `shift`: the chance of a result
    one step worse or less, i.e. that his total exceeds the other's by at most cities - 1 (a tie when he won
    1 city, a loss below that). 1 city in an even war: 21/36; 5 cities: 35/36; 1 city at +2: 10/36."""
    if cities < 1:
        raise ValueError(f"the measure is taken for a winner of at least one city, got {cities}")
    return chance_at_most(cities - 1, shift)


# -- luck -------------------------------------------------------------------------------------------------------

def war_luck(roll: WarRoll, taken: Sequence[City] = (), *, option_312: bool = False) -> WarLuck:
    """The luck a war scores for each side. `taken`: the cities the winner took, in the order he took them
    (used only under 3.12; missing ones count 2). See the module docstring for the rules."""
    if option_312:
        return _luck_312(roll, tuple(taken))
    return _luck_37(roll)


def _signed(first_won: bool, amount: Fraction) -> tuple[Fraction, Fraction]:
    """Each side's luck, rounded to four digits as it is posted (3.10, GA-OQ-04: 21/36 -> 0.5833)."""
    amount = rounded(amount)
    return (amount, -amount) if first_won else (-amount, amount)


def _luck_37(roll: WarRoll) -> WarLuck:
    g = roll.difference
    if g == 0:
        return WarLuck(Fraction(0), Fraction(0), Fraction(0), 1, (), "a tie scores nothing (3.7)")
    # The winner's own modifier shifts his odds: the first side's net modifier, or its opposite.
    shift = roll.net_modifier if g > 0 else -roll.net_modifier
    chance = one_step_worse_or_less(abs(g), shift)
    first, second = _signed(g > 0, chance)
    worse = abs(g) - 1
    step = "a tie or worse" if worse == 0 else f"{worse} {'city' if worse == 1 else 'cities'} or worse"
    return WarLuck(first, second, chance, 1, (),
                   f"chance of {step} for the winner{_shift_words(shift)} (3.7)")


def _shift_words(shift: int) -> str:
    return f" at {shift:+d}" if shift else ""


def counted_cities(roll: WarRoll, taken: Sequence[City]) -> tuple[City, ...]:
    """The cities 3.12 counts: one per point of dice difference (see the module docstring). `taken`: the cities
    the winner of the war took (padded with value-2 cities up to the number he won)."""
    won = list(taken[: roll.cities]) + [_unnamed() for _ in range(roll.cities - len(taken))]
    d = roll.dice_difference
    m = roll.net_modifier
    if d == 0:
        return ()
    # Look from the side with the non-negative net modifier ("the modified side").
    if m < 0:
        d, m = -d, -m
    if d > 0:
        # The modified side won the dice: it took d + m cities; m of them are the modifier's, not luck's.
        return tuple(_remove_for_modifier(won, m))
    # The other side won the dice by -d points: the cities it took count if it won the war, and each point
    # of its lead that took no city (it only overcame the modifier) counts a city of value 2.
    lead = -d
    real = won if d + m < 0 else []
    return tuple(real) + tuple(_unnamed() for _ in range(lead - len(real)))


def _remove_for_modifier(cities: list[City], m: int) -> list[City]:
    """`cities` less `m` of them: the biggest, then the smallest, then the biggest... (3.12: +1 the biggest,
    +2 the biggest and smallest). Among equal values the one taken first goes."""
    left = list(cities)
    for i in range(m):
        if not left:
            break
        pick = max(left, key=lambda c: c.value) if i % 2 == 0 else min(left, key=lambda c: c.value)
        left.remove(pick)
    return left


def _luck_312(roll: WarRoll, taken: tuple[City, ...]) -> WarLuck:
    d = roll.dice_difference
    if d == 0:
        return WarLuck(Fraction(0), Fraction(0), Fraction(0), 0, (), "equal dice score nothing (3.12)")
    counted = counted_cities(roll, taken)
    multiplier = sum(c.value for c in counted)
    chance = one_step_worse_or_less(abs(d))  # the dice difference, as in an even war
    first, second = _signed(d > 0, chance * multiplier)
    values = " + ".join(str(c.value) for c in counted)
    lead = "equal dice or worse" if abs(d) == 1 else f"a dice lead of {abs(d) - 1} or worse"
    return WarLuck(first, second, chance, multiplier, counted,
                   f"chance of {lead} for the higher die, times city values {values} = {multiplier} (3.12)")


# -- resolving --------------------------------------------------------------------------------------------------

def roll_war(declaration: WarDeclaration, rng: random.Random) -> WarRoll:
    """The dice of a war: the first side's die, then the second's."""
    first = rng.randint(1, 6)
    second = rng.randint(1, 6)
    return WarRoll(first, second, declaration.first_modifier, declaration.second_modifier)


def settle_war(declaration: WarDeclaration, roll: WarRoll, taken: Sequence[City] | None = None) -> WarResult:
    """A war whose dice are known. `taken`: the cities the winner took, if known only after the roll (else
    the first ones of the winner's targets in the declaration)."""
    g = roll.difference
    if g == 0:
        winner = loser = None
        chosen: tuple[City, ...] = ()
    else:
        winner, loser = (declaration.first, declaration.second) if g > 0 else (declaration.second, declaration.first)
        targets = declaration.first_targets if g > 0 else declaration.second_targets
        chosen = tuple(taken if taken is not None else targets)[: roll.cities]
    luck = war_luck(roll, chosen, option_312=declaration.option_312)
    return WarResult(declaration, roll, winner, loser, chosen, luck,
                     {declaration.first: luck.first, declaration.second: luck.second})


def resolve_war(declaration: WarDeclaration, rng: random.Random) -> WarResult:
    """Roll a war and score it: the dice (two `rng.randint(1, 6)`, first side first), the cities, the luck."""
    return settle_war(declaration, roll_war(declaration, rng))


# -- the public ledger ----------------------------------------------------------------------------------------

def _side(name: str, modifier: int) -> str:
    return f"{name} ({modifier:+d})" if modifier else name


def format_war(result: WarResult, scores_after: Mapping[str, Fraction] | None = None) -> str:
    """The war's line for the public ledger: sides, dice, totals, cities, luck of each side, and why; with
    `scores_after` (the scores once the war is posted) the running scores of the players it names, in its
    order."""
    d, r = result.declaration, result.roll
    head = (f"War {_side(d.first, d.first_modifier)} v {_side(d.second, d.second_modifier)}: "
            f"dice {r.first_die} v {r.second_die}, totals {r.first_die + r.first_modifier} v "
            f"{r.second_die + r.second_modifier}")
    if result.winner is None:
        outcome = "a tie"
    else:
        n = r.cities
        names = f" ({', '.join(c.name for c in result.taken)})" if result.taken else ""
        outcome = f"{result.winner} takes {n} {'city' if n == 1 else 'cities'} from {result.loser}{names}"
    luck = result.luck
    text = (f"{head}; {outcome}. Luck {d.first} {show_signed(luck.first)}, {d.second} "
            f"{show_signed(luck.second)}: {luck.why}.")
    if scores_after is not None:
        text += " Scores " + ", ".join(f"{p} {show(Fraction(scores_after.get(p, 0)))}" for p in scores_after) + "."
    return text
