"""The family a name written in an order means: how the intake checks and the rules that name a family match it.

Below the rule modules and the intake checks alike (it imports only setup's key for names), so both may use it.
"""

from __future__ import annotations

from .context import State
from .setup import location_key


def squash(name: str) -> str:
    """How names are matched: case, blanks, '_' and '-' do not count (setup.location_key's rule)."""
    return location_key(name)


def find_family(state: State, written: str) -> str | None:
    """The family a name means: as written, or matched as squash() matches names, or in the plural a sentence
    gives a family ("the Borgias" are the BORGIA family) when no family has the plural's name."""
    families = state.get("families", {})
    if written in families:
        return written
    key = squash(written)
    found = next((name for name in families if squash(name) == key), None)
    if found is None and key.endswith("s"):
        found = next((name for name in families if squash(name) == key[:-1]), None)
    return found
