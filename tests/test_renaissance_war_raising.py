"""Raising troops and raising morale (war/raising.py), mercenaries and troop transfers (commerce.py): every figure
worked by hand from the rules' words (THE SWORD GARRISONS, FEUDAL LEVIES, PROFESSIONAL SOLDIERS, MERCENARIES,
MORALE, TRANSFERS). Readings: docs/renaissance/war.md, section "raising"; docs/renaissance/commerce.md, C3, C15,
C16."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance import upkeep
from maild_rules.renaissance.commerce import buy, transfer
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.war import limits, morale, raising
from tests.renaissance_fixtures import month_ctx, small_state


def persona(pid: str = "0101", location: str | None = "Pisa", **extra: Any) -> dict[str, Any]:
    p: dict[str, Any] = {"id": pid, "name": f"P{pid}", "family": "MEDICI" if pid < "0200" else "DORIA",
                         "religion": "catholic", "alive": True, "popularity": 400, "piety": 0, "morale": 0,
                         "skills": {}, "guild": None, "assets": {"ducats": 10000}, "location": location,
                         "at_sea": None, "inside": True, "with": None}
    p.update(extra)
    return p


def town(name: str = "Pisa", population: int = 10000, loyalty: int = 300, **extra: Any) -> dict[str, Any]:
    loc: dict[str, Any] = {"name": name, "population": population, "wealth": 150, "loyalty": loyalty,
                           "garrison": 0, "offices": {}, "ingress": [], "ingress_denied": [], "egress_denied": [],
                           "supplied": {}, "demanded": {}, "tariffs": {"import": 0, "export": 0}}
    loc.update(extra)
    return loc


def ctx_of(personae: list[dict[str, Any]], locations: list[dict[str, Any]], turn: int = 5, month: int = 5) -> Ctx:
    return month_ctx(personae, locations, month=month, turn=turn)


# ---- THE SWORD GARRISONS --------------------------------------------------------------------------------------

def test_garrison_cut_to_half_a_percent_a_month_rw_oq_09() -> None:
    tenant = persona(assets={"ducats": 1000, "small arms": 500})
    pisa = town(offices={"tenant": "0101"})
    ctx = ctx_of([tenant], [pisa])
    out = raising.recruit_garrison(ctx, tenant, {"qty": 100})
    assert out.ok, out.text
    # 0.5% of 10,000 = 50 a month: the order for 100 is cut to 50 (RW-OQ-09), one small arms each.
    assert pisa["garrison"] == 50
    assert tenant["assets"] == {"ducats": 1000, "small arms": 450}  # no ducat payment
    assert tenant["morale"] == 0  # garrison troops are not his troops: no morale of their own to join
    assert pisa["population"] == 10000  # RW-OQ-10
    # A second order the same month: the 50 of this month are used up.
    again = raising.recruit_garrison(ctx, tenant, {"qty": 10})
    assert not again.ok and "0.5%" in again.text
    assert pisa["garrison"] == 50 and tenant["assets"]["small arms"] == 450


def test_garrison_cut_to_five_percent_of_the_population() -> None:
    tenant = persona(assets={"small arms": 100})
    pisa = town(garrison=480, offices={"tenant": "0101"})
    ctx = ctx_of([tenant], [pisa])
    out = raising.recruit_garrison(ctx, tenant, {"qty": 50})
    assert out.ok, out.text
    # 5% of 10,000 = 500; 480 held leaves room for 20 (less than the month's 50).
    assert pisa["garrison"] == 500 and tenant["assets"]["small arms"] == 80
    full = raising.recruit_garrison(ctx, tenant, {"qty": 1})
    assert not full.ok and "5%" in full.text


def test_garrison_needs_loyalty_200() -> None:
    tenant = persona(assets={"small arms": 100})
    pisa = town(loyalty=199, offices={"tenant": "0101"})
    ctx = ctx_of([tenant], [pisa])
    # LOYALTY: "When it is below 200, garrison troops may not be recruited."
    assert not raising.recruit_garrison(ctx, tenant, {"qty": 10}).ok
    assert pisa["garrison"] == 0
    pisa["loyalty"] = 200
    assert raising.recruit_garrison(ctx, tenant, {"qty": 10}).ok
    assert pisa["garrison"] == 10


def test_garrison_needs_one_small_arms_each_or_fails_whole() -> None:
    tenant = persona(assets={"small arms": 30})
    pisa = town(offices={"tenant": "0101"})
    ctx = ctx_of([tenant], [pisa])
    # 50 allowed this month, 30 small arms: the order fails whole (his means are not a ceiling).
    out = raising.recruit_garrison(ctx, tenant, {"qty": 50})
    assert not out.ok and "small arms" in out.text
    assert pisa["garrison"] == 0 and tenant["assets"]["small arms"] == 30
    assert raising.recruit_garrison(ctx, tenant, {"qty": 30}).ok
    assert pisa["garrison"] == 30 and "small arms" not in tenant["assets"]


def test_garrison_only_by_the_tenant_present_at_the_start_of_the_turn() -> None:
    tenant = persona(assets={"small arms": 100}, inside=False)
    other = persona("0102", assets={"small arms": 100})
    pisa = town(offices={"tenant": "0101"})
    ctx = ctx_of([tenant, other], [pisa, town("Livorno", population=3000)])
    assert not raising.recruit_garrison(ctx, other, {"qty": 10}).ok  # not the tenant
    ctx.start_location["0101"] = "Livorno"  # he began the turn elsewhere
    assert not raising.recruit_garrison(ctx, tenant, {"qty": 10}).ok
    ctx.start_location["0101"] = "Pisa"  # present outside the walls is present
    assert raising.recruit_garrison(ctx, tenant, {"qty": 10}).ok
    assert pisa["garrison"] == 10


def test_no_garrison_while_de_facto_control_is_separate() -> None:
    tenant = persona(assets={"small arms": 100})
    pisa = town(offices={"tenant": "0101", "dfc": "0201"})
    ctx = ctx_of([tenant], [pisa])
    # DE FACTO CONTROL: "A location whose de facto control is separate from its tenancy may not have garrison
    # troops."
    out = raising.recruit_garrison(ctx, tenant, {"qty": 10})
    assert not out.ok and "de facto control" in out.text
    pisa["offices"]["dfc"] = "0101"  # recorded, but it rests with the tenant
    assert raising.recruit_garrison(ctx, tenant, {"qty": 10}).ok


# ---- FEUDAL LEVIES ---------------------------------------------------------------------------------------

def test_levy_of_one_percent_and_its_costs() -> None:
    lord = persona(location="Florence", popularity=420, morale=500, assets={"small arms": 1000, "pikeman": 300})
    florence = town("Florence", population=70000, loyalty=520, offices={"feudatory": "0101"})
    ctx = ctx_of([lord], [florence])
    out = raising.levy(ctx, lord, {})
    assert out.ok, out.text
    # 1% of 70,000 = 700 auxiliaries, 700 small arms; loyalty 520 - 10 = 510; popularity 420 - 10 = 410.
    assert lord["assets"] == {"small arms": 300, "pikeman": 300, "auxiliary": 700}
    assert florence["loyalty"] == 510 and lord["popularity"] == 410
    # Morale: (300 x 500 + 700 x 200) / 1000 = (150,000 + 140,000) / 1000 = 290.
    assert lord["morale"] == 290
    assert florence["population"] == 70000  # RW-OQ-10
    # The newsletter tells of it: a town's men are under arms.
    assert ctx.news == [f"{lord['name']} (0101) raised a feudal levy of 700 men at Florence."]
    # "in any turn which he spends entirely at that location": he may not move this month.
    assert limits.pinned(ctx, "0101") is not None
    # One levy a location a month.
    assert not raising.levy(ctx, lord, {}).ok


def test_levy_loses_the_conscripts_he_cannot_arm() -> None:
    lord = persona(location="Florence", popularity=420, assets={"small arms": 250})
    florence = town("Florence", population=70000, loyalty=520, offices={"feudatory": "0101"})
    ctx = ctx_of([lord], [florence])
    out = raising.levy(ctx, lord, {})
    assert out.ok, out.text
    # 700 conscripted, 250 armed, 450 lost; the levy's costs stand: loyalty 510, popularity 410; morale 200 (no
    # men before).
    assert lord["assets"] == {"auxiliary": 250}
    assert florence["loyalty"] == 510 and lord["popularity"] == 410 and lord["morale"] == 200
    assert "450" in out.text


def test_levy_rounds_one_percent_down() -> None:
    lord = persona(popularity=100, assets={"small arms": 500})
    pisa = town(population=9999, offices={"feudatory": "0101"})
    ctx = ctx_of([lord], [pisa])
    assert raising.levy(ctx, lord, {}).ok
    assert lord["assets"]["auxiliary"] == 99  # 1% of 9,999 = 99.99 -> 99 (men raised: a gain)


def test_levy_needs_loyalty_300() -> None:
    lord = persona(assets={"small arms": 500})
    pisa = town(loyalty=299, offices={"feudatory": "0101"})
    ctx = ctx_of([lord], [pisa])
    # LOYALTY: "When it is below 300, feudal levies may not be raised."
    assert not raising.levy(ctx, lord, {}).ok
    assert pisa["loyalty"] == 299 and lord["popularity"] == 400 and "auxiliary" not in lord["assets"]
    pisa["loyalty"] = 300
    assert raising.levy(ctx, lord, {}).ok
    assert pisa["loyalty"] == 290 and lord["assets"]["auxiliary"] == 100  # 1% of 10,000


def test_levy_may_not_drive_popularity_below_zero() -> None:
    lord = persona(popularity=9, assets={"small arms": 500})
    pisa = town(offices={"feudatory": "0101"})
    ctx = ctx_of([lord], [pisa])
    # POPULARITY: "A persona may not commit an action that would drive his popularity rating below zero."
    assert not raising.levy(ctx, lord, {}).ok
    assert lord["popularity"] == 9 and pisa["loyalty"] == 300 and lord["assets"] == {"small arms": 500}
    lord["popularity"] = 10
    assert raising.levy(ctx, lord, {}).ok
    assert lord["popularity"] == 0


def test_levy_only_by_the_feudatory_who_began_the_turn_there() -> None:
    lord = persona(assets={"small arms": 500})
    stranger = persona("0102", assets={"small arms": 500})
    pisa = town(offices={"feudatory": "0101", "tenant": "0102"})
    ctx = ctx_of([lord, stranger], [pisa, town("Livorno", population=3000)])
    assert not raising.levy(ctx, stranger, {}).ok  # the tenant is not the feudatory
    ctx.start_location["0101"] = "Livorno"
    assert not raising.levy(ctx, lord, {}).ok
    assert limits.pinned(ctx, "0101") is None


# ---- PROFESSIONAL SOLDIERS -------------------------------------------------------------------------------

def soldiers_ctx(assets: dict[str, int], population: int = 10000, **extra: Any) -> tuple[Ctx, dict[str, Any]]:
    p = persona(assets={"ducats": 100000, "small arms": 1000, "arquebus": 1000, "pike": 1000, "bow": 1000,
                        "armor": 1000, **assets}, **extra)
    ctx = ctx_of([p], [town(population=population)])
    raising.recruit_pools(ctx)
    return ctx, p


def test_twenty_percent_of_the_holding() -> None:
    ctx, p = soldiers_ctx({"pikeman": 12})
    out = raising.recruit_soldiers(ctx, p, {"item": "pikeman", "qty": 5})
    assert out.ok, out.text
    # 20% of 12 = 2.4 -> 2: the order for 5 is cut to 2 (RW-OQ-09, 11).
    assert p["assets"]["pikeman"] == 14 and p["assets"]["pike"] == 998
    assert p["assets"]["ducats"] == 100000 - 2 * 15  # inside the walls: 15 a pikeman


def test_two_orders_share_the_twenty_percent_of_the_start_of_the_turn() -> None:
    ctx, p = soldiers_ctx({"archer": 50})
    # 20% of the 50 held at the start = 10 for the month (not 20% of 56 after the first order).
    assert raising.recruit_soldiers(ctx, p, {"item": "archer", "qty": 6}).ok
    assert raising.recruit_soldiers(ctx, p, {"item": "archer", "qty": 6}).ok
    assert p["assets"]["archer"] == 60  # 50 + 6 + 4
    third = raising.recruit_soldiers(ctx, p, {"item": "archer", "qty": 1})
    assert not third.ok and "20%" in third.text


def test_none_held_none_raised_and_one_to_four_give_one() -> None:
    ctx, p = soldiers_ctx({"arquebusier": 3})
    out = raising.recruit_soldiers(ctx, p, {"item": "heavycav", "qty": 1})
    assert not out.ok and "none" in out.text  # 20% of 0 is 0 (RW-OQ-11)
    # 3 arquebusiers: "may raise one additional troop of that type each turn", one order or two.
    assert raising.recruit_soldiers(ctx, p, {"item": "qqq", "qty": 3}).ok
    assert p["assets"]["arquebusier"] == 4
    assert not raising.recruit_soldiers(ctx, p, {"item": "arquebusier", "qty": 1}).ok


def test_troops_received_this_turn_do_not_raise_the_base() -> None:
    ctx, p = soldiers_ctx({})
    giver = persona("0102", morale=300, assets={"auxiliary": 100})
    ctx.state["personae"]["0102"] = giver
    assert transfer(ctx, giver, {"to": "0101", "item": "auxiliary", "qty": 100}).ok
    # He held no auxiliaries when the month's orders began: 20% of 0 (RW-OQ-11, "the holding at the start").
    assert not raising.recruit_soldiers(ctx, p, {"item": "auxiliary", "qty": 1}).ok


def test_light_cavalry_is_not_recruited() -> None:
    ctx, p = soldiers_ctx({"light cavalry": 100})
    out = raising.recruit_soldiers(ctx, p, {"item": "light cavalry", "qty": 5})
    assert not out.ok and "auxiliaries" in out.text
    assert not raising.recruit_soldiers(ctx, p, {"item": "crew", "qty": 5}).ok


def test_enlistment_bonus_tripled_outside_the_walls() -> None:
    ctx, p = soldiers_ctx({"pikeman": 50}, inside=False)
    assert raising.recruit_soldiers(ctx, p, {"item": "pikeman", "qty": 10}).ok
    # 10 pikemen x 15 ducats x 3 (outside the walls of the location where he recruits) = 450.
    assert p["assets"]["ducats"] == 100000 - 450
    ctx2, q = soldiers_ctx({"heavy cavalry": 50})
    assert raising.recruit_soldiers(ctx2, q, {"item": "heavy cavalry", "qty": 10}).ok
    assert q["assets"]["ducats"] == 100000 - 500  # 10 x 50, inside
    assert q["assets"]["armor"] == 990


def test_each_recruit_needs_his_weapon_and_his_bonus() -> None:
    ctx, p = soldiers_ctx({"archer": 50})
    p["assets"]["bow"] = 9
    out = raising.recruit_soldiers(ctx, p, {"item": "archer", "qty": 10})
    assert not out.ok and "bow" in out.text
    assert p["assets"]["archer"] == 50 and p["assets"]["ducats"] == 100000  # nothing spent
    p["assets"]["bow"] = 100
    p["assets"]["ducats"] = 199  # 10 archers x 20 = 200
    assert not raising.recruit_soldiers(ctx, p, {"item": "archer", "qty": 10}).ok
    assert p["assets"]["bow"] == 100
    # The failed orders used nothing of his 20%: 10 may still be raised.
    p["assets"]["ducats"] = 200
    assert raising.recruit_soldiers(ctx, p, {"item": "archer", "qty": 10}).ok
    assert p["assets"]["archer"] == 60 and p["assets"]["ducats"] == 0 and p["assets"]["bow"] == 90


def test_recruits_morale_is_his_popularity_when_below_200() -> None:
    ctx, p = soldiers_ctx({"archer": 100}, popularity=150, morale=400)
    assert raising.recruit_soldiers(ctx, p, {"item": "archer", "qty": 20}).ok
    # 20 recruits at morale 150 (his popularity): (100 x 400 + 20 x 150) / 120 = 43,000 / 120 = 358.3 -> 358.
    assert p["morale"] == 358
    ctx2, q = soldiers_ctx({"archer": 100}, popularity=300, morale=400)
    assert raising.recruit_soldiers(ctx2, q, {"item": "archer", "qty": 20}).ok
    # At 200: (100 x 400 + 20 x 200) / 120 = 44,000 / 120 = 366.7 -> 366.
    assert q["morale"] == 366


def test_the_recruit_pool_and_its_carryover() -> None:
    livorno = town("Livorno", population=3000, recruits={"turn": 4, "available": 1500})
    genoa = town("Genoa", population=60000, recruits={"turn": 4, "available": 400})
    pisa = town("Pisa", population=10000, recruits={"turn": 3, "available": 900})
    ctx = ctx_of([persona()], [livorno, genoa, pisa], turn=5)
    raising.recruit_pools(ctx)
    # 10% of 3,000 = 300, plus last month's 1,500 unhired capped at 1,000: 1,300.
    assert livorno["recruits"] == {"turn": 5, "available": 1300}
    # 10% of 60,000 = 6,000 + 400 = 6,400.
    assert genoa["recruits"] == {"turn": 5, "available": 6400}
    # No record of last month (turn 4): nothing carried over; 10% of 10,000 = 1,000.
    assert pisa["recruits"] == {"turn": 5, "available": 1000}
    raising.recruit_pools(ctx)  # computed once a month
    assert livorno["recruits"]["available"] == 1300


def test_hires_come_out_of_the_pool_and_the_rest_carries_over() -> None:
    p = persona(location="Livorno", assets={"ducats": 100000, "small arms": 10000, "auxiliary": 10000})
    livorno = town("Livorno", population=30, recruits={"turn": 4, "available": 0})
    ctx = ctx_of([p], [livorno], turn=5)
    raising.recruit_pools(ctx)
    assert livorno["recruits"]["available"] == 3  # 10% of 30
    out = raising.recruit_soldiers(ctx, p, {"item": "auxiliary", "qty": 5})
    assert out.ok, out.text
    assert p["assets"]["auxiliary"] == 10003  # cut to the 3 recruits left; 20% of 10,000 allowed more
    empty = raising.recruit_soldiers(ctx, p, {"item": "auxiliary", "qty": 1})
    assert not empty.ok and "hired" in empty.text
    # Next month: 3 fresh + 0 left unhired = 3.
    nxt = ctx_of([p], [livorno], turn=6)
    raising.recruit_pools(nxt)
    assert livorno["recruits"] == {"turn": 6, "available": 3}


def test_unhired_recruits_carry_over_into_the_next_month() -> None:
    p = persona(assets={"ducats": 100000, "small arms": 10000, "auxiliary": 10000})
    pisa = town()
    ctx = ctx_of([p], [pisa], turn=5)
    raising.recruit_pools(ctx)  # no record: 1,000
    assert raising.recruit_soldiers(ctx, p, {"item": "auxiliary", "qty": 700}).ok
    assert pisa["recruits"]["available"] == 300
    raising.recruit_pools(ctx_of([p], [pisa], turn=6))
    assert pisa["recruits"] == {"turn": 6, "available": 1300}  # 1,000 + 300 unhired


# ---- MORALE: bonuses, alcohol, bonus city -------------------------------------------------------------------

def test_bonus_points_are_the_ducats_a_man_rounded_down_rw_oq_13() -> None:
    p = persona(morale=400, assets={"ducats": 5000, "pikeman": 300, "crew": 200})
    ctx = ctx_of([p], [town()])
    out = raising.morale_bonus(ctx, p, {"ducats": 2600})
    assert out.ok, out.text
    # 300 pikemen + 200 crew = 500 men; 2,600 / 500 = 5.2 -> 5 points; the whole 2,600 is paid.
    assert p["morale"] == 405 and p["assets"]["ducats"] == 2400


def test_bonus_for_shia_and_sunni_troops_too_and_its_failures() -> None:
    p = persona(religion="sunni", morale=300, assets={"ducats": 1000, "archer": 100})
    ctx = ctx_of([p], [town()])
    assert raising.morale_bonus(ctx, p, {"ducats": 1000}).ok
    assert p["morale"] == 310  # 1,000 / 100 = 10: MORALE excludes them only from sermons and alcohol
    assert not raising.morale_bonus(ctx, p, {"ducats": 1}).ok  # no ducats left
    nobody = persona("0102", assets={"ducats": 1000})
    assert not raising.morale_bonus(ctx, nobody, {"ducats": 100}).ok  # no troops or crew
    assert nobody["assets"]["ducats"] == 1000


def test_alcohol_gives_twenty_over_the_men_per_unit() -> None:
    p = persona(morale=300, assets={"wine": 500, "archer": 150, "crew": 50})
    ctx = ctx_of([p], [town()])
    out = raising.alcohol(ctx, p, {"item": "wine", "qty": 100})
    assert out.ok, out.text
    # 150 archers + 50 crew = 200: 100 units x 20 / 200 = 10 points.
    assert p["morale"] == 310 and p["assets"]["wine"] == 400
    # A second order of the same type: 10 points left of the 20; 300 stated, 10 x 200 / 20 = 100 units needed.
    again = raising.alcohol(ctx, p, {"item": "wine", "qty": 300})
    assert again.ok, again.text
    assert p["morale"] == 320 and p["assets"]["wine"] == 300
    assert not raising.alcohol(ctx, p, {"item": "wine", "qty": 10}).ok  # the 20 points are reached


def test_alcohol_cut_to_the_twenty_point_limit() -> None:
    p = persona(morale=300, assets={"beer": 400, "pikeman": 200})
    ctx = ctx_of([p], [town()])
    assert raising.alcohol(ctx, p, {"item": "beer", "qty": 400}).ok
    # 400 x 20 / 200 = 40 points asked; 20 allowed, which take 20 x 200 / 20 = 200 units; 200 kept (RW-OQ-09).
    assert p["morale"] == 320 and p["assets"]["beer"] == 200


def test_alcohol_fractions_are_dropped() -> None:
    p = persona(morale=300, assets={"spirits": 10, "pikeman": 7})
    ctx = ctx_of([p], [town()])
    assert raising.alcohol(ctx, p, {"item": "spirits", "qty": 1}).ok
    assert p["morale"] == 302  # 1 x 20 / 7 = 2.86 -> 2


def test_one_type_of_alcohol_a_turn() -> None:
    p = persona(morale=300, assets={"wine": 10, "ale": 10, "pikeman": 200})
    ctx = ctx_of([p], [town()])
    assert raising.alcohol(ctx, p, {"item": "wine", "qty": 10}).ok  # 10 x 20 / 200 = 1
    out = raising.alcohol(ctx, p, {"item": "ale", "qty": 10})
    assert not out.ok and "one type" in out.text
    assert p["assets"]["ale"] == 10 and p["morale"] == 301


def test_no_alcohol_for_shia_or_sunni_troops() -> None:
    for religion in ("shia", "sunni"):
        p = persona(religion=religion, morale=300, assets={"wine": 100, "pikeman": 100})
        ctx = ctx_of([p], [town()])
        out = raising.alcohol(ctx, p, {"item": "wine", "qty": 100})
        assert not out.ok and "Shia or Sunni" in out.text
        assert p["morale"] == 300 and p["assets"]["wine"] == 100  # nothing expended


def test_alcohol_must_be_held_and_be_alcohol() -> None:
    p = persona(morale=300, assets={"wine": 5, "grain": 100, "pikeman": 100})
    ctx = ctx_of([p], [town()])
    assert not raising.alcohol(ctx, p, {"item": "grain", "qty": 10}).ok
    assert not raising.alcohol(ctx, p, {"item": "wine", "qty": 10}).ok  # holds only 5
    assert p["assets"]["wine"] == 5


def test_bonus_city_for_shia_and_sunni_personae() -> None:
    p = persona(religion="shia", location="Tunis")
    tunis = town("Tunis", offices={"sovereign": "0101"})
    ctx = ctx_of([p], [tunis, town()])
    out = raising.bonus_city(ctx, p, {"location": "Tunis"})
    assert out.ok, out.text
    assert p["bonus_city"] == "Tunis"
    assert morale.islamic_sovereign_bonus(ctx.state, p)  # sovereign of his bonus city: the doubled factor
    assert raising.bonus_city(ctx, p, {"location": "Pisa"}).ok  # changed in any set of orders
    assert p["bonus_city"] == "Pisa" and not morale.islamic_sovereign_bonus(ctx.state, p)
    assert not raising.bonus_city(ctx, p, {"location": "Atlantis"}).ok
    christian = persona("0102")
    assert not raising.bonus_city(ctx, christian, {"location": "Tunis"}).ok
    assert "bonus_city" not in christian


# ---- MERCENARIES and TRANSFERS (commerce.py) -----------------------------------------------------------------

def test_mercenary_pikemen_join_at_500_by_weighted_average() -> None:
    p = persona(morale=300, assets={"ducats": 10000, "archer": 100})
    pisa = town(supplied={"pikeman": {"qty": 500, "price": 40, "bq": 0.05},
                          "auxiliary": {"qty": 500, "price": 10, "bq": 0.05}})
    ctx = ctx_of([p], [pisa])
    out = buy(ctx, p, {"item": "pikeman", "qty": 100})
    assert out.ok, out.text
    # (100 archers x 300 + 100 pikemen x 500) / 200 = 80,000 / 200 = 400; 100 x 40 = 4,000 ducats.
    assert p["morale"] == 400 and p["assets"]["pikeman"] == 100 and p["assets"]["ducats"] == 6000
    assert pisa["supplied"]["pikeman"]["qty"] == 400
    assert buy(ctx, p, {"item": "auxiliary", "qty": 50}).ok
    # (200 x 400 + 50 x 200) / 250 = 90,000 / 250 = 360.
    assert p["morale"] == 360


def test_mercenaries_alone_have_their_starting_morale_and_merchants_buy_them_sold_out() -> None:
    p = persona(guild="master", assets={"ducats": 10000})
    pisa = town(supplied={"archer": {"qty": 0, "price": 30, "bq": 0.01}})
    ctx = ctx_of([p], [pisa])
    out = buy(ctx, p, {"item": "archer", "qty": 10, "surcharge": True})
    assert out.ok, out.text
    # Sold out: a master may buy 3% of BQ x population = 3% of 0.01 x 10,000 = 3, at twice 30 = 60 each (RW-OQ-12).
    assert p["assets"]["archer"] == 3 and p["assets"]["ducats"] == 10000 - 180
    assert p["morale"] == 200  # "All other mercenaries have an initial morale of 200."


def test_mercenaries_count_in_next_months_twenty_percent() -> None:
    p = persona(assets={"ducats": 10000, "pike": 100})
    pisa = town(supplied={"pikeman": {"qty": 500, "price": 40, "bq": 0.05}})
    ctx = ctx_of([p], [pisa], turn=5)
    raising.recruit_pools(ctx)
    assert buy(ctx, p, {"item": "pikeman", "qty": 50}).ok
    assert not raising.recruit_soldiers(ctx, p, {"item": "pikeman", "qty": 1}).ok  # held none at the start
    nxt = ctx_of([p], [pisa], turn=6)
    raising.recruit_pools(nxt)
    assert raising.recruit_soldiers(nxt, p, {"item": "pikeman", "qty": 20}).ok
    assert p["assets"]["pikeman"] == 60  # 20% of 50 = 10


def test_transferred_troops_carry_the_givers_morale() -> None:
    giver = persona(morale=600, assets={"pikeman": 100})
    taker = persona("0102", morale=200, assets={"archer": 300})
    ctx = ctx_of([giver, taker], [town()])
    assert transfer(ctx, giver, {"to": "0102", "item": "pikeman", "qty": 100}).ok
    # (300 x 200 + 100 x 600) / 400 = 120,000 / 400 = 300; the giver has no troops or crew left: morale 0.
    assert taker["morale"] == 300 and giver["morale"] == 0


def test_a_giver_with_men_left_keeps_his_morale_and_crew_carry_morale_too() -> None:
    giver = persona(morale=600, assets={"pikeman": 100, "crew": 100})
    taker = persona("0102", morale=0, assets={})
    ctx = ctx_of([giver, taker], [town()])
    assert transfer(ctx, giver, {"to": "0102", "item": "crew", "qty": 100}).ok
    assert taker["morale"] == 600 and giver["morale"] == 600  # nobody else's men: the giver's morale
    assert transfer(ctx, giver, {"to": "9999", "item": "pikeman", "qty": 100}).ok  # to the locals
    assert giver["morale"] == 0  # neither troops nor crew left


def test_under_siege_no_troops_or_food_pass_inside_from_the_turn_it_takes_effect() -> None:
    outside = persona(inside=False, assets={"archer": 50, "grain": 50, "ducats": 100})
    inside = persona("0102", inside=True)
    pisa = town(ingress=["MEDICI"])
    ctx = ctx_of([outside, inside], [pisa], turn=5)
    # Ordered in turn 5, in effect from turn 6 ("since" 6): not yet a siege in turn 5.
    pisa["siege"] = {"besieger": "0201", "ordered": 5, "since": None, "months": 0, "blocked": []}
    assert transfer(ctx, outside, {"to": "0102", "item": "archer", "qty": 10}).ok
    pisa["siege"]["since"] = 6
    assert transfer(ctx, outside, {"to": "0102", "item": "grain", "qty": 10}).ok
    pisa["siege"]["since"] = 5
    out = transfer(ctx, outside, {"to": "0102", "item": "archer", "qty": 10})
    assert not out.ok and "siege" in out.text
    assert not transfer(ctx, outside, {"to": "0102", "item": "grain", "qty": 10}).ok
    assert transfer(ctx, outside, {"to": "0102", "item": "ducats", "qty": 10}).ok  # other goods pass
    pisa["siege"] = None  # lifted
    assert transfer(ctx, outside, {"to": "0102", "item": "archer", "qty": 10}).ok
    assert inside["assets"] == {"ducats": 10010, "archer": 20, "grain": 10}


def test_men_lost_to_maintenance_leave_no_morale() -> None:
    p = persona(morale=350, assets={"ducats": 0, "crew": 1})
    ctx = ctx_of([p], [town()], month=5)
    upkeep.maintenance(ctx)
    # May: 1 crew unpaid, 20% of 1 = 0.2 -> 1 lost (rounded up); no troops or crew left: morale 0.
    assert p["assets"]["crew"] == 0 and p["morale"] == 0


def test_the_month_step_covers_every_location_of_the_small_world() -> None:
    state = small_state()
    ctx = Ctx(state=state, turn=1, rng=random.Random(0))
    raising.recruit_pools(ctx)
    # 10% of each population, nothing carried over in the first month: Florence 7,000, Pisa 1,000, Livorno 300,
    # Genoa 6,000.
    assert {n: loc["recruits"]["available"] for n, loc in state["locations"].items()} == \
        {"Florence": 7000, "Pisa": 1000, "Livorno": 300, "Genoa": 6000}


def test_mercenaries_are_maintained_as_their_type_garrisons_and_light_cavalry_not_rw_oq_44() -> None:
    p = persona(morale=500, assets={"ducats": 10000, "light cavalry": 30})
    pisa = town(garrison=500, supplied={"pikeman": {"qty": 100, "price": 40, "bq": 0.01}})
    ctx = ctx_of([p], [pisa], turn=4, month=4)
    assert buy(ctx, p, {"item": "pikeman", "qty": 10}).ok  # 400 ducats: 9,600 left
    p["assets"]["ducats"] = 100
    may = ctx_of([p], [pisa], turn=5, month=5)
    upkeep.maintenance(may)
    # May: 10 pikemen x 10 ducats = 100 paid; light cavalry are in no month's list; "They [garrison troops]
    # require no maintenance": the garrison of 500 is untouched.
    assert p["assets"] == {"ducats": 0, "light cavalry": 30, "pikeman": 10}
    assert pisa["garrison"] == 500
