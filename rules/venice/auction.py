"""One day of Venice: the loans (turn 1 only), then the items in their announced order, each sold by
sealed bid (maild.auction) to players paying from their money as it stands when their bid is reached."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from maild import auction as sealed
from maild.ruleset import PlacedOrder

from .checks import problem
from .orders import as_bid, standing_key
from .state import State, auction, find_item, interest, player_names


def hold_auction(state: State, turn: int, orders: dict[str, list[PlacedOrder]]) -> dict[str, Any]:
    """Run `turn`'s auction on `state` (its ledger changes) and return the record of it, which is what
    goes into state["auctions_held"]."""
    announced = auction(state, turn)
    assert announced is not None
    ledger = state["ledger"]
    record: dict[str, Any] = {"turn": turn, "kind": announced["kind"], "name": announced["name"],
                              "day": announced["day"], "loans": [], "bids": [], "items": [], "refused": []}
    bids: dict[str, list[tuple[str, PlacedOrder]]] = defaultdict(list)
    # Loans first, for everyone, so that money borrowed counts for every bid of the opening auction.
    for player in player_names(state):
        for placed in _standing(orders.get(player, [])):
            order = placed.order
            why = problem(state, turn, order)
            if why:
                record["refused"].append({"player": player, "line": order.line, "text": order.text,
                                          "summary": order.summary, "seq": placed.seq, "reason": why})
            elif order.kind == "borrow":
                _lend(state, record, player, int(order.args["amount"]))
            else:
                item = find_item(state, as_bid(order).item)
                assert item is not None  # problem() said it exists
                bids[item].append((player, placed))

    for entry in announced["lineup"]:
        item, count = entry["item"], entry["count"]
        offers = [sealed.Bid(player, as_bid(p.order).price, as_bid(p.order).units, p.seq) for player, p in bids[item]]
        funds = {player: ledger[player]["money"] for player in ledger}
        sale = sealed.sell(count, offers, funds)
        winners = []
        for award in sale.awards:
            player = award.bid.bidder
            if award.units:
                account = ledger[player]
                account["money"] -= award.paid
                account["holdings"][item] = account["holdings"].get(item, 0) + award.units
                winners.append({"player": player, "price": award.bid.price, "units": award.units,
                                "paid": award.paid})
            record["bids"].append({
                "player": player, "item": item, "price": award.bid.price, "units": award.bid.units,
                "seq": award.bid.seq, "rank": award.rank, "outcome": award.outcome, "won": award.units,
                "paid": award.paid, "reason": _reason(award, sale.awards, count),
            })
        record["items"].append({"item": item, "kind": state["items"][item]["kind"], "offered": count,
                                "sold": count - sale.left, "left": sale.left, "winners": winners})
    return record


def _lend(state: State, record: dict[str, Any], player: str, amount: int) -> None:
    account = state["ledger"][player]
    account["money"] += amount
    account["borrowed"] += amount
    account["interest_due"] = interest(account["borrowed"], state["interest_per_day"], state["interest_days"])
    record["loans"].append({"player": player, "amount": amount, "interest": account["interest_due"]})


def _standing(placed: list[PlacedOrder]) -> list[PlacedOrder]:
    """The framework passes what `effective` left standing; keeping only the last order per key again
    makes a duplicate (a bug elsewhere, or a GM's hand-made order set) harmless rather than a double bid."""
    last: dict[tuple[str, ...], PlacedOrder] = {}
    for p in sorted(placed, key=lambda p: (p.seq, p.order.line)):
        last.pop(standing_key(p.order), None)
        last[standing_key(p.order)] = p
    return list(last.values())


def _reason(award: sealed.Award, awards: list[sealed.Award], offered: int) -> str | None:
    """Why a bid did not win all it asked for, in words for the printout."""
    if award.outcome == "won":
        return None
    if award.outcome == "nullified":
        wanted = award.needed // award.bid.price if award.bid.price else 0
        return (f"{wanted} at {award.bid.price}$ would have cost {award.needed}$ "
                f"but you had only {award.had}$ when the bid was reached")
    if award.outcome == "partly_won":
        return f"only {award.units} of the {award.bid.units} you wanted were left when your bid was reached"
    tied_earlier = any(a.units and a.bid.price == award.bid.price and a.rank < award.rank for a in awards)
    if tied_earlier:
        return f"all {offered} went to higher bids or equal bids received before yours"
    return f"all {offered} went to higher bids"
