"""Assaults of walls and towers (war/assault.py, Appendix E): each rule against figures worked by hand.

Morale changes follow MORALE, a fall's root rounded up and a rise's down; casualties are rounded up; climbers are
rounded down (RW-OQ-01, RW-OQ-33). Walls are north, east, south, west."""

from __future__ import annotations

import copy
from fractions import Fraction

from maild_rules.renaissance.war import assault
from maild_rules.renaissance.war.assault import Wall
from maild_rules.renaissance.war.forces import ATTACKER, DEFENDER, Contingent, Side


def troop(key: str, men: dict[str, int], morale: int, *, persona: bool = True, **assets: object) -> Contingent:
    return Contingent(key=key, name=key, persona=key if persona else None, men=men, morale=morale,
                      **assets)  # type: ignore[arg-type]


def side(role: str, *contingents: Contingent, value: int = 0, **kw: object) -> Side:
    commander = next((c.persona for c in contingents if c.persona), None)
    return Side(role=role, contingents=list(contingents), commander=commander, retreat_value=value,
                **kw)  # type: ignore[arg-type]


def at(wall: str, n: int, item: str = "auxiliary") -> tuple[str, str, int]:
    return (wall, item, n)


# ---- allocation ---------------------------------------------------------------------------------------------

def test_men_are_divided_equally_the_odd_ones_going_round_the_walls() -> None:
    # Auxiliaries 5: one each, the odd one to the North; pikemen 3: none each, the odd ones continue round: East,
    # South, West; the archer: North again.
    assert assault.divide({"auxiliary": 5, "pikeman": 3, "archer": 1}, 4) == [
        {"auxiliary": 2, "archer": 1}, {"auxiliary": 1, "pikeman": 1}, {"auxiliary": 1, "pikeman": 1},
        {"auxiliary": 1, "pikeman": 1}]


def test_the_assaulters_allocation_is_followed_and_the_rest_divided_equally() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 500, "pikeman": 100}, 500),
             dispositions=[at("north", 300), at("East", 500, "pikeman"), at("moat", 10)])
    notes: list[str] = []
    walls = assault.allocate(a, {"auxiliary": 500, "pikeman": 100}, assault.WALLS, notes)
    # 300 auxiliaries to the North; only 100 pikemen to the East; the moat is no wall. The 200 auxiliaries left:
    # 50 to each wall.
    assert walls == {"north": {"auxiliary": 350}, "east": {"pikeman": 100, "auxiliary": 50},
                     "south": {"auxiliary": 50}, "west": {"auxiliary": 50}}
    assert notes == ["Only 100 of 500 pikeman could go to the east wall.",
                     "Disposition of 10 auxiliary to moat ignored."]


# ---- the shift of supernumerary defenders ------------------------------------------------------------------

def shifted_walls() -> list[Wall]:
    return [Wall("north", foot={"auxiliary": 300}, defenders={"auxiliary": 100}),
            Wall("east", foot={"auxiliary": 160}, defenders={"auxiliary": 100}),
            Wall("south", foot={}, defenders={"auxiliary": 60, "pikeman": 40}),
            Wall("west", foot={"auxiliary": 40}, defenders={"auxiliary": 100})]


def test_supernumerary_defenders_shift_in_proportion_to_the_shortfalls() -> None:
    walls = shifted_walls()
    assault.shift_supernumeraries(walls)
    # Supernumeraries: South 100 (60 auxiliaries, 40 pikemen), West 100 - 40 = 60 auxiliaries: 160. Shortfalls:
    # North 200, East 60 (of 260). North 160 x 200/260 = 123.08 -> 123, East 36.92 -> 36, the one left to the
    # largest shortfall, North: 124 and 36 (RW-OQ-34). Each takes the pool's mix (120 auxiliaries, 40 pikemen):
    # North 93 and 31, East 27 and 9.
    assert [w.defenders for w in walls] == [{"auxiliary": 193, "pikeman": 31}, {"auxiliary": 127, "pikeman": 9},
                                            {"auxiliary": 0, "pikeman": 0}, {"auxiliary": 40}]


