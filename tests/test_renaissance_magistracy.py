"""MAGISTRATES: tariffs, appointment and its cost, resignation, the selection method, October elections."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance import magistracy
from maild_rules.renaissance.context import Ctx

OCTOBER, NOVEMBER = 10, 11  # turns: the calendar starts in January 1493


def make_state(selection: str = "s") -> dict[str, Any]:
    def persona(pid: str, popularity: int, **kw: Any) -> dict[str, Any]:
        p = {"id": pid, "name": f"P{pid}", "family": "MEDICI" if pid < "02" else "PAZZI", "religion": "catholic",
             "alive": True, "popularity": popularity, "assets": {}, "location": "Pisa", "inside": True,
             "citizenship": "Pisa"}
        p.update(kw)
        return p
    return {
        "calendar": {"year": 1493, "month": 1},
        "players": {}, "families": {"MEDICI": {"player": "A"}, "PAZZI": {"player": "B"}},
        "personae": {"0101": persona("0101", 500), "0102": persona("0102", 300),
                     "0103": persona("0103", 300, citizenship="Florence"),
                     "0201": persona("0201", 600), "0202": persona("0202", 100),
                     "0203": persona("0203", 50)},
        "locations": {
            "Pisa": {"name": "Pisa", "population": 20000, "wealth": 150, "loyalty": 500,
                     "magistrate_selection": selection, "tariffs": {"import": 5, "export": 97},
                     "offices": {"sovereign": "0101", "tenant": "0201", "magistrate": None, "bishop": None,
                                 "archbishop": None, "dfc": None}},
            "Florence": {"name": "Florence", "population": 70000, "wealth": 180, "loyalty": 500,
                         "magistrate_selection": "e", "tariffs": {},
                         "offices": {"sovereign": "Lorenzo", "tenant": "0201", "magistrate": "0203"}},
        },
    }


def ctx_for(state: dict[str, Any], turn: int = 1, seed: int = 1) -> Ctx:
    ctx = Ctx(state=state, turn=turn, rng=random.Random(seed))
    for pid, p in state["personae"].items():
        ctx.start_location[pid] = p["location"]
        ctx.start_inside[pid] = p["inside"]
    return ctx


# --- tariffs -------------------------------------------------------------------------------------------------

def test_tariff_raise_costs_one_popularity_a_point() -> None:
    s = make_state()
    s["locations"]["Pisa"]["offices"]["magistrate"] = "0102"
    p = s["personae"]["0102"]
    out = magistracy.tariff(ctx_for(s), p, {"which": "import", "change": 3})
    assert out.ok, out.text
    # 5% + 3 = 8%; popularity 300 - 3 = 297
    assert s["locations"]["Pisa"]["tariffs"]["import"] == 8
    assert p["popularity"] == 297


def test_tariff_change_over_five_points_refused() -> None:
    s = make_state()
    s["locations"]["Pisa"]["offices"]["magistrate"] = "0102"
    out = magistracy.tariff(ctx_for(s), s["personae"]["0102"], {"which": "import", "change": 6})
    assert not out.ok
    assert s["locations"]["Pisa"]["tariffs"]["import"] == 5
    assert s["personae"]["0102"]["popularity"] == 300


def test_tariff_lowering_is_free_and_bounded() -> None:
    s = make_state()
    pisa = s["locations"]["Pisa"]
    pisa["offices"]["magistrate"] = "0102"
    p = s["personae"]["0102"]
    ctx = ctx_for(s)
    # import 5% - 5 = 0%, no popularity cost
    assert magistracy.tariff(ctx, p, {"which": "import", "change": -5}).ok
    assert pisa["tariffs"]["import"] == 0 and p["popularity"] == 300
    # export 97% + 4 would be 101%: stops at 99%, charged for the 2 points actually raised (ruling 7)
    assert magistracy.tariff(ctx, p, {"which": "export", "change": 4}).ok
    assert pisa["tariffs"]["export"] == 99 and p["popularity"] == 298
    # one change per tariff per turn
    assert not magistracy.tariff(ctx, p, {"which": "export", "change": -1}).ok


def test_tariff_only_by_the_magistrate_who_started_there() -> None:
    s = make_state()
    s["locations"]["Pisa"]["offices"]["magistrate"] = "0102"
    assert not magistracy.tariff(ctx_for(s), s["personae"]["0101"], {"which": "import", "change": 1}).ok
    ctx = ctx_for(s)
    ctx.start_location["0102"] = "Florence"
    assert not magistracy.tariff(ctx, s["personae"]["0102"], {"which": "import", "change": 1}).ok
    s["personae"]["0102"]["popularity"] = 2
    out = magistracy.tariff(ctx_for(s), s["personae"]["0102"], {"which": "import", "change": 3})
    assert not out.ok and s["locations"]["Pisa"]["tariffs"]["import"] == 5


# --- appointment ---------------------------------------------------------------------------------------------

def test_appointment_cost_citizen_and_non_citizen() -> None:
    s = make_state()
    ctx = ctx_for(s)
    sovereign = s["personae"]["0101"]
    # citizen, popularity 300: 1% of (1100 - 300) = 8 -> 500 - 8 = 492
    out = magistracy.appoint_magistrate(ctx, sovereign, {"appointee": "0102"})
    assert out.ok, out.text
    assert sovereign["popularity"] == 492
    assert s["locations"]["Pisa"]["offices"]["magistrate"] == "0102"
    assert any("magistrate of Pisa" in n for n in ctx.news)
    # non-citizen (of Florence), popularity 300: 8 doubled = 16 -> 492 - 16 = 476; replaces 0102
    out = magistracy.appoint_magistrate(ctx, sovereign, {"appointee": "0103"})
    assert out.ok, out.text
    assert sovereign["popularity"] == 476
    assert s["locations"]["Pisa"]["offices"]["magistrate"] == "0103"


def test_appointment_cost_fraction_dropped_after_doubling() -> None:
    # (1100 - 333) = 767 -> 7.67 -> 7 for a citizen; doubled 15.34 -> 15 (ruling 6)
    assert magistracy.appointment_cost(333, citizen=True) == 7
    assert magistracy.appointment_cost(333, citizen=False) == 15


def test_appointment_refusals() -> None:
    s = make_state()
    p = s["personae"]
    # not the appointing office (selection s: the sovereign, not the tenant)
    assert not magistracy.appoint_magistrate(ctx_for(s), p["0201"], {"appointee": "0102"}).ok
    # no self-appointment
    assert not magistracy.appoint_magistrate(ctx_for(s), p["0101"], {"appointee": "0101"}).ok
    # the appointee must have begun the turn inside
    ctx = ctx_for(s)
    ctx.start_inside["0102"] = False
    assert not magistracy.appoint_magistrate(ctx, p["0101"], {"appointee": "0102"}).ok
    # magistrate of only one location at a time: 0203 is magistrate of Florence
    assert not magistracy.appoint_magistrate(ctx_for(s), p["0101"], {"appointee": "0203"}).ok
    # an elective town has no appointments
    s["locations"]["Pisa"]["magistrate_selection"] = "e"
    assert not magistracy.appoint_magistrate(ctx_for(s), p["0101"], {"appointee": "0102"}).ok
    # an appointer who cannot afford it fails: cost 8, popularity 7
    s["locations"]["Pisa"]["magistrate_selection"] = "s"
    p["0101"]["popularity"] = 7
    assert not magistracy.appoint_magistrate(ctx_for(s), p["0101"], {"appointee": "0102"}).ok
    assert p["0101"]["popularity"] == 7 and s["locations"]["Pisa"]["offices"]["magistrate"] is None


def test_tenant_appoints_under_t_and_resignation() -> None:
    s = make_state(selection="t")
    ctx = ctx_for(s)
    assert magistracy.appoint_magistrate(ctx, s["personae"]["0201"], {"appointee": "0102"}).ok
    assert magistracy.resign_magistracy(ctx, s["personae"]["0102"], {}).ok
    assert s["locations"]["Pisa"]["offices"]["magistrate"] is None
    assert not magistracy.resign_magistracy(ctx, s["personae"]["0102"], {}).ok


# --- selection method ----------------------------------------------------------------------------------------

def test_selection_change_by_the_de_facto_controller() -> None:
    s = make_state(selection="e")
    pisa = s["locations"]["Pisa"]
    p = s["personae"]
    # the sovereign is not the de facto controller
    assert not magistracy.magistrate_selection(ctx_for(s), p["0101"], {"method": "s"}).ok
    # the tenant is (no dfc recorded): away from election costs 300 loyalty: 500 - 300 = 200
    assert magistracy.magistrate_selection(ctx_for(s), p["0201"], {"method": "s"}).ok
    assert pisa["magistrate_selection"] == "s" and pisa["loyalty"] == 200
    # any other change costs 100: 200 - 100 = 100 (to f), then back to election 100 - 100 = 0
    assert magistracy.magistrate_selection(ctx_for(s), p["0201"], {"method": "f"}).ok
    assert pisa["loyalty"] == 100
    assert magistracy.magistrate_selection(ctx_for(s), p["0201"], {"method": "e"}).ok
    assert pisa["loyalty"] == 0
    # once control has passed from the tenancy, only the recorded dfc may change it (0201 is then the de facto
    # controller of no location: Florence's tenancy goes too)
    pisa["offices"]["dfc"] = "0202"
    s["locations"]["Florence"]["offices"]["tenant"] = None
    assert not magistracy.magistrate_selection(ctx_for(s), p["0201"], {"method": "t"}).ok
    assert magistracy.magistrate_selection(ctx_for(s), p["0202"], {"method": "t"}).ok


# --- elections -----------------------------------------------------------------------------------------------

def _vote(s: dict[str, Any], ctx: Ctx, voter: str, candidate: str) -> Any:
    return magistracy.vote(ctx, s["personae"][voter], {"candidate": candidate})


def test_election_bonus_changes_the_winner() -> None:
    s = make_state(selection="e")
    p = s["personae"]
    for pid in ("0103", "0201", "0202", "0203"):
        p[pid]["citizenship"] = "Pisa"
    ctx = ctx_for(s, OCTOBER)
    # 0102 (popularity 300) gets 3 votes; 0201 (popularity 600, the most popular with a vote) gets 2
    for voter in ("0101", "0103", "0202"):
        assert _vote(s, ctx, voter, "0102").ok
    for voter in ("0102", "0203"):
        assert _vote(s, ctx, voter, "0201").ok
    assert not _vote(s, ctx, "0101", "0201").ok  # one vote apiece
    nov = ctx_for(s, NOVEMBER)
    magistracy.elections(nov)
    # 0201: 2 + 4 bonus = 6 beats 0102's 3
    pisa = s["locations"]["Pisa"]
    assert pisa["offices"]["magistrate"] == "0201"
    assert pisa["magistrate_term"] == {"from": [1493, 11], "to": [1494, 10]}
    assert "ballots" not in pisa
    assert any("elected magistrate of Pisa with 6 votes" in n for n in nov.news)


def test_election_tally_ties() -> None:
    rng = random.Random(0)
    # A: 5 votes, popularity 100; B: 1 vote, popularity 400 -> the bonus goes to B: 1 + 4 = 5, tying A's 5;
    # B has the higher popularity and wins (ruling 8)
    winner, counts = magistracy.tally({"A": 100, "B": 400}, {"A": 5, "B": 1}, rng)
    assert counts == {"A": 5, "B": 5} and winner == "B"
    # equal popularity for the bonus: the one with more votes gets it (A 2+4 = 6 beats B 1)
    winner, counts = magistracy.tally({"A": 300, "B": 300}, {"A": 2, "B": 1}, rng)
    assert counts == {"A": 6, "B": 1} and winner == "A"
    # a perfect tie is drawn by lot, repeatably with the same seed
    a = magistracy.tally({"A": 300, "B": 300}, {"A": 1, "B": 1}, random.Random(7))
    b = magistracy.tally({"A": 300, "B": 300}, {"A": 1, "B": 1}, random.Random(7))
    assert a == b and sorted(a[1].values()) == [1, 5]


def test_election_voters_and_months() -> None:
    s = make_state(selection="e")
    # only in October
    assert not _vote(s, ctx_for(s, 9), "0101", "0102").ok
    ctx = ctx_for(s, OCTOBER)
    # 0103 is a citizen of Florence, not Pisa
    assert not _vote(s, ctx, "0103", "0102").ok
    # a citizen outside the walls at the start of the month may not vote
    ctx.start_inside["0102"] = False
    assert not _vote(s, ctx, "0102", "0101").ok


def test_no_votes_keeps_the_sitting_magistrate() -> None:
    s = make_state(selection="e")
    s["locations"]["Pisa"]["offices"]["magistrate"] = "0102"
    nov = ctx_for(s, NOVEMBER)
    magistracy.elections(nov)
    pisa = s["locations"]["Pisa"]
    assert pisa["offices"]["magistrate"] == "0102"
    assert pisa["magistrate_term"] == {"from": [1493, 11], "to": [1494, 10]}
    assert nov.news


def test_elected_magistrate_of_another_town_leaves_it() -> None:
    s = make_state(selection="e")
    ctx = ctx_for(s, OCTOBER)
    assert _vote(s, ctx, "0101", "0203").ok  # 0203 is magistrate of Florence
    nov = ctx_for(s, NOVEMBER)
    magistracy.elections(nov)
    assert s["locations"]["Pisa"]["offices"]["magistrate"] == "0203"
    assert s["locations"]["Florence"]["offices"]["magistrate"] is None
