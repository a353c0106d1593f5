"""A new Renaissance game from its setup file (TOML, already loaded into a dict), and a GM's amendments to a
running game (new locations, families, players, roads) in the same shape.

Every problem found is reported at once, so a GM fixes the file in one go; each message names the table and the
entry ("locations #12 (Genoa): harbor must be a whole number >= 0, found -3"). Nothing is changed in the state
unless the whole setup or amendment is good. The file format is described key by key in docs/renaissance/world.md;
the state it makes is docs/renaissance-state.md.
"""

from __future__ import annotations

import math
import re
from collections import ChainMap
from collections.abc import Mapping
from typing import Any

from maild import setupfile

# The checks every game's setup shares, under the names this module has always called them by.
from maild.setupfile import Problems as _Problems
from maild.setupfile import unknown_keys as _unknown_keys
from maild.setupfile import whole as _whole

from . import accounts
from .calendar import turn_of
from .grandmasters import order_key
from .items import ALL_ITEMS, CLASSES, TROOPS
from .orderkinds import SKILLS
from .ranks import rank_of_titles
from .walls import MAX_EGRESS_DENIED, MAX_INGRESS, MAX_MARKET_RIGHTS, citizen_families, default_ingress

State = dict[str, Any]

RELIGIONS = ("catholic", "orthodox", "monophysite", "sunni", "shia", "druse", "jewish", "hindu", "buddhist",
             "confucian", "pagan")
ORIGINS = ("european", "african", "asian", "american")
OFFICES = ("sovereign", "feudatory", "tenant", "magistrate", "bishop", "archbishop")
ECCLESIASTICAL = ("bishop", "archbishop")
SELECTIONS = "esftba"  # MAGISTRATES: elected, or appointed by sovereign, feudatory, tenant, bishop, archbishop
# MERCHANTRY: guild ranks raise merchantry to these levels.
GUILD_MERCHANTRY = {"apprentice": 200, "journeyman": 500, "master": 900}
MAX_FAMILIES_PER_PLAYER = 7  # PLAYERSHIP
MAX_PERSONAE = 5  # THE PERSONAE FAMILIES: one to five personae
MAX_SKILLS = 20  # THE PERSONAE FAMILIES: "up to 20 skills" (training.MAX_SKILLS says the same)
LOCALS = "9999"  # a persona number the orders reserve for "the locals"
# How many personae a game can hold: the four-digit numbers the orders write, less 0000 and the locals' 9999
# (docs/renaissance.md, "How big a game can be").
PERSONA_IDS = 10**4 - 2
DEFAULT_LANDMASS = "Afro-Eurasia"  # Europe, Asia and Africa touch: one landmass for roads and land moves
DEFAULT_FEES: dict[str, float] = {"per_family": 5.0, "per_order": 0.0, "conflict_actions": 25, "action": 0.2,
                                  "prepay_discount": 0.1, "location_setup": 10.0}
EARTH_RADIUS_MILES = 3958.8

TOP_KEYS = {"game", "fees", "players", "families", "locations", "roads", "military_orders"}
AMEND_KEYS = {"players", "families", "locations", "roads", "fees"}
GAME_KEYS = {"start", "pope", "papal_npc_votes"}
PLAYER_KEYS = {"code", "name", "email", "password", "balance"}
FAMILY_KEYS = {"name", "number", "player", "religion", "origin", "personae"}
PERSONA_KEYS = {"id", "name", "female", "age", "religion", "origin", "popularity", "piety", "morale", "skills",
                "guild", "titles", "rank", "assets", "location", "inside", "citizenship",
                "allies", "bonus_city", "outside_towers"}  # the last three: the war's (docs/renaissance-state.md)
MAX_ALLIES = 6  # ALLIANCE: "A persona may declare himself allied to the members of up to six families."
BONUS_CITY_RELIGIONS = ("shia", "sunni")  # MORALE: "Shia, or Sunni, sovereigns must have a 'bonus city' on file"
LOCATION_KEYS = {"name", "aliases", "lat", "lon", "region", "landmass", "population", "wealth", "loyalty",
                 "religion", "harbor", "ferries", "far", "fas", "towers", "garrison", "offices",
                 "magistrate_selection", "see", "ingress_denied", "egress_denied", "supplied", "demanded",
                 "tariffs", "may_colonize", "pilgrimage", "elective_ruler", "requested_by", "food_satisfied",
                 "ingress", "ingress_waiting", "external_market_open", "external_market_rights", "ruler_electors",
                 "ruler_election"}
ORDER_KEYS = {"name", "seat", "grandmaster", "holds"}  # [[military_orders]] (docs/renaissance/world.md)
MARKET_KEYS = {"qty", "price", "bq"}
TOWER_KEYS = {"name", "fas", "owner"}
ROAD_KEYS = {"from", "to", "miles"}

PLAYER_CODE = re.compile(r"[A-Z]{3}")
PLAYER_CODES = 26**3  # how many players a game can hold: the orders' /XXX
FAMILY_NAME = re.compile(r"[A-Z]+")
PERSONA_ID = re.compile(r"\d{4}")
START = re.compile(r"(\d{4})-(\d{2})")
# Order codes write a location without blanks right after other letters or digits: letters, with single blanks
# or hyphens between words, keep every name writable and its key unambiguous.
LOCATION_NAME = re.compile(r"[A-Za-z]+(?:[ -][A-Za-z]+)*")
MAX_REPORTED = 60  # a generated world gone wrong could report thousands; the first ones are enough


def location_key(name: str) -> str:
    """How orders match a location: case, blanks, '_' and '-' ignored ("Santiago_de_Compostela" ->
    "santiagodecompostela")."""
    return re.sub(r"[\s_\-]", "", name).lower()


