"""A small Aztlan for the tests of houses, land, giving and transfers, and a scripted RNG.

Tenochtitlan: city hex "T0" (Tlatoani Moctezuma), land tiles "T1" (citizen Cuauhtli, food 3, hammers 1,
beakers 0, gold 2), "T2" (no citizen, food 2, hammers 2, beakers 1, gold 0). Texcoco: city hex "X0"
(no Tlatoani), land "X1". Unit "Eagle Warriors" (level 2) in Tenochtitlan, Captain Ocelotl.
"""

from __future__ import annotations

import random

from maild.testing import ScriptedRandom  # noqa: F401 - the tests import it from here
from maild_rules.jungle.council import Action, Council
from maild_rules.jungle.model import Character, City, Hex, House, Title, Unit, World


def aztlan() -> World:
    w = World()
    w.cities["Tenochtitlan"] = City(
        "Tenochtitlan", centre="T0", tlatoani="Moctezuma", citizens=2,
        hexes={"T0": Hex("T0", food=4, hammers=2, beakers=2, gold=3),
               "T1": Hex("T1", food=3, hammers=1, beakers=0, gold=2, citizen="Cuauhtli"),
               "T2": Hex("T2", food=2, hammers=2, beakers=1, gold=0)})
    w.cities["Texcoco"] = City("Texcoco", centre="X0", citizens=1,
                               hexes={"X0": Hex("X0", food=2), "X1": Hex("X1", food=1, hammers=1)})
    w.units["Eagle Warriors"] = Unit("Eagle Warriors", level=2, health=10, city="Tenochtitlan",
                                     captain="Ocelotl")
    for h in ("aztec", "mexica", "tolteca"):
        w.houses[h] = House(h, f"{h}@example.org", food=20, gold=50)
    add(w, Character("Moctezuma", "aztec", xp=5, fame=9, wisdom=3, craft=2, role="tlatoani",
                     city="Tenochtitlan", hex="T0"))
    add(w, Character("Cuauhtli", "mexica", xp=3, fame=4, role="citizen", city="Tenochtitlan", hex="T1"))
    add(w, Character("Itzel", "tolteca", xp=2, fame=1, city="Tenochtitlan", hex="T1",
                     titles=[Title("Tenant", "Cuauhtli")]))
    add(w, Character("Xochitl", "aztec", xp=1, fame=0, city="Tenochtitlan", hex="T2"))
    add(w, Character("Ocelotl", "mexica", xp=4, fame=2, role="soldier", city="Tenochtitlan",
                     unit="Eagle Warriors", titles=[Title("Captain", "Eagle Warriors")]))
    return w


def add(world: World, ch: Character) -> Character:
    world.characters[ch.name] = ch
    return ch


def council(world: World, rng: random.Random | None = None, part: str = "morning") -> Council:
    return Council(world, rng or ScriptedRandom([]), part)


def act(ch: Character, keyword: str, part: str = "morning", **args: object) -> Action:
    return Action(ch.name, keyword, dict(args), part, 0, ch.house)
