"""Running a turn: exactly once per (game, turn), in one transaction, with a seeded and recorded RNG."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from maild import inforce
from maild.absences import excused
from maild.app import App
from maild.config import Safety
from maild.corrections import Correction, queue_corrected_mail
from maild.crashpoints import crashpoint
from maild.db import is_transient, retry_transient
from maild.deadlines import deadline_for, format_deadline, game_timezone
from maild.games import get_game, get_turn, new_player, players_of, ruleset_named, state_before, turn_seed
from maild.grace import complete_in_grace, wait_at_deadline
from maild.intake.pipeline import new_mail, process_new
from maild.ladder import climb, on_defaults, place_defaults
from maild.models import Game, InboundMail, Player, Snapshot, Turn
from maild.notcarried import not_carried_out
from maild.orderbook import accepted_sets, gm_orders, orders_for_turn, orders_in_force
from maild.outbox import insert_rows, notify_gm, outbound_row
from maild.phases import closed_early, is_phased, open_first_phase
from maild.receipts import RESULT_KEY, turn_hashes
from maild.render import render
from maild.ruleset import GM_ORDERS, Attachment, PlacedOrder, Ruleset, TurnResult
from maild.substitutes import newsletter_lines
from maild.turnplan import not_open
from maild.welcome import queue_welcomes, signed_up_unwelcomed

log = logging.getLogger("maild.turn")


@dataclass
class TurnOutcome:
    game: str
    turn: int
    # done / phase_done / held / finished / failed / not_held (`release_turn`) / not_open (the turn or phase
    # the caller named is not the open one: nothing ran)
    status: str
    message: str = ""
    mailed: Correction | None = None  # a rerun with mail: whom the corrected results went to, and why


class DueTurn(NamedTuple):
    game: str
    number: int
    deadline: datetime | None  # passed; None for a phase that closed early (everyone who must send has sent)


def due_turns(app: App) -> list[DueTurn]:
    """Open (or released) turns whose deadline has passed, or whose open phase closed early (everyone who must
    send has sent), oldest deadline first (a phase closed early is due now)."""
    now = app.now()
    with app.db.session() as s:
        rows = s.execute(select(Game.name, Turn.number, Turn.deadline).join(Turn, Turn.game_id == Game.id)
                         .where(Game.finished.is_(False), Turn.number == Game.turn, Game.paused_at.is_(None),
                                Turn.status.in_(("open", "released")), Turn.deadline.is_not(None))).all()
        due = [DueTurn(name, n, deadline) for name, n, deadline in rows if deadline <= now]
        passed = {(t.game, t.number) for t in due}
        paused = set(s.scalars(select(Game.name).where(Game.paused_at.is_not(None))))  # no turn runs (GM's pause)
        due += [DueTurn(name, n, None) for name, n in closed_early(s) if (name, n) not in passed and name not in paused]
        passed |= {(t.game, t.number) for t in due}
        # A turn in its grace runs as soon as every late player has sent (maild/grace.py).
        due += [DueTurn(name, n, None) for name, n in complete_in_grace(s, app)
                if (name, n) not in passed and name not in paused]
    return sorted(due, key=lambda t: (t.deadline or now, t.number))


def usual_missing(s: Session, game: Game, before: int, last: int = 3) -> float:
    rows = s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.number < before, Turn.status == "done")
                     .order_by(Turn.number.desc()).limit(last))
    shares = [r.result["missing_share"] for r in rows if r.result and "missing_share" in r.result]
    return sum(shares) / len(shares) if shares else 0.0


def should_hold(share: float, usual: float, safety: Safety) -> bool:
    """Far more players than usual with nothing on file most often means the intake broke, not the players."""
    return share > 0 and share >= safety.missing_fraction and share >= usual + safety.over_usual


# A turn first reads the mail stored before it; while another process still holds some of that mail it looks
# again, after a pause, as long as that process gets on with it, and this many times more once it does not,
# before it runs without the mail that could not be read (a warning says so). Intake claims a sender's mail for
# one transaction: another daemon reading a backlog holds its senders in turn, not for long.
CATCH_UP_ROUNDS = 5
CATCH_UP_PAUSE_S = 0.2


def run_turn(app: App, name: str, force: bool = False, number: int | None = None, phase: str | None = None
             ) -> TurnOutcome:
    """Run the game's open turn; a turn that fails for any reason is reported to the GM by mail, with the
    reason and the commands that fix it, and comes back as a "failed" outcome (the turn stays open). With
    `number` (and `phase`), only if that is the open turn (and phase): else nothing runs and the outcome is
    "not_open" (`maild.turnplan`)."""
    try:
        return _run_turn(app, name, force, number, phase)
    except Exception as exc:  # a ruleset's bug, a bad GM order: the GM must hear of it
        if is_transient(exc):  # the database's trouble, not the turn's: the caller tries again later
            raise
        log.exception("turn of %s failed", name)
        return turn_failed(app, name, exc)


def turn_failed(app: App, name: str, exc: Exception) -> TurnOutcome:
    """Mail the GM once per game, turn and reason; the turn row keeps the reason for `game list`."""
    reason = f"{type(exc).__name__}: {exc}"
    number = 0
    try:
        with app.db.session() as s:
            game = get_game(s, name)
            number = game.turn
            turn = get_turn(s, game, game.turn)
            pending = len(gm_orders(s, game, game.turn))  # withdrawn ones never reach the turn
            if turn is not None:
                turn.note = f"failed: {reason}"[:2000]
            digest = hashlib.sha256(reason.encode()).hexdigest()[:16]
            notify_gm(s, app, f"turn-failed:{name}:{number}:{digest}", f"{name}: turn {number} failed",
                      render(None, "gm_turn_failed.txt.j2", game=name, turn=number, reason=reason,
                             where=_where(exc), pending=pending), game.id)
    except Exception:
        log.exception("cannot record the failure of %s's turn for the GM", name)
    return TurnOutcome(name, number, "failed", reason)


def _where(exc: BaseException) -> str:
    """The innermost frame the error came from (folder/file:line in function), for the GM's mail."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "unknown"
    frame = frames[-1]
    return f"{'/'.join(Path(frame.filename).parts[-2:])}:{frame.lineno} in {frame.name}"


