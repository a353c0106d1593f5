"""Excommunication (THE ECCLESIASTICAL OFFICES): "A pope may excommunicate other Catholic personae. Excommunication
is for one turn at a time. For each turn that a persona is excommunicated, he loses 20 points of popularity."
Reading RH-OQ-22 in docs/renaissance/hierarchies.md: the order excommunicates for the month it runs in and the loss
falls then; a persona with fewer than 20 points falls to 0; nothing else follows.
"""

from __future__ import annotations

from typing import Any

from .church_offices import faith, is_pope
from .context import Ctx, Outcome, Persona, done, fail
from .ratings import add_rating

EXCOMMUNICATION_COST = 20


def _name(p: Persona) -> str:
    return f"{p.get('name', p['id'])} ({p['id']})"


def excommunicate(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """HXnnnn: the Pope excommunicates nnnn for this month."""
    if not is_pope(ctx.state, persona["id"]):
        return fail("only the Pope excommunicates")
    target = ctx.persona(str(args.get("target", "")))
    if target is None or not target.get("alive", True):
        return fail(f"there is no living persona {args.get('target')!r}")
    if target["id"] == persona["id"]:
        return fail("the Pope excommunicates other personae, not himself")
    if faith(target) != "catholic":
        return fail(f"{_name(target)} is not a Catholic: the Pope excommunicates Catholic personae")
    if not ctx.once("excommunicated", target["id"]):
        return fail(f"{_name(target)} is excommunicated this month already")
    lost = -add_rating(target, "popularity", -EXCOMMUNICATION_COST)
    ctx.publish(f"The Pope has excommunicated {_name(target)} for the month.")
    ctx.tell(target["family"], f"{_name(target)} is excommunicated by the Pope this month: popularity -{lost}.")
    return done(f"excommunicated {_name(target)} for this month: his popularity -{lost}")
