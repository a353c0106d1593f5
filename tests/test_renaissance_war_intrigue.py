"""ASSASSINATION and DUELING (war/intrigue.py, Appendix A; RW-OQ-46, RW-OQ-47 and readings C14-C16 of
docs/renaissance/war.md, section "control"). Figures worked by hand from the rules' words."""

from __future__ import annotations

from typing import Any

from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.war import intrigue, limits
from tests.renaissance_fixtures import month_ctx
from tests.renaissance_fixtures import war_persona as persona
from tests.renaissance_fixtures import war_town as town


def world(personae: list[dict[str, Any]], locations: list[dict[str, Any]] | None = None) -> Ctx:
    players = {code: {"name": code, "account": {"balance": 100.0, "history": []}} for code in ("LMD", "ADR", "SFO")}
    families = {"MEDICI": {"player": "LMD", "personae": []}, "DORIA": {"player": "ADR", "personae": []},
                "SFORZA": {"player": "SFO", "personae": []}}
    return month_ctx(personae, locations or [town(), town("Florence")], turn=5, families=families, players=players,
                     fees={"conflict_actions": 25, "action": 0.2})


def kk(ctx: Ctx, pid: str, target: str) -> Any:
    return intrigue.assassinate(ctx, ctx.state["personae"][pid], {"target": target})


def conflict_fees(ctx: Ctx, player: str) -> list[float]:
    return [e["amount"] for e in ctx.state["players"][player]["account"]["history"] if e["kind"] == "conflict"]


# ---- assassination ------------------------------------------------------------------------------------------------

def test_an_assassin_beating_rating_plus_troops_kills_crew_not_counted() -> None:
    # Victim: assassination 100 + 150 pikemen = 250 (his 500 crew are not troops). Assassin 300 > 250: dead.
    ctx = world([persona("0101", "MEDICI", skills={"assassination": 300}),
                 persona("0201", "DORIA", skills={"assassination": 100}, assets={"pikeman": 150, "crew": 500})])
    assert kk(ctx, "0101", "0201").ok
    assert ctx.state["personae"]["0201"]["alive"]  # decided once every order has run (RW-OQ-46)
    assert limits.pinned(ctx, "0101")  # "remains at a location for an entire turn"
    intrigue.settle_assassinations(ctx)
    victim = ctx.state["personae"]["0201"]
    assert victim["alive"] is False and victim["died"] == "assassinated at Pisa"
    assert victim["assets"] == {"pikeman": 150, "crew": 500}  # the assassin takes nothing (reading C14)
    # CONFLICT ORDERS: "an assassination order leading to the death of the victim": 25 actions x 0.2 = 5.00.
    assert conflict_fees(ctx, "LMD") == [-5.0]


def test_an_assassin_not_beating_the_defence_fails_and_pays_nothing() -> None:
    # 250 is not greater than 100 + 150 = 250: "succeed when the assassin's ... rating is greater than the total".
    ctx = world([persona("0101", "MEDICI", skills={"assassination": 250}),
                 persona("0201", "DORIA", skills={"assassination": 100}, assets={"pikeman": 150})])
    assert kk(ctx, "0101", "0201").ok
    intrigue.settle_assassinations(ctx)
    assert ctx.state["personae"]["0201"]["alive"]
    assert conflict_fees(ctx, "LMD") == []
    assert any("survived" in m for m in ctx.messages["DORIA"])


def test_the_victims_garrison_does_not_count() -> None:
    # The victim is tenant of Pisa with a garrison of 1,000: "troops (other than garrison troops)". 120 > 100 + 0.
    ctx = world([persona("0101", "MEDICI", skills={"assassination": 120}),
                 persona("0201", "DORIA", skills={"assassination": 100})],
                [town(garrison=1000, offices={"tenant": "0201"})])
    assert kk(ctx, "0101", "0201").ok
    intrigue.settle_assassinations(ctx)
    assert ctx.state["personae"]["0201"]["alive"] is False


def test_joint_assassins_add_their_ratings_even_when_each_alone_would_fail() -> None:
    # Defence 100 + 150 = 250. 0101 (150) alone would fail; with 0102 (120): 150 + 120 = 270 > 250.
    ctx = world([persona("0101", "MEDICI", skills={"assassination": 150}),
                 persona("0102", "MEDICI", skills={"assassination": 120}),
                 persona("0301", "SFORZA", skills={"assassination": 5}),
                 persona("0201", "DORIA", skills={"assassination": 100}, assets={"pikeman": 150})])
    assert kk(ctx, "0101", "0201").ok
    assert kk(ctx, "0102", "0201").ok
    intrigue.settle_assassinations(ctx)
    assert ctx.state["personae"]["0201"]["alive"] is False
    assert conflict_fees(ctx, "LMD") == [-5.0, -5.0]  # each assassin's order led to the death


def test_a_lone_attempt_below_the_defence_fails_at_the_months_end() -> None:
    ctx = world([persona("0101", "MEDICI", skills={"assassination": 150}),
                 persona("0201", "DORIA", skills={"assassination": 100}, assets={"pikeman": 150})])
    assert kk(ctx, "0101", "0201").ok
    intrigue.settle_assassinations(ctx)
    assert ctx.state["personae"]["0201"]["alive"]  # 150 < 250


