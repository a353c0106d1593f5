"""The order book: order sets per (game, turn) in receipt order, and the orders in force at a deadline."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.orm import Session

from maild.games import players_of
from maild.models import Game, GmOrder, InboundMail, OrderSetRow, Player, Turn
from maild.phases import open_row, still_owed
from maild.ruleset import GM_ORDERS, Order, OrderSet, PlacedOrder, Ruleset

# The status of a mail's order set none of whose lines could be read: it holds only diagnostics, booked so the
# turn's printout can repeat them; `accepted_sets` never reads it.
NOT_UNDERSTOOD = "not_understood"

_SETS = (select(OrderSetRow.seq, OrderSetRow.orders, Player.name).join(Player, Player.id == OrderSetRow.player_id)
         .where(OrderSetRow.game_id == bindparam("game"), OrderSetRow.turn == bindparam("turn"),
                OrderSetRow.status == "accepted")
         .order_by(OrderSetRow.seq))
# Intake asks for one player's sets with every order mail: built once, compiled once.
_PLAYER_SETS = _SETS.where(OrderSetRow.player_id == bindparam("player"))


# What a player's accepted sets of a turn are, told without reading them: how many, and the highest and the sum
# of their row ids. A set booked, cancelled or read again (a new row) changes it.
Print = tuple[int, int, int]
NO_SETS: Print = (0, 0, 0)

_BOOKS = (select(OrderSetRow.player_id, OrderSetRow.id, OrderSetRow.seq, OrderSetRow.orders)
          .where(OrderSetRow.game_id == bindparam("game"), OrderSetRow.turn == bindparam("turn"),
                 OrderSetRow.status == "accepted", OrderSetRow.player_id.in_(bindparam("players", expanding=True)))
          .order_by(OrderSetRow.seq))
_PRINTS = (select(OrderSetRow.player_id, func.count(), func.max(OrderSetRow.id), func.sum(OrderSetRow.id))
           .where(OrderSetRow.game_id == bindparam("game"), OrderSetRow.turn == bindparam("turn"),
                  OrderSetRow.status == "accepted",
                  OrderSetRow.player_id.in_(bindparam("players", expanding=True)))
           .group_by(OrderSetRow.player_id))


def _of_phase(query: Select[Any], phase: str | None) -> Select[Any]:
    return query if phase is None else query.where(OrderSetRow.phase == phase)


def accepted_books(session: Session, game: Game, turn: int, players: dict[int, str], phase: str | None = None
                   ) -> dict[int, tuple[list[OrderSet], Print]]:
    """The accepted order sets of a turn (with `phase`, of that phase) of each of `players` (id -> name), in
    receipt order, with their `Print`: one query for them all."""
    books: dict[int, tuple[list[OrderSet], Print]] = {pid: ([], NO_SETS) for pid in players}
    rows = session.execute(_of_phase(_BOOKS, phase), {"game": game.id, "turn": turn, "players": sorted(players)})
    for pid, row_id, seq, orders in rows:
        sets, (count, top, total) = books[pid]
        sets.append(OrderSet(player=players[pid], seq=seq, orders=[Order.from_json(o) for o in orders]))
        books[pid] = sets, (count + 1, max(top, row_id), total + row_id)
    return books


def book_prints(session: Session, game: Game, turn: int, players: list[int], phase: str | None = None
                ) -> dict[int, Print]:
    """The `Print` of each of `players`' accepted sets of a turn (with `phase`, of that phase), in one query."""
    prints = dict.fromkeys(players, NO_SETS)
    for pid, count, top, total in session.execute(_of_phase(_PRINTS, phase),
                                                  {"game": game.id, "turn": turn, "players": sorted(players)}):
        prints[pid] = (int(count), int(top), int(total))
    return prints


