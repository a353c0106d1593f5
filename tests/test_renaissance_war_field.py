"""FIELD BATLE and Appendix D (war/field.py and its field_*.py modules), every figure worked by hand from the rules'
words in the comment beside it. Readings: docs/renaissance/war.md, section field (RW-OQ-19 to 26)."""

from __future__ import annotations

from fractions import Fraction as F

from maild_rules.renaissance.war import field_army as fa
from maild_rules.renaissance.war import field_dispose as fd
from maild_rules.renaissance.war import field_fire as ff
from maild_rules.renaissance.war import field_stages as fs
from maild_rules.renaissance.war.field import MAX_STAGES, Battle, fight
from maild_rules.renaissance.war.forces import ATTACKER, DEFENDER, BattleResult, Contingent, Side, StageReport

# ---- helpers ----------------------------------------------------------------------------------------------------


def troops(key: str, men: dict[str, int], morale: int = 500, **kw: object) -> Contingent:
    return Contingent(key=key, name=f"P{key}", persona=key, men=men, morale=morale, **kw)  # type: ignore[arg-type]


def side(role: str, *cs: Contingent, commander: str | None = None, value: int = 0, **kw: object) -> Side:
    return Side(role, list(cs), commander=commander if commander is not None else cs[0].persona,
                retreat_value=value, **kw)  # type: ignore[arg-type]


def division(**kinds: int) -> fa.Division:
    div = fa.new_division()
    for k, q in kinds.items():
        div[k.replace("_", " ")] = q
    return div


def army_of(battle: Battle, role: str) -> fa.Army:
    return battle.armies[role]


def clear(army: fa.Army) -> None:
    army.divisions = {d: fa.new_division() for d in fa.DIVISIONS}


def lines(stage: StageReport) -> str:
    return "\n".join(stage.lines)


# ---- stage 1: the cannon schedule -------------------------------------------------------------------------------


def test_cannon_against_cannon_is_per_cannon_fired() -> None:
    # RW-OQ-19. Defender 10 cannons, attacker 10, gunnery 500 both. The defender has "no more cannons than the
    # attacker": all 10 fire at the attacker's cannons: 10 x .2 x 500/500 = 2 destroyed (per volley it would be
    # 0.2 -> 1). 2% of 10 fired = 0.2 -> 1 self-destructs (RW-OQ-01). Defender left 9.
    # Attacker's remaining 8 <= 9: all at the defender's cannons: 8 x .2 = 1.6 -> 2 destroyed; 2% of 8 = 0.16 -> 1.
    a = side(ATTACKER, troops("0101", {"pikeman": 40}, cannon=10, gunnery=500))
    d = side(DEFENDER, troops("0201", {"pikeman": 40}, cannon=10, gunnery=500))
    stage = fight(a, d).stages[0]
    assert stage.name == "cannon"
    assert stage.losses == {ATTACKER: {"cannon": 3}, DEFENDER: {"cannon": 3}}  # 2 + 1 each; no man hit
    assert "10 × 0.2 × 500/500 = 2 cannons" in lines(stage)
    assert "8 × 0.2 × 500/500 = 1.6 cannons" in lines(stage)


def test_more_cannons_fire_at_the_enemy_cannons_only_as_many_as_he_has_the_rest_at_his_line() -> None:
    # Defender 10 cannons, attacker 4 (gunnery 500). "he fires at the attacker's cannons only a number of cannons
    # equal to the attacker's number": 4 x .2 = 0.8 -> 1 destroyed. The other 6 "equally at the Left, Center and
    # Right": 2 each. The attacker's 300 pikemen stand 75 in each of Left, Center, Right and Reserves (standard).
    # In each division, 2 cannons: pikemen at 20 x 500/500 = 20 a cannon, "no more ... than would kill 10%":
    # 7.5 / 20 = 0.375 cannon kills 7.5 -> 8 (67 left); no other infantry, no heavy cavalry; pikemen again at 10 a
    # cannon up to 20% of the remaining 67 = 13.4: 1.34 cannons, 13.4 -> 14 (53 left); the last 0.285 cannon at 5:
    # 1.425, under 50% of 53 -> 2. 8 + 14 + 2 = 24 a division, 72 in all. Self-destruction: 2% of 10 = 0.2 -> 1.
    # The attacker's 3 left are no more than the defender's 9: all at the cannons: 3 x .2 = 0.6 -> 1; 2% of 3 -> 1.
    a = side(ATTACKER, troops("0101", {"pikeman": 300}, cannon=4, gunnery=500))
    d = side(DEFENDER, troops("0201", {"pikeman": 40}, cannon=10, gunnery=500))
    stage = fight(a, d).stages[0]
    assert stage.losses[ATTACKER] == {"cannon": 2, "pikeman": 72}
    assert stage.losses[DEFENDER] == {"cannon": 2}
    text = lines(stage)
    assert "pikemen: 0.375 × 20 × 500/500 = 7.5 (ceiling 10% of 75) → 8 killed" in text
    assert "pikemen: 1.34 × 10 × 500/500 = 13.4 (ceiling 20% of 67) → 14 killed" in text
    assert "troops: 0.285 × 5 × 500/500 = 1.425 (ceiling 50% of 53) → 2 killed" in text


def test_cannon_ceilings_with_fractional_cannons_on_other_infantry_and_heavy_cavalry() -> None:
    # RW-OQ-20. 3 cannons at gunnery 500 on a division of 100 auxiliaries and 50 heavy cavalry:
    # no pikemen; other infantry at 15 a cannon up to 10% of 100 = 10: 2/3 cannon, 10 killed;
    # heavy cavalry at 10 a cannon up to 10% of 50 = 5: 1/2 cannon, 5 killed; no pikemen;
    # the last 3 - 2/3 - 1/2 = 11/6 cannons at 5: 9.17, under 50% of 135 -> 10, "applied proportionately":
    # 10 x 90/135 = 6.67 auxiliaries, 10 x 45/135 = 3.33 heavy cavalry -> 6 + 3, the odd one to the larger
    # remainder (auxiliaries): 7 and 3.
    div = division(auxiliary=100, heavy_cavalry=50)
    shots, left = ff.volley(F(3), F(500, 500), ff.CANNON, div)
    assert [(s.line.target, s.firers, s.killed) for s in shots] == [
        ("other infantry", F(2, 3), 10), ("heavy cavalry", F(1, 2), 5), ("troops", F(11, 6), 10)]
    assert shots[2].lost == {"heavy cavalry": 3, "auxiliary": 7}
    assert div["auxiliary"] == 83 and div["heavy cavalry"] == 42
    # G scales every line: at gunnery 400 a cannon kills 20 x 400/500 = 16 pikemen; 10% of 80 = 8 needs 1/2 cannon.
    div = division(pikeman=80)
    shots, _ = ff.volley(F(1, 2), F(400, 500), ff.CANNON, div)
    assert shots[0].exact == 8 and shots[0].killed == 8


def test_the_final_cannon_fire_stops_at_half_the_division() -> None:
    # 10 cannons (gunnery 500) on 10 pikemen: 10% = 1 (0.05 cannon); 20% of the 9 left = 1.8 -> 2 (0.18 cannon);
    # the other 9.77 cannons at 5 = 48.85, but "no more than 50% of these troops": 50% of 7 = 3.5 -> 4 (a loss,
    # rounded up, RW-OQ-01). 3 pikemen survive the volley.
    div = division(pikeman=10)
    shots, _ = ff.volley(F(10), F(1), ff.CANNON, div)
    assert [s.killed for s in shots] == [1, 2, 4]
    assert shots[2].exact == F(7, 2)
    assert div["pikeman"] == 3


def test_the_final_line_takes_every_firer_left_and_the_report_says_so() -> None:
    # "Remaining cannons each inflict casualties at the rate of 5xG/500 ... no more than 50% of these troops": the
    # last line takes every cannon left (war.md, RW-OQ-20; the 2% self-destruction counts them all as fired), the
    # ceiling caps what they kill. 10 cannons on 10 pikemen (G 500): 0.05 and 0.18 cannons on the pikemen's lines,
    # the other 10 - 0.05 - 0.18 = 9.77 at 5 each = 48.85, capped at 50% of 7 = 3.5 -> 4 killed.
    div = division(pikeman=10)
    shots, left = ff.volley(F(10), F(1), ff.CANNON, div)
    assert shots[2].firers == F(977, 100) and left == 0
    assert ff.shot_text(shots[2], "500/500") == (
        "troops: 9.77 × 5 × 500/500 = 48.85, ceiling 50% of 7 = 3.5 → 4 killed (4 pikemen)")
    # The archers' last line likewise: 100 archers (M/1000 = 1/2) on 10 pikemen and 10 light cavalry: light cavalry
    # 10% of 10 = 1 at .5 (2 archers); infantry 1 at .4 (2.5); light cavalry 20% of 9 = 1.8 -> 2 at .35 (5.143);
    # infantry 20% of 9 = 1.8 -> 2 at .3 (6); the other 84.357 at .05 = 4.218, under 50% of the 14 left -> 5: not
    # capped, so the line reads as the others do.
    div = division(pikeman=10, light_cavalry=10)
    shots, left = ff.volley(F(100), F(1, 2), ff.ARCHERY, div)
    assert left == 0 and "troops: 84.357 × 0.1 × 500/1000 = 4.218 (ceiling 50% of 14) → 5 killed" in ff.shot_text(
        shots[-1], "500/1000")


