"""Substitutes: a volunteer's standby, a position handed to a new player, a player's new address.

- `STANDBY GAME` by mail puts the sender on the game's standby list (a `substitutes` row, status standby).
- A position is *open to a substitute* while `players.open_to_substitute_at` is set: by the GM
  (`maild player open GAME PLAYER`), or by whatever puts a position in civil disorder (the missed-orders ladder
  sets the same column). A volunteer of the standby list then takes it with `TAKEOVER GAME PLAYER` by mail.
- `maild player replace GAME PLAYER ADDRESS` hands a position over at once, open or not.

A handover (`hand_over`) moves the player row to the new address (the position's name, state and orders on
file stay: the substitute plays on from where the position stands), gives it a new password where it had one
(the old player knows the old), moves the open deadline on by `[games.substitutes] extension` for everyone,
and mails: the new player his handover (the last printout, the orders on file, the rules summary of HELP and
his password line), the old address that its position was handed on, and every other player that the deadline
moved; the next newsletter has a line. Players are told names, never addresses; the GM's notice has both.
Every mail goes through the reply limits (`maild.replylimits.give`).
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.calendar import calendar_file
from maild.deadlines import format_deadline, format_deadline_for, game_timezone
from maild.errors import GameError
from maild.extensions import lengthen
from maild.games import open_turn, players_of, ruleset_named, state_before
from maild.ladder import taken_over
from maild.models import Game, Player, Substitute
from maild.orderbook import accepted_sets
from maild.outbox import notify_gm
from maild.passwords import stored
from maild.phases import open_row
from maild.render import render
from maild.replylimits import Answer, Gate, give, held_back_lines
from maild.ruleset import Attachment
from maild.services import FORMER_ADDRESS, last_printout, text_and_files
from maild.welcome import password_note

if TYPE_CHECKING:
    from maild.app import App

log = logging.getLogger("maild.substitutes")

STANDBY = "standby"
TOOK_OVER = "took_over"


@dataclass(frozen=True)
class Handover:
    player: str
    previous: str  # the address he replaced (for the GM)
    address: str
    password: str | None  # the new password in words, for his handover mail; None for a position without one
    deadline: str  # the open deadline after the extension, as players are told it
    held_back: list[str]  # mails the reply limits held back, one line each


def can_substitute(game: Game) -> None:
    """Refuse a handover in a game that takes none."""
    if game.finished:
        raise GameError(f"{game.name} is over")
    if not ruleset_named(game.ruleset).takes_substitutes:
        raise GameError(f"{game.name}: the rules of {game.ruleset} take no substitutes")


def player_named(s: Session, game: Game, name: str) -> Player:
    player = s.scalar(select(Player).where(Player.game_id == game.id, Player.name == name))
    if player is None:
        player = next((p for p in players_of(s, game) if p.name.lower() == name.lower()), None)
    if player is None:
        raise GameError(f"{game.name} has no player {name!r}")
    return player


def address_taken(s: Session, game: Game, address: str) -> Player | None:
    return s.scalar(select(Player).where(Player.game_id == game.id, Player.email == address.lower()))


def open_position(s: Session, app: App, game: Game, player: Player) -> bool:
    """Open `player`'s position to a substitute (the GM's `maild player open`); False if it was open."""
    can_substitute(game)
    if player.open_to_substitute_at is not None:
        return False
    player.open_to_substitute_at = app.now()
    return True


def standby_list(s: Session, game: Game) -> list[Substitute]:
    return list(s.scalars(select(Substitute).where(Substitute.game_id == game.id, Substitute.status == STANDBY)
                          .order_by(Substitute.id)))


def on_standby(s: Session, game: Game, address: str) -> Substitute | None:
    return s.scalar(select(Substitute).where(Substitute.game_id == game.id, Substitute.status == STANDBY,
                                             Substitute.email == address.lower()))


def add_standby(s: Session, app: App, game: Game, address: str) -> bool:
    """Put `address` on the game's standby list; False if it was on it."""
    if on_standby(s, game, address) is not None:
        return False
    s.add(Substitute(game_id=game.id, email=address.lower(), status=STANDBY, created_at=app.now()))
    s.flush()
    return True


