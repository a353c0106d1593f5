"""The Law of the Jungle's game state: characters, houses and the empire the GM feeds in.

The framework stores the state as a JSON dict; `World.load` reads it into these dataclasses at the start of
a phase and `World.dump` writes it back, so no code of the game handles raw dicts but this module. The
layout is documented in docs/law-of-the-jungle.md ("The state").

Names are the keys: a character, a city, a unit, a technology is named once in the game, and players write
those names in their orders. `key(name)` is how names compare (case and runs of blanks do not matter).

Who is whose and who is bound to whom are looked up in a `Roster` (characters by house, the slave, tenant and
owner titles by whom they name), built once per phase and kept up to date as characters come in and titles are
given, so that an attack or a death costs the same in a game of 2,000 houses as in one of 50.

Attributes, food and gold are whole numbers (docs/law-of-the-jungle.md, LJ-OQ-02): every formula result is
rounded where the rules say, or down where they do not (each formula in the module of its part).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, is_dataclass
from functools import lru_cache
from itertools import islice
from typing import Any

GODS = ("Huitzilopochtli", "Quetzalcoatl", "Tezcatlipoca", "Tlaloc")
ATTRIBUTES = ("xp", "fame", "wisdom", "craft")  # Combat Experience, Fame, Wisdom, Craftsmanship
ROLES = ("peasant", "citizen", "specialist", "tlatoani", "soldier")
PARTS = ("morning", "afternoon")  # the two halves of a council session in which characters act


@lru_cache(maxsize=1 << 16)
def key(name: str) -> str:
    """How names compare: case and runs of blanks do not matter. Remembered: a session compares the same few
    thousand names hundreds of thousands of times (sorting, finding)."""
    return " ".join(name.split()).casefold()


def find_name(names: Iterable[str], wanted: str | None) -> str | None:
    """The name among `names` that `wanted` names (compared with `key`), as the world spells it; None for none."""
    if not wanted:
        return None
    k = key(wanted)
    return next((n for n in names if n == wanted or key(n) == k), None)


@dataclass
class Title:
    """One title: kind is the rules' title ("Inventor", "Priest", "Skilled", "Slave", "Tenant" ...), subject
    its X (a technology, a god, an attack type, a character), n its (N) where it has one."""

    kind: str
    subject: str = ""
    n: int | None = None

    def label(self) -> str:
        words = {
            "Inventor": "Inventor of Technology {s}", "Builder": "Builder of Building {s}",
            "Minister": "Minister of Policy {s}", "Slave": "Slave of {s}", "Owner": "Owner of {s}",
            "Tenant": "Tenant of {s}", "Captain": "Captain of Unit {s}", "Conqueror": "Conqueror of City {s}",
            "Hero": "Hero of City {s}", "Destroyer": "Destroyer of City {s}", "Priest": "Priest of {s}",
            "Experienced": "Experienced at {s}", "Skilled": "Skilled at {s}", "Master": "Master of {s}",
            "Defiant Slave": "Defiant Slave",
        }
        text = words.get(self.kind, self.kind + " {s}").format(s=self.subject).strip()
        return f"{text} ({self.n})" if self.n is not None else text


#: The titles that bind one character to another: a death undoes them (deaths.kill), so they are indexed by whom
#: they name (`Roster.bound_to`).
BONDS = ("Slave", "Tenant", "Owner")


class Titles(list[Title]):
    """A character's titles: a list that tells its holder's `Roster` of each bond title given (`BONDS`), so the
    index of bonds needs no scan of every character after a capture or a transfer of land."""

    holder: Character | None = None

    def append(self, title: Title) -> None:
        super().append(title)
        roster = getattr(self.holder, "_roster", None)
        if roster is not None and title.kind in BONDS:
            roster.bind(self.holder, title)


def _titles(holder: Character, titles: Iterable[Title]) -> Titles:
    out = Titles(titles)
    out.holder = holder
    return out


@dataclass
class Character:
    name: str
    house: str  # the player (house) the character belongs to
    xp: int = 1
    fame: int = 0
    wisdom: int = 1
    craft: int = 1
    role: str = "peasant"  # one of ROLES; a soldier is any character in a unit
    city: str | None = None  # the city he lives in (None while in a unit away from cities)
    hex: str | None = None  # the workable hex he lives on, within `city`
    unit: str | None = None  # the unit he is enlisted in
    titles: list[Title] = field(default_factory=list)
    beakers: int = 0  # this session's science beakers (lost at the session's end)
    hammers: int = 0  # this session's production hammers
    defend: int = 0  # how many Defend actions have resolved this session (x2 each)
    alive: bool = True
    since: int = 0  # the session he came into the game: he acts from the next one (LJ-OQ-30)

    def __post_init__(self) -> None:
        self.titles = _titles(self, self.titles)

    def title(self, kind: str, subject: str | None = None) -> Title | None:
        return next((t for t in self.titles if t.kind == kind and (subject is None or t.subject == subject)), None)

    def drop_title(self, kind: str, subject: str | None = None) -> None:
        self.titles = _titles(self, (t for t in self.titles
                                     if not (t.kind == kind and (subject is None or t.subject == subject))))

    @property
    def owner(self) -> str | None:
        """The character who owns him, if he is a slave."""
        t = self.title("Slave")
        return t.subject if t else None

    @property
    def landlord(self) -> str | None:
        """The citizen (or Tlatoani) whose land he is a tenant on."""
        t = self.title("Tenant")
        return t.subject if t else None


class Roster:
    """The characters of a world by house (dead ones too, in the world's order) and the characters holding a bond
    title (`BONDS`) by the name it names. Characters are only ever added to a world, never removed and never
    change house, so the index is extended when the world has more characters than it holds; a bond title given
    later is added by the holder's `Titles`. One taken away stays listed: a reader checks the titles it finds."""

    def __init__(self, characters: dict[str, Character]) -> None:
        self.characters = characters
        self.count = 0
        self.order: dict[str, int] = {}  # character -> his place in the world's order
        self.by_house: dict[str, list[Character]] = {}
        self.bonds: dict[str, list[Character]] = {}  # a name -> who holds a bond title naming it
        self.by_key: dict[str, Character] = {}  # `key` of a name -> the first character so named
        self.extend()

    def extend(self) -> None:
        added = len(self.characters) - self.count
        if added <= 0:
            return
        # New characters are the last ones of the dict: read from its end, not through every character.
        new = list(islice(reversed(self.characters.items()), added))[::-1]
        for name, c in new:
            self.by_key.setdefault(key(name), c)
            self.order[c.name] = self.count
            self.count += 1
            self.by_house.setdefault(c.house, []).append(c)
            c.__dict__["_roster"] = self
            for t in c.titles:
                if t.kind in BONDS:
                    self.bind(c, t)

    def bind(self, holder: Character, title: Title) -> None:
        self.bonds.setdefault(title.subject, []).append(holder)

    def bound_to(self, name: str) -> list[Character]:
        """Who holds (or held) a bond title naming `name`, once each, in the world's order."""
        found = {c.name: c for c in self.bonds.get(name, [])}
        return sorted(found.values(), key=lambda c: self.order[c.name])


@dataclass
class House:
    name: str  # the player's name: the house is the player
    email: str
    food: int = 0
    gold: int = 0
    password: str | None = None
    since: int = 0  # the session the house joined
    # Join Houses (maild_rules.jungle.houses): the house whose food and gold this one shares, and the offer
    # to join that waits for the other house's highest-Fame character ({"with": house, "session": n}).
    joined: str | None = None
    join_offer: dict[str, Any] | None = None
    trapped_since: int | None = None  # since when all its characters are Slave-Tenants (signing up again)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "joined":
            JOINS_CHANGED[0] += 1  # the houses joined together are found again (houses.group)
        super().__setattr__(name, value)


#: How many times a house was joined to another or split from it, in any world of this process: what
#: `houses.group`'s index of joined houses is good for (a count, not a flag, so no world resets another's).
JOINS_CHANGED = [0]


@dataclass
class Hex:
    name: str
    food: int = 0
    hammers: int = 0
    beakers: int = 0
    gold: int = 0
    citizen: str | None = None  # the citizen owning the land tile (the Tlatoani owns the city hex)


@dataclass
class City:
    name: str
    hexes: dict[str, Hex] = field(default_factory=dict)  # the workable hexes, by name
    centre: str = ""  # the city hex
    tlatoani: str | None = None
    citizens: int = 0  # citizens (population) in the city, from the GM
    specialist_slots: int = 0
    puppet: bool = False
    happiness: int = 0
    strength: int = 0  # the city strength: the location strength of attacks in the city
    income: int = 0  # City Specific Income and Trade per Economic Overview
    expenses: int = 0  # City Specific Expenses per Economic Overview
    food: int = 0  # the city's net food production
    position: tuple[int, int] | None = None  # map coordinates, for "within 2 hexes" (LJ-OQ-31)
    builds: dict[str, int] = field(default_factory=dict)  # buildings and units producible here -> cost


@dataclass
class Unit:
    name: str
    kind: str = "Warrior"
    level: int | None = None  # None: a non-military unit (word limit 15)
    health: int = 10
    military: bool = True
    melee: int = 0  # the unit's melee strength: the location strength of attacks in the unit
    city: str | None = None  # the city it is in or nearest to
    position: tuple[int, int] | None = None
    captain: str | None = None
    orders: str = ""  # the Captain's standing orders
    orders_session: int | None = None  # the session they were given
    fortify: bool = False  # the last orders were over the word limit: the unit fortifies


@dataclass
class Empire:
    treasury: int = 0  # the empire's gold, from the GM
    expenses: int = 0  # Empire Wide Expenses
    beakers_per_citizen: int = 0
    hammers_per_citizen: int = 0
    food_per_citizen: int = 0
    technologies: dict[str, int] = field(default_factory=dict)  # researchable now -> era
    policies: dict[str, int] = field(default_factory=dict)  # adoptable now -> era
    policy_due: bool = False  # the GM says a new policy is to be adopted
    known: list[str] = field(default_factory=list)  # technologies already discovered


@dataclass
class World:
    """The whole state of a game of The Law of the Jungle."""

    session: int = 0  # the last council session resolved (0 before the first)
    kicked_off: bool = False
    festival: str | None = None  # the god of this session's festival, drawn when the Morning opens
    houses: dict[str, House] = field(default_factory=dict)
    characters: dict[str, Character] = field(default_factory=dict)
    cities: dict[str, City] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    empire: Empire = field(default_factory=Empire)
    # The planned second actions of the Morning that use both actions (Travel, a doubled Order, Defend
    # twice): character -> the action as stored, kept for the Afternoon.
    both: dict[str, dict[str, Any]] = field(default_factory=dict)
    policy_support: list[dict[str, Any]] = field(default_factory=list)  # {character, policy, fame}
    # This session's Research and Produce actions, kept for the Evening's draws (maild_rules.jungle.research):
    # {character, technology, part} and {character, city, item, part}, in the order they resolved.
    research: list[dict[str, Any]] = field(default_factory=list)
    production: list[dict[str, Any]] = field(default_factory=list)
    # The last Evening's picks (research, production, policy), which the GM's update credits titles by.
    draws: list[dict[str, Any]] = field(default_factory=list)
    proposals: list[dict[str, Any]] = field(default_factory=list)  # rule changes and diplomacy, for the GM
    todo: list[dict[str, Any]] = field(default_factory=list)  # this session's to-do list for the GM
    log: list[dict[str, Any]] = field(default_factory=list)  # this phase's events (printouts, newsletter)
    settings: dict[str, Any] = field(default_factory=dict)  # the setup's options
    # The characters of a captured settler or worker, out of the game until it is rescued: unit -> the names
    # (units.capture_unit / units.rescue_unit).
    held: dict[str, list[str]] = field(default_factory=dict)

    # -- lookups --------------------------------------------------------------------------------------
    def character(self, name: str) -> Character | None:
        c = self.characters.get(name)
        if c is not None:
            return c
        # Characters are only ever added, never renamed or removed (the dead stay, with alive False): the
        # roster's index of compared names grows with them, and lookups stay O(1) in a session.
        return self.roster().by_key.get(key(name))

    def city(self, name: str | None) -> City | None:
        found = name if name in self.cities else find_name(self.cities, name)
        return self.cities[found] if found is not None else None

    def unit(self, name: str | None) -> Unit | None:
        found = name if name in self.units else find_name(self.units, name)
        return self.units[found] if found is not None else None

    def members(self, house: str) -> list[Character]:
        return [c for c in self.roster().by_house.get(house, ()) if c.alive]

    def roster(self) -> Roster:
        """Characters by house and bonds by name (`Roster`), up to date with the characters added since."""
        roster = self.__dict__.get("_roster")
        if roster is None or roster.characters is not self.characters or roster.count > len(self.characters):
            roster = self.__dict__["_roster"] = Roster(self.characters)
        else:
            roster.extend()
        return roster

    def living(self) -> list[Character]:
        return [c for c in self.characters.values() if c.alive]

    # -- JSON -----------------------------------------------------------------------------------------
    @classmethod
    def load(cls, state: dict[str, Any]) -> World:
        w = cls(**{f.name: state[f.name] for f in fields(cls)
                   if f.name in state and f.name not in ("houses", "characters", "cities", "units", "empire")})
        w.houses = {n: House(**h) for n, h in state.get("houses", {}).items()}
        w.characters = {n: _character(c) for n, c in state.get("characters", {}).items()}
        w.cities = {n: _city(c) for n, c in state.get("cities", {}).items()}
        w.units = {n: _unit(u) for n, u in state.get("units", {}).items()}
        w.empire = Empire(**state.get("empire", {}))
        return w

    def dump(self) -> dict[str, Any]:
        """The state as `dataclasses.asdict` gives it (the same dict, key for key), made without its generic
        walk, which took a second of a 2,000-house session."""
        return _plain(self)


_ATOMS = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if isinstance(value, list):  # Titles too: a plain list in the state
        return [_plain(v) for v in value]
    if kind is dict:
        return {_plain(k): _plain(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(_plain(v) for v in value)
    names = _FIELDS.get(kind)
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in fields(value))
    if names is not None:
        return {n: _plain(getattr(value, n)) for n in names}
    return copy.deepcopy(value)  # as asdict does with anything else


def _character(d: dict[str, Any]) -> Character:
    d = dict(d)
    d["titles"] = [Title(**t) for t in d.get("titles", [])]
    return Character(**d)


def _city(d: dict[str, Any]) -> City:
    d = dict(d)
    d["hexes"] = {n: Hex(**h) for n, h in d.get("hexes", {}).items()}
    if d.get("position") is not None:
        d["position"] = tuple(d["position"])
    return City(**d)


def _unit(d: dict[str, Any]) -> Unit:
    d = dict(d)
    if d.get("position") is not None:
        d["position"] = tuple(d["position"])
    return Unit(**d)
