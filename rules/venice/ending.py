"""After the closing auction: agendas realized in the best combination, loans repaid, players ranked."""

from __future__ import annotations

from typing import Any

from maild.optimize import best_subset

from .state import RESOURCES, State, resources_of


def finish(state: State) -> dict[str, Any]:
    """Realize, repay and rank; changes the ledger and returns what goes into state["final"]."""
    players = {}
    for name, account in state["ledger"].items():
        players[name] = realize(state, account["holdings"])
        before = account["money"]
        account["money"] = before + players[name]["value"] - account["borrowed"] - account["interest_due"]
        players[name].update(money_after_auctions=before, repaid=account["borrowed"],
                             interest=account["interest_due"], money=account["money"])
    ranking = rank({name: account["money"] for name, account in state["ledger"].items()})
    for row in ranking:
        players[row["player"]]["rank"] = row["rank"]
    return {"players": players, "ranking": ranking}


def realize(state: State, holdings: dict[str, int]) -> dict[str, Any]:
    """The most valuable set of agenda copies the held assets can pay for, every copy a separate choice.

    Exact (maild.optimize), because a greedy pick is wrong in cases players will notice: see
    tests/test_venice_ending.py.
    """
    available = resources_of(state, holdings)
    copies: list[str] = []
    # Catalogue order, so the same holdings always give the same choice among equally good ones.
    for item, spec in state["items"].items():
        if spec["kind"] == "agenda":
            copies.extend([item] * holdings.get(item, 0))
    specs = [state["items"][a] for a in copies]
    choice = best_subset([s["value"] for s in specs], [[s[r] for r in RESOURCES] for s in specs],
                         [available[r] for r in RESOURCES])
    realized: dict[str, int] = {}
    for i in choice.chosen:
        realized[copies[i]] = realized.get(copies[i], 0) + 1
    used = {r: sum(state["items"][a][r] * n for a, n in realized.items()) for r in RESOURCES}
    held_agendas = {a: holdings[a] for a in dict.fromkeys(copies)}
    return {
        "realized": [{"agenda": a, "copies": n, "value_each": state["items"][a]["value"],
                      "value": n * state["items"][a]["value"]} for a, n in _in_order(state, realized)],
        "unrealized": [{"agenda": a, "copies": held_agendas[a] - realized.get(a, 0)}
                       for a in held_agendas if held_agendas[a] > realized.get(a, 0)],
        "resources": available,
        "used": used,
        "value": choice.value,
    }


def rank(money: dict[str, int]) -> list[dict[str, Any]]:
    """Most money first; equal money shares a rank (1, 1, 3) and is listed alphabetically."""
    ordered = sorted(money, key=lambda p: (-money[p], p))
    rows: list[dict[str, Any]] = []
    for place, p in enumerate(ordered, start=1):
        # 1 + the number of players with more money: the place of the first with this much.
        shared = bool(rows) and rows[-1]["money"] == money[p]
        rows.append({"rank": rows[-1]["rank"] if shared else place, "player": p, "money": money[p]})
    return rows


def _in_order(state: State, counts: dict[str, int]) -> list[tuple[str, int]]:
    return [(item, counts[item]) for item in state["items"] if counts.get(item)]
