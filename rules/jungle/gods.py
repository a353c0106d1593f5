"""AZTEC GODS: the festival, offerings, sacrifices, Priest titles and the priests' recurring blessings.

Pure formulas take their random numbers as arguments; the handlers draw them from the council. Readings
LJ-OQ-41 to LJ-OQ-45 are in docs/law-of-the-jungle.md, section "Gods, festivals and sacrifices".
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from .council import Action, Council, Void, handles
from .deaths import kill
from .houses import acting_house, group, pool
from .model import GODS, Character, Title, World, key
from .places import same_location

#: god -> what he takes in offerings and gives in blessings: an attribute of the character, or the house's food.
BOON = {"Huitzilopochtli": "xp", "Quetzalcoatl": "wisdom", "Tezcatlipoca": "fame", "Tlaloc": "food"}
BOON_WORDS = {"xp": "XP", "wisdom": "Wisdom", "fame": "Fame", "food": "food"}

#: How players (and the rules) spell the gods -> the god. The rules write Hutzilopochtli, Huitzilopochtli,
#: Hutizilopochtli and Hutzilopochltli for one god (LJ-OQ-44).
SPELLINGS = {
    "huitzilopochtli": "Huitzilopochtli", "hutzilopochtli": "Huitzilopochtli",
    "hutizilopochtli": "Huitzilopochtli", "hutzilopochltli": "Huitzilopochtli", "war": "Huitzilopochtli",
    "quetzalcoatl": "Quetzalcoatl", "knowledge": "Quetzalcoatl",
    "tezcatlipoca": "Tezcatlipoca", "rulership": "Tezcatlipoca",
    "tlaloc": "Tlaloc", "fertility": "Tlaloc",
}


def god_named(name: object) -> str:
    """The god a player named (any of the rules' spellings, or the god's domain); Void if none."""
    word = key(str(name or "")).removeprefix("the god of ").removeprefix("god of ")
    god = SPELLINGS.get(word)
    if god is None:
        raise Void(f"{name or 'no god'} is not one of the four Gods ({', '.join(GODS)})")
    return god


def draw_festival(rng: random.Random) -> str:
    """"Every council session, a festival is held in honor of one of the Gods, selected at random": one of the
    four relevant Gods, equally likely (LJ-OQ-41): `rng.randrange(4)` indexes model.GODS."""
    return GODS[rng.randrange(len(GODS))]


def blessing(offered: int, rnd: Fraction, festival: bool) -> int:
    """An offering's blessing: (Offered)*(Random Number)*(1.5)*(2 if during the god's festival), rounded down
    (LJ-OQ-43)."""
    return math.floor(offered * rnd * Fraction(3, 2) * (2 if festival else 1))


def sacrifice_value(god: str, victim: Character, festival: bool) -> int:
    """The value N of a sacrifice, the formula as printed (LJ-OQ-42), the festival factor inside the root:
    Huitzilopochtli sqrt(XP * 2 if festival), Quetzalcoatl sqrt(Wisdom * 2 ...), Tezcatlipoca sqrt(Fame * 2
    ...), Tlaloc sqrt(10 * (2 if festival) - XP), outside his festival sqrt(10 - XP) (LJ-OQ-45), 0 when
    negative; rounded down; then the victim's Defiant Slave N added (LJ-OQ-44)."""
    factor = 2 if festival else 1
    if god == "Tlaloc":
        inside = 10 * factor - victim.xp
    else:
        inside = getattr(victim, BOON[god]) * factor
    value = math.isqrt(inside) if inside > 0 else 0
    defiant = victim.title("Defiant Slave")
    return value + (defiant.n or 0 if defiant is not None else 0)


def priest_blessing(n: int, rnd: Fraction) -> int:
    """A priest's recurring blessing at his god's festival: N*(Random Number), rounded down."""
    return math.floor(n * rnd)


def add_priest_title(c: Character, god: str, n: int) -> Title:
    """"Priest of God X (N)"; sacrifices to the same god sum: "Priest of God X (N1+N2)"."""
    title = c.title("Priest", god)
    if title is None:
        title = Title("Priest", god, n)
        c.titles.append(title)
    else:
        title.n = (title.n or 0) + n
    return title


def _bestow(world: World, c: Character, house: str, boon: str, amount: int) -> None:
    if boon == "food":
        if house in world.houses:
            pool(world, house).food += amount
    else:
        setattr(c, boon, getattr(c, boon) + amount)


