"""The code sheet players get (templates/renaissance/codesheet.txt.j2): its tables come from the same lists the
parser reads (items, classes, skill letters), so the sheet cannot promise a code the parser refuses; the prose and
the code tables are the template's. docs/renaissance-codes.md is the GM's and developers' copy, with the parser's
notes; a test checks that every code it names is on the players' sheet too.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import items
from .context import State
from .orderkinds import SKILL_LETTERS


@cache
def tables() -> dict[str, list[tuple[str, ...]]]:
    """The sheet's tables, the same for every reader: built once per process."""
    return {
        "items": sorted((items.code_of(n), n, ", ".join(c[:3] for c in items.classes_of(n)) or "-")
                        for n in items.ALL_ITEMS),
        "skills": sorted(SKILL_LETTERS.items()),
        "classes": sorted(items.CLASS_CODES.items()),
    }


def families_of(state: State, player: str | None) -> list[dict[str, str]]:
    """The reader's families with the header line that begins each one's orders (/PLAYER *FAMILY), and the
    personae with the header that begins each one's own (*Location .nnnn)."""
    if player is None or player not in state["players"]:
        return []
    out = []
    for name, fam in state["families"].items():
        if fam["player"] != player:
            continue
        personae = [state["personae"][pid] for pid in fam["personae"]
                    if pid in state["personae"] and state["personae"][pid].get("alive", True)]
        out.append({"name": name, "header": f"/{player} *{name}",
                    "personae": [{"id": p["id"], "name": p["name"], "header": persona_header(p)}
                                 for p in personae]})
    return out


def persona_header(persona: dict[str, Any]) -> str:
    """The header a persona's orders begin with: where he starts the month (blanks out, as checks.py asks;
    "Sea" for one at sea), and his number."""
    where = (persona.get("location") or "Sea").replace(" ", "")
    return f"*{where} .{persona['id']}"


def example(state: State, player: str | None) -> list[str]:
    """The sheet's example of a family's orders, in the reader's own header lines: his first family and its
    first two living personae (a transfer from the first to the second), or a purchase and a pilgrimage for a
    family of one. Nothing for a reader the game does not know: the sheet then shows the generic example."""
    mine = families_of(state, player)
    if not mine or not mine[0]["personae"]:
        return []
    family = mine[0]
    first, *others = family["personae"]
    if not others:
        return [family["header"], first["header"], "Bwool100 HP"]
    return [family["header"], first["header"], f"T{others[0]['id']}grain500 Bwool100", others[0]["header"], "HP"]
