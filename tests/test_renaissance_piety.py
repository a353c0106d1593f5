"""REPUTATION FOR PIETY and charity: numbers worked by hand from the rules text."""

from __future__ import annotations

from typing import Any

from maild_rules.renaissance import piety
from maild_rules.renaissance.context import Ctx
from tests.renaissance_fixtures import month_ctx, run_end_steps


def persona(pid: str, religion: str = "catholic", where: str | None = "Rome", **kw: Any) -> dict[str, Any]:
    p = {"id": pid, "name": f"P{pid}", "family": f"F{pid[:2]}", "religion": religion, "alive": True,
         "popularity": 100, "piety": 0, "morale": 0, "skills": {}, "assets": {"ducats": 100_000},
         "location": where, "inside": True, "with": None, "titles": []}
    p.update(kw)
    return p


def location(name: str, **kw: Any) -> dict[str, Any]:
    loc = {"name": name, "population": 10_000, "loyalty": 500, "religion": "catholic", "harbor": None,
           "offices": {}, "see": None}
    loc.update(kw)
    return loc


def make_ctx(month: int, personae: list[dict[str, Any]], locations: list[dict[str, Any]]) -> Ctx:
    return month_ctx(personae, locations, month)


def end_of_turn(ctx: Ctx) -> None:
    run_end_steps(ctx, piety)


# --- pilgrimage ---------------------------------------------------------------------------------------------

def test_pilgrimage_to_rome_in_february_gives_30_piety_and_3_popularity() -> None:
    # Table: Feb. Rome(30), Catholic. Popularity rises by 10% of the piety gained: 30 * 10% = 3.
    p = persona("0101")
    ctx = make_ctx(2, [p], [location("Rome")])
    out = piety.pilgrimage(ctx, p, {})
    assert out.ok, out.text
    assert (p["piety"], p["popularity"]) == (30, 103)
    # One pilgrimage a month.
    assert not piety.pilgrimage(ctx, p, {}).ok
    assert p["piety"] == 30


def test_pilgrimage_needs_the_right_month_inside_and_religion() -> None:
    p = persona("0101")
    assert not piety.pilgrimage(make_ctx(3, [p], [location("Rome")]), p, {}).ok  # March: not in the table
    outside = persona("0102", inside=False)
    assert not piety.pilgrimage(make_ctx(2, [outside], [location("Rome")]), outside, {}).ok
    jew = persona("0103", religion="jewish")
    assert not piety.pilgrimage(make_ctx(2, [jew], [location("Rome")]), jew, {}).ok
    assert p["piety"] == outside["piety"] == jew["piety"] == 0


def test_pilgrimage_counts_where_he_started_the_month_even_if_he_has_left() -> None:
    p = persona("0101", where="Mecca", religion="sunni")
    ctx = make_ctx(4, [p], [location("Mecca")])
    p["location"] = "Jidda"  # moved earlier in the turn; the rule asks where he was at the start
    assert piety.pilgrimage(ctx, p, {}).ok
    # Apr. Mecca(200) for Shia/Sunni: piety 200, popularity 100 + 20.
    assert (p["piety"], p["popularity"]) == (200, 120)


def test_druses_follow_the_moslems_and_monophysites_the_orthodox() -> None:
    druse = persona("0101", where="Mecca", religion="druse")
    assert piety.pilgrimage(make_ctx(4, [druse], [location("Mecca")]), druse, {}).ok
    assert druse["piety"] == 200
    mono = persona("0102", where="Mount Athos", religion="monophysite")
    assert piety.pilgrimage(make_ctx(12, [mono], [location("Mount Athos")]), mono, {}).ok
    assert mono["piety"] == 50  # Dec. Mount Athos(50), Orthodox column


