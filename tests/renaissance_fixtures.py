"""A tiny Renaissance world for tests: four locations in Tuscany and the Ligurian coast, two families.

`small_setup()` is the SETUP dict (change it to test a setup error); `small_state()` the state new_game makes of
it. Who is where, for tests to rely on:

- MEDICI (player LMD, catholic): 0101 Piero at Florence, sovereign of Florence and Pisa, merchant master;
  0102 Giovanni at Florence, bishop of Florence; 0103 Giuliano at Pisa.
- DORIA (player ADR, catholic): 0201 Andrea at Genoa with a galley and crew, magistrate of Genoa;
  0202 Domenico at Florence, a citizen of Genoa (inside: Florence's setup lists DORIA among the families with
  ingress; Pisa's and Genoa's lists are derived: MEDICI at Pisa, DORIA at Genoa).
- Florence supplies wool, demands spices; Genoa (harbor 20 ft) supplies oil, demands food; Pisa (harbor 4)
  ferries to Livorno (a made-up crossing; the rule's five miles are not checked by the loader).
- Road Florence-Pisa, 40 miles.
"""

from __future__ import annotations

import copy
import random
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from maild.app import App
from maild.ruleset import OrderSet, PlacedOrder
from maild.testing import run_pass
from maild.turn import release_turn
from maild_rules.renaissance import RULESET, engine
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.registry import STEPS
from maild_rules.renaissance.setup import new_game
from tests.conftest import make_app

_SETUP: dict[str, Any] = {
    "game": {"start": "1493-01"},
    "fees": {"per_family": 5.0, "location_setup": 10.0},
    "players": [
        {"code": "LMD", "name": "Lorenzo's player", "email": "lmd@example.org", "password": "giglio"},
        {"code": "ADR", "name": "Andrea's player", "email": "adr@example.org"},
    ],
    "families": [
        {"name": "MEDICI", "player": "LMD", "religion": "catholic", "personae": [
            {"id": "0101", "name": "Piero de' Medici", "age": 21, "popularity": 420, "piety": 35,
             "skills": {"merchantry": 500, "letters": 120}, "guild": "master", "titles": ["Lord of Florence"],
             "assets": {"ducats": 50000, "grain": 400, "horse": 40, "light cavalry": 50},
             "location": "Florence"},
            {"id": "0102", "name": "Giovanni de' Medici", "age": 17, "popularity": 300, "piety": 250,
             "skills": {"sermonizing": 300}, "assets": {"ducats": 20000}, "location": "Florence"},
            {"id": "0103", "name": "Giuliano de' Medici", "age": 14, "popularity": 200, "piety": 20,
             "assets": {"ducats": 5000, "horse": 4}, "location": "Pisa", "citizenship": "Florence"},
        ]},
        {"name": "DORIA", "player": "ADR", "religion": "catholic", "personae": [
            {"id": "0201", "name": "Andrea Doria", "age": 26, "popularity": 300, "piety": 60,
             "skills": {"navigation": 450, "dueling": 300},
             "assets": {"ducats": 20000, "galley": 1, "crew": 200, "pitch": 20, "timber": 20},
             "location": "Genoa"},
            {"id": "0202", "name": "Domenico Doria", "age": 40, "popularity": 250, "piety": 40,
             "skills": {"merchantry": 200}, "assets": {"ducats": 30000, "horse": 20}, "location": "Florence",
             "citizenship": "Genoa"},
        ]},
    ],
    "locations": [
        {"name": "Florence", "lat": 43.77, "lon": 11.25, "region": "Tuscany", "population": 70000, "wealth": 180,
         "loyalty": 520, "religion": "catholic", "far": 40, "fas": 60,
         "towers": [{"name": "Palazzo Vecchio", "fas": 20, "owner": "sovereign"}],
         "offices": {"sovereign": "0101", "bishop": "0102", "archbishop": "Rinaldo Orsini",
                     "magistrate": "Francesco Valori"},
         "magistrate_selection": "e", "see": "Florence", "ingress": ["MEDICI", "DORIA"],
         "supplied": {"wool": {"qty": 600, "price": 12, "bq": 0.01}},
         "demanded": {"spices": {"qty": 300, "price": 90, "bq": 0.005}},
         "tariffs": {"import": 5, "export": 3}},
        {"name": "Pisa", "lat": 43.72, "lon": 10.40, "region": "Tuscany", "population": 10000, "wealth": 130,
         "loyalty": 300, "religion": "catholic", "harbor": 4, "ferries": ["Livorno"], "far": 30, "fas": 80,
         "offices": {"sovereign": "0101"}, "see": "Florence",
         "supplied": {"grain": {"qty": 400, "price": 2}}},
        {"name": "Livorno", "lat": 43.55, "lon": 10.31, "region": "Tuscany", "population": 3000,
         "religion": "catholic", "harbor": 12},
        {"name": "Genoa", "lat": 44.41, "lon": 8.93, "region": "Liguria", "population": 60000, "wealth": 200,
         "loyalty": 430, "religion": "catholic", "harbor": 20, "far": 50, "fas": 130,
         "offices": {"magistrate": "0201"}, "magistrate_selection": "s",
         "supplied": {"oil": {"qty": 600, "price": 6, "bq": 0.01}},
         "demanded": {"food": {"qty": 2500, "price": 4, "bq": 0.04}}},
    ],
    "roads": [{"from": "Florence", "to": "Pisa", "miles": 40}],
}


