"""Cities, Tlatoani, citizens and the session's incomes (rules/jungle/cities.py, incomes.py): Tlatoani gold
and food, citizens' beakers, title bonuses, the spending limit and Spend, Propose, Annex, revolts, new
citizens by Fame, demotion by 1/Fame, the kick-off draw, a dead Tlatoani's and citizen's places.

Draws worked by hand: a weighted draw takes one randrange(total of the whole-number weights) and picks the
first item, in the order given (by name), whose running sum exceeds the value; "Random Number" is
randint(1, 100)/100."""

from __future__ import annotations

from fractions import Fraction

import pytest

from maild_rules.jungle import cities, incomes
from maild_rules.jungle.council import HANDLERS, Void
from maild_rules.jungle.deaths import kill
from maild_rules.jungle.model import Character, Title
from tests.jungle_units_fixtures import act, add, aztlan, council, told


def run(c, name: str, keyword: str, **args: object) -> None:
    actor = c.world.characters[name]
    HANDLERS[keyword](c, actor, act(name, keyword, house=actor.house, **args))


# -- incomes ---------------------------------------------------------------------------------------------------
def test_tlatoani_gold_formula() -> None:
    """40 - 12 - 25*3/7 = 28 - 75/7 = 121/7 = 17.28... -> 17 (rounded down, LJ-OQ-15); never below 0:
    10 - 12 - ... -> 0; no citizens at all: the empire's share is 0: 40 - 12 = 28."""
    assert incomes.tlatoani_gold(40, 12, 25, 3, 7) == 17
    assert incomes.tlatoani_gold(10, 12, 25, 3, 7) == 0
    assert incomes.tlatoani_gold(40, 12, 25, 0, 0) == 28
    assert incomes.tlatoani_gold(30, 2, 7, 1, 1) == 21


def test_begin_session_pays_the_tlatoani_the_citizens_and_the_titles() -> None:
    """Tenochtitlan (3 of 4 citizens: Texcoco has 1): income 40, expenses 12, empire expenses 20:
    40 - 12 - 20*3/4 = 13 gold; net food 6 -> house aztec +13 gold, +6 food. Texcoco is a puppet: nothing.
    Beakers per citizen 2: Cuauhtli and Nopal +2 beakers (hammers per citizen 0: none).
    Titles: Xochitl Inventor (2) +2 beakers, Builder (1) +1 hammer; Yaotl Minister (3) and Hero (4):
    Fame 3 + 3 + 4 = 10; a Priest title pays nothing here."""
    w = aztlan()
    t = w.cities["Tenochtitlan"]
    t.income, t.expenses, t.food = 40, 12, 6
    w.empire.expenses = 20
    w.empire.beakers_per_citizen = 2
    x, y = w.characters["Xochitl"], w.characters["Yaotl"]
    x.titles += [Title("Inventor", "Writing", 2), Title("Builder", "Monument", 1)]
    y.titles += [Title("Minister", "Tradition", 3), Title("Hero", "Tlaxcala", 4), Title("Priest", "Tlaloc", 5)]
    c = council(w)
    incomes.begin_session(c)
    assert (w.houses["aztec"].gold, w.houses["aztec"].food) == (13, 6)
    assert w.characters["Cuauhtli"].beakers == 2 and w.characters["Nopal"].beakers == 2
    assert w.characters["Moctezuma"].beakers == 0 and w.characters["Tochtli"].beakers == 0
    assert (x.beakers, x.hammers, y.fame) == (2, 1, 10)
    assert "Moctezuma receives the output of Tenochtitlan: 13 gold, 6 food." in told(c, "aztec")


