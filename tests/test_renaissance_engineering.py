"""Roads (TRAVEL, Appendix A ENGINEERING) and harbors (HARBORS), numbers worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from maild_rules.renaissance import engineering
from maild_rules.renaissance.context import Ctx
from tests.renaissance_fixtures import month_ctx


def persona(pid: str = "0101", where: str | None = "Alpha", eng: int = 500, **assets: int) -> dict[str, Any]:
    a = {"ducats": 1_000_000, "auxiliary": 5_000}
    a.update(assets)
    return {"id": pid, "name": f"P{pid}", "family": f"F{pid[:2]}", "religion": "catholic", "alive": True,
            "skills": {"engineering": eng}, "assets": a, "location": where, "at_sea": None, "inside": True}


# On the meridian and the equator one degree is 3958.8 x pi / 180 = 69.0934 statute miles.
ONE_DEGREE = 69.0934


def locations() -> list[dict[str, Any]]:
    return [{"name": "Alpha", "lat": 0.0, "lon": 0.0, "landmass": "Europe", "harbor": 8},
            {"name": "Beta Nova", "lat": 1.0, "lon": 0.0, "landmass": "Europe", "harbor": None},
            {"name": "Gamma", "lat": 0.0, "lon": 1.0, "landmass": "Africa", "harbor": 1}]


def make_ctx(personae: list[dict[str, Any]], turn: int = 1) -> Ctx:
    return month_ctx(personae, locations(), turn=turn, roads={}, harbor_deepened={})


KEY = "Alpha|Beta Nova"


# --- roads --------------------------------------------------------------------------------------------------

def test_build_road_reduces_by_one_percent_of_engineering() -> None:
    p = persona(eng=500)
    ctx = make_ctx([p])
    out = engineering.build_road(ctx, p, {"to": "beta_nova"})
    assert out.ok, out.text
    # 69.0934 - 1% of 500 = 5 miles -> 64.09; 200,000 ducats and 1,000 auxiliaries; engineering + 1.
    assert ctx.state["roads"] == {KEY: 64.09}
    assert (p["assets"]["ducats"], p["assets"]["auxiliary"], p["skills"]["engineering"]) == (800_000, 4_000, 501)
    assert ctx.news and "road" in ctx.news[0]
    # One engineering order a turn.
    assert not engineering.build_road(ctx, p, {"to": "Beta Nova"}).ok
    assert not engineering.deepen_harbor(ctx, p, {}).ok
    assert ctx.state["roads"] == {KEY: 64.09}


def test_a_road_is_never_below_half_the_original_distance() -> None:
    p = persona(eng=999)
    ctx = make_ctx([p])
    ctx.state["roads"][KEY] = 36.0
    assert engineering.build_road(ctx, p, {"to": "Beta Nova"}).ok
    # 36 - 9.99 = 26.01, but half of 69.0934 is 34.5467 -> 34.55.
    assert ctx.state["roads"][KEY] == pytest.approx(34.55)
    assert p["skills"]["engineering"] == 999  # not above 999
    q = persona("0102", eng=999)
    ctx2 = make_ctx([q])
    ctx2.state["roads"][KEY] = ONE_DEGREE / 2
    assert not engineering.build_road(ctx2, q, {"to": "Beta Nova"}).ok  # nothing left to gain
    assert q["assets"]["ducats"] == 1_000_000


def test_build_road_refusals() -> None:
    p = persona(eng=500)
    ctx = make_ctx([p])
    assert not engineering.build_road(ctx, p, {"to": "Gamma"}).ok  # another land mass
    assert not engineering.build_road(ctx, p, {"to": "Alpha"}).ok
    assert not engineering.build_road(ctx, p, {"to": "Nowhere"}).ok
    poor = persona("0102", ducats=199_999)
    assert not engineering.build_road(make_ctx([poor]), poor, {"to": "Beta Nova"}).ok
    few = persona("0103", auxiliary=999)
    assert not engineering.build_road(make_ctx([few]), few, {"to": "Beta Nova"}).ok
    assert ctx.state["roads"] == {}
    assert (poor["assets"]["ducats"], few["assets"]["auxiliary"]) == (199_999, 999)


def test_lengthen_road_by_half_a_percent_never_beyond_the_original() -> None:
    p = persona(eng=400)
    ctx = make_ctx([p])
    ctx.state["roads"][KEY] = 60.0
    assert engineering.lengthen_road(ctx, p, {"to": "Beta Nova"}).ok
    # 60 + 0.5% of 400 = 2 miles -> 62; same cost; no engineering point for lengthening (S42).
    assert ctx.state["roads"][KEY] == 62.0
    assert (p["assets"]["ducats"], p["assets"]["auxiliary"], p["skills"]["engineering"]) == (800_000, 4_000, 400)
    q = persona("0102", eng=999)
    ctx2 = make_ctx([q])
    ctx2.state["roads"][KEY] = 68.0
    assert engineering.lengthen_road(ctx2, q, {"to": "Beta Nova"}).ok
    # 68 + 4.995 > 69.0934: back at the original distance, the road is gone.
    assert ctx2.state["roads"] == {}
    r = persona("0103")
    assert not engineering.lengthen_road(make_ctx([r]), r, {"to": "Beta Nova"}).ok  # no road to lengthen
    assert r["assets"]["ducats"] == 1_000_000


# --- harbors ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("eng", "depth", "cost"), [
    (999, 8, 600_500),     # 800,000 + 300,000 - 499,500
    (900, 10, 850_000),    # 1,000,000 + 300,000 - 450,000
    (800, 12, 1_100_000),  # 1,200,000 + 300,000 - 400,000
    (700, 14, 1_350_000),  # 1,400,000 + 300,000 - 350,000
])
def test_the_four_examples_of_the_rules(eng: int, depth: int, cost: int) -> None:
    assert engineering.harbor_cost(depth, eng) == cost


@pytest.mark.parametrize(("eng", "depth", "cost"), [(999, 8, 600_500), (900, 10, 850_000), (800, 12, 1_100_000)])
def test_deepening_the_examples_ports(eng: int, depth: int, cost: int) -> None:
    p = persona(eng=eng, ducats=cost, slave=15_000, auxiliary=10_000)
    ctx = make_ctx([p], turn=7)
    ctx.state["locations"]["Alpha"]["harbor"] = depth
    out = engineering.deepen_harbor(ctx, p, {})
    assert out.ok, out.text
    # Slaves first: 15,000 slaves and 5,000 auxiliaries; every ducat; one foot; engineering + 1 (to 999 at most).
    assert ctx.state["locations"]["Alpha"]["harbor"] == depth + 1
    assert (p["assets"]["slave"], p["assets"]["auxiliary"], p["assets"]["ducats"]) == (0, 5_000, 0)
    assert p["skills"]["engineering"] == min(999, eng + 1)
    assert ctx.state["harbor_deepened"] == {"Alpha": 7}
    assert ctx.news


def test_the_fourth_example_fails_the_skill_requirement() -> None:
    # A fourteen-foot port needs 66 x 14 = 924 engineering: the 700 engineer of the example may not do it (S44).
    p = persona(eng=700, ducats=2_000_000, auxiliary=20_000)
    ctx = make_ctx([p])
    ctx.state["locations"]["Alpha"]["harbor"] = 14
    assert not engineering.deepen_harbor(ctx, p, {}).ok
    assert (ctx.state["locations"]["Alpha"]["harbor"], p["assets"]["ducats"]) == (14, 2_000_000)


def test_skill_requirement_66_per_foot() -> None:
    # 8 ft: 528 needed.
    for eng, ok in ((527, False), (528, True)):
        p = persona(eng=eng, auxiliary=20_000)
        assert engineering.deepen_harbor(make_ctx([p]), p, {}).ok is ok


def test_harbor_must_be_two_feet_and_ducats_and_men_suffice() -> None:
    p = persona(where="Gamma", eng=999, auxiliary=20_000)
    assert not engineering.deepen_harbor(make_ctx([p]), p, {}).ok  # 1 ft
    q = persona(where="Beta Nova", eng=999, auxiliary=20_000)
    assert not engineering.deepen_harbor(make_ctx([q]), q, {}).ok  # no port
    poor = persona(eng=999, ducats=600_499, auxiliary=20_000)
    assert not engineering.deepen_harbor(make_ctx([poor]), poor, {}).ok
    few = persona(eng=999, slave=10_000, auxiliary=9_999)
    assert not engineering.deepen_harbor(make_ctx([few]), few, {}).ok
    assert (poor["assets"]["auxiliary"], few["assets"]["slave"], few["assets"]["ducats"]) == (20_000, 10_000,
                                                                                             1_000_000)


def test_two_deepenings_in_one_turn_net_one_foot_but_both_pay() -> None:
    a = persona("0101", eng=999, auxiliary=20_000)
    b = persona("0202", eng=600, ducats=1_000_000, auxiliary=20_000)
    ctx = make_ctx([a, b], turn=3)
    assert engineering.deepen_harbor(ctx, a, {}).ok
    assert ctx.state["locations"]["Alpha"]["harbor"] == 9
    # b is judged by the 8 ft the month began with: 66 x 8 = 528 <= 600, cost 800,000 + 300,000 - 300,000.
    out = engineering.deepen_harbor(ctx, b, {})
    assert out.ok, out.text
    assert ctx.state["locations"]["Alpha"]["harbor"] == 9
    assert (b["assets"]["ducats"], b["assets"]["auxiliary"], b["skills"]["engineering"]) == (200_000, 0, 600)
    # Next turn the harbor may be deepened again, from 9 ft.
    ctx2 = make_ctx([a], turn=4)
    ctx2.state["locations"]["Alpha"]["harbor"] = 9
    ctx2.state["harbor_deepened"] = {"Alpha": 3}
    a["assets"].update(auxiliary=20_000, ducats=700_500)  # 9 ft: 900,000 + 300,000 - 499,500
    assert engineering.deepen_harbor(ctx2, a, {}).ok
    assert (ctx2.state["locations"]["Alpha"]["harbor"], a["assets"]["ducats"]) == (10, 0)
