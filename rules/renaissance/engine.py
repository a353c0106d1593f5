"""The turn engine: one month run on a copy of the state, walked through registry.MONTH from its first row to its
last.

What a month does, and in which order, is registry.py's table; how the families' orders run is families.py; what
a handler is given and returns is context.py. This module is the top of the ruleset's rules: it imports the
registry, and nothing below imports it (docs/renaissance.md, "How the modules depend on each other").
"""

from __future__ import annotations

import json
import random

from maild.ruleset import PlacedOrder

from .context import State
from .families import Month, Result
from .registry import ACTIONS, MONTH, PHASE_ORDER


def copy_state(state: State) -> State:
    """A deep copy of a state (plain JSON), for work that must leave the original as it was."""
    copied: State = json.loads(json.dumps(state))
    return copied


def run_month(state: State, turn: int, orders: dict[str, list[PlacedOrder]], rng: random.Random) -> Result:
    """Run turn `turn` on a copy of `state`; the new state is `result.ctx.state`."""
    month = Month(state=copy_state(state), turn=turn, rng=rng, orders=orders, phase_order=PHASE_ORDER,
                  actions=ACTIONS)
    for step in MONTH:
        step.fn(month)
    return month.result
