"""A combat season of the Grand Game: the orders as players write them, land battles with their figures worked by
hand from the rules, advance and retreat, rail moves and permissions, the air war, the League of Nations, the
bomb, battle cards. Readings: docs/grand-game.md, "The seasons".

The board is the example's (The Sundered Coast): alice holds Aurelia (D3, E3, C4 ...), bruno Borvane (J2, K2,
K3 ...), farid Ferroway (D4, E4, E5); Nesse (C5, D5) is a Neutral Power. D3 and D4 are plain, next to each other,
no river between them.
"""

from __future__ import annotations

import copy
import math
import random
import time
from fractions import Fraction

import pytest

from maild_rules.grandgame import battlecards, combat, landbattle, season
from maild_rules.grandgame.landbattle import Footing, Troop
from maild_rules.grandgame.printout import sections_of
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.state import NEUTRAL, owner, player, stack
from tests.grandgame_season_support import game, mine, news, orders, put, resolve

DRAWS = 10**5


def within_4_sigma(count: int, draws: int, chance: Fraction) -> bool:
    p = float(chance)
    return abs(count - draws * p) <= 4 * math.sqrt(draws * p * (1 - p))


# ---- reading the orders ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "kind", "args"), [
    ("2 inf K14 -> K15 attack", "move", {"units": {"infantry": 2}, "from": "K14", "to": "K15", "attack": True,
                                         "supply": None, "partners": []}),
    ("2 infantry from K14 to K15", "move", {"units": {"infantry": 2}, "from": "K14", "to": "K15", "attack": False,
                                            "supply": None, "partners": []}),
    ("attack K15 with 2 inf, 1 arm from K14", "move", {"units": {"infantry": 2, "armor": 1}, "from": "K14",
                                                       "to": "K15", "attack": True, "supply": None, "partners": []}),
    ("2 Inf k14 -> k15 with 3 supply", "move", {"units": {"infantry": 2}, "from": "K14", "to": "K15",
                                                "attack": False, "supply": 3, "partners": []}),
    ("2 inf K14 -> K15 attack with bruno", "move", {"units": {"infantry": 2}, "from": "K14", "to": "K15",
                                                    "attack": True, "supply": None, "partners": ["bruno"]}),
    ("attack K15 with bruno", "coordinate", {"to": "K15", "partners": ["bruno"]}),
    ("hold", "hold", {"territory": None}),
    ("reserve 1 inf K14", "reserve", {"units": {"infantry": 1}, "at": "K14", "to": None}),
    ("rail 3 inf K2 -> K5", "rail", {"units": {"infantry": 3}, "from": "K2", "to": "K5"}),
    ("3 infantry from K2 to K5 by rail", "rail", {"units": {"infantry": 3}, "from": "K2", "to": "K5"}),
    ("allow bruno rail in K14, K15 up to 3 units", "permit",
     {"player": "bruno", "territories": ["K14", "K15"], "most": 3, "supplies_only": False, "not_cities": False}),
    ("Jeff may use my railways as long as not in my cities", None, None),
    ("allow jeff rail supplies only", "permit",
     {"player": "jeff", "territories": None, "most": None, "supplies_only": True, "not_cities": False}),
    ("allow jeff rail not in my cities", "permit",
     {"player": "jeff", "territories": None, "most": None, "supplies_only": False, "not_cities": True}),
    ("only 2 infantry use supply in K14", "only", {"territory": "K14", "count": 2}),
    ("allow bruno canal H8", "canal", {"player": "bruno", "territory": "H8"}),
    ("let bruno pass my canals", "canal", {"player": "bruno", "territory": None}),
    ("load 2 inf K14 onto S03", "load", {"units": {"infantry": 2}, "from": "K14", "onto": "S03"}),
    ("unload 2 inf S03 -> K15", "unload", {"units": {"infantry": 2}, "from": "S03", "to": "K15"}),
    ("2 lf S03 -> S04", "sail", {"units": {"light fleet": 2}, "from": "S03", "to": "S04", "cargo": {}}),
    ("2 lf K5 -> S12 with 2 inf, 3 supply", "sail",
     {"units": {"light fleet": 2}, "from": "K5", "to": "S12", "cargo": {"infantry": 2, "supply": 3}}),
    ("losses K15 bruno", "losses", {"territory": "K15", "first": "bruno"}),
    ("destroy railroad K14", "destroy", {"territory": "K14"}),
    ("2 air ZA -> ZB land K14", "air", {"count": 2, "from": "ZA", "zone": "ZB", "land": "K14"}),
    ("bomb zone ZB with 2 air", "bombing", {"zone": "ZB", "count": 2}),
    ("drop bomb on ZB", "drop", {"zone": "ZB"}),
    ("contribute 24 to K8", "contribute", {"francs": 24, "to": "K8"}),
])
def test_orders_in_plain_words(line: str, kind: str | None, args: dict | None) -> None:
    read = season.read_line(line)
    if kind is None:  # a form we do not take: a message, never a wrong order
        assert isinstance(read, str)
        return
    assert read is not None and not isinstance(read, str), read
    assert (read.kind, read.args) == (kind, args)


def test_an_attack_from_two_places_in_one_line() -> None:
    read = season.read_line("attack K15 with 2 inf from K14 and 1 arm from K16")
    assert read is not None and not isinstance(read, str)
    assert [(g["from"], g["units"]) for g in read.args["groups"]] == [("K14", {"infantry": 2}), ("K16", {"armor": 1})]


