"""The GM's update of The Law of the Jungle (maild gm update GAME FILE): checking, figures, titles from events,
a unit's health loss handed to the units part; and the GM's to-do report."""

from __future__ import annotations

import tomllib

import pytest

from maild.paths import EXAMPLES_DIR
from maild.render import render
from maild_rules.jungle.awards import conqueror_n, destroyer_n, hero_n
from maild_rules.jungle.model import Title, World
from maild_rules.jungle.todo import gm_report
from maild_rules.jungle.update import UPDATE_ORDER, apply_update, captain_name, check_update
from tests.jungle_draws_fixtures import ScriptedRandom, council, draws_world, stand_in_modules


def picks(world: World) -> None:
    """The last Evening's picks as run_draws keeps them: research Bronze Working by Itzel in gameturn 6,
    Writing by NPCs in gameturn 2; in Tenochtitlan Monument by Coyotl in gameturn 9, Scout by Xochitl in gameturn 7,
    Warrior by NPCs in gameturn 3."""
    def pick(kind, turn, who, **what):
        house = world.characters[who].house if who else None
        return {"kind": kind, "gameturn": turn, **what, "character": who, "house": house, "weighted": True,
                "earned": True}
    world.empire.technologies["Writing"] = 2
    world.draws = [
        pick("research", 2, None, technology="Writing"), pick("research", 6, "Itzel", technology="Bronze Working"),
        pick("production", 3, None, city="Tenochtitlan", item="Warrior"),
        pick("production", 7, "Xochitl", city="Tenochtitlan", item="Scout"),
        pick("production", 9, "Coyotl", city="Tenochtitlan", item="Monument"),
    ]


def world_with_picks() -> World:
    w = draws_world()
    picks(w)
    return w


def apply(world: World, table: dict, monkeypatch: pytest.MonkeyPatch):
    rec = stand_in_modules(monkeypatch)
    co = council(world, ScriptedRandom([]), "morning")
    apply_update(co, table)
    return rec, co


def test_the_order_is_declared_for_the_ruleset():
    assert (UPDATE_ORDER.word, UPDATE_ORDER.kind) == ("update", "gm_update")
    assert [(a.name, a.type) for a in UPDATE_ORDER.args] == [("file", "file")]


def test_the_example_update_checks_and_applies(monkeypatch):
    table = tomllib.loads((EXAMPLES_DIR / "jungle" / "update-example.toml").read_text())
    w = world_with_picks()
    assert check_update(w, table) is None
    rec, co = apply(w, table, monkeypatch)
    assert w.empire.treasury == 140 and w.empire.policy_due
    assert "Bronze Working" in w.empire.known and "Bronze Working" not in w.empire.technologies
    # Bronze Working's era (1) comes from the list before the update, which no longer holds it.
    assert w.characters["Itzel"].title("Inventor", "Bronze Working") == Title("Inventor", "Bronze Working", 1)
    assert w.cities["Tenochtitlan"].hexes["Lakeshore"].food == 4  # a hex added
    assert w.characters["Coyotl"].title("Builder", "Monument") == Title("Builder", "Monument", 1)
    captain = w.characters["Captain of Eagle Scouts"]
    assert (captain.house, captain.role, captain.unit, captain.since) == ("Ana", "soldier", "Eagle Scouts", 2)
    assert captain.titles == [Title("Captain", "Eagle Scouts")]
    assert w.units["Eagle Scouts"].captain == "Captain of Eagle Scouts"
    assert w.cities["Tlatelolco"].hexes["Tlatelolco"].beakers == 1
    # Tenochtitlan's citizens 2 -> 4: two new citizens drawn; Tlatelolco 0 -> 1; Jaguar Warriors 10 -> 8.
    assert rec.calls == [("citizens_changed", ("Tenochtitlan", 2, 4)), ("citizens_changed", ("Tlatelolco", 0, 1)),
                         ("health_changed", ("Jaguar Warriors", 10, 8)),
                         ("share_unit_gains", ("Jaguar Warriors", {"xp": 3, "gold": 10}, None))]


