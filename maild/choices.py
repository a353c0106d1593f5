"""Simultaneous secret choices: several players answer one decision unseen, revealed together.

For games where players decide at once without seeing each other (Galilei 3.3: "The players in positions
1&3 and 2&4 in turn order secretely record a number from 1 to 6, and players in 5&6 position decide it
between shortage and surplus simultaneously all"; votes, sealed numbers). The framework stores each answer as
an order with its mail's receipt sequence; this module is the logic over those answers. Pure data.

- A `Decision` names who must answer (its ``allowed`` keys, in seat order), the choices each may make (they
  may differ: Galilei's alternation forces a decider to one side), and the default each is taken to have
  chosen if he does not answer (a forced player's forced side; a game's documented choice for the others).
  A decider left out of ``default`` has no default: his reveal shows ``None``.
- `validate` says why a choice is refused (not a decider, or not one of his choices), or None.
- `collect` reads the answers in force: a valid answer replaces an earlier one of the same player (the later
  receipt sequence wins; a game that refuses second mails does so with its resubmission policy before this);
  invalid answers are set aside with their reason and replace nothing. Two answers with one receipt sequence
  (one mail) count in the order given, the later standing.
- The decision is sealed until every decider has answered or the deadline has passed (`Ballot.sealed`).
  While sealed a player sees only his own answer (`shown_to`) and `reveal` refuses; `missing` says who has
  yet to answer (for reminders, and for closing a phase early when it is empty).
- `reveal` lists the answers in receipt order (the earlier mail first), then every decider who did not
  answer, in seat order, with his default (``defaulted=True``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

C = TypeVar("C", bound=Hashable)


class StillSealed(RuntimeError):
    """A reveal asked for before every answer is in and before the deadline."""


@dataclass(frozen=True)
class Decision(Generic[C]):
    name: str  # what is decided, in a player's words ("the shortage/surplus number")
    allowed: Mapping[str, frozenset[C]]  # decider -> his choices; the keys in seat order are who must answer
    default: Mapping[str, C] = field(default_factory=dict)  # decider -> the choice taken when he sends none

    def __post_init__(self) -> None:
        for player, choice in self.default.items():
            if choice not in self.allowed.get(player, frozenset()):
                raise ValueError(f"the default {choice!r} of {player} is not one of his choices")

    @classmethod
    def same_for_all(cls, name: str, deciders: Sequence[str], choices: Iterable[C],
                     default: C | None = None) -> Decision[C]:
        allowed = frozenset(choices)
        defaults = {} if default is None else dict.fromkeys(deciders, default)
        return cls(name, dict.fromkeys(deciders, allowed), defaults)

    @property
    def deciders(self) -> list[str]:
        return list(self.allowed)


@dataclass(frozen=True)
class Answer(Generic[C]):
    player: str
    choice: C
    seq: int  # receipt sequence of the mail that carried it


@dataclass(frozen=True)
class Revealed(Generic[C]):
    player: str
    choice: C | None
    seq: int | None  # None for a default
    defaulted: bool


def validate(decision: Decision[C], player: str, choice: C) -> str | None:
    """Why `player` may not answer `choice`, or None if he may."""
    if player not in decision.allowed:
        return f"you are not among those who decide {decision.name}"
    allowed = decision.allowed[player]
    if choice not in allowed:
        listed = ", ".join(sorted(str(c) for c in allowed))
        return f"{choice} is not a choice for {decision.name}; yours are: {listed}"
    return None


@dataclass(frozen=True)
class Ballot(Generic[C]):
    decision: Decision[C]
    answers: Mapping[str, Answer[C]]  # the answer in force per decider
    refused: tuple[tuple[Answer[C], str], ...]  # answers set aside, with the reason

    @property
    def missing(self) -> list[str]:
        """Deciders with no answer in force, in seat order."""
        return [p for p in self.decision.deciders if p not in self.answers]

    @property
    def complete(self) -> bool:
        return not self.missing

    def sealed(self, deadline_passed: bool) -> bool:
        return not (self.complete or deadline_passed)

    def shown_to(self, player: str, deadline_passed: bool) -> dict[str, C | None]:
        """What `player` may see: only his own answer while sealed; every choice (defaults too) after."""
        if self.sealed(deadline_passed):
            own = self.answers.get(player)
            return {} if own is None else {player: own.choice}
        return {r.player: r.choice for r in self.reveal(deadline_passed)}

    def reveal(self, deadline_passed: bool) -> list[Revealed[C]]:
        """Answers in receipt order, then the missing deciders' defaults in seat order."""
        if self.sealed(deadline_passed):
            raise StillSealed(f"{self.decision.name} is sealed until {', '.join(self.missing)} answer")
        given = sorted(self.answers.values(), key=lambda a: (a.seq, a.player))
        out = [Revealed(a.player, a.choice, a.seq, False) for a in given]
        out += [Revealed(p, self.decision.default.get(p), None, True) for p in self.missing]
        return out


def collect(decision: Decision[C], answers: Iterable[Answer[C]]) -> Ballot[C]:
    """The answers in force (the latest valid one per decider) and the refused ones (see the module docstring)."""
    in_force: dict[str, Answer[C]] = {}
    refused: list[tuple[Answer[C], str]] = []
    for answer in sorted(answers, key=lambda a: a.seq):
        reason = validate(decision, answer.player, answer.choice)
        if reason is not None:
            refused.append((answer, reason))
        else:
            in_force[answer.player] = answer
    return Ballot(decision, in_force, tuple(refused))