def test_wrong_lines_get_a_message_and_other_lines_are_not_ours() -> None:
    assert isinstance(season.read_line("2 inf K14 -> K15 on tuesday"), str)
    assert isinstance(season.read_line("2 lf, 2 inf S03 -> S04"), str)
    assert isinstance(season.read_line("rail 2 lf K2 -> K5"), str)
    assert season.read_line("bid 30 on Aurelia") is None


# ---- land battles: the 30:10 example --------------------------------------------------------------------------

def thirty_to_ten() -> dict:
    """alice in D3: 5 armor and 5 infantry, supplied: 5 x 4 + 5 x 2 = 30 on attack. farid in D4: 2 infantry and 2
    armor, supplied: 2 x 3 + 2 x 2 = 10 on defense (plain, spring, no river)."""
    state = game()
    put(state, "D3", "alice", armor=5, infantry=5, supply=10)
    put(state, "D4", "farid", infantry=2, armor=2, supply=4)
    return state


def test_30_to_10_in_the_newsletter() -> None:
    state = thirty_to_ten()
    report, _ = resolve(state, alice="5 arm, 5 inf D3 -> D4 attack")
    assert "Strengths alice 30, farid 10; alice's chance 75%." in news(report)
    assert ("D3", "D4") in report.attacks
    assert all(len(line) <= 76 for s in sections_of(report.public) for line in s["lines"])


def test_30_to_10_engine_draws_as_combat_fight() -> None:
    # The engine's battle is combat.fight's draws in its order (victory, one kill draw per defender at 3/8, one per
    # attacker at 1/8), so each seed gives the same battle as combat.fight(30, 10, 10, 4).
    for seed in range(60):
        state = thirty_to_ten()
        resolve(state, seed=seed, alice="5 arm, 5 inf D3 -> D4 attack")
        battle = combat.fight(30, 10, 10, 4, random.Random(seed))
        alice_left = 10 - battle.attackers_lost
        farid_left = 4 - battle.defenders_lost
        takes = combat.attacker_takes_space(battle.attacker_wins, alice_left, farid_left)
        assert owner(state, "D4") == ("alice" if takes else "farid"), seed
        where = "D4" if takes else "D3"
        assert sum(stack(state, where, "alice").get(k, 0) for k in ("infantry", "armor")) == alice_left, seed
        farid = sum(stack(state, t, "farid").get(k, 0) for t in ("D4", "E4") for k in ("infantry", "armor"))
        assert farid == farid_left, seed


def test_30_to_10_drawn_by_the_engine_within_4_sigma() -> None:
    # 10^5 battles of the engine (landbattle.fight, with the troops the season builds): victory 3/4; kills 3/8 of
    # each of the 4 defenders and 1/8 of each of the 10 attackers (the cap of 2 a unit never binds here).
    rng = random.Random(2024)
    wins = defenders_lost = attackers_lost = 0
    for _ in range(DRAWS):
        a = Troop("alice", "D3", {"armor": 5, "infantry": 5}, 10, attacking=True)
        d = Troop("farid", "D4", {"infantry": 2, "armor": 2}, 4)
        out = landbattle.fight([a], [d], lambda tr: Footing(tr.attacking), (), rng, set(), "farid")
        assert out.strengths == (30, 10)
        wins += out.attacker_wins
        defenders_lost += 4 - d.total()
        attackers_lost += 10 - a.total()
    assert within_4_sigma(wins, DRAWS, Fraction(3, 4))
    assert within_4_sigma(defenders_lost, 4 * DRAWS, Fraction(3, 8))
    assert within_4_sigma(attackers_lost, 10 * DRAWS, Fraction(1, 8))


def test_the_defender_loses_his_least_worth_units_first() -> None:
    # farid's infantry defend at 3, his armor at 2: a loss takes an armor first; alice's infantry attack at 2, her
    # armor at 4: an infantry first.
    a = Troop("alice", "D3", {"armor": 5, "infantry": 5}, 10, attacking=True)
    d = Troop("farid", "D4", {"infantry": 2, "armor": 2}, 4)
    landbattle.feed(a)
    landbattle.feed(d)
    assert landbattle.lose(d, 1, Footing(False)) == {"armor": 1}
    assert landbattle.lose(a, 1, Footing(True)) == {"infantry": 1}


# ---- terrain, winter, supply, air superiority ---------------------------------------------------------------------

def river_battle(season_name: str, with_k4: bool = False, defenders: dict | None = None) -> Report:
    """bruno holds K3 with 2 supplied infantry; alice attacks from L3, across the K3-L3 river, with 3 supplied
    armor (12); and with `with_k4` also from K4 (no river) with 1 supplied infantry (2)."""
    state = game(owners={"L3": "alice", "K4": "alice"})
    put(state, "K3", "bruno", **(defenders or {"infantry": 2, "supply": 2}))
    put(state, "L3", "alice", armor=3, supply=3)
    lines = ["3 arm L3 -> K3 attack"]
    if with_k4:
        put(state, "K4", "alice", infantry=1, supply=1)
        lines.append("1 inf K4 -> K3 attack")
    report, _ = resolve(state, season_name, alice=lines)
    return report


