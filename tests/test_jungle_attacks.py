"""CHARACTER ATTACKS, DEFEND and LOCATIONS, with numbers worked by hand from the rules' formulas.

Random numbers come from tests.jungle_fixtures.ScriptedRandom: `council.random()` is randint(1, 100) read as
hundredths (LJ-OQ-01), so a scripted 70 is the Random Number 0.70.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from maild_rules.jungle import strength as st
from maild_rules.jungle import transfers
from maild_rules.jungle.attacks import (
    attack,
    attacks_owner,
    defend,
    defenders_of,
    defiance_step,
    enslave,
    holder_of,
)
from maild_rules.jungle.council import Void
from maild_rules.jungle.model import Title
from maild_rules.jungle.places import hex_distance, location_strength, same_location
from tests.jungle_fixtures import ScriptedRandom, act, council_of, person, small_world

F = Fraction


# -- places (LJ-OQ-31) ----------------------------------------------------------------------------------------

def test_hex_distance_odd_r_offsets():
    # (6,6) -> cube x = 6 - (6-0)//2 = 3, z = 6, y = -9; (7,7) -> x = 7 - (7-1)//2 = 4, z = 7, y = -11:
    # max(|3-4|, |-9+11|, |6-7|) = 2.
    assert hex_distance((6, 6), (7, 7)) == 2
    assert hex_distance((5, 5), (6, 6)) == 1
    assert hex_distance((6, 6), (9, 6)) == 3
    # odd rows sit half a hex to the right: (0,1) touches (1,0), but (1,1) is two steps from (0,0)
    assert hex_distance((0, 1), (1, 0)) == 1
    assert hex_distance((0, 0), (1, 1)) == 2


def test_same_location_cases():
    w = small_world()
    a = person(w, "A", "ana", hex="T1")
    b = person(w, "B", "ben", hex="T3")  # another hex of the same city
    c = person(w, "C", "cal", city="Texcoco", hex="X1")
    j = person(w, "J", "ana", unit="Jaguars")
    j2 = person(w, "J2", "ben", unit="Jaguars")
    e = person(w, "E", "ben", unit="Eagles")  # 2 hexes from the Jaguars: inclusive
    s = person(w, "S", "cal", unit="Settlers")
    o = person(w, "O", "cal", unit="Otomies")  # on Tenochtitlan's own hex
    assert same_location(w, a, b)
    assert not same_location(w, a, c)
    assert same_location(w, j, j2)
    assert same_location(w, j, e)
    assert not same_location(w, j, s)
    assert same_location(w, o, a) and same_location(w, a, o)
    assert not same_location(w, j, a)  # the Jaguars stand at (6,6), not in the city


def test_location_strength_is_the_defenders_place():
    w = small_world()
    assert location_strength(w, person(w, "J", "ana", unit="Jaguars")) == 8
    assert location_strength(w, person(w, "A", "ana")) == 4
    assert location_strength(w, person(w, "S", "ana", unit="Settlers")) == 0


# -- the arithmetic -------------------------------------------------------------------------------------------

def test_bands_as_printed_with_upper_edges():
    # A = sqrt(4) = 2, D = 2, L = 4: (A+D+L)/(D+L) = 8/6 = 4/3.
    assert st.result_number(F(25, 100), 2.0, 2.0, 4) == F(1, 3)
    # 1/3 is above the printed 0.33: only the principal attacker fails (exact thirds would say "all attackers")
    assert st.band(F(1, 3)) == st.PRINCIPAL_ATTACKER_FAILS
    assert st.band(st.result_number(F(24, 100), 2.0, 2.0, 4)) == st.ALL_ATTACKERS_FAIL  # 0.32
    assert st.band(F(33, 100)) == st.ALL_ATTACKERS_FAIL
    assert st.band(F(67, 100)) == st.PRINCIPAL_ATTACKER_FAILS
    assert st.band(st.result_number(F(75, 100), 2.0, 2.0, 4)) == st.DRAW  # exactly 1
    assert st.band(st.result_number(F(76, 100), 2.0, 2.0, 4)) == st.PRINCIPAL_DEFENDER_LOSES  # 1.0133
    # L = 0: ratio 2; 0.75 -> 1.5 (the principal defender); 0.76 -> 1.52 "greater than 1.5"
    assert st.band(st.result_number(F(75, 100), 2.0, 2.0, 0)) == st.PRINCIPAL_DEFENDER_LOSES
    assert st.band(st.result_number(F(76, 100), 2.0, 2.0, 0)) == st.ALL_DEFENDERS_LOSE


def test_no_defence_and_no_location():
    # D + L = 0 (LJ-OQ-33): an attack of any strength is a full success; with no strength at all, a draw
    assert st.result_number(F(1, 100), 1.0, 0.0, 0) is None
    assert st.band(None) == st.ALL_DEFENDERS_LOSE
    assert st.band(st.result_number(F(1), 0.0, 0.0, 0)) == st.DRAW


def test_losses_gains_and_caps():
    assert st.loss(F(1, 2), 10) == 7  # 0.5 * 10 * 1.5 = 7.5
    assert st.loss(F(1), 10) == 10  # 15, but no more than he started with
    assert st.gain(F(1, 2), 7) == 3  # 3.5
    assert st.gain(F(1, 2), 7, F(1, 2)) == 1  # 1.75


def test_split_by_strength_largest_remainder():
    assert st.split_by_strength(5, [3.0, 1.0]) == [4, 1]  # 3.75, 1.25 -> 3, 1 and the point left to .75
    assert st.split_by_strength(5, [1.0, 1.0]) == [3, 2]  # 2.5, 2.5: the tie to the principal (first)
    assert st.split_by_strength(3, [0.0, 0.0]) == [2, 1]  # no strength: equal shares
    assert st.split_by_strength(4, [3.0, 4.0]) == [2, 2]  # 1.714, 2.286 -> 1, 2 and .714 -> first


def test_halving_and_titles_in_strength():
    assert [st.halved(v) for v in (5, 4, 1)] == [3, 2, 1]  # the decrease (half) rounded down
    w = small_world()
    x = person(w, "X", "ana", xp=16)
    assert st.character_strength(x, "duel", True) == 4.0
    x.titles.append(Title("Skilled", "Duel"))
    assert st.character_strength(x, "duel", True) == 6.0  # 4 * 1.5
    assert st.character_strength(x, "debate", True) == 1.0  # the title is for duels only
    assert st.character_strength(x, "duel", False, factor=4) == 12.0  # Defend twice: sqrt(64) * 1.5


def test_titles_rise_never_fall():
    w = small_world()
    x = person(w, "X", "ana")
    assert st.earned_title(2.0, 3.0, False) == "Skilled"
    assert st.earned_title(3.0, 3.0, False) == "Experienced"  # not "greater"
    assert st.earned_title(9.0, 1.0, True) == "Master"
    assert st.raise_title(x, "duel", "Skilled")
    assert not st.raise_title(x, "duel", "Experienced")
    assert [t.label() for t in x.titles] == ["Skilled at Duel"]
    assert st.raise_title(x, "duel", "Master")
    assert [t.label() for t in x.titles] == ["Master of Duel"]


# -- handlers -------------------------------------------------------------------------------------------------

def test_duel_principal_defender_loses():
    """Xolotl XP 16 (A = 4) duels Yaretzi XP 9 (D = 3) in Tenochtitlan (L = 4): (4+3+4)/(3+4) = 11/7;
    0.70 * 11/7 = 1.1: the principal defender loses 0.50 * 9 * 1.5 = 6.75 -> 6 XP (9 -> 3), the winner gains
    0.50 * 6 = 3 XP (16 -> 19) and is Experienced at Duel (D 3 < A 4)."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=16)
    y = person(w, "Yaretzi", "ben", xp=9)
    a = act(x, "attack", target="Yaretzi", type="duel")
    c = council_of(w, ScriptedRandom(70, 50, 50), actions=[a])
    attack(c, x, a)
    assert c.rng.values == []  # the three draws, no more
    assert (x.xp, y.xp) == (19, 3)
    assert [t.label() for t in x.titles] == ["Experienced at Duel"]
    assert {r.house for r in c.reports} == {"ana", "ben", None}


