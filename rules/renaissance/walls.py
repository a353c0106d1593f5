"""INGRESS, EGRESS & EXTERNAL MARKETS (the last paragraph of the rules section APOSTASY): the lists a location keeps
at its walls, and who may pass them or trade outside them. The orders and the waiting list's turn step that change
the lists are ingress.py's; this module reads them (travel, commerce, the setup).

A location holds, in the state: `ingress`, the families with ingress (at most 20, set at setup from its
citizens, tower owners and office-holders); `ingress_waiting`, families "waiting for ingress" ({"family", "added"}:
the turn it was added to the waiting list, or None while it waits its turn to be added, one a turn);
`ingress_denied`, the families the controller has removed from the list (for the printout); `egress_denied`
(at most 5); `external_market_open` (false at setup) and `external_market_rights`, families that may use the closed
external market (at most 5). Readings I1...: docs/renaissance/ingress.md.
"""

from __future__ import annotations

from typing import Any

from .offices import archbishop

State = dict[str, Any]
Location = dict[str, Any]
Persona = dict[str, Any]

# "Up to twenty families may have ingress to a location."
MAX_INGRESS = 20
# "The de facto controller of a location may freely deny egress from that location to five families."
MAX_EGRESS_DENIED = 5
# "A de facto controller may freely grant the right to use closed external markets to up to five families."
MAX_MARKET_RIGHTS = 5
# "...a family that is added to a location's waiting list one turn receives ingress the first day of the second
# turn after that turn."
WAIT_TURNS = 2
# The offices whose holders' families have ingress "When a location is first set up", in the rules' order.
SETUP_OFFICES = ("sovereign", "feudatory", "tenant", "magistrate", "bishop", "archbishop")


# ---- who has what --------------------------------------------------------------------------------------------

def has_ingress(location: Location | None, family: str) -> bool:
    """Is `family` on the location's ingress list? A state made before the list existed keeps its old rule
    (everyone unless denied) until the start of its next turn writes the list (I10)."""
    if location is None:
        return True
    if "ingress" in location:
        return family in location["ingress"]
    return family not in (location.get("ingress_denied") or ())


def trade_refusal(location: Location, persona: Persona) -> str | None:
    """Why this persona may not trade with the locals here, or None. "When an external market is closed, all
    personae inside the location may still freely trade with the locals. Personae outside the location, however,
    may not trade with the locals unless they belong to a family which has ingress, or to a family which has
    specifically been granted the right to use the location's external market" (I7)."""
    if persona.get("inside") or location.get("external_market_open"):
        return None
    family = persona.get("family", "")
    if has_ingress(location, family) or family in (location.get("external_market_rights") or ()):
        return None
    return (f"he is outside the walls of {location['name']}, whose external market is closed, and the {family} "
            "family has neither ingress nor the right to use it")


def citizen_families(state: State) -> dict[str, list[str]]:
    """location -> the families of its citizens, in persona id order: one pass over the personae, so a world of
    4,000 locations does not scan every persona for each."""
    found: dict[str, list[str]] = {}
    for pid in sorted(state["personae"]):
        persona = state["personae"][pid]
        families = found.setdefault(persona.get("citizenship") or "", [])
        if persona.get("family") not in families:
            families.append(persona.get("family"))
    return found


def default_ingress(state: State, name: str, citizens: dict[str, list[str]] | None = None) -> list[str]:
    """The families with ingress "When a location is first set up": the families of its office-holders (in the
    rules' order), of its tower owners, then of its citizens (by persona id); at most 20 (I2). `citizens` is
    citizen_families(state), when the caller asks for many locations."""
    location = state["locations"][name]
    personae = state["personae"]
    families: list[str] = []

    def add(family: str | None) -> None:
        if family and family in state["families"] and family not in families:
            families.append(family)

    offices = location.get("offices") or {}
    for office in SETUP_OFFICES:
        who = archbishop(state, location) if office == "archbishop" else offices.get(office)
        add((personae.get(who or "") or {}).get("family"))
    for tower in location.get("towers") or ():
        add(tower.get("owner"))  # an office word is no family and adds nothing: its holder is counted above
    for family in (citizens if citizens is not None else citizen_families(state)).get(name, ()):
        add(family)
    denied = set(location.get("ingress_denied") or ())
    return [f for f in families if f not in denied][:MAX_INGRESS]


def await_ingress(state: State, name: str, family: str, turn: int) -> str:
    """Record a family as "waiting for ingress" at a location (a tower's recipient, a family tower's beneficiary):
    added to the waiting list this turn if no other family was, else queued behind those already waiting (I4).
    Returns what happened, for the printout."""
    location = state["locations"][name]
    if has_ingress(location, family):
        return f"the {family} family already has ingress to {name}"
    waiting = location.setdefault("ingress_waiting", [])
    if any(w["family"] == family for w in waiting):
        return f"the {family} family is already waiting for ingress to {name}"
    added = turn if not any(w["added"] == turn for w in waiting) else None
    waiting.append({"family": family, "added": added})
    if added is None:
        return f"the {family} family is queued for {name}'s waiting list (one family is added a turn)"
    return f"the {family} family is waiting for ingress to {name}: it receives it at the start of turn {turn + 2}"
