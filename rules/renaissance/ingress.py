"""INGRESS, EGRESS & EXTERNAL MARKETS: the de facto controller's orders that change a location's lists (walls.py
describes them), and the start-of-turn step that moves the waiting list. Readings I1...:
docs/renaissance/ingress.md.
"""

from __future__ import annotations

from typing import Any

from .context import Ctx, Outcome, Persona, done, fail
from .names import find_family
from .offices import office_location
from .walls import (
    MAX_EGRESS_DENIED,
    MAX_INGRESS,
    MAX_MARKET_RIGHTS,
    WAIT_TURNS,
    Location,
    citizen_families,
    default_ingress,
)

# ---- the start of a turn: the waiting list -------------------------------------------------------------------

def admit_waiting(ctx: Ctx) -> None:
    """I4, I5: a family added to the waiting list in turn t receives ingress at the start of turn t + 2 (if the
    list has room); then the next queued family is added to the waiting list, one a turn. I10: a location without
    a list (a game set up before it existed) gets the default one first."""
    citizens: dict[str, list[str]] | None = None
    for name in sorted(ctx.state["locations"]):
        location = ctx.state["locations"][name]
        if "ingress" not in location:
            citizens = citizens if citizens is not None else citizen_families(ctx.state)
            location["ingress"] = default_ingress(ctx.state, name, citizens)
        waiting = location.get("ingress_waiting") or []
        for entry in list(waiting):
            added = entry["added"]
            if added is None or ctx.turn < added + WAIT_TURNS or len(location["ingress"]) >= MAX_INGRESS:
                continue
            waiting.remove(entry)
            location["ingress"].append(entry["family"])
            _drop(location, "ingress_denied", entry["family"])
            ctx.tell(entry["family"], f"The {entry['family']} family has received ingress to {name}.")
        if waiting and not any(w["added"] == ctx.turn for w in waiting):
            queued = next((w for w in waiting if w["added"] is None), None)
            if queued is not None:
                queued["added"] = ctx.turn
                ctx.tell(queued["family"], f"The {queued['family']} family is on {name}'s waiting list: it receives "
                                           f"ingress at the start of turn {ctx.turn + WAIT_TURNS}.")


# ---- the de facto controller's orders ------------------------------------------------------------------------

def _drop(location: Location, key: str, family: str) -> bool:
    listed: list[str] = location.get(key) or []
    if family in listed:
        listed.remove(family)
        return True
    return False


def _controlled(ctx: Ctx, persona: Persona, what: str) -> tuple[str, Location] | str:
    """The location whose de facto controller he is (offices ruling 14), or why not."""
    where, why = office_location(ctx.state, persona, "dfc")
    if where is None:
        return f"only the de facto controller of a location may order {what}: he is {why}"
    return where, ctx.state["locations"][where]


def _ingress(ctx: Ctx, where: str, location: Location, family: str, allow: bool) -> Outcome:
    if "ingress" not in location:
        location["ingress"] = default_ingress(ctx.state, where)  # I10
    waiting = location.get("ingress_waiting") or []
    # Either way the family stops waiting: an added family has ingress, and a denied one was "specifically
    # denied ingress during the intervening period" (I5).
    location["ingress_waiting"] = [w for w in waiting if w["family"] != family]
    left_waiting = " and leaves its waiting list" if len(location["ingress_waiting"]) < len(waiting) else ""
    if not allow:
        removed = _drop(location, "ingress", family)
        denied: list[str] = location.setdefault("ingress_denied", [])
        if family not in denied:
            denied.append(family)
        said = "removed from the ingress list" if removed else "denied ingress"
        return done(f"the {family} family is {said} of {where}{left_waiting}")
    if why := _add_capped(location, "ingress", family, MAX_INGRESS, "given ingress", where):
        location["ingress_waiting"] = waiting  # a refused order changes nothing
        return fail(why)
    _drop(location, "ingress_denied", family)
    return done(f"the {family} family is added to the ingress list of {where}{left_waiting}; its personae outside "
                "the walls enter when ordered inside")


def _add_capped(location: Location, key: str, family: str, cap: int, what: str, where: str) -> str | None:
    """Put the family on a list the rules cap at `cap` families (20 with ingress, 5 denied egress, 5 granted the
    closed market); the reason when it cannot be done."""
    listed: list[str] = location.setdefault(key, [])
    if family in listed:
        return f"the {family} family is already {what} at {where}"
    if len(listed) >= cap:
        return (f"{cap} families are already {what} at {where} ({', '.join(listed)}), the most the rules allow: "
                "take one off first")
    listed.append(family)
    return None


def _capped_list(location: Location, key: str, family: str, add: bool, cap: int, what: str,
                 where: str) -> Outcome:
    """Egress denials and market rights: a list of at most `cap` families, changed at once."""
    if add:
        why = _add_capped(location, key, family, cap, what, where)
        return fail(why) if why else done(f"the {family} family is {what} at {where} until reversed")
    if not _drop(location, key, family):
        return fail(f"the {family} family is not {what} at {where}")
    return done(f"the {family} family is no longer {what} at {where}")


def access(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """DI/AI remove a family from, or add it to, the ingress list; DE/AE deny or allow egress; DM/AM withdraw or
    grant the right to use the closed external market. Orders "take effect immediately"."""
    what = args.get("what")
    if what not in ("ingress", "egress", "market"):
        return fail(f"unknown access order {what!r}")
    controlled = _controlled(ctx, persona, f"{what} for a family")
    if isinstance(controlled, str):
        return fail(controlled)
    where, location = controlled
    # "They must identify the family by its family name."
    family = find_family(ctx.state, str(args.get("target_family", "")))
    if family is None:
        return fail(f"there is no family {args.get('target_family')!r}")
    allow = bool(args.get("allow"))
    if what == "ingress":
        return _ingress(ctx, where, location, family, allow)
    if what == "egress":
        return _capped_list(location, "egress_denied", family, not allow, MAX_EGRESS_DENIED, "denied egress",
                            where)
    return _capped_list(location, "external_market_rights", family, allow, MAX_MARKET_RIGHTS,
                        "granted the use of the closed external market", where)


def external_market(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    """XO / XC: the de facto controller opens or closes the market outside the walls (I6)."""
    controlled = _controlled(ctx, persona, "the external market opened or closed")
    if isinstance(controlled, str):
        return fail(controlled)
    where, location = controlled
    opening = bool(args.get("open"))
    if bool(location.get("external_market_open")) == opening:
        return fail(f"the external market of {where} is already {'open' if opening else 'closed'}")
    location["external_market_open"] = opening
    return done(f"the external market of {where} is {'opened' if opening else 'closed'}")
