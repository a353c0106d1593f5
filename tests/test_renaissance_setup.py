"""Starting a Renaissance game: the 1493 world, the setup file's validation, amendments, the synthetic world."""

from __future__ import annotations

import json
import time
import tomllib
from collections.abc import Callable
from typing import Any

import pytest

from maild.ruleset import SetupError
from maild_rules.renaissance.items import ALL_ITEMS, CLASSES
from maild_rules.renaissance.orderkinds import SKILLS
from maild_rules.renaissance.setup import (
    OFFICES,
    amend,
    find_location,
    great_circle_miles,
    location_key,
    new_game,
)
from maild_rules.renaissance.worldgen import generate
from tests.paths import ROOT
from tests.renaissance_fixtures import small_setup, small_state

EXAMPLE = ROOT / "examples" / "renaissance" / "setup.toml"


@pytest.fixture(scope="module")
def world() -> dict[str, Any]:
    with open(EXAMPLE, "rb") as f:
        return new_game(tomllib.load(f))


def setup_error(change: Callable[[dict[str, Any]], Any]) -> str:
    setup = small_setup()
    change(setup)
    with pytest.raises(SetupError) as info:
        new_game(setup)
    return str(info.value)


def persona(setup: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p for f in setup["families"] for p in f["personae"] if p["id"] == pid)


def location(setup: dict[str, Any], name: str) -> dict[str, Any]:
    return next(loc for loc in setup["locations"] if loc["name"] == name)


# --- the 1493 world -----------------------------------------------------------------------------------------

def test_example_world_loads(world: dict[str, Any]) -> None:
    assert world["calendar"] == {"year": 1493, "month": 1}
    assert len(world["locations"]) >= 80
    assert len(world["families"]) >= 12
    json.dumps(world)  # stored as JSON


def test_example_personae_are_somewhere_real(world: dict[str, Any]) -> None:
    locations = world["locations"]
    for pid, p in world["personae"].items():
        assert p["location"] in locations, pid
        assert p["citizenship"] in locations, pid
        assert pid[:2] == f"{world['families'][p['family']]['number']:02d}"
        assert set(p["skills"]) <= set(SKILLS)
        assert set(p["assets"]) <= set(ALL_ITEMS)
    for family in world["families"].values():
        assert 1 <= len(family["personae"]) <= 5


def test_example_families_hold_real_offices(world: dict[str, Any]) -> None:
    held = {(holder, office, name) for name, loc in world["locations"].items()
            for office, holder in loc["offices"].items() if holder in world["personae"]}
    assert ("0201", "sovereign", "Rome") in held  # Pope Alexander VI
    assert ("0202", "archbishop", "Valencia") in held  # Cesare Borgia
    assert ("0403", "archbishop", "Esztergom") in held  # Ippolito d'Este, aged 13
    families = {world["personae"][h]["family"] for h, _, _ in held}
    assert len(families) >= 12


def test_example_markets_and_ports(world: dict[str, Any]) -> None:
    locs = world["locations"]
    for name, loc in locs.items():
        assert set(loc["supplied"]) <= set(ALL_ITEMS), name
        assert set(loc["demanded"]) <= set(CLASSES), name
        assert set(loc["offices"]) == {*OFFICES, "dfc"}
        for market in (*loc["supplied"].values(), *loc["demanded"].values()):
            assert market["qty"] == round(market["bq"] * loc["population"]), name
    for port in ("Venice", "Genoa", "Lisbon", "Seville", "Antwerp", "London", "Constantinople", "Alexandria",
                 "Naples", "Marseille", "Barcelona", "Bruges", "Lubeck", "Ragusa"):
        assert locs[port]["harbor"] and locs[port]["harbor"] > 0, port
    assert locs["Milan"]["harbor"] is None
    assert {n for n, loc in locs.items() if loc["may_colonize"]} >= {"Funchal", "Las Palmas", "Angra"}


