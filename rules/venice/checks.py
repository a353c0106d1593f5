"""Orders against the game: what intake refuses, and what resolution refuses again (the same test, so an
order that slipped past intake, e.g. filed for a later turn under the late policy, is still judged)."""

from __future__ import annotations

from maild.ruleset import Diagnostic, Order

from .orders import Bid, as_bid
from .state import (
    OPENING,
    TOTAL_TURNS,
    State,
    auction,
    auction_name,
    item_index,
    lineup_words,
    lookup_item,
    offered,
)


def check(state: State, turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
    judge = Judge(state, turn)
    found = []
    for order in orders:
        message = judge.problem(order)
        if message:
            found.append(Diagnostic(order.line, order.text, message, rule=judge.rule(order)))
    return found


def problem(state: State, turn: int, order: Order) -> str | None:
    """Why `order` cannot stand in `turn`, or None."""
    return Judge(state, turn).problem(order)


class Judge:
    """`problem` for any number of orders against one state and turn, with what every order is checked
    against (the catalogue by normalized name, the lineup) looked up once rather than once per order."""

    def __init__(self, state: State, turn: int) -> None:
        self.state = state
        self.turn = turn
        self.held = auction(state, turn) is not None
        self.items = item_index(state)
        self.on_offer = offered(state, turn)
        self._lineup_words: str | None = None
        self._spelled: dict[str, str | None] = {}  # names as written -> item(name)

    def item(self, name: str) -> str | None:
        """The catalogue's spelling of `name`, or None (as state.find_item)."""
        try:
            return self._spelled[name]
        except KeyError:
            found = self._spelled[name] = lookup_item(self.items, name)
            return found

    def problem(self, order: Order) -> str | None:
        """Why `order` cannot stand in this turn, or None."""
        if not self.held:
            return f"the game has only {TOTAL_TURNS} auctions; there is no turn {self.turn}"
        if order.kind == "borrow":
            return self._borrow_problem(int(order.args["amount"]))
        if order.kind == "bid":
            return self.bid_problem(as_bid(order))
        return f"'{order.kind}' is not a Venice order"

    def rule(self, order: Order) -> str | None:
        """The section of the rules that refuses an order understood (a borrow after the opening auction, a bid
        for more than is offered), so the ack lists it with the rule; None when the order names what the game
        does not have (an item unknown), which the ack lists as not understood."""
        if order.kind == "borrow":
            return "Money"
        if order.kind == "bid" and self.held and self.item(as_bid(order).item) is not None:
            return "The Auction Process"
        return None

    def _borrow_problem(self, amount: int) -> str | None:
        limit = self.state["credit_limit"]
        if self.turn != OPENING:
            return f"you can borrow only before the opening auction (turn 1); this is turn {self.turn}"
        if limit == 0:
            return "this game gives no credit: nothing can be borrowed"
        if amount > limit:
            return f"you may borrow at most {limit}$"
        return None

    def bid_problem(self, bid: Bid) -> str | None:
        """Why a bid cannot stand in this turn (which must be one of the seven), or None."""
        turn = self.turn
        item = self.item(bid.item)
        if item is None:
            return (f"there is no item called '{bid.item}' in this game; the {auction_name(turn)} offers "
                    f"{self.lineup_words()}")
        on_offer = self.on_offer
        if item not in on_offer:
            later = [a["turn"] for a in self.state["auctions"]
                     if a["turn"] > turn and any(e["item"] == item for e in a["lineup"])]
            plural = "s" if len(later) > 1 else ""
            when = f"; it comes up in turn{plural} {', '.join(map(str, later))}" if later else ""
            return (f"{item} is not offered in the {auction_name(turn)} (turn {turn}), which offers "
                    f"{self.lineup_words()}{when}")
        if bid.units > on_offer[item]:
            return (f"only {on_offer[item]} of {item} are offered in the {auction_name(turn)}: "
                    f"bid for at most {on_offer[item]}")
        return None

    def lineup_words(self) -> str:
        if self._lineup_words is None:
            self._lineup_words = lineup_words(self.state, self.turn)
        return self._lineup_words
