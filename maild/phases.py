"""Turns of several phases: which phase is open, when it closes, what it takes and who must send.

A ruleset declares its phases (`Ruleset.phases`); a game that declares one runs as it always did, and none of
this applies. For the others each phase of a turn is a `TurnPhase` row, opened in order (the first one with the
turn, the next when the one before is resolved), and the `Turn` row's deadline is that of its open phase, so
the daemon's wake-ups, `due_turns` and the JSON export see the phase's deadline without knowing of phases.
docs/phases.md tells the GM and the ruleset author how it reads.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.config import GameConfig, PhaseSchedule
from maild.deadlines import format_deadline, phase_deadline
from maild.errors import ConfigError
from maild.models import Game, OrderSetRow, Player, Turn, TurnPhase
from maild.ruleset import ONE_PHASE, Diagnostic, LatePolicy, Order, ParsedOrders, Phase, Ruleset
from maild.walltime import elapsed

# How long an extra phase (a vote) stays open when neither the config nor the ruleset says.
DEFAULT_EXTRA_DURATION = timedelta(days=1)


def is_phased(ruleset: Ruleset) -> bool:
    """Whether the ruleset declares phases of its own (one named otherwise, or with kinds, counts too); a
    ruleset that keeps the default runs its turns as one step, untouched by this module."""
    return ruleset.phases() != (Phase(ONE_PHASE),)


def regular_phases(ruleset: Ruleset) -> list[Phase]:
    """The phases every turn goes through, in order."""
    return [p for p in ruleset.phases() if not p.extra]


def declared(ruleset: Ruleset, name: str) -> Phase:
    phase = next((p for p in ruleset.phases() if p.name == name), None)
    if phase is None:
        raise ValueError(f"ruleset {ruleset.name} declares no phase {name!r}")
    return phase


def phase_seed(game_seed: int, turn: int, phase: str) -> int:
    """The RNG seed of a phase: fixed by the game's seed, the turn and the phase, so a re-run draws the same."""
    digest = hashlib.sha256(f"{game_seed}:{turn}:{phase}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # fits a signed 64-bit column


def check_schedule(gcfg: GameConfig, ruleset: Ruleset, where: str = "config") -> None:
    """Refuse a schedule that does not fit the ruleset's phases (checked when the game starts, because the
    config file alone does not know them)."""
    schedule = gcfg.schedule
    if schedule is None:
        return
    ctx = f"{where}: games {gcfg.name!r}: schedule"
    regular = [p.name for p in regular_phases(ruleset)]
    extra = [p.name for p in ruleset.phases() if p.extra]
    if not is_phased(ruleset):
        if schedule.phases:
            raise ConfigError(f"{ctx}.phases: ruleset {ruleset.name} has one deadline a turn: give 'at' or "
                              "'cron' instead")
        return
    if not schedule.phases:
        if len(regular) > 1:
            raise ConfigError(f"{ctx}: ruleset {ruleset.name} has a deadline per phase: give "
                              f"[games.schedule.phases.<name>] for each of {', '.join(regular)}")
        return  # one phase a turn (and extra phases opened by it): 'at' or 'cron' is that phase's
    known = ", ".join(regular) + (f"; extra: {', '.join(extra)}" if extra else "")
    for p in schedule.phases:
        if p.name not in regular and p.name not in extra:
            raise ConfigError(f"{ctx}.phases.{p.name}: ruleset {ruleset.name} has no phase {p.name!r} "
                              f"(its phases: {known})")
        if p.name in extra and p.duration is None:
            raise ConfigError(f"{ctx}.phases.{p.name}: an extra phase opens during a turn: give its "
                              "'duration', not 'at' or 'cron'")
    written = [p.name for p in schedule.phases if p.name in regular]
    if written != regular:
        missing = [n for n in regular if n not in written]
        why = f"missing {', '.join(missing)}" if missing else f"written as {', '.join(written)}"
        raise ConfigError(f"{ctx}.phases: give the phases of ruleset {ruleset.name} in their order "
                          f"{', '.join(regular)} ({why})")
    first = schedule.phases[[p.name for p in schedule.phases].index(regular[0])]
    if first.duration is not None:
        raise ConfigError(f"{ctx}.phases.{first.name}: the first phase of a turn needs 'at' or 'cron'")


def phase_schedule(gcfg: GameConfig | None, name: str) -> PhaseSchedule | None:
    if gcfg is None or gcfg.schedule is None:
        return None
    return next((p for p in gcfg.schedule.phases if p.name == name), None)


def deadline_of(gcfg: GameConfig | None, phase: Phase, turn: int, after: datetime, opened: datetime
                ) -> datetime | None:
    """When a phase opened at `opened` closes: from its config; an extra phase, else after the ruleset's
    duration or DEFAULT_EXTRA_DURATION; a regular phase the config does not time has none (the GM runs it)."""
    ps = phase_schedule(gcfg, phase.name)
    if ps is not None and gcfg is not None and gcfg.schedule is not None:
        return phase_deadline(gcfg.schedule, ps, turn, after, opened)
    if phase.extra:
        return elapsed(opened, phase.duration or DEFAULT_EXTRA_DURATION)
    return None


def rows_of(s: Session, game_id: int, turn: int) -> list[TurnPhase]:
    return list(s.scalars(select(TurnPhase).where(TurnPhase.game_id == game_id, TurnPhase.turn == turn)
                          .order_by(TurnPhase.position)))


def open_row(s: Session, game_id: int, turn: int) -> TurnPhase | None:
    return s.scalar(select(TurnPhase).where(TurnPhase.game_id == game_id, TurnPhase.turn == turn,
                                            TurnPhase.status == "open").order_by(TurnPhase.position).limit(1))


def state_after_phases(s: Session, game_id: int, turn: int) -> dict[str, Any] | None:
    """The state after the last resolved phase of a turn, None before its first: what intake checks orders
    against while the turn is under way."""
    return s.scalar(select(TurnPhase.state).where(TurnPhase.game_id == game_id, TurnPhase.turn == turn,
                                                  TurnPhase.status == "done")
                    .order_by(TurnPhase.position.desc()).limit(1))


def open_phase(s: Session, game: Game, turn: Turn, phase: Phase, position: int, must_send: list[str] | None,
               deadline: datetime | None, now: datetime) -> TurnPhase:
    """Open `phase` as the turn's next; the turn's deadline becomes the phase's."""
    row = TurnPhase(game_id=game.id, turn=turn.number, position=position, name=phase.name, extra=phase.extra,
                    closes_early=phase.closes_early or phase.extra, must_send=must_send, deadline=deadline,
                    seed=phase_seed(game.seed, turn.number, phase.name), status="open", opened_at=now)
    s.add(row)
    turn.deadline = deadline
    return row


def open_first_phase(s: Session, ruleset: Ruleset, game: Game, turn: Turn, state: dict[str, Any],
                     now: datetime, gcfg: GameConfig | None = None, after: datetime | None = None) -> None:
    """With a new turn of a game of phases, its first phase that the ruleset does not pass over (`skips_phase`)
    on `state`, the state the turn starts from; nothing for a one-phase game. The turn's deadline, from the
    config, is its first declared phase's: when that one is passed over, the phase opened is timed by its own
    rule (`gcfg`), a cron rule counting from `after` (the turn before's last deadline; default `now`)."""
    if not is_phased(ruleset):
        return
    first = first_regular(ruleset, state, turn.number)
    if first is None:
        raise ValueError(f"ruleset {ruleset.name} passes over every phase of turn {turn.number}")
    deadline = turn.deadline
    if first != regular_phases(ruleset)[0]:
        deadline = deadline_of(gcfg, first, turn.number, after or now, now)
    s.flush()  # the game's id
    open_phase(s, game, turn, first, 0, ruleset.must_send(state, turn.number, first.name), deadline, now)


def passed_over(ruleset: Ruleset, state: dict[str, Any], turn: int, phase: Phase) -> bool:
    """Whether turn `turn` passes over `phase` when it would open on `state` (`Ruleset.skips_phase`); a
    ruleset that keeps the default is not asked."""
    return type(ruleset).skips_phase is not Ruleset.skips_phase and ruleset.skips_phase(state, turn, phase.name)


def first_regular(ruleset: Ruleset, state: dict[str, Any], turn: int) -> Phase | None:
    """The first regular phase turn `turn` opens, starting from `state`; None if it passes over them all."""
    return next((p for p in regular_phases(ruleset) if not passed_over(ruleset, state, turn, p)), None)


def next_regular(ruleset: Ruleset, rows: list[TurnPhase], state: dict[str, Any], turn: int) -> Phase | None:
    """The regular phase after the last regular one of `rows` (an extra phase resumes into it) that turn `turn`
    does not pass over when it would open on `state`, the state after the last of `rows`; None after the last."""
    regular = regular_phases(ruleset)
    names = [p.name for p in regular]
    done = [names.index(r.name) for r in rows if not r.extra and r.name in names]
    after = max(done) + 1 if done else 0
    return next((p for p in regular[after:] if not passed_over(ruleset, state, turn, p)), None)


def refresh_phase_deadline(s: Session, gcfg: GameConfig, ruleset: Ruleset, game: Game, turn: Turn) -> None:
    """The open phase's deadline taken again from the config, which the GM may have changed."""
    rows = rows_of(s, game.id, turn.number)
    row = next((r for r in rows if r.status == "open"), None)
    if row is None or row.extra:  # an extra phase's deadline was fixed when it opened
        return
    before = [r for r in rows if r.position < row.position]
    previous = s.scalar(select(Turn).where(Turn.game_id == game.id, Turn.number == turn.number - 1))
    after = max((r.deadline for r in before if r.deadline is not None),
                default=previous.deadline if previous is not None and previous.deadline else game.created_at)
    deadline = deadline_of(gcfg, declared(ruleset, row.name), turn.number, after, row.opened_at)
    seconds = turn.extended_seconds or 0  # a handover to a substitute moved it on (maild/substitutes.py)
    row.deadline = turn.deadline = deadline + timedelta(seconds=seconds) if deadline and seconds else deadline


def closed_early(s: Session) -> list[tuple[str, int]]:
    """(game, turn) of open phases that close early and whose every player who must send has an accepted
    order set on file for them."""
    due = []
    rows = s.execute(select(TurnPhase, Game.name).join(Game, Game.id == TurnPhase.game_id)
                     .where(TurnPhase.status == "open", TurnPhase.closes_early.is_(True),
                            Game.finished.is_(False), Game.turn == TurnPhase.turn)).all()
    for row, name in rows:
        sent = set(s.scalars(select(Player.name).join(OrderSetRow, OrderSetRow.player_id == Player.id)
                             .where(OrderSetRow.game_id == row.game_id, OrderSetRow.turn == row.turn,
                                    OrderSetRow.phase == row.name, OrderSetRow.status == "accepted")))
        must = row.must_send
        if must is None:
            must = list(s.scalars(select(Player.name).where(Player.game_id == row.game_id)))
        if must and set(must) <= sent and not still_owed(s, row):
            due.append((name, row.turn))
    return due


def still_owed(s: Session, row: TurnPhase) -> list[str]:
    """Who has sent for the open phase `row` but still owes orders in it (`Ruleset.still_owed`)."""
    from maild.games import players_of, ruleset_named, state_before
    from maild.orderbook import accepted_sets, orders_in_force

    game = s.get(Game, row.game_id)
    assert game is not None
    ruleset = ruleset_named(game.ruleset)
    if type(ruleset).still_owed is Ruleset.still_owed:  # the default owes nothing: no state to read
        return []
    state = state_after_phases(s, game.id, row.turn) or state_before(s, game, row.turn)
    players = [p.name for p in players_of(s, game)]
    orders = orders_in_force(ruleset, accepted_sets(s, game, row.turn, phase=row.name), players)
    return ruleset.still_owed(state, row.turn, row.name, orders)


@dataclass(frozen=True)
class PhaseTarget:
    """The phase a mail's orders count for (see `target_phase`)."""

    turn: int
    phase: str
    current: str  # the phase open when the mail came
    deadline: datetime | None  # of `phase`; None if it is not open yet or untimed
    late: str | None = None  # why the mail counts for a later phase than the one open
    refused: str | None = None  # why its orders count for no phase


def came_before_results(turn: Turn | TurnPhase | None, received: datetime) -> bool:
    """Whether a mail received at `received` came after the deadline of `turn` (a turn, or a phase of one) but
    before it ran."""
    return turn is not None and turn.deadline is not None and turn.processed_at is not None \
        and turn.deadline < received <= turn.processed_at


def target_phase(s: Session, ruleset: Ruleset, game: Game, turn: Turn, player: str, received: datetime,
                 late_policy: LatePolicy) -> PhaseTarget:
    """A mail received at `received` counts for the phase open then; one that came after that phase's
    deadline (the phase not yet resolved) for the next phase of the turn, or, after the last, for the next
    turn's first as the late policy says. An extra phase takes orders only from who must answer in it.

    A pass reads what came by a deadline, resolves that phase, and only then what came after: a mail late for
    the phase resolved last is read while a later one is open, and goes where it would have gone if read
    before."""
    rows = rows_of(s, game.id, turn.number)
    row = next((r for r in rows if r.status == "open"), None)
    if row is None:  # a turn opened before its phases were recorded: its first phase, timed as the turn
        first = regular_phases(ruleset)[0].name
        return PhaseTarget(turn.number, first, first, turn.deadline)
    done = [r for r in rows if r.status == "done"]
    before = done[-1] if done else s.scalar(
        select(TurnPhase).where(TurnPhase.game_id == game.id, TurnPhase.turn == turn.number - 1,
                                TurnPhase.status == "done").order_by(TurnPhase.position.desc()).limit(1))
    if came_before_results(before, received):
        assert before is not None
        return _late(ruleset, turn.number, rows, row, before, late_policy, before.state or {})
    if row.deadline is None or received <= row.deadline:
        if row.extra and row.must_send is not None and player not in row.must_send:
            return PhaseTarget(turn.number, row.name, row.name, row.deadline,
                               refused=f"only {', '.join(row.must_send)} answer in the {row.name} now open")
        return PhaseTarget(turn.number, row.name, row.name, row.deadline)
    # Late for the open phase, not yet resolved: which phases come after it is asked with the state it opened on.
    from maild.games import state_before

    opened_on = state_after_phases(s, game.id, turn.number) or state_before(s, game, turn.number)
    return _late(ruleset, turn.number, rows, row, row, late_policy, opened_on)


def _late(ruleset: Ruleset, turn: int, rows: list[TurnPhase], open_row: TurnPhase, missed: TurnPhase,
          late_policy: LatePolicy, state: dict[str, Any]) -> PhaseTarget:
    """A mail that came after the deadline of the phase `missed` (the open one, or the one resolved before it)
    counts for the regular phase after that one, or, after the last of a turn, as the late policy says: for
    the first phase the next turn opens. `state`: the state after `missed`, or, when it has not run, the state
    it opened on, which tells the phases the turn passes over (`Ruleset.skips_phase`)."""
    came = f"it came after the deadline of the {missed.name} of turn {missed.turn}"
    following = next_regular(ruleset, [r for r in rows if r.position <= missed.position], state, turn) \
        if missed.turn == turn else None

    def target(number: int, phase: str, late: str) -> PhaseTarget:
        opened = number == turn and phase == open_row.name
        return PhaseTarget(number, phase, open_row.name, open_row.deadline if opened else None, late=late)

    if following is not None:
        return target(turn, following.name, f"{came}, so it counts for the {following.name}")
    if late_policy == "refuse":
        return PhaseTarget(turn, open_row.name, open_row.name, None, refused=f"{came}, the last phase of the turn")
    number = missed.turn + 1
    if number == turn and rows:  # the next turn is open: the phase it opened with
        first = rows[0].name
    else:
        opens = first_regular(ruleset, state, number)
        first = (opens or regular_phases(ruleset)[0]).name
    return target(number, first, f"{came}, so it counts for the {first} of turn {number}")


def phase_of_kind(ruleset: Ruleset, kind: str) -> str | None:
    """The first phase that takes orders of `kind`."""
    return next((p.name for p in ruleset.phases() if p.kinds is None or kind in p.kinds), None)


def keep_phase_orders(ruleset: Ruleset, target: PhaseTarget, parsed: ParsedOrders) -> ParsedOrders:
    """Orders of a kind the target phase does not take are not booked: each gets a diagnostic naming the
    phase that takes it (a player sends it again then: one mail is one order set of one phase)."""
    kinds = declared(ruleset, target.phase).kinds
    if kinds is None:
        return parsed
    kept: list[Order] = []
    wrong: list[Diagnostic] = []
    now = f"it is now the {target.phase}" if target.phase == target.current else \
        f"this mail counts for the {target.phase}"
    for order in parsed.orders:
        if order.kind in kinds:
            kept.append(order)
            continue
        owner = phase_of_kind(ruleset, order.kind)
        message = (f"{order.kind} is an order of the {owner}; {now}: send it during the {owner}"
                   if owner is not None else f"{order.kind} is not an order of the {target.phase}")
        wrong.append(Diagnostic(order.line, order.text, message))
    return ParsedOrders(kept, sorted([*parsed.diagnostics, *wrong], key=lambda d: d.line))


def open_phase_note(s: Session, ruleset: Ruleset, game: Game, tz: ZoneInfo) -> str | None:
    """For HELP: the phase now taking orders and its deadline; None in a one-phase game."""
    if game.finished or not is_phased(ruleset):
        return None
    row = open_row(s, game.id, game.turn)
    if row is None:
        return None
    return f"Now open: the {row.name} of turn {game.turn}, until {format_deadline(row.deadline, tz)}."
