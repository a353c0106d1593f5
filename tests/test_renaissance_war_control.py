"""Control of locations (war/control.py): office transfers by simultaneous orders, de facto control (its transfer,
its passing by force, looting), towers (transfer, combining, garrisons, who is inside one). Figures worked by hand
from the rules' words; readings C1... are docs/renaissance/war.md, section "control"."""

from __future__ import annotations

from typing import Any

import pytest

from maild.ruleset import SetupError
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.setup import new_game
from maild_rules.renaissance.war import control, limits
from maild_rules.renaissance.war.forces import ATTACKER, DEFENDER, BattleResult, StageReport
from tests.renaissance_fixtures import month_ctx, small_setup
from tests.renaissance_fixtures import war_persona as persona
from tests.renaissance_fixtures import war_town as town

FAMILIES = ("MEDICI", "DORIA", "SFORZA", "BORGIA", "ORSINI")


def world(personae: list[dict[str, Any]], locations: list[dict[str, Any]], turn: int = 5) -> Ctx:
    families = {f: {"player": None, "religion": "catholic", "personae": []} for f in FAMILIES}
    return month_ctx(personae, locations, turn=turn, families=families)


def order(ctx: Ctx, pid: str, office: str, to: str, where: str = "Pisa") -> Any:
    return control.transfer_office(ctx, ctx.state["personae"][pid], {"office": office, "to": to, "location": where})


def pisa(ctx: Ctx) -> dict[str, Any]:
    return ctx.state["locations"]["Pisa"]


# ---- the tenancy: the simultaneous order of sovereign, feudatory and de facto controller -------------------------

def three_holders(**kw: Any) -> Ctx:
    """Pisa: sovereign 0101 (Medici), feudatory 0201 (Doria), tenant 0301 (Sforza), garrison 120, loyalty 301."""
    return world([persona("0101", "MEDICI"), persona("0201", "DORIA"), persona("0301", "SFORZA"),
                  persona("0401", "BORGIA")],
                 [town(loyalty=301, garrison=120, offices={"sovereign": "0101", "feudatory": "0201",
                                                           "tenant": "0301", **kw})])


def test_tenancy_moves_with_all_three_orders_and_halves_loyalty_and_disbands_the_garrison() -> None:
    ctx = three_holders()
    for pid in ("0101", "0201", "0301"):
        assert order(ctx, pid, "tenant", "0401").ok
    assert pisa(ctx)["offices"]["tenant"] == "0301"  # nothing moves until every order is in: the month's end
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["tenant"] == "0401"
    # "reduces loyalty by 50%": 301 / 2 = 150.5, a loss rounded up = 151 -> 301 - 151 = 150.
    assert pisa(ctx)["loyalty"] == 150
    assert pisa(ctx)["garrison"] == 0  # "and disbands the garrison" (120 -> 0)


def test_tenancy_does_not_move_when_one_order_is_missing() -> None:
    ctx = three_holders()
    assert order(ctx, "0101", "tenant", "0401").ok
    assert order(ctx, "0201", "tenant", "0401").ok  # the tenant (0301, the de facto controller) gives none
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["tenant"] == "0301"
    assert (pisa(ctx)["loyalty"], pisa(ctx)["garrison"]) == (301, 120)
    assert any("de facto controller" in m and "not given" in m for m in ctx.messages["MEDICI"])


def test_orders_for_different_recipients_do_not_add_up() -> None:
    ctx = three_holders()
    assert order(ctx, "0101", "tenant", "0401").ok
    assert order(ctx, "0201", "tenant", "0401").ok
    assert order(ctx, "0301", "tenant", "0101").ok  # the tenant names another recipient
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["tenant"] == "0301"


def test_one_persona_holding_two_offices_gives_one_order_for_both() -> None:
    # 0101 is sovereign and feudatory: his one order counts for both; with the tenant's, all three are in.
    ctx = world([persona("0101", "MEDICI"), persona("0301", "SFORZA"), persona("0401", "BORGIA")],
                [town(loyalty=300, offices={"sovereign": "0101", "feudatory": "0101", "tenant": "0301"})])
    outcome = order(ctx, "0101", "tenant", "0401")
    assert outcome.ok and "sovereign and feudatory" in outcome.text
    assert order(ctx, "0301", "tenant", "0401").ok
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["tenant"] == "0401"
    assert pisa(ctx)["loyalty"] == 150  # 300 / 2 = 150 exactly


def test_a_separate_de_facto_controller_orders_in_the_tenants_place() -> None:
    # Control has passed to 0201: the tenancy needs the sovereign (0101) and the de facto controller (0201), and
    # there is no feudatory (vacant: no one to order, reading C3). The tenant's own order is not asked for.
    ctx = world([persona("0101", "MEDICI"), persona("0201", "DORIA"), persona("0301", "SFORZA"),
                 persona("0401", "BORGIA")],
                [town(loyalty=200, offices={"sovereign": "0101", "tenant": "0301", "dfc": "0201"})])
    assert not order(ctx, "0301", "tenant", "0401").ok  # the tenant is no longer the de facto controller
    assert order(ctx, "0101", "tenant", "0401").ok
    assert order(ctx, "0201", "tenant", "0401").ok
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["tenant"] == "0401"
    assert pisa(ctx)["offices"]["dfc"] == "0201"  # the separate control stays where it was
    assert pisa(ctx)["loyalty"] == 100  # 200 -> 100


