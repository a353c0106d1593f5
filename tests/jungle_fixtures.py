"""Shared fixtures of The Law of the Jungle's tests: a scripted RNG and a small world to build on."""

from __future__ import annotations

import random

from maild.testing import ScriptedRandom  # noqa: F401 - the tests import it from here
from maild_rules.jungle.council import Action, Council
from maild_rules.jungle.model import Character, City, Hex, House, Unit, World


def small_world() -> World:
    """Two cities and three units on the GM's map, three houses, no characters yet (add them with `person`).

    Tenochtitlan at (5, 5), city strength 4, hexes T1 (the centre), T2 (land of the citizen Citlali, when a test
    adds her) and T3; Texcoco at (12, 5), strength 9, hexes X1, X2. Units: Jaguars (melee 8) at (6, 6), Eagles
    (melee 5) at (7, 7) (2 hexes from the Jaguars), Settlers (non-military, melee 0) at (20, 20), and Otomies
    (melee 6) on Tenochtitlan's hex (5, 5)."""
    w = World()
    w.houses = {n: House(n, f"{n}@example.org") for n in ("ana", "ben", "cal")}
    w.cities["Tenochtitlan"] = City("Tenochtitlan", hexes={n: Hex(n) for n in ("T1", "T2", "T3")}, centre="T1",
                                    citizens=2, strength=4, position=(5, 5))
    w.cities["Tenochtitlan"].hexes["T2"].citizen = "Citlali"
    w.cities["Texcoco"] = City("Texcoco", hexes={n: Hex(n) for n in ("X1", "X2")}, centre="X1", citizens=1,
                               strength=9, position=(12, 5))
    w.units["Jaguars"] = Unit("Jaguars", level=2, melee=8, city="Tenochtitlan", position=(6, 6))
    w.units["Eagles"] = Unit("Eagles", level=1, melee=5, city="Tenochtitlan", position=(7, 7))
    w.units["Settlers"] = Unit("Settlers", kind="Settler", military=False, melee=0, city="Texcoco",
                               position=(20, 20))
    w.units["Otomies"] = Unit("Otomies", level=1, melee=6, city="Tenochtitlan", position=(5, 5))
    return w


def person(w: World, name: str, house: str, *, city: str | None = "Tenochtitlan", hex: str | None = "T1",
           unit: str | None = None, **attrs) -> Character:
    """Add a living character to `w` (in Tenochtitlan on T1 unless told; in a unit: no city, role soldier)."""
    if unit is not None:
        city, hex = None, None
        attrs.setdefault("role", "soldier")
    c = Character(name, house, city=city, hex=hex, unit=unit, **attrs)
    w.characters[name] = c
    return c


def council_of(w: World, rng: random.Random, part: str = "morning", actions: list[Action] | None = None) -> Council:
    return Council(world=w, rng=rng, part=part, actions=list(actions or []))


def act(character: Character, keyword: str, part: str = "morning", seq: int = 1, house: str | None = None,
        **args) -> Action:
    """An action of `character` as the engine hands it to a handler."""
    return Action(character.name, keyword, args, part, seq, house or character.house)
