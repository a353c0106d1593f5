"""Intake: a stored raw mail becomes an order set and an ack (or a notice to the GM), in one transaction.

Each step decides one thing: too big? a robot? which game? which player, and is it really them? which turn?
what did they order? Whatever the answer, the raw mail stays in the database and its status says what
became of it.
"""

from __future__ import annotations

import logging
import traceback
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from maild.app import App
from maild.crashpoints import crashpoint
from maild.db import is_transient, retry_transient
from maild.deadlines import format_deadline, game_timezone
from maild.games import ruleset_named
from maild.intake.identity import authenticate, route
from maild.intake.read import ReadMail, read_mail
from maild.intake.run import IntakeRun, MailRow, claim, load_new
from maild.models import Game, InboundMail, OrderSetRow, Player, Turn
from maild.orderbook import cancel_late
from maild.outbox import AUTO_REPLIED, notify_gm, queue_mail
from maild.render import environment, render
from maild.ruleset import OrderSet, ParsedOrders, Ruleset

log = logging.getLogger("maild.intake")

# Mails processed per transaction. A batch that fails is rolled back and done again one mail per
# transaction, so one bad mail never holds up the others.
INTAKE_BATCH = 50


def process_new(app: App, up_to: int | None = None) -> dict[str, int]:
    """Process every stored mail not yet processed (with `up_to`, those stored up to that receipt sequence),
    in receipt order. Counts the outcomes by status; "retry" counts mails left new after transient failures,
    for the next pass."""
    query = select(InboundMail.id).where(InboundMail.status == "new").order_by(InboundMail.id)
    if up_to is not None:
        query = query.where(InboundMail.id <= up_to)
    ids = app.db.transaction(lambda s: list(s.scalars(query)), "listing new mail")
    counts: dict[str, int] = {}
    run = IntakeRun()
    for start in range(0, len(ids), INTAKE_BATCH):
        batch = ids[start:start + INTAKE_BATCH]
        statuses, run = _process_batch_retrying(app, batch, run)
        for status in statuses:
            counts[status] = counts.get(status, 0) + 1
    return counts


# Mails in a row that still fail transiently, alone, before intake leaves the rest of a batch for the next pass:
# the database itself is away, and trying each mail in turn would only take long.
GIVE_UP_AFTER = 3


def _process_batch_retrying(app: App, batch: list[int], run: IntakeRun) -> tuple[list[str], IntakeRun]:
    """A batch in one transaction, done again while it fails transiently (a lock, a serialization failure, a
    lost connection); if it still fails, one mail per transaction. Returns the statuses and the run to go on
    with (a new one after a rollback: the old one may hold orders of the batch that was rolled back)."""
    runs = [run]

    def attempt() -> list[str]:
        try:
            return _process_batch(app, batch, runs[-1])
        except Exception:
            runs.append(IntakeRun())
            raise

    try:
        return retry_transient(attempt, f"intake of mails {batch[0]}..{batch[-1]}"), runs[-1]
    except Exception:
        log.warning("a batch of %d mails failed; processing them one by one", len(batch), exc_info=True)
    statuses: list[str] = []
    for n, mail_id in enumerate(batch):
        statuses += _process_one(app, mail_id)
        if statuses[-GIVE_UP_AFTER:] == ["retry"] * GIVE_UP_AFTER:
            left = len(batch) - n - 1
            log.warning("intake of %d more mails left for the next pass", left)
            statuses += ["retry"] * left
            break
    return statuses, runs[-1]


def _process_batch(app: App, ids: list[int], run: IntakeRun) -> list[str]:
    statuses = []
    with app.db.session() as s:
        run.begin(s)
        for mail_id in claim(s, ids):
            row = load_new(s, mail_id)
            if row is None:
                continue
            process_mail(s, app, row, run)
            row.save(s)
            statuses.append(row.status)
            # Later mails of the same batch must see this one's orders on file.
            if run.pending is not None:
                run.accepted(*run.pending)
                run.pending = None
            crashpoint("intake.before_commit")
        _notify_held(s, app, run)
    crashpoint("intake.committed")
    return statuses


def _process_one_tx(app: App, mail_id: int) -> list[str]:
    with app.db.session() as s:
        row = load_new(s, mail_id) if claim(s, [mail_id]) else None
        if row is None:
            return []
        run = IntakeRun()
        process_mail(s, app, row, run)
        row.save(s)
        _notify_held(s, app, run)
        return [row.status]


