"""Intake: a stored raw mail becomes an order set and an ack (or a notice to the GM), in one transaction.

Each step decides one thing: too big? a robot? which game? which player, and is it really them? which turn?
what did they order? Whatever the answer, the raw mail stays in the database and its status says what
became of it.
"""

from __future__ import annotations

import dataclasses
import logging
import traceback
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from maild import bounces
from maild.absences import take_lines
from maild.app import App
from maild.controlchars import strip_controls
from maild.crashpoints import crashpoint
from maild.db import is_transient, retry_transient
from maild.deadlines import expected_deadline, format_deadline_for, game_timezone
from maild.games import ruleset_named
from maild.intake import attempts, choosing, claims, guessing, oversized, refusals, stall
from maild.intake.ackecho import Echo, clip
from maild.intake.acklists import ack_lists
from maild.intake.autoreply import bounce_reason
from maild.intake.dsn import read_bounce
from maild.intake.identity import Routed, authenticate, plus_address, route
from maild.intake.ordermail import (
    Target,
    book_orders,
    checked,
    in_phase,
    marked_turn,
    order_target,
    parse_orders,
)
from maild.intake.orders import names_of, read_orders
from maild.intake.read import EMPHASIS_FIRST, ReadMail, read_mail
from maild.intake.run import IntakeRun, MailRow, claim, iter_new, with_raw
from maild.intake.signup import Joined, sign_up, sign_up_lines
from maild.intake.volunteers import VOLUNTEER_WORDS, names_a_game, volunteer
from maild.mail.compose import SUBJECT_CHARS, subject_line
from maild.models import Game, InboundMail, Player, Turn
from maild.orderbook import cancel_late
from maild.outbox import notify_gm
from maild.phases import open_phase_note
from maild.policies import second_mail_words
from maild.press import press_mail, relay
from maild.receipts import ran_with, receipt_line
from maild.render import render
from maild.replylimits import NOT_ANSWERED, STRANGER, Answer, give, give_refusal, held_back_lines
from maild.ruleset import Diagnostic, ParsedOrders, PlacedOrder, Ruleset, command_words
from maild.services import SERVICE_WORDS, answer_services
from maild.timezones import set_timezone, timezone_line

log = logging.getLogger("maild.intake")

# Mails processed per transaction. A batch that fails is rolled back and done again one mail per
# transaction, so one bad mail never holds up the others.
INTAKE_BATCH = 50


def public_commands(ruleset: Ruleset) -> frozenset[str]:
    """The commands that need no password: those a template answers (HELP, a game's code sheet), the same for
    everyone; STATUS and CANCEL touch a player's own orders."""
    return frozenset(c.word for c in ruleset.commands() if c.template is not None)


def process_new(app: App, up_to: int | None = None, received_by: datetime | None = None) -> dict[str, int]:
    """Process every stored mail not yet processed (with `up_to`, those stored up to that receipt sequence;
    with `received_by`, those received by then), in receipt order. Counts the outcomes by status; "retry"
    counts mails left new after transient failures, for the next pass."""
    counts: dict[str, int] = {}
    run = IntakeRun()
    for step in intake_steps(app, up_to, received_by):
        run = process_step(app, step, run, counts)
    return counts


def new_mail(up_to: int | None = None, received_by: datetime | None = None) -> ColumnElement[bool]:
    """Stored mail not yet processed; with `up_to`, stored up to that receipt sequence; with `received_by`,
    received by then (a deadline: what came later counts for a later turn, and is read after it ran)."""
    where = InboundMail.status == "new"
    if up_to is not None:
        where &= InboundMail.id <= up_to
    if received_by is not None:
        where &= InboundMail.received_at <= received_by
    return where


def intake_steps(app: App, up_to: int | None = None, received_by: datetime | None = None) -> list[attempts.Step]:
    """What intake has to do now, in receipt order: batches of fresh mail, mails tried before alone, mails
    tried too often set aside (`attempts.plan`). Refusal notices owed since yesterday go out first, each on its
    own: one that cannot be queued is set aside, never in the way of the mail (`refusals.send_owed`)."""
    refusals.send_owed(app)
    query = (select(InboundMail.id, InboundMail.attempts, InboundMail.sender_key).where(new_mail(up_to, received_by))
             .order_by(InboundMail.id))

    def pending(s: Session) -> list[tuple[int, int, str | None]]:
        return [(r.id, r.attempts, r.sender_key) for r in s.execute(query)]

    attempts.settle(app)  # attempts owed back first: the plan must see the counts as they are meant
    return list(attempts.plan(app.db.transaction(pending, "listing new mail"), INTAKE_BATCH,
                              app.config.max_intake_attempts))


