"""How the order modules read a player's line, so the ruleset can try each in turn.

Each order module (start.py, allocation.py, francs.py, season.py) has ``read_line(line) -> Read | str | None``:
a `Read` when the line is its order, a message (str) when the line is its kind of order but wrong (the ack
quotes it), None when the line is none of its orders (the next module is asked)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Read:
    kind: str  # the Order's kind
    args: dict[str, Any]  # JSON-serializable
    summary: str  # the order in words, as the ack and STATUS show it


LineReader = Callable[[str], "Read | str | None"]