def test_an_empty_division_s_share_of_cannons_goes_to_the_others() -> None:
    # RW-OQ-24. The defender's 3 cannons (gunnery 500; the attacker has none) are fired "equally at the Left,
    # Center and Right", but the attacker's Left is empty: 1.5 cannons each at the Center and the Right.
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 100})),
               side(DEFENDER, troops("0201", {"pikeman": 10}, cannon=3, gunnery=500)))
    att, dfd = army_of(b, ATTACKER), army_of(b, DEFENDER)
    clear(att)
    att.divisions["center"]["pikeman"] = 50
    att.divisions["right"]["pikeman"] = 50
    out: list[str] = []
    fs.cannon_half(dfd, att, out, fa_tally())
    assert "  at the attacker's Center: 1.5 cannons" in out and "  at the attacker's Right: 1.5 cannons" in out
    # In each: 10% of 50 = 5 (0.25 cannon), 20% of 45 = 9 (0.9 cannon), 0.35 x 5 = 1.75 -> 2: 16 each.
    assert att.divisions["center"]["pikeman"] == 34 and att.divisions["right"]["pikeman"] == 34


def fa_tally() -> fa.Tally:
    return fa.Tally()


def test_falconets_are_tenths_of_a_cannon_and_self_destruct_on_their_own() -> None:
    # Defender: 1 cannon and 10 falconets = 2 cannons (gunnery 400); attacker 3 cannons. 2 <= 3: all at the
    # attacker's cannons: 2 x .2 x 400/500 = 0.32 -> 1 cannon. 2% of 1 cannon = 0.02 -> 1; 2% of 10 falconets =
    # 0.2 -> 1. Attacker: 2 cannons against the defender's 0 + 9/10 = 0.9: 0.9 fire at the guns, 0.9 x .2 = 0.18
    # of the 0.9 there, a fifth: of 9 falconets 1.8 -> 2 destroyed; 2% of 2 cannons = 0.04 -> 1. The other 1.1
    # cannons go a third each (0.367) to the defender's Left, Center, Right (10 pikemen each): 10% = 1 (0.05
    # cannon); 20% of 9 = 1.8 -> 2 (0.18 cannon); the last 0.137 x 5 = 0.68 -> 1: 4 a division, 12 in all.
    a = side(ATTACKER, troops("0101", {"pikeman": 40}, cannon=3, gunnery=500))
    d = side(DEFENDER, troops("0201", {"pikeman": 40}, cannon=1, falconet=10, gunnery=400))
    stage = fight(a, d).stages[0]
    assert stage.losses[DEFENDER] == {"cannon": 1, "falconet": 3, "pikeman": 12}
    assert stage.losses[ATTACKER]["cannon"] == 2
    assert "= 2 cannons, gunnery 400" in lines(stage)


def test_only_the_cannons_that_fired_self_destruct() -> None:
    # "2% of all cannons fired self-destruct" (war.md, Cannons). Defender 100 cannons, attacker 10 (gunnery 500
    # both); the attacker's men stand only in the wings. The defender has more cannons: 10 fire at the attacker's
    # cannons, 10 x .2 x 500/500 = 2 destroyed. The other 90 have no one in the attacker's Left, Center and Right
    # to fire at and do not fire: 2% of the 10 fired = 0.2 -> 1 self-destructs (2% of all 100 would be 2).
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40}, cannon=10, gunnery=500)),
               side(DEFENDER, troops("0201", {"pikeman": 40}, cannon=100, gunnery=500)))
    att, dfd = army_of(b, ATTACKER), army_of(b, DEFENDER)
    clear(att)
    att.divisions["left wing"]["heavy cavalry"] = 10
    att.divisions["right wing"]["heavy cavalry"] = 10
    out: list[str] = []
    fs.cannon_half(dfd, att, out, fa.Tally())
    assert att.cannon == 8 and dfd.cannon == 99
    assert "  2% of 10 cannons fired = 0.2 → 1 self-destruct" in out


def test_the_reserves_come_forward_in_the_cannon_stage_and_the_persona_with_them() -> None:
    # RW-OQ-24: "at the start of a half-stage in which it is to inflict casualties" is every stage's half.
    # Attacker 5 pikemen, standard: 1 each in Left, Center, Right, Reserves and the odd one to the Center (2); its
    # persona in the Reserves by default. Defender 40 pikemen, 3 cannons (gunnery 500); the attacker has none, so
    # all 3 go "equally at the Left, Center and Right", 1 each: Left, 10% of 1 = 0.1 (0.005 cannon) -> 1 killed;
    # Center 10% of 2 = 0.2 (0.01 cannon) -> 1, then 20% of the 1 left = 0.2 (0.02 cannon) -> 1; Right 1. 2% of 3 =
    # 0.06 -> 1 self-destructs. At the start of the attacker's half its five forward divisions are empty: the 1
    # pikeman in the Reserves may fill the Left, Center or Right, and goes to the Center (RW-OQ-22's order); the
    # Reserves are empty, the persona goes with them.
    r = fight(side(ATTACKER, troops("0101", {"pikeman": 5})),
              side(DEFENDER, troops("0201", {"pikeman": 40}, cannon=3, gunnery=500)))
    stage = r.stages[0]
    assert stage.losses == {ATTACKER: {"pikeman": 4}, DEFENDER: {"cannon": 1}}
    assert "the attacker's Reserves come forward: 1 pikeman to the Center" in stage.lines
    assert "P0101 goes forward with them to the Center" in stage.lines


# ---- stage 2: archery -------------------------------------------------------------------------------------------


def test_every_line_of_the_archery_schedule() -> None:
    # 400 archers at morale 500 (M/1000 = 1/2) on 100 light cavalry, 100 heavy cavalry, 100 pikemen, 100 auxiliaries:
    # 1. light cavalry 1 x .5 = .5 each, 10% of 100 = 10: 20 archers, 10 killed (90 left);
    # 2. heavy cavalry .9 x .5 = .45, 10% of 100 = 10: 22.22 archers, 10 killed (90);
    # 3. infantry .8 x .5 = .4, 10% of 200 = 20: 50 archers, 20 killed, 10 pikemen and 10 auxiliaries (180);
    # 4. light cavalry .7 x .5 = .35, 20% of the remaining 90 = 18: 51.43 archers, 18 killed (72);
    # 5. infantry .6 x .5 = .3, 20% of 180 = 36: 120 archers, 36 killed, 18 and 18 (144: 72 + 72);
    # 6. the remaining 400 - 20 - 22.22 - 50 - 51.43 - 120 = 136.35 at .1 x .5 = .05: 6.82, under 50% of the 306
    #    present -> 7, in proportion to 90 heavy, 72 light, 72 pikemen, 72 auxiliaries: 2.06, 1.65, 1.65, 1.65 ->
    #    2, 1, 1, 1 and the two left over to the largest remainders, ties to the kind named first (light cavalry,
    #    pikemen): 2 heavy, 2 light, 2 pikemen, 1 auxiliary.
    div = division(light_cavalry=100, heavy_cavalry=100, pikeman=100, auxiliary=100)
    shots, left = ff.volley(F(400), F(500, 1000), ff.ARCHERY, div)
    assert [(s.line.target, s.killed) for s in shots] == [
        ("light cavalry", 10), ("heavy cavalry", 10), ("infantry", 20), ("light cavalry", 18), ("infantry", 36),
        ("troops", 7)]
    assert [s.firers for s in shots[:5]] == [20, F(200, 9), 50, F(360, 7), 120]
    assert shots[2].lost == {"pikeman": 10, "auxiliary": 10}
    assert shots[5].lost == {"heavy cavalry": 2, "light cavalry": 2, "pikeman": 2, "auxiliary": 1}
    assert left == 0  # the last line takes every archer left, whatever its ceiling
    assert div == division(light_cavalry=70, heavy_cavalry=88, pikeman=70, auxiliary=71)


def test_archers_shoot_at_the_opposing_division_and_not_from_the_reserves() -> None:
    # "Archers in the Left fire exclusively at the opposing Right ... Those in the Reserves do not fire."
    # Attacker: 400 archers, standard: 100 in each of Left, Center, Right, Reserves. Morale 500. Defender: 80
    # pikemen, 20 in each. Defender shoots nothing. Each of the three attacking divisions: no cavalry; infantry
    # .8 x .5 = .4, 10% of 20 = 2: 5 archers, 2 killed; infantry .6 x .5 = .3, 20% of 18 = 3.6: 12 archers, 3.6
    # -> 4 killed; the other 83 at .05 = 4.15, under 50% of 14 -> 5. 11 a division, 33 in all.
    a = side(ATTACKER, troops("0101", {"archer": 400}))
    d = side(DEFENDER, troops("0201", {"pikeman": 80}))
    stage = fight(a, d).stages[1]
    assert stage.name == "archery"
    assert stage.losses == {DEFENDER: {"pikeman": 33}}
    assert "100 of the attacker's archers in the Left shoot at the defender's Right" in lines(stage)
    assert "Reserves shoot" not in lines(stage)


def test_archers_facing_an_empty_division_shoot_at_the_others_in_equal_shares() -> None:
    # RW-OQ-24: fire meant for an empty division goes to the other opposing divisions of the line.
    b = Battle(side(ATTACKER, troops("0101", {"archer": 40})), side(DEFENDER, troops("0201", {"pikeman": 40})))
    dfd = army_of(b, DEFENDER)
    clear(dfd)
    dfd.divisions["left"]["pikeman"] = 10
    dfd.divisions["center"]["pikeman"] = 10
    assert fs.aims(dfd, "left") == [("left", F(1, 2)), ("center", F(1, 2))]  # the opposing Right is empty
    assert fs.aims(dfd, "center") == [("center", F(1))]
    dfd.divisions["center"]["pikeman"] = 0
    dfd.divisions["left"]["pikeman"] = 0
    assert fs.aims(dfd, "left") == []