def test_reconstructed_table_readings() -> None:
    # S1: Jerusalem in June (40) and September (40) are the Jewish column (Shavuot, Sukkot), beside
    # Passover's Jerusalem(120) in April; the Moslems have nothing in Jerusalem.
    jerusalem = location("Jerusalem")
    assert piety.pilgrimage_points(jerusalem, "jewish", 6) == 40
    assert piety.pilgrimage_points(jerusalem, "jewish", 9) == 40
    assert piety.pilgrimage_points(jerusalem, "jewish", 4) == 120
    assert piety.pilgrimage_points(jerusalem, "sunni", 6) == 0
    assert piety.pilgrimage_points(jerusalem, "catholic", 4) == 100
    assert piety.pilgrimage_points(jerusalem, "orthodox", 4) == 100
    # Benares(60) Buddhist, Benares(100) Hindu; Gaya(30) Buddhist, Gaya(50) Hindu.
    assert piety.pilgrimage_points(location("Benares"), "buddhist", 4) == 60
    assert piety.pilgrimage_points(location("Benares"), "hindu", 4) == 100
    assert piety.pilgrimage_points(location("Gaya"), "hindu", 12) == 50
    assert piety.pilgrimage_points(location("Santiago_de_Compostela"), "catholic", 9) == 50


def test_location_pilgrimage_data_overrides_the_table() -> None:
    p = persona("0101", where="Florence")
    ctx = make_ctx(5, [p], [location("Florence", pilgrimage={"catholic": [[5, 15]]})])
    assert piety.pilgrimage(ctx, p, {}).ok
    assert (p["piety"], p["popularity"]) == (15, 101)  # 15 * 10% = 1.5, rounded down to 1
    # An empty entry means "no centre", even for a name the table knows.
    q = persona("0102")
    assert not piety.pilgrimage(make_ctx(2, [q], [location("Rome", pilgrimage={})]), q, {}).ok


# --- veneration ---------------------------------------------------------------------------------------------

def test_relics_held_at_the_end_of_the_turn_give_their_square() -> None:
    p = persona("0101")
    p["assets"]["relic"] = 3
    ctx = make_ctx(4, [p], [location("Rome")])
    assert piety.venerate(ctx, p, {}).ok
    assert p["piety"] == 0  # nothing until the end of the turn
    p["assets"]["relic"] = 7  # bought more later in the month
    end_of_turn(ctx)
    # 7 relics: 7^2 = 49 piety; popularity + 4 (4.9 rounded down).
    assert (p["piety"], p["popularity"]) == (49, 104)


def test_veneration_is_capped_at_100_and_only_in_april_for_the_right_faith() -> None:
    p = persona("0101", religion="orthodox")
    p["assets"]["icon"] = 11  # 121 > 100
    ctx = make_ctx(4, [p], [location("Rome")])
    assert piety.venerate(ctx, p, {}).ok
    assert not piety.venerate(ctx, p, {}).ok  # once a month
    end_of_turn(ctx)
    assert (p["piety"], p["popularity"]) == (100, 110)
    c = persona("0102")
    c["assets"]["relic"] = 5
    assert not piety.venerate(make_ctx(5, [c], [location("Rome")]), c, {}).ok  # May
    s = persona("0103", religion="sunni")
    assert not piety.venerate(make_ctx(4, [s], [location("Rome")]), s, {}).ok


# --- alms and charity ---------------------------------------------------------------------------------------

def test_alms_one_point_per_100_ducats_and_100_a_year() -> None:
    p = persona("0101", religion="shia")
    ctx = make_ctx(4, [p], [location("Rome")])
    # 4,250 ducats: 42 points, 4,200 ducats disbursed; popularity + 4.
    assert piety.alms(ctx, p, {"ducats": 4250}).ok
    assert (p["piety"], p["popularity"], p["assets"]["ducats"]) == (42, 104, 95_800)
    # Another 10,000 would be 100 points; only 100 - 42 = 58 remain this year: 5,800 ducats.
    assert piety.alms(ctx, p, {"ducats": 10_000}).ok
    assert (p["piety"], p["assets"]["ducats"], p["alms_year"]) == (100, 90_000, {"1493": 100})
    assert not piety.alms(ctx, p, {"ducats": 1000}).ok
    # Next April is a new year.
    ctx2 = make_ctx(4, [p], [location("Rome")])
    ctx2.state["calendar"]["year"] = 1494
    assert piety.alms(ctx2, p, {"ducats": 1000}).ok
    assert p["alms_year"] == {"1493": 100, "1494": 10}


