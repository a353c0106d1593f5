"""MILITARY ORDERS: a grandmastership falling vacant, and the election it calls.

Below both church_offices.py (a grandmastership is an ecclesiastical position, RH-OQ-29: the acceptance of a church
office ends it through `church_offices.resign_others`) and military_orders.py (elections, acceptance, founding),
so that the one function ending church positions can end a grandmastership without an import cycle.
"""

from __future__ import annotations

from .calendar import month_name
from .context import Ctx
from .grandmasters import held_offices, order_name, orders, title_of
from .offices import holder, set_office


def call_election(ctx: Ctx, key: str, why: str) -> None:
    """The election is held next month at the seat; the newsletter announces it (RH-OQ-31)."""
    order = orders(ctx.state)[key]
    order["election"] = {"turn": ctx.turn + 1, "votes": {}}
    order["elected"] = None
    ctx.publish(f"{why}: the grandmaster of {order_name(ctx.state, key)} will be elected in "
                f"{month_name(ctx.state, ctx.turn + 1)} by the male Catholic personae at {order.get('seat')} "
                "at the start of that month.")


def pass_offices(ctx: Ctx, key: str, holding: set[str | None], to: str) -> None:
    """The order's offices pass from the outgoing holder to `to`. An office someone else has come to hold meanwhile
    (a tenancy transferred by its holders' orders: TENANTS) is no longer the order's, and leaves its list."""
    order = orders(ctx.state)[key]
    kept = []
    for where, office in held_offices(order):
        location = ctx.state["locations"][where]
        if holder(location, office) in holding:
            set_office(location, office, to)
            kept.append([where, office])
    order["holds"] = kept


def vacate(ctx: Ctx, key: str) -> str:
    """The grandmastership falls vacant: the order's offices are held by the order, and an election is called.
    Returns the title ended ("Grandmaster of Rhodes")."""
    order = orders(ctx.state)[key]
    title = title_of(ctx.state, key)
    old = ctx.persona(order.get("grandmaster") or "")
    if old is not None:
        old["titles"] = [t for t in old.get("titles") or () if t != title]
    pass_offices(ctx, key, {order.get("grandmaster")}, order_name(ctx.state, key))
    order["grandmaster"] = None
    call_election(ctx, key, f"The grandmastership of {order_name(ctx.state, key)} is vacant")
    return title
