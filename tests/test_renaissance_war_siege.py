"""SIEGE, SIEGE BOMBARDMENT, siege attrition, the September rule, CROP DESTRUCTION and RAZING OF FORTIFICATIONS
(rules/renaissance/war/siege.py, the September supply of markets.py), each against figures worked by hand from the
rules' words. Readings: docs/renaissance/war.md, section "siege"."""

from __future__ import annotations

from typing import Any

import pytest

from maild_rules.renaissance import markets, piety
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.war import limits, siege
from tests.renaissance_fixtures import month_ctx
from tests.renaissance_siege_fixtures import next_turn, person, pisa

# ---- a small siege world ------------------------------------------------------------------------------------------
# Pisa (FAR 30, FAS 80) with Giuliano (MEDICI) inside; Andrea (DORIA) outside its walls with an army.


def world(besieger_assets: dict[str, int], inside_assets: dict[str, int], *, month: int = 1, turn: int = 1,
          location: dict[str, Any] | None = None, balance: float | None = None, **besieger_more: Any) -> Ctx:
    personae = [person("0201", "DORIA", False, besieger_assets, **besieger_more),
                person("0103", "MEDICI", True, inside_assets)]
    state: dict[str, Any] = {}
    if balance is not None:
        state["players"] = {"ADR": {"account": {"balance": balance, "history": []}},
                            "LMD": {"account": {"balance": 100.0, "history": []}}}
        state["families"] = {"DORIA": {"player": "ADR"}, "MEDICI": {"player": "LMD"}}
    ctx = month_ctx(personae, [location or pisa()], month=month, turn=turn, **state)
    return ctx


def andrea(ctx: Ctx) -> dict[str, Any]:
    return ctx.state["personae"]["0201"]


def giuliano(ctx: Ctx) -> dict[str, Any]:
    return ctx.state["personae"]["0103"]


def loc(ctx: Ctx) -> dict[str, Any]:
    return ctx.state["locations"]["Pisa"]


def besieged(ctx: Ctx) -> Ctx:
    """Andrea's siege ordered this turn and in effect from the next: returns the next turn's context."""
    assert siege.siege(ctx, andrea(ctx), {"lift": False}).ok
    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    return ctx


# ---- KS: the siege order --------------------------------------------------------------------------------------

def test_a_siege_needs_as_many_troops_and_crew_as_are_inside_the_garrison_counted() -> None:
    # Andrea: 100 pikemen + 20 crew = 120 (his 500 slaves are neither). Inside: Giuliano's 80 archers + 10 crew,
    # and the garrison's 30 = 120. 120 is not fewer than 120: the siege is ordered.
    ctx = world({"pikeman": 100, "crew": 20, "slave": 500}, {"archer": 80, "crew": 10}, location=pisa(garrison=30))
    assert siege.inside_count(ctx, "Pisa") == 120
    out = siege.siege(ctx, andrea(ctx), {"lift": False})
    assert out.ok, out.text
    assert loc(ctx)["siege"] == {"besieger": "0201", "ordered": 1, "since": None, "months": 0, "blocked": []}


def test_a_siege_by_one_man_fewer_than_inside_fails() -> None:
    # Garrison 31: 80 + 10 + 31 = 121 inside, Andrea's 120 are fewer: "Siege orders fail".
    ctx = world({"pikeman": 100, "crew": 20}, {"archer": 80, "crew": 10}, location=pisa(garrison=31))
    out = siege.siege(ctx, andrea(ctx), {"lift": False})
    assert not out.ok and "120" in out.text and "121" in out.text
    assert not loc(ctx).get("siege")


def test_tower_garrisons_are_not_counted_inside() -> None:
    # A tower of FAS 500 has a garrison of 50 (10%), which a siege of the walls leaves out: inside stays 90.
    ctx = world({"pikeman": 90}, {"archer": 80, "crew": 10},
                location=pisa(towers=[{"name": "Torre", "fas": 500, "owner": "MEDICI"}]))
    assert siege.inside_count(ctx, "Pisa") == 90
    assert siege.siege(ctx, andrea(ctx), {"lift": False}).ok