# ---- stage 3: arquebus ------------------------------------------------------------------------------------------


def test_arquebus_volley_is_proportional_and_capped_at_half_the_division() -> None:
    # Defender 40 pikemen and 40 auxiliaries: 10 and 10 in each of Left, Center, Right, Reserves.
    # 1000 arquebusiers (morale 500): 250 in each division; 250 x .5 x 500/1000 = 62.5 against 20 men, "no more
    # than 50%": 10, shared 5 pikemen and 5 auxiliaries. 30 in all.
    d = side(DEFENDER, troops("0201", {"pikeman": 40, "auxiliary": 40}))
    stage = fight(side(ATTACKER, troops("0101", {"arquebusier": 1000})), d).stages[2]
    assert stage.name == "arquebus"
    assert stage.losses == {DEFENDER: {"pikeman": 15, "auxiliary": 15}}
    # 100 arquebusiers: 25 a division: 25 x .5 x .5 = 6.25 -> 7 of 20, 3.5 and 3.5 -> 3 and 3, the odd one to the
    # kind named first (pikemen): 4 pikemen, 3 auxiliaries a division.
    stage = fight(side(ATTACKER, troops("0101", {"arquebusier": 100})), d).stages[2]
    assert stage.losses == {DEFENDER: {"pikeman": 12, "auxiliary": 9}}
    assert "25 from the Left × 0.5 × 500/1000 = 6.25; ceiling 50% of 20 → 7 killed" in lines(stage)


def test_the_side_s_multiplier_doubles_the_arquebusiers() -> None:
    # RW-OQ-14: Side.factor multiplies M wherever it inflicts: 100 arquebusiers at 2 x 500: 25 x .5 x 1 = 12.5
    # a division -> capped at 10 of 20.
    d = side(DEFENDER, troops("0201", {"pikeman": 40, "auxiliary": 40}))
    a = side(ATTACKER, troops("0101", {"arquebusier": 100}), factor=F(2))
    stage = fight(a, d).stages[2]
    assert stage.losses == {DEFENDER: {"pikeman": 15, "auxiliary": 15}}
    assert "2 × 500/1000 = 12.5" in lines(stage)


def test_archers_and_arquebusiers_kill_at_their_own_side_s_morale_times_its_factor() -> None:
    # "M=the firer's morale rating", times the side's multiplier (RW-OQ-14): attacker morale 250, factor 2: M/1000
    # = 2 x 250/1000 = 1/2; the defender's morale (900) plays no part.
    # Archery, the attacker's Center (100 archers) at the defender's Center (100 pikemen): no cavalry; infantry
    # .8 x .5 = .4, 10% of 100 = 10: 25 archers, 10 killed (90); infantry .6 x .5 = .3, 20% of 90 = 18: 60
    # archers, 18 killed (72); the other 15 at .1 x .5 = .05: 0.75 -> 1. 29 killed, 71 left.
    # Arquebus, the attacker's Right (40) at the defender's Left (100 auxiliaries): 40 x .5 x .5 = 10, under 50%.
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40}, morale=250), factor=F(2)),
               side(DEFENDER, troops("0201", {"pikeman": 40}, morale=900)))
    att, dfd = army_of(b, ATTACKER), army_of(b, DEFENDER)
    clear(att)
    clear(dfd)
    att.divisions["center"]["archer"] = 100
    att.divisions["right"]["arquebusier"] = 40
    dfd.divisions["center"]["pikeman"] = 100
    dfd.divisions["left"]["auxiliary"] = 100
    out: list[str] = []
    fs.archery_half(att, dfd, out, fa.Tally())
    assert dfd.divisions["center"]["pikeman"] == 71
    assert "  infantry: 25 × 0.8 × 2 × 250/1000 = 10 (ceiling 10% of 100) → 10 killed (10 pikemen)" in out
    fs.arquebus_half(att, dfd, out, fa.Tally())
    assert dfd.divisions["left"]["auxiliary"] == 90


# ---- melee, parts A to D ----------------------------------------------------------------------------------------


def test_melee_part_a_heavy_cavalry_and_its_excess() -> None:
    # 110 heavy cavalry at morale 500 (x .5): heavy cavalry at .1 x .5 = .05 each: 3 need 60; the 50 "in excess of
    # that needed to eliminate" go on: light cavalry at 1 x .5 = .5: 10 need 20; other infantry at 2 x .5 = 1: 20
    # need 20; the last 10 kill pikemen at .1 x .5 = .05: 0.5 -> 1.
    div = division(heavy_cavalry=3, light_cavalry=10, auxiliary=20, pikeman=50)
    shots, left = ff.volley(F(110), F(1, 2), ff.MELEE["A"], div)
    assert [(s.line.target, s.firers, s.killed) for s in shots] == [
        ("heavy cavalry", 60, 3), ("light cavalry", 20, 10), ("other infantry", 20, 20), ("pikemen", 10, 1)]
    assert left == 0 and div == division(pikeman=49)


def test_melee_part_b_light_cavalry_and_its_excess() -> None:
    # 100 light cavalry (x .5): light cavalry .5 x .5 = .25: 5 need 20; the other 80 at heavy cavalry .02 x .5 =
    # .01: 2 would need 200, so all 80 strike: 0.8 -> 1; nothing left for the infantry.
    div = division(light_cavalry=5, heavy_cavalry=2, auxiliary=30, pikeman=40)
    shots, left = ff.volley(F(100), F(1, 2), ff.MELEE["B"], div)
    assert [(s.line.target, s.firers, s.killed) for s in shots] == [("light cavalry", 20, 5), ("heavy cavalry", 80, 1)]
    assert left == 0 and div == division(heavy_cavalry=1, auxiliary=30, pikeman=40)


def test_melee_part_c_pikemen_and_their_excess() -> None:
    # 200 pikemen (x .5): pikemen .2 x .5 = .1: 10 need 100; light cavalry .3 x .5 = .15: 6 need 40; heavy
    # cavalry .1 x .5 = .05: 1 needs 20; the last 40 kill other infantry at .5 x .5 = .25: 10 of 50.
    div = division(pikeman=10, light_cavalry=6, heavy_cavalry=1, auxiliary=50)
    shots, _ = ff.volley(F(200), F(1, 2), ff.MELEE["C"], div)
    assert [(s.line.target, s.firers, s.killed) for s in shots] == [
        ("pikemen", 100, 10), ("light cavalry", 40, 6), ("heavy cavalry", 20, 1), ("other infantry", 40, 10)]
    assert div == division(auxiliary=40)


def test_melee_part_d_other_infantry_with_crew_striking_at_half_an_auxiliary() -> None:
    # NAVIGATION: "Each two crew inflict casualties at the same rate as one auxiliary": 100 auxiliaries and 40 crew
    # strike as 120. At x .5: other infantry .1 x .5 = .05: 1 needs 20; pikemen .05 x .5 = .025: 2 need 80;
    # light cavalry .03 x .5 = .015: the last 20 kill 0.3 -> 1 of 2; none left for the heavy cavalry.
    firers = ff.part_firers("D", division(auxiliary=100, crew=40))
    assert firers == 120
    div = division(auxiliary=1, pikeman=2, light_cavalry=2, heavy_cavalry=3)
    shots, left = ff.volley(firers, F(1, 2), ff.MELEE["D"], div)
    assert [(s.line.target, s.firers, s.killed) for s in shots] == [
        ("other infantry", 20, 1), ("pikemen", 80, 2), ("light cavalry", 20, 1)]
    assert left == 0 and div == division(light_cavalry=1, heavy_cavalry=3)


def test_melee_parts_a_to_d_in_order_wings_against_wings_at_the_side_s_factor() -> None:
    # "forces in the Left Wing engage those in the opposing Right Wing", parts A, B, C, D in that order, M/1000 =
    # 2 x 250/1000 = 1/2 (the side's factor 2). Attacker: Left Wing 10 heavy cavalry; Center 5 heavy cavalry and 10
    # auxiliaries. Defender: Right Wing 4 light cavalry, Left Wing 6 light cavalry, Center 2 pikemen, 3 auxiliaries.
    # Part A, Left Wing: no heavy cavalry; light cavalry at 1 x .5: 4 need 8, killed; the other 2 find no
    #   infantry.
    # Part A, Center: no cavalry; other infantry at 2 x .5 = 1: 3 need 3, killed; the other 2 on pikemen at .1 x .5:
    #   0.1 -> 1 killed (1 left).
    # Part D, Center: 10 auxiliaries, no other infantry left; pikemen at .05 x .5 = .025: 0.25 -> 1 killed.
    # The defender's Right Wing and Center are gone; its Left Wing (facing the empty attacking Right Wing) is
    # untouched. (Part D before part A would leave a pikeman: 10 auxiliaries kill 0.5 -> 1 auxiliary, then 2 heavy
    # cavalry the other 2 and 3 more kill 0.15 -> 1 pikeman.)
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40}, morale=250), factor=F(2)),
               side(DEFENDER, troops("0201", {"pikeman": 40})))
    att, dfd = army_of(b, ATTACKER), army_of(b, DEFENDER)
    clear(att)
    clear(dfd)
    att.divisions["left wing"]["heavy cavalry"] = 10
    att.divisions["center"].update({"heavy cavalry": 5, "auxiliary": 10})
    dfd.divisions["right wing"]["light cavalry"] = 4
    dfd.divisions["left wing"]["light cavalry"] = 6
    dfd.divisions["center"].update({"pikeman": 2, "auxiliary": 3})
    out: list[str] = []
    fs.melee_half(att, dfd, out, fa.Tally())
    assert "the attacker's Left Wing engages the defender's Right Wing" in out
    assert fa.men(dfd.divisions["right wing"]) == 0 and fa.men(dfd.divisions["center"]) == 0
    assert dfd.divisions["left wing"] == division(light_cavalry=6)
    text = "\n".join(out)
    assert text.index("part A: 5 heavy cavalry of the Center") < text.index("part D: 10 infantry other than pikemen")
    assert "pikemen: 10 × 0.05 × 2 × 250/1000 = 0.25 (of 1) → 1 killed (1 pikeman)" in text


