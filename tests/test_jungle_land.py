"""Move, Travel, Toil and Evict (rules/jungle/land.py) on tests/jungle_simple_fixtures.py `aztlan()`.

Tenochtitlan: T0 city hex (Tlatoani Moctezuma; food 4 hammers 2 beakers 2 gold 3), T1 Cuauhtli's land (food 3
hammers 1 beakers 0 gold 2; Itzel his tenant), T2 nobody's (food 2 hammers 2 beakers 1 gold 0; Xochitl).
Texcoco: X0, X1. Every house has food 20, gold 50.
"""

from __future__ import annotations

import pytest

from maild_rules.jungle.council import Void
from maild_rules.jungle.land import connected, evict, move, toil, travel
from maild_rules.jungle.model import Title
from tests.jungle_simple_fixtures import ScriptedRandom, act, aztlan, council


def test_a_peasant_moves_within_his_city_and_becomes_a_tenant() -> None:
    """Xochitl T2 -> T0: the city hex, so she is the Tlatoani's tenant. The Tlatoani himself may not move
    ("Peasants and Citizens may move"), nor may anyone move to another city's hex."""
    w = aztlan()
    x, m = w.characters["Xochitl"], w.characters["Moctezuma"]
    move(council(w), x, act(x, "move", hex="t0"))
    assert (x.hex, x.landlord) == ("T0", "Moctezuma")
    with pytest.raises(Void, match="not a workable hex"):
        move(council(w), x, act(x, "move", hex="X1"))
    with pytest.raises(Void, match="only peasants and citizens"):
        move(council(w), m, act(m, "move", hex="T2"))


def test_a_specialist_moves_without_land() -> None:
    """A specialist is a citizen without land: he moves (T2 -> T0), owns nothing there, and is no tenant."""
    w = aztlan()
    x = w.characters["Xochitl"]
    x.role = "specialist"
    move(council(w), x, act(x, "move", hex="T0"))
    assert (x.hex, x.landlord, w.cities["Tenochtitlan"].hexes["T0"].citizen) == ("T0", None, None)


def test_a_citizen_takes_his_land_with_him() -> None:
    """Cuauhtli T1 -> T2: T2 becomes his land, T1 nobody's; Itzel on T1 is no longer a tenant ("The title of
    Tenant is immediately lost if either the peasant or the citizen move from the hex."). He may not move to
    T0, the Tlatoani's. Moving back to T1 makes Itzel his tenant again."""
    w = aztlan()
    cu, i = w.characters["Cuauhtli"], w.characters["Itzel"]
    with pytest.raises(Void, match="land of Moctezuma"):
        move(council(w), cu, act(cu, "move", hex="T0"))
    move(council(w), cu, act(cu, "move", hex="T2"))
    city = w.cities["Tenochtitlan"]
    assert (city.hexes["T1"].citizen, city.hexes["T2"].citizen) == (None, "Cuauhtli")
    assert i.landlord is None
    assert w.characters["Xochitl"].landlord == "Cuauhtli"  # she lives on T2, now his land
    move(council(w), cu, act(cu, "move", hex="T1"))
    assert i.landlord == "Cuauhtli"


def test_xochitl_becomes_tenant_when_a_citizen_moves_onto_her_tile() -> None:
    w = aztlan()
    cu, x = w.characters["Cuauhtli"], w.characters["Xochitl"]
    move(council(w), cu, act(cu, "move", hex="T2"))
    assert x.landlord == "Cuauhtli"


def test_trade_routes_connect_through_chains() -> None:
    w = aztlan()
    w.settings["trade_routes"] = [["Tenochtitlan", "Tlacopan"], ["Tlacopan", "Texcoco"]]
    assert connected(w, "Tenochtitlan", "texcoco")
    assert not connected(w, "Tenochtitlan", "Cholula")


def test_travel_with_a_trade_route_takes_one_action() -> None:
    """Itzel (Cuauhtli's tenant) travels to Texcoco X1 along the route: a peasant there, no longer a tenant."""
    w = aztlan()
    w.settings["trade_routes"] = [["Tenochtitlan", "Texcoco"]]
    i = w.characters["Itzel"]
    travel(council(w), i, act(i, "travel", city="Texcoco", hex="X1"))
    assert (i.city, i.hex, i.landlord, i.role) == ("Texcoco", "X1", None, "peasant")


def test_travel_without_a_trade_route_takes_both_actions() -> None:
    """LJ-OQ-29: without a route one action is void; with both, the Morning half sets out (she is still in
    Tenochtitlan) and the Afternoon half arrives on a tile drawn at random: Texcoco's tiles X0, X1,
    randrange(2) = 0 gives X0, the city hex (no Tlatoani: no landlord)."""
    w = aztlan()
    x = w.characters["Xochitl"]
    with pytest.raises(Void, match="both actions"):
        travel(council(w), x, act(x, "travel", city="Texcoco"))
    plan = act(x, "travel", city="Texcoco", both=True)
    travel(council(w), x, plan)
    assert (x.city, x.hex) == ("Tenochtitlan", "T2")
    travel(council(w, ScriptedRandom([0]), part="afternoon"), x, act(x, "travel", "afternoon", city="Texcoco",
                                                                      both=True))
    assert (x.city, x.hex, x.landlord) == ("Texcoco", "X0", None)


