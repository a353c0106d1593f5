"""Appendix A: ART, LETTERS, ARCHITECTURE, SERMONIZING, FORTIFICATION, numbers worked by hand."""

from __future__ import annotations

from typing import Any

from maild_rules.renaissance import works
from maild_rules.renaissance.context import Ctx
from tests.renaissance_fixtures import month_ctx, run_end_steps


def persona(pid: str, where: str | None = "Florence", skills: dict[str, int] | None = None, **kw: Any
            ) -> dict[str, Any]:
    p = {"id": pid, "name": f"P{pid}", "family": f"F{pid[:2]}", "religion": "catholic", "alive": True,
         "popularity": 100, "piety": 0, "morale": 500, "skills": dict(skills or {}),
         "assets": {"ducats": 100_000}, "location": where, "at_sea": None, "inside": True, "with": None}
    p.update(kw)
    return p


def location(name: str, **kw: Any) -> dict[str, Any]:
    loc = {"name": name, "population": 70_000, "loyalty": 500, "religion": "catholic", "harbor": None,
           "offices": {}, "far": 40, "fas": 60, "towers": [{"name": "Palazzo", "fas": 20}]}
    loc.update(kw)
    return loc


def make_ctx(month: int, personae: list[dict[str, Any]], locations: list[dict[str, Any]] | None = None) -> Ctx:
    return month_ctx(personae, locations or [location("Florence"), location("Siena")], month)


def end_of_turn(ctx: Ctx) -> None:
    run_end_steps(ctx, works)


# --- art ----------------------------------------------------------------------------------------------------

def test_art_in_august_costs_1000_and_gives_the_sponsor_10_percent_of_the_art_rating() -> None:
    artist, sponsor = persona("0101", skills={"art": 456}), persona("0202")
    ctx = make_ctx(8, [artist, sponsor])
    out = works.work(ctx, artist, {"work": "art", "target": "0202"})
    assert out.ok, out.text
    # 10% of 456 = 45.6 -> 45.
    assert (sponsor["popularity"], artist["assets"]["ducats"]) == (145, 99_000)
    assert ctx.news and "work of art" in ctx.news[0]
    # One work of art a turn.
    assert not works.work(ctx, artist, {"work": "art", "target": "0202"}).ok
    assert sponsor["popularity"] == 145


def test_art_only_in_may_august_november() -> None:
    for month, ok in ((5, True), (8, True), (11, True), (6, False), (12, False)):
        artist, sponsor = persona("0101", skills={"art": 100}), persona("0202")
        assert works.work(make_ctx(month, [artist, sponsor]), artist, {"work": "art", "target": "0202"}).ok is ok


def test_negative_art_multipliers() -> None:
    # Art 800: .0125 x 800 = 10 points; same religion x2 = 20; same start x2 = 20; both x4 = 40.
    cases = [("jewish", "Siena", 10), ("catholic", "Siena", 20), ("jewish", "Florence", 20),
             ("catholic", "Florence", 40)]
    for religion, where, loss in cases:
        artist = persona("0101", skills={"art": 800})
        victim = persona("0202", where=where, religion=religion)
        ctx = make_ctx(11, [artist, victim])
        assert works.work(ctx, artist, {"work": "negative_art", "target": "0202"}).ok
        assert victim["popularity"] == 100 - loss, (religion, where)
        assert artist["assets"]["ducats"] == 99_000


def test_negative_art_drops_the_fraction() -> None:
    # Art 456, quadrupled: .0125 x 456 x 4 = 22.8 -> 22 (not 23).
    artist, victim = persona("0101", skills={"art": 456}), persona("0202")
    ctx = make_ctx(5, [artist, victim])
    assert works.work(ctx, artist, {"work": "negative_art", "target": "0202"}).ok
    assert victim["popularity"] == 78
    # In lieu of ordinary art: no second work of art this turn.
    assert not works.work(ctx, artist, {"work": "art", "target": "0101"}).ok


# --- letters ------------------------------------------------------------------------------------------------

def test_letters_any_turn_100_ducats_sponsor_gets_2_percent() -> None:
    author, sponsor = persona("0101", skills={"letters": 760}), persona("0202")
    ctx = make_ctx(3, [author, sponsor])
    assert works.work(ctx, author, {"work": "letters", "target": "0202"}).ok
    # 2% of 760 = 15.2 -> 15.
    assert (sponsor["popularity"], author["assets"]["ducats"]) == (115, 99_900)
    assert not works.work(ctx, author, {"work": "letters", "target": "0202"}).ok


