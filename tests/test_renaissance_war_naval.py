"""NAVAL BATTLES, Appendix F and NAVAL BOMBARDMENT (war/naval.py, naval_battle.py, naval_fleet.py), each against
figures worked by hand from the rules' words; the readings are docs/renaissance/war.md, section "naval"."""

from __future__ import annotations

import random
from typing import Any

import pytest

from maild_rules.renaissance import piety
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.war import naval, naval_battle, naval_fleet
from maild_rules.renaissance.war.forces import ATTACKER, DEFENDER, Contingent, Side
from tests.renaissance_fixtures import small_state


def side(role: str, ships: dict[str, int], men: dict[str, int], *, pid: str | None = None, falconet: int = 0,
         goods: dict[str, int] | None = None, gunnery: int = 0, navigation: int = 0, morale: int = 500,
         retreat_value: int = 0, dispositions: tuple[tuple[str, str, int], ...] = (), **kw: Any) -> Side:
    pid = pid or ("0101" if role == ATTACKER else "0201")
    c = Contingent(key=pid, name=f"P{pid}", persona=pid, men=dict(men), morale=morale, falconet=falconet,
                   ships=dict(ships), goods=dict(goods or {}), gunnery=gunnery, navigation=navigation)
    return Side(role, [c], commander=pid, retreat_value=retreat_value, dispositions=list(dispositions), **kw)


def stage(result: naval_battle.NavalResult, n: int) -> naval_battle.NavalStage:
    st = result.stages[n - 1]
    assert st.number == n
    assert isinstance(st, naval_battle.NavalStage)
    return st


# ---- divisions --------------------------------------------------------------------------------------------

def test_standard_dispositions_split_each_type_equally_the_remainder_center_left_right_reserves() -> None:
    # RW-OQ-39: 7 galleys = 4 x 1 + 3: one each, the 3 left to Center, Left, Right -> 2, 2, 2, 1; 2 caravels: 0
    # each, the 2 left to Center, Left -> 1, 1, 0, 0.
    s = side(ATTACKER, {"galley": 7, "caravel": 2}, {"crew": 740}, goods={"wine": 37})
    divs, note = naval_battle.arrange(s)
    assert note == "standard dispositions"
    assert {d: divs[d].ships for d in naval_fleet.REMAINDER_ORDER} == {
        "center": {"galley": 2, "caravel": 1}, "left": {"galley": 2, "caravel": 1}, "right": {"galley": 2},
        "reserves": {"galley": 1}}
    # Men and goods by capacity: 2,200, 2,200, 2,000, 1,000 of 7,400. 740 crew: 220, 220, 200, 100 exactly;
    # 37 wine: 11, 11, 10, 5 exactly.
    assert [divs[d].load["crew"] for d in naval_fleet.REMAINDER_ORDER] == [220, 220, 200, 100]
    assert [divs[d].load["wine"] for d in naval_fleet.REMAINDER_ORDER] == [11, 11, 10, 5]


def test_a_commanders_arrangement_needs_20_percent_of_his_ships_in_each_forward_division() -> None:
    # 10 galleys: 2 in the Right is 20% (5 x 2 = 10 >= 10): legal; the 4 he did not place go to the Reserves.
    legal = side(ATTACKER, {"galley": 10}, {"crew": 400},
                 dispositions=(("left", "galley", 2), ("center", "galley", 2), ("right", "galley", 2)))
    divs, note = naval_battle.arrange(legal)
    assert note == "the commander's arrangement"
    assert [divs[d].ships.get("galley", 0) for d in ("left", "center", "right", "reserves")] == [2, 2, 2, 4]
    # 1 in the Right is 10%: set aside, standard dispositions (10 = 4 x 2 + 2: 3, 3, 2, 2).
    illegal = side(ATTACKER, {"galley": 10}, {"crew": 400},
                   dispositions=(("left", "galley", 4), ("center", "galley", 5), ("right", "galley", 1)))
    divs, note = naval_battle.arrange(illegal)
    assert "fewer than 20%" in note
    assert [divs[d].ships.get("galley", 0) for d in ("center", "left", "right", "reserves")] == [3, 3, 2, 2]


def test_an_arrangement_of_ships_he_does_not_have_is_set_aside() -> None:
    s = side(ATTACKER, {"galley": 3}, {"crew": 120},
             dispositions=(("left", "galley", 1), ("center", "galley", 2), ("right", "galley", 1)))
    divs, note = naval_battle.arrange(s)
    assert "4 galley placed, 3 at hand" in note
    assert [divs[d].ships.get("galley", 0) for d in ("center", "left", "right", "reserves")] == [1, 1, 1, 0]


# ---- initiative -------------------------------------------------------------------------------------------

def test_initiative_goes_to_the_higher_effective_navigation_a_shortage_of_crew_and_rowers_reducing_it() -> None:
    # The defender's galley needs 40 crew + 250 rowers = 290; 145 crew, no slaves: 145 seats filled of 290 = 1/2;
    # navigation 600 x 1/2 = 300 < the attacker's 500 (fully manned barque: 5 crew).
    a = side(ATTACKER, {"barque": 1}, {"crew": 5}, navigation=500)
    b = side(DEFENDER, {"galley": 1}, {"crew": 145}, navigation=600)
    assert naval_battle.effective_navigation(b) == 300
    assert naval_battle.initiative(a, b)[0] == ATTACKER
    # Slaves row: 250 slaves and 40 crew fill all 290 seats, 600 stands, and the defender has the initiative.
    b_full = side(DEFENDER, {"galley": 1}, {"crew": 40, "slave": 250}, navigation=600)
    assert naval_battle.effective_navigation(b_full) == 600
    assert naval_battle.initiative(a, b_full)[0] == DEFENDER


def test_initiative_ties_go_to_the_fewer_ships_then_to_the_defender() -> None:
    # Same navigation: "the side with the fewer ships has the initiative".
    a = side(ATTACKER, {"barque": 2}, {"crew": 10}, navigation=500)
    b = side(DEFENDER, {"barque": 3}, {"crew": 15}, navigation=500)
    assert naval_battle.initiative(a, b)[0] == ATTACKER
    assert naval_battle.initiative(b, a)[0] == DEFENDER  # roles swapped: still the two-barque fleet
    # As many ships too: the defender (the text is silent; Appendix D's defense strikes first).
    c = side(DEFENDER, {"barque": 2}, {"crew": 10}, navigation=500)
    assert naval_battle.initiative(a, c)[0] == DEFENDER


# ---- stage 1 ------------------------------------------------------------------------------------------------

def _falconet_attacker(**kw: Any) -> Side:
    # One ship of each type, arranged: Left a roundship, Center a galley, Right a caravel, Reserves a galliot and a
    # barque (each forward division 1 of 5 ships = 20%). Complement: crew 40+20+10+10+5 = 85, rowers 250+50 = 300.
    return side(ATTACKER, {"galley": 1, "roundship": 1, "caravel": 1, "galliot": 1, "barque": 1},
                {"crew": 210, "slave": 420}, falconet=210, gunnery=500, navigation=400,
                dispositions=(("left", "roundship", 1), ("center", "galley", 1), ("right", "caravel", 1),
                              ("reserves", "galliot", 1), ("reserves", "barque", 1)), **kw)