def new_password() -> str:
    """A password for a substitute: two short words' worth of letters and digits, easy to copy."""
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


def extend_open_deadline(s: Session, game: Game, by: timedelta) -> datetime | None:
    """Move the open turn's (and its open phase's) deadline on by `by`, as the GM's `maild game extend` does
    (`maild.extensions.lengthen`: kept across restarts); the new deadline, or None for a turn without one."""
    turn = open_turn(s, game)
    if turn is None or turn.deadline is None or by <= timedelta(0):
        return None
    lengthen(s, game, turn, by)
    return turn.deadline


def _deadline_text(s: Session, app: App, game: Game) -> str:
    turn = open_turn(s, game)
    return format_deadline(turn.deadline if turn is not None else None, game_timezone(app.config, game.name))


def hand_over(s: Session, app: App, gate: Gate, game: Game, player: Player, address: str,
              volunteer: Substitute | None = None) -> Handover:
    """Hand `player`'s position to `address` (see the module docstring). `volunteer`: the standby row of a
    TAKEOVER, marked taken; without one (the GM's replace) a row records the handover all the same."""
    can_substitute(game)
    address = address.strip().lower()
    if "@" not in address:
        raise GameError(f"{address!r} is no mail address")
    other = address_taken(s, game, address)
    if other is not None:
        raise GameError(f"{address} is already {other.name}'s address in {game.name}")
    previous = player.email
    now = app.now()
    password = new_password() if player.password else None
    player.email = address
    if password is not None:
        player.password = stored(password)
    player.open_to_substitute_at = None
    taken_over(s, game, player.name)  # he starts on the missed-orders ladder afresh
    row = volunteer or Substitute(game_id=game.id, email=address, status=STANDBY, created_at=now)
    row.status, row.player, row.previous_email, row.turn, row.took_over_at = TOOK_OVER, player.name, previous, \
        game.turn, now
    if volunteer is None:
        s.add(row)
    for other_offer in standby_list(s, game):  # his other offers for this game are spent
        if other_offer.email == address and other_offer is not row:
            s.delete(other_offer)
    gcfg = app.config.game(game.name)
    extension = gcfg.substitute_extension if gcfg is not None else timedelta(days=2)
    moved = extend_open_deadline(s, game, extension) is not None
    s.flush()
    deadline = _deadline_text(s, app, game)
    key = f"handover:{game.name}:{player.name}:{now.isoformat()}"
    if moved:  # a deadline change as any other: the calendar updates its events in place (a higher SEQUENCE)
        game.calendar_sequence += 1
    calendar = calendar_file(s, app, game)  # the new player's, as a welcome's; the others' when it moved
    tell = _Teller(s, app, gate, game)
    tell(address, f"{key}:new", f"[{game.name}] you take over {player.name}",
         handover_text(s, app, game, player, previous, password, deadline, moved),
         (calendar,) if calendar is not None else ())
    tell(previous, f"{key}:old", f"[{game.name}] your position {player.name} is handed on",
         render(None, "substitute_old.txt.j2", game=game.name, player=player.name))
    tz = game_timezone(app.config, game.name)
    open_now = open_turn(s, game)
    for p in players_of(s, game):
        if p.id != player.id:
            own = format_deadline_for(open_now.deadline if open_now else None, tz, p.timezone)
            tell(p.email, f"{key}:all:{p.name}", f"[{game.name}] {player.name} has a new player; deadline moved",
                 render(None, "substitute_announce.txt.j2", game=game.name, player=player.name,
                        reader=p.name, deadline=own, extension=_span(extension) if moved else None),
                 (calendar,) if calendar is not None and moved else ())
    notify_gm(s, app, f"{key}:gm", f"{game.name}: {player.name} handed over",
              f"{player.name} of {game.name} is now played from {address} (was {previous}), from turn {game.turn}.\n"
              f"The open deadline: {deadline}" + (f" (moved on by {_span(extension)})" if moved else "") + ".\n",
              game.id)
    log.info("%s: %s handed over from %s to %s", game.name, player.name, previous, address)
    return Handover(player.name, previous, address, password, deadline, held_back_lines(gate))