def test_negative_letters_multipliers() -> None:
    # Letters 800: 800 x .0025 = 2; x2 religion = 4; x2 location = 4; both = 8.
    cases = [("jewish", "Siena", 2), ("catholic", "Siena", 4), ("jewish", "Florence", 4),
             ("catholic", "Florence", 8)]
    for religion, where, loss in cases:
        author = persona("0101", skills={"letters": 800})
        victim = persona("0202", where=where, religion=religion)
        ctx = make_ctx(1, [author, victim])
        assert works.work(ctx, author, {"work": "negative_letters", "target": "0202"}).ok
        assert victim["popularity"] == 100 - loss
        assert author["assets"]["ducats"] == 99_900


def test_works_need_ducats_skill_and_a_target() -> None:
    poor = persona("0101", skills={"art": 500}, assets={"ducats": 999})
    sponsor = persona("0202")
    assert not works.work(make_ctx(8, [poor, sponsor]), poor, {"work": "art", "target": "0202"}).ok
    unskilled = persona("0101")
    assert not works.work(make_ctx(8, [unskilled, sponsor]), unskilled, {"work": "letters", "target": "0202"}).ok
    a = persona("0101", skills={"art": 500})
    assert not works.work(make_ctx(8, [a]), a, {"work": "art", "target": "0999"}).ok
    assert poor["assets"]["ducats"] == 999 and sponsor["popularity"] == 100


# --- architecture -------------------------------------------------------------------------------------------

def test_architecture_settles_at_the_end_of_august_if_he_stayed() -> None:
    arch, sponsor = persona("0101", skills={"architecture": 800}), persona("0202", where="Siena")
    florence = location("Florence", population=70_000, loyalty=500)
    ctx = make_ctx(8, [arch, sponsor], [florence, location("Siena")])
    assert works.work(ctx, arch, {"work": "architecture", "target": "0202"}).ok
    assert arch["assets"]["ducats"] == 100_000  # nothing happens before the end of the month
    end_of_turn(ctx)
    # Sponsor + 20% of 800 = 160; population + 100 x 800/1000 x 500/1000 = 40; 20,000 ducats spent.
    assert (sponsor["popularity"], florence["population"], arch["assets"]["ducats"]) == (260, 70_040, 80_000)
    assert any("architecture" in n for n in ctx.news)


def test_architecture_fails_if_he_moves_away() -> None:
    arch, sponsor = persona("0101", skills={"architecture": 800}), persona("0202")
    florence = location("Florence")
    ctx = make_ctx(8, [arch, sponsor], [florence, location("Siena")])
    assert works.work(ctx, arch, {"work": "architecture", "target": "0202"}).ok
    arch["location"] = "Siena"  # his move order ran after the work order
    end_of_turn(ctx)
    assert (sponsor["popularity"], florence["population"], arch["assets"]["ducats"]) == (100, 70_000, 100_000)
    assert ctx.messages["F01"]


def test_architecture_only_in_august_and_once() -> None:
    arch, sponsor = persona("0101", skills={"architecture": 999}), persona("0202")
    assert not works.work(make_ctx(7, [arch, sponsor]), arch, {"work": "architecture", "target": "0202"}).ok
    ctx = make_ctx(8, [arch, sponsor])
    assert works.work(ctx, arch, {"work": "architecture", "target": "0202"}).ok
    assert not works.work(ctx, arch, {"work": "architecture", "target": "0202"}).ok
    end_of_turn(ctx)
    # 999 // 5 = 199 (20% of 999 = 199.8); population + 100 x .999 x .5 = 49.95 -> 49.
    assert sponsor["popularity"] == 299
    assert ctx.state["locations"]["Florence"]["population"] == 70_049


# --- sermons ------------------------------------------------------------------------------------------------

def test_sermon_to_troops_raises_morale_by_one_percent() -> None:
    priest, captain = persona("0101", skills={"sermonizing": 650}), persona("0202", morale=300)
    ctx = make_ctx(1, [priest, captain])
    assert works.sermon(ctx, priest, {"target": "0202"}).ok
    assert captain["morale"] == 306  # 1% of 650 = 6.5 -> 6
    assert not works.sermon(ctx, priest, {"target": "populace"}).ok  # one sermon a turn


def test_sermon_to_troops_refusals() -> None:
    priest = persona("0101", skills={"sermonizing": 650})
    other_faith = persona("0202", religion="orthodox")
    assert not works.sermon(make_ctx(1, [priest, other_faith]), priest, {"target": "0202"}).ok
    sunni_priest, sunni = persona("0101", skills={"sermonizing": 650}, religion="sunni"), persona("0202",
                                                                                               religion="sunni")
    assert not works.sermon(make_ctx(1, [sunni_priest, sunni]), sunni_priest, {"target": "0202"}).ok
    away = persona("0202", where="Siena")
    assert not works.sermon(make_ctx(1, [priest, away]), priest, {"target": "0202"}).ok
    weak = persona("0101", skills={"sermonizing": 99})
    here = persona("0202")
    assert not works.sermon(make_ctx(1, [weak, here]), weak, {"target": "0202"}).ok
    assert other_faith["morale"] == sunni["morale"] == away["morale"] == here["morale"] == 500