def test_example_ferries_are_short_except_the_rules_two(world: dict[str, Any]) -> None:
    """TRAVEL: ferries cross no more than five miles, except Dover-Calais and Campbeltown-Torehead."""
    locs = world["locations"]
    exceptions = {frozenset(("Dover", "Calais")), frozenset(("Campbeltown", "Torr Head"))}
    pairs = {frozenset((a, b)) for a, loc in locs.items() for b in loc["ferries"]}
    assert exceptions <= pairs
    assert frozenset(("Constantinople", "Scutari")) in pairs and frozenset(("Gallipoli", "Lampsacus")) in pairs
    for pair in pairs - exceptions:
        a, b = (locs[n] for n in pair)
        assert great_circle_miles(a["lat"], a["lon"], b["lat"], b["lon"]) <= 5, sorted(pair)
        assert all(n in locs[m]["ferries"] for n in pair for m in pair if m != n)  # both ends list each other


def test_example_pilgrimage_table(world: dict[str, Any]) -> None:
    locs = world["locations"]
    assert locs["Rome"]["pilgrimage"] == {"catholic": [[2, 30]]}
    assert locs["Jerusalem"]["pilgrimage"]["catholic"] == [[4, 100]]
    assert locs["Jerusalem"]["pilgrimage"]["jewish"] == [[4, 120], [6, 40], [9, 40]]
    assert locs["Mecca"]["pilgrimage"]["sunni"] == [[4, 200]]
    assert locs["Santiago de Compostela"]["pilgrimage"] == {"catholic": [[9, 50]]}
    assert locs["Mount Athos"]["pilgrimage"]["orthodox"] == [[12, 50]]
    assert find_location(world, "Santiago") == "Santiago de Compostela"
    assert find_location(world, "MountAthos") == "Mount Athos"
    assert "pilgrimage" not in locs["Milan"]
    assert world["pope"] == "0201"
    assert all(locs[n]["elective_ruler"] for n in ("Florence", "Ragusa", "Venice"))


def test_example_players_families_share_a_religion(world: dict[str, Any]) -> None:
    by_player: dict[str, set[str]] = {}
    for family in world["families"].values():
        by_player.setdefault(family["player"], set()).add(family["religion"])
    assert all(len(r) == 1 for r in by_player.values())
    assert set(by_player) == set(world["players"])


# --- the state made -------------------------------------------------------------------------------------------

def test_small_state_defaults() -> None:
    state = small_state()
    p = state["personae"]["0101"]
    assert p["alive"] is True and p["at_sea"] is None and p["with"] is None
    assert p["boarding_permits"] == [] and p["alms_year"] == {} and p["collector"] == []
    assert p["skills"]["merchantry"] == 900  # MERCHANTRY: a master's rating is raised to 900
    assert p["morale"] == 500 and state["personae"]["0102"]["morale"] == 0  # no troops, no morale
    assert p["citizenship"] == "Florence" and p["inside"] is True
    assert state["personae"]["0202"]["inside"] is True  # Florence's setup lists DORIA in its ingress
    florence = state["locations"]["Florence"]
    assert "pilgrimage" not in florence  # only centres carry the key
    assert state["pope"] is None
    assert florence["offices"]["tenant"] is None and florence["offices"]["dfc"] is None
    assert florence["colonists_this_turn"] == 0 and florence["food_satisfied"] is True  # Florence demands no food
    assert state["locations"]["Genoa"]["food_satisfied"] is False  # 2,500 food still wanted (M9)
    assert state["locations"]["Livorno"]["ferries"] == ["Pisa"]  # both ends list the ferry
    assert state["locations"]["Pisa"]["supplied"]["grain"]["bq"] == 0.04  # worked out from qty
    assert state["roads"] == {"Florence|Pisa": 40}
    assert state["families"]["DORIA"] == {"player": "ADR", "religion": "catholic", "origin": "european",
                                          "personae": ["0201", "0202"], "number": 2}
    assert state["players"]["LMD"]["account"] == {"balance": 0.0, "history": []}
    assert state["fees"]["conflict_actions"] == 25 and state["fees"]["per_family"] == 5.0
    assert state["harbor_deepened"] == {} and state["log"] == []