def test_assassinate_kills_and_takes_second_random():
    """Both in the Jaguars (L = 8). A = sqrt(16) + sqrt(9) = 7, D = sqrt(4) = 2: (7+2+8)/(2+8) = 1.7; 1.00 * 1.7
    > 1.5: all defenders lose 1.00 * 4 * 1.5 = 6, capped at the 4 XP he has: XP 0, he dies. Wisdom gained
    0.50 * 4 * 0.50 (the Random Number if Attacker Wins) = 1."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=16, wisdom=9, unit="Jaguars")
    y = person(w, "Yaretzi", "ben", xp=4, unit="Jaguars")
    a = act(x, "attack", target="Yaretzi", type="assassinate")
    c = council_of(w, ScriptedRandom(100, 100, 50, 50), actions=[a])
    attack(c, x, a)
    assert not y.alive and y.xp == 0
    assert x.wisdom == 10
    assert any(e["kind"] == "death" for e in c.events)


def test_debate_failed_joined_defender_shares_by_strength():
    """Xolotl Wisdom 4 (A = 2) debates Yaretzi Wisdom 9 (3); her housemate Zyanya Wisdom 8 has defended once
    (8 x 2 = 16: 4) and joins; Nochtli (no Defend) and Tepin (defending in Texcoco) do not. D = 7, L = 4:
    (2+7+4)/11 = 13/11; 0.40 * 13/11 = 0.473: the principal attacker fails, loses 1.00 * 4 * 1.5 = 6 capped to
    4 Wisdom; the defenders gain 1.00 * 4 = 4 Wisdom split 3:4 -> 1.714, 2.286 -> 1 + 1 (larger fraction), 2."""
    w = small_world()
    x = person(w, "Xolotl", "ana", wisdom=4)
    y = person(w, "Yaretzi", "ben", wisdom=9)
    z = person(w, "Zyanya", "ben", wisdom=8, defend=1)
    n = person(w, "Nochtli", "ben", wisdom=100)
    t = person(w, "Tepin", "ben", wisdom=100, defend=1, city="Texcoco", hex="X1")
    a = act(x, "attack", target="Yaretzi", type="debate")
    c = council_of(w, ScriptedRandom(40, 100, 100), actions=[a])
    attack(c, x, a)
    assert (x.wisdom, y.wisdom, z.wisdom, n.wisdom, t.wisdom) == (0, 11, 10, 100, 100)
    assert x.titles == []


def test_defend_doubles_each_time():
    w = small_world()
    y = person(w, "Yaretzi", "ben", xp=4)
    c = council_of(w, ScriptedRandom())
    defend(c, y, act(y, "defend"))
    defend(c, y, act(y, "defend"))
    assert y.defend == 2
    assert st.character_strength(y, "duel", False, 2 ** y.defend) == 4.0  # sqrt(4 * 4)


def test_citizen_defends_his_tenant_and_capture_enslaves_all_defenders():
    """Tochtli (ben) is a tenant of the citizen Citlali (cal), who joins automatically. A = sqrt16 + sqrt9 +
    sqrt4 = 9; D = (1+1+0) + (2+2+1) = 7; L = 4: (9+7+4)/11 = 20/11; 1.00 * 20/11 = 1.82 > 1.5: all
    defenders are taken as Xolotl's slaves; he gains 1 XP, Wisdom and Fame; D 7 < A 9: Experienced."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=16, wisdom=9, fame=4)
    t = person(w, "Tochtli", "ben", hex="T2", titles=[Title("Tenant", "Citlali")])
    ci = person(w, "Citlali", "cal", hex="T2", role="citizen", xp=4, wisdom=4, fame=1)
    assert [d.name for d in defenders_of(w, t, [x])] == ["Tochtli", "Citlali"]
    a = act(x, "attack", target="Tochtli", type="capture")
    c = council_of(w, ScriptedRandom(100), actions=[a])
    attack(c, x, a)
    assert t.owner == "Xolotl" and ci.owner == "Xolotl"
    assert (x.xp, x.wisdom, x.fame) == (17, 10, 5)
    assert {tt.label() for tt in x.titles} == {"Owner of Tochtli", "Owner of Citlali", "Experienced at Capture"}


