"""THE ECCLESIASTICAL OFFICES: bishops, archbishops, cardinals, the Pope; offers, acceptance, resignation; the papal
election (docs/renaissance/hierarchies.md, section C). Figures worked by hand from the rules' text."""

from __future__ import annotations

import random
from typing import Any

import pytest

from maild.ruleset import OrderSet, PlacedOrder
from maild_rules.renaissance import RULESET, church_offices, engine, papal_election
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.setup import new_game
from tests.renaissance_fixtures import month_ctx, small_setup, small_state, war_persona, war_town

MARCH = 3


def catholic(pid: str, family: str = "MEDICI", where: str = "Florence", **kw: Any) -> dict[str, Any]:
    return war_persona(pid, family, where, religion="catholic", **kw)


def church(month: int = 1, turn: int = 1, personae: list[dict[str, Any]] | None = None, pope: str | None = "0101",
           **state: Any) -> Ctx:
    """Florence is an archbishopric (its own see and Pisa's); Rome is the Pope's; Siena is Florence's too."""
    towns = [war_town("Florence", religion="catholic", see="Florence"),
             war_town("Pisa", religion="catholic", see="Florence"),
             war_town("Siena", religion="catholic", see="Florence"),
             war_town("Rome", religion="catholic", see="Rome", offices={"bishop": pope, "archbishop": pope})]
    people = personae if personae is not None else [
        catholic("0101", where="Rome", popularity=400, titles=["Pope"], rank="pope"),
        catholic("0102", piety=250, skills={"sermonizing": 300}),
        catholic("0103", "DORIA", piety=700, skills={"sermonizing": 100}),
    ]
    return month_ctx(people, towns, month=month, turn=turn, pope=pope, **state)


def order(ctx: Ctx, fn: Any, pid: str, **args: Any) -> Any:
    return fn(ctx, ctx.persona(pid), args)


def office(ctx: Ctx, where: str, which: str) -> str | None:
    return ctx.state["locations"][where]["offices"][which]


# ---- bishops (RH-OQ-19, RH-OQ-20) -------------------------------------------------------------------------------

def test_an_archbishop_appoints_one_bishop_a_turn_and_pays_for_an_unsuitable_one() -> None:
    # 0103, archbishop of Florence (popularity 300), appoints 0102 (piety 250 + sermonizing 300 = 550 < 600) to Pisa:
    # "An archbishop's popularity is reduced by 20 points": 300 - 20 = 280. The see is his at once (no acceptance).
    ctx = church()
    ctx.state["locations"]["Florence"]["offices"]["archbishop"] = "0103"
    outcome = order(ctx, church_offices.appoint_bishop, "0103", appointee="0102", location="Pisa")
    assert outcome.ok and "popularity -20" in outcome.text
    assert office(ctx, "Pisa", "bishop") == "0102"
    assert ctx.persona("0103")["popularity"] == 280
    # "one bishop per turn": Siena waits for next month.
    again = order(ctx, church_offices.appoint_bishop, "0103", appointee="0101", location="Siena")
    assert not again.ok and "one per turn" in again.text


def test_a_suitable_bishop_costs_nothing_and_a_bishop_may_hold_several_sees() -> None:
    # 0102 with piety 300 + sermonizing 300 = 600: not "fewer than 600", no loss. He is bishop of Siena already.
    ctx = church()
    ctx.persona("0102")["piety"] = 300
    ctx.state["locations"]["Florence"]["offices"]["archbishop"] = "0103"
    ctx.state["locations"]["Siena"]["offices"]["bishop"] = "0102"
    outcome = order(ctx, church_offices.appoint_bishop, "0103", appointee="0102", location="Pisa")
    assert outcome.ok, outcome
    assert ctx.persona("0103")["popularity"] == 300
    assert church_offices.sees_held(ctx.state, "0102", "bishop") == ["Pisa", "Siena"]


@pytest.mark.parametrize(("change", "why"), [
    ({"appointee": "0103"}, "does not appoint himself"),
    ({"location": "Rome"}, "not within his archbishopric"),
    ({"appointee": "0104"}, "female"),
    ({"appointee": "0105"}, "not catholic"),
])
def test_rh_oq_19_who_may_be_appointed_bishop(change: dict[str, Any], why: str) -> None:
    orthodox = war_persona("0105", "DORIA", "Florence", religion="orthodox")
    ctx = church(personae=[catholic("0101", where="Rome"), catholic("0102"), catholic("0103", "DORIA"),
                           catholic("0104", female=True), orthodox])
    ctx.state["locations"]["Florence"]["offices"]["archbishop"] = "0103"
    args = {"appointee": "0102", "location": "Pisa", **change}
    outcome = order(ctx, church_offices.appoint_bishop, "0103", **args)
    assert not outcome.ok and why in outcome.text


