"""ELECTIVE STATES: Florence's and Ragusa's December elections for the year from January 1, the states that elect
their rulers for life, electors, valid votes, the four-vote bonus, ties, vacancies and loyalty. Readings RH-OQ-36 ...
39 in docs/renaissance/hierarchies.md; figures worked by hand from the rules' words."""

from __future__ import annotations

from typing import Any

import pytest

from maild.ruleset import SetupError
from maild_rules.renaissance import RULESET, elections
from maild_rules.renaissance.setup import new_game
from tests.renaissance_fixtures import (
    month_ctx,
    run_mails,
    small_setup,
    small_state,
    solvent,
    war_persona,
    war_town,
)

DECEMBER, JANUARY_1494 = 12, 13  # the small world's turn 1 is January 1493


def florence_electors(state: dict[str, Any]) -> dict[str, Any]:
    # Domenico Doria (0202), inside Florence, made a citizen of Florence: three citizens inside at the start of
    # December (0101, 0102, 0202); Giuliano (0103) is a citizen but at Pisa.
    state["personae"]["0202"]["citizenship"] = "Florence"
    return state


def test_florence_elects_in_december_and_the_most_popular_vote_getter_gains_four() -> None:
    state = florence_electors(solvent(small_state()))
    # Votes: Giovanni (0102) and Domenico (0202) for Giovanni; Piero (0101) for himself. Cast: 0102 2, 0101 1. The
    # most popular candidate with a vote is Piero (420 against 300): 1 + 4 = 5 against 2. Piero is reelected.
    december = run_mails({"LMD": "/LMD *MEDICI\n*Florence .0101\nVR0101\n*Florence .0102\nVR0102\n"
                           "*Pisa .0103\nVR0102\n",
                    "ADR": "/ADR *DORIA\n*Florence .0202\nvote for .0102 as ruler\n"}, DECEMBER, state)
    medici = december.outcomes["MEDICI"]
    assert [o["ok"] for o in medici] == [True, True, False]
    assert "no elective state where he began the month" in medici[2]["text"]  # Giuliano began it at Pisa
    assert december.outcomes["DORIA"][0]["ok"]
    ballots = december.ctx.state["locations"]["Florence"]["ruler_ballots"]
    assert ballots == {"turn": DECEMBER, "votes": {"0101": "0101", "0102": "0102", "0202": "0102"}}
    january = run_mails({}, JANUARY_1494, december.ctx.state)
    florence = january.ctx.state["locations"]["Florence"]
    assert florence["offices"]["sovereign"] == "0101"
    assert florence["ruler_term"] == {"from": [1494, 1], "to": [1494, 12]}
    assert any("Piero de' Medici (0101) is reelected ruler of Florence for 1494, with 5 votes" in n
               for n in january.ctx.news)
    # RH-OQ-36: an election is no change of sovereign in SOVEREIGNS' sense: loyalty as it was (520, less nothing).
    assert florence["loyalty"] == december.ctx.state["locations"]["Florence"]["loyalty"]


def test_a_new_ruler_takes_office_on_january_first_and_loyalty_is_unchanged() -> None:
    state = florence_electors(solvent(small_state()))
    state["personae"]["0102"]["popularity"] = 500  # now Giovanni is the most popular: 2 + 4 = 6 against 1
    december = run_mails({"LMD": "/LMD *MEDICI\n*Florence .0101\nVR0101\n*Florence .0102\nVR0102\n",
                    "ADR": "/ADR *DORIA\n*Florence .0202\nVR0102\n"}, DECEMBER, state)
    before = december.ctx.state["locations"]["Florence"]["loyalty"]
    january = run_mails({}, JANUARY_1494, december.ctx.state)
    florence = january.ctx.state["locations"]["Florence"]
    assert florence["offices"]["sovereign"] == "0102" and florence["loyalty"] == before
    assert any("Giovanni de' Medici (0102) is elected ruler of Florence for 1494, with 6 votes" in n
               for n in january.ctx.news)


def test_no_valid_vote_the_sitting_ruler_is_deemed_reelected() -> None:
    # "When no candidate receives any valid votes, ... Florentine gonfalonieres and Ragusan rectors are deemed
    # automatically reelected." Ragusa's rector is a non-player: he stays.
    # January 1494, the game's turn 13: the December 1493 votes are counted.
    ctx = month_ctx([], [war_town("Florence", offices={"sovereign": "0101"}),
                         war_town("Ragusa", offices={"sovereign": "Rector of Ragusa"})], month=1, turn=13)
    elections.count_elections(ctx)
    assert ctx.state["locations"]["Ragusa"]["offices"]["sovereign"] == "Rector of Ragusa"
    assert ctx.state["locations"]["Florence"]["ruler_term"] == {"from": [1494, 1], "to": [1494, 12]}
    assert any("Rector of Ragusa, is deemed reelected for 1494" in n for n in ctx.news)


def test_a_game_begun_in_january_counts_no_december_it_never_had() -> None:
    # Turn 1 is January 1493: no December of the game came before it, so no election is counted and the
    # Newsletter says nothing of one; the setup's rulers sit.
    ctx = month_ctx([], [war_town("Florence", offices={"sovereign": "0101"})], month=1, turn=1)
    elections.count_elections(ctx)
    assert ctx.news == [] and "ruler_term" not in ctx.state["locations"]["Florence"]