def _run_turn(app: App, name: str, force: bool, number: int | None, phase: str | None) -> TurnOutcome:
    """Run the game's open turn. `force` (the GM's `turn run`) skips the deadline check and the safety gate.

    Every mail that came by the deadline counts: intake reads the mail stored before the turn starts (once the
    deadline has passed, only what was received by it: what came later counts for the next turn, and is read
    after this one ran; before the deadline, a GM's `turn run` or a phase closed early, all of it), then the
    turn's transaction locks the game and checks that no such mail is still unread (another process's intake
    may have held it), else reads again."""
    if number is not None or phase is not None:  # refused before intake reads anything for it
        refused = app.db.transaction(lambda s: _not_open(s, name, number, phase), "checking the open turn")
        if refused is not None:
            return refused
    cutoff, by = app.db.transaction(partial(_cutoff, app, name), "reading the inbox")
    stalled, before = 0, None
    while True:
        process_new(app, up_to=cutoff, received_by=by)
        last = stalled + 1 >= CATCH_UP_ROUNDS
        outcome = retry_transient(partial(_run_turn_once, app, name, force, cutoff, by, last, number, phase),
                                  f"turn of {name}")
        if outcome is not None:
            return outcome
        unread = app.db.transaction(lambda s: unread_before(s, cutoff, by), "counting unread mail")
        stalled = 0 if before is None or unread < before else stalled + 1
        before = unread
        time.sleep(CATCH_UP_PAUSE_S)


def _cutoff(app: App, name: str, s: Session) -> tuple[int, datetime | None]:
    """The newest mail stored, and the open turn's deadline if it has passed."""
    game = get_game(s, name)
    turn = get_turn(s, game, game.turn)
    deadline = turn.deadline if turn is not None else None
    return s.scalar(select(func.max(InboundMail.id))) or 0, \
        deadline if deadline is not None and deadline <= app.now() else None


def _not_open(s: Session, name: str, number: int | None, phase: str | None, lock: bool = False
              ) -> TurnOutcome | None:
    """The outcome of a run that names a turn (or phase) that is not the open one; None if it is."""
    game = get_game(s, name, lock=lock)
    if game.finished:
        return None  # the run says the game is over
    why = not_open(s, game, number, phase)
    return TurnOutcome(name, number if number is not None else game.turn, "not_open", why) if why else None


def unread_before(s: Session, cutoff: int, received_by: datetime | None = None) -> int:
    return s.scalar(select(func.count()).where(new_mail(cutoff, received_by))) or 0