def process_step(app: App, step: attempts.Step, run: IntakeRun, counts: dict[str, int]) -> IntakeRun:
    """Do one step of `intake_steps`, adding the mails' statuses to `counts`. Returns the run to go on with:
    a fresh one where a transaction of its own booked orders the run's cached books lack."""
    ids, senders = attempts.in_turn(app, step)  # a sender's mails in receipt order (maild/intake/attempts.py)
    with claims.holding(app.db, ids, senders) as held:  # the others are another live process's work
        if step.poison:
            statuses = [attempts.set_aside(app, mail_id, step.seen) for mail_id in held]
        elif step.retry:
            statuses = [status for mail_id in attempts.begin(app, held, step.seen)
                        for status in _process_one(app, mail_id)]
            run = IntakeRun()
        else:
            keys = dict(zip(ids, senders, strict=True)) if senders else {}
            statuses, run = _process_batch_retrying(app, attempts.begin(app, held), run, keys)
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    return run


def _process_watched(s: Session, app: App, row: MailRow, run: IntakeRun, mail: ReadMail | None = None) -> None:
    """`process_mail` under the stall guard's time budget (`stall`)."""
    stall.guard.watch(row.id, app.config.intake_mail_seconds)
    try:
        process_mail(s, app, row, run, mail)
    finally:
        stall.guard.clear()


def _read_watched(app: App, rows: list[MailRow]) -> dict[int, ReadMail]:
    """The batch's mails read (`read_mail`), each under the stall guard's time budget: those whose bytes came
    with the batch's and that are not too big to read."""
    read: dict[int, ReadMail] = {}
    for row in rows:
        if row.alone or oversized.is_oversized(row, app.config.max_mail_bytes):
            continue
        stall.guard.watch(row.id, app.config.intake_mail_seconds)
        try:
            read[row.id] = read_mail(row.raw)
        finally:
            stall.guard.clear()
    return read


# Mails in a row that still fail transiently, alone, before intake leaves the rest of a batch for the next pass:
# the database itself is away, and trying each mail in turn would only take long.
GIVE_UP_AFTER = 3


def _process_batch_retrying(app: App, batch: list[int], run: IntakeRun, senders: dict[int, str | None] | None = None
                            ) -> tuple[list[str], IntakeRun]:
    """A batch in one transaction, done again while it fails transiently (a lock, a serialization failure, a
    lost connection); if it still fails, one mail per transaction, where a mail left new holds back the later
    mails of its sender (`senders`: each mail's key), which are read in order after it. Returns the statuses and
    the run to go on with (a new one after a rollback: the old one may hold orders of the batch that was rolled
    back)."""
    if not batch:
        return [], run
    runs = [run]

    def attempt() -> list[str]:
        try:
            return _process_batch(app, batch, runs[-1])
        except Exception:
            runs.append(IntakeRun())
            raise

    try:
        return retry_transient(attempt, f"intake of mails {batch[0]}..{batch[-1]}"), runs[-1]
    except Exception as exc:
        # The traceback only for a failure that may be a mail's: the database's is told once, by the daemon.
        log.warning("a batch of %d mails failed (%s); processing them one by one", len(batch),
                    str(exc).splitlines()[0][:200], exc_info=not is_transient(exc))
    statuses: list[str] = []
    tried: list[str] = []  # the outcomes of the mails tried alone
    waiting: set[str] = set()  # senders with a mail left new
    for n, mail_id in enumerate(batch):
        key = (senders or {}).get(mail_id)
        if key in waiting:
            attempts.forgive(app, [mail_id])
            statuses.append("retry")
            continue
        outcome = _process_one(app, mail_id)
        statuses += outcome
        tried += outcome
        if key and outcome == ["retry"]:
            waiting.add(key)
        if tried[-GIVE_UP_AFTER:] == ["retry"] * GIVE_UP_AFTER:
            left = batch[n + 1:]
            log.warning("intake of %d more mails left for the next pass", len(left))
            attempts.forgive(app, left)
            statuses += ["retry"] * len(left)
            break
    return statuses, runs[-1]


def _process_batch(app: App, ids: list[int], run: IntakeRun) -> list[str]:
    statuses = []
    with app.db.session() as s:
        run.begin(s)
        rows = claim(s, ids, app.config.max_mail_bytes)
        read = _read_watched(app, rows)
        run.prepare(s, app, list(read.values()))
        for row in with_raw(s, rows):
            _process_watched(s, app, row, run, read.pop(row.id, None))
            run.save(row)
            statuses.append(row.status)
            # Later mails of the same batch must see this one's orders on file.
            if run.pending is not None:
                run.accepted(*run.pending)
                run.pending = None
            crashpoint("intake.before_commit")
        run.flush(s)
        notify_held(s, app, run)
    crashpoint("intake.committed")
    return statuses