def test_stage_one_falconets_fire_at_most_five_per_galley_three_per_roundship_one_per_caravel() -> None:
    # 210 falconets by capacity (Center 1,000, Left 500, Right 200, Reserves 400 of 2,100): 100, 50, 20, 40.
    # Fired: Center min(100, 5 per galley) = 5, Left min(50, 3 per roundship) = 3, Right min(20, 1) = 1.
    # Each kills 100 x 500/1000 x 400/1000 = 20 men of the facing division (RW-OQ-38).
    # The defender: 3 roundships (one each forward), 60 crew and 900 pikemen: 20 crew and 300 pikemen each.
    a = _falconet_attacker()
    b = side(DEFENDER, {"roundship": 3}, {"crew": 60, "pikeman": 900}, navigation=300)
    r = naval_battle.fight(a, b)
    assert r.initiative == ATTACKER  # 400 > 300
    s1 = stage(r, 1)
    # Center 5 x 20 = 100 at the defender's Center {300 pikemen, 20 crew}: 93.75 and 6.25 -> 93 + 6, the one
    # left to the larger remainder (.75): 94 pikemen, 6 crew. Left 3 x 20 = 60 at the defender's Right: 56.25 and
    # 3.75 -> 56 + 3 and one to crew (.75): 56, 4. Right 1 x 20 = 20 at the defender's Left: 18.75, 1.25 -> 19, 1.
    assert s1.killed[DEFENDER] == {"pikeman": 94 + 56 + 19, "crew": 6 + 4 + 1}
    # 2% of the 9 falconets fired = .18 -> 1 self-destructs (RW-OQ-01).
    assert s1.losses[ATTACKER] == {"falconet": 1}
    assert s1.destroyed[ATTACKER] == {"falconet": 1}
    # Morale: attacker inflicted 180, suffered 0: -180 -> +sqrt(180) = 13.4 -> +13; defender 2 x 180 = 360 ->
    # -sqrt(360) = -18.97 -> -19.
    assert s1.morale == {ATTACKER: 513, DEFENDER: 481}


def test_stage_one_the_side_without_the_initiative_reciprocates() -> None:
    # The attacker as above (fires first: the same 180 killed). The defender's 30 falconets, 10 a roundship, fire 3
    # each (3 per roundship); 100 x 500/1000 x 300/1000 = 15 a falconet: 45 at each facing division.
    # The attacker's men by capacity (1,000, 500, 200, 400 of 2,100): crew 100, 50, 20, 40; slaves 200, 100, 40, 80.
    a = _falconet_attacker()
    b = side(DEFENDER, {"roundship": 3}, {"crew": 60, "pikeman": 900}, falconet=30, gunnery=500, navigation=300)
    s1 = stage(naval_battle.fight(a, b), 1)
    # Each facing division holds crew : slaves = 1 : 2, so 45 -> 15 crew and 30 slaves, three times.
    assert s1.killed[ATTACKER] == {"crew": 45, "slave": 90}
    # 2% of 9 fired = .18 -> 1 (the tie of three equal divisions goes to the Left, written first).
    assert s1.destroyed[DEFENDER] == {"falconet": 1}
    assert naval_battle.fight(a, b).guns_fired == {ATTACKER: 9, DEFENDER: 9}  # for the piety of a Shia or Sunni
    # Morale: attacker 2 x 135 - 180 = 90 -> -sqrt(90) = -9.49 -> -10; defender 360 - 135 = 225 -> -15.
    assert s1.morale == {ATTACKER: 490, DEFENDER: 485}


def test_two_percent_of_the_falconets_fired_self_destruct_rounded_up() -> None:
    # 20 galleys, 5 a division; 100 falconets, 25 a division, all fire (5 per galley): 75 fired, 2% = 1.5 -> 2,
    # shared among the three equal divisions by the largest remainder (equal: the Left and the Center, written first).
    a = side(ATTACKER, {"galley": 20}, {"crew": 800, "slave": 5000}, falconet=100, gunnery=100, navigation=400)
    b = side(DEFENDER, {"galley": 20}, {"crew": 800, "slave": 5000}, navigation=300)
    s1 = stage(naval_battle.fight(a, b), 1)
    assert s1.destroyed[ATTACKER] == {"falconet": 2}
    assert "2% of the attacker's 75 falconets fired self-destruct: 2" in s1.lines


def test_no_reciprocation_when_no_troops_or_crew_survive() -> None:
    # Each falconet kills 20 (as above); the defender's 3 roundships carry 10 crew each (30 crew, 30 falconets):
    # every division is wiped out, captured with its falconets, and none fires back.
    a = _falconet_attacker()
    b = side(DEFENDER, {"roundship": 3}, {"crew": 30}, falconet=30, gunnery=500, navigation=300)
    r = naval_battle.fight(a, b)
    s1 = stage(r, 1)
    assert s1.killed[DEFENDER] == {"crew": 30}
    assert ATTACKER not in s1.killed
    assert s1.captured[DEFENDER] == {"roundship": 3, "falconet": 30}
    assert r.taken[ATTACKER] == {"roundship": 3, "falconet": 30} == r.captured
    assert r.eliminated == [DEFENDER] and r.victor == ATTACKER and r.stages_fought == 1
    assert r.dead == ["0201"]  # TRAVEL: "Personae drown when they lose their last ship"


# ---- stages 2 and 3: ramming and the cargo adjustment -------------------------------------------------------

def _rammers() -> Side:
    # 12 galleys: 3 in each division; complement 12 x 40 crew + 12 x 250 rowers: 480 crew, 3,000 slaves.
    return side(ATTACKER, {"galley": 12}, {"crew": 480, "slave": 3000}, navigation=900)


def _rammed(**kw: Any) -> Side:
    # Center one ship of each type, Left 2 barques, Right 2 barques (9 ships, 2 = 22% in each wing). Capacities:
    # Center 1,000 + 300 + 500 + 200 + 100 = 2,100, Left 200, Right 200 (of 2,500). Complement: crew 40 + 10 + 20
    # + 10 + 5 x 5 = 105, rowers 250 + 50 = 300. Men by capacity (2,100 : 200 : 200): crew 125 -> 105, 10, 10;
    # slaves 300 -> 252, 24, 24; pikemen 500 -> 420, 40, 40; wine 250 -> 210, 20, 20.
    return side(DEFENDER, {"galley": 1, "galliot": 1, "roundship": 1, "caravel": 1, "barque": 5},
                {"crew": 125, "slave": 300, "pikeman": 500}, goods={"wine": 250}, navigation=400,
                dispositions=(("center", "galley", 1), ("center", "galliot", 1), ("center", "roundship", 1),
                              ("center", "caravel", 1), ("center", "barque", 1), ("left", "barque", 2),
                              ("right", "barque", 2)), **kw)


