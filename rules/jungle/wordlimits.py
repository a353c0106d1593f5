"""How many words a Captain's orders may have (CONTROLLING UNITS): the one place this rule lives, used by the
ack (maild_rules.jungle.orders) and by the Order handler (maild_rules.jungle.units).

> When issuing orders, the Captain is restricted to a word limit equal to 5 * (the unit's current level).
> A Captain may double his word limit by using both of his actions for the council session to issue orders.
> Non-military units that don't have a "level", have a fixed order word limit of 15.

A level of 0 (or below) is read as level 1: a unit fresh from production is a level 1 unit in the strategy
game, and "A fresh rookie unit can only handle very basic orders" says it can handle some (docs: LJ-OQ-51,
the orders' section decides how words are counted). The fixed 15 is doubled too: the doubling is the
Captain's, "by using both of his actions", whatever unit he leads.
"""

from __future__ import annotations

from .model import Unit

WORDS_PER_LEVEL = 5
FIXED_LIMIT = 15  # units without a level


def word_limit(unit: Unit, both: bool) -> int:
    """The word limit of orders to `unit`, doubled when the Captain spends both actions on them."""
    limit = FIXED_LIMIT if unit.level is None else WORDS_PER_LEVEL * max(unit.level, 1)
    return 2 * limit if both else limit