@handles("offering")
def offering(council: Council, actor: Character, action: Action) -> None:
    """Make an offering: the god takes the amount (XP, Wisdom, Fame of the actor; food of the house whose
    action it is) and blesses with (Offered)*(Random Number)*(1.5)*(2 at his festival), rounded down. An
    offering of all one's XP kills before any blessing ("A character with 0 XP immediately dies")."""
    world = council.world
    god = god_named(action.args.get("god"))
    boon = BOON[god]
    try:
        amount = int(action.args.get("amount"))
    except (TypeError, ValueError):
        raise Void("an offering names how much is offered") from None
    if amount < 1:
        raise Void("an offering is of 1 point or more")
    house = pool(world, acting_house(council, actor, action)) if world.houses else None
    if boon == "food":
        if house is None:
            raise Void(f"{actor.name} has no house store of food to offer from")
        have = house.food
    else:
        have = getattr(actor, boon)
    if amount > have:
        raise Void(f"{actor.name} cannot offer {amount} {BOON_WORDS[boon]}: "
                   f"{'the house has' if boon == 'food' else 'he has'} {have}")
    if boon == "food":
        house.food -= amount
    else:
        setattr(actor, boon, have - amount)
    if actor.xp <= 0:
        kill(council, actor, f"gave all his XP to {god}")
        return
    festival = world.festival == god
    gift = blessing(amount, council.random(), festival)
    _bestow(world, actor, house.name if house is not None else actor.house, boon, gift)
    council.tell(action.house, f"{actor.name} offers {amount} {BOON_WORDS[boon]} to {god}"
                               f"{' at his festival' if festival else ''} and is blessed with {gift} "
                               f"{BOON_WORDS[boon]}.")
    council.event("offering", character=actor.name, god=god, amount=amount, blessing=gift)


@handles("sacrifice")
def sacrifice(council: Council, actor: Character, action: Action) -> None:
    """Sacrifice one of the house's own characters, or a slave the house owns, in the same location; the victim
    dies and the actor is Priest of the god with the sacrifice's value added (LJ-OQ-44)."""
    world = council.world
    god = god_named(action.args.get("god"))
    name = action.args.get("victim")
    victim = world.character(str(name)) if name else None
    if victim is None or not victim.alive:
        raise Void(f"there is no living character {name!r} to sacrifice" if name else "no victim named")
    if victim is actor:
        raise Void(f"{actor.name} cannot sacrifice himself")
    owner = world.character(victim.owner) if victim.owner else None
    mine = set(group(world, actor.house)) if actor.house in world.houses else {actor.house}
    own = victim.house in mine or (owner is not None and owner.house in mine)
    if not own:
        raise Void(f"{victim.name} is neither of the house of {actor.house} nor its slave")
    if not same_location(world, actor, victim):
        raise Void(f"{victim.name} is not in the same location as {actor.name}")
    festival = world.festival == god
    n = sacrifice_value(god, victim, festival)
    kill(council, victim, f"sacrificed to {god} by {actor.name}")
    title = add_priest_title(actor, god, n)
    council.tell_all({action.house, actor.house},
                     f"{actor.name} sacrifices {victim.name} to {god}{' at his festival' if festival else ''}: "
                     f"a sacrifice of value {n}; {actor.name} is {title.label()}.")
    council.announce(f"{actor.name} sacrificed {victim.name} to {god}.")
    council.event("sacrifice", character=actor.name, victim=victim.name, god=god, value=n)


def priest_blessings(council: Council) -> None:
    """"During future festivals of X, Priests of X are rewarded with a blessing ... equal to N*(Random Number),
    rounded down": called by the engine when the session opens, after the festival is drawn. One draw per
    priest, priests by name; Tlaloc's food goes to the priest's own house."""
    world = council.world
    god = world.festival
    if god is None:
        return
    boon = BOON[god]
    for c in sorted(world.living(), key=lambda c: c.name):
        title = c.title("Priest", god)
        if title is None or not title.n:
            continue
        gift = priest_blessing(title.n, council.random())
        _bestow(world, c, c.house, boon, gift)
        council.tell(c.house, f"{god} blesses his priest {c.name} at his festival with {gift} {BOON_WORDS[boon]}.")
        council.event("blessing", character=c.name, god=god, amount=gift)
