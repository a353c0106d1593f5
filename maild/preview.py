"""`maild turn preview GAME`: what the open turn's deadline would bring, before it comes. Nothing is stored,
nothing is sent.

It says who has orders on file and who has nothing; what the deadline would do (the grace, or a deadline
moved for an absent player: maild/grace.py, maild/absences.py); which silent positions would play on default
orders (the missed-orders ladder's steps, or an absence under the "defaults" rule: maild/ladder.py) and who
would climb the ladder; what the safety gate would do ([games.safety], maild/turn.py); and, as a dry run, the
turn's result (in a game of phases, the open phase's): the ruleset resolves the turn as the run would, with
the orders on file now, in a transaction that is rolled back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.absences import excused, moved_deadline
from maild.app import App
from maild.config import Safety
from maild.deadlines import format_deadline, game_timezone
from maild.games import get_game, get_turn, players_of, ruleset_named, state_before
from maild.grace import awaited
from maild.ladder import ladder_lines, place_defaults
from maild.models import Game, Grace, Turn
from maild.orderbook import accepted_sets, orders_for_turn, players_without_orders
from maild.phases import is_phased, open_row, rows_of
from maild.ruleset import Ruleset, TurnResult

# What the dry run's next deadline reads in the printouts: the run sets it.
NEXT_DEADLINE = "set when the turn runs"


@dataclass
class DryRun:
    """The turn's result as the run would give it now: the newsletter and each player's printout; or why the
    ruleset could not compute it."""

    newsletter: str = ""
    printouts: dict[str, str] = field(default_factory=dict)
    finished: bool = False
    error: str | None = None


@dataclass
class Preview:
    game: str
    turn: int
    finished: bool
    phase: str | None = None
    deadline: str | None = None  # as the game's zone shows it
    with_orders: list[str] = field(default_factory=list)
    without_orders: list[str] = field(default_factory=list)
    at_deadline: str = ""  # what the deadline does: the turn runs, waits in a grace, or moves for an absence
    defaults: list[str] = field(default_factory=list)  # silent positions that would play on default orders
    ladder: list[str] = field(default_factory=list)  # `game show`'s ladder lines: who is where, who climbs next
    gate: str = ""  # what the safety gate would do
    dry_run: DryRun | None = None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


class _RolledBack(Exception):
    def __init__(self, preview: Preview) -> None:
        self.preview = preview


def preview(app: App, name: str, dry_run: bool = True) -> Preview:
    """The preview of game `name`'s open turn (with the dry run unless `dry_run` is False). Its transaction is
    always rolled back: whatever the ruleset's resolve or the rendering might write is never kept."""
    try:
        with app.db.session() as s:
            raise _RolledBack(_preview(s, app, name, dry_run))
    except _RolledBack as done:
        return done.preview


def _preview(s: Session, app: App, name: str, dry_run: bool) -> Preview:
    game = get_game(s, name)
    if game.finished:
        return Preview(game.name, game.turn - 1, finished=True)
    turn = get_turn(s, game, game.turn)
    assert turn is not None
    ruleset = ruleset_named(game.ruleset)
    row = open_row(s, game.id, turn.number) if is_phased(ruleset) else None
    everyone = [p.name for p in players_of(s, game)]
    missing = {p.name for p in players_without_orders(s, game, turn.number)}
    silent = [p for p in everyone if p in missing]
    tz = game_timezone(app.config, game.name)
    p = Preview(game.name, turn.number, False, phase=row.name if row is not None else None,
                deadline=format_deadline(turn.deadline, tz) if turn.deadline is not None else None,
                with_orders=[n for n in everyone if n not in missing], without_orders=silent)
    p.at_deadline = _at_deadline(s, app, game, turn, row.name if row is not None else "")
    when = turn.deadline or app.now()
    from maild.turn import silent_on_defaults

    p.defaults = sorted(silent_on_defaults(s, app, game, turn, silent)) if row is None else []
    # The ladder counts a turn's silence when the turn ends; an absence under the "defaults" rule does not count.
    p.ladder = ladder_lines(s, app, game, [n for n in silent if n not in excused(s, app, game, when)], ruleset)
    p.gate = _gate(s, app, game, turn, len(silent), len(everyone), phased=row is not None)
    if dry_run:
        p.dry_run = _dry_run(s, app, game, turn, ruleset, everyone, p.defaults)
    return p


