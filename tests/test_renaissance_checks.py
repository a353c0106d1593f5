"""Intake checks of Renaissance orders against a small state built by hand (docs/renaissance-state.md)."""

from __future__ import annotations

from typing import Any

from maild.ruleset import Diagnostic
from maild_rules.renaissance.checks import check, find_location
from maild_rules.renaissance.codes import parse


def persona(pid: str, family: str, location: str | None, alive: bool = True, **extra: Any) -> dict[str, Any]:
    return {"id": pid, "name": f"Persona {pid}", "family": family, "female": False, "religion": "catholic",
            "origin": "european", "alive": alive, "age": 30, "popularity": 400, "piety": 30, "morale": 500,
            "skills": {}, "guild": None, "titles": [], "rank": "none", "assets": {"ducats": 1000},
            "location": location, "at_sea": None, "inside": True, "with": None, "citizenship": location,
            "boarding_permits": [], "alms_year": {}, "collector": [], **extra}


def location(name: str) -> dict[str, Any]:
    return {"name": name, "lat": 43.0, "lon": 11.0, "region": "Tuscany", "landmass": "Europe", "population": 10000,
            "wealth": 100, "loyalty": 500, "religion": "catholic", "harbor": None, "ferries": [], "far": 0,
            "fas": 0, "towers": [], "garrison": 0, "offices": {}, "magistrate_selection": "e", "see": None,
            "ingress_denied": [], "egress_denied": [], "supplied": {}, "demanded": {},
            "tariffs": {"import": 5, "export": 3}, "may_colonize": False, "colonists_this_turn": 0,
            "food_satisfied": True, "pilgrimage": {}}


def state() -> dict[str, Any]:
    return {
        "calendar": {"year": 1493, "month": 1},
        "players": {"LMD": {"name": "Lorenzo", "email": "l@example.org", "password": None,
                            "account": {"balance": 0.0, "history": []}},
                    "CBG": {"name": "Cesare", "email": "c@example.org", "password": None,
                            "account": {"balance": 0.0, "history": []}}},
        "families": {
            "MEDICI": {"player": "LMD", "religion": "catholic", "origin": "european",
                       "personae": ["0101", "0102", "0103", "0104"], "number": 1},
            "DELLA ROVERE": {"player": "LMD", "religion": "catholic", "origin": "european", "personae": ["0301"],
                             "number": 3},
            "BORGIA": {"player": "CBG", "religion": "catholic", "origin": "european", "personae": ["0201"],
                       "number": 2},
        },
        "personae": {
            "0101": persona("0101", "MEDICI", "Florence"),
            "0102": persona("0102", "MEDICI", "Pisa"),
            "0103": persona("0103", "MEDICI", "Santiago de Compostela"),
            "0104": persona("0104", "MEDICI", None, at_sea={"lat": 41.0, "lon": 12.0}),
            "0105": persona("0105", "MEDICI", "Florence", alive=False),
            "0201": persona("0201", "BORGIA", "Rome"),
            "0301": persona("0301", "DELLA ROVERE", "Savona"),
        },
        "locations": {name: location(name) for name in
                      ("Florence", "Pisa", "Siena", "Rome", "Savona", "Venice", "Santiago de Compostela")},
        "roads": {}, "harbor_deepened": {}, "log": [],
    }


def run(text: str, player: str = "LMD", turn: int = 1) -> list[Diagnostic]:
    parsed = parse(text)
    assert parsed.diagnostics == [], parsed.diagnostics
    world = state()
    world["locations"]["Savona"]["offices"] = {"sovereign": "0301"}  # his court (OC) is held where he rules
    return check(world, turn, player, parsed.orders)


def test_good_orders_pass() -> None:
    text = """/LMD *MEDICI
!MAY1493 ?ABORGIA ?DVenice ?Csantiago_de_compostela
*Florence .0101
T0102grain500 T9999grain5 I0102m WA0102 OT0102Pisa DIBORGIA MLSiena/Pisa PRsiena
*Pisa .0102
HP
*SantiagodeCompostela .0103
HC5000
*+41.00+012.00 .0104
MWVenice
/LMD *DELLAROVERE
*savona .0301 OC
"""
    assert run(text) == []


