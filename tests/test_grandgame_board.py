"""The Grand Game's board (issue 24): the map file format, its loader's checks, and the starter map shipped in
examples/grand-game/map.toml (docs/grand-game.md, "The map file")."""

from __future__ import annotations

import copy
import importlib.util
import re
import tomllib
from collections.abc import Callable
from typing import Any

import pytest

from maild.paths import EXAMPLES_DIR
from maild.ruleset import SetupError
from maild_rules.grandgame.board import Board, load_board
from tests.paths import ROOT

MAP = EXAMPLES_DIR / "grand-game" / "map.toml"


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return tomllib.loads(MAP.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def board(raw: dict[str, Any]) -> Board:
    return load_board(raw)


# --- the starter map ---------------------------------------------------------------------------------------


def test_the_starter_map_ships_with_maild_and_loads(board: Board) -> None:
    assert board.title == "The Sundered Coast" and board.players == 8


def test_the_starter_map_is_what_its_script_writes() -> None:
    # The map is deterministic: bench/grandgame_map.py redraws the same file.
    spec = importlib.util.spec_from_file_location("grandgame_map", ROOT / "bench" / "grandgame_map.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.build() == MAP.read_text(encoding="utf-8")


def test_the_starter_map_has_about_80_land_and_20_sea_territories(board: Board) -> None:
    land = [t for t in board.territories.values() if t.land]
    sea = [t for t in board.territories.values() if not t.land]
    assert 75 <= len(land) <= 85 and 18 <= len(sea) <= 24, (len(land), len(sea))


def test_the_starter_maps_adjacency_is_symmetric_as_written(raw: dict[str, Any]) -> None:
    nxt = {t["id"]: set(t["next"]) for t in raw["territory"]}
    assert all(a in nxt[b] for a, ns in nxt.items() for b in ns)
    assert all(a not in ns for a, ns in nxt.items())


def test_the_starter_map_is_one_connected_board(board: Board) -> None:
    assert _connected(board, set(board.territories))


def test_every_land_territory_is_in_one_economic_zone_of_4_to_6(board: Board) -> None:
    seen: dict[str, int] = {}
    for zone in board.zones.values():
        assert 4 <= len(zone.land) <= 6, (zone.id, zone.land)
        for t in zone.territories:
            seen[t] = seen.get(t, 0) + 1
    assert seen == {t: 1 for t in board.territories}  # land and sea alike, each in exactly one zone


def test_every_sea_territory_is_in_an_air_zone_with_land(board: Board) -> None:
    for t in board.territories.values():
        if not t.land:
            zone = board.zones[board.zone_of(t.id)]
            assert t.id in zone.sea and zone.land


def test_ports_are_cities_on_the_shoreline(board: Board) -> None:
    ports = [t for t in board.territories.values() if t.port]
    assert len(ports) >= 10
    for t in ports:
        assert t.city and board.coastal(t.id)
        assert any(board.shoreline(t.id, n) for n in t.neighbours)


def test_railroads_run_on_land_between_adjacent_territories(board: Board) -> None:
    rail = [t for t in board.territories.values() if t.railroad]
    assert len(rail) >= 25
    for t in rail:
        assert t.land
        assert any(board.territories[n].railroad for n in t.neighbours), t.id  # no station alone
    # The rail of the large countries joins at least two of their cities into one railway.
    for country in board.countries.values():
        if country.size == "large":
            cities = [t for t in country.territories if board.territories[t].city and board.territories[t].railroad]
            assert len(cities) >= 2 and cities[1] in board.railway(cities[0]), country.id


def test_every_country_is_connected_by_land(board: Board) -> None:
    for country in board.countries.values():
        assert _connected(board, set(country.territories)), country.id


def test_countries_for_8_players_half_large_half_small_and_neutrals(board: Board) -> None:
    open_ = [c for c in board.countries.values() if not c.neutral]
    neutral = [c for c in board.countries.values() if c.neutral]
    assert len(open_) >= board.players + 2 >= 10  # "at least two more countries than players"
    large = [c for c in open_ if c.size == "large"]
    small = [c for c in open_ if c.size == "small"]
    assert len(large) == len(small)
    assert all(12 <= len(c.territories) <= 18 for c in large)
    assert all(len(c.territories) < 12 for c in small + neutral)
    assert len(neutral) >= 2
    assert {t for c in board.countries.values() for t in c.territories} == {
        t.id for t in board.territories.values() if t.land}


def test_the_starter_map_has_its_terrain(board: Board) -> None:
    land = [t for t in board.territories.values() if t.land]
    assert sum(t.mountain for t in land) >= 8
    assert sum(t.city is not None for t in land) >= 2 * len(board.countries) - 4
    assert len(board.rivers) >= 8
    (canal,) = board.canals
    assert all(not board.territories[s].land for s in canal.seas)
    assert not board.adjacent(*canal.seas)  # ships pass between these seas only through the canal
    assert all(z.value > 0 for z in board.zones.values())


def test_every_territory_is_drawn_inside_the_map(board: Board) -> None:
    for t in board.territories.values():
        assert len(t.outline) >= 3
        assert all(0 <= x <= board.width and 0 <= y <= board.height for x, y in t.outline)


def _connected(board: Board, members: set[str]) -> bool:
    start = next(iter(members))
    seen, todo = {start}, [start]
    while todo:
        for n in board.territories[todo.pop()].neighbours:
            if n in members and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == members


# --- a hand-made map and each check of the loader ------------------------------------------------------------


def square(x: float, y: float, w: float = 100, h: float = 50) -> dict[str, Any]:
    return {"at": [x + w / 2, y + h / 2], "outline": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]}


def tiny() -> dict[str, Any]:
    """Three land territories in a row above a sea S1, a second sea S2 to the east: L3 is a canal between them."""
    return {
        "title": "Tiny", "players": 2, "drawing": {"width": 400, "height": 100},
        "territory": [
            {"id": "L1", "name": "One", "kind": "land", "next": ["L2", "S1"], "railroad": True, **square(0, 0)},
            {"id": "L2", "name": "Two", "kind": "land", "next": ["L1", "L3", "S1"], "city": "Twoport", "port": True,
             "railroad": True, "mountain": True, **square(100, 0)},
            {"id": "L3", "name": "Three", "kind": "land", "next": ["L2", "S1", "S2"], **square(200, 0)},
            {"id": "S1", "name": "South Sea", "kind": "sea", "next": ["L1", "L2", "L3", "S2"], **square(0, 50, 300)},
            {"id": "S2", "name": "East Sea", "kind": "sea", "next": ["L3", "S1"], **square(300, 0, 100, 100)},
        ],
        "zone": [{"id": "Z1", "name": "Only", "value": 3, "territories": ["L1", "L2", "L3", "S1", "S2"]}],
        "country": [{"id": "A", "name": "Ay", "size": "large", "territories": ["L1", "L2"]},
                    {"id": "B", "name": "Bee", "size": "small", "territories": ["L3"]}],
        "river": [{"between": ["L2", "L3"]}],
        "canal": [{"name": "Cut", "territory": "L3", "seas": ["S1", "S2"], "across": ["L2"]}],
    }


def test_the_hand_made_map_loads_with_every_feature() -> None:
    b = load_board(tiny())
    assert b.adjacent("L1", "L2") and not b.adjacent("L1", "L3")
    assert b.river("L3", "L2") and not b.river("L1", "L2")
    assert b.shoreline("L1", "S1") and not b.shoreline("L1", "L2") and not b.shoreline("S1", "S2")
    assert b.coastal("L2") and b.territories["L2"].port and b.territories["L2"].city == "Twoport"
    assert b.railway("L1") == {"L1", "L2"} and b.railway("L3") == frozenset()
    assert b.canal_across("L3", "L2") and not b.canal_across("L3", "S1")
    assert b.zone_of("S2") == "Z1" and b.home_country("L3") == "B" and b.home_country("S1") is None
    assert b.zones["Z1"].land == ("L1", "L2", "L3") and b.zones["Z1"].value == 3


def _t(data: dict[str, Any], ident: str) -> dict[str, Any]:
    return next(t for t in data["territory"] if t["id"] == ident)


def _drop_next(data: dict[str, Any], a: str, b: str) -> None:
    _t(data, a)["next"].remove(b)


Mutation = Callable[[dict[str, Any]], None]

BROKEN: dict[str, tuple[Mutation, str]] = {
    "unknown top key": (lambda d: d.update(colour="red"), "map: unknown key(s) colour"),
    "players missing": (lambda d: d.pop("players"), "players: missing"),
    "drawing missing": (lambda d: d.pop("drawing"), "drawing: missing"),
    "drawing size": (lambda d: d["drawing"].update(width=0), "drawing: width must be a number > 0"),
    "no territories": (lambda d: d.pop("territory"), "territory: missing"),
    "unknown territory key": (lambda d: _t(d, "L1").update(hill=True), "territory #1: unknown key(s) hill"),
    "bad id": (lambda d: _t(d, "L1").update(id="1X"), "territory #1: id must be a letter then"),
    "id repeated without case": (lambda d: _t(d, "L3").update(id="l1"),
                                 "territory #3 (l1): id repeats territory L1"),
    "no name": (lambda d: _t(d, "L1").pop("name"), "territory #1 (L1): name must be a non-empty string"),
    "bad kind": (lambda d: _t(d, "L1").update(kind="swamp"), "territory #1 (L1): kind must be \"land\" or \"sea\""),
    "next not a list": (lambda d: _t(d, "L1").update(next="L2"), "territory #1 (L1): next must be a list"),
    "next unknown": (lambda d: _t(d, "L1")["next"].append("L9"), "territory L1: next names L9, which is no"),
    "next itself": (lambda d: _t(d, "L1")["next"].append("L1"), "territory L1: next names the territory itself"),
    "adjacency one way": (lambda d: _drop_next(d, "L2", "L1"),
                          "territory L1: next names L2, but L2's next does not name L1"),
    "flag not boolean": (lambda d: _t(d, "L1").update(mountain="yes"),
                         "territory #1 (L1): mountain must be true or false"),
    "mountain at sea": (lambda d: _t(d, "S1").update(mountain=True),
                        "territory #4 (S1): mountain is for land territories, not a sea"),
    "railroad at sea": (lambda d: _t(d, "S1").update(railroad=True),
                        "territory #4 (S1): railroad is for land territories"),
    "city at sea": (lambda d: _t(d, "S1").update(city="Atlantis"), "territory #4 (S1): city is for land"),
    "city unnamed": (lambda d: _t(d, "L1").update(city=True), "territory #1 (L1): city must be the city's name"),
    "two cities of one name": (lambda d: _t(d, "L1").update(city="twoPort"),
                               "territory L2: city 'Twoport' has the name of the city in L1"),
    "port without city": (lambda d: _t(d, "L1").update(port=True), "territory #1 (L1): port needs a city"),
    "port inland": (lambda d: (_drop_next(d, "L2", "S1"), _drop_next(d, "S1", "L2")),
                    "territory L2: port on a territory with no sea in next"),
    "position missing": (lambda d: _t(d, "L1").pop("at"), "territory #1 (L1): at must be a point [x, y]"),
    "outline of two points": (lambda d: _t(d, "L1").update(outline=[[0, 0], [10, 10]]),
                              "territory #1 (L1): outline must be a list of at least 3 points"),
    "outline crossing itself": (lambda d: _t(d, "L1").update(outline=[[0, 0], [100, 50], [100, 0], [0, 50]]),
                                "territory #1 (L1): outline crosses itself"),
    "position outside outline": (lambda d: _t(d, "L1").update(at=[150, 25]),
                                 "territory #1 (L1): at [150.0, 25.0] lies outside its outline"),
    "outside the drawing": (lambda d: _t(d, "S2").update(outline=[[300, 0], [500, 0], [500, 100], [300, 100]]),
                            "territory #5 (S2): at and outline must lie within the drawing"),
    "no zones": (lambda d: d.pop("zone"), "zone: missing"),
    "zone value missing": (lambda d: d["zone"][0].pop("value"), "zone #1 (Z1): value missing"),
    "zone value negative": (lambda d: d["zone"][0].update(value=-1),
                            "zone #1 (Z1): value must be a whole number >= 0"),
    "zone names unknown": (lambda d: d["zone"][0]["territories"].append("L9"),
                           "zone #1 (Z1): territories names L9, which is no territory"),
    "zone names twice": (lambda d: d["zone"][0]["territories"].append("L1"),
                         "zone #1 (Z1): territories names L1 twice"),
    "territory in two zones": (lambda d: d["zone"].append({"id": "Z2", "name": "Two", "value": 1,
                                                             "territories": ["L1"]}),
                               "zone #2 (Z2): territories names L1, already in zone Z1"),
    "land in no zone": (lambda d: d["zone"][0]["territories"].remove("L3"),
                        "territory L3: in no zone (every land territory belongs to one economic zone)"),
    "sea in no zone": (lambda d: d["zone"][0]["territories"].remove("S2"),
                       "territory S2: in no zone (every sea territory belongs to one air zone)"),
    "zone of sea only": (lambda d: (d["zone"][0]["territories"].remove("S2"),
                                    d["zone"].append({"id": "Z2", "name": "Open sea", "value": 0,
                                                      "territories": ["S2"]})),
                         "zone #2 (Z2): territories names no land territory"),
    "no countries": (lambda d: d.pop("country"), "country: missing"),
    "country size": (lambda d: d["country"][0].update(size="huge"),
                     "country #1 (A): size must be \"large\" or \"small\""),
    "country neutral not boolean": (lambda d: d["country"][0].update(neutral="no"),
                                    "country #1 (A): neutral must be true or false"),
    "country holds a sea": (lambda d: d["country"][0]["territories"].append("S1"),
                            "country #1 (A): territories names S1, a sea"),
    "land in two countries": (lambda d: d["country"][1]["territories"].append("L2"),
                              "country #2 (B): territories names L2, already in country A"),
    "land in no country": (lambda d: d["country"][1]["territories"].remove("L3"),
                           "territory L3: in no country"),
    "too few countries for the players": (lambda d: d.update(players=3),
                                          "country: 2 countries the players may pick, fewer than players = 3"),
    "neutrals are not picked": (lambda d: d["country"][1].update(neutral=True),
                                "country: 1 countries the players may pick, fewer than players = 2"),
    "river of one territory": (lambda d: d["river"][0].update(between=["L2"]),
                               "river #1: between must be two different territory ids"),
    "river unknown": (lambda d: d["river"][0].update(between=["L2", "L9"]),
                      "river #1: between names L9, which is no territory"),
    "river at sea": (lambda d: d["river"][0].update(between=["L2", "S1"]),
                     "river #1: between L2 and S1: a river runs between two land territories"),
    "river between strangers": (lambda d: d["river"][0].update(between=["L1", "L3"]),
                                "river #1: between L1 and L3, which are not next to each other"),
    "canal at sea": (lambda d: d["canal"][0].update(territory="S1"),
                     "canal #1: territory must be a land territory, found 'S1'"),
    "canal to a far sea": (lambda d: d["canal"][0].update(territory="L2", across=[]),
                           "canal #1: seas must be two sea territories next to L2"),
    "canal across a stranger": (lambda d: d["canal"][0].update(across=["L1"]),
                                "canal #1: across must list land territories next to L3"),
}


@pytest.mark.parametrize("mutate, message", BROKEN.values(), ids=BROKEN.keys())
def test_a_broken_map_is_refused_naming_its_key(mutate: Mutation, message: str) -> None:
    data = copy.deepcopy(tiny())
    mutate(data)
    with pytest.raises(SetupError, match=re.escape(message)):
        load_board(data)


def test_every_problem_of_a_map_is_reported_at_once() -> None:
    data = tiny()
    data["zone"][0]["territories"].remove("L3")
    _t(data, "S1")["mountain"] = True
    with pytest.raises(SetupError) as err:
        load_board(data)
    assert "territory L3: in no zone" in str(err.value) and "S1): mountain is for land" in str(err.value)
