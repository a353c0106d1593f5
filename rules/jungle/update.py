"""The GM's update: what the empire did in the strategy game, fed in between council sessions with
``maild gm update GAME FILE`` (a TOML file; examples/jungle/update-example.toml is one to start from).

The file has up to five parts, every one optional; what it does not name stays as it is:

- ``note``: a line of the GM's own (kept in the events; makes an update differ from an earlier one);
- ``[empire]``: treasury, expenses, the per-citizen beakers/hammers/food, the researchable ``technologies``
  and adoptable ``policies`` with their eras (each table replaces the old one), ``policy_due``, ``known``;
- ``[cities.NAME]``: a city's figures (citizens, specialist slots, Tlatoani, happiness, strength, income,
  expenses, net food, position, puppet), its producible ``builds`` with their costs (replacing the old
  ones) and its ``hexes`` (each named hex updated or added; ``remove = true`` removes one); a city not in
  the game yet is founded (give its ``centre``); ``remove = true`` removes an empty city;
- ``[units.NAME]``: a unit's kind, level (``"none"`` for a unit without a level), health, military, melee,
  city, position, captain; a unit not in the game yet needs its ``kind``; ``remove = true`` destroys it;
- ``[[events]]``: what happened in the ten gameturns, each crediting titles: a technology discovered
  (Inventor), a building completed (Builder), a unit completed (a new Captain character), a policy adopted
  (Minister), a city captured, liberated or razed by a unit (Conqueror, Hero, Destroyer); and a military
  unit's gain of XP, Fame or gold, which every character in it earns (and the staff of the General whose
  combat bonus it had).

`check_update` refuses a file with unknown keys or bad values when the GM gives it (the ruleset's
``check_gm``); `apply_update` applies it at the start of the next phase, in the order empire, cities, units,
events. docs/law-of-the-jungle.md ("Research, production, policies and the GM's update") has every key.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from maild.ruleset import GmArg, GmOrderSpec

from .awards import award, conqueror_n, destroyer_n, hero_n
from .council import Council
from .model import Character, City, Hex, Title, Unit, World, key
from .research import GAMETURNS
from .transfers import retenant_all

UPDATE_ORDER = GmOrderSpec(
    word="update", kind="gm_update",
    help="feed in what the empire did: cities, units, technologies, policies and events (a TOML file)",
    description=(
        "Apply FILE, a TOML table of the empire's figures and deeds in the strategy game, at the start of the\n"
        "game's next phase: [empire], [cities.NAME], [units.NAME] and [[events]] (technology, building, unit,\n"
        "policy, captured, liberated, razed, gain), which credit the Inventor, Builder, Minister, Captain,\n"
        "Conqueror, Hero and Destroyer titles by the last session's draws, and share a unit's gain of XP, Fame\n"
        "or gold with every character in it. Unknown keys and bad values are refused with\n"
        "the reason. The same file twice is recorded once (add a different note = \"...\" to send it again).\n\n"
        "example: maild gm update aztlan update-session-3.toml"),
    args=(GmArg("file", "file", "the update (TOML): see examples/jungle/update-example.toml", metavar="FILE"),),
    summary="update from {file}", idempotent=True)

MAX_HEALTH = 10  # ENLISTING IN A UNIT: "A unit at full health may contain 10 characters."

# -- checking ------------------------------------------------------------------------------------------------

Check = Callable[[Any], str | None]  # None: fine; else what the value must be


def _whole(low: int | None = None, high: int | None = None) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return f"must be a whole number, not {v!r}"
        if low is not None and v < low or high is not None and v > high:
            span = f"from {low} to {high}" if high is not None else f"{low} or more"
            return f"must be a whole number {span}, not {v}"
        return None
    return check


def _flag(v: Any) -> str | None:
    return None if isinstance(v, bool) else f"must be true or false, not {v!r}"


def _text(v: Any) -> str | None:
    return None if isinstance(v, str) else f"must be a string, not {v!r}"


def _name(v: Any) -> str | None:
    return None if isinstance(v, str) and v.strip() else f"must be a name, not {v!r}"


def _position(v: Any) -> str | None:
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return None
    return f"must be two whole numbers [x, y], not {v!r}"


def _level(v: Any) -> str | None:
    if v == "none":
        return None
    return _whole(0)(v) and f"must be a whole number 0 or more, or \"none\" for a unit without a level, not {v!r}"


def _names(v: Any) -> str | None:
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return None
    return f"must be a list of names, not {v!r}"


def _table_of(check: Check) -> Check:
    def table(v: Any) -> str | None:
        if not isinstance(v, dict):
            return f"must be a table of name = value, not {v!r}"
        for name, x in v.items():
            if (bad := check(x)) is not None:
                return f"{name}: {bad}"
        return None
    return table


COUNT = _whole(0)
NUMBER = _whole()
EMPIRE_KEYS: dict[str, Check] = {
    "treasury": COUNT, "expenses": COUNT, "beakers_per_citizen": COUNT, "hammers_per_citizen": COUNT,
    "food_per_citizen": COUNT, "technologies": _table_of(COUNT), "policies": _table_of(COUNT),
    "policy_due": _flag, "known": _names,
}
CITY_KEYS: dict[str, Check] = {
    "citizens": COUNT, "specialist_slots": COUNT, "tlatoani": _text, "happiness": NUMBER, "strength": COUNT,
    "income": NUMBER, "expenses": NUMBER, "food": NUMBER, "position": _position, "puppet": _flag,
    "centre": _name, "builds": _table_of(COUNT), "remove": _flag,
}  # and "hexes", checked by _check_hexes
HEX_KEYS: dict[str, Check] = {"food": COUNT, "hammers": COUNT, "beakers": COUNT, "gold": COUNT, "remove": _flag}
UNIT_KEYS: dict[str, Check] = {
    "kind": _name, "level": _level, "health": _whole(0, MAX_HEALTH), "military": _flag, "melee": COUNT,
    "city": _text, "position": _position, "captain": _name, "remove": _flag,
}
TURN = _whole(1, GAMETURNS)
CREDIT: dict[str, Check] = {"gameturn": TURN, "character": _text}
EVENT_KEYS: dict[str, dict[str, Check]] = {
    "technology": {"name": _name, "era": COUNT, **CREDIT},
    "building": {"name": _name, "city": _name, "era": COUNT, **CREDIT},
    "unit": {"unit": _name, "city": _name, "item": _name, "house": _name, "captain": _name, "by": _name, **CREDIT},
    "policy": {"name": _name, "era": COUNT, "character": _text},
    "captured": {"city": _name, "unit": _name, "citizens": COUNT},
    "liberated": {"city": _name, "unit": _name, "citizens": COUNT, "previously_aztec": _flag,
                  "founded_by_aztecs": _flag},
    "razed": {"city": _name, "unit": _name, "citizens": COUNT, "previously_aztec": _flag,
              "founded_by_aztecs": _flag},
    "gain": {"unit": _name, "xp": COUNT, "fame": COUNT, "gold": COUNT, "general": _name},
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "technology": ("name",), "building": ("name", "city", "era"), "unit": ("unit",), "policy": ("name",),
    "captured": ("city", "unit", "citizens"), "liberated": ("city", "unit", "citizens"),
    "razed": ("city", "unit", "citizens"), "gain": ("unit",),
}
TOP_KEYS = ("note", "empire", "cities", "units", "events")


class _Problems:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, path: str, message: str) -> None:
        self.lines.append(f"update: {path}: {message}")

    def keys(self, path: str, table: Any, known: dict[str, Check]) -> bool:
        """Check `table`'s keys against `known`; False if it is not a table at all."""
        if not isinstance(table, dict):
            self.add(path, f"must be a table, not {table!r}")
            return False
        for k, v in table.items():
            check = known.get(k)
            if check is None:
                self.add(f"{path}.{k}", f"unknown key (known: {', '.join(known)})")
            elif (bad := check(v)) is not None:
                self.add(f"{path}.{k}", bad)
        return True


