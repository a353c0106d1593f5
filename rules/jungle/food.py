"""FOOD: what each character needs, the rations of soldiers and specialists, the Evening meal of each house,
hunger and starvation. Readings LJ-OQ-02, 04 to 09 are in docs/law-of-the-jungle.md, section "Food".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from maild.draws import unweighted_sample

from .council import Council
from .deaths import kill
from .houses import store_groups
from .model import Character, House, World

SOLDIER_RATION = 1  # "the Aztec people provide soldiers with food rations of 1 food"
SPECIALIST_RATION = 3  # "the Aztec people provide specialists with 3 food"


def food_need(c: Character) -> int:
    """"sqrt((XP+Fame)/10), rounded up", in whole numbers: the least n with 10*n*n >= XP+Fame."""
    total = max(0, c.xp) + max(0, c.fame)
    if total == 0:
        return 0
    m = -(-total // 10)  # n*n >= total/10 exactly when n*n >= ceil(total/10), n*n being whole
    return math.isqrt(m - 1) + 1


def ration(c: Character) -> int:
    """The food the Aztec people give `c` for his own meal (LJ-OQ-07, LJ-OQ-08): 1 for a soldier (any character
    in a unit), 3 for a specialist, none for anybody else. It feeds him only; what he does not eat is lost."""
    if c.unit is not None or c.role == "soldier":
        return SOLDIER_RATION
    if c.role == "specialist":
        return SPECIALIST_RATION
    return 0


def hunger_loss(xp: int, short: int, required: int, rnd: Fraction) -> int:
    """"(XP)*(Food Short)/(Food Required)*(1.5)*(Random Number)" for one character, his own figures (LJ-OQ-06),
    rounded down, never more than his XP."""
    if required <= 0 or short <= 0:
        return 0
    return min(xp, math.floor(Fraction(xp * short, required) * Fraction(3, 2) * rnd))


@dataclass
class Plate:
    """One character's Evening meal."""

    character: Character
    need: int
    ration: int  # the part of his need the ration covers
    served: int = 0  # food from the house store
    lost: int = 0  # XP lost to hunger

    @property
    def owed(self) -> int:
        return self.need - self.ration

    @property
    def short(self) -> int:
        return self.owed - self.served


def feeding_order(plates: list[Plate], rng) -> list[Plate]:
    """The "randomly determined characters" who go short (LJ-OQ-05): the house's hungry characters are put in a
    random order, each order equally likely, and fed from the store in that order; whoever is reached when the
    food runs out gets what is left, the rest nothing. One `rng.randrange(k)` per place but the last."""
    if len(plates) < 2:
        return list(plates)
    first = unweighted_sample(plates, len(plates) - 1, rng)
    return first + [p for p in plates if not any(p is q for q in first)]


def serve(store: int, plates: list[Plate], rng) -> int:
    """Serve the house's `plates` from `store`; returns what is left. Nothing is drawn when there is enough."""
    hungry = [p for p in plates if p.owed > 0]
    if sum(p.owed for p in hungry) <= store:
        for p in hungry:
            p.served = p.owed
        return store - sum(p.owed for p in hungry)
    for p in feeding_order(hungry, rng):
        p.served = min(p.owed, store)
        store -= p.served
    return store


def eat(council: Council) -> None:
    """The Evening meal: "At the end of every council session, all characters need to eat to stay alive." Every
    living character eats, those who came into the game this session too, a slave from his own house's store
    (LJ-OQ-09); joined houses eat from their one store; stores by house name, characters by name within. After
    the serving, each short character loses XP (one Random Number each, by name); at 0 XP he starves
    (deaths.kill)."""
    world = council.world
    for store, members in _eaters(world):
        members = sorted(members, key=lambda c: c.name)
        plates = [Plate(c, food_need(c), min(food_need(c), ration(c))) for c in members]
        before = store.food if store is not None else 0
        left = serve(before, plates, council.rng)
        if store is not None:
            store.food = left
        owner = store.name if store is not None else members[0].house
        lines = [f"The house of {owner} eats {before - left} food from its store ({left} left)."]
        served = [p for p in plates if p.short > 0]
        for p in served:
            c = p.character
            p.lost = hunger_loss(c.xp, p.short, p.need, council.random())
            c.xp -= p.lost
            lines.append(f"{c.name} needed {p.need} food, was {p.short} short and loses {p.lost} XP.")
        council.tell_all({c.house for c in members} | {owner}, " ".join(lines))
        for p in served:
            if p.character.xp <= 0:
                kill(council, p.character, "starved")
        council.event("meal", house=owner, eaten=before - left, left=left,
                      short={p.character.name: p.short for p in served})


def _eaters(world: World) -> list[tuple[House | None, list[Character]]]:
    """Each store of food with the living characters it feeds (joined houses share one: houses.store_groups),
    then characters of a house the world does not know, with no store."""
    groups: list[tuple[House | None, list[Character]]] = [(h, cs) for h, cs in store_groups(world) if cs]
    known = {c.name for _, cs in groups for c in cs}
    strays: dict[str, list[Character]] = {}
    for c in world.living():
        if c.name not in known:
            strays.setdefault(c.house, []).append(c)
    return groups + [(None, strays[h]) for h in sorted(strays)]
