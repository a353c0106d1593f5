"""Transfers of land, rulership, captaincy and slaves, and tenancy (rules/jungle/transfers.py)."""

from __future__ import annotations

from maild_rules.jungle.model import Title
from maild_rules.jungle.transfers import (
    free_slave,
    landlord_of,
    retenant,
    transfer_captaincy,
    transfer_land,
    transfer_rulership,
    transfer_slave,
)
from tests.jungle_simple_fixtures import aztlan


def test_tenancy_follows_the_land() -> None:
    """"A peasant that lives on a hex owned by a Citizen receives the title of Tenant of Character X." and "A
    peasant residing in the city hex will be a tenant of the Tlatoani." Xochitl on T2 (nobody's land) is no
    tenant; moved to T0 she is Moctezuma's; to T1 Cuauhtli's; a citizen is never a tenant."""
    w = aztlan()
    x = w.characters["Xochitl"]
    retenant(w, x)
    assert x.landlord is None
    x.hex = "T0"
    retenant(w, x)
    assert x.landlord == "Moctezuma"
    x.hex = "T1"
    retenant(w, x)
    assert x.landlord == "Cuauhtli"
    assert [t.kind for t in x.titles].count("Tenant") == 1
    c = w.characters["Cuauhtli"]
    retenant(w, c)
    assert c.landlord is None
    assert landlord_of(w, "Tenochtitlan", "T2") is None


def test_land_given_to_a_peasant_makes_him_citizen_and_the_giver_a_tenant() -> None:
    """LJ-OQ-60: Cuauhtli gives T1 to Xochitl (a peasant on T2). She becomes a citizen and moves onto T1
    (she lives on no land of her own); Cuauhtli owns no other tile, so he is a peasant on T1 now, her tenant;
    Itzel, the tenant of T1, is now Xochitl's tenant."""
    w = aztlan()
    x, c, i = (w.characters[n] for n in ("Xochitl", "Cuauhtli", "Itzel"))
    transfer_land(w, "T1", "Tenochtitlan", x)
    assert w.cities["Tenochtitlan"].hexes["T1"].citizen == "Xochitl"
    assert (x.role, x.hex, x.landlord) == ("citizen", "T1", None)
    assert (c.role, c.hex, c.landlord) == ("peasant", "T1", "Xochitl")
    assert i.landlord == "Xochitl"


def test_land_won_by_a_soldier_takes_him_out_of_his_unit() -> None:
    """A Captain who wins land leaves his unit (he cannot live in it and on the land): the unit has no Captain."""
    w = aztlan()
    o = w.characters["Ocelotl"]
    transfer_land(w, "T2", "Tenochtitlan", o)
    assert (o.unit, o.role, o.city, o.hex) == (None, "citizen", "Tenochtitlan", "T2")
    assert o.title("Captain") is None and w.units["Eagle Warriors"].captain is None


def test_rulership_to_a_citizen_sends_the_old_tlatoani_to_his_hex() -> None:
    """LJ-OQ-14 as the revolt rule says it: "The overthrown Tlatoani becomes a peasant on the hex the new
    Tlatoani came from." Cuauhtli (citizen on T1) becomes Tlatoani and moves to T0; his land T1 stays his, so
    Moctezuma, a peasant on T1, is his tenant."""
    w = aztlan()
    c, m = w.characters["Cuauhtli"], w.characters["Moctezuma"]
    transfer_rulership(w, "Tenochtitlan", c)
    city = w.cities["Tenochtitlan"]
    assert city.tlatoani == "Cuauhtli"
    assert (c.role, c.hex) == ("tlatoani", "T0")
    assert (m.role, m.hex, m.landlord) == ("peasant", "T1", "Cuauhtli")


def test_rulership_to_a_soldier_leaves_the_old_tlatoani_on_the_city_hex() -> None:
    """A new Tlatoani from a unit has no hex to give: the old one stays on the city hex as a peasant, the new
    one's tenant."""
    w = aztlan()
    o, m = w.characters["Ocelotl"], w.characters["Moctezuma"]
    transfer_rulership(w, "Tenochtitlan", o)
    assert (o.role, o.unit, o.hex) == ("tlatoani", None, "T0")
    assert (m.role, m.hex, m.landlord) == ("peasant", "T0", "Ocelotl")


def test_captaincy_moves_the_title_and_the_new_captain_joins() -> None:
    w = aztlan()
    x, o = w.characters["Xochitl"], w.characters["Ocelotl"]
    transfer_captaincy(w, "Eagle Warriors", x)
    assert w.units["Eagle Warriors"].captain == "Xochitl"
    assert x.title("Captain", "Eagle Warriors") is not None and x.unit == "Eagle Warriors"
    assert x.role == "soldier" and x.hex is None
    assert o.title("Captain") is None and o.unit == "Eagle Warriors"


def test_a_citizen_given_a_captaincy_keeps_his_rank_and_his_land() -> None:
    """As an Enlist: "Any character in a unit is considered a soldier", but a citizen who enlists keeps his
    citizenship (the units part's reading); so the captaincy given to Cuauhtli puts him in the unit, still a
    citizen owning T1. But "The title of Tenant is immediately lost if either the peasant or the citizen move
    from the hex": Itzel, on T1, is nobody's tenant while he is away, and his again when he is back."""
    w = aztlan()
    c = w.characters["Cuauhtli"]
    transfer_captaincy(w, "Eagle Warriors", c)
    assert (c.unit, c.role, w.cities["Tenochtitlan"].hexes["T1"].citizen) == ("Eagle Warriors", "citizen", "Cuauhtli")
    assert w.characters["Itzel"].landlord is None
    transfer_land(w, "T1", "Tenochtitlan", c)  # his own land again: he leaves the unit to live on it
    assert (c.unit, c.hex, w.characters["Itzel"].landlord) == (None, "T1", "Cuauhtli")


def test_slave_ownership_moves_both_titles() -> None:
    w = aztlan()
    i, c, m = (w.characters[n] for n in ("Itzel", "Cuauhtli", "Moctezuma"))
    transfer_slave(w, i, c)
    assert i.owner == "Cuauhtli" and c.title("Owner", "Itzel") is not None
    transfer_slave(w, i, m)
    assert i.owner == "Moctezuma" and m.title("Owner", "Itzel") is not None and c.title("Owner") is None
    assert [t for t in i.titles if t.kind == "Slave"] == [Title("Slave", "Moctezuma")]
    free_slave(w, i)
    assert i.owner is None and m.title("Owner") is None
