"""APOSTASY: a family changes religion (rules/renaissance/apostasy.py; readings RH-OQ-40 to RH-OQ-45 in
docs/renaissance/hierarchies.md). The rules' words: "Personae may change religion, but all personae under the
control of a given player must convert to the same religion in the same turn. Families which include a
hereditary, elective, or appointive, sovereign may not change religion. No player may order a family to change
religion prior to his thirteenth turn as player for that family. When a family changes religion, the popularity
of each of its members is reduced by 90%, their troops' morale is reduced by 50% and their piety is reduced to
zero." """

from __future__ import annotations

import random
from typing import Any

from maild.ruleset import OrderSet
from maild_rules.renaissance import RULESET, apostasy, engine, succession
from maild_rules.renaissance.checks import check
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.setup import amend
from maild_rules.renaissance.war.morale import confucian_start, halved
from tests.renaissance_fixtures import small_state


def member(pid: str, family: str, **kw: Any) -> dict[str, Any]:
    p = {"id": pid, "name": f"Persona {pid}", "family": family, "religion": "catholic", "alive": True,
         "popularity": 455, "piety": 300, "morale": 361, "titles": [], "rank": "none",
         "assets": {"pikeman": 100, "crew": 50}, "location": "Pisa", "citizenship": "Pisa"}
    p.update(kw)
    return p


def world(*personae: dict[str, Any], families: dict[str, Any] | None = None,
          offices: dict[str, Any] | None = None, turn: int = 13, **state: Any) -> Ctx:
    """Families MEDICI and DORIA of player LMD, SFORZA of player LSF, catholic, set up at turn 1."""
    if families is None:
        families = {"MEDICI": {"player": "LMD", "religion": "catholic", "personae": ["0101", "0102"]},
                    "DORIA": {"player": "LMD", "religion": "catholic", "personae": ["0201"]},
                    "SFORZA": {"player": "LSF", "religion": "catholic", "personae": ["0301"]}}
    full = {"calendar": {"year": 1493, "month": 1}, "families": families,
            "personae": {p["id"]: p for p in personae},
            "locations": {"Pisa": {"name": "Pisa", "religion": "catholic", "offices": offices or {}},
                          "Genoa": {"name": "Genoa", "religion": "catholic", "offices": {}}},
            **state}
    return Ctx(state=full, turn=turn, rng=random.Random(1))


def three_families(**kw: Any) -> Ctx:
    return world(member("0101", "MEDICI"), member("0102", "MEDICI", popularity=9, morale=0, assets={}),
                 member("0201", "DORIA", morale=999), member("0301", "SFORZA"), **kw)


def convert(ctx: Ctx, family: str = "MEDICI", religion: str = "sunni") -> Any:
    return apostasy.convert(ctx, {}, {"family": family, "religion": religion})


# ---- RH-OQ-40, RH-OQ-41: the cuts --------------------------------------------------------------------------

def test_the_cuts_round_down_popularity_to_a_tenth_morale_to_half_piety_to_zero() -> None:
    # 455 less 90% is 45.5: 45. Morale 361 less 50% is 180.5: 180. 999 -> 499. 9 -> 0 (0.9). Piety 300 -> 0.
    ctx = three_families()
    assert convert(ctx).ok
    p = ctx.state["personae"]
    assert (p["0101"]["popularity"], p["0101"]["morale"], p["0101"]["piety"]) == (45, 180, 0)
    assert (p["0102"]["popularity"], p["0102"]["morale"], p["0102"]["piety"]) == (0, 0, 0)
    assert (p["0201"]["popularity"], p["0201"]["morale"]) == (45, 499)


def test_the_troops_morale_is_the_one_rating_of_troops_and_crew_halved_as_the_confucian_halving() -> None:
    # RH-OQ-41: 100 pikemen and 50 crew share one morale, 361; after the cut both fight at 180. A persona with
    # crew only (no troops) has his crew's morale cut too: 250 -> 125.
    ctx = world(member("0101", "MEDICI", assets={"crew": 200}, morale=250),
                families={"MEDICI": {"player": "LMD", "religion": "catholic", "personae": ["0101"]}})
    assert convert(ctx).ok
    assert ctx.state["personae"]["0101"]["morale"] == 125
    assert halved(361) == 180 == confucian_start(361)


# ---- RH-OQ-42: one player, one religion ----------------------------------------------------------------------

