"""AZTEC GODS: festival, offerings, sacrifices, Priest titles and blessings, worked by hand.

Random Numbers are scripted d100 rolls read as hundredths (ScriptedRandom's randint)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from maild_rules.jungle.attacks import enslave
from maild_rules.jungle.council import Void
from maild_rules.jungle.gods import (
    add_priest_title,
    blessing,
    draw_festival,
    god_named,
    offering,
    priest_blessings,
    sacrifice,
    sacrifice_value,
)
from maild_rules.jungle.model import GODS, Title
from tests.jungle_fixtures import ScriptedRandom, act, council_of, person, small_world

F = Fraction


def test_festival_is_one_of_the_four_equally():
    # rng.randrange(4) indexes (Huitzilopochtli, Quetzalcoatl, Tezcatlipoca, Tlaloc) (LJ-OQ-41)
    assert [draw_festival(ScriptedRandom(i)) for i in range(4)] == list(GODS)


def test_gods_spellings():
    assert {god_named(n) for n in ("Hutzilopochtli", "huitzilopochtli", "Hutizilopochtli", "Hutzilopochltli",
                                   "the God of War")} == {"Huitzilopochtli"}
    with pytest.raises(Void):
        god_named("Zeus")


def test_blessing_formula():
    assert blessing(10, F(1, 2), True) == 15  # 10 * 0.5 * 1.5 * 2
    assert blessing(10, F(1, 2), False) == 7  # 7.5
    assert blessing(10, F(33, 100), False) == 4  # 4.95


def test_sacrifice_values_as_printed():
    w = small_world()
    v = person(w, "V", "ana", xp=12, wisdom=8, fame=3)
    assert sacrifice_value("Huitzilopochtli", v, True) == 4  # sqrt(12 * 2) = 4.90
    assert sacrifice_value("Huitzilopochtli", v, False) == 3  # sqrt(12) = 3.46
    assert sacrifice_value("Quetzalcoatl", v, False) == 2  # sqrt(8) = 2.83
    assert sacrifice_value("Tezcatlipoca", v, True) == 2  # sqrt(6) = 2.45
    assert sacrifice_value("Tlaloc", v, False) == 0  # sqrt(10 - 12): imaginary, zero (LJ-OQ-45)
    assert sacrifice_value("Tlaloc", v, True) == 2  # sqrt(20 - 12) = 2.83
    child = person(w, "C", "ana", xp=3)
    assert sacrifice_value("Tlaloc", child, False) == 2  # sqrt(10 - 3) = 2.65
    assert sacrifice_value("Tlaloc", child, True) == 4  # sqrt(20 - 3) = 4.12
    v.titles.append(Title("Defiant Slave", n=3))
    assert sacrifice_value("Quetzalcoatl", v, False) == 5  # 2 + the defiance N 3, after the root (LJ-OQ-44)


def test_priest_titles_sum_per_god():
    w = small_world()
    p = person(w, "P", "ana")
    add_priest_title(p, "Tlaloc", 2)
    add_priest_title(p, "Tlaloc", 3)
    add_priest_title(p, "Quetzalcoatl", 1)
    assert [t.label() for t in p.titles] == ["Priest of Tlaloc (5)", "Priest of Quetzalcoatl (1)"]


def test_offering_of_fame_at_the_festival():
    """Fame 10, offers 4 to Tezcatlipoca at his festival: 4 * 0.50 * 1.5 * 2 = 6: 10 - 4 + 6 = 12."""
    w = small_world()
    w.festival = "Tezcatlipoca"
    x = person(w, "Xolotl", "ana", fame=10)
    offering(council_of(w, ScriptedRandom(50)), x, act(x, "offering", god="Tezcatlipoca", amount=4))
    assert x.fame == 12


def test_offering_of_food_to_tlaloc_outside_his_festival():
    """The house's food 10, all offered: 10 * 0.33 * 1.5 = 4.95 -> 4."""
    w = small_world()
    w.festival = "Quetzalcoatl"
    w.houses["ana"].food = 10
    x = person(w, "Xolotl", "ana")
    offering(council_of(w, ScriptedRandom(33)), x, act(x, "offering", god="Tlaloc", amount=10))
    assert w.houses["ana"].food == 4