def test_stage_two_galleys_ram_by_the_navigation_difference_in_the_ramming_order_then_cargo_is_adjusted() -> None:
    r = naval_battle.fight(_rammers(), _rammed())
    s2 = stage(r, 2)
    # Each galley rams (900 - 400)/1000 = .5 ships; 3 galleys a division: 1.5 -> 2 (RW-OQ-39, rounded up).
    # Center: "galleys are rammed first, then galliots": the galley and the galliot. Each wing: both barques.
    assert s2.sunk[DEFENDER] == {"galley": 1, "galliot": 1, "barque": 4}
    assert ATTACKER not in s2.sunk  # "The opposing side does not reciprocate during this stage."
    # Cargo: the Center keeps a roundship, a caravel and a barque: 800 cargo for 105 + 252 + 420 + 210 = 987;
    # 187 too many, and "first slaves in excess of those needed to row" (no oars left): 187 slaves.
    # The wings have no ship: everything goes (10 crew, 24 slaves, 40 pikemen, 20 wine each).
    assert s2.overboard[DEFENDER] == {"slave": 187 + 24 + 24, "crew": 20, "pikeman": 80, "wine": 40}
    # Men lost 187 + 2 x 74 = 335, inflicted by the rammer (RW-OQ-15): attacker -335 -> +18 (sqrt 18.3);
    # defender 670 -> -sqrt(670) = -25.9 -> -26.
    assert s2.casualties == {DEFENDER: 335}
    assert s2.morale == {ATTACKER: 518, DEFENDER: 474}


def test_stage_three_rams_at_a_tenth_of_navigation_and_wings_with_no_enemy_flank() -> None:
    r = naval_battle.fight(_rammers(), _rammed())
    s3 = stage(r, 3)
    # The defender's wings emptied in stage 2 and it has no Reserves: "in the following stage, the victorious
    # division flanks the adjacent division" - both attacker wings ram the defender's Center, doubled.
    # Left: 3 galleys x .1 x 900/1000 x 2 = .54 -> 1: the roundship (galleys and galliots gone). Center: 3 x .09 =
    # .27 -> 1: the caravel. Right: .54 -> 1: the barque. The defender's fleet is gone before it can reciprocate.
    assert s3.sunk[DEFENDER] == {"roundship": 1, "caravel": 1, "barque": 1}
    assert "x 2 flanking = 0.54" in " ".join(s3.lines)
    # With no ship left the cargo adjustment throws all: 105 crew, 65 slaves, 420 pikemen, 210 wine.
    assert s3.overboard[DEFENDER] == {"crew": 105, "slave": 65, "pikeman": 420, "wine": 210}
    assert r.eliminated == [DEFENDER] and r.victor == ATTACKER and r.stages_fought == 3
    assert r.dead == ["0201"]
    assert r.survivors[DEFENDER] == {}
    assert r.survivors[ATTACKER] == {"galley": 12, "crew": 480, "slave": 3000}


def test_a_persona_not_to_be_killed_survives_the_loss_of_his_last_ship() -> None:
    r = naval_battle.fight(_rammers(), _rammed(spare=True))
    assert r.dead == []
    assert any("not to be killed" in n for n in r.notes)


def test_stage_three_the_side_without_the_initiative_rams_back() -> None:
    # Both fleets 4 galleys, one a division; attacker navigation 500, defender 300 (full complements). Stage 2:
    # (500 - 300)/1000 = .2 -> 1 galley sunk in each forward division: the defender keeps only its Reserve galley,
    # which takes the place of its Center (the first gap) at the start of stage 3.
    # Stage 3, attacker: its Left, whose facing Right emptied in stage 2, flanks the Center: .1 x 500/1000 x 2 = .1
    # -> 1: the last defender galley. Nothing is left to reciprocate.
    a = side(ATTACKER, {"galley": 4}, {"crew": 160, "slave": 1000}, navigation=500)
    b = side(DEFENDER, {"galley": 4}, {"crew": 160, "slave": 1000}, navigation=300)
    r = naval_battle.fight(a, b)
    assert stage(r, 2).sunk[DEFENDER] == {"galley": 3}
    s3 = stage(r, 3)
    assert "the defender's Reserves (1 galley) take the place of its Center" in s3.lines
    assert s3.sunk == {DEFENDER: {"galley": 1}}
    # With 10 galleys (3, 3, 2, 2) against 4, the defender keeps ships and rams back at .1 x 300/1000 = .03 each.
    b10 = side(DEFENDER, {"galley": 10}, {"crew": 400, "slave": 2500}, navigation=300)
    r = naval_battle.fight(a, b10)
    # Stage 2: the attacker's 1 galley a division, .2 -> 1 sunk from each of the defender's 3, 3, 2.
    assert stage(r, 2).sunk[DEFENDER] == {"galley": 3}
    # Stage 3: attacker 1 galley x .05 -> 1 a division (the defender keeps 1, 1, 0); its Reserves (2 galleys) take
    # the Right's place, and its 1, 1, 2 galleys ram back at .03, .03, .06 -> 1 each (3 of the attacker's).
    s3 = stage(r, 3)
    assert s3.sunk == {DEFENDER: {"galley": 3}, ATTACKER: {"galley": 3}}
    # "Cargo is then adjusted as in stage two": the attacker's three forward divisions have no ship left, and their
    # 40 crew and 250 slaves each go over; the defender's men crowd onto the galleys left (870 and 1,160 cargo for
    # 1,000 and 2,000): nothing over.
    assert s3.overboard == {ATTACKER: {"crew": 120, "slave": 750}}


# ---- the cargo adjustment on its own ----------------------------------------------------------------------

def test_ships_are_rammed_galleys_first_then_galliots_roundships_caravels_barques() -> None:
    fleet = {"barque": 1, "caravel": 1, "roundship": 1, "galliot": 1, "galley": 1}
    assert naval_fleet.sink(dict(fleet), 1) == {"galley": 1}
    assert naval_fleet.sink(dict(fleet), 2) == {"galley": 1, "galliot": 1}
    assert naval_fleet.sink(dict(fleet), 4) == {"galley": 1, "galliot": 1, "roundship": 1, "caravel": 1}
    assert naval_fleet.sink({"barque": 3, "caravel": 1}, 9) == {"caravel": 1, "barque": 3}


def test_cargo_adjustment_order_slaves_goods_auxiliaries_spare_crew_cannons() -> None:
    # A caravel (200 cargo, 10 crew, no oars) with 20 slaves, 30 wine, 40 auxiliaries, 50 crew, 2 cannons (80),
    # 150 pikemen and 20 archers: 390 cargo, 190 too many. Slaves beyond the oars (all 20): 170 left; the wine: 140; the
    # auxiliaries: 100; crew beyond the 10 needed (40): 60; cannons, 40 cargo each: 60/40 = 1.5 -> 2 (80).
    load = {"slave": 20, "wine": 30, "auxiliary": 40, "crew": 50, "cannon": 2, "pikeman": 150, "archer": 20}
    assert naval_fleet.Division({"caravel": 1}, load).cargo() == 390
    thrown = naval_fleet.throw_overboard({"caravel": 1}, load, 190)
    assert thrown == {"slave": 20, "wine": 30, "auxiliary": 40, "crew": 40, "cannon": 2}
    assert load == {"slave": 0, "wine": 0, "auxiliary": 0, "crew": 10, "cannon": 0, "pikeman": 150, "archer": 20}