def _process_one_tx(app: App, mail_id: int) -> list[str]:
    with app.db.session() as s:
        run = IntakeRun()
        statuses = []
        for row in iter_new(s, [mail_id], app.config.max_mail_bytes):
            _process_watched(s, app, row, run)
            run.save(row)
            statuses.append(row.status)
        run.flush(s)
        notify_held(s, app, run)
        return statuses


def _process_one(app: App, mail_id: int) -> list[str]:
    try:
        return retry_transient(lambda: _process_one_tx(app, mail_id), f"intake of mail {mail_id}")
    except Exception as exc:
        if is_transient(exc):  # the database, not the mail: it stays new and the next pass tries again
            log.warning("intake of mail %d left for the next pass: %s", mail_id, exc)
            attempts.forgive(app, [mail_id])
            return ["retry"]
        # A bug must not lose the mail nor stop the daemon: keep it, tell the GM.
        log.exception("intake failed for mail %d", mail_id)
        note = strip_controls(traceback.format_exc(limit=5))  # it may quote the mail's NULs
        app.db.transaction(lambda s: _mark_error(s, app, mail_id, note),
                           f"recording the failure of mail {mail_id}")
        return ["error"]


def _mark_error(s: Session, app: App, mail_id: int, note: str) -> None:
    failed = s.get(InboundMail, mail_id)
    assert failed is not None
    failed.status = "error"
    failed.note = note
    notify_gm(s, app, f"error:{mail_id}", f"mail {mail_id} could not be processed",
              f"maild failed while reading mail {mail_id} (from {failed.sender or 'unknown'}).\n"
              f"It is kept in the database; `maild mail list` shows it, and `maild mail reprocess "
              f"{mail_id}` reads it again once the cause is mended.\n\n{failed.note}")


def process_mail(s: Session, app: App, row: MailRow, run: IntakeRun, mail: ReadMail | None = None) -> None:
    """Decide what becomes of one mail, a step at a time: read once (`mail`, when the caller read it already),
    screened (too big? a robot? no sender?), routed to a game, its sender placed (a player, a volunteer, a
    newcomer, a stranger) and authenticated, then read as his orders and answered (`handle_orders`). Its writes
    wait in `run` until the caller's `run.flush(s)`."""
    if oversized.is_oversized(row, app.config.max_mail_bytes):
        _hold(run, row, "oversized", oversized.refuse(s, app, row, run.gate))
        return
    mail = mail or read_mail(row.raw)
    row.read_from(mail)
    if _screened_out(s, app, run, row, mail):
        return
    routed = _routed(s, app, run, row, mail)
    if routed is None:
        return
    game, player = routed.game, routed.player
    row.game_id = game.id
    if ruleset_named(game.ruleset).reads_emphasis:  # its actions are bold: read the part that keeps bold
        mail = read_mail(row.raw, prefer=EMPHASIS_FIRST)
    if player is None:
        _from_stranger(s, app, run, row, game, mail)
    else:
        _from_player(s, app, run, row, game, player, mail)


def _screened_out(s: Session, app: App, run: IntakeRun, row: MailRow, mail: ReadMail) -> bool:
    """Whether the mail goes no further than its headers: a bounce (recorded), any other automatic mail (never
    answered: answering robots makes mail loops), or a mail whose sender cannot be read (held)."""
    if mail.auto_reason and _bounce(s, app, row, mail.auto_reason):
        return True
    if mail.auto_reason:
        row.status = "auto"
        row.note = mail.auto_reason
        return True
    if not mail.from_addr:
        _hold(run, row, "garbage", "no sender address could be read")
        return True
    return False