def test_one_attempt_a_month() -> None:
    ctx = world([persona("0101", "MEDICI", skills={"assassination": 900}), persona("0201", "DORIA"),
                 persona("0301", "SFORZA")])
    assert kk(ctx, "0101", "0201").ok
    outcome = kk(ctx, "0101", "0301")
    assert not outcome.ok and "no more than one" in outcome.text


def test_walls_and_towers_and_starting_places_stop_an_assassin() -> None:
    ctx = world([persona("0101", "MEDICI", skills={"assassination": 900}),
                 persona("0201", "DORIA", inside=False),
                 persona("0301", "SFORZA", where="Florence")])
    assert "other side of the walls" in kk(ctx, "0101", "0201").text  # inside against outside
    assert "did not start" in kk(ctx, "0101", "0301").text  # not his starting location
    ctx.state["personae"]["0201"]["inside"] = True
    ctx.state["locations"]["Pisa"]["towers"] = [{"name": "Torre Doria", "fas": 50, "owner": "DORIA"}]
    assert "tower" in kk(ctx, "0101", "0201").text  # the victim is in his family's tower
    assert not ctx.scratch.get("war.intrigue.attempts")


def test_an_assassin_who_leaves_before_the_months_end_fails() -> None:
    ctx = world([persona("0101", "MEDICI", skills={"assassination": 900}), persona("0201", "DORIA")])
    assert kk(ctx, "0101", "0201").ok
    ctx.state["personae"]["0101"]["location"] = "Florence"  # carried away (he may not move by his own order)
    intrigue.settle_assassinations(ctx)
    assert ctx.state["personae"]["0201"]["alive"]


def test_no_assassination_without_credit() -> None:
    ctx = world([persona("0101", "MEDICI", skills={"assassination": 900}), persona("0201", "DORIA")])
    ctx.state["players"]["LMD"]["account"]["balance"] = -1.0
    assert "CREDIT" in kk(ctx, "0101", "0201").text


# ---- dueling --------------------------------------------------------------------------------------------------------

def kd(ctx: Ctx, pid: str, target: str) -> Any:
    return intrigue.duel(ctx, ctx.state["personae"][pid], {"target": target})


def pop(ctx: Ctx, pid: str) -> int:
    return int(ctx.state["personae"][pid]["popularity"])


def test_a_challenge_costs_the_challenged_twelve_and_gives_the_challenger_six() -> None:
    ctx = world([persona("0101", "MEDICI", popularity=300), persona("0201", "DORIA", popularity=250)])
    assert kd(ctx, "0101", "0201").ok
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (306, 238)  # 250 - 12 = 238; 300 + 12 / 2 = 306
    assert limits.pinned(ctx, "0101")  # "may not move in the same month"
    assert not kd(ctx, "0101", "0201").ok  # "may not challenge any one persona more than once per turn"
    intrigue.settle_duels(ctx)
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (306, 238)  # not answered: no duel


def test_mutual_challenges_make_a_duel_worked_by_hand() -> None:
    # A: popularity 300, dueling 300. B: popularity 250, dueling 100.
    ctx = world([persona("0101", "MEDICI", popularity=300, skills={"dueling": 300}),
                 persona("0201", "DORIA", popularity=250, skills={"dueling": 100})])
    assert kd(ctx, "0101", "0201").ok  # B 250 - 12 = 238, A 300 + 6 = 306
    assert kd(ctx, "0201", "0101").ok  # A 306 - 12 = 294, B 238 + 6 = 244
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (294, 244)
    intrigue.settle_duels(ctx)
    # A wins (300 > 100). B loses 20% of the disparity 200 = 40: 244 - 40 = 204; A gains half of 40: 294 + 20 = 314.
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (314, 204)


def test_the_duel_loss_is_rounded_up_and_the_gain_down() -> None:
    # Dueling 157 against 100: disparity 57, 20% = 11.4 -> 12 lost (a loss, up); half of 12 = 6 gained.
    ctx = world([persona("0101", "MEDICI", popularity=300, skills={"dueling": 100}),
                 persona("0201", "DORIA", popularity=300, skills={"dueling": 157})])
    assert kd(ctx, "0101", "0201").ok  # 0201: 288, 0101: 306
    assert kd(ctx, "0201", "0101").ok  # 0101: 294, 0201: 294
    intrigue.settle_duels(ctx)
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (294 - 12, 294 + 6)


def test_equal_dueling_ratings_make_no_winner() -> None:
    ctx = world([persona("0101", "MEDICI", popularity=300, skills={"dueling": 200}),
                 persona("0201", "DORIA", popularity=300, skills={"dueling": 200})])
    assert kd(ctx, "0101", "0201").ok
    assert kd(ctx, "0201", "0101").ok
    intrigue.settle_duels(ctx)
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (294, 294)  # only the challenges' -12 +6 each (RW-OQ-47)


