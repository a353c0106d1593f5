"""SOVEREIGNS (taxes) and BISHOPS (tithes): appointment for the next turn, collection, loyalty thresholds."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance import taxes
from maild_rules.renaissance.context import Ctx


def make_state(population: int = 20000, wealth: int = 150, loyalty: int = 500) -> dict[str, Any]:
    def persona(pid: str, fam: str, **kw: Any) -> dict[str, Any]:
        p = {"id": pid, "name": f"P{pid}", "family": fam, "religion": "catholic", "alive": True,
             "popularity": 300, "assets": {"ducats": 0}, "location": "Pisa", "inside": True,
             "citizenship": "Pisa", "collector": []}
        p.update(kw)
        return p
    return {
        "calendar": {"year": 1493, "month": 1},
        "players": {}, "families": {"MEDICI": {"player": "A"}, "PAZZI": {"player": "B"}},
        "personae": {"0101": persona("0101", "MEDICI"), "0102": persona("0102", "MEDICI"),
                     "0201": persona("0201", "PAZZI")},
        "locations": {"Pisa": {"name": "Pisa", "population": population, "wealth": wealth, "loyalty": loyalty,
                               "religion": "catholic",
                               "offices": {"sovereign": "0101", "bishop": "0201", "tenant": None}},
                      "San Gimignano": {"name": "San Gimignano", "population": 5000, "wealth": 100,
                                        "loyalty": 500, "offices": {"sovereign": "Ludovico Sforza"}}},
    }


def ctx_for(state: dict[str, Any], turn: int) -> Ctx:
    ctx = Ctx(state=state, turn=turn, rng=random.Random(1))
    for pid, p in state["personae"].items():
        ctx.start_location[pid] = p["location"]
        ctx.start_inside[pid] = p["inside"]
    return ctx


def appoint_and_collect(state: dict[str, Any], kind: str = "tax") -> Any:
    """Appointed in turn 1 for turn 2, collects in turn 2."""
    p = state["personae"]
    appointer = p["0101"] if kind == "tax" else p["0201"]
    appoint = taxes.appoint_tax_collector if kind == "tax" else taxes.appoint_tithe_collector
    out = appoint(ctx_for(state, 1), appointer, {"appointee": "0102", "location": "pisa"})
    assert out.ok, out.text
    assert p["0102"]["collector"] == [{"kind": kind, "location": "Pisa", "turn": 2}]
    ctx = ctx_for(state, 2)
    taxes.expire_collectors(ctx)
    collect = taxes.collect_taxes if kind == "tax" else taxes.collect_tithe
    return collect(ctx, p["0102"], {})


def test_tax_collection_numbers() -> None:
    state = make_state()
    assert appoint_and_collect(state).ok
    p, pisa = state["personae"]["0102"], state["locations"]["Pisa"]
    # 1% of wealth 150 x population 20,000 = 1.5 x 20,000 = 30,000 ducats
    assert p["assets"]["ducats"] == 30000
    # wealth -1% = 1.5 points, fraction dropped (ruling 1) -> 1; 150 - 1 = 149
    assert pisa["wealth"] == 149
    # popularity -20,000/1000 = 20: 300 - 20 = 280; loyalty loses the same 20: 500 - 20 = 480
    assert p["popularity"] == 280
    assert pisa["loyalty"] == 480
    # the appointment is used up: a second collection the same turn fails
    assert p["collector"] == []


def test_tax_popularity_loss_capped_at_100_and_at_least_1() -> None:
    # population 150,000 -> 150 points, capped at 100; wealth 250 -> 1% = 2.5 -> 2
    s = make_state(population=150000, wealth=250)
    out = appoint_and_collect(s)
    assert out.ok
    assert s["personae"]["0102"]["popularity"] == 300 - 100
    assert s["locations"]["Pisa"]["loyalty"] == 500 - 100
    assert s["locations"]["Pisa"]["wealth"] == 248
    # 1% of 250 x 150,000 = 375,000
    assert s["personae"]["0102"]["assets"]["ducats"] == 375000
    # population 500 -> 0.5 point, raised to the minimum 1; wealth 80 -> 0.8 point, raised to 1;
    # ducats 1% of 80 x 500 = 400
    s = make_state(population=500, wealth=80)
    assert appoint_and_collect(s).ok
    assert s["personae"]["0102"]["popularity"] == 299
    assert s["locations"]["Pisa"]["loyalty"] == 499
    assert s["locations"]["Pisa"]["wealth"] == 79
    assert s["personae"]["0102"]["assets"]["ducats"] == 400


def test_no_taxes_below_loyalty_400() -> None:
    s = make_state(loyalty=399)
    out = appoint_and_collect(s)
    assert not out.ok and "400" in out.text
    assert s["personae"]["0102"]["assets"]["ducats"] == 0
    assert s["locations"]["Pisa"]["wealth"] == 150
    s = make_state(loyalty=400)  # 400 is not "less than 400"
    assert appoint_and_collect(s).ok


def test_collector_who_cannot_afford_the_popularity_fails() -> None:
    s = make_state()
    s["personae"]["0102"]["popularity"] = 19  # needs 20
    out = appoint_and_collect(s)
    assert not out.ok
    assert s["personae"]["0102"]["popularity"] == 19
    assert s["personae"]["0102"]["assets"]["ducats"] == 0
    assert s["locations"]["Pisa"]["loyalty"] == 500


def test_only_the_sovereign_appoints_and_only_for_next_turn() -> None:
    s = make_state()
    p = s["personae"]
    assert not taxes.appoint_tax_collector(ctx_for(s, 1), p["0201"], {"appointee": "0102", "location": "Pisa"}).ok
    # a non-player sovereign's town: nobody here may appoint
    assert not taxes.appoint_tax_collector(ctx_for(s, 1), p["0101"],
                                           {"appointee": "0102", "location": "San_Gimignano"}).ok
    assert taxes.appoint_tax_collector(ctx_for(s, 1), p["0101"], {"appointee": "0102", "location": "Pisa"}).ok
    # collecting in the turn of the appointment is too early
    out = taxes.collect_taxes(ctx_for(s, 1), p["0102"], {})
    assert not out.ok and "not appointed" in out.text
    # and in turn 3 the appointment has lapsed
    ctx = ctx_for(s, 3)
    taxes.expire_collectors(ctx)
    assert p["0102"]["collector"] == []
    assert not taxes.collect_taxes(ctx, p["0102"], {}).ok


def test_a_later_appointment_replaces_the_earlier_one() -> None:
    s = make_state()
    p = s["personae"]
    ctx = ctx_for(s, 1)
    assert taxes.appoint_tax_collector(ctx, p["0101"], {"appointee": "0102", "location": "Pisa"}).ok
    assert taxes.appoint_tax_collector(ctx, p["0101"], {"appointee": "0201", "location": "Pisa"}).ok
    assert p["0102"]["collector"] == []
    assert p["0201"]["collector"] == [{"kind": "tax", "location": "Pisa", "turn": 2}]


def test_collector_must_start_the_turn_inside() -> None:
    s = make_state()
    p = s["personae"]
    assert taxes.appoint_tax_collector(ctx_for(s, 1), p["0101"], {"appointee": "0102", "location": "Pisa"}).ok
    p["0102"]["inside"] = False  # outside the walls at the start of turn 2
    ctx = ctx_for(s, 2)
    p["0102"]["inside"] = True  # moving inside during the turn does not help
    out = taxes.collect_taxes(ctx, p["0102"], {})
    assert not out.ok and "inside" in out.text


def test_tithe_numbers() -> None:
    s = make_state()
    out = appoint_and_collect(s, "tithe")
    assert out.ok, out.text
    # 1/1000 of wealth 150 x population 20,000 = 3,000 ducats; wealth -1 -> 149
    assert s["personae"]["0102"]["assets"]["ducats"] == 3000
    assert s["locations"]["Pisa"]["wealth"] == 149
    # no impact on popularity or loyalty (ruling 3)
    assert s["personae"]["0102"]["popularity"] == 300
    assert s["locations"]["Pisa"]["loyalty"] == 500


def test_tithe_rounds_down_and_loyalty_100() -> None:
    # 1/1000 of 77 x 1,234 = 95.018 -> 95
    s = make_state(population=1234, wealth=77, loyalty=100)
    assert appoint_and_collect(s, "tithe").ok
    assert s["personae"]["0102"]["assets"]["ducats"] == 95
    s = make_state(loyalty=99)
    out = appoint_and_collect(s, "tithe")
    assert not out.ok and "100" in out.text
    assert s["locations"]["Pisa"]["wealth"] == 150


def test_only_a_bishop_of_the_sovereigns_religion_authorizes_tithes() -> None:
    s = make_state()
    p = s["personae"]
    assert not taxes.appoint_tithe_collector(ctx_for(s, 1), p["0101"], {"appointee": "0102", "location": "Pisa"}).ok
    p["0101"]["religion"] = "orthodox"  # the sovereign; the bishop 0201 is catholic
    out = taxes.appoint_tithe_collector(ctx_for(s, 1), p["0201"], {"appointee": "0102", "location": "Pisa"})
    assert not out.ok and "religion" in out.text
