"""The reconciliation at the end of a turn (after winter): political cards, Francs, the allocation's units
placed, GDP updated, atomic research, the bomb; then victory. STUB: being written."""

from __future__ import annotations

import random

from .report import Report
from .state import State


def resolve(state: State, turn: int, rng: random.Random, report: Report) -> bool:
    """Reconcile turn `turn`; True when the game is over (someone won, or the last turn ended)."""
    return turn >= state["options"]["turns"]