def test_the_defense_strikes_first_then_the_attack_with_its_survivors() -> None:
    # "In the first half of a stage, the defense inflicts casualties upon the attackers. In the second half, the
    # attackers inflict casualties upon the defenders" and "the attacker's surviving troops inflict casualties".
    a = side(ATTACKER, troops("0101", {"pikeman": 40}))
    d = side(DEFENDER, troops("0201", {"pikeman": 400}))
    melee = fight(a, d).stages[3]
    text = lines(melee)
    assert text.index("the defender's Left engages") < text.index("the attacker's Left engages")
    # Defense: 100 pikemen a division at .2 x .5 = .1 kill all 10 facing them (100 needed). The attacker's
    # Reserves (10) have not come forward yet: the attack has nobody left in its line to strike back with, and
    # brings the Reserves forward at the start of its own half: three gaps, 3 each and the odd one to the Center.
    assert melee.losses[ATTACKER] == {"pikeman": 30}
    assert ("the attacker's Reserves come forward: 4 pikemen to the Center; 3 pikemen to the Left; 3 pikemen to "
            "the Right") in text


# ---- reserves, flanking -----------------------------------------------------------------------------------------


def test_reserves_fill_one_gap_and_the_persona_goes_with_them() -> None:
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40})), side(DEFENDER, troops("0201", {"pikeman": 40})))
    army = army_of(b, ATTACKER)
    clear(army)
    army.divisions["left wing"]["heavy cavalry"] = 1
    army.divisions["right wing"]["heavy cavalry"] = 1
    army.divisions["center"]["pikeman"] = 5
    army.divisions["right"]["pikeman"] = 5
    army.divisions["reserves"].update({"heavy cavalry": 5, "pikeman": 7})
    army.places["0101"] = "reserves"
    out: list[str] = []
    fs.bring_up(army, out)
    # One gap (the Left): "all eligible forces in the Reserves are brought forward to fill that gap".
    assert army.divisions["left"] == division(heavy_cavalry=5, pikeman=7)
    assert fa.men(army.divisions["reserves"]) == 0
    assert army.places["0101"] == "left"  # "Personae in the Reserves are brought forward with the Reserves"


def test_reserves_fill_two_gaps_by_type_among_the_legal_ones() -> None:
    # Gaps: the Left Wing and the Left. 5 heavy cavalry may go to either: 2 each and the odd one to the Left
    # (nearer the Center, RW-OQ-22); 7 pikemen may go only to the Left. The persona goes with the part sent to the
    # gap nearest the Center (RW-OQ-26): the Left.
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40})), side(DEFENDER, troops("0201", {"pikeman": 40})))
    army = army_of(b, ATTACKER)
    clear(army)
    army.divisions["center"]["pikeman"] = 5
    army.divisions["right"]["pikeman"] = 5
    army.divisions["right wing"]["light cavalry"] = 5
    army.divisions["reserves"].update({"heavy cavalry": 5, "pikeman": 7})
    army.places["0101"] = "reserves"
    fs.bring_up(army, [])
    assert army.divisions["left"] == division(heavy_cavalry=3, pikeman=7)
    assert army.divisions["left wing"] == division(heavy_cavalry=2)
    assert army.places["0101"] == "left"
    # Only a wing empty and only infantry in the Reserves: nothing may go, the persona stays.
    clear(army)
    for d in ("left", "center", "right", "right wing"):
        army.divisions[d]["pikeman" if d != "right wing" else "light cavalry"] = 5
    army.divisions["reserves"]["pikeman"] = 9
    army.places["0101"] = "reserves"
    fs.bring_up(army, [])
    assert army.divisions["reserves"]["pikeman"] == 9 and army.places["0101"] == "reserves"


def test_an_unopposed_division_flanks_and_the_flanked_one_strikes_back() -> None:
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40})), side(DEFENDER, troops("0201", {"pikeman": 40})))
    att, dfd = army_of(b, ATTACKER), army_of(b, DEFENDER)
    clear(att)
    clear(dfd)
    att.divisions["left wing"]["heavy cavalry"] = 100
    att.divisions["center"]["pikeman"] = 10
    att.divisions["right"]["pikeman"] = 10
    dfd.divisions["right"]["pikeman"] = 40
    dfd.divisions["center"]["pikeman"] = 10
    dfd.divisions["left"]["pikeman"] = 3
    # The attacker's Left Wing faces the defender's (empty) Right Wing: it "turns toward the Center and flanks the
    # next opposing division", the defender's Right, with doubled morale. The Center engages the Center; the
    # Right engages the defender's Left.
    assert fs.engagements(att, dfd) == [
        ("left wing", "right", True, "is unopposed and flanks, morale doubled,"),
        ("center", "center", False, "engages"), ("right", "left", False, "engages")]
    # The defender's Right has no one in front (the attacker's Left is empty) and is flanked: it "inflicts
    # casualties upon the flanking division, but does so without the flanking advantage".
    assert ("right", "left wing", False, "strikes back at the flanking") in fs.engagements(dfd, att)
    # The Center, unopposed, turns toward the larger adjacent opposing division.
    att.divisions["center"]["pikeman"] = 0
    assert fs.flank_target("center", att) == "right"  # the attacker's Right (10) against its Left (0)
    # Doubled morale in the figures: 100 heavy cavalry at 2 x 500/1000 on 40 pikemen: .1 x 1 = .1 each: 10 killed
    # (5 at single morale).
    att.divisions["center"]["pikeman"] = 10
    out: list[str] = []
    fs.melee_half(att, dfd, out, fa.Tally())
    assert "pikemen: 100 × 0.1 × 2 × 500/1000 = 10 (of 40) → 10 killed (10 pikemen)" in "\n".join(out)
    assert dfd.divisions["right"]["pikeman"] == 30


def test_each_unopposed_division_turns_toward_the_center() -> None:
    # "that unopposed division turns toward the Center ... and flanks the next opposing division" (RW-OQ-24): the
    # Left Wing, facing the opposing Right Wing, turns on the opposing Right; the Left on the opposing Center; the
    # Right on the opposing Center; the Right Wing on the opposing Left. Past an empty one to the next.
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40})), side(DEFENDER, troops("0201", {"pikeman": 40})))
    dfd = army_of(b, DEFENDER)
    clear(dfd)
    for d in fa.FORWARD:
        dfd.divisions[d]["heavy cavalry"] = 5
    assert {d: fs.flank_target(d, dfd) for d in fa.FORWARD if d != "center"} == {
        "left wing": "right", "left": "center", "right": "center", "right wing": "left"}
    dfd.divisions["center"]["heavy cavalry"] = 0
    assert {d: fs.flank_target(d, dfd) for d in fa.FORWARD if d != "center"} == {
        "left wing": "right", "left": "left", "right": "right", "right wing": "left"}
    dfd.divisions["right"]["heavy cavalry"] = 0
    dfd.divisions["left"]["heavy cavalry"] = 0
    assert fs.flank_target("left wing", dfd) == "left wing" and fs.flank_target("right wing", dfd) == "right wing"