def check_update(world: World, table: dict[str, Any], pending: Sequence[dict[str, Any]] = ()) -> str | None:
    """Why the update `table` cannot be applied to `world` (every problem, a line each, ``update: PATH:
    message``), or None when it can. `pending` are the updates already recorded for the same session, which
    will be applied before it: it is checked against the world as they leave it (a unit one adds, the next
    may name), worked out on a copy."""
    if pending:
        world = World.load(world.dump())
        scratch = Council(world, random.Random(0), "morning")  # the copy's draws are thrown away with it
        for earlier in pending:
            apply_update(scratch, earlier)
    p = _Problems()
    for k in table:
        if k not in TOP_KEYS:
            p.add(k, f"unknown part (an update has {', '.join(TOP_KEYS)})")
    if "note" in table and (bad := _text(table["note"])):
        p.add("note", bad)
    if "empire" in table:
        p.keys("empire", table["empire"], EMPIRE_KEYS)
    cities = table.get("cities", {})
    if _is_table(p, "cities", cities):
        for name, t in cities.items():
            _check_city(p, world, table, name, t)
    units = table.get("units", {})
    if _is_table(p, "units", units):
        for name, t in units.items():
            _check_unit(p, world, table, name, t)
    events = table.get("events", [])
    if not isinstance(events, list):
        p.add("events", "must be a list of tables ([[events]])")
    else:
        for i, ev in enumerate(events, 1):
            _check_event(p, world, table, f"events[{i}]", ev)
    return "\n".join(p.lines) if p.lines else None


