"""The allocation: each player's sealed orders for his GDP (sections Allocation, Economic Development, Atomic
Research, Railroad Construction). Read from his mail, checked at once against his GDP (the ack shows what is
left), sealed at the deadline in state["pending"]["allocation"] and revealed at the reconciliation.

The lines (plain words; territories, cities and zones by id or name, in any case)::

    politics 15%                              # 0%, 15% or 30% of GDP (0% when no line is sent)
    develop 3 in ZA, 2 in Falhaven Zone       # GDP development points by zone, priced together
    research 10                               # units of atomic research
    build 2 infantry, 1 armor in Velden       # units and supplies in his cities (fleets in his ports)
    railroad in K14, K15                      # a railroad on land he holds

Readings (docs/grand-game.md, "The allocation"): GG-OQ-04, 11, 13, 14, 15, 28.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from maild.ruleset import Diagnostic, Order, OrderKind, PlacedOrder

from .economy import (
    GDP_PRICES,
    POLITICAL_LEVELS,
    RAILROAD_PRICE,
    SUPPLY,
    development_cost,
    gdp_cost,
    political_spending,
    research_cost,
)
from .reading import Read
from .report import Report
from .state import (
    FLEETS,
    State,
    board,
    country_name,
    describe,
    kind_of,
    owner,
    player,
    playing,
    zone_control,
)

POLITICS, DEVELOP, RESEARCH, BUILD, RAILROAD = "politics", "develop", "research", "build", "railroad"
KINDS: frozenset[str] = frozenset({POLITICS, DEVELOP, RESEARCH, BUILD, RAILROAD})
SECTION = "Allocation"  # the rules' section a refusal names
PENDING = "allocation"  # state["pending"][PENDING][player]: his sealed allocation

ORDER_KINDS: tuple[OrderKind, ...] = (
    OrderKind("politics", "politics 0%|15%|30%", "share of your GDP spent on politics: your Francs and your "
              "political card (0% when you send no line)", "politics 15%"),
    OrderKind("develop", "develop N in ZONE, N in ZONE", "GDP development points in zones you control; the "
              "turn's points are priced together by the table", "develop 3 in ZA, 2 in Falhaven Zone"),
    OrderKind("research", "research N", "units of atomic research (1, 2 or 3 GDP a unit by turn)", "research 10"),
    OrderKind("build", "build N KIND, N KIND in CITY", "units and supplies for GDP, placed in your city at the "
              "reconciliation (fleets in a port)", "build 2 infantry, 1 armor in Velden"),
    OrderKind("railroad", "railroad in TERRITORY, TERRITORY", "a railroad (2 GDP) on land you hold, built at the "
              "reconciliation", "railroad in C2"),
)

_TOKEN = re.compile(r"[^\s,;]+|[,;]")
_NUMBER = re.compile(r"\d{1,4}")
_SEPARATORS = {",", ";", "and", "&"}
_PLACE_WORDS = {"in", "at", "to", "into"}
_POLITICS_WORDS = {"politics", "political", "politic"}
_DEVELOP_WORDS = {"develop", "development", "develops", "dev"}
_RESEARCH_WORDS = {"research", "atomic"}
_BUILD_WORDS = {"build", "builds", "produce", "production"}
#: The first two start a line of their own ("railroad in K14"); all follow "build".
_RAILROAD_WORDS = ("railroad", "railroads", "railway", "railways", "rail", "rails")
_UNIT_WORDS = {"unit", "units", "point", "points", "pts", "gdp"}


# ---- reading a line -------------------------------------------------------------------------------------------

def read_line(line: str) -> Read | str | None:
    tokens = _TOKEN.findall(line)
    if not tokens:
        return None
    first = tokens[0].lower().rstrip(":")
    rest = tokens[1:]
    if first in _POLITICS_WORDS:
        return _read_politics(rest)
    if first in _DEVELOP_WORDS:
        return _read_develop(rest)
    if first in _RESEARCH_WORDS:
        if first == "atomic":
            if not rest or rest[0].lower() != "research":
                return None
            rest = rest[1:]
        return _read_research(rest)
    if first in _BUILD_WORDS and rest and rest[0].lower() in _RAILROAD_WORDS:
        return _read_railroad(rest[1:])
    if first in _BUILD_WORDS:
        return _read_build(rest)
    if first in ("buy", "purchase") and any(w.lower() in ("in", "at") for w in rest) \
            and not any(w.lower().startswith("franc") for w in rest):
        # "buy 2 infantry in Velden": a purchase in a named city is the allocation's (the initial purchase
        # names no place, start.py; a purchase with Francs says so, francs.py).
        return _read_build(rest)
    if first in _RAILROAD_WORDS[:2] and not _a_move(rest):
        return _read_railroad(rest)
    return None


def _a_move(tokens: list[str]) -> bool:
    """Whether the words after "railroad" read as a move by rail ("railroad 3 inf from K14 to K20"), a season's
    order, not a railroad to build."""
    return any(_NUMBER.fullmatch(t) or t.lower() in {"from", "to", "->"} for t in tokens)


def _read_politics(rest: list[str]) -> Read | str:
    words = [w.lower() for w in rest if w.lower() not in {"spending", "at", "of", "gdp", ":"}]
    text = "".join(words).removesuffix("percent").removesuffix("%")
    levels = ", ".join(f"{p}%" for p in POLITICAL_LEVELS)
    if not _NUMBER.fullmatch(text):
        return f"write the share of your GDP spent on politics, one of {levels}: politics 15%"
    percent = int(text)
    if percent not in POLITICAL_LEVELS:
        return f"politics is one of {levels} of your GDP, not {percent}%: politics 15%"
    return Read(POLITICS, {"percent": percent}, f"politics {percent}%")


def _items(tokens: list[str]) -> list[list[str]]:
    """The line's items, split at commas, semicolons and "and"."""
    items: list[list[str]] = [[]]
    for token in tokens:
        if token.lower() in _SEPARATORS:
            items.append([])
        else:
            items[-1].append(token)
    return [item for item in items if item]


