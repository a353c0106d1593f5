"""URBAN BATTLE (war/urban.py): each rule against figures worked by hand from the rules' words.

Morale changes follow MORALE ("Casualties inflicted are deducted from a number equal to twice the casualties
suffered"), a fall's root rounded up and a rise's down (RW-OQ-01); casualties are rounded up (a loss)."""

from __future__ import annotations

import copy
from fractions import Fraction

from maild_rules.renaissance.war import urban
from maild_rules.renaissance.war.forces import ATTACKER, DEFENDER, Contingent, Side


def troop(key: str, men: dict[str, int], morale: int, *, persona: bool = True, **assets: object) -> Contingent:
    return Contingent(key=key, name=key, persona=key if persona else None, men=men, morale=morale,
                      **assets)  # type: ignore[arg-type]


def side(role: str, *contingents: Contingent, value: int = 0, **kw: object) -> Side:
    commander = next((c.persona for c in contingents if c.persona), None)
    return Side(role=role, contingents=list(contingents), commander=commander, retreat_value=value,
                **kw)  # type: ignore[arg-type]


# ---- the loss order and the heavy cavalry -------------------------------------------------------------------

def test_losses_follow_the_order_and_heavy_cavalry_lose_half() -> None:
    men = {"garrison": 3, "auxiliary": 2, "light cavalry": 2, "arquebusier": 1, "pikeman": 1, "archer": 1,
           "crew": 1, "heavy cavalry": 4}
    lost, left = urban.take_losses(men, Fraction(25, 2), halve_heavy_cavalry=True)
    # 12.5: garrison 3 (9.5 left), auxiliaries and light cavalry (on foot, auxiliaries) 4 (5.5), arquebusier 1
    # (4.5), pikeman 1 (3.5), archer 1 (2.5), crew 1 (1.5), heavy cavalry 1.5 / 2 = .75 -> 1 rounded up.
    assert lost == {"garrison": 3, "auxiliary": 2, "light cavalry": 2, "arquebusier": 1, "pikeman": 1,
                    "archer": 1, "crew": 1, "heavy cavalry": 1}
    assert left == 0
    # Without the halving (an assault), the same 1.5 costs 2 heavy cavalry.
    lost, _ = urban.take_losses(men, Fraction(25, 2))
    assert lost["heavy cavalry"] == 2


def test_light_cavalry_share_the_auxiliaries_losses_in_proportion() -> None:
    # 9 casualties on 20 auxiliaries and 10 light cavalry: 6 and 3 (arith.share, 9 x 20/30 and 9 x 10/30).
    lost, _ = urban.take_losses({"auxiliary": 20, "light cavalry": 10, "pikeman": 5}, 9)
    assert lost == {"auxiliary": 6, "light cavalry": 3}


def test_urban_rate_loss_order_and_heavy_cavalry_in_a_stage() -> None:
    d = side(DEFENDER, troop("D", {"pikeman": 1000}, 500), value=400)
    a = side(ATTACKER, troop("A", {"auxiliary": 20, "light cavalry": 10, "arquebusier": 10, "heavy cavalry": 100},
                             400), value=400)
    stage = urban.fight(a, d, home=DEFENDER).stages[0]
    # The defender (home) first: 1,000 x 500/10,000 = 50: auxiliaries and light cavalry 30 (20 left), arquebusiers
    # 10 (10 left), heavy cavalry 10 / 2 = 5. The attacker lost 45 men, counted after the halving (RW-OQ-15).
    assert stage.losses[ATTACKER] == {"auxiliary": 20, "light cavalry": 10, "arquebusier": 10, "heavy cavalry": 5}
    # Then the attacker with what is left: 95 heavy cavalry on foot x 400/10,000 = 3.8 -> 4 pikemen.
    assert stage.losses[DEFENDER] == {"pikeman": 4}
    # Attacker: 2 x 45 - 4 = 86, sqrt 9.27 -> -10: 390. Defender: 2 x 4 - 45 = -37, sqrt 6.08 -> +6: 506.
    assert stage.morale == {ATTACKER: 390, DEFENDER: 506}