def test_a_division_only_strikes_back_at_a_division_that_flanks_it() -> None:
    # Attacker: 10 heavy cavalry in the Left Wing, 12 pikemen in the Center; defender: 20 pikemen in the Right, no
    # one else forward. Morale 500 both.
    # The defender's Right faces the attacker's empty Left. It is flanked by the attacker's Left Wing (unopposed:
    # no defending Right Wing; "turns toward the Center and flanks the next opposing division", the Right) and by
    # the attacker's Center (unopposed: no defending Center; "it turns toward the larger adjacent opposing
    # division", the Right, 20 against 0). So the Right "inflicts casualties upon the flanking division, but does
    # so without the flanking advantage": at the larger, the Center (12 against 10). It flanks no one.
    # So the attacker's Center is not flanked by anyone: it is an unopposed division that flanks, and "flanking
    # divisions fight with doubled morale" (2 x 500/1000 = 1), like the Left Wing:
    # part A, Left Wing: 10 heavy cavalry on pikemen (no cavalry, no other infantry there) at .1 x 1: 1 killed (19);
    # part C, Center: 12 pikemen on pikemen at .2 x 1 = 2.4 -> 3 killed (16).
    # (Taking the Right for a flanker of the Center would give 12 x .2 x .5 = 1.2 -> 2: 17 left.)
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40})), side(DEFENDER, troops("0201", {"pikeman": 40})))
    att, dfd = army_of(b, ATTACKER), army_of(b, DEFENDER)
    clear(att)
    clear(dfd)
    att.divisions["left wing"]["heavy cavalry"] = 10
    att.divisions["center"]["pikeman"] = 12
    dfd.divisions["right"]["pikeman"] = 20
    assert fs.engagements(dfd, att) == [("right", "center", False, "strikes back at the flanking")]
    assert fs.engagements(att, dfd) == [("left wing", "right", True, "is unopposed and flanks, morale doubled,"),
                                        ("center", "right", True, "is unopposed and flanks, morale doubled,")]
    out: list[str] = []
    fs.melee_half(att, dfd, out, fa.Tally())
    assert "pikemen: 12 × 0.2 × 2 × 500/1000 = 2.4 (of 19) → 3 killed (3 pikemen)" in "\n".join(out)
    assert dfd.divisions["right"]["pikeman"] == 16
    # Two unopposed divisions that turn on each other and on nothing else both strike back, neither flanking (the
    # engine's reading of the mutual case, unchanged): the attacker's Left Wing alone against the defender's Right.
    att.divisions["center"]["pikeman"] = 0
    dfd.divisions["right"]["pikeman"] = 20
    assert fs.flank_target("right", att) == "left wing"  # past the attacker's empty Center, Right, Right Wing
    assert fs.engagements(att, dfd) == [("left wing", "right", False, "strikes back at the flanking")]
    assert fs.engagements(dfd, att) == [("right", "left wing", False, "strikes back at the flanking")]
    # Add 5 defending pikemen in the Center: unopposed (no attacking Center), it turns toward the larger adjacent
    # opposing division (Left and Right both empty: the Left, then on past it to the Left Wing) and flanks the
    # attacker's Left Wing, turned on by no one. So the Left Wing is flanked, strikes back (at the larger of its
    # two flankers, the Right) and flanks no one; the defender's Right, turned on only by it, flanks it, doubled.
    dfd.divisions["center"]["pikeman"] = 5
    assert fs.engagements(dfd, att) == [("center", "left wing", True, "is unopposed and flanks, morale doubled,"),
                                        ("right", "left wing", True, "is unopposed and flanks, morale doubled,")]
    assert fs.engagements(att, dfd) == [("left wing", "right", False, "strikes back at the flanking")]


def test_the_commander_s_division_uses_his_own_factor() -> None:
    # RW-OQ-14: Side.commander_factor (a Shia or Sunni sovereign's own division: tripled) replaces the side's
    # factor (doubled) in the division where the commander stands.
    a = side(ATTACKER, troops("0101", {"pikeman": 40}), factor=F(2), commander_factor=F(3),
             places={"0101": "center"})
    b = Battle(a, side(DEFENDER, troops("0201", {"pikeman": 40})))
    att = army_of(b, ATTACKER)
    assert att.factor("center") == 3 and att.factor("left") == 2
    att.dead.append("0101")
    assert att.factor("center") == 2  # a dead commander stands nowhere


# ---- morale and the retreat test --------------------------------------------------------------------------------


def test_morale_moves_at_the_end_of_each_stage() -> None:
    # MORALE: 2 x suffered - inflicted. Attacker suffered 100, inflicted 120: 80 -> -9 (root 8.94, rounded up);
    # defender suffered 120, inflicted 100: 140 -> -12 (11.83 up).
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40})), side(DEFENDER, troops("0201", {"pikeman": 40})))
    tally = fa.Tally()
    tally.killed = {ATTACKER: 100, DEFENDER: 120}
    report = StageReport(4, "melee")
    b.adjust_morale(tally, report)
    assert report.morale == {DEFENDER: 500 - 12, ATTACKER: 500 - 9}
    # One side only inflicts: 2 x 0 - 30 = -30 -> +5 (root 5.48, a rise rounded down).
    tally.killed = {ATTACKER: 0, DEFENDER: 30}
    b.adjust_morale(tally, report)
    assert report.morale[ATTACKER] == 491 + 5


def test_the_retreat_test_and_both_sides_below() -> None:
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40}), value=99),
               side(DEFENDER, troops("0201", {"pikeman": 40}), value=60))
    att, dfd = army_of(b, ATTACKER), army_of(b, DEFENDER)
    att.morale, dfd.morale = 300, 350  # 399 < 400 retreats; 410 holds
    assert b.retreat_test([]) == ATTACKER
    att.morale, dfd.morale = 302, 330  # 401 holds; 390 retreats
    assert b.retreat_test([]) == DEFENDER
    att.morale, dfd.morale = 291, 330  # both below: 10 and 10 -> the attacker (RW-OQ-16)
    assert b.retreat_test([]) == ATTACKER
    att.morale, dfd.morale = 296, 330  # 5 below and 10 below: the further below retreats
    assert b.retreat_test([]) == DEFENDER
    dfd.side.can_retreat = False
    assert b.retreat_test([]) == ATTACKER
    # "When a persona dies in battle, his forces continue fighting until their morale goes below 400."
    b2 = Battle(side(ATTACKER, troops("0101", {"pikeman": 40}), value=100),
                side(DEFENDER, troops("0201", {"pikeman": 40})))
    a2 = army_of(b2, ATTACKER)
    a2.morale = 350
    assert b2.retreat_test([]) is None  # 450
    a2.dead.append("0101")
    assert b2.retreat_test([]) == ATTACKER  # 350 + 0


def test_no_retreat_before_the_first_melee_stage_is_complete() -> None:
    # The defender stands below its point from the start (300 + 0), yet "Retreats never occur before the
    # completion of one melee stage": stages 1 to 4, then the retreat stage (5).
    a = side(ATTACKER, troops("0101", {"pikeman": 40}))
    d = side(DEFENDER, troops("0201", {"pikeman": 40}, morale=300))
    r = fight(a, d)
    assert [s.name for s in r.stages] == ["cannon", "archery", "arquebus", "melee", "retreat"]
    assert r.retreated == DEFENDER and r.victor == ATTACKER and r.stages_fought == 5


# ---- the retreat stage and captures -----------------------------------------------------------------------------


def test_the_retreat_stage_captures_unhorsed_guns_and_a_portion_of_the_horsed_ones() -> None:
    # The battle of test_a_small_battle_by_hand, the defender with 3 cannons, 4 falconets and 41 horses (gunnery
    # 0, so they kill no one): 2 cannons get 40 horses, 2 falconets the last one; 1 cannon and 2 falconets have
    # none. Self-destruction: 2% of 3 = 0.06 -> 1 cannon, 2% of 4 = 0.08 -> 1 falconet, each one without a horse
    # ("destroyed cannons and falconets are assumed to have had no horse allocation"). The retreat stage kills 6
    # of the mass's 15 (as there): portion 2/5. Captured: cannons 0 unhorsed + 2/5 x 2 = 0.8 -> 1; falconets
    # 1 unhorsed + 2/5 x 2 = 0.8 -> 1, 2 in all; ducats 2/5 x 100 = 40.
    a = side(ATTACKER, troops("0101", {"heavy cavalry": 10}, horses=10))
    d = side(DEFENDER, troops("0201", {"pikeman": 20}, morale=380, cannon=3, falconet=4, horses=41, gunnery=0,
                               goods={"ducats": 100}))
    r = fight(a, d)
    assert r.stages[0].losses[DEFENDER] == {"cannon": 1, "falconet": 1}
    assert r.captured == {"cannon": 1, "falconet": 2, "ducats": 40}
    assert r.ducats_share == F(2, 5)
    assert r.survivors[DEFENDER]["cannon"] == 1 and r.survivors[DEFENDER]["falconet"] == 1
    assert r.survivors[DEFENDER]["horse"] == 41  # horses are not taken in a retreat
    assert r.stages[-1].losses[DEFENDER]["cannon"] == 1  # captures are the loser's losses of the stage


def test_the_retreat_stage_is_the_victor_s_cavalry_parts_a_and_b_at_his_morale() -> None:
    # "This mass is attacked by all of the victor's surviving cavalry, which inflicts casualties at the usual melee
    # rate, but suffers no losses" (RW-OQ-25): parts A and B, every division of the victor's, the Reserves
    # included, at the victor's morale times his side's factor: 2 x 400/1000 = .8 (the loser's 100 plays no part).
    # Victor (attacker): 5 heavy cavalry in the Center, 10 light cavalry in the Reserves, 2 cannons without horses.
    # Loser (defender): 10 auxiliaries in the Left, 10 pikemen in the Center, 1 cannon without horses.
    # The mass: 20 men. Part A, the Center: other infantry at 2 x .8 = 1.6: 5 x 1.6 = 8 of the 10 auxiliaries.
    # Part B, the Reserves: light cavalry .5, heavy cavalry .02: none there; other infantry at 1 x .8 = .8: 2 need
    # 2.5 light cavalry; the other 7.5 on pikemen at .1 x .8 = .08: 0.6 -> 1. 11 casualties, none for the victor.
    # Morale (RW-OQ-17): victor 2 x 0 - 11 = -11 -> +3 (3.32 down): 403; loser 22 -> -5 (4.69 up): 95.
    # Captures: the loser's cannon had no horse: taken. The victor's own unhorsed cannons stay his (RW-OQ-23).
    b = Battle(side(ATTACKER, troops("0101", {"light cavalry": 10}, morale=400, cannon=2), factor=F(2)),
               side(DEFENDER, troops("0201", {"pikeman": 20}, morale=100, cannon=1)))
    att, dfd = army_of(b, ATTACKER), army_of(b, DEFENDER)
    clear(att)
    clear(dfd)
    att.divisions["center"]["heavy cavalry"] = 5
    att.divisions["reserves"]["light cavalry"] = 10
    dfd.divisions["left"]["auxiliary"] = 10
    dfd.divisions["center"]["pikeman"] = 10
    b.retreat_stage(5, DEFENDER)
    r = b.finish()
    stage = r.stages[-1]
    assert (stage.number, stage.name) == (5, "retreat")
    assert stage.losses == {DEFENDER: {"auxiliary": 10, "pikeman": 1, "cannon": 1}}
    assert stage.morale == {DEFENDER: 95, ATTACKER: 403}
    assert "    other infantry: 5 × 2 × 2 × 400/1000 = 8 (of 10) → 8 killed (8 auxiliaries)" in stage.lines
    assert r.captured == {"cannon": 1} and r.ducats_share == 0
    assert r.survivors[ATTACKER]["cannon"] == 2 and r.survivors[ATTACKER]["light cavalry"] == 10
    assert (r.victor, r.retreated) == (ATTACKER, DEFENDER)


