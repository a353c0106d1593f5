"""The sea in a season: searches (10% a ship, certain with air superiority), naval battles at attack strength,
ports, loading and unloading, cargo lost with its ships, landings across the shoreline. Readings:
docs/grand-game.md, "The seasons" (GG-OQ-24).

The example board: S01 (air zone ZA) touches Aurelia's north coast (C2, D2, E2, F2) and S02, S04; S02 (zone ZC)
touches Borvane's port K2 and J2; S04 (zone ZB) touches F2 and J2.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from maild_rules.grandgame import naval
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.season import Season
from maild_rules.grandgame.state import owner, stack
from tests.grandgame_season_support import game, mine, news, put, resolve

DRAWS = 10**5


def within_4_sigma(count: int, draws: int, chance: Fraction) -> bool:
    p = float(chance)
    return abs(count - draws * p) <= 4 * math.sqrt(draws * p * (1 - p))


def engagements(ships_a: int, ships_b: int, draws: int, seed: int) -> int:
    """How often the engine's search (naval.Sea.engage) brings two navies in S01 to battle."""
    state = game()
    sea = naval.Sea(Season(state, 1, "spring", [], random.Random(seed), Report()))
    met = 0
    for _ in range(draws):
        state["forces"]["S01"] = {"alice": {"light fleet": ships_a}, "bruno": {"light fleet": ships_b}}
        before = len(sea.s.report.public.get(naval.SEA, []))
        sea.engage("S01", "alice", "S01", "bruno")
        met += "they meet" in " ".join(sea.s.report.public[naval.SEA][before:])
    return met