def test_no_shift_when_no_wall_is_outnumbered() -> None:
    walls = [Wall("north", foot={"auxiliary": 10}, defenders={"auxiliary": 10}),
             Wall("east", foot={}, defenders={"auxiliary": 50})]
    assert assault.shift_supernumeraries(walls) == []
    assert walls[1].defenders == {"auxiliary": 50}


def test_the_shift_happens_at_the_start_of_the_assault() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 500}, 500),
             dispositions=[at("north", 300), at("east", 160), at("west", 40)])
    d = side(DEFENDER, troop("D", {"auxiliary": 360, "pikeman": 40}, 500),
             dispositions=[at("north", 100), at("east", 100), at("south", 60), at("south", 40, "pikeman"),
                           at("west", 100)])
    r = assault.walls(a, d, far=0, fas=100)
    # Stage 2 at the North: the 224 defenders after the shift x 4 x 500/1000 x 100/1000 = 44.8 -> 45 (without the
    # shift, 100 would have killed 20); at the East 136 x .2 = 27.2 -> 28; at the West 40 x .2 = 8.
    line = "North: 224 defenders x 4 x 500/1000 x 100/1000 = 44.8: the assaulters lose 45 auxiliaries."
    assert line in r.stages[1].lines
    assert r.stages[1].losses[ATTACKER] == {"auxiliary": 45 + 28 + 8}


# ---- reinforcing a wall left without defenders -----------------------------------------------------------

def test_an_emptied_wall_receives_the_defenders_of_the_walls_not_under_assault() -> None:
    walls = [Wall("north", foot={"auxiliary": 10}), Wall("east", defenders={"auxiliary": 7}),
             Wall("south", defenders={"auxiliary": 4, "pikeman": 2}), Wall("west", top={"auxiliary": 5})]
    assault.reinforce(walls)
    # North and West are assaulted and empty; East and South are not assaulted: all their 11 auxiliaries and 2
    # pikemen move, "apportioned equally": 6 and 5 auxiliaries (the odd one to the North), a pikeman each.
    assert walls[0].defenders == {"auxiliary": 6, "pikeman": 1}
    assert walls[3].defenders == {"auxiliary": 5, "pikeman": 1}
    assert sum(walls[1].defenders.values()) == sum(walls[2].defenders.values()) == 0


def test_else_half_the_defenders_of_the_assaulted_walls_move() -> None:
    walls = [Wall("north", foot={"auxiliary": 10}), Wall("east", foot={"auxiliary": 3}, defenders={"auxiliary": 9}),
             Wall("south", foot={"auxiliary": 2}, defenders={"auxiliary": 4, "archer": 3}), Wall("west")]
    assault.reinforce(walls)
    # No unassaulted wall has defenders: half of the East's 9 = 4 (rounded down), half of the South's 7 = 3, even
    # though that leaves the East outnumbered no more than before (RW-OQ-34). The South's 3 in proportion: 1.71
    # auxiliaries, 1.29 archers -> 1 and 1, the odd one to the larger remainder: 2 auxiliaries, 1 archer.
    assert walls[0].defenders == {"auxiliary": 6, "archer": 1}
    assert walls[1].defenders == {"auxiliary": 5}
    assert walls[2].defenders == {"auxiliary": 2, "archer": 2}
    assert walls[3].defenders == {}


# ---- stage 1: the defenders' cannons --------------------------------------------------------------------

def cannon_sides() -> tuple[Side, Side]:
    a = side(ATTACKER, troop("A", {"auxiliary": 800}, 500), dispositions=[at("north", 600), at("east", 200)])
    d = side(DEFENDER, troop("D1", {"auxiliary": 100}, 500, cannon=10, gunnery=800),
             troop("D2", {"auxiliary": 100}, 500, falconet=10, gunnery=500))
    return a, d


