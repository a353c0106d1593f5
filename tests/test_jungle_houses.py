"""Joining the game and the house actions: Procreate, Recruit, Train, Purchase, Join/Split Houses, Propose Rule.

The world is tests/jungle_simple_fixtures.py `aztlan()`: houses aztec (Moctezuma Fame 9 Wisdom 3, Xochitl),
mexica (Cuauhtli Fame 4, Ocelotl), tolteca (Itzel), each with food 20 and gold 50.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from maild_rules.jungle.council import Void
from maild_rules.jungle.houses import (
    check_join,
    current_characters,
    family_cost,
    join,
    join_houses,
    may_sign_up_again,
    note_trapped,
    pool,
    procreate,
    propose_rule,
    purchase,
    recruit,
    split_houses,
    split_share,
    store_groups,
    train,
    train_cost,
)
from maild_rules.jungle.model import Title
from maild_rules.jungle.transfers import transfer_slave
from tests.jungle_simple_fixtures import ScriptedRandom, act, aztlan, council


def test_join_gives_the_rules_peasant_on_a_random_tile() -> None:
    """JOINING THE GAME: "one peasant with XP 1, Wisdom 1, Craftsmanship 1, Fame 0", house "food 0 and gold
    0". No place chosen: the tiles in order are Tenochtitlan T0 T1 T2, Texcoco X0 X1; randrange(5) gives 4,
    so he lives on Texcoco X1. Joined during session 3, he acts from session 4 (since = 3)."""
    w = aztlan()
    ch = join(w, "newbie", "newbie@example.org", "Tochtli", None, None, 3, ScriptedRandom([4]))
    assert (ch.xp, ch.wisdom, ch.craft, ch.fame, ch.role) == (1, 1, 1, 0, "peasant")
    assert (ch.city, ch.hex, ch.since, ch.house) == ("Texcoco", "X1", 3, "newbie")
    h = w.houses["newbie"]
    assert (h.food, h.gold, h.email) == (0, 0, "newbie@example.org")


def test_join_on_a_chosen_hex_with_starting_gold_is_a_tenant() -> None:
    """"you start with gold equal to your AMPU score": setting starting_gold {newbie: 12}. Choosing T1, the
    land of Cuauhtli, makes him Cuauhtli's tenant. A city without a hex draws in that city: randrange(3)
    gives 2, Tenochtitlan's third tile T2."""
    w = aztlan()
    w.settings["starting_gold"] = {"Newbie": 12}
    ch = join(w, "newbie", "n@example.org", "Tochtli", "tenochtitlan", "t1", 1, ScriptedRandom([]))
    assert (ch.city, ch.hex, ch.landlord) == ("Tenochtitlan", "T1", "Cuauhtli")
    assert w.houses["newbie"].gold == 12
    other = join(w, "late", "l@example.org", "Mazatl", "Tenochtitlan", None, 1, ScriptedRandom([2]))
    assert (other.hex, w.houses["late"].gold) == ("T2", 0)


def test_check_join_refuses_with_reasons() -> None:
    w = aztlan()
    assert "taken" in (check_join(w, "itzel", None, None) or "")
    assert "no city" in (check_join(w, "Tochtli", "Atlantis", None) or "")
    assert "no workable hex" in (check_join(w, "Tochtli", "Texcoco", "T1") or "")
    assert check_join(w, "Tochtli", "Texcoco", "X1") is None
    # the starting warrior: before the kick-off only
    assert check_join(w, "Tochtli", "Eagle Warriors", None) is None
    ch = join(w, "newbie", "n@example.org", "Tochtli", "Eagle Warriors", None, 0, ScriptedRandom([]))
    assert (ch.unit, ch.role, ch.hex) == ("Eagle Warriors", "soldier", None)
    w.kicked_off = True
    assert "pre-game" in (check_join(w, "Mazatl", "Eagle Warriors", None) or "")
    with pytest.raises(ValueError, match="taken"):
        join(w, "x", "x@example.org", "TOCHTLI", None, None, 1, ScriptedRandom([0]))


