"""What every action handler of The Law of the Jungle works with: the action as placed, the council (the world,
the RNG, the part of the session, the reports), and the registry of handlers.

A handler is ``def handle(council: Council, actor: Character, action: Action) -> None``. It changes
``council.world`` and reports what happened with `Council.tell` (a house's printout) and `Council.announce`
(the newsletter). An action not valid at the moment it resolves raises `Void` with the reason in a player's
words ("Xolotl is not in Tenochtitlan"); the engine reports it in the printout and goes on. Handlers are
registered with `@handles("keyword", ...)` in the module of their part of the rules, and every such module is
imported by `maild_rules.jungle.handlers`.

All chance comes from ``council.rng`` (seeded and recorded by the framework); "Random Number" is
`Council.random` (docs/law-of-the-jungle.md, LJ-OQ-01).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .model import Character, World


@dataclass
class Action:
    """One action as the engine resolves it."""

    character: str  # who acts (the character's name as in the world)
    keyword: str  # the canonical keyword: "attack", "give", "join houses", "support policy" ...
    args: dict[str, Any]  # what the grammar read after the keyword (maild_rules.jungle.orders)
    part: str  # "morning" or "afternoon"
    seq: int  # receipt sequence of the mail that carried it (ties in Fame)
    house: str  # the house (player) whose mail gave it: the slave's owner's, for a dictated action
    text: str = ""  # the action as the player wrote it, for reports
    both: bool = False  # the character spends both actions of the session on it


class Void(Exception):  # noqa: N818 - the rules' word: "Actions that are not valid ... will be considered void"
    """The action is not valid at the moment it resolves; the message says why, in a player's words."""


@dataclass
class Report:
    house: str | None  # None: the newsletter
    text: str
    part: str


@dataclass
class Council:
    """One part of one council session being resolved."""

    world: World
    rng: random.Random
    part: str  # "morning", "afternoon" or "evening"
    reports: list[Report] = field(default_factory=list)
    # Every action of this part in resolution order, and the index of the one resolving: for what looks at
    # other actions of the same part (a joint attack waits for its slowest participant).
    actions: list[Action] = field(default_factory=list)
    position: int = 0
    scratch: dict[str, Any] = field(default_factory=dict)  # per-part bookkeeping of handlers, by their module
    events: list[dict[str, Any]] = field(default_factory=list)  # machine-readable, for TurnResult.events

    @property
    def session(self) -> int:
        return self.world.session + 1  # the session being resolved (world.session is the last one closed)

    def random(self) -> Fraction:
        """The rules' "Random Number": one fresh draw per occurrence (LJ-OQ-01)."""
        return random_number(self.rng)

    def tell(self, house: str, text: str) -> None:
        self.reports.append(Report(house, text, self.part))

    def tell_all(self, houses: list[str] | set[str], text: str) -> None:
        for h in sorted(set(houses)):
            self.tell(h, text)

    def announce(self, text: str) -> None:
        self.reports.append(Report(None, text, self.part))

    def event(self, kind: str, **data: Any) -> None:
        self.events.append({"kind": kind, "part": self.part, **data})


def random_number(rng: random.Random) -> Fraction:
    """A number between 0 and 1 as a forum GM rolls it: a d100 read as hundredths, 0.01 to 1.00, each equally
    likely, exact (LJ-OQ-01)."""
    return Fraction(rng.randint(1, 100), 100)


Handler = Callable[[Council, Character, Action], None]
HANDLERS: dict[str, Handler] = {}


def handles(*keywords: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for word in keywords:
            if word in HANDLERS:
                raise ValueError(f"two handlers for {word!r}")
            HANDLERS[word] = fn
        return fn

    return register