def _process_one(app: App, mail_id: int) -> list[str]:
    try:
        return retry_transient(lambda: _process_one_tx(app, mail_id), f"intake of mail {mail_id}")
    except Exception as exc:
        if is_transient(exc):  # the database, not the mail: it stays new and the next pass tries again
            log.warning("intake of mail %d left for the next pass: %s", mail_id, exc)
            return ["retry"]
        # A bug must not lose the mail nor stop the daemon: keep it, tell the GM.
        log.exception("intake failed for mail %d", mail_id)
        note = traceback.format_exc(limit=5)
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


def process_mail(s: Session, app: App, row: MailRow, run: IntakeRun | None = None) -> None:
    run = run or IntakeRun()
    if row.size > app.config.max_mail_bytes:
        _hold(run, row, "oversized", f"{row.size} bytes, more than the limit of {app.config.max_mail_bytes}")
        return
    mail = read_mail(row.raw)
    row.sender = mail.from_addr
    row.subject = mail.subject[:500] if mail.subject else None
    if mail.auto_reason:
        row.status = "auto"
        row.note = mail.auto_reason  # never answered: answering robots makes mail loops
        return
    if not mail.from_addr:
        _hold(run, row, "garbage", "no sender address could be read")
        return
    routed = route(s, app, mail, run)
    if routed is None:
        _hold(run, row, "unroutable", "no game matches its address, subject tag or #GAME header line")
        return
    game, player = routed.game, routed.player
    row.game_id = game.id
    if player is None:
        _hold(run, row, "unknown_sender", f"{mail.from_addr} is not a player of {game.name}", game)
        return
    row.player_id = player.id
    gcfg = app.config.game(game.name)
    refusal = authenticate(player, mail, gcfg.auth if gcfg is not None else None, row.raw)
    if refusal is not None:
        row.status, row.note = refusal.status, refusal.problem
        _warn_player(s, app, row, game, player, mail, refusal.problem, refusal.unverified)
        return
    handle_orders(s, app, row, game, player, mail, run)


def _hold(run: IntakeRun, row: MailRow, status: str, why: str, game: Game | None = None) -> None:
    """Keep a mail nobody can place; the sender is not answered (it may be forged). The GM hears of it in
    one notice per transaction (`_notify_held`), not one per mail: a wave of spam is one mail."""
    row.status = status
    row.note = why
    log.info("mail %d held as %s: %s", row.id, status, why)
    run.held.append((row, game))


def _notify_held(s: Session, app: App, run: IntakeRun) -> None:
    if not run.held:
        return
    rows = [row for row, _game in run.held]
    games = {game.id for _row, game in run.held if game is not None}
    what = f"mail {rows[0].id} held ({rows[0].status.replace('_', ' ')})" if len(rows) == 1 else \
        f"{len(rows)} mails held (mails {rows[0].id} to {rows[-1].id})"
    notify_gm(s, app, f"held:{rows[0].id}-{rows[-1].id}", what, render(None, "gm_held.txt.j2", held=run.held),
              games.pop() if len(games) == 1 else None)
    run.held.clear()


def _warn_player(s: Session, app: App, row: MailRow, game: Game, player: Player, mail: ReadMail,
                 problem: str, unverified: str | None = None) -> None:
    body = render(game.ruleset, "bad_auth.txt.j2", game=game.name, player=player.name, sender=mail.from_addr,
                  subject=mail.subject, problem=problem, received=row.received_at,
                  unverified=unverified)
    queue_mail(s, app, key=f"badauth:{row.id}", kind="warning", to=[player.email], game_id=game.id,
               subject=f"[{game.name}] orders in your name were refused", body=body)


def help_text(game: Game, turn: int, context: dict[str, Any], commands: frozenset[str]) -> str | None:
    """HELP's order sheet, or CODESHEET's code sheet where the game has one (else its order sheet)."""
    names = {"HELP": ["help.txt.j2"], "CODESHEET": ["codesheet.txt.j2", "help.txt.j2"]}
    for command, templates in names.items():
        if command in commands:
            template = environment().select_template([f"{game.ruleset}/{t}" for t in templates])
            return template.render(game=game.name, turn=turn, info=context)
    return None


