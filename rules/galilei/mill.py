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
the cost. A declared spend the bounds do not allow is cut to the most steps they allow, as an attack's is
(`allowed_steps`; the result says why in `cut`); steps beyond certainty are a mistake of the declaration
(ValueError). The cost is a transfer: the roller's negative score rises by it and the loser's falls by it (the
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
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from maild.ledger import display

from .luck import LuckPosting, read_amount, rounded, show_signed
from .spending import SpendUnreadable, refusal

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
    """A resolved mill roll. `steps`: the steps spent (the declared ones, or fewer when the bounds cut them,
    `cut` then saying why); `spent`: their cost (the roller's score rises by it, the loser's falls by it);
    `chance_before` / `chance`: the chance without and with the spend; `die` is None when no die was rolled
    (success made certain); `luck`: what the roll scored, per player; `postings`: the ledger's entries in order
    (the spend's two, if any, then the roll's two), for `LuckLedger.record`; `scores_after`: both scores after."""

    declaration: MillDeclaration
    steps: int
    cut: str | None
    chance_before: Fraction
    chance: Fraction
    die: int | None
    success: bool
    spent: Fraction
    luck: dict[str, Fraction]
    postings: tuple[LuckPosting, ...]
    scores_after: dict[str, Fraction]

    def changes(self) -> dict[str, Fraction]:
        """Each player's total change of score: the spend's transfer plus the roll's luck."""
        d = self.declaration
        return {d.player: self.spent + self.luck[d.player], d.loser: -self.spent + self.luck[d.loser]}


def mill_chance(target: int, steps: int = 0) -> Fraction:
    """The chance of the change of card: (target + steps)/6, never above 1."""
    return min(Fraction(target + steps, 6), Fraction(1))


def spend_cost(steps: int, option_312: bool = False) -> Fraction:
    """The luck `steps` steps cost as it is charged: steps x 1/6, times 6 under 3.12 (a whole point a step),
    rounded to four digits (3.10, GA-OQ-04: 1 step 0.1667, 2 steps 0.3333)."""
    return rounded(steps * STEP * (FACTOR_312 if option_312 else 1))


_STEPS = re.compile(r"^(\d+)\s*(?:steps?|positions?|rows?|faces?)$")


def read_steps(written: str, option_312: bool = False, most: int = 6) -> int:
    """The steps of 1/6 a player asks to spend on a mill, from what he wrote, as a battle's spend is read
    (spending.read_spend): "1 step", "2 steps" (also positions, rows, faces); or the amount, "0.1667",
    "0,3333" (3.12: "1", "2"), within 0.0001 a step of the exact cost; "0" or "none" is no spend. An amount
    that is no whole number of steps is refused with the costs of the `most` steps there are, never rounded
    (SpendUnreadable)."""
    text = " ".join(written.strip().lower().split())
    if text in ("", "0", "none", "nothing", "no"):
        return 0
    if m := _STEPS.match(text):
        return int(m.group(1))
    step = STEP * (FACTOR_312 if option_312 else 1)  # exact: "0.3333" and "0.3334" both read as 2 steps
    try:
        amount = abs(read_amount(text))
    except ValueError:
        raise SpendUnreadable(f"cannot read the luck to spend on the mill: {written.strip()!r}; write e.g. "
                              f"\"1 step\" or the amount, \"{display(step)}\"") from None
    steps = round(amount / step)
    if steps and abs(amount - steps * step) <= Fraction(steps, 10000):
        return steps
    costs = ", ".join(f"{k} for {display(spend_cost(k, option_312))}" for k in range(1, most + 1)) or "none"
    raise SpendUnreadable(f"{written.strip()} is not the cost of whole steps of the mill: steps {costs}")


def check_form(declaration: MillDeclaration) -> str | None:
    """What is wrong with the declaration itself, or None: a spend beyond certainty."""
    d = declaration
    if d.target + d.steps > 6:
        return (f"{d.steps} steps on a die that succeeds on {d.target} or less go beyond certainty: at most "
                f"{6 - d.target}")
    return None


def spend_refusal(declaration: MillDeclaration, scores: Mapping[str, Fraction], steps: int | None = None) -> str | None:
    """Why the spend (the declared steps, or `steps`) is refused, or None. `scores`: the luck scores before."""
    d = declaration
    k = d.steps if steps is None else steps
    if k == 0:
        return None
    # The attacks' bounds, the city's loser in the defender's place (3.9: "in the same conditions").
    return check_form(d) or refusal(d.player, d.loser, spend_cost(k, d.option_312), scores, d.option_312)


def allowed_steps(declaration: MillDeclaration, scores: Mapping[str, Fraction]) -> int:
    """The most steps, at most those declared, that the bounds allow (as an attack's spend is cut to the rows
    the bounds allow). ValueError for a declaration beyond certainty."""
    if why := check_form(declaration):
        raise ValueError(why)
    for k in range(declaration.steps, 0, -1):
        if spend_refusal(declaration, scores, k) is None:
            return k
    return 0


def mill_luck(declaration: MillDeclaration, success: bool, steps: int | None = None) -> dict[str, Fraction]:
    """The luck a mill roll scores at the chance after `steps` (default: the declared) steps: success ->
    +(1 - chance), failure -> -chance, for the roller, times 6 under 3.12; the loser of the city the opposite;
    rounded to four digits as it is posted (3.10, GA-OQ-04: 1/6 -> 0.1667)."""
    d = declaration
    chance = mill_chance(d.target, d.steps if steps is None else steps)
    amount = rounded(((1 - chance) if success else -chance) * d.factor)
    return {d.player: amount, d.loser: -amount}


def resolve_mill(declaration: MillDeclaration, scores: Mapping[str, Fraction], rng: random.Random) -> MillResult:
    """Spend what the bounds allow of the declared steps, roll the mill (one `rng.randint(1, 6)`, none when
    success is certain) and score it."""
    d = declaration
    steps = allowed_steps(d, scores)
    cut = spend_refusal(d, scores) if steps < d.steps else None
    chance = mill_chance(d.target, steps)
    if chance == 1:
        die, success = None, True
    else:
        die = rng.randint(1, 6)
        success = die <= d.target + steps
    spent = spend_cost(steps, d.option_312)
    luck = mill_luck(d, success, steps)
    who = f"Wind/Watermill of {d.player} after taking a city from {d.loser}"
    postings: list[LuckPosting] = []
    if steps:
        postings += [LuckPosting(d.player, spent, f"{who}: spends {steps} step(s)"),
                     LuckPosting(d.loser, -spent, f"{who}: luck spent against him")]
    why = "change of card" if success else "no change of card"
    postings += [LuckPosting(d.player, luck[d.player], f"{who}: {why}"),
                 LuckPosting(d.loser, luck[d.loser], f"{who}: {why}")]
    after = {p: Fraction(scores.get(p, 0)) for p in (d.player, d.loser)}
    for posting in postings:
        after[posting.player] += posting.amount
    return MillResult(d, steps, cut, mill_chance(d.target), chance, die, success, spent, luck, tuple(postings),
                      after)


def format_mill(result: MillResult) -> str:
    """The mill's line for the public ledger: who, the chance, the spend, the die, the outcome, the luck and
    both players' scores after it."""
    d = result.declaration
    text = (f"Wind/Watermill {d.player} after taking a city from {d.loser}: needs {d.target} or less, "
            f"chance {display(result.chance_before)}")
    if result.steps:
        text += (f"; spends {display(result.spent)} ({result.steps} step{'s' if result.steps != 1 else ''}, "
                 f"needs {d.target + result.steps} or less, chance {display(result.chance)})")
    if result.cut:
        text += f" (declared {d.steps}: {result.cut})"
    text += "; sure, no roll" if result.die is None else f"; die {result.die}"
    text += ": the change of card" if result.success else ": no change of card"
    factor = " x 6 (3.12)" if d.option_312 else ""
    text += (f". Luck{factor} {d.player} {show_signed(result.luck[d.player])}, {d.loser} "
             f"{show_signed(result.luck[d.loser])}. Scores " +
             ", ".join(f"{p} {display(v)}" for p, v in result.scores_after.items()) + ".")
    return text
