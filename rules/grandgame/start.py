"""The start of the game (section Starting the Game): countries picked by sealed-bid rounds by mail, regimes,
initial Francs, the Neutral Powers' garrisons, the initial purchase and the placement.

By mail the live auction is a series of sealed-bid rounds, one phase each (GG-OQ-05, docs/grand-game.md "The
start"): every player without a country sends `bid N` and `pick A, B, C democracy`; the highest bid wins the
round (equal bids: the earlier mail) and takes his first preference still free. When one player is left he
takes his pick for nothing. Then every player buys units with 20 + his GDP (`buy ...`), all purchases are made
public, and every player places what he bought on his own land (`place ... in ...`), all at once (GG-OQ-26).

The reading helpers at the end (a list of units, a territory or city, a player) are shared with francs.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

from maild.ruleset import Diagnostic, Order, OrderKind, PlacedOrder

from . import economy, victory
from .board import Board
from .reading import Read
from .report import Report
from .state import (
    DEMOCRACY,
    DICTATORSHIP,
    FLEETS,
    NEUTRAL,
    SUPPLY,
    UNITS,
    State,
    add,
    board,
    describe,
    gdp,
    held_by,
    kind_of,
    owner,
    player,
    player_names,
)

BID, PICK, PURCHASE, PLACE = "bid", "pick", "purchase", "place"
PICKING_KINDS: frozenset[str] = frozenset({BID, PICK})
PURCHASE_KINDS: frozenset[str] = frozenset({PURCHASE})
PLACEMENT_KINDS: frozenset[str] = frozenset({PLACE})

ORDER_KINDS: tuple[OrderKind, ...] = (
    OrderKind("bid", "bid N", "your sealed bid in $ for this picking round (the highest wins; ties: earlier mail)",
              "bid 12"),
    OrderKind("pick", "pick COUNTRY, COUNTRY, ... democracy|dictatorship",
              "the countries you want, best first, and your regime (a regime may follow each country)",
              "pick Borvane, Aurelia, Elunde democracy"),
    OrderKind("buy", "buy N KIND, N KIND, ...", "your initial purchase with 20 + your GDP (turn 1 only)",
              "buy 4 infantry, 2 armor, 1 aircraft, 6 supply"),
    OrderKind("place", "place N KIND, ... in TERRITORY", "place what you bought on your own land; fleets in "
              "your ports (turn 1 only)", "place 3 infantry, 2 supply in E2"),
)

#: GG-OQ-05: the minimum increment when the setup gives none: "$1 minimum increments" (section Picking Countries).
DEFAULT_INCREMENT = 1
#: GG-OQ-28: the regime of a player who is given a country without having named one.
DEFAULT_REGIME = DEMOCRACY

PICKING_RULE = "Picking Countries"
PLACING_RULE = "Placing Initial Units"
LAST_TITLE = "Picking, the last country"
_REGIME_WORDS = {"democracy": DEMOCRACY, "democratic": DEMOCRACY, "dem": DEMOCRACY,
                 "dictatorship": DICTATORSHIP, "dictator": DICTATORSHIP, "dict": DICTATORSHIP}
_BID = re.compile(r"bid\s*:?\s*\$?\s*(\S+?)\s*(?:\$|dollars?|usd)?", re.IGNORECASE)
_SEPARATORS = re.compile(r"\s*(?:,|;|\+|\band\b|\bthen\b)\s*", re.IGNORECASE)
_ITEM = re.compile(r"(\d+)\s*(.*)")
_AT = re.compile(r"\s+(?:in|at|on|to)\s+", re.IGNORECASE)


# ---- reading ---------------------------------------------------------------------------------------------------

def read_line(line: str) -> Read | str | None:
    line = line.rstrip(".!; ")  # a sentence's end is no part of the order
    word, _, rest = line.partition(" ")
    word = word.lower().rstrip(":")
    rest = rest.strip()
    if word == "bid":
        return _read_bid(line)
    if word in ("pick", "picks", "choose", "preferences"):
        return _read_pick(rest)
    if word in ("buy", "purchase") and not _mentions_francs(line) and not _AT.search(rest):
        # "buy ... in Velden" is an allocation's or a Francs purchase: a place makes it another module's.
        items = read_items(rest)
        if isinstance(items, str):
            return f"{items}; a purchase reads like: buy 4 infantry, 2 armor, 6 supply"
        return Read(PURCHASE, {"items": items}, f"buy {describe(items)}")
    if word == "place":
        return _read_place(rest)
    return None


def _mentions_francs(line: str) -> bool:
    return re.search(r"\bfrancs?\b", line, re.IGNORECASE) is not None


def _read_bid(line: str) -> Read | str:
    m = _BID.fullmatch(line.strip())
    if not m or not m.group(1).isdigit():
        return "a bid is a whole number of dollars, 0 or more: bid 12"
    amount = int(m.group(1))
    return Read(BID, {"amount": amount}, f"bid ${amount}")


def _read_pick(rest: str) -> Read | str:
    example = "pick Borvane, Aurelia, Elunde democracy"
    if not rest:
        return f"name the countries you want, best first, and a regime: {example}"
    wanted: list[list[Any]] = []
    for part in _SEPARATORS.split(rest):
        words = part.split()
        regime = None
        while words and words[-1].lower().strip("()") in {*_REGIME_WORDS, "as", "a"}:
            found = _REGIME_WORDS.get(words.pop().lower().strip("()"))
            regime = regime or found
        if words:
            wanted.append([" ".join(words), regime])
        elif regime and wanted:
            wanted[-1][1] = wanted[-1][1] or regime
    if not wanted:
        return f"name at least one country: {example}"
    regimes = [r for _, r in wanted if r]
    if not regimes:
        return f"choose a regime, democracy or dictatorship: {example}"
    # A country without a regime takes the one written after it ("Borvane, Aurelia democracy": both), the
    # last ones without any the one before them.
    following: str | None = None
    for item in reversed(wanted):
        item[1] = item[1] or following
        following = item[1]
    for item in wanted:
        item[1] = item[1] or regimes[-1]
    summary = ", ".join(f"{c} ({r})" for c, r in wanted)
    return Read(PICK, {"countries": wanted}, f"pick {summary}")


def _read_place(rest: str) -> Read | str:
    example = "place 3 infantry, 2 supply in E2"
    parts = _AT.split(rest)
    if len(parts) < 2:
        return f"say where: {example}"
    where = parts[-1].strip()
    items = read_items(" in ".join(parts[:-1]))
    if isinstance(items, str):
        return f"{items}: {example}"
    return Read(PLACE, {"items": items, "where": where}, f"place {describe(items)} in {where}")


def read_items(text: str) -> dict[str, int] | str:
    """"3 infantry, 2 armor and 6 supply" as {kind: number}, or what is wrong with it."""
    items: dict[str, int] = {}
    for part in _SEPARATORS.split(text.strip()):
        if not part:
            continue
        m = _ITEM.fullmatch(part)
        if not m:
            return f"'{part}' is not a number and a kind of unit (like 3 infantry)"
        kind = kind_of(m.group(2) or "")
        if kind is None:
            return f"'{m.group(2)}' is not a kind of unit (infantry, armor, aircraft, light fleet, heavy " \
                   "fleet, supply)"
        items[kind] = items.get(kind, 0) + int(m.group(1))
    items = {k: n for k, n in items.items() if n}
    if not items:
        return "name what, like 3 infantry"
    return items


def find_country(b: Board, word: str) -> str | None:
    """The country a player's word names: its id or its name, in any case; neutral ones too."""
    key = " ".join(word.split()).casefold()
    return next((c.id for c in b.countries.values() if key in (c.id.casefold(), c.name.casefold())), None)