def test_river_and_winter_add_to_defending_infantry() -> None:
    # "Rivers ... provide a directional +1 defensive bonus to infantry when the attacking units fight across them";
    # "When fighting in winter, all defending infantry receive an additional +1": 2 x (3 + 1 + 1) = 10.
    assert "Strengths alice 12, bruno 10 (defending infantry +2 (river, winter))" in news(river_battle("winter"))
    assert "Strengths alice 12, bruno 8 (defending infantry +1 (river))" in news(river_battle("spring"))


def test_no_river_bonus_when_not_every_attacker_crosses_it() -> None:
    # From L3 (across the river) and K4 (not): the river counts for nobody (GG-OQ-19); winter still: 2 x 4 = 8.
    assert "Strengths alice 14, bruno 8 (defending infantry +1 (winter))" in news(river_battle("winter", True))


def test_terrain_gives_armor_nothing() -> None:
    # "Terrain modifiers to not give defensive advantages to armor!": 2 armor defend at 2 x 2 = 4, winter or not.
    report = river_battle("winter", defenders={"armor": 2, "supply": 2})
    assert "Strengths alice 12, bruno 4 (defending infantry +2 (river, winter))" in news(report)


def test_supplies_one_per_unit_and_unsupplied_at_1() -> None:
    # bruno in K3: 3 infantry and 1 supply: one infantry at 3, two at 1 = 5. alice from K4: 2 armor and the 1
    # supply in K4 (taken along by default): one armor at 4, one at 1 = 5.
    state = game(owners={"K4": "alice"})
    put(state, "K3", "bruno", infantry=3, supply=1)
    put(state, "K4", "alice", armor=2, supply=1)
    report, _ = resolve(state, alice="2 arm K4 -> K3 attack")
    assert "Strengths alice 5, bruno 5; alice's chance 50%." in news(report)
    assert stack(state, "K3", "bruno").get("supply", 0) + stack(state, "K3", "alice").get("supply", 0) == 0


def test_an_attack_may_leave_its_supplies_behind() -> None:
    state = game(owners={"K4": "alice"})
    put(state, "K3", "bruno", infantry=3, supply=1)
    put(state, "K4", "alice", armor=2, supply=1)
    report, _ = resolve(state, alice="2 arm K4 -> K3 attack with 0 supply")
    assert "Strengths alice 2, bruno 5;" in news(report)
    assert stack(state, "K4", "alice")["supply"] == 1


def test_only_some_units_use_supply_when_attacked() -> None:
    # "only # infantry will use supply if attacked": 3 supplies, only 1 used: 3 + 1 + 1 = 5; 2 supplies kept.
    state = game(owners={"K4": "alice"})
    put(state, "K3", "bruno", infantry=3, supply=3)
    put(state, "K4", "alice", infantry=1, supply=1)
    report, _ = resolve(state, alice="1 inf K4 -> K3 attack", bruno="only 1 infantry use supply in K3")
    assert "Strengths alice 2, bruno 5;" in news(report)
    left = sum(stack(state, t, "bruno").get("supply", 0) for t in state["forces"])
    assert left == 2


def test_air_superiority_adds_one_to_every_unit_of_the_zone() -> None:
    # alice's 2 aircraft from D3 (zone ZA) fight over ZF (next to it), where D4 lies, and land back in D3; nobody
    # contests them: +1 to each of her 10 units: 30 + 10 = 40.
    state = thirty_to_ten()
    put(state, "D3", "alice", aircraft=2)
    report, _ = resolve(state, alice=["2 air D3 -> ZF land D3", "5 arm, 5 inf D3 -> D4 attack"])
    assert "Strengths alice 40, farid 10 (air superiority: alice)" in news(report)
    assert stack(state, "D3", "alice")["aircraft"] == 2 or stack(state, "D4", "alice")
    assert "2 landed in" in mine(report, "alice")


def test_air_superiority_counts_for_defending_armor() -> None:
    # farid's plane over ZF: each of his units +1, armor too: 2 x (3 + 1) + 2 x (2 + 1) = 14.
    state = thirty_to_ten()
    put(state, "E4", "farid", aircraft=1)
    report, _ = resolve(state, alice="5 arm, 5 inf D3 -> D4 attack", farid="1 air E4 -> ZF land E4")
    assert "Strengths alice 30, farid 14 (air superiority: farid)" in news(report)


def test_aircraft_landing_in_enemy_territory_are_lost() -> None:
    state = game()
    put(state, "D3", "alice", aircraft=2)
    report, _ = resolve(state, alice="2 air D3 -> ZF land E4")
    assert "lost on landing" in mine(report, "alice")
    assert not any("alice" in sides for sides in state["forces"].values())


def test_aircraft_out_of_range_stay_home() -> None:
    state = game()
    put(state, "D3", "alice", aircraft=2)
    report, _ = resolve(state, alice="2 air D3 -> ZQ land D3")
    assert "neither" in mine(report, "alice")
    assert stack(state, "D3", "alice")["aircraft"] == 2


def test_strategic_bombing_stacks() -> None:
    # "Air superiority of 5 planes would do 5 economic damage to the selected economic zone": ZF is worth 9.
    state = game()
    put(state, "D3", "alice", aircraft=5)
    report, _ = resolve(state, alice=["5 air D3 -> ZF land D3", "bomb zone ZF"])
    assert state["zones"]["ZF"] == 4
    assert "its value 9 -> 4" in news(report)


