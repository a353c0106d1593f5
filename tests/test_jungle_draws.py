"""Research, production and policy draws of The Law of the Jungle (GAME DECISIONS), worked by hand.

maild.draws.weighted_choice takes one rng.randrange(total of the weights) per draw and picks the first item,
in the order given, whose running sum of weights exceeds the number: with weights [6, 1], 0..5 pick the
first item and 6 the second. The scripted RNG records each randrange's range, so the tests check the totals
(the weights) as well as the picks.
"""

from __future__ import annotations

import pytest

from maild_rules.jungle.council import HANDLERS, Action, Void
from maild_rules.jungle.model import Title
from maild_rules.jungle.research import GAMETURNS, run_draws, weight
from tests.jungle_draws_fixtures import ScriptedRandom, council, draws_world


def act(world, name, keyword, part="morning", **args):
    c = world.characters[name]
    co = council(world, ScriptedRandom([]), part)
    HANDLERS[keyword](co, c, Action(name, keyword, args, part, seq=1, house=c.house))
    return co


def test_weight_is_points_times_skill():
    # (Beakers)*(Wisdom): 3 beakers and Wisdom 4 weigh 12; no beakers, or Wisdom 0, weigh 0.
    assert weight(3, 4) == 12
    assert weight(0, 4) == 0
    assert weight(3, 0) == 0


def test_research_draws_weighted_then_unweighted_with_live_wisdom():
    """Itzel (2 beakers, Wisdom 3) researches Bronze Working, Coyotl (1 beaker, Wisdom 1) Writing.

    gameturn 1: weights [2x3, 1x1] = [6, 1], randrange(7) -> 5 < 6: Itzel; she uses a beaker (1 left) and
                gains 1 Wisdom (4).
    gameturn 2: weights [1x4, 1x1] = [4, 1] (the new Wisdom counts at once, LJ-OQ-19: total 5, not 4),
                randrange(5) -> 4: not < 4, 4-4 = 0 < 1: Coyotl (0 beakers, Wisdom 2).
    gameturn 3: weights [1x4, 0x2] = [4, 0], randrange(4) -> 3: Itzel (0 beakers, Wisdom 5).
    gameturns 4-10: every beaker is used up: uniform, randrange(2) each: 0 Itzel, 1 Coyotl; no Wisdom
                (LJ-OQ-20: only picks with a beaker behind them earn the point).
    """
    w = draws_world()
    w.characters["Itzel"].beakers = 2
    w.characters["Coyotl"].beakers = 1
    act(w, "Itzel", "research", technology="bronze working")
    act(w, "Coyotl", "research", part="afternoon", technology="Writing")
    rng = ScriptedRandom([5, 4, 3, 0, 1, 1, 0, 0, 1, 0])
    entries = run_draws(council(w, rng))
    assert rng.calls == [("randrange", 0, 7), ("randrange", 0, 5), ("randrange", 0, 4)] + [("randrange", 0, 2)] * 7
    research = [e for e in entries if e["kind"] == "research"]
    assert [e["gameturn"] for e in research] == list(range(1, GAMETURNS + 1))
    assert [e["character"] for e in research] == ["Itzel", "Coyotl", "Itzel", "Itzel", "Coyotl", "Coyotl",
                                                  "Itzel", "Itzel", "Coyotl", "Itzel"]
    assert [e["technology"] for e in research][:3] == ["Bronze Working", "Writing", "Bronze Working"]
    assert [e["weighted"] for e in research] == [True] * 3 + [False] * 7
    assert [e["earned"] for e in research] == [True] * 3 + [False] * 7
    itzel, coyotl = w.characters["Itzel"], w.characters["Coyotl"]
    assert (itzel.wisdom, itzel.beakers) == (5, 0)
    assert (coyotl.wisdom, coyotl.beakers) == (2, 0)
    assert w.research == [] and w.draws == entries  # the actions are used; the picks kept for the update


