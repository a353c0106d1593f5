"""Quota completions (March demand, September supply) and March wealth growth. Numbers worked by hand from the
rules text; readings M1... are in docs/renaissance/commerce.md."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.markets import grow, price_step, quota_completions, wealth_growth
from maild_rules.renaissance.registry import STEPS


def location(name: str = "Florence", **extra: Any) -> dict[str, Any]:
    loc: dict[str, Any] = {"name": name, "population": 70000, "wealth": 180, "loyalty": 520,
                           "supplied": {}, "demanded": {}, "food_satisfied": False}
    loc.update(extra)
    return loc


def make_ctx(*locations: dict[str, Any], month: int) -> Ctx:
    state = {"calendar": {"year": 1493, "month": month}, "families": {}, "personae": {},
             "locations": {loc["name"]: loc for loc in locations}}
    return Ctx(state=state, turn=1, rng=random.Random(0))


def spices(qty: int, price: int = 90) -> dict[str, Any]:
    return {"qty": qty, "price": price, "bq": 0.005}  # BQ x population = 0.005 x 70000 = 350; 50% = 175


def test_steps_registered_quotas_before_wealth() -> None:
    names = [(rank, name) for rank, name, _ in STEPS["start"] if name in ("quota_completions", "wealth_growth")]
    assert names == [(20, "quota_completions"), (30, "wealth_growth")]


def test_price_step_is_the_greater_of_ten_percent_or_one_ducat_m2() -> None:
    assert price_step(90) == 9
    assert price_step(15) == 2  # 1.5 -> 2, halves up
    assert price_step(14) == 1  # 1.4 -> 1
    assert price_step(5) == 1  # 0.5 -> 1; the one-ducat minimum anyway
    assert price_step(1) == 1


def test_march_demand_at_half_or_less_is_renewed_price_falls_wealth_and_loyalty_rise() -> None:
    florence = location(demanded={"spices": spices(175)})  # 175 <= 175
    quota_completions(make_ctx(florence, month=3))
    assert florence["demanded"]["spices"] == {"qty": 350, "price": 81, "bq": 0.005}  # 90 - 9
    assert florence["wealth"] == 181  # +1 per class
    assert florence["loyalty"] == 540  # +20: no food demanded here, so none went unsatisfied (M3)


def test_march_demand_above_half_keeps_quantity_price_rises() -> None:
    florence = location(demanded={"spices": spices(176)})  # 176 > 175
    quota_completions(make_ctx(florence, month=3))
    assert florence["demanded"]["spices"] == {"qty": 176, "price": 99, "bq": 0.005}  # 90 + 9
    assert florence["wealth"] == 180 and florence["loyalty"] == 520


def test_march_price_never_below_one_ducat() -> None:
    florence = location(demanded={"spices": spices(0, price=1), "metals": {"qty": 0, "price": 2, "bq": 0.001}})
    quota_completions(make_ctx(florence, month=3))
    assert florence["demanded"]["spices"]["price"] == 1  # 1 - max(0.1, 1) = 0 -> 1
    assert florence["demanded"]["metals"]["price"] == 1  # 2 - 1
    assert florence["demanded"]["metals"]["qty"] == 70  # 0.001 x 70000


def test_march_loyalty_withheld_when_food_demand_not_satisfied_m3() -> None:
    food = {"qty": 10, "price": 4, "bq": 0.002}  # 10 of 140 left: depleted, but not 100% satisfied
    florence = location(demanded={"spices": spices(0), "food": food}, food_satisfied=False)
    quota_completions(make_ctx(florence, month=3))
    assert florence["wealth"] == 182  # +1 spices, +1 food
    assert florence["loyalty"] == 520  # no +20s
    assert florence["demanded"]["food"]["qty"] == 140 and florence["demanded"]["food"]["price"] == 3


def test_march_loyalty_given_when_food_demand_reached_zero_m3() -> None:
    food = {"qty": 0, "price": 4, "bq": 0.002}
    florence = location(demanded={"spices": spices(100), "food": food}, food_satisfied=False)
    quota_completions(make_ctx(florence, month=3))
    assert florence["wealth"] == 182 and florence["loyalty"] == 560  # two classes: +2, +40
    assert florence["food_satisfied"] is False  # a new year of food demand begins


def test_march_food_satisfied_flag_counts_m3() -> None:
    florence = location(demanded={"spices": spices(100), "food": {"qty": 140, "price": 4, "bq": 0.002}},
                        food_satisfied=True)
    quota_completions(make_ctx(florence, month=3))
    assert florence["loyalty"] == 540 and florence["wealth"] == 181  # spices renewed; food (140 > 70) not


def test_location_loyalty_stops_at_999_m4() -> None:
    florence = location(loyalty=990, demanded={"spices": spices(0)})
    quota_completions(make_ctx(florence, month=3))
    assert florence["loyalty"] == 999  # 990 + 20 -> 999


def test_september_supply_at_half_or_less_is_renewed_price_rises() -> None:
    wool = {"qty": 350, "price": 12, "bq": 0.01}  # 0.01 x 70000 = 700; 50% = 350
    florence = location(supplied={"wool": wool})
    quota_completions(make_ctx(florence, month=9))
    assert wool == {"qty": 700, "price": 13, "bq": 0.01}  # 12 + max(1.2 -> 1, 1)
    assert florence["loyalty"] == 530 and florence["wealth"] == 181  # +10, +1


def test_september_supply_above_half_price_falls_with_floor() -> None:
    wool = {"qty": 351, "price": 12, "bq": 0.01}
    salt = {"qty": 700, "price": 1, "bq": 0.01}
    florence = location(supplied={"wool": wool, "salt": salt})
    quota_completions(make_ctx(florence, month=9))
    assert wool == {"qty": 351, "price": 11, "bq": 0.01}  # 12 - 1
    assert salt["price"] == 1  # M2: not below one ducat
    assert florence["loyalty"] == 520 and florence["wealth"] == 180


def test_no_quota_completion_in_other_months() -> None:
    florence = location(demanded={"spices": spices(0)}, supplied={"wool": {"qty": 0, "price": 12, "bq": 0.01}})
    for month in (1, 2, 4, 5, 6, 7, 8, 10, 11, 12):
        quota_completions(make_ctx(florence, month=month))
        wealth_growth(make_ctx(florence, month=month))
    assert florence["demanded"]["spices"]["qty"] == 0 and florence["supplied"]["wool"]["qty"] == 0
    assert florence["wealth"] == 180 and florence["population"] == 70000
    # March touches demand only, September supply only.
    quota_completions(make_ctx(florence, month=3))
    assert florence["supplied"]["wool"] == {"qty": 0, "price": 12, "bq": 0.01}
    quota_completions(make_ctx(florence, month=9))
    assert florence["demanded"]["spices"]["qty"] == 350 and florence["supplied"]["wool"]["qty"] == 700


def test_wealth_growth_m5() -> None:
    florence = location(wealth=200)
    grow(florence)
    # (200 - 150) / 50 = 1%: population 70000 + 700; wealth 200 - 1% of 200 = 198
    assert florence["population"] == 70700 and florence["wealth"] == 198
    siena = location("Siena", wealth=180, population=70000)
    grow(siena)
    # 30 / 50 = 0.6%: population + 420; wealth 180 - 1.08 -> 179
    assert siena["population"] == 70420 and siena["wealth"] == 179


def test_no_growth_at_150_or_less() -> None:
    florence = location(wealth=150)
    grow(florence)
    assert florence["population"] == 70000 and florence["wealth"] == 150


def test_wealth_growth_capped_at_250000_m6() -> None:
    naples = location("Naples", population=249000, wealth=400)
    grow(naples)
    # (400 - 150) / 50 = 5%: 249000 + 12450 = 261450 -> 250000; wealth 400 - 20 = 380 all the same
    assert naples["population"] == 250000 and naples["wealth"] == 380
    paris = location("Paris", population=260000, wealth=200)
    grow(paris)
    assert paris["population"] == 260000 and paris["wealth"] == 198  # never shrinks to the cap


def test_march_wealth_growth_follows_the_market_reset() -> None:
    florence = location(wealth=150, demanded={"spices": spices(0)})
    ctx = make_ctx(florence, month=3)
    for _rank, _name, fn in STEPS["start"]:
        if _name in ("quota_completions", "wealth_growth"):
            fn(ctx)
    # quotas: wealth 151; then growth 1/50 % = 0.02%: 70000 x 0.0002 = 14; wealth 151 - 0.0302 -> 151
    assert florence["wealth"] == 151 and florence["population"] == 70014


def first_march_genoa(**marks: Any) -> dict[str, Any]:
    """Genoa of the test world, as set up, with a spice demand already used up, at its first March."""
    from maild_rules.renaissance.setup import new_game
    from tests.renaissance_fixtures import small_setup
    setup = small_setup()
    genoa = next(loc for loc in setup["locations"] if loc["name"] == "Genoa")
    genoa["demanded"]["spices"] = {"qty": 0, "price": 90, "bq": 0.005}
    genoa.update(marks)
    state = new_game(setup)
    ctx = Ctx(state=state, turn=3, rng=random.Random(0))  # turn 3 of a game starting January 1493: March
    assert ctx.month == 3
    quota_completions(ctx)
    return state["locations"]["Genoa"]


def test_first_march_loyalty_only_where_the_setup_marks_food_demand_met_m9() -> None:
    # Genoa, population 60,000, loyalty 430, wealth 200. Spices: BQ 0.005 x 60,000 = 300, 0 left <= 150: renewed,
    # wealth +1. Food: 2,500 wanted, more than half of 0.04 x 60,000 = 2,400, so not renewed. QUOTA COMPLETIONS:
    # "these loyalty increases do not occur in any March in which demand for food was not 100% satisfied".
    unmet = first_march_genoa()
    assert unmet["wealth"] == 201 and unmet["loyalty"] == 430  # the setup does not mark it met: no +20
    met = first_march_genoa(food_satisfied=True)
    assert met["wealth"] == 201 and met["loyalty"] == 450  # marked met: 430 + 20
