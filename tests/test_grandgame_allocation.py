"""The Grand Game's allocation: lines read in plain words, checked against the state and the player's GDP at
once (the ack shows what is left, or refuses an allocation over his GDP listing its costs), sealed at the
deadline. Figures worked by hand from the rules. Readings: docs/grand-game.md, "The allocation"."""

from __future__ import annotations

import random
from typing import Any

import pytest

from maild.ruleset import Order, PlacedOrder
from maild_rules.grandgame import allocation
from maild_rules.grandgame.allocation import BUILD, DEVELOP, POLITICS, RAILROAD, RESEARCH
from maild_rules.grandgame.reading import Read
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.ruleset import RULESET
from maild_rules.grandgame.state import player
from tests.grandgame_support import new_state, started


def orders(*lines: str) -> list[Order]:
    """The lines as the ruleset reads them, numbered from 1."""
    found = []
    for number, line in enumerate(lines, start=1):
        read = allocation.read_line(line)
        assert isinstance(read, Read), (line, read)
        found.append(Order(number, line, read.kind, read.args, read.summary))
    return found


def with_gdp(gdp: int, turn: int = 1) -> dict[str, Any]:
    """The example game with alice (Aurelia: zones ZA and ZB, cities Aurum, a port, Velden and Brask) at `gdp`."""
    state = started()
    player(state, "alice")["gdp"] = gdp
    state["turn"] = turn
    return state


# ---- reading --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "kind", "args"), [
    ("politics 15%", POLITICS, {"percent": 15}),
    ("Politics: 30 percent", POLITICS, {"percent": 30}),
    ("political spending 0%", POLITICS, {"percent": 0}),
    ("develop 3 in ZA, 2 in Falhaven Zone", DEVELOP, {"points": [["ZA", 3], ["Falhaven Zone", 2]]}),
    ("develop 3 points in za and 1 in Marton", DEVELOP, {"points": [["za", 3], ["Marton", 1]]}),
    ("development ZA 4", DEVELOP, {"points": [["ZA", 4]]}),
    ("research 10", RESEARCH, {"units": 10}),
    ("atomic research 12 units", RESEARCH, {"units": 12}),
    ("build 2 infantry, 1 armor in Velden", BUILD, {"units": [["Velden", "infantry", 2], ["Velden", "armor", 1]]}),
    ("build 1 light fleet in Aurum", BUILD, {"units": [["Aurum", "light fleet", 1]]}),
    ("build 2 inf in Velden, 3 supplies at C3", BUILD, {"units": [["Velden", "infantry", 2], ["C3", "supply", 3]]}),
    # "buy" with a city is the allocation's purchase ("buy" alone is the initial purchase, start.py; a purchase
    # with Francs says "francs", francs.py).
    ("buy 2 infantry in Velden", BUILD, {"units": [["Velden", "infantry", 2]]}),
    ("railroad in K14", RAILROAD, {"places": ["K14"]}),
    ("build railroad in D2, C2", RAILROAD, {"places": ["D2", "C2"]}),
    ("railroads Marford", RAILROAD, {"places": ["Marford"]}),
    ("build railway in D2", RAILROAD, {"places": ["D2"]}),
])
def test_lines_in_plain_words(line: str, kind: str, args: dict[str, Any]) -> None:
    read = allocation.read_line(line)
    assert isinstance(read, Read)
    assert (read.kind, read.args) == (kind, args)


@pytest.mark.parametrize(("line", "words"), [
    ("politics 10%", "0%, 15%, 30%"),  # GG-OQ-04: the levels are 0, 15 and 30
    ("politics lots", "politics 15%"),
    ("develop ZA", "develop 3 in ZA"),
    ("research many", "research 10"),
    ("build 2 infantry", "build 2 infantry, 1 armor in Velden"),
    ("build 2 dragons in Velden", "dragons is not a unit"),
    ("railroad", "railroad in K14"),
])
def test_a_wrong_line_of_the_allocation_says_what_a_right_one_looks_like(line: str, words: str) -> None:
    said = allocation.read_line(line)
    assert isinstance(said, str) and words in said


@pytest.mark.parametrize("line", ["2 inf K14 -> K15", "buy 2 infantry", "pick Aurelia", "destroy "
                                  "railroad in K14", "atomic bomb on ZA", "railroad 3 inf from K14 to K20",
                                  "rail 2 armor K14 -> K20", "railway K14"])
def test_other_modules_lines_are_not_read_here(line: str) -> None:
    assert allocation.read_line(line) is None


def test_the_ruleset_reads_an_allocation_mail() -> None:
    parsed = RULESET.parse("politics 15%\n\ndevelop 3 in ZA\nbuild 1 aircraft in Brask\n")
    assert [o.kind for o in parsed.orders] == [POLITICS, DEVELOP, BUILD]
    assert parsed.diagnostics == []


