"""Wind/Watermill (rule 3.9, with 3.12): the die roll for the change of card after a city is taken, the luck it
scores, the luck that may be spent on it, and its line in the public ledger.

3.9: "After a combat is won, that is, after a player has taken a city from another player in whatever
conditions, a player willing to apply wind/watermill must roll a dice as usual. Luck points are a scored either
positive or negative as in an attack situation, but given that only one dice is used, they go in steps of
0.1667. Luck points can also be spent here to increase the chances of one getting the change of card in the
same conditions as the attacks."

The roll (GA-OQ-20). One die; it succeeds when it shows `target` or less, `target` being the base game's
("as usual": the die against the taken market's number, which the engine passes, 0 to 6). The chance of
success is target/6, so every chance and every luck figure is a multiple of 1/6 (the "steps of 0.1667").

Luck, "as in an attack situation" (3.4): on a success the roller scores the chance of failure, on a failure
minus the chance of success; the opposite entry goes to the player who lost the city ("from another player"),
so the ledger stays zero-sum as for attacks. A mill after a Cathedral attack scores: 3.9 applies "in whatever
conditions", and 3.8 takes luck away from the attack only.

Spending (3.5 by 3.9's "in the same conditions as the attacks"): each step of 1/6 spent turns one more face
into a success, up to certainty; the bounds are the attacks' with the city's loser as the defender: the roller
needs a negative score of at least the cost, and, unless option 3.12, the loser a positive score of at least
the cost. The cost is a transfer: the roller's negative score rises by it and the loser's falls by it (the
3.5 example: -0.9027 + 0.0973 = -0.8054). When the spend makes success certain no die is rolled and nothing is
scored (the chance of failure is 0).

Option 3.12 (GA-OQ-15): "Regarding WW, the score will also be the chances of succes multiplied by 6": every
amount the mill scores, on success and on failure, is multiplied by 6, and so is a step's cost (6 x 1/6 = 1),
as 3.11's tokens multiply both what a battle scores and what a spend costs.

The step arithmetic is the mill's own (one die, 1/6); the bounds are the battles' own check,
`maild_rules.galilei.spending.refusal` (a score of exactly 0 neither spends nor is spent against, GA-OQ-08;
3.12 removes the defender's condition only, GA-OQ-13).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from maild.ledger import display

from .luck import show_signed
from .spending import refusal

#: One step of the mill: one face of one die.
STEP = Fraction(1, 6)
#: 3.12's factor for the mill ("multiplied by 6").
FACTOR_312 = 6


@dataclass(frozen=True)
class MillDeclaration:
    """A Wind/Watermill roll as the engine hands it over: `player` took a city from `loser`; the die succeeds on
    `target` or less (0 to 6, before spending); `steps` is the number of 1/6 steps of luck spent (declared
    before the roll); `option_312` whether option 3.12 is in force."""

    player: str
    loser: str
    target: int
    steps: int = 0
    option_312: bool = False

    def __post_init__(self) -> None:
        if self.player == self.loser:
            raise ValueError(f"a mill roll needs the city's loser, another player than {self.player}")
        if not 0 <= self.target <= 6:
            raise ValueError(f"the mill's target is 0 to 6, got {self.target}")
        if self.steps < 0:
            raise ValueError(f"steps spent cannot be negative, got {self.steps}")

    @property
    def factor(self) -> int:
        """What the mill's luck is multiplied by: 6 under 3.12, else 1."""
        return FACTOR_312 if self.option_312 else 1


@dataclass(frozen=True)
class MillResult:
    """A resolved mill roll. `die` is None when no die was rolled (success made certain). `spent`: the luck the
    roller spent (his score rises by it, the loser's falls by it); `luck`: what the roll scored, per player."""

    declaration: MillDeclaration
    chance: Fraction
    die: int | None
    success: bool
    spent: Fraction
    luck: dict[str, Fraction]

    def changes(self) -> dict[str, Fraction]:
        """Each player's total change of score: the spend's transfer plus the roll's luck."""
        d = self.declaration
        return {d.player: self.spent + self.luck[d.player], d.loser: -self.spent + self.luck[d.loser]}


def mill_chance(target: int, steps: int = 0) -> Fraction:
    """The chance of the change of card: (target + steps)/6, never above 1."""
    return min(Fraction(target + steps, 6), Fraction(1))


def spend_cost(steps: int, option_312: bool = False) -> Fraction:
    """The luck `steps` steps cost: steps x 1/6, times 6 under 3.12 (a whole point a step)."""
    return steps * STEP * (FACTOR_312 if option_312 else 1)


def spend_refusal(declaration: MillDeclaration, scores: Mapping[str, Fraction]) -> str | None:
    """Why the declared spend is refused, or None. `scores`: the players' luck scores before the roll."""
    d = declaration
    if d.steps == 0:
        return None
    if d.target + d.steps > 6:
        return (f"{d.steps} steps on a die that succeeds on {d.target} or less go beyond certainty: at most "
                f"{6 - d.target}")
    # The attacks' bounds, the city's loser in the defender's place (3.9: "in the same conditions").
    return refusal(d.player, d.loser, spend_cost(d.steps, d.option_312), scores, d.option_312)


def mill_luck(declaration: MillDeclaration, success: bool) -> dict[str, Fraction]:
    """The luck a mill roll scores: success -> +(1 - chance), failure -> -chance, for the roller, times 6
    under 3.12; the loser of the city the opposite."""
    d = declaration
    chance = mill_chance(d.target, d.steps)
    amount = ((1 - chance) if success else -chance) * d.factor
    return {d.player: amount, d.loser: -amount}


def resolve_mill(declaration: MillDeclaration, rng: random.Random,
                 scores: Mapping[str, Fraction] | None = None) -> MillResult:
    """Roll the mill (one `rng.randint(1, 6)`, none when success is certain) and score it. With `scores`, a
    spend is checked against them first (ValueError with the reason if refused); without, the caller has
    checked it with `spend_refusal`."""
    d = declaration
    if scores is not None and (why := spend_refusal(d, scores)):
        raise ValueError(why)
    chance = mill_chance(d.target, d.steps)
    if chance == 1:
        die, success = None, True
    else:
        die = rng.randint(1, 6)
        success = die <= d.target + d.steps
    return MillResult(d, chance, die, success, spend_cost(d.steps, d.option_312), mill_luck(d, success))


def format_mill(result: MillResult) -> str:
    """The mill's line for the public ledger: who, the chance, the spend, the die, the outcome and the luck."""
    d = result.declaration
    spend = (f", {d.player} spends {display(result.spent)} for {d.steps} step{'s' if d.steps != 1 else ''}"
             if d.steps else "")
    die = "no die (certain)" if result.die is None else f"die {result.die}"
    outcome = "the change of card" if result.success else "no change of card"
    factor = " x 6 (3.12)" if d.option_312 else ""
    return (f"Wind/Watermill {d.player} after taking a city from {d.loser}: needs {d.target + d.steps} or less, "
            f"chance {display(result.chance)}{spend}; {die}: {outcome}. Luck{factor} {d.player} "
            f"{show_signed(result.luck[d.player])}, {d.loser} {show_signed(result.luck[d.loser])}.")