def test_player_code_must_be_the_players() -> None:
    d, again = run("/CBG *MEDICI\n*Florence .0101 HP OC")
    assert d.line == 2 and d.message == "/CBG is not your player code: yours is /LMD"
    assert again.text == "OC" and again.message == "as on line 2: /CBG is not your player code: yours is /LMD"


def test_family_must_exist_and_be_the_players() -> None:
    unknown = run("/LMD *MEDICCI\n*Florence .0101 HP")
    assert len(unknown) == 1 and "there is no family MEDICCI; yours: DELLA ROVERE, MEDICI" in unknown[0].message
    theirs, again = run("/LMD *BORGIA\n*Rome .0201 HP OC")
    assert theirs.line == 2 and theirs.message == "the family BORGIA is not yours"
    assert again.message == "as on line 2: the family BORGIA is not yours"  # every order of it is void


def test_persona_must_be_of_the_family_and_alive() -> None:
    other = run("/LMD *MEDICI\n*Rome .0201 HP")
    assert len(other) == 1 and "0201 is not a persona of the MEDICI family (he is of the BORGIA family)" in \
        other[0].message
    assert "0199 is not a persona of the MEDICI family" in run("/LMD *MEDICI\n*Florence .0199 HP")[0].message
    (dead,) = run("/LMD *MEDICI\n*Florence .0105 HP")
    assert "is dead" in dead.message


def test_start_location_must_match_where_he_is() -> None:
    (d,) = run("/LMD *MEDICI\n*Siena .0101\nHP\nOX")
    assert d.line == 3 and d.warning  # a note, once per persona: his orders stand
    assert d.message.startswith("0101 is at Florence, not at Siena")
    assert run("/LMD *MEDICI\n*FLORENCE .0101 HP\n*santiago-de compostela .0103 HP") == []
    (sea,) = run("/LMD *MEDICI\n*Genoa .0104 HP")
    assert "at sea at +41.00 +12.00" in sea.message and sea.warning


def test_referenced_personae_locations_and_families_exist() -> None:
    text = ("/LMD *MEDICI ?ASFORZA ?DAtlantis\n*Florence .0101\n"
            "T0999grain5 I0105m MLAtlantis/Nowhere OT0102Utopia DEsforza")
    got = [(d.line, d.message) for d in run(text)]
    assert got == [
        (1, "there is no family SFORZA"),
        (1, "there is no location Atlantis"),
        (3, "there is no persona 0999"),
        (3, "0105 (Persona 0105) is dead"),
        (3, "as on line 1: there is no location Atlantis"),
        (3, "there is no location Nowhere (a waypoint)"),
        (3, "there is no location Utopia"),
        (3, "as on line 1: there is no family SFORZA"),
    ]


def test_orders_for_a_past_month() -> None:
    (d,) = run("/LMD *MEDICI\n!JAN1493", turn=3)
    assert d.line == 2 and d.message == "January 1493 is past: this is the March 1493 turn"
    assert run("/LMD *MEDICI\n!MAR1493", turn=3) == []


def test_same_problem_said_in_full_once_and_voids_every_order_it_concerns() -> None:
    diags = run("/CBG *MEDICI\n*Florence .0101\nHP\nOC\nOX")
    assert [(d.line, d.text) for d in diags] == [(3, "HP"), (4, "OC"), (5, "OX")]
    assert [d.message.startswith("as on line 3: ") for d in diags] == [False, True, True]


def test_find_location_ignores_case_blanks_and_separators() -> None:
    s = state()
    assert find_location(s, "santiago_de-compostela") == "Santiago de Compostela"
    assert find_location(s, "SIENA") == "Siena"
    assert find_location(s, "Atlantis") is None
    assert find_location(s, None) is None