def test_search_10_percent_a_ship_within_4_sigma() -> None:
    # "a lone ship has only a 10% chance of finding an enemy armada": two lone ships meet with 1 - 0.9 x 0.9 = 19%;
    # 5 ships against 3: 1 - 0.5 x 0.7 = 65%.
    assert within_4_sigma(engagements(1, 1, DRAWS, 1), DRAWS, Fraction(19, 100))
    assert within_4_sigma(engagements(5, 3, DRAWS // 2, 2), DRAWS // 2, Fraction(65, 100))


def test_ten_ships_always_find() -> None:
    assert engagements(10, 1, 200, 3) == 200


def test_air_superiority_spots_the_fleet() -> None:
    # "Air superiority guarantees the fleet will be spotted": alice's plane over ZA, where S01 lies.
    for seed in range(20):
        state = game()
        put(state, "S01", "alice", light_fleet=1)
        put(state, "S01", "bruno", light_fleet=1)
        put(state, "D3", "alice", aircraft=1)
        report, _ = resolve(state, seed=seed, alice="1 air D3 -> ZA land D3")
        assert "they meet" in news(report), seed


def test_fleets_fight_at_attack_strength_supplied_from_their_cargo() -> None:
    # Both at attack strength (GG-OQ-24): alice's 2 heavy fleets with 2 supplies aboard 2 x 4 = 8; bruno's 2 light
    # fleets with none, unsupplied at 1: 2. Ten ships find each other for sure... here 4 ships: seeds until they meet.
    for seed in range(50):
        state = game()
        put(state, "S01", "alice", heavy_fleet=2, cargo_supply=2)
        put(state, "S01", "bruno", light_fleet=2)
        report, _ = resolve(state, seed=seed)
        if "they meet" in news(report):
            assert "Strengths alice 8, bruno 2." in news(report)
            assert stack(state, "S01", "alice").get("cargo", {}).get("supply", 0) == 0
            return
    raise AssertionError("they never met")


def test_attack_into_a_port() -> None:
    # "Combat in ports automatically triggers an engagement"; "The defending fleet receives a +1 defensive bonus":
    # bruno's 2 supplied light fleets in K2 defend at 2 x (2 + 1) = 6; alice's 2 supplied heavy fleets attack at 8
    # and go back to S02 ("may not conquer it").
    state = game()
    put(state, "K2", "bruno", light_fleet=2, supply=2)
    put(state, "S02", "alice", heavy_fleet=2, cargo_supply=2)
    report, _ = resolve(state, alice="2 hf S02 -> K2")
    assert "alice's 2 heavy fleet (strength 8) attack bruno's 2 light fleet (strength 6, +1 in port)" in news(report)
    assert owner(state, "K2") == "bruno"
    assert "alice" not in state["forces"].get("K2", {})
    assert ("S02", "K2") in report.attacks


def test_loading_at_sea_takes_the_season() -> None:
    # "the ship must already be in the sea territory and the land unit must already be in the adjacent territory";
    # "loading and unloading takes one full season for the units and the ship".
    state = game()
    put(state, "F2", "alice", infantry=2)
    put(state, "S04", "alice", light_fleet=1)
    report, _ = resolve(state, alice=["load 2 inf F2 onto S04", "1 lf S04 -> S02"])
    assert stack(state, "S04", "alice") == {"light fleet": 1, "cargo": {"infantry": 2}}
    assert "may not sail" in mine(report, "alice")


def test_a_light_fleet_carries_two_land_units() -> None:
    state = game()
    put(state, "F2", "alice", infantry=3)
    put(state, "S04", "alice", light_fleet=1)
    report, _ = resolve(state, alice="load 3 inf F2 onto S04")
    assert "need 2 light fleets" in mine(report, "alice")
    assert stack(state, "F2", "alice")["infantry"] == 3


def test_loading_in_port_is_free_and_so_is_unloading() -> None:
    # "You may load units in port, then dispatch the ship to sea in the same season, or sail into a port and
    # unload in the same season."
    state = game()
    put(state, "K2", "bruno", light_fleet=1, infantry=2, supply=3)
    resolve(state, bruno="1 lf K2 -> S02 with 2 inf, 3 supply")
    assert stack(state, "S02", "bruno") == {"light fleet": 1, "cargo": {"infantry": 2, "supply": 3}}
    resolve(state, bruno="1 lf S02 -> K2")
    assert stack(state, "K2", "bruno") == {"light fleet": 1, "infantry": 2, "supply": 3}


def test_a_landing_crosses_the_shoreline() -> None:
    # "Shoreline provides a directional defensive bonus against a landing army": bruno's 2 supplied infantry in J2
    # defend at 2 x (3 + 1) = 8; alice lands 2 infantry with their 2 supplies from S04: 4.
    state = game()
    put(state, "S04", "alice", light_fleet=1, cargo_infantry=2, cargo_supply=2)
    put(state, "J2", "bruno", infantry=2, supply=2)
    report, _ = resolve(state, alice="unload 2 inf S04 -> J2")
    assert "Strengths alice 4, bruno 8 (defending infantry +1 (shoreline))" in news(report)
    assert ("S04", "J2") in report.attacks


def test_a_beaten_landing_goes_back_aboard() -> None:
    state = game()
    put(state, "S04", "alice", light_fleet=1, cargo_infantry=1)
    put(state, "J2", "bruno", infantry=10, supply=10)
    for seed in range(40):
        s = {**state, "forces": {t: {p: {**u, "cargo": dict(u.get("cargo", {}))} if "cargo" in u else dict(u)
                                     for p, u in sides.items()} for t, sides in state["forces"].items()}}
        report, _ = resolve(s, seed=seed, alice="unload 1 inf S04 -> J2")
        if "back aboard" in mine(report, "alice"):
            assert stack(s, "S04", "alice")["cargo"] == {"infantry": 1}
            return
    raise AssertionError("the infantry never came back aboard")


def test_empty_fleets_sink_first_and_cargo_goes_down_with_its_ships() -> None:
    # "unloaded light fleets will be sunk before loaded fleets": 3 light fleets carrying 2 infantry (one loaded),
    # 2 sunk: the two empty ones, the cargo is safe. 2 fleets carrying 4 infantry, 1 sunk: 2 infantry go with it.
    left, cargo, sunk = naval.Sea.sink({"light fleet": 3}, {"infantry": 2}, 2)
    assert (left, cargo, sunk) == ({"light fleet": 1}, {"infantry": 2}, {"light fleet": 2})
    left, cargo, sunk = naval.Sea.sink({"light fleet": 2}, {"infantry": 4, "supply": 12}, 1)
    assert (left, cargo) == ({"light fleet": 1}, {"infantry": 2, "supply": 6})


def test_fleets_leave_a_port_taken_by_the_enemy() -> None:
    # K2 is taken from bruno (empty of land units); his fleet in the port puts to sea, in S02.
    state = game(owners={"L2": "alice"})
    put(state, "L2", "alice", infantry=2, supply=2)
    put(state, "K2", "bruno", light_fleet=1)
    resolve(state, alice="2 inf L2 -> K2 attack")
    assert owner(state, "K2") == "alice"
    assert stack(state, "S02", "bruno") == {"light fleet": 1}


def test_aircraft_base_on_heavy_fleets_one_a_fleet() -> None:
    # "Heavy fleets can base up to one aircraft and six supply": alice's 2 planes from D3 land on her one heavy fleet
    # in S01 (zone ZA): one lands, the other has no deck and is lost. Next season it takes off from the sea.
    state = game()
    put(state, "D3", "alice", aircraft=2)
    put(state, "S01", "alice", heavy_fleet=1)
    report, _ = resolve(state, alice="2 air D3 -> ZA land S01")
    assert stack(state, "S01", "alice") == {"heavy fleet": 1, "cargo": {"aircraft": 1}}
    assert "1 lost: no heavy fleet of yours with room" in mine(report, "alice")
    resolve(state, alice="1 air S01 -> ZA land D3")
    assert stack(state, "S01", "alice") == {"heavy fleet": 1} and stack(state, "D3", "alice") == {"aircraft": 1}


def test_aircraft_sink_with_their_heavy_fleet() -> None:
    left, cargo, _ = naval.Sea.sink({"heavy fleet": 2}, {"aircraft": 2}, 1)
    assert (left, cargo) == ({"heavy fleet": 1}, {"aircraft": 1})


def test_a_canal_by_its_holder_or_with_his_permission() -> None:
    # The Orrin Canal in H8 joins S14 and S17: "As long as the player possesses (or obtains permission from the owner
    # of) the canal, the player may pass ships through the canal." H8 given to greta here.
    state = game(owners={"H8": "greta", "G8": "greta"})
    put(state, "S14", "alice", light_fleet=1)
    put(state, "S14", "greta", light_fleet=1)
    report, _ = resolve(state, alice="1 lf S14 -> S17", greta="1 lf S14 -> S17")
    assert stack(state, "S17", "greta") == {"light fleet": 1} and stack(state, "S14", "alice") == {"light fleet": 1}
    assert "has not let you pass" in mine(report, "alice")
    resolve(state, alice="1 lf S14 -> S17", greta="allow alice canal H8")
    assert stack(state, "S17", "alice") == {"light fleet": 1}


def test_unloading_takes_the_season_of_the_ship() -> None:
    # "Unloading also takes a unit's full movement and must be done by a ship already in the adjacent sea zone":
    # a fleet that sails into S04 does not unload there the same season, and one that unloads does not sail.
    state = game()
    put(state, "S01", "alice", light_fleet=1, cargo_infantry=2)
    report, _ = resolve(state, alice=["1 lf S01 -> S04", "unload 2 inf S04 -> J2"])
    assert "already in the sea" in mine(report, "alice") and stack(state, "S04", "alice")["cargo"] == {"infantry": 2}
    state = game()
    put(state, "S04", "alice", light_fleet=1, cargo_infantry=2)
    report, _ = resolve(state, alice=["1 lf S04 -> S01", "unload 2 inf S04 -> J2"])
    assert "unload this season and may not sail" in mine(report, "alice") and owner(state, "J2") == "alice"