def _routed(s: Session, app: App, run: IntakeRun, row: MailRow, mail: ReadMail) -> Routed | None:
    """The game the mail is for, and its player if its sender is one (`identity.route`); where its address is
    several games', the game its grammar, a volunteer's word or a sign-up names. None when no one game can be
    told: the mail is then held, or its sender asked which game he meant."""
    routed = route(s, app, mail, run)
    if routed is None:
        _hold(run, row, "unroutable", "no game matches its address, subject tag or #GAME header line")
        return None
    if len(routed.played) > 1:  # his games share the address and the mail named none: its grammar decides
        found = choosing.readings(row.raw, mail, routed.played)
        best = choosing.chosen(found)
        if best is None:
            _ask_which_game(s, app, run, row, mail, found)
            return None
        return Routed(best.game, best.player)
    if routed.player is not None or not routed.shared:
        return routed
    named = names_a_game(mail, routed.shared)
    if named is not None:
        return Routed(named, None)  # a volunteer's STANDBY or TAKEOVER names its game
    joining = [g for g in routed.shared if sign_up_lines(ruleset_named(g.ruleset), mail)]
    if len(joining) == 1:
        return Routed(joining[0], None)
    # No one game to answer for: the answer names them all.
    row.note = (f"{mail.from_addr} plays none of the games of its address "
                f"({', '.join(g.name for g in routed.shared)})")
    _answer_shared_stranger(s, app, run, row, mail, routed.shared)
    _hold(run, row, "unknown_sender", row.note)
    return None


def _from_stranger(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, mail: ReadMail) -> None:
    """A mail from no player of `game`: a volunteer's, a newcomer's JOIN (his mail is then his first orders), or
    a stranger's, answered once a day and held for the GM."""
    if mail.commands & VOLUNTEER_WORDS:
        volunteer(s, app, run, row, game, mail)
        return
    joined = sign_up(s, app, run, row, game, mail)
    if isinstance(joined, Joined):
        row.player_id = joined.player.id
        handle_orders(s, app, row, game, joined.player, mail, run, signed_up=joined)
        return
    refused = joined.reason if joined is not None else None
    row.note = f"{mail.from_addr} is not a player of {game.name}"
    if joined is not None:
        row.note = f"{row.note}; {joined.note}"
    _answer_stranger(s, app, run, row, game, mail, signup_refused=refused)
    _hold(run, row, "unknown_sender", row.note, game)


def _from_player(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, player: Player,
                 mail: ReadMail) -> None:
    """A mail in `player`'s name. HELP is answered to anyone (DESIGN, "HELP is answered to anyone, stranger or
    player"): the order sheet is public, so a HELP alone needs no password. From another address than the
    player's it is answered as any stranger's, whatever its password: an answer that differed would tell a
    guesser whether he guessed right."""
    row.player_id = player.id
    asks_help = bool(mail.commands & public_commands(ruleset_named(game.ruleset)))
    own = mail.from_addr == player.email
    if asks_help and not _carries_orders(game, player, mail):
        if own:
            handle_orders(s, app, row, game, player, mail, run)
        else:
            row.note = (f"{mail.from_addr} is not the address of {player.name}, whom its header line names; "
                        "answered as a stranger's HELP, its password not looked at")
            _answer_stranger(s, app, run, row, game, mail)
            _hold(run, row, "unknown_sender", row.note, game)
        return
    _read_as_player(s, app, run, row, game, player, mail, help_to_sender=asks_help and own)
    if asks_help and not own:
        _answer_stranger(s, app, run, row, game, mail)


def _read_as_player(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, player: Player,
                    mail: ReadMail, help_to_sender: bool) -> None:
    """A mail in `player`'s name, unless the limits on guessing hold it or it cannot prove it is his.
    `help_to_sender`: it asks for HELP from his registered address, and a refusal answers with the sheet."""
    locked = guessing.held_by_lock(s, app, run, row, game, player, mail)
    if locked is not None:
        row.status, row.note = "bad_password", locked
        _warn_player(s, app, run, row, game, player, mail, locked)
        return
    gcfg = app.config.game(game.name)
    refusal = authenticate(player, mail, gcfg.auth if gcfg is not None else None, row.raw, run.passwords, game.name)
    if refusal is None:
        press = press_mail(s, game, player, mail)
        if press is not None:  # not orders: relayed to other players by the game's address
            relay(s, app, run, row, game, player, mail, press)
            return
        zone = timezone_line(mail.order_text)
        if zone is not None:  # his own time zone, answered with the deadlines in it and a calendar file
            set_timezone(s, app, run, row, game, player, mail, zone)
            return
        handle_orders(s, app, row, game, player, mail, run)
        return
    row.status, row.note = refusal.status, refusal.problem
    guessing.count_refusal(s, app, run, row, game, player, mail, refusal)
    if help_to_sender:  # the sender is his registered address: the sheet, saying why the orders were not read
        _answer_stranger(s, app, run, row, game, mail, player, refusal.problem)
    _warn_player(s, app, run, row, game, player, mail, refusal.problem, refusal.unverified)


