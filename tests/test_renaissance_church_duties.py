"""The church's other rules: excommunication, the Orthodox and Monophysite congresses, the clergy and duels, women,
and the readings of tithes, indulgences and sermons (docs/renaissance/hierarchies.md, section C). Figures worked by
hand from the rules' text."""

from __future__ import annotations

import random
from typing import Any

import pytest

from maild_rules.renaissance import church_congress, church_offices, excommunication
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.orderkinds import SKILL_LETTERS
from maild_rules.renaissance.war import intrigue
from tests.renaissance_fixtures import month_ctx, war_persona, war_town


def person(pid: str, religion: str = "catholic", where: str = "Rome", family: str = "MEDICI", **kw: Any) -> dict:
    return war_persona(pid, family, where, religion=religion, **kw)


def rome(*personae: dict[str, Any], pope: str | None = "0101") -> Ctx:
    towns = [war_town("Rome", religion="catholic", see="Rome", offices={"bishop": pope, "archbishop": pope}),
             war_town("Florence", religion="catholic", see="Florence")]
    return month_ctx(list(personae), towns, pope=pope)


def order(ctx: Ctx, fn: Any, pid: str, **args: Any) -> Any:
    return fn(ctx, ctx.persona(pid), args)


# ---- excommunication (RH-OQ-22) -------------------------------------------------------------------------------

def test_rh_oq_22_excommunication_costs_20_popularity_this_month_and_stops_at_zero() -> None:
    # 0202 with 300 popularity: 300 - 20 = 280. 0203 with 15: falls to 0 (the excommunication does not fail: the
    # rule against driving one's own popularity below zero binds the one who acts, the Pope).
    ctx = rome(person("0101"), person("0202", family="DORIA", where="Florence"),
               person("0203", family="DORIA", popularity=15))
    outcome = order(ctx, excommunication.excommunicate, "0101", target="0202")
    assert outcome.ok and ctx.persona("0202")["popularity"] == 280
    assert order(ctx, excommunication.excommunicate, "0101", target="0203").ok
    assert ctx.persona("0203")["popularity"] == 0
    # "for one turn at a time": once a month per persona.
    again = order(ctx, excommunication.excommunicate, "0101", target="0202")
    assert not again.ok and ctx.persona("0202")["popularity"] == 280
    assert any("excommunicated" in n for n in ctx.news)


@pytest.mark.parametrize(("by", "target", "why"), [
    ("0202", "0203", "only the Pope"),
    ("0101", "0101", "not himself"),
    ("0101", "0204", "not a Catholic"),
])
def test_who_excommunicates_whom(by: str, target: str, why: str) -> None:
    ctx = rome(person("0101"), person("0202", family="DORIA"), person("0203", family="DORIA"),
               person("0204", "orthodox", family="DORIA"))
    outcome = order(ctx, excommunication.excommunicate, by, target=target)
    assert not outcome.ok and why in outcome.text


# ---- the Orthodox and Monophysite congresses (RH-OQ-23) -------------------------------------------------------

def kiev(*personae: dict[str, Any]) -> Ctx:
    """Kiev, a vacant Orthodox metropolitanate; Chernigov its suffragan see; Novgorod another metropolitanate."""
    towns = [war_town("Kiev", religion="orthodox", see="Kiev"),
             war_town("Chernigov", religion="orthodox", see="Kiev", offices={"bishop": "0301"}),
             war_town("Novgorod", religion="orthodox", see="Novgorod", offices={"archbishop": "0302"}),
             war_town("Rome", religion="catholic", see="Rome", offices={"bishop": "0101"})]
    return month_ctx(list(personae), towns)


def prelates() -> Ctx:
    return kiev(person("0301", "orthodox", "Kiev", "SHUISKY", popularity=200),
                person("0302", "orthodox", "Kiev", "SHUISKY", popularity=500),
                person("0303", "orthodox", "Kiev", "GLINSKY", popularity=400),
                person("0101", "catholic", "Kiev"))


def test_rh_oq_23_a_congress_elects_by_plurality_without_the_four_vote_bonus() -> None:
    # 0301 (bishop of Chernigov) votes for 0303 (popularity 600), 0302 (metropolitan of Novgorod, "need not be
    # subject to the office") for himself (popularity 500): 1 vote each, no bonus of four (the news says 1 of 2);
    # the tie goes to the more popular, 0303.
    ctx = prelates()
    ctx.persona("0303")["popularity"] = 600
    assert order(ctx, church_congress.congress_vote, "0301", candidate="0303", location="Kiev").ok
    assert order(ctx, church_congress.congress_vote, "0302", candidate="0302", location="Kiev").ok
    church_congress.count_congress_votes(ctx)
    offer = church_offices.pending(ctx.state, "archbishop", "Kiev")
    assert offer is not None and offer["to"] == "0303"
    assert any("(1 of 2 votes)" in n for n in ctx.news)
    # The next month the elected accepts: "function as archbishops" (the archbishop's deadline and resignation).
    nxt = Ctx(state=ctx.state, turn=2, rng=random.Random(1))
    assert order(nxt, church_offices.accept_office, "0303", office="Kiev").ok
    assert nxt.state["locations"]["Kiev"]["offices"]["archbishop"] == "0303"
    assert nxt.state["locations"]["Kiev"]["offices"]["bishop"] == "0303"