def test_a_siege_is_laid_from_outside_by_forces_that_began_the_turn_there() -> None:
    ctx = world({"pikeman": 100}, {})
    ctx.start_inside["0201"] = True
    assert not siege.siege(ctx, andrea(ctx), {"lift": False}).ok
    ctx = world({"pikeman": 100}, {})
    ctx.start_location["0201"] = "Florence"  # he marched in this month
    assert not siege.siege(ctx, andrea(ctx), {"lift": False}).ok


def test_a_location_without_walls_cannot_be_besieged() -> None:
    ctx = world({"pikeman": 100}, {}, location=pisa(fas=0, far=0))
    out = siege.siege(ctx, andrea(ctx), {"lift": False})
    assert not out.ok and "FAS 0" in out.text


def test_one_besieger_at_a_time() -> None:
    ctx = world({"pikeman": 100}, {})
    ctx.state["personae"]["0301"] = person("0301", "BORGIA", False, {"pikeman": 500})
    ctx.start_location["0301"], ctx.start_inside["0301"] = "Pisa", False
    assert siege.siege(ctx, andrea(ctx), {"lift": False}).ok
    out = siege.siege(ctx, ctx.state["personae"]["0301"], {"lift": False})
    assert not out.ok and "already besieged" in out.text
    assert loc(ctx)["siege"]["besieger"] == "0201"
    # Once he has marched off, the siege is his no longer: Cesare's order ends it and lays his own.
    andrea(ctx)["location"] = "Livorno"
    assert siege.siege(ctx, ctx.state["personae"]["0301"], {"lift": False}).ok
    assert loc(ctx)["siege"]["besieger"] == "0301" and any("ended" in n for n in ctx.news)


def test_a_siege_order_is_charged_one_conflict_fee_and_refused_without_credit() -> None:
    # CONFLICT ORDERS: 25 actions x 0.2 = 5.00 for the siege order (RW-OQ-45): 100.00 -> 95.00.
    ctx = world({"pikeman": 100}, {}, balance=100.0)
    assert siege.siege(ctx, andrea(ctx), {"lift": False}).ok
    assert ctx.state["players"]["ADR"]["account"]["balance"] == 95.0
    # CREDIT: an account below the month's fees (here, below zero) runs no conflict order.
    ctx = world({"pikeman": 100}, {}, balance=-1.0)
    assert not siege.siege(ctx, andrea(ctx), {"lift": False}).ok
    assert not loc(ctx).get("siege")


def test_ksx_lifts_the_siege() -> None:
    ctx = besieged(world({"pikeman": 100}, {}))
    out = siege.siege(ctx, andrea(ctx), {"lift": True})
    assert out.ok
    assert loc(ctx)["siege"] is None
    assert any("ended" in n for n in ctx.news)
    assert not siege.siege(ctx, andrea(ctx), {"lift": True}).ok  # nothing left to lift


# ---- taking effect and the monthly test ------------------------------------------------------------------------

def test_a_siege_takes_effect_the_turn_after_its_order() -> None:
    ctx = world({"pikeman": 100}, {"archer": 10}, turn=4)
    assert siege.siege(ctx, andrea(ctx), {"lift": False}).ok
    # CONFLICT ORDERS: "a siege line whose existence has been published in the Newsletter": it is, at once.
    assert any("lays siege to Pisa; the siege takes effect next month" in n for n in ctx.news)
    siege.sieges_take_effect(ctx)  # the same turn: nothing yet
    assert loc(ctx)["siege"]["since"] is None
    assert not siege.in_effect(loc(ctx), 4) and siege.besieger(ctx, "Pisa") is None
    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    assert loc(ctx)["siege"]["since"] == 5
    assert siege.in_effect(loc(ctx), 5) and not siege.in_effect(loc(ctx), 4)
    assert siege.besieger(ctx, "Pisa") is andrea(ctx)
    assert any("under siege" in n for n in ctx.news)
    assert ctx.messages.get("MEDICI") and ctx.messages.get("DORIA")  # both families told


def test_a_siege_lapses_when_the_inside_outnumbers_the_besieger_at_a_month_start() -> None:
    # RW-OQ-31: tested each month. Andrea 100 pikemen; Giuliano's archers grow from 10 to 101: 100 < 101.
    ctx = besieged(world({"pikeman": 100}, {"archer": 10}))
    assert siege.in_effect(loc(ctx), ctx.turn)
    giuliano(ctx)["assets"]["archer"] = 101
    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    assert loc(ctx)["siege"] is None
    assert any("fewer troops and crew (100) than the 101" in n for n in ctx.news)
    assert ctx.messages["MEDICI"] and ctx.messages["DORIA"]


