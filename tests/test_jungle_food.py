"""FOOD: need, rations, the Evening meal, hunger and starvation, worked by hand."""

from __future__ import annotations

from fractions import Fraction

from maild_rules.jungle.attacks import enslave
from maild_rules.jungle.food import eat, food_need, hunger_loss, ration
from maild_rules.jungle.model import Character
from tests.jungle_fixtures import ScriptedRandom, council_of, person, small_world

F = Fraction


def need(xp: int, fame: int = 0) -> int:
    return food_need(Character("n", "h", xp=xp, fame=fame))


def test_food_need_is_the_rounded_up_root():
    # sqrt((XP+Fame)/10) rounded up: 1/10 -> 0.32 -> 1; 10 -> 1; 11 -> 1.05 -> 2; 40 -> 2; 41 -> 2.02 -> 3
    assert [need(1), need(10), need(11), need(40), need(41), need(90), need(91)] == [1, 1, 2, 2, 3, 3, 4]
    assert need(20, 20) == 2  # XP and Fame add: sqrt(4) = 2
    # exact at any size: 10 * (10**8)**2 is exactly (10**8)**2 * 10; one more needs one more food
    n = 10**8
    assert need(10 * n * n) == n and need(10 * n * n + 1) == n + 1


def test_rations():
    w = small_world()
    assert ration(person(w, "S", "ana", unit="Jaguars")) == 1
    assert ration(person(w, "P", "ana", role="specialist")) == 3
    assert ration(person(w, "Q", "ana")) == 0


def test_hunger_loss_formula():
    assert hunger_loss(10, 2, 3, F(1, 2)) == 5  # 10 * 2/3 * 1.5 * 0.5 = 5
    assert hunger_loss(7, 1, 2, F(3, 10)) == 1  # 7 * 1/2 * 1.5 * 0.3 = 1.575
    assert hunger_loss(2, 3, 3, F(1)) == 2  # 3, but no more than his XP


def test_enough_food_no_draw():
    """ana: Aca XP 20 Fame 20 needs 2; Bel, a soldier XP 11, needs 2, the ration covers 1: 1 from the house;
    Coa, a specialist XP 30 Fame 50, needs 3 = his ration. The house gives 3 of its 5: 2 left. Nothing drawn."""
    w = small_world()
    w.houses["ana"].food = 5
    person(w, "Aca", "ana", xp=20, fame=20)
    person(w, "Bel", "ana", xp=11, unit="Jaguars")
    person(w, "Coa", "ana", xp=30, fame=50, role="specialist")
    c = council_of(w, ScriptedRandom(), part="evening")
    eat(c)
    assert w.houses["ana"].food == 2
    assert "eats 3 food" in c.reports[0].text


def test_short_house_random_feeding_order_and_hunger():
    """ben has 3 food for Dov (XP 40: 2), Eme (XP 41: 3), Fen (XP 1: 1), 6 in all. The feeding order (by name
    D, E, F to draw from): randrange(3) = 2 -> Fen, randrange(2) = 0 -> Dov, then Eme. Fen eats 1, Dov 2, Eme
    nothing: 3 short of 3; he loses 41 * 3/3 * 1.5 * 0.60 = 36.9 -> 36 XP: 5 left."""
    w = small_world()
    w.houses["ben"].food = 3
    d = person(w, "Dov", "ben", xp=40)
    e = person(w, "Eme", "ben", xp=41)
    f = person(w, "Fen", "ben", xp=1)
    rng = ScriptedRandom(2, 0, 60)
    eat(council_of(w, rng, part="evening"))
    assert rng.values == []
    assert (d.xp, e.xp, f.xp, w.houses["ben"].food) == (40, 5, 1, 0)


def test_partly_short_character():
    """cal has 2 food for Gil (XP 41: 3) and Hua (XP 11: 2). Order: randrange(2) = 0 -> Gil eats 2, 1 short;
    Hua 2 short. Hunger by name: Gil 41 * 1/3 * 1.5 * 0.50 = 10.25 -> 10; Hua 11 * 2/2 * 1.5 * 0.10 = 1.65 ->
    1."""
    w = small_world()
    w.houses["cal"].food = 2
    g = person(w, "Gil", "cal", xp=41)
    h = person(w, "Hua", "cal", xp=11)
    eat(council_of(w, ScriptedRandom(0, 50, 10), part="evening"))
    assert (g.xp, h.xp) == (31, 10)


def test_starvation_kills_and_the_slave_eats_from_his_own_house():
    """Tochtli of ben, a slave of Xolotl (ana): ben has no food; Tochtli needs 1 (XP 1), is 1 short: 1 * 1/1 *
    1.5 * 0.70 = 1.05 -> 1: XP 0, he starves. ana's 4 food feed Xolotl (XP 1: 1) only."""
    w = small_world()
    w.houses["ana"].food = 4
    x = person(w, "Xolotl", "ana")
    t = person(w, "Tochtli", "ben")
    enslave(w, t, x)
    c = council_of(w, ScriptedRandom(70), part="evening")
    eat(c)
    assert not t.alive and x.alive
    assert w.houses["ana"].food == 3
    assert any("starved" in r.text for r in c.reports)


def test_joined_houses_eat_from_one_store():
    """ben joined ana: "a single house for all game purposes". Aca (ana, XP 40: 2) and Bel (ben, XP 1: 1) eat 3
    from ana's store of 3; ben's own record is not touched; nobody is short, nothing is drawn."""
    w = small_world()
    w.houses["ana"].food = 3
    w.houses["ben"].joined, w.houses["ben"].food = "ana", 7
    person(w, "Aca", "ana", xp=40)
    person(w, "Bel", "ben")
    c = council_of(w, ScriptedRandom(), part="evening")
    eat(c)
    assert (w.houses["ana"].food, w.houses["ben"].food) == (0, 7)
    assert {r.house for r in c.reports} == {"ana", "ben"}
