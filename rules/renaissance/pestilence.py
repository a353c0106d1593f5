"""PESTILENCE: "Each turn in which Europeans, Africans or Asians are present at the same location as persona not
European, Asian or African, 10% of all the latter's troops are lost to disease."

Readings (docs/renaissance/upkeep.md): the meeting is judged at the start of the turn, after maintenance, where the
previous turn left everyone (a named location, inside or outside the walls alike; open sea is no location); a
passenger is where the ship's owner is; 10% of each troop type is lost, each rounded up (ATTRITION).
"""

from __future__ import annotations

from .context import Ctx, Persona
from .items import TROOPS
from .upkeep import attrition
from .war.morale import settle

OLD_WORLD = ("european", "african", "asian")
DISEASE_PERCENT = 10


def _where(ctx: Ctx, persona: Persona) -> str | None:
    host = ctx.persona(persona["with"]) if persona.get("with") else None
    return (host or persona).get("location")


def pestilence(ctx: Ctx) -> None:
    by_place: dict[str, list[Persona]] = {}
    for _, p in sorted(ctx.state["personae"].items()):
        place = _where(ctx, p)
        if p.get("alive", True) and place:
            by_place.setdefault(place, []).append(p)
    for place, present in sorted(by_place.items()):
        if not any(p.get("origin") in OLD_WORLD for p in present):
            continue
        for p in present:
            if p.get("origin") in OLD_WORLD:
                continue
            assets = p.setdefault("assets", {})
            lost = {t: min(int(assets[t]), attrition(int(assets[t]), DISEASE_PERCENT))
                    for t in TROOPS if int(assets.get(t, 0)) > 0}
            for t, n in lost.items():
                assets[t] = int(assets[t]) - n
            settle(p)  # MORALE: "When a persona controls neither troops, nor crew, his morale rating is zero"
            if lost:
                what = ", ".join(f"{n} {t}" for t, n in lost.items())
                ctx.tell(p["family"], f"{p['id']} {p.get('name', '')}: disease at {place} killed {what}.")
