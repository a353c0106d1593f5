"""The families' orders: one order's execution, a persona's orders in their phases, and the month's own steps.

Rules section ORDERS: "Orders are not simultaneous. They are executed sequentially." Families run in the order
their mails were received (family_orders.py); a persona's orders run in the order written, regrouped by phase in
the order registry.ORDER_PHASES gives. The steps here (`gm_orders`, `note_starting_places`, `families_orders`,
`charge_fees`) are rows of registry.MONTH, which says when each runs. The order table and the phases come with the
`Month` (engine.run_month puts registry.ACTIONS and registry.PHASE_ORDER there): this module is itself a row of the
registry, so it does not import it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from maild.ruleset import GM_ORDERS, PlacedOrder

from . import accounts, corrections
from .context import Action, Ctx, Outcome, Phase
from .family_orders import family_blocks
from .setup import amend
from .war import conflict

log = logging.getLogger("maild.renaissance")


# Orders that are bookkeeping, not actions: they shape execution and never appear as outcomes.
BOOKKEEPING = frozenset({"execute_day", "for_turn"})


@dataclass
class Result:
    """What the month did, for the reports: an entry per order executed, per family."""

    ctx: Ctx
    outcomes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # family -> outcomes in order
    skipped: dict[str, str] = field(default_factory=dict)  # family -> why none of its orders ran
    bulletins: list[str] = field(default_factory=list)
    order_counts: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> family -> orders run
    errors: list[dict[str, Any]] = field(default_factory=list)


@dataclass(eq=False, kw_only=True)  # eq: a month is itself (and holds a result that holds it)
class Month(Ctx):
    """A month being run: the context every rule sees, and what only the month's own steps use (the orders on
    file, the order of a persona's phases, the order table, the result being written)."""

    orders: dict[str, list[PlacedOrder]]
    phase_order: tuple[Phase, ...]
    actions: Mapping[str, Action]  # each order kind's handler and phase: registry.ACTIONS
    result: Result = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.result = Result(ctx=self)


def persona_sequence(placed: list[PlacedOrder], phase_order: tuple[Phase, ...],
                     actions: Mapping[str, Action]) -> list[PlacedOrder]:
    """A persona's orders in execution order: by phase as `phase_order` lists them, then as written (mail, then
    line). A kind without a handler in `actions` counts as an other order (it fails when its turn comes)."""
    rank = {phase: i for i, phase in enumerate(phase_order)}

    def phase_rank(p: PlacedOrder) -> int:
        action = actions.get(p.order.kind)
        return rank[action.phase if action else Phase.OTHER]

    return sorted(placed, key=lambda p: (phase_rank(p), p.seq, p.order.line))


def run_order(month: Month, persona: dict[str, Any] | None, placed: PlacedOrder) -> Outcome:
    ctx, result = month, month.result
    order = placed.order
    action = month.actions.get(order.kind)
    if action is None:
        return Outcome(False, "this order is not carried out by this version of the game")
    if persona is not None:
        if not persona.get("alive", True):
            return Outcome(False, f"{persona['name']} is dead")
        if persona["id"] in ctx.scratch.get("disembarked", ()):
            return Outcome(False, "he disembarked earlier this month and may do nothing more")
        # BATTLE: "A persona may not execute other orders subsequently in the same turn after having executed
        # battle orders" (docs/renaissance/war.md, RW-OQ-03).
        if (why := conflict.after_battle(ctx, persona["id"], order.kind)) is not None:
            return Outcome(False, why)
    try:
        outcome = action.handler(ctx, persona if persona is not None else {}, order.args)
    except Exception as exc:  # a bug in a rule must not cost every other family its month
        log.exception("renaissance: order %s failed", order.kind)
        result.errors.append({"kind": order.kind, "code": order.text, "line": order.line, "args": order.args,
                              "error": repr(exc)})
        return Outcome(False, "could not be carried out (an error in the game's program; the GM has been told)")
    if outcome.ok and persona is not None:
        conflict.note_executed(ctx, persona["id"], order.kind)  # the assault asks what came before it (RW-OQ-03)
    return outcome


def apply_gm_orders(ctx: Ctx, placed: list[PlacedOrder], result: Result) -> None:
    state, turn = ctx.state, ctx.turn
    for p in placed:
        kind, args = p.order.kind, p.order.args
        if kind in corrections.VOIDING or kind == "gm_compensate":  # ERRORS, STANDARDS OF CONDUCT
            result.bulletins.append(corrections.apply(ctx, kind, args))
        elif kind == "gm_payment":
            accounts.record_payment(state, args["player"], float(args["amount"]), turn, args.get("note", "payment"))
        elif kind == "gm_amend":
            result.bulletins.extend(f"New: {line}" for line in amend(state, args["amendment"], turn=turn))
        elif kind == "gm_bulletin":
            result.bulletins.append(args["text"])


# ---- the month's own steps (rows of registry.MONTH) -----------------------------------------------------------

def gm_orders(month: Month) -> None:
    apply_gm_orders(month, month.orders.get(GM_ORDERS, []), month.result)


def note_starting_places(month: Month) -> None:
    for pid, persona in month.state["personae"].items():
        if persona.get("alive", True):
            month.start_location[pid] = persona.get("location")
            month.start_inside[pid] = bool(persona.get("inside"))


def families_orders(month: Month) -> None:
    state, result = month.state, month.result
    owing = {code for code in state["players"] if accounts.owes_prior(state, code)}
    for block in family_blocks(month.orders, state):
        family = state["families"].get(block.family)
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
            persona = state["personae"].get(pid)
            for p in persona_sequence(placed, month.phase_order, month.actions):
                if p.order.kind in BOOKKEEPING:
                    continue
                if persona is None or persona.get("family") != block.family:
                    outcome = Outcome(False, f"{pid} is not a persona of the {block.family} family")
                elif (void := corrections.voided(month, pid, p.order.text)) is not None:
                    outcome = Outcome(False, f"void: {void}")
                else:
                    outcome = run_order(month, persona, p)
                count += 1
                outcomes.append({"persona": pid, "line": p.order.line, "code": p.order.text,
                                 "summary": p.order.summary, "ok": outcome.ok, "text": outcome.text})
        for p in block.family_orders:
            if p.order.kind in BOOKKEEPING:
                continue
            outcome = run_order(month, None, p)
            count += 1
            outcomes.append({"persona": None, "line": p.order.line, "code": p.order.text,
                             "summary": p.order.summary, "ok": outcome.ok, "text": outcome.text})
        result.order_counts.setdefault(player, {})[block.family] = count


def charge_fees(month: Month) -> None:
    for code in month.state["players"]:
        accounts.charge_turn(month.state, code, month.turn, month.result.order_counts.get(code, {}))