def test_sermon_to_the_populace_raises_loyalty_where_the_sovereign_shares_the_faith() -> None:
    priest = persona("0101", skills={"sermonizing": 420})
    sovereign = persona("0303", where="Siena")
    florence = location("Florence", loyalty=500, offices={"sovereign": "0303"})
    ctx = make_ctx(1, [priest, sovereign], [florence, location("Siena")])
    assert works.sermon(ctx, priest, {"target": "populace"}).ok
    assert florence["loyalty"] == 504  # 1% of 420 = 4.2 -> 4
    # An Orthodox sovereign: no sermon; a non-player sovereign: the location's religion decides.
    sovereign["religion"] = "orthodox"
    priest2 = persona("0102", skills={"sermonizing": 420})
    assert not works.sermon(make_ctx(1, [priest2, sovereign], [florence]), priest2, {"target": "populace"}).ok
    milan = location("Florence", loyalty=500, religion="catholic", offices={"sovereign": "Ludovico Sforza"})
    assert works.sermon(make_ctx(1, [priest2], [milan]), priest2, {"target": "populace"}).ok
    assert milan["loyalty"] == 504
    milan2 = location("Florence", loyalty=500, religion="sunni", offices={"sovereign": "Bayezid II"})
    priest3 = persona("0103", skills={"sermonizing": 420})
    assert not works.sermon(make_ctx(1, [priest3], [milan2]), priest3, {"target": "populace"}).ok


# --- fortification ------------------------------------------------------------------------------------------

def test_fortify_fas_costs_a_ducat_a_head_and_adds_the_square_root_of_the_skill() -> None:
    eng = persona("0101", skills={"fortification": 500})
    florence = location("Florence", population=70_000, fas=60, far=40)
    ctx = make_ctx(1, [eng], [florence])
    assert works.fortify(ctx, eng, {"measure": "fas"}).ok
    # sqrt 500 = 22.36 -> 22; 70,000 ducats.
    assert (florence["fas"], florence["far"], eng["assets"]["ducats"]) == (82, 40, 30_000)
    assert not works.fortify(ctx, eng, {"measure": "far"}).ok  # one measure a turn


def test_fortify_small_town_pays_at_least_1000_and_far_works_too() -> None:
    eng = persona("0101", skills={"fortification": 81})
    town = location("Florence", population=400, far=0)
    ctx = make_ctx(1, [eng], [town])
    assert works.fortify(ctx, eng, {"measure": "far"}).ok
    assert (town["far"], eng["assets"]["ducats"]) == (9, 99_000)  # sqrt 81 = 9; max(400, 1000)


def test_fortify_tower_costs_1000_and_is_capped_at_999() -> None:
    eng = persona("0101", skills={"fortification": 999})
    florence = location("Florence", towers=[{"name": "A", "fas": 20}, {"name": "B", "fas": 990}])
    ctx = make_ctx(1, [eng], [florence])
    assert works.fortify(ctx, eng, {"measure": "tower", "tower": 2}).ok
    assert florence["towers"][1]["fas"] == 999  # 990 + 31 (sqrt 999 = 31.6) capped
    assert eng["assets"]["ducats"] == 99_000
    eng2 = persona("0102", skills={"fortification": 999})
    ctx2 = make_ctx(1, [eng2], [florence])
    assert works.fortify(ctx2, eng2, {"measure": "tower"}).ok
    assert florence["towers"][0]["fas"] == 51  # 20 + 31
    eng3 = persona("0103", skills={"fortification": 9})
    out = works.fortify(make_ctx(1, [eng3], [florence]), eng3, {"measure": "tower", "tower": 3})
    assert not out.ok and "no tower number 3" in out.text
    assert eng3["assets"]["ducats"] == 100_000


def test_fortify_needs_to_start_inside_and_enough_ducats() -> None:
    outside = persona("0101", skills={"fortification": 500}, inside=False)
    florence = location("Florence")
    assert not works.fortify(make_ctx(1, [outside], [florence]), outside, {"measure": "fas"}).ok
    poor = persona("0102", skills={"fortification": 500}, assets={"ducats": 69_999})
    assert not works.fortify(make_ctx(1, [poor], [florence]), poor, {"measure": "fas"}).ok
    assert florence["fas"] == 60 and poor["assets"]["ducats"] == 69_999