def test_strategic_bombing_to_0_at_most_and_only_with_superiority() -> None:
    state = game()
    put(state, "D3", "alice", aircraft=12)
    resolve(state, alice=["12 air D3 -> ZF land D3", "bomb zone ZF"])
    assert state["zones"]["ZF"] == 0
    state = game()
    report, _ = resolve(state, alice="bomb zone ZF")
    assert state["zones"]["ZF"] == 9
    assert "no damage" in mine(report, "alice")


def test_a_bombing_order_with_fewer_planes_does_less() -> None:
    state = game()
    put(state, "D3", "alice", aircraft=5)
    resolve(state, alice=["5 air D3 -> ZF land D3", "bomb zone ZF with 2 air"])
    assert state["zones"]["ZF"] == 7


def test_the_bomb_sets_a_zone_to_0() -> None:
    # "When the bomb is dropped on a zone, that zone's economic value is reduced to 0"; "the target location must be
    # within two economic zones of an aircraft": alice's plane in D3 (ZA); ZF is next to ZA.
    state = game()
    put(state, "D3", "alice", aircraft=1)
    player(state, "alice")["bombs"] = 1
    resolve(state, alice="drop bomb on ZF")
    assert state["zones"]["ZF"] == 0 and player(state, "alice")["bombs"] == 0


def test_the_bomb_needs_a_bomb_and_a_plane_in_range() -> None:
    state = game()
    put(state, "D3", "alice", aircraft=1)
    report, _ = resolve(state, alice="drop bomb on ZF")
    assert "no bomb" in mine(report, "alice") and state["zones"]["ZF"] == 9
    player(state, "alice")["bombs"] = 1
    report, _ = resolve(state, alice="drop bomb on ZQ")
    assert "not within two zones" in mine(report, "alice") and state["zones"]["ZQ"] == 6
    assert player(state, "alice")["bombs"] == 1


# ---- advance, reserve and retreat -----------------------------------------------------------------------------

def test_an_empty_territory_is_taken_and_the_reserve_stays_behind() -> None:
    # "A victorious army must advance into the space it conquered with all units the player selected for the
    # attack. It is possible for an attacking player to hold units in reserve".
    state = game()
    put(state, "D3", "alice", infantry=3, supply=3)
    report, _ = resolve(state, alice=["3 inf D3 -> D4 attack", "reserve 1 inf D3"])
    assert owner(state, "D4") == "alice"
    assert stack(state, "D4", "alice")["infantry"] == 2 and stack(state, "D3", "alice")["infantry"] == 1
    assert "unopposed" in news(report)


def test_a_beaten_defender_retreats_towards_his_main_force() -> None:
    # farid's neighbours of D4: E4 (a city) and, given to him here, C4 with 3 infantry: the main force wins.
    state = thirty_to_ten()
    state["owners"]["C4"] = "farid"
    put(state, "C4", "farid", infantry=3)
    for seed in range(40):
        s = copy.deepcopy(state)
        report, _ = resolve(s, seed=seed, alice="5 arm, 5 inf D3 -> D4 attack")
        if owner(s, "D4") == "alice" and "retreat from D4" in news(report):
            assert "retreat from D4 to Kelton (C4)" in news(report)
            assert not stack(s, "E4", "farid")
            return
    raise AssertionError("no seed gave a retreat")


def test_a_beaten_defender_retreats_towards_a_city_when_no_main_force() -> None:
    state = thirty_to_ten()
    for seed in range(40):
        s = copy.deepcopy(state)
        report, _ = resolve(s, seed=seed, alice="5 arm, 5 inf D3 -> D4 attack")
        if owner(s, "D4") == "alice" and "retreat from D4" in news(report):
            assert "retreat from D4 to Norby (E4)" in news(report)
            return
    raise AssertionError("no seed gave a retreat")


def test_a_beaten_attacker_goes_back_where_it_came_from() -> None:
    state = game()
    put(state, "D3", "alice", infantry=1)
    put(state, "D4", "farid", infantry=10, supply=10)
    for seed in range(40):
        s = copy.deepcopy(state)
        report, _ = resolve(s, seed=seed, alice="1 inf D3 -> D4 attack")
        if stack(s, "D3", "alice"):
            assert owner(s, "D4") == "farid" and "back in" in mine(report, "alice")
            return
    raise AssertionError("alice's infantry never came back")


def test_a_beaten_attacker_whose_home_was_taken_fights_again_there() -> None:
    # alice's lone infantry attacks D4 (farid, 30 strong) and loses; chloe took D3, empty, from C3 meanwhile: the
    # infantry "must now fight again at defensive strength" against chloe's 5 armor (20 against 1).
    state = game(owners={"C3": "chloe"})
    put(state, "D3", "alice", infantry=1)
    put(state, "D4", "farid", infantry=10, supply=10)
    put(state, "C3", "chloe", armor=5, supply=5)
    for seed in range(200):
        s = copy.deepcopy(state)
        report, _ = resolve(s, seed=seed, alice="1 inf D3 -> D4 attack", chloe="5 arm C3 -> D3 attack")
        if "(D3) again" in news(report):
            assert "Strengths chloe 20, alice 1;" in news(report)
            if owner(s, "D3") == "chloe":
                assert "lost fighting for D3 again" in mine(report, "alice") and not stack(s, "D3", "alice")
            else:
                assert "took Alstead (D3) back" in mine(report, "alice")
            return
    raise AssertionError("no seed had alice's infantry survive and come back")


