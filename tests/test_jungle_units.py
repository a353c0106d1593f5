"""Units and Captains (rules/jungle/units.py; the limit is captains.word_limit): enlist, orders, deaths by
1/XP, Captain succession by Fame, shared gains, desert, retire, disband. Every draw is worked by hand: a
weighted draw takes one randrange(total of the whole-number weights) and picks the first item, in the order
given, whose running sum exceeds the value (maild/draws.py)."""

from __future__ import annotations

import pytest

from maild_rules.jungle import units
from maild_rules.jungle.captains import word_limit
from maild_rules.jungle.council import HANDLERS, Void
from maild_rules.jungle.deaths import kill
from maild_rules.jungle.model import Character, Title, Unit
from tests.jungle_units_fixtures import act, add, aztlan, council, told


def run(c, name: str, keyword: str, **args: object) -> None:
    actor = c.world.characters[name]
    HANDLERS[keyword](c, actor, act(name, keyword, house=actor.house, **args))


# -- word limits ---------------------------------------------------------------------------------------------
def test_word_limit_is_five_per_level_fifteen_without_level_and_doubled_with_both_actions() -> None:
    """"a word limit equal to 5 * (the unit's current level)": level 3 -> 15, both actions -> 30; "a fixed
    order word limit of 15" without a level, 30 with both; level 0 read as a level 1 rookie -> 5."""
    assert word_limit(Unit("A", level=3), False) == 15
    assert word_limit(Unit("A", level=3), True) == 30
    assert word_limit(Unit("Settler", level=None, military=False), False) == 15
    assert word_limit(Unit("Settler", level=None, military=False), True) == 30
    assert word_limit(Unit("A", level=0), False) == 5
    assert word_limit(Unit("A", level=1), True) == 10


# -- enlist ----------------------------------------------------------------------------------------------------
def test_enlist_counts_player_characters_only_and_displaces_npcs() -> None:
    """Jaguar Warriors, health 5: Ocelotl and Atl enlisted, 3 NPCs. "Characters may only enlist in a unit in
    which the number of currently enlisted characters is less than the unit's health" (LJ-OQ-53: player
    characters): Xochitl, Yaotl and Tochtli enlist, finding 2, 3 and 4 enlisted, all below 5; the NPCs go
    3 -> 0; a sixth (Cuauhtli) finds 5 enlisted, health 5: void."""
    w = aztlan()
    u = w.units["Jaguar Warriors"]
    c = council(w)
    assert units.npcs(w, u) == 3
    for name in ("Xochitl", "Yaotl", "Tochtli"):
        run(c, name, "enlist", unit="jaguar  warriors")
    assert units.npcs(w, u) == 0
    assert [m.name for m in units.members(w, u)] == ["Atl", "Ocelotl", "Tochtli", "Xochitl", "Yaotl"]
    t = w.characters["Tochtli"]
    assert (t.role, t.unit, t.hex, t.landlord) == ("soldier", "Jaguar Warriors", None, None)
    with pytest.raises(Void, match="full: 5 characters enlisted, health 5"):
        run(c, "Cuauhtli", "enlist", unit="Jaguar Warriors")


def test_enlist_refuses_a_captain_and_one_already_in_the_unit() -> None:
    w = aztlan()
    w.units["Eagles"] = Unit("Eagles", level=1, health=10, city="Tenochtitlan")
    c = council(w)
    with pytest.raises(Void, match="already in unit"):
        run(c, "Atl", "enlist", unit="Jaguar Warriors")
    with pytest.raises(Void, match="Captain"):
        run(c, "Ocelotl", "enlist", unit="Eagles")
    with pytest.raises(Void, match="no unit"):
        run(c, "Xochitl", "enlist", unit="Sharks")
    run(c, "Atl", "enlist", unit="Eagles")  # "May also be used for characters to move from one unit to another."
    assert w.characters["Atl"].unit == "Eagles"
    assert units.npcs(w, w.units["Jaguar Warriors"]) == 4


def test_a_citizen_who_enlists_keeps_his_rank_and_land() -> None:
    """Enlisting is no demotion: Cuauhtli stays a citizen owning T1; but he has moved from the hex, so
    Tochtli, living there, is no longer his tenant ("The title of Tenant is immediately lost if either the
    peasant or the citizen move from the hex"); a peasant who enlists is a soldier, no tenant."""
    w = aztlan()
    run(council(w), "Cuauhtli", "enlist", unit="Jaguar Warriors")
    assert w.characters["Cuauhtli"].role == "citizen"
    assert w.cities["Tenochtitlan"].hexes["T1"].citizen == "Cuauhtli"
    assert w.characters["Tochtli"].landlord is None