def test_failed_capture_enslaves_the_capturer():
    """A = 1 + 1 + 0 = 2, D = 4 + 4 + 4 = 12, L = 4: 18/16; 0.10 * 9/8 = 0.1125: all attackers fail and "the
    losing side is taken as slaves" (LJ-OQ-37) by the defender, who gains 1 of each."""
    w = small_world()
    x = person(w, "Xolotl", "ana")
    y = person(w, "Yaretzi", "ben", xp=16, wisdom=16, fame=16)
    a = act(x, "attack", target="Yaretzi", type="capture")
    attack(council_of(w, ScriptedRandom(10), actions=[a]), x, a)
    assert x.owner == "Yaretzi"
    assert (y.xp, y.wisdom, y.fame) == (17, 17, 17)


def test_joint_duel_resolves_on_the_slowest_and_shares_by_strength():
    """Xolotl XP 9 (3) and Ixchel XP 4 (2) duel Yaretzi XP 16 (4), L = 4: (5+4+4)/8 = 13/8; 1.00 * 13/8 =
    1.625: all defenders; Yaretzi loses 0.50 * 16 * 1.5 = 12; the gain 0.50 * 12 = 6 split Ixchel (principal,
    the slowest, 2) : Xolotl (3) -> 2.4, 3.6 -> 2, 3 and the point left to Xolotl's .6: 2 and 4."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=9)
    i = person(w, "Ixchel", "cal", xp=4)
    y = person(w, "Yaretzi", "ben", xp=16)
    other = person(w, "Other", "cal")
    ax = act(x, "attack", seq=1, target="Yaretzi", type="duel", joint=["Ixchel"])
    mid = act(other, "defend", seq=2)
    ai = act(i, "attack", seq=3, target="yaretzi", type="Duel", joint=["xolotl"])
    c = council_of(w, ScriptedRandom(100, 50, 50), actions=[ax, mid, ai])
    c.position = 0
    attack(c, x, ax)  # the first participant waits
    assert (x.xp, i.xp, y.xp) == (9, 4, 16)
    c.position = 2
    attack(c, i, ai)
    assert (x.xp, i.xp, y.xp) == (13, 6, 4)
    assert x.title("Experienced", "Duel") and i.title("Experienced", "Duel")


def test_joint_attack_miscoordination_voids_every_participant():
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=9)
    i = person(w, "Ixchel", "cal", xp=4)
    person(w, "Yaretzi", "ben", xp=16)
    ax = act(x, "attack", target="Yaretzi", type="duel")  # does not name Ixchel
    ai = act(i, "attack", target="Yaretzi", type="duel", joint=["Xolotl"])
    c = council_of(w, ScriptedRandom(), actions=[ax, ai])
    c.position = 1
    with pytest.raises(Void, match="miscoordination"):
        attack(c, i, ai)
    ax.args["joint"] = ["Ixchel"]
    ax.args["principal"] = "Xolotl"  # Ixchel's names none: not matching
    c.position = 0
    with pytest.raises(Void, match="miscoordination"):
        attack(c, x, ax)


def test_a_partner_attacking_another_target_attacks_alone_and_the_printout_says_what_did_not_match():
    """Xolotl names Ixchel as his partner on Yaretzi; Ixchel attacks Other, naming nobody: she takes no part in
    the attack on Yaretzi, so hers stands (Other, XP 1 (1) against her XP 4 (2), L 4: 7/5; 0.50 * 7/5 = 0.7: a
    draw) and Xolotl's is void, saying why. Then Ixchel names Xolotl and Coyotl: Xolotl's is void again."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=9)
    i = person(w, "Ixchel", "cal", xp=4)
    person(w, "Yaretzi", "ben", xp=16)
    person(w, "Other", "ben")
    person(w, "Coyotl", "ben")
    ax = act(x, "attack", target="Yaretzi", type="duel", joint=["Ixchel"])
    ai = act(i, "attack", target="Other", type="duel")
    c = council_of(w, ScriptedRandom(50), actions=[ax, ai])
    with pytest.raises(Void, match="miscoordination: Ixchel attacks Other, not Yaretzi$"):
        attack(c, x, ax)
    c.position = 1
    attack(c, i, ai)
    assert c.events[-1]["band"] == st.DRAW
    ai = act(i, "attack", target="Yaretzi", type="duel", joint=["Xolotl", "Coyotl"])
    c = council_of(w, ScriptedRandom(), actions=[ax, ai])
    with pytest.raises(Void, match="miscoordination: Ixchel's attack names Xolotl and Coyotl as joint attackers$"):
        attack(c, x, ax)