def _read_develop(rest: list[str]) -> Read | str:
    wrong = "write the points and the zone: develop 3 in ZA, 2 in Falhaven Zone"
    points: list[list[Any]] = []
    for item in _items(rest):
        if _NUMBER.fullmatch(item[0]):
            number, words = int(item[0]), item[1:]
            while words and words[0].lower() in _UNIT_WORDS | _PLACE_WORDS:
                words = words[1:]
        elif _NUMBER.fullmatch(item[-1]):  # "ZA 3"
            number, words = int(item[-1]), item[:-1]
        else:
            return wrong
        if not words or number < 1:
            return wrong
        points.append([" ".join(words), number])
    if not points:
        return wrong
    total = sum(n for _, n in points)
    summary = ", ".join(f"{n} in {place}" for place, n in points)
    return Read(DEVELOP, {"points": points}, f"develop {summary} ({total} point{'s' * (total != 1)})")


def _read_research(rest: list[str]) -> Read | str:
    words = [w for w in rest if w.lower() not in _UNIT_WORDS]
    if len(words) != 1 or not _NUMBER.fullmatch(words[0]) or int(words[0]) < 1:
        return "write the units of atomic research: research 10"
    units = int(words[0])
    return Read(RESEARCH, {"units": units}, f"research {units} unit{'s' * (units != 1)}")


def _read_build(rest: list[str]) -> Read | str:
    wrong = "write the units and the city: build 2 infantry, 1 armor in Velden"
    units: list[list[Any]] = []
    waiting: list[tuple[str, int]] = []  # items whose city comes later on the line: "2 inf, 1 arm in Velden"
    for item in _items(rest):
        if not _NUMBER.fullmatch(item[0]) or int(item[0]) < 1:
            return wrong
        lowered = [w.lower() for w in item]
        at = next((i for i, w in enumerate(lowered) if w in _PLACE_WORDS), len(item))
        kind = kind_of(" ".join(item[1:at]))
        if kind is None:
            what = " ".join(item[1:at]) or "nothing"
            return f"{what} is not a unit or supply (infantry, armor, aircraft, light fleet, heavy fleet, " \
                   f"supply): {wrong}"
        waiting.append((kind, int(item[0])))
        if at < len(item):
            place = " ".join(item[at + 1:])
            if not place:
                return wrong
            units += [[place, k, n] for k, n in waiting]
            waiting = []
    if waiting or not units:
        return wrong
    return Read(BUILD, {"units": units}, "build " + _units_words(units))


def _units_words(units: Iterable[list[Any]]) -> str:
    """"2 infantry, 1 armor in Velden; 1 light fleet in Borhaven", places in the order first written."""
    by_place: dict[str, dict[str, int]] = {}
    for place, kind, n in units:
        stack = by_place.setdefault(place, {})
        stack[kind] = stack.get(kind, 0) + n
    return "; ".join(f"{describe(stack)} in {place}" for place, stack in by_place.items())