def test_offering_more_than_one_has_is_void_all_xp_kills():
    w = small_world()
    x = person(w, "Xolotl", "ana", xp=3, wisdom=2)
    with pytest.raises(Void, match="cannot offer 3 Wisdom"):
        offering(council_of(w, ScriptedRandom()), x, act(x, "offering", god="Quetzalcoatl", amount=3))
    c = council_of(w, ScriptedRandom())
    offering(c, x, act(x, "offering", god="Huitzilopochtli", amount=3))
    assert not x.alive  # "A character with 0 XP immediately dies": no blessing drawn


def test_sacrifice_of_a_defiant_slave_at_the_festival_then_a_housemate():
    """Tochtli XP 9, Defiant Slave (2), owned by Xolotl: sqrt(9 * 2) = 4.24 -> 4, + 2 = 6: Priest of
    Huitzilopochtli (6). Then his own Nene, XP 4, to the same god outside his festival: sqrt(4) = 2: (6+2) = (8)."""
    w = small_world()
    w.festival = "Huitzilopochtli"
    x = person(w, "Xolotl", "ana")
    t = person(w, "Tochtli", "ben", xp=9, titles=[Title("Defiant Slave", n=2)])
    enslave(w, t, x)
    c = council_of(w, ScriptedRandom())
    sacrifice(c, x, act(x, "sacrifice", victim="Tochtli", god="Hutzilopochtli"))
    assert not t.alive
    assert x.title("Priest", "Huitzilopochtli").n == 6
    w.festival = "Tlaloc"
    nene = person(w, "Nene", "ana", xp=4)
    sacrifice(c, x, act(x, "sacrifice", victim="Nene", god="Huitzilopochtli"))
    assert not nene.alive and x.title("Priest", "Huitzilopochtli").label() == "Priest of Huitzilopochtli (8)"


def test_sacrifice_only_own_or_owned_and_here():
    w = small_world()
    x = person(w, "Xolotl", "ana")
    person(w, "Stranger", "ben")
    person(w, "Far", "ana", city="Texcoco", hex="X1")
    c = council_of(w, ScriptedRandom())
    with pytest.raises(Void, match="neither"):
        sacrifice(c, x, act(x, "sacrifice", victim="Stranger", god="Tlaloc"))
    with pytest.raises(Void, match="same location"):
        sacrifice(c, x, act(x, "sacrifice", victim="Far", god="Tlaloc"))
    with pytest.raises(Void, match="himself"):
        sacrifice(c, x, act(x, "sacrifice", victim="Xolotl", god="Tlaloc"))


def test_priest_blessings_at_the_festival():
    """Festival of Quetzalcoatl; priests by name: Ana (N 5) 5 * 0.50 = 2.5 -> 2, Bo (N 3) 3 * 1.00 = 3; Cy, a
    priest of Tlaloc, gets nothing; at Tlaloc's festival Cy's N 4 * 0.75 = 3 food goes to his house."""
    w = small_world()
    w.festival = "Quetzalcoatl"
    a = person(w, "Ana", "ana", titles=[Title("Priest", "Quetzalcoatl", 5)])
    b = person(w, "Bo", "ben", titles=[Title("Priest", "Quetzalcoatl", 3)])
    cy = person(w, "Cy", "cal", titles=[Title("Priest", "Tlaloc", 4)])
    c = council_of(w, ScriptedRandom(50, 100))
    priest_blessings(c)
    assert (a.wisdom, b.wisdom, cy.wisdom) == (3, 4, 1)
    w.festival = "Tlaloc"
    priest_blessings(council_of(w, ScriptedRandom(75)))
    assert w.houses["cal"].food == 3
