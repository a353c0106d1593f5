"""What the month's printouts and newsletter show, as template contexts (templates/renaissance/)."""

from __future__ import annotations

from typing import Any

from . import accounts, codesheet
from .calendar import month_name
from .engine import State
from .execute import Result
from .offices import OFFICE_TITLES, OFFICES, offices_by_holder

SELECTION = {"e": "elected", "s": "appointed by the sovereign", "f": "appointed by the feudatory",
             "t": "appointed by the tenant", "b": "appointed by the bishop", "a": "appointed by the archbishop"}


def holder_name(state: State, holder: str | None) -> str:
    """An office holder for print: a persona's name and family, or a non-player's name as given."""
    if not holder:
        return "-"
    persona = state["personae"].get(holder)
    if persona is None:
        return holder
    return f"{persona['name']} ({persona['family']} .{holder})"


def persona_view(persona: dict[str, Any], held: list[str]) -> dict[str, Any]:
    if persona.get("with"):
        where = f"aboard the ships of .{persona['with']}"
    elif persona.get("at_sea"):
        where = f"at sea, {persona['at_sea']['lat']:.2f} {persona['at_sea']['lon']:.2f}"
    else:
        where = f"{'inside' if persona.get('inside') else 'outside'} {persona.get('location')}"
    return {
        "id": persona["id"], "name": persona["name"], "where": where,
        "popularity": persona.get("popularity", 0), "piety": persona.get("piety", 0),
        "morale": persona.get("morale", 0), "religion": persona.get("religion", ""),
        "guild": persona.get("guild"), "citizenship": persona.get("citizenship"),
        "skills": sorted((k, v) for k, v in persona.get("skills", {}).items() if v),
        "titles": list(persona.get("titles", [])), "offices": held,
        "assets": sorted((k, v) for k, v in persona.get("assets", {}).items() if v),
        "predecessors": persona.get("predecessors", []),
    }


def location_view(state: State, loc: dict[str, Any]) -> dict[str, Any]:
    offices = [(OFFICE_TITLES[o], holder_name(state, loc.get("offices", {}).get(o))) for o in OFFICES
               if loc.get("offices", {}).get(o)]
    return {
        "name": loc["name"], "population": loc["population"], "wealth": loc["wealth"],
        "loyalty": loc["loyalty"], "religion": loc.get("religion", ""), "harbor": loc.get("harbor"),
        "far": loc.get("far", 0), "fas": loc.get("fas", 0), "towers": loc.get("towers", []),
        "garrison": loc.get("garrison", 0), "offices": offices,
        "selection": SELECTION.get(loc.get("magistrate_selection", ""), "-"),
        "tariffs": loc.get("tariffs", {"import": 0, "export": 0}),
        "supplied": sorted((item, m["qty"], m["price"]) for item, m in loc.get("supplied", {}).items()),
        "demanded": sorted((cls, m["qty"], m["price"]) for cls, m in loc.get("demanded", {}).items()),
        "ingress_denied": loc.get("ingress_denied", []), "egress_denied": loc.get("egress_denied", []),
        "may_colonize": loc.get("may_colonize", False),
    }


def family_view(state: State, fname: str, held: dict[str, list[str]]) -> dict[str, Any]:
    """A family's sheet: its personae, and a report on each location where one of them is."""
    fam = state["families"][fname]
    personae = [state["personae"][pid] for pid in fam["personae"] if pid in state["personae"]]
    places = []
    for p in personae:
        if p.get("location") and p["location"] not in places and not p.get("at_sea"):
            places.append(p["location"])
    return {
        "name": fname, "religion": fam.get("religion", ""),
        "personae": [persona_view(p, held.get(p["id"], [])) for p in personae],
        "locations": [location_view(state, state["locations"][n]) for n in places if n in state["locations"]],
    }