def find_territory(b: Board, word: str) -> str | None:
    """The territory a player's word names: its id, its name or its city's name, in any case."""
    key = " ".join(word.split()).casefold()
    for t in b.territories.values():
        if key in (t.id.casefold(), t.name.casefold()) or (t.city and key == t.city.casefold()):
            return t.id
    return None


def find_player(state: State, word: str) -> str | None:
    """The player a word names: his name, or his country's id or name, in any case."""
    key = word.strip().casefold()
    for p in state["players"]:
        if key == p["name"].casefold():
            return str(p["name"])
    country = find_country(board(state), word)
    return next((p["name"] for p in state["players"] if country and p["country"] == country), None)


def place_name(state: State, territory: str, city: bool = True) -> str:
    """A territory as reports name it: "Velden (E2)" for a city (`city` false: "Pelgate (E2)"), "Osfell (E3)"."""
    t = board(state).territories[territory]
    return f"{(t.city if city else None) or t.name} ({t.id})"


def _of(orders: Iterable[PlacedOrder], kind: str) -> list[PlacedOrder]:
    return sorted((o for o in orders if o.order.kind == kind), key=lambda o: (o.seq, o.order.line))


def _orders_of(orders: list[Order], kind: str) -> list[Order]:
    return [o for o in orders if o.kind == kind]


