"""What one intake run keeps at hand: the mail row it works on, and the game data it reads again and again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from maild.games import get_turn, players_of, state_before
from maild.models import Game, InboundMail, Player, Turn
from maild.orderbook import accepted_sets
from maild.ruleset import OrderSet


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
        self.held: list[tuple[MailRow, Game | None]] = []  # mails kept for the GM, not yet reported

    def begin(self, s: Session) -> None:
        """Read the games afresh at the start of each intake transaction, holding them against change until
        it commits (FOR SHARE on PostgreSQL; SQLite's single writer does the same): a turn run by another
        process meanwhile must not leave an order booked for a turn already resolved."""
        self._games = list(s.scalars(select(Game).with_for_update(read=True)))
        self._turns.clear()
        # Another process's intake may have booked orders since the last transaction.
        self._books.clear()

    def games(self, s: Session) -> list[Game]:
        if self._games is None:
            self.begin(s)
        assert self._games is not None
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

    def forget(self, game: Game, turn: int, player: Player) -> None:
        """Drop the cached book of a player whose sets changed status (a CANCEL)."""
        self._books.pop((game.id, turn, player.id), None)

    def accepted(self, game: Game, turn: int, player: Player, order_set: OrderSet) -> None:
        self._books.setdefault((game.id, turn, player.id), []).append(order_set)

    def state(self, s: Session, game: Game, turn: int) -> dict[str, Any]:
        key = (game.id, turn)
        if key not in self._states:
            self._states[key] = state_before(s, game, turn)
        return self._states[key]


_INBOUND = InboundMail.__table__
_SAVE = update(_INBOUND).where(_INBOUND.c.id == bindparam("mid")).values(
    status=bindparam("status"), note=bindparam("note"), sender=bindparam("sender"),
    subject=bindparam("subject"), game_id=bindparam("game_id"), player_id=bindparam("player_id"))
_LOAD = select(_INBOUND.c.raw, _INBOUND.c.size, _INBOUND.c.received_at).where(
    _INBOUND.c.id == bindparam("mid"), _INBOUND.c.status == "new")
# Locked in id order, so two intakes claiming overlapping batches cannot deadlock.
_CLAIM = select(_INBOUND.c.id).where(_INBOUND.c.id.in_(bindparam("ids", expanding=True)),
                                     _INBOUND.c.status == "new").order_by(_INBOUND.c.id).with_for_update()


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


def claim(s: Session, ids: list[int]) -> list[int]:
    """Of the mails `ids`, those still new, locked until the transaction ends (FOR UPDATE on PostgreSQL; SQLite
    has one writer anyway), in receipt order. Two intakes at once (the daemon's and a GM's command) so take
    turns on a mail: the second waits for the first to commit, then finds the mail no longer new (PostgreSQL
    checks the condition again after the wait) and leaves it."""
    return list(s.scalars(_CLAIM, {"ids": ids}))


def load_new(s: Session, mail_id: int) -> MailRow | None:
    found = s.execute(_LOAD, {"mid": mail_id}).first()
    return MailRow(mail_id, found.raw, found.size, found.received_at) if found else None