def _is_table(p: _Problems, path: str, v: Any) -> bool:
    if isinstance(v, dict):
        return True
    p.add(path, "must be a table of tables ([PART.NAME])")
    return False


def _check_city(p: _Problems, world: World, table: dict[str, Any], name: str, t: Any) -> None:
    path = f"cities.{_quote(name)}"
    if not p.keys(path, {k: v for k, v in t.items() if k != "hexes"} if isinstance(t, dict) else t, CITY_KEYS):
        return
    city = world.cities.get(name)
    if city is None and t.get("remove"):
        p.add(path, f"there is no city {name} to remove")
    elif city is None and "centre" not in t:
        known = ", ".join(world.cities) or "none"
        p.add(path, f"no city {name} in the game (cities: {known}); to found it, give its centre")
    if city is not None and t.get("remove"):
        dwellers = [c.name for c in world.living() if c.city == name]
        if dwellers:
            p.add(path, f"cannot remove {name}: {', '.join(dwellers)} live{'s' if len(dwellers) == 1 else ''} there")
    if isinstance(t.get("tlatoani"), str) and t["tlatoani"]:
        ruler = world.character(t["tlatoani"])
        if ruler is None or not ruler.alive:
            p.add(f"{path}.tlatoani", f"no living character {t['tlatoani']}")
    if "hexes" in t:
        hexes = t["hexes"]
        if not isinstance(hexes, dict):
            p.add(f"{path}.hexes", "must be a table of hexes ([cities.NAME.hexes.HEX])")
            return
        for hex_name, h in hexes.items():
            hex_path = f"{path}.hexes.{_quote(hex_name)}"
            if not p.keys(hex_path, h, HEX_KEYS) or not h.get("remove"):
                continue
            if city is None or hex_name not in city.hexes:
                p.add(hex_path, f"there is no hex {hex_name} in {name} to remove")
                continue
            dwellers = [c.name for c in world.living() if c.city == name and c.hex == hex_name]
            if dwellers:
                p.add(hex_path, f"cannot remove {hex_name}: {', '.join(dwellers)} live"
                                f"{'s' if len(dwellers) == 1 else ''} there")


GAINS = ("xp", "fame", "gold")  # what a unit's gain is of: "XP, Fame or gold" (CHARACTERS IN A UNIT)
GAIN_HINT = ('a unit\'s gain is an event, which every character in the unit earns: [[events]] kind = "gain", '
             'unit = "NAME", xp = N (fame, gold; general = "UNIT" for the staff of the General whose bonus it had)')


