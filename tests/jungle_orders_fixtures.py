"""A small Law of the Jungle world for the orders' tests: three houses, two cities, two units."""

from __future__ import annotations

from maild_rules.jungle.model import Character, City, Empire, Hex, House, Title, Unit, World


def small_world() -> World:
    """anna: Itzel (Captain of Jaguar Warriors, level 3) and Coyotl (Captain of the Settler, no level);
    bob: Xolotl and Tochtli (Itzel's slave); carl: Ome alone. Tenochtitlan and Texcoco."""
    w = World()
    w.kicked_off = True  # a game under way: its councils, not the sign-up period
    w.houses = {h: House(h, f"{h}@example.org") for h in ("anna", "bob", "carl")}
    w.cities = {
        "Tenochtitlan": City("Tenochtitlan", centre="Tenochtitlan",
                             hexes={n: Hex(n) for n in ("Tenochtitlan", "Riverbank", "Marsh", "Hill 2")},
                             builds={"Granary": 60, "Great Wall": 200, "Warrior": 40}),
        "Texcoco": City("Texcoco", centre="Texcoco", hexes={n: Hex(n) for n in ("Texcoco", "Lakeshore")},
                        builds={"Monument": 40}),
    }
    w.units = {
        "Jaguar Warriors": Unit("Jaguar Warriors", level=3, city="Tenochtitlan", captain="Itzel"),
        "Settler": Unit("Settler", kind="Settler", level=None, military=False, city="Texcoco", captain="Coyotl"),
    }
    w.characters = {
        "Itzel": Character("Itzel", "anna", fame=5, unit="Jaguar Warriors", role="soldier",
                           titles=[Title("Captain", "Jaguar Warriors"), Title("Owner", "Tochtli")]),
        "Coyotl": Character("Coyotl", "anna", city="Texcoco", hex="Lakeshore", unit="Settler",
                            titles=[Title("Captain", "Settler")]),
        "Xolotl": Character("Xolotl", "bob", fame=9, city="Tenochtitlan", hex="Riverbank"),
        "Tochtli": Character("Tochtli", "bob", city="Tenochtitlan", hex="Marsh", titles=[Title("Slave", "Itzel")]),
        "Ome": Character("Ome", "carl", city="Tenochtitlan", hex="Hill 2"),
    }
    w.empire = Empire(technologies={"Bronze Working": 1, "The Wheel": 1, "Animal Husbandry": 1},
                      policies={"Tradition": 1, "Liberty": 1}, known=["Pottery"])
    return w