def _bounce(s: Session, app: App, row: MailRow, auto: str) -> bool:
    """A bounce that reports an address failed for good: recorded, our mail marked, the GM told
    (`maild.bounces`), status `bounce`; a delay notice is noted and marks nothing. Never answered, as no
    automatic mail is. False for automatic mail of any other kind, and a bounce that reports no failure."""
    if not auto.startswith("bounce") and bounce_reason(row.raw) is None:
        return False
    report = read_bounce(row.raw)
    if not report.failures:
        return False
    row.status = "bounce" if report.permanent else "auto"
    row.note = clip(bounces.record(s, app, row.id, row.received_at, report), 2000)
    log.info("mail %d: %s", row.id, row.note)
    return True


def _carries_orders(game: Game, player: Player, mail: ReadMail) -> bool:
    """Whether a mail has lines besides its command (orders, or lines meant as orders), which only an
    authenticated mail may have read."""
    parsed = read_orders(ruleset_named(game.ruleset), mail.order_text, names_of(mail.from_display, player.name),
                         mail.line_map).parsed
    return bool(parsed.orders or parsed.diagnostics)


def _hold(run: IntakeRun, row: MailRow, status: str, why: str, game: Game | None = None) -> None:
    """Keep a mail nobody can place. The GM hears of it in one notice per transaction (`notify_held`),
    not one per mail: a wave of spam is one mail."""
    row.status = status
    row.note = why
    log.info("mail %d held as %s: %s", row.id, status, why)
    # Without its bytes: the notice needs none, and a batch of big held mails must not stay in memory.
    run.held.append((dataclasses.replace(row, raw=b""), game))


def _answered(row: MailRow, held_back: str | None) -> None:
    """Note on the mail that its answer was held back, and why: the GM's `maild mail list` shows it."""
    if held_back is not None:
        row.note = f"{row.note or ''}{NOT_ANSWERED}{held_back}".removeprefix("; ")


def _answer_subject(subject: str, game: str | None, default: str) -> str:
    """Re: their subject, tagged with the game (none for an answer about several); one line, at most
    SUBJECT_CHARS characters."""
    subject = subject_line(subject, SUBJECT_CHARS - len(game or "") - len("Re:  []"))
    subject = subject if subject.lower().startswith("re:") else f"Re: {subject}".rstrip()
    if game is None:
        return subject if subject != "Re:" else f"Re: {default}"
    if f"[{game}]".lower() not in subject.lower():
        subject = f"{subject} [{game}]" if subject != "Re:" else f"[{game}] {default}"
    return subject


def _answer_stranger(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, mail: ReadMail,
                     player: Player | None = None, problem: str | None = None,
                     signup_refused: str | None = None) -> None:
    """A stranger's mail gets one short answer a day, HELP's order sheet if asked: it is how a newcomer
    finds the game. The mail itself stays held for the GM (the sender may be forged, hence once a day).
    With `player` and `problem`: a HELP that named a player but could not prove it was him, answered so.
    With `signup_refused`: why his sign-up (the game's JOIN) was refused."""
    assert mail.from_addr is not None
    ruleset = ruleset_named(game.ruleset)
    commands, _problems = game_commands(ruleset, game, mail)
    public = commands & public_commands(ruleset)
    state = run.state(s, game, game.turn) if public and not game.finished else {}
    context = ruleset.template_context(state, game.turn) if state else {}
    note = open_phase_note(s, ruleset, game, game_timezone(app.config, game.name)) if public else None
    help_ = help_text(game, ruleset, game.turn, context, public, phase_note=note, state=state)
    body = render(game.ruleset, "stranger.txt.j2", game=game.name, games=[], help_text=help_,
                  sender=Echo(app.config.limits).line(mail.from_addr), problem=problem,
                  player=player.name if player is not None else None,
                  signup_refused=Echo(app.config.limits).line(signup_refused),
                  sign_up_word=(ruleset.sign_up_word or "").upper() if not game.finished else "",
                  passwords=any(p.password for p in run.players(s, game).by_name.values()),
                  address=_own_address(app, game))
    held_back = give(s, app, Answer(
        kind=STRANGER, key=f"stranger:{row.id}", outbox_kind="stranger", to=mail.from_addr,
        subject=_answer_subject(mail.subject, game.name, "HELP" if help_ else "who may send orders"), body=body,
        game_id=game.id, mail_id=row.id, in_reply_to=mail.message_id, thread=mail.thread), run.gate)
    if held_back is None:
        row.note = "; ".join(filter(None, [row.note, "answered once (strangers get one answer a day)"]))
    _answered(row, held_back)


def _own_address(app: App, game: Game) -> str | None:
    """The address that names `game` alone when its address is shared by other games (its plus address), else
    None: mail to its address is its own."""
    gcfg = app.config.game(game.name)
    if gcfg is None or not any(g.address == gcfg.address for g in app.config.games if g.name != game.name):
        return None
    return plus_address(gcfg.address, game.name)