def test_a_non_player_office_holder_gives_no_order_so_the_transfer_cannot_be_made() -> None:
    ctx = world([persona("0201", "DORIA"), persona("0401", "BORGIA")],
                [town(offices={"sovereign": "Ludovico Sforza", "tenant": "0201"})])
    outcome = order(ctx, "0201", "tenant", "0401")
    assert not outcome.ok and "Ludovico Sforza" in outcome.text


def test_only_the_named_holders_may_order() -> None:
    ctx = three_holders()
    assert not order(ctx, "0401", "tenant", "0401").ok  # he holds none of the three offices
    # Sovereignty is transferred "by its de facto controller" alone (here the tenant 0301): not by the feudatory.
    assert not order(ctx, "0201", "sovereign", "0401").ok
    assert order(ctx, "0301", "sovereign", "0401").ok


# ---- feudatory status and sovereignty: the ranks -----------------------------------------------------------------

@pytest.mark.parametrize(("rank", "ok"), [
    ("knight", False), ("baronet", False), ("chevalier", False), ("baron", False), ("viscount", False),
    ("count", True), ("duke", True), ("none", True),
])
def test_feudatory_status_is_never_given_to_a_knight_baronet_chevalier_baron_or_viscount(rank: str, ok: bool) -> None:
    ctx = three_holders()
    ctx.state["personae"]["0401"]["rank"] = rank
    assert order(ctx, "0101", "feudatory", "0401").ok is ok


@pytest.mark.parametrize(("rank", "ok"), [
    ("knight", False), ("baron", False), ("count", False), ("marquis", False),  # feudal, below duke (140)
    ("duke", True), ("grand duke", True), ("king", True),
    ("none", True),  # no feudal title at all (reading C4)
    ("sultan", True), ("emir", True),  # THE ISLAMIC HIERARCHY: they "qualify to be sovereigns"
])
def test_sovereignty_is_never_given_to_a_feudal_title_below_duke(rank: str, ok: bool) -> None:
    ctx = three_holders()
    ctx.state["personae"]["0401"]["rank"] = rank
    assert order(ctx, "0301", "sovereign", "0401").ok is ok  # the tenant is de facto controller: he alone orders


def test_feudatory_needs_sovereign_and_controller_and_halves_loyalty() -> None:
    ctx = three_holders()
    ctx.state["personae"]["0401"]["rank"] = "count"
    assert order(ctx, "0101", "feudatory", "0401").ok
    assert order(ctx, "0301", "feudatory", "0401").ok
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["feudatory"] == "0401"
    assert pisa(ctx)["loyalty"] == 150  # 301 -> loses 151
    assert pisa(ctx)["garrison"] == 120  # only a tenancy transfer disbands the garrison


# ---- the same-month exclusions (reading C2) ----------------------------------------------------------------------

def test_sovereignty_stands_and_tenancy_ordered_the_same_month_is_void() -> None:
    ctx = three_holders()
    ctx.state["personae"]["0401"]["rank"] = "duke"
    for pid in ("0101", "0201", "0301"):
        assert order(ctx, pid, "tenant", "0401").ok  # the tenancy orders come first in the month...
    assert order(ctx, "0301", "sovereign", "0401").ok  # ...the sovereignty order after: sovereignty still wins
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["sovereign"] == "0401"
    assert pisa(ctx)["offices"]["tenant"] == "0301"
    assert pisa(ctx)["loyalty"] == 150  # halved once: 301 -> 150
    assert pisa(ctx)["garrison"] == 120  # no tenancy transfer, no disbanding
    assert any("may not be transferred in the same month" in m for m in ctx.messages["SFORZA"])


def test_sovereignty_stands_and_feudatory_ordered_the_same_month_is_void() -> None:
    ctx = three_holders()
    ctx.state["personae"]["0401"]["rank"] = "duke"
    assert order(ctx, "0101", "feudatory", "0401").ok
    assert order(ctx, "0301", "feudatory", "0401").ok
    assert order(ctx, "0301", "sovereign", "0401").ok
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["sovereign"] == "0401"
    assert pisa(ctx)["offices"]["feudatory"] == "0201"


def test_feudatory_stands_and_tenancy_ordered_the_same_month_is_void() -> None:
    ctx = three_holders()
    ctx.state["personae"]["0401"]["rank"] = "count"
    for pid in ("0101", "0201", "0301"):
        assert order(ctx, pid, "tenant", "0401").ok
    assert order(ctx, "0101", "feudatory", "0401").ok
    assert order(ctx, "0301", "feudatory", "0401").ok
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["feudatory"] == "0401"
    assert pisa(ctx)["offices"]["tenant"] == "0301"
    assert pisa(ctx)["loyalty"] == 150