def _read_railroad(rest: list[str]) -> Read | str:
    places = []
    for item in _items(rest):
        words = item[1:] if item[0].lower() in _PLACE_WORDS else item
        if words:
            places.append(" ".join(words))
    if not places:
        return "write where to build it: railroad in K14"
    return Read(RAILROAD, {"places": places}, f"railroad in {', '.join(places)}")


# ---- places ---------------------------------------------------------------------------------------------------

def find_territory(state: State, word: str) -> str | None:
    """The land territory a player's word names: its id, its name or its city's name, in any case."""
    key = " ".join(word.lower().split())
    for t in board(state).territories.values():
        if t.land and key in (t.id.lower(), t.name.lower(), (t.city or "").lower()):
            return t.id
    return None


def find_zone(state: State, word: str) -> str | None:
    """The economic zone a player's word names: its id or its name, with or without "Zone"."""
    key = " ".join(word.lower().split())
    for z in board(state).zones.values():
        name = z.name.lower()
        if key in (z.id.lower(), name, name.removesuffix(" zone")):
            return z.id
    return None


def place_name(state: State, territory: str) -> str:
    """"Velden (E2)" for a city, "Pelgate (E2)" for other land."""
    t = board(state).territories[territory]
    return f"{t.city or t.name} ({t.id})"


def zone_name(state: State, zone: str) -> str:
    return f"{board(state).zones[zone].name} ({zone})"


# ---- what an allocation holds and costs -------------------------------------------------------------------------

@dataclass
class Allocation:
    """One player's allocation, its places resolved to ids."""

    gdp: int  # the GDP it is paid from
    turn: int  # the turn it prices research for
    politics: int = 0
    develop: dict[str, int] = field(default_factory=dict)  # zone -> points
    research: int = 0
    build: dict[str, dict[str, int]] = field(default_factory=dict)  # territory -> kind -> count
    railroads: list[str] = field(default_factory=list)
    sent: bool = False  # the player sent it (else the default: nothing bought, 0% politics)

    @property
    def points(self) -> int:
        return sum(self.develop.values())

    def costs(self) -> list[tuple[str, int]]:
        """What each part costs in GDP, the parts he bought (politics always: 0% is a choice too)."""
        parts = [(f"politics {self.politics}%", political_spending(self.gdp, self.politics))]
        if self.points:
            parts.append((f"development {self.points} point{'s' * (self.points != 1)}",
                          development_cost(self.gdp, self.points) or 0))
        if self.research:
            parts.append((f"research {self.research} unit{'s' * (self.research != 1)}",
                           research_cost(self.turn, self.research)))
        if self.build:
            bought = {kind: sum(stack.get(kind, 0) for stack in self.build.values()) for kind in GDP_PRICES}
            units = sum(n for kind, n in bought.items() if kind != SUPPLY)
            words = [f"{units} unit{'s' * (units != 1)}"] if units else []
            words += [f"{bought[SUPPLY]} supply"] if bought[SUPPLY] else []
            parts.append((" and ".join(words), gdp_cost(bought)))
        if self.railroads:
            n = len(self.railroads)
            parts.append((f"{n} railroad{'s' * (n != 1)}", RAILROAD_PRICE * n))
        return parts

    def total(self) -> int:
        return sum(cost for _, cost in self.costs())

    def to_json(self) -> dict[str, Any]:
        return {"gdp": self.gdp, "turn": self.turn, "politics": self.politics, "develop": self.develop,
                "research": self.research, "build": self.build, "railroads": self.railroads, "sent": self.sent,
                "spending": political_spending(self.gdp, self.politics), "total": self.total()}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Allocation:
        return cls(d["gdp"], d["turn"], d["politics"], dict(d["develop"]), d["research"],
                   {t: dict(s) for t, s in d["build"].items()}, list(d["railroads"]), d["sent"])


def default(state: State, name: str) -> Allocation:
    """A player's allocation before he sends any line, and a silent player's (GG-OQ-28): nothing bought, 0%."""
    return Allocation(gdp=player(state, name)["gdp"], turn=state["turn"])


@dataclass
class Assessment:
    allocation: Allocation
    refused: list[tuple[Order, str]]  # lines the state refuses, with why
    taken: list[Order]  # the lines in the allocation

    @property
    def over(self) -> int:
        return self.allocation.total() - self.allocation.gdp