def _check_unit(p: _Problems, world: World, table: dict[str, Any], name: str, t: Any) -> None:
    path = f"units.{_quote(name)}"
    if isinstance(t, dict) and any(k in t for k in GAINS):
        for k in (k for k in GAINS if k in t):
            p.add(f"{path}.{k}", GAIN_HINT)
        t = {k: v for k, v in t.items() if k not in GAINS}
    if not p.keys(path, t, UNIT_KEYS):
        return
    unit = world.units.get(name)
    if unit is None and t.get("remove"):
        p.add(path, f"there is no unit {name} to remove")
    elif unit is None and "kind" not in t:
        known = ", ".join(world.units) or "none"
        p.add(path, f"no unit {name} in the game (units: {known}); a new unit needs its kind")
    if isinstance(t.get("city"), str) and t["city"] and not _city_known(world, table, t["city"]):
        p.add(f"{path}.city", f"no city {t['city']} in the game or in this update")
    if isinstance(t.get("captain"), str):
        captain = world.character(t["captain"])
        if captain is None or not captain.alive:
            p.add(f"{path}.captain", f"no living character {t['captain']}")


def _check_event(p: _Problems, world: World, table: dict[str, Any], path: str, ev: Any) -> None:
    if not isinstance(ev, dict) or ev.get("kind") not in EVENT_KEYS:
        kind = ev.get("kind") if isinstance(ev, dict) else ev
        p.add(f"{path}.kind", f"unknown event {kind!r} (events: {', '.join(EVENT_KEYS)})")
        return
    kind = ev["kind"]
    path = f"{path} ({kind})"
    before = len(p.lines)
    p.keys(path, {k: v for k, v in ev.items() if k != "kind"}, EVENT_KEYS[kind])
    for k in REQUIRED[kind]:
        if k not in ev:
            p.add(path, f"needs {k}")
    if len(p.lines) > before:
        return
    if ev.get("character"):
        c = world.character(ev["character"])
        if c is None or not c.alive:
            p.add(f"{path}.character", f"no living character {ev['character']}")
            return
    if kind == "technology":
        if ev["name"] in world.empire.known:
            p.add(path, f"{ev['name']} is discovered already")
        if "era" not in ev and _era(world, table, "technologies", ev["name"]) is None:
            p.add(path, f"{ev['name']} is not a researchable technology: give its era")
        _check_credit(p, world, path, ev, "research", None, ev["name"])
    elif kind == "building":
        if not _city_known(world, table, ev["city"]):
            p.add(f"{path}.city", f"no city {ev['city']} in the game or in this update")
        _check_credit(p, world, path, ev, "production", ev["city"], ev["name"])
    elif kind == "unit":
        _check_unit_event(p, world, table, path, ev)
    elif kind == "policy":
        if "era" not in ev and _era(world, table, "policies", ev["name"]) is None:
            p.add(path, f"{ev['name']} is not an adoptable policy: give its era")
    elif kind == "gain":
        _check_gain(p, world, table, path, ev)
    else:
        if not _unit_known(world, table, ev["unit"]):
            p.add(f"{path}.unit", f"no unit {ev['unit']} in the game or in this update")


def _check_unit_event(p: _Problems, world: World, table: dict[str, Any], path: str, ev: dict[str, Any]) -> None:
    name = ev["unit"]
    if not _unit_known(world, table, name):
        p.add(f"{path}.unit", f"no unit {name} in the game or in this update (add it under [units])")
        return
    unit = world.units.get(name)
    units = table.get("units", {})
    new = units.get(name, {}) if isinstance(units, dict) else {}
    new = new if isinstance(new, dict) else {}
    if unit is not None and unit.captain and _alive(world, unit.captain):
        p.add(path, f"{name} has a Captain already ({unit.captain})")
    city = ev.get("city") or new.get("city") or (unit.city if unit else None)
    item = ev.get("item") or new.get("kind") or (unit.kind if unit else None)
    if "house" in ev and ev["house"] not in world.houses:
        p.add(f"{path}.house", f"no house {ev['house']}")
    if "captain" in ev and world.character(ev["captain"]) is not None:
        p.add(f"{path}.captain", f"the name {ev['captain']} is taken")
    if "by" in ev:  # a worker captured by the unit `by`
        capturer = world.units.get(ev["by"])
        if capturer is None:
            p.add(f"{path}.by", f"no unit {ev['by']} in the game")
        elif not (capturer.captain and _alive(world, capturer.captain)):
            p.add(f"{path}.by", f"{ev['by']} has no Captain to receive the worker's character: give the house")
        return
    if "house" not in ev:
        if "gameturn" in ev and not city:
            p.add(path, f"give the city {name} was produced in")
            return
        _check_credit(p, world, path, ev, "production", city, item)