def test_a_challenge_to_a_higher_rank_is_held_and_void_unless_answered() -> None:
    ctx = world([persona("0101", "MEDICI", popularity=300, rank="count", skills={"dueling": 400}),
                 persona("0201", "DORIA", popularity=300, rank="duke", skills={"dueling": 100})])
    outcome = kd(ctx, "0101", "0201")
    assert outcome.ok and "outranks" in outcome.text
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (300, 300)  # held: it costs nothing
    assert limits.pinned(ctx, "0101")  # but he has issued a challenge: he may not move
    intrigue.settle_duels(ctx)
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (300, 300)  # unanswered: void


def test_a_held_challenge_answered_by_the_higher_rank_makes_a_duel() -> None:
    # The count (dueling 400) challenges the duke (100): held. The duke challenges the count: count 300 - 12 = 288,
    # duke 300 + 6 = 306. The duel: disparity 300, 20% = 60: duke 306 - 60 = 246, count 288 + 30 = 318.
    ctx = world([persona("0101", "MEDICI", popularity=300, rank="count", skills={"dueling": 400}),
                 persona("0201", "DORIA", popularity=300, rank="duke", skills={"dueling": 100})])
    assert kd(ctx, "0101", "0201").ok
    assert kd(ctx, "0201", "0101").ok
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (288, 306)
    intrigue.settle_duels(ctx)
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (318, 246)


def test_who_may_challenge_and_be_challenged() -> None:
    ctx = world([persona("0101", "MEDICI", popularity=199), persona("0102", "MEDICI", popularity=500),
                 persona("0201", "DORIA", female=True), persona("0202", "DORIA"),
                 persona("0301", "SFORZA", where="Florence")],
                [town(offices={"bishop": "0202"}), town("Florence")])
    assert "over 199" in kd(ctx, "0101", "0202").text
    assert "female" in kd(ctx, "0102", "0201").text
    assert "bishop" in kd(ctx, "0102", "0202").text
    assert "did not start" in kd(ctx, "0102", "0301").text
    assert "bishop" in kd(ctx, "0202", "0102").text  # a bishop may not challenge either
    assert not ctx.scratch.get("war.intrigue.challenges")


def test_the_walls_do_not_stop_a_challenge() -> None:
    ctx = world([persona("0101", "MEDICI"), persona("0201", "DORIA", inside=False)])
    assert kd(ctx, "0101", "0201").ok  # "regardless of whether they are on the same side of walls"


def test_a_challenged_persona_with_little_popularity_loses_what_he_has() -> None:
    # 5 points left: he loses 5 (no rating below 0); the challenger gains half of 5 = 2.5 -> 2 (a gain, down).
    ctx = world([persona("0101", "MEDICI", popularity=300), persona("0201", "DORIA", popularity=5)])
    assert kd(ctx, "0101", "0201").ok
    assert (pop(ctx, "0101"), pop(ctx, "0201")) == (302, 0)


# ---- through the month -----------------------------------------------------------------------------------------------

def test_a_month_settles_duels_and_assassinations_after_every_order() -> None:
    import random

    from maild.ruleset import Order, PlacedOrder
    from maild_rules.renaissance.engine import run_month
    from tests.renaissance_fixtures import small_state

    state = small_state()
    state["players"]["ADR"]["account"]["balance"] = 100.0  # CREDIT: the month's fees prepaid
    piero, domenico = state["personae"]["0101"], state["personae"]["0202"]
    piero["skills"]["dueling"] = 100
    domenico["skills"].update({"dueling": 300, "assassination": 500})
    # Giovanni, a Medici, would be in the sovereign's (his brother's) Palazzo Vecchio, beyond an assassin's reach
    # (reading C12): he stays out of all towers.
    state["personae"]["0102"]["outside_towers"] = True

    def placed(player: str, family: str, pid: str, kind: str, target: str, seq: int) -> PlacedOrder:
        args = {"target": target, "family": family, "player": player, "persona": pid, "start": "Florence"}
        return PlacedOrder(Order(1, f"{kind} {target}", kind, args, f"{kind} {target}"), seq)

    orders = {"LMD": [placed("LMD", "MEDICI", "0101", "duel", "0202", 1)],
              "ADR": [placed("ADR", "DORIA", "0202", "duel", "0101", 2),
                      placed("ADR", "DORIA", "0202", "assassinate", "0102", 2)]}
    after = run_month(state, 1, orders, random.Random(1)).ctx.state
    # Piero 420, Domenico 250. Piero's challenge: Domenico 238, Piero 426. Domenico's: Piero 414, Domenico 244.
    # The duel: Domenico wins (300 > 100); disparity 200, 20% = 40: Piero 374, Domenico 244 + 20 = 264.
    assert (after["personae"]["0101"]["popularity"], after["personae"]["0202"]["popularity"]) == (374, 264)
    # Giovanni (assassination 0, no troops: defence 0) dies to 500 > 0; succession replaces him.
    giovanni = after["personae"]["0102"]
    assert giovanni["predecessors"][-1]["died"] == "assassinated at Florence"
    assert [e["amount"] for e in after["players"]["ADR"]["account"]["history"] if e["kind"] == "conflict"] == [-5.0]