# ---- elimination, death, "not to be killed" ---------------------------------------------------------------------


def _rout(spare: bool) -> BattleResult:
    # Attacker 100 heavy cavalry (standard: 17 in the Center, Left, Right and Reserves, 16 in each wing).
    # Defender: 2 pikemen (Center 1, Left 1, by the remainder order), 5 slaves, 3 horses, 50 ducats; its commander
    # 0201 is placed by default in the Reserves, which are empty: he goes to the Center. A second persona 0202
    # with only ducats.
    # Stage 4, the defense: each pikeman (x .5) strikes heavy cavalry at .1 x .5 = .05 -> 1: 2 heavy cavalry.
    # The attack: the Left Wing, unopposed (no defending Right Wing) turns on the Right (empty), then the Center:
    # 16 heavy cavalry at 2 x .5 kill its pikeman (.1 needs 10). The Center is eliminated: 0201 dies. Its Right
    # kills the pikeman on the Left: the side is eliminated.
    a = side(ATTACKER, troops("0101", {"heavy cavalry": 100}, horses=100))
    d = side(DEFENDER, troops("0201", {"pikeman": 2, "slave": 5}, horses=3, goods={"ducats": 50}),
             Contingent("0202", "P0202", "0202", goods={"ducats": 10}), spare=spare)
    return fight(a, d)


def test_elimination_kills_the_personae_and_gives_the_victor_everything() -> None:
    r = _rout(spare=False)
    assert r.eliminated == [DEFENDER] and r.victor == ATTACKER and r.stages_fought == 4
    assert r.dead == ["0201", "0202"]
    assert "P0201 dies: the defender's Center was eliminated" in lines(r.stages[3])
    assert r.captured == {"slave": 5, "horse": 3, "ducats": 60}
    assert r.ducats_share == 1
    assert all(q == 0 for q in r.survivors[DEFENDER].values())
    assert r.stages[3].losses[ATTACKER] == {"heavy cavalry": 2, "horse": 2}


def test_a_commander_not_to_be_killed_survives_but_loses_everything() -> None:
    # BATTLE: "the persona being attacked cannot die as a result of the battle" (RW-OQ-07); another persona of
    # his side still dies.
    r = _rout(spare=True)
    assert r.dead == ["0202"]
    assert r.captured == {"slave": 5, "horse": 3, "ducats": 60}


def test_a_persona_dies_with_his_division_while_his_side_fights_on() -> None:
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40})),
               side(DEFENDER, troops("0201", {"pikeman": 40}), troops("0202", {"pikeman": 4}),
                    places={"0202": "left"}))
    dfd = army_of(b, DEFENDER)
    assert dfd.places == {"0201": "reserves", "0202": "left"}
    before = {d: fa.men(div) for d, div in dfd.divisions.items()}
    dfd.divisions["left"] = fa.new_division()
    out: list[str] = []
    b.division_deaths(dfd, before, out)
    assert b.result.dead == ["0202"] and out == ["P0202 dies: the defender's Left was eliminated"]


def test_a_commander_not_to_be_killed_leaves_his_eliminated_division_for_one_with_troops() -> None:
    # Appendix D: "Personae must always be with a division containing troops." A commander who "cannot die as a
    # result of the battle" (BATTLE) outlives his division: he goes where a persona placed without troops goes
    # (RW-OQ-26), the Reserves, or, when they are empty, the occupied division nearest the Center; his own factor
    # (x3, the side's x1) goes with him.
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 40})),
               side(DEFENDER, troops("0201", {"pikeman": 40}), spare=True, factor=F(1), commander_factor=F(3),
                    places={"0201": "left"}))
    dfd = army_of(b, DEFENDER)
    assert dfd.factor("left") == 3  # standard: 10 pikemen in each of Left, Center, Right, Reserves
    before = {d: fa.men(div) for d, div in dfd.divisions.items()}
    dfd.divisions["left"] = fa.new_division()
    out: list[str] = []
    b.division_deaths(dfd, before, out)
    assert b.result.dead == [] and dfd.places["0201"] == "reserves"
    assert out == ["P0201: the defender's Left was eliminated, but he is not to be killed (BATTLE) and survives; "
                   "he goes to the Reserves"]
    assert dfd.factor("reserves") == 3 and dfd.factor("left") == 1
    before = {d: fa.men(div) for d, div in dfd.divisions.items()}
    dfd.divisions["reserves"] = fa.new_division()
    b.division_deaths(dfd, before, out)
    assert dfd.places["0201"] == "center"


def test_a_side_without_men_is_eliminated_at_once() -> None:
    a = side(ATTACKER, troops("0101", {"pikeman": 10}))
    d = side(DEFENDER, troops("0201", {}, cannon=2, goods={"ducats": 5}))
    r = fight(a, d)
    assert r.eliminated == [DEFENDER] and r.dead == ["0201"] and r.stages_fought == 0
    assert r.captured == {"cannon": 2, "ducats": 5}


# ---- dispositions -----------------------------------------------------------------------------------------------


def test_standard_dispositions_divide_each_type_with_the_remainders_nearest_the_center() -> None:
    # RW-OQ-22. 10 pikemen among Left, Center, Right, Reserves: 2 each and 2 over, to the Center and the Left.
    # 11 heavy cavalry among six: 1 each and 5 over: Center, Left, Right, Reserves, Left Wing.
    divs = fd.standard(division(pikeman=10, heavy_cavalry=11))
    assert {d: divs[d]["pikeman"] for d in fa.DIVISIONS} == {
        "left wing": 0, "left": 3, "center": 3, "right": 2, "right wing": 0, "reserves": 2}
    assert {d: divs[d]["heavy cavalry"] for d in fa.DIVISIONS} == {
        "left wing": 2, "left": 2, "center": 2, "right": 2, "right wing": 1, "reserves": 2}


def test_a_legal_arrangement_is_kept_and_what_it_leaves_gets_the_standard() -> None:
    # 100 pikemen: 30 Left, 30 Center, 30 Right (each >= 20% of the infantry); 20 heavy cavalry in the Left
    # Wing. The 10 pikemen left: 2 each, 2 over to the Center and Left: Left 33, Center 33, Right 32, Reserves 2.
    # Total force 120: 15% = 18, met by 33, 33, 32.
    a = side(ATTACKER, troops("0101", {"pikeman": 100, "heavy cavalry": 20}, horses=20),
             dispositions=[("left", "pikeman", 30), ("center", "pikeman", 30), ("right", "pikeman", 30),
                           ("left wing", "heavy cavalry", 20)])
    b = Battle(a, side(DEFENDER, troops("0201", {"pikeman": 4})))
    divs = army_of(b, ATTACKER).divisions
    assert divs["left"] == division(pikeman=33) and divs["center"] == division(pikeman=33)
    assert divs["right"] == division(pikeman=32) and divs["reserves"] == division(pikeman=2)
    assert divs["left wing"] == division(heavy_cavalry=20)
    assert "the attacker: dispositions as ordered" in b.result.notes[-2]


def _refusal(entries: list[tuple[str, str, int]], men: dict[str, int], horses: int = 0, cannon: int = 0) -> str:
    a = side(ATTACKER, troops("0101", men, horses=horses, cannon=cannon), dispositions=entries)
    b = Battle(a, side(DEFENDER, troops("0201", {"pikeman": 4})))
    note = next(n for n in b.result.notes if n.startswith("the attacker: ") and "dispositions" in n)
    # An ignored arrangement gives exactly the standard one.
    mounts = fd.allot_horses(a)
    assert army_of(b, ATTACKER).divisions == fd.standard(fd.fighting_force(a, mounts))
    return note


def test_illegal_or_impossible_arrangements_are_ignored_whole() -> None:
    # Infantry in a wing.
    assert "pikemen may not stand in the Left Wing" in _refusal([("left wing", "pikeman", 10)], {"pikeman": 100})
    # Under 20% of the infantry in the Left: 10 of 100.
    note = _refusal([("left", "pikeman", 10), ("center", "pikeman", 45), ("right", "pikeman", 45)], {"pikeman": 100})
    assert "the Left has 10 of 100 infantry, under 20%" in note
    # Under 15% of the force: 100 pikemen 25 a division and 200 heavy cavalry all in the Reserves: 25 of 300 < 45.
    note = _refusal([("left", "pikeman", 25), ("center", "pikeman", 25), ("right", "pikeman", 25),
                     ("reserves", "pikeman", 25), ("reserves", "heavy cavalry", 200)],
                    {"pikeman": 100, "heavy cavalry": 200}, horses=200)
    assert "the Left has 25 of 300 men, under 15%" in note
    # More than there is; cannons outside the Reserves; no such division.
    assert "only 100 left" in _refusal([("center", "pikeman", 101)], {"pikeman": 100})
    assert "all be assigned to the Reserves" in _refusal([("center", "cannon", 1)], {"pikeman": 100}, cannon=1)
    assert "no division" in _refusal([("middle", "pikeman", 1)], {"pikeman": 100})