def welcome(state: State, player: str, turn: int) -> dict[str, Any] | None:
    """The welcome printout of a player (None if he directs no family): each family's sheet with the header
    lines its orders begin with, before his first orders, for `turn`. Welcomed again only when his families
    change (`welcome_for`)."""
    families = sorted(f for f, fam in state["families"].items() if fam["player"] == player)
    if not families or player not in state["players"]:
        return None
    held = offices_by_holder(state)
    headers = {f["name"]: f for f in codesheet.families_of(state, player)}
    return {"welcome_for": "+".join(families), "month": month_name(state, turn),
            "player_name": state["players"][player].get("name", player),
            "families": [{**family_view(state, f, held), "header": headers[f]["header"],
                          "persona_headers": headers[f]["personae"]} for f in families],
            "account": accounts.account_lines(state, player, turn)}


def printouts(state: State, turn: int, result: Result) -> dict[str, dict[str, Any]]:
    """player code -> printout context: a section per family the player directs."""
    held = offices_by_holder(state)
    by_player: dict[str, list[str]] = {}
    for name, fam in state["families"].items():
        by_player.setdefault(fam["player"], []).append(name)
    out: dict[str, dict[str, Any]] = {}
    for code in state["players"]:
        families = [{**family_view(state, fname, held), "outcomes": result.outcomes.get(fname, []),
                     "skipped": result.skipped.get(fname), "messages": result.ctx.messages.get(fname, [])}
                    for fname in by_player.get(code, [])]
        out[code] = {"month": month_name(state, turn), "player_name": state["players"][code].get("name", code),
                     "families": families, "account": accounts.account_lines(state, code, turn)}
    return out


def newsletter(state: State, turn: int, result: Result) -> dict[str, Any]:
    """What every player may know (THE PRINTOUT: "a newsletter containing news of general interest including a
    summary of the prior turn's chief events"): the month's public events (deaths, elections, works, markets
    renewed...), the GM's bulletins, who of the families holds which office, and the prices current. Never an
    address or an account: those are each player's own."""
    return {"month": month_name(state, turn), "next_month": month_name(state, turn + 1),
            "news": list(result.ctx.news), "bulletins": list(result.bulletins),
            "pope": holder_name(state, state.get("pope")) if state.get("pope") else None,
            "offices": family_offices(state), "prices": prices_current(state)}


def family_offices(state: State) -> list[tuple[str, list[str]]]:
    """Each persona of a family who holds offices, with them: offices are public (every location's report lists
    its holders), and the families' are the ones the players play for. Non-player holders are left to the
    location reports: all of them would fill pages."""
    held = offices_by_holder(state)
    return [(holder_name(state, pid), held[pid]) for pid in sorted(held) if pid in state["personae"]
            and state["personae"][pid].get("alive", True)]


def prices_current(state: State) -> dict[str, list[tuple[str, int, str, int]]]:
    """The best price on offer in the world: per item the cheapest the locals sell it at, per class the most
    they pay for it (item or class, price, where, quantity), only where some quantity is left."""
    supplied: dict[str, tuple[str, int, str, int]] = {}
    demanded: dict[str, tuple[str, int, str, int]] = {}
    for name in sorted(state["locations"]):
        loc = state["locations"][name]
        for item, m in loc.get("supplied", {}).items():
            if m["qty"] > 0 and (item not in supplied or m["price"] < supplied[item][1]):
                supplied[item] = (item, m["price"], name, m["qty"])
        for cls, m in loc.get("demanded", {}).items():
            if m["qty"] > 0 and (cls not in demanded or m["price"] > demanded[cls][1]):
                demanded[cls] = (cls, m["price"], name, m["qty"])
    return {"supplied": [supplied[k] for k in sorted(supplied)], "demanded": [demanded[k] for k in sorted(demanded)]}


def events(result: Result, turn: int) -> list[dict[str, Any]]:
    """Machine-readable record of the month (kept on the turn row): every order's outcome and the news."""
    out: list[dict[str, Any]] = []
    for family, outcomes in result.outcomes.items():
        out += [{"type": "order", "turn": turn, "family": family, **o} for o in outcomes]
    out += [{"type": "skipped", "turn": turn, "family": f, "why": why} for f, why in result.skipped.items()]
    out += [{"type": "news", "turn": turn, "text": n} for n in result.ctx.news]
    out += [{"type": "error", "turn": turn, **e} for e in result.errors]
    return out