def test_negative_food_and_gold_cost_the_tlatoani_nothing_and_hammers_per_citizen_pay() -> None:
    w = aztlan()
    t = w.cities["Tenochtitlan"]
    t.income, t.expenses, t.food = 5, 12, -3
    w.houses["aztec"].food = 4
    w.empire.hammers_per_citizen = 1
    w.characters["Cuauhtli"].unit = "Jaguar Warriors"  # a citizen serving in a unit is a citizen still
    incomes.begin_session(council(w))
    assert (w.houses["aztec"].gold, w.houses["aztec"].food) == (0, 4)
    assert w.characters["Cuauhtli"].hammers == 1 and w.characters["Cuauhtli"].beakers == 0
    assert w.characters["Xochitl"].hammers == 0


# -- spending --------------------------------------------------------------------------------------------------
def test_spending_limit_and_spend_within_it_over_the_session() -> None:
    """Treasury 1000; Tenochtitlan 3 of 7 citizens: 3000/7 = 428.57 -> 428 (LJ-OQ-16). Spend 400 in the
    Morning; 29 more would make 429 > 428: void; 28 makes 428: done. The to-do carries each for the GM."""
    w = aztlan()
    w.cities["Texcoco"].citizens = 4
    w.empire.treasury = 1000
    t = w.cities["Tenochtitlan"]
    assert cities.spending_limit(w, t) == 428
    c = council(w)
    run(c, "Moctezuma", "spend", amount=400, on="a Granary")
    with pytest.raises(Void, match="may spend 428 gold this session and has spent 400"):
        run(c, "Moctezuma", "spend", amount=29, on="Warriors")
    run(c, "Moctezuma", "spend", amount=28, on="land")
    assert w.todo == [
        {"kind": "spend", "character": "Moctezuma", "city": "Tenochtitlan", "amount": 400, "text": "a Granary",
         "session": 1},
        {"kind": "spend", "character": "Moctezuma", "city": "Tenochtitlan", "amount": 28, "text": "land",
         "session": 1}]
    w.session = 1  # the next session: a fresh limit
    run(c, "Moctezuma", "spend", amount=428, on="Walls")
    assert cities.spent(w, t, 2) == 428


def test_only_a_tlatoani_spends_or_proposes() -> None:
    w = aztlan()
    w.empire.treasury = 100
    c = council(w)
    with pytest.raises(Void, match="not a Tlatoani"):
        run(c, "Cuauhtli", "spend", amount=1, on="x")
    with pytest.raises(Void, match="not a Tlatoani"):
        run(c, "Cuauhtli", "propose", text="peace with Tlaxcala")
    with pytest.raises(Void, match="name the amount"):
        run(c, "Moctezuma", "spend", amount=0, on="x")


def test_propose_goes_to_the_gm() -> None:
    w = aztlan()
    c = council(w)
    run(c, "Moctezuma", "propose", text="open borders with Tlaxcala", nation="Tlaxcala")
    assert w.proposals == [{"kind": "proposal", "character": "Moctezuma", "city": "Tenochtitlan",
                            "nation": "Tlaxcala", "text": "open borders with Tlaxcala", "session": 1}]
    assert "proposes a diplomatic agreement to Tlaxcala" in told(c)


def test_annex_makes_a_citizen_of_a_puppet_city_its_tlatoani() -> None:
    """"A citizen in a puppet city may annex the city, becoming Tlatoani of the new city."""
    w = aztlan()
    c = council(w)
    with pytest.raises(Void, match="not a puppet city"):
        run(c, "Cuauhtli", "annex")
    add(w, Character("Tlaco", "aztec", city="Texcoco", hex="X0"))
    with pytest.raises(Void, match="not a citizen"):
        run(c, "Tlaco", "annex")
    run(c, "Nopal", "annex")
    x = w.cities["Texcoco"]
    n = w.characters["Nopal"]
    assert (x.puppet, x.tlatoani, n.role, n.hex) == (False, "Nopal", "tlatoani", "X0")
    assert w.characters["Tlaco"].landlord == "Nopal"  # "A peasant residing in the city hex will be a tenant"
    assert w.todo[-1]["kind"] == "annex"