def _at_deadline(s: Session, app: App, game: Game, turn: Turn, phase: str) -> str:
    """What the passing deadline would do (maild.grace.wait_at_deadline, asked without writing)."""
    late = [pl.name for pl in awaited(s, app, game, turn)]
    if turn.status == "held":
        return "the turn is held by the safety gate: `maild turn release` runs it"
    if turn.deadline is None:
        return "no deadline: the GM runs the turn (`maild turn run`)"
    if not late:
        return "the turn runs (nobody it would wait for is missing)"
    if (found := moved_deadline(s, app, game, turn.deadline, late)) is not None and found[0] > turn.deadline:
        return (f"the deadline moves to {format_deadline(found[0], game_timezone(app.config, game.name))}: "
                f"{', '.join(found[1])} away")
    gcfg = app.config.game(game.name)
    if gcfg is None or gcfg.grace is None:
        return f"the turn runs without {', '.join(late)}"
    given = s.scalar(select(Grace).where(Grace.game_id == game.id, Grace.turn == turn.number, Grace.phase == phase,
                                         Grace.kind == "grace"))
    if given is not None:
        return f"the grace is running (late: {', '.join(given.late)}): the turn runs at this deadline"
    until = format_deadline(turn.deadline + gcfg.grace, game_timezone(app.config, game.name))
    return f"a grace until {until} for {', '.join(late)} (they get a reminder, the others are told who is late)"


def _gate(s: Session, app: App, game: Game, turn: Turn, silent: int, players: int, phased: bool) -> str:
    from maild.turn import should_hold, usual_missing

    if phased:
        return "not asked: a phase runs without the gate"
    if turn.status == "released":
        return "released by the GM: the turn runs whatever the gate says"
    gcfg = app.config.game(game.name)
    safety = gcfg.safety if gcfg else Safety()
    share = silent / players if players else 0.0
    usual = usual_missing(s, game, turn.number)
    what = (f"{silent} of {players} players ({share:.0%}) have nothing on file, usually {usual:.0%}; it holds at "
            f"{safety.missing_fraction:.0%} and {safety.over_usual:.0%} above the usual")
    return ("would HOLD the turn: " if should_hold(share, usual, safety) else "would let the turn run: ") + what


def _dry_run(s: Session, app: App, game: Game, turn: Turn, ruleset: Ruleset, players: list[str],
             defaults: list[str]) -> DryRun:
    """The result as the run would compute it now (the caller's transaction is rolled back)."""
    from maild.turn import resolve, turn_texts

    try:
        phase = None
        if is_phased(ruleset):
            from maild.phased_turn import resolve_row

            row = open_row(s, game.id, turn.number)
            if row is None:
                return DryRun(error="the turn's first phase is not open yet: it opens when the turn runs")
            result: TurnResult = resolve_row(s, ruleset, game, turn.number, rows_of(s, game.id, turn.number), row)[0]
            phase = row.name
        else:
            state = state_before(s, game, turn.number)
            orders = orders_for_turn(s, ruleset, game, turn.number, accepted_sets(s, game, turn.number), players)
            place_defaults(s, ruleset, game, turn.number, state, orders, defaults)
            result = resolve(ruleset, state, turn, orders)
        total = ruleset.total_turns(result.state)
        finished = result.finished or (phase is None and total is not None and turn.number >= total)
        texts = turn_texts(s, app, game, turn.number, result, finished, NEXT_DEADLINE, phase)
        return DryRun(texts.newsletter, texts.printouts, finished)
    except Exception as exc:  # the ruleset cannot compute it now: the preview says why, the rest stands
        return DryRun(error=f"{type(exc).__name__}: {exc}")


def report(p: Preview, printout: str | None = None) -> str:
    """The preview for the GM to read; with `printout`, that player's printout of the dry run in full."""
    if p.finished:
        return f"{p.game}: the game is over (finished after turn {p.turn}); nothing to preview\n"
    phase = f", the {p.phase}" if p.phase else ""
    lines = [f"{p.game}: turn {p.turn}{phase}, deadline {p.deadline or 'none (the GM runs it)'}",
             f"  orders on file from: {', '.join(p.with_orders) or 'nobody'}",
             f"  nothing on file from: {', '.join(p.without_orders) or 'nobody'}",
             f"  at the deadline: {p.at_deadline}",
             f"  on default orders if still silent: {', '.join(p.defaults) or 'nobody'}",
             *(f"  {line}" for line in p.ladder),
             f"  safety gate: {p.gate}"]
    dry = p.dry_run
    if dry is not None:
        held = " (if it ran: the gate would hold it)" if p.gate.startswith("would HOLD") else ""
        lines += ["", f"dry run with the orders on file now{held} (nothing stored, nothing sent):"]
        if dry.error:
            lines.append(f"  the ruleset could not compute it: {dry.error}")
        else:
            if dry.finished:
                lines.append("  the game would end with this turn")
            lines += [f"  printouts: {', '.join(dry.printouts) or 'none'}", "", "newsletter:",
                      *(f"  {line}" for line in dry.newsletter.rstrip("\n").split("\n"))]
            if printout is not None:
                text = dry.printouts.get(printout)
                lines += ["", f"printout for {printout}:" if text is not None else f"no printout for {printout} "
                          f"(printouts: {', '.join(dry.printouts)})"]
                lines += [f"  {line}" for line in (text or "").rstrip("\n").split("\n")] if text else []
    return "\n".join(lines) + "\n"
