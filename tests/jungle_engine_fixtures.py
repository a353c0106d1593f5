"""A small world and order builders for the session engine's tests (tests/test_jungle_engine.py)."""

from __future__ import annotations

from typing import Any

from maild.ruleset import Order, PlacedOrder
from maild.testing import ScriptedRandom  # noqa: F401 - the tests import it from here
from maild_rules.jungle.model import Character, City, Hex, House, Title, World


def engine_world(kicked_off: bool = True) -> World:
    """Four houses in Tenochtitlan: ann (Itzel, Fame 5), bob (Xolotl, Fame 3), cat (Coyotl, Fame 3), dan
    (Tochtli, Fame 0); the Lakeshore tile is Xolotl's land; session 1 is the one being resolved."""
    w = World(kicked_off=kicked_off)
    w.settings = {"signup_sessions": 1, "kickoff_houses": 2, "council_from": 1 if kicked_off else 0}
    w.cities["Tenochtitlan"] = City("Tenochtitlan", centre="Tenochtitlan",
                                    hexes={"Tenochtitlan": Hex("Tenochtitlan", food=2),
                                           "Lakeshore": Hex("Lakeshore", food=3, citizen="Xolotl"),
                                           "Cornfield": Hex("Cornfield", food=3)})
    for house, name, fame in (("ann", "Itzel", 5), ("bob", "Xolotl", 3), ("cat", "Coyotl", 3), ("dan", "Tochtli", 0)):
        w.houses[house] = House(house, f"{house}@example.org")
        w.characters[name] = Character(name, house, fame=fame, city="Tenochtitlan", hex="Cornfield")
    w.characters["Xolotl"].role = "citizen"
    w.characters["Xolotl"].hex = "Lakeshore"
    return w


def enslave(w: World, slave: str, owner: str) -> None:
    w.characters[slave].titles.append(Title("Slave", owner))
    w.characters[owner].titles.append(Title("Owner", slave))


def placed(kind: str, character: str | None, seq: int, line: int = 1, **args: Any) -> PlacedOrder:
    text = f"{kind} {' '.join(str(v) for v in args.values())}".strip()
    return PlacedOrder(Order(line, text, kind, {"character": character, **args}, text), seq)