def test_signing_up_again_after_three_sessions_as_slave_tenants() -> None:
    """LJ-OQ-59: Itzel, tolteca's only character, is a slave (of Moctezuma) and a tenant (of Cuauhtli on T1).
    note_trapped in the Evening with world.session = 2 notes 2; at world.session 4 (2 sessions) the house
    may not sign up again, at 5 (3 sessions) it may."""
    w = aztlan()
    transfer_slave(w, w.characters["Itzel"], w.characters["Moctezuma"])
    w.session = 2
    note_trapped(w)
    assert w.houses["tolteca"].trapped_since == 2
    w.session = 4
    assert not may_sign_up_again(w, "tolteca")
    assert "already have characters" in (check_join(w, "Tochtli", None, None, house="tolteca") or "")
    w.session = 5
    assert may_sign_up_again(w, "tolteca")
    assert check_join(w, "Tochtli", None, None, house="tolteca") is None
    w.characters["Itzel"].drop_title("Slave")
    note_trapped(w)
    assert w.houses["tolteca"].trapped_since is None


def test_procreate_costs_food_characters_plus_one_squared() -> None:
    """aztec has 2 characters: (2+1)^2 = 9 food, 20 -> 11; the child lives on Xochitl's hex T2 and acts from
    the next session (council.session = world.session + 1 = 1). A second child now costs (3+1)^2 = 16 > 11:
    void (LJ-OQ-10), and the food stays 11."""
    w = aztlan()
    c = council(w)
    x = w.characters["Xochitl"]
    procreate(c, x, act(x, "procreate", name="Tlaloc Junior"))
    child = w.characters["Tlaloc Junior"]
    assert w.houses["aztec"].food == 11
    assert (child.house, child.hex, child.since, child.xp, child.fame) == ("aztec", "T2", 1, 1, 0)
    with pytest.raises(Void, match="16 food"):
        procreate(c, x, act(x, "procreate"))
    assert w.houses["aztec"].food == 11


def test_procreate_only_on_a_tile() -> None:
    w = aztlan()
    o = w.characters["Ocelotl"]
    with pytest.raises(Void, match="unit"):
        procreate(council(w), o, act(o, "procreate"))


def test_current_characters_count_enslaved_members_not_owned_slaves() -> None:
    """LJ-OQ-56: mexica has Cuauhtli and Ocelotl; Itzel (tolteca) enslaved by Cuauhtli still counts for
    tolteca, not for mexica: mexica 2, tolteca 1. Recruit by Cuauhtli costs (2+1)^2 = 9 Fame; with Fame 4
    void, with Fame 10 he keeps 1 and the recruit is a peasant on T1, Cuauhtli's land, so his tenant."""
    w = aztlan()
    cu = w.characters["Cuauhtli"]
    transfer_slave(w, w.characters["Itzel"], cu)
    assert current_characters(w, "mexica") == 2 and current_characters(w, "tolteca") == 1
    assert family_cost(2) == 9
    c = council(w)
    with pytest.raises(Void, match="9 Fame"):
        recruit(c, cu, act(cu, "recruit"))
    cu.fame = 10
    recruit(c, cu, act(cu, "recruit", name="Itzel"))  # taken: a name of its own
    r = w.characters["Recruit of Cuauhtli"]
    assert cu.fame == 1 and (r.house, r.hex, r.landlord) == ("mexica", "T1", "Cuauhtli")


def test_train_costs_level_plus_one_squared() -> None:
    """Moctezuma's Wisdom 3 -> 4 costs (3+1)^2 = 16 gold: 50 -> 34. XP before the kick-off: void (LJ-OQ-58),
    nothing paid."""
    w = aztlan()
    c = council(w)
    m = w.characters["Moctezuma"]
    assert train_cost(3) == 16
    train(c, m, act(m, "train", attribute="wisdom"))
    assert (m.wisdom, w.houses["aztec"].gold) == (4, 34)
    with pytest.raises(Void, match="before the game"):
        train(c, m, act(m, "train", attribute="xp"))
    assert (m.xp, w.houses["aztec"].gold) == (5, 34)


def test_train_xp_after_kickoff_and_void_when_short() -> None:
    """After the kick-off XP trains: Moctezuma XP 5 -> 6 costs (5+1)^2 = 36 of 50 gold, 14 left. Fame 9 ->
    10 would cost 100 > 14: void, Fame unchanged."""
    w = aztlan()
    w.kicked_off = True
    c = council(w)
    m = w.characters["Moctezuma"]
    train(c, m, act(m, "train", attribute="XP"))
    assert (m.xp, w.houses["aztec"].gold) == (6, 14)
    with pytest.raises(Void, match="100 gold"):
        train(c, m, act(m, "train", attribute="fame"))
    assert m.fame == 9