def test_one_order_converts_every_family_of_the_player_and_no_one_else() -> None:
    ctx = three_families()
    outcome = convert(ctx)
    assert outcome.ok and "DORIA" in outcome.text and "MEDICI" in outcome.text
    fams, p = ctx.state["families"], ctx.state["personae"]
    assert (fams["MEDICI"]["religion"], fams["DORIA"]["religion"], fams["SFORZA"]["religion"]) == (
        "sunni", "sunni", "catholic")
    assert [p[x]["religion"] for x in ("0101", "0102", "0201", "0301")] == ["sunni", "sunni", "sunni", "catholic"]
    assert p["0301"]["popularity"] == 455  # another player's family: untouched
    assert fams["DORIA"]["converted"] == 13
    assert "The DORIA family has embraced the sunni faith." in ctx.news
    assert ctx.messages["MEDICI"][0] == "0101: now sunni; popularity 45, morale 180, piety 0"


def test_the_other_familys_same_order_that_month_is_done_a_different_religion_fails() -> None:
    ctx = three_families()
    assert convert(ctx).ok
    again = convert(ctx, "DORIA", "sunni")
    assert again.ok and "earlier this month" in again.text
    assert ctx.state["personae"]["0201"]["popularity"] == 45  # cut once, not twice
    other = convert(ctx, "DORIA", "shia")
    assert not other.ok and "same religion in the same turn" in other.text


def test_one_family_barred_bars_all_the_players_families() -> None:
    # DORIA's 0201 is sovereign of Genoa: MEDICI, of the same player, may not convert without it.
    ctx = three_families()
    ctx.state["locations"]["Genoa"]["offices"]["sovereign"] = "0201"
    outcome = convert(ctx)
    assert not outcome.ok and "DORIA family includes a sovereign (0201 is sovereign of Genoa)" in outcome.text
    assert ctx.state["families"]["MEDICI"]["religion"] == "catholic"
    assert ctx.state["personae"]["0101"]["popularity"] == 455


# ---- RH-OQ-44: the thirteenth turn -------------------------------------------------------------------------

def test_not_before_the_thirteenth_turn_as_player_for_the_family() -> None:
    # Families of the setup are their players' from turn 1: turn 12 is his twelfth, turn 13 his thirteenth.
    early = three_families(turn=12)
    outcome = convert(early)
    assert not outcome.ok and "your turn 12 as player for DORIA" in outcome.text
    assert convert(three_families(turn=13)).ok


def test_a_family_added_by_amendment_counts_from_the_turn_it_was_added() -> None:
    # Added at turn 5: turn 16 is the player's twelfth turn for it, turn 17 his thirteenth.
    state = small_state()
    amend(state, {"families": [{"name": "SFORZA", "player": "ADR", "religion": "catholic", "personae": [
        {"id": "0301", "name": "Ludovico Sforza", "location": "Genoa"}]}]}, turn=5)
    assert state["families"]["SFORZA"]["player_since"] == 5
    assert "player_since" not in state["families"]["DORIA"]
    assert apostasy.turns_as_player(state, "SFORZA", 16) == 12
    assert "your turn 12 as player for SFORZA" in (apostasy.why_not(state, "ADR", "sunni", 16) or "")
    assert apostasy.why_not(state, "ADR", "sunni", 17) is None


# ---- RH-OQ-45: "hereditary, elective, or appointive, sovereign" -------------------------------------------------

def test_any_sovereign_of_a_location_bars_the_family() -> None:
    ctx = three_families(offices={"sovereign": "0102"})
    outcome = convert(ctx)
    assert not outcome.ok and "0102 is sovereign of Pisa" in outcome.text and "(APOSTASY)" in outcome.text


def test_the_pope_and_the_emperor_are_sovereigns_by_election() -> None:
    assert "0102 is the Pope" in (apostasy.why_not(three_families(pope="0102").state, "LMD", "sunni", 13) or "")
    ctx = three_families()
    ctx.state["personae"]["0201"]["titles"] = ["Holy Roman Emperor"]
    assert "0201 is the Holy Roman Emperor" in (apostasy.why_not(ctx.state, "LMD", "sunni", 13) or "")


def test_feudatory_tenant_and_magistrate_do_not_bar_and_are_kept() -> None:
    ctx = three_families(offices={"feudatory": "0101", "tenant": "0101", "magistrate": "0102"})
    assert convert(ctx).ok
    assert ctx.state["locations"]["Pisa"]["offices"] == {"feudatory": "0101", "tenant": "0101", "magistrate": "0102"}
    assert ctx.state["personae"]["0101"]["citizenship"] == "Pisa"


# ---- RH-OQ-43: after a conversion ---------------------------------------------------------------------------