def _check_gain(p: _Problems, world: World, table: dict[str, Any], path: str, ev: dict[str, Any]) -> None:
    """CHARACTERS IN A UNIT: "When a military unit gains XP, Fame or gold through any of its actions": a
    military unit, something gained, and the General's unit (if any) another unit of the game."""
    name = ev["unit"]
    if not _unit_known(world, table, name):
        p.add(f"{path}.unit", f"no unit {name} in the game or in this update (add it under [units])")
    elif not _unit_military(world, table, name):
        p.add(f"{path}.unit", f"{name} is not a military unit: only a military unit's gains are shared")
    if not any(ev.get(k) for k in GAINS):
        p.add(path, "give what the unit gained: xp, fame or gold (a whole number above 0)")
    general = ev.get("general")
    if general is not None:
        if not _unit_known(world, table, general):
            p.add(f"{path}.general", f"no unit {general} in the game or in this update")
        elif key(general) == key(name):
            p.add(f"{path}.general", "the General's unit is another unit than the one that gained")


def _unit_military(world: World, table: dict[str, Any], name: str) -> bool:
    units = table.get("units", {})
    new = units.get(name, {}) if isinstance(units, dict) else {}
    if isinstance(new, dict) and "military" in new:
        return bool(new["military"])
    unit = world.units.get(name)
    return unit is None or unit.military


def _check_credit(p: _Problems, world: World, path: str, ev: dict[str, Any], kind: str, city: str | None,
                  project: str | None) -> None:
    """The character credited: the one named, or the pick of that gameturn, which must be for the project."""
    if "character" in ev:
        return
    if "gameturn" not in ev:
        p.add(path, "give the gameturn it was completed in (the draw's pick of that gameturn is credited), "
                    "or character = \"NAME\" (or \"\" for nobody)")
        return
    pick = _pick(world, kind, ev["gameturn"], city)
    if pick is None:
        where = f" in {city}" if city else ""
        p.add(path, f"the last session's draws have no {kind} pick{where} in gameturn {ev['gameturn']}; "
                    "name the character = \"NAME\" (or \"\" for nobody)")
        return
    picked = pick["technology"] if kind == "research" else pick["item"]
    if project is None or picked is None or key(picked) != key(project):
        p.add(path, f"gameturn {ev['gameturn']}'s {kind} pick{' in ' + city if city else ''} was {picked}, "
                    f"not {project}; name the character = \"NAME\" (or \"\" for nobody)")


def _pick(world: World, kind: str, turn: int, city: str | None) -> dict[str, Any] | None:
    return next((e for e in world.draws if e["kind"] == kind and e["gameturn"] == turn
                 and (city is None or key(e.get("city") or "") == key(city))), None)


def _era(world: World, table: dict[str, Any], what: str, name: str) -> int | None:
    empire = table.get("empire", {})
    new = empire.get(what, {}) if isinstance(empire, dict) else {}
    eras = {**getattr(world.empire, what), **(new if isinstance(new, dict) else {})}
    return next((era for n, era in eras.items() if key(n) == key(name)), None)


def _city_known(world: World, table: dict[str, Any], name: str) -> bool:
    return name in world.cities or name in table.get("cities", {})


def _unit_known(world: World, table: dict[str, Any], name: str) -> bool:
    return name in world.units or name in table.get("units", {})


def _alive(world: World, name: str) -> bool:
    c = world.characters.get(name)
    return c is not None and c.alive


def _quote(name: str) -> str:
    return name if name.replace("_", "").replace("-", "").isalnum() else f'"{name}"'