def test_purchase_three_gold_a_point() -> None:
    """5 hammers cost 15 gold (50 -> 35) and are Xochitl's; 4 food cost 12 (35 -> 23) and go to the store
    (20 -> 24); 8 beakers would cost 24 > 23: void."""
    w = aztlan()
    c = council(w)
    x = w.characters["Xochitl"]
    purchase(c, x, act(x, "purchase", resource="hammers", amount=5))
    assert (x.hammers, w.houses["aztec"].gold) == (5, 35)
    purchase(c, x, act(x, "purchase", resource="food", amount=4))
    assert (w.houses["aztec"].food, w.houses["aztec"].gold) == (24, 23)
    with pytest.raises(Void, match="24 gold"):
        purchase(c, x, act(x, "purchase", resource="beakers", amount=8))
    assert x.beakers == 0


def test_join_houses_needs_both_highest_fame_characters() -> None:
    """Xochitl (Fame 0) is not aztec's highest: void. Moctezuma (9) offers in the Morning; Cuauhtli (4,
    mexica's highest) answers in the Afternoon: mexica joins aztec, whose store now holds 20+20 = 40 food and
    50+50 = 100 gold, shared; mexica's own record holds 0."""
    w = aztlan()
    m, x, cu = (w.characters[n] for n in ("Moctezuma", "Xochitl", "Cuauhtli"))
    with pytest.raises(Void, match="highest Fame"):
        join_houses(council(w), x, act(x, "join houses", **{"with": "Cuauhtli"}))
    join_houses(council(w), m, act(m, "join houses", **{"with": "Cuauhtli"}))
    assert w.houses["mexica"].joined is None
    join_houses(council(w, part="afternoon"), cu, act(cu, "join houses", "afternoon", **{"with": "Moctezuma"}))
    assert w.houses["mexica"].joined == "aztec"
    assert pool(w, "mexica") is w.houses["aztec"]
    assert (w.houses["aztec"].food, w.houses["aztec"].gold) == (40, 100)
    assert (w.houses["mexica"].food, w.houses["mexica"].gold) == (0, 0)
    assert current_characters(w, "mexica") == 4
    # one store feeds the four: aztec's, with Moctezuma, Xochitl, Cuauhtli and Ocelotl
    groups = {h.name: sorted(c.name for c in cs) for h, cs in store_groups(w)}
    assert groups == {"aztec": ["Cuauhtli", "Moctezuma", "Ocelotl", "Xochitl"], "tolteca": ["Itzel"]}


def test_a_join_offer_lapses_with_its_session() -> None:
    w = aztlan()
    m, cu = w.characters["Moctezuma"], w.characters["Cuauhtli"]
    join_houses(council(w), m, act(m, "join houses", **{"with": "Cuauhtli"}))
    w.session = 1  # the next session
    join_houses(council(w), cu, act(cu, "join houses", **{"with": "Moctezuma"}))
    assert w.houses["mexica"].joined is None and w.houses["aztec"].joined is None


def _joined() -> tuple:
    w = aztlan()
    m, cu = w.characters["Moctezuma"], w.characters["Cuauhtli"]
    join_houses(council(w), m, act(m, "join houses", **{"with": "Cuauhtli"}))
    join_houses(council(w), cu, act(cu, "join houses", **{"with": "Moctezuma"}))
    return w, m, cu


def test_split_houses_takes_a_random_fraction_of_the_stores() -> None:
    """LJ-OQ-55: joined store 40 food, 100 gold. Cuauhtli (mexica's highest) splits: Random Numbers 0.37 and
    0.50: mexica takes floor(40 x 0.37) = floor(14.8) = 14 food and floor(100 x 0.5) = 50 gold; aztec keeps
    26 and 50."""
    w, m, cu = _joined()
    assert split_share(40, Fraction(37, 100)) == 14
    split_houses(council(w, ScriptedRandom([37, 50])), cu, act(cu, "split houses"))
    assert w.houses["mexica"].joined is None
    assert (w.houses["mexica"].food, w.houses["mexica"].gold) == (14, 50)
    assert (w.houses["aztec"].food, w.houses["aztec"].gold) == (26, 50)