def test_an_incomplete_sovereignty_order_does_not_block_the_tenancy() -> None:
    # Only a transfer carried out forbids the others: a sovereignty order refused at settlement blocks nothing.
    ctx = three_holders()
    ctx.state["personae"]["0401"]["rank"] = "duke"
    for pid in ("0101", "0201", "0301"):
        assert order(ctx, pid, "tenant", "0401").ok
    assert order(ctx, "0301", "sovereign", "0401").ok
    ctx.state["personae"]["0401"]["rank"] = "count"  # demoted before the month's end: no longer eligible
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["sovereign"] == "0101"
    assert pisa(ctx)["offices"]["tenant"] == "0401"


# ---- an office's tower when the office leaves the family (reading C5) --------------------------------------------

def test_the_sovereigns_tower_becomes_the_old_sovereigns_family_tower_combined_and_capped() -> None:
    ctx = world([persona("0101", "MEDICI", rank="duke"), persona("0201", "DORIA", rank="duke")],
                [town(offices={"sovereign": "0101", "tenant": "0101"},
                      towers=[{"name": "Cittadella", "fas": 50, "owner": "sovereign"},
                              {"name": "Torre Medici", "fas": 980, "owner": "MEDICI"}])])
    assert order(ctx, "0101", "sovereign", "0201").ok
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["sovereign"] == "0201"
    # The Medici lose the office: its tower becomes theirs; they own one already, so the two combine:
    # 980 + 50 = 1,030, capped at 999 (RW-OQ-36); one tower is left, numbered 1.
    assert pisa(ctx)["towers"] == [{"name": "Torre Medici", "fas": 999, "owner": "MEDICI"}]


def test_an_office_passed_within_the_family_keeps_its_tower() -> None:
    ctx = world([persona("0101", "MEDICI"), persona("0102", "MEDICI", rank="duke")],
                [town(offices={"sovereign": "0101", "tenant": "0101"},
                      towers=[{"name": "Cittadella", "fas": 50, "owner": "sovereign"}])])
    assert order(ctx, "0101", "sovereign", "0102").ok
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["towers"][0]["owner"] == "sovereign"


# ---- de facto control: its transfer and its return to the tenancy (RW-OQ-29) -------------------------------------

def separate_control(**kw: Any) -> Ctx:
    """Pisa: tenant 0301 (Sforza), de facto control passed to 0201 (Doria) in turn 3; now turn 5."""
    return world([persona("0101", "MEDICI"), persona("0201", "DORIA"), persona("0301", "SFORZA"),
                  persona("0401", "BORGIA")],
                 [town(loyalty=300, dfc_since=3, offices={"sovereign": "0101", "tenant": "0301", "dfc": "0201"},
                       **kw)])


def test_a_separate_controller_transfers_control_freely_without_loyalty_change() -> None:
    ctx = separate_control()
    outcome = control.transfer_control(ctx, ctx.state["personae"]["0201"], {"to": "0401", "location": "Pisa"})
    assert outcome.ok
    assert pisa(ctx)["offices"]["dfc"] == "0401"
    assert pisa(ctx)["dfc_since"] == 5  # he becomes controller this month (turn 5): looting from turn 6
    assert pisa(ctx)["loyalty"] == 300  # "The transfer of de facto control has no impact on loyalty."


def test_control_transferred_to_the_tenant_rests_with_the_tenancy_again() -> None:
    ctx = separate_control()
    assert control.transfer_control(ctx, ctx.state["personae"]["0201"], {"to": "0301", "location": "Pisa"}).ok
    assert pisa(ctx)["offices"]["dfc"] is None
    assert "dfc_since" not in pisa(ctx)
    assert pisa(ctx)["loyalty"] == 300


def test_control_resting_with_the_tenancy_is_not_transferred_by_od() -> None:
    ctx = three_holders()
    outcome = control.transfer_control(ctx, ctx.state["personae"]["0301"], {"to": "0401", "location": "Pisa"})
    assert not outcome.ok and "tenancy" in outcome.text
    assert not control.transfer_control(ctx, ctx.state["personae"]["0401"], {"to": "0401", "location": "Pisa"}).ok


def test_a_tenancy_given_to_the_separate_controller_ends_the_separation() -> None:
    ctx = separate_control()
    assert order(ctx, "0101", "tenant", "0201").ok
    assert order(ctx, "0201", "tenant", "0201").ok
    control.settle_office_transfers(ctx)
    assert pisa(ctx)["offices"]["tenant"] == "0201"
    assert pisa(ctx)["offices"]["dfc"] is None and "dfc_since" not in pisa(ctx)


# ---- control taken by force --------------------------------------------------------------------------------------