def test_unknown_keys_and_bad_values_are_refused_with_their_place():
    w = world_with_picks()
    problem = check_update(w, {
        "empire": {"treasure": 5, "policy_due": "yes"},
        "cities": {"Tenochtitlan": {"citizens": -2, "hexes": {"Lake": {"fish": 1}}}, "Atlantis": {"food": 1}},
        "units": {"Jaguar Warriors": {"health": 11, "level": "veteran"}, "Ghosts": {"health": 3}},
        "events": [{"kind": "miracle"}, {"kind": "technology", "name": "Writing", "gameturn": 11}],
        "weather": "fine",
    })
    assert problem is not None
    assert problem.splitlines() == [
        "update: weather: unknown part (an update has note, empire, cities, units, events)",
        "update: empire.treasure: unknown key (known: treasury, expenses, beakers_per_citizen, "
        "hammers_per_citizen, food_per_citizen, technologies, policies, policy_due, known)",
        "update: empire.policy_due: must be true or false, not 'yes'",
        "update: cities.Tenochtitlan.citizens: must be a whole number 0 or more, not -2",
        "update: cities.Tenochtitlan.hexes.Lake.fish: unknown key (known: food, hammers, beakers, gold, remove)",
        "update: cities.Atlantis: no city Atlantis in the game (cities: Tenochtitlan); to found it, give its "
        "centre",
        "update: units.\"Jaguar Warriors\".health: must be a whole number from 0 to 10, not 11",
        "update: units.\"Jaguar Warriors\".level: must be a whole number 0 or more, or \"none\" for a unit "
        "without a level, not 'veteran'",
        "update: units.Ghosts: no unit Ghosts in the game (units: Jaguar Warriors); a new unit needs its kind",
        "update: events[1].kind: unknown event 'miracle' (events: technology, building, unit, policy, captured, "
        "liberated, razed, gain)",
        "update: events[2] (technology).gameturn: must be a whole number from 1 to 10, not 11",
    ]


def test_events_must_match_the_draws_or_name_the_character():
    w = world_with_picks()
    # Gameturn 6's research pick was Bronze Working, not Writing; gameturn 5 has no pick in the last draws.
    assert check_update(w, {"events": [{"kind": "technology", "name": "Writing", "gameturn": 6}]}) == (
        "update: events[1] (technology): gameturn 6's research pick was Bronze Working, not Writing; name the "
        "character = \"NAME\" (or \"\" for nobody)")
    assert "no production pick in Tenochtitlan in gameturn 5" in check_update(w, {"events": [
        {"kind": "building", "name": "Shrine", "city": "Tenochtitlan", "era": 1, "gameturn": 5}]})
    assert "give the gameturn" in check_update(w, {"events": [{"kind": "technology", "name": "Writing"}]})
    assert check_update(w, {"events": [{"kind": "technology", "name": "Writing", "character": "Nobody"}]}) == (
        "update: events[1] (technology).character: no living character Nobody")
    # Named explicitly (a free technology from a ruin, say): no pick needed.
    assert check_update(w, {"events": [{"kind": "technology", "name": "Writing", "character": "Coyotl"}]}) is None


def test_inventor_from_npc_pick_or_named_character(monkeypatch):
    """Writing (era 2) was picked by NPCs in gameturn 2: nobody is Inventor. Named to Coyotl: he is
    Inventor of Technology Writing (2)."""
    w = world_with_picks()
    apply(w, {"events": [{"kind": "technology", "name": "Writing", "gameturn": 2}]}, monkeypatch)
    assert all(not c.titles for c in w.characters.values())
    assert w.empire.known == ["Writing"] and "Writing" not in w.empire.technologies
    w = world_with_picks()
    apply(w, {"events": [{"kind": "technology", "name": "Writing", "character": "Coyotl"}]}, monkeypatch)
    assert [t.label() for t in w.characters["Coyotl"].titles] == ["Inventor of Technology Writing (2)"]


def test_a_second_builder_title_of_the_same_building_adds_up(monkeypatch):
    """Coyotl completes a Monument (era 1) in gameturn 9, and another elsewhere named to him (era 1):
    one title, N = 1 + 1 = 2."""
    w = world_with_picks()
    apply(w, {"events": [
        {"kind": "building", "name": "Monument", "city": "Tenochtitlan", "era": 1, "gameturn": 9},
        {"kind": "building", "name": "Monument", "city": "Tenochtitlan", "era": 1, "character": "Coyotl"},
    ]}, monkeypatch)
    assert w.characters["Coyotl"].titles == [Title("Builder", "Monument", 2)]


