"""MILITARY ORDERS: the orders of the world, what each holds and who is its grandmaster (look-ups only; the orders'
acts, elections and founding are military_orders.py's).

An order is kept in state["military_orders"] under its key, the order's word in codes ("rhodes", "teutonic"):

    {"name": "Rhodes", "seat": "Rhodes", "grandmaster": "0101" | "Pierre d'Aubusson" | None,
     "holds": [["Rhodes", "tenant"], ["Rhodes", "sovereign"]],
     "founded": 6 | None, "election": {"turn": 7, "votes": {"0102": "0103"}} | None,
     "elected": {"persona": "0103", "turn": 7} | None}

The offices an order holds (its seat's tenancy, and the sovereignties by which it "may exercise rights of
sovereignty") are held in the locations' offices by its grandmaster while there is one (a persona id, or the name
of a non-player grandmaster), and by the order's name while the grandmastership is vacant: a non-player holder that
gives no orders. They are the office's, not the grandmaster's titles': they never pass to his heir.
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]
Order = dict[str, Any]

# MILITARY ORDERS: "may claim to have recruited free of charge ten heavy cavalry. The grandmasters of Alcantara and the
# Teutonic Knights may claim twenty. The grandmasters of Santiago and Rhodes may claim fifty."
FREE_CAVALRY_DEFAULT = 10
FREE_CAVALRY: dict[str, int] = {"alcantara": 20, "teutonic": 20, "teutonicknights": 20, "santiago": 50, "rhodes": 50}


def order_key(written: str | None) -> str:
    """How codes write an order: its letters, lower case ("Teutonic Knights" -> "teutonicknights")."""
    return "".join(c for c in str(written or "").lower() if c.isalpha())


def orders(state: State) -> dict[str, Order]:
    return state.get("military_orders") or {}


def find_order(state: State, written: str | None) -> str | None:
    """The key of the order a code or a name means, by key or by name; None if there is none."""
    key = order_key(written)
    for k, order in orders(state).items():
        if key and key in (k, order_key(order.get("name"))):
            return k
    return None


def order_name(state: State, key: str) -> str:
    return str(orders(state).get(key, {}).get("name") or key)


def title_of(state: State, key: str) -> str:
    """The title the printout shows: "Grandmaster of Rhodes"."""
    return f"Grandmaster of {order_name(state, key)}"


def free_cavalry(key: str) -> int:
    return FREE_CAVALRY.get(key, FREE_CAVALRY_DEFAULT)


def grandmastership_of(state: State, pid: str | None) -> str | None:
    """The key of the order of which persona `pid` is grandmaster, or None."""
    if not pid:
        return None
    return next((k for k, order in orders(state).items() if order.get("grandmaster") == pid), None)


def is_grandmaster(state: State, pid: str | None) -> bool:
    """Is `pid` the grandmaster of a military order (the state's record, not a title he may write himself)?"""
    return grandmastership_of(state, pid) is not None


def held_offices(order: Order) -> list[tuple[str, str]]:
    """(location, office) the order holds: its seat's tenancy, and every sovereignty it exercises."""
    return [(str(where), str(office)) for where, office in order.get("holds") or ()]


def holds_office(state: State, where: str, office: str) -> bool:
    """Is the office of `where` an order's (so elected, never inherited: MILITARY ORDERS)?"""
    return any((where, office) in held_offices(order) for order in orders(state).values())