# --- setup errors -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("change", "message"), [
    (lambda s: persona(s, "0101")["assets"].update({"grains": 4}), "unknown item 'grains'"),
    (lambda s: location(s, "Genoa")["supplied"].update({"olive oil": {"qty": 4, "price": 2}}),
     "unknown item 'olive oil'"),
    (lambda s: location(s, "Genoa")["demanded"].update({"spice": {"qty": 4, "price": 2}}), "unknown class 'spice'"),
    (lambda s: persona(s, "0101").update(location="Atlantis"), "location 'Atlantis' is not a location"),
    (lambda s: persona(s, "0101").update(citizenship="Atlantis"), "citizenship 'Atlantis' is not a location"),
    (lambda s: location(s, "Pisa").update(ferries=["Elba"]), "locations #2 (Pisa): ferry to 'Elba' is not"),
    (lambda s: s["roads"].append({"from": "Florence", "to": "Siena", "miles": 30}), "to 'Siena' is not a location"),
    (lambda s: location(s, "Pisa").update(see="Lucca"), "locations #2 (Pisa): see 'Lucca' is not a location"),
    (lambda s: persona(s, "0202").update(id="0101"), "persona id 0101 is used twice"),
    (lambda s: s["locations"].append(dict(location(s, "Pisa"))), "the location Pisa is set up twice"),
    (lambda s: s["families"].append(dict(s["families"][0], number=3)), "the family MEDICI is set up twice"),
    (lambda s: persona(s, "0202").update(id="0303"), "persona id must be 02NN"),
    (lambda s: s["families"][1].pop("player"), "families #2 (DORIA): player missing"),
    (lambda s: s["families"][1].update(player="XYZ"), "player 'XYZ' is not a player code"),
    (lambda s: s["families"][1].update(player="LMD", religion="sunni"), "player LMD: families of different"),
    (lambda s: s["locations"].append({"name": "Pi-sa", "lat": 1, "lon": 1, "population": 1, "religion": "catholic"}),
     "'Pi-sa' collides with the location Pisa"),
    (lambda s: location(s, "Genoa").update(aliases=["Flo rence"]), "'Flo rence' collides with the location Florence"),
    (lambda s: location(s, "Genoa").update(loyalty=1000), "loyalty must be a whole number from 0 to 999"),
    (lambda s: persona(s, "0101").update(popularity=-1), "popularity must be a whole number from 0 to 999"),
    (lambda s: persona(s, "0101")["skills"].update(letters=1200), "skills.letters must be a whole number from 0"),
    (lambda s: persona(s, "0101")["skills"].update(cooking=1), "unknown skill 'cooking'"),
    # THE PERSONAE FAMILIES: "up to 20 skills"; the code sheet has 21, all held here.
    (lambda s: persona(s, "0101")["skills"].update({k: 1 for k in SKILLS}), "a persona has up to 20"),
    (lambda s: location(s, "Genoa").update(lat=95.0), "locations #4 (Genoa): lat must be a number from -90 to 90"),
    (lambda s: location(s, "Genoa").update(lon=-181), "lon must be a number from -180 to 180"),
    (lambda s: location(s, "Genoa")["offices"].update(bishop="0909"), "offices.bishop names persona 0909"),
    (lambda s: location(s, "Genoa").update(name="Genoa!"), "locations #4: name must be letters"),
    (lambda s: location(s, "Genoa").update(harbour=20), "unknown key(s) harbour"),
    (lambda s: s["roads"].append({"from": "Florence", "to": "Genoa", "miles": 10}), "miles must be from"),
    (lambda s: location(s, "Genoa")["offices"].update(magistrate="0102") or location(s, "Pisa")["offices"].update(
        magistrate="0102"), "0102 is already magistrate of"),
    (lambda s: persona(s, "0201").update(female=True) or location(s, "Genoa")["offices"].update(bishop="0201"),
     "female personae may not hold ecclesiastic positions"),
    (lambda s: s["game"].update(start="1493-13"), "game: start must be"),
    (lambda s: s["game"].update(pope="0909"), "game: pope '0909' is not a persona id"),
    (lambda s: persona(s, "0101").update(female=True) or s["game"].update(pope="0101"), "must be a male Catholic"),
    (lambda s: location(s, "Genoa").update(pilgrimage={"catholic": [[13, 5]]}), "month must be a whole number"),
    (lambda s: location(s, "Genoa").update(pilgrimage={"zoroastrian": [[1, 5]]}), "unknown religion"),
])
def test_setup_errors(change: Callable[[dict[str, Any]], Any], message: str) -> None:
    assert message in setup_error(change)


