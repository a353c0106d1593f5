"""The Grand Game's arithmetic and chances: the rules' worked figures exactly, each table exactly, and every
probability checked by a seeded statistical test (10^5 draws through the game's own draws, within 4 standard
deviations of the exact chance). Readings: docs/grand-game.md, "Combat, costs and chances"."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from maild_rules.grandgame import air, combat, economy, seasearch
from maild_rules.grandgame.chances import happens
from maild_rules.grandgame.combat import ARMOR, INFANTRY

DRAWS = 10**5


def within_4_sigma(count: int, draws: int, chance: Fraction) -> bool:
    """Whether `count` successes in `draws` trials are within 4 standard deviations of `chance`."""
    p = float(chance)
    return abs(count - draws * p) <= 4 * math.sqrt(draws * p * (1 - p))


# ---- the draw itself --------------------------------------------------------------------------------------

def test_happens_is_one_randrange_below_the_numerator() -> None:
    # random.Random(7).randrange(8) is 5: a chance of 3/8 does not happen, 6/8 does.
    assert random.Random(7).randrange(8) == 5
    assert happens(Fraction(3, 8), random.Random(7)) is False
    assert happens(Fraction(6, 8), random.Random(7)) is True


def test_sure_and_impossible_chances_use_no_draw() -> None:
    rng = random.Random(1)
    state = rng.getstate()
    assert happens(Fraction(1), rng) is True and happens(Fraction(0), rng) is False
    assert rng.getstate() == state


def test_a_chance_outside_0_to_1_is_refused() -> None:
    with pytest.raises(ValueError):
        happens(Fraction(5, 4), random.Random(0))


# ---- the 30:10 example --------------------------------------------------------------------------------------

def test_30_to_10_victory_chances() -> None:
    # "Attacking Army has a combined combat strength of 30, while Defending Army has a combined combat strength
    # of 10. In this example, the strengths are 30:10 in favor of the attack, or 75%:25%."
    # "In the example above, Attacking Army has a 75% chance of winning the battle"
    assert combat.victory_chance(30, 10) == Fraction(3, 4)
    assert combat.victory_chance(10, 30) == Fraction(1, 4)


def test_30_to_10_kill_chances() -> None:
    # "In the example above (75%:25%), Attacking Army has a 37% chance of killing each defending unit, while
    # Defending Army has a 12.5% chance of killing each attacking unit." (37.5% exactly: half of 75%)
    assert combat.kill_chance(30, 10) == Fraction(3, 8)
    assert combat.kill_chance(10, 30) == Fraction(1, 8)
    assert math.floor(combat.kill_chance(30, 10) * 100) == 37


def test_30_to_10_victory_drawn_within_4_sigma() -> None:
    rng = random.Random(2401)
    wins = sum(combat.draw_victory(30, 10, rng) for _ in range(DRAWS))
    assert within_4_sigma(wins, DRAWS, Fraction(3, 4))


def test_30_to_10_kills_drawn_within_4_sigma() -> None:
    # 10 attackers, 4 defenders: each defender dies with 3/8, each attacker with 1/8; the caps (8 and 20 kills)
    # never bind here, so every draw counts.
    rng = random.Random(2402)
    defenders_lost = attackers_lost = 0
    rounds = DRAWS // 4
    for _ in range(rounds):
        battle = combat.fight(30, 10, 4, 4, rng)
        defenders_lost += battle.defenders_lost
        attackers_lost += battle.attackers_lost
    assert within_4_sigma(defenders_lost, 4 * rounds, Fraction(3, 8))
    assert within_4_sigma(attackers_lost, 4 * rounds, Fraction(1, 8))


def test_fight_draws_victory_then_defenders_then_attackers() -> None:
    rng = random.Random(99)
    expected_rng = random.Random(99)
    win = expected_rng.randrange(4) < 3
    defenders = sum(expected_rng.randrange(8) < 3 for _ in range(2))
    attackers = sum(expected_rng.randrange(8) < 1 for _ in range(3))
    assert combat.fight(30, 10, 3, 2, rng) == combat.Battle(win, attackers, defenders)


def test_equal_strengths_a_quarter_per_unit() -> None:
    # GG-OQ-20: "Equivalent forces should not lose more than half of their units" is the expected result: at
    # equal strength each unit dies with 1/4.
    assert combat.kill_chance(12, 12) == Fraction(1, 4)


# ---- the cap ------------------------------------------------------------------------------------------------

def test_kill_cap_two_per_unit() -> None:
    # "The number of possible casualties inflicted per unit is capped at 2, meaning, 1 unit is only capable of
    # killing a maximum of 2 opposing units."
    assert combat.kill_cap(1) == 2
    assert combat.kill_cap(5) == 10


def test_cap_binds_a_lone_unit_against_many() -> None:
    # GG-OQ-20: one armor (4) against 30 unsupplied infantry (30): it kills each with 4/68, but never more than
    # 2 in all; seeds where more than 2 hits were drawn still give 2.
    capped = 0
    for seed in range(300):
        rng = random.Random(seed)
        hits = sum(rng.randrange(17) < 1 for _ in range(30))
        kills = combat.draw_kills(4, 30, 1, 30, random.Random(seed))
        assert kills == min(hits, 2)
        capped += hits > 2
    assert capped > 0


def test_capped_kills_distribution_within_4_sigma() -> None:
    # 1 unit of strength 10 against 5 of strength 10: 1/4 per target, at most 2 kills. P(at most 2 of 5 hit) and
    # the capped mean, exactly from the binomial law.
    p = Fraction(1, 4)
    law = [math.comb(5, k) * p**k * (1 - p) ** (5 - k) for k in range(6)]
    rng = random.Random(2403)
    draws = [combat.draw_kills(10, 10, 1, 5, rng) for _ in range(DRAWS)]
    assert max(draws) == 2
    assert within_4_sigma(draws.count(2), DRAWS, sum(law[2:]))
    assert within_4_sigma(draws.count(0), DRAWS, law[0])


# ---- values and modifiers -----------------------------------------------------------------------------------

def test_base_values_as_the_table() -> None:
    # "| Infantry | 2 | 3 | 5 |", "| Armor | 4 | 2 | 5 |", "| Aircraft | 1 | 1 | 10 |", "| Light Fleet | 2 | 2 |
    # 5 |", "| Heavy Fleet | 4 | 2 | 5 |", "| Unsupplied Unit | 1 | 1 | N/A |"
    table = {kind: (combat.base_value(kind, True), combat.base_value(kind, False)) for kind in combat.BASE_VALUES}
    assert table == {"infantry": (2, 3), "armor": (4, 2), "aircraft": (1, 1), "light fleet": (2, 2),
                     "heavy fleet": (4, 2)}
    assert combat.base_value(INFANTRY, False, supplied=False) == 1
    assert combat.base_value(ARMOR, True, supplied=False) == 1
    # "Aircraft do not require supply."
    assert combat.base_value(combat.AIRCRAFT, True, supplied=False) == 1


def test_terrain_adds_to_defending_infantry_only() -> None:
    # "Cities, Ports, and Mountains add +1 to the combat value of *each* defending infantry."
    # "Terrain modifiers to not give defensive advantages to armor!"
    city = combat.terrain_bonus(city=True)
    assert combat.unit_value(INFANTRY, attacking=False, terrain=city) == 4
    assert combat.unit_value(ARMOR, attacking=False, terrain=city) == 2
    assert combat.unit_value(INFANTRY, attacking=True, terrain=city) == 2


def test_terrain_bonuses_add_up() -> None:
    # GG-OQ-19: "The territory modifiers work together": a city on a mountain +2; across a river +1 more;
    # "When fighting in winter, all defending infantry receive an additional +1."
    assert combat.terrain_bonus(city=True, mountain=True) == 2
    assert combat.terrain_bonus(city=True, mountain=True, crossed={"river"}, winter=True) == 4
    assert combat.terrain_bonus(crossed={"shoreline", "canal"}) == 2
    assert combat.terrain_bonus(winter=True) == 1
    with pytest.raises(ValueError):
        combat.terrain_bonus(crossed={"hedge"})


def test_directional_bonus_only_when_every_attacking_army_crosses() -> None:
    # GG-OQ-19: "when the attacking units fight across them"
    assert combat.crossed_by_all([{"river"}, {"river", "canal"}]) == {"river"}
    assert combat.crossed_by_all([{"river"}, set()]) == set()
    assert combat.crossed_by_all([]) == set()
    # a head-on battle has no defender: attacking infantry get no terrain
    assert combat.unit_value(INFANTRY, attacking=True, terrain=combat.terrain_bonus(crossed={"river"})) == 2


def test_air_superiority_adds_one_to_every_unit_armor_too() -> None:
    # "he adds +1 to the combat value of every unit in the entire air zone"; "Unlike other bonuses, "air
    # superiority" does count towards the defensive bonus of armor."
    assert combat.unit_value(ARMOR, attacking=False, air_superiority=True) == 3
    assert combat.unit_value(ARMOR, attacking=True, air_superiority=True) == 5
    assert combat.unit_value(INFANTRY, attacking=False, terrain=1, air_superiority=True) == 5


def test_unsupplied_units_keep_their_modifiers() -> None:
    # GG-OQ-18: the unsupplied value 1 is a base value; modifiers add to it.
    assert combat.unit_value(INFANTRY, attacking=False, supplied=False, terrain=2) == 3
    assert combat.unit_value(ARMOR, attacking=True, supplied=False, air_superiority=True) == 2


def test_fleet_defending_in_port() -> None:
    # "The defending fleet receives a +1 defensive bonus for fighting within the port."
    assert combat.unit_value(combat.HEAVY_FLEET, attacking=False, in_port=True) == 3
    assert combat.unit_value(combat.HEAVY_FLEET, attacking=True, in_port=True) == 4


# ---- after the battle ---------------------------------------------------------------------------------------

def test_who_holds_the_space() -> None:
    # "if the victorious army "wins" the battle but has no units remaining, they do not take the space."
    assert combat.attacker_takes_space(True, 0, 3) is False
    # "if a defending army "wins" the combat but has no units remaining while the attacking army does, the
    # defense loses the space." (GG-OQ-21: to the attacker)
    assert combat.attacker_takes_space(False, 2, 0) is True
    # "In the event both sides are entirely destroyed, the defender retains control of the territory."
    assert combat.attacker_takes_space(True, 0, 0) is False
    assert combat.attacker_takes_space(True, 1, 4) is True
    assert combat.attacker_takes_space(False, 5, 1) is False


def test_multiway_occupant() -> None:
    # "For land combat, the country with surviving units with the highest total value occupies the territory."
    assert combat.multiway_occupant({"A": 6, "B": 4, "C": 0}, "C") == "A"
    # GG-OQ-22: a tie, or nobody left, leaves the holder.
    assert combat.multiway_occupant({"A": 4, "B": 4}, "C") == "C"
    assert combat.multiway_occupant({"A": 0, "B": 0}, "B") == "B"


def test_supplies_go_where_they_gain_most() -> None:
    # GG-OQ-17: with fewer supplies than units, attacking armor first, defending infantry first.
    stack = [INFANTRY, ARMOR, combat.AIRCRAFT, INFANTRY]
    assert combat.supplied_units(stack, 1, attacking=True) == [False, True, True, False]
    assert combat.supplied_units(stack, 1, attacking=False) == [True, False, True, False]
    assert combat.supplied_units(stack, 9, attacking=False) == [True, True, True, True]
    # "only # infantry will use supply if attacked"
    assert combat.supplied_units(stack, 9, attacking=False, only=2) == [True, False, True, True]


# ---- economy: GDP development -------------------------------------------------------------------------------

# The rules' table, as printed (rows "| Additional GDP | (0 - 40) | (41 - 80) | (81 - 120) | (120+) |").
DEVELOPMENT_AS_PRINTED = """| 1 | 1 | 1 | 1 | 1 |
| 2 | 2 | 2 | 2 | 2 |
| 3 | 3 | 3 | 3 | 4 |
| 4 | 4 | 4 | 5 | 6 |
| 5 | 5 | 6 | 7 | 9 |
| 6 | 7 | 8 | 9 | 12 |
| 7 | 9 | 10 | 12 | 16 |
| 8 | 11 | 12 | 15 | 20 |
| 9 | 13 | 15 | 18 | 25 |
| 10 | 15 | 18 | 21 | 30 |
| 11 | 18 | 21 | 25 | 36 |
| 12 | 21 | 24 | 29 | 42 |
| 13 | 24 | 28 | 33 | 49 |
| 14 | 27 | 32 | 38 | 56 |
| 15 | 30 | 36 | 43 | 64 |
| 16 | 34 | 40 | 48 | 72 |
| 17 | 38 | 45 | 54 | 81 |
| 18 |  | 50 | 60 | 90 |
| 19 |  | 55 | 66 | 100 |
| 20 |  | 60 | 73 | 110 |"""


def test_development_table_exactly() -> None:
    for line in DEVELOPMENT_AS_PRINTED.splitlines():
        points, *cells = [cell.strip() for cell in line.strip("|").split("|")]
        for gdp, cell in zip((20, 60, 100, 150), cells, strict=True):
            assert economy.development_cost(gdp, int(points)) == (int(cell) if cell else None), (points, gdp)


def test_development_worked_example() -> None:
    # "if your country has a GDP of 20 (first column, under "Current GDP", "(0 - 40)") and you wanted to add 8
    # GDP ("Additional GDP" column on the left), you would pay 11 GDP."
    assert economy.development_cost(20, 8) == 11


def test_development_columns_edges() -> None:
    # GG-OQ-11: 40 | 41, 80 | 81, and 120 in "(81 - 120)", 121 in "(120+)".
    assert [economy.development_column(g) for g in (0, 40, 41, 80, 81, 120, 121, 500)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert economy.development_cost(120, 20) == 73 and economy.development_cost(121, 20) == 110


def test_development_beyond_the_table_is_refused() -> None:
    # GG-OQ-11: no price, no purchase; at GDP 40 the 18th point could not be paid anyway (17 cost 38).
    assert economy.development_cost(40, 18) is None
    assert economy.development_cost(500, 21) is None
    assert economy.most_development(40, 40) == 17
    assert economy.development_cost(0, 0) == 0


def test_development_prices_increase_within_the_turn() -> None:
    # "the development points cost increasing amounts *within* the turn"
    for gdp in (20, 60, 100, 150):
        prices = economy.development_prices(gdp)
        assert prices == sorted(prices) and prices[0] == 1
    assert economy.development_prices(20)[:8] == [1, 1, 1, 1, 1, 2, 2, 2]
    assert economy.most_development(20, 11) == 8 and economy.most_development(20, 10) == 7


# ---- economy: politics, research, prices --------------------------------------------------------------------

def test_political_spending_levels_and_rounding() -> None:
    # GG-OQ-04: "Players spend either 0%, 15%, or 30% of their GDP on politics." GG-OQ-12: rounded down.
    assert [economy.political_spending(45, p) for p in (0, 15, 30)] == [0, 6, 13]
    with pytest.raises(ValueError):
        economy.political_spending(45, 10)
    assert economy.political_spending(55, 10, levels=(0, 10, 20, 30)) == 5
    # "You receive the amount of in-game cash equal to your political spending (in GDP)"
    assert economy.political_francs(13) == 13


def test_research_prices_by_turn() -> None:
    # "Turns 1-3: 1 unit costs 1 GDP", "Turns 4-6: 1 unit costs 2 GDP", "Turns 7+: 1 unit costs 3 GDP"
    assert [economy.research_price(t) for t in range(1, 11)] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 3]
    assert economy.research_cost(7, 10) == 30
    # "The bomb costs 300 atomic research units."
    assert not economy.has_bomb(299) and economy.has_bomb(300)


def test_nuclear_secrets_are_not_cumulative() -> None:
    # "if Country A sells his 50 units of atomic research to Country B ... If Country B already had units (say,
    # 10 units), the units are *not* cumulative, so Country B will only have 50 units"
    assert economy.research_after_sale(50, 10) == 50
    assert economy.research_after_sale(50, 0) == 50
    assert economy.research_after_sale(50, 80) == 80  # GG-OQ-13


def test_unit_prices() -> None:
    # "| Infantry | 2 | 3 | 5 |" ... "| Aircraft | 1 | 1 | 10 |" ... "| Supply | N/A | N/A | 1 |"
    assert economy.GDP_PRICES == {"infantry": 5, "armor": 5, "aircraft": 10, "light fleet": 5, "heavy fleet": 5,
                                  "supply": 1}
    assert economy.gdp_cost({"infantry": 2, "aircraft": 1, "supply": 6}) == 26
    # "an infantry costs 10 Francs, a supply 2 Francs"; "Players may only purchase infantry and supply with Francs"
    assert economy.franc_cost({"infantry": 1, "supply": 3}) == 16
    with pytest.raises(ValueError):
        economy.franc_cost({"armor": 1})
    # "1 Franc per territory or unit"; "Supply costs nothing to transfer."
    assert economy.transfer_fee(units=3, territories=2) == 5
    assert economy.RAILROAD_PRICE == 2


def test_league_pool_rounded_down() -> None:
    # "Every 12 Francs contributed instantaneously adds 1 infantry and 1 supply ... Contributions are rounded
    # down." GG-OQ-25: the pool, so 3 players giving 8 each add 2.
    assert economy.league_reinforcements({"A": 8, "B": 8, "C": 8}) == 2
    assert economy.league_reinforcements({"A": 11}) == 0
    assert economy.league_reinforcements({}) == 0
    # "Neutral powers obtain 1 unit and 3 supply on every territory they control."
    assert (economy.NEUTRAL_UNITS, economy.NEUTRAL_SUPPLY) == (1, 3)


def test_start_and_end_figures() -> None:
    # "if he paid $20, he gets 20 Francs; if he paid $50, he gets 50 Francs; if he paid $70, he gets 50 Francs"
    assert [economy.initial_francs(p) for p in (20, 50, 70)] == [20, 50, 50]
    # "20 + their initial GDP's worth of GDP units"
    assert economy.initial_purchase(35) == 55
    # ""Accumulate 400 Francs" and you accumulated 350, your end game score would be 87.5%."
    assert economy.goal_score(350, 400) == Fraction(7, 8)
    assert economy.goal_score(500, 400) == 1


def test_destroy_score_is_the_share_lost() -> None:
    # GG-OQ-27: "divide his starting territories by the number of territories he currently owns" read as the
    # share of his starting territories he has lost: 12 at the start, 3 now, 75%; none left, 100%.
    assert economy.destroy_score(12, 3) == Fraction(3, 4)
    assert economy.destroy_score(12, 0) == 1
    assert economy.destroy_score(12, 12) == 0
    assert economy.destroy_score(12, 15) == 0  # he gained: nothing achieved


# ---- sea search and naval combat ----------------------------------------------------------------------------

def test_search_chances_as_the_text() -> None:
    # "For example, a lone ship has only a 10% chance of finding an enemy armada; 5 ships have a 50% chance; 10
    # ships have a 100% chance."
    assert seasearch.search_chance(1) == Fraction(1, 10)
    assert seasearch.search_chance(5) == Fraction(1, 2)
    assert seasearch.search_chance(10) == 1
    assert seasearch.search_chance(14) == 1
    # "Air superiority guarantees the fleet will be spotted."
    assert seasearch.search_chance(1, air_superiority=True) == 1


def test_engagement_when_either_finds() -> None:
    # "Combat takes place if one fleet finds the other. If neither fleet searches successfully, no combat takes
    # place." 3 ships and 5 ships: 1 - 7/10 x 1/2.
    assert seasearch.engagement_chance(3, 5) == Fraction(13, 20)
    assert seasearch.engagement_chance(10, 1) == 1
    assert seasearch.engagement_chance(0, 0) == 0


@pytest.mark.parametrize("ships", [1, 5])
def test_search_drawn_within_4_sigma(ships: int) -> None:
    # "The probability of finding the enemy is rolled once for the entire armada, not once per unit."
    rng = random.Random(2410 + ships)
    found = sum(seasearch.draw_search(ships, 0, rng).finds for _ in range(DRAWS))
    assert within_4_sigma(found, DRAWS, Fraction(ships, 10))


def test_engagement_drawn_within_4_sigma() -> None:
    rng = random.Random(2412)
    engaged = sum(seasearch.draw_search(3, 5, rng).engaged for _ in range(DRAWS))
    assert within_4_sigma(engaged, DRAWS, Fraction(13, 20))


def test_search_in_port_is_certain_and_draws_nothing() -> None:
    # "Combat in ports automatically triggers an engagement and no "search" roll is necessary."
    rng = random.Random(3)
    state = rng.getstate()
    assert seasearch.draw_search(1, 1, rng, in_port=True).engaged
    assert rng.getstate() == state


def test_naval_battle_has_no_victory_only_kills() -> None:
    # "There is no "Victory" chance in sea combat. The only way to remove ships is by inflicting casualties."
    # 3 heavy fleets at attack (12) against 2 light (4): each light sinks with 12/16/2 = 3/8, each heavy with 1/8.
    rng = random.Random(2413)
    sunk_light = sunk_heavy = 0
    rounds = DRAWS // 2
    for _ in range(rounds):
        battle = seasearch.naval_battle(12, 3, 4, 2, rng)
        sunk_light += battle.enemy_lost
        sunk_heavy += battle.lost
    assert within_4_sigma(sunk_light, 2 * rounds, Fraction(3, 8))
    # the 2 light fleets may sink at most 4 ships: never binding against 3, so each heavy's own chance shows.
    assert within_4_sigma(sunk_heavy, 3 * rounds, Fraction(1, 8))


def test_what_a_fleet_carries() -> None:
    # "Light fleets can carry up to two land units and six supply." "Heavy fleets can base up to one aircraft
    # and six supply."
    assert seasearch.CARGO == {"light fleet": (2, 6), "heavy fleet": (1, 6)}


def test_unloaded_light_fleets_sink_first() -> None:
    # "unloaded light fleets will be sunk before loaded fleets" (GG-OQ-24: empty before loaded, light first)
    fleets = [("light fleet", True), ("heavy fleet", False), ("light fleet", False), ("heavy fleet", True)]
    assert seasearch.sinking_order(fleets) == [2, 1, 0, 3]


# ---- air superiority ----------------------------------------------------------------------------------------

def test_plane_hits_with_one_in_six_within_4_sigma() -> None:
    # "Air units fight each other at 1 attack and 1 defense (out of 6)." (GG-OQ-23)
    rng = random.Random(2420)
    lost = [0, 0]
    rounds = DRAWS // 2
    for _ in range(rounds):
        left = air.air_battle({"A": 1, "B": 1}, rng)
        lost[0] += 1 - left["A"]
        lost[1] += 1 - left["B"]
    assert within_4_sigma(lost[0], rounds, Fraction(1, 6))
    assert within_4_sigma(lost[1], rounds, Fraction(1, 6))


def test_air_battle_draws_in_pairs_and_never_below_zero() -> None:
    rng = random.Random(5)
    expected = random.Random(5)
    hits_on_b = sum(expected.randrange(6) < 1 for _ in range(4))
    hits_on_a = sum(expected.randrange(6) < 1 for _ in range(2))
    assert air.air_battle({"A": 4, "B": 2}, rng) == {"A": 4 - hits_on_a, "B": max(2 - hits_on_b, 0)}
    for seed in range(50):
        assert min(air.air_battle({"A": 9, "B": 1, "C": 1}, random.Random(seed)).values()) >= 0


def test_superiority_and_bombing() -> None:
    # "If one player has more planes than the other, he has "air superiority"."
    assert air.superiority({"A": 5, "B": 2}) == ("A", 3)
    assert air.superiority({"A": 2, "B": 2}) is None
    assert air.superiority({"A": 3}) == ("A", 3)
    assert air.superiority({"A": 0, "B": 0}) is None
    assert air.superiority({"A": 4, "B": 1, "C": 3}) == ("A", 1)  # GG-OQ-23: the lead over the next
    # "Air superiority of 5 planes would do 5 economic damage"; "to a minimum of 0"
    assert air.bombed_value(8, 5) == 3
    assert air.bombed_value(3, 5) == 0


# ---- multi-way and coordinated combat -----------------------------------------------------------------------

def test_multiway_losses_add_up_over_the_pairings() -> None:
    # "Losses are removed from each individual paired in combat (so, for example, if in two separate combats I
    # lose 1 unit and 2 units, I lose a total of 3 units)." The same draws made by hand, pairing by pairing.
    sides = {"A": (10, 5), "B": (6, 3), "C": (4, 2)}
    expected = random.Random(11)
    lost = {"A": 0, "B": 0, "C": 0}
    for a, b in (("A", "B"), ("A", "C"), ("B", "C")):
        lost[b] += combat.draw_kills(sides[a][0], sides[b][0], sides[a][1], sides[b][1], expected)
        lost[a] += combat.draw_kills(sides[b][0], sides[a][0], sides[b][1], sides[a][1], expected)
    lost = {name: min(n, sides[name][1]) for name, n in lost.items()}
    assert combat.multiway_losses(sides, random.Random(11)) == lost


def test_multiway_kills_per_pairing_within_4_sigma() -> None:
    # Each pairing "at full strength": C (1 unit, strength 4) is hit by A (12) with 12/16/2 = 3/8 and by B (4)
    # with 4/8/2 = 1/4, so it survives with 5/8 x 3/4 = 15/32.
    rng = random.Random(2430)
    rounds = DRAWS // 4
    survived = sum(combat.multiway_losses({"A": (12, 4), "B": (4, 2), "C": (4, 1)}, rng)["C"] == 0
                   for _ in range(rounds))
    assert within_4_sigma(survived, rounds, Fraction(15, 32))


def test_shared_losses_fall_first_on_the_owner() -> None:
    # "the player that owns the territory takes as many of the losses as possible"
    assert combat.shared_losses(3, {"A": 2, "B": 5}, "B") == {"A": 0, "B": 3}
    assert combat.shared_losses(6, {"A": 2, "B": 5}, "B") == {"A": 1, "B": 5}
    assert combat.shared_losses(9, {"A": 2, "B": 5}, "A") == {"A": 2, "B": 5}


def test_disputed_losses_fall_on_the_loser_of_their_own_battle() -> None:
    # "the two armies then fight each other at attack strength, and the losing army takes as many of the losses
    # as possible, with cumulative losses for both battles"
    for seed in range(40):
        battle = combat.fight(8, 4, 4, 2, random.Random(seed))
        dispute = combat.disputed_losses(3, ("A", 8, 4), ("B", 4, 2), random.Random(seed))
        loser = "B" if battle.attacker_wins else "A"
        share = combat.shared_losses(3, {"A": 4, "B": 2}, loser)
        assert dispute == combat.Dispute(loser, {"A": min(share["A"] + battle.attackers_lost, 4),
                                                 "B": min(share["B"] + battle.defenders_lost, 2)})
