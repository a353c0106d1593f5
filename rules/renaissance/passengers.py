"""Passengers: who is aboard whose ship, where they are (TRAVEL: "his location becomes 'with' the owner of the
ship", reading T9 in docs/renaissance/travel.md), and death that takes them along with their ship's owner.

travel.py boards and lands them; war/naval.py sinks an owner's last ship at sea. Both need `kill`, so it lives
here, below both (war/naval.py is below travel.py: travel.py meets its interceptors through the war package).
"""

from __future__ import annotations

from .context import Ctx, Persona


def aboard_index(ctx: Ctx) -> dict[str, list[str]]:
    """owner -> his passengers' ids, built once a turn (a scan of every persona per move made a month of 5,000
    moves quadratic) and kept up to date by boarding and disembarking."""
    index = ctx.scratch.get("aboard")
    if index is None:
        index = {}
        for pid, p in sorted(ctx.state["personae"].items()):
            if p.get("with") and p["with"] != pid:
                index.setdefault(p["with"], []).append(pid)
        ctx.scratch["aboard"] = index
    return index


def set_aboard(ctx: Ctx, persona: Persona, owner_id: str | None) -> None:
    index = aboard_index(ctx)
    if persona.get("with") and persona["id"] in index.get(persona["with"], []):
        index[persona["with"]].remove(persona["id"])
    persona["with"] = owner_id
    if owner_id is not None:
        index.setdefault(owner_id, []).append(persona["id"])
        index[owner_id].sort()


def passengers_of(ctx: Ctx, owner_id: str) -> list[Persona]:
    people = ctx.state["personae"]
    return [people[pid] for pid in aboard_index(ctx).get(owner_id, ()) if people[pid].get("alive", True)]


def follow(ctx: Ctx, owner: Persona) -> None:
    """A passenger's location is his ship's (T9)."""
    for p in passengers_of(ctx, owner["id"]):
        p["location"] = owner.get("location")
        p["at_sea"] = dict(owner["at_sea"]) if owner.get("at_sea") else None
        p["inside"] = bool(owner.get("inside"))


def kill(ctx: Ctx, persona: Persona, cause: str) -> list[str]:
    """Mark him dead for the succession step; his passengers die with him. Returns the ids killed."""
    persona["alive"] = False
    persona["died"] = cause
    dead = [persona["id"]]
    for p in passengers_of(ctx, persona["id"]):
        dead.extend(kill(ctx, p, f"{cause}, aboard {persona['id']}'s ship"))
    return dead