# -- applying ------------------------------------------------------------------------------------------------

def _module(name: str) -> ModuleType:
    """A module of another part of the game, imported when first needed (maild_rules.jungle.units, cities,
    transfers): the update calls them, and tests stand them in through sys.modules."""
    return importlib.import_module(f"maild_rules.jungle.{name}")


def apply_update(council: Council, table: dict[str, Any]) -> None:
    """Apply the GM's update `table` to the world, at the start of a phase. It is checked again first: one
    that no longer fits the world (a character named in it has died since) is not applied at all, and the
    GM's to-do says why."""
    world = council.world
    problem = check_update(world, table)
    if problem is not None:
        world.todo.append({"kind": "update refused", "character": None,
                           "text": "the GM's update was not applied:\n" + problem})
        council.event("gm_update_refused", reason=problem)
        return
    eras = {what: {**getattr(world.empire, what), **table.get("empire", {}).get(what, {})}
            for what in ("technologies", "policies")}
    _apply_empire(world, table.get("empire", {}))
    for name, t in table.get("cities", {}).items():
        _apply_city(council, name, t)
    for name, t in table.get("units", {}).items():
        _apply_unit(council, name, t)
    for ev in table.get("events", []):
        EVENTS[ev["kind"]](council, ev, eras)
    # A throne left empty or a tile gone changes who is whose tenant (TENANT OF CITIZEN X).
    retenant_all(world)
    council.event("gm_update_applied", note=table.get("note", ""))


def _apply_empire(world: World, t: dict[str, Any]) -> None:
    for k, v in t.items():
        setattr(world.empire, k, dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)


def _apply_city(council: Council, name: str, t: dict[str, Any]) -> None:
    world = council.world
    if t.get("remove"):
        del world.cities[name]
        for unit in world.units.values():
            if unit.city == name:
                unit.city = None
        council.announce(f"{name} is no longer a city of the Aztecs.")
        return
    city = world.cities.get(name)
    if city is None:
        city = world.cities[name] = City(name=name, centre=t["centre"])
        city.hexes[city.centre] = Hex(city.centre)
        council.announce(f"The city of {name} is founded.")
    old_citizens = city.citizens
    for k, v in t.items():
        if k == "position":
            city.position = (v[0], v[1])
        elif k == "builds":
            city.builds = dict(v)
        elif k == "hexes":
            _apply_hexes(city, v)
        elif k in ("citizens", "specialist_slots", "happiness", "strength", "income", "expenses", "food",
                   "puppet", "centre"):
            setattr(city, k, v)
    if "centre" in t and city.centre not in city.hexes:
        city.hexes[city.centre] = Hex(city.centre)
    if "tlatoani" in t:
        _apply_tlatoani(council, city, t["tlatoani"])
    # CITIZEN: "The number of citizens in a city is equal to the number of citizens in the game": the cities
    # part draws new citizens when the city grows and demotes one per citizen it loses.
    if city.citizens != old_citizens:
        _module("cities").citizens_changed(council, city, old_citizens, city.citizens)


def _apply_hexes(city: City, hexes: dict[str, Any]) -> None:
    for name, h in hexes.items():
        if h.get("remove"):
            del city.hexes[name]
            continue
        tile = city.hexes.setdefault(name, Hex(name))
        for k in ("food", "hammers", "beakers", "gold"):
            if k in h:
                setattr(tile, k, h[k])


def _apply_tlatoani(council: Council, city: City, name: str) -> None:
    world = council.world
    if not name:
        old = world.characters.get(city.tlatoani) if city.tlatoani else None
        if old is not None and old.role == "tlatoani":
            old.role = "peasant"
        city.tlatoani = None
        return
    ruler = world.character(name)
    assert ruler is not None  # checked
    if city.tlatoani != ruler.name:
        _module("transfers").transfer_rulership(world, city.name, ruler)
        council.announce(f"{ruler.name} is Tlatoani of {city.name}.")