def test_the_test_at_taking_effect_can_fail_a_siege_before_it_starts() -> None:
    ctx = world({"pikeman": 100}, {"archer": 10})
    assert siege.siege(ctx, andrea(ctx), {"lift": False}).ok
    giuliano(ctx)["assets"]["archer"] = 150  # reinforced by water before the siege took effect
    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    assert loc(ctx)["siege"] is None


def test_a_besieger_who_moves_away_or_dies_ends_his_siege() -> None:
    ctx = besieged(world({"pikeman": 100}, {}))
    andrea(ctx)["location"] = "Livorno"  # he marched off during the month
    assert siege.besieger(ctx, "Pisa") is None
    siege.siege_attrition(ctx)
    assert loc(ctx)["siege"] is None and any("no longer outside" in n for n in ctx.news)

    ctx = besieged(world({"pikeman": 100}, {}))
    andrea(ctx)["alive"] = False
    siege.siege_attrition(ctx)
    assert loc(ctx)["siege"] is None and any("died" in n for n in ctx.news)

    # Succession keeps the id: an heir standing where his father died does not inherit the siege.
    ctx = besieged(world({"pikeman": 100}, {}))
    andrea(ctx)["predecessors"] = [{"name": "Andrea", "died": "old age", "turn": ctx.turn}]
    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    assert loc(ctx)["siege"] is None


# ---- siege attrition ------------------------------------------------------------------------------------------

def test_siege_attrition_is_1_2_3_percent_rounded_up_per_persona_and_type_then_reset_by_an_entry() -> None:
    ctx = world({"pikeman": 1000}, {"pikeman": 150, "crew": 10, "slave": 3, "horse": 40}, location=pisa(garrison=120))
    ctx.state["personae"]["0104"] = person("0104", "MEDICI", True, {"archer": 50})
    ctx = besieged(ctx)
    b = ctx.state["personae"]["0104"]

    siege.siege_attrition(ctx)  # first month of successful siege: 1%
    # Giuliano: 150 x 1% = 1.5 -> 2; 10 crew x 1% = .1 -> 1; 3 slaves -> .03 -> 1; 40 horses -> .4 -> 1.
    # The other persona's 50 archers: .5 -> 1 (rounded on his own, not pooled with Giuliano's men).
    # Garrison 120 x 1% = 1.2 -> 2.
    assert giuliano(ctx)["assets"] == {"pikeman": 148, "crew": 9, "slave": 2, "horse": 39}
    assert b["assets"]["archer"] == 49 and loc(ctx)["garrison"] == 118
    assert loc(ctx)["siege"]["months"] == 1 and loc(ctx)["siege"]["blocked"] == [ctx.turn]
    assert andrea(ctx)["assets"]["pikeman"] == 1000  # the besieger is not within the walls

    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    siege.siege_attrition(ctx)  # second consecutive: 2%
    # 148 x 2% = 2.96 -> 3; 9 x 2% = .18 -> 1; 2 x 2% = .04 -> 1; 39 x 2% = .78 -> 1; 49 x 2% = .98 -> 1;
    # garrison 118 x 2% = 2.36 -> 3.
    assert giuliano(ctx)["assets"] == {"pikeman": 145, "crew": 8, "slave": 1, "horse": 38}
    assert b["assets"]["archer"] == 48 and loc(ctx)["garrison"] == 115

    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    siege.siege_attrition(ctx)  # third: 3%
    # 145 x 3% = 4.35 -> 5; 8 x 3% = .24 -> 1; 1 x 3% -> 1; 38 x 3% = 1.14 -> 2; 48 x 3% = 1.44 -> 2;
    # garrison 115 x 3% = 3.45 -> 4.
    assert giuliano(ctx)["assets"] == {"pikeman": 140, "crew": 7, "slave": 0, "horse": 36}
    assert b["assets"]["archer"] == 46 and loc(ctx)["garrison"] == 111
    assert loc(ctx)["siege"]["months"] == 3

    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    siege.note_entry(ctx, "Pisa", "water")  # a ship slips in: no attrition this month, the count starts again
    siege.siege_attrition(ctx)
    assert giuliano(ctx)["assets"]["pikeman"] == 140 and loc(ctx)["siege"]["months"] == 0
    assert ctx.turn in loc(ctx)["siege"]["blocked"]  # by water: overland ingress was still prevented

    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    siege.siege_attrition(ctx)  # 1% again: 140 x 1% = 1.4 -> 2
    assert giuliano(ctx)["assets"]["pikeman"] == 138 and loc(ctx)["siege"]["months"] == 1


