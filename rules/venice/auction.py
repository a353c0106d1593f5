"""One day of Venice: the loans (turn 1 only), then the items in their announced order, each sold by
sealed bid (maild.auction) to players paying from their money as it stands when their bid is reached."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from maild import auction as sealed
from maild.ruleset import PlacedOrder

from .checks import Judge
from .orders import as_bid, standing_key
from .state import State, auction, interest, player_names


def hold_auction(state: State, turn: int, orders: dict[str, list[PlacedOrder]]) -> dict[str, Any]:
    """Run `turn`'s auction on `state` (its ledger changes) and return the record of it, which is what
    goes into state["auctions_held"]."""
    announced = auction(state, turn)
    assert announced is not None
    ledger = state["ledger"]
    record: dict[str, Any] = {"turn": turn, "kind": announced["kind"], "name": announced["name"],
                              "day": announced["day"], "loans": [], "bids": [], "items": [], "refused": []}
    judge = Judge(state, turn)
    bids: dict[str, list[sealed.Bid]] = defaultdict(list)
    # Loans first, for everyone, so that money borrowed counts for every bid of the opening auction.
    for player in player_names(state):
        for placed in _standing(orders.get(player, [])):
            order = placed.order
            bid = as_bid(order) if order.kind == "bid" else None
            why = judge.bid_problem(bid) if bid is not None else judge.problem(order)
            if why:
                record["refused"].append({"player": player, "line": order.line, "text": order.text,
                                          "summary": order.summary, "seq": placed.seq, "reason": why})
            elif bid is None:  # a borrow: problem() lets through no other kind
                _lend(state, record, player, int(order.args["amount"]))
            else:
                item = judge.item(bid.item)  # a dict lookup: bid_problem() looked it up
                assert item is not None  # bid_problem() said it exists
                bids[item].append(sealed.Bid(player, bid.price, bid.units, placed.seq))

    for entry in announced["lineup"]:
        item, count = entry["item"], entry["count"]
        offers = bids[item]
        # Only bidders can pay; sell() gives a bidder missing from the funds nothing.
        funds = {offer.bidder: ledger[offer.bidder]["money"] for offer in offers}
        sale = sealed.sell(count, offers, funds)
        # The best rank among the bids that won units, per price: a lost bid ranked below a winner at its
        # own price lost to the tie-break, not only to higher bids (see _lost_reasons).
        first_winner_at: dict[int, int] = {}
        for award in sale.awards:
            if award.units:
                first_winner_at.setdefault(award.bid.price, award.rank)
        lost = _lost_reasons(count)
        winners = []
        for award in sale.awards:
            offer = award.bid
            player = offer.bidder
            if award.units:
                account = ledger[player]
                account["money"] -= award.paid
                holdings = account["holdings"]
                holdings[item] = holdings.get(item, 0) + award.units
                winners.append({"player": player, "price": offer.price, "units": award.units,
                                "paid": award.paid})
            if award.outcome == "lost":
                reason: str | None = lost[first_winner_at.get(offer.price, award.rank) < award.rank]
            else:
                reason = _reason(award)
            record["bids"].append({
                "player": player, "item": item, "price": offer.price, "units": offer.units, "seq": offer.seq,
                "rank": award.rank, "outcome": award.outcome, "won": award.units, "paid": award.paid,
                "reason": reason,
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
    for p in sorted(placed, key=_receipt):
        key = standing_key(p.order)
        last.pop(key, None)
        last[key] = p
    return list(last.values())


def _receipt(p: PlacedOrder) -> tuple[int, int]:
    return p.seq, p.order.line


def _reason(award: sealed.Award) -> str | None:
    """Why a bid that was not simply lost did not win all it asked for, in words for the printout."""
    if award.outcome == "won":
        return None
    if award.outcome == "nullified":
        wanted = award.needed // award.bid.price if award.bid.price else 0
        return (f"{wanted} at {award.bid.price}$ would have cost {award.needed}$ "
                f"but you had only {award.had}$ when the bid was reached")
    assert award.outcome == "partly_won"
    return f"only {award.units} of the {award.bid.units} you wanted were left when your bid was reached"


def _lost_reasons(offered: int) -> tuple[str, str]:
    """Why a lost bid lost, in words for the printout: (to higher bids only, also to an equal bid received
    earlier, i.e. an earlier bid at the same price won units)."""
    return (f"all {offered} went to higher bids",
            f"all {offered} went to higher bids or equal bids received before yours")
