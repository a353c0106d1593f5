"""Appendix A: cannonmaking, gunsmithing, armory, bowmaking, alchemy, shipbuilding; numbers worked by hand."""

from __future__ import annotations

from typing import Any

from maild_rules.renaissance import crafts
from maild_rules.renaissance.context import Ctx
from tests.renaissance_fixtures import month_ctx


def persona(skills: dict[str, int], assets: dict[str, int], where: str = "Venice") -> dict[str, Any]:
    return {"id": "0101", "name": "Maker", "family": "F01", "religion": "catholic", "alive": True,
            "popularity": 100, "skills": dict(skills), "assets": dict(assets), "location": where, "inside": True}


def make_ctx(p: dict[str, Any], month: int = 1) -> Ctx:
    return month_ctx([p], [{"name": "Venice", "harbor": 6}, {"name": "Milan", "harbor": None}], month)


def make(p: dict[str, Any], item: str, qty: int, month: int = 1, ctx: Ctx | None = None) -> bool:
    return crafts.fabricate(ctx or make_ctx(p, month), p, {"item": item, "qty": qty}).ok


# --- cannons and falconets ----------------------------------------------------------------------------------

def test_cannon_limits_by_rating() -> None:
    # Over 499: one; over 799: two; 499 none.
    for rating, made in ((499, 0), (500, 1), (799, 1), (800, 2), (999, 2)):
        p = persona({"cannonmaking": rating}, {"ducats": 10_000, "iron": 200})
        make(p, "cannon", 5)
        assert p["assets"].get("cannon", 0) == made, rating
        # 1,000 ducats and 40 iron each.
        assert p["assets"]["ducats"] == 10_000 - 1_000 * made
        assert p["assets"]["iron"] == 200 - 40 * made


def test_cannon_metal_order_iron_then_brass_then_bronze() -> None:
    p = persona({"cannonmaking": 900}, {"ducats": 10_000, "brass": 100, "bronze": 100})
    assert make(p, "cannon", 2)
    assert (p["assets"]["cannon"], p["assets"]["brass"], p["assets"]["bronze"]) == (2, 20, 100)
    p = persona({"cannonmaking": 900}, {"ducats": 10_000, "bronze": 80})
    assert make(p, "cannon", 2)
    assert (p["assets"]["cannon"], p["assets"]["bronze"]) == (2, 0)
    # 20 iron: he has iron, so he may not use his brass, and 20 iron is too little (S33).
    p = persona({"cannonmaking": 900}, {"ducats": 10_000, "iron": 20, "brass": 100})
    assert not make(p, "cannon", 1)
    assert p["assets"] == {"ducats": 10_000, "iron": 20, "brass": 100}


def test_falconet_limits() -> None:
    # Over 299: 1; over 399: 2; +1 per further 100: 500 -> 3, 900 -> 7, 999 -> 7.
    for rating, made in ((299, 0), (300, 1), (399, 1), (400, 2), (500, 3), (899, 6), (900, 7), (999, 7)):
        assert crafts.falconet_limit(rating) == made, rating
    p = persona({"cannonmaking": 650}, {"ducats": 100_000, "iron": 100})
    assert make(p, "falconet", 10)
    # 650 -> 4 falconets: 2,000 ducats, 8 iron.
    assert (p["assets"]["falconet"], p["assets"]["ducats"], p["assets"]["iron"]) == (4, 98_000, 92)


def test_no_falconets_in_a_turn_with_cannons() -> None:
    p = persona({"cannonmaking": 900}, {"ducats": 100_000, "iron": 200})
    ctx = make_ctx(p)
    assert make(p, "cannon", 1, ctx=ctx)
    assert not make(p, "falconet", 1, ctx=ctx)
    assert "falconet" not in p["assets"]


def test_cannons_limited_by_ducats() -> None:
    p = persona({"cannonmaking": 900}, {"ducats": 1_500, "iron": 200})
    assert make(p, "cannon", 2)
    assert (p["assets"]["cannon"], p["assets"]["ducats"], p["assets"]["iron"]) == (1, 500, 160)


# --- gunsmithing, armory, bowmaking -------------------------------------------------------------------------

def test_arquebuses_one_per_three_points_five_ducats_and_a_tenth_of_iron() -> None:
    # Gunsmithing 47 -> 15 arquebuses; 75 ducats; 1.5 iron -> 2 iron expended, the half lost (S32).
    p = persona({"gunsmithing": 47}, {"ducats": 1_000, "iron": 5})
    assert make(p, "arquebus", 100)
    assert (p["assets"]["arquebus"], p["assets"]["ducats"], p["assets"]["iron"]) == (15, 925, 3)


def test_arquebuses_limited_by_iron_ten_per_iron() -> None:
    p = persona({"gunsmithing": 300}, {"ducats": 10_000, "iron": 3})
    assert make(p, "arquebus", 100)  # skill allows 100, 3 iron only 30
    assert (p["assets"]["arquebus"], p["assets"]["ducats"], p["assets"]["iron"]) == (30, 9_850, 0)