def test_crew_inflict_at_half_rate_and_the_factor_multiplies_morale() -> None:
    d = side(DEFENDER, troop("D", {"pikeman": 100, "crew": 100}, 500), value=400)
    a = side(ATTACKER, troop("A", {"auxiliary": 1000}, 500), value=400)
    # 100 pikemen + 100 crew / 2 = 150 x 500/10,000 = 7.5 -> 8 (NAVIGATION: "Each two crew inflict casualties at
    # the same rate as one auxiliary"; RW-OQ-27).
    assert urban.fight(a, d, home=DEFENDER).stages[0].losses[ATTACKER] == {"auxiliary": 8}
    # A Shia sovereign's side (factor 2, RW-OQ-14): 150 x 1,000/10,000 = 15.
    d.factor = Fraction(2)
    assert urban.fight(a, d, home=DEFENDER).stages[0].losses[ATTACKER] == {"auxiliary": 15}
    # The urban battle is one mass: the commander's own factor (3) applies to the whole side: 150 x 1,500/10,000.
    d.commander_factor = Fraction(3)
    assert urban.fight(a, d, home=DEFENDER).stages[0].losses[ATTACKER] == {"auxiliary": 23}  # 22.5 -> 23


# ---- the home side first ------------------------------------------------------------------------------------

def test_the_home_side_inflicts_first() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 999))
    d = side(DEFENDER, troop("D", {"auxiliary": 10}, 999))
    # Attacker home: 100 x 999/10,000 = 9.99 -> 10 kills all ten defenders, who inflict nothing.
    first = urban.fight(a, d, home=ATTACKER)
    assert first.stages[0].losses == {DEFENDER: {"auxiliary": 10}}
    assert first.eliminated == [DEFENDER] and first.victor == ATTACKER
    # Defender home: 10 x 999/10,000 = .999 -> 1 attacker first; then 99 x 999/10,000 = 9.89 -> 10 defenders.
    second = urban.fight(a, d, home=DEFENDER)
    assert second.stages[0].losses == {ATTACKER: {"auxiliary": 1}, DEFENDER: {"auxiliary": 10}}


# ---- withdrawal ---------------------------------------------------------------------------------------------

def test_a_home_attacker_with_a_tower_withdraws_after_the_first_half_stage() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 500))
    d = side(DEFENDER, troop("D", {"auxiliary": 1000}, 500))
    r = urban.fight(a, d, home=ATTACKER, withdraw=True, tower_room={ATTACKER: 500})
    # Half a stage: 100 x 500/10,000 = 5 defenders; the attacker "suffers no losses"; no morale change (RW-OQ-28).
    assert r.stages_fought == 1
    assert r.stages[0].losses == {DEFENDER: {"auxiliary": 5}}
    assert r.morale == {ATTACKER: 500, DEFENDER: 500}
    assert r.retreated == ATTACKER and r.victor is None and r.outcome == "the attacker withdrew into its tower"
    assert r.survivors[ATTACKER] == {"auxiliary": 100} and r.survivors[DEFENDER] == {"auxiliary": 995}


def test_no_withdrawal_when_the_attacker_is_not_home() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 500), value=400)
    d = side(DEFENDER, troop("D", {"auxiliary": 1000}, 500), value=400)
    r = urban.fight(a, d, home=DEFENDER, withdraw=True)
    assert r.notes == ["No withdrawal: the attacker is not the home side."]
    assert r.stages[0].losses[ATTACKER] == {"auxiliary": 50}  # the defender (home) struck: 1,000 x 500/10,000


# ---- retreat ------------------------------------------------------------------------------------------------

def test_a_side_retreats_into_its_tower_when_it_fits() -> None:
    d = side(DEFENDER, troop("D", {"auxiliary": 1000}, 500), value=400)
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 405))
    r = urban.fight(a, d, home=DEFENDER, tower_room={ATTACKER: 50})
    # Stage 1: 1,000 x 500/10,000 = 50 attackers; 50 x 405/10,000 = 2.03 -> 3 defenders. Attacker: 2 x 50 - 3 =
    # 97, sqrt 9.85 -> -10: 395 < 400. Its 50 men fit in 50: into the tower.
    assert r.stages_fought == 1 and r.morale[ATTACKER] == 395
    assert r.retreated == ATTACKER and r.victor == DEFENDER and r.outcome == "the attacker retreated into its tower"


