"""Intake: a stored raw mail becomes an order set and an ack (or a notice to the GM), in one transaction.

Each step decides one thing: too big? a robot? which game? which player, and is it really them? which turn?
what did they order? Whatever the answer, the raw mail stays in the database and its status says what
became of it.
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from maild.app import App
from maild.config import AuthCheck
from maild.crashpoints import crashpoint
from maild.games import get_turn, players_of, ruleset_named, state_before
from maild.intake.authres import sender_verified
from maild.intake.read import ReadMail, read_mail
from maild.models import Game, InboundMail, OrderSetRow, Player, Turn
from maild.orderbook import accepted_sets
from maild.outbox import AUTO_REPLIED, notify_gm, queue_mail
from maild.render import render
from maild.ruleset import Diagnostic, OrderSet, ParsedOrders, Ruleset

log = logging.getLogger("maild.intake")

class PlayerIndex:
    """A game's players by name (any case) and by registered address."""

    def __init__(self, players: list[Player]) -> None:
        self.by_name = {p.name.lower(): p for p in players}
        self.by_email = {p.email: p for p in players}


class IntakeRun:
    """What intake reads again and again during one run: games, players, open turns, states. Nothing of
    it changes while mail is processed (only turns change it, and they do not run meanwhile), and loading
    a big game's state for every mail would cost more than all the rest of the work on the mail."""

    def __init__(self) -> None:
        self._games: list[Game] | None = None
        self._players: dict[int, PlayerIndex] = {}
        self._turns: dict[tuple[int, int], Turn | None] = {}
        self._states: dict[tuple[int, int], dict[str, Any]] = {}
        self._books: dict[tuple[int, int, int], list[OrderSet]] = {}
        self.pending: tuple[Game, int, Player, OrderSet] | None = None  # set by the mail just processed

    def games(self, s: Session) -> list[Game]:
        if self._games is None:
            self._games = list(s.scalars(select(Game)))
        return self._games

    def players(self, s: Session, game: Game) -> PlayerIndex:
        if game.id not in self._players:
            self._players[game.id] = PlayerIndex(players_of(s, game))
        return self._players[game.id]

    def turn(self, s: Session, game: Game, number: int) -> Turn | None:
        key = (game.id, number)
        if key not in self._turns:
            self._turns[key] = get_turn(s, game, number)
        return self._turns[key]

    def on_file(self, s: Session, game: Game, turn: int, player: Player) -> list[OrderSet]:
        """The player's accepted order sets (a copy: `accepted` adds the new one once it is stored)."""
        key = (game.id, turn, player.id)
        if key not in self._books:
            self._books[key] = accepted_sets(s, game, turn, player).get(player.name, [])
        return list(self._books[key])

    def accepted(self, game: Game, turn: int, player: Player, order_set: OrderSet) -> None:
        self._books.setdefault((game.id, turn, player.id), []).append(order_set)

    def state(self, s: Session, game: Game, turn: int) -> dict[str, Any]:
        key = (game.id, turn)
        if key not in self._states:
            self._states[key] = state_before(s, game, turn)
        return self._states[key]


@dataclass
class Routed:
    game: Game
    player: Player | None


# Built once with bind parameters on the bare tables (not the ORM classes, whose bulk paths cost about
# a millisecond a statement): intake runs these for every mail.
_INBOUND = InboundMail.__table__
_SAVE = update(_INBOUND).where(_INBOUND.c.id == bindparam("mid")).values(
    status=bindparam("status"), note=bindparam("note"), sender=bindparam("sender"),
    subject=bindparam("subject"), game_id=bindparam("game_id"), player_id=bindparam("player_id"))
_LOAD = select(_INBOUND.c.raw, _INBOUND.c.size, _INBOUND.c.received_at).where(
    _INBOUND.c.id == bindparam("mid"), _INBOUND.c.status == "new")


