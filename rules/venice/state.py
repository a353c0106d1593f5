"""The Venice game state: its layout, and the small questions asked of it everywhere.

The state is a JSON-serializable dict (the framework stores it as a snapshot per turn and exports it).
Its layout is documented in docs/venice.md; in short:

    version, title, credit_limit, interest_per_day, interest_days, scale_per_players, scale,
    players: [{name, email, password}],
    items: {name: {kind: "agenda" | "asset", value (agendas), force, popularity, influence}},
    auctions: [{turn, kind, name, day, lineup: [{item, count, base_count}]}],   # the seven, announced
    ledger: {player: {money, borrowed, interest_due, holdings: {item: count}}},
    auctions_held: [{turn, kind, name, day, loans, bids, items, refused}],      # one per finished turn
    final: null | {players: {player: realization}, ranking: [{rank, player, money}]}
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

State = dict[str, Any]

RESOURCES = ("force", "popularity", "influence")
TOTAL_TURNS = 7  # the opening auction, five common auctions, the closing auction
OPENING, CLOSING = 1, TOTAL_TURNS
DAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
ORDINALS = ("first", "second", "third", "fourth", "fifth")


def auction_kind(turn: int) -> str:
    if turn == OPENING:
        return "opening"
    if turn == CLOSING:
        return "closing"
    return "common"


def auction_name(turn: int) -> str:
    kind = auction_kind(turn)
    if kind == "common":
        return f"{ORDINALS[turn - 2]} common auction"
    return f"{kind} auction"


def kind_offered(turn: int) -> str:
    """Agendas in the opening and closing auctions, assets in the common ones (the rules' sections)."""
    return "asset" if auction_kind(turn) == "common" else "agenda"


def normalize(name: str) -> str:
    """How names are compared: case and runs of blanks do not matter."""
    return " ".join(name.split()).casefold()


def find_item(state: State, name: str) -> str | None:
    """The catalogue's spelling of `name`, or None if the game has no such item."""
    return lookup_item(item_index(state), name)


def lookup_item(index: dict[str, str], name: str) -> str | None:
    """The catalogue's spelling of `name` in `index` (item_index), the plural of an item's name included:
    "bid 10$ for 2 of senators" means the rules' "senator", since N of them are asked for. A name that is
    an item as written is that item, so an item whose own name ends in s is never cut."""
    wanted = normalize(name)
    if wanted in index:
        return index[wanted]
    for cut in ("es", "s"):
        if wanted.endswith(cut) and wanted[: -len(cut)] in index:
            return index[wanted[: -len(cut)]]
    return None


def item_index(state: State) -> dict[str, str]:
    """normalize(name) -> the catalogue's spelling, for every item; the first in catalogue order should two
    normalize alike (which setup refuses). Build it once where many names are looked up."""
    index: dict[str, str] = {}
    for item in state["items"]:
        index.setdefault(normalize(item), item)
    return index


def auction(state: State, turn: int) -> dict[str, Any] | None:
    """The announced auction of `turn`, or None outside 1..7."""
    if 1 <= turn <= len(state["auctions"]):
        return state["auctions"][turn - 1]
    return None


def offered(state: State, turn: int) -> dict[str, int]:
    """Item -> units offered in `turn`'s auction (after scaling), in the announced order."""
    a = auction(state, turn)
    return {entry["item"]: entry["count"] for entry in a["lineup"]} if a else {}


def lineup_words(state: State, turn: int) -> str:
    """'2 silk tax, 1 exile competitor', for messages."""
    return ", ".join(f"{n} {item}" for item, n in offered(state, turn).items()) or "nothing"


def player_names(state: State) -> list[str]:
    return [p["name"] for p in state["players"]]


def turns_held(state: State) -> int:
    return len(state["auctions_held"])


def interest(borrowed: int, rate: float, days: int) -> int:
    """Simple interest in whole dollars, rounded half up: 30$ at 5% for 7 days is 10.50$ -> 11$.

    Decimal from the rate's shortest repr, so 0.05 is five hundredths and not the binary float just
    above it (which would round 10.5 up for the wrong reason, and other amounts wrongly).
    """
    exact = Decimal(borrowed) * Decimal(repr(rate)) * days
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def resources_of(state: State, holdings: dict[str, int]) -> dict[str, int]:
    """The resources the assets in `holdings` provide, every copy counted."""
    totals = dict.fromkeys(RESOURCES, 0)
    for item, count in holdings.items():
        spec = state["items"][item]
        if spec["kind"] == "asset":
            for r in RESOURCES:
                totals[r] += spec[r] * count
    return totals


def holdings_list(state: State, holdings: dict[str, int]) -> list[dict[str, Any]]:
    """Holdings in catalogue order, for printouts."""
    return [{"item": item, "kind": spec["kind"], "count": holdings[item]}
            for item, spec in state["items"].items() if holdings.get(item)]