def test_a_travelling_citizen_or_tlatoani_arrives_a_peasant() -> None:
    """"Characters become a peasant in the destination city": Cuauhtli's T1 has no citizen after he leaves
    (Itzel no longer a tenant); Moctezuma leaves Tenochtitlan without a Tlatoani."""
    w = aztlan()
    w.settings["trade_routes"] = [["Tenochtitlan", "Texcoco"]]
    cu, m, i = (w.characters[n] for n in ("Cuauhtli", "Moctezuma", "Itzel"))
    travel(council(w), cu, act(cu, "travel", city="Texcoco", hex="X1"))
    assert cu.role == "peasant" and w.cities["Tenochtitlan"].hexes["T1"].citizen is None
    assert i.landlord is None
    travel(council(w), m, act(m, "travel", city="Texcoco", hex="X1"))
    assert m.role == "peasant" and w.cities["Tenochtitlan"].tlatoani is None
    o = w.characters["Ocelotl"]
    with pytest.raises(Void, match="desert or retire"):
        travel(council(w), o, act(o, "travel", city="Texcoco"))


def test_toil_earns_the_tile_for_the_house() -> None:
    """Xochitl toils T2 (food 2, hammers 2, beakers 1, gold 0): aztec food 20 -> 22, her hammers 2 and beakers
    1. A citizen may not toil ("Only peasants may toil")."""
    w = aztlan()
    x, cu = w.characters["Xochitl"], w.characters["Cuauhtli"]
    toil(council(w), x, act(x, "toil"))
    assert (w.houses["aztec"].food, w.houses["aztec"].gold, x.hammers, x.beakers) == (22, 50, 2, 1)
    with pytest.raises(Void, match="only peasants"):
        toil(council(w), cu, act(cu, "toil"))


def test_a_tenants_toil_goes_to_the_citizen() -> None:
    """Itzel (tolteca) toils T1 (food 3, hammers 1, gold 2) as Cuauhtli's tenant: mexica food 20 -> 23 and
    gold 50 -> 52, Cuauhtli's hammers 1; tolteca gets nothing."""
    w = aztlan()
    i, cu = w.characters["Itzel"], w.characters["Cuauhtli"]
    toil(council(w, part="afternoon"), i, act(i, "toil", "afternoon"))
    assert (w.houses["mexica"].food, w.houses["mexica"].gold, cu.hammers) == (23, 52, 1)
    assert (w.houses["tolteca"].food, w.houses["tolteca"].gold, i.hammers) == (20, 50, 0)


def test_a_tenant_who_moved_away_toils_for_himself() -> None:
    """LJ-OQ-50: Itzel moves from T1 to T2 in the Morning: no longer a tenant; her Afternoon toil on T2 (food
    2, hammers 2, beakers 1) is her house's: tolteca food 22."""
    w = aztlan()
    i = w.characters["Itzel"]
    move(council(w), i, act(i, "move", hex="T2"))
    toil(council(w, part="afternoon"), i, act(i, "toil", "afternoon"))
    assert (w.houses["tolteca"].food, i.hammers, w.houses["mexica"].food) == (22, 2, 20)


def test_a_slaves_dictated_toil_earns_for_his_owner() -> None:
    """SLAVE OF CHARACTER X: "anything gained for the house is awarded to the slave's owner's house": Xochitl
    (aztec), slave of Cuauhtli, toils T2 on his order (the action's house is mexica): mexica food 22."""
    w = aztlan()
    x = w.characters["Xochitl"]
    x.titles.append(Title("Slave", "Cuauhtli"))
    a = act(x, "toil")
    a.house = "mexica"
    toil(council(w), x, a)
    assert (w.houses["mexica"].food, w.houses["aztec"].food) == (22, 20)


def test_evict_moves_the_tenant_to_a_tile_of_the_citizens_choice() -> None:
    """Cuauhtli evicts Itzel from T1 to T2: she is nobody's tenant there. Xochitl is not his tenant: void."""
    w = aztlan()
    cu, i, x = (w.characters[n] for n in ("Cuauhtli", "Itzel", "Xochitl"))
    with pytest.raises(Void, match="not a tenant"):
        evict(council(w), cu, act(cu, "evict", tenant="Xochitl", hex="T0"))
    evict(council(w), cu, act(cu, "evict", tenant="itzel", hex="T2"))
    assert (i.hex, i.landlord) == ("T2", None)
    assert x.hex == "T2"


def test_toil_on_a_tile_the_gm_took_away_is_void() -> None:
    """The GM's update removed T2 from Tenochtitlan's workable hexes: Xochitl's toil there is void."""
    w = aztlan()
    del w.cities["Tenochtitlan"].hexes["T2"]
    x = w.characters["Xochitl"]
    with pytest.raises(Void, match="no longer a workable hex"):
        toil(council(w), x, act(x, "toil"))