def test_cargo_adjustment_takes_goods_in_proportion_to_units_held() -> None:
    # A galley (1,000 cargo, 250 rowers) with 300 slaves, 100 grain, 50 horses (2 cargo each), 100 crew, 5 cannons
    # (40 each), 300 pikemen, 10 arquebusiers: 300 + 100 + 100 + 100 + 200 + 300 + 10 = 1,110: 110 too many.
    load = {"slave": 300, "grain": 100, "horse": 50, "crew": 100, "cannon": 5, "pikeman": 300, "arquebusier": 10,
            "ducats": 5000}
    assert naval_fleet.Division({"galley": 1}, load).cargo() == 1110
    thrown = naval_fleet.throw_overboard({"galley": 1}, load, 110)
    # 50 slaves beyond the 250 rowers: 60 left. Goods weigh 100 + 100 = 200: 60/200 = 3/10 of each kind: 30 grain
    # and 15 horses (30 cargo): the excess is gone. Ducats weigh nothing and stay.
    assert thrown == {"slave": 50, "grain": 30, "horse": 15}
    assert load["ducats"] == 5000


def test_cargo_adjustment_past_the_list_takes_rowing_slaves_then_needed_crew() -> None:
    # RW-OQ-40: when the excess survives the whole list. A galley's 250 rowing slaves, 40 crew and 10 pikemen,
    # 270 to go: the 10 pikemen (the list's end), then 250 rowing slaves, then 10 of the needed crew.
    load = {"slave": 250, "crew": 40, "pikeman": 10}
    assert naval_fleet.throw_overboard({"galley": 1}, load, 270) == {"pikeman": 10, "slave": 250, "crew": 10}


# ---- captures, reserves, flanking ---------------------------------------------------------------------------

def _falconeers() -> Side:
    # 3 galleys, one each forward, a falconet each: 100 x 999/1000 x 999/1000 = 99.8 men a falconet.
    return side(ATTACKER, {"galley": 3}, {"crew": 120, "slave": 750}, falconet=6, gunnery=999, navigation=999)


def test_a_division_without_troops_or_crew_is_captured_and_the_reserves_split_equally_among_two_gaps() -> None:
    # The defender: 10 roundships arranged Center 4, Left 2, Right 2, Reserves 2 (20% each forward). Capacities
    # 2,000, 1,000, 1,000, 1,000: 200 crew -> 80, 40, 40, 40; 500 pikemen -> 200, 100, 100, 100; 500 wine -> 200,
    # 100, 100, 100.
    b = side(DEFENDER, {"roundship": 10}, {"crew": 200, "pikeman": 500}, goods={"wine": 500}, navigation=300,
             dispositions=(("center", "roundship", 4), ("left", "roundship", 2), ("right", "roundship", 2)))
    r = naval_battle.fight(_falconeers(), b)
    s1 = stage(r, 1)
    # Each attacker galley fires its 2 falconets: 2 x 99.8 = 199.6 -> 200 killed: the wings' 140 men all die,
    # the Center loses 200 of its 280.
    # The Center: 200 x 200/280 = 142.86 pikemen and 57.14 crew -> 142 + 57, the one left to the pikemen (.86).
    assert s1.killed[DEFENDER] == {"crew": 40 + 40 + 57, "pikeman": 100 + 100 + 143}
    # "all the remaining ships in that division (and their trade goods) are captured intact by the opposing force"
    assert s1.captured[DEFENDER] == {"roundship": 4, "wine": 200}
    # "Should two, or three, divisions become devoid of ships at the same time, then the Reserves are split
    # equally among them", at the start of the following half-stage: one roundship each.
    assert "the defender's Reserves (1 roundship) take the place of its Left" in s1.lines
    assert "the defender's Reserves (1 roundship) take the place of its Right" in s1.lines
    assert "the defender's Reserves (1 roundship) take the place of its Center" not in s1.lines


def test_the_victorious_division_flanks_the_adjacent_division_with_more_troops_and_crew_the_following_stage() -> None:
    # Attacker: Center a galley, Left and Right a barque (which fires no falconet); 12 falconets by capacity
    # (1,000 : 100 : 100) 10, 1, 1. Crew 50 and slaves 250 fill the complement (40 + 5 + 5 crew, 250 rowers):
    # by capacity crew 42, 4, 4 (41.67, 4.17, 4.17 and the one left to the Center) and slaves 208, 21, 21.
    a = side(ATTACKER, {"galley": 1, "barque": 2}, {"crew": 50, "slave": 250}, falconet=12, gunnery=999,
             navigation=999, dispositions=(("center", "galley", 1), ("left", "barque", 1), ("right", "barque", 1)))
    # Defender: Center 2 barques, Left 2 caravels, Right 3 caravels (capacity 200 : 400 : 600); 60 crew, 540 pikemen
    # and 12 falconets by capacity: 10 + 90 + 2, 20 + 180 + 4, 30 + 270 + 6.
    b = side(DEFENDER, {"barque": 2, "caravel": 5}, {"crew": 60, "pikeman": 540}, falconet=12, gunnery=100,
             navigation=300, dispositions=(("center", "barque", 2), ("left", "caravel", 2), ("right", "caravel", 3)))
    r = naval_battle.fight(a, b)
    s1 = stage(r, 1)
    # Stage 1: the attacker's Center fires 5 falconets (5 per galley): 5 x 100 x .999 x .999 = 499 -> all 100 of
    # the defender's Center; its 2 barques are captured with their 2 falconets. 2% of 5 = .1 -> 1 self-destructs.
    assert s1.captured[DEFENDER] == {"barque": 2, "falconet": 2}
    assert s1.destroyed[ATTACKER] == {"falconet": 1}
    # The defender's reply, 100 x 100/1000 x 300/1000 = 3 a falconet, one per caravel: the Left's 2 fire 6 at the
    # attacker's Right {4 crew, 21 slaves}: .96 and 5.04 -> 0 + 5 and one to the crew: 1 + 5; the Right's 3 fire 9
    # at the attacker's Left: 1.44, 7.56 -> 1 + 7 and one to the slaves: 1 + 8. The attacker's Center, whose
    # opponent was emptied in this stage, does not flank yet: none of it falls on the Center.
    assert s1.killed[ATTACKER] == {"crew": 2, "slave": 13}
    assert ("the defender's Right fires 3 falconets (at most 3 from its ships) at the attacker's Left: 3 x 100 x "
            "100/1000 x 300/1000 = 9, 9 killed (1 crew, 8 slaves)") in s1.lines
    assert s1.destroyed[DEFENDER] == {"falconet": 1}  # 2% of 5 -> 1
    s2 = stage(r, 2)
    # Stage 2: no Reserves; the attacker's Center flanks the adjacent division with the greater number of troops
    # and crew: the Right (300) rather than the Left (200). Its galley rams (999 - 300)/1000 x 2 = 1.398 -> 2.
    assert any(line.startswith("the attacker's Center's 1 galleys ram the defender's Right: 1 x (999 - 300)/1000 "
                               "x 2 flanking = 1.398") for line in s2.lines)
    assert s2.sunk[DEFENDER] == {"caravel": 2}


