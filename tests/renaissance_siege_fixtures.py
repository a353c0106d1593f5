"""A small siege world for the siege tests (no tests here): a persona, Pisa (FAR 30, FAS 80), and the same state
one month on."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance.context import Ctx


def person(pid: str, family: str, inside: bool, assets: dict[str, int], location: str = "Pisa",
           **more: Any) -> dict[str, Any]:
    return {"id": pid, "name": f"P{pid}", "family": family, "religion": "catholic", "alive": True,
            "location": location, "inside": inside, "assets": dict(assets), "skills": {}, "piety": 150,
            "popularity": 300, "morale": 500, **more}


def pisa(**more: Any) -> dict[str, Any]:
    return {"name": "Pisa", "population": 10000, "far": 30, "fas": 80, "garrison": 0, "towers": [],
            "offices": {}, **more}


def next_turn(ctx: Ctx) -> Ctx:
    """The same state one month on, each persona starting where the last month left him."""
    new = Ctx(state=ctx.state, turn=ctx.turn + 1, rng=random.Random(1))
    for pid, p in ctx.state["personae"].items():
        new.start_location[pid] = p["location"]
        new.start_inside[pid] = bool(p["inside"])
    return new
