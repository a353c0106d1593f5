"""The locals' markets between sales: quota completions (March demand, September supply) and March wealth growth.

Sections QUOTA COMPLETIONS and WEALTH. Both run at the start of the month's turn, before any order (registry.MONTH): the
quotas first, then wealth growth ("after the markets have been reset, but before March actions are executed").
Readings (M1...): docs/renaissance/commerce.md.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .commerce import half_up, quota
from .context import Ctx
from .war import siege

MARCH, SEPTEMBER = 3, 9
GRAIN = "grain"
POPULATION_CAP = 250_000
LOYALTY_MAX = 999  # M4


def price_step(price: int) -> int:
    """The greater of 10% (to the nearest ducat, halves up) or one ducat (M2)."""
    return max(half_up(price, 10), 1)


def _add_loyalty(location: dict[str, Any], points: int) -> None:
    location["loyalty"] = max(0, min(LOYALTY_MAX, location.get("loyalty", 0) + points))


def _depleted(market: dict[str, Any], population: int) -> bool:
    """Reduced "to 50%, or less, of BQ multiplied by population", compared exactly (M1)."""
    return market.get("qty", 0) <= quota(market, population) / 2


def food_was_satisfied(location: dict[str, Any]) -> bool:
    """M3: demand for food was 100% satisfied since last March when the location demands no food, or its food
    demand reached zero (the sell handler sets `food_satisfied`; quantities only grow in March, so a zero
    standing now tells the same)."""
    food = location.get("demanded", {}).get("food")
    return food is None or food.get("qty", 0) <= 0 or bool(location.get("food_satisfied"))


def march_demand(ctx: Ctx, location: dict[str, Any]) -> None:
    population = location.get("population", 0)
    loyalty_counts = food_was_satisfied(location)
    completed = []
    for cls, market in sorted(location.get("demanded", {}).items()):
        if _depleted(market, population):
            market["qty"] = int(quota(market, population))
            market["price"] = max(1, market["price"] - price_step(market["price"]))
            location["wealth"] = location.get("wealth", 0) + 1
            if loyalty_counts:
                _add_loyalty(location, 20)
            completed.append(cls)
        else:
            market["price"] += price_step(market["price"])
    location["food_satisfied"] = "food" not in location.get("demanded", {})
    if completed:
        ctx.publish(f"{location['name']}: demand for {', '.join(completed)} renewed")


def supply_added(ctx: Ctx, location: dict[str, Any], item: str, market: dict[str, Any]) -> int:
    """What September adds to a depleted supply: up to BQ x population, but zero at a location "successfully
    besieged during the June, July and August turns" (FORTIFICATION, SIEGE; RW-OQ-31: every item), and the grain
    less what troops destroyed in the fields in August (CROP DESTRUCTION), never below zero."""
    added = max(0, int(quota(market, location.get("population", 0))) - market.get("qty", 0))
    if siege.besieged_all_summer(location):
        return 0
    if item == GRAIN:
        added = max(0, added - siege.grain_destroyed(location, ctx.year))
    return added


def september_supply(ctx: Ctx, location: dict[str, Any]) -> None:
    population = location.get("population", 0)
    completed = []
    for item, market in sorted(location.get("supplied", {}).items()):
        if _depleted(market, population):
            # The siege and crop rules change the quantity added only: the completion's price, loyalty and wealth
            # changes follow the depletion as usual (docs/renaissance/war.md, siege section).
            market["qty"] = market.get("qty", 0) + supply_added(ctx, location, item, market)
            market["price"] += price_step(market["price"])
            _add_loyalty(location, 10)
            location["wealth"] = location.get("wealth", 0) + 1
            completed.append(item)
        else:
            # M2: the demand side's floor of one ducat holds for supply prices too.
            market["price"] = max(1, market["price"] - price_step(market["price"]))
    if siege.besieged_all_summer(location):
        ctx.publish(f"{location['name']}, besieged through June, July and August, receives no new supply from its "
                    "locals")
    elif completed:
        ctx.publish(f"{location['name']}: new supply of {', '.join(completed)}")
    if destroyed := siege.grain_destroyed(location, ctx.year):
        ctx.publish(f"{location['name']}: {destroyed} grain of its crops were destroyed in the fields in August")


def quota_completions(ctx: Ctx) -> None:
    if ctx.month not in (MARCH, SEPTEMBER):
        return
    for name in sorted(ctx.state["locations"]):
        location = ctx.state["locations"][name]
        if ctx.month == MARCH:
            march_demand(ctx, location)
        else:
            september_supply(ctx, location)


def grow(location: dict[str, Any]) -> None:
    """WEALTH, for one location: the percentage is (wealth - 150) / 50; population gains that percentage of
    itself (to the nearest, never past 250,000), wealth loses that percentage of itself (M5-M7)."""
    wealth = location.get("wealth", 0)
    if wealth <= 150:
        return
    percent = Fraction(wealth - 150, 50)
    population = location.get("population", 0)
    if population < POPULATION_CAP:
        location["population"] = min(POPULATION_CAP, population + half_up(population * percent, 100))
    location["wealth"] = wealth - half_up(wealth * percent, 100)


def wealth_growth(ctx: Ctx) -> None:
    if ctx.month != MARCH:
        return
    for name in sorted(ctx.state["locations"]):
        grow(ctx.state["locations"][name])