def test_a_side_too_big_for_its_tower_fights_on_until_it_fits() -> None:
    d = side(DEFENDER, troop("D", {"auxiliary": 1000}, 500), value=400)
    a = side(ATTACKER, troop("A", {"auxiliary": 200}, 405))
    r = urban.fight(a, d, home=DEFENDER, tower_room={ATTACKER: 140})
    # Stage 1: 50 attackers (150 left); 150 x 405/10,000 = 6.08 -> 7 defenders. Attacker 2 x 50 - 7 = 93 -> -10:
    # 395, below, but 150 > 140: it fights on. Defender: 14 - 50 = -36 -> +6: 506.
    # Stage 2: 993 x 506/10,000 = 50.25 -> 51 (99 left, they fit); 99 x 395/10,000 = 3.91 -> 4.
    assert [s.losses[ATTACKER] for s in r.stages] == [{"auxiliary": 50}, {"auxiliary": 51}]
    assert r.stages_fought == 2 and r.retreated == ATTACKER
    assert r.survivors[ATTACKER] == {"auxiliary": 99}


def test_town_garrison_troops_never_fit_in_a_tower() -> None:
    # "Town garrison troops may never be inside towers except when assaulting them."
    assert urban.fits({"auxiliary": 10}, 10)
    assert not urban.fits({"auxiliary": 10}, 9)
    assert not urban.fits({"garrison": 1, "auxiliary": 1}, 100)
    assert not urban.fits({"auxiliary": 1}, None)


def test_the_other_side_without_a_tower_leaves_town() -> None:
    d = side(DEFENDER, troop("D", {"auxiliary": 1000}, 500), value=400)
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 405))
    r = urban.fight(a, d, home=DEFENDER)
    # As above: 395 < 400 after stage 1; no tower, not home: it leaves town.
    assert r.stages_fought == 1 and r.retreated == ATTACKER and r.outcome == "the attacker left town"


def test_denied_egress_it_fights_to_elimination() -> None:
    d = side(DEFENDER, troop("D", {"auxiliary": 1000}, 500), value=400)
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 405, horses=3, goods={"wool": 7}))
    r = urban.fight(a, d, home=DEFENDER, egress_denied=True)
    # Stage 1 as above (50 left; defender 997 at 506). Stage 2: 997 x 506/10,000 = 50.45 -> 51: the last 50 die.
    assert r.stages_fought == 2 and r.eliminated == [ATTACKER] and r.victor == DEFENDER
    assert r.dead == ["A"]
    # "all of his remaining mobile assets become the property of the victor"
    assert r.captured == {"horse": 3, "wool": 7}
    assert r.survivors[ATTACKER] == {"auxiliary": 0, "horse": 0, "wool": 0}


def test_the_home_side_without_a_tower_never_retreats_and_a_spared_commander_lives() -> None:
    d = side(DEFENDER, troop("D", {"auxiliary": 10, "slave": 5}, 100, cannon=1, horses=3,
                             ships={"galley": 1}, goods={"ducats": 100, "wool": 10}), spare=True)
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 500))
    r = urban.fight(a, d, home=DEFENDER)
    # Stage 1: 10 x 100/10,000 = .1 -> 1 attacker; 99 x 500/10,000 = 4.95 -> 5 defenders. Defender 2 x 5 - 1 = 9
    # -> -3: 97, far below 400, but home without a tower: it fights on. Attacker: 2 - 5 = -3 -> +1: 501.
    # Stage 2: 5 x 97/10,000 = .05 -> 1; 98 x 501/10,000 = 4.91 -> 5: the last five defenders.
    assert [s.losses[DEFENDER].get("auxiliary") for s in r.stages] == [5, 5]
    assert r.eliminated == [DEFENDER] and r.victor == ATTACKER
    assert r.dead == []  # the persona "not to be killed" survives, with nothing mobile (RW-OQ-07)
    assert r.captured == {"slave": 5, "cannon": 1, "horse": 3, "galley": 1, "ducats": 100, "wool": 10}
    assert r.morale == {ATTACKER: 502, DEFENDER: 94}  # 2 x 1 - 5 = -3 -> +1; 2 x 5 - 1 = 9 -> -3


