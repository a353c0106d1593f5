"""MAINTENANCE and PESTILENCE, with numbers worked by hand from the rules text (docs/renaissance/upkeep.md)."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance import pestilence, upkeep
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.registry import STEPS


def persona(pid: str, assets: dict[str, int], **extra: Any) -> dict[str, Any]:
    p = {"id": pid, "name": f"Persona {pid}", "family": "MEDICI", "alive": True, "origin": "european",
         "location": "Florence", "inside": True, "with": None, "assets": dict(assets)}
    p.update(extra)
    return p


def ctx_for(month: int, *personae: dict[str, Any]) -> Ctx:
    state = {"calendar": {"year": 1493, "month": month}, "personae": {p["id"]: p for p in personae},
             "families": {"MEDICI": {"player": "LMD", "personae": [p["id"] for p in personae]}},
             "locations": {}}
    return Ctx(state=state, turn=1, rng=random.Random(1))


def assets(ctx: Ctx, pid: str) -> dict[str, int]:
    return {k: v for k, v in ctx.state["personae"][pid]["assets"].items() if v}


def test_steps_registered_at_their_ranks() -> None:
    ranks = {fn.__name__: rank for rank, _, fn in STEPS["start"]}
    assert ranks["maintenance"] == 40 and ranks["naval_maintenance"] == 50 and ranks["pestilence"] == 60


def test_attrition_is_rounded_up_without_float_error() -> None:
    # 20% of 35 = 7 exactly (0.2 * 35 is 7.000000000000001 in floats, which ceil would make 8);
    # 20% of 33 = 6.6 -> 7; 20% of 1 = 0.2 -> 1; 10% of 15 = 1.5 -> 2.
    assert upkeep.attrition(35) == 7
    assert upkeep.attrition(33) == 7
    assert upkeep.attrition(1) == 1
    assert upkeep.attrition(15, 10) == 2
    assert upkeep.attrition(0) == 0


def test_may_ducats_for_heavy_cavalry_and_crew() -> None:
    # May: heavy cavalry and crew both paid: (100 + 50) men x 10 ducats = 1,500; 2,000 - 1,500 = 500 left.
    # Light cavalry is never maintained.
    ctx = ctx_for(5, persona("0101", {"ducats": 2000, "heavy cavalry": 100, "crew": 50, "light cavalry": 30}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"ducats": 500, "heavy cavalry": 100, "crew": 50, "light cavalry": 30}
    rec = ctx.scratch["maintenance"]["0101"]
    assert rec["month"] == 5 and rec["kind"] == "ducats" and rec["spent"] == {"ducats": 1500}
    assert rec["units"]["crew"] == {"heads": 50, "paid": 50, "unpaid": 0, "lost": 0}
    assert "1,500 ducats" in ctx.messages["MEDICI"][0]


def test_june_does_not_pay_crew() -> None:
    # June: heavy cavalry, archers, pikemen only: 10 heavy cavalry x 10 = 100; crew cost nothing.
    ctx = ctx_for(6, persona("0101", {"ducats": 100, "heavy cavalry": 10, "crew": 50}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"heavy cavalry": 10, "crew": 50}


def test_short_purse_pays_by_priority_and_in_part() -> None:
    # 1,000 ducats; 80 heavy cavalry first: 800. 200 left pay 20 of the 53 crew. 33 unpaid crew:
    # 20% of 33 = 6.6, rounded up to 7 lost: 53 - 7 = 46 crew.
    ctx = ctx_for(5, persona("0101", {"ducats": 1000, "heavy cavalry": 80, "crew": 53}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"heavy cavalry": 80, "crew": 46}
    rec = ctx.scratch["maintenance"]["0101"]["units"]
    assert rec["heavy cavalry"] == {"heads": 80, "paid": 80, "unpaid": 0, "lost": 0}
    assert rec["crew"] == {"heads": 53, "paid": 20, "unpaid": 33, "lost": 7}
    assert "33 crew not maintained, 7 lost" in ctx.messages["MEDICI"][0]


def test_ducats_short_of_one_man_are_kept() -> None:
    # September: 15 archers, 109 ducats: 10 archers paid (100), 9 ducats kept (reading 4); 5 unpaid -> 1 lost.
    ctx = ctx_for(9, persona("0101", {"ducats": 109, "archer": 15}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"ducats": 9, "archer": 14}


def test_only_the_owner_pays() -> None:
    # July: 0102's 35 auxiliaries have no ducats; 0101's ducats are not touched. 20% of 35 = 7 lost.
    ctx = ctx_for(7, persona("0101", {"ducats": 5000}), persona("0102", {"auxiliary": 35}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"ducats": 5000}
    assert assets(ctx, "0102") == {"auxiliary": 28}


def test_dead_personae_pay_nothing() -> None:
    ctx = ctx_for(5, persona("0101", {"ducats": 100, "crew": 10}, alive=False))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"ducats": 100, "crew": 10}


def test_october_first_thousand_horses_free() -> None:
    # October: 1,500 horses, the first 1,000 free: 500 x 1/2 = 250 grain; 1,000 - 250 = 750.
    # 1,000 sheep: all free.
    ctx = ctx_for(10, persona("0101", {"horse": 1500, "sheep": 1000, "grain": 1000}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"horse": 1500, "sheep": 1000, "grain": 750}


def test_january_no_free_horses() -> None:
    # January: no free thousand: 1,500 horses x 1/2 = 750 grain.
    ctx = ctx_for(1, persona("0101", {"horse": 1500, "grain": 1000}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"horse": 1500, "grain": 250}


def test_herds_eat_only_grain() -> None:
    # January: 10 horses, butter but no grain: 10 horses unfed, 20% of 10 = 2 lost; butter untouched.
    ctx = ctx_for(1, persona("0101", {"horse": 10, "butter": 100}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"horse": 8, "butter": 100}


def test_butter_eaten_before_grain() -> None:
    # November: 10 heavy cavalry x 1/2 = 5 units: the 4 butter first, then 1 grain (100 -> 99).
    ctx = ctx_for(11, persona("0101", {"heavy cavalry": 10, "butter": 4, "grain": 100}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"heavy cavalry": 10, "grain": 99}
    assert ctx.scratch["maintenance"]["0101"]["spent"] == {"butter": 4, "grain": 1}


def test_half_units_round_up_and_carry_to_the_next_type() -> None:
    # November: 15 heavy cavalry need 7.5 units: 8 grain opened (reading 2).
    ctx = ctx_for(11, persona("0101", {"heavy cavalry": 15, "grain": 100}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"heavy cavalry": 15, "grain": 92}
    # 15 heavy cavalry + 1 crew = 16 halves = 8 butter: the crewman eats the half the cavalry left.
    ctx = ctx_for(11, persona("0101", {"heavy cavalry": 15, "crew": 1, "butter": 8}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"heavy cavalry": 15, "crew": 1}


def test_troops_eat_horses_when_nothing_else() -> None:
    # November: 100 horses, all within the free thousand. 20 heavy cavalry x 1/2 = 10 units of food; the only
    # food is horses: 100 - 10 = 90 horses.
    ctx = ctx_for(11, persona("0101", {"horse": 100, "heavy cavalry": 20}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"horse": 90, "heavy cavalry": 20}


def test_sheep_eaten_before_grain_and_shrink_the_herd() -> None:
    # January: 10 heavy cavalry need 5 units: 3 sheep (before grain) then 2 grain. The sheep herd is then 0.
    ctx = ctx_for(1, persona("0101", {"heavy cavalry": 10, "sheep": 3, "grain": 10}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"heavy cavalry": 10, "grain": 8}
    # March: 200 heavy cavalry eat 100 of 1,100 sheep; the 1,000 left are all free (reading 3): grain untouched.
    ctx = ctx_for(3, persona("0101", {"heavy cavalry": 200, "sheep": 1100, "grain": 500}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"heavy cavalry": 200, "sheep": 1000, "grain": 500}


def test_hungry_men_suffer_attrition() -> None:
    # February: 30 pikemen need 15 units; 10 cheese feed 20; 10 unfed: 20% = 2 lost -> 28.
    ctx = ctx_for(2, persona("0101", {"pikeman": 30, "cheese": 10}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"pikeman": 28}


def test_april_two_caravels_with_five_pitch() -> None:
    # April: a caravel needs 5 pitch, 5 timber, 1 sail, 5 cordage. 5 pitch maintain one caravel; the other is
    # unmaintained: 20% of 1 = 0.2, rounded up: 1 lost.
    ctx = ctx_for(4, persona("0101", {"caravel": 2, "pitch": 5, "timber": 100, "sail": 10, "cordage": 100}))
    upkeep.naval_maintenance(ctx)
    assert assets(ctx, "0101") == {"caravel": 1, "timber": 95, "sail": 9, "cordage": 95}
    assert ctx.scratch["maintenance"]["0101"]["units"]["caravel"] == {"heads": 2, "paid": 1, "unpaid": 1, "lost": 1}


def test_april_roundships_before_caravels() -> None:
    # A roundship takes 20 pitch, 20 timber, 1 sail, 10 cordage first; the caravel is left without pitch: lost.
    ctx = ctx_for(4, persona("0101", {"roundship": 1, "caravel": 1, "pitch": 20, "timber": 30, "sail": 2,
                                      "cordage": 20}))
    upkeep.naval_maintenance(ctx)
    assert assets(ctx, "0101") == {"roundship": 1, "timber": 10, "sail": 1, "cordage": 10}


def test_naval_maintenance_only_in_april_and_no_food_or_ducats_in_april() -> None:
    ctx = ctx_for(5, persona("0101", {"caravel": 2}))
    upkeep.naval_maintenance(ctx)
    assert assets(ctx, "0101") == {"caravel": 2}
    ctx = ctx_for(4, persona("0101", {"heavy cavalry": 10, "horse": 10}))
    upkeep.maintenance(ctx)
    assert assets(ctx, "0101") == {"heavy cavalry": 10, "horse": 10}


# PESTILENCE

def test_pestilence_ten_percent_rounded_up() -> None:
    # An American persona with 15 pikemen and 4 archers meets a European at Cuzco: 10% of 15 = 1.5 -> 2;
    # 10% of 4 = 0.4 -> 1 (each troop type rounded up). Crew are not troops. The European loses nothing.
    ctx = ctx_for(5, persona("0101", {"pikeman": 100}, location="Cuzco"),
                  persona("0201", {"pikeman": 15, "archer": 4, "crew": 10}, origin="american", location="Cuzco",
                          family="INCA"))
    pestilence.pestilence(ctx)
    assert assets(ctx, "0201") == {"pikeman": 13, "archer": 3, "crew": 10}
    assert assets(ctx, "0101") == {"pikeman": 100}
    assert "disease" in ctx.messages["INCA"][0]


def test_no_pestilence_apart_or_among_old_world_peoples() -> None:
    # Same location, but both old-world (European and Asian); elsewhere an American alone, another at sea.
    ctx = ctx_for(5, persona("0101", {"pikeman": 10}, location="Goa"),
                  persona("0102", {"pikeman": 10}, origin="asian", location="Goa"),
                  persona("0201", {"pikeman": 10}, origin="american", location="Cuzco"),
                  persona("0202", {"pikeman": 10}, origin="american", location=None))
    pestilence.pestilence(ctx)
    for pid in ("0101", "0102", "0201", "0202"):
        assert assets(ctx, pid) == {"pikeman": 10}


def test_pestilence_needs_a_living_old_world_persona() -> None:
    ctx = ctx_for(5, persona("0101", {}, location="Cuzco", alive=False),
                  persona("0201", {"pikeman": 10}, origin="american", location="Cuzco"))
    pestilence.pestilence(ctx)
    assert assets(ctx, "0201") == {"pikeman": 10}