def _run_turn_once(app: App, name: str, force: bool, cutoff: int, by: datetime | None, last: bool,
                   number: int | None = None, phase: str | None = None) -> TurnOutcome | None:
    """One transaction; None (nothing written) if mail stored before the turn (and received `by` its deadline,
    when that has passed) is still unread and this is not the `last` round."""
    with app.db.session() as s:
        game = get_game(s, name, lock=True)
        if game.finished:
            return TurnOutcome(name, game.turn - 1, "finished", f"the game is over (finished after turn "
                                                                f"{game.turn - 1})")
        # Asked again with the game locked: a turn run meanwhile (the daemon, a second command) is not run twice.
        refused = _not_open(s, name, number, phase)
        if refused is not None:
            return refused
        turn = get_turn(s, game, game.turn)
        assert turn is not None
        if turn.status == "done":  # another run got here first
            return TurnOutcome(name, turn.number, "done", "already processed")
        # With the game locked, intake elsewhere waits for this transaction: mail still new now is read after
        # the turn, so it would count for the next one.
        unread = unread_before(s, cutoff, by)
        if unread and not last:
            return None
        if unread:
            log.warning("%s turn %d runs without %d mails stored before it that could not be read yet",
                        name, turn.number, unread)
        if not force and by is not None and turn.status == "open":  # at its passed deadline, not the GM's run
            waits = wait_at_deadline(s, app, game, turn)
            if waits is not None:
                log.info("%s turn %d waits: %s", name, turn.number, waits)
                return TurnOutcome(name, turn.number, "waiting", waits)
        ruleset = ruleset_named(game.ruleset)
        if is_phased(ruleset):
            from maild.phased_turn import run_phase  # it builds on this module's turn ending

            return run_phase(s, app, game, turn, ruleset)
        players = [p.name for p in players_of(s, game)]
        book = accepted_sets(s, game, turn.number)
        missing = [p for p in players if p not in book]
        share = len(missing) / len(players) if players else 0.0
        gcfg = app.config.game(name)
        safety = gcfg.safety if gcfg else Safety()
        if not force and turn.status != "released":
            usual = usual_missing(s, game, turn.number)
            if should_hold(share, usual, safety):
                turn.status = "held"
                turn.note = (f"{len(missing)} of {len(players)} players have nothing on file "
                             f"({share:.0%}; usually {usual:.0%})")
                notify_gm(s, app, f"held-turn:{name}:{turn.number}", f"{name}: turn {turn.number} held",
                          render(None, "gm_turn_held.txt.j2", game=name, turn=turn.number, note=turn.note,
                                 missing=missing), game.id)
                log.warning("%s turn %d held: %s", name, turn.number, turn.note)
                return TurnOutcome(name, turn.number, "held", turn.note)
        state = state_before(s, game, turn.number)
        orders = orders_for_turn(s, ruleset, game, turn.number, book, players)
        defaulted = sorted(silent_on_defaults(s, app, game, turn, missing))
        place_defaults(s, ruleset, game, turn.number, state, orders, defaulted)
        result = resolve(ruleset, state, turn, orders)
        finish_turn(s, app, game, turn, result, missing, share, gm_orders=GM_ORDERS in orders)
        if defaulted:  # a rerun gives them the same
            turn.result = {**(turn.result or {}), "defaults": defaulted}
        number = turn.number
    crashpoint("turn.committed")
    note = f"{unread} mails stored before it could not be read yet" if unread else ""
    return TurnOutcome(name, number, "done", note)


def silent_on_defaults(s: Session, app: App, game: Game, turn: Turn, missing: list[str]) -> set[str]:
    """The silent players whose positions play on default orders this turn: on the ladder's steps that say so,
    or away under the "defaults" absence rule."""
    return set(missing) & (on_defaults(s, game) | excused(s, app, game, turn.deadline or app.now()))


def resolve(ruleset: Ruleset, state: dict[str, Any], turn: Turn, orders: dict[str, list[PlacedOrder]]
            ) -> TurnResult:
    # The only randomness a turn may use: seeded from the game and the turn, recorded on the turn row.
    return ruleset.resolve(state, turn.number, orders, random.Random(turn.seed))


