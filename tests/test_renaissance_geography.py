"""Geography for TRAVEL: great-circle statute miles, land masses, ferries, roads, climate zones and summer.
Numbers are worked by hand; readings are in docs/renaissance/travel.md."""

from __future__ import annotations

import math
from typing import Any

import pytest

from maild_rules.renaissance import geography as geo
from maild_rules.renaissance import ships as sh
from maild_rules.renaissance.setup import find_location

R = 3958.8  # statute miles
MILE_PER_DEGREE = R * math.pi / 180  # 3958.8 × 0.0174533 = 69.094 miles to a degree of great circle


def _state() -> dict[str, Any]:
    def loc(name: str, lat: float, lon: float, land: str, **extra: Any) -> dict[str, Any]:
        return {"name": name, "lat": lat, "lon": lon, "landmass": land, "harbor": None, "ferries": [], **extra}
    locs = [loc("Florence", 43.7696, 11.2558, "Europe"), loc("Siena", 43.3188, 11.3308, "Europe"),
            loc("Dover", 51.13, 1.31, "Britain", ferries=["Calais"], harbor=10),
            loc("Calais", 50.95, 1.86, "Europe"),  # lists no ferry: Dover's entry alone is the route
            loc("Santiago de Compostela", 42.88, -8.54, "Europe")]
    return {"locations": {x["name"]: x for x in locs}, "roads": {"Florence|Siena": 25}}


def test_great_circle_along_a_meridian_and_the_equator() -> None:
    # One degree of latitude: 3958.8 × π/180 = 69.094 miles.
    assert geo.great_circle_miles((0, 0), (1, 0)) == pytest.approx(69.094, abs=0.001)
    # A quarter of the equator: 3958.8 × π/2 = 6218.5 miles; the same from the equator to the pole.
    assert geo.great_circle_miles((0, 0), (0, 90)) == pytest.approx(6218.5, abs=0.1)
    assert geo.great_circle_miles((0, 45), (90, 0)) == pytest.approx(6218.5, abs=0.1)


def test_florence_to_siena() -> None:
    # Δlat = 43.7696 − 43.3188 = 0.4508°; Δlon = 0.0750° × cos(43.544°) = 0.0750 × 0.7248 = 0.0544°;
    # √(0.4508² + 0.0544²) = √0.20618 = 0.4541° × 69.094 = 31.37 miles (flat-earth is exact enough at 30 miles).
    assert geo.miles_between(_state(), "Florence", "Siena") == pytest.approx(31.37, abs=0.05)


def test_route_is_the_sum_of_its_legs() -> None:
    # (0,0) → (1,0) → (1,1): 69.094 + 69.094 × cos(1°) = 69.094 + 69.083 = 138.18 (the second leg is a short
    # great circle along the 1° parallel, a hair shorter than the parallel itself).
    assert geo.route_miles([(0, 0), (1, 0), (1, 1)]) == pytest.approx(138.18, abs=0.01)


def test_landmass_ferries_roads_and_names() -> None:
    st = _state()
    assert geo.same_landmass(st, "Florence", "Calais") and not geo.same_landmass(st, "Dover", "Calais")
    # Listed at Dover only: both directions count.
    assert geo.ferry_between(st, "Dover", "Calais") and geo.ferry_between(st, "Calais", "Dover")
    assert geo.ferry_points(st, "Calais") == ["Dover"] and not geo.is_ferry_point(st, "Florence")
    assert geo.road_miles(st, "Siena", "Florence") == 25 and geo.road_key("Siena", "Florence") == "Florence|Siena"
    assert geo.road_miles(st, "Florence", "Calais") is None
    assert find_location(st, "santiago_de-compostela") == "Santiago de Compostela"
    assert find_location(st, "SantiagodeCompostela") == "Santiago de Compostela"
    assert find_location(st, "Atlantis") is None
    assert geo.parse_point("+41.00+012.50") == (41.0, 12.5) and geo.parse_point("-33.9-018.4") == (-33.9, -18.4)
    assert geo.parse_point("Venice") is None


