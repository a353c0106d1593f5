"""Where a persona stands and what he brings to a fight: the little facts about personae that interception, the
Sides of a battle, its result and the conflict orders all ask (BATTLE, ALLIANCE, TOWERS; the 20-to-1 rule's men,
RW-OQ-04; points at sea, K2).
"""

from __future__ import annotations

from .. import geography as geo
from ..context import Ctx, Persona, State
from . import control
from . import forces as fo
from . import morale as mo

Point = tuple[float, float]
SAME_POINT_MILES = 1  # two places at sea within a mile of each other are the same point (K2)


def alive(p: Persona | None) -> bool:
    return p is not None and bool(p.get("alive", True))


def troops(p: Persona) -> int:
    """ALLIANCE's "the greater number of troops": the six troop types (crew are not troops)."""
    return mo.troops(p.get("assets") or {})


def men(p: Persona) -> int:
    """Troops and crew: the force of the twenty-to-one rule (RW-OQ-04)."""
    return mo.men(p.get("assets") or {})


def name(p: Persona) -> str:
    return fo.persona_name(p)


def sea_point(p: Persona) -> Point | None:
    sea = p.get("at_sea")
    if p.get("location") is None and sea:
        return (float(sea["lat"]), float(sea["lon"]))
    return None


def same_point(a: Point, b: Point) -> bool:
    return geo.great_circle_miles(a, b) <= SAME_POINT_MILES


def at(p: Persona, where: str | None, point: Point | None) -> bool:
    """Is he at the location `where` (either side of its walls), or at sea at `point`?"""
    if where is not None:
        return p.get("location") == where and not p.get("at_sea")
    here = sea_point(p)
    return here is not None and point is not None and same_point(here, point)


def present(ctx: Ctx, where: str, inside: bool) -> list[Persona]:
    """The living personae at `where` on that side of its walls (passengers aboard another's ship, who have nothing
    to fight with, excepted), in id order."""
    here = [p for p in ctx.state["personae"].values()
            if p.get("location") == where and alive(p) and not p.get("at_sea") and not p.get("with")
            and bool(p.get("inside")) == inside]
    return sorted(here, key=lambda p: p["id"])


def started_here(ctx: Ctx, p: Persona, where: str, inside: bool) -> bool:
    return ctx.start_location.get(p["id"]) == where and bool(ctx.start_inside.get(p["id"])) == inside


def in_tower(state: State, p: Persona) -> int | None:
    """The tower he is in (TOWERS: "assumed to be inside that tower at all times"), or None."""
    return control.tower_of(state, p)


def tower_controlled(state: State, p: Persona) -> int | None:
    """The tower he controls at his location, even when a standing order keeps him outside of it (URBAN BATTLE:
    "When either side in an urban battle controls a tower, it withdraws to that tower")."""
    return control.tower_of(state, {**p, "outside_towers": False})


def strongest(personae: list[Persona]) -> Persona | None:
    living = [p for p in personae if alive(p)]
    return min(living, key=lambda p: (-troops(p), p["id"])) if living else None
