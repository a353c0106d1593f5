"""Which turn `maild turn run` would run, and whether the turn the GM names is that one.

A GM who runs a turn by hand names it (`--turn N`, in a game of phases also `--phase NAME`), because the
command may die after its commit: run again unnamed, it would run the *next* turn (or phase), a day early and
with no orders. The turn is checked against the open one twice: before intake reads the mail stored before
it (so a refusal costs nothing), and again inside the turn's transaction with the game locked (so a turn run
meanwhile by the daemon or a second command is refused too, never run twice).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from maild.games import get_game, get_turn, players_of, ruleset_named
from maild.models import Game
from maild.orderbook import players_without_orders
from maild.phases import is_phased, open_row, regular_phases


@dataclass(frozen=True)
class TurnPlan:
    """The open turn of a game as `turn run` shows it before running it."""

    game: str
    turn: int
    finished: bool
    deadline: datetime | None = None
    phase: str | None = None  # the open phase, in a game of several phases a turn
    held: str | None = None  # why the safety gate held it, if it did (`turn run` overrides the gate)
    with_orders: list[str] = field(default_factory=list)
    without_orders: list[str] = field(default_factory=list)


def open_phase(s: Session, game: Game) -> str | None:
    """The phase of the game's open turn that a run would resolve; None in a game of one phase a turn. A turn
    opened before its phases were recorded starts with its first phase (as `phased_turn.run_phase` does)."""
    ruleset = ruleset_named(game.ruleset)
    if not is_phased(ruleset):
        return None
    row = open_row(s, game.id, game.turn)
    return row.name if row is not None else regular_phases(ruleset)[0].name


def plan(s: Session, name: str) -> TurnPlan:
    game = get_game(s, name)
    if game.finished:
        return TurnPlan(game.name, game.turn - 1, finished=True)
    turn = get_turn(s, game, game.turn)
    missing = {p.name for p in players_without_orders(s, game, game.turn)}
    everyone = [p.name for p in players_of(s, game)]
    return TurnPlan(game.name, game.turn, finished=False, deadline=turn.deadline if turn else None,
                    phase=open_phase(s, game), held=turn.note if turn and turn.status == "held" else None,
                    with_orders=[p for p in everyone if p not in missing],
                    without_orders=[p for p in everyone if p in missing])


def not_open(s: Session, game: Game, turn: int | None, phase: str | None) -> str | None:
    """Why turn `turn` (and phase `phase`) of `game` is not the one a run would resolve now, in one line; None
    if it is (or if nothing is named). A finished game is not asked here: it has no open turn."""
    if turn is not None and turn != game.turn:
        if turn < game.turn:
            return f"turn {turn} of {game.name} is already done; the open turn is {game.turn}"
        return f"turn {turn} of {game.name} is not open yet; the open turn is {game.turn}"
    if phase is None:
        return None
    current = open_phase(s, game)
    if current is None:
        return f"{game.name} has no phases: run it without --phase"
    if phase != current:
        return f"the open phase of turn {game.turn} of {game.name} is the {current}, not the {phase}"
    return None