def test_with_far_zero_the_first_stage_has_no_effect() -> None:
    a, d = cannon_sides()
    stage = assault.walls(a, d, far=0, fas=100).stages[0]
    assert stage.losses == {}  # no one killed, no cannon self-destroyed
    assert stage.lines[0] == "FAR 0: the first stage has no effect."
    assert stage.morale == {ATTACKER: 500, DEFENDER: 500}


def test_the_defenders_cannons_fire_in_the_first_stage() -> None:
    a, d = cannon_sides()
    stage = assault.walls(a, d, far=500, fas=100).stages[0]
    # D1: 10 cannons x 100 x 800/1000 x 500/1000 = 400; D2: 10 falconets = 1 cannon x 100 x 500/1000 x 500/1000
    # = 25: 425 killed, shared by the assaulters at each wall: North 600/800 -> 318.75, East 106.25: 318 and 106,
    # the one left to the larger remainder (North): 319 and 106. 2% of 10 cannons = .2 -> 1; of 10 falconets -> 1.
    assert stage.losses == {ATTACKER: {"auxiliary": 425}, DEFENDER: {"cannon": 1, "falconet": 1}}
    assert "The north wall's assaulters lose 319 auxiliaries." in stage.lines
    assert "The east wall's assaulters lose 106 auxiliaries." in stage.lines
    # Attacker: 2 x 425 = 850 -> -30 (29.15 up): 470; defender: -425 -> +20 (20.6): 520.
    assert stage.morale == {ATTACKER: 470, DEFENDER: 520}


# ---- stage 2 --------------------------------------------------------------------------------------------

def test_stage_two_defenders_kill_four_m_fas_with_crew_at_half_and_the_commanders_wall() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 500))
    d = side(DEFENDER, troop("D", {"auxiliary": 80, "crew": 40}, 500), commander_factor=Fraction(3))
    stage = assault.walls(a, d, far=0, fas=100).stages[1]
    # 25 assaulters a wall; 20 auxiliaries and 10 crew a wall (not outnumbered: 30 > 25). Each wall: 20 + 10/2 =
    # 25 x 4 x 500/1000 x 100/1000 = 5; on the North, where the commander (a Shia sovereign, x3) stands, 15.
    assert "North: 25 defenders x 4 x 1,500/1000 x 100/1000 = 15: the assaulters lose 15 auxiliaries." in stage.lines
    assert "East: 25 defenders x 4 x 500/1000 x 100/1000 = 5: the assaulters lose 5 auxiliaries." in stage.lines
    assert stage.losses == {ATTACKER: {"auxiliary": 30}}


# ---- stages 3, 4, 5, ...: climbing ---------------------------------------------------------------------

def test_one_percent_climb_in_stage_three_then_one_more_each_stage_and_stay_on_top() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 1000}, 500), dispositions=[at("north", 1000)])
    d = side(DEFENDER, troop("D", {"auxiliary": 1000}, 0), dispositions=[at("north", 1000)])
    r = assault.walls(a, d, far=0, fas=100)
    # Defenders at morale 0 kill no one. Stage 3: 1% of 1,000 = 10 on the top; 10 x .5 x 500/1000 = 2.5 -> 3
    # defenders; attacker +1 (sqrt 3): 501. Stage 4: 2% of 990 = 19.8 -> 19 climb, 29 on the top (they stay:
    # RW-OQ-33): 29 x .5 x .501 = 7.26 -> 8; +2: 503. Stage 5: 3% of 971 = 29.13 -> 29, 58 on the top: 58 x .5 x
    # .503 = 14.59 -> 15; +3: 506. Stage 6: 4% of 942 = 37.68 -> 37, 95 on the top: 95 x .5 x .506 = 24.04 -> 25.
    assert [r.stages[i].losses.get(DEFENDER) for i in (2, 3, 4, 5)] == [{"auxiliary": n} for n in (3, 8, 15, 25)]
    assert "North: 10 reach the top (1% of the foot), 10 on the top." in r.stages[2].lines
    assert "North: 19 reach the top (2% of the foot), 29 on the top." in r.stages[3].lines
    assert "North: 29 reach the top (3% of the foot), 58 on the top." in r.stages[4].lines
    assert "North: 37 reach the top (4% of the foot), 95 on the top." in r.stages[5].lines
    assert [r.stages[i].morale[ATTACKER] for i in (2, 3, 4)] == [501, 503, 506]


