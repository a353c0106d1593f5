"""Renaissance: the 1493 world, families of personae, orders in code executed in sequence, month by month.

The rules are THE RULES TO RENAISSANCE (the 1493 rulebook, revised December 2004); the readings this package
makes are in docs/renaissance.md and docs/renaissance/; the state is described in docs/renaissance-state.md
and the codes in docs/renaissance-codes.md.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    # Loaded on first use, so that a rule module (or its test) can be imported without the whole ruleset.
    if name in ("RULESET", "Renaissance"):
        from . import ruleset

        return getattr(ruleset, name)
    raise AttributeError(name)