def _apply_unit(council: Council, name: str, t: dict[str, Any]) -> None:
    world = council.world
    unit = world.units.get(name)
    if t.get("remove"):
        assert unit is not None  # checked
        if unit.health > 0:
            old, unit.health = unit.health, 0
            _module("units").health_changed(council, unit, old, 0)  # "If a unit is killed, all ... are killed."
        del world.units[name]
        council.announce(f"The unit {name} is lost.")
        return
    if unit is None:
        unit = world.units[name] = Unit(name=name, kind=t["kind"])
    old_health = unit.health
    for k, v in t.items():
        if k == "position":
            unit.position = (v[0], v[1])
        elif k == "level":
            unit.level = None if v == "none" else v
        elif k == "city":
            unit.city = v or None
        elif k in ("kind", "health", "military", "melee"):
            setattr(unit, k, v)
    if "captain" in t:
        captain = world.character(t["captain"])
        if captain is not None and unit.captain != captain.name:
            _module("transfers").transfer_captaincy(world, unit.name, captain)
    if unit.health != old_health:
        # LIFE AND DEATH IN A UNIT: a loss of health kills characters in it, a gain fills in NPCs.
        _module("units").health_changed(council, unit, old_health, unit.health)


# -- events --------------------------------------------------------------------------------------------------

Eras = dict[str, dict[str, int]]


def _credited(world: World, ev: dict[str, Any], kind: str, city: str | None) -> Character | None:
    """The character an event credits: the one it names, else the draws' pick of its gameturn (None: NPCs)."""
    if "character" in ev:
        return world.character(ev["character"]) if ev["character"] else None
    pick = _pick(world, kind, ev["gameturn"], city)
    return world.characters.get(pick["character"]) if pick and pick["character"] else None


def _titled(council: Council, who: Character, title: Title, deed: str) -> None:
    council.tell(who.house, f"{who.name} {deed} and is {title.label()}.")
    council.announce(f"{who.name} of the house of {who.house} {deed} and is {title.label()}.")
    council.event("title", character=who.name, title=title.kind, subject=title.subject, n=title.n)


def _technology(council: Council, ev: dict[str, Any], eras: Eras) -> None:
    world = council.world
    name = ev["name"]
    era = ev["era"] if "era" in ev else next(e for n, e in eras["technologies"].items() if key(n) == key(name))
    for n in [n for n in world.empire.technologies if key(n) == key(name)]:
        del world.empire.technologies[n]
    world.empire.known.append(name)
    who = _credited(world, ev, "research", None)
    if who is None:
        council.announce(f"The empire discovers {name} (the work of NPCs).")
        return
    # INVENTOR OF TECHNOLOGY X (N): "The era number of the technology is placed in parenthesis" (LJ-OQ-24).
    _titled(council, who, award(who, "Inventor", name, era), f"discovered {name}")


def _building(council: Council, ev: dict[str, Any], eras: Eras) -> None:
    world = council.world
    who = _credited(world, ev, "production", ev["city"])
    if who is None:
        council.announce(f"{ev['name']} is completed in {ev['city']} (the work of NPCs).")
        return
    _titled(council, who, award(who, "Builder", ev["name"], ev["era"]), f"completed {ev['name']} in {ev['city']}")


def _unit(council: Council, ev: dict[str, Any], eras: Eras) -> None:
    """NEW UNITS: "the player credited with finishing the unit receives a new character who starts as a soldier
    and has the title "Captain of Unit X"". A unit the NPCs produced has no Captain (the GM controls it) unless
    the event gives it to a house ("as determined by Yahzuk")."""
    world = council.world
    unit = world.units[ev["unit"]]
    if "city" in ev and unit.city is None:
        unit.city = ev["city"]
    if "house" in ev:
        house, credit = ev["house"], None
    elif "by" in ev:
        # CAPTURING CITIES AND WORKERS: "If a worker is captured, the player controlling the Captain of the
        # capturing unit receives the new character."
        capturer = world.character(world.units[ev["by"]].captain or "")
        assert capturer is not None  # checked
        house, credit = capturer.house, None
    else:
        credit = _credited(world, ev, "production", ev.get("city") or unit.city)
        house = credit.house if credit is not None else None
    if house is None:
        council.announce(f"The unit {unit.name} is completed (the work of NPCs); it has no Captain.")
        return
    name = ev.get("captain") or captain_name(world, unit.name)
    captain = Character(name=name, house=house, role="soldier", city=unit.city, unit=unit.name,
                        titles=[Title("Captain", unit.name)], since=world.session)
    world.characters[name] = captain
    unit.captain = name
    whose = (f"{credit.name} completed the unit {unit.name}" if credit
             else f"{ev['by']} captured the worker {unit.name}" if "by" in ev else f"the unit {unit.name} is given")
    council.tell(house, f"{whose}: the house of {house} gains {name}, a soldier and Captain of Unit {unit.name}.")
    council.announce(f"{name} of the house of {house} is Captain of Unit {unit.name}.")
    council.event("new_character", character=name, house=house, unit=unit.name)


