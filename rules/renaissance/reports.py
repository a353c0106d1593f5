"""What the month's printouts and newsletter show, as template contexts (templates/renaissance/).

The war's part (docs/renaissance/war.md, section "conflict"): each persona's troops, crew, ships and morale and the
maintenance they will cost at the start of the next month (upkeep.py's tables); each location's garrison, FAR and
FAS, towers with their owners and garrisons, and its siege; the month's battle reports of the families involved
(war/reports.py); the newsletter's sieges on file, whose existence it publishes (CONFLICT ORDERS: "a siege line
whose existence has been published in the Newsletter").
"""

from __future__ import annotations

import math
from typing import Any

from . import accounts, church_offices, codesheet, upkeep
from .calendar import MONTHS, month_name, month_of
from .context import State
from .families import Result
from .grandmasters import order_name, orders
from .items import SHIPS, TROOPS
from .offices import OFFICE_TITLES, OFFICES, offices_by_holder
from .war import reports as war_reports
from .war.control import full_tower_garrison

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


def forces_of(assets: dict[str, Any]) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """His troops (the six types and crew) and his ships, for the printout."""
    men = [(t, int(assets[t])) for t in (*TROOPS, "crew") if int(assets.get(t, 0)) > 0]
    ships = [(s, int(assets[s])) for s in SHIPS if int(assets.get(s, 0)) > 0]
    return men, ships


def upkeep_due(assets: dict[str, Any], month: int) -> list[str]:
    """The maintenance due at the start of `month` for what he holds now (MAINTENANCE, upkeep.py's tables): ten
    ducats a man in May to September, half a unit of food a head in October to March (the first 1,000 horses,
    sheep and cattle free in October, November, December and March), naval materials in April."""
    lines: list[str] = []
    if month in upkeep.DUCAT_MONTHS:
        heads = [(u, int(assets.get(u, 0))) for u in upkeep.DUCAT_MONTHS[month] if int(assets.get(u, 0)) > 0]
        if heads:
            total = upkeep.DUCATS_PER_MAN * sum(n for _, n in heads)
            lines.append(f"{upkeep.DUCATS_PER_MAN} ducats a man for {_listed(heads)}: {total:,} ducats")
    elif month in upkeep.FOOD_MONTHS:
        heads = [(u, int(assets.get(u, 0))) for u in upkeep.FOOD_MONTHS[month] if int(assets.get(u, 0)) > 0]
        herds = sum(n for u, n in heads if u in ("horse", "sheep", "cattle"))
        free = min(herds, upkeep.FREE_HEADS) if month in upkeep.FREE_MONTHS else 0
        paying = sum(n for _, n in heads) - free
        if paying > 0:
            spared = f", {free:,} head of herd free" if free else ""
            lines.append(f"half a unit of food a head for {_listed(heads)}{spared}: {math.ceil(paying / 2):,} units "
                         f"of food")
    if month == upkeep.NAVAL_MONTH:
        need: dict[str, int] = {}
        for ship, materials in upkeep.NAVAL.items():
            for m, q in materials.items():
                if int(assets.get(ship, 0)) > 0:
                    need[m] = need.get(m, 0) + q * int(assets[ship])
        if need:
            lines.append("naval materials: " + ", ".join(f"{q:,} {m}" for m, q in need.items()))
    return [f"at the start of {MONTHS[month - 1]}: {line}" for line in lines]


def _listed(heads: list[tuple[str, int]]) -> str:
    return ", ".join(f"{n:,} {u}" for u, n in heads)


def offers_to(state: State, pid: str) -> list[str]:
    """RH-OQ-57: what awaits his acceptance, with the word that accepts it and its deadline ("no later than the end
    of the subsequent turn": the end of the month after the offer's): an archbishopric, a hat or the papal throne
    (church_offices.py), a grandmastership he was elected to (military_orders.py)."""
    found = []
    for entry in state.get(church_offices.OFFERS) or []:
        if entry["to"] == pid:
            word = (entry["location"] or "").replace(" ", "") if entry["office"] == "archbishop" else entry["office"]
            found.append(f"{church_offices.offer_words(entry)}: accept with OA{word} by the end of "
                         f"{month_name(state, int(entry['turn']) + 1)}")
    for key, order in sorted(orders(state).items()):
        elected = order.get("elected") or {}
        if elected.get("persona") == pid:
            found.append(f"the grandmastership of {order_name(state, key)}: accept with OGA by the end of "
                         f"{month_name(state, int(elected['turn']) + 1)}")
    return found


def persona_view(persona: dict[str, Any], held: list[str], upkeep_month: int | None = None,
                 offered: list[str] | None = None) -> dict[str, Any]:
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
        "titles": list(persona.get("titles", [])), "offices": held, "offered": offered or [],
        "assets": sorted((k, v) for k, v in persona.get("assets", {}).items() if v),
        "predecessors": persona.get("predecessors", []),
        "successor": persona.get("successor_named"),  # OHnnnn, standing (THE ISLAMIC HIERARCHY)
        **dict(zip(("troops", "ships"), forces_of(persona.get("assets", {})), strict=True)),
        "upkeep": upkeep_due(persona.get("assets", {}), upkeep_month) if upkeep_month else [],
    }