def test_a_land_entry_breaks_the_blockade_and_the_attrition() -> None:
    ctx = besieged(world({"pikeman": 1000}, {"pikeman": 150}))
    siege.note_entry(ctx, "Pisa", "land")
    siege.siege_attrition(ctx)
    assert giuliano(ctx)["assets"]["pikeman"] == 150
    assert loc(ctx)["siege"]["blocked"] == [] and loc(ctx)["siege"]["months"] == 0


def test_no_attrition_in_the_month_a_siege_is_ordered() -> None:
    ctx = world({"pikeman": 1000}, {"pikeman": 150})
    assert siege.siege(ctx, andrea(ctx), {"lift": False}).ok
    siege.siege_attrition(ctx)
    assert giuliano(ctx)["assets"]["pikeman"] == 150 and loc(ctx)["siege"]["blocked"] == []


def test_an_entry_is_by_land_or_water() -> None:
    ctx = world({}, {})
    with pytest.raises(ValueError):
        siege.note_entry(ctx, "Pisa", "air")


# ---- KB: siege bombardment --------------------------------------------------------------------------------------

def ready_to_bombard(besieger_assets: dict[str, int], inside_assets: dict[str, int], gunnery: int = 500,
                     **kw: Any) -> Ctx:
    """A siege in effect last month with no one entering by land, so that this month he may bombard."""
    ctx = besieged(world(besieger_assets, inside_assets, skills={"gunnery": gunnery}, **kw))
    siege.siege_attrition(ctx)
    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    return ctx


def test_each_cannon_takes_a_thousandth_of_gunnery_less_far_off_fas_and_two_percent_self_destruct() -> None:
    # 10 cannons at gunnery 500 against FAR 30: 10 x (500 - 30)/1000 = 4.7 FAS -> 5 lost (rounded up, RW-OQ-32):
    # FAS 80 -> 75. Self-destruction: 10 x 2% = .2 -> 1 cannon. No cannons inside: no counter-battery.
    ctx = ready_to_bombard({"pikeman": 100, "cannon": 10}, {})
    out = siege.bombard(ctx, andrea(ctx), {"qty": 10})
    assert out.ok, out.text
    assert loc(ctx)["fas"] == 75
    assert andrea(ctx)["assets"]["cannon"] == 9
    assert any("FAS 80 -> 75" in n for n in ctx.news)


def test_no_damage_when_far_exceeds_gunnery_and_fas_never_below_one() -> None:
    # Gunnery 300 against FAR 400: "no damage to the fortification results"; the cannons still self-destruct.
    ctx = ready_to_bombard({"pikeman": 100, "cannon": 10}, {}, location=pisa(far=400, fas=80), gunnery=300)
    assert siege.bombard(ctx, andrea(ctx), {"qty": 10}).ok
    assert loc(ctx)["fas"] == 80 and andrea(ctx)["assets"]["cannon"] == 9
    # 120 cannons at 600 against FAR 0: 120 x 600/1000 = 72 points, but FAS 50 stops at 1.
    ctx = ready_to_bombard({"pikeman": 100, "cannon": 120}, {}, location=pisa(far=0, fas=50), gunnery=600)
    assert siege.bombard(ctx, andrea(ctx), {"qty": 120}).ok
    assert loc(ctx)["fas"] == 1