# ---- the sums -------------------------------------------------------------------------------------------------

def test_development_is_priced_by_the_table_for_the_turns_points_together() -> None:
    # "if your country has a GDP of 20 ... and you wanted to add 8 GDP ..., you would pay 11 GDP": 8 points over
    # two zones are priced together, 11, not 5 points (5) and 3 points (3).
    state = with_gdp(20)
    diagnostics = allocation.check(state, "alice", orders("develop 5 in ZA", "develop 3 in Marton Zone"))
    assert [(d.line, d.warning, d.message) for d in diagnostics] == [
        (1, True, "allocated 11 of 20 GDP: 9 left, lost if unused (GDP is not rolled over or traded)")]


def test_politics_fifteen_percent_of_45_is_6() -> None:
    # 15% of 45 is 6.75, rounded down to 6 (GG-OQ-12); 30% of 45 is 13.
    state = with_gdp(45)
    assessment = allocation.assess(state, "alice", orders("politics 15%"))
    assert assessment.allocation.costs() == [("politics 15%", 6)]
    assert allocation.assess(state, "alice", orders("politics 30%")).allocation.total() == 13


@pytest.mark.parametrize(("turn", "cost"), [(1, 10), (3, 10), (4, 20), (6, 20), (7, 30), (10, 30)])
def test_research_is_priced_by_the_turn(turn: int, cost: int) -> None:
    # "Turns 1-3: 1 unit costs 1 GDP", "Turns 4-6: 1 unit costs 2 GDP", "Turns 7+: 1 unit costs 3 GDP".
    state = with_gdp(45, turn=turn)
    costs = allocation.assess(state, "alice", orders("research 10")).allocation.costs()
    assert costs[-1] == ("research 10 units", cost)


def test_units_supplies_and_railroads_at_their_prices() -> None:
    # Infantry 5, armor 5, aircraft 10 (GG-OQ-14), light fleet 5, supply 1; a railroad 2 GDP.
    state = with_gdp(45)
    a = allocation.assess(state, "alice", orders("build 2 infantry, 1 armor in Velden",
                                                  "build 1 aircraft, 4 supply in Brask",
                                                  "build 1 light fleet in Aurum", "railroad in D2")).allocation
    assert a.build == {"E2": {"infantry": 2, "armor": 1}, "F4": {"aircraft": 1, "supply": 4}, "C3": {"light fleet": 1}}
    assert a.total() == 15 + 14 + 5 + 2 + 0
    assert a.costs() == [("politics 0%", 0), ("5 units and 4 supply", 34), ("1 railroad", 2)]


def test_an_allocation_over_the_gdp_is_refused_whole_with_its_costs() -> None:
    # GDP 45: politics 30% = 13, 5 infantry = 25, research 10 in turn 1 = 10: 48, over by 3.
    state = with_gdp(45)
    diagnostics = allocation.check(state, "alice", orders("politics 30%", "build 5 infantry in Velden",
                                                          "research 10"))
    assert [(d.line, d.warning, d.rule) for d in diagnostics] == [(1, False, "Allocation"), (2, False, "Allocation"),
                                                                  (3, False, "Allocation")]
    assert diagnostics[0].message.startswith(
        "over your GDP by 3: politics 30%: 13, research 10 units: 10, 5 units: 25; 48 of 45 GDP")
    assert diagnostics[1].message == "refused with the allocation over your GDP (line 1)"


def test_an_allocation_spending_all_says_nothing_is_left() -> None:
    state = with_gdp(45)
    diagnostics = allocation.check(state, "alice", orders("politics 30%", "build 6 infantry in Velden",
                                                          "build 2 supply in Velden"))
    assert [d.message for d in diagnostics] == ["allocated 45 of 45 GDP: nothing left"]


def test_an_allocation_within_the_gdp_shows_what_is_left() -> None:
    # GDP 45: politics 15% = 6, 5 development points at GDP 41-80 = 6, 3 infantry = 15, research 12 = 12,
    # a railroad = 2: 41 of 45, 4 left.
    state = with_gdp(45)
    diagnostics = allocation.check(state, "alice", orders("politics 15%", "develop 5 in ZB",
                                                          "build 3 inf in Velden", "research 12", "railroad in D2"))
    assert [d.message for d in diagnostics] == [
        "allocated 41 of 45 GDP: 4 left, lost if unused (GDP is not rolled over or traded)"]


