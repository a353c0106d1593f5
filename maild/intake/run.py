"""What one intake run keeps at hand: the mail row it works on, and the game data it reads again and again."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from maild.app import App
from maild.games import get_turn, players_of, ruleset_named, state_before
from maild.intake.books import Books
from maild.intake.read import ReadMail
from maild.models import Game, InboundMail, OrderSetRow, Player, Turn
from maild.passwords import Checker
from maild.phases import is_phased, state_after_phases
from maild.replylimits import Gate, prepare_answers
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
        self._contexts: dict[tuple[int, int, int], dict[str, Any]] = {}
        self.books = Books()
        # Set by the mail just processed: game, turn, player, order set, phase.
        self.pending: tuple[Game, int, Player, OrderSet, str | None] | None = None
        self.held: list[tuple[MailRow, Game | None]] = []  # mails kept for the GM, not yet reported
        self.gate = Gate()  # answers held back by the reply limits, not yet reported
        # `maild mail reprocess ID --turn N`: the turn the GM books the mail into (`intake.rereading`), and
        # the turn it was booked into once intake reached the booking (None: it did not: not a player's mail).
        self.book_turn: int | None = None
        self.booked_into: int | None = None
        self.passwords = Checker()  # the (hash, password) pairs found right in this run
        # Writes held back to the end of the transaction, to go as one executemany each (`flush`).
        self._order_sets: list[dict[str, Any]] = []
        self._saved: list[MailRow] = []

    def begin(self, s: Session) -> None:
        """Read the games afresh at the start of each intake transaction, holding them against change until
        it commits (FOR SHARE on PostgreSQL; SQLite's single writer does the same): a turn run by another
        process meanwhile must not leave an order booked for a turn already resolved."""
        self._games = list(s.scalars(select(Game).with_for_update(read=True)))
        self._turns.clear()
        self.books.begin()

    def prepare(self, s: Session, app: App, mails: list[ReadMail]) -> None:
        """Read what a batch's mails will ask for, a query for them all rather than one a mail: the books of
        their senders, players of the games, for the open turn (a game of phases reads its own as it goes),
        and the reply limits' counts of the addresses they will be answered at. What this does not foresee
        (a header line naming another player, a late mail) is read when asked for."""
        senders = sorted({m.from_addr for m in mails if m.from_addr})
        if not senders:
            return
        games = {g.id: g for g in self.games(s) if not g.finished}
        by_game: dict[int, list[Player]] = {}
        for player in s.scalars(select(Player).where(Player.email.in_(senders))):
            if player.game_id in games:
                by_game.setdefault(player.game_id, []).append(player)
        self.flush(s)
        for game_id, players in sorted(by_game.items()):
            game = games[game_id]
            ruleset = ruleset_named(game.ruleset)
            if not is_phased(ruleset):
                self.books.load(s, ruleset, game, game.turn, players)
        registered = [p.email for players in by_game.values() for p in players]
        prepare_answers(s, [*senders, *registered], app.now())

    def games(self, s: Session) -> list[Game]:
        if self._games is None:
            self.begin(s)
        assert self._games is not None
        return self._games

    def players(self, s: Session, game: Game) -> PlayerIndex:
        if game.id not in self._players:
            self._players[game.id] = PlayerIndex(players_of(s, game))
        return self._players[game.id]

    def forget_players(self, game: Game) -> None:
        """Drop the cached players of a game whose addresses changed (a substitute's TAKEOVER)."""
        self._players.pop(game.id, None)

    def turn(self, s: Session, game: Game, number: int) -> Turn | None:
        key = (game.id, number)
        if key not in self._turns:
            self._turns[key] = get_turn(s, game, number)
        return self._turns[key]

    def on_file(self, s: Session, game: Game, turn: int, player: Player, phase: str | None = None
                ) -> list[OrderSet]:
        """The sets that stand for the player's accepted ones (`Books.on_file`, a copy: `accepted` adds the new
        one once it is stored); in a game of several phases, those of `phase`."""
        if not self.books.ready((game.id, turn, player.id, phase)):
            self.flush(s)  # the book is read: it must see the sets booked earlier in this transaction
        return self.books.on_file(s, ruleset_named(game.ruleset), game, turn, player, phase)

    def forget(self, game: Game, turn: int, player: Player) -> None:
        """Drop the cached books of a player whose sets changed status (a CANCEL)."""
        self.books.forget(game, turn, player)

    def accepted(self, game: Game, turn: int, player: Player, order_set: OrderSet, phase: str | None = None
                 ) -> None:
        self.books.accepted(ruleset_named(game.ruleset), (game.id, turn, player.id, phase), order_set)

    def book(self, order_set: dict[str, Any]) -> None:
        """An `order_sets` row to insert with the others of this transaction."""
        self._order_sets.append(order_set)

    def save(self, row: MailRow) -> None:
        """A processed mail, its status to be written with the others of this transaction."""
        self._saved.append(row)

    def flush(self, s: Session) -> None:
        """Write what is held back: before the commit, and before anything reads those rows back."""
        if self._order_sets:
            ids = dict(s.execute(_BOOK, self._order_sets).all())
            for row in self._order_sets:
                if row["status"] == "accepted":
                    self.books.booked((row["game_id"], row["turn"], row["player_id"], row["phase"]),
                                      ids[row["mail_id"]])
            self._order_sets = []
        if self._saved:
            s.execute(_SAVE, [dict(mid=r.id, status=r.status, note=r.note, sender=r.sender, subject=r.subject,
                                   game_id=r.game_id, player_id=r.player_id) for r in self._saved])
            self._saved = []

    def state(self, s: Session, game: Game, turn: int) -> dict[str, Any]:
        """The game's state as orders of `turn` are checked against it: the snapshot before the turn, or in a
        turn of phases, the state after its last resolved phase."""
        key = (game.id, turn)
        if key not in self._states:
            phased = state_after_phases(s, game.id, turn)
            self._states[key] = phased if phased is not None else state_before(s, game, turn)
        return self._states[key]

    def context(self, s: Session, game: Game, state_turn: int, turn: int) -> dict[str, Any]:
        """`Ruleset.template_context` of the state orders of `turn` are checked against (`state`): the same for
        every ack of a turn, so worked out once a run."""
        key = (game.id, state_turn, turn)
        if key not in self._contexts:
            self._contexts[key] = ruleset_named(game.ruleset).template_context(self.state(s, game, state_turn), turn)
        return self._contexts[key]


_INBOUND = InboundMail.__table__
_ORDER_SETS = OrderSetRow.__table__
# The rows' ids come back, known by their mails (a mail has one set): a book's print moves with each
# (`Books.booked`). Asking them in the order given would cost SQLite a statement a row.
_BOOK = insert(_ORDER_SETS).returning(_ORDER_SETS.c.mail_id, _ORDER_SETS.c.id)
# The bindparam names differ from the columns': SQLAlchemy reserves those for the SET values.
_SAVE = update(_INBOUND).where(_INBOUND.c.id == bindparam("mid")).values(
    status=bindparam("status"), note=bindparam("note"), sender=bindparam("sender"),
    subject=bindparam("subject"), game_id=bindparam("game_id"), player_id=bindparam("player_id"))
# The batch's mails still new, claimed: locked in id order until the transaction ends (FOR UPDATE on
# PostgreSQL; SQLite has one writer anyway), so two intakes at once (the daemon's and a GM's command) take
# turns on a mail and cannot deadlock: the second waits for the first to commit, then finds the mail no
# longer new (PostgreSQL checks the condition again after the wait) and leaves it.
_HEADS = (select(_INBOUND.c.id, _INBOUND.c.size, _INBOUND.c.received_at)
          .where(_INBOUND.c.id.in_(bindparam("ids", expanding=True)), _INBOUND.c.status == "new")
          .order_by(_INBOUND.c.id).with_for_update())
_RAWS = select(_INBOUND.c.id, _INBOUND.c.raw).where(_INBOUND.c.id.in_(bindparam("ids", expanding=True)))
_RAW = select(_INBOUND.c.raw).where(_INBOUND.c.id == bindparam("mid"))

# Mails up to this size are read a batch at a time; bigger ones one by one, so that a batch of big mails
# never sits in memory at once.
BULK_RAW_BYTES = 256 * 1024


@dataclass
class MailRow:
    """An inbound mail as intake works on it; its changes are written back with one executemany UPDATE a
    transaction (`IntakeRun.save`), cheaper than the ORM's flush at hundreds of mails a second."""

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
    alone: bool = False  # its bytes are read when it is worked on, not with the batch's (`with_raw`)

    def read_from(self, mail: ReadMail) -> None:
        """Note who the mail is from and its subject, cut to their columns (PostgreSQL refuses longer: the
        sender column holds 320 characters, RFC 5321's longest address and more)."""
        self.sender = mail.from_addr[:320] if mail.from_addr else None
        self.subject = mail.subject[:500] if mail.subject else None


def claim(s: Session, ids: list[int], max_bytes: int) -> list[MailRow]:
    """The mails of `ids` still new, claimed (see _HEADS), in receipt order. Two queries for the batch: the
    bytes of a mail over BULK_RAW_BYTES are left out (`with_raw` reads them alone, as it comes to them), and an
    oversized one's row holds only its header block, for the refusal."""
    heads = s.execute(_HEADS, {"ids": ids}).all()
    small = [h.id for h in heads if h.size <= min(BULK_RAW_BYTES, max_bytes)]
    raws = {r.id: r.raw for r in s.execute(_RAWS, {"ids": small})} if small else {}
    return [MailRow(h.id, raws.get(h.id) or b"", h.size, h.received_at, alone=h.id not in raws) for h in heads]


def with_raw(s: Session, rows: list[MailRow]) -> Iterator[MailRow]:
    """Each of `rows` with its raw bytes while it is worked on: a big mail's read then, alone, and every mail's
    let go after, so that a batch of big mails never sits in memory at once."""
    for row in rows:
        if row.alone:
            row.raw = s.execute(_RAW, {"mid": row.id}).scalar_one() or b""
        yield row
        row.raw = b""  # done with: the row lives on for the GM's notice, its bytes need not


def iter_new(s: Session, ids: list[int], max_bytes: int) -> Iterator[MailRow]:
    """`claim`, then `with_raw`: the mails of `ids` still new, claimed, each with its raw bytes while it is worked
    on."""
    return with_raw(s, claim(s, ids, max_bytes))
