"""A small Aztlan for the tests of units, cities and incomes, and a scripted RNG.

Tenochtitlan (citizens 3): city hex "T0" (Tlatoani Moctezuma), land "T1" (citizen Cuauhtli), "T2", "T3"
(nobody's). Texcoco (puppet, citizens 1): "X0", "X1" (citizen Nopal). Unit "Jaguar Warriors" (level 3,
health 5) near Tenochtitlan: Captain Ocelotl (XP 4, Fame 2) and Atl (XP 2, Fame 0); 3 NPCs.
Peasants: Xochitl (T2, Fame 1), Yaotl (T3, Fame 3), Tochtli (T1, Cuauhtli's tenant, Fame 0).
"""

from __future__ import annotations

from collections.abc import Iterable

from maild.testing import ScriptedRandom  # noqa: F401 - the tests import it from here
from maild_rules.jungle.council import Action, Council
from maild_rules.jungle.model import Character, City, Hex, House, Title, Unit, World


def add(w: World, c: Character) -> Character:
    w.characters[c.name] = c
    return c


def aztlan() -> World:
    w = World()
    w.cities["Tenochtitlan"] = City(
        "Tenochtitlan", centre="T0", tlatoani="Moctezuma", citizens=3, specialist_slots=1,
        hexes={"T0": Hex("T0"), "T1": Hex("T1", citizen="Cuauhtli"), "T2": Hex("T2"), "T3": Hex("T3")})
    w.cities["Texcoco"] = City("Texcoco", centre="X0", citizens=1, puppet=True,
                               hexes={"X0": Hex("X0"), "X1": Hex("X1", citizen="Nopal")})
    w.units["Jaguar Warriors"] = Unit("Jaguar Warriors", level=3, health=5, city="Tenochtitlan",
                                      captain="Ocelotl")
    for h in ("aztec", "mexica", "tolteca", "olmeca"):
        w.houses[h] = House(h, f"{h}@example.org")
    add(w, Character("Moctezuma", "aztec", xp=5, fame=9, role="tlatoani", city="Tenochtitlan", hex="T0"))
    add(w, Character("Cuauhtli", "mexica", xp=3, fame=4, role="citizen", city="Tenochtitlan", hex="T1"))
    add(w, Character("Nopal", "olmeca", xp=2, fame=2, role="citizen", city="Texcoco", hex="X1"))
    add(w, Character("Ocelotl", "tolteca", xp=4, fame=2, role="soldier", city="Tenochtitlan", unit="Jaguar Warriors",
                     titles=[Title("Captain", "Jaguar Warriors")]))
    add(w, Character("Atl", "tolteca", xp=2, fame=0, role="soldier", city="Tenochtitlan", unit="Jaguar Warriors"))
    add(w, Character("Xochitl", "aztec", fame=1, city="Tenochtitlan", hex="T2"))
    add(w, Character("Yaotl", "mexica", fame=3, city="Tenochtitlan", hex="T3"))
    add(w, Character("Tochtli", "olmeca", fame=0, city="Tenochtitlan", hex="T1",
                     titles=[Title("Tenant", "Cuauhtli")]))
    return w


def council(world: World, values: Iterable[float | int] = (), part: str = "morning") -> Council:
    return Council(world, ScriptedRandom(values), part)


def act(character: str, keyword: str, house: str = "", part: str = "morning", both: bool = False,
        **args: object) -> Action:
    return Action(character, keyword, dict(args), part, 0, house, both=both)


def told(c: Council, house: str | None = None) -> str:
    """Everything reported (to `house`, or to the newsletter with None), one report a line."""
    return "\n".join(r.text for r in c.reports if r.house == house)