def captain_name(world: World, unit: str) -> str:
    """A name for a new Captain the GM did not name: "Captain of Jaguar Warriors", numbered if taken."""
    base = f"Captain of {unit}"
    name, n = base, 1
    while world.character(name) is not None:
        n += 1
        name = f"{base} {n}"
    return name


def _policy(council: Council, ev: dict[str, Any], eras: Eras) -> None:
    world = council.world
    name = ev["name"]
    era = ev["era"] if "era" in ev else next(e for n, e in eras["policies"].items() if key(n) == key(name))
    for n in [n for n in world.empire.policies if key(n) == key(name)]:
        del world.empire.policies[n]
    # The policy draw names the Minister in the Evening; the event names one only for a policy adopted
    # otherwise (the GM's own choice, a deferred one), and never gives the same Minister twice.
    who = world.character(ev["character"]) if ev.get("character") else None
    if who is None or who.title("Minister", name) is not None:
        council.announce(f"The empire adopts {name}.")
        return
    _titled(council, who, award(who, "Minister", name, era), f"saw {name} adopted")


def _city_deed(council: Council, ev: dict[str, Any], eras: Eras) -> None:
    """CONQUEROR / HERO / DESTROYER OF CITY X (N): "all characters in the military unit" that captured,
    liberated or razed it, as the unit is when the update comes (LJ-OQ-47)."""
    world = council.world
    kind, city, citizens = ev["kind"], ev["city"], ev["citizens"]
    previously, founded = ev.get("previously_aztec", False), ev.get("founded_by_aztecs", False)
    title, n, deed = {
        "captured": ("Conqueror", conqueror_n(citizens), "captured"),
        "liberated": ("Hero", hero_n(citizens, previously, founded), "liberated"),
        "razed": ("Destroyer", destroyer_n(citizens, previously, founded), "razed"),
    }[kind]
    members = [c for c in world.living() if c.unit == ev["unit"]]
    if not members:
        council.announce(f"The unit {ev['unit']} {deed} {city} (no player characters in it).")
    for c in members:
        _titled(council, c, award(c, title, city, n), f"{deed} {city} with {ev['unit']}")


def _gain(council: Council, ev: dict[str, Any], eras: Eras) -> None:
    """CHARACTERS IN A UNIT: "all characters within the unit earn the same amount of XP, Fame or Gold", and
    those of the General's unit when it had his combat bonus; who is in the units is taken now (LJ-OQ-47)."""
    world = council.world
    unit = world.units[ev["unit"]]
    general = world.units[ev["general"]] if ev.get("general") else None
    _module("units").share_unit_gains(council, unit, {a: ev[a] for a in GAINS if ev.get(a)}, general)
    gained = ", ".join(f"{ev[a]} {'XP' if a == 'xp' else a.capitalize() if a == 'fame' else 'gold'}"
                       for a in GAINS if ev.get(a))
    council.announce(f"The unit {unit.name} gains {gained}" + (f" with the combat bonus of {general.name}"
                                                               if general is not None else "") + ".")


EVENTS: dict[str, Callable[[Council, dict[str, Any], Eras], None]] = {
    "technology": _technology, "building": _building, "unit": _unit, "policy": _policy,
    "captured": _city_deed, "liberated": _city_deed, "razed": _city_deed, "gain": _gain,
}