def test_counter_battery_uses_each_owners_gunnery_and_the_guns_before_either_loss() -> None:
    # 120 cannons at gunnery 600 against FAR 100, FAS 500: 120 x 500/1000 = 60 -> FAS 440.
    # Own 2%: 120 x .02 = 2.4 -> 3. Inside: Giuliano 60 cannons at gunnery 500, Piero 40 at 250:
    # (60 x 500 + 40 x 250) x 100 x .000001 = 4.0 -> 4 bombarding cannons destroyed. 120 - 3 - 4 = 113.
    # Their own 2%: 100 x .02 = 2, shared 60:40 = 1.2 and .8 -> 1 and 0, the one left to the larger remainder
    # (.8): 1 each: 59 and 39.
    ctx = ready_to_bombard({"pikeman": 300, "cannon": 120}, {"cannon": 60}, gunnery=600,
                           location=pisa(far=100, fas=500))
    giuliano(ctx)["skills"] = {"gunnery": 500}
    ctx.state["personae"]["0101"] = person("0101", "MEDICI", True, {"cannon": 40}, skills={"gunnery": 250})
    out = siege.bombard(ctx, andrea(ctx), {"qty": 120})
    assert out.ok, out.text
    assert loc(ctx)["fas"] == 440
    assert andrea(ctx)["assets"]["cannon"] == 113
    assert giuliano(ctx)["assets"]["cannon"] == 59 and ctx.state["personae"]["0101"]["assets"]["cannon"] == 39
    assert "counter-battery of 100 cannons destroyed 4" in out.text
    assert any("FAS 500 -> 440; P0103 (0103)'s 60 cannons answered, 1 of them" in m for m in ctx.messages["MEDICI"])


def test_counter_battery_fires_with_the_guns_it_had_before_its_own_self_destruction() -> None:
    # RW-OQ-32, simultaneous: 101 defending cannons at gunnery 400, FAR 50: 101 x 400 x 50 x .000001 = 2.02 -> 3
    # destroyed. Had they fired after their own 2% (101 x .02 = 2.02 -> 3 lost, 98 left): 1.96 -> 2.
    # The bombarder's 10 lose 1 (2% of 10 = .2 -> 1) and 3: 6 left.
    ctx = ready_to_bombard({"pikeman": 300, "cannon": 10}, {"cannon": 101}, location=pisa(far=50, fas=80))
    giuliano(ctx)["skills"] = {"gunnery": 400}
    assert siege.bombard(ctx, andrea(ctx), {"qty": 10}).ok
    assert andrea(ctx)["assets"]["cannon"] == 6 and giuliano(ctx)["assets"]["cannon"] == 98
    # And the bombardment's damage counts the 10 that fired, not the 6 left: 10 x 450/1000 = 4.5 -> 5: FAS 75.
    assert loc(ctx)["fas"] == 75


def test_no_counter_battery_against_a_far_of_zero() -> None:
    ctx = ready_to_bombard({"pikeman": 300, "cannon": 10}, {"cannon": 50}, location=pisa(far=0, fas=80))
    giuliano(ctx)["skills"] = {"gunnery": 999}
    assert siege.bombard(ctx, andrea(ctx), {"qty": 10}).ok
    assert giuliano(ctx)["assets"]["cannon"] == 50 and andrea(ctx)["assets"]["cannon"] == 9


def test_the_arithmetic_on_its_own() -> None:
    # 10 at 500 vs FAR 30, FAS 80; defender 20 at 400: 20 x 400 x 30 x .000001 = .24 -> 1; 20 x 2% = .4 -> 1.
    result = siege.bombardment(10, 500, 30, 80, {"0103": (20, 400)})
    assert (result.fas_lost, result.self_destroyed, result.counter_destroyed) == (5, 1, 1)
    assert result.defenders_lost == {"0103": 1} and result.bombarders_lost == 2
    # The counter-battery never takes more than fired: 1 cannon, 1 self-destructs, nothing left to destroy.
    result = siege.bombardment(1, 500, 900, 80, {"0103": (500, 999)})
    assert result.bombarders_lost == 1 and result.fas_lost == 0


def test_cannons_that_bombarded_ships_this_month_may_not_bombard_walls() -> None:
    # 10 cannons, 8 used for naval bombardment: 2 bombard. 2 x 470/1000 = .94 -> 1 FAS: 80 -> 79.
    ctx = ready_to_bombard({"pikeman": 100, "cannon": 10}, {})
    ctx.scratch["war.naval_cannons"] = {"0201": 8}
    out = siege.bombard(ctx, andrea(ctx), {"qty": 10})
    assert out.ok and "2 free of the 10 ordered" in out.text
    assert loc(ctx)["fas"] == 79
    ctx.scratch["war.naval_cannons"] = {"0201": 9}  # 9 left after his 2% loss, all of them used at sea
    assert not siege.bombard(ctx, andrea(ctx), {"qty": 1}).ok