def result(kind: str, losses: dict[str, dict[str, int]], survivors: dict[str, dict[str, int]],
           dead: list[str] | None = None, victor: str | None = None) -> BattleResult:
    return BattleResult(kind=kind, stages=[StageReport(1, "urban melee", losses=losses)], survivors=survivors,
                        dead=dead or [], victor=victor)


def test_set_controller_disbands_a_garrison_and_records_the_month() -> None:
    ctx = three_holders()
    control.set_controller(ctx, "Pisa", "0401")
    assert pisa(ctx)["offices"]["dfc"] == "0401" and pisa(ctx)["dfc_since"] == 5
    assert pisa(ctx)["garrison"] == 0  # separate control "may not have garrison troops" (reading C7)


def test_set_controller_to_the_tenant_returns_control_to_the_tenancy() -> None:
    ctx = separate_control()
    control.set_controller(ctx, "Pisa", "0301")
    assert pisa(ctx)["offices"]["dfc"] is None and "dfc_since" not in pisa(ctx)


def test_eliminating_the_garrison_gives_control() -> None:
    # The garrison (120, the defender's) is eliminated: 120 lost, 0 left. The attacker 0401 takes control.
    ctx = three_holders()
    pisa(ctx)["garrison"] = 0  # as battle.py leaves it after applying the result
    r = result("urban", {DEFENDER: {"garrison": 120}, ATTACKER: {"pikeman": 40}},
               {DEFENDER: {}, ATTACKER: {"pikeman": 160}}, victor=ATTACKER)
    assert control.control_after_battle(ctx, "Pisa", r, "0401", "0301", "urban") == "0401"
    assert pisa(ctx)["offices"]["dfc"] == "0401"


def test_a_garrison_not_eliminated_keeps_control_with_the_tenancy() -> None:
    ctx = three_holders()
    pisa(ctx)["garrison"] = 20
    r = result("urban", {DEFENDER: {"garrison": 100}, ATTACKER: {"pikeman": 40}},
               {DEFENDER: {"garrison": 20}, ATTACKER: {"pikeman": 160}})
    assert control.control_after_battle(ctx, "Pisa", r, "0401", "0301", "urban") is None
    assert pisa(ctx)["offices"]["dfc"] is None


def test_defeat_one_the_controller_attacked_in_urban_battle_while_absent() -> None:
    ctx = separate_control()
    ctx.state["personae"]["0201"]["location"] = "Florence"  # the controller is away
    assert control.control_after_battle(ctx, "Pisa", None, "0401", "0201", "urban") == "0401"
    assert pisa(ctx)["offices"]["dfc"] == "0401" and pisa(ctx)["dfc_since"] == 5


def test_defeat_one_the_controller_attacked_in_urban_battle_inside_his_tower() -> None:
    ctx = separate_control(towers=[{"name": "Torre Doria", "fas": 40, "owner": "DORIA"}])
    assert control.tower_of(ctx.state, ctx.state["personae"]["0201"]) == 1
    assert control.control_after_battle(ctx, "Pisa", None, "0401", "0201", "urban") == "0401"


def test_defeat_two_the_controller_killed_by_a_survivor() -> None:
    ctx = separate_control()
    r = result("urban", {DEFENDER: {"pikeman": 50}, ATTACKER: {"pikeman": 80}},
               {DEFENDER: {}, ATTACKER: {"pikeman": 20}}, dead=["0201"], victor=ATTACKER)
    assert control.control_after_battle(ctx, "Pisa", r, "0401", "0201", "urban") == "0401"


def test_no_defeat_when_both_are_killed() -> None:
    ctx = separate_control()
    r = result("urban", {DEFENDER: {"pikeman": 50}, ATTACKER: {"pikeman": 80}},
               {DEFENDER: {}, ATTACKER: {}}, dead=["0201", "0401"])
    assert control.control_after_battle(ctx, "Pisa", r, "0401", "0201", "urban") is None
    assert pisa(ctx)["offices"]["dfc"] == "0201"


def test_defeat_three_the_controller_suffers_greater_losses() -> None:
    # The controller attacks 0401 and loses 50 men to 30: numerically greater losses, opponent alive.
    ctx = separate_control()
    r = result("urban", {ATTACKER: {"pikeman": 50}, DEFENDER: {"archer": 30}},
               {ATTACKER: {"pikeman": 50}, DEFENDER: {"archer": 70}}, victor=DEFENDER)
    assert control.control_after_battle(ctx, "Pisa", r, "0201", "0401", "urban") == "0401"


def test_equal_losses_are_no_defeat() -> None:
    ctx = separate_control()
    r = result("urban", {ATTACKER: {"pikeman": 30}, DEFENDER: {"archer": 30}},
               {ATTACKER: {"pikeman": 70}, DEFENDER: {"archer": 70}})
    assert control.control_after_battle(ctx, "Pisa", r, "0201", "0401", "urban") is None