def accepted_sets(session: Session, game: Game, turn: int, player: Player | None = None,
                  phase: str | None = None) -> dict[str, list[OrderSet]]:
    """Accepted order sets of a turn (with `phase`, of that phase of it), per player name, each list in
    receipt order."""
    params = {"game": game.id, "turn": turn}
    if player is not None:
        params["player"] = player.id
    query = _SETS if player is None else _PLAYER_SETS
    if phase is not None:
        query = query.where(OrderSetRow.phase == phase)
    book: dict[str, list[OrderSet]] = {}
    for seq, orders, name in session.execute(query, params):
        book.setdefault(name, []).append(OrderSet(player=name, seq=seq, orders=[Order.from_json(o) for o in orders]))
    return book


def orders_in_force(ruleset: Ruleset, book: dict[str, list[OrderSet]], players: list[str]
                    ) -> dict[str, list[PlacedOrder]]:
    """Every player's orders in force (an empty list for those with nothing on file)."""
    return {name: ruleset.effective(book[name]) if name in book else [] for name in players}


def cancel_late(session: Session, game: Game, player: Player, turn: int, received: datetime,
                days: int | None) -> str:
    """A player's CANCEL: his orders that came after the deadline of turn `turn - 1` but before it ran, and so
    were booked for `turn`, are withdrawn, if the CANCEL came within `days` of that turn's results. Returns what
    happened, in words."""
    if days is None:
        return "this game keeps no late orders to cancel: send new orders instead"
    missed = session.scalar(select(Turn).where(Turn.game_id == game.id, Turn.number == turn - 1))
    if missed is None or missed.deadline is None or missed.processed_at is None:
        return f"you have no late orders on file for turn {turn}"
    rows = list(session.scalars(
        select(OrderSetRow).join(InboundMail, InboundMail.id == OrderSetRow.mail_id)
        .where(OrderSetRow.game_id == game.id, OrderSetRow.player_id == player.id, OrderSetRow.turn == turn,
               OrderSetRow.status == "accepted", InboundMail.received_at > missed.deadline,
               # After the results went out, a mail is simply for this turn: only mail meant for the missed one
               # (it came between its deadline and its running) is late.
               InboundMail.received_at <= missed.processed_at)))
    if not rows:
        return f"you have no late orders on file for turn {turn}"
    if received > missed.processed_at + timedelta(days=days):
        return (f"too late to cancel: the orders that missed turn {turn - 1} stand, because a cancellation must "
                f"come within {days} days of that turn's results")
    for row in rows:
        row.status = "cancelled"
        row.reason = "cancelled by the player"
    return f"cancelled the orders of {len(rows)} late mail(s); nothing of yours is on file for turn {turn} now"


def gm_orders(session: Session, game: Game, turn: int) -> list[PlacedOrder]:
    """The GM's orders for a turn, in the order he gave them (they come before any player's mail: seq 0)."""
    rows = session.scalars(select(GmOrder).where(GmOrder.game_id == game.id, GmOrder.turn == turn,
                                                 GmOrder.withdrawn_at.is_(None))
                           .order_by(GmOrder.id))
    return [PlacedOrder(Order.from_json(r.order), 0) for r in rows]


def orders_for_turn(session: Session, ruleset: Ruleset, game: Game, turn: int, book: dict[str, list[OrderSet]],
                    players: list[str], with_gm: bool = True) -> dict[str, list[PlacedOrder]]:
    """What `resolve` gets: every player's orders in force, and the GM's under GM_ORDERS when he gave any
    (and `with_gm`: a turn of several phases gives them to its first)."""
    orders = orders_in_force(ruleset, book, players)
    gm = gm_orders(session, game, turn) if with_gm else []
    if gm:
        orders[GM_ORDERS] = gm
    return orders


def players_without_orders(s: Session, game: Game, turn: int) -> list[Player]:
    """Who has nothing on file for the turn; in a turn of phases, who must send in its open phase and has
    nothing on file for it, or still owes orders in it (`Ruleset.still_owed`)."""
    phase = open_row(s, game.id, turn)
    if phase is None:
        book = accepted_sets(s, game, turn)
        return [p for p in players_of(s, game) if p.name not in book]
    book = accepted_sets(s, game, turn, phase=phase.name)
    owing = set(still_owed(s, phase)) if book else set()  # sent, but not all he answers for
    return [p for p in players_of(s, game)
            if (p.name not in book or p.name in owing) and (phase.must_send is None or p.name in phase.must_send)]