def test_a_flanking_division_inflicts_double_and_the_flanked_division_strikes_back_at_all_its_attackers() -> None:
    # Attacker: 3 roundships (one each forward), 20 crew and 100 pikemen each; navigation 600 (initiative).
    # Defender: 2 roundships, Center and Left (remainder order); its Right is empty from the start; 20 crew and
    # 100 pikemen each. No guns, no galleys, no bows: stages 1 to 5 pass without loss; morale 500 each.
    a = side(ATTACKER, {"roundship": 3}, {"crew": 60, "pikeman": 300}, navigation=600)
    b = side(DEFENDER, {"roundship": 2}, {"crew": 40, "pikeman": 200}, navigation=300)
    r = naval_battle.fight(a, b)
    assert all(not stage(r, n).losses for n in range(1, 6))
    s6 = stage(r, 6)
    # Attacker's half: Left flanks the defender's Center: 120 x .1 x 500/1000 x 2 = 12 (10 pikemen, 2 crew);
    # Center at the Center: 6 of {90, 18} = 5 + 1; Right at the Left: 6 = 5 + 1. Defender loses 20 pikemen, 4 crew.
    assert s6.killed[DEFENDER] == {"pikeman": 20, "crew": 4}
    # Defender's half: Left (95 + 19 = 114) x .05 = 5.7 -> 6 at the attacker's Right: 5 pikemen, 1 crew. Center
    # (102 left) x .05 = 5.1 -> 6, shared between the attacker's Center and its flanking Left (120 men each): 3 and
    # 3, each 2.5 pikemen and .5 crew -> 2 + 0 and the one left to the first written, pikemen: 3 pikemen each.
    assert s6.killed[ATTACKER] == {"pikeman": 11, "crew": 1}
    # Morale: attacker 2 x 12 - 24 = 0 -> 500; defender 48 - 12 = 36 -> -6: 494.
    assert s6.morale == {ATTACKER: 500, DEFENDER: 494}


# ---- the end ---------------------------------------------------------------------------------------------

def test_no_engagement_is_broken_before_the_end_of_the_third_stage() -> None:
    # The defender's morale 300 + retreat value 0 is below 400 from the start; nothing happens in stages 1-3 (no
    # guns, no galleys): the engagement breaks at the end of stage 3, not before.
    a = side(ATTACKER, {"barque": 3}, {"crew": 15}, navigation=500, morale=500)
    b = side(DEFENDER, {"barque": 3}, {"crew": 15}, navigation=400, morale=300)
    r = naval_battle.fight(a, b)
    assert r.stages_fought == 3
    assert r.retreated == DEFENDER and r.victor == ATTACKER
    assert "broken" in r.outcome


def test_both_below_the_retreat_point_the_further_below_breaks_and_equally_the_attacker() -> None:
    a = side(ATTACKER, {"barque": 3}, {"crew": 15}, navigation=500, morale=350)  # 50 below
    b = side(DEFENDER, {"barque": 3}, {"crew": 15}, navigation=400, morale=380)  # 20 below
    assert naval_battle.fight(a, b).retreated == ATTACKER
    b2 = side(DEFENDER, {"barque": 3}, {"crew": 15}, navigation=400, morale=320)  # 80 below
    assert naval_battle.fight(a, b2).retreated == DEFENDER
    b3 = side(DEFENDER, {"barque": 3}, {"crew": 15}, navigation=400, morale=350)  # 50 below: equal
    assert naval_battle.fight(a, b3).retreated == ATTACKER


def test_an_engagement_that_cannot_end_is_broken_off_by_the_engines_guard() -> None:
    # Morale 0 inflicts nothing in the melee and neither side may retreat: the engine stops at 100 stages.
    a = side(ATTACKER, {"barque": 3}, {"crew": 15}, navigation=500, morale=0, can_retreat=False)
    b = side(DEFENDER, {"barque": 3}, {"crew": 15}, navigation=400, morale=0, can_retreat=False)
    r = naval_battle.fight(a, b)
    assert r.stages_fought == naval_battle.STAGE_GUARD == 100
    assert r.victor is None and "broken off after 100 stages" in r.outcome


def test_an_unmanned_fleet_is_captured_without_a_fight_slaves_with_the_goods() -> None:
    a = side(ATTACKER, {"barque": 1}, {"crew": 5}, navigation=500)
    b = side(DEFENDER, {"barque": 2}, {"slave": 10}, goods={"wine": 50}, navigation=400)
    r = naval_battle.fight(a, b)
    assert r.stages_fought == 0
    assert r.taken[ATTACKER] == {"barque": 2, "slave": 10, "wine": 50}
    assert r.victor == ATTACKER and r.eliminated == [DEFENDER] and r.dead == ["0201"]
    # Slaves captured are taken, not killed: no casualty for the morale formula (RW-OQ-15 counts men lost to death).
    assert r.stages[0].number == 0 and r.stages[0].casualties == {}
    assert r.stages[0].captured == {DEFENDER: {"barque": 2, "slave": 10, "wine": 50}}


def test_a_small_naval_battle_worked_by_hand_end_to_end() -> None:
    # Attacker: 3 roundships, 60 crew (the full 3 x 20) and 300 archers, navigation 600, morale 500, retreat value 0.
    # Defender: 3 roundships, 60 crew and 300 pikemen, navigation 300, morale 420, retreat value 0.
    # Standard dispositions: one roundship each forward, none in reserve; each division 20 crew and 100 troops.
    a = side(ATTACKER, {"roundship": 3}, {"crew": 60, "archer": 300}, navigation=600, morale=500)
    b = side(DEFENDER, {"roundship": 3}, {"crew": 60, "pikeman": 300}, navigation=300, morale=420)
    r = naval_battle.fight(a, b)
    assert r.initiative == ATTACKER  # 600 > 300
    # Stages 1-3: no falconets, no galleys. End of stage 3: 420 + 0 >= 400, the defender holds.
    assert [stage(r, n).losses for n in (1, 2, 3)] == [{}, {}, {}]
    # Stage 4: 100 archers a division x 1 x 600/1000 = 60 of {100 pikemen, 20 crew}: 50 + 10, three times.
    # The defender has no archers. Morale: +sqrt(180) = 13 -> 513; -sqrt(360) = -18.97 -> -19: 401 (holds).
    assert stage(r, 4).killed == {DEFENDER: {"pikeman": 150, "crew": 30}}
    assert stage(r, 4).morale == {ATTACKER: 513, DEFENDER: 401}
    # Stage 5: no arquebusiers.
    assert stage(r, 5).losses == {} and stage(r, 5).morale == {ATTACKER: 513, DEFENDER: 401}
    # Stage 6: attacker, 120 troops and crew a division x .1 x 513/1000 = 6.156 -> 7 of {50 pikemen, 10 crew}:
    # 5.83 and 1.17 -> 5 + 1 and the one left to the pikemen: 6 + 1, three times (21).
    # Defender, 53 a division (44 pikemen, 9 crew) x .1 x 401/1000 = 2.125 -> 3 of {100 archers, 20 crew}: 2.5 and
    # .5 -> 2 + 0, the one left (equal remainders) to the archers, written first: 3 archers, three times (9).
    s6 = stage(r, 6)
    assert s6.killed == {DEFENDER: {"pikeman": 18, "crew": 3}, ATTACKER: {"archer": 9}}
    # Morale: attacker 2 x 9 - 21 = -3 -> +1: 514; defender 42 - 9 = 33 -> -sqrt(33) = -5.7 -> -6: 395 < 400.
    assert s6.morale == {ATTACKER: 514, DEFENDER: 395}
    assert r.retreated == DEFENDER and r.victor == ATTACKER and r.stages_fought == 6
    assert r.survivors == {ATTACKER: {"roundship": 3, "crew": 60, "archer": 291},
                           DEFENDER: {"roundship": 3, "crew": 27, "pikeman": 132}}
    assert r.morale == {ATTACKER: 514, DEFENDER: 395} and r.morale_start == {ATTACKER: 500, DEFENDER: 420}
    assert r.dead == [] and r.captured == {} and r.losses(DEFENDER) == {"pikeman": 168, "crew": 33}