def test_greater_losses_while_successfully_assaulting_a_tower_are_no_defeat() -> None:
    ctx = separate_control()
    r = result("tower", {ATTACKER: {"pikeman": 50}, DEFENDER: {"garrison": 4, "archer": 26}},
               {ATTACKER: {"pikeman": 50}, DEFENDER: {}}, victor=ATTACKER)
    assert control.control_after_battle(ctx, "Pisa", r, "0201", "0401", "tower") is None
    assert pisa(ctx)["offices"]["dfc"] == "0201"


def test_greater_losses_in_a_field_battle_are_no_defeat() -> None:
    # A field battle is "fought outside of fortifications", not "inside the location".
    ctx = separate_control()
    r = result("field", {ATTACKER: {"pikeman": 50}, DEFENDER: {"archer": 30}},
               {ATTACKER: {"pikeman": 50}, DEFENDER: {"archer": 70}})
    assert control.control_after_battle(ctx, "Pisa", r, "0201", "0401", "field") is None


def test_the_tenant_outnumbered_inside_the_walls_loses_control() -> None:
    # No garrison, control with the tenancy (0301). 0401, inside, ordered urban battle against him and ends with
    # 300 troops inside against the tenant's 200 (his 500 crew are not troops): 300 > 200, he takes control.
    ctx = world([persona("0301", "SFORZA", assets={"pikeman": 200, "crew": 500}),
                 persona("0401", "BORGIA", assets={"pikeman": 300})],
                [town(offices={"tenant": "0301"})])
    r = result("urban", {ATTACKER: {"pikeman": 20}, DEFENDER: {"pikeman": 20}},
               {ATTACKER: {"pikeman": 300}, DEFENDER: {"pikeman": 200, "crew": 500}})
    assert control.control_after_battle(ctx, "Pisa", r, "0401", "0301", "urban") == "0401"


def test_the_tenant_not_outnumbered_keeps_control() -> None:
    ctx = world([persona("0301", "SFORZA", assets={"pikeman": 200}),
                 persona("0401", "BORGIA", assets={"pikeman": 200})],
                [town(offices={"tenant": "0301"})])
    r = result("urban", {ATTACKER: {"pikeman": 20}, DEFENDER: {"pikeman": 20}},
               {ATTACKER: {"pikeman": 200}, DEFENDER: {"pikeman": 200}})
    assert control.control_after_battle(ctx, "Pisa", r, "0401", "0301", "urban") is None  # 200 is not more than 200


def test_the_tenant_in_his_tower_still_counts_his_troops_inside_the_walls() -> None:
    # "even if the tenant should be inside a tower": no battle (None); 150 against his 200 in the tower: no control.
    ctx = world([persona("0301", "SFORZA", assets={"pikeman": 200}),
                 persona("0401", "BORGIA", assets={"pikeman": 150})],
                [town(offices={"tenant": "0301"}, towers=[{"name": "T", "fas": 300, "owner": "SFORZA"}])])
    assert control.control_after_battle(ctx, "Pisa", None, "0401", "0301", "urban") is None
    ctx.state["personae"]["0401"]["assets"]["pikeman"] = 201
    assert control.control_after_battle(ctx, "Pisa", None, "0401", "0301", "urban") == "0401"


def test_an_assault_of_the_walls_gives_control_and_one_of_a_tower_gives_the_tower() -> None:
    ctx = world([persona("0301", "SFORZA"), persona("0401", "BORGIA", inside=False)],
                [town(offices={"tenant": "0301"}, garrison=10,
                      towers=[{"name": "Torre Borgia", "fas": 600, "owner": "BORGIA"},
                              {"name": "Cittadella", "fas": 500, "owner": "tenant"}])])
    control.assault_taken(ctx, "Pisa", "0401")
    assert pisa(ctx)["offices"]["dfc"] == "0401" and pisa(ctx)["garrison"] == 0
    control.assault_taken(ctx, "Pisa", "0401", tower=2)
    # "the family of the assaulter becomes its new owner"; Borgia own tower 1: combined, 600 + 500 = 1,100 -> 999.
    assert pisa(ctx)["towers"] == [{"name": "Torre Borgia", "fas": 999, "owner": "BORGIA"}]


# ---- looting (RW-OQ-29, reading C10) -----------------------------------------------------------------------------

def looter(wealth: int = 150, loyalty: int = 300, soldiers: int = 500, since: int = 4, **offices: str) -> Ctx:
    return world([persona("0201", "DORIA", assets={"pikeman": soldiers, "crew": 200, "ducats": 1000})],
                 [town(wealth=wealth, loyalty=loyalty, dfc_since=since,
                       offices={"tenant": "0301", "dfc": "0201", **offices})])


def loot(ctx: Ctx) -> Any:
    return control.loot(ctx, ctx.state["personae"]["0201"], {})