def _game_addresses(app: App, games: list[Game]) -> list[dict[str, str]]:
    """Each of `games` (sharing an address) with its ruleset's name and the address that names it."""
    out = []
    for game in games:
        gcfg = app.config.game(game.name)
        address = plus_address(gcfg.address, game.name) if gcfg is not None else ""
        out.append({"name": game.name, "rules": ruleset_named(game.ruleset).name, "address": address})
    return out


def _answer_shared_stranger(s: Session, app: App, run: IntakeRun, row: MailRow, mail: ReadMail,
                            games: list[Game]) -> None:
    """A stranger's mail to an address several games share, naming none: one answer a day for the address
    (its game None in the reply limits), listing every game there and the address that names each; HELP to
    that address is then answered by the game alone."""
    assert mail.from_addr is not None
    asks_help = any(mail.commands & public_commands(ruleset_named(g.ruleset)) for g in games)
    body = render(None, "stranger.txt.j2", game=None, games=_game_addresses(app, games), help_text=asks_help,
                  sender=Echo(app.config.limits).line(mail.from_addr), problem=None, player=None,
                  signup_refused=None, sign_up_word="", passwords=False)
    held_back = give(s, app, Answer(
        kind=STRANGER, key=f"stranger:{row.id}", outbox_kind="stranger", to=mail.from_addr,
        subject=_answer_subject(mail.subject, None, "the games at this address"), body=body,
        game_id=None, mail_id=row.id, in_reply_to=mail.message_id, thread=mail.thread), run.gate)
    if held_back is None:
        row.note = "; ".join(filter(None, [row.note, "answered once (strangers get one answer a day)"]))
    _answered(row, held_back)


def _ask_which_game(s: Session, app: App, run: IntakeRun, row: MailRow, mail: ReadMail,
                    found: list[choosing.Reading]) -> None:
    """A player of several games at the address, whose mail named none and which no one game reads best: he
    is asked which game it is for (`which_game.txt.j2`); nothing is booked."""
    assert mail.from_addr is not None
    games = _game_addresses(app, [r.game for r in found])
    for g, r in zip(games, found, strict=True):
        g["player"] = r.player.name
    readers = [r.game.name for r in choosing.best(found)]
    row.status = "which_game"
    row.note = (f"{mail.from_addr} plays {', '.join(r.game.name for r in found)} at this address; the mail named "
                "none" + (f" and reads as orders of {', '.join(readers)} alike" if readers else
                          " and none reads it as orders") + ": asked which game, nothing booked")
    body = render(None, "which_game.txt.j2", games=games, readers=readers)
    _answered(row, give(s, app, Answer(
        kind="ack", key=f"which:{row.id}", outbox_kind="ack", to=mail.from_addr,
        subject=_answer_subject(mail.subject, None, "which game?"), body=body, game_id=None,
        mail_id=row.id, in_reply_to=mail.message_id, thread=mail.thread), run.gate))


def notify_held(s: Session, app: App, run: IntakeRun) -> None:
    """One notice to the GM per transaction: the mails held, and the answers the reply limits held back."""
    held_back = held_back_lines(run.gate)
    if not run.held and not held_back:
        return
    rows = [row for row, _game in run.held]
    games = {game.id for _row, game in run.held if game is not None} | {h.game_id for h in run.gate.held_back}
    ids = [row.id for row in rows] + [h.mail_id for h in run.gate.held_back if h.mail_id is not None]
    parts = []
    if rows:
        parts.append(f"mail {rows[0].id} held ({rows[0].status.replace('_', ' ')})" if len(rows) == 1 else
                     f"{len(rows)} mails held (mails {rows[0].id} to {rows[-1].id})")
    if held_back:
        parts.append(f"{len(run.gate.held_back)} answer(s) held back")
    notify_gm(s, app, f"held:{min(ids, default=0)}-{max(ids, default=0)}", ", ".join(parts),
              render(None, "gm_held.txt.j2", held=run.held, held_back=held_back),
              games.pop() if len(games) == 1 else None)
    run.held.clear()
    run.gate.held_back.clear()