def test_a_commander_places_his_troops_and_crew_in_divisions_as_well_as_his_ships() -> None:
    # Reading N1. The battle above, but the attacker's commander puts one roundship in each forward division, all 300
    # archers in the Center and 20 crew with each ship (Z3archer300, Z2crew20, ...). Center: 300 archers + 20 crew
    # = 320 cargo of the roundship's 500; the Left and Right carry 20 crew each; the Reserves nothing.
    placed = (("left", "roundship", 1), ("center", "roundship", 1), ("right", "roundship", 1),
              ("center", "archer", 300), ("left", "crew", 20), ("center", "crew", 20), ("right", "crew", 20))
    a = side(ATTACKER, {"roundship": 3}, {"crew": 60, "archer": 300}, navigation=600, morale=500, dispositions=placed)
    b = side(DEFENDER, {"roundship": 3}, {"crew": 60, "pikeman": 300}, navigation=300, morale=420)
    divs, note = naval_battle.arrange(a)
    assert note == "the commander's arrangement"
    assert {d: divs[d].load for d in naval_fleet.REMAINDER_ORDER} == {
        "center": {"archer": 300, "crew": 20}, "left": {"crew": 20}, "right": {"crew": 20}, "reserves": {}}
    r = naval_battle.fight(a, b)
    # Stage 4: only the Center shoots, at the defender's Center: 300 x 1 x 600/1000 = 180, more than its 100
    # pikemen and 20 crew, who all die; its roundship, without troops or crew, is captured intact (Appendix F).
    # Spread by capacity the archers were 100 a division and killed 60 of each division (the battle above).
    assert stage(r, 4).killed == {DEFENDER: {"pikeman": 100, "crew": 20}}
    assert stage(r, 4).captured == {DEFENDER: {"roundship": 1}}
    # Morale: +sqrt(120) = 10.95 -> 10: 510; -sqrt(2 x 120) = -15.49 -> -16: 404.
    assert stage(r, 4).morale == {ATTACKER: 510, DEFENDER: 404}


def test_men_placed_and_the_rest_shared_by_the_room_each_division_has_left() -> None:
    # Four roundships (500 each); he places the ships 1, 1, 1 (the fourth to the Reserves) and 300 archers in the
    # Center. The rest, 170 pikemen and 34 crew, go by the room left: Center 200, Left, Right, Reserves 500 each
    # (1,700): pikemen 20, 50, 50, 50; crew 4, 10, 10, 10, exactly.
    a = side(ATTACKER, {"roundship": 4}, {"archer": 300, "pikeman": 170, "crew": 34},
             dispositions=(("left", "roundship", 1), ("center", "roundship", 1), ("right", "roundship", 1),
                           ("center", "archer", 300)))
    divs, _ = naval_battle.arrange(a)
    assert {d: divs[d].load for d in naval_fleet.REMAINDER_ORDER} == {
        "center": {"archer": 300, "pikeman": 20, "crew": 4}, "left": {"pikeman": 50, "crew": 10},
        "right": {"pikeman": 50, "crew": 10}, "reserves": {"pikeman": 50, "crew": 10}}
    # Men placed without placing ships: the ships are divided as standard (one each), the archers go where told.
    only_men = side(ATTACKER, {"roundship": 4}, {"archer": 300}, dispositions=(("left", "archer", 300),))
    divs, note = naval_battle.arrange(only_men)
    assert note == "the commander's arrangement" and divs["left"].load == {"archer": 300}
    # Impossible, so ignored whole (FIELD BATLE): more men than one roundship carries, or more than he has.
    heavy = side(ATTACKER, {"roundship": 4}, {"archer": 600}, dispositions=(("center", "archer", 600),))
    assert "600 cargo placed in the Center, whose ships carry 500" in naval_battle.arrange(heavy)[1]
    short = side(ATTACKER, {"roundship": 4}, {"archer": 100}, dispositions=(("center", "archer", 200),))
    divs, note = naval_battle.arrange(short)
    assert "200 archer placed, 100 at hand" in note and divs["center"].load == {"archer": 25}


def test_archers_and_arquebusiers_fire_in_their_stages_at_n_and_half_n() -> None:
    # One barque each forward a side. Attacker (initiative, 500): 30 arquebusiers and 5 crew a division.
    # Defender (400): 20 archers, 5 crew and 75 auxiliaries a division.
    a = side(ATTACKER, {"barque": 3}, {"crew": 15, "arquebusier": 90}, navigation=500)
    b = side(DEFENDER, {"barque": 3}, {"crew": 15, "archer": 60, "auxiliary": 225}, navigation=400)
    r = naval_battle.fight(a, b)
    # Stage 4: the attacker has no archers; the defender's 20 a division x 1 x 400/1000 = 8 of {30 arquebusiers, 5
    # crew}: 6.86 and 1.14 -> 6 + 1, the one left to the arquebusiers: 7 + 1, three times.
    assert stage(r, 4).killed == {ATTACKER: {"arquebusier": 21, "crew": 3}}
    # Stage 5: 23 arquebusiers a division x .5 x 500/1000 = 5.75 -> 6 of {20 archers, 75 auxiliaries, 5 crew}:
    # 1.2, 4.5, .3 -> 1 + 4 + 0, the one left to the largest remainder (.5, auxiliaries): 1, 5, 0, three times.
    assert stage(r, 5).killed == {DEFENDER: {"archer": 3, "auxiliary": 15}}