def small_setup() -> dict[str, Any]:
    """A fresh copy of the tiny world's SETUP dict."""
    return copy.deepcopy(_SETUP)


def small_state() -> dict[str, Any]:
    """The state of docs/renaissance-state.md for the tiny world, before turn 1."""
    return new_game(small_setup())


def month_ctx(personae: list[dict[str, Any]], locations: list[dict[str, Any]], month: int = 1, turn: int = 1,
              **state: Any) -> Ctx:
    """A turn's context over a hand-made state (1493, the given month): the personae keyed by id, the locations
    by name, any other state keys as given; each persona starts the turn where he stands."""
    full = {"calendar": {"year": 1493, "month": month}, "personae": {p["id"]: p for p in personae},
            "locations": {loc["name"]: loc for loc in locations}, "families": {}, **state}
    ctx = Ctx(state=full, turn=turn, rng=random.Random(1))
    for p in personae:
        ctx.start_location[p["id"]] = p["location"]
        ctx.start_inside[p["id"]] = bool(p["inside"])
    return ctx


def run_end_steps(ctx: Ctx, module: ModuleType) -> None:
    """The end-of-turn steps one rule module registered, in their ranks."""
    for _rank, _name, fn in STEPS["end"]:
        if fn.__module__ == module.__name__:
            fn(ctx)


# The world of the games played by mail in the flow tests: a Rome-centred setup for game "ren1".
MAIL_SETUP = """
[game]
start = "1493-01"

[fees]
per_family = 5.0
per_order = 0.0
prepay_discount = 0.1

[[players]]
code = "MED"
name = "Lorenzo's player"
email = "med@example.org"
balance = 100.0

[[players]]
code = "SFO"
email = "sfo@example.org"
balance = 100.0

[[players]]
code = "BOR"
email = "bor@example.org"
password = "cantarella"
balance = 100.0

[[families]]
name = "MEDICI"
number = 1
player = "MED"
religion = "catholic"
  [[families.personae]]
  id = "0101"
  name = "Piero de' Medici"
  popularity = 300
  skills = { letters = 200 }
  assets = { ducats = 10000, grain = 500 }
  location = "Florence"
  inside = true
  citizenship = "Florence"
  [[families.personae]]
  id = "0102"
  name = "Giovanni de' Medici"
  popularity = 100
  location = "Florence"
  inside = true
  citizenship = "Florence"

[[families]]
name = "SFORZA"
number = 2
player = "SFO"
religion = "catholic"
  [[families.personae]]
  id = "0201"
  name = "Ludovico Sforza"
  popularity = 500
  assets = { ducats = 5000, wool = 100 }
  location = "Milan"
  inside = true
  citizenship = "Milan"

[[families]]
name = "BORGIA"
number = 3
player = "BOR"
religion = "catholic"
  [[families.personae]]
  id = "0301"
  name = "Cesare Borgia"
  popularity = 250
  assets = { ducats = 2000 }
  location = "Florence"
  inside = true
  citizenship = "Rome"

[[locations]]
name = "Florence"
lat = 43.77
lon = 11.25
population = 70000
wealth = 150
loyalty = 500
religion = "catholic"
tariffs = { import = 0, export = 5 }
supplied = { wool = { qty = 1000, price = 10, bq = 0.01 } }

[[locations]]
name = "Milan"
lat = 45.46
lon = 9.19
population = 100000
wealth = 150
loyalty = 500
religion = "catholic"
tariffs = { import = 10, export = 0 }
demanded = { fibers = { qty = 500, price = 20, bq = 0.005 } }

[[locations]]
name = "Rome"
lat = 41.90
lon = 12.50
population = 50000
wealth = 120
loyalty = 400
religion = "catholic"
"""