# -- revolts ---------------------------------------------------------------------------------------------------
def test_revolt_chance() -> None:
    """abs|City Happiness/100|: -30 -> 3/10; -150 -> 3/2, at most 1 (LJ-OQ-13); 0 and above -> 0."""
    assert cities.revolt_chance(-30) == Fraction(3, 10)
    assert cities.revolt_chance(-150) == 1
    assert cities.revolt_chance(0) == 0 and cities.revolt_chance(12) == 0


def test_a_revolt_crowns_a_resident_by_fame_and_the_old_tlatoani_takes_his_hex() -> None:
    """Happiness -30: Random Number 30/100 <= 3/10 -> revolt. Residents but Moctezuma, by name: Cuauhtli
    (Fame 4), Tochtli (0), Xochitl (1), Yaotl (3): total 8; randrange(8) = 6: 6-4 = 2, 2-0, 2-1 = 1 < 3 ->
    Yaotl, from T3. Moctezuma becomes a peasant on T3 (LJ-OQ-14)."""
    w = aztlan()
    w.cities["Tenochtitlan"].happiness = -30
    c = council(w, [30, 6])
    assert cities.revolts(c) == ["Tenochtitlan"]
    assert c.rng.calls == [("randint", 1, 100), ("randrange", 0, 8)]
    m, y = w.characters["Moctezuma"], w.characters["Yaotl"]
    assert w.cities["Tenochtitlan"].tlatoani == "Yaotl"
    assert (y.role, y.hex) == ("tlatoani", "T0")
    assert (m.role, m.hex) == ("peasant", "T3")


def test_no_revolt_above_the_chance_nor_in_a_happy_city() -> None:
    """Happiness -30 and Random Number 31/100 > 3/10: nothing. Happiness 0: no roll at all (the scripted
    RNG would run out); Texcoco is a puppet (no Tlatoani) and is not rolled."""
    w = aztlan()
    w.cities["Tenochtitlan"].happiness = -30
    w.cities["Texcoco"].happiness = -80
    c = council(w, [31])
    assert cities.revolts(c) == []
    assert c.rng.done and w.cities["Tenochtitlan"].tlatoani == "Moctezuma"
    w.cities["Tenochtitlan"].happiness = 0
    assert cities.revolts(council(w)) == []


def test_a_revolt_below_minus_100_is_certain() -> None:
    """-150: chance 1, even the Random Number 100/100 revolts; randrange(8) = 0 -> Cuauhtli (Fame 4), who
    came from T1: Moctezuma is a peasant on T1 (Cuauhtli's land: his tenant)."""
    w = aztlan()
    w.cities["Tenochtitlan"].happiness = -150
    c = council(w, [100, 0])
    assert cities.revolts(c) == ["Tenochtitlan"]
    m = w.characters["Moctezuma"]
    assert w.cities["Tenochtitlan"].tlatoani == "Cuauhtli"
    assert (m.role, m.hex, m.landlord) == ("peasant", "T1", "Cuauhtli")


# -- citizens ----------------------------------------------------------------------------------------------------
def test_new_citizens_are_drawn_by_fame_among_the_peasants_of_the_city() -> None:
    """Tenochtitlan's peasants by name: Tochtli (Fame 0), Xochitl (1), Yaotl (3): total 4. randrange(4) = 0:
    0 < 0? no (Tochtli), 0 < 1 -> Xochitl, citizen of T2, the tile she lives on (nobody's). Second:
    Tochtli 0, Yaotl 3: randrange(3) = 2 -> Yaotl, citizen of T3. No free tile left and one specialist slot:
    the third, Tochtli (alone, Fame 0: randrange(1)), becomes a specialist; a fourth finds no room."""
    w = aztlan()
    c = council(w, [0, 2, 0])
    chosen = cities.new_citizens(c, w.cities["Tenochtitlan"], 4)
    assert [ch.name for ch in chosen] == ["Xochitl", "Yaotl", "Tochtli"]
    assert c.rng.done
    t = w.cities["Tenochtitlan"]
    assert (t.hexes["T2"].citizen, t.hexes["T3"].citizen) == ("Xochitl", "Yaotl")
    assert [w.characters[n].role for n in ("Xochitl", "Yaotl", "Tochtli")] == ["citizen", "citizen", "specialist"]
    assert w.characters["Tochtli"].landlord is None