def test_casualties_the_top_cannot_absorb_fall_on_the_foot() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 1000}, 500), dispositions=[at("north", 1000)])
    d = side(DEFENDER, troop("D", {"auxiliary": 100}, 500), dispositions=[at("north", 100)])
    r = assault.walls(a, d, far=0, fas=500)
    # Stage 2: 100 x 4 x .5 x .5 = 100 (900 left); A 2 x 100 = 200 -> -15: 485; D +10: 510.
    # Stage 3: 1% of 900 = 9 climb; 100 x 510/1000 x (.3 + .5) = 40.8: the 9 on the top, and 31.8 -> 32 at the foot.
    assert r.stages[2].losses == {ATTACKER: {"auxiliary": 41}}
    assert ("North: 100 defenders x 510/1000 x (.3 + 500/1000) = 40.8: on the top 9 auxiliaries lost, "
            "at the foot 32 auxiliaries.") in r.stages[2].lines
    # A: 2 x 41 = 82 -> -10 (9.06 up): 475; D: +6: 516. Stage 4: 2% of 859 = 17.18 -> 17; 100 x .516 x .8 = 41.28:
    # 17 on the top and 24.28 -> 25 at the foot: 42.
    assert r.stages[2].morale == {ATTACKER: 475, DEFENDER: 516}
    assert r.stages[3].losses == {ATTACKER: {"auxiliary": 42}}


# ---- the end of an assault -----------------------------------------------------------------------------

def test_assaulters_below_their_retreat_point_withdraw_to_the_siege_lines() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 405), dispositions=[at("north", 100)])
    d = side(DEFENDER, troop("D", {"auxiliary": 100}, 500), dispositions=[at("north", 100)])
    r = assault.walls(a, d, far=0, fas=100)
    # Stage 2: 100 x 4 x .5 x .1 = 20; A 2 x 20 = 40 -> -7 (6.32 up): 398 < 400: the assault ceases.
    assert r.stages_fought == 2
    assert r.retreated == ATTACKER and r.victor == DEFENDER
    assert r.outcome == "the assaulters withdrew to their siege lines"
    assert r.survivors == {ATTACKER: {"auxiliary": 80}, DEFENDER: {"auxiliary": 100}}
    assert r.morale == {ATTACKER: 398, DEFENDER: 504} and r.dead == [] and r.captured == {}


def test_an_assaulting_force_eliminated_dies_and_leaves_its_assets_to_the_strongest_defender() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 10}, 500, cannon=2, horses=5, goods={"ducats": 1000}))
    d = side(DEFENDER, troop("D1", {"auxiliary": 40}, 500), troop("D2", {"auxiliary": 30, "crew": 50}, 500))
    r = assault.walls(a, d, far=0, fas=500)
    # 10 assaulters: 3, 3, 2, 2. 70 auxiliaries and 50 crew: 18, 18, 17, 17 and 12, 12, 13, 13. Stage 2: every wall
    # kills some 24 x 4 x .5 x .5 = 24 or more: all ten die.
    assert r.stages_fought == 2 and r.eliminated == [ATTACKER] and r.victor == DEFENDER
    assert r.dead == ["A"]
    assert r.captured == {"cannon": 2, "horse": 5, "ducats": 1000}
    # D1 has 40 troops, D2 30 (crew are not troops): D1 takes them when the de facto controller is absent.
    assert r.receiver == "D1"
    assert r.survivors[ATTACKER] == {"auxiliary": 0, "cannon": 0, "horse": 0, "ducats": 0}