@dataclass
class MailRow:
    """An inbound mail as intake works on it; written back with one UPDATE (cheaper than the ORM's flush,
    which matters at hundreds of mails a second)."""

    id: int
    raw: bytes
    size: int
    received_at: datetime
    status: str = "new"
    note: str | None = None
    sender: str | None = None
    subject: str | None = None
    game_id: int | None = None
    player_id: int | None = None

    def save(self, s: Session) -> None:
        s.execute(_SAVE, dict(mid=self.id, status=self.status, note=self.note, sender=self.sender,
                              subject=self.subject, game_id=self.game_id, player_id=self.player_id))


def load_new(s: Session, mail_id: int) -> MailRow | None:
    found = s.execute(_LOAD, {"mid": mail_id}).first()
    return MailRow(mail_id, found.raw, found.size, found.received_at) if found else None


# Mails processed per transaction. A batch that fails is rolled back and done again one mail per
# transaction, so one bad mail never holds up the others.
INTAKE_BATCH = 50


def process_new(app: App) -> dict[str, int]:
    """Process every stored mail not yet processed, in receipt order."""
    with app.db.session() as s:
        ids = list(s.scalars(select(InboundMail.id).where(InboundMail.status == "new").order_by(InboundMail.id)))
    counts: dict[str, int] = {}
    run = IntakeRun()
    for start in range(0, len(ids), INTAKE_BATCH):
        batch = ids[start:start + INTAKE_BATCH]
        try:
            statuses = _process_batch(app, batch, run)
        except Exception:
            log.warning("a batch of %d mails failed; processing them one by one", len(batch), exc_info=True)
            run = IntakeRun()  # it may hold orders of the batch that was rolled back
            statuses = [status for mail_id in batch for status in _process_one(app, mail_id)]
        for status in statuses:
            counts[status] = counts.get(status, 0) + 1
    return counts


def _process_batch(app: App, ids: list[int], run: IntakeRun) -> list[str]:
    statuses = []
    with app.db.session() as s:
        for mail_id in ids:
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
    crashpoint("intake.committed")
    return statuses


def _process_one(app: App, mail_id: int) -> list[str]:
    try:
        with app.db.session() as s:
            row = load_new(s, mail_id)
            if row is None:
                return []
            process_mail(s, app, row, IntakeRun())
            row.save(s)
            return [row.status]
    except Exception:  # a bug must not lose the mail nor stop the daemon: keep it, tell the GM
        log.exception("intake failed for mail %d", mail_id)
        with app.db.session() as s:
            failed = s.get(InboundMail, mail_id)
            assert failed is not None
            failed.status = "error"
            failed.note = traceback.format_exc(limit=5)
            notify_gm(s, app, f"error:{mail_id}", f"mail {mail_id} could not be processed",
                      f"maild failed while reading mail {mail_id} (from {failed.sender or 'unknown'}).\n"
                      f"It is kept in the database; `maild mail list` shows it.\n\n{failed.note}")
        return ["error"]


def process_mail(s: Session, app: App, row: MailRow, run: IntakeRun | None = None) -> None:
    run = run or IntakeRun()
    if row.size > app.config.max_mail_bytes:
        _hold(s, app, row, "oversized", f"{row.size} bytes, more than the limit of {app.config.max_mail_bytes}")
        return
    mail = read_mail(row.raw)
    row.sender = mail.from_addr
    row.subject = mail.subject[:500] if mail.subject else None
    if mail.auto_reason:
        row.status = "auto"
        row.note = mail.auto_reason  # never answered: answering robots makes mail loops
        return
    if not mail.from_addr:
        _hold(s, app, row, "garbage", "no sender address could be read")
        return
    routed = route(s, app, mail, run)
    if routed is None:
        _hold(s, app, row, "unroutable", "no game matches its address, subject tag or #GAME header line")
        return
    game, player = routed.game, routed.player
    row.game_id = game.id
    if player is None:
        _hold(s, app, row, "unknown_sender", f"{mail.from_addr} is not a player of {game.name}", game)
        return
    row.player_id = player.id
    gcfg = app.config.game(game.name)
    refusal = authenticate(player, mail, gcfg.auth if gcfg is not None else None, row.raw)
    if refusal is not None:
        row.status, row.note = refusal.status, refusal.problem
        _warn_player(s, app, row, game, player, mail, refusal.problem, refusal.unverified)
        return
    handle_orders(s, app, row, game, player, mail, run)