def test_a_new_citizen_on_owned_land_moves_to_a_free_tile() -> None:
    """Only Tochtli (Cuauhtli's tenant on T1) is a peasant: drawn (randrange(1) = 0); the free tiles are T2,
    T3 (Xochitl and Yaotl made soldiers): randrange(2) = 1 -> T3."""
    w = aztlan()
    for n in ("Xochitl", "Yaotl"):
        w.characters[n].unit, w.characters[n].role = "Jaguar Warriors", "soldier"
    c = council(w, [0, 1])
    cities.new_citizens(c, w.cities["Tenochtitlan"], 1)
    t = w.characters["Tochtli"]
    assert (t.role, t.hex, t.landlord) == ("citizen", "T3", None)
    assert w.cities["Tenochtitlan"].hexes["T3"].citizen == "Tochtli"


def test_demotion_is_weighted_by_one_over_fame() -> None:
    """Citizens of Tenochtitlan by name: Cuauhtli (Fame 4), Itzel (Fame 2): weights 1/4, 1/2 = 1/4, 2/4 ->
    1, 2, total 3. randrange(3) = 1: 1 >= 1 (Cuauhtli), 0 < 2 -> Itzel, demoted: her land T3 is nobody's."""
    w = aztlan()
    add(w, Character("Itzel", "aztec", fame=2, role="citizen", city="Tenochtitlan", hex="T3"))
    w.cities["Tenochtitlan"].hexes["T3"].citizen = "Itzel"
    c = council(w, [1])
    assert cities.demote(c, w.cities["Tenochtitlan"]).name == "Itzel"
    assert c.rng.calls == [("randrange", 0, 3)]
    assert w.characters["Itzel"].role == "peasant"
    assert w.cities["Tenochtitlan"].hexes["T3"].citizen is None


def test_a_citizen_with_fame_0_is_demoted_for_certain() -> None:
    """1/Fame with Fame 0 is infinite (LJ-OQ-11): Itzel (Fame 0) against Cuauhtli (Fame 4) is demoted, the
    draw being among the Fame-0 citizens only (one: randrange(1) = 0). Cuauhtli's tenant Tochtli is
    untouched."""
    w = aztlan()
    add(w, Character("Itzel", "aztec", fame=0, role="citizen", city="Tenochtitlan", hex="T3"))
    w.cities["Tenochtitlan"].hexes["T3"].citizen = "Itzel"
    c = council(w, [0])
    assert cities.demote(c, w.cities["Tenochtitlan"]).name == "Itzel"
    assert c.rng.calls == [("randrange", 0, 1)]
    assert w.characters["Tochtli"].landlord == "Cuauhtli"


def test_citizens_changed_by_the_gm_draws_or_demotes() -> None:
    """Texcoco's citizens 1 -> 0 (a citizen starved in the game): its one citizen Nopal is demoted (Fame 2,
    alone: randrange(1) = 0). Tenochtitlan 3 -> 4: one new citizen, randrange(4) = 3 -> Yaotl (Tochtli 0,
    Xochitl 1, Yaotl 3: 3-0-1 = 2 < 3)."""
    w = aztlan()
    c = council(w, [0, 3])
    cities.citizens_changed(c, w.cities["Texcoco"], 1, 0)
    cities.citizens_changed(c, w.cities["Tenochtitlan"], 3, 4)
    assert w.characters["Nopal"].role == "peasant"
    assert w.characters["Yaotl"].role == "citizen"
    assert (w.cities["Texcoco"].citizens, w.cities["Tenochtitlan"].citizens) == (0, 4)


