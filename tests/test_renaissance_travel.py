"""TRAVEL and NAVIGATION: land, ferry, road and water movement, carrying capacity, abandonment, attrition (rounded
up), drowning, boarding and disembarking; INFORMATION ORDERS depth and co-ordinates.

Numbers are worked by hand from the rules text. Readings T1... are in docs/renaissance/travel.md. Places sit on a
meridian or the equator so distances are whole multiples of one degree = 3958.8 × π/180 = 69.094 miles.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from maild_rules.renaissance import travel
from maild_rules.renaissance.context import Ctx, Phase
from maild_rules.renaissance.information import ask_coordinates, ask_depth
from maild_rules.renaissance.registry import ACTIONS
from maild_rules.renaissance.succession import succession
from maild_rules.renaissance.travel import abandon, move, passengers_follow_their_ship, permit_boarding, stay_outside

MILE_PER_DEGREE = 3958.8 * math.pi / 180  # 69.094


def north(miles: float, lat0: float = 40.0) -> float:
    """The latitude `miles` north of lat0 on the same meridian."""
    return lat0 + miles / MILE_PER_DEGREE


def east(miles: float) -> float:
    """The longitude `miles` east of 0° on the equator."""
    return miles / MILE_PER_DEGREE


def persona(pid: str, location: str | None = "Alpha", family: str = "MEDICI", **extra: Any) -> dict[str, Any]:
    p: dict[str, Any] = {"id": pid, "name": f"P{pid}", "family": family, "alive": True, "popularity": 500,
                         "skills": {}, "assets": {}, "location": location, "at_sea": None, "inside": False,
                         "with": None, "boarding_permits": []}
    p.update(extra)
    return p


def loc(name: str, lat: float, lon: float, land: str = "Europe", **extra: Any) -> dict[str, Any]:
    return {"name": name, "lat": lat, "lon": lon, "landmass": land, "harbor": None, "ferries": [],
            "ingress_denied": [], "egress_denied": [], **extra}


LAND = [loc("Alpha", 40.0, 10.0)] + [loc(f"N{m}", north(m), 10.0) for m in (100, 150, 151, 200, 201, 300, 500, 800,
                                                                          1100, 1199, 1200)]


def make_ctx(*personae: dict[str, Any], locations: list[dict[str, Any]] | None = None, month: int = 7,
             turn: int = 1, roads: dict[str, int] | None = None) -> Ctx:
    state = {"calendar": {"year": 1493, "month": month},
             "families": {"MEDICI": {"personae": []}, "SFORZA": {"personae": []}},
             "personae": {p["id"]: p for p in personae},
             "locations": {x["name"]: x for x in (locations or LAND)},
             "roads": roads or {}}
    # Turn 1 is `month`; a later turn keeps the same month by starting the calendar earlier.
    state["calendar"]["month"] = (month - turn) % 12 + 1
    ctx = Ctx(state=state, turn=turn, rng=random.Random(3))
    assert ctx.month == month
    for p in personae:
        ctx.start_location[p["id"]] = p["location"]
        ctx.start_inside[p["id"]] = p["inside"]
    return ctx


def test_registered_phases() -> None:
    assert ACTIONS["move"].phase is Phase.MOVE
    assert ACTIONS["abandon"].phase is Phase.OTHER and ACTIONS["permit_boarding"].phase is Phase.OTHER
    assert ACTIONS["ask_depth"].phase is Phase.OTHER and ACTIONS["ask_coordinates"].phase is Phase.OTHER


# --- attrition formula (T1) -------------------------------------------------------------------------------------

def test_attrition_anchor_points() -> None:
    assert travel.attrition_rate(0, 300) == 0 and travel.attrition_rate(-50, 300) == 0
    # 10% × (2^(300/300) − 1) = 10% × 1 = 10%; at sea the anchor is 600.
    assert travel.attrition_rate(300, 300) == pytest.approx(0.10)
    assert travel.attrition_rate(600, 600) == pytest.approx(0.10)
    assert travel.attrition_rate(150, 300) < 0.10  # "no more than 10%" up to 300 beyond
    # Geometric beyond: 600 → 10% × 3 = 30%; 900 → 10% × 7 = 70%; 1200 → 10% × 15 = 150% → capped at 100%.
    assert travel.attrition_rate(600, 300) == pytest.approx(0.30)
    assert travel.attrition_rate(900, 300) == pytest.approx(0.70)
    assert travel.attrition_rate(1200, 300) == 1.0


def test_losses_round_up() -> None:
    assert travel.losses(15, 0.10) == 2   # 1.5 → 2 (ATTRITION: rounded up)
    assert travel.losses(30, 0.10) == 3   # exactly 3, not 4 from 3.0000000000000004
    assert travel.losses(1, 0.000001) == 1
    assert travel.losses(0, 0.5) == 0 and travel.losses(5, 0) == 0


# --- land ---------------------------------------------------------------------------------------------------

def test_land_free_200_miles() -> None:
    a = persona("0101", assets={"horse": 10})
    b = persona("0102", assets={"horse": 10})
    ctx = make_ctx(a, b)
    out = move(ctx, a, {"mode": "land", "to": "N200"})
    assert out.ok, out.text
    assert a["location"] == "N200" and a["assets"]["horse"] == 10 and a["inside"] is True
    # 201 miles: 1 beyond; 10% × (2^(1/300) − 1) = 0.023%; 10 × 0.00023 = 0.0023 → rounded up: 1 horse.
    assert move(ctx, b, {"mode": "land", "to": "N201"}).ok
    assert b["assets"]["horse"] == 9


def test_land_free_distance_is_popularity_below_200() -> None:
    a = persona("0101", popularity=150, assets={"horse": 10})
    b = persona("0102", popularity=150, assets={"horse": 10})
    ctx = make_ctx(a, b)
    assert move(ctx, a, {"mode": "land", "to": "N150"}).ok and a["assets"]["horse"] == 10
    assert move(ctx, b, {"mode": "land", "to": "N151"}).ok and b["assets"]["horse"] == 9


def test_land_attrition_ten_percent_at_300_beyond_rounded_up() -> None:
    # 500 miles − 200 free = 300 beyond → 10%.
    a = persona("0101", assets={"horse": 15, "pikeman": 30, "slave": 8, "cattle": 5, "sheep": 7, "crew": 10,
                                "grain": 10, "ducats": 1000})
    ctx = make_ctx(a)
    out = move(ctx, a, {"mode": "land", "to": "N500"})
    assert out.ok, out.text
    # horses 15 × 10% = 1.5 → 2; pikemen 3; slaves 0.8 → 1; cattle 0.5 → 1; sheep 0.7 → 1; crew 1.
    assert a["assets"] == {"horse": 13, "pikeman": 27, "slave": 7, "cattle": 4, "sheep": 6, "crew": 9,
                           "grain": 10, "ducats": 1000}
    # Cargo carried: 9 crew + 10 grain = 19 ≤ 13 × 2 + 7 / 4 = 27.75: none lost.
    assert "attrition 10.0%" in out.text


def test_land_attrition_grows_geometrically() -> None:
    # 800 miles: 600 beyond → 30% of 10 horses = 3. 1100: 900 beyond → 70% → 7.
    a = persona("0101", assets={"horse": 10})
    b = persona("0102", assets={"horse": 10})
    ctx = make_ctx(a, b)
    assert move(ctx, a, {"mode": "land", "to": "N800"}).ok and a["assets"]["horse"] == 7
    assert move(ctx, b, {"mode": "land", "to": "N1100"}).ok and b["assets"]["horse"] == 3


def test_exposure_at_1000_miles_beyond() -> None:
    # T6. 1199 miles: 999 beyond; 10% × (2^3.33 − 1) = 10% × 9.056 = 90.56%: 10 horses × 0.9056 = 9.06 → all 10
    # lost, but the persona lives. 1200 miles: 1000 beyond: he dies of exposure.
    a = persona("0101", assets={"horse": 10})
    b = persona("0102", assets={"horse": 10})
    ctx = make_ctx(a, b)
    assert move(ctx, a, {"mode": "land", "to": "N1199"}).ok
    assert a["alive"] is True and a["assets"]["horse"] == 0 and a["location"] == "N1199"
    assert move(ctx, b, {"mode": "land", "to": "N1200"}).ok
    assert b["alive"] is False and b["died"].startswith("died of exposure")


def test_cargo_lost_only_beyond_the_survivors_capacity() -> None:
    # 10 horses carry 20 grain exactly. 10% attrition: 9 horses carry 18 → 2 grain lost.
    a = persona("0101", assets={"horse": 10, "grain": 20})
    ctx = make_ctx(a)
    assert move(ctx, a, {"mode": "land", "to": "N500"}).ok
    assert a["assets"] == {"horse": 9, "grain": 18}


def test_over_capacity_ends_outside_the_starting_location() -> None:
    # 1 horse carries 2; 3 grain is too much.
    a = persona("0101", inside=True, assets={"horse": 1, "grain": 3})
    ctx = make_ctx(a)
    out = move(ctx, a, {"mode": "land", "to": "N100"})
    assert not out.ok and "outside Alpha" in out.text
    assert a["location"] == "Alpha" and a["inside"] is False and a["assets"] == {"horse": 1, "grain": 3}


def test_slaves_carry_a_quarter_and_troops_walk() -> None:
    # 8 slaves × 1/4 = 2 cargo: 2 grain goes, 3 does not. 100 pikemen need no carrying.
    ok = persona("0101", assets={"slave": 8, "grain": 2, "pikeman": 100, "ducats": 99999})
    heavy = persona("0102", assets={"slave": 8, "grain": 3})
    ctx = make_ctx(ok, heavy)
    assert move(ctx, ok, {"mode": "land", "to": "N100"}).ok
    assert not move(ctx, heavy, {"mode": "land", "to": "N100"}).ok and heavy["location"] == "Alpha"


def test_abandon_excess_cargo_before_moving() -> None:
    # 1 horse (2 cargo) with 3 grain + 2 timber = 5: random abandonment until 2 remain; the horse stays.
    a = persona("0101", assets={"horse": 1, "grain": 3, "timber": 2, "ducats": 50})
    ctx = make_ctx(a)
    assert abandon(ctx, a, {}).ok
    out = move(ctx, a, {"mode": "land", "to": "N100"})
    assert out.ok, out.text
    assert a["location"] == "N100" and "abandoned" in out.text
    assert a["assets"]["horse"] == 1 and a["assets"]["ducats"] == 50
    assert a["assets"]["grain"] + a["assets"]["timber"] == 2


def test_ships_are_cargo_on_land_and_abandon_loses_them() -> None:
    # A barque weighs 201 overland; 10 horses carry 20.
    a = persona("0101", assets={"horse": 10, "barque": 1})
    b = persona("0102", assets={"horse": 10, "barque": 1})
    ctx = make_ctx(a, b)
    assert not move(ctx, a, {"mode": "land", "to": "N100"}).ok and a["assets"]["barque"] == 1
    assert abandon(ctx, b, {}).ok
    assert move(ctx, b, {"mode": "land", "to": "N100"}).ok
    assert b["assets"] == {"horse": 10, "barque": 0} and b["location"] == "N100"


def test_inside_needs_no_carrying_capacity_but_ingress() -> None:
    a = persona("0101", assets={"barque": 3, "grain": 500})
    ctx = make_ctx(a)
    assert move(ctx, a, {"mode": "inside", "to": None}).ok and a["inside"] is True
    locs = [loc("Alpha", 40.0, 10.0, ingress_denied=["MEDICI"])]
    b = persona("0102")
    ctx = make_ctx(b, locations=locs)
    assert not move(ctx, b, {"mode": "inside", "to": None}).ok and b["inside"] is False


def test_arriving_without_ingress_stays_outside() -> None:
    locs = [*LAND, loc("Walled", north(50), 10.0, ingress_denied=["MEDICI"])]
    a = persona("0101")
    b = persona("0102", family="SFORZA")
    ctx = make_ctx(a, b, locations=locs)
    assert move(ctx, a, {"mode": "land", "to": "walled"}).ok and a["location"] == "Walled" and a["inside"] is False
    assert move(ctx, b, {"mode": "land", "to": "Walled"}).ok and b["inside"] is True


def test_the_ingress_list_decides_and_mo_keeps_him_outside_t19_t21() -> None:
    # INGRESS: families on the list "automatically enter that location's walls when moving to the location",
    # "Unless their movement orders expressly state otherwise" (MO).
    locs = [*LAND, loc("Walled", north(50), 10.0, ingress=["MEDICI"])]
    a, b, c = persona("0101"), persona("0102", family="SFORZA"), persona("0103")
    ctx = make_ctx(a, b, c, locations=locs)
    assert move(ctx, a, {"mode": "land", "to": "Walled"}).ok and a["inside"] is True
    assert move(ctx, b, {"mode": "land", "to": "Walled"}).ok and b["inside"] is False  # not on the list
    assert stay_outside(ctx, c, {}).ok
    assert move(ctx, c, {"mode": "land", "to": "Walled"}).ok and c["location"] == "Walled" and c["inside"] is False


def test_one_move_per_turn() -> None:
    a = persona("0101")
    ctx = make_ctx(a)
    assert move(ctx, a, {"mode": "land", "to": "N100"}).ok
    out = move(ctx, a, {"mode": "land", "to": "N200"})
    assert not out.ok and a["location"] == "N100"


def test_land_route_needs_one_landmass_and_a_known_destination() -> None:
    locs = [*LAND, loc("Isle", north(20), 10.0, land="Isle")]
    a = persona("0101")
    b = persona("0102")
    ctx = make_ctx(a, b, locations=locs)
    assert not move(ctx, a, {"mode": "land", "to": "Isle"}).ok and a["location"] == "Alpha"
    assert not move(ctx, b, {"mode": "land", "to": "Atlantis"}).ok


def test_denied_egress_keeps_him_inside() -> None:
    locs = [loc("Alpha", 40.0, 10.0, egress_denied=["MEDICI"]), *LAND[1:]]
    a = persona("0101", inside=True)
    ctx = make_ctx(a, locations=locs)
    assert not move(ctx, a, {"mode": "land", "to": "N100"}).ok and a["location"] == "Alpha"


def test_special_routing_sums_its_legs() -> None:
    # Popularity 150: free 150. Alpha → N100 direct: 100 miles, no loss. Via N150: 150 + 50 = 200 miles,
    # 50 beyond → 10% × (2^(50/300) − 1) = 1.22% of 10 horses = 0.12 → 1.
    a = persona("0101", popularity=150, assets={"horse": 10})
    b = persona("0102", popularity=150, assets={"horse": 10})
    ctx = make_ctx(a, b)
    assert move(ctx, a, {"mode": "land", "to": "N100"}).ok and a["assets"]["horse"] == 10
    out = move(ctx, b, {"mode": "land", "to": "N100", "via": ["N150"]})
    assert out.ok and "200 miles" in out.text and b["assets"]["horse"] == 9


# --- roads --------------------------------------------------------------------------------------------------

def test_road_effective_miles_count_against_the_free_distance() -> None:
    # Alpha to N300 is 300 miles; the road's effective length is 200: no attrition by road.
    # On foot: 100 beyond → 10% × (2^(1/3) − 1) = 2.6% of 10 horses = 0.26 → 1.
    roads = {"Alpha|N300": 200}
    a = persona("0101", assets={"horse": 10})
    b = persona("0102", assets={"horse": 10})
    c = persona("0103")
    d = persona("0104")
    ctx = make_ctx(a, b, c, d, roads=roads)
    out = move(ctx, a, {"mode": "road", "to": "N300"})
    assert out.ok and "200 miles" in out.text and a["assets"]["horse"] == 10
    assert move(ctx, b, {"mode": "land", "to": "N300"}).ok and b["assets"]["horse"] == 9
    assert not move(ctx, c, {"mode": "road", "to": "N200"}).ok  # no road built
    assert not move(ctx, d, {"mode": "road", "to": "N300", "via": ["N100"]}).ok  # no mixing road and non-road


# --- ferries ------------------------------------------------------------------------------------------------

FERRY = [loc("London", 51.5074, -0.1278, land="Britain"),
         loc("Dover", 51.13, 1.31, land="Britain", ferries=["Calais"]),
         loc("Calais", 50.95, 1.86, ferries=["Dover"]),
         loc("Paris", 48.8566, 2.3522)]


def test_ferry_fee_rounded_up_and_minimum_one() -> None:
    # T5. 100 horses (200) + 50 pikemen (50) = 250 cargo → 2.5 ducats → 3. 40 pikemen → 0.4 → minimum 1.
    a = persona("0101", location="London", assets={"horse": 100, "pikeman": 50, "ducats": 100})
    b = persona("0102", location="London", assets={"pikeman": 40, "ducats": 100})
    ctx = make_ctx(a, b, locations=FERRY)
    out = move(ctx, a, {"mode": "ferry", "to": "Calais"})
    assert out.ok, out.text
    assert a["location"] == "Calais" and a["assets"]["ducats"] == 97 and a["assets"]["horse"] == 100
    assert "Dover" in out.text  # London → Dover by land, then the ferry
    assert move(ctx, b, {"mode": "ferry", "to": "Calais"}).ok and b["assets"]["ducats"] == 99


def test_ferry_needs_the_word_ferry_ducats_and_a_ferry_point_at_an_end() -> None:
    a = persona("0101", location="London")
    b = persona("0102", location="London", assets={"pikeman": 1})
    c = persona("0103", location="London", assets={"ducats": 5})
    d = persona("0104", location="Dover", assets={"ducats": 5})
    ctx = make_ctx(a, b, c, d, locations=FERRY)
    assert not move(ctx, a, {"mode": "land", "to": "Calais"}).ok  # different land masses
    assert not move(ctx, b, {"mode": "ferry", "to": "Calais"}).ok and b["location"] == "London"  # no ducat
    # London → Paris would put the ferry in the middle: neither end is a ferry point.
    assert not move(ctx, c, {"mode": "ferry", "to": "Paris"}).ok
    # Dover → Calais → Paris: begins at a ferry point.
    assert move(ctx, d, {"mode": "ferry", "to": "Paris"}).ok and d["location"] == "Paris"


def test_ferry_refuses_a_family_denied_ingress_at_the_landing() -> None:
    locs = [*FERRY[:2], loc("Calais", 50.95, 1.86, ingress_denied=["MEDICI"]), FERRY[3]]
    a = persona("0101", location="Dover", assets={"ducats": 5})
    ctx = make_ctx(a, locations=locs)
    out = move(ctx, a, {"mode": "ferry", "to": "Calais"})
    assert not out.ok and "ingress" in out.text
    assert a["location"] == "Dover" and a["assets"]["ducats"] == 5


def test_one_ferry_per_turn() -> None:
    locs = [*FERRY, loc("Wight", 50.69, -1.3, land="Wight", ferries=["London"])]
    a = persona("0101", location="Wight", assets={"ducats": 5})
    ctx = make_ctx(a, locations=locs)
    out = move(ctx, a, {"mode": "ferry", "to": "Calais", "via": ["London", "Dover"]})
    assert not out.ok and "more than one ferry" in out.text


# --- water --------------------------------------------------------------------------------------------------

def test_five_modifications_of_water_distance() -> None:
    galley = {"galley": 1, "crew": 40, "slave": 250}
    base = persona("0101", skills={"navigation": 900})
    assert travel.water_free_miles(base, galley, False, True)[0] == 900
    # 1. Open water: 900 − 600 = 300.
    assert travel.water_free_miles(base, galley, True, True)[0] == 300
    # 2. Caravels and roundships only: 900 + 600 = 1500.
    assert travel.water_free_miles(base, {"caravel": 2, "roundship": 1, "crew": 40}, False, True)[0] == 1500
    # 3. Non-summer: 900 − 400 = 500.
    assert travel.water_free_miles(base, galley, False, False)[0] == 500
    # 4. Galliot: 10 crew + 50 rowers; 20 slaves row, 25 crew fill 25 more seats: 45 / 60 = 75% → 675.
    assert travel.water_free_miles(base, {"galliot": 1, "crew": 25, "slave": 20}, False, True)[0] == 675
    # 5. Popularity 150: 900 − 3 × (200 − 150) = 750.
    assert travel.water_free_miles(persona("0102", popularity=150, skills={"navigation": 900}), galley, False,
                                   True)[0] == 750
    # All five: 2 caravels with 15 of 20 crew (75%), popularity 100, open water, winter:
    # 900 × 0.75 = 675 − 300 − 600 + 600 − 400 = −25 → never below 0.
    low = persona("0103", popularity=100, skills={"navigation": 900})
    assert travel.water_free_miles(low, {"caravel": 2, "crew": 15}, True, False)[0] == 0


SEA = [loc("Port0", 0.0, 0.0, harbor=10), loc("Port900", 0.0, east(900), harbor=10),
       loc("Port300", 0.0, east(300), harbor=10), loc("Inland", 5.0, 5.0),
       loc("Shallow", 0.0, east(100), harbor=5), loc("Six", 0.0, east(101), harbor=6),
       loc("North0", 45.0, 0.0, harbor=10), loc("North400", north(400, 45.0), 0.0, harbor=10)]


def test_water_attrition_ships_lost_in_proportion_and_cargo_over_capacity() -> None:
    # Navigation 300, popularity 500, on the equator (summer all year), a mixed fleet: free 300.
    # 900 miles: 600 beyond → 10%. Barques 10 → 9 (1 lost); caravels 3 × 10% = 0.3 → 1 lost → 2.
    # Capacity 9 × 100 + 2 × 200 = 1300; cargo 80 crew + 1300 grain = 1380 → 80 cargo lost.
    a = persona("0101", location="Port0", skills={"navigation": 300},
                assets={"barque": 10, "caravel": 3, "crew": 80, "grain": 1300, "ducats": 7})
    ctx = make_ctx(a, locations=SEA)
    out = move(ctx, a, {"mode": "water", "to": "Port900"})
    assert out.ok, out.text
    assert a["location"] == "Port900" and a["alive"]
    assert a["assets"]["barque"] == 9 and a["assets"]["caravel"] == 2
    assert a["assets"]["crew"] + a["assets"]["grain"] == 1300 and a["assets"]["ducats"] == 7


def test_any_water_attrition_loses_a_ship_of_each_type() -> None:
    # 301 miles with 300 free: 1 beyond → 10% × (2^(1/600) − 1) = 0.012%; rounded up: 1 barque and 1 galley.
    locs = [*SEA, loc("Port301", 0.0, east(301), harbor=10)]
    a = persona("0101", location="Port0", skills={"navigation": 300},
                assets={"barque": 10, "galley": 1, "crew": 90, "slave": 250})
    ctx = make_ctx(a, locations=locs)
    assert move(ctx, a, {"mode": "water", "to": "Port301"}).ok
    assert a["assets"]["barque"] == 9 and a["assets"]["galley"] == 0


def test_winter_sailing_and_drowning() -> None:
    # 45°N in January: navigation 700 − 400 = 300 free; 400 miles north → 100 beyond → any loss sinks the only
    # barque: he drowns, and his passenger with him. In July 700 free: he arrives.
    owner = persona("0101", location="North0", skills={"navigation": 700}, assets={"barque": 1, "crew": 5})
    passenger = persona("0102", location="North0")
    passenger["with"] = "0101"
    ctx = make_ctx(owner, passenger, locations=SEA, month=1)
    out = move(ctx, owner, {"mode": "water", "to": "North400"})
    assert out.ok and "drowned" in out.text
    assert owner["alive"] is False and owner["died"].startswith("drowned")
    assert passenger["alive"] is False and "0101" in passenger["died"]
    summer = persona("0103", location="North0", skills={"navigation": 700}, assets={"barque": 1, "crew": 5})
    ctx = make_ctx(summer, locations=SEA, month=7)
    assert move(ctx, summer, {"mode": "water", "to": "North400"}).ok
    assert summer["alive"] and summer["assets"]["barque"] == 1 and summer["location"] == "North400"


def test_open_water_destination_and_back() -> None:
    # 300 miles east into open water: navigation 900 − 600 = 300 free: no loss.
    a = persona("0101", location="Port0", skills={"navigation": 900}, assets={"barque": 2, "crew": 10})
    ctx = make_ctx(a, locations=SEA)
    out = move(ctx, a, {"mode": "water", "to": None, "lat": 0.0, "lon": east(300)})
    assert out.ok, out.text
    assert a["location"] is None and a["at_sea"]["lon"] == pytest.approx(east(300)) and a["assets"]["barque"] == 2
    # Back from open water to Port0: again 300 free for 300 miles.
    ctx = make_ctx(a, locations=SEA, turn=2)
    assert move(ctx, a, {"mode": "water", "to": "Port0"}).ok
    assert a["location"] == "Port0" and a["at_sea"] is None and a["assets"]["barque"] == 2


def test_water_needs_ships_and_ports() -> None:
    a = persona("0101", location="Inland", skills={"navigation": 900}, assets={"barque": 1, "crew": 5})
    b = persona("0102", location="Port0", skills={"navigation": 900}, assets={"barque": 1, "crew": 5})
    c = persona("0103", location="Port0", assets={"grain": 5})
    ctx = make_ctx(a, b, c, locations=SEA)
    assert not move(ctx, a, {"mode": "water", "to": "Port0"}).ok           # not a port
    assert not move(ctx, b, {"mode": "water", "to": "Inland"}).ok          # not a port
    assert not move(ctx, c, {"mode": "water", "to": "Port300"}).ok          # no ships


def test_draft_refuses_a_shallow_port() -> None:
    # One caravel half loaded (10 crew + 90 grain of 200): 4 × 1.5 = 6 ft. Shallow (5 ft) refuses; Six admits.
    a = persona("0101", location="Port0", skills={"navigation": 900}, assets={"caravel": 1, "crew": 10, "grain": 90})
    ctx = make_ctx(a, locations=SEA)
    out = move(ctx, a, {"mode": "water", "to": "Shallow"})
    assert not out.ok and "6.0 feet" in out.text and a["location"] == "Port0"
    ctx = make_ctx(a, locations=SEA, turn=2)
    assert move(ctx, a, {"mode": "water", "to": "Six"}).ok and a["location"] == "Six"


def test_water_cargo_over_capacity_and_abandonment() -> None:
    # A barque carries 100: 5 crew + 100 grain = 105.
    a = persona("0101", location="Port0", inside=True, skills={"navigation": 900},
                assets={"barque": 1, "crew": 5, "grain": 100})
    b = persona("0102", location="Port0", skills={"navigation": 900}, assets={"barque": 1, "crew": 5, "grain": 100})
    ctx = make_ctx(a, b, locations=SEA)
    out = move(ctx, a, {"mode": "water", "to": "Port300"})
    assert not out.ok and a["location"] == "Port0" and a["inside"] is False
    assert abandon(ctx, b, {}).ok
    assert move(ctx, b, {"mode": "water", "to": "Port300"}).ok
    assert b["assets"]["barque"] == 1 and b["assets"]["crew"] + b["assets"]["grain"] == 100


# --- boarding -----------------------------------------------------------------------------------------------

def _boarding(turn_granted: int, passenger_assets: dict[str, int] | None = None) -> tuple[Ctx, dict, dict]:
    owner = persona("0101", location="Port0", skills={"navigation": 900}, assets={"barque": 1, "crew": 5})
    pax = persona("0201", location="Port0", family="SFORZA", assets=passenger_assets or {})
    grant = make_ctx(owner, pax, locations=SEA, turn=turn_granted)
    assert permit_boarding(grant, owner, {"passenger": "0201"}).ok
    ctx = make_ctx(owner, pax, locations=SEA, turn=2)
    return ctx, owner, pax


def test_boarding_with_last_months_permission_then_following_the_owner() -> None:
    ctx, owner, pax = _boarding(turn_granted=1)
    out = move(ctx, pax, {"mode": "water", "to": "Port300"})
    assert out.ok, out.text
    assert pax["with"] == "0101"
    assert move(ctx, owner, {"mode": "water", "to": "Port300"}).ok
    assert pax["location"] == "Port300" and owner["location"] == "Port300"
    # Next month he may only disembark; at a port he does, and may do nothing more this turn.
    ctx = make_ctx(owner, pax, locations=SEA, turn=3)
    assert not move(ctx, pax, {"mode": "land", "to": "Port0"}).ok
    ctx = make_ctx(owner, pax, locations=SEA, turn=4)
    assert move(ctx, pax, {"mode": "disembark", "to": None}).ok
    assert pax["with"] is None and pax["location"] == "Port300" and "0201" in ctx.scratch["disembarked"]


def test_boarding_refused_without_permission_or_with_this_months() -> None:
    ctx, _owner, pax = _boarding(turn_granted=2)  # granted this month: valid only next month
    assert not move(ctx, pax, {"mode": "water", "to": "Port300"}).ok and pax["with"] is None
    owner = persona("0101", location="Port0", assets={"barque": 1, "crew": 5})
    stranger = persona("0202", location="Port0", family="SFORZA")
    ctx = make_ctx(owner, stranger, locations=SEA, turn=2)
    assert not move(ctx, stranger, {"mode": "water", "to": "Port300"}).ok


def test_boarding_needs_absolutely_no_mobile_assets_and_the_same_place() -> None:
    ctx, _owner, pax = _boarding(turn_granted=1, passenger_assets={"ducats": 1})
    out = move(ctx, pax, {"mode": "water", "to": "Port300"})
    assert not out.ok and pax["with"] is None
    ctx, owner, pax = _boarding(turn_granted=1)
    owner["location"] = "Port300"
    assert not move(ctx, pax, {"mode": "water", "to": "Port300"}).ok


def test_only_the_first_permission_of_a_month_counts() -> None:
    a = persona("0101", location="Port0", assets={"barque": 1, "crew": 5})
    b = persona("0102", location="Port0", assets={"barque": 1, "crew": 5})
    pax = persona("0201", location="Port0", family="SFORZA")
    ctx = make_ctx(a, b, pax, locations=SEA, turn=1)
    assert permit_boarding(ctx, a, {"passenger": "0201"}).ok
    assert not permit_boarding(ctx, b, {"passenger": "0201"}).ok
    assert pax["boarding_permission"] == {"owner": "0101", "turn": 1} and a["boarding_permits"] == ["0201"]
    ctx = make_ctx(a, b, pax, locations=SEA, turn=2)
    assert move(ctx, pax, {"mode": "water", "to": "x"}).ok and pax["with"] == "0101"


def test_disembark_fails_in_open_water() -> None:
    owner = persona("0101", location=None, at_sea={"lat": 0.0, "lon": 3.0}, assets={"barque": 1, "crew": 5})
    pax = persona("0201", location=None, at_sea={"lat": 0.0, "lon": 3.0}, family="SFORZA")
    pax["with"] = "0101"
    ctx = make_ctx(owner, pax, locations=SEA)
    out = move(ctx, pax, {"mode": "disembark", "to": None})
    assert not out.ok and "open water" in out.text and pax["with"] == "0101"
    assert "0201" not in ctx.scratch.get("disembarked", set())


def test_passengers_end_the_month_where_the_ship_is_and_die_with_its_owner() -> None:
    owner = persona("0101", location="Port300", assets={"barque": 1})
    pax = persona("0201", location="Port0", family="SFORZA")
    pax["with"] = "0101"
    ctx = make_ctx(owner, pax, locations=SEA)
    passengers_follow_their_ship(ctx)
    assert pax["location"] == "Port300" and pax["alive"]
    # Whatever kills the owner, the succession step (80) after ours takes his passengers with him.
    owner["alive"], owner["died"] = False, "killed in battle"
    passengers_follow_their_ship(ctx)
    succession(ctx)
    assert ctx.state["personae"]["0201"] is not pax and pax["alive"] is False


# --- information ----------------------------------------------------------------------------------------------

def test_depth_and_coordinates_answered_in_the_messages() -> None:
    ctx = make_ctx(locations=[*SEA, loc("Rio", -22.91, -43.17, harbor=12)])
    assert ask_depth(ctx, {}, {"family": "MEDICI", "location": "rio"}).ok
    assert ask_depth(ctx, {}, {"family": "MEDICI", "location": "Inland"}).ok
    assert ask_coordinates(ctx, {}, {"family": "MEDICI", "location": "Rio"}).ok
    assert not ask_depth(ctx, {}, {"family": "MEDICI", "location": "Atlantis"}).ok
    assert ctx.messages["MEDICI"] == ["Depth of Rio: 12 feet", "Depth of Inland: not a port",
                                      "Co-ordinates of Rio: latitude 22.91°S, longitude 43.17°W"]


def test_through_the_month_abandon_runs_before_the_move() -> None:
    # Written after the move, the abandon order still runs first (phase OTHER before MOVE): 10 horses carry 20,
    # so 10 of the 30 grain are abandoned and the move succeeds; the depth answer reaches the family's messages.
    from maild.ruleset import Order, PlacedOrder
    from maild_rules.renaissance.engine import run_month

    a = persona("0101", assets={"horse": 10, "grain": 30, "ducats": 5})
    state = {"calendar": {"year": 1493, "month": 7},
             "fees": {"per_family": 5.0, "per_order": 0.0, "conflict_actions": 25, "action": 0.2,
                      "prepay_discount": 0.1, "location_setup": 10.0},
             "players": {"LMD": {"name": "x", "email": "x@example.org", "password": None,
                                 "account": {"balance": 100.0, "history": []}}},
             "families": {"MEDICI": {"player": "LMD", "religion": "catholic", "origin": "european",
                                     "personae": ["0101"], "number": 1}},
             "personae": {"0101": a}, "locations": {x["name"]: x for x in LAND}, "roads": {},
             "harbor_deepened": {}, "log": []}
    who = {"family": "MEDICI", "player": "LMD", "persona": "0101", "start": "Alpha"}
    orders = {"LMD": [
        PlacedOrder(Order(1, "MLN100", "move", {**who, "mode": "land", "to": "N100", "lat": None, "lon": None,
                                                "via": []}, "move"), 1),
        PlacedOrder(Order(2, "AX", "abandon", dict(who), "abandon"), 1),
        PlacedOrder(Order(3, "?DN100", "ask_depth", {"family": "MEDICI", "player": "LMD", "location": "N100"},
                          "depth"), 1)]}
    result = run_month(state, 1, orders, random.Random(1))
    assert not result.errors
    moved = result.ctx.state["personae"]["0101"]
    assert moved["location"] == "N100" and moved["assets"] == {"horse": 10, "grain": 20, "ducats": 5}
    assert [o["ok"] for o in result.outcomes["MEDICI"]] == [True, True, True]
    assert result.ctx.messages["MEDICI"] == ["Depth of N100: not a port"]
