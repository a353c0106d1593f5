"""The Venice ruleset object: the maild.ruleset.Ruleset contract, wired to this package's modules."""

from __future__ import annotations

import random
from typing import Any

from maild.ruleset import (
    Diagnostic,
    LatePolicy,
    Order,
    OrderKind,
    ParsedOrders,
    PlacedOrder,
    PlayerSpec,
    Ruleset,
    TurnResult,
)

from . import checks, ending, reports
from . import orders as order_rules
from . import setup as setup_rules
from .auction import hold_auction
from .state import CLOSING, TOTAL_TURNS, State, turns_held


class Venice(Ruleset):
    """Venice: seven sealed-bid auctions of agendas and assets, then agendas realized and loans repaid."""

    name = "venice"
    order_kinds = (
        OrderKind("bid", order_rules.BID_FORM, "offer X$ a unit for up to N units of ITEM in this turn's auction",
                  order_rules.BID_EXAMPLE),
        OrderKind("borrow", "borrow X$", "borrow from the treasury, before the opening auction only",
                  order_rules.BORROW_EXAMPLE),
    )
    # Orders that arrive after a deadline are for the next auction, like a bid handed in after 17.15.
    late_policy: LatePolicy = "next_turn"
    # Never refused: a later mail replaces bids item by item.
    resubmission = order_rules.RESUBMISSION

    def parse(self, text: str) -> ParsedOrders:
        return order_rules.parse(text)

    def new_game(self, setup: dict[str, Any]) -> State:
        return setup_rules.new_game(setup)

    def players(self, state: State) -> list[PlayerSpec]:
        return [PlayerSpec(p["name"], p["email"], p["password"]) for p in state["players"]]

    def total_turns(self, state: State) -> int:
        return TOTAL_TURNS

    def check(self, state: State, turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
        return checks.check(state, turn, player, orders)

    def resolve(self, state: State, turn: int, orders: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        # Venice has no chance: `rng` is deliberately unused, so a re-run gives the same result whatever
        # the seed.
        if turn != turns_held(state) + 1 or turn > TOTAL_TURNS:
            raise ValueError(f"venice: cannot resolve turn {turn} after {turns_held(state)} auctions")
        new = _next_state(state)
        record = hold_auction(new, turn, orders)
        new["auctions_held"].append(record)
        if turn == CLOSING:
            new["final"] = ending.finish(new)
        shared = reports.public(new, record)
        return TurnResult(
            state=new,
            printouts=reports.printouts(new, record, shared),
            newsletter=reports.newsletter(new, record, shared),
            events=_events(new, record),
            finished=turn == CLOSING,
        )

    def export_players(self, state: State) -> dict[str, dict[str, Any]]:
        final = state["final"]
        out = {}
        for p in state["players"]:
            account = state["ledger"][p["name"]]
            row: dict[str, Any] = {
                "email": p["email"],
                "money": account["money"],
                "borrowed": account["borrowed"],
                "interest_due": account["interest_due"],
                "holdings": dict(account["holdings"]),
            }
            if final:
                row["realized_value"] = final["players"][p["name"]]["value"]
                row["rank"] = final["players"][p["name"]]["rank"]
            out[p["name"]] = row
        return out

    def status(self, state: State, turn: int, player: str) -> dict[str, Any]:
        return reports.status(state, player)

    def welcome(self, state: State, player: str, turn: int = 1) -> dict[str, Any] | None:
        # Only at the start: the loan is decided before the opening auction, and no one joins later.
        return reports.welcome(state, player) if turn == 1 else None

    def template_context(self, state: State, turn: int) -> dict[str, Any]:
        return reports.template_context(state, turn)


def _next_state(state: State) -> State:
    """A copy of `state` that a turn can change without touching `state`: the ledger (the only part a turn
    changes in place) copied down to each player's holdings, the list of auctions held copied so a record
    can be added. The rest (players, items, the announced auctions, the records of earlier auctions) is
    never changed once made, so it is shared rather than deep-copied: a deep copy of a late state, which
    holds every bid so far, would cost more than the whole auction."""
    new = dict(state)
    new["ledger"] = {player: {**account, "holdings": dict(account["holdings"])}
                     for player, account in state["ledger"].items()}
    new["auctions_held"] = list(state["auctions_held"])
    return new


def _events(state: State, record: dict[str, Any]) -> list[dict[str, Any]]:
    turn = record["turn"]
    events: list[dict[str, Any]] = []
    events += [{"type": "loan", "turn": turn, **loan} for loan in record["loans"]]
    events += [{"type": "refused", "turn": turn, **r} for r in record["refused"]]
    events += [{"type": "bid", "turn": turn, **b} for b in record["bids"]]
    events += [{"type": "sale", "turn": turn, "item": i["item"], "offered": i["offered"], "sold": i["sold"]}
               for i in record["items"]]
    final = state["final"]
    if final:
        for player, f in final["players"].items():
            events.append({"type": "realized", "turn": turn, "player": player,
                           "agendas": {r["agenda"]: r["copies"] for r in f["realized"]}, "value": f["value"]})
            events.append({"type": "repaid", "turn": turn, "player": player, "borrowed": f["repaid"],
                           "interest": f["interest"], "money": f["money"]})
        events.append({"type": "ranking", "turn": turn, "ranking": [dict(r) for r in final["ranking"]]})
    return events


RULESET = Venice()