def test_units_completed_by_npcs_or_given_to_a_house(monkeypatch):
    """Gameturn 3's Warrior was the NPCs': the unit has no Captain. A unit given by the GM to Ben (a policy's
    unit): Ben gets a new soldier, its Captain, named as the GM says."""
    w = world_with_picks()
    rec, co = apply(w, {
        "units": {"Spears": {"kind": "Warrior", "city": "Tenochtitlan", "level": 1},
                  "Gift Guard": {"kind": "Spearman", "city": "Tenochtitlan"}},
        "events": [{"kind": "unit", "unit": "Spears", "gameturn": 3},
                   {"kind": "unit", "unit": "Gift Guard", "house": "Ben", "captain": "Mazatl"}],
    }, monkeypatch)
    assert w.units["Spears"].captain is None
    mazatl = w.characters["Mazatl"]
    assert (mazatl.house, mazatl.role, mazatl.unit, mazatl.xp, mazatl.fame) == ("Ben", "soldier", "Gift Guard", 1, 0)
    assert mazatl.title("Captain", "Gift Guard") is not None
    assert rec.calls == []  # new units at full health: nobody to kill


def test_a_captured_worker_brings_a_character_to_the_capturing_captains_house(monkeypatch):
    """CAPTURING CITIES AND WORKERS / NEW UNITS: "If a worker is captured, the player controlling the Captain of
    the capturing unit receives the new character." Coyotl (house Ben) captains Jaguar Warriors, which take a
    barbarian worker: Ben gets its Captain. A capturing unit without a Captain is refused at the check."""
    w = world_with_picks()
    w.units["Jaguar Warriors"].captain = "Coyotl"
    table = {"units": {"Stolen Worker": {"kind": "Worker", "city": "Tenochtitlan", "military": False}},
             "events": [{"kind": "unit", "unit": "Stolen Worker", "by": "Jaguar Warriors"}]}
    assert check_update(w, table) is None
    apply(w, table, monkeypatch)
    captain = w.characters["Captain of Stolen Worker"]
    assert (captain.house, captain.unit) == ("Ben", "Stolen Worker")
    w2 = world_with_picks()
    assert "Jaguar Warriors has no Captain" in check_update(w2, table)


def test_captain_names_are_numbered_when_taken():
    w = draws_world()
    assert captain_name(w, "Spears") == "Captain of Spears"
    w.characters["Captain of Spears"] = w.characters.pop("Xochitl")
    assert captain_name(w, "Spears") == "Captain of Spears 2"


def test_policy_event_names_a_minister_once(monkeypatch):
    """Liberty (era 2) adopted and named to Itzel: Minister of Policy Liberty (2); Coyotl, who already holds
    it from the draw, is not given it twice."""
    w = world_with_picks()
    w.characters["Coyotl"].titles.append(Title("Minister", "Tradition", 1))
    apply(w, {"events": [{"kind": "policy", "name": "Liberty", "character": "Itzel"},
                         {"kind": "policy", "name": "Tradition", "character": "Coyotl"}]}, monkeypatch)
    assert w.characters["Itzel"].titles == [Title("Minister", "Liberty", 2)]
    assert w.characters["Coyotl"].titles == [Title("Minister", "Tradition", 1)]
    assert w.empire.policies == {}


def test_city_title_values_by_hand():
    # CONQUEROR: the citizens after the capture: 3 -> N 3.
    assert conqueror_n(3) == 3
    # HERO: 4 citizens before; x2 if the Aztecs controlled it (8), x3 if they founded it (12, not 24).
    assert hero_n(4, False, False) == 4
    assert hero_n(4, True, False) == 8
    assert hero_n(4, True, True) == 12
    # DESTROYER: 5 citizens before, x2 = 10; half if controlled (5); a third if founded, rounded down (3).
    assert destroyer_n(5, False, False) == 10
    assert destroyer_n(5, True, False) == 5
    assert destroyer_n(5, True, True) == 3