def test_head_on_attacks_fight_at_attack_strength() -> None:
    # "If two sets of units are attacking each other's space, both sets of units will fight at "attack" strength":
    # alice's 2 infantry at 2 each (4), farid's 2 armor at 4 each (8), no terrain.
    state = game()
    put(state, "D3", "alice", infantry=2, supply=2)
    put(state, "D4", "farid", armor=2, supply=2)
    report, _ = resolve(state, alice="2 inf D3 -> D4 attack", farid="2 arm D4 -> D3 attack")
    text = news(report)
    assert "Head-on between" in text and "Strengths alice 4, farid 8; alice's chance 33%." in text


# ---- multi-way and coordinated --------------------------------------------------------------------------------

def three_sides() -> dict:
    """farid holds D4 with 2 supplied infantry (6); alice attacks from D3, chloe from C4 (given to her), each with 2
    supplied armor (8)."""
    state = game(owners={"C4": "chloe"})
    put(state, "D4", "farid", infantry=2, supply=2)
    put(state, "D3", "alice", armor=2, supply=2)
    put(state, "C4", "chloe", armor=2, supply=2)
    return state


def test_multi_way_battle_pairs_each_side_with_each_other() -> None:
    state = three_sides()
    report, _ = resolve(state, seed=3, alice="2 arm D3 -> D4 attack", chloe="2 arm C4 -> D4 attack")
    assert "a battle of 3 sides (farid, alice, chloe): farid 6, alice 8, chloe 8." in news(report)
    # The engine draws as combat.multiway_losses does, sides in that order.
    lost = combat.multiway_losses({"0": (6, 2), "1": (8, 2), "2": (8, 2)}, random.Random(3))
    left = {"farid": 2 - lost["0"], "alice": 2 - lost["1"], "chloe": 2 - lost["2"]}
    values = {"farid": 3 * left["farid"], "alice": 4 * left["alice"], "chloe": 4 * left["chloe"]}
    expected = combat.multiway_occupant(values, "farid")
    assert owner(state, "D4") == expected


def test_coordinated_attack_adds_the_strengths() -> None:
    # "If two armies invade in a coordinated fasion, their combat values are added together": 8 + 8 = 16 against
    # 6, 16/22 = 73%.
    state = three_sides()
    report, _ = resolve(state, alice=["2 arm D3 -> D4 attack with chloe"], chloe=["2 arm C4 -> D4 attack",
                                                                                 "attack D4 with alice"])
    assert "Strengths alice and chloe 16, farid 6; alice and chloe's chance 73%." in news(report)


def test_one_sided_coordination_is_a_multi_way_battle() -> None:
    state = three_sides()
    report, _ = resolve(state, alice=["2 arm D3 -> D4 attack with chloe"], chloe=["2 arm C4 -> D4 attack"])
    assert "a battle of 3 sides" in news(report)


def test_coordinated_losses_as_agreed_else_shared() -> None:
    troops = [Troop("alice", "D3", {"armor": 4}, attacking=True, seq=1),
              Troop("chloe", "C4", {"armor": 2}, attacking=True, seq=2)]
    def footing(tr: Troop) -> Footing:
        return Footing(True)

    rng = random.Random(0)
    assert landbattle.split(3, troops, footing, {"chloe"}, None, rng).shares == {"alice": 1, "chloe": 2}
    # Nobody wrote who takes them: in proportion to the units, 3 x 4/6 = 2 and 3 x 2/6 = 1.
    assert landbattle.split(3, troops, footing, set(), None, rng).shares == {"alice": 2, "chloe": 1}


def test_coordinated_defenders_who_disagree_the_owner_first() -> None:
    troops = [Troop("alice", "D3", {"infantry": 4}, seq=1), Troop("chloe", "D3", {"infantry": 2}, seq=2)]
    got = landbattle.split(3, troops, lambda tr: Footing(False), {"alice", "chloe"}, "chloe", random.Random(0))
    assert got.shares == {"alice": 1, "chloe": 2}


def test_coordinated_attackers_who_disagree_fight_it_out() -> None:
    # "the two armies then fight each other at attack strength, and the losing army takes as many of the losses as
    # possible, with cumulative losses for both battles": as combat.disputed_losses with the same draws.
    troops = [Troop("alice", "D3", {"armor": 4}, attacking=True, seq=1),
              Troop("chloe", "C4", {"armor": 2}, attacking=True, seq=2)]
    got = landbattle.split(3, troops, lambda tr: Footing(True), {"alice", "chloe"}, None, random.Random(9))
    want = combat.disputed_losses(3, ("alice", 4, 4), ("chloe", 2, 2), random.Random(9))
    assert got.shares == want.lost


# ---- rail ----------------------------------------------------------------------------------------------------

def rail_game() -> dict:
    """The railway D3 - E3 (alice's) - E4 - E5 (farid's) - F5 (given to alice): alice's infantry in D3."""
    state = game(owners={"F5": "alice"})
    put(state, "D3", "alice", infantry=6, supply=6)
    return state