def test_cannons_bombard_once_a_month() -> None:
    # 10 cannons: KB6 fires 6 (1 self-destructs, 5 survive); a second KB10 has the other 4 only.
    ctx = ready_to_bombard({"pikeman": 100, "cannon": 10}, {})
    assert siege.bombard(ctx, andrea(ctx), {"qty": 6}).ok
    out = siege.bombard(ctx, andrea(ctx), {"qty": 10})
    assert out.ok and "4 free of the 10 ordered" in out.text


def test_bombardment_needs_last_month_blockaded_overland() -> None:
    # The first month of the siege: no earlier month of it.
    ctx = besieged(world({"pikeman": 100, "cannon": 10}, {}, skills={"gunnery": 500}))
    assert not siege.bombard(ctx, andrea(ctx), {"qty": 10}).ok
    # A land entry last month: no bombardment this month.
    siege.note_entry(ctx, "Pisa", "land")
    siege.siege_attrition(ctx)
    ctx = next_turn(ctx)
    siege.sieges_take_effect(ctx)
    out = siege.bombard(ctx, andrea(ctx), {"qty": 10})
    assert not out.ok and "overland ingress" in out.text
    assert loc(ctx)["fas"] == 80


def test_only_the_besieger_bombards_and_not_after_an_assault() -> None:
    ctx = ready_to_bombard({"pikeman": 100, "cannon": 10}, {"cannon": 10})
    assert not siege.bombard(ctx, giuliano(ctx), {"qty": 10}).ok
    limits.assaulted(ctx, "0201")
    out = siege.bombard(ctx, andrea(ctx), {"qty": 10})
    assert not out.ok and "before an assault" in out.text


def test_a_bombardment_is_charged_as_an_order_and_as_a_bombardment() -> None:
    # RW-OQ-32/45: two fees of 5.00. 100.00 - 5.00 (siege) = 95.00 - 10.00 = 85.00.
    ctx = ready_to_bombard({"pikeman": 100, "cannon": 10}, {}, balance=100.0)
    assert siege.bombard(ctx, andrea(ctx), {"qty": 10}).ok
    assert ctx.state["players"]["ADR"]["account"]["balance"] == 85.0


def test_shia_and_sunni_lose_100_piety_once_in_a_month_they_fire() -> None:
    # REPUTATION FOR PIETY: -100 in a month he fires: the Sunni bombarder 150 -> 50 though he fires twice; the
    # Shia defender whose guns answered 150 -> 50; a Catholic keeps his 150.
    ctx = ready_to_bombard({"pikeman": 100, "cannon": 10}, {"cannon": 5}, religion="sunni")
    giuliano(ctx)["religion"] = "shia"
    giuliano(ctx)["skills"] = {"gunnery": 100}
    assert siege.bombard(ctx, andrea(ctx), {"qty": 4}).ok
    assert siege.bombard(ctx, andrea(ctx), {"qty": 4}).ok
    assert andrea(ctx)["piety"] == 50 and giuliano(ctx)["piety"] == 50
    catholic = person("0104", "MEDICI", True, {})
    assert piety.gunfire(ctx, catholic) == 0 and catholic["piety"] == 150


# ---- KC: crop destruction ---------------------------------------------------------------------------------------

def grain_pisa(**more: Any) -> dict[str, Any]:
    # BQ .05 x 10,000 = 500 grain a year; 100 left (20%, depleted): September would add 400.
    return pisa(supplied={"grain": {"qty": 100, "price": 2, "bq": 0.05},
                          "wool": {"qty": 10, "price": 12, "bq": 0.01}}, **more)


def test_troops_not_crew_destroy_one_grain_each_in_august() -> None:
    # 200 pikemen + 100 archers + 50 crew ordered KC500: the 300 troops destroy 300 grain; crew may not.
    ctx = world({"pikeman": 200, "archer": 100, "crew": 50}, {}, month=8, location=grain_pisa())
    out = siege.crops(ctx, andrea(ctx), {"qty": 500})
    assert out.ok and "300 troops free of the 500 ordered" in out.text
    assert loc(ctx)["crops_destroyed"] == {"year": 1493, "grain": 300}
    assert ctx.scratch["war.crops"] == {"0201": 300}
    assert limits.pinned(ctx, "0201")
    assert not siege.crops(ctx, andrea(ctx), {"qty": 1}).ok  # no troops left free