def mail_game(tmp_path: Path, db_url: str, now: datetime) -> App:
    """An app with game "ren1" (MAIL_SETUP) in its config, Maildirs in and out, months due on 1 December
    and 1 January at noon, Rome time."""
    setup = tmp_path / "renaissance.toml"
    setup.write_text(MAIL_SETUP)
    return make_app(tmp_path, db_url, now, setup, name="ren1", ruleset="renaissance",
                    schedule={"timezone": "Europe/Rome", "at": ["2026-12-01T12:00", "2027-01-01T12:00"]})


# A GM's config for game ren1 of MAIL_SETUP (format with db= and tmp=), and an amendment adding Venice's port
# and the Cornaro family.
CONFIG_TOML = """
[database]
url = "{db}"
[mail.inbound]
kind = "maildir"
path = "{tmp}/inbox"
[mail.outbound]
kind = "maildir"
path = "{tmp}/outbox"
from = "gm@example.org"
[[games]]
name = "ren1"
ruleset = "renaissance"
setup = "renaissance.toml"
address = "gm@example.org"
[games.schedule]
timezone = "Europe/Rome"
at = ["2026-12-01T12:00", "2027-01-01T12:00"]
"""

VENICE_PORT = """
[[locations]]
name = "Venice"
lat = 45.44
lon = 12.33
population = 100000
wealth = 200
loyalty = 600
religion = "catholic"
harbor = 12

[[players]]
code = "COR"
email = "cor@example.org"
balance = 50.0

[[families]]
name = "CORNARO"
number = 4
player = "COR"
religion = "catholic"
  [[families.personae]]
  id = "0401"
  name = "Caterina Cornaro"
  female = true
  popularity = 300
  assets = { ducats = 9000 }
  location = "Venice"
  citizenship = "Venice"
"""


def month_passes(app: App, at: datetime) -> None:
    """The deadline passes with no family's orders on file: the safety gate (which holds a turn nobody sent
    orders for) is the GM's to lift, as he would with `maild turn release`."""
    run_pass(app, at)
    assert release_turn(app, "ren1").status == "done"
    run_pass(app, at)


def run_mails(texts: dict[str, str], turn: int, state: dict[str, Any]) -> Any:
    """One month of the small world through the engine, each player's mail as given (a player without one sends
    nothing); the new state is `result.ctx.state`."""
    orders: dict[str, list[PlacedOrder]] = {"LMD": [], "ADR": []}
    for seq, (player, text) in enumerate(texts.items(), start=1):
        parsed = RULESET.parse(text)
        assert parsed.diagnostics == [], parsed.diagnostics
        orders[player] = RULESET.effective([OrderSet(player, seq, parsed.orders)])
    return engine.run_month(state, turn, orders, random.Random(1))


def solvent(state: dict[str, Any]) -> dict[str, Any]:
    """Accounts in credit, so that a chain of months is never stopped by CREDIT (every month charges fees)."""
    for player in state["players"].values():
        player.setdefault("account", {"history": []})["balance"] = 10_000.0
    return state


def war_persona(pid: str, family: str, where: str = "Pisa", inside: bool = True, **kw: Any) -> dict[str, Any]:
    """A persona as the war's control and intrigue tests build him: at Pisa, inside the walls, of no rank."""
    return {"id": pid, "name": f"P{pid}", "family": family, "female": False, "alive": True, "popularity": 300,
            "piety": 0, "morale": 500, "skills": {}, "rank": "none", "titles": [], "assets": {},
            "location": where, "inside": inside, **kw}


def war_town(name: str = "Pisa", **kw: Any) -> dict[str, Any]:
    """A location with every office empty unless given, MEDICI alone with ingress."""
    offices = {"sovereign": None, "feudatory": None, "tenant": None, "magistrate": None, "bishop": None,
               "archbishop": None, "dfc": None, **kw.pop("offices", {})}
    return {"name": name, "population": 10000, "wealth": 130, "loyalty": 300, "garrison": 0, "towers": [],
            "ingress": ["MEDICI"], "ingress_waiting": [], "offices": offices, **kw}


def flat(text: str) -> str:
    """Text with every run of blanks and line breaks made one blank: how a test finds a sentence or an order's row
    that the printout wraps to 78 columns."""
    return " ".join(text.split())