# ---- the retreat's horses -----------------------------------------------------------------------------------

def test_the_retreat_horses_go_to_heavy_cavalry_then_cannons_then_falconets_then_goods() -> None:
    held = {"heavy cavalry": 10, "horse": 45, "slave": 16, "cannon": 2, "falconet": 3, "wool": 30, "ducats": 1000}
    out, _ = urban.left_behind(held)
    # 45 horses - 10 for the heavy cavalry = 35, + 16 slaves x 1/8 = 2: 37. One cannon at 20 (17 left), the second
    # would need 20: left behind. Three falconets at 1/2 (15.5 left). 30 wool need 15 horses (two cargo a horse):
    # all carried. Ducats weigh nothing.
    assert out == {"cannon": 1}
    held["horse"] = 50
    held["slave"] = 0
    # 40: both cannons (0 left), no falconet, no wool.
    assert urban.left_behind(held)[0] == {"falconet": 3, "wool": 30}
    held["slave"] = 8
    # + 8 slaves x 1/8 = 1 horse: two falconets at 1/2; one falconet and the wool stay.
    assert urban.left_behind(held)[0] == {"falconet": 1, "wool": 30}
    held.update(horse=55, slave=16, cannon=2, falconet=3)
    # 45 + 2 = 47: cannons 40 (7 left), falconets 1.5 (5.5 left); wool needs 15: 5.5/15 carried, 30 x 9.5/15 = 19
    # left behind.
    assert urban.left_behind(held)[0] == {"wool": 19}


# ---- one urban battle, end to end ---------------------------------------------------------------------------

def test_a_small_urban_battle_end_to_end() -> None:
    d = side(DEFENDER, troop("D", {"pikeman": 300}, 500), value=100)
    a = side(ATTACKER, troop("A", {"auxiliary": 100, "heavy cavalry": 20, "crew": 30, "slave": 8}, 420,
                             cannon=1, horses=25, goods={"wool": 20, "ducats": 500}))
    r = urban.fight(a, d, home=DEFENDER)
    # Stage 1: 300 x 500/10,000 = 15 auxiliaries (85). 85 + 20 + 30/2 = 120 x 420/10,000 = 5.04 -> 6 pikemen (294).
    #   A: 2 x 15 - 6 = 24 -> -5 (4.90 up): 415. D: 2 x 6 - 15 = -3 -> +1: 501.
    # Stage 2: 294 x 501/10,000 = 14.73 -> 15 (70). 70 + 20 + 15 = 105 x 415/10,000 = 4.36 -> 5 (289).
    #   A: 30 - 5 = 25 -> -5: 410. D: 10 - 15 = -5 -> +2: 503.
    # Stage 3: 289 x 503/10,000 = 14.54 -> 15 (55). 90 x 410/10,000 = 3.69 -> 4 (285).
    #   A: 30 - 4 = 26 -> -6 (5.10 up): 404. D: 8 - 15 = -7 -> +2: 505.
    # Stage 4: 285 x 505/10,000 = 14.39 -> 15 (40). 75 x 404/10,000 = 3.03 -> 4 (281).
    #   A: 26 -> -6: 398 < 400 (rank value 0): not home, no tower: it leaves town. D: 507.
    assert [s.losses[ATTACKER].get("auxiliary") for s in r.stages] == [15, 15, 15, 15]
    assert [s.losses[DEFENDER] for s in r.stages] == [{"pikeman": n} for n in (6, 5, 4, 4)]
    assert [s.morale for s in r.stages] == [{ATTACKER: 415, DEFENDER: 501}, {ATTACKER: 410, DEFENDER: 503},
                                            {ATTACKER: 404, DEFENDER: 505}, {ATTACKER: 398, DEFENDER: 507}]
    # The retreat: 25 horses - 20 heavy cavalry = 5, + 8 slaves / 8 = 6: not enough for the cannon (20); 20 wool
    # need 10 horses: 6/10 carried, 20 x 4/10 = 8 left to the victor.
    assert r.captured == {"cannon": 1, "wool": 8}
    assert r.stages[-1].losses[ATTACKER] == {"auxiliary": 15, "cannon": 1, "wool": 8}
    assert r.outcome == "the attacker left town" and r.retreated == ATTACKER and r.victor == DEFENDER
    assert r.survivors == {
        ATTACKER: {"auxiliary": 40, "heavy cavalry": 20, "crew": 30, "slave": 8, "cannon": 0, "horse": 25,
                   "wool": 12, "ducats": 500},
        DEFENDER: {"pikeman": 281},
    }
    assert r.morale_start == {ATTACKER: 420, DEFENDER: 500}
    assert r.morale == {ATTACKER: 398, DEFENDER: 507}
    assert r.stages_fought == 4 and r.dead == [] and r.eliminated == []
    assert r.losses(ATTACKER) == {"auxiliary": 60, "cannon": 1, "wool": 8}