# -- deaths ------------------------------------------------------------------------------------------------------
def test_a_dead_tlatoani_is_succeeded_by_fame() -> None:
    """Moctezuma dies; residents by name Cuauhtli 4, Tochtli 0, Xochitl 1, Yaotl 3 (total 8): randrange(8) = 4
    -> 4-4 = 0, 0 < 0? no, 0 < 1 -> Xochitl, Tlatoani on T0."""
    w = aztlan()
    c = council(w, [4])
    kill(c, w.characters["Moctezuma"], "killed in a duel")
    assert w.cities["Tenochtitlan"].tlatoani == "Xochitl"
    assert w.characters["Xochitl"].hex == "T0"


def test_a_dead_citizens_place_goes_to_a_new_citizen() -> None:
    """Cuauhtli dies: his land T1 is nobody's and Tochtli, no longer a tenant, lives there. The city still
    has its citizens, so one is drawn: Tochtli 0, Xochitl 1, Yaotl 3, randrange(4) = 0 -> Xochitl (she owns
    T2 where she lives)."""
    w = aztlan()
    c = council(w, [0])
    kill(c, w.characters["Cuauhtli"], "starved")
    assert w.characters["Xochitl"].role == "citizen"
    assert w.cities["Tenochtitlan"].hexes["T1"].citizen is None
    assert w.characters["Tochtli"].landlord is None


# -- the kick-off ----------------------------------------------------------------------------------------------
def test_kick_off_weighted_by_fame() -> None:
    """Everyone out of units, by name: Cuauhtli 4, Moctezuma 9, Nopal 2, Tochtli 0, Xochitl 1, Yaotl 3 (more
    than 2 with Fame: weighted), total 19. randrange(19) = 14: 14-4 = 10, 10-9 = 1, 1-2 < 0 -> Nopal, the
    Tlatoani of the capital Tenochtitlan. Left total 17: randrange(17) = 16: 16-4-9-0-1 = 2 < 3 -> Yaotl,
    citizen of T3 where he lives."""
    w = aztlan()
    t = w.cities["Tenochtitlan"]
    t.tlatoani, t.hexes["T1"].citizen = None, None
    for n in ("Moctezuma", "Cuauhtli", "Nopal"):
        w.characters[n].role = "peasant"
    w.cities["Texcoco"].hexes["X1"].citizen = None
    c = council(w, [14, 16])
    drawn = cities.kick_off(c)
    assert [d.name for d in drawn] == ["Nopal", "Yaotl"]
    assert c.rng.calls == [("randrange", 0, 19), ("randrange", 0, 17)]
    assert w.kicked_off and t.tlatoani == "Nopal"
    assert (w.characters["Nopal"].city, w.characters["Nopal"].hex) == ("Tenochtitlan", "T0")
    assert w.characters["Yaotl"].role == "citizen" and t.hexes["T3"].citizen == "Yaotl"


def test_kick_off_unweighted_when_fewer_than_two_have_fame() -> None:
    """Only Ana has Fame: "not at least 2 characters with some Fame" -> unweighted: Ana, Beto, Caco by name,
    randrange(3) = 2 -> Caco Tlatoani, randrange(2) = 0 -> Ana citizen, of her own tile T2."""
    w = aztlan()
    w.characters.clear()
    t = w.cities["Tenochtitlan"]
    t.tlatoani, t.hexes["T1"].citizen = None, None
    add(w, Character("Ana", "aztec", fame=5, city="Tenochtitlan", hex="T2"))
    add(w, Character("Beto", "mexica", city="Tenochtitlan", hex="T3"))
    add(w, Character("Caco", "olmeca", city="Tenochtitlan", hex="T1"))
    c = council(w, [2, 0])
    assert [d.name for d in cities.kick_off(c)] == ["Caco", "Ana"]
    assert c.rng.calls == [("randrange", 0, 3), ("randrange", 0, 2)]
    assert t.hexes["T2"].citizen == "Ana" and t.tlatoani == "Caco"
    assert w.characters["Beto"].landlord is None


