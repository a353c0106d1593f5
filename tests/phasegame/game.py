"""The two-phase test game (see __init__): its ruleset, registered as `maild_rules.twophase` by `installed`."""

from __future__ import annotations

import random
import re
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jinja2

from maild.render import environment
from maild.ruleset import (
    Diagnostic,
    OpenPhase,
    Order,
    ParsedOrders,
    Phase,
    PhaseResult,
    PlacedOrder,
    PlayerSpec,
    Ruleset,
    TurnResult,
)

_LINE = re.compile(r"^(?:(pick) (\d+)|(guess) (\w+) (\d+)|(vote) (keep|redraw))$", re.IGNORECASE)
TEMPLATES = Path(__file__).parent


class TwoPhase(Ruleset):
    name = "twophase"

    def phases(self) -> tuple[Phase, ...]:
        return (Phase("morning", frozenset({"pick"}), closes_early=True),
                Phase("afternoon", frozenset({"guess"})),
                Phase("vote", frozenset({"vote"}), extra=True))

    def parse(self, text: str) -> ParsedOrders:
        parsed = ParsedOrders()
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            m = _LINE.match(line.strip())
            if m is None:
                parsed.diagnostics.append(Diagnostic(n, line, "expected pick N, guess PLAYER N or vote keep/redraw"))
            elif m.group(1):
                parsed.orders.append(Order(n, line, "pick", {"n": int(m.group(2))}, f"pick {m.group(2)}"))
            elif m.group(3):
                who, num = m.group(4).lower(), int(m.group(5))
                parsed.orders.append(Order(n, line, "guess", {"who": who, "n": num}, f"guess {who} picked {num}"))
            else:
                parsed.orders.append(Order(n, line, "vote", {"v": m.group(7).lower()}, f"vote {m.group(7).lower()}"))
        return parsed

    def new_game(self, setup: dict[str, Any]) -> dict[str, Any]:
        return {"players": setup["players"], "picks": {}, "scores": {p["name"]: 0 for p in setup["players"]}}

    def players(self, state: dict[str, Any]) -> list[PlayerSpec]:
        return [PlayerSpec(p["name"], p["email"]) for p in state["players"]]

    def check(self, state: dict[str, Any], turn: int, player: str, orders: list[Order]) -> list[Diagnostic]:
        # Against the state after the morning: a guess may not name one's own pick (a rule for the tests).
        mine = state["picks"].get(player)
        return [Diagnostic(o.line, o.text, f"{mine} is your own pick") for o in orders
                if o.kind == "guess" and o.args["n"] == mine]

    def resolve(self, state: dict[str, Any], turn: int, orders: dict[str, list[PlacedOrder]],
                rng: random.Random) -> TurnResult:
        raise AssertionError("a game of phases is resolved a phase at a time")

    def resolve_phase(self, state: dict[str, Any], turn: int, phase: str, orders: dict[str, list[PlacedOrder]],
                      rng: random.Random) -> TurnResult:
        names = [p["name"] for p in state["players"]]
        if phase == "morning":
            picks = {}
            for name in names:
                mine = [o.order.args["n"] for o in orders[name]]
                # The last pick on file stands; who picked nothing gets a number drawn from 1 to 10.
                picks[name] = mine[-1] if mine else rng.randint(1, 10)
            state["picks"] = picks
            same = sorted(n for n in names if list(picks.values()).count(picks[n]) > 1)
            return PhaseResult(state, {n: {"lines": [f"you picked {picks[n]}"]} for n in names},
                               {"lines": [f"{len(names)} numbers picked"]},
                               open_phase=OpenPhase("vote", tuple(same)) if same else None)
        if phase == "vote":
            votes = [o.order.args["v"] for n in names for o in orders[n][-1:]]
            tied = sorted(n for n in names if list(state["picks"].values()).count(state["picks"][n]) > 1)
            redraw = votes.count("redraw") > votes.count("keep")
            if redraw:
                for n in tied:
                    state["picks"][n] = rng.randint(11, 20)
            return PhaseResult(state, {n: {"lines": [f"the vote: {'redraw' if redraw else 'keep'}; "
                                                     f"you have {state['picks'][n]}"]} for n in tied},
                               {"lines": [f"{len(votes)} votes"]})
        for name in names:
            for placed in orders[name]:
                if state["picks"].get(placed.order.args["who"]) == placed.order.args["n"]:
                    state["scores"][name] += 1
        return PhaseResult(state, {n: {"lines": [f"your score is {state['scores'][n]}"]} for n in names},
                           {"lines": ["picks: " + ", ".join(f"{n} {state['picks'][n]}" for n in names)]})


RULESET = TwoPhase()


@contextmanager
def installed() -> Iterator[None]:
    """The game importable as maild_rules.twophase, with its templates beside the shipped ones."""
    module = types.ModuleType("maild_rules.twophase")
    module.RULESET = RULESET  # type: ignore[attr-defined]
    env = environment()
    loader = env.loader
    sys.modules["maild_rules.twophase"] = module
    env.loader = jinja2.ChoiceLoader([loader, jinja2.FileSystemLoader(TEMPLATES)]) if loader else None
    try:
        yield
    finally:
        env.loader = loader
        del sys.modules["maild_rules.twophase"]
