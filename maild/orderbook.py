"""The order book: order sets per (game, turn) in receipt order, and the orders in force at a deadline."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from maild.games import players_of
from maild.models import Game, OrderSetRow, Player
from maild.ruleset import Order, OrderSet, PlacedOrder, Ruleset

_SETS = (select(OrderSetRow.seq, OrderSetRow.orders, Player.name).join(Player, Player.id == OrderSetRow.player_id)
         .where(OrderSetRow.game_id == bindparam("game"), OrderSetRow.turn == bindparam("turn"),
                OrderSetRow.status == "accepted")
         .order_by(OrderSetRow.seq))
# Intake asks for one player's sets with every order mail: built once, compiled once.
_PLAYER_SETS = _SETS.where(OrderSetRow.player_id == bindparam("player"))


def accepted_sets(session: Session, game: Game, turn: int, player: Player | None = None) -> dict[str, list[OrderSet]]:
    """Accepted order sets of a turn, per player name, each list in receipt order."""
    params = {"game": game.id, "turn": turn}
    if player is not None:
        params["player"] = player.id
    book: dict[str, list[OrderSet]] = {}
    for seq, orders, name in session.execute(_SETS if player is None else _PLAYER_SETS, params):
        book.setdefault(name, []).append(OrderSet(player=name, seq=seq, orders=[Order.from_json(o) for o in orders]))
    return book


def orders_in_force(ruleset: Ruleset, book: dict[str, list[OrderSet]], players: list[str]
                    ) -> dict[str, list[PlacedOrder]]:
    """Every player's orders in force (an empty list for those with nothing on file)."""
    return {name: ruleset.effective(book[name]) if name in book else [] for name in players}


def players_without_orders(s: Session, game: Game, turn: int) -> list[Player]:
    book = accepted_sets(s, game, turn)
    return [p for p in players_of(s, game) if p.name not in book]