@pytest.mark.parametrize(("units", "end"), [(4, "E3"), (3, "F5"), (2, "F5")])
def test_rail_permission_for_3_units(units: int, end: str) -> None:
    # "if I give Jeff permission to cross my territory with 3 units and Jeff issues an order for 4 units, all units
    # stop at the last territory on the railway that Jeff controls and none of his units use my railway. If Jeff only
    # orders 2 units, both pass because my orders will accomodate them."
    state = rail_game()
    report, _ = resolve(state, alice=f"rail {units} inf D3 -> F5", farid="allow alice rail up to 3 units")
    assert stack(state, end, "alice")["infantry"] == units
    if end == "E3":
        assert "stopped in" in mine(report, "alice") and "allows 3 units" in mine(report, "alice")


def test_rail_without_permission_stops_before_another_players_territory() -> None:
    state = rail_game()
    report, _ = resolve(state, alice="rail 2 inf D3 -> F5")
    assert stack(state, "E3", "alice")["infantry"] == 2
    assert "has not allowed you" in mine(report, "alice")


@pytest.mark.parametrize(("permit", "line", "end"), [
    ("allow alice rail in E4", "rail 1 inf D3 -> F5", "E3"),
    ("allow alice rail in E4, E5", "rail 1 inf D3 -> F5", "F5"),
    ("allow alice rail supplies only", "rail 1 inf D3 -> F5", "E3"),
    ("allow alice rail not in my cities", "rail 1 inf D3 -> E4", "E3"),
    ("allow alice rail not in my cities", "rail 1 inf D3 -> E5", "E5"),
])
def test_rail_permissions_with_written_limits(permit: str, line: str, end: str) -> None:
    state = rail_game()
    resolve(state, alice=line, farid=permit)
    assert stack(state, end, "alice")["infantry"] == 1


def test_rail_permission_for_supplies_only_carries_supplies() -> None:
    state = rail_game()
    resolve(state, alice="rail 3 supply D3 -> F5", farid="allow alice rail supplies only")
    assert stack(state, "F5", "alice")["supply"] == 3


def test_rail_limit_counts_over_the_season() -> None:
    state = rail_game()
    resolve(state, alice=["rail 2 inf D3 -> F5", "rail 2 inf D3 -> F5"], farid="allow alice rail up to 3 units")
    assert stack(state, "F5", "alice")["infantry"] == 2 and stack(state, "E3", "alice")["infantry"] == 2


def test_units_moved_by_rail_do_not_attack_the_same_season() -> None:
    # "a unit cannot cut across the map using a railroad and attack an enemy territory in the same season" (GG-OQ-07)
    state = rail_game()
    report, _ = resolve(state, alice=["rail 2 inf D3 -> E3", "2 inf E3 -> E4 attack"])
    assert stack(state, "E3", "alice")["infantry"] == 2 and owner(state, "E4") == "farid"
    assert "nothing of yours to move" in mine(report, "alice")


def test_rail_moves_come_before_other_moves() -> None:
    # "Rail movements happen before other movements": farid takes E3 this season, yet alice's train passes.
    state = rail_game()
    put(state, "E4", "farid", armor=3, supply=3)
    report, _ = resolve(state, alice="rail 2 inf D3 -> E3", farid="3 arm E4 -> E3 attack")
    assert "farid from E4: 3a against alice: 2i." in news(report)
    # Unsupplied (their supplies stayed in D3), on a mountain: 2 x (1 + 1) = 4 (GG-OQ-18).
    assert "Strengths farid 12, alice 4 (defending infantry +1 (mountain))" in news(report)


def test_destroying_a_railroad_takes_a_unit_all_season() -> None:
    # "To destroy a railroad, one unit myst commit its season to destroying the railroad." It goes at the end of
    # the season (GG-OQ-15), so the season's trains still pass.
    state = rail_game()
    report, _ = resolve(state, alice=["destroy railroad D3", "6 inf D3 -> D2"])
    assert "D3" not in state["railroads"] and report.destroyed == ["D3"]
    assert stack(state, "D3", "alice")["infantry"] == 1 and stack(state, "D2", "alice")["infantry"] == 5


# ---- the League of Nations ------------------------------------------------------------------------------------

def neutral_attack() -> dict:
    state = game()
    put(state, "C5", NEUTRAL, infantry=1, supply=3)
    put(state, "C4", "alice", armor=2, supply=2)
    return state


def test_an_attack_on_a_neutral_opens_the_league() -> None:
    state = neutral_attack()
    report, result = resolve(state, alice="2 arm C4 -> C5 attack")
    assert result is not None and "bruno" in result and "alice" in result
    assert state["pending"]["season"]["attacked"] == {"C5": ["alice"]}
    assert "alice attacks Marby (C5)." in news(report)
    assert stack(state, "C4", "alice")["armor"] == 2  # nothing moved yet


def test_league_24_francs_add_2_infantry_and_2_supplies() -> None:
    # "Every 12 Francs contributed instantaneously adds 1 infantry and 1 supply to the territory being invaded."
    state = neutral_attack()
    player(state, "bruno")["francs"] = 30
    resolve(state, alice="2 arm C4 -> C5 attack")
    report = Report()
    league_orders = orders(bruno="contribute 24 to C5")
    season.resolve_league(state, 1, "spring", league_orders, random.Random(1), report)
    assert player(state, "bruno")["francs"] == 6
    assert "24 Francs (bruno 24): 2 infantry and 2 supply join its defense." in news(report)
    # The neutral defends with 3 infantry: the battle's newsletter names them before the losses.
    assert "against Nesse (neutral): 3i." in news(report)
    assert "season" not in state["pending"]


