"""The merchants' guild (Appendix A, MERCHANTRY). Readings G1... are in docs/renaissance/commerce.md."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance.context import Ctx, Phase
from maild_rules.renaissance.guild import guild_order, guild_ranks, merchant_rank
from maild_rules.renaissance.registry import ACTIONS, STEPS


def persona(pid: str, location: str = "Venice", merchantry: int = 0, guild: str | None = None) -> dict[str, Any]:
    skills = {"merchantry": merchantry} if merchantry else {}
    return {"id": pid, "name": f"P{pid}", "family": "MEDICI", "alive": True, "skills": skills, "guild": guild,
            "location": location, "assets": {}}


def masters(n: int, location: str = "Venice", first: int = 1) -> list[dict[str, Any]]:
    return [persona(f"{first + i:04d}", location, 900, "master") for i in range(n)]


def make_ctx(*personae: dict[str, Any], month: int) -> Ctx:
    state = {"calendar": {"year": 1493, "month": month}, "families": {"MEDICI": {}},
             "personae": {p["id"]: p for p in personae}, "locations": {}}
    ctx = Ctx(state=state, turn=1, rng=random.Random(0))
    for p in personae:
        ctx.start_location[p["id"]] = p["location"]
    return ctx


def test_registered() -> None:
    assert ACTIONS["guild"].phase is Phase.OTHER
    assert (30, "guild_ranks") in [(rank, name) for rank, name, _ in STEPS["end"]]


def test_merchant_rank_is_the_better_of_status_and_rating() -> None:
    assert merchant_rank(persona("9001", merchantry=199)) == 0
    assert merchant_rank(persona("9001", merchantry=200)) == 1
    assert merchant_rank(persona("9001", merchantry=500)) == 2
    assert merchant_rank(persona("9001", merchantry=900)) == 3
    assert merchant_rank(persona("9001", merchantry=600, guild="apprentice")) == 2
    assert merchant_rank(persona("9001", merchantry=0, guild="master")) == 3


def test_master_accepts_an_apprentice_in_december() -> None:
    master, pupil = persona("0101", merchantry=900, guild="master"), persona("0201", merchantry=50)
    ctx = make_ctx(master, pupil, month=12)
    out = guild_order(ctx, master, {"step": "apprentice", "candidate": "0201"})
    assert out.ok, out.text
    assert pupil["guild"] == "apprentice" and pupil["skills"]["merchantry"] == 200  # raised from 50


def test_apprenticeship_only_in_december_by_a_master_sharing_the_start() -> None:
    master, pupil = persona("0101", merchantry=900, guild="master"), persona("0201", merchantry=50)
    ctx = make_ctx(master, pupil, month=11)
    assert not guild_order(ctx, master, {"step": "apprentice", "candidate": "0201"}).ok
    journeyman = persona("0102", merchantry=500, guild="journeyman")
    ctx = make_ctx(master, journeyman, pupil, month=12)
    assert not guild_order(ctx, journeyman, {"step": "apprentice", "candidate": "0201"}).ok
    ctx.start_location["0201"] = "Genoa"  # began the turn elsewhere, though he is at Venice now
    assert not guild_order(ctx, master, {"step": "apprentice", "candidate": "0201"}).ok
    assert pupil["guild"] is None and pupil["skills"]["merchantry"] == 50


def test_five_masters_make_a_journeyman_in_november() -> None:
    apprentice = persona("0201", merchantry=200, guild="apprentice")
    five = masters(5)
    ctx = make_ctx(apprentice, *five, month=11)
    for m in five:
        assert guild_order(ctx, m, {"step": "journeyman", "candidate": "0201"}).ok
    assert apprentice["guild"] == "apprentice"  # counted at the end of the turn
    guild_ranks(ctx)
    assert apprentice["guild"] == "journeyman" and apprentice["skills"]["merchantry"] == 500


def test_four_masters_are_not_enough() -> None:
    apprentice = persona("0201", merchantry=200, guild="apprentice")
    four = masters(4)
    elsewhere = masters(1, location="Genoa", first=50)  # not sharing his starting location
    ctx = make_ctx(apprentice, *four, *elsewhere, month=11)
    for m in four:
        assert guild_order(ctx, m, {"step": "journeyman", "candidate": "0201"}).ok
    assert not guild_order(ctx, elsewhere[0], {"step": "journeyman", "candidate": "0201"}).ok
    guild_ranks(ctx)
    assert apprentice["guild"] == "apprentice" and apprentice["skills"]["merchantry"] == 200


def test_ten_masters_make_a_master_in_october_nine_do_not() -> None:
    journeyman = persona("0201", merchantry=500, guild="journeyman")
    other = persona("0301", merchantry=500, guild="journeyman")
    ten = masters(10)
    ctx = make_ctx(journeyman, other, *ten, month=10)
    for m in ten:
        assert guild_order(ctx, m, {"step": "master", "candidate": "0201"}).ok
    guild_ranks(ctx)
    assert journeyman["guild"] == "master" and journeyman["skills"]["merchantry"] == 900
    nine = masters(9, first=20)
    ctx = make_ctx(other, *nine, month=10)
    for m in nine:
        guild_order(ctx, m, {"step": "master", "candidate": "0301"})
    guild_ranks(ctx)
    assert other["guild"] == "journeyman"


def test_a_master_contributes_to_one_promotion_per_turn() -> None:
    a, b = persona("0201", merchantry=200), persona("0202", merchantry=200)
    master = masters(1)[0]
    ctx = make_ctx(a, b, master, month=11)
    assert guild_order(ctx, master, {"step": "journeyman", "candidate": "0201"}).ok
    assert not guild_order(ctx, master, {"step": "journeyman", "candidate": "0202"}).ok
    assert not guild_order(ctx, master, {"step": "journeyman", "candidate": "0201"}).ok  # no double vote
    assert ctx.scratch["guild"]["approvals"] == {("0201", "journeyman"): {"0001"}}


def test_the_guild_is_climbed_one_rung_at_a_time_g3() -> None:
    outsider = persona("0201", merchantry=100)
    five = masters(5)
    ctx = make_ctx(outsider, *five, month=11)
    assert not guild_order(ctx, five[0], {"step": "journeyman", "candidate": "0201"}).ok
    ctx = make_ctx(outsider, *five, month=10)
    assert not guild_order(ctx, five[0], {"step": "master", "candidate": "0201"}).ok


def test_ranks_by_rating_and_floors_at_the_end_of_the_turn() -> None:
    p199, p200 = persona("0201", merchantry=199), persona("0202", merchantry=200)
    p510, p905 = persona("0203", merchantry=510, guild="apprentice"), persona("0204", merchantry=905)
    sanctioned = persona("0205", merchantry=300, guild="master")
    dead = persona("0206", merchantry=950)
    dead["alive"] = False
    ctx = make_ctx(p199, p200, p510, p905, sanctioned, dead, month=5)
    guild_ranks(ctx)
    assert p199["guild"] is None
    assert p200["guild"] == "apprentice" and p510["guild"] == "journeyman" and p905["guild"] == "master"
    assert p905["skills"]["merchantry"] == 905  # a floor, not a ceiling
    assert sanctioned["skills"]["merchantry"] == 900  # 300 raised to the master's 900
    assert dead["guild"] is None


def test_guild_apprenticeship_would_be_a_twenty_first_skill() -> None:
    # SKILLS counts guild memberships as skills; a candidate with 20 skills other than merchantry is refused (S13),
    # and the master's one promotion of the turn is not used up.
    from maild_rules.renaissance.orderkinds import SKILLS
    [master] = masters(1)
    full = persona("0102")
    full["skills"] = {s: 50 for s in SKILLS if s != "merchantry"}
    other = persona("0103")
    ctx = make_ctx(master, full, other, month=12)
    out = guild_order(ctx, master, {"step": "apprentice", "candidate": "0102"})
    assert not out.ok and "20 skills" in out.text
    assert "merchantry" not in full["skills"] and full["guild"] is None
    assert guild_order(ctx, master, {"step": "apprentice", "candidate": "0103"}).ok
    assert other["skills"]["merchantry"] == 200