def assess(state: State, name: str, orders: Iterable[Order]) -> Assessment:
    """A player's allocation from his lines, each checked against the state: a line the state refuses is left
    out whole (with why), the others make the allocation. The sum is not checked here (see `over`)."""
    allocation = default(state, name)
    refused: list[tuple[Order, str]] = []
    taken: list[Order] = []
    politics_line: int | None = None
    for order in orders:
        if order.kind not in KINDS:
            continue
        if player(state, name)["country"] is None:
            refused.append((order, "you hold no country yet: the allocation comes after the picking"))
            continue
        if order.kind == POLITICS and politics_line is not None:
            refused.append((order, f"politics is set once in an allocation: line {politics_line} sets it"))
            continue
        why = _take(state, name, allocation, order)
        if why:
            refused.append((order, why))
            continue
        if order.kind == POLITICS:
            politics_line = order.line
        taken.append(order)
    allocation.sent = True
    return Assessment(allocation, refused, taken)


def _take(state: State, name: str, allocation: Allocation, order: Order) -> str | None:
    """Add one line to `allocation`; the reason it cannot be, else None (and then it is added)."""
    args = order.args
    if order.kind == POLITICS:
        allocation.politics = args["percent"]
        return None
    if order.kind == RESEARCH:
        allocation.research += args["units"]
        return None
    if order.kind == DEVELOP:
        points: dict[str, int] = {}
        for word, n in args["points"]:
            zone = find_zone(state, word)
            if zone is None:
                return f"no economic zone called {word} (write its id, as ZA, or its name)"
            holder, _ = zone_control(state, zone)
            if holder != name:
                return f"you do not control {zone_name(state, zone)}: development goes to a zone where you " \
                       f"hold at least 51% of the land"
            points[zone] = points.get(zone, 0) + n
        total = allocation.points + sum(points.values())
        if development_cost(allocation.gdp, total) is None:
            most = 17 if allocation.gdp <= 40 else 20
            return f"{total} development points in a turn: the table prices at most {most} at a GDP of " \
                   f"{allocation.gdp}"
        for zone, n in points.items():
            allocation.develop[zone] = allocation.develop.get(zone, 0) + n
        return None
    if order.kind == BUILD:
        placed: list[tuple[str, str, int]] = []
        for word, kind, n in args["units"]:
            territory = find_territory(state, word)
            if territory is None:
                return f"no city called {word} (write the city, its territory's name or its id)"
            t = board(state).territories[territory]
            if owner(state, territory) != name:
                return f"{place_name(state, territory)} is not yours: units are built in your own cities"
            if not t.city:
                return f"{place_name(state, territory)} has no city: units and supplies are built in cities"
            if kind in FLEETS and not t.port:
                return f"{t.city} is not a port: fleets are built in ports"
            placed.append((territory, kind, n))
        for territory, kind, n in placed:
            stack = allocation.build.setdefault(territory, {})
            stack[kind] = stack.get(kind, 0) + n
        return None
    # RAILROAD
    found: list[str] = []
    for word in args["places"]:
        territory = find_territory(state, word)
        if territory is None:
            return f"no land territory called {word}"
        if owner(state, territory) != name:
            return f"{place_name(state, territory)} is not yours: railroads are built on your own land"
        if territory in state["railroads"]:
            return f"{place_name(state, territory)} has a railroad already"
        if territory in allocation.railroads or territory in found:
            return f"a railroad in {place_name(state, territory)} is ordered twice"
        found.append(territory)
    allocation.railroads += found
    return None


def costs_words(allocation: Allocation) -> str:
    """"politics 15%: 6, development 8 points: 11, research 10 units: 10": each part and its GDP."""
    return ", ".join(f"{what}: {cost}" for what, cost in allocation.costs())


def over_message(assessment: Assessment) -> str:
    a = assessment.allocation
    return f"over your GDP by {assessment.over}: {costs_words(a)}; {a.total()} of {a.gdp} GDP. The whole " \
           f"allocation is refused: send it again within your GDP"


def left_message(allocation: Allocation) -> str:
    left = allocation.gdp - allocation.total()
    tail = "nothing left" if not left else f"{left} left, lost if unused (GDP is not rolled over or traded)"
    return f"allocated {allocation.total()} of {allocation.gdp} GDP: {tail}"


# ---- intake ---------------------------------------------------------------------------------------------------