def test_an_unsuitable_appointment_fails_when_it_would_drive_popularity_below_zero() -> None:
    ctx = church()
    ctx.state["locations"]["Florence"]["offices"]["archbishop"] = "0103"
    ctx.persona("0103")["popularity"] = 19
    outcome = order(ctx, church_offices.appoint_bishop, "0103", appointee="0102", location="Pisa")
    assert not outcome.ok and "more than he has" in outcome.text
    assert office(ctx, "Pisa", "bishop") is None and ctx.persona("0103")["popularity"] == 19


# ---- archbishops, investiture and acceptance (RH-OQ-17, 18, 20, 50) -------------------------------------------

def vacant_florence() -> Ctx:
    ctx = church()
    ctx.state["locations"]["Pisa"]["offices"]["bishop"] = "0102"
    ctx.state["locations"]["Siena"]["offices"]["bishop"] = "0102"
    return ctx


def test_the_pope_invests_a_bishop_who_accepts_and_resigns_his_other_sees() -> None:
    # 0102 (piety 250 + sermonizing 300 = 550 < 800): the Pope's popularity 400 - 20 = 380, when he invests.
    ctx = vacant_florence()
    outcome = order(ctx, church_offices.invest_archbishop, "0101", appointee="0102", location="Florence")
    assert outcome.ok and "popularity -20" in outcome.text
    assert ctx.persona("0101")["popularity"] == 380
    assert office(ctx, "Florence", "archbishop") is None  # an offer, not yet his
    # The next month (turn 2) he accepts: his bishoprics of Pisa and Siena end with the acceptance (RH-OQ-18), and
    # the archbishopric carries the bishopric of its city.
    nxt = Ctx(state=ctx.state, turn=2, rng=random.Random(1))
    church_offices.expire_offers(nxt)
    accepted = order(nxt, church_offices.accept_office, "0102", office="Florence")
    assert accepted.ok and "bishop of Pisa" in accepted.text and "bishop of Siena" in accepted.text
    assert office(nxt, "Florence", "archbishop") == "0102" and office(nxt, "Florence", "bishop") == "0102"
    assert office(nxt, "Pisa", "bishop") is None and office(nxt, "Siena", "bishop") is None
    assert nxt.state[church_offices.OFFERS] == []


def test_rh_oq_17_an_investiture_not_accepted_by_the_end_of_the_next_turn_lapses() -> None:
    ctx = vacant_florence()
    assert order(ctx, church_offices.invest_archbishop, "0101", appointee="0102", location="Florence").ok
    second = Ctx(state=ctx.state, turn=2, rng=random.Random(1))
    church_offices.expire_offers(second)
    assert len(second.state[church_offices.OFFERS]) == 1  # still open in turn 2
    third = Ctx(state=ctx.state, turn=3, rng=random.Random(1))
    church_offices.expire_offers(third)
    assert third.state[church_offices.OFFERS] == [] and any("lapsed" in n for n in third.news)
    late = order(third, church_offices.accept_office, "0102", office="Florence")
    assert not late.ok and office(third, "Florence", "archbishop") is None
    # The see is vacant again: the Pope may invest anew.
    assert order(third, church_offices.invest_archbishop, "0101", appointee="0102", location="Florence").ok


def test_the_pope_invests_one_a_turn_a_bishop_with_a_vacant_catholic_archbishopric() -> None:
    ctx = vacant_florence()
    ctx.state["locations"]["Naples"] = war_town("Naples", religion="catholic", see="Naples")
    ctx.state["locations"]["Siena"]["offices"]["bishop"] = "0103"
    ctx.persona("0103")["piety"] = 900  # 900 + 100 = 1,000: suitable
    assert not order(ctx, church_offices.invest_archbishop, "0102", appointee="0103", location="Naples").ok  # no Pope
    assert not order(ctx, church_offices.invest_archbishop, "0101", appointee="0103", location="Pisa").ok
    assert order(ctx, church_offices.invest_archbishop, "0101", appointee="0103", location="Naples").ok
    assert ctx.persona("0101")["popularity"] == 400
    twice = order(ctx, church_offices.invest_archbishop, "0101", appointee="0102", location="Florence")
    assert not twice.ok and "one a turn" in twice.text
    layman = church()
    no_bishop = order(layman, church_offices.invest_archbishop, "0101", appointee="0103", location="Florence")
    assert not no_bishop.ok and "is no bishop" in no_bishop.text


