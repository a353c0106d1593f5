"""Venice orders: `borrow X$` and `bid X$ for N of A`, from text to Order, and which ones stand.

Parsing is syntax only (grammar/venice.lark); whether an item exists or is on offer is `checks.py`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from maild.parsing import OrderError, SyntaxHelp, parse_orders
from maild.policies import LaterReplacesSameKey
from maild.ruleset import Diagnostic, Order, ParsedOrders

from .state import normalize

GRAMMAR = "venice"
BID_EXAMPLE = "bid 30$ for 2 of opera"
BID_FORM = "bid X$ for N of ITEM"
BORROW_EXAMPLE = "borrow 200$"

# Every way the grammar lets a bid begin, so the hints below cover each parser state a mistake can hit.
_AMOUNTS = ("1$", "$1", "1")
_BID_HEADS = [f"bid {a}{each} for{up}" for a in _AMOUNTS for each in ("", " each") for up in ("", " up to")]

SYNTAX = SyntaxHelp(
    words={
        "BID": "'bid'", "BORROW": "'borrow'", "EACH": "'each'", "FOR": "'for'", "UP": "'up to'",
        "TO": "'to'", "OF": "'of'", "DOLLAR": "'$'", "NUMBER": "a number",
        "ITEM": "the name of an item", "QUOTED": "the name of an item",
    },
    optional=frozenset({"DOLLAR", "EACH", "UP"}),
    examples={"bid": BID_EXAMPLE, "borrow": BORROW_EXAMPLE},
    hints=(
        ("an amount of dollars", ["bid", "bid x", "borrow", "borrow x"]),
        ("the number of dollars", ["bid $", "bid $x", "borrow $", "borrow $x"]),
        ("a number of units", [h for head in _BID_HEADS for h in (head, f"{head} x")]),
        ("an item name with a closing quote", [f'{head} 2 of "x' for head in _BID_HEADS]),
    ),
)

# "1,000" is a thousand to most players; "30,5" or "30.5" is a fraction, which is refused.
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")
_WHOLE = re.compile(r"[+-]?\d+")


# A 0$ bid stands (the rules put no floor on X, and "the highest bid wins": with no other bid, 0$ is the
# highest), but it is rarely what a player means, so the ack says what it does. See docs/venice.md.
ZERO_BID = ("a 0$ bid costs nothing and wins only units that no one bids more for (those left after every "
            "higher bid is served)")


def parse(text: str) -> ParsedOrders:
    parsed = parse_orders(GRAMMAR, text, build, SYNTAX)
    zero = [Diagnostic(o.line, o.text, ZERO_BID, warning=True) for o in parsed.orders
            if o.kind == "bid" and o.args["price"] == 0]
    if zero:
        parsed.diagnostics = sorted([*parsed.diagnostics, *zero], key=lambda d: d.line)
    return parsed


def build(tree: Tree, line: int, text: str) -> Order:
    order = tree.children[0]
    assert isinstance(order, Tree)
    if order.data == "borrow":
        amount = _number(_amount_token(order), "the amount to borrow", "$")
        return Order(line, text, "borrow", {"amount": amount}, f"borrow {amount}$")
    tokens = [c for c in order.children if isinstance(c, Token)]
    price = _number(_amount_token(order), "the price", "$", least=0)
    units = _number(next(t for t in tokens if t.type == "NUMBER"), "the number of units", "")
    item = _item_name(order.children[-1])
    return Order(line, text, "bid", {"price": price, "units": units, "item": item}, bid_summary(price, units, item))


def bid_summary(price: int, units: int, item: str) -> str:
    return f"bid {price}$ each for up to {units} of {item}"


def _amount_token(order: Tree) -> Token:
    amount = next(c for c in order.children if isinstance(c, Tree) and c.data == "amount")
    return next(t for t in amount.children if isinstance(t, Token) and t.type == "NUMBER")


def _number(token: Token, what: str, unit: str, least: int = 1) -> int:
    text = str(token)
    if _THOUSANDS.fullmatch(text):
        text = text.replace(",", "")
    if not _WHOLE.fullmatch(text):
        raise OrderError(f"{what} must be a whole number, found '{token}{unit}'")
    value = int(text)
    if value < least:
        raise OrderError(f"{what} must be at least {least}, found '{token}{unit}'")
    return value


def _item_name(item: Any) -> str:
    assert isinstance(item, Tree)
    token = item.children[0]
    raw = str(token)[1:-1] if token.type == "QUOTED" else str(token)
    name = " ".join(raw.split())
    if not name:
        raise OrderError("the item name between the quotes is empty")
    return name


@dataclass(frozen=True, slots=True)
class Bid:
    item: str  # as the player wrote it; find_item() gives the catalogue's spelling
    price: int
    units: int


def as_bid(order: Order) -> Bid:
    return Bid(order.args["item"], int(order.args["price"]), int(order.args["units"]))


def standing_key(order: Order) -> tuple[str, ...]:
    """Orders with the same key replace one another: one loan, one bid per item."""
    if order.kind == "borrow":
        return ("borrow",)
    if order.kind == "bid":
        return ("bid", normalize(order.args["item"]))
    return (order.kind, str(order.line), order.text)


# A later borrow replaces an earlier one, and a later bid for an item replaces the earlier bid for it; the
# order standing carries the receipt sequence of the mail that brought it (so a replaced bid also loses its
# place in a tie). Within one mail, a later line replaces an earlier one.
RESUBMISSION = LaterReplacesSameKey(
    standing_key,
    second_mail=("Until the deadline a new mail changes your orders: a later bid for an item replaces your "
                 "earlier bid for that item, and a later borrow your earlier borrow; orders you do not repeat stay "
                 "on file. Send a line that was not understood again, corrected."),
)