def test_rh_oq_38_electors_and_valid_votes() -> None:
    citizen = war_persona("0101", "MEDICI", "Florence", citizenship="Florence")
    outside = war_persona("0102", "MEDICI", "Florence", inside=False, citizenship="Florence")
    stranger = war_persona("0103", "MEDICI", "Florence", citizenship="Pisa")
    dead = war_persona("0104", "MEDICI", "Pisa", alive=False)
    florence = war_town("Florence", offices={"sovereign": "0101"})
    ctx = month_ctx([citizen, outside, stranger, dead], [florence, war_town("Pisa")], month=DECEMBER)
    assert elections.vote_ruler(ctx, citizen, {"candidate": "0101"}).ok  # for himself: the rules forbid it nowhere
    assert not elections.vote_ruler(ctx, citizen, {"candidate": "0103"}).ok  # one vote apiece
    assert "present inside" in elections.vote_ruler(ctx, outside, {"candidate": "0101"}).text
    assert "not an elector" in elections.vote_ruler(ctx, stranger, {"candidate": "0101"}).text
    ctx = month_ctx([citizen, dead], [war_town("Florence"), war_town("Pisa")], month=DECEMBER)
    assert "would not be valid" in elections.vote_ruler(ctx, citizen, {"candidate": "0104"}).text
    november = month_ctx([citizen], [war_town("Florence")], month=11)
    assert "each December" in elections.vote_ruler(november, citizen, {"candidate": "0101"}).text
    # A candidate who died between the vote and the count gets nothing: no valid vote, the ruler stays.
    ctx = month_ctx([citizen, dead], [war_town("Florence", offices={"sovereign": "0101"},
                                               ruler_ballots={"turn": 1, "votes": {"0101": "0104"}})], turn=2,
                    month=DECEMBER)
    elections.count_elections(ctx)
    assert ctx.state["locations"]["Florence"]["offices"]["sovereign"] == "0101"


def test_rh_oq_39_a_ruler_for_life_dies_and_his_successor_is_elected_the_next_month() -> None:
    state = solvent(small_state())
    genoa = state["locations"]["Genoa"]
    genoa.update(elective_ruler=True)
    genoa["offices"]["sovereign"] = "0201"
    state["personae"]["0201"].update(alive=False, died="fever")
    march = run_mails({}, 3, state)
    after = march.ctx.state
    assert after["locations"]["Genoa"]["offices"]["sovereign"] is None  # not inherited (succession)
    assert after["locations"]["Genoa"]["ruler_election"] == {"turn": 4}
    assert any("his successor will be elected in April 1493" in n for n in march.ctx.news)
    # April: Domenico (0202), a citizen of Genoa, inside Genoa at the start, votes for himself: 1 + 4 = 5.
    after["personae"]["0202"].update(location="Genoa", inside=True)
    april = run_mails({"ADR": "/ADR *DORIA\n*Genoa .0202\nVR0202\n"}, 4, after)
    assert april.outcomes["DORIA"][0]["ok"], april.outcomes
    may = run_mails({}, 5, april.ctx.state)
    genoa = may.ctx.state["locations"]["Genoa"]
    assert genoa["offices"]["sovereign"] == "0202" and "ruler_election" not in genoa
    assert genoa["ruler_term"] == {"from": [1493, 5], "to": None}
    assert any("is elected ruler of Genoa for life, with 5 votes" in n for n in may.ctx.news)


def test_rh_oq_39_the_electors_the_gm_announced() -> None:
    doria = war_persona("0202", "DORIA", "Venice", inside=False, citizenship="Genoa")
    medici = war_persona("0101", "MEDICI", "Venice", citizenship="Venice")
    venice = war_town("Venice", elective_ruler=True, ruler_electors=["DORIA"], ruler_election={"turn": 1})
    ctx = month_ctx([doria, medici], [venice], month=4)
    assert elections.vote_ruler(ctx, doria, {"candidate": "0202"}).ok  # a named family, present outside
    assert "families named for its election" in elections.vote_ruler(ctx, medici, {"candidate": "0101"}).text
    assert "when the Newsletter announces" in elections.vote_ruler(
        month_ctx([doria], [war_town("Venice", elective_ruler=True)], month=4), doria, {"candidate": "0202"}).text


def test_rh_oq_39_florences_ruler_dead_in_office_leaves_it_vacant_until_december() -> None:
    state = solvent(small_state())
    state["personae"]["0101"].update(alive=False, died="fever")
    after = run_mails({}, 3, state).ctx.state
    florence = after["locations"]["Florence"]
    assert florence["offices"]["sovereign"] is None and "ruler_election" not in florence


def test_the_ack_notes_a_florentine_vote_outside_december() -> None:
    state = small_state()
    january = RULESET.parse("/LMD *MEDICI\n*Florence .0101\nVR0102\n*Pisa .0103\nVR0102\n")
    notes = [d.message for d in RULESET.check(state, 1, "LMD", january.orders)]
    assert len(notes) == 1  # Pisa elects no ruler: that vote fails at the month, not on its face
    assert "it will fail" in notes[0] and "Florence elects its ruler each December" in notes[0]
    december = RULESET.parse("/LMD *MEDICI\n!DEC1493\n*Florence .0101\nVR0102\n")
    assert RULESET.check(state, 1, "LMD", december.orders) == []


def test_rh_oq_39_the_setup_announces_a_states_electors_and_its_election() -> None:
    setup = small_setup()
    genoa = next(t for t in setup["locations"] if t["name"] == "Genoa")
    genoa.update(elective_ruler=True, ruler_electors=["doria"], ruler_election="1493-03")
    state = new_game(setup)
    assert state["locations"]["Genoa"]["ruler_electors"] == ["DORIA"]
    assert state["locations"]["Genoa"]["ruler_election"] == {"turn": 3}  # March 1493, the small world's turn 3
    genoa["ruler_election"] = "March"
    with pytest.raises(SetupError, match="ruler_election must be"):
        new_game(setup)