def test_npc_research_when_nobody_researches():
    """No research action: each gameturn a technology is drawn uniformly among the three researchable ones
    (randrange(3): 0 Bronze Working, 1 Writing, 2 Pottery), done by NPCs: nobody gains Wisdom."""
    w = draws_world()
    w.characters["Itzel"].beakers = 4  # beakers without a Research action do nothing
    rng = ScriptedRandom([2, 0, 1, 1, 1, 0, 2, 2, 0, 1])
    entries = run_draws(council(w, rng))
    assert rng.calls == [("randrange", 0, 3)] * 10
    assert [e["technology"] for e in entries] == ["Pottery", "Bronze Working", "Writing", "Writing", "Writing",
                                                  "Bronze Working", "Pottery", "Pottery", "Bronze Working",
                                                  "Writing"]
    assert all(e["character"] is None and not e["earned"] for e in entries)
    assert [c.wisdom for c in w.characters.values()] == [3, 1, 1]


def test_weight_zero_with_beakers_left_is_drawn_when_nothing_else_weighs():
    """LJ-OQ-21: Itzel has 2 beakers but Wisdom 0 (weight 0); Coyotl 1 beaker, Wisdom 1.

    gameturn 1: weights [0, 1], randrange(1) -> 0: 0 < 0 no, 0 < 1: Coyotl (0 beakers, Wisdom 2).
    gameturn 2: weights [0, 0]: uniform, randrange(2) -> 0: Itzel; she holds beakers: uses one, Wisdom 1.
    gameturn 3: weights [1x1, 0] = [1, 0], randrange(1) -> 0: Itzel (0 beakers, Wisdom 2).
    gameturns 4-10: uniform, no gains.
    """
    w = draws_world()
    itzel, coyotl = w.characters["Itzel"], w.characters["Coyotl"]
    itzel.beakers, itzel.wisdom, coyotl.beakers = 2, 0, 1
    act(w, "Itzel", "research", technology="Pottery")
    act(w, "Coyotl", "research", technology="Writing")
    rng = ScriptedRandom([0, 0, 0] + [1] * 7)
    entries = run_draws(council(w, rng))
    assert rng.calls == [("randrange", 0, 1), ("randrange", 0, 2), ("randrange", 0, 1)] + [("randrange", 0, 2)] * 7
    assert [e["character"] for e in entries[:3]] == ["Coyotl", "Itzel", "Itzel"]
    assert [e["weighted"] for e in entries[:3]] == [True, False, True]
    assert [e["earned"] for e in entries[:4]] == [True, True, True, False]
    assert (itzel.wisdom, itzel.beakers, coyotl.wisdom, coyotl.beakers) == (2, 0, 2, 0)


def test_production_per_city_interleaved_with_research_and_npc_production():
    """Tenochtitlan: Itzel (1 hammer, Craftsmanship 2) produces Monument, Coyotl (3 hammers, Craftsmanship 1)
    Warrior; Tlatelolco has nobody producing and two builds; nothing researchable, so no research draws.

    Each gameturn: Tenochtitlan's pick, then Tlatelolco's NPC pick (randrange(2): 0 Warrior, 1 Granary).
    gameturn 1: weights [1x2, 3x1] = [2, 3], randrange(5) -> 1: Itzel (0 hammers, Craftsmanship 3).
    gameturn 2: [0, 3], randrange(3) -> 0: Coyotl (2 hammers, Craftsmanship 2).
    gameturn 3: [0, 2x2] = [0, 4], randrange(4) -> 3: Coyotl (1, 3).
    gameturn 4: [0, 1x3] = [0, 3], randrange(3) -> 2: Coyotl (0, 4).
    gameturns 5-10: uniform, randrange(2): 1 Coyotl, 0 Itzel; no Craftsmanship.
    """
    w = draws_world()
    w.empire.technologies = {}
    w.cities["Tenochtitlan"].builds = {"Warrior": 40, "Monument": 40}
    w.cities["Tlatelolco"] = w.cities["Tenochtitlan"].__class__("Tlatelolco", centre="Tlatelolco",
                                                                 builds={"Warrior": 40, "Granary": 60})
    itzel, coyotl = w.characters["Itzel"], w.characters["Coyotl"]
    itzel.hammers, itzel.craft, coyotl.hammers = 1, 2, 3
    act(w, "Itzel", "produce", item="monument")
    act(w, "Coyotl", "produce", item="Warrior")
    script = [1, 0, 0, 1, 3, 0, 2, 1] + [1, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 0]
    rng = ScriptedRandom(script)
    entries = run_draws(council(w, rng))
    assert rng.calls[:8] == [("randrange", 0, n) for n in (5, 2, 3, 2, 4, 2, 3, 2)]
    assert rng.calls[8:] == [("randrange", 0, 2)] * 12
    tenoch = [e for e in entries if e["kind"] == "production" and e["city"] == "Tenochtitlan"]
    tlat = [e for e in entries if e["kind"] == "production" and e["city"] == "Tlatelolco"]
    assert [e["character"] for e in tenoch] == ["Itzel", "Coyotl", "Coyotl", "Coyotl", "Coyotl", "Itzel",
                                                "Coyotl", "Itzel", "Coyotl", "Itzel"]
    assert [e["item"] for e in tenoch][:2] == ["Monument", "Warrior"]
    assert [e["earned"] for e in tenoch] == [True] * 4 + [False] * 6
    assert [e["item"] for e in tlat] == ["Warrior", "Granary", "Warrior", "Granary", "Warrior", "Granary",
                                         "Warrior", "Warrior", "Granary", "Warrior"]
    assert all(e["character"] is None for e in tlat)
    assert (itzel.craft, itzel.hammers, coyotl.craft, coyotl.hammers) == (3, 0, 4, 0)
    assert not [e for e in entries if e["kind"] == "research"]  # nothing researchable: no research draws


