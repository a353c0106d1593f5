"""The session engine of The Law of the Jungle (rules/jungle/engine.py): the order of actions, void actions,
slaves, tenants, plans on both actions, new characters, the sign-up period and the kick-off, with toy handlers
registered for each test (the real ones are the other parts' and have their own tests)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from maild.ruleset import GM_ORDERS
from maild_rules.jungle import engine
from maild_rules.jungle.council import HANDLERS, Action, Council, Void
from maild_rules.jungle.model import Title, World
from maild_rules.jungle.ruleset import Jungle, order_key
from tests.jungle_engine_fixtures import ScriptedRandom, engine_world, enslave, placed


@pytest.fixture
def log(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str, str]]:
    """Toy handlers for the actions the tests use: each records (part, keyword, actor, house credited)."""
    seen: list[tuple[str, str, str, str]] = []

    def record(council: Council, actor: Any, action: Action) -> None:
        seen.append((council.part, action.keyword, actor.name, action.house))
        if action.args.get("void"):
            raise Void(action.args["void"])
        if action.args.get("fame"):
            actor.fame += int(action.args["fame"])
        if action.args.get("boost"):
            council.world.character(action.args["boost"]).fame += 10

    for word in ("train", "attack", "toil", "travel", "move", "purchase", "defend", "recruit"):
        monkeypatch.setitem(HANDLERS, word, record)
    return seen


@pytest.fixture
def no_steps(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The other parts' session steps replaced by the test's own (none unless the test adds them)."""
    steps: dict[str, Any] = {}
    monkeypatch.setattr(engine, "step", lambda name: steps.get(name))
    return steps


def part(world: World, part_: str, orders: dict[str, list[Any]]) -> Council:
    council = Council(world, random.Random(1), part_)
    engine.run_actions(council, engine.gather(council, orders))
    return council


def lines(council: Council, house: str | None) -> list[str]:
    return [r.text for r in council.reports if r.house == house]


# -- the order of actions (CHARACTER ACTIONS, LJ-OQ-26, LJ-OQ-27) ------------------------------------------------
def test_morning_from_highest_to_lowest_fame_ties_by_receipt_order(log: list[Any]) -> None:
    # Fame: Itzel 5, Xolotl 3, Coyotl 3, Tochtli 0. Xolotl and Coyotl tie at 3: Coyotl's mail came first
    # (seq 2 before seq 4), so he acts first (LJ-OQ-26), whatever the names' alphabetical order.
    w = engine_world()
    orders = {"ann": [placed("train", None, 3)], "bob": [placed("train", None, 4)],
              "cat": [placed("train", None, 2)], "dan": [placed("train", None, 1)]}
    part(w, "morning", orders)
    assert [who for _p, _k, who, _h in log] == ["Itzel", "Coyotl", "Xolotl", "Tochtli"]


def test_equal_fame_and_receipt_fall_back_to_the_name(log: list[Any]) -> None:
    # One mail cannot carry two houses, but the same seq can come from orders re-read by the GM: the name
    # makes the order total (Coyotl before Xolotl).
    w = engine_world()
    part(w, "morning", {"bob": [placed("train", None, 5)], "cat": [placed("train", None, 5)]})
    assert [who for _p, _k, who, _h in log] == ["Coyotl", "Xolotl"]


def test_afternoon_from_lowest_to_highest_fame_read_when_the_afternoon_begins(log: list[Any]) -> None:
    # The Morning raises Tochtli's Fame from 0 to 9 (a toy action worth +9 Fame). The Afternoon is ordered by
    # Fame when it begins (LJ-OQ-27): Xolotl 3 (seq 1), Coyotl 3 (seq 2), Itzel 5, Tochtli 9.
    w = engine_world()
    part(w, "morning", {"dan": [placed("train", None, 1, fame=9)]})
    log.clear()
    part(w, "afternoon", {"ann": [placed("train", None, 3)], "bob": [placed("train", None, 1)],
                          "cat": [placed("train", None, 2)], "dan": [placed("train", None, 4)]})
    assert [who for _p, _k, who, _h in log] == ["Xolotl", "Coyotl", "Itzel", "Tochtli"]


