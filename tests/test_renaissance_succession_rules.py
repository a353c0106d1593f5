"""Death and succession, the readings RH-OQ-46 to RH-OQ-49 (docs/renaissance/hierarchies.md): where the dead man's
positions go (`succession.pass_on_positions`, with the Islamic succession to a member of the family), when a death
takes effect in the month, and who the replacement is. The rules' words: "Personae may die, but, when they do, they
are replaced by other personae who take over their hereditary positions and are controlled by the same player. New
personae, however, do not inherit their predecessor's offices, skills, popularity, reputation for piety or personal
assets." (THE PERSONAE FAMILIES); "As primogeniture was not practiced in Islam, the death of a sultan leads to the
immediate succession to his throne of a member of the same family" (THE ISLAMIC HIERARCHY)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from maild.render import render
from maild.ruleset import OrderSet
from maild_rules.renaissance import RULESET, engine, succession
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.reports import persona_view
from tests.renaissance_fixtures import small_state


def moslem(pid: str, **kw: Any) -> dict[str, Any]:
    p = {"id": pid, "name": f"Persona {pid} Hafsid", "family": "HAFSID", "religion": "sunni", "alive": True,
         "popularity": 500, "piety": 100, "morale": 400, "titles": [], "rank": "none", "assets": {},
         "location": "Tunis", "citizenship": "Tunis", "with": None, "boarding_permits": []}
    p.update(kw)
    return p


def tunis_world(*personae: dict[str, Any], **state: Any) -> Ctx:
    full = {"calendar": {"year": 1493, "month": 1},
            "families": {"HAFSID": {"player": "HAF", "religion": "sunni", "personae": [p["id"] for p in personae]}},
            "personae": {p["id"]: p for p in personae},
            "locations": {"Tunis": {"name": "Tunis", "offices": {"sovereign": "0501", "tenant": "0501",
                                                                 "magistrate": "0501"}},
                          "Bona": {"name": "Bona", "offices": {"feudatory": "0501"}}},
            **state}
    return Ctx(state=full, turn=9, rng=random.Random(2))


def sultan(**kw: Any) -> dict[str, Any]:
    return moslem("0501", titles=["Sultan of Tunis", "Knight of the Crescent"], rank="sultan", **kw)


# ---- RH-OQ-47: the Islamic succession to a member of the family ------------------------------------------------

def test_a_named_member_takes_the_dead_moslems_hereditary_positions() -> None:
    ctx = tunis_world(sultan(), moslem("0502"))
    named = succession.name_successor(ctx, ctx.state["personae"]["0501"], {"member": "0502"})
    assert named.ok and ctx.state["personae"]["0501"]["successor_named"] == "0502"
    ctx.state["personae"]["0501"].update(alive=False, died="fever")
    succession.succession(ctx)
    member, replacement = ctx.state["personae"]["0502"], ctx.state["personae"]["0501"]
    # The hereditary title passes to the member, the knighthood dies with the sultan. "sultan" is an Islamic title,
    # not a feudal rank (ranks.py, RH-OQ-12): the member holds it as his `islamic_title` and no feudal rank.
    assert member["titles"] == ["Sultan of Tunis"] and member["islamic_title"] == "sultan"
    assert member["rank"] == "none"
    assert replacement["titles"] == [] and replacement["rank"] == "none" and replacement["alive"] is True
    assert "successor_named" not in replacement
    # Sovereignty, tenancy and feudatory status are held by title: to the member; the magistracy falls vacant.
    assert ctx.state["locations"]["Tunis"]["offices"] == {"sovereign": "0502", "tenant": "0502", "magistrate": None}
    assert ctx.state["locations"]["Bona"]["offices"] == {"feudatory": "0502"}
    assert "Persona 0502 Hafsid (0502) succeeds Persona 0501 Hafsid in his hereditary positions." in ctx.news
    assert "On the death of Persona 0501 Hafsid, vacant: magistrate of Tunis." in ctx.news


def test_without_a_member_named_the_replacement_takes_them() -> None:
    ctx = tunis_world(sultan(alive=False, died="fever"), moslem("0502"))
    succession.succession(ctx)
    replacement = ctx.state["personae"]["0501"]
    assert replacement["titles"] == ["Sultan of Tunis"] and replacement["islamic_title"] == "sultan"
    assert ctx.state["locations"]["Tunis"]["offices"]["sovereign"] == "0501"
    assert ctx.state["personae"]["0502"]["titles"] == []


def test_a_named_member_who_dies_the_same_month_takes_nothing_and_the_choice_lapses() -> None:
    ctx = tunis_world(sultan(alive=False, died="fever", successor_named="0502"),
                      moslem("0502", alive=False, died="fever"), moslem("0503", successor_named="0502"))
    succession.succession(ctx)
    assert ctx.state["locations"]["Tunis"]["offices"]["sovereign"] == "0501"
    assert ctx.state["personae"]["0501"]["titles"] == ["Sultan of Tunis"]
    assert ctx.state["personae"]["0502"]["titles"] == []
    assert "successor_named" not in ctx.state["personae"]["0503"]


def test_the_member_keeps_his_own_title_and_an_emirs_dies_with_him() -> None:
    # An emir dies; his named member is a sultan: he stays sultan. An emir's title, declared by himself, "lasts
    # until death and does not pass on" (RH-OQ-13, docs/renaissance/hierarchies.md).
    ctx = tunis_world(moslem("0501", titles=["Emir of Bona"], rank="emir", alive=False, died="fever",
                             successor_named="0502"),
                      moslem("0502", titles=["Sultan of Tunis"], rank="sultan"))
    succession.succession(ctx)
    member = ctx.state["personae"]["0502"]
    assert member["titles"] == ["Sultan of Tunis"] and member["islamic_title"] == "sultan"


@pytest.mark.parametrize(("who", "member", "why"), [
    ("0601", "0602", "only a Shia or Sunni names who succeeds him"),
    ("0501", "0601", "0601 is not another member of the HAFSID family"),
    ("0501", "0501", "0501 is not another member of the HAFSID family"),
])
def test_who_may_name_whom(who: str, member: str, why: str) -> None:
    ctx = tunis_world(sultan(), moslem("0601", family="MEDICI", religion="catholic"),
                      moslem("0602", family="MEDICI", religion="catholic"))
    outcome = succession.name_successor(ctx, ctx.state["personae"][who], {"member": member})
    assert not outcome.ok and why in outcome.text


def test_the_papacy_falls_vacant_at_the_popes_death() -> None:
    # "HRE & Pope (non-hereditary)": his replacement is not Pope; the throne is vacant and the news says so.
    ctx = tunis_world(moslem("0501", religion="catholic", rank="pope", titles=["Pope Alexander VI"],
                             alive=False, died="fever"), pope="0501")
    ctx.state["locations"] = {}
    succession.succession(ctx)
    assert ctx.state["pope"] is None
    assert ctx.state["personae"]["0501"]["rank"] == "none" and ctx.state["personae"]["0501"]["titles"] == []
    assert "On the death of Persona 0501 Hafsid, vacant: the papal throne." in ctx.news


# ---- RH-OQ-49: who the replacement is ---------------------------------------------------------------------------

def test_the_replacements_name_fits_his_religion_and_keeps_the_surname() -> None:
    ctx = tunis_world(sultan(alive=False, died="fever"))
    succession.succession(ctx)
    given, surname = ctx.state["personae"]["0501"]["name"].split(" ", 1)
    assert given in succession.GIVEN_NAMES_BY_RELIGION["islam"] and surname == "0501 Hafsid"
    again = tunis_world(sultan(alive=False, died="fever"))
    succession.succession(again)
    assert again.state["personae"]["0501"]["name"] == ctx.state["personae"]["0501"]["name"]  # the turn's rng


def test_the_replacement_starts_outside_his_citizenship_town_and_the_family_is_told() -> None:
    ctx = tunis_world(sultan(alive=False, died="fever", location="Bona"))
    succession.succession(ctx)
    heir = ctx.state["personae"]["0501"]
    assert (heir["location"], heir["inside"], heir["citizenship"], heir["female"]) == ("Tunis", False, "Tunis", False)
    assert ctx.messages["HAFSID"][-1] == (f"0501: {heir['name']} replaces Persona 0501 Hafsid and starts next month "
                                          "outside Tunis; his orders are written under .0501 from next month's on "
                                          "(RH-OQ-48).")


# ---- RH-OQ-46, RH-OQ-48: a death in the month ----------------------------------------------------------------

def test_a_death_in_the_month_through_the_engine() -> None:
    # MEDICI's orders come first: Piero 0101 attacks Domenico Doria 0202 (no troops) inside Florence; Domenico's
    # side is eliminated and he dies ("its persona dies and all of his remaining mobile assets become the property
    # of the victor"). DORIA's orders come later: Domenico's charity fails, he is dead. At the month's end his
    # replacement has min(250, 200) = 200 popularity (his final rating), nothing else, and stands outside Genoa.
    state = small_state()
    state["players"]["LMD"]["account"]["balance"] = 100.0  # a conflict order needs the month's fees prepaid
    medici = RULESET.parse("/LMD *MEDICI\n*Florence .0101\nKU0202\n")
    doria = RULESET.parse("/ADR *DORIA\n*Florence .0202\nHC1000\n")
    orders = {"LMD": RULESET.effective([OrderSet("LMD", 1, medici.orders)]),
              "ADR": RULESET.effective([OrderSet("ADR", 2, doria.orders)])}
    result = engine.run_month(state, 1, orders, random.Random(1))
    assert [(o["code"], o["ok"]) for o in result.outcomes["MEDICI"]] == [("KU0202", True)]
    assert [(o["code"], o["ok"], o["text"]) for o in result.outcomes["DORIA"]] == [
        ("HC1000", False, "Domenico Doria is dead")]
    st = result.ctx.state
    heir = st["personae"]["0202"]
    assert heir["alive"] is True and heir["name"] != "Domenico Doria"
    assert (heir["popularity"], heir["piety"], heir["skills"], heir["assets"]) == (200, 0, {}, {})
    assert (heir["location"], heir["inside"]) == ("Genoa", False)
    # The victor's: 50,000 + Domenico's 30,000 ducats; 40 horse + Domenico's 16 (January's maintenance took 4 of 20).
    assert (st["personae"]["0101"]["assets"]["ducats"], st["personae"]["0101"]["assets"]["horse"]) == (80000, 56)
    assert any(m.startswith(f"0202: {heir['name']} replaces Domenico Doria") for m in result.ctx.messages["DORIA"])


def test_the_printout_shows_the_member_named_to_succeed() -> None:
    # A standing order is shown where the player sees his personae, so that he knows it is on file.
    p = moslem("0501", successor_named="0502")
    text = render("renaissance", "persona.txt.j2", p=persona_view(p, []))
    assert "    SUCCESSOR .0502 takes his hereditary positions at his death (OH)\n" in text
    assert "SUCCESSOR" not in render("renaissance", "persona.txt.j2", p=persona_view(moslem("0502"), []))
