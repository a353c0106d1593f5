"""A synthetic world for the benchmark: thousands of locations over Europe's box, families with assets enough
for their orders to succeed, personae sharing locations so that transfers, training and votes have partners.

`generate` returns a SETUP dict, the same shape as examples/renaissance/setup.toml, to be loaded by
`setup.new_game`. The same seed gives the same world.
"""

from __future__ import annotations

import math
import random
from typing import Any

from .setup import LOCALS, PERSONA_IDS, PLAYER_CODES, great_circle_miles, location_key

LAT = (35.0, 60.0)
LON = (-10.0, 40.0)
SYLLABLES = ("ba", "bel", "ca", "cor", "da", "del", "fa", "fer", "ga", "gra", "la", "lor", "ma", "mon", "na",
             "nor", "pa", "pel", "ra", "ros", "sa", "san", "ta", "tor", "va", "ver", "za", "zen", "ri", "lo", "mi",
             "no", "ve", "to", "gi", "bri", "qua", "sel", "vin", "dor")
# What the generated markets trade: items with a plausible price, classes with what the locals pay.
GOODS: dict[str, int] = {"grain": 2, "wine": 5, "wool": 8, "salt": 3, "salt fish": 4, "oil": 6, "timber": 3,
                         "iron": 8, "copper": 12, "linen": 12, "broadcloth": 28, "silk cloth": 58, "pepper": 45,
                         "sugar": 16, "alum": 12, "woad": 7, "glass": 20, "book": 42, "fur": 30, "horse": 40,
                         "small arms": 15, "pitch": 4, "cordage": 5, "cheese": 5, "raw silk": 34}
DEMANDS: dict[str, int] = {"food": 4, "clothing": 40, "spices": 80, "metals": 16, "fibers": 13, "dyestuffs": 35,
                           "alcohol": 6, "weaponry": 30, "naval materials": 8, "manufactures": 22}
SKILL_POOL = ("merchantry", "navigation", "engineering", "letters", "art", "sermonizing", "dueling", "gunnery")
RELIGION_MIX = (("catholic", 8), ("orthodox", 1), ("sunni", 1))


def _names(rng: random.Random, count: int, syllables: tuple[int, int]) -> list[str]:
    """Unique pronounceable names (no digits: orders write a location right after a persona's number)."""
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < count:
        name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(*syllables)))
        if location_key(name) not in seen:
            seen.add(location_key(name))
            names.append(name.capitalize())
    return names