def test_crop_troops_are_held_back_by_type_in_proportion() -> None:
    # KC150 of 200 pikemen and 100 archers: 150 shared 2:1 = 100 pikemen and 50 archers held back.
    ctx = world({"pikeman": 200, "archer": 100}, {}, month=8, location=grain_pisa())
    assert siege.crops(ctx, andrea(ctx), {"qty": 150}).ok
    assert siege.crop_troops(ctx, andrea(ctx)) == {"pikeman": 100, "archer": 50}


def test_crops_only_in_august_from_outside_where_grain_grows() -> None:
    ctx = world({"pikeman": 200}, {}, month=7, location=grain_pisa())
    assert not siege.crops(ctx, andrea(ctx), {"qty": 100}).ok
    ctx = world({"pikeman": 200}, {"pikeman": 100}, month=8, location=grain_pisa())
    assert not siege.crops(ctx, giuliano(ctx), {"qty": 100}).ok  # he began the turn inside
    ctx = world({"pikeman": 200}, {}, month=8)
    assert not siege.crops(ctx, andrea(ctx), {"qty": 100}).ok  # Pisa supplies no grain here
    assert not ctx.state["locations"]["Pisa"].get("crops_destroyed")


# ---- the September rule -----------------------------------------------------------------------------------------

def september(ctx: Ctx, location: dict[str, Any]) -> None:
    assert ctx.month == 9
    markets.september_supply(ctx, location)


def test_crop_destruction_comes_off_septembers_grain_never_below_zero() -> None:
    # 300 destroyed in August: 400 - 300 = 100 added, grain 100 -> 200. Wool is untouched: 10 -> 100 (BQ .01).
    ctx = world({}, {}, month=9, location=grain_pisa(crops_destroyed={"year": 1493, "grain": 300}))
    september(ctx, loc(ctx))
    assert loc(ctx)["supplied"]["grain"]["qty"] == 200 and loc(ctx)["supplied"]["wool"]["qty"] == 100
    # 450 destroyed: 400 - 450 < 0 -> nothing added (never below zero): grain stays 100.
    ctx = world({}, {}, month=9, location=grain_pisa(crops_destroyed={"year": 1493, "grain": 450}))
    september(ctx, loc(ctx))
    assert loc(ctx)["supplied"]["grain"]["qty"] == 100
    # Last year's destruction counts for nothing this year: the full 400 added, 100 -> 500.
    ctx = world({}, {}, month=9, location=grain_pisa(crops_destroyed={"year": 1492, "grain": 450}))
    september(ctx, loc(ctx))
    assert loc(ctx)["supplied"]["grain"]["qty"] == 500


def test_a_location_besieged_june_july_august_gets_nothing_added() -> None:
    # Ordered in May (turn 1), in effect from June (turn 2); June, July, August each a month of successful
    # siege (1%, 2%, 3%); September (turn 5): zero added to every item (RW-OQ-31). The completion's price step still
    # follows the depletion: grain 2 -> 3 (the greater of 10% or one ducat), wool 12 -> 13; loyalty +10 each.
    ctx = world({"pikeman": 1000}, {"pikeman": 100}, month=5, location=grain_pisa(loyalty=300))
    ctx = besieged(ctx)
    for _ in range(3):
        siege.siege_attrition(ctx)
        ctx = next_turn(ctx)
        siege.sieges_take_effect(ctx)
    assert ctx.month == 9 and loc(ctx)["siege"]["months"] == 3
    markets.quota_completions(ctx)
    supplied = loc(ctx)["supplied"]
    assert supplied["grain"]["qty"] == 100 and supplied["wool"]["qty"] == 10
    assert supplied["grain"]["price"] == 3 and supplied["wool"]["price"] == 13
    assert loc(ctx)["loyalty"] == 320
    assert any("receives no new supply" in n for n in ctx.news)


