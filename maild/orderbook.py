"""The order book: order sets per (game, turn) in receipt order, and the orders in force at a deadline."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.models import Game, OrderSetRow, Player
from maild.ruleset import Order, OrderSet, PlacedOrder, Ruleset


def to_order_set(row: OrderSetRow, player: str) -> OrderSet:
    return OrderSet(player=player, seq=row.seq, orders=[Order.from_json(o) for o in row.orders])


def accepted_sets(session: Session, game: Game, turn: int, player: Player | None = None) -> dict[str, list[OrderSet]]:
    """Accepted order sets of a turn, per player name, each list in receipt order."""
    q = (select(OrderSetRow, Player.name).join(Player, Player.id == OrderSetRow.player_id)
         .where(OrderSetRow.game_id == game.id, OrderSetRow.turn == turn, OrderSetRow.status == "accepted")
         .order_by(OrderSetRow.seq))
    if player is not None:
        q = q.where(OrderSetRow.player_id == player.id)
    book: dict[str, list[OrderSet]] = {}
    for row, name in session.execute(q):
        book.setdefault(name, []).append(to_order_set(row, name))
    return book


def orders_in_force(ruleset: Ruleset, book: dict[str, list[OrderSet]], players: list[str]
                    ) -> dict[str, list[PlacedOrder]]:
    """Every player's orders in force (an empty list for those with nothing on file)."""
    return {name: ruleset.effective(book[name]) if name in book else [] for name in players}