def test_designated_principal_attacker_alone_fails():
    """Both name Xolotl principal. A = 3 + 2 = 5, D = 4, L = 4: 13/8; 0.40 * 13/8 = 0.65: the principal
    attacker fails: Xolotl loses 0.50 * 9 * 1.5 = 6.75 -> 6 XP; Yaretzi gains 0.50 * 6 = 3; Ixchel unharmed."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=9)
    i = person(w, "Ixchel", "cal", xp=4)
    y = person(w, "Yaretzi", "ben", xp=16)
    ax = act(x, "attack", target="Yaretzi", type="duel", joint=["Ixchel"], principal="Xolotl")
    ai = act(i, "attack", target="Yaretzi", type="duel", joint=["Xolotl"], principal="Xolotl")
    c = council_of(w, ScriptedRandom(40, 50, 50), actions=[ax, ai])
    c.position = 1
    attack(c, i, ai)
    assert (x.xp, i.xp, y.xp) == (3, 4, 19)


def test_skilled_then_master():
    """In the Settlers (no melee strength, L = 0). Xolotl XP 4 (2) beats Yaretzi XP 9 (3): 5/3; 1.00 * 5/3 >
    1.5: loss 0.10 * 9 * 1.5 = 1.35 -> 1, gain 1.00 * 1 = 1; defence 3 > attack 2: Skilled. Then Ixchel beats
    the Skilled Xolotl and is Master."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=4, unit="Settlers")
    y = person(w, "Yaretzi", "ben", xp=9, unit="Settlers")
    a = act(x, "attack", target="Yaretzi", type="duel")
    attack(council_of(w, ScriptedRandom(100, 10, 100), actions=[a]), x, a)
    assert (x.xp, y.xp) == (5, 8)
    assert st.combat_title(x, "duel") == "Skilled"
    i = person(w, "Ixchel", "cal", xp=100, unit="Settlers")
    # A = 10; D = sqrt(5) * 1.5 = 3.354; (13.354)/3.354 = 3.98; 0.50 * 3.98 > 1.5; loss 0.10*5*1.5 = 0.75 -> 0
    b = act(i, "attack", target="Xolotl", type="duel")
    attack(council_of(w, ScriptedRandom(50, 10, 50), actions=[b]), i, b)
    assert st.combat_title(i, "duel") == "Master"