def test_church_offices_of_the_old_religion_fall_vacant() -> None:
    # "All members of the Catholic hierarchy must be Catholic": the bishop of Pisa and a cardinal leave them.
    ctx = three_families(offices={"bishop": "0102", "archbishop": "0101"})
    ctx.state["personae"]["0101"]["titles"] = ["Cardinal of San Marco", "Lord of Vinci"]
    assert convert(ctx).ok
    assert ctx.state["locations"]["Pisa"]["offices"] == {"bishop": None, "archbishop": None}
    assert ctx.state["personae"]["0101"]["titles"] == ["Lord of Vinci"]
    assert "vacant: bishop of Pisa" in " ".join(ctx.news)
    assert ctx.messages["MEDICI"][0].endswith("no longer archbishop of Pisa, Cardinal of San Marco")


def test_the_same_religion_is_no_change_and_a_later_conversion_is_allowed() -> None:
    ctx = three_families()
    assert "catholic already" in convert(ctx, religion="catholic").text
    assert convert(ctx).ok
    later = Ctx(state=ctx.state, turn=14, rng=random.Random(1))
    assert convert(later, religion="orthodox").ok
    assert ctx.state["personae"]["0101"]["popularity"] == 4  # 45 -> 4.5 -> 4


def test_a_dead_member_keeps_his_final_ratings_and_his_successor_has_the_new_religion() -> None:
    # RH-OQ-48: the dead man's "final popularity" is his at death (455): the cut does not reach him; his
    # successor, made at the month's end, takes min(455, 200) = 200 and the family's new religion.
    ctx = three_families()
    ctx.state["personae"]["0102"].update(alive=False, died="killed in a duel", popularity=455)
    assert convert(ctx).ok
    succession.succession(ctx)
    heir = ctx.state["personae"]["0102"]
    assert (heir["religion"], heir["popularity"], heir["alive"]) == ("sunni", 200, True)


def test_the_code_names_a_religion_of_the_rules() -> None:
    parsed = RULESET.parse("/LMD *MEDICI\nHRpagan HRsun\n")
    assert [o.args["religion"] for o in parsed.orders] == ["sunni"]
    assert "names no religion" in parsed.diagnostics[0].message
    assert "write HRsunni or HRshia" in RULESET.parse("/LMD *MEDICI\nHRislam\n").diagnostics[0].message


# ---- through the month ----------------------------------------------------------------------------------------

def doria_month(turn: int) -> Any:
    parsed = RULESET.parse("/ADR *DORIA\nHRsunni\n*Genoa .0201\nOC\n")
    assert parsed.diagnostics == []
    orders = {"ADR": RULESET.effective([OrderSet("ADR", turn, parsed.orders)]), "LMD": []}
    return engine.run_month(small_state(), turn, orders, random.Random(1))


def test_a_conversion_through_the_month() -> None:
    # The small world's DORIA (player ADR) has no sovereign. Turn 13: Andrea 0201, popularity 300 -> 30, piety
    # 60 -> 0, morale 500 (his 200 crew) -> 250; Domenico 0202, popularity 250 -> 25, piety 40 -> 0, no men.
    # The MEDICI (another player, sovereign of Florence) stay catholic.
    result = doria_month(13)
    family_order = [o for o in result.outcomes["DORIA"] if o["persona"] is None]
    assert [(o["code"], o["ok"]) for o in family_order] == [("HRsunni", True)]
    st = result.ctx.state
    got = {pid: (st["personae"][pid]["religion"], st["personae"][pid]["popularity"], st["personae"][pid]["piety"],
                 st["personae"][pid]["morale"]) for pid in ("0201", "0202")}
    assert got == {"0201": ("sunni", 30, 0, 250), "0202": ("sunni", 25, 0, 0)}
    assert st["families"]["DORIA"]["religion"] == "sunni" and st["families"]["MEDICI"]["religion"] == "catholic"
    assert st["locations"]["Genoa"]["offices"]["magistrate"] == "0201"  # magistracies are not the church's
    assert "The DORIA family has embraced the sunni faith." in result.ctx.news


def test_the_twelfth_turn_fails_through_the_month() -> None:
    result = doria_month(12)
    family_order = [o for o in result.outcomes["DORIA"] if o["persona"] is None]
    assert not family_order[0]["ok"] and "thirteenth turn" in family_order[0]["text"]
    assert result.ctx.state["personae"]["0201"]["religion"] == "catholic"


def test_the_answer_to_the_mail_warns_of_a_conversion_before_the_thirteenth_turn() -> None:
    parsed = RULESET.parse("/ADR *DORIA\nHRsunni\n*Genoa .0201\nOH0202\n")
    notes = [d.message for d in check(small_state(), 12, "ADR", parsed.orders)]
    assert notes == ["it will fail: this month is your turn 12 as player for DORIA; no family changes religion "
                     "before its player's thirteenth turn (APOSTASY)",
                     "it will fail: 0201 is not Shia or Sunni: his replacement takes over his hereditary positions "
                     "(THE PERSONAE FAMILIES)"]
    assert check(small_state(), 13, "ADR", parsed.orders[:1]) == []
