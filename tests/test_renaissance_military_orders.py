"""MILITARY ORDERS: the grandmaster's election and acceptance, the free heavy cavalry, the Pope's founding of an order,
orders exercising sovereignty and the doubled morale against Moslems. Readings RH-OQ-31 ... 35 in
docs/renaissance/hierarchies.md; figures worked by hand from the rules' words."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest

from maild.render import render
from maild.ruleset import OrderSet, SetupError
from maild_rules.renaissance import RULESET, ballots, military_orders, nobility, offices
from maild_rules.renaissance.grandmasters import free_cavalry, grandmastership_of, is_grandmaster
from maild_rules.renaissance.setup import new_game
from maild_rules.renaissance.war import morale
from tests.paths import ROOT
from tests.renaissance_fixtures import (
    flat,
    month_ctx,
    run_mails,
    small_setup,
    small_state,
    solvent,
    war_persona,
    war_town,
)

JUNE, JULY, AUGUST = 6, 7, 8  # the small world's turn 1 is January 1493


def rhodes(grandmaster: str | None = "0601", **kw: Any) -> dict[str, Any]:
    return {"name": "Rhodes", "seat": "Rhodes", "grandmaster": grandmaster,
            "holds": [["Rhodes", "tenant"], ["Rhodes", "sovereign"]], "election": None, "elected": None, **kw}


# ---- the count (RH-OQ-31, RH-OQ-37) ------------------------------------------------------------------------------

def test_rh_oq_31_two_votes_for_the_highest_piety_two_for_the_highest_sermonizing() -> None:
    # Votes cast: A 3, B 2, C 1. Piety A 100, B 300, C 50: B +2 = 4. Sermonizing only C (400): C +2 = 3. A stays at
    # 3. The most votes: B with 4, though A had most votes cast.
    piety = {"A": 100, "B": 300, "C": 50}
    sermons = {"C": 400}
    result = ballots.count({"A": 3, "B": 2, "C": 1}, [ballots.Bonus(piety, 2, "piety"),
                                                     ballots.Bonus(sermons, 2, "sermonizing")],
                           [piety, sermons], random.Random(1))
    assert result.winner == "B" and result.counts == {"A": 3, "B": 4, "C": 3}
    assert result.bonuses == [("piety", "B", 2), ("sermonizing", "C", 2)]


def test_rh_oq_37_ties_for_a_bonus_and_for_the_office() -> None:
    # Equal piety (200) between A (1 vote) and B (2 votes): the bonus goes to B, who had more votes: B 4, A 1.
    piety = {"A": 200, "B": 200}
    assert ballots.count({"A": 1, "B": 2}, [ballots.Bonus(piety, 2, "piety")], [piety], random.Random(1)).counts == {
        "A": 1, "B": 4}
    # A tie in the final count (A 3, B 3, no bonus given: nobody sermonizes) goes to the higher tie-break rating.
    result = ballots.count({"A": 3, "B": 3}, [ballots.Bonus({}, 2, "sermonizing")], [{"A": 10, "B": 90}],
                           random.Random(1))
    assert result.winner == "B" and result.bonuses == []
    # All equal: by lot, the same lot for the same seed.
    lots = {ballots.count({"A": 1, "B": 1}, [], [{}], random.Random(seed)).winner for seed in range(20)}
    assert lots == {"A", "B"}
    assert ballots.count({"A": 1, "B": 1}, [], [{}], random.Random(3)).winner == ballots.count(
        {"A": 1, "B": 1}, [], [{}], random.Random(3)).winner


# ---- votes -------------------------------------------------------------------------------------------------------

def _election_ctx(**kw: Any) -> Any:
    voters = [war_persona("0101", "MEDICI", "Rhodes", religion="catholic"),
              war_persona("0102", "MEDICI", "Rhodes", inside=False, religion="catholic"),
              war_persona("0103", "MEDICI", "Rhodes", religion="catholic", female=True),
              war_persona("0104", "MEDICI", "Rhodes", religion="orthodox"),
              war_persona("0105", "MEDICI", "Pisa", religion="catholic")]
    return month_ctx(voters, [war_town("Rhodes"), war_town("Pisa")], turn=7,
                     military_orders={"rhodes": rhodes(None, election={"turn": 7, "votes": {}})}, **kw)


def test_rh_oq_31_who_votes_and_for_whom() -> None:
    ctx = _election_ctx()
    p = ctx.state["personae"]
    # "Each male Catholic persona present inside, or outside, an election site at the start of the election turn".
    assert military_orders.vote_grandmaster(ctx, p["0101"], {"candidate": "0102"}).ok
    assert military_orders.vote_grandmaster(ctx, p["0102"], {"candidate": "0102"}).ok  # outside, and for himself
    assert not military_orders.vote_grandmaster(ctx, p["0101"], {"candidate": "0102"}).ok  # one vote apiece
    assert "male Catholic" in military_orders.vote_grandmaster(ctx, p["0103"], {"candidate": "0102"}).text
    assert "male Catholic" in military_orders.vote_grandmaster(ctx, p["0104"], {"candidate": "0102"}).text
    assert "no grandmaster is elected at Pisa" in military_orders.vote_grandmaster(
        ctx, p["0105"], {"candidate": "0102"}).text
    # A vote for a woman or a non-Catholic is no valid vote: refused.
    ctx2 = _election_ctx()
    refused = military_orders.vote_grandmaster(ctx2, ctx2.state["personae"]["0101"], {"candidate": "0104"})
    assert not refused.ok and "may not be grandmaster" in refused.text
    assert ctx.state["military_orders"]["rhodes"]["election"]["votes"] == {"0101": "0102", "0102": "0102"}


def test_no_valid_vote_calls_the_election_again_next_month() -> None:
    ctx = _election_ctx()
    military_orders.military_orders(ctx)
    order = ctx.state["military_orders"]["rhodes"]
    assert order["election"] == {"turn": 8, "votes": {}} and order["elected"] is None
    assert any("will be elected in August 1493" in n for n in ctx.news)


# ---- founding, election and acceptance through the month (RH-OQ-33, RH-OQ-31) ----------------------------------

def test_an_order_founded_in_june_its_grandmaster_elected_in_july_and_accepting_in_august() -> None:
    state = solvent(small_state())
    state["pope"] = "0102"  # Giovanni, bishop of Florence, made Pope for the test
    state["personae"]["0102"]["assets"]["ducats"] = 120_000
    # June: the Pope creates the order of Calatrava with its seat at Pisa (population 10,000: "at least 10,000"), and
    # Piero, Pisa's sovereign (no feudatory, no tenant: the only holder whose order the transfer needs), gives its
    # tenancy to the office of grandmaster.
    june = run_mails({"LMD": "/LMD *MEDICI\n*Florence .0102\nOGFCalatrava/Pisa\n*Florence .0101\nOGTCalatrava/Pisa\n"},
               JUNE, state)
    assert all(o["ok"] for o in june.outcomes["MEDICI"]), june.outcomes
    after = june.ctx.state
    order = after["military_orders"]["calatrava"]
    assert order["seat"] == "Pisa" and order["grandmaster"] is None and order["founded"] == JUNE
    assert after["personae"]["0102"]["assets"]["ducats"] == 20_000  # 120,000 - 100,000
    pisa = after["locations"]["Pisa"]
    # TENANTS: "reduces loyalty by 50% and disbands the garrison": 300 -> 150. The vacant office holds the tenancy.
    assert pisa["offices"]["tenant"] == "Calatrava" and pisa["loyalty"] == 150
    assert order["election"] == {"turn": JULY, "votes": {}}
    assert any("will be elected in July 1493" in n for n in june.ctx.news)

    # July: at Pisa at the start of the month, Piero (0101), Giuliano (0103) and Domenico (0202). Piero and Giuliano
    # vote for Giuliano (piety 20), Domenico for Andrea Doria (piety 60). Cast: 0103 2, 0201 1; the highest piety
    # among them is Andrea's: +2 = 3; no candidate sermonizes, so those two votes are not given. Andrea, 3 to 2.
    for pid in ("0101", "0202"):
        after["personae"][pid].update(location="Pisa", inside=True)
    july = run_mails({"LMD": "/LMD *MEDICI\n*Pisa .0101\nVG0103\n*Pisa .0103\nvote for .0103 as grandmaster\n",
                "ADR": "/ADR *DORIA\n*Pisa .0202\nVG0201/Calatrava\n"}, JULY, after)
    assert all(o["ok"] for f in ("MEDICI", "DORIA") for o in july.outcomes[f]), july.outcomes
    elected = july.ctx.state["military_orders"]["calatrava"]["elected"]
    assert elected == {"persona": "0201", "turn": JULY}
    assert ("Andrea Doria (0201) is elected grandmaster of Calatrava with 3 votes (+2 for the highest piety to 0201); "
            "he must accept by the end of August 1493.") in july.ctx.news
    assert "0201: elected grandmaster of Calatrava; accept with OGA in August 1493, or the election is void." in (
        july.ctx.messages["DORIA"])

    # August: Andrea, at Genoa, accepts ("no later than the end of the subsequent turn").
    august = run_mails({"ADR": "/ADR *DORIA\n*Genoa .0201\nOGA\n"}, AUGUST, july.ctx.state)
    assert august.outcomes["DORIA"][0]["ok"], august.outcomes
    final = august.ctx.state
    assert final["military_orders"]["calatrava"]["grandmaster"] == "0201"
    assert final["locations"]["Pisa"]["offices"]["tenant"] == "0201"
    assert "Grandmaster of Calatrava" in final["personae"]["0201"]["titles"]
    assert is_grandmaster(final, "0201")


def test_rh_oq_33_without_the_tenancy_nothing_happens_and_the_ducats_stay() -> None:
    state = solvent(small_state())
    state["pope"] = "0102"
    state["personae"]["0102"]["assets"]["ducats"] = 120_000
    june = run_mails({"LMD": "/LMD *MEDICI\n*Florence .0102\nOGFCalatrava/Pisa\n"}, JUNE, state)
    assert june.outcomes["MEDICI"][0]["ok"]  # the order is given; the month's end finds the tenancy not transferred
    after = june.ctx.state
    assert "calatrava" not in (after.get("military_orders") or {})
    assert after["personae"]["0102"]["assets"]["ducats"] == 120_000
    assert after["locations"]["Pisa"]["loyalty"] == 300
    assert any("was not created" in m and "Piero" in m for m in june.ctx.messages["MEDICI"])


def test_rh_oq_33_who_founds_when_and_where() -> None:
    pope = war_persona("0102", "MEDICI", "Rome", assets={"ducats": 100_000})
    ctx = month_ctx([pope], [war_town("Pisa", population=10_000), war_town("Lucca", population=9_999)],
                    month=JUNE, pope="0102")
    assert "at least 10,000" in military_orders.found_order(ctx, pope, {"order": "Stefano", "seat": "Lucca"}).text
    assert military_orders.found_order(ctx, pope, {"order": "Stefano", "seat": "Pisa"}).ok  # exactly 100,000
    assert "already created a military order this month" in military_orders.found_order(
        ctx, pope, {"order": "X", "seat": "Pisa"}).text
    may = month_ctx([pope], [war_town("Pisa")], month=5, pope="0102")
    assert "in June" in military_orders.found_order(may, pope, {"order": "Stefano", "seat": "Pisa"}).text
    poor = war_persona("0102", "MEDICI", "Rome", assets={"ducats": 99_999})
    ctx = month_ctx([poor], [war_town("Pisa")], month=JUNE, pope="0102")
    assert "100,000 ducats" in military_orders.found_order(ctx, poor, {"order": "Stefano", "seat": "Pisa"}).text
    other = month_ctx([pope], [war_town("Pisa")], month=JUNE, pope="0999")
    assert "only the Pope" in military_orders.found_order(other, pope, {"order": "Stefano", "seat": "Pisa"}).text


def test_acceptance_ends_his_other_church_positions_and_an_unaccepted_election_is_held_again() -> None:
    bishop = war_persona("0102", "MEDICI", "Florence", religion="catholic", titles=["Cardinal of San Marco"])
    towns = [war_town("Rhodes"), war_town("Florence", offices={"bishop": "0102", "archbishop": "0102"})]
    ctx = month_ctx([bishop], towns, turn=8,
                    military_orders={"rhodes": rhodes(None, elected={"persona": "0102", "turn": 7})})
    outcome = military_orders.accept_grandmastership(ctx, bishop, {})
    assert outcome.ok and "resigned archbishop of Florence, bishop of Florence, cardinal's hat" in outcome.text
    assert ctx.state["locations"]["Florence"]["offices"]["bishop"] is None
    assert ctx.state["locations"]["Rhodes"]["offices"]["sovereign"] == "0102"
    assert bishop["titles"] == ["Grandmaster of Rhodes"]
    # Elected in July, not accepted by the end of August: void, and elected again in September.
    late = month_ctx([bishop], [war_town("Rhodes")], turn=8,
                     military_orders={"rhodes": rhodes(None, elected={"persona": "0102", "turn": 7})})
    military_orders.military_orders(late)
    order = late.state["military_orders"]["rhodes"]
    assert order["elected"] is None and order["election"] == {"turn": 9, "votes": {}}
    assert any("did not accept" in n for n in late.news)


def test_a_dead_grandmasters_office_falls_to_the_order_and_his_heir_keeps_nothing_of_it() -> None:
    state = solvent(small_state())
    state["military_orders"] = {"rhodes": rhodes("0201", holds=[["Genoa", "tenant"]], seat="Genoa")}
    state["locations"]["Genoa"]["offices"]["tenant"] = "0201"
    state["personae"]["0201"]["titles"] = ["Grandmaster of Rhodes"]
    state["personae"]["0201"].update(alive=False, died="fever")
    result = run_mails({}, 3, state)
    after = result.ctx.state
    assert after["locations"]["Genoa"]["offices"]["tenant"] == "Rhodes"
    assert after["military_orders"]["rhodes"]["grandmaster"] is None
    assert after["military_orders"]["rhodes"]["election"] == {"turn": 4, "votes": {}}
    heir = after["personae"]["0201"]
    assert heir["alive"] and "Grandmaster of Rhodes" not in heir["titles"] and not is_grandmaster(after, "0201")


# ---- the free heavy cavalry (RH-OQ-32) -------------------------------------------------------------------------

def test_rh_oq_32_fifty_heavy_cavalry_at_rhodes_once_a_month_at_the_recruits_morale() -> None:
    # Popularity 150, below 200: the recruits' morale is 150 (PROFESSIONAL SOLDIERS). With 50 pikemen of morale 400
    # already: (50 x 400 + 50 x 150) / 100 = 275.
    master = war_persona("0601", "MEDICI", "Rhodes", popularity=150, morale=400, assets={"pikeman": 50})
    ctx = month_ctx([master], [war_town("Rhodes")], military_orders={"rhodes": rhodes()})
    outcome = military_orders.claim_cavalry(ctx, master, {})
    assert outcome.ok and master["assets"]["heavy cavalry"] == 50 and master["morale"] == 275
    assert "horse" not in master["assets"] and "armor" not in master["assets"]  # "fully equipped, but not mounted"
    assert not military_orders.claim_cavalry(ctx, master, {}).ok  # once a month
    # "The grandmasters of Alcantara and the Teutonic Knights may claim twenty"; any other ten.
    assert (free_cavalry("alcantara"), free_cavalry("teutonic"), free_cavalry("santiago"), free_cavalry("malta")) == (
        20, 20, 50, 10)


def test_rh_oq_32_only_at_the_seat_at_the_start_of_the_month() -> None:
    master = war_persona("0601", "MEDICI", "Pisa", popularity=300)
    ctx = month_ctx([master], [war_town("Rhodes"), war_town("Pisa")], military_orders={"rhodes": rhodes()})
    assert "starts at the seat of the order, Rhodes" in military_orders.claim_cavalry(ctx, master, {}).text
    other = war_persona("0602", "MEDICI", "Rhodes")
    ctx = month_ctx([other], [war_town("Rhodes")], military_orders={"rhodes": rhodes()})
    assert "only a grandmaster" in military_orders.claim_cavalry(ctx, other, {}).text


# ---- sovereignty (RH-OQ-34) and morale (RH-OQ-35) -----------------------------------------------------------------

def test_rh_oq_34_an_orders_sovereignty_is_no_hereditary_sovereignty() -> None:
    state = {"locations": {"Rhodes": war_town("Rhodes", offices={"sovereign": "0601", "tenant": "0601"}),
                           "Cos": war_town("Cos", offices={"sovereign": "0601"})},
             "military_orders": {"rhodes": rhodes()}, "personae": {}}
    assert offices.hereditary_sovereignties(state, "0601") == ["Cos"]
    # Elective: his family "include[s] a ... elective ... sovereign" (APOSTASY), and may not change religion.
    assert offices.elected_sovereignties(state, "0601") == ["Rhodes"]
    del state["locations"]["Cos"]
    assert not nobility.hereditary_sovereign(state, "0601")  # no grand duke's row through the order's sovereignty
    assert grandmastership_of(state, "0601") == "rhodes"


def test_rh_oq_35_a_grandmasters_troops_against_a_moslem_and_the_title_alone_counts_for_nothing() -> None:
    state = {"locations": {}, "military_orders": {"rhodes": rhodes()}}
    master = {"id": "0601", "religion": "catholic", "titles": ["Grandmaster of Rhodes"]}
    sunni = {"id": "0501", "religion": "sunni"}
    assert morale.inflict_factor(state, master, sunni) == 2
    assert morale.inflict_factor(state, master, {"religion": "shia"}) == 2
    assert morale.inflict_factor(state, master, {"religion": "orthodox"}) == 1
    pretender = {"id": "0602", "religion": "catholic", "titles": ["Grandmaster of Rhodes"]}
    assert morale.inflict_factor(state, pretender, sunni) == 1


def test_the_setup_names_the_orders_their_seats_and_grandmasters() -> None:
    setup = small_setup()
    setup["military_orders"] = [{"name": "Santo Stefano", "seat": "Pisa", "grandmaster": "0103"},
                                {"name": "Calatrava", "seat": "Genoa"}]
    state = new_game(setup)
    stefano = state["military_orders"]["santostefano"]
    # By default the order holds its seat's tenancy, and its sovereignty when the grandmaster is the sovereign
    # (Piero, 0101, is Pisa's sovereign: not the order's).
    assert stefano["holds"] == [["Pisa", "tenant"]] and state["locations"]["Pisa"]["offices"]["tenant"] == "0103"
    assert stefano["election"] is None and free_cavalry("santostefano") == 10
    # Genoa has no tenant: the grandmastership is vacant, the order holds the tenancy, and the first month elects.
    calatrava = state["military_orders"]["calatrava"]
    assert calatrava["grandmaster"] is None and calatrava["election"] == {"turn": 1, "votes": {}}
    assert state["locations"]["Genoa"]["offices"]["tenant"] == "Calatrava"
    setup["military_orders"] = [{"name": "Malta", "seat": "Valletta"}]
    with pytest.raises(SetupError, match="seat 'Valletta' is not a location"):
        new_game(setup)


def test_the_1493_world_has_the_knights_of_rhodes() -> None:
    state = new_game(tomllib.loads((ROOT / "examples" / "renaissance" / "setup.toml").read_text(encoding="utf-8")))
    order = state["military_orders"]["rhodes"]
    assert order["grandmaster"] == "Pierre d'Aubusson" and order["holds"] == [["Rhodes", "tenant"],
                                                                             ["Rhodes", "sovereign"]]


def test_rh_oq_34_an_order_receives_a_sovereignty_from_the_de_facto_controller() -> None:
    # SOVEREIGNS: "Sovereignty over a location may be transferred by its de facto controller to any title except a
    # feudal one ranking below that of duke ... Changing the sovereign of a location reduces its loyalty by 50%".
    # Cos's tenant (its de facto controller) gives it to the order of Rhodes: loyalty 301 -> 150 (a loss rounded up).
    tenant = war_persona("0101", "MEDICI", "Cos")
    master = war_persona("0601", "MEDICI", "Rhodes")
    cos = war_town("Cos", loyalty=301, offices={"sovereign": "Sultan", "tenant": "0101"})
    ctx = month_ctx([tenant, master], [war_town("Rhodes"), cos], military_orders={"rhodes": rhodes()})
    refused = military_orders.order_office(ctx, master, {"office": "sovereign", "order": "Rhodes", "location": "Cos"})
    assert "only the de facto controller of Cos" in refused.text
    assert military_orders.order_office(ctx, tenant, {"office": "sovereign", "order": "Rhodes", "location": "Cos"}).ok
    military_orders.settle_foundings(ctx)
    assert cos["offices"]["sovereign"] == "0601" and cos["loyalty"] == 150
    assert ["Cos", "sovereign"] in ctx.state["military_orders"]["rhodes"]["holds"]
    assert offices.hereditary_sovereignties(ctx.state, "0601") == []  # the order's, not his titles'
    # The tenancy needs the sovereign's order too: the grandmaster's alone is not enough, and nothing passes.
    pisa = war_town("Pisa", offices={"sovereign": "0102", "tenant": "0101"})
    ctx = month_ctx([tenant, war_persona("0102", "MEDICI")], [pisa], military_orders={"rhodes": rhodes()})
    assert military_orders.order_office(ctx, tenant, {"office": "tenant", "order": "Rhodes", "location": "Pisa"}).ok
    military_orders.settle_foundings(ctx)
    assert pisa["offices"]["tenant"] == "0101" and pisa["loyalty"] == 300


def test_the_ack_notes_a_founding_outside_june() -> None:
    state = small_state()
    state["pope"] = "0102"
    may = RULESET.parse("/LMD *MEDICI\n*Florence .0102\nOGFCalatrava/Pisa\n")
    notes = [d.message for d in RULESET.check(state, 1, "LMD", may.orders)]
    assert len(notes) == 1 and "each June only" in notes[0] and "January 1493" in notes[0]
    june = RULESET.parse("/LMD *MEDICI\n!JUN1493\n*Florence .0102\nOGFCalatrava/Pisa\n")
    assert RULESET.check(state, 1, "LMD", june.orders) == []


def test_an_office_the_order_lost_meanwhile_is_not_taken_back() -> None:
    # The Rhodes order held Cos's tenancy; Cos's holders have since given it to 0102. The grandmaster's death leaves
    # Rhodes to the order, and Cos with 0102, off the order's list.
    towns = [war_town("Rhodes", offices={"tenant": "0601"}), war_town("Cos", offices={"tenant": "0102"})]
    dead = war_persona("0601", "MEDICI", "Rhodes", alive=False)
    ctx = month_ctx([dead, war_persona("0102", "MEDICI")], towns,
                    military_orders={"rhodes": rhodes(holds=[["Rhodes", "tenant"], ["Cos", "tenant"]])})
    military_orders.military_orders(ctx)
    assert ctx.state["locations"]["Rhodes"]["offices"]["tenant"] == "Rhodes"
    assert ctx.state["locations"]["Cos"]["offices"]["tenant"] == "0102"
    assert ctx.state["military_orders"]["rhodes"]["holds"] == [["Rhodes", "tenant"]]


def test_the_printout_and_newsletter_show_the_election_and_the_grandmaster() -> None:
    state = solvent(small_state())
    state["military_orders"] = {"calatrava": {"name": "Calatrava", "seat": "Pisa", "grandmaster": None,
                                              "holds": [["Pisa", "tenant"]], "founded": 6,
                                              "election": {"turn": JULY, "votes": {}}, "elected": None}}
    state["locations"]["Pisa"]["offices"]["tenant"] = "Calatrava"
    common = {"game": "ren", "finished": False, "next_deadline": "Monday 1 September 1493"}
    parsed = RULESET.parse("/LMD *MEDICI\n*Pisa .0103\nVG0103\n")
    july = RULESET.resolve(state, JULY, {"LMD": RULESET.effective([OrderSet("LMD", 1, parsed.orders)]), "ADR": []},
                           random.Random(1))
    news = flat(render("renaissance", "newsletter.txt.j2", **common, turn=JULY, **july.newsletter))
    # His one vote, and the two for the highest piety among the vote-getters: he is the only one.
    assert "(0103) is elected grandmaster of Calatrava with 3 votes (+2 for the highest piety to 0103)" in news
    printout = flat(render("renaissance", "printout.txt.j2", **common, turn=JULY, player="LMD",
                           **july.printouts["LMD"]))
    assert "0103: elected grandmaster of Calatrava; accept with OGA in August 1493" in printout
    parsed = RULESET.parse("/LMD *MEDICI\n*Pisa .0103\nOGA\n")
    august = RULESET.resolve(july.state, AUGUST, {"LMD": RULESET.effective([OrderSet("LMD", 1, parsed.orders)]),
                                                  "ADR": []}, random.Random(1))
    printout = flat(render("renaissance", "printout.txt.j2", **common, turn=AUGUST, player="LMD",
                           **august.printouts["LMD"]))
    assert "Grandmaster of Calatrava" in printout and "tenant of Pisa" in printout


def test_two_orders_electing_at_one_seat_the_vote_names_the_order() -> None:
    voter = war_persona("0101", "MEDICI", "Rhodes", religion="catholic")
    both = {"rhodes": rhodes(None, election={"turn": 1, "votes": {}}),
            "stjohn": rhodes(None, name="St John", election={"turn": 1, "votes": {}})}
    ctx = month_ctx([voter], [war_town("Rhodes")], military_orders=both)
    assert "name the order (VG0101/order)" in military_orders.vote_grandmaster(ctx, voter, {"candidate": "0101"}).text
    assert military_orders.vote_grandmaster(ctx, voter, {"candidate": "0101", "order": "St John"}).ok
    assert military_orders.vote_grandmaster(ctx, voter, {"candidate": "0101", "order": "rhodes"}).ok  # one each
    assert both["stjohn"]["election"]["votes"] == {"0101": "0101"} == both["rhodes"]["election"]["votes"]