def test_looting_takes_seven_percent_of_wealth_to_the_nearest_a_half_up_and_caps_ducats_per_soldier() -> None:
    ctx = looter(wealth=150, soldiers=500)
    assert loot(ctx).ok
    # 7% of 150 = 10.5 -> 11 (nearest, a half up): wealth 139.
    assert pisa(ctx)["wealth"] == 139
    # Twice one month's taxes: 2 x (150 x 10,000 / 100) = 30,000; at most 10 per soldier: 500 pikemen (the 200 crew
    # excluded) = 5,000. He gets 5,000: 1,000 + 5,000 = 6,000.
    assert ctx.state["personae"]["0201"]["assets"]["ducats"] == 6000
    assert pisa(ctx)["loyalty"] == 300  # he is not the sovereign
    assert limits.pinned(ctx, "0201")  # "Troops ordered to loot may not move"
    assert control.looted(ctx, "0201")
    assert not loot(ctx).ok  # once a month


def test_looting_below_the_soldier_cap_gives_twice_the_taxes() -> None:
    ctx = looter(wealth=130, soldiers=10000)
    assert loot(ctx).ok
    assert pisa(ctx)["wealth"] == 121  # 7% of 130 = 9.1 -> 9
    # 2 x (130 x 10,000 / 100) = 26,000 < 10 x 10,000 = 100,000.
    assert ctx.state["personae"]["0201"]["assets"]["ducats"] == 1000 + 26000


def test_looting_only_in_a_month_after_becoming_controller() -> None:
    assert not loot(looter(since=5)).ok  # became controller this month (turn 5)
    assert loot(looter(since=4)).ok  # the month before: allowed


def test_the_tenant_may_not_loot() -> None:
    ctx = world([persona("0301", "SFORZA", assets={"pikeman": 100})], [town(offices={"tenant": "0301"})])
    assert not control.loot(ctx, ctx.state["personae"]["0301"], {}).ok


def test_a_looter_with_no_soldiers_loots_nothing() -> None:
    ctx = looter(soldiers=0)
    assert not loot(ctx).ok
    assert pisa(ctx)["wealth"] == 150


def test_a_looter_who_moved_or_fought_may_not_loot_but_one_held_in_place_may() -> None:
    moved = looter()
    moved.state["personae"]["0201"]["inside"] = False  # he began the month inside the walls: he has moved
    assert not loot(moved).ok and pisa(moved)["wealth"] == 150
    fought = looter()
    limits.fought(fought, "0201")  # "may not execute other orders subsequently ... after having executed battle orders"
    assert not loot(fought).ok
    held = looter()
    limits.pin(held, "0201", "he is attempting an assassination")  # held at his location: looting moves nothing
    assert loot(held).ok


@pytest.mark.parametrize(("loyalty", "after"), [
    (150, 50),   # 50% of 150 = 75 < 100: the greater is 100 -> 50
    (301, 150),  # 50% of 301 = 150.5 -> 151 (a loss, up) > 100 -> 150
    (60, 0),     # 100 > 60: loyalty stops at 0
])
def test_a_sovereign_looting_his_own_location_loses_the_greater_of_half_or_100_loyalty(loyalty: int,
                                                                                        after: int) -> None:
    ctx = looter(loyalty=loyalty, sovereign="0201")
    assert loot(ctx).ok
    assert pisa(ctx)["loyalty"] == after


# ---- towers: transfer, combining, the 17, waiting for ingress ----------------------------------------------------

def tower_town(towers: list[dict[str, Any]], **kw: Any) -> Ctx:
    return world([persona("0101", "MEDICI", rank="duke"), persona("0201", "DORIA")],
                 [town(towers=towers, offices={"sovereign": "0101"}, **kw)])


def give(ctx: Ctx, pid: str, n: int, to: str) -> Any:
    return control.transfer_tower(ctx, ctx.state["personae"][pid], {"tower": n, "to": to})


def test_a_family_tower_transferred_to_another_family_which_then_waits_for_ingress() -> None:
    ctx = tower_town([{"name": "Torre", "fas": 30, "owner": "MEDICI"}])
    outcome = give(ctx, "0101", 1, "DORIA")
    assert outcome.ok
    assert pisa(ctx)["towers"][0]["owner"] == "DORIA"
    # INGRESS: "Recipients of towers ... are recorded as 'waiting for ingress'": added this turn (5).
    assert pisa(ctx)["ingress_waiting"] == [{"family": "DORIA", "added": 5}]


def test_a_tower_given_to_a_family_that_owns_one_is_combined_capped_at_999() -> None:
    ctx = tower_town([{"name": "Torre Medici", "fas": 30, "owner": "MEDICI"},
                      {"name": "Torre Doria", "fas": 980, "owner": "DORIA"}])
    assert give(ctx, "0101", 1, "DORIA").ok
    # 980 + 30 = 1,010 -> 999 (RW-OQ-36); the Doria tower is now number 1.
    assert pisa(ctx)["towers"] == [{"name": "Torre Doria", "fas": 999, "owner": "DORIA"}]


