"""What every rule module works with: the turn context, what an order's handler returns, and the order table's row.

A handler gets the turn context, the persona dict and the order's args, changes the state in place and returns an
`Outcome` (done or failed, and why, in the words the printout shows). Handlers never raise for a player's mistake:
they return `fail(...)`. Which handler carries out which order kind, and when each step of the month runs, is
registry.py's; engine.py runs the month. This module sits below all of them: it imports no rule module, so every
rule module may import it (docs/renaissance.md, "How the modules depend on each other").
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from .calendar import month_of, year_of

State = dict[str, Any]
Persona = dict[str, Any]


class Phase(IntEnum):
    """The group an order kind belongs to in a persona's orders (orderkinds.KINDS gives each kind its phase).
    The order the phases run in is registry.ORDER_PHASES (rules section ORDERS), not these numbers."""

    TRANSFER = 0
    SELL = 1
    BUY = 2
    TRAIN = 3
    OTHER = 4
    MOVE = 5


@dataclass(frozen=True)
class Outcome:
    ok: bool
    text: str  # what happened, for the printout: "sold 40 wool for 480 ducats" / "no demand for wool here"


def done(text: str) -> Outcome:
    return Outcome(True, text)


def fail(text: str) -> Outcome:
    return Outcome(False, text)


@dataclass
class Ctx:
    """One turn's working context. `state` is the new state, changed in place by handlers."""

    state: State
    turn: int
    rng: random.Random
    # Where each persona began the turn (after start-of-turn steps) and whether inside the walls: many rules
    # test "starts the turn at/inside the location".
    start_location: dict[str, str | None] = field(default_factory=dict)
    start_inside: dict[str, bool] = field(default_factory=dict)
    news: list[str] = field(default_factory=list)  # public events of the month, for the newsletter
    messages: dict[str, list[str]] = field(default_factory=dict)  # family -> private messages (info answers)
    # Per-turn bookkeeping for "once per turn" limits, keyed by the rule module that uses it.
    scratch: dict[str, Any] = field(default_factory=dict)

    @property
    def month(self) -> int:
        """1 = January ... 12 = December."""
        return month_of(self.state, self.turn)

    @property
    def year(self) -> int:
        return year_of(self.state, self.turn)

    def persona(self, pid: str) -> Persona | None:
        return self.state["personae"].get(pid)

    def location(self, name: str | None) -> dict[str, Any] | None:
        return self.state["locations"].get(name) if name else None

    def family(self, name: str) -> dict[str, Any]:
        return self.state["families"][name]

    def tell(self, family: str, text: str) -> None:
        self.messages.setdefault(family, []).append(text)

    def publish(self, text: str) -> None:
        self.news.append(text)

    def once(self, *key: Any) -> bool:
        """True the first time `key` is seen this turn, False after: for "no more than once per turn" rules."""
        seen = self.scratch.setdefault("_once", set())
        if key in seen:
            return False
        seen.add(key)
        return True


Handler = Callable[[Ctx, Persona, dict[str, Any]], Outcome]
Step = Callable[[Ctx], None]


@dataclass(frozen=True)
class Action:
    kind: str
    phase: Phase
    handler: Handler