def test_a_plurality_beats_popularity() -> None:
    ctx = prelates()
    order(ctx, church_congress.congress_vote, "0301", candidate="0303", location="Kiev")
    order(ctx, church_congress.congress_vote, "0302", candidate="0303", location="Kiev")
    church_congress.count_congress_votes(ctx)
    assert church_offices.pending(ctx.state, "archbishop", "Kiev")["to"] == "0303"


@pytest.mark.parametrize(("voter", "candidate", "where", "why"), [
    ("0303", "0303", "Kiev", "only orthodox prelates"),  # no see
    ("0301", "0101", "Kiev", "not orthodox"),  # a Catholic candidate
    ("0301", "0303", "Novgorod", "not vacant"),
    ("0301", "0303", "Chernigov", "no Orthodox or Monophysite"),  # a suffragan see, no metropolitanate
    ("0301", "0303", "Rome", "no Orthodox or Monophysite"),
])
def test_who_votes_in_a_congress_and_for_whom(voter: str, candidate: str, where: str, why: str) -> None:
    ctx = prelates()
    outcome = order(ctx, church_congress.congress_vote, voter, candidate=candidate, location=where)
    assert not outcome.ok and why in outcome.text


def test_the_voters_are_present_at_the_see_at_the_start_of_the_turn() -> None:
    ctx = prelates()
    ctx.start_location["0301"] = "Chernigov"
    outcome = order(ctx, church_congress.congress_vote, "0301", candidate="0303", location="Kiev")
    assert not outcome.ok and "at the start of the turn" in outcome.text


def test_a_metropolitan_appoints_bishops_as_an_archbishop_does() -> None:
    # "function as archbishops": 0302 at Novgorod appoints 0303 (piety 0 < 600) to a vacant see of Novgorod's:
    # popularity 500 - 20 = 480.
    ctx = prelates()
    ctx.state["locations"]["Pskov"] = war_town("Pskov", religion="orthodox", see="Novgorod")
    assert order(ctx, church_offices.appoint_bishop, "0302", appointee="0303", location="Pskov").ok
    assert ctx.persona("0302")["popularity"] == 480
    catholic = order(ctx, church_offices.appoint_bishop, "0302", appointee="0101", location="Pskov")
    assert not catholic.ok


def test_monophysite_congresses_work_the_same_way() -> None:
    towns = [war_town("Alexandria", religion="monophysite", see="Alexandria"),
             war_town("Asyut", religion="monophysite", see="Alexandria", offices={"bishop": "0401"})]
    ctx = month_ctx([person("0401", "monophysite", "Alexandria", "COPTS"),
                     person("0402", "monophysite", "Alexandria", "COPTS")], towns)
    assert order(ctx, church_congress.congress_vote, "0401", candidate="0402", location="Alexandria").ok
    church_congress.count_congress_votes(ctx)
    assert church_offices.pending(ctx.state, "archbishop", "Alexandria")["to"] == "0402"


# ---- the clergy and duels (RH-OQ-27), women (RH-OQ-28) --------------------------------------------------------

def test_rh_oq_27_a_cardinal_without_a_see_may_duel_the_pope_and_the_prelates_may_not() -> None:
    cardinal = person("0202", family="DORIA", titles=["Cardinal"])
    ctx = rome(person("0101"), cardinal, person("0303", family="BORGIA"))
    assert order(ctx, intrigue.duel, "0303", target="0202").ok  # excluded only as named
    # The Pope is bishop of Rome: "not ... a bishop or an archbishop".
    refused = order(ctx, intrigue.duel, "0303", target="0101")
    assert not refused.ok and "bishop" in refused.text


def test_rh_oq_28_no_woman_holds_a_church_office() -> None:
    ctx = month_ctx([person("0101", where="Rome"), person("0102", where="Florence", female=True)],
                    [war_town("Rome", religion="catholic", see="Rome"),
                     war_town("Florence", religion="catholic", see="Florence", offices={"archbishop": "0102"})],
                    month=3, pope="0101")
    outcome = order(ctx, church_offices.grant_hat, "0101", appointee="0102")
    assert not outcome.ok and "female" in outcome.text


# ---- sermonizing (RH-OQ-21) -----------------------------------------------------------------------------------

def test_rh_oq_21_sermonizing_is_a_skill_trained_as_the_others_and_counts_for_suitability() -> None:
    assert SKILL_LETTERS["s"] == "sermonizing"
    p = person("0102", piety=350, skills={"sermonizing": 250})
    assert church_offices.merit(p) == 600
