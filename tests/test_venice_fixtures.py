"""Helpers for the Venice tests (no tests here): setups, and playing a turn from mails as the daemon does.

The daemon's path for a mail is parse -> check -> book; at the deadline, effective -> resolve. `play`
follows it, so a test reads as "these mails arrived in this order, then the auction ran".
"""

from __future__ import annotations

import copy
import random
from typing import Any

from maild.render import render
from maild.ruleset import OrderSet, PlacedOrder, TurnResult
from maild_rules.venice import RULESET

# The rules' example agendas and assets.
AGENDAS = [
    {"name": "silk tax", "value": 20, "force": 0, "popularity": 10, "influence": 20},
    {"name": "exile competitor", "value": 50, "force": 20, "popularity": 5, "influence": 10},
]
ASSETS = [
    {"name": "opera", "force": 0, "popularity": 20, "influence": 0},
    {"name": "senator", "force": 0, "popularity": 5, "influence": 5},
    {"name": "swiss mercenaries", "force": 10, "popularity": 0, "influence": 0},
    {"name": "spy network", "force": 5, "popularity": 0, "influence": 15},
]
LINEUPS = [
    {"silk tax": 2, "exile competitor": 1},
    {"opera": 1, "senator": 2, "swiss mercenaries": 2},
    {"spy network": 2, "senator": 1},
    {"opera": 2},
    {"swiss mercenaries": 1, "spy network": 1},
    {"senator": 2, "opera": 1},
    {"exile competitor": 1, "silk tax": 1},
]
PLAYERS = ("alice", "bob", "carol")


def make_setup(players: tuple[str, ...] | list[str] = PLAYERS, lineups: list[dict[str, int]] | None = None,
               agendas: list[dict[str, Any]] | None = None, assets: list[dict[str, Any]] | None = None,
               **top: Any) -> dict[str, Any]:
    """A setup dict as tomllib would give it; keyword arguments set or replace top-level keys."""
    setup: dict[str, Any] = {
        "credit_limit": 500,
        "interest_per_day": 0.05,
        "scale_per_players": 4,
        "players": [{"name": p, "email": f"{p}@example.org"} for p in players],
        "agendas": copy.deepcopy(agendas if agendas is not None else AGENDAS),
        "assets": copy.deepcopy(assets if assets is not None else ASSETS),
        "auctions": [{"items": dict(lineup)} for lineup in (lineups or LINEUPS)],
    }
    setup.update(top)
    return setup


def new_game(**kwargs: Any) -> dict[str, Any]:
    return RULESET.new_game(make_setup(**kwargs))


def book(state: dict[str, Any], turn: int, mails: list[tuple[str, str]], first_seq: int = 1,
         seqs: list[int] | None = None) -> dict[str, list[PlacedOrder]]:
    """The orders standing at the deadline after `mails` ((player, text), in receipt order) arrived.

    Each mail gets the next receipt sequence from `first_seq`, or the one given in `seqs`. Every line
    must parse (a warning, e.g. of a 0$ bid, is allowed) and pass `check`: a test that wants a refusal calls
    parse/check itself.
    """
    sets: dict[str, list[OrderSet]] = {p["name"]: [] for p in state["players"]}
    for i, (player, text) in enumerate(mails):
        seq = seqs[i] if seqs else first_seq + i
        parsed = RULESET.parse(text)
        assert not [d for d in parsed.diagnostics if not d.warning], parsed.diagnostics
        problems = RULESET.check(state, turn, player, parsed.orders)
        assert not problems, problems
        new = OrderSet(player, seq, parsed.orders)
        assert RULESET.accept(sets[player], new) is None
        sets[player].append(new)
    return {player: RULESET.effective(order_sets) for player, order_sets in sets.items()}


def play(state: dict[str, Any], turn: int, mails: list[tuple[str, str]], **kwargs: Any) -> TurnResult:
    return RULESET.resolve(state, turn, book(state, turn, mails, **kwargs), random.Random(turn))


def play_quiet_turns(state: dict[str, Any], first: int, last: int) -> dict[str, Any]:
    """Turns first..last with nobody bidding."""
    for turn in range(first, last + 1):
        state = play(state, turn, []).state
    return state


def bid_record(result: TurnResult, player: str, item: str) -> dict[str, Any]:
    """What became of `player`'s bid for `item` in the auction just held."""
    record = result.state["auctions_held"][-1]
    (found,) = [b for b in record["bids"] if b["player"] == player and b["item"] == item]
    return found


def money(state: dict[str, Any]) -> dict[str, int]:
    return {p: a["money"] for p, a in state["ledger"].items()}


def holdings(state: dict[str, Any], player: str) -> dict[str, int]:
    return dict(state["ledger"][player]["holdings"])


def common(turn: int, finished: bool = False) -> dict[str, Any]:
    """What maild/turn.py passes to the templates beside the ruleset's context."""
    return {"game": "venice1", "turn": turn, "finished": finished, "next_deadline": "Monday 17:15"}


def printout_text(result: TurnResult, player: str, turn: int) -> str:
    return render("venice", "printout.txt.j2", **common(turn, result.finished), player=player,
                  **result.printouts[player])


def newsletter_text(result: TurnResult, turn: int) -> str:
    return render("venice", "newsletter.txt.j2", **common(turn, result.finished), **result.newsletter)