def finish_turn(s: Session, app: App, game: Game, turn: Turn, result: TurnResult, missing: list[str],
                share: float, gm_orders: bool = False, phase: str | None = None, silent: list[str] | None = None
                ) -> None:
    """Store the turn's result and queue its mail. `gm_orders`: the GM gave orders this turn (an amendment
    may have brought a family to a player already in the game), so every player is offered a welcome.
    `phase`: in a game of several phases a turn, the turn's last phase, whose results these are. `silent`:
    who missed the turn, for the missed-orders ladder (by default `missing`)."""
    now = app.now()
    s.add(Snapshot(game_id=game.id, turn=turn.number + 1, state=result.state))
    turn.status = "done"
    turn.processed_at = now
    turn.result = {"events": result.events, "missing": missing, "missing_share": share}
    ruleset = ruleset_named(game.ruleset)
    total = ruleset.total_turns(result.state)
    finished = result.finished or (total is not None and turn.number >= total)
    game.turn = turn.number + 1
    next_deadline = None
    if finished:
        game.finished = True
    else:
        gcfg = app.config.game(game.name)
        if gcfg is not None and gcfg.schedule is not None:
            next_deadline = deadline_for(gcfg.schedule, turn.number + 1, turn.deadline or now)
        following = Turn(game_id=game.id, number=turn.number + 1, deadline=next_deadline,
                         seed=turn_seed(game.seed, turn.number + 1), status="open")
        s.add(following)
        open_first_phase(s, ruleset, game, following, result.state, now, gcfg, turn.deadline or now)
        next_deadline = following.deadline  # its first phase's, when the turn passes over the first declared
    climb(s, app, game, ruleset, turn.number, missing if silent is None else silent,
          excused(s, app, game, turn.deadline or now))
    joined = add_new_players(s, game, ruleset, result.state)
    s.flush()
    errors = [e for e in result.events if e.get("type") == "error"]
    if errors:  # a rule's own failure (a bug), contained by the ruleset: the GM must know, the players were told
        notify_gm(s, app, f"turn-errors:{game.name}:{turn.number}", f"{game.name}: errors in turn {turn.number}",
                  "Orders the game's program could not carry out (the players' printouts say so):\n\n"
                  + "\n".join(json.dumps(e, sort_keys=True, default=str) for e in errors) + "\n", game.id)
        log.error("%s turn %d: %d orders failed with an error", game.name, turn.number, len(errors))
    deadline_text = format_deadline(next_deadline, game_timezone(app.config, game.name))
    hashes = queue_turn_mail(s, app, game, turn.number, result, finished, deadline_text, phase=phase)
    turn.result = {**turn.result, RESULT_KEY: hashes}  # what STATUS shows the turn ran with
    if not finished:
        everyone = players_of(s, game)
        welcome = list(everyone) if gm_orders else [p for p in everyone if p.name in joined]
        welcome += signed_up_unwelcomed(s, game, [p for p in everyone if p not in welcome])
        if welcome:
            # A player who signed up by mail is in the state once the turn took his JOIN; not before.
            in_state = {spec.name for spec in ruleset.players(result.state)}
            queue_welcomes(s, app, game, ruleset, result.state, [p for p in welcome if p.name in in_state],
                           turn.number + 1, deadline_text)
    crashpoint("turn.before_commit")
    log.info("%s turn %d done", game.name, turn.number)


def add_new_players(s: Session, game: Game, ruleset: Ruleset, state: dict[str, Any]) -> list[str]:
    """Players the turn brought into the game (a GM's amendment adding a family) get their row, so their mail
    is recognised and this turn's printout reaches them. Returns their names."""
    known = {p.name for p in players_of(s, game)}
    joined = []
    for spec in ruleset.players(state):
        if spec.name not in known:
            s.add(new_player(game, spec))
            joined.append(spec.name)
            log.info("%s: new player %s <%s>", game.name, spec.name, spec.email)
    return joined


# One newsletter mail goes to at most this many players (undisclosed): mail servers limit the recipients of
# one message, and a 1000-player game's newsletter stored once per player would be 150 MB a turn.
NEWSLETTER_RECIPIENTS = 50


def render_turn(game: Game, number: int, result: TurnResult, finished: bool, next_deadline: str,
                players: list[Player], missed: dict[str, Any] | None = None, phase: str | None = None,
                hashes: dict[str, str] | None = None) -> tuple[dict[str, str], str]:
    """The texts of a turn's mail: each player's printout (by name; for those the result has one, with the
    orders of his that were not carried out, `missed`, and the hash of his orders the turn ran with, `hashes`:
    `maild.receipts`) and the newsletter. In a game of several phases a turn, each phase's results go out on
    their own (`phase` names it; templates get it, None otherwise)."""
    common = {"game": game.name, "turn": number, "finished": finished, "next_deadline": next_deadline,
              "phase": phase}
    missed = missed or {}
    hashes = hashes or {}
    printouts = {p.name: render(game.ruleset, "printout.txt.j2", **common, player=p.name,
                                not_carried_out=missed.get(p.name), orders_hash=hashes.get(p.name),
                                **result.printouts[p.name])
                 for p in players if p.name in result.printouts}
    return printouts, render(game.ruleset, "newsletter.txt.j2", **common, **result.newsletter)


