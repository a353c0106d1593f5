"""Francs between players (sections In Game Cash, Combat, Selling Nuclear Secrets; introduction items 11, 20, 21):
payments, transfers of territories and units for a fee, purchases of infantry and supply with Francs, and the
sale of nuclear secrets.

A player sends these with his allocation or his season orders; `resolve` carries them out at the start of that
phase's resolution, that is after the previous season's combat ("after combat reconciliation"): a mail cannot
know a season's result before it, so what the table does "after the season" is sent with the next orders and
done first (docs/grand-game.md, "Francs between players", GG-OQ-16). Within the window: payments first (so "a
cash exchange may be done simultaneously": a payment lets the receiver pay his fees), then the sales of
secrets, the transfers and the purchases, each in receipt order.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

from maild.ruleset import Diagnostic, Order, OrderKind, PlacedOrder

from . import economy
from .board import Board
from .reading import Read
from .report import Report
from .start import find_player, find_territory, place_name, read_items
from .state import (
    CARGO,
    FLEETS,
    INFANTRY,
    SUPPLY,
    Stack,
    State,
    add,
    board,
    describe,
    owner,
    player,
    stack,
    unit_total,
)

PAY, GIVE, BUY, SECRETS = "pay", "give", "francs-buy", "sell-secrets"
KINDS: frozenset[str] = frozenset({PAY, GIVE, BUY, SECRETS})

ORDER_KINDS: tuple[OrderKind, ...] = (
    OrderKind("pay", "pay N to PLAYER", "give Francs to a player (no fee)", "pay 20 to bruno"),
    OrderKind("give", "give TERRITORY to PLAYER | give N KIND, ... in TERRITORY to PLAYER",
              "transfer land (with your units on it) or units; 1 Franc a unit or territory, supply free",
              "give 2 infantry in K3 to bruno"),
    OrderKind("francs", "francs buy N infantry, N supply in CITY",
              "buy infantry (10 Francs) and supply (2 Francs) in one of your cities or ports",
              "francs buy 2 infantry, 3 supply in Velden"),
    OrderKind("sell", "sell secrets to PLAYER", "give a player your atomic research level (no fee; agree a "
              "price paid with pay)", "sell secrets to bruno"),
)

RULE = "Francs"
TITLE = "Francs"
_PAY = re.compile(r"pay\s+(?:(\d+)\s*(?:francs?|f)?\s+to\s+(\S+)|(?:to\s+)?(\S+)\s+(\d+)\s*(?:francs?|f)?)",
                  re.IGNORECASE)
_TO = re.compile(r"\s+to\s+", re.IGNORECASE)
_IN = re.compile(r"\s+(?:in|at|from)\s+", re.IGNORECASE)
_BUY = re.compile(r"(?:francs?\s*:?\s*buy|buy\s+with\s+francs?|buy)\s+(.+)", re.IGNORECASE)
_WITH_FRANCS = re.compile(r"\s+(?:with|for)\s+francs?$", re.IGNORECASE)
_SECRETS = re.compile(r"sell\s+(?:(?:my|our|nuclear|atomic)\s+)*(?:secrets?|research)\s+to\s+(\S+)",
                      re.IGNORECASE)
_LIST = re.compile(r"\s*(?:,|;|\band\b)\s*", re.IGNORECASE)


# ---- reading ---------------------------------------------------------------------------------------------------

def read_line(line: str) -> Read | str | None:
    line = line.rstrip(".!; ")  # a sentence's end is no part of the order
    if not line:
        return None
    word = line.split(maxsplit=1)[0].lower().rstrip(":")
    if word == "pay":
        return _read_pay(line)
    if word == "give":
        return _read_give(line)
    if word in ("francs", "franc") or (word == "buy" and re.search(r"\bfrancs?\b", line, re.IGNORECASE)):
        return _read_buy(line)
    if word == "sell":
        m = _SECRETS.fullmatch(line.strip())
        if not m:
            return "only nuclear secrets are sold: sell secrets to bruno"
        return Read(SECRETS, {"to": m.group(1)}, f"sell your nuclear secrets to {m.group(1)}")
    return None


def _read_pay(line: str) -> Read | str:
    m = _PAY.fullmatch(line.strip())
    if not m:
        return "a payment reads like: pay 20 to bruno"
    amount, to = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    if int(amount) == 0:
        return "a payment is 1 Franc or more: pay 20 to bruno"
    return Read(PAY, {"amount": int(amount), "to": to}, f"pay {int(amount)} Francs to {to}")


def _read_give(line: str) -> Read | str:
    example = "give K14 to bruno, or give 2 infantry in K14 to bruno"
    parts = _TO.split(line.strip()[len("give"):].strip())
    if len(parts) < 2 or not parts[-1]:
        return f"say to whom: {example}"
    what, to = " to ".join(parts[:-1]).strip(), parts[-1]
    money = re.fullmatch(r"(\d+)\s*francs?", what, re.IGNORECASE)
    if money:  # "give 20 francs to bruno" is a payment
        return _read_pay(f"pay {money.group(1)} to {to}")
    places = _IN.split(what)
    if len(places) >= 2:
        items = read_items(" in ".join(places[:-1]))
        if isinstance(items, str):
            return f"{items}: {example}"
        where = places[-1].strip()
        return Read(GIVE, {"to": to, "items": items, "where": where}, f"give {describe(items)} in {where} to {to}")
    if what[:1].isdigit():
        return f"say where the units are: {example}"
    territories = [t for t in _LIST.split(what) if t]
    if not territories:
        return f"say what: {example}"
    return Read(GIVE, {"to": to, "territories": territories}, f"give {', '.join(territories)} to {to}")


def _read_buy(line: str) -> Read | str:
    example = "francs buy 2 infantry, 3 supply in Velden"
    m = _BUY.fullmatch(_WITH_FRANCS.sub("", line.strip()))
    if not m:
        return f"a purchase with Francs reads like: {example}"
    parts = _IN.split(m.group(1))
    if len(parts) < 2:
        return f"say in which of your cities or ports: {example}"
    items = read_items(" in ".join(parts[:-1]))
    if isinstance(items, str):
        return f"{items}: {example}"
    if set(items) - set(economy.FRANC_PRICES):
        return f"Francs buy only infantry (10 Francs) and supply (2 Francs): {example}"
    where = parts[-1].strip()
    return Read(BUY, {"items": items, "where": where},
                f"buy {describe(items)} in {where} for {economy.franc_cost(items)} Francs")


# ---- what an order asks, against the state ----------------------------------------------------------------------

def _units(stack_: Stack) -> int:
    """The units a transfer of this stack counts for its fee: its units and those aboard (supply is free)."""
    return unit_total(stack_) + unit_total(stack_.get(CARGO, {}))


def _receiver(state: State, name: str, word: str) -> tuple[str | None, str | None]:
    to = find_player(state, word)
    if to is None:
        return None, f"no player is called {word}"
    if to == name:
        return None, "that is you"
    return to, None


def _territories(b: Board, words: list[str]) -> dict[str, str | None]:
    """word -> territory id (None: unknown) for each territory a transfer names, each territory once."""
    found: dict[str, str | None] = {}
    for word in words:
        t = find_territory(b, word)
        if t is None or t not in found.values():
            found[word] = t
    return found


def _give_problem(state: State, name: str, args: dict[str, Any]) -> tuple[int, str | None]:
    """The fee a transfer costs and what makes it impossible now (None: nothing)."""
    b = board(state)
    if "territories" in args:
        fee = 0
        for word, t in _territories(b, args["territories"]).items():
            if t is None or not b.territories[t].land:
                return 0, f"no land territory is called {word}"
            if owner(state, t) != name:
                return 0, f"{place_name(state, t, city=False)} is not yours"
            fee += economy.transfer_fee(_units(stack(state, t, name)), 1)
        return fee, None
    t = find_territory(b, args["where"])
    if t is None:
        return 0, f"no territory is called {args['where']}"
    here = stack(state, t, name)
    short = [f"{n} {k}" for k, n in args["items"].items() if n > here.get(k, 0)]
    if short:
        return 0, f"you have {describe(here) or 'nothing'} in {place_name(state, t)}, not {', '.join(short)}"
    if here.get(CARGO) and any(k in FLEETS for k in args["items"]):
        return 0, f"your fleets in {place_name(state, t)} are loaded: unload them before giving fleets"
    units = sum(n for k, n in args["items"].items() if k != SUPPLY)
    return economy.transfer_fee(units, 0), None


def _buy_problem(state: State, name: str, where: str) -> str | None:
    t = find_territory(board(state), where)
    if t is None:
        return f"no territory or city is called {where}"
    if owner(state, t) != name or not board(state).territories[t].city:
        return f"{place_name(state, t)} is not one of your cities or ports"
    return None


def _cost(state: State, name: str, o: Order) -> int:
    """The Francs an order takes from the sender (0 when it cannot be carried out)."""
    if o.kind == PAY:
        return int(o.args["amount"])
    if o.kind == GIVE:
        return _give_problem(state, name, o.args)[0]
    if o.kind == BUY:
        return economy.franc_cost(o.args["items"])
    return 0


# ---- intake checks ---------------------------------------------------------------------------------------------

def check(state: State, name: str, orders: list[Order]) -> list[Diagnostic]:
    mine = [o for o in orders if o.kind in KINDS]
    if not mine:
        return []
    found: list[Diagnostic] = []
    fine: list[Order] = []
    for o in mine:
        problem = _problem(state, name, o)
        if problem:
            found.append(Diagnostic(o.line, o.text, problem, rule=RULE))
        else:
            fine.append(o)
    francs = player(state, name)["francs"]
    cost = sum(_cost(state, name, o) for o in fine)
    if cost > francs:
        found.append(Diagnostic(fine[-1].line, fine[-1].text, f"these take {cost} Francs and you have {francs} "
                                "now: what you cannot pay when they are carried out is not done (a payment to "
                                "you in the same season counts)", warning=True))
    for o in fine:
        if o.kind == SECRETS and player(state, name)["research"] == 0:
            found.append(Diagnostic(o.line, o.text, "you have no atomic research to sell", warning=True))
    return found


def _problem(state: State, name: str, o: Order) -> str | None:
    if player(state, name)["country"] is None:
        return "you have no country yet"
    if "to" in o.args:
        problem = _receiver(state, name, o.args["to"])[1]
        if problem:
            return problem
    if o.kind == GIVE:
        return _give_problem(state, name, o.args)[1]
    if o.kind == BUY:
        return _buy_problem(state, name, o.args["where"])
    return None


# ---- resolution ------------------------------------------------------------------------------------------------

def _all(orders: dict[str, list[PlacedOrder]], kind: str) -> list[tuple[str, Order]]:
    """(sender, order) of every order of `kind`, in receipt order."""
    found = [(p.seq, p.order.line, name, p.order) for name, placed in orders.items() for p in placed
             if p.order.kind == kind]
    return [(name, o) for _, _, name, o in sorted(found, key=lambda f: (f[0], f[1], f[2]))]


def resolve(state: State, turn: int, orders: dict[str, list[PlacedOrder]], rng: random.Random,
            report: Report) -> None:
    """Carry out this phase's Francs orders: payments, secrets, transfers, purchases (see the module's note)."""
    if not any(p.order.kind in KINDS for placed in orders.values() for p in placed):
        return
    _payments(state, _all(orders, PAY), report)
    for name, o in _all(orders, SECRETS):
        _sell_secrets(state, name, o, report)
    for name, o in _all(orders, GIVE):
        _give(state, name, o, report)
    for name, o in _all(orders, BUY):
        _buy(state, name, o, report)


def _refuse(report: Report, name: str, o: Order, why: str) -> None:
    report.tell(name, TITLE, f"Not done: {o.summary}: {why}.")
    report.event("francs-refused", player=name, order=o.summary, reason=why)


def _checked(state: State, name: str, o: Order, report: Report) -> str | None:
    """The receiver of an order that names one, or None after telling the sender why it is not done."""
    to, problem = _receiver(state, name, o.args["to"])
    if problem:
        _refuse(report, name, o, problem)
    return to


def _payments(state: State, payments: Iterable[tuple[str, Order]], report: Report) -> None:
    """Every payment its payer can make, in receipt order; one he cannot make yet is tried again after the
    others, so a payment to him first lets him pay on ("a cash exchange may be done simultaneously")."""
    waiting: list[tuple[str, Order, str]] = []
    for name, o in payments:
        to = _checked(state, name, o, report)
        if to is not None:
            waiting.append((name, o, to))
    paid = True
    while paid:
        paid = False
        for item in list(waiting):
            name, o, to = item
            amount = o.args["amount"]
            if player(state, name)["francs"] >= amount:
                player(state, name)["francs"] -= amount
                player(state, to)["francs"] += amount
                report.tell(name, TITLE, f"You paid {to} {amount} Francs.")
                report.tell(to, TITLE, f"{name} paid you {amount} Francs.")
                report.event("payment", player=name, to=to, amount=amount)
                waiting.remove(item)
                paid = True
    for name, o, _ in waiting:
        _refuse(report, name, o, f"you have {player(state, name)['francs']} Francs")


def _sell_secrets(state: State, name: str, o: Order, report: Report) -> None:
    to = _checked(state, name, o, report)
    if to is None:
        return
    seller, buyer = player(state, name), player(state, to)
    before = buyer["research"]
    buyer["research"] = economy.research_after_sale(seller["research"], before)
    report.tell(name, TITLE, f"You sold your nuclear secrets ({seller['research']} units) to {to}.")
    report.tell(to, TITLE, f"{name} sold you nuclear secrets: your atomic research is {buyer['research']} "
                f"(it was {before}).")
    report.event("secrets", player=name, to=to, research=buyer["research"])


def _give(state: State, name: str, o: Order, report: Report) -> None:
    to = _checked(state, name, o, report)
    if to is None:
        return
    fee, problem = _give_problem(state, name, o.args)
    giver = player(state, name)
    if problem is None and fee > giver["francs"]:
        problem = f"the fee is {fee} Francs and you have {giver['francs']}"
    if problem:
        _refuse(report, name, o, problem)
        return
    giver["francs"] -= fee
    b = board(state)
    if "territories" in o.args:
        given = [t for t in _territories(b, o.args["territories"]).values() if t]
        for t in given:
            state["owners"][t] = to
            here = stack(state, t, name)
            _move(state, t, name, to, {k: dict(v) if k == CARGO else v for k, v in here.items()})
        what = ", ".join(place_name(state, t, city=False) for t in given)
    else:
        t = find_territory(b, o.args["where"])
        assert t is not None
        _move(state, t, name, to, o.args["items"])
        what = f"{describe(o.args['items'])} in {place_name(state, t)}"
    report.say(TITLE, f"{name} gave {what} to {to}.")
    report.tell(name, TITLE, f"You gave {what} to {to}; the fee: {fee} Francs.")
    report.event("transfer", player=name, to=to, order=o.args, fee=fee)


def _move(state: State, territory: str, giver: str, to: str, items: Stack) -> None:
    """Units (and a stack's cargo) change side where they stand."""
    for kind, n in items.items():
        if kind == CARGO:
            for inner, m in n.items():
                add(state, territory, giver, inner, -m, cargo=True)
                add(state, territory, to, inner, m, cargo=True)
            continue
        add(state, territory, giver, kind, -n)
        add(state, territory, to, kind, n)


def _buy(state: State, name: str, o: Order, report: Report) -> None:
    problem = _buy_problem(state, name, o.args["where"])
    cost = economy.franc_cost(o.args["items"])
    buyer = player(state, name)
    if problem is None and cost > buyer["francs"]:
        problem = f"it costs {cost} Francs and you have {buyer['francs']}"
    if problem:
        _refuse(report, name, o, problem)
        return
    t = find_territory(board(state), o.args["where"])
    assert t is not None
    buyer["francs"] -= cost
    for kind in (INFANTRY, SUPPLY):
        add(state, t, name, kind, o.args["items"].get(kind, 0))
    report.say(TITLE, f"{name} bought {describe(o.args['items'])} with Francs in {place_name(state, t)}.")
    report.tell(name, TITLE, f"You paid {cost} Francs for {describe(o.args['items'])} in {place_name(state, t)}.")
    report.event("francs-purchase", player=name, where=t, items=o.args["items"], cost=cost)