def test_split_by_the_house_that_kept_the_stores() -> None:
    """Moctezuma's aztec (which keeps the joined store) leaves with R = 0.25 and 0.10: floor(40 x 0.25) = 10
    food, floor(100 x 0.1) = 10 gold; mexica gets the rest, 30 and 90. Ocelotl (mexica, Fame 2) could not
    have split it: Cuauhtli (4) is mexica's highest."""
    w, m, cu = _joined()
    o = w.characters["Ocelotl"]
    with pytest.raises(Void, match="highest Fame"):
        split_houses(council(w), o, act(o, "split houses"))
    split_houses(council(w, ScriptedRandom([25, 10])), m, act(m, "split houses"))
    assert (w.houses["aztec"].food, w.houses["aztec"].gold) == (10, 10)
    assert (w.houses["mexica"].food, w.houses["mexica"].gold, w.houses["mexica"].joined) == (30, 90, None)
    with pytest.raises(Void, match="not joined"):
        split_houses(council(w), m, act(m, "split houses"))


def test_propose_rule_takes_25_points_from_free_characters() -> None:
    """Moctezuma XP 20: 16 XP (20 -> 4) and 9 Fame (9 -> 0) from him make 25: taken, and the proposal goes to
    the GM's list. 24 points: void. A slave's points: void."""
    w = aztlan()
    m = w.characters["Moctezuma"]
    m.xp = 20
    c = council(w)
    short = [{"character": "Moctezuma", "attribute": "xp", "amount": 24}]
    with pytest.raises(Void, match="24 points"):
        propose_rule(c, m, act(m, "propose rule", text="More gods", offering=short))
    offering = [{"character": "Moctezuma", "attribute": "xp", "amount": 16},
                {"character": "Moctezuma", "attribute": "Fame", "amount": 9}]
    propose_rule(c, m, act(m, "propose rule", text="More gods", offering=offering))
    assert (m.xp, m.fame) == (4, 0)
    assert w.proposals[-1]["text"] == "More gods" and w.proposals[-1]["house"] == "aztec"
    x = w.characters["Xochitl"]
    x.titles.append(Title("Slave", "Cuauhtli"))
    x.fame = 30
    with pytest.raises(Void, match="slave"):
        propose_rule(c, m, act(m, "propose rule", text="x",
                               offering=[{"character": "Xochitl", "attribute": "fame", "amount": 25}]))


def test_propose_rule_with_the_last_xp_kills() -> None:
    """LJ-OQ-57: XP 25 offered by a character with XP 25 leaves 0: "A character with 0 XP immediately dies"."""
    w = aztlan()
    m = w.characters["Moctezuma"]
    m.xp = 25
    # The dead Tlatoani's successor is drawn by Fame (cities.after_death): Cuauhtli 4, Itzel 1, Xochitl 0 in
    # Tenochtitlan, randrange(5) = 0 -> Cuauhtli.
    propose_rule(council(w, ScriptedRandom([0])), m, act(m, "propose rule", text="x",
                 offering=[{"character": "Moctezuma", "attribute": "xp", "amount": 25}]))
    assert not m.alive
    assert w.cities["Tenochtitlan"].tlatoani == "Cuauhtli"


def test_split_names_the_leaving_house_by_its_characters() -> None:
    """"the highest Fame character of either house": Moctezuma (aztec's highest) names Ocelotl, of mexica, as
    leaving: mexica leaves with floor(40 x 0.5) = 20 food and floor(100 x 0.2) = 20 gold. Naming Ocelotl and
    Xochitl (two houses) is void: characters go with their player's house."""
    w, m, cu = _joined()
    with pytest.raises(Void, match="different houses"):
        split_houses(council(w), m, act(m, "split houses", leaving=["Ocelotl", "Xochitl"]))
    split_houses(council(w, ScriptedRandom([50, 20])), m, act(m, "split houses", leaving=["Ocelotl"]))
    assert (w.houses["mexica"].food, w.houses["mexica"].gold, w.houses["mexica"].joined) == (20, 20, None)
    assert (w.houses["aztec"].food, w.houses["aztec"].gold) == (20, 80)
