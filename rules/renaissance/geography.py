"""Where things are and how far apart (TRAVEL, NAVIGATION): great-circle miles, land masses, ferries, roads, and
the climate zones that decide summer sailing.

Locations carry lat/lon in degrees (north and east positive). Distances are statute miles along the great circle,
the shortest route; special routing (waypoints) is the sum of its legs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

State = dict[str, Any]
Point = tuple[float, float]  # (lat, lon) in degrees

EARTH_RADIUS_MILES = 3958.8  # mean radius, statute miles

# TRAVEL, modification 3: "summer will be deemed to last twelve months of the year between the Tropics, from June
# to September (inclusive) north of the Tropic of Cancer, and from December to March (inclusive) south of the
# Tropic of Capricorn."
TROPIC = 23.44
NORTH_SUMMER = frozenset({6, 7, 8, 9})
SOUTH_SUMMER = frozenset({12, 1, 2, 3})
SAMPLE_MILES = 25.0  # a route's latitudes are sampled this often: a great circle can bulge past both ends' zones


def great_circle_miles(a: Point, b: Point) -> float:
    """Haversine distance; stable for the few-mile ferry crossings as well as ocean passages."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_MILES * math.asin(min(1.0, math.sqrt(h)))


def route_miles(points: Sequence[Point]) -> float:
    return sum(great_circle_miles(p, q) for p, q in zip(points, points[1:], strict=False))


def point_of(state: State, name: str) -> Point:
    loc = state["locations"][name]
    return (float(loc["lat"]), float(loc["lon"]))


def miles_between(state: State, a: str, b: str) -> float:
    return great_circle_miles(point_of(state, a), point_of(state, b))


def same_landmass(state: State, a: str, b: str) -> bool:
    la, lb = state["locations"][a].get("landmass"), state["locations"][b].get("landmass")
    return la is not None and la == lb


def is_port(state: State, name: str) -> bool:
    return state["locations"][name].get("harbor") is not None


def ferry_between(state: State, a: str, b: str) -> bool:
    """The locations' `ferries` lists are the truth (they include Dover-Calais and Campbeltown-Torhead, longer than
    five miles); a route listed at either end counts, so a one-sided setup entry is not a trap."""
    locs = state["locations"]
    return b in (locs[a].get("ferries") or ()) or a in (locs[b].get("ferries") or ())


def ferry_points(state: State, a: str) -> list[str]:
    """Every location a ferry from `a` reaches, listed at either end."""
    locs = state["locations"]
    out = set(locs[a].get("ferries") or ())
    out.update(name for name, loc in locs.items() if a in (loc.get("ferries") or ()))
    out.discard(a)
    return sorted(n for n in out if n in locs)


def is_ferry_point(state: State, a: str) -> bool:
    return bool(ferry_points(state, a))


def road_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def road_miles(state: State, a: str, b: str) -> float | None:
    """Effective miles of a built road between two cities, or None: only roads reduced by roadbuilding exist."""
    miles = (state.get("roads") or {}).get(road_key(a, b))
    return None if miles is None else float(miles)


_COORD = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)\s*[,/ ]?\s*([+-]\d+(?:\.\d+)?)\s*$")


def parse_point(written: str) -> Point | None:
    """An open-water waypoint written like the MW destination, "+41.00+012.50" or "-33.9+018.4"."""
    m = _COORD.match(written)
    if not m:
        return None
    lat, lon = float(m.group(1)), float(m.group(2))
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        return None
    return (lat, lon)


# ---- climate -------------------------------------------------------------------------------------------------

def zone(lat: float) -> str:
    """'tropics' between the tropics (inclusive), else 'north' or 'south'."""
    if lat > TROPIC:
        return "north"
    if lat < -TROPIC:
        return "south"
    return "tropics"


def is_summer(lat: float, month: int) -> bool:
    z = zone(lat)
    if z == "tropics":
        return True
    return month in (NORTH_SUMMER if z == "north" else SOUTH_SUMMER)


def _interpolate(a: Point, b: Point, f: float) -> Point:
    """The point a fraction f along the great circle from a to b (slerp on unit vectors)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    v1 = (math.cos(lat1) * math.cos(lon1), math.cos(lat1) * math.sin(lon1), math.sin(lat1))
    v2 = (math.cos(lat2) * math.cos(lon2), math.cos(lat2) * math.sin(lon2), math.sin(lat2))
    dot = max(-1.0, min(1.0, sum(x * y for x, y in zip(v1, v2, strict=True))))
    omega = math.acos(dot)
    if omega < 1e-12:
        return a
    s1, s2 = math.sin((1 - f) * omega) / math.sin(omega), math.sin(f * omega) / math.sin(omega)
    x, y, z = (s1 * p + s2 * q for p, q in zip(v1, v2, strict=True))
    return (math.degrees(math.atan2(z, math.hypot(x, y))), math.degrees(math.atan2(y, x)))


def route_latitudes(points: Sequence[Point]) -> list[float]:
    """Latitudes along the route, every SAMPLE_MILES or closer, both ends included."""
    lats = [points[0][0]]
    for a, b in zip(points, points[1:], strict=False):
        n = max(1, math.ceil(great_circle_miles(a, b) / SAMPLE_MILES))
        lats.extend(_interpolate(a, b, i / n)[0] for i in range(1, n + 1))
    return lats


def summer_route(points: Sequence[Point], month: int) -> bool:
    """"When more than one climate zone is traversed, the least favorable will be used": summer sailing only if
    every zone the route passes through is in summer this month."""
    return all(is_summer(lat, month) for lat in route_latitudes(points))