def _hold(s: Session, app: App, row: MailRow, status: str, why: str, game: Game | None = None) -> None:
    """Keep a mail nobody can place and tell the GM; the sender is not answered (it may be forged)."""
    row.status = status
    row.note = why
    log.info("mail %d held as %s: %s", row.id, status, why)
    notify_gm(s, app, f"held:{row.id}", f"mail {row.id} held ({status.replace('_', ' ')})",
              render(None, "gm_held.txt.j2", mail=row, why=why, game=game), game.id if game else None)


def route(s: Session, app: App, mail: ReadMail, run: IntakeRun) -> Routed | None:
    games = {g.name.lower(): g for g in run.games(s)}
    candidates: list[Game] = []
    if mail.header is not None and mail.header.game.lower() in games:
        candidates = [games[mail.header.game.lower()]]
    if not candidates:
        for addr in mail.to_addrs:
            local, _, domain = addr.partition("@")
            base, plus, tag = local.partition("+")
            if plus and tag.lower() in games:
                candidates = [games[tag.lower()]]
                break
    if not candidates:
        candidates = [games[t.lower()] for t in mail.subject_tags if t.lower() in games][:1]
    if not candidates:
        addressed = set(mail.to_addrs)
        for gcfg in app.config.games:
            if gcfg.name.lower() in games and (gcfg.address in addressed or addressed & set(gcfg.aliases)):
                candidates.append(games[gcfg.name.lower()])
    if not candidates:
        return None
    # Several games share the GM's address: the sender's registration tells which one is meant.
    for game in candidates:
        player = find_player(run.players(s, game), mail)
        if player is not None:
            return Routed(game, player)
    return Routed(candidates[0], None)


def find_player(players: PlayerIndex, mail: ReadMail) -> Player | None:
    if mail.header is not None and mail.header.player:
        return players.by_name.get(mail.header.player.lower())
    return players.by_email.get(mail.from_addr or "")


@dataclass(frozen=True)
class Refusal:
    status: str  # "bad_password" or "unverified"
    problem: str  # what is wrong, for the player's registered address (and the GM's mail list)
    unverified: str | None = None  # for the warning's advice: "password_helps" or "everyone"


def authenticate(player: Player, mail: ReadMail, auth: AuthCheck | None = None, raw: bytes = b""
                 ) -> Refusal | None:
    """None if the mail may speak for `player`; else why not. With the game's `auth` check, the
    receiving server's Authentication-Results must also show that the mail comes from its From address:
    for players without a password, or for everyone (`require_for`)."""
    given = mail.header.password if mail.header is not None else None
    if player.password:
        if given is None:
            return Refusal("bad_password",
                           "it carried no password (your game has one: put it on a '#GAME PLAYER PASSWORD' line)")
        if given != player.password:
            return Refusal("bad_password", "it carried a wrong password")
        if auth is None or auth.require_for != "everyone":
            return None  # the password is the stronger proof
    elif mail.from_addr != player.email:
        return Refusal("bad_password",
                       f"it came from {mail.from_addr}, not from your registered address, and your game has "
                       "no password that could prove it was you")
    if auth is None:
        return None
    verified, why = sender_verified(raw, mail.from_addr or "", auth.authserv_id)
    if verified:
        return None
    log.info("mail from %s not verified: %s", mail.from_addr, why)
    # The warning suggests a password where one would get the mail in (see bad_auth.txt.j2).
    return Refusal("unverified", f"it could not be verified as coming from {mail.from_addr} ({why})",
                   unverified="password_helps" if auth.require_for != "everyone" else "everyone")


