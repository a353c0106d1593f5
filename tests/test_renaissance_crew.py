"""NAVIGATION: recruiting crew in ports, ten ducats a man more for each further 0.1% of the population."""

from __future__ import annotations

import random

from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.crew import crew_cost, recruit_crew
from tests.renaissance_fixtures import small_state


def ctx_at_genoa() -> tuple[Ctx, dict]:
    state = small_state()  # Genoa: a port of 60,000; Andrea Doria (0201) there with 20,000 ducats and 200 crew
    return Ctx(state=state, turn=1, rng=random.Random(0)), state["personae"]["0201"]


def test_each_further_tenth_of_a_percent_costs_ten_ducats_more_a_man() -> None:
    # 0.1% of 60,000 = 60 men. 150 men: 60 x 10 + 60 x 20 + 30 x 30 = 600 + 1,200 + 900 = 2,700 ducats.
    assert crew_cost(60000, 0, 150) == 2700
    ctx, andrea = ctx_at_genoa()
    out = recruit_crew(ctx, andrea, {"qty": 150})
    assert out.ok and andrea["assets"]["crew"] == 200 + 150 and andrea["assets"]["ducats"] == 20000 - 2700
    # A second order the same month goes on from the 151st man: 30 x 30 + 10 x 40 = 900 + 400 = 1,300.
    assert recruit_crew(ctx, andrea, {"qty": 40}).ok
    assert andrea["assets"]["ducats"] == 20000 - 2700 - 1300


def test_no_more_than_one_percent_a_month() -> None:
    # 1% of 60,000 = 600 men: 60 at each of 10, 20, ... 100 ducats = 60 x 550 = 33,000 ducats.
    assert crew_cost(60000, 0, 600) == 33000
    ctx, andrea = ctx_at_genoa()
    andrea["assets"]["ducats"] = 40000
    out = recruit_crew(ctx, andrea, {"qty": 1000})
    assert out.ok and "1% limit" in out.text and andrea["assets"]["crew"] == 800
    assert andrea["assets"]["ducats"] == 40000 - 33000
    assert not recruit_crew(ctx, andrea, {"qty": 1}).ok


def test_only_in_ports_and_only_when_he_can_pay() -> None:
    ctx, andrea = ctx_at_genoa()
    domenico = ctx.state["personae"]["0202"]  # at Florence, no harbor
    assert recruit_crew(ctx, domenico, {"qty": 10}).text == "crew may be recruited only in ports"
    andrea["assets"]["ducats"] = 500  # 60 men cost 600
    out = recruit_crew(ctx, andrea, {"qty": 60})
    assert not out.ok and andrea["assets"]["crew"] == 200 and andrea["assets"]["ducats"] == 500