def test_rh_oq_50_an_acceptance_before_the_offer_fails() -> None:
    ctx = vacant_florence()
    early = order(ctx, church_offices.accept_office, "0102", office="Florence")
    assert not early.ok and "has not been offered" in early.text


# ---- the cardinal's hat ---------------------------------------------------------------------------------------

def archbishop_0102(month: int = MARCH) -> Ctx:
    ctx = church(month=month)
    locations = ctx.state["locations"]
    locations["Florence"]["offices"].update(archbishop="0102", bishop="0102")
    locations["Siena"]["offices"]["bishop"] = "0102"
    return ctx


def test_a_hat_each_march_and_september_and_the_cardinal_keeps_one_archbishopric() -> None:
    # 0102: 250 + 300 = 550 < 1,000: the Pope loses 20 (400 -> 380).
    january = archbishop_0102(month=1)
    refused = order(january, church_offices.grant_hat, "0101", appointee="0102")
    assert not refused.ok and "March and September" in refused.text
    ctx = archbishop_0102()
    outcome = order(ctx, church_offices.grant_hat, "0101", appointee="0102")
    assert outcome.ok and ctx.persona("0101")["popularity"] == 380
    # "instead of elevating a bishop to the rank of archbishop": no investiture this month.
    ctx.state["locations"]["Naples"] = war_town("Naples", religion="catholic", see="Naples")
    ctx.state["locations"]["Pisa"]["offices"]["bishop"] = "0103"
    assert not order(ctx, church_offices.invest_archbishop, "0101", appointee="0103", location="Naples").ok
    # Accepted the same month, after the grant: he keeps Florence (and its city's bishopric), loses Siena.
    accepted = order(ctx, church_offices.accept_office, "0102", office="hat")
    assert accepted.ok, accepted
    assert church_offices.is_cardinal(ctx.persona("0102"))
    assert office(ctx, "Florence", "archbishop") == "0102" and office(ctx, "Florence", "bishop") == "0102"
    assert office(ctx, "Siena", "bishop") is None


def test_the_hat_goes_to_an_archbishop_only() -> None:
    ctx = church(month=MARCH)
    outcome = order(ctx, church_offices.grant_hat, "0101", appointee="0102")
    assert not outcome.ok and "no Catholic archbishop" in outcome.text


def test_rh_oq_18_a_cardinal_who_accepts_another_archbishopric_resigns_everything_else() -> None:
    # "must then resign all other ecclesiastical positions which he may hold": the hat and his first archbishopric.
    ctx = archbishop_0102()
    ctx.persona("0102")["titles"] = ["Cardinal"]
    ctx.state["locations"]["Naples"] = war_town("Naples", religion="catholic", see="Naples")
    church_offices.make_offer(ctx, "archbishop", "0102", "Naples", "0101")
    outcome = order(ctx, church_offices.accept_office, "0102", office="Naples")
    assert outcome.ok and "cardinal's hat" in outcome.text
    assert not church_offices.is_cardinal(ctx.persona("0102"))
    assert office(ctx, "Florence", "archbishop") is None and office(ctx, "Naples", "archbishop") == "0102"


# ---- resignation, and office towers (RH-OQ-26) ----------------------------------------------------------------

def test_a_resignation_leaves_the_offices_tower_with_the_office() -> None:
    ctx = archbishop_0102()
    ctx.state["locations"]["Florence"]["towers"] = [{"name": "Arcivescovado", "fas": 30, "owner": "archbishop"}]
    outcome = order(ctx, church_offices.resign_office, "0102", office="Florence")
    assert outcome.ok and office(ctx, "Florence", "archbishop") is None and office(ctx, "Florence", "bishop") is None
    assert ctx.state["locations"]["Florence"]["towers"][0]["owner"] == "archbishop"