def _warn_player(s: Session, app: App, row: MailRow, game: Game, player: Player, mail: ReadMail,
                 problem: str, unverified: str | None = None) -> None:
    body = render(game.ruleset, "bad_auth.txt.j2", game=game.name, player=player.name, sender=mail.from_addr,
                  subject=mail.subject, problem=problem, received=row.received_at,
                  unverified=unverified)
    queue_mail(s, app, key=f"badauth:{row.id}", kind="warning", to=[player.email], game_id=game.id,
               subject=f"[{game.name}] orders in your name were refused", body=body)


def game_timezone(app: App, game: Game) -> ZoneInfo:
    gcfg = app.config.game(game.name)
    if gcfg is not None and gcfg.schedule is not None:
        return gcfg.schedule.timezone
    return ZoneInfo("UTC")


def format_deadline(when: datetime | None, tz: ZoneInfo) -> str:
    if when is None:
        return "none set yet: the GM runs the turn"
    local = when.astimezone(tz)
    return f"{local:%A %d %B %Y, %H:%M} {local.tzname()} ({tz.key})"


def target_turn(turn: Turn | None, ruleset: Ruleset, game: Game, received: datetime
                ) -> tuple[Turn | None, str | None]:
    """The turn a mail received at `received` counts for, and a note if it came late."""
    if turn is None or game.finished:
        return None, "the game is over"
    if turn.deadline is None or received <= turn.deadline:
        return turn, None
    if ruleset.late_policy == "refuse":
        return None, f"it came after the deadline of turn {turn.number}"
    return turn, f"it came after the deadline of turn {turn.number}, so it counts for turn {turn.number + 1}"


def handle_orders(s: Session, app: App, row: MailRow, game: Game, player: Player, mail: ReadMail,
                  run: IntakeRun) -> None:
    ruleset = ruleset_named(game.ruleset)
    tz = game_timezone(app, game)
    turn, late = target_turn(run.turn(s, game, game.turn), ruleset, game, row.received_at)
    number = game.turn if turn is None else (turn.number + 1 if late else turn.number)
    parsed = ruleset.parse(mail.order_text) if mail.order_text.strip() else ParsedOrders()
    refused: str | None = None
    if turn is None:
        refused = late
    elif parsed.orders:
        state = run.state(s, game, game.turn)
        checks = ruleset.check(state, number, player.name, parsed.orders)
        bad_lines = {d.line for d in checks}
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
                  errors=parsed.diagnostics, refused=refused, late=late if turn is not None else None,
                  sender=mail.from_addr, registered=player.email, commands=mail.commands,
                  in_force=[p.order for p in in_force], problems=mail.problems, info=context,
                  help_text=render(game.ruleset, "help.txt.j2", game=game.name, turn=number, info=context)
                  if "HELP" in mail.commands else None,
                  nothing=not (parsed.orders or parsed.diagnostics or mail.commands))
    subject = mail.subject or ""
    subject = subject if subject.lower().startswith("re:") else f"Re: {subject}".rstrip()
    if f"[{game.name}]".lower() not in subject.lower():
        subject = f"{subject} [{game.name}]" if subject != "Re:" else f"[{game.name}] your orders"
    queue_mail(s, app, key=f"ack:{row.id}", kind="ack", to=[player.email], game_id=game.id, subject=subject,
               body=body, in_reply_to=mail.message_id, references=tuple(mail.references),
               auto_submitted=AUTO_REPLIED, fresh_key=True)


def problems_as_lines(diags: list[Diagnostic]) -> list[str]:
    return [f"line {d.line}: {d.text!r}: {d.message}" for d in diags]


def players_without_orders(s: Session, game: Game, turn: int) -> list[Player]:
    book = accepted_sets(s, game, turn)
    return [p for p in players_of(s, game) if p.name not in book]