def test_desperate_doubles_then_halves():
    """Xolotl XP 8 desperate: sqrt(16) = 4 (not sqrt 8 = 2.83); Yaretzi XP 16 (4); both in the Jaguars (L 8):
    (4+4+8)/12 = 4/3; 0.80 * 4/3 = 1.067 (without the doubling 0.80 * 14.83/12 = 0.989, a draw): the principal
    defender loses 0.50 * 16 * 1.5 = 12 (16 -> 4); Xolotl gains 0.50 * 12 = 6 (8 -> 14), then halves: 14 - 7 =
    7."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=8, unit="Jaguars")
    y = person(w, "Yaretzi", "ben", xp=16, unit="Jaguars")
    a = act(x, "attack", target="Yaretzi", type="duel", desperate=True)
    attack(council_of(w, ScriptedRandom(80, 50, 50), actions=[a]), x, a)
    assert (x.xp, y.xp) == (7, 4)


def test_desperate_loser_loses_first_then_halves():
    """Xolotl XP 8 desperate (4) vs Yaretzi XP 16 (4), L 8: 0.10 * 4/3 = 0.133: all attackers fail; Xolotl
    loses 0.50 * 8 * 1.5 = 6 (the loss on his own XP, not the doubled one) -> 2, then halves -> 1."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=8, unit="Jaguars")
    y = person(w, "Yaretzi", "ben", xp=16, unit="Jaguars")
    a = act(x, "attack", target="Yaretzi", type="duel", desperate=True)
    attack(council_of(w, ScriptedRandom(10, 50, 50), actions=[a]), x, a)
    assert (x.xp, y.xp) == (1, 19)


def test_steal_takes_food_and_gold_and_wounds_the_losers():
    """A = sqrt9 + sqrt16 = 7, D = sqrt(Fame 4) = 2, L = 4: 13/6; 1.00 * 13/6 > 1.5. Food 10 * 0.50 = 5, gold
    21 * 0.50 = 10.5 -> 10 go to ana; Yaretzi loses 0.20 * 10 * 1.5 = 3 XP; Xolotl gains 1 Fame."""
    w = small_world()
    w.houses["ben"].food, w.houses["ben"].gold = 10, 21
    x = person(w, "Xolotl", "ana", xp=16, wisdom=9)
    y = person(w, "Yaretzi", "ben", xp=10, fame=4)
    person(w, "Low", "ben", fame=1)
    a = act(x, "attack", target="Yaretzi", type="steal")
    attack(council_of(w, ScriptedRandom(100, 50, 50, 20), actions=[a]), x, a)
    assert (w.houses["ana"].food, w.houses["ana"].gold) == (5, 10)
    assert (w.houses["ben"].food, w.houses["ben"].gold) == (5, 11)
    assert (y.xp, x.fame) == (7, 1)


def test_steal_only_from_the_highest_fame():
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=16)
    person(w, "Yaretzi", "ben", fame=4)
    person(w, "Low", "ben", fame=1)
    a = act(x, "attack", target="Low", type="steal")
    with pytest.raises(Void, match="highest Fame"):
        attack(council_of(w, ScriptedRandom(), actions=[a]), x, a)


def test_challenge_for_a_slave():
    """Fame 16 (4) against Fame 9 (3), L 4: 11/7; 1.00 * 11/7 = 1.571 > 1.5: Yaretzi loses 0.50 * 9 * 1.5 =
    6.75 -> 6 Fame; Xolotl gains 0.50 * 6 = 3 and the slave Tochtli."""
    w = small_world()
    x = person(w, "Xolotl", "ana", fame=16)
    y = person(w, "Yaretzi", "ben", fame=9)
    t = person(w, "Tochtli", "cal")
    enslave(w, t, y)
    a = act(x, "attack", target="Yaretzi", type="challenge", item={"kind": "slave", "name": "Tochtli"})
    attack(council_of(w, ScriptedRandom(100, 50, 50), actions=[a]), x, a)
    assert (x.fame, y.fame) == (19, 3)
    assert t.owner == "Xolotl" and y.title("Owner") is None and x.title("Owner", "Tochtli")


@pytest.fixture
def fake_transfers(monkeypatch):
    """Records the calls to maild_rules.jungle.transfers and carries them out."""
    calls = []
    for name in ("transfer_rulership", "transfer_land", "transfer_captaincy"):
        real = getattr(transfers, name)

        def record(*args, _name=name, _real=real):
            calls.append((_name, *[a.name if hasattr(a, "name") else a for a in args[1:]]))
            _real(*args)

        monkeypatch.setattr(transfers, name, record)
    return calls


