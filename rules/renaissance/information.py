"""INFORMATION ORDERS: the depth of a port and the co-ordinates of a location, answered in the messages section of
the asking family's printout (ctx.tell)."""

from __future__ import annotations

from typing import Any

from . import geography as geo
from .context import Ctx, Outcome, Persona, done, fail
from .setup import find_location


def _family(persona: Persona, args: dict[str, Any]) -> str | None:
    """Family-level orders reach the handler with an empty persona; the order's args name the family."""
    return args.get("family") or persona.get("family")


def _hemi(value: float, pos: str, neg: str) -> str:
    return f"{abs(value):.2f}°{pos if value >= 0 else neg}"


def ask_depth(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    family = _family(persona, args)
    name = find_location(ctx.state, args.get("location"))
    if name is None or family is None:
        return fail(f"no location {args.get('location')!r} has been set up")
    depth = ctx.state["locations"][name].get("harbor")
    answer = f"Depth of {name}: " + ("not a port" if depth is None else f"{depth} feet")
    ctx.tell(family, answer)
    return done(answer)


def ask_coordinates(ctx: Ctx, persona: Persona, args: dict[str, Any]) -> Outcome:
    family = _family(persona, args)
    name = find_location(ctx.state, args.get("location"))
    if name is None or family is None:
        return fail(f"no location {args.get('location')!r} has been set up")
    lat, lon = geo.point_of(ctx.state, name)
    answer = f"Co-ordinates of {name}: latitude {_hemi(lat, 'N', 'S')}, longitude {_hemi(lon, 'E', 'W')}"
    ctx.tell(family, answer)
    return done(answer)
