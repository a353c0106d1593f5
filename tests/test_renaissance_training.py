"""SKILLS: training, numbers worked by hand."""

from __future__ import annotations

from typing import Any

from maild_rules.renaissance import training
from maild_rules.renaissance.context import Ctx
from tests.renaissance_fixtures import month_ctx


def persona(pid: str, where: str | None = "Pisa", skills: dict[str, int] | None = None, **kw: Any) -> dict[str, Any]:
    p = {"id": pid, "name": f"P{pid}", "family": f"F{pid[:2]}", "religion": "catholic", "alive": True,
         "popularity": 100, "piety": 0, "skills": dict(skills or {}), "assets": {"ducats": 0},
         "location": where, "at_sea": None, "inside": True, "with": None}
    p.update(kw)
    return p


def make_ctx(personae: list[dict[str, Any]]) -> Ctx:
    return month_ctx(personae, [{"name": "Pisa"}, {"name": "Lucca"}])


def test_trainee_gains_the_square_root_of_the_difference_truncated() -> None:
    # 500 - 100 = 400, sqrt 400 = 20: 100 -> 120.
    master, pupil = persona("0101", skills={"merchantry": 500}), persona("0102", skills={"merchantry": 100})
    ctx = make_ctx([master, pupil])
    out = training.instruct(ctx, master, {"trainee": "0102", "skill": "m"})
    assert out.ok, out.text
    assert pupil["skills"]["merchantry"] == 120
    # 500 - 401 = 99, sqrt 99 = 9.95: truncated to 9 (S10).
    assert training.training_gain(500, 401) == 9
    # A difference of 3: sqrt 3 = 1.73 -> 1; equal or lower ratings teach nothing.
    assert training.training_gain(4, 1) == 1
    assert training.training_gain(300, 300) == 0


def test_a_trainee_without_the_skill_starts_from_zero_and_the_skill_may_be_written_by_name() -> None:
    # Sermonizing counts as a skill: 225 - 0 = 225, sqrt = 15.
    priest, pupil = persona("0101", skills={"sermonizing": 225}), persona("0202")
    ctx = make_ctx([priest, pupil])
    assert training.instruct(ctx, priest, {"trainee": "0202", "skill": "Sermonizing"}).ok
    assert pupil["skills"] == {"sermonizing": 15}
    assert ctx.messages["F02"]  # the other family hears of it


def test_only_once_per_turn_per_trainee_whatever_the_skill() -> None:
    t = persona("0101", skills={"art": 900, "letters": 900})
    a, b = persona("0102"), persona("0103")
    ctx = make_ctx([t, a, b])
    assert training.instruct(ctx, t, {"trainee": "0102", "skill": "t"}).ok
    assert a["skills"]["art"] == 30  # sqrt 900
    assert not training.instruct(ctx, t, {"trainee": "0102", "skill": "l"}).ok
    assert "letters" not in a["skills"]
    # Another trainee the same turn is fine, and another trainer may train a.
    assert training.instruct(ctx, t, {"trainee": "0103", "skill": "l"}).ok
    other = persona("0104", skills={"art": 66})
    ctx.state["personae"]["0104"] = other
    ctx.start_location["0104"] = "Pisa"
    assert training.instruct(ctx, other, {"trainee": "0102", "skill": "t"}).ok
    assert a["skills"]["art"] == 36  # 66 - 30 = 36, sqrt 6


def test_both_must_start_the_turn_at_the_location_and_be_there() -> None:
    t, p = persona("0101", skills={"art": 400}), persona("0102", where="Lucca")
    ctx = make_ctx([t, p])
    p["location"] = "Pisa"  # arrived during the turn
    assert not training.instruct(ctx, t, {"trainee": "0102", "skill": "t"}).ok
    t, p = persona("0101", skills={"art": 400}), persona("0102")
    ctx = make_ctx([t, p])
    p["location"] = "Lucca"  # left
    assert not training.instruct(ctx, t, {"trainee": "0102", "skill": "t"}).ok
    assert p["skills"] == {}


