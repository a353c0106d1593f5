"""The GM's to-do mail after each council session: what he is to carry out in the strategy game during the ten
gameturns (templates/jungle/gm_report.txt.j2 prints it).

Its sections: the research pick of every gameturn, the production picks of every city, the social policy,
every unit's standing orders, then the entries other parts of the game left for the GM in `World.proposals`
and `World.todo`. Such an entry is a dict ``{"kind": ..., "character": str | None, "text": str}`` and may
also hold ``"city"``, ``"amount"`` (gold) and ``"house"``; its kind picks its section (`SECTIONS`):
"proposal" (diplomatic proposals, with the ``"nation"``), "spend" (gold a Tlatoani spends), "rule" or
"rule change" (rule-change proposals), "disband" (units disbanded),
"found city", "capture", "raze", "annex", "liberate" (cities founded, captured, annexed, liberated or razed),
"update refused" (a GM's update that could not be applied); any other kind goes under "Other matters" with
its kind in the line.
"""

from __future__ import annotations

from typing import Any

from .model import World
from .research import GAMETURNS

#: An entry's kind -> the title of its section, in the report's order.
SECTIONS: dict[str, str] = {
    "proposal": "Diplomatic proposals to make",
    "spend": "Gold to spend",
    "rule": "Rule-change proposals",
    "rule change": "Rule-change proposals",
    "disband": "Units to disband",
    "found city": "Cities founded, captured, annexed, liberated or razed",
    "capture": "Cities founded, captured, annexed, liberated or razed",
    "annex": "Cities founded, captured, annexed, liberated or razed",
    "liberate": "Cities founded, captured, annexed, liberated or razed",
    "raze": "Cities founded, captured, annexed, liberated or razed",
    "update refused": "Your update",
}
OTHER = "Other matters"
#: Sections printed only when they have entries; the others say "none", so the GM sees nothing was asked.
WHEN_ANY = (OTHER, SECTIONS["update refused"])


def gm_report(world: World, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The to-do report's context: ``session`` and ``sections`` (a list of {"title", "lines"}), from the world
    after the Evening and `entries`, the picks `research.run_draws` returned."""
    sections = [_research(entries), *_production(world, entries), _policy(world, entries), _units(world)]
    grouped: dict[str, list[str]] = {title: [] for title in SECTIONS.values()}
    grouped[OTHER] = []
    for entry in [*world.proposals, *world.todo]:
        title = SECTIONS.get(entry.get("kind", ""), OTHER)
        grouped[title].append(_line(entry, with_kind=title == OTHER))
    cities = SECTIONS["capture"]
    if not grouped[cities]:
        # CAPTURING CITIES: "If not specified, it shall be assumed that a captured city becomes a puppet state".
        grouped[cities].append("none ordered in council (captured cities become puppets unless the "
                               "capturing unit's orders say otherwise)")
    sections += [{"title": t, "lines": lines} for t, lines in grouped.items() if lines or t not in WHEN_ANY]
    for s in sections:
        if not s["lines"]:
            s["lines"] = ["none"]
    return {"session": world.session, "sections": sections}


def _who(entry: dict[str, Any]) -> str:
    if entry.get("character") is None:
        return "NPCs"
    how = "" if entry.get("weighted", True) else ", unweighted"
    return f"{entry['character']} of {entry['house']}{how}"


def _research(entries: list[dict[str, Any]]) -> dict[str, Any]:
    lines = [f"gameturn {e['gameturn']}: {e['technology']} ({_who(e)})"
             for e in entries if e["kind"] == "research"]
    return {"title": f"Research, gameturns 1 to {GAMETURNS}", "lines": lines}


def _production(world: World, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for city in world.cities:
        lines = [f"gameturn {e['gameturn']}: {e['item']} ({_who(e)})"
                 for e in entries if e["kind"] == "production" and e["city"] == city]
        out.append({"title": f"Production in {city}", "lines": lines or ["nothing producible (no builds given)"]})
    return out


def _policy(world: World, entries: list[dict[str, Any]]) -> dict[str, Any]:
    drawn = next((e for e in entries if e["kind"] == "policy"), None)
    if drawn is None:
        line = "no policy due"
    elif drawn["deferred"]:
        line = "due, but no one supports a policy: deferred to a later session"
    else:
        line = f"adopt {drawn['policy']} (Minister: {drawn['character']} of {drawn['house']})"
    return {"title": "Social policy", "lines": [line]}


def _units(world: World) -> dict[str, Any]:
    lines = []
    for unit in world.units.values():
        crew = [c for c in world.living() if c.unit == unit.name]
        level = f"level {unit.level}" if unit.level is not None else "no level"
        head = f"{unit.name} ({unit.kind}, {level}, health {unit.health}"
        head += f", Captain {unit.captain})" if unit.captain else ", no Captain)"
        if not crew:
            lines.append(f"{head}: no player characters in it, yours to command")
        elif unit.fortify:
            lines.append(f"{head}: fortify (orders over the word limit)")
        elif unit.orders:
            since = f" [since session {unit.orders_session}]" if unit.orders_session is not None else ""
            lines.append(f"{head}{since}: {unit.orders}")
        else:
            lines.append(f"{head}: no orders given")
    return {"title": "Units' standing orders", "lines": lines}


def _line(entry: dict[str, Any], with_kind: bool) -> str:
    parts = [entry["kind"]] if with_kind else []
    if entry.get("character"):
        parts.append(str(entry["character"]))
    if entry.get("nation"):
        parts.append(f"to {entry['nation']}")
    if entry.get("city"):
        parts.append(f"in {entry['city']}")
    if entry.get("amount") is not None:
        parts.append(f"{entry['amount']} gold")
    head = ", ".join(parts)
    text = str(entry.get("text", "")).replace("\n", "; ")
    return f"{head}: {text}" if head and text else head or text