def test_rh_oq_26_an_archbishop_no_longer_catholic_loses_his_see_and_its_tower_becomes_his_familys() -> None:
    ctx = archbishop_0102()
    ctx.state["locations"]["Florence"]["towers"] = [{"name": "Arcivescovado", "fas": 30, "owner": "archbishop"}]
    ctx.persona("0102")["religion"] = "sunni"
    church_offices.faith_keeps_office(ctx)
    assert office(ctx, "Florence", "archbishop") is None and office(ctx, "Siena", "bishop") is None
    assert ctx.state["locations"]["Florence"]["towers"][0]["owner"] == "MEDICI"


# ---- the papal election (RH-OQ-15, RH-OQ-16) ------------------------------------------------------------------

def conclave(npc: int, **ratings: tuple[int, int]) -> Ctx:
    """Three cardinals in Rome (0201, 0202, 0203); candidates 0102 and 0103 with (piety, sermonizing)."""
    people = [catholic(pid, "DORIA", "Rome", titles=["Cardinal"]) for pid in ("0201", "0202", "0203")]
    for pid, (piety, sermons) in ratings.items():
        people.append(catholic(pid.removeprefix("p"), piety=piety, skills={"sermonizing": sermons}))
    return church(turn=4, personae=people, pope=None, conclave={"opened": 4, "elect": None}, papal_npc_votes=npc)


def vote(ctx: Ctx, voter: str, candidate: str) -> Any:
    return order(ctx, papal_election.papal_vote, voter, candidate=candidate)


def test_rh_oq_15_the_non_player_votes_halved_the_odd_one_to_the_most_pious() -> None:
    # 0102 (piety 300, sermonizing 100) has one cardinal's vote, 0103 (piety 200, sermonizing 400) two. 21
    # non-player votes: 11 to the most pious (0102), 10 to the best preacher (0103): 1 + 11 = 12 against 2 + 10 = 12.
    # The tie goes to more cardinals' votes: 0103.
    ctx = conclave(21, p0102=(300, 100), p0103=(200, 400))
    assert vote(ctx, "0201", "0102").ok and vote(ctx, "0202", "0103").ok and vote(ctx, "0203", "0103").ok
    cardinals, total = papal_election.tally(ctx, ctx.scratch["papal_election.votes"])
    assert cardinals == {"0102": 1, "0103": 2} and total == {"0102": 12, "0103": 12}
    papal_election.count_papal_votes(ctx)
    assert ctx.state["conclave"]["elect"] == "0103"
    assert church_offices.pending(ctx.state, "pope", to="0103") is not None


def test_one_candidate_most_pious_and_best_preacher_takes_every_non_player_vote() -> None:
    # 0102 (piety 300, sermonizing 400), one cardinal: 1 + 10 + 10 = 21 against 0103's 2.
    ctx = conclave(20, p0102=(300, 400), p0103=(200, 100))
    vote(ctx, "0201", "0102")
    vote(ctx, "0202", "0103")
    vote(ctx, "0203", "0103")
    assert papal_election.tally(ctx, ctx.scratch["papal_election.votes"])[1] == {"0102": 21, "0103": 2}


def test_without_non_player_votes_a_plain_plurality() -> None:
    ctx = conclave(0, p0102=(999, 999), p0103=(0, 0))
    vote(ctx, "0201", "0102")
    vote(ctx, "0202", "0103")
    vote(ctx, "0203", "0103")
    papal_election.count_papal_votes(ctx)
    assert ctx.state["conclave"]["elect"] == "0103"


def test_rh_oq_16_who_votes_in_the_conclave() -> None:
    ctx = conclave(20, p0102=(300, 100))
    ctx.start_location["0203"] = "Florence"  # not present in Rome at the start of the turn
    assert not vote(ctx, "0203", "0102").ok
    assert not vote(ctx, "0102", "0102").ok  # no cardinal
    assert vote(ctx, "0201", "0201").ok  # a cardinal may vote for himself
    assert not vote(ctx, "0201", "0102").ok  # one vote a month
    no_conclave = church()
    assert not order(no_conclave, papal_election.papal_vote, "0102", candidate="0102").ok