def test_horses_go_to_the_wings_first_and_unhorsed_heavy_cavalry_stand_as_pikemen() -> None:
    # 10 heavy cavalry, 6 horses: 6 mounted, 4 unmounted. Ordered: Center 4 heavy cavalry (written first), Left
    # Wing 6: the wings are served first, from the horsed; the Center gets the 4 unhorsed, who are infantry there.
    # 40 pikemen fill the line (standard: 10 each in Left, Center, Right, Reserves): infantry 44, Left 10 >= 8.8,
    # total 50: 15% = 7.5.
    a = side(ATTACKER, troops("0101", {"heavy cavalry": 10, "pikeman": 40}, horses=6),
             dispositions=[("center", "heavy cavalry", 4), ("left wing", "heavy cavalry", 6)])
    b = Battle(a, side(DEFENDER, troops("0201", {"pikeman": 4})))
    divs = army_of(b, ATTACKER).divisions
    assert divs["left wing"] == division(heavy_cavalry=6)
    assert divs["center"] == division(unmounted_heavy_cavalry=4, pikeman=10)
    # 8 heavy cavalry for the Left Wing: only 6 have horses: refused.
    assert "only 6 with horses left" in _refusal([("left wing", "heavy cavalry", 8)],
                                                 {"heavy cavalry": 10, "pikeman": 40}, horses=6)


def test_horses_are_allotted_in_the_text_s_order_whole_allocations_only() -> None:
    # 100 horses: 10 heavy cavalry (90 left), 20 auxiliaries made light cavalry (70), 3 cannons x 20 (10), 5
    # falconets x 1/2 = 2.5 -> 3 horses (7): 14 cargo for 30 wool and 10 timber (40 cargo): 14 x 30/40 = 10.5 and
    # 14 x 10/40 = 3.5 -> 10 and 3, the one left to the first of the tie (wool): 11 and 3. Ducats (no weight) and
    # cattle (they walk) need none.
    s = side(ATTACKER, troops("0101", {"heavy cavalry": 10, "auxiliary": 20}, horses=100, cannon=3, falconet=5,
                              goods={"wool": 30, "timber": 10, "ducats": 1000, "cattle": 10}))
    m = fd.allot_horses(s)
    assert (m.heavy, m.riders, m.cannon, m.falconet) == (10, 20, 3, 5)
    assert m.goods == {"ducats": 1000, "cattle": 10, "wool": 11, "timber": 3}
    assert m.spare == 0
    # 39 horses and 2 cannons: 39 // 20 = 1 cannon horsed (half a team counts for nothing), 19 left for 38
    # falconets; light cavalry the persona holds need no horse (RW-OQ-44).
    s = side(ATTACKER, troops("0101", {"light cavalry": 5}, horses=39, cannon=2, falconet=50))
    m = fd.allot_horses(s)
    assert (m.heavy, m.riders, m.cannon, m.falconet, m.spare) == (0, 0, 1, 38, 0)
    force = fd.fighting_force(s, m)
    assert force["light cavalry"] == 5


def test_a_mounted_auxiliary_fights_as_light_cavalry_and_his_horse_dies_with_him() -> None:
    # 3 auxiliaries, 2 horses: 2 ride as light cavalry, 1 on foot. Two riders killed: two horses lost; the
    # survivors come back as auxiliaries.
    s = side(ATTACKER, troops("0101", {"auxiliary": 3}, horses=2))
    force = fd.fighting_force(s, fd.allot_horses(s))
    assert force["mounted auxiliary"] == 2 and force["auxiliary"] == 1
    assert ff.part_firers("B", force) == 2 and ff.part_firers("D", force) == 1
    b = Battle(s, side(DEFENDER, troops("0201", {"pikeman": 4})))
    att = army_of(b, ATTACKER)
    tally = fa.Tally()
    div = division(mounted_auxiliary=2, auxiliary=1)
    tally.men(att, fa.take(div, 1, "light cavalry"))
    assert tally.items[ATTACKER] == {"auxiliary": 1, "horse": 1} and att.horses == 1


def test_unmounted_heavy_cavalry_fight_as_pikemen_and_come_back_as_heavy_cavalry() -> None:
    # 8 heavy cavalry without a horse stand as infantry (standard: 2 in each of Left, Center, Right, Reserves),
    # are struck as pikemen, strike in part C, and the survivors are heavy cavalry again.
    a = side(ATTACKER, troops("0101", {"heavy cavalry": 8}))
    d = side(DEFENDER, troops("0201", {"pikeman": 400}, cannon=3, gunnery=500))
    b = Battle(a, d)
    assert army_of(b, ATTACKER).divisions["left"] == division(unmounted_heavy_cavalry=2)
    assert ff.part_firers("C", division(unmounted_heavy_cavalry=2, pikeman=1)) == 3
    assert ff.part_firers("A", division(unmounted_heavy_cavalry=2)) == 0
    # The defender's 3 cannons all fire at the line (the attacker has none): 1 a division, on the pikemen's lines:
    # 10% of 2 = 0.2 (0.01 cannon) -> 1; 20% of the 1 left = 0.2 (0.02 cannon) -> 1; nobody left for the rest.
    # 2 a division, 6 in all, and no horse lost with them (they had none).
    stage = fight(a, d).stages[0]
    assert "pikemen: 0.01 × 20 × 500/500 = 0.2 (ceiling 10% of 2) → 1 killed (1 unmounted heavy cavalry)" in lines(
        stage)
    assert stage.losses[ATTACKER] == {"heavy cavalry": 6}
    att = army_of(b, ATTACKER)
    assert b.survivors(att)["heavy cavalry"] == 8 and "unmounted heavy cavalry" not in b.survivors(att)


def test_crop_destroyers_are_left_out_of_the_arrangement_and_join_the_reserves() -> None:
    # CROP DESTRUCTION: 100 auxiliaries held back. The ordered 30/30/40 pikemen is judged on the 100 pikemen alone
    # (with the auxiliaries in the count it would fail the 20% rule: 30 of 200); they join the Reserves at Stage 1.
    a = side(ATTACKER, troops("0101", {"pikeman": 100, "auxiliary": 100}),
             dispositions=[("left", "pikeman", 30), ("center", "pikeman", 30), ("right", "pikeman", 40)],
             held_back={"auxiliary": 100})
    b = Battle(a, side(DEFENDER, troops("0201", {"pikeman": 4})))
    divs = army_of(b, ATTACKER).divisions
    assert divs["left"] == division(pikeman=30) and divs["right"] == division(pikeman=40)
    assert divs["reserves"] == division(auxiliary=100)
    assert any("held back from the arrangement" in n for n in b.result.notes)
    # Held-back heavy cavalry are taken from the unhorsed first.
    force = division(heavy_cavalry=6, unmounted_heavy_cavalry=4)
    held = fd.hold_back(force, {"heavy cavalry": 5})
    assert held == division(unmounted_heavy_cavalry=4, heavy_cavalry=1)
    assert force == division(heavy_cavalry=5)


# ---- who absorbs a loss -----------------------------------------------------------------------------------------


def test_crew_take_no_losses_while_infantry_stands_in_their_division() -> None:
    # NAVIGATION: "In land battle, crew do not suffer losses until all infantry in their division have been lost."
    div = division(auxiliary=10, pikeman=5, crew=10)
    assert fa.available(div, "other infantry") == 10  # pikemen stand: the crew are out of reach
    assert fa.take(div, 12, "other infantry") == {"auxiliary": 10}
    assert fa.available(div, "other infantry") == 0
    assert fa.take(div, 7, "troops") == {"pikeman": 5, "crew": 2}  # the pikemen first, then the crew
    div = division(auxiliary=3, crew=10)
    assert fa.take(div, 5, "other infantry") == {"auxiliary": 3, "crew": 2}
    div = division(light_cavalry=10, crew=10)  # no infantry at all: the crew share with the cavalry
    assert fa.take(div, 4, "troops") == {"light cavalry": 2, "crew": 2}


def test_other_infantry_losses_are_shared_in_proportion() -> None:
    # "In field battle executed by computer, losses inflicted upon "other infantry" are exacted proportionately
    # from auxiliaries, arquebusiers, archers and crew" (RW-OQ-21): 12 lost from 30 auxiliaries, 20 arquebusiers
    # and 10 archers: 12 x 30/60 = 6, 12 x 20/60 = 4, 12 x 10/60 = 2; the pikemen are not other infantry. (The hand
    # rule would take all 12 from the auxiliaries.)
    div = division(auxiliary=30, arquebusier=20, archer=10, pikeman=5)
    assert fa.take(div, 12, "other infantry") == {"archer": 2, "arquebusier": 4, "auxiliary": 6}
    assert div["pikeman"] == 5


def test_garrison_troops_always_take_losses_first() -> None:
    # THE SWORD GARRISONS: "When there is a choice, garrison troops always take losses first." 8 lost: the 5
    # garrison, then 3 shared by 10 pikemen and 10 auxiliaries: 1.5 each -> 1 and 1, the odd one to the first
    # named (pikemen).
    div = division(garrison=5, auxiliary=10, pikeman=10)
    assert fa.take(div, 8, "troops") == {"pikeman": 2, "auxiliary": 1, "garrison": 5}
    div = division(garrison=5, auxiliary=10)
    assert fa.take(div, 3, "other infantry") == {"garrison": 3}
    # They are "treated as auxiliaries": they strike in part D.
    assert ff.part_firers("D", division(garrison=4)) == 4