def turn_attachments(ruleset: Ruleset, result: TurnResult, number: int, phase: str | None
                     ) -> Callable[[str | None], list[Attachment]]:
    """What a turn's mail carries beside its text, by reader: a player's printout (his name) or the newsletter
    (None), from `Ruleset.attachments`. A ruleset that keeps the default is never asked."""
    if type(ruleset).attachments is Ruleset.attachments:
        return lambda _player: []

    def attach(player: str | None) -> list[Attachment]:
        context = result.newsletter if player is None else result.printouts[player]
        return ruleset.attachments(result.state, number, phase, player, context)

    return attach


class TurnTexts(NamedTuple):
    """What a turn's mail says, before it is composed: each player's printout by name, the newsletter, the GM's
    report (None if the result has none), each player's hash of the orders the turn ran with, and what each
    reader's mail carries beside its text."""

    players: list[Player]
    printouts: dict[str, str]
    newsletter: str
    gm_report: str | None
    hashes: dict[str, str]
    attach: Callable[[str | None], list[Attachment]]


def turn_texts(s: Session, app: App, game: Game, number: int, result: TurnResult, finished: bool,
               next_deadline: str, phase: str | None = None) -> TurnTexts:
    players = players_of(s, game)
    ruleset = ruleset_named(game.ruleset)
    book = accepted_sets(s, game, number, phase=phase)
    hashes = turn_hashes(orders_in_force(ruleset, book, [p.name for p in players]), [p.name for p in players])
    # In a game of phases, each phase's printout lists what was booked for that phase only.
    missed = not_carried_out(s, game.id, number, game_timezone(app.config, game.name), app.config.limits,
                             ruleset_named(game.ruleset), phase)
    printouts, newsletter = render_turn(game, number, result, finished, next_deadline, players, missed, phase,
                                        hashes)
    handed = newsletter_lines(s, game, number)  # positions a substitute took over: names, never addresses
    if handed:
        newsletter = newsletter.rstrip("\n") + "\n\nSubstitutes:\n" + "".join(f"  {line}\n" for line in handed)
    report = None
    if result.gm_report is not None:
        common = {"game": game.name, "turn": number, "finished": finished, "next_deadline": next_deadline,
                  "phase": phase}
        report = render(game.ruleset, "gm_report.txt.j2", **common, **result.gm_report)
    return TurnTexts(players, printouts, newsletter, report, hashes, turn_attachments(ruleset, result, number, phase))


def queue_turn_mail(s: Session, app: App, game: Game, number: int, result: TurnResult, finished: bool,
                    next_deadline: str, key_suffix: str = "", subject_note: str = "", phase: str | None = None
                    ) -> dict[str, str]:
    """Every player's printout, the newsletter to everyone, and the GM's report when the result has one
    (`TurnResult.gm_report`). The turn runs once (its keys are new), so the rows go in with one INSERT; a rerun
    gives them keys of their own. In a game of several phases a turn, each phase's results go out on their
    own (`phase` names it; templates get it, None otherwise). Returns each player's hash of the orders on
    file the turn ran with (`maild.receipts`), which his printout shows."""
    texts = turn_texts(s, app, game, number, result, finished, next_deadline, phase)
    insert_rows(s, turn_rows(app, game, number, texts, key_suffix, subject_note, phase))
    return texts.hashes