def test_both_below_the_side_further_below_retreats() -> None:
    # Both with towers big enough. Defender home 100 at 350, attacker 100 at 300 (no rank).
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 300))
    d = side(DEFENDER, troop("D", {"auxiliary": 100}, 350))
    rooms = {ATTACKER: 1000, DEFENDER: 1000}
    r = urban.fight(a, d, home=DEFENDER, tower_room=rooms)
    # 100 x 350/10,000 = 3.5 -> 4; 96 x 300/10,000 = 2.88 -> 3. A: 8 - 3 = 5 -> -3: 297 (103 below);
    # D: 6 - 4 = 2 -> -2: 348 (52 below). The attacker, further below, retreats (RW-OQ-16).
    assert r.morale == {ATTACKER: 297, DEFENDER: 348} and r.retreated == ATTACKER
    a = side(ATTACKER, troop("A", {"auxiliary": 100}, 350))
    d = side(DEFENDER, troop("D", {"auxiliary": 100}, 300))
    r = urban.fight(a, d, home=DEFENDER, tower_room=rooms)
    # 100 x 300/10,000 = 3; 97 x 350/10,000 = 3.4 -> 4. A: 6 - 4 = 2 -> -2: 348; D: 8 - 3 = 5 -> -3: 297.
    assert r.morale == {ATTACKER: 348, DEFENDER: 297} and r.retreated == DEFENDER
    assert r.outcome == "the defender retreated into its tower" and r.victor == ATTACKER


def test_a_battle_where_nothing_happens_is_broken_off_after_the_guard() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 10}, 0))
    d = side(DEFENDER, troop("D", {"auxiliary": 10}, 0))
    # Morale 0 on both sides: 10 x 0/10,000 = 0 casualties, for ever; the attacker, denied egress, cannot leave.
    r = urban.fight(a, d, home=DEFENDER, egress_denied=True)
    assert r.stages_fought == urban.GUARD == 100
    assert r.outcome == "broken off after 100 stages" and r.victor is None


def test_an_urban_battle_is_deterministic_and_leaves_its_sides_untouched() -> None:
    a = side(ATTACKER, troop("A", {"auxiliary": 500, "heavy cavalry": 40, "crew": 60}, 450, horses=50,
                             goods={"wool": 80}))
    d = side(DEFENDER, troop("D", {"pikeman": 300, "archer": 100}, 480), value=60)
    before = copy.deepcopy((a, d))
    first = urban.fight(a, d, home=DEFENDER)
    second = urban.fight(a, d, home=DEFENDER)
    assert first == second
    assert (a, d) == before


def test_no_morale_change_after_a_stage_cut_short_by_an_elimination_in_its_first_half() -> None:
    # URBAN BATTLE: "After both sides have inflicted casualties, morale is adjusted" (RW-OQ-26, as the field battle
    # reads "each complete stage"). The home defender's 400 pikemen at 500: 400 x 500/10,000 = 20 casualties; the
    # attacker's 5 auxiliaries are all gone in the first half. He never strikes back: no adjustment (it would have
    # been the defender's 2 x 0 - 5 = -5 -> +2: 502).
    d = side(DEFENDER, troop("D", {"pikeman": 400}, 500))
    a = side(ATTACKER, troop("A", {"auxiliary": 5}, 450))
    r = urban.fight(a, d, home=DEFENDER)
    assert r.eliminated == [ATTACKER] and r.stages_fought == 1
    assert r.stages[0].losses[ATTACKER] == {"auxiliary": 5} and r.stages[0].morale == {}
    assert r.morale[DEFENDER] == 500
