"""Orders against the game: what intake refuses, and what resolution refuses again (the same test, so an
order that slipped past intake, e.g. filed for a later turn under the late policy, is still judged)."""

from __future__ import annotations

from maild.ruleset import Diagnostic, Order

from .orders import as_bid
from .state import OPENING, TOTAL_TURNS, State, auction, auction_name, find_item, lineup_words, offered


def check(state: State, turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
    found = []
    for order in orders:
        message = problem(state, turn, order)
        if message:
            found.append(Diagnostic(order.line, order.text, message))
    return found


def problem(state: State, turn: int, order: Order) -> str | None:
    """Why `order` cannot stand in `turn`, or None."""
    if auction(state, turn) is None:
        return f"the game has only {TOTAL_TURNS} auctions; there is no turn {turn}"
    if order.kind == "borrow":
        return _borrow_problem(state, turn, int(order.args["amount"]))
    if order.kind == "bid":
        return _bid_problem(state, turn, order)
    return f"'{order.kind}' is not a Venice order"


def _borrow_problem(state: State, turn: int, amount: int) -> str | None:
    limit = state["credit_limit"]
    if turn != OPENING:
        return f"you can borrow only before the opening auction (turn 1); this is turn {turn}"
    if limit == 0:
        return "this game gives no credit: nothing can be borrowed"
    if amount > limit:
        return f"you may borrow at most {limit}$"
    return None


def _bid_problem(state: State, turn: int, order: Order) -> str | None:
    bid = as_bid(order)
    item = find_item(state, bid.item)
    name = auction_name(turn)
    if item is None:
        return f"there is no item called '{bid.item}' in this game; the {name} offers {lineup_words(state, turn)}"
    on_offer = offered(state, turn)
    if item not in on_offer:
        later = [a["turn"] for a in state["auctions"]
                 if a["turn"] > turn and any(e["item"] == item for e in a["lineup"])]
        plural = "s" if len(later) > 1 else ""
        when = f"; it comes up in turn{plural} {', '.join(map(str, later))}" if later else ""
        return (f"{item} is not offered in the {name} (turn {turn}), which offers "
                f"{lineup_words(state, turn)}{when}")
    if bid.units > on_offer[item]:
        return f"only {on_offer[item]} of {item} are offered in the {name}: bid for at most {on_offer[item]}"
    return None