def check(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    """Refuse the lines the state makes impossible; then sum the allocation against his GDP: over it, every line
    of the allocation is refused with the costs listed; within it, a warning says what is left."""
    mine = [o for o in orders if o.kind in KINDS]
    if not mine:
        return []
    assessment = assess(state, name, mine)
    diagnostics = [Diagnostic(o.line, o.text, why, rule=SECTION) for o, why in assessment.refused]
    if not assessment.taken:
        return diagnostics
    first = assessment.taken[0]
    if assessment.over > 0:
        message = over_message(assessment)
        diagnostics += [Diagnostic(o.line, o.text, message if o is first else
                                   f"refused with the allocation over your GDP (line {first.line})", rule=SECTION)
                        for o in assessment.taken]
    else:
        diagnostics.append(Diagnostic(first.line, first.text, left_message(assessment.allocation), warning=True))
    return sorted(diagnostics, key=lambda d: d.line)


# ---- the phase ------------------------------------------------------------------------------------------------

def resolve(state: State, turn: int, orders: dict[str, list[PlacedOrder]], rng: random.Random,
            report: Report) -> None:
    """Seal each player's allocation in state["pending"]["allocation"]: the newsletter says only who has sent
    one; his printout repeats it with its costs. A line the state refuses now is left out, and an allocation
    over his GDP is dropped whole, as the ack said; a player who sent none gets the default (GG-OQ-28)."""
    sealed: dict[str, Any] = state.setdefault("pending", {}).setdefault(PENDING, {})
    sent, silent = [], []
    for name in playing(state):
        placed = sorted(orders.get(name, []), key=lambda p: (p.seq, p.order.line))
        mine = [p.order for p in placed if p.order.kind in KINDS]
        allocation = default(state, name)
        if mine:
            assessment = assess(state, name, mine)
            for order, why in assessment.refused:
                tell(report, name, "Your allocation", f"Left out: {order.text.strip()}: {why}")
            if assessment.over > 0:
                tell(report, name, "Your allocation", f"Dropped: {over_message(assessment)}")
            else:
                allocation = assessment.allocation
        (sent if allocation.sent else silent).append(name)
        sealed[name] = allocation.to_json()
        for line in allocation_lines(state, allocation):
            report.tell(name, "Your allocation", line)
        report.event("allocation", player=name, sent=allocation.sent, total=allocation.total())
    title = "Allocations"
    if sent:
        say(report, title, f"Sealed until the reconciliation: {', '.join(country_name(state, n) for n in sent)}.")
    if silent:
        say(report, title, f"No allocation (nothing bought, 0% politics): "
                           f"{', '.join(country_name(state, n) for n in silent)}.")


def allocation_lines(state: State, allocation: Allocation) -> list[str]:
    """An allocation in lines a person reads: each part with its places and its GDP, then the sum."""
    a = allocation
    lines = [f"Politics {a.politics}%: {political_spending(a.gdp, a.politics)} GDP"]
    if a.develop:
        zones = ", ".join(f"{n} in {zone_name(state, z)}" for z, n in a.develop.items())
        lines.append(f"Development {a.points} points: {development_cost(a.gdp, a.points)} GDP ({zones})")
    if a.research:
        lines.append(f"Atomic research {a.research} units: {research_cost(a.turn, a.research)} GDP")
    for territory, stack in a.build.items():
        lines.append(f"Build {describe(stack)} in {place_name(state, territory)}: {gdp_cost(stack)} GDP")
    if a.railroads:
        where = ", ".join(place_name(state, t) for t in a.railroads)
        lines.append(f"Railroad{'s' * (len(a.railroads) > 1)} in {where}: {RAILROAD_PRICE * len(a.railroads)} GDP")
    lines.append(left_message(a)[0].upper() + left_message(a)[1:] + ".")
    return lines


def say(report: Report, title: str, line: str) -> None:
    """A newsletter line (printout.py fits it to a mail program's width)."""
    report.say(title, line)


def tell(report: Report, name: str, title: str, line: str) -> None:
    """A line of one player's printout (printout.py fits it to a mail program's width)."""
    report.tell(name, title, line)


def sealed(state: State) -> dict[str, Allocation]:
    """The allocations sealed this turn, by player (the default for a player with none on file)."""
    found = state.get("pending", {}).get(PENDING, {})
    return {name: Allocation.from_json(found[name]) if name in found else default(state, name)
            for name in playing(state)}