def test_the_elect_accepts_the_next_month_and_takes_the_throne_and_the_see_of_rome() -> None:
    ctx = conclave(20, p0102=(300, 100))
    ctx.state["locations"]["Florence"]["offices"].update(archbishop="0201", bishop="0201")
    vote(ctx, "0202", "0201")
    papal_election.count_papal_votes(ctx)
    early = vote(ctx, "0203", "0102")
    assert not early.ok
    nxt = Ctx(state=ctx.state, turn=5, rng=random.Random(1))
    church_offices.expire_offers(nxt)
    assert not order(nxt, papal_election.papal_vote, "0203", candidate="0102").ok  # the elect may still accept
    accepted = order(nxt, church_offices.accept_office, "0201", office="pope")
    assert accepted.ok and "cardinal's hat" in accepted.text and "archbishop of Florence" in accepted.text
    pope = nxt.persona("0201")
    assert nxt.state["pope"] == "0201" and pope["rank"] == "pope" and "Pope" in pope["titles"]
    assert office(nxt, "Rome", "bishop") == "0201" and office(nxt, "Rome", "archbishop") == "0201"
    assert nxt.state["conclave"] is None and not church_offices.is_cardinal(pope)


def test_rh_oq_17_a_pope_elect_who_does_not_accept_leaves_the_conclave_to_vote_again() -> None:
    ctx = conclave(20, p0102=(300, 100))
    vote(ctx, "0201", "0102")
    papal_election.count_papal_votes(ctx)
    later = Ctx(state=ctx.state, turn=6, rng=random.Random(1))
    later.start_location.update({"0202": "Rome"})
    church_offices.expire_offers(later)
    assert later.state["conclave"]["elect"] is None
    assert order(later, papal_election.papal_vote, "0202", candidate="0102").ok


def test_a_popes_death_or_resignation_opens_the_conclave_next_turn() -> None:
    ctx = church(turn=7)
    assert order(ctx, church_offices.resign_office, "0101", office="pope").ok
    assert ctx.state["pope"] is None and ctx.state["conclave"] == {"opened": 8, "elect": None}
    assert office(ctx, "Rome", "bishop") is None and ctx.persona("0101")["rank"] == "none"
    dead = church(turn=7)
    dead.persona("0101")["alive"] = False
    church_offices.church_deaths(dead)
    assert dead.state["pope"] is None and dead.state["conclave"]["opened"] == 8



def test_a_dead_pope_elects_election_lapses_with_him() -> None:
    ctx = conclave(20, p0102=(300, 100))
    vote(ctx, "0201", "0102")
    papal_election.count_papal_votes(ctx)
    ctx.persona("0102")["alive"] = False
    church_offices.church_deaths(ctx)
    assert ctx.state["conclave"]["elect"] is None and church_offices.pending(ctx.state, "pope") is None


# ---- through the month ----------------------------------------------------------------------------------------

def run(turn: int, state: dict[str, Any], medici: str = "", doria: str = "") -> Any:
    orders: dict[str, list[PlacedOrder]] = {}
    for seq, (player, family, text) in enumerate((("LMD", "MEDICI", medici), ("ADR", "DORIA", doria)), start=1):
        parsed = RULESET.parse(f"/{player} *{family}\n{text}") if text else None
        assert parsed is None or parsed.diagnostics == [], parsed.diagnostics
        orders[player] = RULESET.effective([OrderSet(player, seq, parsed.orders)]) if parsed else []
    return engine.run_month(state, turn, orders, random.Random(1))


def ok(result: Any, family: str) -> list[str]:
    outcomes = result.outcomes[family]
    assert all(o["ok"] for o in outcomes), outcomes
    return [o["text"] for o in outcomes]


