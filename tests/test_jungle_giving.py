"""GIVE X (rules/jungle/giving.py) on tests/jungle_simple_fixtures.py `aztlan()`: Moctezuma (aztec, Fame 9,
Tlatoani of Tenochtitlan), Cuauhtli (mexica, Fame 4, citizen of T1), Itzel (tolteca, his tenant), Xochitl
(aztec, peasant on T2), Ocelotl (mexica, Captain of the Eagle Warriors in Tenochtitlan); food 20, gold 50 each.
"""

from __future__ import annotations

import pytest

from maild_rules.jungle.council import Void
from maild_rules.jungle.giving import give
from maild_rules.jungle.model import World
from maild_rules.jungle.transfers import transfer_slave
from tests.jungle_simple_fixtures import act, aztlan, council


def _give(w: World, giver: str, **args: object) -> None:
    ch = w.characters[giver]
    give(council(w), ch, act(ch, "give", **args))


def test_give_fame() -> None:
    """Moctezuma gives 3 Fame to Cuauhtli: 9 -> 6 and 4 -> 7. 7 more than his 6: void (LJ-OQ-10)."""
    w = aztlan()
    _give(w, "Moctezuma", what="fame", amount=3, to="Cuauhtli")
    assert (w.characters["Moctezuma"].fame, w.characters["Cuauhtli"].fame) == (6, 7)
    with pytest.raises(Void, match="6 Fame"):
        _give(w, "Moctezuma", what="fame", amount=7, to="Cuauhtli")


def test_give_food_and_gold_between_houses() -> None:
    """Xochitl gives 10 gold of aztec's 50 to Itzel: aztec 40, tolteca 60; 21 food of 20: void; to her own
    housemate Moctezuma: void (the same stores)."""
    w = aztlan()
    _give(w, "Xochitl", what="gold", amount=10, to="Itzel")
    assert (w.houses["aztec"].gold, w.houses["tolteca"].gold) == (40, 60)
    with pytest.raises(Void, match="20 food"):
        _give(w, "Xochitl", what="food", amount=21, to="Itzel")
    with pytest.raises(Void, match="same house"):
        _give(w, "Xochitl", what="food", amount=1, to="Moctezuma")


def test_give_needs_the_same_location() -> None:
    """Xochitl in Texcoco, Moctezuma in Tenochtitlan: not the same location, void."""
    w = aztlan()
    w.characters["Xochitl"].city, w.characters["Xochitl"].hex = "Texcoco", "X1"
    with pytest.raises(Void, match="same location"):
        _give(w, "Moctezuma", what="fame", amount=1, to="Xochitl")


def test_xp_cannot_be_given() -> None:
    w = aztlan()
    with pytest.raises(Void, match="one gives"):
        _give(w, "Moctezuma", what="xp", amount=1, to="Xochitl")


def test_give_a_slave() -> None:
    """Itzel, Moctezuma's slave, given to Cuauhtli: her owner is Cuauhtli; Xochitl cannot give her."""
    w = aztlan()
    transfer_slave(w, w.characters["Itzel"], w.characters["Moctezuma"])
    with pytest.raises(Void, match="not a slave of Xochitl"):
        _give(w, "Xochitl", what="slave", object="Itzel", to="Cuauhtli")
    _give(w, "Moctezuma", what="slave", object="Itzel", to="Cuauhtli")
    assert w.characters["Itzel"].owner == "Cuauhtli"
    assert w.characters["Moctezuma"].title("Owner") is None


def test_give_captaincy() -> None:
    """Ocelotl (in the unit, in Tenochtitlan) gives the captaincy to Xochitl (in the city): she joins the unit as
    its Captain."""
    w = aztlan()
    with pytest.raises(Void, match="not the Captain"):
        _give(w, "Xochitl", what="captaincy", object="Eagle Warriors", to="Ocelotl")
    _give(w, "Ocelotl", what="captaincy", object=None, to="Xochitl")
    assert w.units["Eagle Warriors"].captain == "Xochitl"
    assert w.characters["Xochitl"].unit == "Eagle Warriors"


def test_give_land() -> None:
    """LJ-OQ-60: Cuauhtli gives T1 to Itzel, his tenant: she is its citizen, he a peasant and her tenant."""
    w = aztlan()
    with pytest.raises(Void, match="owns no land"):
        _give(w, "Xochitl", what="land", object="T2", to="Itzel")
    _give(w, "Cuauhtli", what="land", object="T1", to="Itzel")
    i, cu = w.characters["Itzel"], w.characters["Cuauhtli"]
    assert (i.role, i.landlord, cu.role, cu.landlord) == ("citizen", None, "peasant", "Itzel")


def test_give_rulership_to_a_peasant() -> None:
    """LJ-OQ-60: rulership may go to a non-citizen: Xochitl (peasant on T2) becomes Tlatoani on T0, Moctezuma a
    peasant on T2, where she came from (LJ-OQ-14)."""
    w = aztlan()
    _give(w, "Moctezuma", what="rulership", object="Tenochtitlan", to="Xochitl")
    x, m = w.characters["Xochitl"], w.characters["Moctezuma"]
    assert w.cities["Tenochtitlan"].tlatoani == "Xochitl"
    assert (x.role, x.hex, m.role, m.hex) == ("tlatoani", "T0", "peasant", "T2")
    with pytest.raises(Void, match="not the Tlatoani"):
        _give(w, "Moctezuma", what="rulership", to="Xochitl")