def turn_rows(app: App, game: Game, number: int, texts: TurnTexts, key_suffix: str = "", subject_note: str = "",
              phase: str | None = None, newsletter: bool = True) -> list[dict[str, object]]:
    """The outbox rows of `texts`: a printout for each player in `texts.printouts`, the newsletter (unless
    `newsletter` is False) to every player, the GM's report if there is one."""
    if phase is not None:
        key_suffix = f":{phase}{key_suffix}"
        subject_note = f" ({phase}){subject_note}"
    players, attach = texts.players, texts.attach
    rows = []
    for player in players:
        if player.name in texts.printouts:
            rows.append(outbound_row(app, key=f"printout:{game.name}:{number}:{player.name}{key_suffix}",
                                     kind="printout", to=[player.email], game_id=game.id,
                                     body=texts.printouts[player.name], attachments=attach(player.name),
                                     subject=f"[{game.name}] turn {number} printout for {player.name}{subject_note}"))
    pictures = attach(None) if newsletter else []  # once: every part of the newsletter carries the same
    for part, start in enumerate(range(0, len(players) if newsletter else 0, NEWSLETTER_RECIPIENTS), start=1):
        readers = [p.email for p in players[start:start + NEWSLETTER_RECIPIENTS]]
        rows.append(outbound_row(app, key=f"newsletter:{game.name}:{number}:{part}{key_suffix}", kind="newsletter",
                                 to=readers, game_id=game.id, body=texts.newsletter, undisclosed=True,
                                 attachments=pictures,
                                 subject=f"[{game.name}] turn {number} newsletter{subject_note}"))
    if texts.gm_report is not None:
        rows.append(outbound_row(app, key=f"gm_report:{game.name}:{number}{key_suffix}", kind="gm",
                                 to=[app.config.gm_addr], game_id=game.id, body=texts.gm_report,
                                 subject=f"[{game.name}] turn {number} report for the GM{subject_note}"))
    return rows


def release_turn(app: App, name: str) -> TurnOutcome:
    with app.db.session() as s:
        game = get_game(s, name)
        turn = get_turn(s, game, game.turn)
        if turn is None or turn.status != "held":
            return TurnOutcome(name, game.turn, "not_held", "the open turn is not held")
        turn.status = "released"
    return run_turn(app, name, force=True)


class _DryRun(Exception):
    """Rolls a rerun's transaction back once its outcomes are known."""

    def __init__(self, outcomes: list[TurnOutcome]) -> None:
        self.outcomes = outcomes


def rerun_turn(app: App, name: str, number: int, mail: bool = False, store: bool = True) -> list[TurnOutcome]:
    """Recompute turn `number` from the snapshot before it, with the recorded seed and the order book as it
    stands (so a GM's correction of an order set takes effect); later processed turns follow from the new
    state. Reports for each turn whether the result is the same as before. With `store` False nothing is
    kept: the GM sees what a rerun would change before he confirms it."""
    try:
        return _rerun(app, name, number, mail, store)
    except _DryRun as dry:
        return dry.outcomes


def _rerun(app: App, name: str, number: int, mail: bool, store: bool) -> list[TurnOutcome]:
    outcomes = []
    with app.db.session() as s:
        game = get_game(s, name)
        done = list(s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.status == "done",
                                                 Turn.number >= number).order_by(Turn.number)))
        if not done or done[0].number != number:
            raise ValueError(f"{name}: turn {number} has not been processed")
        ruleset = ruleset_named(game.ruleset)
        players = [p.name for p in players_of(s, game)]
        for turn in done:
            if is_phased(ruleset):
                from maild.phased_turn import rerun_phases  # it builds on this module's turn ending

                outcomes.append(rerun_phases(s, app, game, turn, ruleset, mail))
                continue
            state = state_before(s, game, turn.number)
            book = accepted_sets(s, game, turn.number)
            orders = orders_for_turn(s, ruleset, game, turn.number, book, players)
            place_defaults(s, ruleset, game, turn.number, state, orders, (turn.result or {}).get("defaults", []))
            result = resolve(ruleset, state, turn, orders)
            after = s.scalar(select(Snapshot).where(Snapshot.game_id == game.id,
                                                    Snapshot.turn == turn.number + 1))
            assert after is not None
            same = after.state == json.loads(json.dumps(result.state))
            mailed = None
            if not same:
                after.state = result.state
                turn.result = {**(turn.result or {}), "events": result.events}
                if mail:  # the deadline the printouts named: the next turn's
                    following = get_turn(s, game, turn.number + 1)
                    deadline = format_deadline(following.deadline if following is not None else None,
                                               game_timezone(app.config, game.name))
                    mailed = queue_corrected_mail(s, app, game, turn.number, result, game.finished, deadline)
            outcomes.append(TurnOutcome(name, turn.number, "same" if same else "changed", mailed=mailed))
        if not store:
            raise _DryRun(outcomes)
        # The book is not changed by a rerun, but whatever correction the GM made to it before is: intake's
        # stored results of the game are worked out anew from it (rare, and cheap).
        inforce.invalidate(s, game.id)
    return outcomes