def test_defenders_retreat_into_a_tower_that_holds_them_and_the_assaulter_wins() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 10}, 600))
    d = side(DEFENDER, troop("D", {"auxiliary": 10}, 390, goods={"ducats": 50}))
    r = assault.walls(a, d, far=0, fas=100, retreat_room=20)
    # 390 + rank 0 < 400 at the end of stage 1 (no effect at FAR 0): the 10 fit in 20 (RW-OQ-35).
    assert r.stages_fought == 1 and r.retreated == DEFENDER and r.victor == ATTACKER
    assert r.outcome == "the last defenders retreated into their tower: the assaulter takes the fortification"
    assert r.dead == [] and r.captured == {} and r.survivors[DEFENDER] == {"auxiliary": 10, "ducats": 50}
    # A tower too small, or town garrison troops among them (never inside towers): they fight on.
    assert assault.walls(a, d, far=0, fas=100, retreat_room=9).stages_fought > 1
    d.contingents.append(troop("garrison:X", {"garrison": 3}, 390, persona=False))
    assert assault.walls(a, d, far=0, fas=100, retreat_room=100).stages_fought > 1


def test_walls_emptied_their_persona_dies_half_the_defenders_move_and_the_bonus() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 30050}, 900),
             dispositions=[at("north", 50), at("east", 30000)])
    d = side(DEFENDER, troop("D1", {"auxiliary": 50}, 0, cannon=2), troop("D2", {"auxiliary": 135}, 0,
                                                                             goods={"ducats": 100}),
             dispositions=[at("east", 135), at("north", 50)], places={"D2": "east"})
    r = assault.walls(a, d, far=0, fas=100)
    # Defenders at morale 0 kill no one; no wall is short of defenders but the East, and no wall has any to spare.
    # Stage 3: East: 1% of 30,000 = 300 on the top x .5 x 900/1000 = 135: the East's defenders are gone and D2,
    # posted there, dies. North: 1% of 50 = .5 -> no climber. A: -135 -> +11: 911.
    assert "All the defenders of the east wall are gone: D2 dies." in r.stages[2].lines
    assert r.stages[2].losses[DEFENDER] == {"auxiliary": 135}
    # Stage 4: no unassaulted wall has defenders: half of the North's 50 go East. East: 2% of 29,700 = 594 climb, 894
    # on the top kill the 25; North: 1 climbs and kills 1 x .5 x .911 = .46 -> 1. A: -26 -> +5: 916.
    assert r.stages[3].lines[0] == "Half of the defenders of the north wall move: 25."
    assert r.stages[3].losses[DEFENDER] == {"auxiliary": 26}
    # Stage 5: half of 24 = 12 East (all killed); North: 3% of 49 = 1.47 -> 1, 2 on the top: .92 -> 1 (11 left);
    # +3: 919. Stage 6: 5 East (killed); North 4% of 48 = 1.92 -> 1, 3 on the top: 1.38 -> 2 (4 left); +2: 921.
    # Stage 7: 2 East (killed); North 5% of 47 = 2.35 -> 2, 5 on the top: 2.30 -> 3, the last 2: D1 dies. +2: 923.
    assert [s.losses[DEFENDER]["auxiliary"] for s in r.stages[4:]] == [13, 7, 4]
    assert r.stages[-1].losses[DEFENDER] == {"auxiliary": 4, "cannon": 2, "ducats": 100}  # the captures with them
    assert r.stages_fought == 7 and r.victor == ATTACKER and r.eliminated == [DEFENDER]
    assert r.dead == ["D2", "D1"]
    assert r.captured == {"cannon": 2, "ducats": 100}
    # The bonus: 185 defenders eliminated, one whole hundred: 923 + 1 (RW-OQ-35).
    assert r.morale == {ATTACKER: 924, DEFENDER: 0}
    assert r.outcome == "the defenders were eliminated: the assaulter takes the fortification"


