"""One month: start-of-turn steps, every family's orders in sequence, end-of-turn steps, the accounts.

Rules section ORDERS: "Orders are not simultaneous. They are executed sequentially." Families run in the order
their mails were received (a family that asked for a later day of the month runs after those that did not);
a persona's orders run in the order written except that transfers come first, then sells, buys, training,
other orders, and movement last.
"""

from __future__ import annotations

import importlib
import json
import logging
import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from maild.ruleset import GM_ORDERS, PlacedOrder

from . import accounts
from .engine import ACTIONS, STEPS, Ctx, Outcome, Phase, State
from .modules import RULE_MODULES

log = logging.getLogger("maild.renaissance")


@cache
def load_rules() -> None:
    """Import every rule module once, so their handlers and steps are registered."""
    for name in RULE_MODULES:
        importlib.import_module(f"{__package__}.{name}")


def copy_state(state: State) -> State:
    """A deep copy of a state (plain JSON), for work that must leave the original as it was."""
    copied: State = json.loads(json.dumps(state))
    return copied


@dataclass
class Result:
    """What the month did, for the reports: an entry per order executed, per family."""

    ctx: Ctx
    outcomes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # family -> outcomes in order
    skipped: dict[str, str] = field(default_factory=dict)  # family -> why none of its orders ran
    bulletins: list[str] = field(default_factory=list)
    order_counts: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> family -> orders run
    errors: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class FamilyOrders:
    family: str
    player: str
    seq: int
    day: int
    family_orders: list[PlacedOrder]
    personae: dict[str, list[PlacedOrder]]  # persona -> orders, personae in the order written


@cache  # every order of every mail asks it of the same few names
def family_key(name: str) -> str:
    """A family as players write it after `*`: case, blanks and hyphens do not matter (DELLAROVERE)."""
    return "".join(ch for ch in name.upper() if ch.isalnum())


def family_blocks(orders: dict[str, list[PlacedOrder]], state: State | None = None) -> list[FamilyOrders]:
    """Every family's orders, in execution order: (requested day, receipt sequence, family name). With the
    state, families are named as the state names them, however the player wrote them."""
    names = {family_key(f): f for f in state["families"]} if state else {}
    blocks: dict[str, FamilyOrders] = {}
    for player, placed in orders.items():
        if player == GM_ORDERS:
            continue
        for p in placed:
            written = p.order.args.get("family")
            if not written:
                continue
            fam = names.get(family_key(written), written)
            block = blocks.setdefault(fam, FamilyOrders(fam, p.order.args.get("player", player), p.seq, 0, [], {}))
            block.seq = min(block.seq, p.seq)
            if p.order.kind == "execute_day":
                block.day = int(p.order.args["day"])
            elif "persona" in p.order.args:
                block.personae.setdefault(p.order.args["persona"], []).append(p)
            else:
                block.family_orders.append(p)
    return sorted(blocks.values(), key=lambda b: (b.day, b.seq, b.family))


def _phase(kind: str) -> Phase:
    action = ACTIONS.get(kind)
    return action.phase if action else Phase.OTHER


def persona_sequence(placed: list[PlacedOrder]) -> list[PlacedOrder]:
    """A persona's orders in execution order: by phase, then as written (mail, then line)."""
    return sorted(placed, key=lambda p: (_phase(p.order.kind), p.seq, p.order.line))


# Orders that are bookkeeping, not actions: they shape execution and never appear as outcomes.
BOOKKEEPING = frozenset({"execute_day", "for_turn"})


def run_order(ctx: Ctx, result: Result, persona: dict[str, Any] | None, placed: PlacedOrder) -> Outcome:
    order = placed.order
    action = ACTIONS.get(order.kind)
    if action is None:
        return Outcome(False, "this order is not carried out by this version of the game")
    if persona is not None:
        if not persona.get("alive", True):
            return Outcome(False, f"{persona['name']} is dead")
        if persona["id"] in ctx.scratch.get("disembarked", ()):
            return Outcome(False, "he disembarked earlier this month and may do nothing more")
    try:
        return action.handler(ctx, persona if persona is not None else {}, order.args)
    except Exception as exc:  # a bug in a rule must not cost every other family its month
        log.exception("renaissance: order %s failed", order.kind)
        result.errors.append({"kind": order.kind, "code": order.text, "line": order.line, "args": order.args,
                              "error": repr(exc)})
        return Outcome(False, "could not be carried out (an error in the game's program; the GM has been told)")


def apply_gm_orders(state: State, turn: int, placed: list[PlacedOrder], result: Result) -> None:
    from .setup import amend  # the setup module is the one place that validates new locations and families

    for p in placed:
        kind, args = p.order.kind, p.order.args
        if kind == "gm_payment":
            accounts.record_payment(state, args["player"], float(args["amount"]), turn, args.get("note", "payment"))
        elif kind == "gm_amend":
            result.bulletins.extend(f"New: {line}" for line in amend(state, args["amendment"], turn=turn))
        elif kind == "gm_bulletin":
            result.bulletins.append(args["text"])


def run_month(state: State, turn: int, orders: dict[str, list[PlacedOrder]], rng: random.Random) -> Result:
    """Run turn `turn` on a copy of `state`; the new state is `result.ctx.state`."""
    load_rules()
    new = copy_state(state)  # the caller's snapshot must stay as it was
    ctx = Ctx(state=new, turn=turn, rng=rng)
    result = Result(ctx=ctx)
    apply_gm_orders(new, turn, orders.get(GM_ORDERS, []), result)
    for pid, persona in new["personae"].items():
        if persona.get("alive", True):
            ctx.start_location[pid] = persona.get("location")
            ctx.start_inside[pid] = bool(persona.get("inside"))
    for _rank, _name, fn in STEPS["start"]:
        fn(ctx)
    owing = {code for code in new["players"] if accounts.owes_prior(new, code)}
    for block in family_blocks(orders, new):
        family = new["families"].get(block.family)
        if family is None:
            result.skipped[block.family] = "there is no such family"
            continue
        player = family["player"]
        if player in owing:
            result.skipped[block.family] = ("no orders were executed: the account has not paid the prior "
                                            "month's fees in full (rules, CREDIT)")
            continue
        outcomes = result.outcomes.setdefault(block.family, [])
        count = 0
        for pid, placed in block.personae.items():
            persona = new["personae"].get(pid)
            for p in persona_sequence(placed):
                if p.order.kind in BOOKKEEPING:
                    continue
                if persona is None or persona.get("family") != block.family:
                    outcome = Outcome(False, f"{pid} is not a persona of the {block.family} family")
                else:
                    outcome = run_order(ctx, result, persona, p)
                count += 1
                outcomes.append({"persona": pid, "line": p.order.line, "code": p.order.text,
                                 "summary": p.order.summary, "ok": outcome.ok, "text": outcome.text})
        for p in block.family_orders:
            if p.order.kind in BOOKKEEPING:
                continue
            outcome = run_order(ctx, result, None, p)
            count += 1
            outcomes.append({"persona": None, "line": p.order.line, "code": p.order.text,
                             "summary": p.order.summary, "ok": outcome.ok, "text": outcome.text})
        result.order_counts.setdefault(player, {})[block.family] = count
    for _rank, _name, fn in STEPS["end"]:
        fn(ctx)
    for code in new["players"]:
        accounts.charge_turn(new, code, turn, result.order_counts.get(code, {}))
    return result