def test_city_deeds_title_everyone_in_the_unit(monkeypatch):
    """Itzel and Coyotl are in Jaguar Warriors, Xochitl is not. Liberating Cholula (4 citizens, founded by
    the Aztecs): Hero of City Cholula (12); razing Tlaxcala (5 citizens, never Aztec): Destroyer (10)."""
    w = world_with_picks()
    for n in ("Itzel", "Coyotl"):
        w.characters[n].unit, w.characters[n].role = "Jaguar Warriors", "soldier"
    apply(w, {"events": [
        {"kind": "liberated", "city": "Cholula", "unit": "Jaguar Warriors", "citizens": 4,
         "previously_aztec": True, "founded_by_aztecs": True},
        {"kind": "razed", "city": "Tlaxcala", "unit": "Jaguar Warriors", "citizens": 5},
    ]}, monkeypatch)
    for n in ("Itzel", "Coyotl"):
        assert [t.label() for t in w.characters[n].titles] == ["Hero of City Cholula (12)",
                                                               "Destroyer of City Tlaxcala (10)"]
    assert w.characters["Xochitl"].titles == []


def test_health_changes_and_removal_go_to_the_units_part(monkeypatch):
    """Jaguar Warriors 10 -> 6: units.health_changed(council, unit, 10, 6) kills the dead (D2's draw);
    removing the unit first brings its health to 0 ("If a unit is killed, all characters within the unit are
    killed")."""
    w = world_with_picks()
    rec, _ = apply(w, {"units": {"Jaguar Warriors": {"health": 6}}}, monkeypatch)
    assert rec.calls == [("health_changed", ("Jaguar Warriors", 10, 6))]
    assert w.units["Jaguar Warriors"].health == 6
    rec, _ = apply(w, {"units": {"Jaguar Warriors": {"remove": True}}}, monkeypatch)
    assert rec.calls == [("health_changed", ("Jaguar Warriors", 6, 0))]
    assert "Jaguar Warriors" not in w.units


def test_citizens_changes_go_to_the_cities_part(monkeypatch):
    """5 citizens -> 3: cities.citizens_changed(council, city, 5, 3) demotes two (D2's LJ-OQ-11)."""
    w = world_with_picks()
    w.cities["Tenochtitlan"].citizens = 5
    rec, _ = apply(w, {"cities": {"Tenochtitlan": {"citizens": 3, "builds": {"Shrine": 40}}}}, monkeypatch)
    assert rec.calls == [("citizens_changed", ("Tenochtitlan", 5, 3))]
    assert w.cities["Tenochtitlan"].builds == {"Shrine": 40}


def test_an_update_that_no_longer_fits_is_not_applied_and_the_gm_hears(monkeypatch):
    w = world_with_picks()
    table = {"empire": {"treasury": 99}, "events": [{"kind": "technology", "name": "Writing",
                                                       "character": "Coyotl"}]}
    assert check_update(w, table) is None
    w.characters["Coyotl"].alive = False  # died after the GM gave the update
    apply(w, table, monkeypatch)
    assert w.empire.treasury == 0
    assert w.todo[0]["kind"] == "update refused"
    assert "no living character Coyotl" in w.todo[0]["text"]


def test_hexes_with_dwellers_cannot_be_removed():
    w = draws_world()
    assert check_update(w, {"cities": {"Tenochtitlan": {"hexes": {"Lake": {"remove": True}}}}}) == (
        "update: cities.Tenochtitlan.hexes.Lake: cannot remove Lake: Itzel, Coyotl live there")


# -- the to-do report ----------------------------------------------------------------------------------------

