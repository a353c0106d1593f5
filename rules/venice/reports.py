"""Template contexts: each player's printout, the public newsletter, and the ack/HELP extras.

The framework renders printouts and newsletters with its own `game` (the game's name), `turn`,
`finished`, `next_deadline` and, for a printout, `player` beside these contexts, so the contexts never
use those keys (a duplicate keyword would be an error). Acks and HELP get `template_context` as `info`.

What is public and when (the rules' "Bids are secret before the auction. After the auction ends, the
winning bids are made public. After the last common auction, all bids in all auctions are made public."):

- a player always sees their own bids, with what became of each;
- everyone sees the winning bids of each auction once it is held (and so everyone's holdings);
- everyone sees every bid of auctions 1..6 from the newsletter of turn 6 on, and of auction 7 after it;
- nobody ever sees a bid of an auction not yet held (contexts are built from auctions_held only);
- loans and money stay private until the final ranking.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .orders import BID_EXAMPLE, BORROW_EXAMPLE
from .state import (
    CLOSING,
    OPENING,
    RESOURCES,
    TOTAL_TURNS,
    State,
    auction,
    holdings_list,
    player_names,
    resources_of,
)

LAST_COMMON = CLOSING - 1  # after this auction every bid so far is published


def auction_heading(state: State, turn: int) -> dict[str, Any] | None:
    a = auction(state, turn)
    if a is None:
        return None
    return {"turn": turn, "kind": a["kind"], "name": a["name"], "day": a["day"],
            "lineup": lineup(state, turn)}


def lineup(state: State, turn: int) -> list[dict[str, Any]]:
    """The items of `turn`'s auction with their counts and what each is worth or provides."""
    a = auction(state, turn)
    if a is None:
        return []
    rows = []
    for entry in a["lineup"]:
        spec = state["items"][entry["item"]]
        rows.append({"item": entry["item"], "count": entry["count"], "kind": spec["kind"],
                     "value": spec.get("value"), **{r: spec[r] for r in RESOURCES}})
    return rows