def test_a_summer_siege_broken_in_july_lets_the_supply_in() -> None:
    # A ship enters in July: that month is no month of successful siege, the count restarts (August: 1): the
    # September rule needs all three. Grain 100 -> 500, wool 10 -> 100.
    ctx = besieged(world({"pikeman": 1000}, {"pikeman": 100}, month=5, location=grain_pisa()))
    siege.siege_attrition(ctx)  # June
    ctx = next_turn(ctx)
    siege.note_entry(ctx, "Pisa", "water")
    siege.siege_attrition(ctx)  # July
    ctx = next_turn(ctx)
    siege.siege_attrition(ctx)  # August
    ctx = next_turn(ctx)
    markets.quota_completions(ctx)
    assert loc(ctx)["supplied"]["grain"]["qty"] == 500 and loc(ctx)["supplied"]["wool"]["qty"] == 100


# ---- KR: razing -------------------------------------------------------------------------------------------------

def razer(far: int, fas: int, assets: dict[str, int], **more: Any) -> Ctx:
    """Andrea, de facto controller of Pisa (the dfc office), inside its walls."""
    ctx = world(assets, {}, location=pisa(far=far, fas=fas, offices={"dfc": "0201"}, **more))
    andrea(ctx)["inside"] = True
    return ctx


def test_razing_takes_a_tenth_of_a_point_a_man_far_before_fas() -> None:
    # 45 slaves = 4.5 points: FAR 3 goes first (3 -> 0), the 1.5 left comes off FAS rounded up: 80 -> 78.
    ctx = razer(3, 80, {"slave": 45})
    out = siege.raze(ctx, andrea(ctx), {"item": "slave", "qty": 45})
    assert out.ok, out.text
    assert (loc(ctx)["far"], loc(ctx)["fas"]) == (0, 78)
    assert ctx.scratch["war.raze"] == {"0201": {"slave": 45}} and limits.pinned(ctx, "0201")
    # 45 crew against FAR 10: 4.5 points all on FAR, a loss rounded up: 10 -> 5; FAS untouched.
    ctx = razer(10, 80, {"crew": 45})
    assert siege.raze(ctx, andrea(ctx), {"item": "crew", "qty": 45}).ok
    assert (loc(ctx)["far"], loc(ctx)["fas"]) == (5, 80)


def test_razing_never_takes_fas_below_one() -> None:
    # 100 slaves = 10 points against FAR 0, FAS 3: FAS 1, the rest wasted; then nothing is left to raze.
    ctx = razer(0, 3, {"slave": 200})
    assert siege.raze(ctx, andrea(ctx), {"item": "slave", "qty": 100}).ok
    assert loc(ctx)["fas"] == 1
    out = siege.raze(ctx, andrea(ctx), {"item": "slave", "qty": 100})
    assert not out.ok and "nothing is left" in out.text


def test_a_months_razing_is_rounded_once_not_order_by_order() -> None:
    # Ten orders of one slave: 10 x .1 = 1 point in all: FAR 10 -> 9 (each order alone would have rounded .1 up).
    ctx = razer(10, 80, {"slave": 10})
    for _ in range(10):
        assert siege.raze(ctx, andrea(ctx), {"item": "slave", "qty": 1}).ok
    assert (loc(ctx)["far"], loc(ctx)["fas"]) == (9, 80)
    assert not siege.raze(ctx, andrea(ctx), {"item": "slave", "qty": 1}).ok  # all ten are busy


def test_only_the_de_facto_controller_razes_the_walls() -> None:
    ctx = world({"slave": 100}, {}, location=pisa(offices={"tenant": "0103"}))
    out = siege.raze(ctx, andrea(ctx), {"item": "slave", "qty": 100})
    assert not out.ok and "de facto controller" in out.text
    out = siege.raze(ctx, giuliano(ctx), {"item": "pikeman", "qty": 1})  # the tenant, but he has no pikemen
    assert not out.ok
    assert not siege.raze(ctx, andrea(ctx), {"item": "ducats", "qty": 100}).ok


def test_a_tower_owner_razes_his_tower() -> None:
    # The MEDICI tower, FAS 20 (towers have no FAR): Giuliano's 25 slaves = 2.5 points -> 3: FAS 17.
    ctx = world({}, {"slave": 25}, location=pisa(towers=[{"name": "Torre", "fas": 20, "owner": "MEDICI"}]))
    assert siege.raze(ctx, giuliano(ctx), {"item": "slave", "qty": 25, "tower": 1}).ok
    assert loc(ctx)["towers"][0]["fas"] == 17 and loc(ctx)["fas"] == 80
    assert not siege.raze(ctx, andrea(ctx), {"item": "slave", "qty": 1, "tower": 1}).ok  # not his family's