def test_overthrow_for_a_city(fake_transfers):
    """A = sqrt(Fame 9) + sqrt(XP 16) = 7, D = sqrt(Fame 9) = 3, L = 4: 14/7 = 2; 0.80 * 2 = 1.6: Yaretzi loses
    1.00 * 9 * 1.5 = 13.5 -> capped 9 Fame; Xolotl gains XP 0.50 * 9 * 0.50 = 2.25 -> 2 and the city."""
    w = small_world()
    w.cities["Tenochtitlan"].tlatoani = "Yaretzi"
    x = person(w, "Xolotl", "ana", fame=9, xp=16)
    y = person(w, "Yaretzi", "ben", fame=9, role="tlatoani")
    a = act(x, "attack", target="Yaretzi", type="overthrow", item={"kind": "city", "name": "tenochtitlan"})
    attack(council_of(w, ScriptedRandom(80, 100, 50, 50), actions=[a]), x, a)
    assert (x.xp, y.fame) == (18, 0)
    assert fake_transfers == [("transfer_rulership", "Tenochtitlan", "Xolotl")]
    assert w.cities["Tenochtitlan"].tlatoani == "Xolotl" and x.role == "tlatoani" and y.role == "peasant"


def test_challenge_without_defence_or_location_strength(fake_transfers):
    """In the Settlers (no melee strength) against Fame 0: D + L = 0, a full success without a draw for the
    result (LJ-OQ-33); loss 0 (Fame 0), gain 0; the captaincy and the land change hands."""
    w = small_world()
    w.units["Settlers"].captain = "Yaretzi"
    x = person(w, "Xolotl", "ana", fame=4, unit="Settlers")
    y = person(w, "Yaretzi", "ben", fame=0, unit="Settlers")
    a = act(x, "attack", target="Yaretzi", type="challenge", item={"kind": "unit", "name": "Settlers"})
    c = council_of(w, ScriptedRandom(50, 50), actions=[a])
    attack(c, x, a)
    assert fake_transfers == [("transfer_captaincy", "Settlers", "Xolotl")]
    assert w.units["Settlers"].captain == "Xolotl" and x.title("Captain", "Settlers")
    assert c.events[-1]["result"] is None and y.fame == 0
    w.cities["Tenochtitlan"].hexes["T2"].citizen = "Yaretzi"
    y.unit, y.city, x.unit, x.city = None, "Tenochtitlan", None, "Tenochtitlan"
    b = act(x, "attack", target="Yaretzi", type="challenge", item={"kind": "land", "name": "T2"})
    attack(council_of(w, ScriptedRandom(50), actions=[b]), x, b)  # L = 4: 0.5 * (2+0+4)/4 = 0.75: a draw
    assert fake_transfers == [("transfer_captaincy", "Settlers", "Xolotl")]


def test_challenge_for_what_the_target_does_not_hold_is_void():
    w = small_world()
    x = person(w, "Xolotl", "ana", fame=4)
    person(w, "Yaretzi", "ben", fame=4)
    a = act(x, "attack", target="Yaretzi", type="challenge", item={"kind": "city", "name": "Texcoco"})
    with pytest.raises(Void, match="does not rule"):
        attack(council_of(w, ScriptedRandom(), actions=[a]), x, a)
    b = act(x, "attack", target="Yaretzi", type="challenge", item={"kind": None, "name": "Jaguars"})
    with pytest.raises(Void, match="holds no city, unit, land or slave named Jaguars"):
        attack(council_of(w, ScriptedRandom(), actions=[b]), x, b)
    w.units["Jaguars"].captain = "Yaretzi"
    assert holder_of(w, b.args["item"], w.characters["Yaretzi"]) == ("unit", "Jaguars", None)


def test_escape_succeeds_and_fails():
    """Tochtli (XP 9, Wisdom 4, Fame 1: 3+2+1 = 6) escapes from Yaretzi (1+1+0 = 2), L 4: 12/6 = 2; 0.60 * 2 =
    1.2: success, he is free and gains 1 of each. Again enslaved: 0.20 * 2 = 0.4: the principal attacker fails,
    the owner gains 1 of each and so does the slave, whose gain has no condition (LJ-OQ-39)."""
    w = small_world()
    t = person(w, "Tochtli", "cal", xp=9, wisdom=4, fame=1, titles=[Title("Defiant Slave", n=1)])
    y = person(w, "Yaretzi", "ben")
    enslave(w, t, y)
    a = act(t, "attack", target="Yaretzi", type="escape")
    attack(council_of(w, ScriptedRandom(60), actions=[a]), t, a)
    assert t.owner is None and y.title("Owner") is None
    assert t.title("Defiant Slave").label() == "Defiant Slave (1)"  # kept after freedom (LJ-OQ-48)
    assert (t.xp, t.wisdom, t.fame) == (10, 5, 2)
    enslave(w, t, y)
    # now 10, 5, 2: sqrt10 + sqrt5 + sqrt2 = 6.81; D 2; (8.81 + 4)/6 = 2.135; 0.20 * 2.135 = 0.427
    attack(council_of(w, ScriptedRandom(20), actions=[a]), t, a)
    assert t.owner == "Yaretzi" and (y.xp, y.wisdom, y.fame) == (2, 2, 1)
    assert (t.xp, t.wisdom, t.fame) == (11, 6, 3)