def target_turn(turn: Turn | None, ruleset: Ruleset, game: Game, received: datetime
                ) -> tuple[Turn | None, str | None]:
    """The turn a mail received at `received` counts for, and a note if it came late."""
    if turn is None or game.finished:
        return None, "the game is over"
    if turn.deadline is None or received <= turn.deadline:
        return turn, None
    if ruleset.late_policy == "refuse":
        return None, f"it came after the deadline of turn {turn.number}"
    note = f"it came after the deadline of turn {turn.number}, so it counts for turn {turn.number + 1}"
    days = getattr(ruleset, "late_cancel_days", None)
    if days:
        note += f" (mail CANCEL within {days} days of turn {turn.number}'s results to withdraw it)"
    return turn, note


def handle_orders(s: Session, app: App, row: MailRow, game: Game, player: Player, mail: ReadMail,
                  run: IntakeRun) -> None:
    ruleset = ruleset_named(game.ruleset)
    tz = game_timezone(app.config, game.name)
    turn, late = target_turn(run.turn(s, game, game.turn), ruleset, game, row.received_at)
    number = game.turn if turn is None else (turn.number + 1 if late else turn.number)
    parsed = ruleset.parse(mail.order_text) if mail.order_text.strip() else ParsedOrders()
    refused: str | None = None
    cancelled: str | None = None
    if "CANCEL" in mail.commands and turn is not None:
        cancelled = cancel_late(s, game, player, game.turn, row.received_at,
                                getattr(ruleset, "late_cancel_days", None))
        run.forget(game, game.turn, player)
    requested = getattr(ruleset, "requested_turn", None)
    if turn is not None and parsed.orders and requested is not None:
        ahead = requested(run.state(s, game, game.turn), number, parsed.orders)
        if ahead is not None and ahead > number:
            number, late = ahead, None  # kept for the turn they are marked for, whenever they came
    if turn is None:
        refused = late
    elif parsed.orders:
        state = run.state(s, game, game.turn)
        checks = ruleset.check(state, number, player.name, parsed.orders)
        bad_lines = {d.line for d in checks if not d.warning}
        parsed = ParsedOrders(orders=[o for o in parsed.orders if o.line not in bad_lines],
                              diagnostics=sorted([*parsed.diagnostics, *checks], key=lambda d: d.line))
    on_file: list[OrderSet] = []
    if parsed.orders or "STATUS" in mail.commands:
        on_file = run.on_file(s, game, number, player)
    if turn is not None and parsed.orders:
        new = OrderSet(player=player.name, seq=row.id, orders=parsed.orders)
        refused = ruleset.accept(on_file, new)
        if not refused:
            on_file.append(new)
            run.pending = (game, number, player, new)
        s.execute(insert(OrderSetRow.__table__), [dict(
            game_id=game.id, player_id=player.id, turn=number, mail_id=row.id, seq=row.id,
            orders=[o.to_json() for o in parsed.orders], diagnostics=[d.to_json() for d in parsed.diagnostics],
            status="refused" if refused else "accepted", reason=refused)])
    row.status = "orders" if parsed.orders or parsed.diagnostics else ("command" if mail.commands else "empty")
    deadline_turn = run.turn(s, game, number)
    deadline = deadline_turn.deadline if deadline_turn is not None else None
    in_force = ruleset.effective(on_file) if on_file else []
    state = run.state(s, game, game.turn)
    context = ruleset.template_context(state, number) if not game.finished else {}
    body = render(game.ruleset, "ack.txt.j2", game=game.name, player=player.name, turn=number,
                  deadline=format_deadline(deadline, tz), orders=parsed.orders,
                  errors=[d for d in parsed.diagnostics if not d.warning],
                  warnings=[d for d in parsed.diagnostics if d.warning], refused=refused,
                  late=late if turn is not None else None,
                  sender=mail.from_addr, registered=player.email, commands=mail.commands,
                  in_force=[p.order for p in in_force], problems=mail.problems, info=context,
                  help_text=help_text(game, number, context, mail.commands), cancelled=cancelled,
                  nothing=not (parsed.orders or parsed.diagnostics or mail.commands))
    subject = mail.subject or ""
    subject = subject if subject.lower().startswith("re:") else f"Re: {subject}".rstrip()
    if f"[{game.name}]".lower() not in subject.lower():
        subject = f"{subject} [{game.name}]" if subject != "Re:" else f"[{game.name}] your orders"
    queue_mail(s, app, key=f"ack:{row.id}", kind="ack", to=[player.email], game_id=game.id, subject=subject,
               body=body, in_reply_to=mail.message_id, references=tuple(mail.references),
               auto_submitted=AUTO_REPLIED, fresh_key=True)
