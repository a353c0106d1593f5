"""What intake keeps of the order book during a run: each player's orders in force for a turn, a running
result kept up mail by mail (`Ruleset.in_force_sets`), not every set he sent; and how it tells, at the start of
each transaction, that another process changed a book meanwhile (its `Print`).

A book is read once a run, for all the players of a batch in one query; after that a batch costs one query
for all its players' prints, however long their books, and a mail's work on its book does not grow with the
mails before it.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from maild.models import Game, Player
from maild.orderbook import Print, accepted_books, book_prints
from maild.ruleset import OrderSet, Ruleset

# Game, turn, player and phase (None in a one-phase game).
Key = tuple[int, int, int, str | None]


class Books:
    """The books a run has read, as the sets that stand for them, each with the print it had when read."""

    def __init__(self) -> None:
        self._sets: dict[Key, list[OrderSet]] = {}
        self._prints: dict[Key, Print] = {}
        self._stale: set[Key] = set()  # read in an earlier transaction: checked before use

    def begin(self) -> None:
        """A new transaction: another process's intake may have booked (or a CANCEL withdrawn) sets since."""
        self._stale.update(self._sets)

    def ready(self, key: Key) -> bool:
        """Whether the book is at hand and known current (`on_file` reads nothing for it)."""
        return key in self._sets and key not in self._stale

    def load(self, s: Session, ruleset: Ruleset, game: Game, turn: int, players: list[Player],
             phase: str | None = None) -> None:
        """Have the books of `players` at hand and current: one query for the prints of those read in an
        earlier transaction (a book whose print moved is read again), one to read those missing."""
        keys = {p.id: (game.id, turn, p.id, phase) for p in players}
        stale = sorted(pid for pid, key in keys.items() if key in self._stale)
        if stale:
            prints = book_prints(s, game, turn, stale, phase)
            for pid in stale:
                key = keys[pid]
                self._stale.discard(key)
                if prints[pid] != self._prints.get(key):
                    self._drop(key)
        missing = {p.id: p.name for p in players if keys[p.id] not in self._sets}
        if missing:
            for pid, (sets, print_) in accepted_books(s, game, turn, missing, phase).items():
                self._sets[keys[pid]] = ruleset.in_force_sets(sets)
                self._prints[keys[pid]] = print_

    def on_file(self, s: Session, ruleset: Ruleset, game: Game, turn: int, player: Player,
                phase: str | None = None) -> list[OrderSet]:
        """The sets that stand for the player's accepted ones (a copy: `accepted` adds the new one)."""
        self.load(s, ruleset, game, turn, [player], phase)
        return list(self._sets[(game.id, turn, player.id, phase)])

    def accepted(self, ruleset: Ruleset, key: Key, order_set: OrderSet) -> None:
        """A set accepted in this transaction, to be written with the others (`booked` once it is)."""
        self._sets[key] = ruleset.in_force_sets([*self._sets.get(key, []), order_set])

    def booked(self, key: Key, row_id: int) -> None:
        """An accepted set's row written, as row `row_id`: the book's print moves with it."""
        if key in self._prints:
            count, top, total = self._prints[key]
            self._prints[key] = (count + 1, max(top, row_id), total + row_id)

    def forget(self, game: Game, turn: int, player: Player) -> None:
        """Drop the books of a player whose sets changed status (a CANCEL)."""
        for key in [k for k in self._sets if k[:3] == (game.id, turn, player.id)]:
            self._drop(key)

    def _drop(self, key: Key) -> None:
        self._sets.pop(key, None)
        self._prints.pop(key, None)
        self._stale.discard(key)
