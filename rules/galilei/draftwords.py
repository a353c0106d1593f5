"""The words the newsletter uses for Galilei's sealed bids and drafts: who chose in which place and why, and
what each pick took and why (3.1 "so let's make it public"; 3.2 "The results and every bid are published").

Plain lines, so a template prints them as they are:

- `opening_lines(result)`: every double bid, the two rankings with the criterion that decided each place,
  and every pick of the card draft and the capital draft;
- `turn_order_lines(placed)`: each turn's order with every bid;
- `pick_lines(picks, names=None)`: the picks of a draw (or of a draft), one line each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from maild.draft import Pick
from maild.ranking import Placed

from .opening import CAPITAL_BID, CARD_BID, OpeningBid, OpeningResult
from .turnorder import TurnBid


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _decided(p: Placed[object], before: str | None) -> str:
    if p.decided_by is None or before is None:
        return ""
    return f" (after {before} by {p.decided_by})"


def _bid_words(b: OpeningBid) -> str:
    if not b.mailed:
        return "no bid (0 for cards, 0 for capitals)"
    return f"{b.cards} for cards, {b.capitals} for capitals, global {b.global_bid}"


def ranking_lines(order: Sequence[Placed[OpeningBid]], category: str) -> list[str]:
    """One line a place: "1st Bob: 10 for cards, 5 for capitals, global 15" then "2nd Ann: ... (after Bob by
    the global bid)"."""
    lines = []
    before: str | None = None
    for p in order:
        shown = p.entry.cards if category == CARD_BID else p.entry.capitals
        lines.append(f"{_ordinal(p.place)} {p.entry.player}: {category} {shown}; {_bid_words(p.entry)}"
                     f"{_decided(p, before)}")
        before = p.entry.player
    return lines


def pick_lines(picks: Sequence[Pick[str]], names: Mapping[str, str] | None = None) -> list[str]:
    """One line a pick: what he took and why (his list; items of his list taken before him; the default, the
    first still free; nothing left). `names` maps a card id to the words to print (its printed name)."""
    def shown(item: str) -> str:
        return names.get(item, item) if names else item

    lines = []
    for n, pick in enumerate(picks, 1):
        passed = f"; {', '.join(shown(i) for i in pick.passed_over)} already taken" if pick.passed_over else ""
        if pick.by == "list":
            how = f"from his list{passed}"
        elif pick.by == "default":
            how = f"no choice of his left{passed}: the first still free"
        else:
            lines.append(f"{n}. {pick.chooser}: nothing left to take")
            continue
        lines.append(f"{n}. {pick.chooser} takes {shown(pick.item or '')} ({how})")
    return lines


def opening_lines(result: OpeningResult, names: Mapping[str, str] | None = None) -> list[str]:
    """The whole opening as the newsletter prints it: bids and order for cards, the card picks, then the
    same for capitals."""
    lines = ["Choosing cards:", *ranking_lines(result.card_order, CARD_BID), "Cards taken:",
             *pick_lines(result.card_picks, names), "Choosing capitals:",
             *ranking_lines(result.capital_order, CAPITAL_BID), "Capitals taken:",
             *pick_lines(result.capital_picks)]
    return lines


def turn_order_lines(placed: Sequence[Placed[TurnBid]]) -> list[str]:
    """Each turn's order: "1st Cid: bid 2", "2nd Bob: bid 2 (after Cid by the first mail received)"."""
    lines = []
    before: str | None = None
    for p in placed:
        bid = f"bid {p.entry.amount}" if p.entry.mailed else "no bid (0)"
        lines.append(f"{_ordinal(p.place)} {p.entry.player}: {bid}{_decided(p, before)}")
        before = p.entry.player
    return lines