def test_when_the_defending_commander_dies_his_rank_no_longer_holds_them() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 30000}, 900), dispositions=[at("north", 29990), at("east", 10)])
    d = side(DEFENDER, troop("D", {"auxiliary": 120}, 350), troop("D2", {"auxiliary": 10}, 350), value=100,
             dispositions=[at("north", 120), at("east", 10)], places={"D2": "east"})
    r = assault.walls(a, d, far=0, fas=100, retreat_room=100)
    # Stage 2: North 120 x 4 x .35 x .1 = 16.8 -> 17; East 10 x .14 = 1.4 -> 2. A: 38 -> -7: 893; D: +4: 354.
    # Stage 3: North: 1% of 29,973 -> 299 climb; 120 x .354 x .4 = 16.99 -> 17 on the top; 282 x .5 x .893 =
    #   125.9 -> 126: the North's 120 are gone, and D, the commander, with them. East: no climber; 10 x .354 x .4
    #   = 1.42 -> 2 at the foot. D: 2 x 120 - 19 = 221 -> -15: 339. With D alive, 339 + 100 = 439 would hold; dead,
    #   his forces hold only "until their morale goes below 400": the East's 10 go into the tower (they fit).
    assert r.stages[2].morale[DEFENDER] == 339
    assert r.dead == ["D"] and r.stages_fought == 3
    assert r.retreated == DEFENDER and r.victor == ATTACKER
    assert r.morale[ATTACKER] == 903  # 893 + 9 (2 x 19 - 120 = -82) = 902, + 1 for 120 defenders eliminated
    # The commander on the East instead, D2 on the North: D2 dies, D's 100 still count, no retreat at Stage 3.
    d.places = {"D": "east", "D2": "north"}
    r = assault.walls(a, d, far=0, fas=100, retreat_room=100)
    assert r.stages[2].morale[DEFENDER] == 339 and r.stages_fought > 3
    assert r.dead[0] == "D2"


def test_a_small_assault_end_to_end() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 500}, 600))
    d = side(DEFENDER, troop("D", {"auxiliary": 3}, 100, cannon=1, gunnery=500, goods={"ducats": 100}))
    r = assault.walls(a, d, far=200, fas=100)
    # The allocation: 125 assaulters a wall; the 3 defenders one each at the North, East and South. Every wall is
    # outnumbered, none has a man to spare.
    # Stage 1: 1 cannon x 100 x 500/1000 x 200/1000 = 10, 2.5 a wall: 2 each and the two left to the first equal
    # remainders, North and East: 3, 3, 2, 2. The cannon self-destructs (2% of 1 -> 1).
    #   A: 2 x 10 = 20 -> -5: 595. D: -10 -> +3: 103.
    # Stage 2: the West has no defenders and no one can be spared (half of 1 is 0). North, East, South: 1 x 4 x
    #   .103 x .1 = .04 -> 1 each. A: 2 x 3 = 6 -> -3: 592. D: -3 -> +1: 104.
    # Stage 3: 1% of 121, 121, 122, 123 -> 1 climber each. Each defender kills 1 x .104 x (.3 + .1) = .04 -> 1: the
    #   climber. The West's climber stays on its empty wall. A: 6 -> -3: 589. D: +1: 105.
    # Stage 4: 2% of 120, 120, 121, 122 -> 2 each. Each defender kills 1 x .105 x .4 = .04 -> 1 of the 2; the
    #   survivor kills .5 x .589 = .29 -> 1: the last defender of each wall. D, on the North, dies.
    #   A: 2 x 3 - 3 = 3 -> -2: 587. D: 2 x 3 - 3 = 3 -> -2: 103.
    assert [s.losses for s in r.stages] == [
        {ATTACKER: {"auxiliary": 10}, DEFENDER: {"cannon": 1}},
        {ATTACKER: {"auxiliary": 3}},
        {ATTACKER: {"auxiliary": 3}},
        {ATTACKER: {"auxiliary": 3}, DEFENDER: {"auxiliary": 3, "ducats": 100}},
    ]
    assert "The north wall's assaulters lose 3 auxiliaries." in r.stages[0].lines
    assert "The south wall's assaulters lose 2 auxiliaries." in r.stages[0].lines
    assert "West: 1 reach the top (1% of the foot), 1 on the top." in r.stages[2].lines
    assert [s.morale for s in r.stages] == [{ATTACKER: 595, DEFENDER: 103}, {ATTACKER: 592, DEFENDER: 104},
                                            {ATTACKER: 589, DEFENDER: 105}, {ATTACKER: 587, DEFENDER: 103}]
    assert r.victor == ATTACKER and r.eliminated == [DEFENDER] and r.dead == ["D"]
    assert r.captured == {"ducats": 100}
    assert r.survivors == {ATTACKER: {"auxiliary": 481}, DEFENDER: {"auxiliary": 0, "cannon": 0, "ducats": 0}}
    assert r.morale_start == {ATTACKER: 600, DEFENDER: 100}
    assert r.morale == {ATTACKER: 587, DEFENDER: 103}  # 3 defenders: no whole hundred, no bonus
    assert r.stages_fought == 4 and r.kind == "assault"