def test_a_player_plays_at_most_seven_families() -> None:
    def eight(setup: dict[str, Any]) -> None:
        for n in range(3, 10):
            setup["families"].append({"name": "DORIA" + "X" * n, "number": n, "player": "ADR",
                                      "religion": "catholic", "personae": [
                                          {"id": f"{n:02d}01", "name": "x", "location": "Genoa"}]})
    assert "player ADR: plays 8 families" in setup_error(eight)


def test_every_problem_is_reported_at_once() -> None:
    message = setup_error(lambda s: (persona(s, "0101")["assets"].update({"gold bar": 1}),
                                     location(s, "Genoa").update(wealth=-3)))
    assert "gold bar" in message and "wealth" in message


# --- location names -----------------------------------------------------------------------------------------

def test_location_key_and_find_location() -> None:
    assert location_key("Santiago de Compostela") == "santiagodecompostela"
    assert location_key("Santiago_de-Compostela") == "santiagodecompostela"
    state = small_state()
    assert find_location(state, "Florence") == "Florence"
    assert find_location(state, "florence") == "Florence"
    assert find_location(state, "FLO_RENCE") == "Florence"
    assert find_location(state, "Siena") is None
    assert find_location(state, "") is None
    amend(state, {"locations": [{"name": "San Gimignano", "lat": 43.47, "lon": 11.04, "population": 3000,
                                 "religion": "catholic", "aliases": ["SanGemignano"]}]})
    assert find_location(state, "SanGimignano") == "San Gimignano"  # the index follows amendments
    assert find_location(state, "san_gemignano") == "San Gimignano"


# --- amendments ---------------------------------------------------------------------------------------------------

def test_amend_adds_a_location_a_family_and_a_player() -> None:
    state = small_state()
    lines = amend(state, {
        "players": [{"code": "SFZ", "name": "Sforza player", "email": "sfz@example.org"}],
        "locations": [{"name": "Siena", "lat": 43.32, "lon": 11.33, "population": 20000, "religion": "catholic",
                       "requested_by": "LMD", "offices": {"sovereign": "0301"}}],
        "families": [{"name": "SFORZA", "player": "SFZ", "religion": "catholic", "personae": [
            {"id": "0301", "name": "Ludovico Sforza", "location": "Siena", "assets": {"ducats": 1000}}]}],
        "roads": [{"from": "Florence", "to": "Siena", "miles": 30}],
    }, turn=4)
    assert "Siena" in state["locations"]
    assert state["families"]["SFORZA"]["number"] == 3
    assert state["personae"]["0301"]["inside"] is True
    assert state["roads"]["Florence|Siena"] == 30
    account = state["players"]["LMD"]["account"]
    assert account["balance"] == -10.0
    assert account["history"] == [{"turn": 4, "kind": "setup", "what": "location setup Siena", "amount": -10.0}]
    assert any(line.startswith("location Siena") for line in lines)
    assert any(line.startswith("family SFORZA") for line in lines)
    assert any("billed 10.00" in line for line in lines)


def test_amend_bills_one_location_setup_per_player_per_turn() -> None:
    state = small_state()
    siena = {"name": "Siena", "lat": 43.32, "lon": 11.33, "population": 1, "religion": "catholic",
             "requested_by": "LMD"}
    amend(state, {"locations": [siena]}, turn=2)
    lucca = {"name": "Lucca", "lat": 43.84, "lon": 10.50, "population": 1, "religion": "catholic",
             "requested_by": "LMD"}
    with pytest.raises(SetupError, match="one location setup per player per turn"):
        amend(state, {"locations": [lucca]}, turn=2)
    amend(state, {"locations": [lucca]}, turn=3)
    assert state["players"]["LMD"]["account"]["balance"] == -20.0
    lines = amend(state, {"locations": [dict(siena, name="Arezzo", lat=43.46, lon=11.88)]})
    assert "not billed" in lines[-1]  # no turn given: the caller bills