def test_alms_only_april_only_shia_or_sunni() -> None:
    s = persona("0101", religion="sunni")
    assert not piety.alms(make_ctx(5, [s], [location("Rome")]), s, {"ducats": 1000}).ok
    for religion in ("catholic", "druse"):
        p = persona("0102", religion=religion)
        assert not piety.alms(make_ctx(4, [p], [location("Rome")]), p, {"ducats": 1000}).ok
    poor = persona("0103", religion="sunni", assets={"ducats": 50})
    assert not piety.alms(make_ctx(4, [poor], [location("Rome")]), poor, {"ducats": 1000}).ok


def test_charity_one_popularity_point_per_thousand_ducats() -> None:
    p = persona("0101")
    ctx = make_ctx(7, [p], [location("Rome")])
    # 5,600 ducats: 5 points for 5,000 ducats; the 600 stay in his purse.
    assert piety.charity(ctx, p, {"ducats": 5600}).ok
    assert (p["popularity"], p["assets"]["ducats"], p["piety"]) == (105, 95_000, 0)
    assert not piety.charity(ctx, p, {"ducats": 999}).ok
    assert not piety.charity(ctx, p, {"ducats": 200_000}).ok
    assert p["assets"]["ducats"] == 95_000


# --- indulgences --------------------------------------------------------------------------------------------

def _see() -> list[dict[str, Any]]:
    return [location("Milan", see="Milan", offices={"archbishop": "0101"}),
            location("Pavia", see="Milan"), location("Genoa", see="Genoa", offices={"archbishop": "0909"})]


def test_archbishop_grants_an_indulgence_within_his_see_in_february() -> None:
    arch, ben = persona("0101", where="Pavia"), persona("0202", where="Pavia")
    ctx = make_ctx(2, [arch, ben], _see())
    out = piety.indulgence(ctx, arch, {"beneficiary": "0202"})
    assert out.ok, out.text
    # +20 piety, popularity + 2 (10% of 20).
    assert (ben["piety"], ben["popularity"]) == (20, 102)
    assert ctx.messages["F02"]
    # One indulgence a month per beneficiary.
    assert not piety.indulgence(ctx, arch, {"beneficiary": "0202"}).ok
    assert ben["piety"] == 20


def test_indulgence_refused_outside_the_see_in_other_months_and_to_non_catholics() -> None:
    arch, ben = persona("0101", where="Genoa"), persona("0202", where="Genoa")
    assert not piety.indulgence(make_ctx(2, [arch, ben], _see()), arch, {"beneficiary": "0202"}).ok
    arch, ben = persona("0101", where="Milan"), persona("0202", where="Milan")
    assert not piety.indulgence(make_ctx(3, [arch, ben], _see()), arch, {"beneficiary": "0202"}).ok
    jew = persona("0202", where="Milan", religion="jewish")
    assert not piety.indulgence(make_ctx(2, [arch, jew], _see()), arch, {"beneficiary": "0202"}).ok
    bishop = persona("0303", where="Milan")  # no office
    ben = persona("0202", where="Milan")
    assert not piety.indulgence(make_ctx(2, [bishop, ben], _see()), bishop, {"beneficiary": "0202"}).ok
    assert ben["piety"] == 0


def test_indulgence_needs_both_to_start_and_be_at_the_same_location() -> None:
    arch, ben = persona("0101", where="Milan"), persona("0202", where="Pavia")
    ctx = make_ctx(2, [arch, ben], _see())
    ben["location"] = "Milan"  # arrived during the month: did not start there
    assert not piety.indulgence(ctx, arch, {"beneficiary": "0202"}).ok
    arch, ben = persona("0101", where="Milan"), persona("0202", where="Milan")
    ctx = make_ctx(2, [arch, ben], _see())
    ben["location"] = "Pavia"  # started there but has left
    assert not piety.indulgence(ctx, arch, {"beneficiary": "0202"}).ok


def test_the_pope_grants_anywhere() -> None:
    pope, ben = persona("0101", where="Genoa", titles=["Pope Alexander VI"]), persona("0202", where="Genoa")
    assert piety.indulgence(make_ctx(2, [pope, ben], _see()), pope, {"beneficiary": "0202"}).ok
    assert ben["piety"] == 20
    pope2, ben2 = persona("0303", where="Genoa"), persona("0404", where="Genoa")
    ctx = make_ctx(2, [pope2, ben2], _see())
    ctx.state["pope"] = "0303"
    assert piety.indulgence(ctx, pope2, {"beneficiary": "0404"}).ok
