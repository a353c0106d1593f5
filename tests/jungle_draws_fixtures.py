"""Fixtures of the research, production, policy and GM-update tests: a scripted RNG, a small world, a council,
and stand-ins for the game's modules the update calls (units, cities, transfers) that record their calls."""

from __future__ import annotations

import random
import sys
import types
from typing import Any

from maild.testing import ScriptedRandom  # noqa: F401 - the tests import it from here
from maild_rules.jungle.council import Council
from maild_rules.jungle.model import Character, City, Empire, Hex, House, Unit, World


def draws_world() -> World:
    """Two houses in Tenochtitlan: Itzel (Ana) and Coyotl (Ben), Xochitl (Ana); no beakers or hammers yet;
    three researchable technologies, two policies; no city has builds until a test gives them."""
    w = World(session=2)
    w.houses = {"Ana": House("Ana", "ana@example.org"), "Ben": House("Ben", "ben@example.org")}
    city = City("Tenochtitlan", centre="Tenochtitlan", citizens=2,
                hexes={"Tenochtitlan": Hex("Tenochtitlan", food=2), "Lake": Hex("Lake", food=3)})
    w.cities = {"Tenochtitlan": city}
    w.characters = {
        "Itzel": Character("Itzel", "Ana", fame=5, wisdom=3, city="Tenochtitlan", hex="Lake"),
        "Coyotl": Character("Coyotl", "Ben", fame=4, wisdom=1, city="Tenochtitlan", hex="Lake"),
        "Xochitl": Character("Xochitl", "Ana", fame=2, wisdom=1, city="Tenochtitlan", hex="Tenochtitlan"),
    }
    w.units = {"Jaguar Warriors": Unit("Jaguar Warriors", level=2, health=10, city="Tenochtitlan")}
    w.empire = Empire(technologies={"Bronze Working": 1, "Writing": 1, "Pottery": 1},
                      policies={"Tradition": 1, "Liberty": 2})
    return w


def council(world: World, rng: random.Random, part: str = "evening") -> Council:
    return Council(world=world, rng=rng, part=part)


class Recorder:
    """Stand-ins for maild_rules.jungle.units, cities and transfers: each call is kept in `calls` as
    (function, args) with objects named by their names."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def module(self, name: str, functions: list[str]) -> types.ModuleType:
        m = types.ModuleType(f"maild_rules.jungle.{name}")
        for fn in functions:
            setattr(m, fn, self._record(fn))
        return m

    def _record(self, fn: str) -> Any:
        def call(*args: Any) -> None:
            shown = tuple(getattr(a, "name", a) for a in args if not isinstance(a, (Council, World)))
            self.calls.append((fn, shown))
        return call


def stand_in_modules(monkeypatch: Any) -> Recorder:
    """Put recording stand-ins for the units, cities and transfers modules where the update imports them."""
    rec = Recorder()
    for name, functions in {"units": ["health_changed", "share_unit_gains"], "cities": ["citizens_changed"],
                            "transfers": ["transfer_rulership", "transfer_captaincy"]}.items():
        monkeypatch.setitem(sys.modules, f"maild_rules.jungle.{name}", rec.module(name, functions))
    return rec