def test_refusals_change_nothing_and_do_not_use_up_the_turns_training() -> None:
    t, p = persona("0101", skills={"art": 400}), persona("0102", skills={"art": 400}, **{"with": "0303"})
    ctx = make_ctx([t, p])
    assert not training.instruct(ctx, t, {"trainee": "0102", "skill": "t"}).ok  # aboard a ship
    p["with"] = None
    assert not training.instruct(ctx, t, {"trainee": "0102", "skill": "t"}).ok  # not higher
    assert not training.instruct(ctx, t, {"trainee": "0102", "skill": "w"}).ok  # no such skill
    assert not training.instruct(ctx, t, {"trainee": "0101", "skill": "t"}).ok  # himself
    assert p["skills"] == {"art": 400}
    p["skills"]["art"] = 391
    assert training.instruct(ctx, t, {"trainee": "0102", "skill": "t"}).ok
    assert p["skills"]["art"] == 394  # 400 - 391 = 9, sqrt 3


def test_a_passenger_may_not_train_either() -> None:
    # TRAVEL: 'A persona who is "with" another persona may not train, be trained'. Both at Pisa, 400 vs 300 in
    # art: ashore the trainee would gain sqrt(100) = 10; with the trainer aboard 0303's ship, nothing.
    t, p = persona("0101", skills={"art": 400}, **{"with": "0303"}), persona("0102", skills={"art": 300})
    ctx = make_ctx([t, p])
    out = training.instruct(ctx, t, {"trainee": "0102", "skill": "t"})
    assert not out.ok and "aboard" in out.text
    assert p["skills"]["art"] == 300
    t["with"] = None  # ashore (the refusal did not use up the pair's training): 300 + 10 = 310
    assert training.instruct(ctx, t, {"trainee": "0102", "skill": "t"}).ok
    assert p["skills"]["art"] == 310


def test_skills_stop_at_999() -> None:
    t, p = persona("0101", skills={"dueling": 999}), persona("0102", skills={"dueling": 998})
    ctx = make_ctx([t, p])
    assert training.instruct(ctx, t, {"trainee": "0102", "skill": "d"}).ok
    assert p["skills"]["dueling"] == 999


# --- THE PERSONAE FAMILIES: "up to 20 skills" (S13) ---------------------------------------------------------------

def twenty_skills_without(missing: str) -> dict[str, int]:
    """Every skill of the code sheet but one, at 100: 21 skills less one is 20."""
    from maild_rules.renaissance.orderkinds import SKILLS
    assert len(SKILLS) == 21
    return {s: 100 for s in SKILLS if s != missing}


def test_a_twenty_first_skill_is_refused_but_a_held_one_still_rises() -> None:
    master = persona("0101", skills={"art": 500, "letters": 500})
    pupil = persona("0102", skills=twenty_skills_without("art"))
    ctx = make_ctx([master, pupil])
    out = training.instruct(ctx, master, {"trainee": "0102", "skill": "t"})
    assert not out.ok and "20 skills" in out.text and "art" in out.text
    assert "art" not in pupil["skills"]
    # The refusal did not use up the pair's one training this turn (S12): letters 500 - 100 = 400, sqrt 20.
    assert training.instruct(ctx, master, {"trainee": "0102", "skill": "l"}).ok
    assert pupil["skills"]["letters"] == 120


def test_a_skill_at_zero_is_not_held() -> None:
    # Nineteen skills above zero and art written as 0: art is a 20th skill, allowed. 500 - 0 = 500, sqrt 22.36 -> 22.
    skills = twenty_skills_without("art")
    skills["letters"] = 0
    skills["art"] = 0
    master, pupil = persona("0101", skills={"art": 500}), persona("0102", skills=skills)
    ctx = make_ctx([master, pupil])
    assert training.instruct(ctx, master, {"trainee": "0102", "skill": "t"}).ok
    assert pupil["skills"]["art"] == 22
