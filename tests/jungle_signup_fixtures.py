"""A small game anyone may join by mail, for the tests of sign-up by mail (maild/intake/signup.py) and of the
GM's report mail (`TurnResult.gm_report`), written only against maild.ruleset with the framework's templates.

The rules of "roster":
1. A stranger joins with a line `join NAME` (NAME one word); the name may not be one a player of the state has,
   nor "gm". The JOIN resolves at the turn: he is in the roster from then on.
2. Every player may `say TEXT` each turn; the newsletter prints what was said.
3. After each turn the GM gets a report: who joined, and each line said (his to-do: read them out).
A `join` from a player already in the roster is void, and his printout says so.

`PhasedRoster` is the same game in two phases a turn: a morning that takes every order and an afternoon that
takes only `say`.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from maild.ruleset import (
    SIGN_UP_ADDRESS,
    Diagnostic,
    Order,
    ParsedOrders,
    Phase,
    PlacedOrder,
    PlayerSpec,
    Ruleset,
    SignUp,
    TurnResult,
    register,
)

State = dict[str, Any]
SETUP: dict[str, Any] = {"players": [{"name": "ann", "email": "ann@example.org"},
                                     {"name": "bob", "email": "bob@example.org"}]}


class Roster(Ruleset):
    """Roster: join by mail at any time with `join NAME`; `say` a line for the newsletter."""

    name = "roster"
    sign_up_word = "JOIN"

    def parse(self, text: str) -> ParsedOrders:
        parsed = ParsedOrders()
        for n, line in enumerate(text.split("\n"), start=1):
            words = line.replace("*", " ").split()
            if not words:
                continue
            word = words[0].lower()
            if word == "join" and len(words) == 2:
                parsed.orders.append(Order(n, line, "join", {"name": words[1]}, f"join as {words[1]}"))
            elif word == "say" and len(words) > 1:
                said = " ".join(words[1:])
                parsed.orders.append(Order(n, line, "say", {"text": said}, f"say: {said}"))
            else:
                parsed.diagnostics.append(Diagnostic(n, line, "expected join NAME or say TEXT"))
        return parsed

    def new_game(self, setup: dict[str, Any]) -> State:
        return {"players": [dict(p) for p in setup["players"]], "said": []}

    def players(self, state: State) -> list[PlayerSpec]:
        return [PlayerSpec(p["name"], p["email"]) for p in state["players"]]

    def sign_up(self, state: State, turn: int, address: str, display_name: str | None,
                orders: ParsedOrders) -> SignUp | str:
        joins = [o for o in orders.orders if o.kind == "join"]
        if not joins:
            return "no JOIN line could be read: write JOIN and the one word you will play under"
        name = joins[0].args["name"]
        if name.lower() == "gm":
            return "the name gm is kept for the GM"
        if name.lower() in {p["name"].lower() for p in state["players"]}:
            return f"the name {name} is taken"
        return SignUp(name)

    def _resolve(self, state: State, turn: int, orders: dict[str, list[PlacedOrder]], label: str) -> TurnResult:
        new = copy.deepcopy(state)
        joined, void, said = [], {}, []
        for player, placed in sorted(orders.items(), key=lambda kv: min((p.seq for p in kv[1]), default=0)):
            for p in placed:
                if p.order.kind == "join":
                    if any(q["name"] == player for q in new["players"]):
                        void[player] = "your join is void: you are in the roster already"
                    else:
                        new["players"].append({"name": player, "email": p.order.args[SIGN_UP_ADDRESS]})
                        joined.append(player)
                elif p.order.kind == "say":
                    said.append(f"{player}: {p.order.args['text']}")
        new["said"] += said
        names = [p["name"] for p in new["players"]]
        printouts = {n: {"sections": [{"title": f"Roster after {label}", "lines": names},
                                      *([{"title": "Void", "lines": [void[n]]}] if n in void else [])]}
                     for n in names}
        newsletter = {"sections": [{"title": "Said", "lines": said or ["nothing"]}]}
        report = {"sections": [{"title": "Joined", "lines": joined or ["nobody"]},
                               {"title": "To read out", "lines": said or ["nothing"]}]}
        return TurnResult(new, printouts, newsletter, events=[{"type": "joined", "who": joined}],
                          gm_report=report)

    def resolve(self, state: State, turn: int, orders: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        return self._resolve(state, turn, orders, f"turn {turn}")

    def welcome(self, state: State, player: str, turn: int = 1) -> dict[str, Any] | None:
        if not any(p["name"] == player for p in state["players"]):
            return None
        return {"sections": [{"title": "The roster", "lines": [p["name"] for p in state["players"]]}]}


class PhasedRoster(Roster):
    """Roster in two phases a turn: join in the morning, say in either."""

    name = "roster_phased"

    def phases(self) -> tuple[Phase, ...]:
        return (Phase("morning"), Phase("afternoon", frozenset({"say"})))

    def resolve_phase(self, state: State, turn: int, phase: str, orders: dict[str, list[PlacedOrder]],
                      rng: random.Random) -> TurnResult:
        return self._resolve(state, turn, orders, f"the {phase} of turn {turn}")


class LateRoster(Roster):
    """Roster refusing mail that comes after a deadline."""

    name = "roster_late"
    late_policy = "refuse"


ROSTER = register(Roster())
LATE = register(LateRoster())
PHASED = register(PhasedRoster())
