"""The orders on file for a month, family by family, in the sequence the families run.

Rules section ORDERS: "Each family's orders are executed in the sequence in which I receive them"; a family that
asked for a later day of the month runs after those that did not. The month's loop (families.py) and the CREDIT
test of the war orders (war/fees.py, the fees a player's families owe as the month stands) both read the orders
this way, so this module imports no rule module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from maild.ruleset import GM_ORDERS, PlacedOrder

from .context import State


@dataclass
class FamilyOrders:
    family: str
    player: str
    seq: int
    day: int
    family_orders: list[PlacedOrder]
    personae: dict[str, list[PlacedOrder]]  # persona -> orders, personae in the order written


@cache  # every order of every mail asks it of the same few names
def family_key(name: str) -> str:
    """A family as players write it after `*`: case, blanks and hyphens do not matter (DELLAROVERE)."""
    return "".join(ch for ch in name.upper() if ch.isalnum())


def family_blocks(orders: dict[str, list[PlacedOrder]], state: State | None = None) -> list[FamilyOrders]:
    """Every family's orders, in execution order: (requested day, receipt sequence, family name). With the
    state, families are named as the state names them, however the player wrote them."""
    names = {family_key(f): f for f in state["families"]} if state else {}
    blocks: dict[str, FamilyOrders] = {}
    for player, placed in orders.items():
        if player == GM_ORDERS:
            continue
        for p in placed:
            written = p.order.args.get("family")
            if not written:
                continue
            fam = names.get(family_key(written), written)
            block = blocks.setdefault(fam, FamilyOrders(fam, p.order.args.get("player", player), p.seq, 0, [], {}))
            block.seq = min(block.seq, p.seq)
            if p.order.kind == "execute_day":
                block.day = int(p.order.args["day"])
            elif "persona" in p.order.args:
                block.personae.setdefault(p.order.args["persona"], []).append(p)
            else:
                block.family_orders.append(p)
    return sorted(blocks.values(), key=lambda b: (b.day, b.seq, b.family))