# ---- intake checks ---------------------------------------------------------------------------------------------

def check(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    return [*_check_picking(state, name, orders), *_check_purchase(state, name, orders),
            *_check_placement(state, name, orders)]


def _check_picking(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    bids, picks = _orders_of(orders, BID), _orders_of(orders, PICK)
    if not bids and not picks:
        return []
    found: list[Diagnostic] = []
    if player(state, name)["country"] is not None:
        return [Diagnostic(o.line, o.text, "you have a country already", rule=PICKING_RULE) for o in bids + picks]
    step = increment(state)
    for o in bids[1:]:
        found.append(Diagnostic(o.line, o.text, f"one bid a round: the bid on line {bids[0].line} stands",
                                rule=PICKING_RULE))
    if bids and bids[0].args["amount"] % step:
        amount = bids[0].args["amount"]
        found.append(Diagnostic(bids[0].line, bids[0].text, f"bids go up in steps of ${step}: bid "
                                f"{amount - amount % step} or {amount - amount % step + step}", rule=PICKING_RULE))
    b = board(state)
    for o in picks:
        for word, _ in o.args["countries"]:
            country = find_country(b, word)
            if country is None:
                found.append(Diagnostic(o.line, o.text, f"no country is called {word} (the countries: "
                                        f"{', '.join(c.name for c in _offered(state))})", rule=PICKING_RULE))
            elif b.countries[country].neutral:
                found.append(Diagnostic(o.line, o.text, f"{b.countries[country].name} is a Neutral Power: "
                                        "nobody picks it", rule=PICKING_RULE))
            elif country not in free_countries(state):
                found.append(Diagnostic(o.line, o.text, f"{b.countries[country].name} is taken already: it is "
                                        "skipped", warning=True))
    if picks and not bids:
        found.append(Diagnostic(picks[0].line, picks[0].text, "no bid: you bid $0 this round", warning=True))
    if bids and not picks and not state["pending"].get("picks", {}).get(name):
        found.append(Diagnostic(bids[0].line, bids[0].text, "no pick: if you win you get the largest country "
                                f"left, as a {DEFAULT_REGIME}", warning=True))
    return found


def _check_purchase(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    buys = _orders_of(orders, PURCHASE)
    if not buys:
        return []
    p = player(state, name)
    if p["country"] is None:
        return [Diagnostic(o.line, o.text, "you have no country yet", rule=PLACING_RULE) for o in buys]
    problems, spent, budget = _purchase(state, name, [o.args["items"] for o in buys])
    found = [Diagnostic(o.line, o.text, problem, rule=PLACING_RULE) for o, problem in zip(buys, problems,
                                                                                          strict=True) if problem]
    if spent < budget:
        last = buys[-1]
        found.append(Diagnostic(last.line, last.text, f"you have spent {spent} of {budget} GDP; "
                                f"{budget - spent} left, lost if unused", warning=True))
    return found


def _check_placement(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    places = _orders_of(orders, PLACE)
    if not places:
        return []
    left = dict(state["pending"].get("purchase", {}).get(name, {}))
    found: list[Diagnostic] = []
    for o in places:
        where = find_territory(board(state), o.args["where"])
        problem = _placement_problem(state, name, where, o.args["items"], left)
        if problem:
            found.append(Diagnostic(o.line, o.text, problem, rule=PLACING_RULE))
            continue
        for kind, n in o.args["items"].items():
            left[kind] -= n
    left = {k: n for k, n in left.items() if n}
    if left:
        home = _home_city(state, name)
        at = f"the engine places them in {place_name(state, home)}" if home else "they are lost"
        found.append(Diagnostic(places[-1].line, places[-1].text, f"not placed yet: {describe(left)}; {at}",
                                warning=True))
    return found


def _placement_problem(state: State, name: str, where: str | None, items: dict[str, int],
                       left: dict[str, int]) -> str | None:
    b = board(state)
    if where is None:
        return "no such territory (write its id, like E2, its name or its city)"
    t = b.territories[where]
    if not t.land or owner(state, where) != name:
        return f"{place_name(state, where)} is not your land: place on your own territories"
    if any(k in FLEETS for k in items) and not t.port:
        return f"{place_name(state, where)} is not a port: fleets are placed in your ports"
    over = [f"{n - left.get(k, 0)} {k}" for k, n in items.items() if n > left.get(k, 0)]
    if over:
        return f"{', '.join(over)} more than you bought (left to place: {describe(left) or 'nothing'})"
    return None


# ---- the picking -----------------------------------------------------------------------------------------------

def increment(state: State) -> int:
    return int(state["options"].get("increment", DEFAULT_INCREMENT))


def _offered(state: State) -> list[Any]:
    return [c for c in board(state).countries.values() if not c.neutral]


def free_countries(state: State) -> list[str]:
    """The countries no player has picked and that are not Neutral Powers from the start, in the map's order."""
    taken = {p["country"] for p in state["players"]}
    return [c.id for c in _offered(state) if c.id not in taken]


def largest_free(state: State) -> str:
    """The free country with the most land territories (GG-OQ-05); equal ones: the first in the map."""
    b = board(state)
    free = free_countries(state)
    return max(free, key=lambda c: (len(b.countries[c].territories), -free.index(c)))


def take_country(state: State, name: str, country: str, regime: str) -> None:
    """`name` takes `country` under `regime`: its land becomes his, his GDP is counted, his start recorded."""
    p = player(state, name)
    p["country"], p["regime"] = country, regime
    for t in board(state).countries[country].territories:
        state["owners"][t] = name
    p["gdp"] = gdp(state, name)
    p["start_land"] = len(board(state).countries[country].territories)


def _choice(state: State, wanted: list[list[Any]]) -> tuple[str, str]:
    """The country and regime a winner gets: his first preference still free, else the largest free country
    under the regime he wrote first (a list without one: DEFAULT_REGIME)."""
    b = board(state)
    free = free_countries(state)
    for word, regime in wanted:
        country = find_country(b, word)
        if country in free:
            assert country is not None
            return country, regime
    return largest_free(state), wanted[0][1] if wanted else DEFAULT_REGIME


def resolve_picking(state: State, round_no: int, orders: dict[str, list[PlacedOrder]], rng: random.Random,
                    report: Report) -> list[str] | None:
    """One round of the picking; returns who bids in the next round, or None when every player has a country."""
    bidders = [p["name"] for p in state["players"] if p["country"] is None]
    lists: dict[str, list[list[Any]]] = state["pending"].setdefault("picks", {})
    bids: dict[str, tuple[int, float]] = {}
    step = increment(state)
    for name in bidders:
        mine = orders.get(name, [])
        picks = _of(mine, PICK)
        if picks:  # a list stands until replaced; a bid is for its round only
            lists[name] = [item for o in picks for item in o.order.args["countries"]]
        bid = _of(mine, BID)
        amount = bid[0].order.args["amount"] if bid else 0
        # An unsent bid is $0 and comes after every mail (GG-OQ-28).
        bids[name] = (amount - amount % step, bid[0].seq if bid else float("inf"))
    title = f"Picking, round {round_no}"
    winner = min(bidders, key=lambda n: (-bids[n][0], bids[n][1], bidders.index(n)))
    _award(state, winner, bids[winner][0], lists.get(winner, []), report, title)
    high = bids[winner][0]
    for name in bidders:
        if name != winner:
            sent = f"Your bid of ${bids[name][0]} lost" if bids[name][1] != float("inf") else "You sent no bid"
            tie = " (equal bids: the earlier mail wins)" if bids[name][0] == high else ""
            report.tell(name, title, f"{sent}: {winner} won with ${high}{tie}.")
    left = [n for n in bidders if n != winner]
    if len(left) == 1:
        _award(state, left[0], 0, lists.get(left[0], []), report, LAST_TITLE)
        left = []
    if left:
        free = ", ".join(f"{board(state).countries[c].name} ({len(board(state).countries[c].territories)})"
                         for c in free_countries(state))
        report.say(title, f"Still free (land territories): {free}.")
        report.say(title, f"Round {round_no + 1}: {', '.join(left)} bid again.")
        return left
    _finish_picking(state, rng, report)
    return None


def _award(state: State, name: str, paid: int, wanted: list[list[Any]], report: Report, title: str) -> None:
    country, regime = _choice(state, wanted)
    p = player(state, name)
    order = 1 + sum(1 for q in state["players"] if q["picked"] is not None)
    take_country(state, name, country, regime)
    p["picked"], p["paid"] = order, paid
    p["francs"] = economy.initial_francs(paid)
    cname = board(state).countries[country].name
    won = f"won for ${paid} and takes" if title != LAST_TITLE else "is the last to pick and takes, for nothing,"
    report.say(title, f"{name} {won} {cname}, a {regime}.")
    why = "" if any(find_country(board(state), w) == country for w, _ in wanted) else \
        " (none of your choices was free: the largest country left)"
    report.tell(name, title, f"You take {cname} as a {regime}{why}; you start with {p['francs']} Francs.")
    report.event("picked", player=name, country=country, regime=regime, paid=paid, order=order)


def _finish_picking(state: State, rng: random.Random, report: Report) -> None:
    """Every player has a country: the rest are Neutral Powers, garrisoned; GDPs counted; victory cards dealt."""
    state["pending"].pop("picks", None)
    b = board(state)
    neutral = [c.name for c in b.countries.values() if all(owner(state, t) is None for t in c.territories)]
    for territory, who in state["owners"].items():
        if who is None:
            add(state, territory, NEUTRAL, "infantry", economy.NEUTRAL_UNITS)
            add(state, territory, NEUTRAL, SUPPLY, economy.NEUTRAL_SUPPLY)
    for p in state["players"]:
        p["gdp"] = gdp(state, p["name"])
    report.say("The Neutral Powers", f"{', '.join(neutral)}: {economy.NEUTRAL_UNITS} infantry and "
               f"{economy.NEUTRAL_SUPPLY} supply on each of their territories.")
    order = sorted(state["players"], key=lambda q: q["picked"] or 0)
    report.say("The countries", "In picking order: " + "; ".join(
        f"{q['name']} {b.countries[q['country']].name} ({q['regime']}, GDP {q['gdp']})" for q in order) + ".")
    for p in state["players"]:
        report.tell(p["name"], "Your purchase", f"Your GDP is {p['gdp']}: you have "
                    f"{economy.initial_purchase(p['gdp'])} GDP to buy units and supply (buy 4 infantry, ...).")
    victory.deal(state, rng, report)


# ---- the purchase ----------------------------------------------------------------------------------------------

def _purchase(state: State, name: str, lines: list[dict[str, int]]) -> tuple[list[str | None], int, int]:
    """What is wrong with each line of a player's purchase, taken in order within 20 + his GDP; the GDP the
    lines that stand spend, and the budget."""
    budget = economy.initial_purchase(player(state, name)["gdp"])
    ports = _ports_of(state, name)
    problems: list[str | None] = []
    spent = 0
    for items in lines:
        cost = economy.gdp_cost(items)
        if not ports and any(k in FLEETS for k in items):
            problems.append("you have no port to place fleets in")
        elif spent + cost > budget:
            problems.append(f"this costs {cost} GDP and you have {budget - spent} of {budget} left")
        else:
            problems.append(None)
            spent += cost
    return problems, spent, budget

def resolve_purchase(state: State, orders: dict[str, list[PlacedOrder]], rng: random.Random, report: Report) -> None:
    """Every player's purchase within 20 + his GDP, made public at once and kept for the placement. A purchase
    nobody sent buys nothing: "productive capacity not used is lost" (GG-OQ-28)."""
    bought: dict[str, dict[str, int]] = {}
    b = board(state)
    for name in player_names(state):
        p = player(state, name)
        sent = _of(orders.get(name, []), PURCHASE)
        problems, spent, budget = _purchase(state, name, [o.order.args["items"] for o in sent])
        mine: dict[str, int] = {}
        for o, problem in zip(sent, problems, strict=True):
            if problem:
                report.tell(name, "Your purchase", f"Refused: {o.order.summary}: {problem}.")
                continue
            for kind, n in o.order.args["items"].items():
                mine[kind] = mine.get(kind, 0) + n
        bought[name] = mine
        text = describe(mine) or "nothing"
        report.say("The purchases", f"{b.countries[p['country']].name} ({name}): {text} ({spent} of {budget} GDP).")
        if spent < budget:
            report.tell(name, "Your purchase", f"{budget - spent} GDP unspent, lost.")
        report.event("purchase", player=name, items=mine, spent=spent)
    state["pending"]["purchase"] = bought


# ---- the placement ---------------------------------------------------------------------------------------------

def _home_city(state: State, name: str) -> str | None:
    """Where the engine places what a player left unplaced: his first city in the map's order."""
    b = board(state)
    return next((t for t in held_by(state, name) if b.territories[t].city), None)


def _ports_of(state: State, name: str) -> list[str]:
    b = board(state)
    return [t for t in held_by(state, name) if b.territories[t].port]


def resolve_placement(state: State, orders: dict[str, list[PlacedOrder]], rng: random.Random,
                      report: Report) -> None:
    """Every player's placement at once (GG-OQ-26); what he left unplaced goes to his first city (fleets: his
    first port), nothing is lost."""
    bought = state["pending"].pop("purchase", {})
    for name in player_names(state):
        left = dict(bought.get(name, {}))
        placed: dict[str, dict[str, int]] = {}
        for o in _of(orders.get(name, []), PLACE):
            where = find_territory(board(state), o.order.args["where"])
            problem = _placement_problem(state, name, where, o.order.args["items"], left)
            if problem:
                report.tell(name, "Your placement", f"Not done: {o.order.summary}: {problem}.")
                continue
            assert where is not None
            for kind, n in o.order.args["items"].items():
                left[kind] -= n
                placed.setdefault(where, {})[kind] = placed.get(where, {}).get(kind, 0) + n
        _place_rest(state, name, {k: n for k, n in left.items() if n}, placed, report)
        for where, items in placed.items():
            for kind in (*UNITS, SUPPLY):
                add(state, where, name, kind, items.get(kind, 0))
        if placed:
            report.say("The placement", f"{name}: " + "; ".join(f"{describe(items)} in {place_name(state, w)}"
                                                                 for w, items in placed.items()) + ".")
        report.event("placement", player=name, placed=placed)


def _place_rest(state: State, name: str, left: dict[str, int], placed: dict[str, dict[str, int]],
                report: Report) -> None:
    if not left:
        return
    fleets = {k: n for k, n in left.items() if k in FLEETS}
    others = {k: n for k, n in left.items() if k not in FLEETS}
    ports = _ports_of(state, name)
    for items, where in ((others, _home_city(state, name) or (held_by(state, name) or [None])[0]),
                         (fleets, ports[0] if ports else None)):
        if not items:
            continue
        if where is None:
            report.tell(name, "Your placement", f"Nowhere to place {describe(items)}: lost.")
            continue
        for kind, n in items.items():
            placed.setdefault(where, {})[kind] = placed.get(where, {}).get(kind, 0) + n
        report.tell(name, "Your placement", f"Not placed by you, placed in {place_name(state, where)}: "
                    f"{describe(items)}.")
