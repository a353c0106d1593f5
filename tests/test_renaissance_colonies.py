"""COLONIES: who may colonize, what colonists are, 100 survivors a turn, the half-slave limit, the 5,000 cap."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance import colonies
from maild_rules.renaissance.context import Ctx


def make_state(population: int = 1000, religion: str = "catholic") -> dict[str, Any]:
    return {
        "calendar": {"year": 1493, "month": 1},
        "players": {}, "families": {"MEDICI": {"player": "A"}},
        "personae": {"0101": {"id": "0101", "family": "MEDICI", "religion": religion, "alive": True,
                              "popularity": 300, "location": "Vinland", "inside": False,
                              "assets": {"crew": 300, "slave": 300, "pikeman": 40, "auxiliary": 30}}},
        "locations": {"Vinland": {"name": "Vinland", "population": population, "wealth": 10, "loyalty": 300,
                                  "may_colonize": True, "colonists_this_turn": 0},
                      "Pisa": {"name": "Pisa", "population": 20000, "may_colonize": False}},
    }


def ctx_for(state: dict[str, Any]) -> Ctx:
    return Ctx(state=state, turn=1, rng=random.Random(1))


def plant(ctx: Ctx, item: str, qty: int) -> Any:
    return colonies.colonize(ctx, ctx.state["personae"]["0101"], {"item": item, "qty": qty})


def test_150_planted_100_survive() -> None:
    s = make_state()
    ctx = ctx_for(s)
    assert plant(ctx, "crew", 150).ok
    # the colonists leave his assets: 300 - 150 = 150 crew; population 1,000 + 150 = 1,150 during the turn
    assert s["personae"]["0101"]["assets"]["crew"] == 150
    assert s["locations"]["Vinland"]["population"] == 1150
    colonies.colonists_survive(ctx)
    # only 100 survive: 1,000 + 100 = 1,100
    assert s["locations"]["Vinland"]["population"] == 1100
    assert s["locations"]["Vinland"]["colonists_this_turn"] == 0


def test_100_or_fewer_all_survive() -> None:
    s = make_state()
    ctx = ctx_for(s)
    assert plant(ctx, "crew", 60).ok
    assert plant(ctx, "crew", 40).ok
    colonies.colonists_survive(ctx)
    assert s["locations"]["Vinland"]["population"] == 1100  # 1,000 + 60 + 40


def test_no_more_than_half_slaves() -> None:
    s = make_state()
    ctx = ctx_for(s)
    # slaves first: 10 slaves to 0 free colonists is more than half
    out = plant(ctx, "slaves", 10)
    assert not out.ok and s["personae"]["0101"]["assets"]["slave"] == 300
    assert plant(ctx, "crew", 50).ok
    # 50 slaves to 50 crew is exactly half: allowed; one more slave is not
    assert plant(ctx, "slave", 50).ok
    assert not plant(ctx, "slave", 1).ok
    assert s["locations"]["Vinland"]["population"] == 1100  # 1,000 + 50 + 50
    assert s["personae"]["0101"]["assets"]["slave"] == 250


def test_troops_as_colonists() -> None:
    s = make_state()
    ctx = ctx_for(s)
    # generic "troops" takes auxiliaries first (ruling 12): 30 auxiliary, then 20 of the 40 pikemen
    assert plant(ctx, "troops", 50).ok
    assets = s["personae"]["0101"]["assets"]
    assert assets["auxiliary"] == 0 and assets["pikeman"] == 20
    assert plant(ctx, "pikeman", 20).ok and assets["pikeman"] == 0
    assert not plant(ctx, "pikeman", 1).ok  # he has none left
    assert not plant(ctx, "grain", 10).ok  # not a colonist


def test_population_cap_5000() -> None:
    s = make_state(population=4950)
    ctx = ctx_for(s)
    # room for 5,000 - 4,950 = 50: 50 planted, 30 crew stay with him
    out = plant(ctx, "crew", 80)
    assert out.ok and "30 kept" in out.text
    assert s["locations"]["Vinland"]["population"] == 5000
    assert s["personae"]["0101"]["assets"]["crew"] == 300 - 50
    assert not plant(ctx, "crew", 1).ok


def test_who_and_where() -> None:
    for religion in ("sunni", "jewish"):
        assert not plant(ctx_for(make_state(religion=religion)), "crew", 10).ok
    assert plant(ctx_for(make_state(religion="orthodox")), "crew", 10).ok
    s = make_state()
    s["personae"]["0101"]["location"] = "Pisa"  # may not be colonized
    assert not plant(ctx_for(s), "crew", 10).ok
