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
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.crashpoints import crashpoint
from maild.games import get_turn, players_of, ruleset_named, state_before
from maild.intake.read import ReadMail, read_mail
from maild.models import Game, InboundMail, OrderSetRow, Player, Turn
from maild.orderbook import accepted_sets, orders_in_force
from maild.outbox import AUTO_REPLIED, notify_gm, queue_mail
from maild.render import render
from maild.ruleset import Diagnostic, OrderSet, ParsedOrders, Ruleset

log = logging.getLogger("maild.intake")

@dataclass
class Routed:
    game: Game
    player: Player | None


def process_new(app: App) -> dict[str, int]:
    """Process every stored mail not yet processed, in receipt order. One transaction per mail."""
    with app.db.session() as s:
        ids = list(s.scalars(select(InboundMail.id).where(InboundMail.status == "new").order_by(InboundMail.id)))
    counts: dict[str, int] = {}
    for mail_id in ids:
        try:
            with app.db.session() as s:
                row = s.get(InboundMail, mail_id)
                assert row is not None
                if row.status != "new":
                    continue
                process_mail(s, app, row)
                status = row.status
                crashpoint("intake.before_commit")
            crashpoint("intake.committed")
        except Exception:  # a bug must not lose the mail nor stop the daemon: keep it, tell the GM
            log.exception("intake failed for mail %d", mail_id)
            status = "error"
            with app.db.session() as s:
                row = s.get(InboundMail, mail_id)
                assert row is not None
                row.status = "error"
                row.note = traceback.format_exc(limit=5)
                notify_gm(s, app, f"error:{mail_id}", f"mail {mail_id} could not be processed",
                          f"maild failed while reading mail {mail_id} (from {row.sender or 'unknown'}).\n"
                          f"It is kept in the database; `maild mail list` shows it.\n\n{row.note}")
        counts[status] = counts.get(status, 0) + 1
    return counts


def process_mail(s: Session, app: App, row: InboundMail) -> None:
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
    routed = route(s, app, mail)
    if routed is None:
        _hold(s, app, row, "unroutable", "no game matches its address, subject tag or #GAME header line")
        return
    game, player = routed.game, routed.player
    row.game_id = game.id
    if player is None:
        _hold(s, app, row, "unknown_sender", f"{mail.from_addr} is not a player of {game.name}", game)
        return
    row.player_id = player.id
    problem = authenticate(player, mail)
    if problem is not None:
        row.status = "bad_password"
        row.note = problem
        _warn_player(s, app, row, game, player, mail, problem)
        return
    handle_orders(s, app, row, game, player, mail)


def _hold(s: Session, app: App, row: InboundMail, status: str, why: str, game: Game | None = None) -> None:
    """Keep a mail nobody can place and tell the GM; the sender is not answered (it may be forged)."""
    row.status = status
    row.note = why
    log.info("mail %d held as %s: %s", row.id, status, why)
    notify_gm(s, app, f"held:{row.id}", f"mail {row.id} held ({status.replace('_', ' ')})",
              render(None, "gm_held.txt.j2", mail=row, why=why, game=game), game.id if game else None)


def route(s: Session, app: App, mail: ReadMail) -> Routed | None:
    games = {g.name.lower(): g for g in s.scalars(select(Game))}
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
        player = find_player(s, game, mail)
        if player is not None:
            return Routed(game, player)
    return Routed(candidates[0], None)


def find_player(s: Session, game: Game, mail: ReadMail) -> Player | None:
    if mail.header is not None and mail.header.player:
        return s.scalar(select(Player).where(Player.game_id == game.id,
                                             Player.name == mail.header.player.lower()))\
            or s.scalar(select(Player).where(Player.game_id == game.id, Player.name == mail.header.player))
    return s.scalar(select(Player).where(Player.game_id == game.id, Player.email == mail.from_addr))


def authenticate(player: Player, mail: ReadMail) -> str | None:
    """None if the mail may speak for `player`; else what is wrong, for the player's registered address."""
    given = mail.header.password if mail.header is not None else None
    if player.password:
        if given is None:
            return "it carried no password (your game has one: put it on a '#GAME PLAYER PASSWORD' line)"
        if given != player.password:
            return "it carried a wrong password"
        return None
    if mail.from_addr != player.email:
        return (f"it came from {mail.from_addr}, not from your registered address, and your game has no "
                "password that could prove it was you")
    return None


def _warn_player(s: Session, app: App, row: InboundMail, game: Game, player: Player, mail: ReadMail,
                 problem: str) -> None:
    body = render(game.ruleset, "bad_auth.txt.j2", game=game.name, player=player.name, sender=mail.from_addr,
                  subject=mail.subject, problem=problem, received=row.received_at)
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


def target_turn(s: Session, ruleset: Ruleset, game: Game, received: datetime) -> tuple[Turn | None, str | None]:
    """The turn a mail received at `received` counts for, and a note if it came late."""
    turn = get_turn(s, game, game.turn)
    if turn is None or game.finished:
        return None, "the game is over"
    if turn.deadline is None or received <= turn.deadline:
        return turn, None
    if ruleset.late_policy == "refuse":
        return None, f"it came after the deadline of turn {turn.number}"
    return turn, f"it came after the deadline of turn {turn.number}, so it counts for turn {turn.number + 1}"


def handle_orders(s: Session, app: App, row: InboundMail, game: Game, player: Player, mail: ReadMail) -> None:
    ruleset = ruleset_named(game.ruleset)
    tz = game_timezone(app, game)
    turn, late = target_turn(s, ruleset, game, row.received_at)
    number = game.turn if turn is None else (turn.number + 1 if late else turn.number)
    parsed = ruleset.parse(mail.order_text) if mail.order_text.strip() else ParsedOrders()
    refused: str | None = None
    if turn is None:
        refused = late
    elif parsed.orders:
        state = state_before(s, game, game.turn)
        checks = ruleset.check(state, number, player.name, parsed.orders)
        bad_lines = {d.line for d in checks}
        parsed = ParsedOrders(orders=[o for o in parsed.orders if o.line not in bad_lines],
                              diagnostics=sorted([*parsed.diagnostics, *checks], key=lambda d: d.line))
    if turn is not None and parsed.orders:
        on_file = accepted_sets(s, game, number, player).get(player.name, [])
        new = OrderSet(player=player.name, seq=row.id, orders=parsed.orders)
        refused = ruleset.accept(on_file, new)
        s.add(OrderSetRow(game_id=game.id, player_id=player.id, turn=number, mail_id=row.id, seq=row.id,
                          orders=[o.to_json() for o in parsed.orders],
                          diagnostics=[d.to_json() for d in parsed.diagnostics],
                          status="refused" if refused else "accepted", reason=refused))
        s.flush()
    row.status = "orders" if parsed.orders or parsed.diagnostics else ("command" if mail.commands else "empty")
    deadline_turn = get_turn(s, game, number)
    deadline = deadline_turn.deadline if deadline_turn is not None else None
    in_force = []
    if "STATUS" in mail.commands or parsed.orders:
        book = accepted_sets(s, game, number, player)
        in_force = orders_in_force(ruleset, book, [player.name])[player.name]
    state = state_before(s, game, game.turn)
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
               auto_submitted=AUTO_REPLIED)


def problems_as_lines(diags: list[Diagnostic]) -> list[str]:
    return [f"line {d.line}: {d.text!r}: {d.message}" for d in diags]


def players_without_orders(s: Session, game: Game, turn: int) -> list[Player]:
    book = accepted_sets(s, game, turn)
    return [p for p in players_of(s, game) if p.name not in book]
