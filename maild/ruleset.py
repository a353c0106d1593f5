"""The contract between the framework and a game's rules.

A ruleset is plain code with no I/O: the framework hands it the game state (a JSON-serializable dict it
owns), the order sets on file and a seeded RNG; it returns the new state and what each player and the
public should be told, as template contexts. The framework stores, renders and mails.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Literal


@dataclass(frozen=True)
class Diagnostic:
    """One problem with one line of a player's orders."""

    line: int  # 1-based line number in the order text the player sent
    text: str  # the line as the player wrote it
    message: str  # what was wrong and what was expected, in a player's words
    # A note, not an error: the line's orders stand (e.g. a persona's starting location written wrong).
    warning: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"line": self.line, "text": self.text, "message": self.message}
        if self.warning:
            d["warning"] = True
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Diagnostic:
        return cls(d["line"], d["text"], d["message"], d.get("warning", False))


@dataclass(frozen=True)
class Order:
    """One order as understood."""

    line: int
    text: str
    kind: str  # the ruleset's own name for the order, e.g. "bid" or "borrow"
    args: dict[str, Any]  # JSON-serializable arguments
    summary: str  # the order as understood, in words, for the ack and STATUS

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, "kind": self.kind, "args": self.args,
                "summary": self.summary}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Order:
        return cls(d["line"], d["text"], d["kind"], d["args"], d["summary"])


@dataclass
class ParsedOrders:
    orders: list[Order] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str
    password: str | None = None


@dataclass(frozen=True)
class OrderSet:
    """The orders one mail carried for one player, with the mail's receipt sequence."""

    player: str
    seq: int  # receipt sequence of the mail: earlier mail has the smaller number
    orders: list[Order]


@dataclass(frozen=True)
class PlacedOrder:
    """An order in force at the deadline, with the receipt sequence of the mail that carried it."""

    order: Order
    seq: int


@dataclass
class TurnResult:
    state: dict[str, Any]  # the new state, JSON-serializable
    printouts: dict[str, dict[str, Any]]  # player name -> context for templates/<game>/printout.txt.j2
    newsletter: dict[str, Any]  # context for templates/<game>/newsletter.txt.j2
    events: list[dict[str, Any]] = field(default_factory=list)  # what happened, machine-readable
    finished: bool = False  # the game is over after this turn


@dataclass(frozen=True)
class Phase:
    """One phase of a turn, as a ruleset declares it (see `Ruleset.phases` and docs/phases.md)."""

    name: str  # a word players read: "morning", "spring"; [games.schedule.phases.<name>] in the config
    kinds: frozenset[str] | None = None  # the order kinds it takes; None: every kind
    closes_early: bool = False  # resolved as soon as everyone who must send has an order set on file
    extra: bool = False  # not in the turn's sequence: opened only by a phase's result (`OpenPhase`)
    duration: timedelta | None = None  # an extra phase stays open this long unless the config says


@dataclass(frozen=True)
class OpenPhase:
    """A phase's result asking the framework to open a declared extra phase (a vote among some players)
    next; when it closes, `resolve_phase` is called with its name and orders, and the turn goes on."""

    name: str
    must_send: tuple[str, ...]  # who answers; the phase closes once all of them have


@dataclass
class PhaseResult(TurnResult):
    """What one phase of a turn gives: the state after it, this phase's printouts and newsletter."""

    open_phase: OpenPhase | None = None


# The name of the one phase of a game that declares none: its turns run as they always did.
ONE_PHASE = "turn"

LatePolicy = Literal["next_turn", "refuse"]

# The key in `resolve`'s orders under which the GM's own orders come (payments, bulletins, amendments), for a
# ruleset that declares the kinds it takes in `gm_kinds`. No player can be named so: names never start with #.
GM_ORDERS = "#gm"