def test_the_melee_multiplies_m_by_the_sides_factor() -> None:
    # As the end-to-end battle, with a factor 2 (a Shia or Sunni sovereign's troops, RW-OQ-14): stage 6, 120 x .1 x
    # 513/1000 x 2 = 12.3 -> 13 of {50 pikemen, 10 crew} a division: 10.83 and 2.17 -> 10 + 2, one to the
    # pikemen: 11 + 2.
    a = side(ATTACKER, {"roundship": 3}, {"crew": 60, "archer": 300}, navigation=600, morale=500, factor=2)
    b = side(DEFENDER, {"roundship": 3}, {"crew": 60, "pikeman": 300}, navigation=300, morale=420)
    s6 = stage(naval_battle.fight(a, b), 6)
    assert s6.killed[DEFENDER] == {"pikeman": 33, "crew": 6}


def test_the_owner_goes_with_the_reserves_and_his_division_inflicts_with_his_factor() -> None:
    # Attacker: 3 roundships, 20 crew and 3 falconets each, gunnery and navigation 500: 3 x 100 x .5 x .5 = 75 at each
    # facing division. Defender: 4 roundships (one a division, Reserves included), 20 crew each; same navigation, so
    # the fewer ships (3) have the initiative. A Shia sovereign's own division inflicts x 3 (commander_factor).
    a = side(ATTACKER, {"roundship": 3}, {"crew": 60}, falconet=9, gunnery=500, navigation=500)
    b = side(DEFENDER, {"roundship": 4}, {"crew": 80}, navigation=500, can_retreat=False, commander_factor=3)
    r = naval_battle.fight(a, b)
    # Stage 1: the three forward divisions lose all their men and are captured; the Reserves go to the three gaps,
    # split equally: the one roundship to the Center (the remainder's first place), and "the owner of the ships goes
    # with the Reserve". Morale: attacker +sqrt(60) = 7.7 -> 507; defender -sqrt(120) = -10.95 -> -11: 489.
    assert stage(r, 1).captured[DEFENDER] == {"roundship": 3}
    assert "the defender's Reserves (1 roundship) take the place of its Center" in stage(r, 1).lines
    s6 = stage(r, 6)
    # Stage 6: the attacker's wings flank the Center (x 2): 20 x .1 x 507/1000 x 2 = 2.03 -> 3 each; its Center
    # 1.01 -> 2: 8 of the 20 crew. The defender's Center, with its owner: 12 x .1 x 489/1000 x 3 = 1.76 -> 2, shared
    # among the Center and the two flankers (20 men each): .67 each -> the two units to the first written.
    assert s6.killed[DEFENDER] == {"crew": 8}
    assert ("the defender's Center's 12 troops and crew board the attacker's Center, the attacker's Left, the "
            "attacker's Right: 12 x .1 x 489/1000 x 3 = 1.7604, 2 killed (2 crew)") in s6.lines


def test_a_battle_is_the_same_every_time() -> None:
    r1 = naval_battle.fight(_falconet_attacker(), side(DEFENDER, {"roundship": 3}, {"crew": 60, "pikeman": 900},
                                                       falconet=30, gunnery=500, navigation=300))
    r2 = naval_battle.fight(_falconet_attacker(), side(DEFENDER, {"roundship": 3}, {"crew": 60, "pikeman": 900},
                                                       falconet=30, gunnery=500, navigation=300))
    assert r1 == r2


# ---- the bombardment order --------------------------------------------------------------------------------

def _ctx(turn: int = 1, seed: int = 1) -> Ctx:
    state = small_state()
    ctx = Ctx(state=state, turn=turn, rng=random.Random(seed))
    for pid, p in state["personae"].items():
        ctx.start_location[pid] = p.get("location")
        ctx.start_inside[pid] = bool(p.get("inside"))
    return ctx


def test_the_order_is_recorded_for_next_month_and_charged() -> None:
    ctx = _ctx(turn=4)
    ctx.state["players"]["LMD"]["account"]["balance"] = 20.0
    p = ctx.state["personae"]["0103"]
    out = naval.naval_bombardment(ctx, p, {"targets": ["doria"]})
    assert out.ok
    assert p["naval_bombardment"] == {"targets": ["DORIA"], "turn": 5}
    # CONFLICT ORDERS: 25 actions x 0.2 = 5.00 charged to MEDICI's player.
    assert ctx.state["players"]["LMD"]["account"]["balance"] == 15.0
    assert naval.naval_bombardment(ctx, p, {"targets": ["ALL", "DORIA"]}).ok
    assert p["naval_bombardment"]["targets"] == ["ALL"]


def test_the_order_fails_for_too_many_families_an_unknown_one_or_unpaid_fees() -> None:
    ctx = _ctx()
    p = ctx.state["personae"]["0103"]
    for f in ("A", "B", "C", "D", "E", "F", "G", "H"):
        ctx.state["families"][f] = {"player": "LMD", "personae": []}
    assert not naval.naval_bombardment(ctx, p, {"targets": list("ABCDEFGH")}).ok  # eight families
    assert naval.naval_bombardment(ctx, p, {"targets": list("ABCDEFG")}).ok  # seven
    assert "no family" in naval.naval_bombardment(ctx, p, {"targets": ["SFORZA"]}).text
    ctx.state["players"]["LMD"]["account"]["balance"] = -50.0
    out = naval.naval_bombardment(ctx, p, {"targets": ["DORIA"]})
    assert not out.ok and "CREDIT" in out.text


# ---- the bombardment fired ---------------------------------------------------------------------------------

def _bombarder(ctx: Ctx, cannons: int, gunnery: int = 500, religion: str = "catholic") -> dict[str, Any]:
    # Giuliano de' Medici (0103) started the month at Genoa (a port: harbor 20) with his cannons.
    p = ctx.state["personae"]["0103"]
    p.update(location="Genoa", religion=religion, piety=250, skills={"gunnery": gunnery},
             naval_bombardment={"targets": ["DORIA"], "turn": ctx.turn})
    p["assets"]["cannon"] = cannons
    ctx.start_location["0103"] = "Genoa"
    return p


def test_bombardment_hits_the_largest_ships_first_concentrated_and_cargo_is_adjusted() -> None:
    ctx = _ctx()
    p = _bombarder(ctx, 45, religion="sunni")
    andrea = ctx.state["personae"]["0201"]  # DORIA, anchored at Genoa
    andrea["assets"] = {"galley": 2, "roundship": 1, "caravel": 2, "galliot": 1, "barque": 1, "crew": 200,
                        "slave": 300, "wine": 2000, "pitch": 20, "timber": 20, "ducats": 20000}
    naval.naval_bombardments(ctx)
    # 45 cannons x .3 x 500/1000 = 6.75 -> 7 hits. Largest first (by weight as cargo): galleys, 3 hits each: both
    # sunk (6); the 7th hit on the roundship (2 needed) does not sink it: repaired; the caravels are not reached.
    assets = andrea["assets"]
    assert (assets["galley"], assets["roundship"], assets["caravel"], assets["galliot"], assets["barque"]) == \
        (0, 1, 2, 1, 1)
    # Cargo 200 + 300 + 2,000 + 20 + 20 = 2,540 was aboard (capacity 3,300); 1,300 is left: 1,240 too many.
    # Slaves beyond the galliot's 50 oars: 250 (990 left); goods 2,040 cargo: 990/2,040 of each: wine 970.6 -> 971,
    # pitch 9.7 -> 10, timber 10 (991 >= 990).
    assert (assets["slave"], assets["wine"], assets["pitch"], assets["timber"]) == (50, 1029, 10, 10)
    assert assets["crew"] == 200 and assets["ducats"] == 20000
    assert andrea["morale"] == 500  # "Morale is unaffected"
    # 2% of 45 = .9 -> 1 cannon self-destructs; a Sunni loses 100 piety; the fee is charged; siege.py is told.
    assert p["assets"]["cannon"] == 44
    assert p["piety"] == 150
    assert ctx.scratch["war.naval_cannons"] == {"0103": 45}
    assert ctx.state["players"]["LMD"]["account"]["balance"] == -5.0
    assert p["naval_bombardment"] is None
    assert ctx.news == ["Naval bombardment at Genoa: the cannons of Giuliano de' Medici (0103), MEDICI, sank 2 galleys "
                        "of Andrea Doria (0201), DORIA."]
    assert any("sunk 2 galleys" in m for m in ctx.messages["DORIA"])
    assert any("7 hits" in m for m in ctx.messages["MEDICI"])