def test_research_and_produce_are_void_when_not_valid():
    w = draws_world()
    with pytest.raises(Void, match="no science beakers"):
        act(w, "Itzel", "research", technology="Writing")
    w.characters["Itzel"].beakers = 1
    with pytest.raises(Void, match="not a technology the empire can research"):
        act(w, "Itzel", "research", technology="Iron Working")
    act(w, "Itzel", "research", technology="Writing")
    # LJ-OQ-22: one research action a session; a second one (even for another technology) is void.
    with pytest.raises(Void, match="already researches Writing"):
        act(w, "Itzel", "research", part="afternoon", technology="Pottery")
    assert w.research == [{"character": "Itzel", "technology": "Writing", "part": "morning"}]
    with pytest.raises(Void, match="no production hammers"):
        act(w, "Coyotl", "produce", item="Warrior")
    w.characters["Coyotl"].hammers = 2
    with pytest.raises(Void, match="cannot be produced in Tenochtitlan"):
        act(w, "Coyotl", "produce", item="Warrior")  # Tenochtitlan has no builds yet
    w.cities["Tenochtitlan"].builds = {"Warrior": 40}
    w.characters["Coyotl"].city = None
    with pytest.raises(Void, match="not in a city"):
        act(w, "Coyotl", "produce", item="Warrior")


def test_dead_researchers_leave_the_draw_and_houses_hear_what_they_earned():
    """Xochitl (1 beaker, Wisdom 1) researches Pottery and dies before the Evening; Itzel (1 beaker, Wisdom 3)
    Writing. gameturn 1: Itzel alone, weight 3, randrange(3) -> 2: Itzel (Wisdom 4); gameturns 2-10: her
    beaker is used: uniform among one action, randrange(1) -> 0."""
    w = draws_world()
    w.characters["Itzel"].beakers = 1
    w.characters["Xochitl"].beakers = 1
    act(w, "Xochitl", "research", technology="Pottery")
    act(w, "Itzel", "research", technology="Writing")
    w.characters["Xochitl"].alive = False
    rng = ScriptedRandom([2] + [0] * 9)
    co = council(w, rng)
    run_draws(co)
    assert rng.calls == [("randrange", 0, 3)] + [("randrange", 0, 1)] * 9
    ana = [r.text for r in co.reports if r.house == "Ana"]
    assert ana == ["Itzel's research of Writing was picked in gameturns 1, 2, 3, 4, 5, 6, 7, 8, 9, 10: "
                   "+1 Wisdom (now 4); 9 picks without beakers earned none."]
    news = [r.text for r in co.reports if r.house is None]
    assert news == ["Research in the ten gameturns: Writing 10 (Itzel 10)."]