# -- orders ----------------------------------------------------------------------------------------------------
def test_orders_within_the_limit_replace_the_standing_ones() -> None:
    """Level 3: limit 15. Orders of 15 words stand; new orders of 4 words replace them, not added to
    ("When new orders are issued, the orders from previous sessions are discarded")."""
    w = aztlan()
    u = w.units["Jaguar Warriors"]
    u.orders = "hold the hill"
    c = council(w)
    run(c, "Ocelotl", "order", text="one two three four five six seven eight nine ten a b c d e", words=15)
    assert (u.orders, u.fortify, u.orders_session) == (
        "one two three four five six seven eight nine ten a b c d e", False, 1)
    run(c, "Ocelotl", "order", unit="Jaguar Warriors", text="attack Texcoco at dawn")
    assert u.orders == "attack Texcoco at dawn"
    assert "(4 of 15 words)" in told(c, "tolteca")


def test_orders_over_the_limit_fortify_until_valid_orders_come() -> None:
    """16 words against 15: "the unit will become confused and will fortify"; the old orders are gone
    (LJ-OQ-52); the next session's valid orders end the fortifying. With both actions the limit is 30."""
    w = aztlan()
    u = w.units["Jaguar Warriors"]
    u.orders = "hold the hill"
    c = council(w)
    run(c, "Ocelotl", "order", text=" ".join(["go"] * 16))
    assert (u.fortify, u.orders) == (True, "")
    assert "have 16 words; the limit is 15" in told(c, "tolteca")
    w.session = 1
    actor = w.characters["Ocelotl"]
    HANDLERS["order"](c, actor, act("Ocelotl", "order", house="tolteca", both=True, text=" ".join(["go"] * 16)))
    assert (u.fortify, u.orders, u.orders_session) == (False, " ".join(["go"] * 16), 2)


def test_only_the_captain_orders() -> None:
    w = aztlan()
    c = council(w)
    with pytest.raises(Void, match="Atl is not the Captain of any unit"):
        run(c, "Atl", "order", text="charge")
    w.units["Eagles"] = Unit("Eagles", level=1, health=10)
    with pytest.raises(Void, match="not the Captain of unit Eagles"):
        run(c, "Ocelotl", "order", unit="Eagles", text="charge")
    w.units["Eagles"].captain = "Ocelotl"
    with pytest.raises(Void, match="name the unit"):
        run(c, "Ocelotl", "order", text="charge")


# -- life and death in a unit -------------------------------------------------------------------------------
def test_casualties_are_drawn_by_one_over_xp_with_npcs_at_xp_1() -> None:
    """Health 5 -> 3: 2 of the 5 places die. Pool in order Atl (XP 2), Ocelotl (XP 4), NPC, NPC, NPC; weights
    1/2, 1/4, 1, 1, 1 = 2/4, 1/4, 4/4, 4/4, 4/4 -> whole numbers 2, 1, 4, 4, 4, total 15.
    Draw 1: randrange(15) = 2: 2 >= 2 (Atl), 0 < 1 -> Ocelotl. Left: 2, 4, 4, 4 = 14.
    Draw 2: randrange(14) = 10: 10-2 = 8, 8-4 = 4, 4-4 = 0 < 4 -> the third item left, an NPC.
    The Captain is dead: Atl alone is left, Fame 0 (all zero: unweighted) -> randrange(1) = 0 -> Atl."""
    w = aztlan()
    u = w.units["Jaguar Warriors"]
    c = council(w, [2, 10, 0])
    units.health_changed(c, u, 5, 3)
    assert c.rng.done and c.rng.calls == [("randrange", 0, 15), ("randrange", 0, 14), ("randrange", 0, 1)]
    assert not w.characters["Ocelotl"].alive
    assert w.characters["Atl"].alive
    assert u.health == 3 and u.captain == "Atl"
    assert w.characters["Atl"].title("Captain", "Jaguar Warriors") is not None
    assert units.npcs(w, u) == 2


def test_the_captain_is_succeeded_among_survivors_only() -> None:
    """Health 5 -> 3, draws 0 then 0: Atl (first, weight 2 of 15) then Ocelotl (first left, 1 of 13). Both
    die; the Captain last, so no successor is drawn among the dead: the unit is left to the GM."""
    w = aztlan()
    u = w.units["Jaguar Warriors"]
    c = council(w, [0, 0])
    units.health_changed(c, u, 5, 3)
    assert c.rng.done
    assert not w.characters["Atl"].alive and not w.characters["Ocelotl"].alive
    assert u.captain is None