def test_a_bishop_an_archbishop_a_cardinal_and_a_pope_made_through_the_month() -> None:
    # The small world (January 1493 is turn 1), with Rome (the Pope's see) and Genoa an archbishopric. Piero (0101)
    # is Pope; Domenico Doria (0202, popularity 250) is archbishop of Florence; Giovanni (0102) bishop of Florence.
    state = small_state()
    rome = {**state["locations"]["Livorno"], "name": "Rome", "see": "Rome", "aliases": []}
    rome["offices"] = {**rome["offices"], "bishop": "0101", "archbishop": "0101"}
    state["locations"]["Rome"] = rome
    state["locations"]["Genoa"]["see"] = "Genoa"
    state["locations"]["Florence"]["offices"]["archbishop"] = "0202"
    state["pope"] = "0101"
    state["papal_npc_votes"] = 20
    for player in state["players"].values():
        player["account"]["balance"] = 1000.0  # CREDIT: the months' fees are paid
    # January: 0202 appoints Giuliano (0103, piety 20 < 600) bishop of Pisa: 250 - 20 = 230. The Pope invests
    # Giovanni (piety 250 + sermonizing 300 = 550 < 800) with Genoa: 420 - 20 = 400.
    january = run(1, state, "*Florence .0101\nOI0102Genoa\n", "*Florence .0202\nappoint .0103 bishop of Pisa\n")
    ok(january, "MEDICI")
    ok(january, "DORIA")
    state = january.ctx.state
    assert state["locations"]["Pisa"]["offices"]["bishop"] == "0103"
    assert state["personae"]["0202"]["popularity"] == 230 and state["personae"]["0101"]["popularity"] == 400
    # February: Giovanni accepts Genoa and leaves the see of Florence.
    february = run(2, state, "*Florence .0102\nOAGenoa\n")
    ok(february, "MEDICI")
    state = february.ctx.state
    assert state["locations"]["Genoa"]["offices"]["archbishop"] == "0102"
    assert state["locations"]["Genoa"]["offices"]["bishop"] == "0102"
    assert state["locations"]["Florence"]["offices"]["bishop"] is None
    # March: the hat (550 < 1,000: the Pope 400 -> 380), accepted the same month (0102's orders follow 0101's);
    # then the Pope resigns the throne.
    march = run(3, state, "*Rome .0101\nOK0102\nresign the papacy\n*Florence .0102\naccept the hat\n")
    ok(march, "MEDICI")
    state = march.ctx.state
    assert "Cardinal" in state["personae"]["0102"]["titles"] and state["pope"] is None
    assert state["personae"]["0101"]["popularity"] == 380 and state["conclave"]["opened"] == 4
    # April: the cardinal, in Rome at the start of the month, votes for himself: 1 + 20 non-player votes.
    state["personae"]["0102"]["location"] = "Rome"
    april = run(4, state, "*Rome .0102\nVP0102\n")
    ok(april, "MEDICI")
    state = april.ctx.state
    assert state["conclave"]["elect"] == "0102"
    assert any("0102) 21" in n for n in april.ctx.news)
    # May: he accepts the papal throne and resigns Genoa and the hat.
    may = run(5, state, "*Rome .0102\naccept the papal throne\n")
    ok(may, "MEDICI")
    state = may.ctx.state
    assert state["pope"] == "0102" and state["personae"]["0102"]["rank"] == "pope"
    assert state["locations"]["Genoa"]["offices"]["archbishop"] is None
    assert state["locations"]["Rome"]["offices"]["archbishop"] == "0102"
    assert "Cardinal" not in state["personae"]["0102"]["titles"]


def test_rh_oq_15_the_setup_sets_the_number_of_non_player_votes() -> None:
    setup = small_setup()
    setup["game"]["papal_npc_votes"] = 7
    assert new_game(setup)["papal_npc_votes"] == 7
    assert "papal_npc_votes" not in small_state()
    assert papal_election.npc_votes(small_state()) == 20


def test_an_orthodox_congress_and_an_excommunication_through_the_month() -> None:
    # Kiev, a vacant Orthodox metropolitanate; Domenico Doria (0202), made Orthodox, bishop of Chernigov, starts
    # January at Kiev and votes for himself: elected, 1 vote. The Pope (0101) excommunicates Giuliano (0103,
    # popularity 200): 180. In February Domenico accepts Kiev and leaves Chernigov.
    state = small_state()
    for name in ("Kiev", "Chernigov"):
        town = {**state["locations"]["Livorno"], "name": name, "see": "Kiev", "aliases": [], "religion": "orthodox"}
        town["offices"] = {**town["offices"]}
        state["locations"][name] = town
    state["locations"]["Chernigov"]["offices"]["bishop"] = "0202"
    state["personae"]["0202"].update(religion="orthodox", location="Kiev")
    state["pope"] = "0101"
    for player in state["players"].values():
        player["account"]["balance"] = 1000.0
    january = run(1, state, "*Florence .0101\nexcommunicate .0103\n", "*Kiev .0202\nVS0202Kiev\n")
    ok(january, "MEDICI")
    ok(january, "DORIA")
    state = january.ctx.state
    assert state["personae"]["0103"]["popularity"] == 180
    assert any("congress at Kiev has elected" in n for n in january.ctx.news)
    february = run(2, state, doria="*Kiev .0202\naccept the patriarchate of Kiev\n")
    ok(february, "DORIA")
    state = february.ctx.state
    assert state["locations"]["Kiev"]["offices"]["archbishop"] == "0202"
    assert state["locations"]["Chernigov"]["offices"]["bishop"] is None