# -- policies ------------------------------------------------------------------------------------------------

def test_support_policy_spends_fame_at_once_and_is_void_beyond_it():
    w = draws_world()
    act(w, "Itzel", "support policy", policy="tradition", fame=3)
    assert w.characters["Itzel"].fame == 2  # 5 - 3, spent when the action resolves (LJ-OQ-25)
    assert w.policy_support == [{"character": "Itzel", "policy": "Tradition", "fame": 3, "session": 3}]
    with pytest.raises(Void, match="has 2 Fame, not the 3"):
        act(w, "Itzel", "support policy", part="afternoon", policy="Liberty", fame=3)
    with pytest.raises(Void, match="not a policy the empire can adopt"):
        act(w, "Coyotl", "support policy", policy="Piety", fame=1)
    with pytest.raises(Void, match="how much Fame"):
        act(w, "Coyotl", "support policy", policy="Liberty", fame=0)
    assert w.characters["Coyotl"].fame == 4


def test_policy_draw_weighted_by_fame_spent_makes_the_drawn_supporter_minister():
    """Supports in order: Itzel 3 Fame for Tradition, Coyotl 2 for Liberty, Xochitl 1 for Tradition.
    Weights [3, 2, 1], randrange(6) -> 4: not < 3 (4-3 = 1), 1 < 2: Coyotl: Liberty is adopted (era 2) and
    Coyotl is "Minister of Policy Liberty (2)". Every support is used up; the policy is no longer due."""
    w = draws_world()
    w.empire.technologies = {}
    act(w, "Itzel", "support policy", policy="Tradition", fame=3)
    act(w, "Coyotl", "support policy", policy="Liberty", fame=2)
    act(w, "Xochitl", "support policy", policy="Tradition", fame=1)
    w.empire.policy_due = True
    rng = ScriptedRandom([4])
    entries = run_draws(council(w, rng))
    assert rng.calls == [("randrange", 0, 6)]
    assert entries == [{"kind": "policy", "policy": "Liberty", "character": "Coyotl", "house": "Ben", "era": 2,
                        "deferred": False}]
    assert w.characters["Coyotl"].titles == [Title("Minister", "Liberty", 2)]
    assert w.characters["Coyotl"].titles[0].label() == "Minister of Policy Liberty (2)"
    assert w.characters["Itzel"].titles == []  # the drawn supporter only, not every supporter
    assert w.policy_support == [] and not w.empire.policy_due


def test_policy_support_stands_until_due_and_adoption_is_deferred_without_support():
    w = draws_world()
    w.empire.technologies = {}
    act(w, "Itzel", "support policy", policy="Tradition", fame=1)
    rng = ScriptedRandom([])
    assert run_draws(council(w, rng)) == []  # not due: no draw, the support stands for a later session
    assert len(w.policy_support) == 1
    w.policy_support = []
    w.empire.policy_due = True
    entries = run_draws(council(w, rng))
    assert entries == [{"kind": "policy", "policy": None, "character": None, "house": None, "era": None,
                        "deferred": True}]
    assert w.empire.policy_due and rng.calls == []  # still due: deferred to a future council session


def test_a_project_the_update_took_off_the_list_lapses():
    """Itzel researches Writing in the Morning; an update at the Afternoon's start makes Writing known and
    leaves Pottery: her action lapses, and the ten gameturns are the NPCs' among Pottery alone
    (randrange(1) each)."""
    w = draws_world()
    w.characters["Itzel"].beakers = 2
    act(w, "Itzel", "research", technology="Writing")
    w.empire.technologies = {"Pottery": 1}
    rng = ScriptedRandom([0] * 10)
    co = council(w, rng)
    entries = run_draws(co)
    assert rng.calls == [("randrange", 0, 1)] * 10
    assert {e["technology"] for e in entries} == {"Pottery"} and w.characters["Itzel"].wisdom == 3
    assert [r.text for r in co.reports if r.house == "Ana"] == [
        "Itzel's research of Writing lapsed: the GM's update took it off the list."]