class Ruleset:
    """The contract a game implements: subclass this, set `name`, and override what the game needs.

    Every part the framework calls is named here. The five abstract ones (`parse`, `new_game`, `players`,
    `resolve`, and the class attribute `name`) have no sensible default; every other part has the default
    a simple game wants, so a ruleset overrides only what its rules make different. `docs/writing-a-ruleset.md`
    walks through a complete small game.

    A ruleset keeps no state of its own between calls: the framework hands it the game state (a JSON dict it
    owns) each time, because several daemons may share one database and any of them may run the next step.
    """

    #: The ruleset's name: the package under `rules/` and the folder of its templates under `templates/`.
    name: str = ""
    #: Where orders that come after a deadline go: "next_turn" (kept for the next turn) or "refuse".
    late_policy: LatePolicy = "next_turn"
    #: A player may CANCEL orders that came late within this many days of the results of the turn they
    #: missed (Renaissance: ten); None when late orders cannot be cancelled.
    late_cancel_days: int | None = None
    #: `parse` gets the order text with bold runs marked **run** (a game whose actions are bold keywords);
    #: by default emphasis, like bullets and smart punctuation, is taken out first (maild/intake/normalize.py).
    reads_emphasis: bool = False
    #: GM order kinds the ruleset takes through `maild gm` (today "gm_payment", "gm_bulletin", "gm_amend");
    #: they reach `resolve` under GM_ORDERS.
    gm_kinds: frozenset[str] = frozenset()

    def parse(self, text: str) -> ParsedOrders:
        """Syntax only: every line is an order or a diagnostic (blank lines are neither)."""
        raise NotImplementedError

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        """The state before turn 1, from the setup file's TOML. Raise SetupError on a bad setup."""
        raise NotImplementedError

    def players(self, state: dict[str, Any]) -> list[PlayerSpec]:
        """Every player of the game with the address orders come from (and his password, if any)."""
        raise NotImplementedError

    def resolve(self, state: dict[str, Any], turn: int, orders: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        """Run turn `turn`. `orders` has every player (an empty list for those with nothing on file), and the
        GM's own orders under GM_ORDERS when he gave any. All chance comes from `rng`, seeded and recorded by
        the framework, so a re-run gives the same result."""
        raise NotImplementedError

    def phases(self) -> tuple[Phase, ...]:
        """The phases of a turn in order, and the extra phases a result may open. Default: one phase taking
        every kind of order, which runs `resolve` at the turn's deadline (a game of one deadline a turn)."""
        return (Phase(ONE_PHASE),)

    def must_send(self, state: dict[str, Any], turn: int, phase: str) -> list[str] | None:
        """Who must send orders in `phase` for it to close early (a phase declared `closes_early`), read
        from the state when the phase opens; None (the default) for every player."""
        return None

    def resolve_phase(self, state: dict[str, Any], turn: int, phase: str, orders: dict[str, list[PlacedOrder]],
                      rng: random.Random) -> TurnResult:
        """Run phase `phase` of turn `turn`, as `resolve` runs a turn: `orders` are those sent for this
        phase (the GM's come with the turn's first phase); `state` is the state after the phase before. A
        `PhaseResult` may ask for an extra phase (`open_phase`). Default: `resolve`, for a one-phase game."""
        return self.resolve(state, turn, orders, rng)

    def total_turns(self, state: dict[str, Any]) -> int | None:
        """How many turns the game lasts, or None if open-ended (the default)."""
        return None

    def check(self, state: dict[str, Any], turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
        """Checks against the game state at intake (e.g. a bid for more units than offered). Default: none."""
        return []

    def check_gm(self, state: dict[str, Any], kind: str, fields: dict[str, Any]) -> str | None:
        """Why a GM order of `kind` cannot be taken against `state`, or None to take it. Default: take it."""
        return None

    def accept(self, on_file: list[OrderSet], new: OrderSet) -> str | None:
        """Resubmission policy: None to accept `new`, or the reason it is refused. Default: accept every
        mail (with `effective`'s default, every order of every mail counts)."""
        return None

    def effective(self, order_sets: list[OrderSet]) -> list[PlacedOrder]:
        """One player's orders in force, from their accepted order sets in receipt order. Default: all of
        them, in receipt order."""
        return [PlacedOrder(o, s.seq) for s in order_sets for o in s.orders]

    def requested_turn(self, state: dict[str, Any], turn: int, orders: list[Order]) -> int | None:
        """The turn a mail's orders are marked for, when a player sends them ahead; None (the default) for
        the turn the mail arrived in."""
        return None

    def export_players(self, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """`players` of the JSON export: player name -> that player's public and private figures. Default:
        each player's address."""
        return {p.name: {"email": p.email} for p in self.players(state)}

    def welcome(self, state: dict[str, Any], player: str, turn: int = 1) -> dict[str, Any] | None:
        """Context for templates/<game>/welcome.txt.j2, the mail a player gets when he joins (the game is
        created, or a GM's order brings him or a new family of his in), before his first orders for `turn`;
        None (the default) for no welcome mail. The key `welcome_for` (a short string, default "") says what
        this welcome is for: a player is welcomed once per distinct value (Renaissance: his families, so a
        family added later brings a new welcome and an unchanged player none)."""
        return None

    def template_context(self, state: dict[str, Any], turn: int) -> dict[str, Any]:
        """Extra context for the ack, HELP and STATUS templates (e.g. the items on offer this turn)."""
        return {}


class SetupError(ValueError):
    """A setup file the ruleset cannot start a game from; the message says what is wrong."""


def load_ruleset(name: str) -> Ruleset:
    """The ruleset named `name`: the RULESET object of package rules.<name>."""
    if not name.isidentifier():
        raise KeyError(name)
    try:
        module = importlib.import_module(f"maild_rules.{name}")
    except ModuleNotFoundError as exc:
        if exc.name in (f"maild_rules.{name}", "rules"):
            raise KeyError(name) from None
        raise
    return module.RULESET