def _player_codes(count: int) -> list[str]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if count > PLAYER_CODES:
        raise ValueError(f"{count} players do not fit in three-letter codes: at most {PLAYER_CODES:,}")
    return [letters[i // 676] + letters[i // 26 % 26] + letters[i % 26] for i in range(count)]


def _persona_ids(families: int, per_family: int) -> list[list[str]]:
    """FFNN for families 1-99; larger games give the rest of the families the lowest ids still free."""
    if families * per_family > PERSONA_IDS:
        raise ValueError(f"{families * per_family} personae do not fit in 4-digit persona ids: at most "
                         f"{PERSONA_IDS // per_family:,} families of {per_family} ({PERSONA_IDS:,} personae, 0001 to "
                         f"9998; 0000 is refused and 9999 is the locals)")
    ids = [[f"{n:02d}{k:02d}" for k in range(1, per_family + 1)] for n in range(1, min(families, 99) + 1)]
    used = {pid for family in ids for pid in family}
    free = (f"{i:04d}" for i in range(1, 10000) if f"{i:04d}" not in used and f"{i:04d}" != LOCALS)
    for _ in range(99, families):
        ids.append([next(free) for _ in range(per_family)])
    return ids


def _market(rng: random.Random, catalogue: dict[str, int], count: int, margin: float) -> dict[str, dict[str, Any]]:
    market = {}
    for what in rng.sample(sorted(catalogue), count):
        bq = round(rng.uniform(0.002, 0.02), 4)
        market[what] = {"bq": bq, "price": max(1, round(catalogue[what] * rng.uniform(1.0, margin)))}
    return market


def generate(locations: int = 4000, families: int = 1000, personae_per_family: int = 5, seed: int = 1,
             hierarchies: bool = False) -> dict:
    """A SETUP dict of a synthetic world: `locations` places in Europe's lat/lon box with markets, `families`
    families of `personae_per_family` personae (five families per player, one religion each), every family
    sovereign of its home town, and personae gathered at a few hundred hubs. `hierarchies`: with the offices the
    hierarchies' orders need (add_hierarchies)."""
    if not 1 <= personae_per_family <= 5:
        raise ValueError("a family has one to five personae")
    rng = random.Random(seed)
    names = _names(rng, locations, (2, 4))
    hubs = names[: max(1, min(locations, 400))]
    locs: list[dict[str, Any]] = []
    for i, name in enumerate(names):
        if i % 2 == 1 and i < 40:
            # Ferry pairs: the odd place among the first forty sits a mile or two off its even neighbour.
            prev = locs[-1]
            lat, lon = prev["lat"] + 0.02, prev["lon"] + 0.01
        else:
            lat, lon = round(rng.uniform(*LAT), 3), round(rng.uniform(*LON), 3)
        population = int(min(200_000, 2000 * rng.paretovariate(1.2)))
        loc: dict[str, Any] = {
            "name": name, "lat": lat, "lon": lon, "region": f"Region {chr(65 + i % 26)}",
            "population": population, "wealth": rng.randint(100, 250), "loyalty": rng.randint(300, 700),
            "religion": rng.choices([r for r, _ in RELIGION_MIX], [w for _, w in RELIGION_MIX])[0],
            "far": rng.randint(0, 80), "fas": rng.randint(10, 200), "magistrate_selection": rng.choice("esftba"),
            "supplied": _market(rng, GOODS, 3, 1.2), "demanded": _market(rng, DEMANDS, 3, 1.5),
            "tariffs": {"import": rng.randint(0, 8), "export": rng.randint(0, 5)},
            "offices": {},
        }
        if rng.random() < 0.3:
            loc["harbor"] = rng.randint(4, 30)
        if i % 2 == 1 and i < 40:
            loc["ferries"] = [locs[-1]["name"]]
        if i < 4:
            loc["pilgrimage"] = {"catholic": [[(2, 4, 7, 9)[i], 30]]}
        if rng.random() < 0.02:
            loc["may_colonize"] = True
            loc["population"] = min(population, 3000)
        locs.append(loc)

    per_player = 5
    codes = _player_codes(math.ceil(families / per_player))
    player_religion = {code: rng.choices([r for r, _ in RELIGION_MIX], [w for _, w in RELIGION_MIX])[0]
                       for code in codes}
    players = [{"code": code, "name": f"Player {code}", "email": f"{code.lower()}@example.org"} for code in codes]
    family_names = [n.upper() for n in _names(rng, families, (3, 4))]
    fams: list[dict[str, Any]] = []
    for n, (fname, ids) in enumerate(zip(family_names, _persona_ids(families, personae_per_family), strict=True), 1):
        code = codes[(n - 1) // per_player]
        home = locs[(n - 1) % locations]
        if n <= locations:
            # Every family rules its home town: holding court, tax and tithe collection, appointments have a
            # holder to order them.
            home["offices"].setdefault("sovereign", ids[0])
            home["offices"].setdefault("tenant", ids[0])
            if len(ids) > 1:
                home["offices"].setdefault("bishop", ids[1])
        personae = []
        for k, pid in enumerate(ids):
            where = home["name"] if k < 2 else rng.choice(hubs)
            skills = {s: rng.randint(50, 900) for s in rng.sample(SKILL_POOL, 3)}
            personae.append({
                "id": pid, "name": f"{fname.capitalize()} {k + 1}", "age": rng.randint(16, 60),
                "popularity": rng.randint(150, 700), "piety": rng.randint(0, 400), "skills": skills,
                "guild": rng.choice((None, None, "apprentice", "journeyman", "master")),
                "assets": {"ducats": 500_000, "horse": 400, "grain": 500, "wool": 300, "light cavalry": 100,
                           "pikeman": 200, "small arms": 100, "auxiliary": 2000, "barque": 1, "crew": 30},
                "location": where, "citizenship": home["name"], "inside": True,
            })
        fams.append({"name": fname, "number": n, "player": code, "religion": player_religion[code],
                     "origin": "european", "personae": personae})

    roads = []
    by_name = {loc["name"]: loc for loc in locs}
    for a, b in zip(hubs[0:200:2], hubs[1:200:2], strict=False):
        d = great_circle_miles(by_name[a]["lat"], by_name[a]["lon"], by_name[b]["lat"], by_name[b]["lon"])
        if d >= 2:
            roads.append({"from": a, "to": b, "miles": math.ceil(d * 0.8)})
    setup = {"game": {"start": "1493-01"}, "players": players, "families": fams, "locations": locs, "roads": roads}
    if hierarchies:
        add_hierarchies(setup)
    return setup


KING_EVERY = 10  # one family in ten is a king's (three elevation rights a year)
SEE_EVERY = 5  # one home town in five is an archbishopric, over the next four homes and three vacant sees
VACANT_SEES = 3
ELECTIVE_EVERY = 50  # one home town in fifty elects its ruler for life in January 1493
ORDER_EVERY = 100  # one home town in a hundred is the seat of a military order, its grandmaster elected in January


def add_hierarchies(setup: dict[str, Any]) -> None:
    """The hierarchies' offices over a generated world (issue 25's benchmark): kings, a Pope, archbishoprics with
    vacant sees, elective states and military orders without a grandmaster, all at the families' home towns."""
    fams, locs = setup["families"], setup["locations"]
    homes = locs[:min(len(fams), len(locs))]
    for n, fam in enumerate(fams):
        if n % KING_EVERY == 0:
            fam["personae"][0]["rank"] = "king"
    pope = next((f for f in fams if f["religion"] == "catholic" and len(f["personae"]) > 1), None)
    if pope is not None:
        setup["game"]["pope"] = pope["personae"][1]["id"]
    spare = iter(locs[len(homes):])
    for i in range(0, len(homes), SEE_EVERY):
        see = homes[i]
        if "bishop" not in see["offices"]:
            continue
        see["offices"]["archbishop"] = see["offices"]["bishop"]
        for loc in [*homes[i:i + SEE_EVERY], *(next(spare, None) for _ in range(VACANT_SEES))]:
            if loc is not None:
                loc["see"] = see["name"]
                loc["religion"] = see["religion"]
    for i in range(0, len(homes), ELECTIVE_EVERY):
        homes[i]["elective_ruler"] = True
        homes[i]["ruler_election"] = setup["game"]["start"]
        homes[i]["ruler_electors"] = [fams[i]["name"]]
    orders = []
    for i in range(ORDER_EVERY // 2, len(homes), ORDER_EVERY):
        if fams[i]["religion"] == "catholic":
            homes[i]["offices"].pop("tenant", None)  # the order holds it, vacant until its first election
            orders.append({"name": f"Order of {homes[i]['name']}", "seat": homes[i]["name"]})
    if orders:
        setup["military_orders"] = orders