def test_handlers_are_registered() -> None:
    import maild_rules.jungle.handlers  # noqa: F401

    assert {"spend", "propose", "annex", "enlist", "order", "desert", "disband", "retire"} <= set(HANDLERS)


def test_a_citizen_dying_in_a_unit_is_replaced_in_the_city_of_his_land() -> None:
    """Cuauhtli (owner of T1 in Tenochtitlan) enlisted; the GM's update names the city by name. He dies in
    his unit: T1 is freed and Tenochtitlan draws a citizen: Tochtli 0, Xochitl 1, Yaotl 3, randrange(4) = 3
    -> 3-0-1 = 2 < 3: Yaotl. The update then lowers Tenochtitlan 3 -> 2 by name: citizens Cuauhtli is dead,
    Yaotl (Fame 3) alone: randrange(1) = 0, demoted."""
    w = aztlan()
    cu = w.characters["Cuauhtli"]
    cu.unit, cu.city, cu.hex = "Jaguar Warriors", "Tenochtitlan", None
    c = council(w, [3, 0])
    kill(c, cu, "killed in battle")
    assert w.characters["Yaotl"].role == "citizen"
    assert w.cities["Tenochtitlan"].hexes["T1"].citizen is None
    cities.citizens_changed(c, "tenochtitlan", 3, 2)
    assert w.characters["Yaotl"].role == "peasant" and c.rng.done


def test_income_goes_to_the_store_of_the_house_joined() -> None:
    """House aztec joined mexica ("a single house for all game purposes"): Moctezuma's 28 gold (40 - 12, no
    empire expenses) goes to mexica's store."""
    w = aztlan()
    w.houses["aztec"].joined = "mexica"
    t = w.cities["Tenochtitlan"]
    t.income, t.expenses = 40, 12
    incomes.begin_session(council(w))
    assert (w.houses["aztec"].gold, w.houses["mexica"].gold) == (0, 28)


def test_slaves_and_soldiers_are_never_drawn_to_rise() -> None:
    """LJ-OQ-12: Yaotl is Cuauhtli's slave and Xochitl a soldier: of Tenochtitlan's peasants only Tochtli is
    left (Fame 0, alone: randrange(1) = 0); he lives on Cuauhtli's T1, so he gets a free tile, T2 or T3:
    randrange(2) = 0 -> T2. Then nobody is left: a second citizen is not drawn (no third value taken)."""
    w = aztlan()
    w.characters["Yaotl"].titles.append(Title("Slave", "Cuauhtli"))
    x = w.characters["Xochitl"]
    x.unit, x.role, x.hex = "Jaguar Warriors", "soldier", None
    c = council(w, [0, 0, 7])
    assert [ch.name for ch in cities.new_citizens(c, "Tenochtitlan", 2)] == ["Tochtli"]
    assert c.rng.values == [7] and w.characters["Tochtli"].hex == "T2"


def test_a_revolt_with_nobody_to_crown_leaves_the_throne_empty() -> None:
    """Texcoco annexed by Nopal, its only resident; happiness -50, Random Number 0.50 <= 1/2: the mob removes
    him, nobody is left to crown: the throne is empty; Nopal, still owning X1, is a citizen on the city hex."""
    w = aztlan()
    run(council(w), "Nopal", "annex")
    w.cities["Texcoco"].happiness = -50
    c = council(w, [50])
    assert cities.revolts(c) == ["Texcoco"]
    n = w.characters["Nopal"]
    assert w.cities["Texcoco"].tlatoani is None
    assert (n.role, n.hex) == ("citizen", "X0")
