"""What each player and the newsletter show after a phase.

A printout holds what only its reader may know (his own results, his Francs, his allocation) and the lists he
needs to write his next orders: his country's figures, his forces, his cities and ports, and the forces of
others next to his. The newsletter holds what everyone sees at the table: the phase's results and the board,
power by power. Both carry the board as a picture (ruleset.attachments); the text never relies on it."""

from __future__ import annotations

import textwrap
from typing import Any

from . import start
from .picture import OWNER_COLOURS
from .report import Report
from .state import (
    NEUTRAL,
    State,
    board,
    country_name,
    describe,
    held_by,
    player,
    playing,
    units_of,
    zone_control,
)

Section = dict[str, Any]


#: A line of a section, after the template's indent of two, stays within 78 columns; a longer one goes on in
#: lines indented two more.
LINE = 76


def sections_of(titled: dict[str, list[str]]) -> list[Section]:
    """A report's sections as a mail shows them: each line within 78 columns after the template's indent."""
    return [{"title": title, "lines": [part for line in lines for part in wrapped(line)]}
            for title, lines in titled.items() if lines]


def wrapped(line: str) -> list[str]:
    if len(line) <= LINE:
        return [line]
    return textwrap.wrap(line, LINE, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)


def place(state: State, territory: str) -> str:
    """A territory as a player reads it: "Pelgate (E2)"."""
    return f"{board(state).territories[territory].name} ({territory})"


def printouts(state: State, turn: int, phase: str, report: Report) -> dict[str, dict[str, Any]]:
    picture = picture_spec(state, turn, phase, report)
    return {p["name"]: {"sections": sections_of(report.private.get(p["name"], {})) + own_lists(state, p["name"]),
                        "country": country_name(state, p["name"]) if p["country"] else None,
                        "phase_title": phase_title(phase), "picture": picture}
            for p in state["players"]}


def newsletter(state: State, turn: int, phase: str, report: Report) -> dict[str, Any]:
    return {"sections": sections_of(report.public) + board_lists(state), "phase_title": phase_title(phase),
            "picture": picture_spec(state, turn, phase, report)}


def phase_title(phase: str) -> str:
    """"spring", "the League in spring", "picking round 2"."""
    if phase.endswith("-league"):
        return f"the League of Nations in {phase.removesuffix('-league')}"
    if phase.startswith("picking-"):
        return f"picking, round {phase.rsplit('-', 1)[1]}"
    return phase


# ---- a player's own lists ---------------------------------------------------------------------------------------

def own_lists(state: State, name: str) -> list[Section]:
    p = player(state, name)
    if p["country"] is None:
        return []
    b = board(state)
    figures = [f"{country_name(state, name)}, a {p['regime']}",
               f"GDP {p['gdp']}, Francs {p['francs']}, atomic research {p['research']}"
               + (f", bombs {p['bombs']}" if p["bombs"] else "")]
    zones = [f"{b.zones[z].name} ({z}): value {value}, {how} control"
             for z, value in state["zones"].items() for who, how in [zone_control(state, z)] if who == name]
    cities = [place(state, t) + (", port" if b.territories[t].port else "") + f": {b.territories[t].city}"
              for t in held_by(state, name) if b.territories[t].city]
    forces = [f"{place(state, t)}: {describe(s)}" + (" (railroad)" if t in state["railroads"] else "")
              for t, s in units_of(state, name)]
    land = held_by(state, name)
    sections = [{"title": "Your country", "lines": figures},
                {"title": f"Your zones ({len(zones)})", "lines": zones or ["none: you control no zone"]},
                {"title": f"Your cities and ports ({len(cities)})", "lines": cities or ["none"]},
                {"title": f"Your forces ({plural(len(forces), 'place')})", "lines": forces or ["none on the board"]},
                {"title": f"Your land ({plural(len(land), 'territory', 'territories')})",
                 "lines": _wrap(land, ", ")}]
    near = neighbours(state, name)
    if near:
        sections.append({"title": "Forces of others in or next to yours", "lines": near})
    return sections


def neighbours(state: State, name: str) -> list[str]:
    """Every other side's stack in or next to one of `name`'s territories or stacks."""
    b = board(state)
    mine = set(held_by(state, name)) | {t for t, _ in units_of(state, name)}
    near = sorted(mine | {n for t in mine for n in b.territories[t].neighbours}, key=list(b.territories).index)
    lines = []
    for t in near:
        for side, s in state["forces"].get(t, {}).items():
            if side != name:
                lines.append(f"{place(state, t)}: {side_name(state, side)} {describe(s, short=True)}")
    return lines


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def side_name(state: State, side: str) -> str:
    return "neutral" if side == NEUTRAL else f"{side} ({country_name(state, side)})"


def _wrap(items: list[str], sep: str, head: str = "", width: int = LINE) -> list[str]:
    """A long list on as many lines as it needs, broken only between its items (never inside "I9 1i 3s")."""
    lines, line = [], head
    for i, item in enumerate(items):
        piece = item + (sep.rstrip() if i < len(items) - 1 else "")
        if line and line != head and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    return [*lines, line] if line else lines


