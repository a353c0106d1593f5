"""Captains' orders: which unit an **Order** is for, its words, and the word limit (CONTROLLING UNITS).

One place for the rule, called by the ack (`ordercheck.check`) and by the engine when the Order resolves:

> When issuing orders, the Captain is restricted to a word limit equal to 5 * (the unit's current level).
> A Captain may double his word limit by using both of his actions for the council session to issue orders.
> Non-military units that don't have a "level", have a fixed order word limit of 15.

Words are counted with maild/wordlimit.py the way a reader counts them (docs/law-of-the-jungle.md,
LJ-OQ-51): the bold keyword and the unit's name before the colon are not counted; every name the game knows
(a unit, city, hex, character, technology, building, policy, god) counts as one word however many it has.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from maild.wordlimit import WordCount, check_words

from . import wording
from .model import GODS, Unit, World

UNLEVELLED_LIMIT = 15  # "Non-military units that don't have a "level", have a fixed order word limit of 15."
WORDS_PER_LEVEL = 5  # "a word limit equal to 5 * (the unit's current level)"


def word_limit(unit: Unit, both: bool) -> int:
    """The most words `unit` follows: 5 x its level (a level below 1 read as 1), 15 without a level; doubled
    when the Captain spends both actions of the session on the orders."""
    base = UNLEVELLED_LIMIT if unit.level is None else WORDS_PER_LEVEL * max(unit.level, 1)
    return base * 2 if both else base


def limit_reason(unit: Unit, both: bool) -> str:
    """Why the limit is what it is: "level 3", "no level, both actions"."""
    level = "no level" if unit.level is None else f"level {unit.level}"
    return f"{level}{', both actions' if both else ''}"


def limit_words(unit: Unit, both: bool) -> str:
    """How the limit is explained: "15 (level 3)", "30 (no level, both actions)"."""
    return f"{word_limit(unit, both)} ({limit_reason(unit, both)})"


def known_names(world: World) -> list[str]:
    """Every name of the game that counts as one word in orders."""
    names: list[str] = [*world.units, *world.cities, *world.characters, *GODS, *world.empire.technologies,
                        *world.empire.policies, *world.empire.known]
    for city in world.cities.values():
        names += [*city.hexes, *city.builds]
    return names


def captained(world: World, character: str) -> list[Unit]:
    """The units `character` is Captain of (the unit's captain, or his title "Captain of Unit X")."""
    who = world.character(character)
    titled = {t.subject for t in who.titles if t.kind == "Captain"} if who is not None else set()
    name = who.name if who is not None else character
    return [u for u in world.units.values() if u.captain == name or u.name in titled]


@dataclass(frozen=True)
class CaptainOrders:
    unit: Unit | None  # the unit the orders are for (None: none could be told)
    text: str  # the orders as the unit gets them
    count: WordCount | None  # their words against the limit (None without a unit)

    @property
    def within(self) -> bool:
        return self.count is None or self.count.within


def captain_orders(world: World, character: str, args: dict[str, Any],
                   names: Iterable[str] | None = None) -> CaptainOrders:
    """The **Order** of `character` with `args` (orders.py): its unit, its text, its words against the limit.

    The unit is the one named before a colon; when the words there name no unit and the Captain has exactly
    one unit, they were the start of his orders ("**Order** If attacked: retreat") and count as words.
    """
    text = args.get("text", "")
    unit: Unit | None = None
    own = captained(world, character)
    if args.get("unit"):
        found = wording.find(args["unit"], world.units)
        if found is not None:
            unit = world.units[found]
        elif len(own) == 1:
            unit, text = own[0], args.get("written", text)
    elif len(own) == 1:
        unit = own[0]
    if unit is None:
        return CaptainOrders(None, text, None)
    count = check_words(text, word_limit(unit, bool(args.get("both"))),
                        known_names(world) if names is None else names)
    return CaptainOrders(unit, text, count)


def over_limit_message(orders: CaptainOrders, both: bool) -> str | None:
    """The ack's words when the orders are over the limit, else None."""
    if orders.unit is None or orders.count is None or orders.count.within:
        return None
    return (f"orders for {orders.unit.name} have {orders.count.count} words; the limit is "
            f"{limit_words(orders.unit, both)}: over the limit the unit fortifies")