def _warn_player(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, player: Player,
                 mail: ReadMail, problem: str, unverified: str | None = None) -> None:
    """Tell the registered address (never the sender: it may be forged) that mail in its name was refused;
    at most once a day per game, the next notice counting the refusals since."""
    echo = Echo(app.config.limits)

    def body(count: int, since: datetime | None) -> str:
        return render(game.ruleset, "bad_auth.txt.j2", game=game.name, player=player.name,
                      sender=echo.line(mail.from_addr), subject=echo.line(mail.subject), problem=problem,
                      received=row.received_at, unverified=unverified, count=count, since=since)

    _answered(row, give_refusal(s, app, refusals.refusal(game, player, row.id), run.gate, body))


def help_text(game: Game, ruleset: Ruleset, turn: int, context: dict[str, Any], commands: frozenset[str],
              player: str | None = None, phase_note: str | None = None,
              state: dict[str, Any] | None = None) -> str | None:
    """The answer to HELP or to a mail command the game declares (its template, with the framework's as
    fallback); None for a mail with neither (STATUS and CANCEL the ack answers itself). `player`, the reader
    when he is a player, lets the sheet show his own header lines; in a game of several phases a turn, the
    sheet is headed by the phase now open and its deadline (`phase_note`). `state`: the open turn's, whose
    names the examples use (`Ruleset.help_examples`)."""
    for word in sorted(commands):
        command = ruleset.command(word)
        if command is not None and command.template is not None:
            examples = ruleset.help_examples(state, player) if state and not game.finished else {}
            sheet = render(game.ruleset, command.template, game=game.name, turn=turn, player=player, info=context,
                           rules=ruleset.rules_info(), command=word, examples=examples)
            return f"{phase_note}\n\n{sheet}" if phase_note else sheet
    return None


def game_commands(ruleset: Ruleset, game: Game, mail: ReadMail) -> tuple[frozenset[str], list[str]]:
    """The mail's commands this game has, and a problem for the ack for each it has not: intake recognises
    every installed game's words before it knows the mail's game (maild/intake/header.py)."""
    known = command_words(ruleset)
    problems = [f"{word} is not a command of {game.name} (it has {', '.join(sorted(known))}); the line was not "
                "read as an order either" for word in sorted(mail.commands - known)]
    return mail.commands & known, problems


def _deadline(app: App, game: Game, current: Turn | None, turn: Turn | None, number: int) -> datetime | None:
    """Turn `number`'s deadline: its row's, or, before the row is made (a late mail, orders sent ahead), the
    one the schedule will give it after the `current` turn's."""
    if turn is not None:
        return turn.deadline
    gcfg = app.config.game(game.name)
    if current is None or gcfg is None:
        return None
    return expected_deadline(gcfg.schedule, current.number, current.deadline, number)


def handle_orders(s: Session, app: App, row: MailRow, game: Game, player: Player, mail: ReadMail,
                  run: IntakeRun, signed_up: Joined | None = None) -> None:
    """Book a player's orders and ack them: the steps of maild/intake/ordermail.py (which turn, what it orders,
    what the game allows, what goes on file), then the answer. `signed_up`: this mail has just made him a player
    (his JOIN), which the ack says, with the password the game gave him."""
    ruleset = ruleset_named(game.ruleset)
    commands, command_problems = game_commands(ruleset, game, mail)
    absence, mail = _absence(s, app, game, player, mail)
    target = order_target(s, run, row, game, player, ruleset)
    parsed, ignored = parse_orders(ruleset, mail, player)
    cancelled = _cancel(s, run, row, game, player, ruleset) if "CANCEL" in commands and target.turn else None
    if target.turn is not None and parsed.orders:
        target = marked_turn(ruleset, run.state(s, game, target.state_turn), target, parsed)
        parsed = checked(ruleset, run.state(s, game, target.state_turn), target.number, player.name,
                         in_phase(ruleset, target, parsed))
    on_file = run.on_file(s, game, target.number, player, target.phase_name)  # the receipt hashes what is on file
    refused = target.late if target.turn is None else \
        book_orders(run, ruleset, game, player, row, target, parsed, on_file)
    row.status = "orders" if parsed.orders or parsed.diagnostics else ("command" if commands or absence else "empty")
    _ack(s, app, run, row, game, player, mail, Reading(
        ruleset=ruleset, target=target, parsed=parsed, ignored=ignored, commands=commands,
        command_problems=command_problems, absence=absence, cancelled=cancelled, refused=refused,
        in_force=ruleset.effective(on_file) if on_file else []), signed_up)


def _absence(s: Session, app: App, game: Game, player: Player, mail: ReadMail) -> tuple[str | None, ReadMail]:
    """ABSENT / BACK, read from the mail's lines (`absences.take_lines`), and the mail without them: they are
    no orders."""
    if game.finished:
        return None, mail
    absence, order_text = take_lines(s, app, game, player, mail.order_text)
    return absence, mail if absence is None else dataclasses.replace(mail, order_text=order_text)


