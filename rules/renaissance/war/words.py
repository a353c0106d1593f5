"""How the war's reports name what is counted: "100 pikemen, 2 cannons, 4 garrison troops, 8 wool, 1,000 ducats".

One way for every battle's lines and every printout: men, guns, horses and ships are counted in the plural; goods
keep their names (a mass: "8 wool", "3 salt fish"); the town's and the towers' garrison troops by that name.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..items import SHIPS
from .forces import GARRISON, GUNS, MEN
from .orders import plural

_COUNTED = frozenset({*MEN, *GUNS, "horse", *SHIPS}) - {GARRISON}


def counted(n: int, item: str) -> str:
    if item == GARRISON:
        return f"{n:,} garrison troop{'' if n == 1 else 's'}"
    return f"{n:,} {plural(item) if n != 1 and item in _COUNTED else item}"


def describe(items: Mapping[str, int], empty: str = "nothing") -> str:
    """"100 pikemen, 1 cannon, 8 wool"; `empty` when there is nothing to count."""
    parts = [counted(n, item) for item, n in items.items() if n > 0]
    return ", ".join(parts) if parts else empty