def test_an_escape_that_ends_in_a_draw_still_gains_the_slave_his_point():
    """"The attacker (escaping character) gains 1 pt of XP, Wisdom and Fame." (LJ-OQ-39). Tochtli (1+1+0 = 2)
    escapes from Yaretzi (XP 4, Wisdom 4, Fame 1: 2+2+1 = 5), L 4: (2+5+4)/9 = 11/9; 0.70 * 11/9 = 0.856: a
    draw: he stays a slave, gains 1 of each; Yaretzi gains nothing."""
    w = small_world()
    t = person(w, "Tochtli", "cal")
    y = person(w, "Yaretzi", "ben", xp=4, wisdom=4, fame=1)
    enslave(w, t, y)
    a = act(t, "attack", target="Yaretzi", type="escape")
    attack(council_of(w, ScriptedRandom(70), actions=[a]), t, a)
    assert t.owner == "Yaretzi"
    assert (t.xp, t.wisdom, t.fame, y.xp, y.wisdom, y.fame) == (2, 2, 1, 4, 4, 1)


def test_escape_by_a_non_slave_and_attacks_elsewhere_are_void():
    w = small_world()
    t = person(w, "Tochtli", "cal")
    person(w, "Yaretzi", "ben")
    person(w, "Far", "ben", city="Texcoco", hex="X1")
    a = act(t, "attack", target="Yaretzi", type="escape")
    with pytest.raises(Void, match="not a slave"):
        attack(council_of(w, ScriptedRandom(), actions=[a]), t, a)
    b = act(t, "attack", target="Far", type="duel")
    with pytest.raises(Void, match="same location"):
        attack(council_of(w, ScriptedRandom(), actions=[b]), t, b)
    with pytest.raises(Void, match="not a type"):
        attack(council_of(w, ScriptedRandom(), actions=[b]), t, act(t, "attack", target="Far", type="tickle"))


def test_defiance_step_for_the_engine():
    w = small_world()
    t = person(w, "Tochtli", "cal")
    y = person(w, "Yaretzi", "ben")
    enslave(w, t, y)
    assert attacks_owner(w, t, act(t, "attack", target="yaretzi", type="escape"))
    assert not attacks_owner(w, t, act(t, "toil"))
    assert defiance_step(t, True) == 2 and defiance_step(t, False) == 1


def test_strength_is_a_sum_of_roots():
    w = small_world()
    x = person(w, "X", "ana", xp=2, wisdom=3, fame=5)
    assert st.character_strength(x, "capture", True) == pytest.approx(math.sqrt(2) + math.sqrt(3) + math.sqrt(5))


def test_a_slave_cannot_challenge_for_himself():
    w = small_world()
    t = person(w, "Tochtli", "cal", fame=9)
    y = person(w, "Yaretzi", "ben")
    enslave(w, t, y)
    a = act(t, "attack", target="Yaretzi", type="challenge", item={"kind": "slave", "name": "Tochtli"})
    with pytest.raises(Void, match="escapes"):
        attack(council_of(w, ScriptedRandom(), actions=[a]), t, a)


def test_handlers_registered():
    import maild_rules.jungle.handlers  # noqa: F401
    from maild_rules.jungle.council import HANDLERS

    assert HANDLERS["attack"] is attack and HANDLERS["defend"] is defend
    assert {"offering", "sacrifice"} <= set(HANDLERS)


def test_steal_from_joined_houses():
    """ben joined ana: the target must be the highest Fame of both (Bo, Fame 9, not Aca, Fame 4); the loot comes
    from ana's store. A = sqrt(XP 16) + sqrt(Wisdom 9) = 7, D = sqrt 9 = 3, L = 4: (7+3+4)/7 = 2; 1.00 * 2 > 1.5:
    food 8 * 0.50 = 4 to cal; gold 0; Bo loses 0.10 * 1 * 1.5 = 0.15 -> 0 XP; Xolotl gains 1 Fame."""
    w = small_world()
    w.houses["ben"].joined = "ana"
    w.houses["ana"].food = 8
    x = person(w, "Xolotl", "cal", xp=16, wisdom=9)
    aca = person(w, "Aca", "ana", fame=4)
    bo = person(w, "Bo", "ben", fame=9)
    a = act(x, "attack", target="Aca", type="steal")
    with pytest.raises(Void, match="highest Fame"):
        attack(council_of(w, ScriptedRandom(), actions=[a]), x, a)
    b = act(x, "attack", target="Bo", type="steal")
    attack(council_of(w, ScriptedRandom(100, 50, 50, 10), actions=[b]), x, b)
    assert (w.houses["ana"].food, w.houses["cal"].food, bo.xp, x.fame, aca.fame) == (4, 4, 1, 1, 4)