def test_the_order_is_fixed_when_the_part_begins(log: list[Any]) -> None:
    # Itzel (Fame 5) acts first and raises Tochtli's Fame from 0 to 10. Re-sorted after her action, Tochtli
    # would come next; the order is fixed when the Morning begins (LJ-OQ-27), so he still acts last:
    # Itzel, Coyotl (3, seq 1), Xolotl (3, seq 2), Tochtli.
    w = engine_world()
    part(w, "morning", {"ann": [placed("train", None, 3, boost="Tochtli")], "cat": [placed("train", None, 1)],
                        "bob": [placed("train", None, 2)], "dan": [placed("train", None, 4)]})
    assert [who for _p, _k, who, _h in log] == ["Itzel", "Coyotl", "Xolotl", "Tochtli"]
    assert w.characters["Tochtli"].fame == 10


# -- void actions ------------------------------------------------------------------------------------------------
def test_a_void_action_is_told_with_its_reason_and_the_others_go_on(log: list[Any]) -> None:
    w = engine_world()
    c = part(w, "morning", {"ann": [placed("attack", None, 1, target="Xolotl", void="Xolotl is not in Texcoco")],
                            "bob": [placed("train", None, 2)]})
    assert "  void: Xolotl is not in Texcoco" in lines(c, "ann")
    assert [who for _p, _k, who, _h in log] == ["Itzel", "Xolotl"]
    assert {"kind": "void", "part": "morning", "character": "Itzel", "action": "attack",
            "reason": "Xolotl is not in Texcoco"} in c.events