# ---- a tower --------------------------------------------------------------------------------------------

def test_inside_the_tower_are_the_men_the_loss_order_reaches_last() -> None:
    # RW-OQ-37: heavy cavalry, then crew, archers, ... up to the room; town garrison troops never.
    assert assault.inside({"auxiliary": 100, "archer": 50, "heavy cavalry": 5, "garrison": 7}, 60) == {
        "heavy cavalry": 5, "archer": 50, "auxiliary": 5}


def test_the_prelude_then_the_tower_assault_end_to_end() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 2000}, 900))
    d = side(DEFENDER, troop("D", {"auxiliary": 130, "archer": 10}, 500, goods={"ducats": 300}),
             troop("tower:Pisa:1", {"garrison": 10}, 500, persona=False))
    r = assault.tower(a, d, fas=100, room=20)
    # Inside the tower's 20: the 10 archers and 10 auxiliaries; the other 120 auxiliaries are exposed.
    # Prelude, stage 1 (urban, the defender home, with all his men but not the tower garrison): 140 x 500/10,000 =
    #   7 (with the garrison it would be 7.5 -> 8); 1,993 x 900/10,000 = 179.37 -> 180, but only the 120 outside
    #   can fall. A: 2 x 7 - 120 = -106 -> +10: 910. D: 2 x 120 - 7 = 233 -> -16 (15.26 up): 484. They fit.
    # The tower assault: 10 auxiliaries, 10 archers, 10 tower garrison, at (20 x 484 + 10 x 500)/30 = 489.
    # Stage 1: FAR 0, nothing.
    # Stage 2: 30 x 4 x .489 x .1 = 5.87 -> 6 (1,987). A: 12 -> -4: 906. D: +2: 491.
    # Stage 3: 1% of 1,987 -> 19 climb; 30 x .491 x (.3 + .1) = 5.89 -> 6 on the top; 13 survive: 13 x .5 x .906
    #   = 5.89 -> 6 tower garrison (garrison troops first). A: 12 - 6 = 6 -> -3: 903. D: 6 -> -3: 488.
    # Stage 4: 2% of 1,968 = 39.36 -> 39, 52 on the top; 24 x .488 x .4 = 4.68 -> 5; 47 x .5 x .903 = 21.22 -> 22:
    #   4 garrison, 10 auxiliaries, 8 archers. A: 10 - 22 = -12 -> +3: 906. D: 44 - 5 = 39 -> -7: 481.
    # Stage 5: 3% of 1,929 = 57.87 -> 57, 104 on the top; 2 x .481 x .4 = .38 -> 1; 103 x .5 x .906 = 46.66: the 2
    #   archers. A: 2 - 2 = 0: 906. D: 4 - 1 = 3 -> -2: 479.
    assert [(s.number, s.name) for s in r.stages] == [(1, "urban melee"), (1, "cannon"), (2, "assault"),
                                                      (3, "assault"), (4, "assault"), (5, "assault")]
    assert [s.losses.get(DEFENDER) for s in r.stages[:-1]] == [
        {"auxiliary": 120}, None, None, {"garrison": 6}, {"garrison": 4, "auxiliary": 10, "archer": 8}]
    assert [s.losses[ATTACKER] for s in r.stages if ATTACKER in s.losses] == [{"auxiliary": n} for n in (7, 6, 6, 5, 1)]
    assert [s.morale for s in r.stages] == [
        {ATTACKER: 910, DEFENDER: 484}, {ATTACKER: 910, DEFENDER: 489}, {ATTACKER: 906, DEFENDER: 491},
        {ATTACKER: 903, DEFENDER: 488}, {ATTACKER: 906, DEFENDER: 481}, {ATTACKER: 906, DEFENDER: 479}]
    assert r.victor == ATTACKER and r.eliminated == [DEFENDER] and r.dead == ["D"]
    assert r.captured == {"ducats": 300}
    # 120 + 6 + 22 + 2 = 150 defenders eliminated, the prelude's included: one point of bonus: 907.
    # The defender's change, prelude and assault: (484 - 500) + (479 - 489) = -26: 474 for D.
    assert r.morale_start == {ATTACKER: 900, DEFENDER: 500}
    assert r.morale == {ATTACKER: 907, DEFENDER: 474}
    assert r.survivors == {ATTACKER: {"auxiliary": 1975},
                           DEFENDER: {"auxiliary": 0, "archer": 0, "ducats": 0, "garrison": 0}}
    assert r.stages_fought == 6 and r.kind == "tower"