# find_location's key index, per locations dict. The cache holds the dict itself, so its id cannot be reused by
# another dict while cached; a changed length (a location set up by amend) rebuilds the index.
_INDEX: dict[int, tuple[dict[str, Any], int, dict[str, str]]] = {}


def _key_index(locations: dict[str, Any]) -> dict[str, str]:
    cached = _INDEX.get(id(locations))
    if cached is not None and cached[0] is locations and cached[1] == len(locations):
        return cached[2]
    index: dict[str, str] = {}
    for name, loc in locations.items():
        index[location_key(name)] = name
        for alias in loc.get("aliases", ()):
            index.setdefault(location_key(alias), name)
    if len(_INDEX) >= 8:
        _INDEX.clear()
    _INDEX[id(locations)] = (locations, len(locations), index)
    return index


def find_location(state: State, written: str | None) -> str | None:
    """The canonical name of the location an order writes ("SantiagodeCompostela", "santiago_de_compostela",
    "Santiago" as an alias), or None if no location matches."""
    if not written:
        return None
    locations = state["locations"]
    if written in locations:
        return written
    return _key_index(locations).get(location_key(written))


def great_circle_miles(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Statute miles between two points on the globe (haversine)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_MILES * math.asin(min(1.0, math.sqrt(h)))


def road_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


# --- small validators: each reports and returns a usable value so checking goes on ---------------------------

def _rating(problems: _Problems, where: str, value: Any) -> int:
    """THE PERSONAE FAMILIES: no rating may exceed 999 or decline below 0."""
    return _whole(problems, where, value, 0, 999)


def _number(problems: _Problems, where: str, value: Any, low: float, high: float | None = None) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if ok and value >= low and (high is None or value <= high):
        return float(value)
    span = f"from {low:g} to {high:g}" if high is not None else f">= {low:g}"
    problems.add(f"{where} must be a number {span}, found {value!r}")
    return float(low)


def _text(problems: _Problems, where: str, value: Any, required: bool = True) -> str | None:
    if value is None and not required:
        return None
    if isinstance(value, str) and value.strip():
        return value.strip()
    problems.add(f"{where} must be a non-empty string, found {value!r}")
    return None


def _bool(problems: _Problems, where: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    problems.add(f"{where} must be true or false, found {value!r}")
    return False


def _choice(problems: _Problems, where: str, value: Any, choices: tuple[str, ...] | str) -> str | None:
    if isinstance(value, str) and value in choices:
        return value
    listed = ", ".join(choices) if isinstance(choices, tuple) else " ".join(choices)
    problems.add(f"{where} must be one of {listed}, found {value!r}")
    return None


def _str_list(problems: _Problems, where: str, value: Any) -> list[str]:
    if isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
        return [v.strip() for v in value]
    problems.add(f"{where} must be a list of strings, found {value!r}")
    return []


def _table(problems: _Problems, where: str, value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    problems.add(f"{where} must be a table ({{ key = value, ... }}), found {value!r}")
    return {}


# --- the world: a batch of new entries checked against the state they join ------------------------------------

class _Batch:
    """New players, families, personae, locations and roads, checked together and against `state` (empty for a
    new game), and put into the state only when nothing was wrong."""

    def __init__(self, state: State, problems: _Problems, amending: bool, turn: int | None = None) -> None:
        self.state = state
        self.turn = turn
        self.problems = problems
        self.amending = amending
        self.players: dict[str, dict[str, Any]] = {}
        self.families: dict[str, dict[str, Any]] = {}
        self.personae: dict[str, dict[str, Any]] = {}
        self.locations: dict[str, dict[str, Any]] = {}
        self.roads: dict[str, int] = {}
        self.ferry_pairs: list[tuple[str, str]] = []
        self.fees_due: list[tuple[str, str]] = []  # (player code, location) for LOCATION SETUPS requests
        self.all_players = ChainMap(self.players, state["players"])
        self.all_families = ChainMap(self.families, state["families"])
        self.all_personae = ChainMap(self.personae, state["personae"])
        self.all_locations = ChainMap(self.locations, state["locations"])
        self.keys: dict[str, str] = dict(_key_index(state["locations"]))  # location key -> canonical name
        self.location_where: dict[str, str] = {}  # canonical name -> "locations #n (name)", for late messages
        self.persona_where: dict[str, str] = {}  # persona id -> "families #i (NAME) personae #j (id)"

    # Players -------------------------------------------------------------------------------------------------

    def add_players(self, tables: list[dict[str, Any]]) -> None:
        p = self.problems
        for code, where, t in setupfile.entries(p, "players", tables, PLAYER_KEYS, "code", PLAYER_CODE,
                                                "three capital letters (the /XXX of the orders)"):
            if code in self.all_players:
                p.add(f"{where}: the player code {code} is used twice")
                continue
            name = _text(p, f"{where}: name", t.get("name"), required=False) or code  # how the GM knows him
            email = setupfile.email(p, where, t.get("email"), code.lower())
            password = setupfile.password(p, where, t.get("password"))
            balance = _number(p, f"{where}: balance", t.get("balance", 0.0), -math.inf)
            self.players[code] = {"name": name, "email": email, "password": password,
                                  "account": {"balance": balance, "history": []}}

    # Locations -----------------------------------------------------------------------------------------------

    def add_locations(self, tables: list[dict[str, Any]]) -> None:
        """First pass: each location on its own. References to other locations and to personae are checked by
        link_locations once every new name is known."""
        p = self.problems
        for i, t in enumerate(tables, start=1):
            where = f"locations #{i}"
            _unknown_keys(p, where, t, LOCATION_KEYS)
            name = t.get("name")
            if not isinstance(name, str) or not LOCATION_NAME.fullmatch(name):
                p.add(f"{where}: name must be letters, with single blanks or hyphens between words "
                      f"(orders write it without blanks), found {name!r}")
                continue
            where = f"locations #{i} ({name})"
            if name in self.all_locations:
                p.add(f"{where}: the location {name} is set up twice")
                continue
            aliases = _str_list(p, f"{where}: aliases", t.get("aliases", []))
            clash = False
            for written in (name, *aliases):
                if not LOCATION_NAME.fullmatch(written):
                    p.add(f"{where}: alias {written!r} must be letters, with single blanks or hyphens between words")
                    clash = True
                    continue
                other = self.keys.get(location_key(written))
                if other is not None:
                    p.add(f"{where}: {written!r} collides with the location {other} (orders write names without "
                          "blanks, '_' or '-', in any case)")
                    clash = True
            if clash:
                continue
            for written in (name, *aliases):
                self.keys[location_key(written)] = name
            self.location_where[name] = where
            self.locations[name] = self._location(where, name, aliases, t)

    def _location(self, where: str, name: str, aliases: list[str], t: dict[str, Any]) -> dict[str, Any]:
        p = self.problems
        population = _whole(p, f"{where}: population", t.get("population"))
        harbor = t.get("harbor")
        if harbor is not None:
            harbor = _whole(p, f"{where}: harbor (depth in feet; leave it out for an inland place)", harbor)
        offices_in = _table(p, f"{where}: offices", t.get("offices", {}))
        _unknown_keys(p, f"{where}: offices", offices_in, set(OFFICES) | {"dfc"})
        offices: dict[str, str | None] = {}
        for office in (*OFFICES, "dfc"):
            offices[office] = _text(p, f"{where}: offices.{office}", offices_in.get(office), required=False)
        tariffs_in = _table(p, f"{where}: tariffs", t.get("tariffs", {}))
        _unknown_keys(p, f"{where}: tariffs", tariffs_in, {"import", "export"})
        # TARIFFS / MAGISTRATES: percentages, never above 99.
        tariffs = {k: _whole(p, f"{where}: tariffs.{k}", tariffs_in.get(k, 0), 0, 99) for k in ("import", "export")}
        towers = []
        towers_in = t.get("towers", [])
        if not isinstance(towers_in, list):
            p.add(f"{where}: towers must be a list of {{ name, fas, owner }} tables, found {towers_in!r}")
            towers_in = []
        for j, tower in enumerate(towers_in, 1):
            tw = _table(p, f"{where}: towers #{j}", tower)
            _unknown_keys(p, f"{where}: towers #{j}", tw, TOWER_KEYS)
            towers.append({"name": _text(p, f"{where}: towers #{j} name", tw.get("name")),
                           "fas": _rating(p, f"{where}: towers #{j} fas", tw.get("fas", 0)),
                           "owner": _text(p, f"{where}: towers #{j} owner", tw.get("owner"), required=False)})
        if len([tw for tw in towers if tw["owner"] and tw["owner"] not in OFFICES]) > 17:
            p.add(f"{where}: more than 17 family-controlled towers (TOWERS)")
        loc: dict[str, Any] = {
            "name": name,
            "aliases": aliases,
            "lat": _number(p, f"{where}: lat", t.get("lat"), -90, 90),
            "lon": _number(p, f"{where}: lon", t.get("lon"), -180, 180),
            "region": _text(p, f"{where}: region", t.get("region"), required=False) or "",
            "landmass": _text(p, f"{where}: landmass", t.get("landmass", DEFAULT_LANDMASS)) or DEFAULT_LANDMASS,
            "population": population,
            "wealth": _rating(p, f"{where}: wealth", t.get("wealth", 100)),
            "loyalty": _rating(p, f"{where}: loyalty", t.get("loyalty", 500)),
            "religion": _choice(p, f"{where}: religion", t.get("religion"), RELIGIONS),
            "harbor": harbor,
            "ferries": _str_list(p, f"{where}: ferries", t.get("ferries", [])),
            "far": _rating(p, f"{where}: far", t.get("far", 0)),
            "fas": _rating(p, f"{where}: fas", t.get("fas", 0)),
            "towers": towers,
            "garrison": _whole(p, f"{where}: garrison", t.get("garrison", 0)),
            "offices": offices,
            "magistrate_selection": _choice(p, f"{where}: magistrate_selection", t.get("magistrate_selection", "s"),
                                            SELECTIONS),
            "see": _text(p, f"{where}: see", t.get("see"), required=False),
            # INGRESS, EGRESS & EXTERNAL MARKETS: None until commit derives the list the rules give (I2).
            "ingress": self._families(where, t, "ingress", MAX_INGRESS) if "ingress" in t else None,
            "ingress_denied": self._families(where, t, "ingress_denied"),
            "ingress_waiting": [{"family": f, "added": None} for f in self._families(where, t, "ingress_waiting")],
            "egress_denied": self._families(where, t, "egress_denied", MAX_EGRESS_DENIED),
            "external_market_open": _bool(p, f"{where}: external_market_open", t.get("external_market_open", False)),
            "external_market_rights": self._families(where, t, "external_market_rights", MAX_MARKET_RIGHTS),
            "supplied": self._market(where, "supplied", t.get("supplied", {}), population, goods=True),
            "demanded": self._market(where, "demanded", t.get("demanded", {}), population, goods=False),
            "tariffs": tariffs,
            "may_colonize": _bool(p, f"{where}: may_colonize", t.get("may_colonize", False)),
            "colonists_this_turn": 0,
        }
        loc["food_satisfied"] = self._food_satisfied(where, t, loc["demanded"])
        # Only centres carry the key: piety.py falls back to its own table for a location without it.
        if "pilgrimage" in t:
            loc["pilgrimage"] = self._pilgrimage(where, t["pilgrimage"])
        if "elective_ruler" in t:
            loc["elective_ruler"] = _bool(p, f"{where}: elective_ruler", t["elective_ruler"])
        if "ruler_electors" in t:  # ELECTIVE STATES: the electors the GM announced for a state electing for life
            loc["ruler_electors"] = self._families(where, t, "ruler_electors")
        if "ruler_election" in t:  # ... and the month of its election ("YYYY-MM"), as the Newsletter announces it
            m = START.fullmatch(str(t["ruler_election"]))
            if m is None or not 1 <= int(m.group(2)) <= 12:
                p.add(f"{where}: ruler_election must be \"YYYY-MM\", the month of the election")
            else:
                loc["ruler_election"] = {"turn": turn_of(self.state, int(m.group(1)), int(m.group(2)))}
        return loc

    def _families(self, where: str, t: dict[str, Any], key: str, cap: int | None = None) -> list[str]:
        """A list of family names (upper case; link_locations checks they exist), at most `cap` long."""
        families = list(dict.fromkeys(f.upper() for f in _str_list(self.problems, f"{where}: {key}", t.get(key, []))))
        if cap is not None and len(families) > cap:
            self.problems.add(f"{where}: {key} lists {len(families)} families; the rules allow {cap} (INGRESS, EGRESS "
                              "& EXTERNAL MARKETS)")
        return families

    def _food_satisfied(self, where: str, t: dict[str, Any], demanded: dict[str, Any]) -> bool:
        """QUOTA COMPLETIONS withholds March's loyalty "in any March in which demand for food was not 100%
        satisfied". Before the game no sale has met any demand, so the first March gives it only where the setup
        says the demand was met (`food_satisfied = true`), where no food is demanded, or where the food demand
        stands at zero (M3, M9)."""
        food = demanded.get("food")
        default = food is None or food["qty"] <= 0
        return _bool(self.problems, f"{where}: food_satisfied", t.get("food_satisfied", default))

    def _market(self, where: str, key: str, value: Any, population: int, goods: bool) -> dict[str, dict[str, Any]]:
        """Items supplied (keys are items) or classes demanded (keys are class names). The quota a market resets
        to is BQ x population (QUOTA COMPLETIONS); either qty or bq may be left out and is worked out from the
        other."""
        p = self.problems
        market: dict[str, dict[str, Any]] = {}
        for what, spec in _table(p, f"{where}: {key}", value).items():
            here = f"{where}: {key}.{what}"
            if goods and what not in ALL_ITEMS:
                p.add(f"{here}: unknown item {what!r} (write the singular name of rules/renaissance/items.py)")
                continue
            if not goods and what not in CLASSES:
                p.add(f"{here}: unknown class {what!r} (classes: {', '.join(CLASSES)})")
                continue
            spec = _table(p, here, spec)
            _unknown_keys(p, here, spec, MARKET_KEYS)
            if "qty" not in spec and "bq" not in spec:
                p.add(f"{here}: give qty or bq (or both)")
                continue
            price = _number(p, f"{here}: price", spec.get("price"), 1)
            price = int(price) if float(price).is_integer() else price
            if "bq" in spec:
                bq = _number(p, f"{here}: bq", spec["bq"], 0)
            else:
                bq = round(spec["qty"] / population, 6) if population and isinstance(spec["qty"], int) else 0.0
            qty = _whole(p, f"{here}: qty", spec["qty"]) if "qty" in spec else round(bq * population)
            market[what] = {"qty": qty, "price": price, "bq": bq}
        return market

    def _pilgrimage(self, where: str, value: Any) -> dict[str, list[list[int]]]:
        p = self.problems
        centre: dict[str, list[list[int]]] = {}
        for religion, dates in _table(p, f"{where}: pilgrimage", value).items():
            here = f"{where}: pilgrimage.{religion}"
            if religion not in RELIGIONS:
                p.add(f"{here}: unknown religion {religion!r} (religions: {', '.join(RELIGIONS)})")
                continue
            ok = isinstance(dates, list) and all(isinstance(d, list) and len(d) == 2 for d in dates)
            if not ok:
                p.add(f"{here} must be a list of [month, points] pairs, e.g. [[4, 100]], found {dates!r}")
                continue
            centre[religion] = [[_whole(p, f"{here}: month", m, 1, 12), _whole(p, f"{here}: points", pts, 0, 999)]
                                for m, pts in dates]
        return centre

    def _resolve(self, where: str, what: str, written: Any) -> str | None:
        """A location reference: canonical name or any spelling the orders would accept."""
        if not isinstance(written, str):
            self.problems.add(f"{where}: {what} must be a location name, found {written!r}")
            return None
        name = written if written in self.all_locations else self.keys.get(location_key(written))
        if name is None:
            self.problems.add(f"{where}: {what} {written!r} is not a location")
        return name

    def link_locations(self) -> None:
        """Second pass over new locations: ferries, sees, office holders, tower owners, families named."""
        p = self.problems
        for name, loc in self.locations.items():
            where = self.location_where[name]
            ferries = []
            for written in loc["ferries"]:
                other = self._resolve(where, "ferry to", written)
                if other == name:
                    p.add(f"{where}: a ferry must lead to another location")
                elif other is not None:
                    ferries.append(other)
                    self.ferry_pairs.append((name, other))
            loc["ferries"] = []  # filled, both ends, by commit
            if loc["see"] is not None:
                loc["see"] = self._resolve(where, "see", loc["see"])
            for office, holder in loc["offices"].items():
                if holder is None or not PERSONA_ID.fullmatch(holder):
                    continue  # a non-player holder, by name
                persona = self.all_personae.get(holder)
                if persona is None:
                    p.add(f"{where}: offices.{office} names persona {holder}, who is not set up")
                elif office in ECCLESIASTICAL and persona["female"]:
                    p.add(f"{where}: offices.{office}: {holder} is female; female personae may not hold "
                          "ecclesiastic positions")
            for tower in loc["towers"]:
                owner = tower["owner"]
                if owner is None or owner in OFFICES:
                    continue
                tower["owner"] = owner.upper()
                if tower["owner"] not in self.all_families:
                    p.add(f"{where}: tower {tower['name']!r}: owner {owner!r} is neither a family nor an office "
                          f"({', '.join(OFFICES)})")
            waiting = [w["family"] for w in loc["ingress_waiting"]]
            for key, families in (("ingress", loc["ingress"] or []), ("ingress_denied", loc["ingress_denied"]),
                                  ("ingress_waiting", waiting), ("egress_denied", loc["egress_denied"]),
                                  ("external_market_rights", loc["external_market_rights"])):
                for family in families:
                    if family not in self.all_families:
                        p.add(f"{where}: {key} names {family!r}, which is not a family")
            for family in sorted(set(loc["ingress"] or ()) & (set(loc["ingress_denied"]) | set(waiting))):
                p.add(f"{where}: {family} is listed in ingress and also as denied or waiting")
            if loc["magistrate_selection"] is None:
                loc["magistrate_selection"] = "s"
        self._one_magistracy()

    def _one_magistracy(self) -> None:
        """MAGISTRATES: a persona may be magistrate of only one location at a time."""
        seen: dict[str, str] = {}
        for name, loc in self.all_locations.items():
            holder = loc["offices"].get("magistrate")
            if holder and PERSONA_ID.fullmatch(holder):
                if holder in seen and name in self.locations:
                    self.problems.add(f"{self.location_where[name]}: {holder} is already magistrate of "
                                      f"{seen[holder]} (one magistracy at a time)")
                seen.setdefault(holder, name)

    def requests(self, tables: list[dict[str, Any]]) -> None:
        """LOCATION SETUPS: one request per player per turn, billed to the requesting player."""
        by: dict[str, str] = {}
        for i, t in enumerate(tables, start=1):
            code = t.get("requested_by")
            if code is None or t.get("name") not in self.locations:
                continue
            where = f"locations #{i} ({t['name']})"
            if not self.amending:
                self.problems.add(f"{where}: requested_by belongs in an amendment, not in the game's setup")
            elif code not in self.all_players:
                self.problems.add(f"{where}: requested_by {code!r} is not a player code")
            elif code in by or self._set_up_this_turn(code):
                already = by.get(code, "a location")
                self.problems.add(f"{where}: {code} already has {already} set up this turn (one location setup per "
                                  "player per turn)")
            else:
                by[code] = t["name"]
                self.fees_due.append((code, t["name"]))

    def _set_up_this_turn(self, code: str) -> bool:
        if self.turn is None or code not in self.state["players"]:
            return False
        history = self.state["players"][code]["account"]["history"]
        return any(e.get("kind") == "setup" and e.get("turn") == self.turn for e in history)

    # Families and personae ----------------------------------------------------------------------------------

    def add_families(self, tables: list[dict[str, Any]]) -> None:
        p = self.problems
        numbers = {f["number"]: n for n, f in self.state["families"].items()}
        next_number = max(numbers, default=0) + 1
        for i, t in enumerate(tables, start=1):
            where = f"families #{i}"
            _unknown_keys(p, where, t, FAMILY_KEYS)
            raw = t.get("name")
            name = raw.upper() if isinstance(raw, str) else None
            if name is None or not FAMILY_NAME.fullmatch(name):
                p.add(f"{where}: name must be one word of letters (orders write it, e.g. DIBORGIA), found {raw!r}")
                continue
            where = f"families #{i} ({name})"
            if name in self.all_families:
                p.add(f"{where}: the family {name} is set up twice")
                continue
            number = t.get("number", next_number if self.amending else i)
            number = _whole(p, f"{where}: number", number, 1)
            if number in numbers:
                p.add(f"{where}: number {number} is already family {numbers[number]}'s")
            numbers[number] = name
            next_number = max(next_number, number + 1)
            player = t.get("player")
            if player is None:
                p.add(f"{where}: player missing (the code of the [[players]] entry who plays it)")
            elif player not in self.all_players:
                p.add(f"{where}: player {player!r} is not a player code (add a [[players]] entry)")
            religion = _choice(p, f"{where}: religion", t.get("religion"), RELIGIONS)
            origin = _choice(p, f"{where}: origin", t.get("origin", "european"), ORIGINS)
            family = {"player": player, "religion": religion, "origin": origin, "personae": [], "number": number}
            if self.amending and self.turn is not None:
                # APOSTASY counts the player's turns for the family from here (RH-OQ-44); the setup's are 1's.
                family["player_since"] = self.turn
            self.families[name] = family
            personae = setupfile.array_of_tables(p, {"personae": t.get("personae", [])}, "personae")
            if not 1 <= len(personae) <= MAX_PERSONAE:
                p.add(f"{where}: a family has one to {MAX_PERSONAE} personae, found {len(personae)}")
            for j, pt in enumerate(personae, start=1):
                persona = self._persona(f"{where} personae #{j}", name, family, pt)
                if persona is not None:
                    family["personae"].append(persona["id"])
        self._playership()

    def _persona(self, where: str, family_name: str, family: dict[str, Any], t: dict[str, Any]) -> dict | None:
        p = self.problems
        _unknown_keys(p, where, t, PERSONA_KEYS)
        pid = t.get("id")
        if not isinstance(pid, str) or not PERSONA_ID.fullmatch(pid) or pid in ("0000", LOCALS):
            p.add(f"{where}: id must be a 4-digit string like \"0101\" (not 0000 or 9999), found {pid!r}")
            return None
        where = f"{where} ({pid})"
        if pid in self.all_personae:
            p.add(f"{where}: persona id {pid} is used twice")
            return None
        number = family["number"]
        # Persona ids are FFNN while family numbers fit in two digits; a larger game numbers its personae freely.
        if isinstance(number, int) and number <= 99 and (pid[:2] != f"{number:02d}" or pid[2:] == "00"):
            p.add(f"{where}: persona id must be {number:02d}NN (family number {number} and the persona's number "
                  f"01-99), found {pid}")
        name = _text(p, f"{where}: name", t.get("name")) or pid
        for key, default in (("religion", family["religion"]), ("origin", family["origin"])):
            if t.get(key, default) != default:
                p.add(f"{where}: {key} {t[key]!r} differs from the family's {default!r} (a family converts as one)")
        skills_in = _table(p, f"{where}: skills", t.get("skills", {}))
        skills: dict[str, int] = {}
        for skill, level in skills_in.items():
            if skill not in SKILLS:
                p.add(f"{where}: unknown skill {skill!r} (skills: {', '.join(SKILLS)})")
                continue
            skills[skill] = _rating(p, f"{where}: skills.{skill}", level)
        if len([s for s, rating in skills.items() if rating > 0]) > MAX_SKILLS:
            p.add(f"{where}: skills: {len(skills)} skills held; a persona has up to {MAX_SKILLS} (THE PERSONAE "
                  "FAMILIES)")
        guild = t.get("guild")
        if guild is not None:
            guild = _choice(p, f"{where}: guild", guild, tuple(GUILD_MERCHANTRY))
            if guild is not None:
                skills["merchantry"] = max(skills.get("merchantry", 0), GUILD_MERCHANTRY[guild])
        assets: dict[str, int] = {}
        for item, qty in _table(p, f"{where}: assets", t.get("assets", {})).items():
            if item not in ALL_ITEMS:
                p.add(f"{where}: assets: unknown item {item!r} (write the singular name of "
                      "rules/renaissance/items.py)")
                continue
            assets[item] = _whole(p, f"{where}: assets.{item}", qty)
        location = self._resolve(where, "location", t.get("location"))
        citizenship = t.get("citizenship", location)
        if citizenship is not None:
            citizenship = self._resolve(where, "citizenship", citizenship)
        # MORALE: a persona who controls neither troops nor crew has morale zero.
        has_men = any(assets.get(m, 0) for m in (*TROOPS, "crew"))
        female = _bool(p, f"{where}: female", t.get("female", False))
        titles = _str_list(p, f"{where}: titles", t.get("titles", []))
        # "Feudal rank is based upon a persona's highest title": written, or read from his titles (RH-OQ-02).
        rank = _text(p, f"{where}: rank", t["rank"]) if "rank" in t else rank_of_titles(titles)
        persona = {
            "id": pid, "name": name, "family": family_name, "female": female,
            "religion": family["religion"], "origin": family["origin"],
            "alive": True, "age": _whole(p, f"{where}: age", t.get("age", 30), 0, 120),
            "popularity": _rating(p, f"{where}: popularity", t.get("popularity", 0)),
            "piety": _rating(p, f"{where}: piety", t.get("piety", 0)),
            "morale": _rating(p, f"{where}: morale", t.get("morale", 500 if has_men else 0)),
            "skills": skills, "guild": guild,
            "titles": titles,
            "rank": rank or "none",
            "assets": assets,
            "location": location, "at_sea": None,
            "inside": t.get("inside"),  # None until commit knows who is denied ingress
            "with": None, "citizenship": citizenship,
            "boarding_permits": [], "alms_year": {}, "collector": [],
        }
        if persona["inside"] is not None:
            persona["inside"] = _bool(p, f"{where}: inside", persona["inside"])
        self._war_keys(where, family, t, persona)
        self.persona_where[pid] = where
        self.personae[pid] = persona
        return persona

    def _war_keys(self, where: str, family: dict[str, Any], t: dict[str, Any], persona: dict[str, Any]) -> None:
        """The war's persona keys, written only when the setup gives them (absent reads as the default: no allies,
        no bonus city, no standing order to stay out of towers). The allies' families are checked by link_personae
        once every family is known."""
        p = self.problems
        if "allies" in t:
            allies = list(dict.fromkeys(f.upper() for f in _str_list(p, f"{where}: allies", t["allies"])))
            if len(allies) > MAX_ALLIES:
                p.add(f"{where}: allies lists {len(allies)} families; a persona may declare himself allied to the "
                      f"members of up to {MAX_ALLIES} (ALLIANCE)")
            persona["allies"] = allies
        if t.get("bonus_city") is not None:
            persona["bonus_city"] = self._resolve(where, "bonus_city", t["bonus_city"])
            if family["religion"] not in BONUS_CITY_RELIGIONS:
                p.add(f"{where}: bonus_city is for Shia or Sunni personae (MORALE), and this family is "
                      f"{family['religion']}")
        if "outside_towers" in t:
            persona["outside_towers"] = _bool(p, f"{where}: outside_towers", t["outside_towers"])

    def link_personae(self) -> None:
        """Second pass over new personae: the families named as allies exist."""
        for pid, persona in self.personae.items():
            for family in persona.get("allies", ()):
                if family not in self.all_families:
                    self.problems.add(f"{self.persona_where[pid]}: allies names {family!r}, which is not a family")

    def _playership(self) -> None:
        """PLAYERSHIP: up to seven families per player, all of the same religion."""
        by_player: dict[str, list[str]] = {}
        for name, family in self.all_families.items():
            if family["player"] is not None:
                by_player.setdefault(family["player"], []).append(name)
        for code, names in by_player.items():
            if not any(n in self.families for n in names):
                continue
            if len(names) > MAX_FAMILIES_PER_PLAYER:
                self.problems.add(f"player {code}: plays {len(names)} families ({', '.join(sorted(names))}); a "
                                  f"player may control up to {MAX_FAMILIES_PER_PLAYER}")
            religions = {self.all_families[n]["religion"] for n in names}
            if len(religions) > 1:
                self.problems.add(f"player {code}: families of different religions ("
                                  + ", ".join(f"{n} {self.all_families[n]['religion']}" for n in sorted(names))
                                  + "); all of a player's families must share one")

    # Roads ----------------------------------------------------------------------------------------------------

    def add_roads(self, tables: list[dict[str, Any]]) -> None:
        p = self.problems
        for i, t in enumerate(tables, start=1):
            where = f"roads #{i}"
            _unknown_keys(p, where, t, ROAD_KEYS)
            a = self._resolve(where, "from", t.get("from"))
            b = self._resolve(where, "to", t.get("to"))
            if a is None or b is None:
                continue
            where = f"roads #{i} ({a}-{b})"
            if a == b:
                p.add(f"{where}: a road joins two different locations")
                continue
            key = road_key(a, b)
            if key in self.roads or key in self.state["roads"]:
                p.add(f"{where}: this road is set up twice")
                continue
            la, lb = self.all_locations[a], self.all_locations[b]
            if la["landmass"] != lb["landmass"]:
                p.add(f"{where}: {a} is on {la['landmass']} and {b} on {lb['landmass']}; roads join places on the "
                      "same landmass")
                continue
            miles = _whole(p, f"{where}: miles", t.get("miles"), 1)
            # TRAVEL: roadbuilding never brings a road below 50% of the distance, nor lengthening above it.
            full = great_circle_miles(la["lat"], la["lon"], lb["lat"], lb["lon"])
            if not full / 2 <= miles <= math.ceil(full):
                p.add(f"{where}: miles must be from {math.ceil(full / 2)} to {math.ceil(full)} (half to all of the "
                      f"{full:.0f} miles between them), found {miles}")
            self.roads[key] = miles

    # Commit --------------------------------------------------------------------------------------------------

    def commit(self, turn: int | None) -> list[str]:
        s = self.state
        lines: list[str] = []
        for code, player in self.players.items():
            s["players"][code] = player
            lines.append(f"player {code}: {player['name']} <{player['email']}>")
        for name, loc in self.locations.items():
            s["locations"][name] = loc
        for a, b in self.ferry_pairs:
            for here, there in ((a, b), (b, a)):
                ferries = s["locations"][here]["ferries"]
                if there not in ferries:
                    ferries.append(there)
        for name, loc in self.locations.items():
            extra = f", ferries to {', '.join(loc['ferries'])}" if loc["ferries"] else ""
            port = f", harbor {loc['harbor']} ft" if loc["harbor"] is not None else ""
            lines.append(f"location {name} ({loc['lat']:.2f}, {loc['lon']:.2f}), population {loc['population']}"
                         f"{port}{extra}")
        s["personae"].update(self.personae)
        for name, family in self.families.items():
            s["families"][name] = family
            lines.append(f"family {name} (#{family['number']}, player {family['player']}, {family['religion']}): "
                         f"personae {', '.join(family['personae'])}")
        citizens = citizen_families(s)
        for name, loc in self.locations.items():
            if loc["ingress"] is None:
                loc["ingress"] = default_ingress(s, name, citizens)  # I2: citizens, tower owners, office-holders
        for persona in self.personae.values():
            if persona["inside"] is None:
                loc = s["locations"].get(persona["location"] or "")
                # INGRESS: personae whose families have ingress "automatically enter that location's walls".
                persona["inside"] = bool(loc) and persona["family"] in loc["ingress"]
        for key, miles in self.roads.items():
            s["roads"][key] = miles
            lines.append(f"road {key.replace('|', ' - ')}: {miles} miles")
        for code, name in self.fees_due:
            if turn is None:
                lines.append(f"location setup {name} for {code}: not billed (the amendment was given no turn)")
                continue
            entry = accounts.charge_location_setup(s, code, turn, name)
            if entry is not None:
                lines.append(f"player {code} billed {-entry['amount']:.2f} for setting up {name}")
        return lines


def _calendar(problems: _Problems, game: Any) -> dict[str, int]:
    game = _table(problems, "game", game)
    _unknown_keys(problems, "game", game, GAME_KEYS)
    start = game.get("start", "1493-01")
    m = START.fullmatch(start) if isinstance(start, str) else None
    if m is None or not 1 <= int(m.group(2)) <= 12:
        problems.add(f"game: start must be \"YYYY-MM\", the month of turn 1 (e.g. \"1493-01\"), found {start!r}")
        return {"year": 1493, "month": 1}
    return {"year": int(m.group(1)), "month": int(m.group(2))}


def _pope(batch: _Batch, game: Any) -> str | None:
    """The Pope's persona id ([game] pope), or None when the Pope is not a player's persona."""
    pid = game.get("pope") if isinstance(game, dict) else None
    if pid is None:
        return None
    persona = batch.all_personae.get(pid) if isinstance(pid, str) else None
    if persona is None:
        batch.problems.add(f"game: pope {pid!r} is not a persona id")
        return None
    # THE ECCLESIASTICAL OFFICES: the Catholic hierarchy is Catholic, and no woman holds an ecclesiastic position.
    if persona["religion"] != "catholic" or persona["female"]:
        batch.problems.add(f"game: pope {pid} must be a male Catholic persona")
    return pid


def _fees(problems: _Problems, fees: Any) -> dict[str, float]:
    fees = _table(problems, "fees", fees)
    _unknown_keys(problems, "fees", fees, set(DEFAULT_FEES))
    out: dict[str, float] = {}
    for key, default in DEFAULT_FEES.items():
        if key == "conflict_actions":
            out[key] = _whole(problems, f"fees: {key}", fees.get(key, default))
        elif key == "prepay_discount":
            out[key] = _number(problems, f"fees: {key}", fees.get(key, default), 0, 1)
        else:
            out[key] = _number(problems, f"fees: {key}", fees.get(key, default), 0)
    return out


def _apply(state: State, doc: Mapping[str, Any], problems: _Problems, amending: bool, turn: int | None) -> list[str]:
    batch = _Batch(state, problems, amending, turn)
    batch.add_players(setupfile.array_of_tables(problems, doc, "players"))
    locations = setupfile.array_of_tables(problems, doc, "locations")
    batch.add_locations(locations)
    batch.add_families(setupfile.array_of_tables(problems, doc, "families"))
    batch.link_locations()
    batch.link_personae()
    batch.requests(locations)
    batch.add_roads(setupfile.array_of_tables(problems, doc, "roads"))
    fees = _amended_fees(problems, doc.get("fees")) if amending else {}
    if not amending:
        state["pope"] = _pope(batch, doc.get("game", {}))
        game = doc.get("game", {})
        if isinstance(game, dict) and "papal_npc_votes" in game:
            # RH-OQ-15: the number of non-player-controlled votes in a conclave (papal_election.py).
            state["papal_npc_votes"] = _whole(problems, "game: papal_npc_votes", game["papal_npc_votes"])
    problems.raise_any()
    lines = batch.commit(turn)
    if fees:
        state.setdefault("fees", {}).update(fees)
        lines.append("fees: " + ", ".join(f"{key} {value:g}" for key, value in fees.items()))
    return lines


def _amended_fees(problems: _Problems, given: Any) -> dict[str, float]:
    """ORGANIZATION: the GM "retains the right to interpret the rules, and amend them" (RH-OQ-58). The fee schedule
    the rules leave to him (RH-OQ-53) is amended by an amendment's [fees] table: the keys it names, from the month
    it is given for; the others stay."""
    if given is None:
        return {}
    table = _table(problems, "fees", given)
    checked = _fees(problems, table)
    return {key: checked[key] for key in table if key in checked}


def _military_orders(problems: _Problems, state: State, tables: list[dict[str, Any]]) -> dict[str, Any]:
    """MILITARY ORDERS at the start: each order's name, seat and grandmaster (a persona id or a non-player's name;
    by default whoever holds the seat's tenancy), and the offices it holds ([location, office] pairs; by default the
    seat's tenancy, and its sovereignty when the grandmaster holds it). A persona id must be a male Catholic."""
    found: dict[str, Any] = {}
    for i, t in enumerate(tables, start=1):
        where = f"military_orders #{i}"
        _unknown_keys(problems, where, t, ORDER_KEYS)
        name = _text(problems, f"{where}: name", t.get("name"))
        seat = find_location(state, t.get("seat"))
        if name is None:
            continue
        if seat is None:
            problems.add(f"{where} ({name}): seat {t.get('seat')!r} is not a location of the setup")
            continue
        key = order_key(name)
        if not key or key in found:
            problems.add(f"{where}: the order {name!r} is set up twice, or has no letters in its name")
            continue
        offices = state["locations"][seat]["offices"]
        grandmaster = t.get("grandmaster", offices.get("tenant"))
        gm = state["personae"].get(grandmaster) if isinstance(grandmaster, str) else None
        if gm is not None and (gm["religion"] != "catholic" or gm["female"]):
            problems.add(f"{where} ({name}): grandmaster {grandmaster} must be a male Catholic persona")
        holds = t.get("holds")
        if holds is None:
            holds = [[seat, "tenant"]] + ([[seat, "sovereign"]] if offices.get("sovereign") == grandmaster else [])
        bad = [h for h in holds if not (isinstance(h, list) and len(h) == 2 and find_location(state, h[0])
                                         and h[1] in ("sovereign", "feudatory", "tenant"))]
        if bad:
            problems.add(f"{where} ({name}): holds lists [location, sovereign|feudatory|tenant] pairs, not {bad}")
            continue
        holds = [[find_location(state, h[0]), h[1]] for h in holds]
        for place, office in holds:  # the order's offices are held by its grandmaster (or the order, vacant)
            state["locations"][place]["offices"][office] = grandmaster or name
        # A grandmastership vacant at the start is filled by election in the first month (RH-OQ-31).
        found[key] = {"name": name, "seat": seat, "grandmaster": grandmaster, "holds": holds, "founded": None,
                      "election": None if grandmaster else {"turn": 1, "votes": {}}, "elected": None}
    return found


def new_game(setup: dict[str, Any]) -> State:
    """The state before turn 1 (docs/renaissance-state.md) from the setup file's TOML. Raises SetupError naming
    every bad entry."""
    problems = _Problems(MAX_REPORTED)
    _unknown_keys(problems, "setup", setup, TOP_KEYS)
    state: State = {
        "calendar": _calendar(problems, setup.get("game", {})),
        "fees": _fees(problems, setup.get("fees", {})),
        "players": {}, "families": {}, "personae": {}, "locations": {}, "roads": {},
        "pope": None, "harbor_deepened": {}, "log": [],
    }
    for key in ("players", "families", "locations"):
        if not setup.get(key):
            problems.add(f"{key}: a game needs at least one [[{key}]] table")
    _apply(state, setup, problems, amending=False, turn=None)
    tables = setupfile.array_of_tables(problems, setup, "military_orders")
    if tables:
        state["military_orders"] = _military_orders(problems, state, tables)
        problems.raise_any()
    return state


def amend(state: State, amendment: dict[str, Any], turn: int | None = None) -> list[str]:
    """Add a GM's amendment (same shape as the setup: [[players]], [[families]], [[locations]], [[roads]], each
    optional) to a running game's state, in place. A location with `requested_by = "XXX"` answers that player's
    LOCATION SETUPS request and bills him the location setup fee for `turn`. Returns a line per thing added;
    raises SetupError (and changes nothing) on any problem."""
    problems = _Problems(MAX_REPORTED)
    _unknown_keys(problems, "amendment", amendment, AMEND_KEYS)
    return _apply(state, amendment, problems, amending=True, turn=turn)
