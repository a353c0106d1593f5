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
from types import ModuleType
from typing import Any

from maild_rules.renaissance.engine import STEPS, Ctx
from maild_rules.renaissance.setup import new_game

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
