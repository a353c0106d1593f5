"""A battle (3.4-3.6, 3.8, 3.11): its declaration, the check of the luck it spends, the roll, the luck it
scores, and its line in the public ledger.

G4 calls, with the scores of the luck ledger at the moment of the battle:

- `check_form(decl) -> str | None`: what is wrong with the declaration whatever the scores (position, tokens,
  more rows than the table has, a spend on a Cathedral attack);
- `check_battle(decl, scores, option_312) -> str | None`: that, or the spending bound it breaks now (3.5,
  3.11, 3.12; `spending.refusal`);
- `allowed_spend(decl, scores, option_312) -> int`: the most rows, up to those declared, the bounds allow now;
- `resolve_battle(decl, scores, option_312, rng) -> BattleResult`: the battle fought; its `postings` go to the
  `LuckLedger` in order, its `scores_after` are the scores then;
- `format_battle(result, order=None) -> str`: the battle's line in the public ledger;
- `roll_attack(row, advantage, rng) -> (roll | None, won)`: the roll alone (the statistical test uses it).

How a player writes the luck to spend is read by `spending.read_spend`.

A declaration whose form is wrong raises ValueError in `resolve_battle` (the intake refuses it first). A spend
that the bounds no longer allow when the battle comes (scores move with every battle of a turn) is cut down
to the largest whole number of rows they allow, possibly none, and the result says so (GA-OQ-07): the player
declared the most he would pay, and every smaller spend is one he also accepted.

The roll (GA-OQ-05): every chance is a whole number of 72nds, so one draw `rng.randrange(72)` is a roll of a
72-sided die, shown as 1 to 72; the attack succeeds when the roll is at most the chance in 72nds (58/72: a
roll of 1 to 58). Python's `randrange` draws integers exactly uniformly (by rejection, no float), so the
chance is exact, not the float nearest to it; one draw per battle keeps the replay of a turn simple. A sure
victory (row 0) draws nothing (GA-OQ-11).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

from maild.ledger import from_json, to_json

from . import odds
from .luck import DIGITS, LuckPosting, rounded, show, show_signed
from .spending import refusal


@dataclass(frozen=True)
class BattleDeclaration:
    """An attack as declared by mail.

    `position` is the attacker's place in turn order (1-6); `tokens` the attacker's tokens engaged, the
    multiplier of 3.11 for the luck scored either way and for the cost of a spend (GA-OQ-09); `spend` the
    rows of the table the attacker climbs by spending luck (0: none)."""

    attacker: str
    defender: str
    position: int
    tokens: int = 1
    advantage: bool = False
    proselytism: bool = False
    cathedral: bool = False
    spend: int = 0

    @property
    def row(self) -> int:
        """The table row fought from before any spend (Proselytism: one row higher)."""
        return odds.row_of(self.position, self.proselytism)

    def cost(self, rows: int | None = None) -> Fraction:
        """The luck `rows` rows (default: those declared) cost in this battle, tokens included, as it is
        charged: the difference 3.5 defines, rounded to four digits (3.10, GA-OQ-04; 3 rows at 7/72: 0.2917)."""
        return rounded(odds.spend_cost(self.row, self.spend if rows is None else rows, self.advantage, self.tokens))


@dataclass(frozen=True)
class BattleResult:
    """A battle fought. `scored` is the attacker's luck from the roll (the defender's is its opposite); `spent`
    the luck the attacker spent (his score rises by it, the defender's falls by it); both as posted, to four
    digits (GA-OQ-04)."""

    declaration: BattleDeclaration
    spend: int                   # rows actually climbed
    spent: Fraction              # luck moved by the spend, tokens included (four digits, as posted)
    cut: str | None              # why fewer rows than declared were spent
    chance_before: Fraction      # chance of success as declared without the spend
    chance: Fraction             # chance of success fought at
    roll: int | None             # 1..72, None for a sure victory
    won: bool
    scored: Fraction
    postings: tuple[LuckPosting, ...]
    scores_after: dict[str, Fraction] = field(default_factory=dict)

    @property
    def sure(self) -> bool:
        return self.roll is None

    def to_json(self) -> dict[str, Any]:
        """The result as plain JSON values for the game's state, amounts exact: the four-digit luck figures as
        decimal strings ("0.3889"), the chances as "p/q" ("29/36")."""
        return {"declaration": asdict(self.declaration), "spend": self.spend, "spent": to_json(self.spent, DIGITS),
                "cut": self.cut, "chance_before": to_json(self.chance_before), "chance": to_json(self.chance),
                "roll": self.roll, "won": self.won, "scored": to_json(self.scored, DIGITS),
                "postings": [[p.player, to_json(p.amount, DIGITS), p.reason] for p in self.postings],
                "scores_after": {k: to_json(v, DIGITS) for k, v in self.scores_after.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BattleResult:
        """The result `to_json` wrote."""
        return cls(BattleDeclaration(**data["declaration"]), data["spend"], Fraction(from_json(data["spent"])),
                   data["cut"], Fraction(from_json(data["chance_before"])), Fraction(from_json(data["chance"])),
                   data["roll"], data["won"], Fraction(from_json(data["scored"])),
                   tuple(LuckPosting(p, Fraction(from_json(a)), r) for p, a, r in data["postings"]),
                   {k: Fraction(from_json(v)) for k, v in data["scores_after"].items()})


def check_form(decl: BattleDeclaration) -> str | None:
    """What is wrong with the declaration itself, or None."""
    if decl.attacker == decl.defender:
        return f"{decl.attacker} cannot attack himself"
    if decl.position not in odds.POSITIONS:
        return f"the position is the attacker's place in turn order, 1 to 6, not {decl.position}"
    if isinstance(decl.tokens, bool) or not isinstance(decl.tokens, int) or decl.tokens < 1:
        return f"an attack engages at least one token, not {decl.tokens}"
    if decl.spend < 0:
        return "the luck spent is a number of rows, 0 or more"
    if decl.spend and decl.cathedral:
        # GA-OQ-12: an attack that scores no luck cannot be bought with luck either.
        return "no luck may be spent on an attack with Cathedral (3.8: it provides no luck points)"
    if decl.spend > decl.row:
        return (f"from row {decl.row} one can spend at most {decl.row} rows (row 0 is a sure victory), "
                f"not {decl.spend}")
    return None


def check_battle(decl: BattleDeclaration, scores: Mapping[str, Fraction], option_312: bool) -> str | None:
    """Why the battle cannot be fought as declared with these scores, or None."""
    return check_form(decl) or refusal(decl.attacker, decl.defender, decl.cost(), scores, option_312)


def allowed_spend(decl: BattleDeclaration, scores: Mapping[str, Fraction], option_312: bool) -> int:
    """The most rows, at most those declared, that the spending bounds allow with these scores."""
    if check_form(decl):
        raise ValueError(check_form(decl))
    for rows in range(decl.spend, 0, -1):
        if refusal(decl.attacker, decl.defender, decl.cost(rows), scores, option_312) is None:
            return rows
    return 0


def roll_attack(row: int, advantage: bool, rng: random.Random) -> tuple[int | None, bool]:
    """The roll of an attack from `row`: (the roll 1..72, whether it succeeds), one `rng.randrange(72)`; at
    row 0, a sure victory, (None, True) with no draw (GA-OQ-11)."""
    if row == 0:
        return None, True
    roll = rng.randrange(odds.DENOMINATOR) + 1
    return roll, roll <= odds.success_72nds(row, advantage)


def resolve_battle(decl: BattleDeclaration, scores: Mapping[str, Fraction], option_312: bool,
                   rng: random.Random) -> BattleResult:
    """Fight the battle: post the spend, roll unless victory is sure, score the luck (3.4, 3.5, 3.8, 3.11).
    Every amount is rounded to four digits as it is posted (3.10): one posting for the tokens together
    (3 tokens winning at row 2: 3 x 14/72 = 42/72, posted 0.5833)."""
    wrong = check_form(decl)
    if wrong:
        raise ValueError(wrong)
    rows = allowed_spend(decl, scores, option_312)
    cut = None
    if rows < decl.spend:
        cut = refusal(decl.attacker, decl.defender, decl.cost(), scores, option_312)
    spent = decl.cost(rows)
    row = decl.row - rows
    chance = odds.success_chance(row, decl.advantage)
    after = {p: Fraction(v) for p, v in scores.items()}
    after.setdefault(decl.attacker, Fraction(0))
    after.setdefault(decl.defender, Fraction(0))
    who = f"{decl.attacker} attacks {decl.defender}"
    postings: list[LuckPosting] = []
    if rows:
        # 3.5: the spend levels both: "his negative score remains as -0.8054" (it rises by the cost) and
        # Genoa's positive score falls by it ("His score is now -0.4165 and Genoa's 0.1945").
        postings += [LuckPosting(decl.attacker, spent, f"{who}: spends {rows} row(s)"),
                     LuckPosting(decl.defender, -spent, f"{who}: luck spent against him")]
    roll, won = roll_attack(row, decl.advantage, rng)
    if decl.cathedral:
        scored = Fraction(0)  # 3.8: "do not provide "luck" points, neither positive nor negative"
        why = "Cathedral, no luck"
    elif won:
        scored = rounded(decl.tokens * odds.luck_if_won(row, decl.advantage))
        why = "sure victory" if roll is None else "the attack succeeds"
    else:
        scored = rounded(decl.tokens * odds.luck_if_lost(row, decl.advantage))
        why = "the attack fails"
    postings += [LuckPosting(decl.attacker, scored, f"{who}: {why}"),
                 LuckPosting(decl.defender, -scored, f"{who}: {why}")]
    for p in postings:
        after[p.player] += p.amount
    return BattleResult(decl, rows, spent, cut, odds.success_chance(decl.row, decl.advantage), chance, roll, won,
                        scored, tuple(postings), after)


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def format_battle(result: BattleResult, order: Sequence[str] | None = None) -> str:
    """The battle's line in the public ledger: who, position and conditions, the odds, the spend, the roll,
    the luck scored, and the running scores of the two players (of every player in `order` if given).

    London (6th) attacks Genoa, 1 token: 41.67%; spends 0.3889 (4 rows, to 80.56%); roll 23 of 72 (58 or
    less wins): won. Luck London +0.1944, Genoa -0.1944. Scores London -0.2222, Genoa -0.1667."""
    d = result.declaration
    terms = [_ordinal(d.position)]
    if d.advantage:
        terms.append("military advantage")
    if d.proselytism:
        terms.append("Proselytism")
    if d.cathedral:
        terms.append("Cathedral")
    tokens = f"{d.tokens} token" + ("s" if d.tokens != 1 else "")
    text = f"{d.attacker} ({', '.join(terms)}) attacks {d.defender}, {tokens}: {odds.percent(result.chance_before)}"
    if result.spend:
        text += (f"; spends {show(result.spent)} ({result.spend} row{'s' if result.spend != 1 else ''}, "
                 f"to {odds.percent(result.chance)})")
    if result.cut:
        text += f" (declared {d.spend}: {result.cut})"
    if result.roll is None:
        text += "; sure victory, no roll"
    else:
        need = odds.success_72nds(d.row - result.spend, d.advantage)
        text += f"; roll {result.roll} of 72 ({need} or less wins): {'won' if result.won else 'lost'}"
    if d.cathedral:
        text += ". No luck (Cathedral)"
    else:
        text += f". Luck {d.attacker} {show_signed(result.scored)}, {d.defender} {show_signed(-result.scored)}"
    shown = list(order) if order is not None else [d.attacker, d.defender]
    text += ". Scores " + ", ".join(f"{p} {show(result.scores_after.get(p, Fraction(0)))}" for p in shown) + "."
    return text
