"""Intake checks of Renaissance orders against the game state (docs/renaissance-state.md): whose family, whose
persona, where he stands, and whether the personae, locations and families an order names exist.

What the parser cannot know. Whether an order will succeed when its turn runs (enough ducats, the right skill)
is the engine's: the state may change before then. A problem shared by many orders (a family that is not the
player's) voids every order it concerns and is said in full once; a persona's starting location written wrong
is only a note (a warning): his orders stand and are carried out where he is.
"""

from __future__ import annotations

from typing import Any

from maild.ruleset import Diagnostic, Order

from .calendar import MONTHS, month_name, turn_of
from .orderkinds import BY_KIND
from .setup import find_location, location_key

State = dict[str, Any]
__all__ = ["check", "find_family", "find_location", "squash"]

# Args naming a persona, per kind ("9999", the locals, is no persona).
PERSONA_ARGS: dict[str, tuple[str, ...]] = {
    "transfer": ("to",), "instruct": ("trainee",), "work": ("target",), "indulgence": ("beneficiary",),
    "sermon": ("target",), "appoint_tax_collector": ("appointee",), "appoint_tithe_collector": ("appointee",),
    "appoint_magistrate": ("appointee",), "vote": ("candidate",), "guild": ("candidate",),
    "permit_boarding": ("passenger",),
}
LOCATION_ARGS: dict[str, tuple[str, ...]] = {
    "build_road": ("to",), "lengthen_road": ("to",), "appoint_tax_collector": ("location",),
    "appoint_tithe_collector": ("location",), "move": ("to",), "ask_depth": ("location",),
    "ask_coordinates": ("location",),
}
FAMILY_ARGS: dict[str, tuple[str, ...]] = {"access": ("target_family",), "ask_address": ("target_family",)}
LOCALS = "9999"


def squash(name: str) -> str:
    """How names are matched: case, blanks, '_' and '-' do not count (setup.location_key's rule)."""
    return location_key(name)


def find_family(state: State, written: str) -> str | None:
    families = state.get("families", {})
    if written in families:
        return written
    key = squash(written)
    return next((name for name in families if squash(name) == key), None)


def check(state: State, turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    said: dict[str, int] = {}  # message -> the line it was first said on
    noted: set[str] = set()

    for order in orders:
        for message in _problems(state, turn, player, order):
            if message.startswith(NOTE):
                # A note (his starting location written wrong) once per persona: his orders stand.
                if message not in noted:
                    noted.add(message)
                    out.append(Diagnostic(order.line, order.text, message[len(NOTE):], warning=True))
                continue
            # An error voids every order it concerns, so each gets its diagnostic; the ack says it once in full.
            if message in said:
                message = f"as on line {said[message]}: {message}"
            else:
                said[message] = order.line
            out.append(Diagnostic(order.line, order.text, message))
    return out


NOTE = "note: "  # marks a problem that is only a note


def _problems(state: State, turn: int, player: str, order: Order) -> list[str]:
    a = order.args
    problems: list[str] = []
    written_player = str(a.get("player", ""))
    # No player (`maild orders check --game` on a file without a #GAME PLAYER line): whose orders they are is
    # taken from the /XXX line itself.
    player = player or written_player
    if written_player.upper() != player.upper():
        problems.append(f"/{written_player} is not your player code: yours is /{player}")
    family = find_family(state, str(a.get("family", "")))
    if family is None:
        mine = sorted(f for f, rec in state.get("families", {}).items() if rec.get("player") == player)
        yours = f"; yours: {', '.join(mine)}" if mine else ""
        return [*problems, f"there is no family {a.get('family')}{yours}"]
    if state["families"][family].get("player") != player:
        return [*problems, f"the family {family} is not yours"]
    if not BY_KIND[order.kind].family_level and "persona" in a:
        problems += _persona_problems(state, family, a["persona"], a.get("start"))
    problems += _reference_problems(state, turn, order)
    return problems


def _persona_problems(state: State, family: str, persona_id: str, start: str | None) -> list[str]:
    persona = state.get("personae", {}).get(persona_id)
    if persona is None or persona.get("family") != family:
        owner = f" (he is of the {persona['family']} family)" if persona is not None else ""
        members = ", ".join(state["families"][family].get("personae", []))
        return [f"{persona_id} is not a persona of the {family} family{owner}; its personae are {members}"]
    if not persona.get("alive", True):
        return [f"{persona_id} ({persona.get('name', '')}) is dead; his orders are void"]
    where = persona.get("location")
    if where is not None:
        if start is None or squash(start) != squash(where):
            return [f"{NOTE}{persona_id} is at {where}, not at {start}: next time write "
                    f"*{where.replace(' ', '')} .{persona_id} (his orders stand; they are carried out where he is)"]
        return []
    sea = persona.get("at_sea")
    if sea and start is not None and not any(ch.isdigit() for ch in start) and squash(start) not in ("sea", "atsea"):
        return [f"{NOTE}{persona_id} is at sea at {sea['lat']:+.2f} {sea['lon']:+.2f}, not at {start} "
                f"(his orders stand)"]
    return []


def _reference_problems(state: State, turn: int, order: Order) -> list[str]:
    a = order.args
    problems: list[str] = []
    personae = state.get("personae", {})
    for key in PERSONA_ARGS.get(order.kind, ()):
        who = a.get(key)
        if who in (None, "populace") or (who == LOCALS and order.kind == "transfer"):
            continue
        if who not in personae:
            problems.append(f"there is no persona {who}")
        elif not personae[who].get("alive", True):
            problems.append(f"{who} ({personae[who].get('name', '')}) is dead")
    for key in LOCATION_ARGS.get(order.kind, ()):
        where = a.get(key)
        if where is not None and find_location(state, where) is None:
            problems.append(f"there is no location {where}")
    for where in a.get("via") or ():
        if find_location(state, where) is None:
            problems.append(f"there is no location {where} (a waypoint)")
    for key in FAMILY_ARGS.get(order.kind, ()):
        if find_family(state, a[key]) is None:
            problems.append(f"there is no family {a[key]}")
    if order.kind == "for_turn":
        wanted = turn_of(state, a["year"], a["month"])
        if wanted < turn:
            problems.append(f"{MONTHS[a['month'] - 1]} {a['year']} is past: this is the {month_name(state, turn)} "
                            f"turn")
    return problems