def test_an_action_without_a_handler_is_void_never_silent(log: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(HANDLERS, "annex", raising=False)
    w = engine_world()
    c = part(w, "morning", {"ann": [placed("annex", None, 1)]})
    assert lines(c, "ann")[-1] == "  void: annex is not implemented yet; the GM has been told."
    assert any(e["kind"] == "error" and e["action"] == "annex" for e in c.events)


def test_a_character_killed_before_his_turn_does_not_act(log: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    def kill_target(council: Council, actor: Any, action: Action) -> None:
        council.world.character(action.args["target"]).alive = False

    monkeypatch.setitem(HANDLERS, "attack", kill_target)
    w = engine_world()
    c = part(w, "morning", {"ann": [placed("attack", None, 1, target="Tochtli")], "dan": [placed("train", None, 2)]})
    assert "Tochtli: train: void: Tochtli is dead." in lines(c, "dan")
    assert log == []


def test_a_later_line_for_the_same_character_replaces_an_earlier(log: list[Any]) -> None:
    w = engine_world()
    c = part(w, "morning", {"ann": [placed("train", None, 1, line=1), placed("move", None, 1, line=2)]})
    assert [(k, who) for _p, k, who, _h in log] == [("move", "Itzel")]
    assert "Itzel: train: not carried out: a later action for Itzel replaced it." in lines(c, "ann")


def test_an_order_for_another_house_s_character_is_not_carried_out(log: list[Any]) -> None:
    w = engine_world()
    c = part(w, "morning", {"ann": [placed("train", "Xolotl", 1)]})
    assert log == [] and lines(c, "ann") == ["train: not carried out: Xolotl is not of your house."]


def test_resubmission_key_is_the_character_and_pregame_purchases_each_stand() -> None:
    a = placed("attack", "Itzel", 1).order
    b = placed("move", "itzel", 2).order
    assert order_key(a) == order_key(b) == ("itzel",)  # a later action for Itzel replaces the earlier one
    p1, p2 = placed("purchase", "Itzel", 1, line=1, resource="food").order, placed("purchase", "Itzel", 1, line=2,
                                                                                     resource="hammers").order
    assert order_key(p1) != order_key(p2)


# -- new characters (LJ-OQ-30) -----------------------------------------------------------------------------------
def test_a_character_who_came_in_this_session_acts_from_the_next(log: list[Any]) -> None:
    w = engine_world()
    w.characters["Tochtli"].since = 1  # session 1 is being resolved
    c = part(w, "morning", {"dan": [placed("train", None, 1)]})
    assert log == []
    assert "Tochtli: train: not carried out: Tochtli came into the game this session and acts from the next one." \
        in lines(c, "dan")
    w.session = 1  # session 2: he acts
    part(w, "morning", {"dan": [placed("train", None, 1)]})
    assert log == [("morning", "train", "Tochtli", "dan")]


# -- slaves (SLAVE OF CHARACTER X, DEFIANT SLAVE (N), LJ-OQ-28, LJ-OQ-49) ----------------------------------------
def test_the_owner_s_demand_alone_is_followed_for_the_owner_s_house(log: list[Any]) -> None:
    w = engine_world()
    enslave(w, "Tochtli", "Itzel")
    part(w, "morning", {"ann": [placed("move", "Tochtli", 1)]})
    # In the slave's slot (LJ-OQ-28), credited to the owner's house (ann).
    assert log == [("morning", "move", "Tochtli", "ann")]
    assert w.characters["Tochtli"].title("Defiant Slave") is None


def test_the_slave_s_own_action_alone_is_followed_for_his_house(log: list[Any]) -> None:
    w = engine_world()
    enslave(w, "Tochtli", "Itzel")
    part(w, "morning", {"dan": [placed("train", None, 1)]})
    assert log == [("morning", "train", "Tochtli", "dan")]
    assert w.characters["Tochtli"].title("Defiant Slave") is None


def test_both_send_the_slave_s_is_followed_and_he_is_defiant(log: list[Any]) -> None:
    w = engine_world()
    enslave(w, "Tochtli", "Itzel")
    c = part(w, "morning", {"ann": [placed("move", "Tochtli", 1)], "dan": [placed("train", None, 2)]})
    assert log == [("morning", "train", "Tochtli", "dan")]
    assert w.characters["Tochtli"].title("Defiant Slave").n == 1  # N = 0 + 1
    assert any("defied you" in t for t in lines(c, "ann"))
    # Defiant again, attacking his owner while disobeying: N = 1 + 2 = 3.
    log.clear()
    part(w, "morning", {"ann": [placed("move", "Tochtli", 1)], "dan": [placed("attack", None, 2, target="itzel")]})
    assert w.characters["Tochtli"].title("Defiant Slave").n == 3
    assert w.characters["Tochtli"].title("Defiant Slave").label() == "Defiant Slave (3)"


def test_an_owner_cannot_demand_the_afternoon(log: list[Any]) -> None:
    w = engine_world()
    enslave(w, "Tochtli", "Itzel")
    c = part(w, "afternoon", {"ann": [placed("move", "Tochtli", 1)]})
    assert log == []
    assert lines(c, "ann") == ["Tochtli: move: not carried out: an owner may demand his slave's action only for "
                               "the Morning."]


# -- tenants (TENANT OF CITIZEN X, LJ-OQ-50) ---------------------------------------------------------------------
def _tenant(w: World) -> None:
    w.characters["Tochtli"].hex = "Lakeshore"
    w.characters["Tochtli"].titles.append(Title("Tenant", "Xolotl"))
    w.settings["tenants_at_start"] = ["Tochtli"]


def test_a_tenant_who_sends_nothing_toils_and_one_who_sends_another_action_toils_instead(log: list[Any]) -> None:
    w = engine_world()
    _tenant(w)
    part(w, "afternoon", {})
    assert log == [("afternoon", "toil", "Tochtli", "dan")]
    log.clear()
    c = part(w, "afternoon", {"dan": [placed("train", None, 1)]})
    assert log == [("afternoon", "toil", "Tochtli", "dan")]
    assert "Tochtli: train: not carried out: Tochtli began this session as a tenant of Xolotl and must toil." \
        in lines(c, "dan")


def test_a_tenant_who_lost_the_title_in_the_morning_acts_freely(log: list[Any]) -> None:
    w = engine_world()
    _tenant(w)
    w.characters["Tochtli"].drop_title("Tenant")  # he moved off Xolotl's land in the Morning
    part(w, "afternoon", {"dan": [placed("train", None, 1)]})
    assert log == [("afternoon", "train", "Tochtli", "dan")]


# -- plans on both actions (LJ-OQ-29) ----------------------------------------------------------------------------
def test_a_morning_plan_on_both_actions_takes_the_afternoon_slot(log: list[Any]) -> None:
    w = engine_world()
    part(w, "morning", {"ann": [placed("travel", None, 1, city="Texcoco", both=True)]})
    assert "Itzel" in w.both
    c = part(w, "afternoon", {"ann": [placed("train", None, 2)]})
    assert log == [("morning", "travel", "Itzel", "ann"), ("afternoon", "travel", "Itzel", "ann")]
    assert any("spends both actions" in t for t in lines(c, "ann"))


def test_a_void_first_half_voids_the_plan(log: list[Any]) -> None:
    w = engine_world()
    part(w, "morning", {"ann": [placed("travel", None, 1, both=True, void="no road")]})
    assert w.both == {}
    part(w, "afternoon", {"ann": [placed("train", None, 2)]})
    assert log[-1] == ("afternoon", "train", "Itzel", "ann")


def test_a_plan_on_both_actions_sent_in_the_afternoon_is_not_carried_out(log: list[Any]) -> None:
    w = engine_world()
    c = part(w, "afternoon", {"ann": [placed("defend", None, 1, both=True)]})
    assert log == [] and "sent for the Morning" in lines(c, "ann")[0]


# -- the sign-up period and the kick-off -------------------------------------------------------------------------
def test_before_the_kick_off_only_the_pregame_purchases_all_of_them(log: list[Any]) -> None:
    w = engine_world(kicked_off=False)
    c = part(w, "morning", {"ann": [placed("purchase", None, 1, line=1, resource="food"),
                                    placed("train", None, 1, line=2, attribute="fame"),
                                    placed("attack", None, 1, line=3, target="Xolotl")]})
    assert [(k, who) for _p, k, who, _h in log] == [("purchase", "Itzel"), ("train", "Itzel")]
    assert any("the game has not begun" in t for t in lines(c, "ann"))


def test_the_kick_off_runs_at_the_evening_of_the_last_signup_session(no_steps: dict[str, Any]) -> None:
    drawn: list[str] = []
    no_steps["kick_off"] = lambda council: drawn.append("kick-off")
    no_steps["draw_festival"] = lambda rng: "Tlaloc"
    w = engine_world(kicked_off=False)
    w.settings["signup_sessions"] = 2
    engine.evening(w, random.Random(0))  # session 1 ends: still the sign-up period
    assert (w.session, w.kicked_off, drawn, w.festival) == (1, False, [], None)
    ev = engine.evening(w, random.Random(0))  # session 2 ends: kick-off, T0 is session 3
    assert (w.session, w.kicked_off, drawn, w.festival) == (2, True, ["kick-off"], "Tlaloc")
    assert w.settings["council_from"] == 3
    assert "The next council session is held during the festival of Tlaloc." in lines(ev.council, None)


def test_the_sign_up_goes_on_while_too_few_houses(no_steps: dict[str, Any]) -> None:
    w = engine_world(kicked_off=False)
    w.settings["kickoff_houses"] = 5  # four houses
    ev = engine.evening(w, random.Random(0))
    assert not w.kicked_off
    assert lines(ev.council, None) == ["The sign-up goes on: the game begins once 5 houses have signed up."]


def test_the_evening_draws_eats_resets_and_closes_the_session(no_steps: dict[str, Any]) -> None:
    calls: list[str] = []
    no_steps["run_draws"] = lambda council: calls.append("draws") or [{"gameturn": 1}]
    no_steps["eat"] = lambda council: calls.append("eat")
    no_steps["draw_festival"] = lambda rng: "Quetzalcoatl"
    w = engine_world()
    w.characters["Itzel"].beakers, w.characters["Itzel"].defend = 4, 2
    w.both["Itzel"] = {"x": 1}
    ev = engine.evening(w, random.Random(0))
    assert calls == ["draws", "eat"] and ev.todo == [{"gameturn": 1}]
    assert (w.characters["Itzel"].beakers, w.characters["Itzel"].defend, w.both, w.session, w.festival) == \
        (0, 0, {}, 1, "Quetzalcoatl")


def test_a_missing_step_is_reported_to_the_gm(no_steps: dict[str, Any]) -> None:
    w = engine_world()
    ev = engine.evening(w, ScriptedRandom([2]))  # no draw_festival: the engine draws GODS[2]
    assert {e["step"] for e in ev.council.events if e["kind"] == "error"} == {"run_draws", "eat", "draw_festival"}
    assert w.festival == "Tezcatlipoca"


def test_the_morning_opens_with_the_update_joins_incomes_blessings_revolts(no_steps: dict[str, Any],
                                                                            log: list[Any]) -> None:
    calls: list[str] = []
    no_steps["apply_update"] = lambda council, table: calls.append(f"update {table['x']}")
    no_steps["begin_session"] = lambda council: calls.append("incomes")
    no_steps["priest_blessings"] = lambda council: calls.append("blessings")
    no_steps["revolts"] = lambda council: calls.append("revolts")

    def join(world: World, house: str, email: str, name: str, city: Any, hex_: Any, session: int, rng: Any) -> Any:
        from maild_rules.jungle.model import Character, House

        calls.append(f"join {name}")
        world.houses[house] = House(house, email)
        c = world.characters[name] = Character(name, house, city=city, hex="Cornfield", since=session)
        return c

    no_steps["join"] = join
    w = engine_world()
    orders = {GM_ORDERS: [placed("gm_update", None, 1, file={"x": 1})],
              "eve": [placed("join", None, 3, name="Ameyal", city="Tenochtitlan",
                             sign_up_address="eve@example.org")],
              "ann": [placed("train", None, 2)]}
    p = engine.morning(w, orders, random.Random(0))
    assert calls == ["update 1", "join Ameyal", "incomes", "blessings", "revolts"]
    assert w.houses["eve"].email == "eve@example.org"
    assert "Ameyal joins the game: a peasant of the house of eve, living on Cornfield in Tenochtitlan." \
        in lines(p.council, "eve")
    assert log == [("morning", "train", "Itzel", "ann")]


# -- the ruleset's phases end to end -----------------------------------------------------------------------------
def test_resolve_phase_gives_every_house_a_printout_and_the_newsletter(log: list[Any], no_steps: dict[str, Any]
                                                                       ) -> None:
    no_steps["draw_festival"] = lambda rng: "Tlaloc"
    w = engine_world()
    w.festival = "Huitzilopochtli"
    result = Jungle().resolve_phase(w.dump(), 1, "morning", {"ann": [placed("train", None, 1)]}, random.Random(0))
    assert set(result.printouts) == {"ann", "bob", "cat", "dan"}
    morning = result.printouts["ann"]["sections"]
    assert morning[0] == {"title": "Morning of session 1 (council of T0)", "lines": ["Itzel: train"]}
    assert morning[1]["lines"][:2] == ["House of ann: food 0, gold 0",
                                       "Itzel: peasant, XP 1, Fame 5, Wisdom 1, Craftsmanship 1"]
    def said(section: dict[str, Any]) -> str:  # the lines as told, before chart.wrap cut them for the mail
        return " ".join(" ".join(section["lines"]).split())

    assert said(result.newsletter["sections"][0]) == \
        "This council session, session 1 (council of T0), is held during the festival of Huitzilopochtli."
    after = Jungle().resolve_phase(result.state, 1, "afternoon", {}, random.Random(0))
    assert World.load(after.state).session == 1
    assert said(after.newsletter["sections"][0]) == \
        "The next council session, session 2 (council of T1), is held during the festival of Tlaloc."
    chart = next(s for s in after.newsletter["sections"] if s["title"] == "The chart")
    assert said(chart).startswith("1. Itzel (house of ann), peasant, XP 1, Fame 5, Wisdom 1, Craftsmanship 1; ")
    house = next(s for s in after.printouts["ann"]["sections"] if s["title"] == "Your house")
    assert "  Itzel has used 1 of his 2 actions this session" in house["lines"]


def test_the_commented_jungle_game_of_config_example_fits_the_ruleset(tmp_path: Any) -> None:
    # config.example.toml shows a jungle game commented out: uncommented, it is a config maild takes, and its
    # schedule gives the ruleset's two phases (maild.phases.check_schedule refuses any other).
    import tomllib
    from pathlib import Path

    from maild.config import parse_config
    from maild.phases import check_schedule

    text = (Path(__file__).parents[1] / "config.example.toml").read_text()
    start = text.index("# name = \"jungle1\"")
    block = text[start:text.find("\n\n", start) if "\n\n" in text[start:] else None]  # up to the next game
    block = "[[games]]\n" + "\n".join(line[2:] for line in block.splitlines() if line.startswith("# "))
    data = tomllib.loads(block)
    data["games"][0]["setup"] = str(Path(__file__).parents[1] / "examples/jungle/setup.toml")
    config = parse_config(data, tmp_path, None)
    check_schedule(config.game("jungle1"), Jungle())
    assert [p.name for p in config.game("jungle1").schedule.phases] == ["morning", "afternoon"]


def test_a_morning_mail_may_carry_the_afternoon_action(log: list[Any]) -> None:
    # "Morning:" / "Afternoon:" labels (the orders' part): the Afternoon action of a Morning mail is kept in the
    # state and resolves in the Afternoon, unless a later mail gives that character another one.
    w = engine_world()
    c = part(w, "morning", {"ann": [placed("train", None, 1, line=1, part="morning"),
                                    placed("move", None, 1, line=2, part="afternoon")],
                            "bob": [placed("move", None, 2, line=2, part="afternoon")]})
    assert log == [("morning", "train", "Itzel", "ann")]
    assert "move afternoon: kept for the Afternoon." in lines(c, "ann")
    council = Council(w, random.Random(1), "afternoon")
    orders = engine.with_kept(w, {"bob": [placed("toil", None, 7)]})  # bob's later mail replaces his
    engine.run_actions(council, engine.gather(council, orders))
    assert log[1:] == [("afternoon", "toil", "Xolotl", "bob"), ("afternoon", "move", "Itzel", "ann")]
    assert "afternoon_orders" not in w.settings


# -- the ruleset's other hooks -------------------------------------------------------------------------------
def example_state() -> dict[str, Any]:
    import tomllib

    from maild.paths import setup_path

    with setup_path("example:jungle", Path(".")).open("rb") as f:
        return Jungle().new_game(tomllib.load(f))


def test_the_example_setup_makes_a_world_in_its_sign_up_period() -> None:
    w = World.load(example_state())
    assert sorted(w.houses) == ["alice", "bob", "carol"] and not w.kicked_off and w.session == 0
    assert w.characters["Itzel"].hex == "Lakeshore" and w.houses["alice"].gold == 10  # starting_gold
    assert w.cities["Tenochtitlan"].hexes["Quarry"].hammers == 3 and w.units["Jaguar Warriors"].level == 1


@pytest.mark.parametrize("setup, message", [
    ({"signup_sessions": -1}, "signup_sessions: 0 or more"),
    ({"signup_sessions": 0}, "festival: a game without a sign-up period"),
    ({"kickoff": 3}, "unknown key 'kickoff'"),
    ({"festival": "Odin"}, "festival: one of"),
    ({"cities": [{"name": "X", "walls": 3}]}, "cities\\[0\\]: unknown key 'walls'"),
    ({"houses": [{"name": "ann", "email": "a@x"}]}, "houses\\[0\\]: a house needs a character"),
])
def test_a_bad_setup_names_the_key(setup: dict[str, Any], message: str) -> None:
    from maild.ruleset import SetupError

    with pytest.raises(SetupError, match=message):
        Jungle().new_game(setup)


def test_a_game_under_way_starts_with_its_council_of_t0() -> None:
    state = Jungle().new_game({"signup_sessions": 0, "festival": "tlaloc"})
    w = World.load(state)
    assert (w.kicked_off, w.festival, w.settings["council_from"]) == (True, "Tlaloc", 1)


def test_welcome_status_and_export_of_a_house() -> None:
    state = example_state()
    welcome = Jungle().welcome(state, "alice")
    said = " ".join(line.strip() for s in welcome["sections"] for line in s["lines"])  # wrapped for the mail
    assert "Itzel, a peasant, lives on Lakeshore in Tenochtitlan: XP 1, Fame 0, Wisdom 1, Craftsmanship 1." in said
    assert "Before the kick-off your characters may only Purchase, Train and Recruit." in said
    assert Jungle().welcome(state, "stranger") is None  # signed up, not yet in the state
    assert Jungle().status(state, 1, "alice") == {
        "Food": 0, "Gold": 10,
        "Itzel": "peasant, XP 1, Fame 0, Wisdom 1, Craftsmanship 1, on Lakeshore in Tenochtitlan"}
    assert Jungle().status(state, 1, "stranger") == {}
    assert Jungle().template_context(state, 1) == {"festival": None, "session": 1, "kicked_off": False}
    exported = Jungle().export_players(state)
    assert exported["bob"]["email"] == "bob@example.org" and exported["bob"]["characters"]["Xolotl"]["xp"] == 1


def test_sign_up_names_the_house_after_its_character_or_says_why_not() -> None:
    from maild.ruleset import SignUp

    state = example_state()
    ruleset = Jungle()
    ok = ruleset.sign_up(state, 1, "eve@example.org", None, ruleset.parse("JOIN Little Rabbit in Texcoco"))
    assert ok == SignUp(player="Little_Rabbit")
    taken = ruleset.sign_up(state, 1, "eve@example.org", None, ruleset.parse("JOIN Itzel in Texcoco"))
    assert taken == "the name Itzel is taken: choose another"
    assert "JOIN" in ruleset.sign_up(state, 1, "eve@example.org", None, ruleset.parse("**Toil**"))


def test_a_join_mail_s_actions_are_checked_as_its_character_s() -> None:
    ruleset = Jungle()
    parsed = ruleset.parse("JOIN Ameyal in Tenochtitlan\n\n**Purchase** 2 food")
    assert ruleset.check(example_state(), 1, "Ameyal", parsed.orders) == []


def test_an_afternoon_label_is_a_slot_of_its_own() -> None:
    assert order_key(placed("move", "Itzel", 1, part="afternoon").order) == ("itzel", "afternoon")
    assert order_key(placed("move", "Itzel", 1).order) == ("itzel",)


def test_the_gm_hears_of_the_kick_off_and_of_no_sign_up_session_else(no_steps: dict[str, Any]) -> None:
    no_steps["kick_off"] = lambda council: council.announce("Itzel of the house of ann is the first Tlatoani.")
    no_steps["draw_festival"] = lambda rng: "Tlaloc"
    w = engine_world(kicked_off=False)
    w.settings["kickoff_houses"] = 9  # four houses: the sign-up goes on, and the GM gets no to-do mail
    quiet = Jungle().resolve_phase(w.dump(), 1, "afternoon", {}, random.Random(0))
    assert quiet.gm_report is None
    w = World.load(quiet.state)
    w.settings["kickoff_houses"] = 2
    told = Jungle().resolve_phase(w.dump(), 2, "afternoon", {}, random.Random(0))
    assert told.gm_report["sections"] == [{"title": "The kick-off: the council of T0 is the next session", "lines": [
        "Itzel of the house of ann is the first Tlatoani.", "The game has begun: the council of T0 is session 3.",
        "The next council session is held during the festival of Tlaloc."]}]


def test_a_gm_update_is_checked_against_the_updates_recorded_before_it() -> None:
    # The first update founds Tlatelolco; the second names a hex of it: alone it is refused (no such city),
    # after the first it is taken.
    from maild.ruleset import Order as GmOrder

    state = example_state()
    found = {"cities": {"Tlatelolco": {"centre": "Tlatelolco", "citizens": 1,
                                       "hexes": {"Tlatelolco": {"food": 2}}}}}
    second = {"cities": {"Tlatelolco": {"hexes": {"Reeds": {"food": 1}}}}}
    ruleset = Jungle()
    assert ruleset.check_gm(state, "gm_update", {"file": found}) is None
    assert ruleset.check_gm(state, "gm_update", {"file": second}) is not None
    pending = (GmOrder(0, "update", "gm_update", {"file": found}, "update"),)
    assert ruleset.check_gm(state, "gm_update", {"file": second}, pending) is None


def test_a_gm_update_given_after_the_morning_comes_with_the_next_session(tmp_path: Path) -> None:
    # GM orders come with a turn's first phase (docs/phases.md): one given once the Morning has run is for the
    # next session, said so, listed as pending, and applied when that session's Morning opens.
    from maild.gmcli import list_orders, record
    from maild.testing import Table

    with Table(tmp_path) as table:
        table.create_game("g1", "jungle", "example:jungle")
        table.intake()
        table.run_turn("g1")  # the Morning of session 1
        update = tmp_path / "update.toml"
        update.write_text('[units."Jaguar Warriors"]\ncaptain = "Itzel"\n', encoding="utf-8")
        with table.app.db.session() as s:
            said = record(s, table.app, "g1", "update", ["g1", str(update)])
            listed = list_orders(s, "g1")
            s.commit()
        assert said.endswith("recorded for turn 2 (GM order 1); the morning of turn 1 has run, so it comes with "
                             "turn 2"), said
        assert "turn 2  gm_update" in listed[0] and listed[0].endswith("pending")
        table.run_whole_turn("g1")  # the Afternoon of session 1: the update waits
        table.run_turn("g1")  # the Morning of session 2: applied first
        assert "Captain of Unit Jaguar Warriors" in " ".join(table.printout("g1", 2, "alice", "morning").split())


def test_a_house_signs_up_again_only_with_no_character_left_or_trapped_three_sessions(
        no_steps: dict[str, Any]) -> None:
    from maild_rules.jungle import houses

    no_steps["join"] = houses.join
    no_steps["may_sign_up_again"] = houses.may_sign_up_again
    w = engine_world()
    w.session = 5
    join = {"dan": [placed("join", None, 1, name="Ome", city="Tenochtitlan", hex="Cornfield")]}
    p = engine.morning(w, join, random.Random(0))
    assert w.character("Ome") is None and "your house is already in the game" in lines(p.council, "dan")[0]
    w.houses["dan"].trapped_since = 2  # every character a Slave-Tenant since session 2: 5 - 2 = 3 sessions
    engine.morning(w, join, random.Random(0))
    assert w.character("Ome").house == "dan"


def test_what_an_action_tells_goes_under_it_in_the_printout(monkeypatch: pytest.MonkeyPatch) -> None:
    def train(council: Council, actor: Any, action: Action) -> None:
        council.tell(actor.house, f"{actor.name} trains.")
        council.tell("bob", "Xolotl hears of it.")  # another house: not under ann's heading

    monkeypatch.setitem(HANDLERS, "train", train)
    w = engine_world()
    c = part(w, "morning", {"ann": [placed("train", None, 1)]})
    assert lines(c, "ann") == ["Itzel: train", "  Itzel trains."]
    assert lines(c, "bob") == ["Xolotl hears of it."]


def test_every_session_step_is_present_in_the_game() -> None:
    """The engine looks its steps up by name (the seam these tests use); in the shipped game each one exists."""
    assert all(callable(engine.step(name)) for name in engine.STEPS)