# ---- what the state refuses -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "words"), [
    ("develop 1 in ZC", "you do not control Seldale Zone (ZC)"),  # Borvane's zone (GG-OQ-11)
    ("develop 1 in Nowhere", "no economic zone called Nowhere"),
    ("build 1 infantry in Borhaven", "Borhaven (K2) is not yours"),
    ("build 1 infantry in D2", "Marford (D2) has no city"),
    ("build 1 heavy fleet in Velden", "Velden is not a port"),
    ("build 1 infantry in Atlantis", "no city called Atlantis"),
    ("railroad in C3", "Aurum (C3) has a railroad already"),
    ("railroad in K2", "Borhaven (K2) is not yours"),
    ("railroad in D2, Marford", "ordered twice"),
])
def test_the_state_refuses_a_line(line: str, words: str) -> None:
    state = with_gdp(45)
    diagnostics = allocation.check(state, "alice", orders(line))
    assert len(diagnostics) == 1 and not diagnostics[0].warning and diagnostics[0].rule == "Allocation"
    assert words in diagnostics[0].message


def test_a_refused_line_leaves_the_others_standing() -> None:
    state = with_gdp(45)
    diagnostics = allocation.check(state, "alice", orders("politics 15%", "develop 1 in ZC", "politics 30%"))
    assert [(d.line, d.warning) for d in diagnostics] == [(1, True), (2, False), (3, False)]
    assert "line 1 sets it" in diagnostics[2].message
    assert diagnostics[0].message.startswith("allocated 6 of 45 GDP")


def test_development_beyond_the_table_is_refused() -> None:
    # GG-OQ-11: the (0 - 40) column prices at most 17 points; at 41 the next column prices 18 (50).
    assert "at most 17 at a GDP of 40" in allocation.check(with_gdp(40), "alice", orders("develop 18 in ZA"))[0].message
    ok = allocation.check(with_gdp(80), "alice", orders("develop 18 in ZA"))
    assert [d.message for d in ok] == ["allocated 50 of 80 GDP: 30 left, lost if unused (GDP is not rolled over or "
                                       "traded)"]


def test_a_player_without_a_country_has_nothing_to_allocate() -> None:
    state = new_state()
    [d] = allocation.check(state, "alice", orders("research 1"))
    assert "no country" in d.message and not d.warning


def test_territories_cities_and_zones_by_id_name_or_city_in_any_case() -> None:
    state = started()
    assert allocation.find_territory(state, "e2") == allocation.find_territory(state, "PELGATE") == \
        allocation.find_territory(state, "velden") == "E2"
    assert allocation.find_zone(state, "za") == allocation.find_zone(state, "Falhaven") == \
        allocation.find_zone(state, "falhaven  zone") == "ZA"


# ---- sealing --------------------------------------------------------------------------------------------------

def placed(*lines: str) -> list[PlacedOrder]:
    return [PlacedOrder(o, 7) for o in orders(*lines)]


def test_allocations_are_sealed_and_only_who_sent_is_published() -> None:
    state = with_gdp(45)
    report = Report()
    allocation.resolve(state, 1, {"alice": placed("politics 15%", "develop 3 in ZA", "build 2 infantry in Velden"),
                                  "bruno": placed("research 4")}, random.Random(1), report)
    sealed = state["pending"]["allocation"]
    assert sealed["alice"]["politics"] == 15 and sealed["alice"]["develop"] == {"ZA": 3}
    assert sealed["alice"]["build"] == {"E2": {"infantry": 2}} and sealed["alice"]["total"] == 6 + 3 + 10
    assert sealed["bruno"]["research"] == 4
    # GG-OQ-28: a player who sends nothing buys nothing and spends 0% on politics.
    assert sealed["hugo"] == {**sealed["hugo"], "politics": 0, "develop": {}, "research": 0, "build": {},
                              "railroads": [], "sent": False, "total": 0}
    news = " ".join(report.public["Allocations"])
    assert "Aurelia, Borvane" in news and "Hestry" in news and "Velden" not in news and "research" not in news
    assert report.private["alice"]["Your allocation"] == [
        "Politics 15%: 6 GDP", "Development 3 points: 3 GDP (3 in Falhaven Zone (ZA))",
        "Build 2 infantry in Velden (E2): 10 GDP",
        "Allocated 19 of 45 GDP: 26 left, lost if unused (GDP is not rolled over or traded)."]
    assert "bruno" not in str(report.private.get("alice"))


def test_an_allocation_over_budget_at_the_deadline_is_dropped() -> None:
    # The ack refuses it; were the GDP to have changed since, the deadline drops it whole as well.
    state = with_gdp(10)
    report = Report()
    allocation.resolve(state, 1, {"alice": placed("politics 30%", "build 2 infantry in Velden")},
                       random.Random(1), report)
    assert state["pending"]["allocation"]["alice"]["total"] == 0
    assert report.private["alice"]["Your allocation"][0].startswith("Dropped: over your GDP by 3")


def test_the_allocation_phase_through_the_ruleset() -> None:
    state = with_gdp(45)
    [order] = RULESET.parse("research 5").orders
    result = RULESET.resolve_phase(state, 1, "allocation", {"alice": [PlacedOrder(order, 1)]}, random.Random(1))
    assert result.state["pending"]["allocation"]["alice"]["research"] == 5
    assert not result.finished