@pytest.mark.parametrize(("lat", "month", "summer"), [
    (45.0, 7, True),     # north of Cancer, July is in June–September
    (45.0, 6, True), (45.0, 9, True),
    (45.0, 5, False), (45.0, 10, False), (45.0, 1, False),
    (23.44, 1, True),    # on the Tropic itself: between the Tropics
    (23.5, 1, False),    # just north of it: January is not summer
    (10.0, 1, True), (-10.0, 7, True),   # tropics: every month
    (-30.0, 12, True), (-30.0, 1, True), (-30.0, 3, True),
    (-30.0, 4, False), (-30.0, 7, False), (-30.0, 11, False),
])
def test_summer(lat: float, month: int, summer: bool) -> None:
    assert geo.is_summer(lat, month) is summer


def test_least_favorable_zone_over_a_route() -> None:
    # Equator to 10°S: tropics only, summer in any month.
    assert geo.summer_route([(0, 0), (-10, 0)], 5)
    # 30°N to 10°N in May: the northern end is out of summer, and the least favorable zone counts.
    assert not geo.summer_route([(30, 0), (10, 0)], 5)
    # 20°N 60°W to 20°N 60°E: both ends tropical, but the great circle bulges north to
    # atan(tan 20° / cos 60°) = atan(0.36397 / 0.5) = atan(0.72794) = 36.05°N, outside the tropics.
    assert max(geo.route_latitudes([(20, -60), (20, 60)])) == pytest.approx(36.05, abs=0.05)
    assert not geo.summer_route([(20, -60), (20, 60)], 1)   # January: the northern zone is in winter
    assert geo.summer_route([(20, -60), (20, 60)], 7)       # July: summer north of Cancer too


def test_ship_table() -> None:
    # NAVIGATION, as read in the reader's notes.
    rs, cv, bq, gy, gt = (sh.TABLE[s] for s in ("roundship", "caravel", "barque", "galley", "galliot"))
    assert (rs.cost, rs.crew, rs.rowers, rs.timber, rs.sails, rs.capacity, rs.draft, rs.weight) == \
        (10_000, 20, 0, 1_200, 3, 500, 8, 1_203)
    assert (cv.cost, cv.crew, cv.capacity, cv.draft, cv.weight) == (2_000, 10, 200, 4, 403)
    assert (bq.cost, bq.crew, bq.capacity, bq.draft, bq.weight) == (1_000, 5, 100, 2, 201)
    assert (gy.cost, gy.crew, gy.rowers, gy.timber, gy.capacity, gy.draft, gy.weight) == \
        (50_000, 40, 250, 4_000, 1_000, 5, 4_000)
    assert (gt.cost, gt.crew, gt.rowers, gt.capacity, gt.draft, gt.weight) == (3_000, 10, 50, 300, 4, 400)


def test_draft_loaded_proportionately() -> None:
    # One caravel (4 ft empty, 200 capacity): 10 crew + 90 grain = 100 cargo → half loaded → 4 × 1.5 = 6 ft.
    half = {"caravel": 1, "crew": 10, "grain": 90, "ducats": 5000}
    assert sh.draft(half) == pytest.approx(6.0)
    assert sh.may_enter(6, half) and not sh.may_enter(5, half) and not sh.may_enter(None, half)
    # Fully loaded (10 + 190 = 200): twice the empty draft, 8 ft.
    assert sh.draft({"caravel": 1, "crew": 10, "grain": 190}) == pytest.approx(8.0)
    # Mixed fleet: the deepest type sets it; barque 2 ft and roundship 8 ft, capacity 100 + 500 = 600,
    # cargo 25 crew + 125 grain = 150 → a quarter → 8 × 1.25 = 10 ft.
    assert sh.draft({"barque": 1, "roundship": 1, "crew": 25, "grain": 125}) == pytest.approx(10.0)


def test_manning_slaves_row_crew_fill_any_seat() -> None:
    # Galliot: 10 crew + 50 rowers = 60 seats.
    assert sh.manning({"galliot": 1, "crew": 10, "slave": 50}) == 1.0
    # 20 slaves row, 10 crew: 30 / 60 = 50%.
    assert sh.manning({"galliot": 1, "crew": 10, "slave": 20}) == 0.5
    # 20 slaves, 25 crew: 15 crew go to the oars: (20 + 25) / 60 = 75%.
    assert sh.manning({"galliot": 1, "crew": 25, "slave": 20}) == 0.75
    # Slaves cannot sail: 60 slaves, no crew: 50 / 60.
    assert sh.manning({"galliot": 1, "slave": 60}) == pytest.approx(50 / 60)