def tower_view(state: State, tower: dict[str, Any]) -> dict[str, Any]:
    """A tower as the location report shows it: its FAS, owner and the garrison it starts each turn with (TOWERS:
    "Towers always start the turn with a tower garrison equal to 10% (rounded down) of their FAS"), and its own
    siege (KSTn)."""
    return {"name": tower.get("name", ""), "fas": int(tower.get("fas", 0)), "owner": tower.get("owner"),
            "garrison": full_tower_garrison(tower),
            "siege": siege_view(state, tower)}


def siege_view(state: State, loc: dict[str, Any]) -> str | None:
    """The siege on file of a location (or of a tower: the same record), in words (SIEGE: "Siege orders take
    effect the turn after their issuance")."""
    siege = loc.get("siege")
    if not siege:
        return None
    who = holder_name(state, siege.get("besieger"))
    if siege.get("since") is not None:
        months = int(siege.get("months", 0))
        held = f"; {months} month{'s' if months != 1 else ''} of successful siege" if months else ""
        return f"under siege by {who} since {month_name(state, int(siege['since']))}{held}"
    ordered = siege.get("ordered")
    when = f" from {month_name(state, int(ordered) + 1)}" if ordered is not None else ""
    return f"siege ordered by {who}, in effect{when}"


def location_view(state: State, loc: dict[str, Any]) -> dict[str, Any]:
    offices = [(OFFICE_TITLES[o], holder_name(state, loc.get("offices", {}).get(o))) for o in OFFICES
               if loc.get("offices", {}).get(o)]
    return {
        "name": loc["name"], "population": loc["population"], "wealth": loc["wealth"],
        "loyalty": loc["loyalty"], "religion": loc.get("religion", ""), "harbor": loc.get("harbor"),
        "far": loc.get("far", 0), "fas": loc.get("fas", 0),
        "towers": [tower_view(state, t) for t in loc.get("towers", [])], "siege": siege_view(state, loc),
        "garrison": loc.get("garrison", 0), "offices": offices,
        "selection": SELECTION.get(loc.get("magistrate_selection", ""), "-"),
        "tariffs": loc.get("tariffs", {"import": 0, "export": 0}),
        "supplied": sorted((item, m["qty"], m["price"]) for item, m in loc.get("supplied", {}).items()),
        "demanded": sorted((cls, m["qty"], m["price"]) for cls, m in loc.get("demanded", {}).items()),
        "ingress_denied": loc.get("ingress_denied", []), "egress_denied": loc.get("egress_denied", []),
        "ingress": loc.get("ingress"), "ingress_waiting": [w["family"] for w in loc.get("ingress_waiting", [])],
        "external_market_open": bool(loc.get("external_market_open")),
        "external_market_rights": loc.get("external_market_rights", []),
        "may_colonize": loc.get("may_colonize", False),
    }


def family_view(state: State, fname: str, held: dict[str, list[str]],
                upkeep_month: int | None = None) -> dict[str, Any]:
    """A family's sheet: its personae (with the maintenance due at the start of `upkeep_month`), and a report on
    each location where one of them is."""
    fam = state["families"][fname]
    personae = [state["personae"][pid] for pid in fam["personae"] if pid in state["personae"]]
    places = []
    for p in personae:
        if p.get("location") and p["location"] not in places and not p.get("at_sea"):
            places.append(p["location"])
    return {
        "name": fname, "religion": fam.get("religion", ""),
        "personae": [persona_view(p, held.get(p["id"], []), upkeep_month, offers_to(state, p["id"]))
                     for p in personae],
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
            "families": [{**family_view(state, f, held, month_of(state, turn)), "header": headers[f]["header"],
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
        families = [{**family_view(state, fname, held, month_of(state, turn + 1)),
                     "outcomes": result.outcomes.get(fname, []), "skipped": result.skipped.get(fname),
                     "messages": result.ctx.messages.get(fname, []),
                     "battles": war_reports.records_for(result.ctx, fname)}
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
            "offices": family_offices(state), "prices": prices_current(state), "sieges": sieges(state)}


def sieges(state: State) -> list[str]:
    """Every siege on file, for the newsletter: CONFLICT ORDERS, "When a persona crosses a siege line whose existence
    has been published in the Newsletter, he, not the besieger, is deemed to have initiated the conflict"."""
    out = []
    for name in sorted(state["locations"]):
        if (words := siege_view(state, state["locations"][name])) is not None:
            out.append(f"{name}: {words}")
        for n, tower in enumerate(state["locations"][name].get("towers") or [], start=1):
            if (words := siege_view(state, tower)) is not None:
                out.append(f"{name}, tower {n} ({tower.get('name', '')}): {words}")
    return out


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
