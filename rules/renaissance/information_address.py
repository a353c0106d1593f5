"""INFORMATION ORDERS: "A player may request one player address in each family's set of orders.\""""

from __future__ import annotations

from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .names import find_family


def ask_address(ctx: Ctx, persona: Persona | None, args: dict[str, Any]) -> Outcome:
    family = str(args.get("family") or (persona or {}).get("family") or "").upper()
    target = find_family(ctx.state, str(args.get("target_family", "")))  # DELLAROVERE is DELLA ROVERE
    fam = ctx.state["families"].get(target) if target else None
    if fam is None:
        return fail(f"there is no family {args.get('target_family')!r}")
    if not ctx.once("information_address", family):
        return fail("one player address per family's orders")
    player = ctx.state.get("players", {}).get(fam.get("player"), {})
    name, email = player.get("name") or "(unknown)", player.get("email") or "(no address)"
    ctx.tell(family, f"Address of the player of {target}: {name} <{email}>")
    return done(f"the address of the player of {target} is in the messages")