def test_a_unit_killed_kills_everyone_and_a_gain_fills_with_npcs() -> None:
    """"If a unit is killed, all characters within the unit are killed": health 5 -> 0, 5 draws of 5."""
    w = aztlan()
    u = w.units["Jaguar Warriors"]
    c = council(w, [0, 0, 0, 0, 0])
    units.health_changed(c, u, 5, 0)
    assert c.rng.done
    assert not units.members(w, u) and u.captain is None and u.health == 0
    w2 = aztlan()
    u2 = w2.units["Jaguar Warriors"]
    u2.health = 3
    units.health_changed(council(w2), u2, 3, 8)  # no draw: the scripted RNG is empty
    assert u2.health == 8 and units.npcs(w2, u2) == 6
    u3 = Unit("Scouts", health=4)
    w2.units["Scouts"] = u3
    units.health_changed(council(w2), "scouts", 4, 1)  # NPCs only: no draw
    assert u3.health == 1


def test_captain_killed_elsewhere_is_succeeded_by_fame() -> None:
    """Ocelotl dies in a duel; left: Atl (Fame 0), Itzel (Fame 3), Coatl (Fame 1), by name Atl, Coatl, Itzel
    with weights 0, 1, 3 (total 4). randrange(4) = 1: 1 >= 0 (Atl), 1 >= 1 (Coatl), 0 < 3 -> Itzel."""
    w = aztlan()
    add(w, Character("Itzel", "aztec", fame=3, role="soldier", unit="Jaguar Warriors"))
    add(w, Character("Coatl", "mexica", fame=1, role="soldier", unit="Jaguar Warriors"))
    c = council(w, [1])
    kill(c, w.characters["Ocelotl"], "killed in a duel")
    assert c.rng.calls == [("randrange", 0, 4)]
    assert w.units["Jaguar Warriors"].captain == "Itzel"
    assert w.characters["Itzel"].title("Captain", "Jaguar Warriors") is not None
    assert w.characters["Ocelotl"].title("Captain") is None


def test_unit_gains_are_shared_by_every_character_and_the_generals_staff() -> None:
    """"all characters within the unit earn the same amount": 2 XP each to Ocelotl (4 -> 6) and Atl (2 -> 4);
    5 gold each, both of house tolteca: +10; the General's unit (Itzel) earns the same."""
    w = aztlan()
    general = Unit("Great General", level=None, military=False)
    w.units[general.name] = general
    add(w, Character("Itzel", "aztec", xp=1, unit="Great General", role="soldier"))
    u = w.units["Jaguar Warriors"]
    c = council(w)
    units.share_unit_gain(c, u, "xp", 2, general=general)
    assert [w.characters[n].xp for n in ("Ocelotl", "Atl", "Itzel")] == [6, 4, 3]
    units.share_unit_gain(c, u, "gold", 5)
    assert w.houses["tolteca"].gold == 10 and w.houses["aztec"].gold == 0
    with pytest.raises(ValueError):
        units.share_unit_gain(c, u, "wisdom", 1)


# -- leaving a unit ----------------------------------------------------------------------------------------------
def test_desert_halves_fame_rounded_down_and_goes_where_named() -> None:
    """Atl, Fame 7, deserts to T1 of Tenochtitlan: Fame 7 // 2 = 3, a peasant on Cuauhtli's land (a tenant)."""
    w = aztlan()
    atl = w.characters["Atl"]
    atl.fame = 7
    run(council(w), "Atl", "desert", city="tenochtitlan", hex="t1")
    assert (atl.fame, atl.role, atl.unit, atl.city, atl.hex, atl.landlord) == (
        3, "peasant", None, "Tenochtitlan", "T1", "Cuauhtli")


def test_desert_without_a_place_goes_to_a_random_hex_of_the_nearest_city() -> None:
    """No city named: the unit's city, Tenochtitlan; its hexes T0, T1, T2, T3: randrange(4) = 2 -> T2.
    A deserting Captain (Ocelotl, Fame 2 -> 1) leaves the captaincy to Atl (alone, Fame 0: randrange(1))."""
    w = aztlan()
    c = council(w, [2, 0])
    run(c, "Ocelotl", "desert")
    o = w.characters["Ocelotl"]
    assert (o.fame, o.city, o.hex, o.role) == (1, "Tenochtitlan", "T2", "peasant")
    assert o.title("Captain") is None and w.units["Jaguar Warriors"].captain == "Atl"
    with pytest.raises(Void, match="in no unit"):
        run(c, "Xochitl", "desert")
    with pytest.raises(Void, match="not a workable hex"):
        run(c, "Atl", "desert", city="Tenochtitlan", hex="Z9")


def test_retire_earns_half_the_fame_rounded_down_and_a_successor_is_drawn() -> None:
    """Ocelotl, Fame 7, retires to X0 in Texcoco: bonus 7 // 2 = 3 -> Fame 10. Atl is the only one left
    (randrange(1) = 0) and becomes Captain. Atl cannot retire (not Captain): he must desert."""
    w = aztlan()
    o = w.characters["Ocelotl"]
    o.fame = 7
    c = council(w, [0])
    with pytest.raises(Void, match="not the Captain"):
        run(c, "Atl", "retire")
    run(c, "Ocelotl", "retire", city="Texcoco", hex="X0")
    assert (o.fame, o.city, o.hex, o.unit, o.role) == (10, "Texcoco", "X0", None, "peasant")
    assert w.units["Jaguar Warriors"].captain == "Atl"
    assert units.retirement_bonus(1) == 0 and units.deserter_fame(1) == 0