def test_combined_towers_below_the_cap_sum_their_ratings() -> None:
    ctx = tower_town([{"name": "A", "fas": 30, "owner": "MEDICI"}, {"name": "B", "fas": 45, "owner": "DORIA"}])
    assert give(ctx, "0101", 1, "DORIA").ok
    assert pisa(ctx)["towers"] == [{"name": "B", "fas": 75, "owner": "DORIA"}]  # 30 + 45


def test_an_office_tower_to_an_eighteenth_family_is_refused() -> None:
    families = [f"F{chr(65 + i)}" for i in range(17)]
    towers = [{"name": f"T{i}", "fas": 10, "owner": f} for i, f in enumerate(families)]
    towers.append({"name": "Cittadella", "fas": 100, "owner": "sovereign"})
    ctx = tower_town(towers)
    for f in families:
        ctx.state["families"][f] = {"player": None, "personae": []}
    outcome = give(ctx, "0101", 18, "DORIA")  # 17 family towers already: an 18th may not be made
    assert not outcome.ok and "17" in outcome.text
    assert give(ctx, "0101", 18, "FA").ok  # to a family that has one: combined, still 17 (10 + 100 = 110)
    assert pisa(ctx)["towers"][0] == {"name": "T0", "fas": 110, "owner": "FA"}
    assert len(pisa(ctx)["towers"]) == 17


def test_only_the_owner_transfers_and_never_under_siege() -> None:
    ctx = tower_town([{"name": "Torre", "fas": 30, "owner": "MEDICI"}])
    assert not give(ctx, "0201", 1, "DORIA").ok  # not his family's
    assert not give(ctx, "0101", 2, "DORIA").ok  # no tower 2
    pisa(ctx)["siege"] = {"besieger": "0401", "ordered": 3, "since": 4, "months": 1, "blocked": [4]}
    outcome = give(ctx, "0101", 1, "DORIA")
    assert not outcome.ok and "under siege" in outcome.text
    pisa(ctx)["siege"]["since"] = None  # ordered but not yet in effect: no siege yet
    assert give(ctx, "0101", 1, "DORIA").ok


def test_an_office_holder_transfers_his_office_tower_to_an_office() -> None:
    ctx = tower_town([{"name": "Cittadella", "fas": 100, "owner": "sovereign"}])
    pisa(ctx)["offices"]["magistrate"] = "0201"
    assert give(ctx, "0101", 1, "MAGISTRATE").ok
    assert pisa(ctx)["towers"][0]["owner"] == "magistrate"
    assert pisa(ctx)["ingress_waiting"] == [{"family": "DORIA", "added": 5}]  # the magistrate's family waits


# ---- tower garrisons ---------------------------------------------------------------------------------------------

def test_a_tower_garrison_is_ten_percent_of_fas_rounded_down_less_its_losses() -> None:
    ctx = tower_town([{"name": "Torre", "fas": 57, "owner": "MEDICI"}])
    assert control.tower_garrison(ctx, "Pisa", 1) == 5  # 10% of 57 = 5.7 -> 5
    assert control.lose_tower_garrison(ctx, "Pisa", 1, 3) == 3
    assert control.tower_garrison(ctx, "Pisa", 1) == 2
    assert control.lose_tower_garrison(ctx, "Pisa", 1, 5) == 2  # only 2 left to lose
    assert control.tower_garrison(ctx, "Pisa", 1) == 0
    assert control.tower_garrison(ctx, "Pisa", 2) == 0  # no such tower
    assert control.tower_room(pisa(ctx), 1) == 57  # capacity = FAS, in cargo units


def test_a_new_month_brings_a_full_tower_garrison() -> None:
    ctx = tower_town([{"name": "Torre", "fas": 57, "owner": "MEDICI"}])
    control.lose_tower_garrison(ctx, "Pisa", 1, 5)
    ctx.scratch.clear()  # the next month: "without regard to ... the destruction of the prior turn's garrison"
    assert control.tower_garrison(ctx, "Pisa", 1) == 5


def test_combined_towers_keep_their_losses_and_later_towers_keep_theirs() -> None:
    ctx = tower_town([{"name": "A", "fas": 100, "owner": "MEDICI"}, {"name": "B", "fas": 200, "owner": "DORIA"},
                      {"name": "C", "fas": 90, "owner": "SFORZA"}])
    control.lose_tower_garrison(ctx, "Pisa", 1, 4)   # A: 10 -> 6
    control.lose_tower_garrison(ctx, "Pisa", 2, 5)   # B: 20 -> 15
    control.lose_tower_garrison(ctx, "Pisa", 3, 1)   # C: 9 -> 8
    assert give(ctx, "0101", 1, "DORIA").ok           # A joins B: FAS 300, garrison 30 - (4 + 5) = 21
    assert control.tower_garrison(ctx, "Pisa", 1) == 21
    assert control.tower_garrison(ctx, "Pisa", 2) == 8  # C is now tower 2, its loss kept


# ---- who is inside which tower -----------------------------------------------------------------------------------