def _cancel(s: Session, run: IntakeRun, row: MailRow, game: Game, player: Player, ruleset: Ruleset) -> str:
    """A CANCEL: the player's late orders withdrawn (`orderbook.cancel_late`); what happened, in words."""
    run.flush(s)  # the sets to cancel may have come earlier in this transaction
    cancelled = cancel_late(s, game, player, game.turn, row.received_at, ruleset.late_cancel_days)
    run.forget(game, game.turn, player)
    return cancelled


@dataclass(frozen=True)
class Reading:
    """What intake made of a player's order mail, for its ack."""

    ruleset: Ruleset
    target: Target
    parsed: ParsedOrders
    ignored: list[Diagnostic]
    commands: frozenset[str]
    command_problems: list[str]
    absence: str | None
    cancelled: str | None
    refused: str | None
    in_force: list[PlacedOrder]


def _deadline_text(s: Session, app: App, run: IntakeRun, game: Game, player: Player, target: Target) -> str:
    """The deadline of the turn (or phase) the orders count for, in the player's time zone, as the ack says it."""
    tz = game_timezone(app.config, game.name)
    number, phase = target.number, target.phase
    if phase is not None and phase.phase != phase.current:
        text = f"not set yet: the {phase.phase} opens once the {phase.current} is resolved"
    else:
        deadline = phase.deadline if phase is not None else \
            _deadline(app, game, run.turn(s, game, game.turn), run.turn(s, game, number), number)
        text = format_deadline_for(deadline, tz, player.timezone)
    if game.paused_at is not None and number == game.turn:  # frozen: the resume moves it on (maild.deadline_changes)
        text += ",\nbut the game is paused: you will be told the new deadline when it resumes"
    return text


def _ack(s: Session, app: App, run: IntakeRun, row: MailRow, game: Game, player: Player, mail: ReadMail,
         reading: Reading, signed_up: Joined | None) -> None:
    """Answer a player's order mail: what was read, refused and is in force, with HELP, STATUS and the game's
    services where the mail asked for them; to his registered address, through the reply limits."""
    ruleset, target, parsed, commands = reading.ruleset, reading.target, reading.parsed, reading.commands
    number = target.number
    services = answer_services(s, app, run.gate, game, player, commands, mail.command_args, row.id,
                               mail.message_id, mail.thread) if commands & SERVICE_WORDS else None
    state = run.state(s, game, target.state_turn)
    context = run.context(s, game, target.state_turn, number) if not game.finished else {}
    echo = Echo(app.config.limits)
    lists = ack_lists(parsed.diagnostics, parsed.orders)
    tz = game_timezone(app.config, game.name)
    body = render(game.ruleset, "ack.txt.j2", game=game.name, player=player.name, turn=number,
                  deadline=_deadline_text(s, app, run, game, player, target), phase=target.phase_name,
                  orders=echo("orders", parsed.orders),
                  errors=echo("errors", lists.errors), rule_refused=echo("rule_refused", lists.refused),
                  warnings=echo("warnings", lists.warnings),
                  notes={line: [echo.message(n) for n in notes] for line, notes in lists.notes.items()},
                  refused=echo.line(reading.refused), late=target.late if target.turn is not None else None,
                  sender=echo.line(mail.from_addr), registered=player.email, commands=commands,
                  in_force=echo("in_force", [p.order for p in reading.in_force]),
                  problems=echo("problems", [*mail.problems, *reading.command_problems]), info=context,
                  help_text=help_text(game, ruleset, number, context, commands, player.name,
                                      open_phase_note(s, ruleset, game, tz), state),
                  cancelled=reading.cancelled, absence=reading.absence,
                  resubmission_note=second_mail_words(ruleset),
                  status=ruleset.status(state, game.turn, player.name) if "STATUS" in commands else {},
                  ignored=echo("ignored", reading.ignored), signed_up=signed_up is not None,
                  password=signed_up.password if signed_up is not None else None,
                  nothing=not (parsed.orders or parsed.diagnostics or commands or reading.absence),
                  receipt=receipt_line(row.id, reading.in_force), services=services,
                  ran_with=ran_with(s, game, player.name) if "STATUS" in commands else None,
                  **echo.context())
    _answered(row, give(s, app, Answer(
        kind="ack", key=f"ack:{row.id}", outbox_kind="ack", to=player.email,
        subject=_answer_subject(mail.subject, game.name, "your orders"), body=body, game_id=game.id,
        mail_id=row.id, in_reply_to=mail.message_id, thread=mail.thread), run.gate))
