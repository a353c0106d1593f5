"""CONFLICT ORDERS and CREDIT for the war orders: the fee each listed event costs, and whether a conflict order may
run at all (RW-OQ-45).

CONFLICT ORDERS: "The conflict initiation fee (25 actions) is charged whenever a player issues a siege order, an
interception order, a bombardment order, an assassination order leading to the death of the victim, or initiates
a bombardment, field battle, urban battle, naval battle, or assault leading to any change in the data base."
CREDIT: "No conflict orders will be executed for any player unless his current month's fees have been prepaid in
full by the time these conflict orders are to be processed."
"""

from __future__ import annotations

from .. import accounts
from ..context import Ctx, Persona
from ..family_orders import family_blocks

_COUNTS = "war.fees.orders"  # player -> family -> orders on file this month


def player_of(ctx: Ctx, persona: Persona) -> str | None:
    family = ctx.state["families"].get(persona.get("family", ""))
    return family.get("player") if family else None


def current_fees(ctx: Ctx, player: str) -> float:
    """The month's family fees of this player as they stand: each of his families with orders on file this month
    (the month's `orders`, when ctx is the running Month; none otherwise)."""
    orders = getattr(ctx, "orders", None)
    if not orders:
        return 0.0
    # The orders on file do not change during the month: counted once, for every player.
    by_player = ctx.scratch.get(_COUNTS)
    if by_player is None:
        by_player = {}
        for b in family_blocks(orders, ctx.state):
            owner = ctx.state["families"].get(b.family, {}).get("player")
            by_player.setdefault(owner, {})[b.family] = sum(len(v) for v in b.personae.values()) + len(
                b.family_orders)
        ctx.scratch[_COUNTS] = by_player
    return accounts.turn_fees(ctx.state, by_player.get(player, {}))


def credit_refusal(ctx: Ctx, persona: Persona) -> str | None:
    """Why a conflict order of this persona may not run (CREDIT), or None."""
    player = player_of(ctx, persona)
    if player is None or player not in ctx.state.get("players", {}):
        return None
    if accounts.conflict_allowed(ctx.state, player, current_fees(ctx, player)):
        return None
    fees = accounts.discounted(ctx.state, current_fees(ctx, player))
    return (f"no conflict order is carried out until the month's fees ({fees:.2f}) are prepaid in full (rules, "
            f"CREDIT); the account stands at {accounts.account(ctx.state, player)['balance']:.2f}")


def charge(ctx: Ctx, persona: Persona, what: str) -> None:
    """Post one conflict initiation fee on the player's account for `what` (one listed event)."""
    player = player_of(ctx, persona)
    if player is not None and player in ctx.state.get("players", {}):
        accounts.charge_conflict(ctx.state, player, ctx.turn, what)
