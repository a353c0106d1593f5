"""Each player's orders in force for a turn, stored as a running result (`orders_in_force`): what intake
checks a new mail against, read instead of the order book, so that a mail costs the same whether the player
sent one set this turn or a thousand.

A row holds `Ruleset.in_force_sets` of the player's accepted sets of a turn (and phase) and a version that
moves with every write. Intake writes it with each batch's order sets (maild/intake/books.py); whatever else
changes a book's accepted sets (a CANCEL of late orders, a GM's `mail reprocess ID --turn N`, `turn rerun`)
empties the rows it touches (`invalidate`: their sets NULL, their version moved, so that no process keeps a
copy), and an empty or missing row is rebuilt from the book when next asked for: those are rare, and a
rebuild is the book's one read.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update
from sqlalchemy.orm import Session

from maild.models import OrderSetRow, OrdersInForce
from maild.ruleset import Order, OrderSet, Ruleset

_TABLE = OrdersInForce.__table__
_C = _TABLE.c
_OF_PLAYERS = (_C.game_id == bindparam("game"), _C.turn == bindparam("turn"), _C.phase == bindparam("phase"),
               _C.player_id.in_(bindparam("players", expanding=True)))
_VERSIONS = select(_C.player_id, _C.version).where(*_OF_PLAYERS)
_ROWS = select(_C.player_id, _C.sets, _C.version).where(*_OF_PLAYERS)
_INSERT = insert(_TABLE)
# The bindparam names differ from the columns': SQLAlchemy reserves those for the SET values.
# Only the version this process read is replaced: a row another process wrote meanwhile is left to `write`.
_UPDATE = update(_TABLE).where(_C.game_id == bindparam("g"), _C.turn == bindparam("t"),
                               _C.player_id == bindparam("p"), _C.phase == bindparam("ph"),
                               _C.version == bindparam("was")).values(sets=bindparam("s"), version=bindparam("v"))
_EMPTY = update(_TABLE).where(_C.game_id == bindparam("g"), _C.turn == bindparam("t"),
                              _C.player_id == bindparam("p"), _C.phase == bindparam("ph")).values(
    sets=None, version=_C.version + 1)


def phase_key(phase: str | None) -> str:
    """The `phase` column of a one-phase game's row ("": a key's column is never NULL)."""
    return phase or ""


def encode(sets: list[OrderSet]) -> list[Any]:
    return [[s.seq, [o.to_json() for o in s.orders]] for s in sets]


def decode(player: str, data: list[Any]) -> list[OrderSet]:
    return [OrderSet(player=player, seq=seq, orders=[Order.from_json(o) for o in orders]) for seq, orders in data]


def _params(game: int, turn: int, players: list[int], phase: str | None) -> dict[str, Any]:
    return {"game": game, "turn": turn, "phase": phase_key(phase), "players": sorted(players)}


def versions(s: Session, game: int, turn: int, players: list[int], phase: str | None) -> dict[int, int]:
    """The version of each of `players`' rows that exists: one query, a key look-up a player."""
    return {pid: int(v) for pid, v in s.execute(_VERSIONS, _params(game, turn, players, phase))}


def stored(s: Session, game: int, turn: int, players: dict[int, str], phase: str | None
           ) -> dict[int, tuple[list[OrderSet] | None, int]]:
    """The sets (None: emptied by `invalidate`) and version of each of `players` (id -> name) that has a row:
    one query."""
    rows = s.execute(_ROWS, _params(game, turn, list(players), phase))
    return {pid: (None if sets is None else decode(players[pid], sets), int(version)) for pid, sets, version in rows}


def write(s: Session, rows: list[tuple[tuple[int, int, int, str | None], list[OrderSet], int]]) -> bool:
    """Store each (key, sets, version): version 1 is a new row (one INSERT for them all), a later one replaces
    the row of the version before it (one UPDATE for them all). False if a row had moved on meanwhile (another
    process booked for the same player, which the sender claims make rare): then the rows given are emptied
    instead, to be rebuilt from the book, which holds both processes' sets."""
    new = [dict(game_id=g, turn=t, player_id=p, phase=phase_key(ph), sets=encode(sets), version=v)
           for (g, t, p, ph), sets, v in rows if v == 1]
    changed = [dict(g=g, t=t, p=p, ph=phase_key(ph), s=encode(sets), v=v, was=v - 1)
               for (g, t, p, ph), sets, v in rows if v != 1]
    if new:
        s.execute(_INSERT, new)
    if not changed:
        return True
    done = s.execute(_UPDATE, changed).rowcount
    if not s.get_bind().dialect.supports_sane_multi_rowcount or done == len(changed):
        return True
    s.execute(_EMPTY, changed)
    return False


def invalidate(s: Session | Connection, game: int, turn: int | None = None, player: int | None = None) -> None:
    """Empty the stored results of a game (of one turn, of one player): its book changed otherwise than by
    intake's booking; the next mail that asks rebuilds them from the book. Their versions move, so a copy
    another process holds is seen to be stale."""
    query = update(_TABLE).where(_C.game_id == game).values(sets=None, version=_C.version + 1)
    if turn is not None:
        query = query.where(_C.turn == turn)
    if player is not None:
        query = query.where(_C.player_id == player)
    s.execute(query)


def rebuild(s: Session | Connection, ruleset: Ruleset, game: int, turn: int, names: dict[int, str]) -> int:
    """Write the stored results of a turn from its book, every phase and every player with accepted sets, into
    a table that has none for it (the migration that brought the table). Returns the rows written."""
    books: dict[tuple[int, str | None], list[OrderSet]] = {}
    rows = s.execute(select(OrderSetRow.player_id, OrderSetRow.phase, OrderSetRow.seq, OrderSetRow.orders)
                     .where(OrderSetRow.game_id == game, OrderSetRow.turn == turn, OrderSetRow.status == "accepted")
                     .order_by(OrderSetRow.seq))
    for pid, phase, seq, orders in rows:
        if pid in names:
            books.setdefault((pid, phase), []).append(
                OrderSet(player=names[pid], seq=seq, orders=[Order.from_json(o) for o in orders]))
    new = [dict(game_id=game, turn=turn, player_id=pid, phase=phase_key(phase),
                sets=encode(ruleset.in_force_sets(sets)), version=1) for (pid, phase), sets in sorted(
                    books.items(), key=lambda item: (item[0][0], phase_key(item[0][1])))]
    if new:
        s.execute(_INSERT, new)
    return len(new)