def test_a_tower_with_no_one_outside_has_no_prelude() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 405))
    d = side(DEFENDER, troop("D", {"archer": 10}, 500), troop("tower:Pisa:1", {"garrison": 10}, 500, persona=False))
    r = assault.tower(a, d, fas=100, room=20)
    # The assault begins at once with Stage 1 (no effect); Stage 2: 20 x 4 x .5 x .1 = 4; A: 8 -> -3: 402.
    assert r.stages[0].name == "cannon" and r.stages[1].losses[ATTACKER] == {"auxiliary": 4}
    assert r.stages[1].morale[ATTACKER] == 402


def test_a_tower_no_one_defends_falls_after_its_first_stage() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 500))
    d = side(DEFENDER, troop("D", {}, 0, goods={"ducats": 40}), troop("tower:Pisa:1", {"garrison": 0}, 500,
                                                                         persona=False))
    r = assault.tower(a, d, fas=100, room=20)
    assert [s.name for s in r.stages] == ["cannon"]
    assert r.victor == ATTACKER and r.dead == ["D"] and r.captured == {"ducats": 40}


def test_an_attacker_breaking_in_the_prelude_leaves_town() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 405))
    d = side(DEFENDER, troop("D", {"auxiliary": 1000}, 500), troop("tower:Pisa:1", {"garrison": 10}, 500,
                                                                    persona=False))
    r = assault.tower(a, d, fas=100, room=100)
    # 1,000 x 500/10,000 = 50; 50 x 405/10,000 = 2.03 -> 3 of the 900 outside; A: 97 -> -10: 395 < 400. The prelude
    # is an urban battle: the attacker, not home and without a tower, leaves town.
    assert r.stages_fought == 1 and r.retreated == ATTACKER and r.victor == DEFENDER
    assert r.outcome == "the attacker left town"


def test_assaults_are_deterministic_and_leave_their_sides_untouched() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 3000, "pikeman": 500, "crew": 100}, 700),
             dispositions=[at("north", 2000)])
    d = side(DEFENDER, troop("D", {"auxiliary": 300, "archer": 80}, 520, cannon=4, gunnery=600),
             troop("tower:Pisa:1", {"garrison": 30}, 500, persona=False))
    before = copy.deepcopy((a, d))
    assert assault.walls(a, d, far=300, fas=250) == assault.walls(a, d, far=300, fas=250)
    assert assault.tower(a, d, fas=300, room=150) == assault.tower(a, d, fas=300, room=150)
    assert (a, d) == before