def test_a_passing_fleet_is_hit_and_a_persona_at_sea_who_loses_his_last_ship_drowns() -> None:
    ctx = _ctx()
    _bombarder(ctx, 20)
    # Domenico Doria's move this month passed Genoa (recorded by the movement), with one caravel; he is now at sea.
    dom = ctx.state["personae"]["0202"]
    dom.update(location=None, at_sea={"lat": 43.0, "lon": 9.0})
    dom["assets"] = {"caravel": 1, "crew": 10, "wine": 100, "ducats": 30000}
    ctx.scratch["war.passages"] = {"Genoa": ["0202"], "Florence": ["0202"]}
    ctx.state["personae"]["0201"]["assets"]["galley"] = 0  # Andrea's galley is elsewhere
    naval.naval_bombardments(ctx)
    # 20 x .3 x 500/1000 = 3 hits: the caravel (one hit) sinks; TRAVEL: "Personae drown when they lose their last
    # ship", and what it carried goes down with him.
    assert dom["alive"] is False and dom["assets"] == {}
    assert any("drowned" in m for m in ctx.messages["DORIA"])


def test_a_fleet_in_port_loses_only_what_its_sunk_ships_could_carry() -> None:
    # Andrea at Genoa with one barque (100 cargo) and 5,000 pikemen who came by land: the barque sinks (one hit)
    # and what it could carry, 100 cargo, is lost (min(5,000, 100) - 0); he stands in port and does not drown.
    ctx = _ctx()
    _bombarder(ctx, 10)  # 10 x .15 = 1.5 -> 2 hits
    andrea = ctx.state["personae"]["0201"]
    andrea["assets"] = {"barque": 1, "pikeman": 5000}
    naval.naval_bombardments(ctx)
    assert andrea["assets"]["barque"] == 0 and andrea["assets"]["pikeman"] == 4900
    assert andrea.get("alive", True) is True


def test_all_means_every_family_but_his_own() -> None:
    ctx = _ctx()
    p = _bombarder(ctx, 45)
    p["naval_bombardment"]["targets"] = ["ALL"]
    piero = ctx.state["personae"]["0101"]  # MEDICI, his own family, anchored at Genoa with a galley
    piero.update(location="Genoa")
    piero["assets"]["galley"] = 1
    naval.naval_bombardments(ctx)
    # 7 hits: Andrea's galley (3) sinks; Piero's is not fired at; the 4 hits left find no other ship.
    assert ctx.state["personae"]["0201"]["assets"]["galley"] == 0
    assert piero["assets"]["galley"] == 1


def test_no_fire_after_a_move_from_a_landlocked_start_or_with_nothing_in_the_water() -> None:
    ctx = _ctx()
    p = _bombarder(ctx, 45)
    p["location"] = "Pisa"  # he moved
    naval.naval_bombardments(ctx)
    assert ctx.state["personae"]["0201"]["assets"]["galley"] == 1
    assert p["assets"]["cannon"] == 45 and "moved" in ctx.messages["MEDICI"][-1]
    ctx = _ctx()
    p = _bombarder(ctx, 45)
    ctx.start_location["0103"] = p["location"] = "Florence"  # no harbor
    naval.naval_bombardments(ctx)
    assert "port" in ctx.messages["MEDICI"][-1] and ctx.state["players"]["LMD"]["account"]["balance"] == 0
    ctx = _ctx()
    p = _bombarder(ctx, 45, religion="shia")
    p["naval_bombardment"]["targets"] = ["MEDICI"]  # no MEDICI ship at Genoa
    naval.naval_bombardments(ctx)
    assert p["piety"] == 250 and p["assets"]["cannon"] == 45 and "no ships" in ctx.messages["MEDICI"][-1]


def test_cannons_fired_in_siege_bombardment_do_not_fire_again() -> None:
    # "Cannons used for naval bombardment may not be used for siege bombardment in the same turn": 35 of his 45
    # cannons bombarded a fortification this month; 10 fire: 10 x .15 = 1.5 -> 2 hits, not a galley's 3.
    ctx = _ctx()
    _bombarder(ctx, 45)
    ctx.scratch["war.siege_cannons"] = {"0103": 35}
    naval.naval_bombardments(ctx)
    assert ctx.state["personae"]["0201"]["assets"]["galley"] == 1
    assert ctx.scratch["war.naval_cannons"] == {"0103": 10}


def test_a_bombardment_is_the_same_under_any_seed() -> None:
    states = []
    for seed in (1, 99):
        ctx = _ctx(seed=seed)
        _bombarder(ctx, 45)
        naval.naval_bombardments(ctx)
        states.append(ctx.state)
    assert states[0] == states[1]


def test_a_shia_or_sunni_loses_100_piety_once_in_a_month_he_fires_guns() -> None:
    ctx = _ctx()
    p = ctx.state["personae"]["0103"]
    p.update(religion="shia", piety=130)
    assert piety.gunfire(ctx, p) == 100 and p["piety"] == 30
    assert piety.gunfire(ctx, p) == 0 and p["piety"] == 30  # "in any month": once
    q = ctx.state["personae"]["0101"]  # a Catholic loses nothing
    assert piety.gunfire(ctx, q) == 0 and q["piety"] == 35
    r = ctx.state["personae"]["0102"]
    r.update(religion="sunni", piety=40)
    assert piety.gunfire(ctx, r) == 40 and r["piety"] == 0  # never below zero


@pytest.mark.parametrize("cannons, gunnery, hits", [(45, 500, 7), (1, 500, 1), (40, 500, 6), (10, 0, 0)])
def test_hits_are_per_cannon_the_batterys_total_rounded_up(cannons: int, gunnery: int, hits: int) -> None:
    # RW-OQ-42: 45 x .3 x .5 = 6.75 -> 7; 1 x .15 -> 1; 40 x .15 = 6 exactly; gunnery 0 scores none.
    assert naval.hits_scored(cannons, gunnery) == hits