def change_address(s: Session, app: App, gate: Gate, game: Game, player: Player, address: str) -> str:
    """The GM's `maild player address`: the same player at a new address, told at both. Returns the old."""
    address = address.strip().lower()
    if "@" not in address:
        raise GameError(f"{address!r} is no mail address")
    other = address_taken(s, game, address)
    if other is not None:
        raise GameError(f"{address} is already {other.name}'s address in {game.name}")
    previous = player.email
    player.email = address
    s.flush()
    key = f"address:{game.name}:{player.name}:{app.now().isoformat()}"
    tell = _Teller(s, app, gate, game)
    for to, end in ((previous, "old"), (address, "new")):
        tell(to, f"{key}:{end}", f"[{game.name}] your address for {player.name} changed",
             render(None, "address_changed.txt.j2", game=game.name, player=player.name, old=previous, new=address))
    log.info("%s: %s's address changed from %s to %s", game.name, player.name, previous, address)
    return previous


def handover_text(s: Session, app: App, game: Game, player: Player, previous: str, password: str | None,
                  deadline: str, moved: bool) -> str:
    """The new player's handover: his password line, the orders on file, the last printout (the old
    address taken out of it), and the rules summary of HELP."""
    from maild.intake.pipeline import help_text  # intake's HELP; intake answers TAKEOVER from here (a cycle)

    ruleset = ruleset_named(game.ruleset)
    phase = open_row(s, game.id, game.turn)
    book = accepted_sets(s, game, game.turn, player, phase.name if phase is not None else None)
    on_file = [p.order.summary for p in ruleset.effective(book.get(player.name, []))]
    last = last_printout(s, game, player.name)
    printout = text_and_files(last)[0].replace(previous, FORMER_ADDRESS) if last is not None else None
    state = state_before(s, game, game.turn) if not game.finished else {}
    context = ruleset.template_context(state, game.turn) if state else {}
    rules = help_text(game, ruleset, game.turn, context, frozenset({"HELP"}), player.name, state=state)
    note = password_note(game, player, {player.email: password} if password else None)
    return render(None, "substitute_new.txt.j2", game=game.name, player=player.name, turn=game.turn,
                  deadline=deadline, password_note=note, on_file=on_file, printout=printout, rules=rules,
                  moved=moved)


def newsletter_lines(s: Session, game: Game, turn: int) -> list[str]:
    """The next newsletter's lines about positions handed over during `turn` (names only)."""
    names = s.scalars(select(Substitute.player).where(Substitute.game_id == game.id, Substitute.status == TOOK_OVER,
                                                      Substitute.turn == turn).order_by(Substitute.id))
    return [f"{name}'s position has a new player (a substitute took it over during turn {turn})." for name in names]


class _Teller:
    """Mails of a handover or an address change, each through the reply limits."""

    def __init__(self, s: Session, app: App, gate: Gate, game: Game) -> None:
        self.s, self.app, self.gate, self.game = s, app, gate, game

    def __call__(self, to: str, key: str, subject: str, body: str, attachments: tuple[Attachment, ...] = ()) -> None:
        give(self.s, self.app, Answer(kind="notice", key=key[:300], outbox_kind="notice", to=to, subject=subject,
                                      body=body, game_id=self.game.id, mail_id=None, attachments=attachments),
             self.gate)


def _span(delta: timedelta) -> str:
    hours = int(delta.total_seconds() // 3600)
    if hours and hours % 24 == 0:
        return f"{hours // 24} day{'s' if hours != 24 else ''}"
    return f"{hours} hour{'s' if hours != 1 else ''}" if hours else f"{int(delta.total_seconds() // 60)} minutes"