# ---- the board, power by power ---------------------------------------------------------------------------------

def board_lists(state: State) -> list[Section]:
    names = playing(state)
    if not names:
        return []
    powers = []
    for name in names:
        p = player(state, name)
        units = sum(s.get(k, 0) for _, s in units_of(state, name) for k in s if k != "cargo" and k != "supply")
        powers.append(f"{name}: {country_name(state, name)}, {p['regime']}; GDP {p['gdp']}, "
                      f"{plural(len(held_by(state, name)), 'territory', 'territories')}, {plural(units, 'unit')}")
    forces = []
    for side in (*names, NEUTRAL):
        stacks = [f"{t} {describe(s, short=True)}" for t, s in units_of(state, side)]
        if stacks:
            forces += _wrap(stacks, "; ", f"{side_name(state, side)}:")
    if forces:
        forces.insert(0, "(i infantry, a armor, p aircraft, L light fleet, H heavy fleet, s supply)")
    return sections_of({"The powers": powers, "Forces on the board": forces})


# ---- the picture ---------------------------------------------------------------------------------------------

def picture_spec(state: State, turn: int, phase: str, report: Report) -> dict[str, Any]:
    """What the picture shows, as JSON (the ruleset draws it: ruleset.attachments)."""
    names = [p["name"] for p in state["players"] if p["country"]]
    units: dict[str, str] = {}
    supplies: dict[str, int] = {}
    for t, sides in state["forces"].items():
        label = []
        for side, s in sides.items():
            short = describe({k: v for k, v in s.items() if k != "supply"}, short=True)
            if short:
                label.append(short if len(sides) == 1 else f"{_initials(state, side)} {short}")
            supplies[t] = supplies.get(t, 0) + s.get("supply", 0)
        if label:
            units[t] = " / ".join(label)
    return {
        "owners": {t: who for t, who in state["owners"].items() if who},
        "colours": {n: OWNER_COLOURS[i % len(OWNER_COLOURS)] for i, n in enumerate(names)},
        "names": {n: f"{n} ({country_name(state, n)})" for n in names},
        "units": units,
        "supplies": {t: n for t, n in supplies.items() if n},
        "railroads": state["railroads"],
        "destroyed": report.destroyed,
        "attacks": [list(a) for a in report.attacks],
        "caption": f"Turn {turn}, {phase_title(phase)}",
    }


def _initials(state: State, side: str) -> str:
    if side == NEUTRAL:
        return "N"
    country = player(state, side)["country"]
    return country or side[:3]


def status(state: State, name: str) -> dict[str, Any]:
    p = player(state, name)
    if p["country"] is None:
        return {"Country": "not picked yet"}
    return {"Country": f"{country_name(state, name)} ({p['regime']})", "GDP": p["gdp"], "Francs": p["francs"],
            "Atomic research": p["research"]}


# ---- the welcome ----------------------------------------------------------------------------------------------

def country_gdp(state: State, country: str) -> int:
    """What a country's GDP is at the start: the zones its land holds a majority of (GG-OQ-10)."""
    b = board(state)
    own = set(b.countries[country].territories)
    return sum(value for zone, value in state["zones"].items()
               if (held := sum(t in own for t in b.zones[zone].land)) and held * 100 >= 51 * len(b.zones[zone].land))


def welcome(state: State, name: str) -> dict[str, Any]:
    b = board(state)
    offered = [c for c in b.countries.values() if not c.neutral]
    neutral = [c.name for c in b.countries.values() if c.neutral]
    game = [f"{len(state['players'])} players on the map {b.title} (the picture below):",
            f"{len(offered)} countries to pick, {len(neutral)} Neutral Powers ({', '.join(neutral)}).",
            "Turn 1 starts with the picking: sealed bids, one round a deadline;",
            "the highest bid picks first. Then the initial purchase and placement.",
            "Each turn: the allocation of your GDP, then spring, fall and winter.",
            "Each mail replaces your orders on file for the phase: send them whole.",
            "Send HELP for every order, with examples; STATUS for what is on file.",
            f"The game ends when a player meets his secret goal, or after turn {state['options']['turns']}."]
    countries = [f"{c.name} ({c.id}), {c.size}: {len(c.territories)} territories, GDP {country_gdp(state, c.id)}"
                 for c in offered]
    examples = {k.word: k.example for k in start.ORDER_KINDS}
    first = ["A sealed bid in $ and the countries you want, best first, each",
             "with its regime (democracy or dictatorship), for example:",
             f"  {examples['bid']}", f"  {examples['pick']}",
             "The highest bid takes its first country still free; the others bid",
             "again in the next round, until every player has a country."]
    return {"sections": [{"title": "The game", "lines": game},
                         {"title": "The countries you may pick", "lines": countries},
                         {"title": "Your first orders: the picking", "lines": first}],
            "picture": picture_spec(state, 1, "picking", Report())}