def test_failed_theft_wounds_the_thief_and_the_defenders_gain_fame():
    """A = sqrt(Wisdom 1) + sqrt(XP 4) = 3, D = sqrt(Fame 9) = 3, L = 4: 10/7; 0.20 * 10/7 = 0.286: all attackers
    fail; nothing is stolen; Xolotl loses 0.50 * 4 * 1.5 = 3 XP (4 -> 1); the defending side gains 1 Fame each:
    Yaretzi and her defending housemate Zyanya."""
    w = small_world()
    w.houses["ben"].food = 10
    x = person(w, "Xolotl", "ana", xp=4)
    y = person(w, "Yaretzi", "ben", fame=9)
    z = person(w, "Zyanya", "ben", defend=1)
    a = act(x, "attack", target="Yaretzi", type="steal")
    rng = ScriptedRandom(20, 50)
    attack(council_of(w, rng, actions=[a]), x, a)
    assert rng.values == []
    assert (x.xp, y.fame, z.fame, w.houses["ben"].food, w.houses["ana"].food) == (1, 10, 1, 10, 0)


def test_landlords_defending_housemate_joins_for_the_tenant():
    """"A defending character will automatically join the defense of any attack against ... a tenant of a member
    of their house": Cuix (cal, defending) joins for Citlali's (cal) tenant Tochtli; Ome (cal, no Defend) not."""
    w = small_world()
    x = person(w, "Xolotl", "ana")
    t = person(w, "Tochtli", "ben", hex="T2", titles=[Title("Tenant", "Citlali")])
    person(w, "Citlali", "cal", hex="T2", role="citizen")
    person(w, "Cuix", "cal", hex="T3", defend=1)
    person(w, "Ome", "cal", hex="T3")
    assert [d.name for d in defenders_of(w, t, [x])] == ["Tochtli", "Citlali", "Cuix"]


def test_a_joint_attacker_gone_elsewhere_drops_out():
    """Ixchel moved to Texcoco before the slowest participant's action: Xolotl duels alone. A = sqrt 9 = 3, D =
    sqrt 16 = 4, L = 4: 11/8; 1.00 * 11/8 = 1.375: the principal defender loses 0.50 * 16 * 1.5 = 12 (16 -> 4);
    Xolotl gains 0.50 * 12 = 6 (9 -> 15); Ixchel's XP is unchanged and her house is told."""
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=9)
    i = person(w, "Ixchel", "cal", xp=4, city="Texcoco", hex="X1")
    y = person(w, "Yaretzi", "ben", xp=16)
    ai = act(i, "attack", target="Yaretzi", type="duel", joint=["Xolotl"])
    ax = act(x, "attack", target="Yaretzi", type="duel", joint=["Ixchel"])
    c = council_of(w, ScriptedRandom(100, 50, 50), actions=[ai, ax])
    c.position = 1
    attack(c, x, ax)
    assert (x.xp, i.xp, y.xp) == (15, 4, 4)
    assert any(r.house == "cal" and "drops out" in r.text for r in c.reports)


def test_joint_challenge_items_match_however_written():
    """Both challenge Yaretzi for her slave, written "Tochtli" and "tochtli": the same item. Fame 16 (4) + Fame 9
    (3) against Fame 9 (3), L 4: 14/7 = 2; 1.00 * 2 > 1.5: Yaretzi loses 0.50 * 9 * 1.5 = 6 Fame; the gain 0.50 *
    6 = 3 split Ixchel (the slowest, principal, 3) : Xolotl (4) = 1.29 : 1.71 -> 1, 1 and the point to Xolotl's
    .71: 1 and 2; the slave goes to the principal, Ixchel."""
    w = small_world()
    x = person(w, "Xolotl", "ana", fame=16)
    i = person(w, "Ixchel", "cal", fame=9)
    y = person(w, "Yaretzi", "ben", fame=9)
    t = person(w, "Tochtli", "ben")
    enslave(w, t, y)
    ax = act(x, "attack", target="Yaretzi", type="challenge", joint=["Ixchel"],
             item={"kind": "slave", "name": "Tochtli"})
    ai = act(i, "attack", target="Yaretzi", type="challenge", joint=["Xolotl"],
             item={"kind": "Slave", "name": "tochtli"})
    c = council_of(w, ScriptedRandom(100, 50, 50), actions=[ax, ai])
    c.position = 1
    attack(c, i, ai)
    assert (x.fame, i.fame, y.fame) == (18, 10, 3)
    assert t.owner == "Ixchel"