def test_amend_refuses_duplicates_and_changes_nothing() -> None:
    state = small_state()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(SetupError, match="the location Pisa is set up twice"):
        amend(state, {"locations": [{"name": "Pisa", "lat": 1, "lon": 1, "population": 1, "religion": "catholic"}]})
    with pytest.raises(SetupError, match="the family DORIA is set up twice"):
        amend(state, {"families": [{"name": "DORIA", "player": "ADR", "religion": "catholic", "personae": [
            {"id": "0301", "name": "x", "location": "Genoa"}]}]})
    with pytest.raises(SetupError, match="the player code LMD is used twice"):
        amend(state, {"players": [{"code": "LMD", "name": "again", "email": "x@example.org"}]})
    with pytest.raises(SetupError, match="persona id 0101 is used twice"):
        amend(state, {"families": [{"name": "ESTE", "number": 1, "player": "LMD", "religion": "catholic",
                                    "personae": [{"id": "0101", "name": "x", "location": "Genoa"}]}]})
    with pytest.raises(SetupError, match="one location setup per player per turn"):
        amend(state, {"locations": [
            {"name": "Siena", "lat": 43.32, "lon": 11.33, "population": 1, "religion": "catholic",
             "requested_by": "LMD"},
            {"name": "Lucca", "lat": 43.84, "lon": 10.50, "population": 1, "religion": "catholic",
             "requested_by": "LMD"}]})
    with pytest.raises(SetupError, match="unknown key"):
        amend(state, {"game": {}})
    assert json.dumps(state, sort_keys=True) == before


# --- the synthetic world ------------------------------------------------------------------------------------------

def test_worldgen_loads_quickly_and_is_deterministic() -> None:
    setup = generate(locations=4000, families=1000)
    assert generate(locations=4000, families=1000) == setup
    started = time.perf_counter()
    state = new_game(setup)
    assert time.perf_counter() - started < 5
    assert len(state["locations"]) == 4000 and len(state["families"]) == 1000
    assert len(state["personae"]) == 5000
    where: dict[str, int] = {}
    for p in state["personae"].values():
        where[p["location"]] = where.get(p["location"], 0) + 1
        assert p["assets"]["ducats"] > 0
    assert max(where.values()) >= 5  # personae share locations
    assert sum(1 for loc in state["locations"].values() if loc["supplied"] and loc["demanded"]) == 4000
    assert generate(locations=50, families=10, seed=2) != generate(locations=50, families=10, seed=3)


def test_the_docs_amendment_example_applies(world: dict[str, Any]) -> None:
    """docs/renaissance/world.md's amendment is a working file."""
    doc = (ROOT / "docs" / "renaissance" / "world.md").read_text(encoding="utf-8")
    block = next(b for b in doc.split("```toml\n") if b.startswith("# amend-")).split("```")[0]
    state = json.loads(json.dumps(world))
    lines = amend(state, tomllib.loads(block), turn=5)
    assert state["families"]["AVIZ"]["number"] == 19 and state["locations"]["Santa Cruz"]["may_colonize"]
    assert lines[-1] == "player TRA billed 10.00 for setting up Santa Cruz"


def test_worldgen_ids_beyond_99_families() -> None:
    state = new_game(generate(locations=300, families=120, personae_per_family=3, seed=7))
    assert state["families"][next(iter(state["families"]))]["personae"] == ["0101", "0102", "0103"]
    assert len(state["personae"]) == 360 and all(len(pid) == 4 for pid in state["personae"])
    assert max(len(f) for f in _families_by_player(state).values()) <= 7


def _families_by_player(state: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, family in state["families"].items():
        out.setdefault(family["player"], []).append(name)
    return out