def test_small_arms_pikes_armor_one_armory_order_a_turn() -> None:
    # Small arms: one per point: 123; 123 ducats; 12.3 iron -> 13.
    p = persona({"armory": 123}, {"ducats": 10_000, "iron": 100})
    ctx = make_ctx(p)
    assert make(p, "smallarm", 500, ctx=ctx)
    assert (p["assets"]["small arms"], p["assets"]["ducats"], p["assets"]["iron"]) == (123, 9_877, 87)
    assert not make(p, "pike", 10, ctx=ctx)
    assert not make(p, "armor", 1, ctx=ctx)
    # Pikes: one per two points: 61; 122 ducats; 6.1 iron -> 7.
    p = persona({"armory": 123}, {"ducats": 10_000, "iron": 100})
    assert make(p, "pikes", 500)
    assert (p["assets"]["pike"], p["assets"]["ducats"], p["assets"]["iron"]) == (61, 9_878, 93)
    # Armor: one per twenty points: 6; 120 ducats; 6 iron.
    p = persona({"armory": 123}, {"ducats": 10_000, "iron": 100})
    assert make(p, "armor", 500)
    assert (p["assets"]["armor"], p["assets"]["ducats"], p["assets"]["iron"]) == (6, 9_880, 94)


def test_bows_one_per_two_points_two_ducats_each() -> None:
    p = persona({"bowmaking": 41}, {"ducats": 1_000})
    assert make(p, "bow", 50)
    assert (p["assets"]["bow"], p["assets"]["ducats"]) == (20, 960)
    poor = persona({"bowmaking": 41}, {"ducats": 1})
    assert not make(poor, "bow", 5)


# --- alchemy ------------------------------------------------------------------------------------------------

def test_alchemy_four_per_unit_at_most_four_per_point() -> None:
    # Alchemy 5: at most 20 verdigris; 20 from 5 copper.
    p = persona({"alchemy": 5}, {"copper": 100})
    ctx = make_ctx(p)
    assert make(p, "verdigris", 100, ctx=ctx)
    assert (p["assets"]["verdigris"], p["assets"]["copper"]) == (20, 95)
    assert not make(p, "vermilion", 4, ctx=ctx)  # not both in one turn
    # 10 vermilion asked: 8 made from 2 mercury (S34); 3 mercury allow no more than 12.
    p = persona({"alchemy": 50}, {"mercury": 3})
    assert make(p, "vermilion", 10)
    assert (p["assets"]["vermilion"], p["assets"]["mercury"]) == (8, 1)
    p = persona({"alchemy": 50}, {"mercury": 3})
    assert make(p, "vermilion", 400)
    assert (p["assets"]["vermilion"], p["assets"]["mercury"]) == (12, 0)
    assert not make(persona({"alchemy": 50}, {}), "verdigris", 8)


# --- ships --------------------------------------------------------------------------------------------------

def test_ships_only_in_may_in_a_port() -> None:
    rich = {"ducats": 1_000_000, "timber": 100_000, "sail": 100}
    p = persona({"barquebuilding": 999}, rich)
    assert not make(p, "barque", 1, month=4)
    q = persona({"barquebuilding": 999}, rich, where="Milan")
    assert not make(q, "barque", 1, month=5)
    assert "barque" not in p["assets"] and "barque" not in q["assets"]


def test_ship_limits_and_costs() -> None:
    rich = {"ducats": 1_000_000, "timber": 100_000, "sail": 100}
    cases = [  # (item, rating, made, ducats each, timber each, sails each)
        ("galley", 799, 0, 50_000, 4_000, 0), ("galley", 800, 1, 50_000, 4_000, 0),
        ("galliot", 399, 0, 3_000, 400, 0), ("galliot", 400, 1, 3_000, 400, 0), ("galliot", 800, 2, 3_000, 400, 0),
        ("roundship", 800, 1, 10_000, 1_200, 3), ("roundship", 799, 0, 10_000, 1_200, 3),
        ("caravel", 400, 1, 2_000, 400, 3), ("caravel", 800, 2, 2_000, 400, 3),
        ("barque", 299, 0, 1_000, 200, 1), ("barque", 300, 1, 1_000, 200, 1), ("barque", 600, 2, 1_000, 200, 1),
        ("barque", 900, 3, 1_000, 200, 1),
    ]
    for item, rating, made, ducats, timber, sails in cases:
        p = persona({f"{item}building": rating}, rich)
        make(p, item, 3, month=5)
        a = p["assets"]
        assert a.get(item, 0) == made, (item, rating)
        assert (a["ducats"], a["timber"], a["sail"]) == (1_000_000 - made * ducats, 100_000 - made * timber,
                                                         100 - made * sails), (item, rating)


def test_two_caravels_but_sails_for_one() -> None:
    p = persona({"caravelbuilding": 900}, {"ducats": 100_000, "timber": 1_000, "sail": 5})
    assert make(p, "caravel", 2, month=5)
    assert (p["assets"]["caravel"], p["assets"]["sail"], p["assets"]["timber"]) == (1, 2, 600)


def test_nonsense_orders_fail() -> None:
    p = persona({"bowmaking": 100}, {"ducats": 1_000})
    assert not make(p, "grain", 5)
    assert not make(p, "bow", 0)
    assert not make(p, "cannon", 1)
    assert p["assets"] == {"ducats": 1_000}
