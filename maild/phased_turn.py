"""Running a turn of several phases, one phase a transaction (see maild/phases.py and docs/phases.md).

`run_turn` comes here for a game whose ruleset declares phases, with the game locked: the open phase is
resolved with its own orders and seed, its state stored on its row, its results mailed, and the next phase
opened (an extra one if the result asks for it); after the last one the turn ends as every turn does
(`finish_turn`). Nothing is kept in memory between phases: each step reads what it needs from the database.
"""

from __future__ import annotations

import json
import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.corrections import Correction, queue_corrected_mail
from maild.deadlines import format_deadline, game_timezone
from maild.games import players_of, state_before
from maild.models import Game, Snapshot, Turn, TurnPhase
from maild.orderbook import accepted_sets, gm_orders, orders_for_turn
from maild.phases import deadline_of, declared, next_regular, open_first_phase, open_phase, rows_of
from maild.ruleset import Phase, PhaseResult, Ruleset, TurnResult
from maild.turn import TurnOutcome, finish_turn, queue_turn_mail


def run_phase(s: Session, app: App, game: Game, turn: Turn, ruleset: Ruleset) -> TurnOutcome:
    """Resolve the open phase of `turn` (in the caller's transaction, the game locked). The outcome is
    "done" when that ended the turn, else "phase_done" (the next phase is open)."""
    now = app.now()
    rows = rows_of(s, game.id, turn.number)
    row = next((r for r in rows if r.status == "open"), None)
    if row is None:  # a turn opened before its game's phases were recorded: it starts with its first phase
        open_first_phase(s, ruleset, game, turn, state_before(s, game, turn.number), now,
                         app.config.game(game.name))
        rows = rows_of(s, game.id, turn.number)
        row = rows[-1]
    result, missing, share = resolve_row(s, ruleset, game, turn.number, rows, row)
    row.status = "done"
    row.processed_at = now
    row.state = result.state
    row.result = {"events": result.events, "missing": missing, "missing_share": share}
    following = None if result.finished else _following(ruleset, rows, row, result, turn.number)
    if following is None:
        finish_turn(s, app, game, turn, result, missing, share, gm_orders=bool(gm_orders(s, game, turn.number)),
                    phase=row.name, silent=silent_in_turn(s, game, turn.number, rows))
        return TurnOutcome(game.name, turn.number, "done", f"{row.name} done, the turn is over")
    phase, must_send = following
    after = max((r.deadline for r in rows if r.deadline is not None), default=now)
    deadline = deadline_of(app.config.game(game.name), phase, turn.number, after, now)
    open_phase(s, game, turn, phase, row.position + 1, must_send, deadline, now)
    queue_turn_mail(s, app, game, turn.number, result, False,
                    format_deadline(deadline, game_timezone(app.config, game.name)), phase=row.name)
    return TurnOutcome(game.name, turn.number, "phase_done", f"{row.name} done, {phase.name} open")


def silent_in_turn(s: Session, game: Game, turn: int, rows: list[TurnPhase]) -> list[str]:
    """Who missed the turn, for the missed-orders ladder: had to send in one of its phases at least and has no
    order set on file in any."""
    sent = set(accepted_sets(s, game, turn))  # every phase's sets
    players = [p.name for p in players_of(s, game)]
    owed = {name for r in rows for name in (r.must_send if r.must_send is not None else players)}
    return [name for name in players if name in owed and name not in sent]


def _following(ruleset: Ruleset, rows: list[TurnPhase], row: TurnPhase, result: TurnResult, turn: int
               ) -> tuple[Phase, list[str] | None] | None:
    """The phase to open after `row` and who must send in it: the extra phase the result asks for, else the
    turn's next regular phase that the ruleset does not pass over on the result's state; None after the last
    (the phases after `row` all passed over, the turn ends as after its last)."""
    wanted = result.open_phase if isinstance(result, PhaseResult) else None
    if wanted is not None:
        phase = declared(ruleset, wanted.name)
        if not phase.extra:
            raise ValueError(f"{ruleset.name}: phase {row.name} asks for {wanted.name}, which is no extra phase")
        if any(r.name == wanted.name for r in rows):
            raise ValueError(f"{ruleset.name}: phase {row.name} asks for {wanted.name} a second time in turn {turn}")
        return phase, list(wanted.must_send)
    phase_ = next_regular(ruleset, rows, result.state, turn)
    if phase_ is None:
        return None
    return phase_, ruleset.must_send(result.state, turn, phase_.name)


def resolve_row(s: Session, ruleset: Ruleset, game: Game, turn: int, rows: list[TurnPhase], row: TurnPhase
                ) -> tuple[TurnResult, list[str], float]:
    """Resolve phase `row` from the state after the phase before it (the turn's snapshot for the first),
    with its own order sets and its recorded seed. Returns the result and who of those who had to send did
    not, with their share."""
    before = [r for r in rows if r.position < row.position]
    state: dict[str, Any] = before[-1].state if before and before[-1].state is not None else \
        state_before(s, game, turn)
    players = [p.name for p in players_of(s, game)]
    book = accepted_sets(s, game, turn, phase=row.name)
    orders = orders_for_turn(s, ruleset, game, turn, book, players, with_gm=row.position == 0)
    # A copy: the ruleset may change what it is given, and this dict is the stored state of the phase before.
    result = ruleset.resolve_phase(json.loads(json.dumps(state)), turn, row.name, orders, random.Random(row.seed))
    must = row.must_send if row.must_send is not None else players
    missing = [p for p in must if p not in book]
    return result, missing, len(missing) / len(must) if must else 0.0


def rerun_phases(s: Session, app: App, game: Game, turn: Turn, ruleset: Ruleset, mail: bool) -> TurnOutcome:
    """Recompute every phase of a processed turn from the snapshot before it, each with its recorded seed and
    its order sets as they stand; a phase whose state comes out different is stored anew (and, with `mail`,
    its corrected results mailed). The turn is "same" when every phase's state is."""
    rows = [r for r in rows_of(s, game.id, turn.number) if r.status == "done"]
    following = s.scalar(select(Turn).where(Turn.game_id == game.id, Turn.number == turn.number + 1))
    # The deadline each phase's printouts named: the next phase's, and after the last, the next turn's.
    deadlines = [r.deadline for r in rows[1:]] + [following.deadline if following is not None else None]
    tz = game_timezone(app.config, game.name)
    changed = False
    mailed = Correction() if mail else None
    for row, next_deadline in zip(rows, deadlines, strict=True):
        result, _missing, _share = resolve_row(s, ruleset, game, turn.number, rows, row)
        if row.state == json.loads(json.dumps(result.state)):
            continue
        changed = True
        row.state = result.state
        if mailed is not None:
            mailed.add(row.name, queue_corrected_mail(s, app, game, turn.number, result,
                                                      game.finished and row is rows[-1],
                                                      format_deadline(next_deadline, tz), phase=row.name))
    after = s.scalar(select(Snapshot).where(Snapshot.game_id == game.id, Snapshot.turn == turn.number + 1))
    if after is not None and rows and after.state != rows[-1].state:
        after.state = rows[-1].state
        changed = True
    return TurnOutcome(game.name, turn.number, "changed" if changed else "same", mailed=mailed)
