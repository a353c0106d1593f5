"""THE PERSONAE FAMILIES: death and succession (docs/renaissance/upkeep.md, "Succession")."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance import succession
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.registry import STEPS


def piero(**extra: Any) -> dict[str, Any]:
    p = {"id": "0101", "name": "Piero de' Medici", "family": "MEDICI", "female": False, "religion": "catholic",
         "origin": "european", "alive": False, "died": "killed in battle at Pisa", "age": 41,
         "popularity": 420, "piety": 35, "morale": 500, "skills": {"merchantry": 500}, "guild": "master",
         "titles": ["Lord of Florence", "Knight of the Golden Spur"], "rank": "baron",
         "assets": {"ducats": 50000, "horse": 40}, "location": "Pisa", "at_sea": None, "inside": True,
         "with": None, "citizenship": "Florence", "boarding_permits": ["0201"], "alms_year": {"1493": 40},
         "collector": [{"kind": "tax", "location": "Pisa", "turn": 3}]}
    p.update(extra)
    return p


def other(pid: str, family: str, **extra: Any) -> dict[str, Any]:
    p = {"id": pid, "name": f"Someone {pid}", "family": family, "alive": True, "popularity": 10,
         "location": "Pisa", "with": None, "boarding_permits": [], "assets": {}}
    p.update(extra)
    return p


def make_ctx(*personae: dict[str, Any], locations: dict[str, Any] | None = None) -> Ctx:
    state = {"calendar": {"year": 1493, "month": 1},
             "families": {"MEDICI": {"player": "LMD", "personae": ["0101", "0102"]},
                          "SFORZA": {"player": "LSF", "personae": ["0201"]}},
             "personae": {p["id"]: p for p in personae},
             "locations": locations if locations is not None else {"Florence": {"offices": {}}, "Pisa": {}}}
    return Ctx(state=state, turn=7, rng=random.Random(3))


def test_registered_at_end_80() -> None:
    assert (80, "succession") in [(rank, name) for rank, name, _ in STEPS["end"]]


def test_popularity_capped_at_200_and_the_rest_zero() -> None:
    # Final popularity 420 -> min(420, 200) = 200; piety 35 -> 0, morale 500 -> 0, skills gone, assets gone.
    ctx = make_ctx(piero(), other("0102", "MEDICI"))
    succession.succession(ctx)
    heir = ctx.state["personae"]["0101"]
    assert heir["alive"] is True and "died" not in heir
    assert (heir["popularity"], heir["piety"], heir["morale"]) == (200, 0, 0)
    assert heir["skills"] == {} and heir["assets"] == {} and heir["guild"] is None and heir["collector"] == []
    assert heir["family"] == "MEDICI" and heir["religion"] == "catholic" and heir["citizenship"] == "Florence"
    # "outside the town of which he is a citizen"
    assert heir["location"] == "Florence" and heir["inside"] is False
    assert heir["predecessors"] == [{"name": "Piero de' Medici", "died": "killed in battle at Pisa", "turn": 7}]
    assert heir["name"].endswith(" de' Medici") and heir["name"] != "Piero de' Medici"
    assert ctx.state["families"]["MEDICI"]["personae"] == ["0101", "0102"]
    assert any("Piero de' Medici (0101)" in n and "killed in battle" in n for n in ctx.news)
    assert any("50,000 ducats" in m for m in ctx.messages["MEDICI"])


def test_low_popularity_passes_whole() -> None:
    # 150 < 200: the heir gets 150.
    ctx = make_ctx(piero(popularity=150))
    succession.succession(ctx)
    assert ctx.state["personae"]["0101"]["popularity"] == 150


def test_hereditary_titles_kept_knighthood_not() -> None:
    ctx = make_ctx(piero())
    succession.succession(ctx)
    heir = ctx.state["personae"]["0101"]
    assert heir["titles"] == ["Lord of Florence"] and heir["rank"] == "baron"


def test_offices_vacated_hereditary_positions_kept() -> None:
    # Piero is tenant and feudatory of Pisa (held by title: kept), magistrate of Pisa and bishop there
    # (personal: vacant), and sovereign of Florence (elective: vacant). Someone else's office is untouched.
    locations = {"Florence": {"offices": {"sovereign": "0101", "magistrate": "0201"}},
                 "Pisa": {"offices": {"tenant": "0101", "feudatory": "0101", "magistrate": "0101", "bishop": "0101",
                                      "sovereign": "Ludovico Sforza"}}}
    ctx = make_ctx(piero(), other("0201", "SFORZA"), locations=locations)
    succession.succession(ctx)
    assert locations["Florence"]["offices"] == {"sovereign": None, "magistrate": "0201"}
    assert locations["Pisa"]["offices"] == {"tenant": "0101", "feudatory": "0101", "magistrate": None,
                                            "bishop": None, "sovereign": "Ludovico Sforza"}
    assert any("sovereign of Florence" in n and "bishop of Pisa" in n and "magistrate of Pisa" in n
               for n in ctx.news)


def test_elective_ruler_flag_on_a_location() -> None:
    locations = {"Venice": {"elective_ruler": True, "offices": {"sovereign": "0101"}},
                 "Milan": {"offices": {"sovereign": "0101"}}}
    ctx = make_ctx(piero(citizenship="Venice"), locations=locations)
    succession.succession(ctx)
    assert locations["Venice"]["offices"]["sovereign"] is None
    assert locations["Milan"]["offices"]["sovereign"] == "0101"


def test_passengers_die_with_the_owner() -> None:
    # 0201 sails "with" 0101; 0101 dies, so 0201 dies and is replaced too. 0102 is elsewhere and lives.
    ctx = make_ctx(piero(), other("0201", "SFORZA", **{"with": "0101"}, popularity=999, citizenship="Milan"),
                   other("0102", "MEDICI"))
    succession.succession(ctx)
    heir = ctx.state["personae"]["0201"]
    assert heir["predecessors"][0]["name"] == "Someone 0201"
    assert "ship of Piero de' Medici" in heir["predecessors"][0]["died"]
    assert heir["popularity"] == 200 and heir["with"] is None
    assert ctx.state["personae"]["0102"]["name"] == "Someone 0102"


def test_boarding_permits_do_not_pass_to_the_heir() -> None:
    # 0201 had allowed 0101 aboard; the heir has no such permit, nor the permits 0101 had granted.
    ctx = make_ctx(piero(), other("0201", "SFORZA", boarding_permits=["0101", "0301"]))
    succession.succession(ctx)
    assert ctx.state["personae"]["0201"]["boarding_permits"] == ["0301"]
    assert ctx.state["personae"]["0101"]["boarding_permits"] == []


def test_predecessors_accumulate_and_living_untouched() -> None:
    earlier = [{"name": "Cosimo de' Medici", "died": "old age", "turn": 2}]
    ctx = make_ctx(piero(predecessors=earlier), other("0102", "MEDICI"))
    succession.succession(ctx)
    assert [p["name"] for p in ctx.state["personae"]["0101"]["predecessors"]] == ["Cosimo de' Medici",
                                                                                    "Piero de' Medici"]
    assert ctx.state["personae"]["0102"]["popularity"] == 10


def test_successor_without_rng_and_without_citizenship() -> None:
    state = make_ctx(piero(citizenship=None, location=None, at_sea={"lat": 40.0, "lon": 5.0})).state
    heir = succession.successor(state, "0101")
    assert heir["name"] == "Heir of Piero de' Medici"
    assert heir["location"] is None and heir["at_sea"] == {"lat": 40.0, "lon": 5.0}
    assert state["personae"]["0101"]["alive"] is False  # successor() builds, the step replaces


def test_generated_names_are_deterministic() -> None:
    names = []
    for _ in range(2):
        ctx = make_ctx(piero())
        succession.succession(ctx)
        names.append(ctx.state["personae"]["0101"]["name"])
    assert names[0] == names[1]