def test_tower_of_is_the_largest_tower_of_his_family_or_of_an_office_his_family_holds() -> None:
    ctx = world([persona("0101", "MEDICI"), persona("0102", "MEDICI"), persona("0201", "DORIA"),
                 persona("0103", "MEDICI", inside=False)],
                [town(offices={"sovereign": "0101"},
                      towers=[{"name": "Torre", "fas": 40, "owner": "MEDICI"},
                              {"name": "Cittadella", "fas": 90, "owner": "sovereign"},
                              {"name": "Torre Doria", "fas": 500, "owner": "DORIA"}])])
    people = ctx.state["personae"]
    assert control.tower_of(ctx.state, people["0101"]) == 2  # the sovereign's 90 beats the family's 40
    assert control.tower_of(ctx.state, people["0102"]) == 2  # his brother: the tower's owner is of his family
    assert control.tower_of(ctx.state, people["0201"]) == 3
    assert control.tower_of(ctx.state, people["0103"]) is None  # outside the walls
    people["0101"]["outside_towers"] = True
    assert control.tower_of(ctx.state, people["0101"]) is None  # standing orders to stay outside of all towers
    people["0201"]["location"] = "Florence"
    assert control.tower_of(ctx.state, people["0201"]) is None  # no tower where he is


def test_the_standing_order_to_stay_out_of_towers_is_reversed_only_in_a_later_month() -> None:
    ctx = tower_town([{"name": "Torre", "fas": 30, "owner": "MEDICI"}])
    p = ctx.state["personae"]["0101"]
    assert control.towers(ctx, p, {"outside": True}).ok and p["outside_towers"] is True
    assert not control.towers(ctx, p, {"outside": False}).ok  # same month
    assert p["outside_towers"] is True
    ctx.scratch.clear()  # next month
    assert not control.towers(ctx, p, {"outside": True}).ok  # already standing
    assert control.towers(ctx, p, {"outside": False}).ok and p["outside_towers"] is False


# ---- the setup: the war's persona keys (docs/renaissance-state.md, War) ---------------------------------------------

def war_setup(**keys: Any) -> dict[str, Any]:
    setup = small_setup()
    setup["families"][0]["personae"][0].update(keys)  # 0101 Piero de' Medici, a Catholic
    return setup


def test_the_setup_accepts_allies_and_the_standing_order_to_stay_out_of_towers() -> None:
    state = new_game(war_setup(allies=["doria"], outside_towers=True))
    piero = state["personae"]["0101"]
    assert piero["allies"] == ["DORIA"] and piero["outside_towers"] is True
    assert "allies" not in state["personae"]["0102"]  # absent reads as the default: none


def test_the_setup_refuses_unknown_allies_more_than_six_and_a_bad_standing_order() -> None:
    with pytest.raises(SetupError, match="allies names 'BORGIA', which is not a family"):
        new_game(war_setup(allies=["BORGIA"]))
    with pytest.raises(SetupError, match="up to 6"):  # ALLIANCE: "up to six families"
        new_game(war_setup(allies=["DORIA", "MEDICI", "A", "B", "C", "D", "E"]))
    with pytest.raises(SetupError, match="outside_towers must be true or false"):
        new_game(war_setup(outside_towers="yes"))


def test_the_setup_takes_a_bonus_city_only_for_a_shia_or_sunni_and_only_a_location() -> None:
    with pytest.raises(SetupError, match="bonus_city is for Shia or Sunni"):
        new_game(war_setup(bonus_city="Pisa"))
    setup = war_setup(bonus_city="pisa")
    setup["families"][0]["religion"] = "sunni"
    assert new_game(setup)["personae"]["0101"]["bonus_city"] == "Pisa"  # any spelling the orders accept
    setup["families"][0]["personae"][0]["bonus_city"] = "Atlantis"
    with pytest.raises(SetupError, match="bonus_city 'Atlantis' is not a location"):
        new_game(setup)


# ---- through the month -----------------------------------------------------------------------------------------------

def test_a_month_carries_out_an_office_transfer_after_every_order() -> None:
    import random

    from maild.ruleset import Order, PlacedOrder
    from maild_rules.renaissance.engine import run_month
    from tests.renaissance_fixtures import small_state

    # Pisa (small world): sovereign 0101 Piero, no feudatory, no tenant, so no de facto controller: feudatory
    # status needs the sovereign's order alone (reading C3). Loyalty 300 -> 150.
    args = {"office": "feudatory", "to": "0202", "location": "Pisa", "family": "MEDICI", "player": "LMD",
            "persona": "0101", "start": "Florence"}
    orders = {"LMD": [PlacedOrder(Order(1, "OF0202Pisa", "transfer_office", args, "OF0202Pisa"), 1)]}
    result = run_month(small_state(), 1, orders, random.Random(1))
    assert result.outcomes["MEDICI"][0]["ok"]
    pisa_after = result.ctx.state["locations"]["Pisa"]
    assert pisa_after["offices"]["feudatory"] == "0202" and pisa_after["loyalty"] == 150
    assert any("Feudatory status of Pisa passes" in n for n in result.ctx.news)
