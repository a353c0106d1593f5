"""What intake keeps of the order book during a run: each player's orders in force for a turn, a running
result kept up mail by mail (`Ruleset.in_force_sets`), not every set he sent; stored as such in
`orders_in_force` (maild/inforce.py) with each transaction's order sets, so that no pass reads a whole book.

A player's result is read once a run, for all the players of a batch in one query, from the stored result
(a book is read only where that is missing or was emptied: then it is rebuilt and stored); after that a batch
costs one query for all its players' versions, a key look-up each, to tell that another process changed a
result meanwhile. A mail's work on its book does not grow with the mails before it, in this run or stored.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from maild import inforce
from maild.models import Game, Player
from maild.orderbook import accepted_books
from maild.ruleset import OrderSet, Ruleset

# Game, turn, player and phase (None in a one-phase game).
Key = tuple[int, int, int, str | None]


class Books:
    """The results a run has read, each with the version it had when read (None: not stored yet)."""

    def __init__(self) -> None:
        self._sets: dict[Key, list[OrderSet]] = {}
        self._versions: dict[Key, int | None] = {}
        self._stale: set[Key] = set()  # read in an earlier transaction: checked before use
        self._dirty: set[Key] = set()  # changed in this transaction, not stored yet (`store`)

    def begin(self) -> None:
        """A new transaction: another process's intake may have booked (or a GM emptied a result) since. What
        was changed and not stored belonged to a transaction rolled back."""
        for key in list(self._dirty):
            self._drop(key)
        self._stale.update(self._sets)

    def ready(self, key: Key) -> bool:
        """Whether the result is at hand and known current (`on_file` reads nothing for it)."""
        return key in self._sets and key not in self._stale

    def load(self, s: Session, ruleset: Ruleset, game: Game, turn: int, players: list[Player],
             phase: str | None = None) -> None:
        """Have the results of `players` at hand and current: one query for the versions of those read in an
        earlier transaction (a result whose version moved is read again), one to read those missing, and only
        where the stored result is missing or emptied, one for their books (stored at the next `store`)."""
        keys = {p.id: (game.id, turn, p.id, phase) for p in players}
        stale = [pid for pid, key in keys.items() if key in self._stale]
        if stale:
            now = inforce.versions(s, game.id, turn, stale, phase)
            for pid in stale:
                key = keys[pid]
                self._stale.discard(key)
                if now.get(pid) != self._versions.get(key):
                    self._drop(key)
        missing = {p.id: p.name for p in players if keys[p.id] not in self._sets}
        if not missing:
            return
        rebuild: dict[int, str] = {}
        for pid, (sets, version) in inforce.stored(s, game.id, turn, missing, phase).items():
            self._versions[keys[pid]] = version
            if sets is None:
                rebuild[pid] = missing[pid]
            else:
                self._sets[keys[pid]] = sets
        rebuild.update({pid: name for pid, name in missing.items() if keys[pid] not in self._versions})
        if rebuild:
            for pid, (sets, _print) in accepted_books(s, game, turn, rebuild, phase).items():
                key = keys[pid]
                self._sets[key] = ruleset.in_force_sets(sets)
                self._versions.setdefault(key, None)
                self._dirty.add(key)

    def on_file(self, s: Session, ruleset: Ruleset, game: Game, turn: int, player: Player,
                phase: str | None = None) -> list[OrderSet]:
        """The sets that stand for the player's accepted ones (a copy: `accepted` adds the new one)."""
        self.load(s, ruleset, game, turn, [player], phase)
        return list(self._sets[(game.id, turn, player.id, phase)])

    def accepted(self, ruleset: Ruleset, key: Key, order_set: OrderSet) -> None:
        """A set accepted in this transaction, to be stored with the others (`store`)."""
        self._sets[key] = ruleset.in_force_sets([*self._sets.get(key, []), order_set])
        self._versions.setdefault(key, None)
        self._dirty.add(key)

    def store(self, s: Session) -> None:
        """Write the results changed or rebuilt in this transaction: a statement for the new ones, one for the
        others."""
        if not self._dirty:
            return
        rows = []
        for key in sorted(self._dirty, key=lambda k: (k[0], k[1], k[2], inforce.phase_key(k[3]))):
            version = (self._versions.get(key) or 0) + 1
            rows.append((key, self._sets[key], version))
            self._versions[key] = version
        if not inforce.write(s, rows):  # emptied, as another process changed one: read again when asked for
            for key, _sets, _version in rows:
                self._drop(key)
        self._dirty.clear()

    def forget(self, game: Game, turn: int, player: Player) -> None:
        """Drop the results of a player whose sets changed status (a CANCEL: it empties the stored ones)."""
        for key in [k for k in self._sets if k[:3] == (game.id, turn, player.id)]:
            self._drop(key)

    def _drop(self, key: Key) -> None:
        self._sets.pop(key, None)
        self._versions.pop(key, None)
        self._stale.discard(key)
        self._dirty.discard(key)