def test_league_remainder_returned() -> None:
    # 10 + 8 + 8 = 26 Francs buy 2 infantry (24); the 2 left go back, to the larger contributions first (GG-OQ-25).
    state = neutral_attack()
    for name in ("bruno", "chloe", "dmitri"):
        player(state, name)["francs"] = 20
    resolve(state, alice="2 arm C4 -> C5 attack")
    report = Report()
    season.resolve_league(state, 1, "spring", orders(bruno="contribute 10", chloe="contribute 8",
                                                     dmitri="contribute 8"), random.Random(1), report)
    assert [player(state, n)["francs"] for n in ("bruno", "chloe", "dmitri")] == [11, 13, 12]


# ---- battle cards ----------------------------------------------------------------------------------------------

def test_the_default_deck_keeps_the_rules_bounds() -> None:
    # "No battle card should affect the outcome by more than 25%"; "most will change the odds less than 10%".
    deck = battlecards.DEFAULT_DECK
    assert all(abs(c.attack) <= 25 for c in deck)
    assert sum(abs(c.attack) <= 10 for c in deck) > len(deck) / 2
    assert sum(c.attack for c in deck) == 0
    assert battlecards.check_deck([{"name": c.name, "attack": c.attack} for c in deck]) == []


def test_a_deck_out_of_bounds_is_refused() -> None:
    assert battlecards.check_deck([{"name": "Blitz", "attack": 30}])
    assert battlecards.check_deck([{"name": "", "attack": 3}])
    assert battlecards.check_deck([])
    state = game(no_cards=False)
    state["decks"] = {"battle": [{"name": "Blitz", "attack": 30}]}
    with pytest.raises(ValueError, match="card #1"):
        battlecards.deck(state)


def test_the_setups_deck_replaces_the_default_and_shifts_the_chance() -> None:
    state = thirty_to_ten()
    state["options"]["battle_cards"] = True
    state["decks"] = {"battle": [{"name": "Always forward", "attack": 10}]}
    report, _ = resolve(state, alice="5 arm, 5 inf D3 -> D4 attack")
    assert "card 'Always forward' (10 points for the attack) -> 85%." in news(report)


def test_no_cards_when_the_setup_says_so() -> None:
    state = thirty_to_ten()
    report, _ = resolve(state, alice="5 arm, 5 inf D3 -> D4 attack")
    assert "card" not in news(report)
    state = thirty_to_ten()
    state["options"]["battle_cards"] = True
    report, _ = resolve(state, alice="5 arm, 5 inf D3 -> D4 attack")
    assert "card '" in news(report)


def test_cards_keep_sure_outcomes_and_stay_within_0_and_1() -> None:
    up, down = battlecards.Card("up", 25), battlecards.Card("down", -25)
    assert battlecards.shifted(Fraction(9, 10), up) == 1
    assert battlecards.shifted(Fraction(1, 10), down) == 0
    assert battlecards.shifted(Fraction(1), down) == 1
    assert battlecards.shifted(Fraction(3, 4), down) == Fraction(1, 2)


def test_a_card_is_drawn_evenly_within_4_sigma() -> None:
    deck = battlecards.DEFAULT_DECK[:4]
    rng = random.Random(11)
    counts = dict.fromkeys(deck, 0)
    for _ in range(DRAWS):
        counts[battlecards.draw(deck, rng)] += 1
    assert all(within_4_sigma(n, DRAWS, Fraction(1, 4)) for n in counts.values())


def test_a_card_shifts_the_engines_victory_within_4_sigma() -> None:
    deck = (battlecards.Card("Artillery ranged in", 10),)
    rng = random.Random(12)
    wins = 0
    for _ in range(DRAWS):
        a = Troop("alice", "D3", {"armor": 3}, 3, attacking=True)
        d = Troop("farid", "D4", {"armor": 2}, 2)
        wins += landbattle.fight([a], [d], lambda tr: Footing(tr.attacking), deck, rng, set(), "farid").attacker_wins
    assert within_4_sigma(wins, DRAWS, Fraction(3, 4) + Fraction(1, 10))  # 12:4 is 75%, +10 points


# ---- intake checks --------------------------------------------------------------------------------------------

def diagnostics(state: dict, name: str, *lines: str) -> list[str]:
    placed = orders(**{name: list(lines)})[name]
    return [d.message for d in season.check(state, name, [p.order for p in placed])]


def test_check_refuses_what_the_state_makes_impossible() -> None:
    state = rail_game()
    put(state, "D3", "alice", aircraft=1)
    assert any("not next to" in m for m in diagnostics(state, "alice", "2 inf D3 -> F5"))
    assert any("you have 6 infantry in D3, and your orders move 8" in m
               for m in diagnostics(state, "alice", "5 inf D3 -> D4", "3 inf D3 -> C3"))
    assert any("not on one railway" in m for m in diagnostics(state, "alice", "rail 1 inf D3 -> D4"))
    assert any("permission" in m for m in diagnostics(state, "alice", "rail 1 inf D3 -> F5"))
    assert any("neither" in m for m in diagnostics(state, "alice", "1 air D3 -> ZQ land D3"))
    assert any("Francs" in m for m in diagnostics(state, "alice", "contribute 500"))
    assert any("no bomb" in m for m in diagnostics(state, "alice", "drop bomb on ZF"))
    assert diagnostics(state, "alice", "5 inf D3 -> D4 attack", "rail 1 inf D3 -> E3", "1 air D3 -> ZF land D3") == []


