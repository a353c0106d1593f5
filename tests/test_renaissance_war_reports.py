"""The war reports players read (war/reports.py, reports.py, templates/renaissance/): a battle stage by stage in the
printouts of every family involved, its public line in the newsletter, each persona's forces and upkeep, each
location's garrison, towers and siege (THE PRINTOUT; docs/renaissance/war.md, section "conflict", K14, K15).

A whole month runs through the ruleset with a stand-in urban engine (the real one is tested on its own), so what is
checked is what the month and the templates make of a result."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from maild.render import render
from maild.ruleset import Order, PlacedOrder
from maild_rules.renaissance import RULESET
from maild_rules.renaissance import reports as peace_reports
from maild_rules.renaissance.war import control, reports, siege, urban
from maild_rules.renaissance.war.forces import ATTACKER, DEFENDER, BattleResult, Contingent, Side, StageReport
from tests.renaissance_fixtures import flat, small_state

TURN = 5  # May 1493 in the small world (turn 1 is January 1493)


def result_by_hand() -> tuple[dict[str, Side], BattleResult]:
    a = Side(role=ATTACKER, contingents=[Contingent("0202", "Domenico Doria (0202)", "0202", {"pikeman": 100}, 400)],
             commander="0202", retreat_value=25)
    d = Side(role=DEFENDER, contingents=[Contingent("0102", "Giovanni de' Medici (0102)", "0102",
                                                    {"auxiliary": 50}, 300)], commander="0102", retreat_value=30)
    stages = [StageReport(1, "urban melee", ["The defender inflicts 1.5 casualties."],
                          {ATTACKER: {"pikeman": 2}, DEFENDER: {"auxiliary": 4}}, {ATTACKER: 398, DEFENDER: 297}),
              StageReport(2, "urban melee", ["The attacker inflicts 4 casualties."],
                          {DEFENDER: {"auxiliary": 46, "ducats": 1000}}, {ATTACKER: 410, DEFENDER: 0})]
    result = BattleResult(kind="urban", stages=stages, outcome="the defender was eliminated", victor=ATTACKER,
                          eliminated=[DEFENDER], captured={"ducats": 1000}, dead=["0102"],
                          morale={ATTACKER: 410, DEFENDER: 0}, morale_start={ATTACKER: 400, DEFENDER: 300},
                          stages_fought=2, ducats_share=Fraction(1))
    return {ATTACKER: a, DEFENDER: d}, result


def test_a_battle_report_stage_by_stage() -> None:
    sides, result = result_by_hand()
    applied = reports.Applied(losses={"0202": {"pikeman": 2}, "0102": {"auxiliary": 50, "ducats": 1000}},
                              names={"0202": "Domenico Doria (0202)", "0102": "Giovanni de' Medici (0102)"},
                              morale={"0202": (400, 410)}, receiver="Domenico Doria (0202)",
                              captured={"ducats": 1000}, dead=["Giovanni de' Medici (0102)"])
    lines = reports.battle_lines("URBAN BATTLE at Florence", sides, result, applied)
    assert lines[:5] == [
        "URBAN BATTLE at Florence",
        "The attacker: commander Domenico Doria (0202), retreat value 25",
        "  Domenico Doria (0202): 100 pikemen; morale 400",
        "The defender: commander Giovanni de' Medici (0102), retreat value 30",
        "  Giovanni de' Medici (0102): 50 auxiliaries; morale 300",
    ]
    # Each stage: the engine's lines (its own retreat test among them, where the battle's rule makes one), what each
    # side lost, and the morale after it.
    assert lines[5:10] == [
        "Stage 1 (urban melee):",
        "  The defender inflicts 1.5 casualties.",
        "  The attacker lost 2 pikemen.",
        "  The defender lost 4 auxiliaries.",
        "  Morale after the stage: the attacker 398, the defender 297.",
    ]
    assert "Outcome: the defender was eliminated. Victor: the attacker." in lines
    assert "Taken by Domenico Doria (0202): 1,000 ducats (the share of ducats taken: 100.0%)." in lines
    assert "Morale of Domenico Doria (0202): 400 -> 410." in lines
    assert "Killed: Giovanni de' Medici (0102)." in lines


@pytest.mark.parametrize(("n", "words"), [(0, "none"), (7, "a few"), (45, "about 50"), (44, "about 40"),
                                          (347, "about 300"), (1250, "about 1,000"), (15_000, "about 20,000")])
def test_losses_in_round_figures_for_the_newsletter(n: int, words: str) -> None:
    assert reports.round_figure(n) == words


def test_the_public_line_names_who_fought_whom_where_and_the_losses_in_round_figures() -> None:
    sides, result = result_by_hand()
    applied = reports.Applied(dead=["Giovanni de' Medici (0102)"])
    line = reports.public_line("Florence", "urban battle", sides, result, applied)
    # Men lost (fighters, not ducats): the attacker 2 -> "a few"; the defender 4 + 46 = 50 -> "about 50".
    assert line == ("Urban battle at Florence: Domenico Doria (0202) attacked Giovanni de' Medici (0102); the "
                    "defender was eliminated. Men lost: the attacker a few, the defender about 50. Killed: "
                    "Giovanni de' Medici (0102).")


# ---- a month with a battle, printed --------------------------------------------------------------------------

@pytest.fixture
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    """control.py's and siege.py's functions the war modules call (the real ones come from their own branches)."""
    monkeypatch.setattr(control, "tower_of", lambda state, p: None, raising=False)
    monkeypatch.setattr(control, "tower_room", lambda loc, n: int(loc["towers"][n - 1]["fas"]), raising=False)
    monkeypatch.setattr(control, "control_after_battle", lambda *a: None, raising=False)
    monkeypatch.setattr(siege, "crop_troops", lambda ctx, p: {}, raising=False)


def fake_urban(attacker: Side, defender: Side, **kw: Any) -> BattleResult:
    """15 auxiliaries of the defender and 3 pikemen of the attacker fall; the defender leaves town."""
    stage = StageReport(1, "urban melee", ["fake: the home side strikes first"],
                        {ATTACKER: {"pikeman": 3}, DEFENDER: {"auxiliary": 15}}, {ATTACKER: 405, DEFENDER: 290})
    survivors = {ATTACKER: {"pikeman": 97, "ducats": 30000, "horse": 20},
                 DEFENDER: {"auxiliary": 35, "ducats": 20000}}
    return BattleResult(kind="urban", stages=[stage], outcome="the defender left town", victor=ATTACKER,
                        retreated=DEFENDER, survivors=survivors, morale={ATTACKER: 405, DEFENDER: 290},
                        morale_start={ATTACKER: 400, DEFENDER: 300}, stages_fought=1)


def battle_month(monkeypatch: pytest.MonkeyPatch, seed: int = 1) -> tuple[Any, dict[str, str]]:
    monkeypatch.setattr(urban, "fight", fake_urban)
    state = small_state()
    state["calendar"] = {"year": 1493, "month": 1}
    state["personae"]["0202"]["assets"].update(pikeman=100)
    state["personae"]["0202"]["morale"] = 400
    state["personae"]["0102"]["assets"].update(auxiliary=50)
    state["personae"]["0102"]["morale"] = 300
    state["players"]["ADR"]["account"]["balance"] = 100.0
    # Andrea Doria's galley crew besiege Pisa from outside its walls since this month (SIEGE).
    state["personae"]["0201"].update(location="Pisa", inside=False)
    state["locations"]["Pisa"]["siege"] = {"besieger": "0201", "ordered": 4, "since": 5, "months": 0, "blocked": []}
    order = Order(1, "KU0102", "attack", {"family": "DORIA", "persona": "0202", "battle": "urban", "target": "0102"},
                  "attack 0102")
    result = RULESET.resolve(state, TURN, {"ADR": [PlacedOrder(order, 1)]}, random.Random(seed))
    common = {"game": "ren", "turn": TURN, "finished": False, "next_deadline": "1 June 1493"}
    texts = {code: render("renaissance", "printout.txt.j2", **common, player=code, **ctx)
             for code, ctx in result.printouts.items()}
    texts["#news"] = render("renaissance", "newsletter.txt.j2", **common, **result.newsletter)
    return result, texts


def test_the_printouts_of_both_families_and_the_newsletter_show_the_battle(monkeypatch: pytest.MonkeyPatch,
                                                                         stand_ins: None) -> None:
    result, texts = battle_month(monkeypatch)
    for code in ("ADR", "LMD"):  # the attacker's family and the defender's
        text = texts[code]
        assert "\nBATTLES\n" in text
        assert "URBAN BATTLE at Florence, inside the walls (May 1493): Domenico Doria (0202) against Giovanni de' " \
               "Medici (0102)" in flat(text)  # the printout wraps it to 78 columns
        assert "  Stage 1 (urban melee):" in text and "    fake: the home side strikes first" in text
        assert "Outcome: the defender left town. Victor: the attacker." in text
        # 300 -> 290 (the side's change, -10), then he stands outside the walls (RW-OQ-08).
        assert "Morale of Giovanni de' Medici (0102): 300 -> 290." in text
        assert "Giovanni de' Medici (0102) leaves town: he stands outside the walls of Florence." in flat(text)
    news = texts["#news"]
    # The public part: who fought whom, where, the outcome, the losses in round figures (3 -> a few, 15 -> about 20).
    assert ("Urban battle at Florence: Domenico Doria (0202) attacked Giovanni de' Medici (0102); the defender left "
            "town. Men lost: the attacker a few, the defender about 20.") in flat(news)  # wrapped to 78 columns
    assert "Stage 1" not in news
    # The newsletter publishes the sieges on file (CONFLICT ORDERS: "a siege line whose existence has been published
    # in the Newsletter").
    assert "SIEGES\n  Pisa: under siege by Andrea Doria (DORIA .0201) since May 1493" in news
    state = result.state
    assert state["personae"]["0102"]["inside"] is False and state["personae"]["0102"]["assets"]["auxiliary"] == 35
    assert state["personae"]["0202"]["assets"]["pikeman"] == 97


def test_the_printout_lists_forces_upkeep_towers_and_the_siege(monkeypatch: pytest.MonkeyPatch,
                                                              stand_ins: None) -> None:
    _result, texts = battle_month(monkeypatch)
    adr, lmd = texts["ADR"], texts["LMD"]
    # Andrea Doria: 200 crew and a galley, outside Pisa. June's maintenance (the next month) is ten ducats a man
    # for heavy cavalry, archers and pikemen: crew are not in it; Domenico's 97 pikemen cost 970.
    assert "    FORCES   200 crew; ships: 1 galley; morale 500" in adr
    assert "    FORCES   97 pikeman; morale 405" in adr
    assert "    UPKEEP   at the start of June: 10 ducats a man for 97 pikeman: 970 ducats" in adr
    # The location report: each tower with its owner and the garrison it starts each month with (FAS 20: 2), and the
    # siege on file.
    assert "tower 1 Palazzo Vecchio: FAS 20, owner sovereign, tower garrison 2 each month" in flat(lmd)
    assert "  under siege by Andrea Doria (DORIA .0201) since May 1493" in lmd


def test_the_same_month_prints_the_same_report_under_two_seeds(monkeypatch: pytest.MonkeyPatch,
                                                              stand_ins: None) -> None:
    _r1, first = battle_month(monkeypatch, seed=1)
    _r2, second = battle_month(monkeypatch, seed=2)

    def battles(text: str) -> str:
        return text.split("\nBATTLES\n", 1)[1].split("\nLOCATION", 1)[0]

    assert battles(first["ADR"]) == battles(second["ADR"])


# ---- upkeep, towers and sieges in words ----------------------------------------------------------------------

def test_upkeep_due_by_the_month_tables() -> None:
    assets = {"heavy cavalry": 10, "crew": 20, "archer": 5, "horse": 1500, "sheep": 100, "slave": 7,
              "galley": 1, "caravel": 2}
    # May: heavy cavalry, crew, archers, pikemen, arquebusiers at ten ducats: (10 + 20 + 5) x 10 = 350.
    assert peace_reports.upkeep_due(assets, 5) == [
        "at the start of May: 10 ducats a man for 10 heavy cavalry, 20 crew, 5 archer: 350 ducats"]
    # December: horses, sheep, cattle, heavy cavalry, archers, slaves at half a unit a head, the first 1,000 of the
    # herds free: 1,600 + 10 + 5 + 7 - 1,000 = 622 heads -> 311 units.
    assert peace_reports.upkeep_due(assets, 12) == [
        "at the start of December: half a unit of food a head for 1,500 horse, 100 sheep, 10 heavy cavalry, "
        "5 archer, 7 slave, 1,000 head of herd free: 311 units of food"]
    # April: naval materials: a galley 100 pitch and 100 timber; two caravels 10 pitch, 10 timber, 2 sails,
    # 10 cordage.
    assert peace_reports.upkeep_due(assets, 4) == [
        "at the start of April: naval materials: 110 pitch, 110 timber, 2 sail, 10 cordage"]
    assert peace_reports.upkeep_due({"ducats": 5}, 5) == []


def test_a_siege_ordered_but_not_yet_in_effect() -> None:
    state = small_state()
    pisa = state["locations"]["Pisa"]
    pisa["siege"] = {"besieger": "0201", "ordered": 4, "since": None}
    assert peace_reports.siege_view(state, pisa) == "siege ordered by Andrea Doria (DORIA .0201), in effect from " \
                                                    "May 1493"
    assert peace_reports.sieges(state) == ["Pisa: siege ordered by Andrea Doria (DORIA .0201), in effect from "
                                           "May 1493"]
