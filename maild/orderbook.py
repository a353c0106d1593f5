"""The order book: order sets per (game, turn) in receipt order, and the orders in force at a deadline."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.models import Game, OrderSetRow, Player
from maild.ruleset import Order, OrderSet, PlacedOrder, Ruleset


def accepted_sets(session: Session, game: Game, turn: int, player: Player | None = None) -> dict[str, list[OrderSet]]:
    """Accepted order sets of a turn, per player name, each list in receipt order."""
    # Columns, not ORM entities: intake asks this for every order mail.
    q = (select(OrderSetRow.seq, OrderSetRow.orders, Player.name).join(Player, Player.id == OrderSetRow.player_id)
         .where(OrderSetRow.game_id == game.id, OrderSetRow.turn == turn, OrderSetRow.status == "accepted")
         .order_by(OrderSetRow.seq))
    if player is not None:
        q = q.where(OrderSetRow.player_id == player.id)
    book: dict[str, list[OrderSet]] = {}
    for seq, orders, name in session.execute(q):
        book.setdefault(name, []).append(OrderSet(player=name, seq=seq, orders=[Order.from_json(o) for o in orders]))
    return book


def orders_in_force(ruleset: Ruleset, book: dict[str, list[OrderSet]], players: list[str]
                    ) -> dict[str, list[PlacedOrder]]:
    """Every player's orders in force (an empty list for those with nothing on file)."""
    return {name: ruleset.effective(book[name]) if name in book else [] for name in players}
