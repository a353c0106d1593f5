"""One month: a copy of the state, walked through month.MONTH from its first row to its last.

What a month does, and in which order, is month.py's table; how the families' orders run is families.py. Result and
family_key are kept here for the callers that know them from here.
"""

from __future__ import annotations

import json
import random

from maild.ruleset import PlacedOrder

from .engine import State
from .families import Month, Result, family_key
from .month import MONTH, PHASE_ORDER

__all__ = ["Result", "copy_state", "family_key", "load_rules", "run_month"]


def load_rules() -> None:
    """Every rule module is loaded with this one, through month.py and handlers.py; kept for the callers that
    asked for the rules to be loaded before swapping a handler."""


def copy_state(state: State) -> State:
    """A deep copy of a state (plain JSON), for work that must leave the original as it was."""
    copied: State = json.loads(json.dumps(state))
    return copied


def run_month(state: State, turn: int, orders: dict[str, list[PlacedOrder]], rng: random.Random) -> Result:
    """Run turn `turn` on a copy of `state`; the new state is `result.ctx.state`."""
    month = Month(state=copy_state(state), turn=turn, rng=rng, orders=orders, phase_order=PHASE_ORDER)
    for step in MONTH:
        step.fn(month)
    return month.result