def test_disband_scatters_everyone_on_random_hexes_of_the_nearest_city() -> None:
    """Members by name Atl, Ocelotl; hexes T0..T3: randrange(4) = 3 -> Atl on T3, = 1 -> Ocelotl on T1
    (Cuauhtli's tenant). The unit is gone and the GM's to-do says to disband it."""
    w = aztlan()
    c = council(w, [3, 1])
    run(c, "Ocelotl", "disband")
    a, o = w.characters["Atl"], w.characters["Ocelotl"]
    assert (a.hex, a.role, o.hex, o.role, o.landlord) == ("T3", "peasant", "T1", "peasant", "Cuauhtli")
    assert o.title("Captain") is None
    assert "Jaguar Warriors" not in w.units
    assert w.todo == [{"kind": "disband", "character": "Ocelotl", "unit": "Jaguar Warriors", "session": 1,
                       "text": "disband unit Jaguar Warriors"}]


def test_nearest_city_by_position_when_the_gm_names_none() -> None:
    """A unit at (5, 5) with no city (odd-r offsets, places.hex_distance): in cube coordinates (3, -8, 5);
    Tenochtitlan at (0, 0) is (0, 0, 0), 8 steps away; Texcoco at (6, 3) is (6 - 1, -8, 3) = (5, -8, 3),
    max(2, 0, 2) = 2 steps: Texcoco."""
    w = aztlan()
    w.cities["Tenochtitlan"].position = (0, 0)
    w.cities["Texcoco"].position = (6, 3)
    u = Unit("Scouts", position=(5, 5))
    assert units.nearest_city(w, u).name == "Texcoco"


def test_consuming_a_settler_takes_the_captain_and_scatters_the_rest() -> None:
    """"Settling a city ... consumes the Captain of the unit. Any other characters within the unit are
    treated as if the unit had disbanded": Ocelotl leaves the game, Atl to a random hex (randrange(4) = 0:
    T0, the Tlatoani's tenant)."""
    w = aztlan()
    u = w.units["Jaguar Warriors"]
    c = council(w, [0])
    units.consume(c, u, "settled a city")
    assert not w.characters["Ocelotl"].alive
    atl = w.characters["Atl"]
    assert (atl.hex, atl.landlord, u.captain) == ("T0", "Moctezuma", None)


def test_handlers_are_registered() -> None:
    assert {"enlist", "order", "desert", "disband", "retire"} <= set(HANDLERS)
    assert Title("Captain", "X").label() == "Captain of Unit X"


def test_a_captured_worker_holds_its_characters_until_rescued() -> None:
    """"If a settler or worker is captured, all characters within the unit are removed from the game, but
    will be returned if the unit is later rescued": Ocelotl and Atl leave the living (no draw, no death:
    XP kept, the captaincy kept) and come back, in the unit, when it is rescued; the state round-trips."""
    from maild_rules.jungle.model import World

    w = aztlan()
    c = council(w)
    taken = units.capture_unit(c, "Jaguar Warriors")
    assert [t.name for t in taken] == ["Atl", "Ocelotl"]
    assert not w.characters["Atl"].alive and w.characters["Ocelotl"].xp == 4
    assert w.held == {"Jaguar Warriors": ["Atl", "Ocelotl"]}
    w = World.load(w.dump())
    c = council(w)
    back = units.rescue_unit(c, "jaguar warriors")
    assert [b.name for b in back] == ["Atl", "Ocelotl"] and all(b.alive for b in back)
    assert w.units["Jaguar Warriors"].captain == "Ocelotl" and w.held == {}


def test_orders_count_known_names_as_one_word_as_the_ack_does() -> None:
    """The handler counts as the ack (captains.captain_orders, LJ-OQ-51): a level 1 unit, limit 5;
    "attack Jaguar Warriors near Tenochtitlan now" is 5 words with the unit's name as one: within. The
    unit named before a colon is not counted."""
    w = aztlan()
    w.units["Eagles"] = Unit("Eagles", level=1, health=10, captain="Yaotl")
    c = council(w)
    run(c, "Yaotl", "order", unit="Eagles", text="attack Jaguar Warriors near Tenochtitlan now", words=6)
    assert (w.units["Eagles"].orders, w.units["Eagles"].fortify) == ("attack Jaguar Warriors near Tenochtitlan now",
                                                                     False)