def test_gm_report_lists_picks_orders_and_entries_and_renders():
    w = world_with_picks()
    w.cities["Tenochtitlan"].builds = {"Warrior": 40}
    unit = w.units["Jaguar Warriors"]
    unit.captain, unit.orders, unit.orders_session = "Coyotl", "Hold the causeway.", 2
    w.characters["Coyotl"].unit = "Jaguar Warriors"
    from maild_rules.jungle.model import Unit
    w.units["Scouts"] = Unit("Scouts", kind="Scout", level=None, captain="Itzel", fortify=True,
                             orders="far too many words")
    w.characters["Itzel"].unit = "Scouts"
    w.proposals = [{"kind": "proposal", "character": "Itzel", "nation": "the Maya", "text": "open borders"},
                   {"kind": "rule", "character": "Coyotl", "text": "let priests fly"}]
    w.todo = [{"kind": "spend", "character": "Coyotl", "city": "Tenochtitlan", "amount": 20, "text": "a Monument"},
              {"kind": "raze", "character": "Coyotl", "text": "raze Tlaxcala"},
              {"kind": "odd", "character": None, "text": "something else"}]
    entries = [*w.draws, {"kind": "policy", "policy": "Liberty", "character": "Coyotl", "house": "Ben", "era": 2,
                          "deferred": False}]
    report = gm_report(w, entries)
    sections = {s["title"]: s["lines"] for s in report["sections"]}
    assert sections["Research, gameturns 1 to 10"] == ["gameturn 2: Writing (NPCs)",
                                                       "gameturn 6: Bronze Working (Itzel of Ana)"]
    assert sections["Production in Tenochtitlan"] == ["gameturn 3: Warrior (NPCs)",
                                                      "gameturn 7: Scout (Xochitl of Ana)",
                                                      "gameturn 9: Monument (Coyotl of Ben)"]
    assert sections["Social policy"] == ["adopt Liberty (Minister: Coyotl of Ben)"]
    assert sections["Units' standing orders"] == [
        "Jaguar Warriors (Warrior, level 2, health 10, Captain Coyotl) [since session 2]: Hold the causeway.",
        "Scouts (Scout, no level, health 10, Captain Itzel): fortify (orders over the word limit)"]
    assert sections["Diplomatic proposals to make"] == ["Itzel, to the Maya: open borders"]
    assert sections["Gold to spend"] == ["Coyotl, in Tenochtitlan, 20 gold: a Monument"]
    assert sections["Cities founded, captured, annexed, liberated or razed"] == ["Coyotl: raze Tlaxcala"]
    assert sections["Other matters"] == ["odd: something else"]
    assert sections["Rule-change proposals"] == ["Coyotl: let priests fly"]
    assert sections["Units to disband"] == ["none"]
    text = render("jungle", "gm_report.txt.j2", game="aztlan", turn=3, **report)
    assert text.startswith("aztlan: the GM's to-do after council session 2\n")
    assert "\nUnits' standing orders\n  Jaguar Warriors (Warrior, level 2" in text
    assert "  gameturn 9: Monument (Coyotl of Ben)\n" in text


def test_a_destroyed_unit_kills_its_characters_through_the_units_part():
    """With the units part in place (helper D2's units.health_changed): removing Jaguar Warriors, where Itzel
    and Coyotl serve, brings its health from 10 to 0 and "all characters within the unit are killed"; Xochitl,
    outside it, lives. Whatever the RNG draws, every member dies at health 0."""
    import random

    pytest.importorskip("maild_rules.jungle.units")
    w = world_with_picks()
    for n in ("Itzel", "Coyotl"):
        w.characters[n].unit, w.characters[n].role = "Jaguar Warriors", "soldier"
    w.units["Jaguar Warriors"].captain = "Coyotl"
    apply_update(council(w, random.Random(7), "morning"), {"units": {"Jaguar Warriors": {"remove": True}}})
    assert [c.name for c in w.characters.values() if not c.alive] == ["Itzel", "Coyotl"]
    assert w.characters["Xochitl"].alive and "Jaguar Warriors" not in w.units


def test_an_update_is_checked_against_the_world_the_pending_ones_leave(monkeypatch):
    """The first update of the session adds the unit Spears; a second naming it in an event is refused
    against the world as it is, taken against the world the first leaves."""
    stand_in_modules(monkeypatch)
    w = world_with_picks()
    first = {"units": {"Spears": {"kind": "Warrior", "city": "Tenochtitlan"}}}
    second = {"events": [{"kind": "unit", "unit": "Spears", "house": "Ben"}]}
    assert "no unit Spears in the game" in check_update(w, second)
    assert check_update(w, second, [first]) is None
    assert "Spears" not in w.units  # the pending update was worked out on a copy


def test_a_throne_left_empty_by_the_update_ends_the_tenancy_of_the_city_hex():
    """Coyotl rules Tenochtitlan, so Xochitl, living on the city hex, is "Tenant of Coyotl" ("A peasant residing
    in the city hex will be a tenant of the Tlatoani"). The GM's update leaves the throne empty: nobody owns
    the city hex any more, and the title goes with the update, not at the next move."""
    import random

    from maild_rules.jungle.transfers import retenant

    w = world_with_picks()
    w.cities["Tenochtitlan"].tlatoani = "Coyotl"
    w.characters["Coyotl"].role = "tlatoani"
    retenant(w, w.characters["Xochitl"])
    assert w.characters["Xochitl"].landlord == "Coyotl"
    table = {"cities": {"Tenochtitlan": {"tlatoani": ""}}}
    assert check_update(w, table) is None
    apply_update(council(w, random.Random(1), "morning"), table)
    assert w.characters["Xochitl"].landlord is None