def test_check_warns_that_a_move_into_anothers_territory_is_an_attack() -> None:
    state = thirty_to_ten()
    placed = orders(alice=["5 inf D3 -> D4"])["alice"]
    found = season.check(state, "alice", [p.order for p in placed])
    assert [(d.warning, d.rule) for d in found] == [(True, "Combat")]
    assert "D4 is farid's: this move is an attack" in found[0].message


def test_the_ruleset_reads_a_season_mail_line_by_line() -> None:
    from maild_rules.grandgame.ruleset import RULESET
    parsed = RULESET.parse("2 inf K4 -> K5 attack\nrail 3 inf K2 -> K5\nallow bruno rail\nfly me to the moon\n")
    assert [o.kind for o in parsed.orders] == ["move", "rail", "permit"]
    assert [d.line for d in parsed.diagnostics] == [4]


def test_a_silent_player_holds_and_defends() -> None:
    # GG-OQ-28: units without orders hold; farid sent nothing and defends D4 with all he has there.
    state = thirty_to_ten()
    report, _ = resolve(state, alice="5 arm, 5 inf D3 -> D4 attack")
    assert "against farid: 2i 2a." in news(report) and "farid" not in report.private


def test_planes_on_trains_fly_the_next_season() -> None:
    # "Aircraft which start on a land territory that contains a railroad *may* be transported by railroad"; crated,
    # they do not also fly that season (GG-OQ-23).
    state = rail_game()
    put(state, "D3", "alice", aircraft=1)
    report, _ = resolve(state, alice=["rail 1 air D3 -> E3", "1 air E3 -> ZB land E3"])
    assert stack(state, "E3", "alice")["aircraft"] == 1
    assert "no aircraft free" in mine(report, "alice")


def test_supplies_alone_do_not_attack() -> None:
    state = game()
    put(state, "D3", "alice", supply=3)
    report, _ = resolve(state, alice="3 supply D3 -> D4 attack")
    assert owner(state, "D4") == "farid" and stack(state, "D3", "alice") == {"supply": 3}
    assert "supplies alone do not attack" in mine(report, "alice")


def test_supplies_left_without_units_in_a_taken_territory_are_lost() -> None:
    state = game()
    put(state, "D3", "alice", infantry=2, supply=2)
    put(state, "D4", "farid", supply=5)
    report, _ = resolve(state, alice="2 inf D3 -> D4 attack")
    assert owner(state, "D4") == "alice" and "farid" not in state["forces"]["D4"]
    assert "farid's 5 supply in D4 are lost." in news(report)


def test_every_line_fits_a_mail_program() -> None:
    # Lines a person reads in a mail program: at most 78 characters, in the newsletter and in every printout.
    state = neutral_attack()
    put(state, "D3", "alice", armor=5, infantry=5, supply=10, aircraft=2)
    put(state, "D4", "farid", infantry=2, armor=2, supply=4)
    player(state, "bruno")["francs"] = 30
    report, _ = resolve(state, alice=["2 arm C4 -> C5 attack", "5 arm, 5 inf D3 -> D4 attack",
                                      "2 air D3 -> ZF land E4"])
    season.resolve_league(state, 1, "spring", orders(bruno="contribute 30"), random.Random(1), report)
    # The template indents a section's lines by two: 76 columns of text.
    lines = [line for s in sections_of(report.public) for line in s["lines"]]
    lines += [line for sections in report.private.values() for s in sections_of(sections) for line in s["lines"]]
    assert len(lines) > 10 and all(len(line) <= 76 for line in lines)


@pytest.mark.parametrize(("start", "repeat", "end"), [
    ("attack k15 with ", "a and ", "!"), ("2 inf k14 -> k15 with ", "bob, ", "?"),
    ("allow bob rail in ", "k1 and ", "x!"),
    ("", "2 inf, ", "k1 -> k2 zz"), ("attack k15 with ", "2 inf from k1 and ", "!"), ("", "2 ", ""),
    ("2 inf k14 -> k15 ", "attack ", "with 3 supply!"), ("losses k1 ", "a", "!"), ("only ", "1", " use"),
])
def test_reading_a_long_hostile_line_takes_no_time(start: str, repeat: str, end: str) -> None:
    # Patterns run on mail text are linear: no separator can be read two ways (a line of 10,000 characters or more,
    # read in well under a second; a pattern that backtracks would take years).
    line = start + repeat * 2000 + end
    began = time.perf_counter()
    season.read_line(line)
    assert time.perf_counter() - began < 0.5


def test_a_territory_by_its_name() -> None:
    state = thirty_to_ten()
    report, _ = resolve(state, alice="5 arm, 5 inf Alstead -> falstead attack")
    assert "Strengths alice 30, farid 10;" in news(report)


def test_battles_and_conquests_are_events() -> None:
    state = thirty_to_ten()
    report, _ = resolve(state, seed=0, alice="5 arm, 5 inf D3 -> D4 attack")
    battle = next(e for e in report.events if e["kind"] == "battle")
    assert battle["strengths"] == [30, 10] and battle["chance"] == "3/4" and battle["attackers"] == ["alice"]
    if owner(state, "D4") == "alice":
        assert {"kind": "conquest", "territory": "D4", "player": "alice", "was": "farid"} in report.events
