"""Receipts: what a player can show to prove which orders maild had.

Every ack names its mail's receipt number (the receipt sequence, `inbound_mails.id`) and a short hash of the
player's orders on file after that mail; the printout and STATUS show the hash the turn was run with. Both
come from `orders_hash`, one function over the orders in force (`Ruleset.effective` of the accepted sets), so
the hash an ack gave and the one the printout shows are equal exactly when the turn ran with those orders.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.models import Game, Turn
from maild.ruleset import PlacedOrder

# Hex digits shown: 12 (48 bits) is beyond any chance collision within one player's turn, and short to quote.
HASH_DIGITS = 12
NOTHING = "none (no orders on file)"


def orders_hash(placed: Sequence[PlacedOrder]) -> str:
    """The short hash of orders in force, in their order: each order's kind and arguments (what the turn
    reads), not the line numbers or the words the player wrote them in. Nothing on file hashes to NOTHING."""
    if not placed:
        return NOTHING
    canonical = json.dumps([[p.order.kind, p.order.args] for p in placed], sort_keys=True,
                           separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:HASH_DIGITS]


def receipt_number(mail_id: int) -> str:
    """A mail's receipt number as an ack shows it: its receipt sequence, six digits at least."""
    return f"{mail_id:06d}"


def receipt_line(mail_id: int, placed: Sequence[PlacedOrder]) -> str:
    """`receipt 000123, orders on file 3f9a0c1b2d4e`."""
    return f"receipt {receipt_number(mail_id)}, orders on file {orders_hash(placed)}"


# Where a processed turn's row keeps the hashes it ran with (`Turn.result`), by player name.
RESULT_KEY = "orders_hashes"


def turn_hashes(orders: dict[str, list[PlacedOrder]], players: Sequence[str]) -> dict[str, str]:
    """Each player's hash of the orders a turn ran with (the GM's orders are no player's)."""
    return {name: orders_hash(orders.get(name, [])) for name in players}


def ran_with(s: Session, game: Game, player: str) -> tuple[int, str] | None:
    """The last processed turn of `game` and the hash of `player`'s orders it ran with, for STATUS; None
    before the first turn (or for a turn run before receipts were kept)."""
    row = s.scalar(select(Turn).where(Turn.game_id == game.id, Turn.status == "done")
                   .order_by(Turn.number.desc()).limit(1))
    if row is None or not row.result:
        return None
    hashes = row.result.get(RESULT_KEY) or {}
    return (row.number, hashes[player]) if player in hashes else None