def results(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The public part of one held auction: for each item, who won how many at what price."""
    return [{"item": row["item"], "kind": row["kind"], "offered": row["offered"], "sold": row["sold"],
             "left": row["left"], "winners": [dict(w) for w in row["winners"]]} for row in record["items"]]


def winners_text(rows: list[dict[str, Any]]) -> str:
    """`results` as the printout and the newsletter list them. Formatted here, once per turn, rather than
    in the templates: every printout repeats it, and a template loop over every winner in every printout
    makes rendering a turn grow with the square of the number of players."""
    lines = []
    for r in rows:
        lines.append(f"  {r['item']}: {r['sold']} of {r['offered']} sold{':' if r['winners'] else ', no winning bid'}")
        lines.extend(f"      {w['player']} won {w['units']} at {w['price']}$ each ({w['paid']}$)"
                     for w in r["winners"])
    return "\n".join(lines).rstrip()


def ranking_text(rows: list[dict[str, Any]]) -> str:
    """The final ranking as every final printout lists it (formatted once, like `winners_text`)."""
    return "\n".join(f"  {r['rank']:2d}. {r['player']}: {r['money']}$" for r in rows).rstrip()


def all_bids(state: State) -> list[dict[str, Any]]:
    """Every bid of every auction held, as published after the last common auction."""
    return [{"turn": rec["turn"], "name": rec["name"], "day": rec["day"],
             "bids": [{k: b[k] for k in ("player", "item", "price", "units", "rank", "outcome", "won")}
                      for b in rec["bids"]]}
            for rec in state["auctions_held"]]


def public(state: State, record: dict[str, Any]) -> dict[str, Any]:
    """What every printout and the newsletter share: built once per turn, and shared by reference (so a
    printout context costs the same whatever the number of players). Read-only for the templates."""
    turn = record["turn"]
    final = state["final"]
    rows = results(record)
    ranking = [dict(r) for r in final["ranking"]] if final else None
    return {
        "title": state["title"],
        "total_turns": TOTAL_TURNS,
        "auction": auction_heading(state, turn),
        "results": rows,
        "winners_text": winners_text(rows),
        "next_auction": auction_heading(state, turn + 1),
        "ranking": ranking,
        "ranking_text": ranking_text(ranking) if ranking else None,
    }


def printouts(state: State, record: dict[str, Any], shared: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """Every player's printout context: the `public` part shared, and the player's own (their loan, bids,
    refused orders and account), found through indexes by player built once."""
    shared = public(state, record) if shared is None else shared
    final = state["final"]
    loans: dict[str, dict[str, Any]] = {}
    for loan in record["loans"]:
        loans.setdefault(loan["player"], loan)
    own_bids: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for b in record["bids"]:
        own_bids[b["player"]].append(b)
    refused: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in record["refused"]:
        refused[r["player"]].append(r)
    out = {}
    for player in player_names(state):
        account = state["ledger"][player]
        loan = loans.get(player)
        mine = own_bids.get(player, [])
        out[player] = {
            **shared,
            "loan": dict(loan) if loan else None,
            "bids": [{"item": b["item"], "price": b["price"], "units": b["units"], "rank": b["rank"],
                      "outcome": b["outcome"], "won": b["won"], "paid": b["paid"], "reason": b["reason"]}
                     for b in mine],
            "refused": [{"line": r["line"], "text": r["text"], "reason": r["reason"]}
                        for r in refused.get(player, [])],
            "money": account["money"],
            "spent": sum(b["paid"] for b in mine),
            "borrowed": account["borrowed"],
            "interest_due": account["interest_due"],
            "holdings": holdings_list(state, account["holdings"]),
            "resources": resources_of(state, account["holdings"]),
            "agendas": agenda_needs(state, account["holdings"]),
            "final": dict(final["players"][player]) if final else None,
        }
    return out


def newsletter(state: State, record: dict[str, Any], shared: dict[str, Any] | None = None) -> dict[str, Any]:
    shared = public(state, record) if shared is None else shared
    turn = record["turn"]
    final = state["final"]
    return {
        **shared,
        # Only from the last common auction on; until then a losing bid is its bidder's secret.
        "all_bids": all_bids(state) if turn >= LAST_COMMON else None,
        "holdings": {p: holdings_list(state, a["holdings"]) for p, a in state["ledger"].items()},
        "final": ({p: {k: v for k, v in f.items() if k in ("value", "repaid", "interest", "money", "rank",
                                                         "realized")}
                   for p, f in final["players"].items()} if final else None),
    }


def template_context(state: State, turn: int) -> dict[str, Any]:
    """For acks, HELP and STATUS: what is on offer now, whether borrowing is open, the whole schedule."""
    return {
        "ruleset": "venice",
        "title": state["title"],
        "turn": turn,
        "total_turns": TOTAL_TURNS,
        "auction": auction_heading(state, turn),
        "can_borrow": turn == OPENING and state["credit_limit"] > 0,
        "credit_limit": state["credit_limit"],
        "interest_per_day": state["interest_per_day"],
        "interest_percent_per_day": _percent(state["interest_per_day"]),
        "interest_days": state["interest_days"],
        "scale": state["scale"],
        "items": [{"item": name, "kind": spec["kind"], "value": spec.get("value"),
                   **{r: spec[r] for r in RESOURCES}} for name, spec in state["items"].items()],
        "schedule": [auction_heading(state, t) for t in range(1, TOTAL_TURNS + 1)],
        "examples": {"bid": BID_EXAMPLE, "borrow": BORROW_EXAMPLE},
    }


def _percent(rate: float) -> str:
    """0.05 -> '5', 0.025 -> '2.5': as a GM would write it."""
    return f"{rate * 100:.6f}".rstrip("0").rstrip(".")


def agenda_needs(state: State, holdings: dict[str, int]) -> dict[str, Any]:
    """The agendas a player holds, each with its value, the resources realizing one copy takes and what his
    assets still lack for it; and the same for all of them together (the rules: agendas are realized "if the
    player has sufficient resources")."""
    have = resources_of(state, holdings)
    rows = []
    total = dict.fromkeys(RESOURCES, 0)
    for item, count in holdings.items():
        spec = state["items"][item]
        if spec["kind"] != "agenda" or not count:
            continue
        needs = {r: spec[r] for r in RESOURCES}
        for r in RESOURCES:
            total[r] += needs[r] * count
        rows.append({"item": item, "count": count, "value": spec["value"], "needs": needs,
                     "short": _short(needs, have)})
    return {"agendas": rows, "value": sum(r["value"] * r["count"] for r in rows), "needs": total,
            "short": _short(total, have)}


def _short(needs: dict[str, int], have: dict[str, int]) -> dict[str, int]:
    """What is missing of each resource (only those missing)."""
    return {r: needs[r] - have[r] for r in RESOURCES if needs[r] > have[r]}


def welcome(state: State, player: str) -> dict[str, Any]:
    """What a player needs before his first bid: the rules' money (0$, and a loan only before the opening
    auction), what the agendas are worth and need, what the assets give, and every auction's lineup."""
    return {"welcome_for": "", "info": template_context(state, OPENING),
            "money": state["ledger"][player]["money"]}