# ---- a whole battle ---------------------------------------------------------------------------------------------


def test_a_small_battle_by_hand() -> None:
    # Attacker 0101: 10 heavy cavalry, 10 horses, morale 500, retreat value 0. Defender 0201: 20 pikemen, morale
    # 380, retreat value 0, 1 cannon (gunnery 0), 20 horses, 3 wool, 100 ducats.
    # Horses: the attacker's 10 to his heavy cavalry; the defender's 20 to his cannon, none left for the wool.
    # Standard dispositions: attacker 10 heavy cavalry over six: 1 each and 4 over: Center, Left, Right, Reserves
    # 2, the wings 1. Defender 20 pikemen over four: 5 each.
    # Stage 1: the defender's cannon outnumbers the attacker's none: it fires a third at each of Left, Center,
    # Right, killing nothing (gunnery 0); 2% of 1 = 0.02 -> 1 self-destructs. Stages 2, 3: nobody shoots.
    # Stage 4, defense: each line division's 5 pikemen (x .38) strike in part C: no pikemen, no light cavalry,
    # heavy cavalry at .1 x .38 = .038 each: 0.19 -> 1, in each of three divisions: 3 heavy cavalry (3 horses).
    # Attack: its wings are unopposed and flank the defender's Right and Left with doubled morale; its Left,
    # Center and Right engage. Part A, division by division: Left Wing 1 x .1 x 2 x .5 = 0.1 -> 1; Left 0.05 -> 1;
    # Center 1; Right 1; Right Wing 0.1 -> 1: 5 pikemen.
    # Morale: defender 2 x 5 - 3 = 7 -> -3 (2.65 up): 377; attacker 2 x 3 - 5 = 1 -> -1: 499.
    # Retreat test: 377 + 0 < 400: the defender retreats; 499 holds.
    # Stage 5, retreat: a mass of 3 + 4 + 3 + 5 = 15 pikemen; the attacker's 7 heavy cavalry (1 in each forward
    # division, 2 in the Reserves) strike part A at .1 x .499: 0.05 -> 1 each division, the Reserves 0.1 -> 1:
    # 6 killed. Morale: attacker -6 -> +2 (2.45 down): 501; defender 12 -> -4 (3.46 up): 373.
    # Captures: portion 6/15 = 2/5; the 3 wool without horses all; 2/5 x 100 ducats = 40.
    a = side(ATTACKER, troops("0101", {"heavy cavalry": 10}, horses=10))
    d = side(DEFENDER, troops("0201", {"pikeman": 20}, morale=380, cannon=1, horses=20, gunnery=0,
                               goods={"wool": 3, "ducats": 100}))
    r = fight(a, d)
    assert [s.losses for s in r.stages] == [
        {DEFENDER: {"cannon": 1}}, {}, {},
        {ATTACKER: {"heavy cavalry": 3, "horse": 3}, DEFENDER: {"pikeman": 5}},
        {DEFENDER: {"pikeman": 6, "ducats": 40, "wool": 3}}]
    assert [s.morale for s in r.stages] == [
        {DEFENDER: 380, ATTACKER: 500}, {DEFENDER: 380, ATTACKER: 500}, {DEFENDER: 380, ATTACKER: 500},
        {DEFENDER: 377, ATTACKER: 499}, {DEFENDER: 373, ATTACKER: 501}]
    assert (r.outcome, r.victor, r.retreated, r.eliminated) == ("the defender retreated", ATTACKER, DEFENDER, [])
    assert r.captured == {"wool": 3, "ducats": 40} and r.ducats_share == F(2, 5)
    assert r.dead == [] and r.stages_fought == 5
    assert r.morale_start == {ATTACKER: 500, DEFENDER: 380} and r.morale == {ATTACKER: 501, DEFENDER: 373}
    assert r.survivors[ATTACKER]["heavy cavalry"] == 7 and r.survivors[ATTACKER]["horse"] == 7
    assert r.survivors[DEFENDER]["pikeman"] == 9 and r.survivors[DEFENDER]["horse"] == 20
    assert r.survivors[DEFENDER]["ducats"] == 60 and r.survivors[DEFENDER]["wool"] == 0
    assert r.survivors[DEFENDER]["cannon"] == 0
    text = lines(r.stages[3])
    assert "the attacker's Left Wing is unopposed and flanks, morale doubled, the defender's Right" in text
    assert "heavy cavalry: 5 × 0.1 × 380/1000 = 0.19 (of 2) → 1 killed" in text
    assert "retreat test, the defender: morale 377 + retreat value 0 = 377 < 400" in text
    assert "captured portion: 6 casualties of the mass's 15 men = 0.4" in lines(r.stages[4])


def test_the_same_sides_give_the_same_battle_and_are_left_untouched() -> None:
    def sides() -> tuple[Side, Side]:
        a = side(ATTACKER, troops("0101", {"pikeman": 300, "heavy cavalry": 60, "archer": 90, "auxiliary": 100},
                                  cannon=3, horses=100, gunnery=500, goods={"ducats": 1000}), value=100)
        d = side(DEFENDER, troops("0201", {"pikeman": 200, "light cavalry": 50, "arquebusier": 120, "crew": 40},
                                  morale=450, falconet=10, cannon=1, horses=30, gunnery=400), value=60)
        return a, d
    a, d = sides()
    first, second = fight(a, d), fight(a, d)
    assert first == second
    assert (a, d) == sides()
    assert first.stages_fought > 4 and first.victor is not None


def test_a_battle_nobody_can_win_is_broken_off_by_the_engine_s_guard() -> None:
    # Both sides at morale 0 inflict nothing (M = 0) and never fall below their points (retreat value 400): the
    # engine stops after MAX_STAGES stages, no victor (a guard, not a rule of the text).
    a = side(ATTACKER, troops("0101", {"pikeman": 10}, morale=0), value=400)
    d = side(DEFENDER, troops("0201", {"pikeman": 10}, morale=0), value=400)
    r = fight(a, d)
    assert r.stages_fought == MAX_STAGES and r.victor is None and r.outcome.startswith("broken off")
    assert r.survivors[ATTACKER]["pikeman"] == 10


def test_an_arrangement_may_name_divisions_by_number_and_troops_in_the_plural() -> None:
    # The Z code numbers the divisions 1 left wing ... 6 reserves (orderkinds.py).
    assert [fd.place_of(w) for w in ("1", "3", "6", "Left Wing", "reserve", "7")] == [
        "left wing", "center", "reserves", "left wing", "reserves", None]
    assert [fd.item_of(w) for w in ("pikemen", "heavycav", "qqq", "Auxiliaries", "cannons", "slave")] == [
        "pikeman", "heavy cavalry", "arquebusier", "auxiliary", "cannon", None]


def test_no_morale_adjustment_after_a_stage_cut_short_by_the_attacker_s_elimination() -> None:
    # Appendix D: "Morale adjustments are made at the end of each complete stage" (RW-OQ-26). The attacker's one
    # auxiliary stands in his Center (standard: the remainder goes to the Center first); the defender's 20 archers,
    # 5 to each of Left, Center, Right and Reserves. Stage 2, the defense's half: his Center's archers shoot at
    # infantry, .8 x 500/1000 = .4 each, ceiling 10% of 1 = .1 -> .25 archers fire, .1 killed -> 1 (rounded up):
    # the attacker is eliminated in the first half, the stage is never complete. Had it been adjusted, the defender
    # (inflicted 1, suffered 0: 2 x 0 - 1 = -1 -> +1) would end at 501.
    a = side(ATTACKER, troops("0101", {"auxiliary": 1}, morale=500))
    d = side(DEFENDER, troops("0201", {"archer": 20}, morale=500))
    r = fight(a, d)
    assert r.eliminated == [ATTACKER] and r.stages_fought == 2
    assert r.stages[1].losses[ATTACKER] == {"auxiliary": 1}
    assert r.stages[1].morale == {}
    assert r.morale[DEFENDER] == 500


def test_a_side_that_came_below_400_before_the_melee_retreats_at_its_first_opportunity() -> None:
    # MORALE: "Retreat occurs at the first opportunity after the total of morale + feudal rank value of the persona +
    # 10% of his popularity come to less than 400"; Appendix D: "Retreats never occur before the completion of one
    # melee stage" (RW-OQ-16). The defender ends the archery stage at 395 + 0 < 400: not yet (stage 2); by the end of
    # the first melee stage he is back at 410 + 0, yet this is his first opportunity after: he retreats. The
    # attacker, never below (450), holds.
    b = Battle(side(ATTACKER, troops("0101", {"pikeman": 30}, morale=450)),
               side(DEFENDER, troops("0201", {"pikeman": 30}, morale=395)))
    out: list[str] = []
    b.note_reached(out)
    assert b.reached == {DEFENDER}
    assert out == ["the defender: morale 395 + retreat value 0 = 395 < 400: it will retreat at the first "
                   "opportunity, after the first melee stage"]
    b.armies[DEFENDER].morale = 410
    assert b.retreat_test(out) == DEFENDER
    # A side that never came below 400 is not retreated by a total it has not reached.
    fresh = Battle(side(ATTACKER, troops("0101", {"pikeman": 30}, morale=450)),
                   side(DEFENDER, troops("0201", {"pikeman": 30}, morale=410)))
    fresh.note_reached(out)
    assert fresh.reached == set() and fresh.retreat_test(out) is None
