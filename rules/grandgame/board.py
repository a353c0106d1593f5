"""The Grand Game's board: territories, zones, countries and the crossings between territories, from the map
file (TOML, already loaded into a dict by the caller: the game does no I/O).

The format and the readings it rests on are in docs/grand-game.md, "The map file". `load_board(data)` checks the
whole file and raises SetupError naming the key of every inconsistency at once, so a GM fixes a map in one go.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from maild.setupfile import Problems, array_of_tables, entries, unknown_keys, whole

Kind = Literal["land", "sea"]
Size = Literal["large", "small"]
Point = tuple[float, float]

# A territory is written in orders ("2 inf K14 -> K15"): one word, a letter first, matched without case.
TERRITORY_ID = re.compile(r"[A-Za-z][A-Za-z0-9]{0,7}")
OTHER_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,23}")

TOP_KEYS = {"title", "players", "drawing", "territory", "zone", "country", "river", "canal"}
DRAWING_KEYS = {"width", "height"}
TERRITORY_KEYS = {"id", "name", "kind", "next", "mountain", "city", "port", "railroad", "at", "outline"}
ZONE_KEYS = {"id", "name", "value", "territories"}
COUNTRY_KEYS = {"id", "name", "size", "neutral", "territories"}
RIVER_KEYS = {"name", "between"}
CANAL_KEYS = {"name", "territory", "seas", "across"}


@dataclass(frozen=True)
class Territory:
    id: str
    name: str
    kind: Kind
    neighbours: frozenset[str]
    at: Point  # where its label and units are drawn
    outline: tuple[Point, ...]  # a simple polygon, in map coordinates
    mountain: bool = False
    city: str | None = None  # the city's name; a port is a city on the shoreline
    port: bool = False
    railroad: bool = False

    @property
    def land(self) -> bool:
        return self.kind == "land"


@dataclass(frozen=True)
class Zone:
    """An economic zone, which is also an air zone: its land territories make its economy, its sea
    territories only share its air."""
    id: str
    name: str
    value: int  # the starting value
    land: tuple[str, ...]
    sea: tuple[str, ...]

    @property
    def territories(self) -> tuple[str, ...]:
        return self.land + self.sea


@dataclass(frozen=True)
class Country:
    id: str
    name: str
    size: Size
    territories: tuple[str, ...]  # the land it holds at the start
    neutral: bool = False  # never offered to the players: a Neutral Power from the start


@dataclass(frozen=True)
class Canal:
    """A land territory that lets ships pass between two of its seas, and whose infantry are defended by it
    against attacks from the land neighbours it lies across."""
    name: str
    territory: str
    seas: tuple[str, str]
    across: frozenset[str]


@dataclass(frozen=True)
class Board:
    title: str
    players: int  # the most players the map is drawn for
    width: float
    height: float
    territories: Mapping[str, Territory]
    zones: Mapping[str, Zone]
    countries: Mapping[str, Country]
    rivers: frozenset[frozenset[str]]
    canals: tuple[Canal, ...]
    _zone_of: Mapping[str, str] = field(init=False, repr=False, compare=False)
    _country_of: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.territories[a].neighbours

    def river(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.rivers

    def shoreline(self, a: str, b: str) -> bool:
        """Every border between a land and a sea territory is shoreline (docs/grand-game.md)."""
        ta, tb = self.territories[a], self.territories[b]
        return b in ta.neighbours and ta.kind != tb.kind

    def coastal(self, territory: str) -> bool:
        t = self.territories[territory]
        return t.land and any(not self.territories[n].land for n in t.neighbours)

    def canal_across(self, territory: str, attacker_from: str) -> bool:
        return any(c.territory == territory and attacker_from in c.across for c in self.canals)

    def zone_of(self, territory: str) -> str:
        return self._zone_of[territory]

    def home_country(self, territory: str) -> str | None:
        """The country that holds a land territory at the start (None for a sea)."""
        return self._country_of.get(territory)

    def zone_neighbours(self, zone: str) -> frozenset[str]:
        """Air zones next to `zone`: those with a territory next to one of its own."""
        own = set(self.zones[zone].territories)
        return frozenset(self._zone_of[n] for t in own for n in self.territories[t].neighbours) - {zone}

    def railway(self, territory: str) -> frozenset[str]:
        """The railroad territories joined by rail to `territory` (itself included), whoever owns them."""
        if not self.territories[territory].railroad:
            return frozenset()
        seen, todo = {territory}, [territory]
        while todo:
            for n in self.territories[todo.pop()].neighbours:
                if n not in seen and self.territories[n].railroad:
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen)

    def __post_init__(self) -> None:
        # The reverse lookups, made once: the board never changes during a game (owners are the state's).
        object.__setattr__(self, "_zone_of", {t: z.id for z in self.zones.values() for t in z.territories})
        object.__setattr__(self, "_country_of", {t: c.id for c in self.countries.values() for t in c.territories})


def load_board(data: Mapping[str, Any]) -> Board:
    """The board a map file describes. Raises SetupError listing every problem, each by its key."""
    problems = Problems(limit=40)
    unknown_keys(problems, "map", data, TOP_KEYS)
    title = data.get("title", "")
    if not isinstance(title, str):
        problems.add(f"title must be a string, found {title!r}")
        title = ""
    if "players" not in data:
        problems.add("players: missing (the most players the map is drawn for)")
    players = whole(problems, "players", data.get("players", 1), minimum=1)
    width, height = _drawing(problems, data.get("drawing"))

    territories = _territories(problems, data, width, height)
    _check_adjacency(problems, territories)
    zones = _zones(problems, data, territories)
    countries = _countries(problems, data, territories, players)
    rivers = _rivers(problems, data, territories)
    canals = _canals(problems, data, territories)
    problems.raise_any()
    return Board(title=title, players=players, width=width, height=height,
                 territories=MappingProxyType(territories), zones=MappingProxyType(zones),
                 countries=MappingProxyType(countries), rivers=frozenset(rivers), canals=tuple(canals))


def _drawing(problems: Problems, drawing: Any) -> tuple[float, float]:
    if not isinstance(drawing, dict):
        problems.add("drawing: missing (a [drawing] table with the map's width and height)")
        return 0.0, 0.0
    unknown_keys(problems, "drawing", drawing, DRAWING_KEYS)
    sizes = []
    for key in ("width", "height"):
        v = drawing.get(key)
        if not _number(v) or v <= 0:
            problems.add(f"drawing: {key} must be a number > 0, found {v!r}")
            v = 0.0
        sizes.append(float(v))
    return sizes[0], sizes[1]


def _territories(problems: Problems, data: Mapping[str, Any], width: float,
                 height: float) -> dict[str, Territory]:
    found: dict[str, Territory] = {}
    folded: dict[str, str] = {}
    tables = array_of_tables(problems, data, "territory", required=True)
    for ident, where, t in entries(problems, "territory", tables, TERRITORY_KEYS, "id", TERRITORY_ID,
                                   "a letter then up to 7 letters or digits"):
        if ident.upper() in folded:
            problems.add(f"{where}: id repeats territory {folded[ident.upper()]} (ids are read without case)")
            continue
        folded[ident.upper()] = ident
        name = _name(problems, where, t)
        kind = t.get("kind")
        if kind not in ("land", "sea"):
            problems.add(f"{where}: kind must be \"land\" or \"sea\", found {kind!r}")
            kind = "land"
        nxt = t.get("next", [])
        if not isinstance(nxt, list) or not all(isinstance(n, str) for n in nxt):
            problems.add(f"{where}: next must be a list of territory ids")
            nxt = []
        flags = {}
        for key in ("mountain", "port", "railroad"):
            v = t.get(key, False)
            if not isinstance(v, bool):
                problems.add(f"{where}: {key} must be true or false, found {v!r}")
                v = False
            if v and kind == "sea":
                problems.add(f"{where}: {key} is for land territories, not a sea")
            flags[key] = v
        city = t.get("city")
        if city is not None and (not isinstance(city, str) or not city.strip()):
            problems.add(f"{where}: city must be the city's name, found {city!r}")
            city = None
        if city is not None and kind == "sea":
            problems.add(f"{where}: city is for land territories, not a sea")
        if flags["port"] and city is None:
            problems.add(f"{where}: port needs a city (a port is a city on the shoreline): add city = \"NAME\"")
        at, outline = _shape(problems, where, t, width, height)
        found[ident] = Territory(id=ident, name=name, kind=kind, neighbours=frozenset(nxt), at=at,
                                 outline=outline, mountain=flags["mountain"], city=city, port=flags["port"],
                                 railroad=flags["railroad"])
    return found


def _check_adjacency(problems: Problems, territories: Mapping[str, Territory]) -> None:
    cities: dict[str, str] = {}
    for ident, t in territories.items():
        # Orders name the city a unit is built in ("Players must specify the cities"), so no two may share a name.
        if t.city is not None and t.land:
            key = " ".join(t.city.split()).casefold()
            if key in cities:
                problems.add(f"territory {ident}: city {t.city!r} has the name of the city in {cities[key]}")
            cities.setdefault(key, ident)
    for ident, t in territories.items():
        where = f"territory {ident}"
        for n in sorted(t.neighbours):
            if n == ident:
                problems.add(f"{where}: next names the territory itself")
            elif n not in territories:
                problems.add(f"{where}: next names {n}, which is no territory")
            elif ident not in territories[n].neighbours:
                problems.add(f"{where}: next names {n}, but {n}'s next does not name {ident} "
                             f"(adjacency goes both ways)")
        if t.port and not any(n in territories and territories[n].kind == "sea" for n in t.neighbours):
            problems.add(f"{where}: port on a territory with no sea in next (a port is on the shoreline)")


def _zones(problems: Problems, data: Mapping[str, Any], territories: Mapping[str, Territory]) -> dict[str, Zone]:
    found: dict[str, Zone] = {}
    zone_of: dict[str, str] = {}
    tables = array_of_tables(problems, data, "zone", required=True)
    for ident, where, z in entries(problems, "zone", tables, ZONE_KEYS, "id", OTHER_ID,
                                   "a letter then letters, digits, - or _"):
        if ident in found:
            problems.add(f"{where}: id repeats an earlier zone")
            continue
        name = _name(problems, where, z)
        if "value" not in z:
            problems.add(f"{where}: value missing (the zone's starting value)")
        value = whole(problems, f"{where}: value", z.get("value", 0))
        members = _members(problems, where, z, territories)
        for m in members:
            if m in zone_of:
                problems.add(f"{where}: territories names {m}, already in zone {zone_of[m]}")
            zone_of.setdefault(m, ident)
        land = tuple(m for m in members if territories[m].land)
        if not land:
            problems.add(f"{where}: territories names no land territory (a zone's economy is its land)")
        found[ident] = Zone(id=ident, name=name, value=value, land=land,
                            sea=tuple(m for m in members if not territories[m].land))
    for ident, t in territories.items():
        if ident not in zone_of:
            what = "economic zone" if t.land else "air zone"
            problems.add(f"territory {ident}: in no zone (every {t.kind} territory belongs to one {what})")
    return found


def _countries(problems: Problems, data: Mapping[str, Any], territories: Mapping[str, Territory],
               players: int) -> dict[str, Country]:
    found: dict[str, Country] = {}
    country_of: dict[str, str] = {}
    tables = array_of_tables(problems, data, "country", required=True)
    for ident, where, c in entries(problems, "country", tables, COUNTRY_KEYS, "id", OTHER_ID,
                                   "a letter then letters, digits, - or _"):
        if ident in found:
            problems.add(f"{where}: id repeats an earlier country")
            continue
        name = _name(problems, where, c)
        size = c.get("size")
        if size not in ("large", "small"):
            problems.add(f"{where}: size must be \"large\" or \"small\", found {size!r}")
            size = "small"
        neutral = c.get("neutral", False)
        if not isinstance(neutral, bool):
            problems.add(f"{where}: neutral must be true or false, found {neutral!r}")
            neutral = False
        members = _members(problems, where, c, territories)
        for m in members:
            if not territories[m].land:
                problems.add(f"{where}: territories names {m}, a sea (a country holds land)")
            elif m in country_of:
                problems.add(f"{where}: territories names {m}, already in country {country_of[m]}")
            country_of.setdefault(m, ident)
        if not members:
            problems.add(f"{where}: territories names no territory")
        found[ident] = Country(id=ident, name=name, size=size, territories=tuple(members), neutral=neutral)
    for ident, t in territories.items():
        if t.land and ident not in country_of:
            problems.add(f"territory {ident}: in no country (national borders cover all the land)")
    open_ = sum(1 for c in found.values() if not c.neutral)
    if found and open_ < players:
        problems.add(f"country: {open_} countries the players may pick, fewer than players = {players}")
    return found


def _rivers(problems: Problems, data: Mapping[str, Any],
            territories: Mapping[str, Territory]) -> list[frozenset[str]]:
    found = []
    for i, r in enumerate(array_of_tables(problems, data, "river"), start=1):
        where = f"river #{i}"
        unknown_keys(problems, where, r, RIVER_KEYS)
        pair = _pair(problems, f"{where}: between", r.get("between"), territories)
        if pair is None:
            continue
        a, b = pair
        if not (territories[a].land and territories[b].land):
            problems.add(f"{where}: between {a} and {b}: a river runs between two land territories")
        elif b not in territories[a].neighbours:
            problems.add(f"{where}: between {a} and {b}, which are not next to each other")
        else:
            found.append(frozenset(pair))
    return found


def _canals(problems: Problems, data: Mapping[str, Any], territories: Mapping[str, Territory]) -> list[Canal]:
    found = []
    for i, c in enumerate(array_of_tables(problems, data, "canal"), start=1):
        where = f"canal #{i}"
        unknown_keys(problems, where, c, CANAL_KEYS)
        name = c.get("name", "")
        if not isinstance(name, str):
            problems.add(f"{where}: name must be a string, found {name!r}")
            name = ""
        land = c.get("territory")
        if land not in territories or not territories[land].land:
            problems.add(f"{where}: territory must be a land territory, found {land!r}")
            continue
        t = territories[land]
        seas = _pair(problems, f"{where}: seas", c.get("seas"), territories)
        if seas is None:
            continue
        if any(territories[s].land or s not in t.neighbours for s in seas):
            problems.add(f"{where}: seas must be two sea territories next to {land}, found {list(seas)}")
            continue
        across = c.get("across", [])
        if not isinstance(across, list) or any(a not in t.neighbours or not territories[a].land for a in across):
            problems.add(f"{where}: across must list land territories next to {land}, found {across!r}")
            across = []
        found.append(Canal(name=name, territory=land, seas=(seas[0], seas[1]), across=frozenset(across)))
    return found


def _pair(problems: Problems, where: str, value: Any, territories: Mapping[str, Territory]) -> tuple[str, str] | None:
    if (not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, str) for v in value)
            or value[0] == value[1]):
        problems.add(f"{where} must be two different territory ids, found {value!r}")
        return None
    unknown = [v for v in value if v not in territories]
    if unknown:
        problems.add(f"{where} names {', '.join(unknown)}, which is no territory")
        return None
    return value[0], value[1]


def _members(problems: Problems, where: str, table: Mapping[str, Any],
             territories: Mapping[str, Territory]) -> list[str]:
    value = table.get("territories")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.add(f"{where}: territories must be a list of territory ids")
        return []
    members = []
    for v in value:
        if v not in territories:
            problems.add(f"{where}: territories names {v}, which is no territory")
        elif v in members:
            problems.add(f"{where}: territories names {v} twice")
        else:
            members.append(v)
    return members


def _name(problems: Problems, where: str, table: Mapping[str, Any]) -> str:
    name = table.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.add(f"{where}: name must be a non-empty string, found {name!r}")
        return ""
    return name


def _shape(problems: Problems, where: str, t: Mapping[str, Any], width: float,
           height: float) -> tuple[Point, tuple[Point, ...]]:
    at = _point(t.get("at"))
    if at is None:
        problems.add(f"{where}: at must be a point [x, y], found {t.get('at')!r}")
    raw = t.get("outline")
    points = [_point(p) for p in raw] if isinstance(raw, list) else [None]
    if len(points) < 3 or any(p is None for p in points):
        problems.add(f"{where}: outline must be a list of at least 3 points [x, y], found {raw!r}")
        return at or (0.0, 0.0), ()
    outline = tuple(p for p in points if p is not None)
    if width and height and any(not (0 <= x <= width and 0 <= y <= height) for x, y in outline + ((at,) if at else ())):
        problems.add(f"{where}: at and outline must lie within the drawing (0..{width:g}, 0..{height:g})")
    if not _simple(outline):
        problems.add(f"{where}: outline crosses itself (it must be a simple polygon)")
    elif at is not None and not inside(at, outline):
        problems.add(f"{where}: at {list(at)} lies outside its outline")
    return at or (0.0, 0.0), outline


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _point(p: Any) -> Point | None:
    if isinstance(p, list) and len(p) == 2 and all(_number(c) for c in p):
        return float(p[0]), float(p[1])
    return None


def _edges(outline: tuple[Point, ...]) -> Iterable[tuple[Point, Point]]:
    return zip(outline, outline[1:] + outline[:1], strict=True)


def _simple(outline: tuple[Point, ...]) -> bool:
    """No two edges of the polygon meet except neighbours at their shared corner (and no repeated corner)."""
    if len(set(outline)) != len(outline):
        return False
    edges = list(_edges(outline))
    n = len(edges)
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue
            if _segments_meet(*edges[i], *edges[j]):
                return False
    return True


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on(p: Point, q: Point, r: Point) -> bool:
    return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])


def _segments_meet(p1: Point, p2: Point, p3: Point, p4: Point) -> bool:
    d1, d2 = _cross(p3, p4, p1), _cross(p3, p4, p2)
    d3, d4 = _cross(p1, p2, p3), _cross(p1, p2, p4)
    if ((d1 > 0) != (d2 > 0)) and d1 and d2 and ((d3 > 0) != (d4 > 0)) and d3 and d4:
        return True
    return ((d1 == 0 and _on(p3, p4, p1)) or (d2 == 0 and _on(p3, p4, p2))
            or (d3 == 0 and _on(p1, p2, p3)) or (d4 == 0 and _on(p1, p2, p4)))


def inside(p: Point, outline: tuple[Point, ...]) -> bool:
    """Whether a point lies inside a polygon (even-odd rule); the picture uses it too."""
    x, y = p
    result = False
    for (x1, y1), (x2, y2) in _edges(outline):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result
