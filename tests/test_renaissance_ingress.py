"""INGRESS, EGRESS & EXTERNAL MARKETS: the lists at a location's walls, the de facto controller's orders, the
waiting list, and what a family outside the walls may do. Readings I1... are in docs/renaissance/ingress.md; the
rules are quoted from Renaissance, APOSTASY (its closing INGRESS, EGRESS & EXTERNAL MARKETS paragraph)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from maild.ruleset import SetupError
from maild_rules.renaissance import commerce, ingress, travel
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.registry import STEPS
from maild_rules.renaissance.setup import new_game
from maild_rules.renaissance.walls import await_ingress, default_ingress, has_ingress
from tests.renaissance_fixtures import small_setup, small_state


def place(setup: dict[str, Any], name: str) -> dict[str, Any]:
    return next(loc for loc in setup["locations"] if loc["name"] == name)


def state_with(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    setup = small_setup()
    change(setup)
    return new_game(setup)


def ctx_for(state: dict[str, Any], turn: int = 1) -> Ctx:
    ctx = Ctx(state=state, turn=turn, rng=random.Random(1))
    for pid, p in state["personae"].items():
        ctx.start_location[pid] = p["location"]
        ctx.start_inside[pid] = bool(p["inside"])
    return ctx


def add_families(state: dict[str, Any], *names: str) -> None:
    for name in names:
        state["families"][name] = {"player": "ADR", "religion": "catholic", "personae": [], "number": 50}


def tenant_of_florence(state: dict[str, Any]) -> dict[str, Any]:
    """Piero (0101), made tenant of Florence: DE FACTO CONTROL "normally rests with the tenancy"."""
    state["locations"]["Florence"]["offices"]["tenant"] = "0101"
    return state["personae"]["0101"]


# --- the list set at setup (I2, I3) ---------------------------------------------------------------------------

def test_setup_derives_the_list_from_citizens_towers_and_office_holders() -> None:
    # "When a location is first set up, all citizens, all tower owners and all members of the families of the
    # sovereign, feudatory, tenant, magistrate, bishop and archbishop have ingress."
    state = state_with(lambda s: place(s, "Livorno").update(towers=[{"name": "Torre", "fas": 10, "owner": "MEDICI"}]))
    locs = state["locations"]
    assert locs["Pisa"]["ingress"] == ["MEDICI"]  # sovereign 0101; no persona is a citizen of Pisa
    assert locs["Genoa"]["ingress"] == ["DORIA"]  # magistrate 0201; citizens 0201 and 0202
    assert locs["Livorno"]["ingress"] == ["MEDICI"]  # the tower's owner
    assert locs["Florence"]["ingress"] == ["MEDICI", "DORIA"]  # written in the setup, kept as written
    assert state["personae"]["0103"]["inside"] is True  # Giuliano, a Medici at Pisa: his family has ingress
    # External markets start closed, with no family granted their use; nobody waits.
    assert all(not loc["external_market_open"] and loc["external_market_rights"] == [] for loc in locs.values())
    assert all(loc["ingress_waiting"] == [] and loc["egress_denied"] == [] for loc in locs.values())


def test_a_persona_whose_family_lacks_ingress_starts_outside() -> None:
    # Domenico Doria (0202) at Pisa, a citizen of Genoa: Pisa's list is MEDICI alone.
    state = state_with(lambda s: next(p for f in s["families"] for p in f["personae"] if p["id"] == "0202")
                       .update(location="Pisa"))
    assert state["personae"]["0202"]["inside"] is False


def test_an_old_setup_with_ingress_denied_still_loads() -> None:
    # Setups written before the list existed named only the families denied: they are left out of the default.
    state = state_with(lambda s: place(s, "Pisa").update(ingress_denied=["MEDICI"]))
    assert state["locations"]["Pisa"]["ingress"] == []
    assert state["locations"]["Pisa"]["ingress_denied"] == ["MEDICI"]
    assert state["personae"]["0103"]["inside"] is False


def setup_error(change: Callable[[dict[str, Any]], Any]) -> str:
    with pytest.raises(SetupError) as info:
        state_with(change)
    return str(info.value)


TWENTY_ONE = [f"F{chr(65 + i)}" for i in range(21)]


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: place(s, "Pisa").update(ingress=TWENTY_ONE), "ingress lists 21 families; the rules allow 20"),
    (lambda s: place(s, "Pisa").update(egress_denied=TWENTY_ONE[:6]), "egress_denied lists 6 families; the rules "
                                                                      "allow 5"),
    (lambda s: place(s, "Pisa").update(external_market_rights=TWENTY_ONE[:6]), "external_market_rights lists 6"),
    (lambda s: place(s, "Pisa").update(ingress=["SFORZA"]), "ingress names 'SFORZA', which is not a family"),
    (lambda s: place(s, "Pisa").update(ingress=["MEDICI"], ingress_waiting=["MEDICI"]),
     "MEDICI is listed in ingress and also as denied or waiting"),
    (lambda s: place(s, "Pisa").update(external_market_open="yes"), "external_market_open must be true or false"),
])
def test_setup_refuses_lists_the_rules_do_not_allow(change: Callable[[dict[str, Any]], Any], message: str) -> None:
    assert message in setup_error(change)


# --- the de facto controller's orders (I3, I8, I9) ------------------------------------------------------------

def test_the_controller_adds_and_removes_families_at_once() -> None:
    state = small_state()
    piero = tenant_of_florence(state)
    florence = state["locations"]["Florence"]
    ctx = ctx_for(state)
    out = ingress.access(ctx, piero, {"what": "ingress", "allow": False, "target_family": "DORIA"})
    assert out.ok and florence["ingress"] == ["MEDICI"] and florence["ingress_denied"] == ["DORIA"]
    # Domenico Doria, inside already, is not thrown out: ingress is "the right to enter" (I3).
    assert state["personae"]["0202"]["inside"] is True
    assert ingress.access(ctx, piero, {"what": "ingress", "allow": True, "target_family": "doria"}).ok
    assert florence["ingress"] == ["MEDICI", "DORIA"] and florence["ingress_denied"] == []
    again = ingress.access(ctx, piero, {"what": "ingress", "allow": True, "target_family": "DORIA"})
    assert not again.ok and "already given ingress" in again.text


def test_at_most_twenty_families_have_ingress() -> None:
    # "Up to twenty families may have ingress to a location": 2 + 18 = 20, so the 21st is refused.
    state = small_state()
    piero = tenant_of_florence(state)
    eighteen = [f"F{chr(65 + i)}" for i in range(18)]
    add_families(state, *eighteen, "SFORZA")
    ctx = ctx_for(state)
    for family in eighteen:
        assert ingress.access(ctx, piero, {"what": "ingress", "allow": True, "target_family": family}).ok
    assert len(state["locations"]["Florence"]["ingress"]) == 20
    out = ingress.access(ctx, piero, {"what": "ingress", "allow": True, "target_family": "SFORZA"})
    assert not out.ok and "20 families are already given ingress" in out.text
    assert ingress.access(ctx, piero, {"what": "ingress", "allow": False, "target_family": "FA"}).ok
    assert ingress.access(ctx, piero, {"what": "ingress", "allow": True, "target_family": "SFORZA"}).ok


def test_egress_is_denied_to_five_families_at_most() -> None:
    # "The de facto controller of a location may freely deny egress from that location to five families."
    state = small_state()
    piero = tenant_of_florence(state)
    add_families(state, "SFORZA", "ESTE", "GONZAGA", "BORGIA")
    ctx = ctx_for(state)
    five = ["DORIA", "SFORZA", "ESTE", "GONZAGA", "BORGIA"]
    for family in five:
        assert ingress.access(ctx, piero, {"what": "egress", "allow": False, "target_family": family}).ok
    assert state["locations"]["Florence"]["egress_denied"] == five
    sixth = ingress.access(ctx, piero, {"what": "egress", "allow": False, "target_family": "MEDICI"})
    assert not sixth.ok and "5 families are already denied egress" in sixth.text
    assert ingress.access(ctx, piero, {"what": "egress", "allow": True, "target_family": "BORGIA"}).ok
    assert ingress.access(ctx, piero, {"what": "egress", "allow": False, "target_family": "MEDICI"}).ok
    # A Doria inside Florence cannot leave by any move (travel T8).
    domenico = state["personae"]["0202"]
    assert not travel.move(ctx, domenico, {"mode": "land", "to": "Pisa", "via": []}).ok


def test_only_the_de_facto_controller_gives_these_orders() -> None:
    state = small_state()
    florence = state["locations"]["Florence"]
    ctx = ctx_for(state)
    piero = state["personae"]["0101"]  # sovereign of Florence, but Florence has no tenant and no controller
    out = ingress.access(ctx, piero, {"what": "ingress", "allow": False, "target_family": "DORIA"})
    assert not out.ok and "de facto controller" in out.text
    # A controller recorded apart from the tenancy gives the orders; the tenant no longer does.
    florence["offices"].update(tenant="0101", dfc="0201")
    andrea = state["personae"]["0201"]
    assert not ingress.access(ctx, piero, {"what": "egress", "allow": False, "target_family": "DORIA"}).ok
    assert ingress.access(ctx, andrea, {"what": "egress", "allow": False, "target_family": "MEDICI"}).ok
    assert florence["egress_denied"] == ["MEDICI"]
    assert not ingress.access(ctx, andrea, {"what": "ingress", "allow": False, "target_family": "SFORZA"}).ok


# --- the waiting list (I4, I5) --------------------------------------------------------------------------------

def test_start_step_is_registered_before_the_markets() -> None:
    assert (10, "admit_waiting") in [(rank, name) for rank, name, _ in STEPS["start"]]


def test_one_family_a_turn_enters_the_waiting_list_and_receives_ingress_two_turns_later() -> None:
    # "a family that is added to a location's waiting list one turn receives ingress the first day of the second
    # turn after that turn. Only one family may be added to a location's waiting list per turn."
    state = small_state()
    add_families(state, "SFORZA")
    pisa = state["locations"]["Pisa"]
    assert "turn 5" in await_ingress(state, "Pisa", "DORIA", 3)  # added in turn 3: ingress at the start of 3 + 2
    assert "queued" in await_ingress(state, "Pisa", "SFORZA", 3)  # a second family the same turn waits its turn
    assert pisa["ingress_waiting"] == [{"family": "DORIA", "added": 3}, {"family": "SFORZA", "added": None}]
    ingress.admit_waiting(ctx_for(state, 4))  # turn 4: nobody yet; SFORZA is added to the list (ingress in 6)
    assert pisa["ingress"] == ["MEDICI"]
    assert pisa["ingress_waiting"][1] == {"family": "SFORZA", "added": 4}
    ctx = ctx_for(state, 5)
    ingress.admit_waiting(ctx)
    assert pisa["ingress"] == ["MEDICI", "DORIA"]
    assert ctx.messages["DORIA"] == ["The DORIA family has received ingress to Pisa."]
    ingress.admit_waiting(ctx_for(state, 6))
    assert pisa["ingress"] == ["MEDICI", "DORIA", "SFORZA"] and pisa["ingress_waiting"] == []


def test_families_waiting_at_setup_are_added_one_a_turn_from_turn_1() -> None:
    # I4: the setup's ingress_waiting is recorded in order before turn 1; DORIA is added in turn 1 and receives
    # ingress at the start of turn 1 + 2 = 3; SFORZA is added in turn 2 and receives it in turn 4.
    def waiting(setup: dict[str, Any]) -> None:
        setup["families"].append({"name": "SFORZA", "player": "ADR", "religion": "catholic", "personae": [
            {"id": "0301", "name": "Ludovico Sforza", "location": "Genoa"}]})
        place(setup, "Pisa").update(ingress_waiting=["DORIA", "SFORZA"])
    state = state_with(waiting)
    pisa = state["locations"]["Pisa"]
    assert pisa["ingress_waiting"] == [{"family": "DORIA", "added": None}, {"family": "SFORZA", "added": None}]
    admitted = []
    for turn in (1, 2, 3, 4):
        ingress.admit_waiting(ctx_for(state, turn))
        admitted.append(list(pisa["ingress"]))
    assert admitted == [["MEDICI"], ["MEDICI"], ["MEDICI", "DORIA"], ["MEDICI", "DORIA", "SFORZA"]]


def test_a_family_denied_ingress_while_it_waits_leaves_the_list() -> None:
    # "Unless it is specifically denied ingress during the intervening period".
    state = small_state()
    pisa = state["locations"]["Pisa"]
    pisa["offices"]["tenant"] = "0101"
    await_ingress(state, "Pisa", "DORIA", 1)
    ctx = ctx_for(state, 2)
    out = ingress.access(ctx, state["personae"]["0101"], {"what": "ingress", "allow": False, "target_family": "DORIA"})
    assert out.ok and "leaves its waiting list" in out.text
    ingress.admit_waiting(ctx_for(state, 3))
    assert pisa["ingress"] == ["MEDICI"] and pisa["ingress_waiting"] == []


def test_the_controller_may_give_a_waiting_family_ingress_at_once() -> None:
    # I5: the controller "may freely order specific families ... added to" the list; the wait ends.
    state = small_state()
    pisa = state["locations"]["Pisa"]
    pisa["offices"]["tenant"] = "0101"
    await_ingress(state, "Pisa", "DORIA", 1)
    out = ingress.access(ctx_for(state, 1), state["personae"]["0101"],
                         {"what": "ingress", "allow": True, "target_family": "DORIA"})
    assert out.ok and "leaves its waiting list" in out.text
    assert pisa["ingress"] == ["MEDICI", "DORIA"] and pisa["ingress_waiting"] == []


def test_personae_outside_stay_outside_until_ordered_in() -> None:
    # "Personae whose families receive ingress after they stop movement outside of a location remain outside until
    # subsequently ordered to enter that location."
    state = small_state()
    domenico = state["personae"]["0202"]
    domenico.update(location="Pisa", inside=False)
    refused = travel.move(ctx_for(state, 1), domenico, {"mode": "inside", "via": []})
    assert not refused.ok and "no ingress to Pisa" in refused.text
    await_ingress(state, "Pisa", "DORIA", 1)
    ingress.admit_waiting(ctx_for(state, 3))
    assert domenico["inside"] is False
    assert travel.move(ctx_for(state, 3), domenico, {"mode": "inside", "via": []}).ok
    assert domenico["inside"] is True


def test_a_full_list_keeps_the_family_waiting_until_there_is_room() -> None:
    state = small_state()
    pisa = state["locations"]["Pisa"]
    pisa["ingress"] = [f"F{i}" for i in range(20)]
    await_ingress(state, "Pisa", "DORIA", 1)
    ingress.admit_waiting(ctx_for(state, 3))
    assert "DORIA" not in pisa["ingress"] and pisa["ingress_waiting"] == [{"family": "DORIA", "added": 1}]
    pisa["ingress"].pop()
    ingress.admit_waiting(ctx_for(state, 4))
    assert pisa["ingress"][-1] == "DORIA"


def test_a_game_set_up_before_the_list_gets_the_default_at_its_next_turn() -> None:
    # I10: an old state has only the denials; until its next turn, everyone not denied has ingress.
    state = small_state()
    pisa = state["locations"]["Pisa"]
    del pisa["ingress"]
    assert has_ingress(pisa, "DORIA")
    ingress.admit_waiting(ctx_for(state, 2))
    assert pisa["ingress"] == ["MEDICI"] == default_ingress(state, "Pisa")
    assert not has_ingress(pisa, "DORIA")


# --- external markets (I6, I7) --------------------------------------------------------------------------------

def outside_doria() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Florence with DORIA off its list and Domenico Doria (0202, 30,000 ducats) outside its walls; Piero its
    tenant."""
    state = small_state()
    piero = tenant_of_florence(state)
    state["locations"]["Florence"]["ingress"] = ["MEDICI"]
    domenico = state["personae"]["0202"]
    domenico["inside"] = False
    return state, piero, domenico


def test_outside_a_closed_market_only_families_with_ingress_or_the_right_trade() -> None:
    # "When an external market is closed ... Personae outside the location, however, may not trade with the locals
    # unless they belong to a family which has ingress, or to a family which has specifically been granted the
    # right to use the location's external market".
    state, piero, domenico = outside_doria()
    ctx = ctx_for(state)
    refused = commerce.buy(ctx, domenico, {"item": "wool", "qty": 10})
    assert not refused.ok and "external market" in refused.text
    assert domenico["assets"]["ducats"] == 30000
    out = ingress.access(ctx, piero, {"what": "market", "allow": True, "target_family": "DORIA"})
    assert out.ok and state["locations"]["Florence"]["external_market_rights"] == ["DORIA"]
    # 10 wool at 12 = 120 ducats; export tariff 3% of 120 = 3.6 -> 4 (C9); the magistrate is a non-player: 124.
    assert commerce.buy(ctx, domenico, {"item": "wool", "qty": 10}).ok
    assert domenico["assets"]["ducats"] == 30000 - 124 and domenico["assets"]["wool"] == 10
    # Withdrawn "immediately": his next purchase is refused again.
    assert ingress.access(ctx, piero, {"what": "market", "allow": False, "target_family": "DORIA"}).ok
    assert not commerce.buy(ctx, domenico, {"item": "wool", "qty": 1}).ok


def test_inside_the_walls_or_with_ingress_trade_goes_on() -> None:
    # "all personae inside the location may still freely trade with the locals"; a Medici outside has ingress.
    state, _piero, domenico = outside_doria()
    ctx = ctx_for(state)
    domenico["inside"] = True
    assert commerce.buy(ctx, domenico, {"item": "wool", "qty": 1}).ok
    giovanni = state["personae"]["0102"]
    giovanni["inside"] = False
    giovanni["assets"]["pepper"] = 10
    # 10 pepper sold as spices at 90 = 900; import tariff 5% = 45; he receives 855.
    assert commerce.sell(ctx, giovanni, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 10}).ok
    assert giovanni["assets"]["ducats"] == 20000 + 855


def test_an_open_external_market_is_open_to_all() -> None:
    state, piero, domenico = outside_doria()
    ctx = ctx_for(state)
    assert ingress.external_market(ctx, piero, {"open": True}).ok
    assert not ingress.external_market(ctx, piero, {"open": True}).ok  # already open
    domenico["assets"]["pepper"] = 4
    # 4 pepper at 90 = 360; 5% import tariff = 18; he receives 342.
    assert commerce.sell(ctx, domenico, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 4}).ok
    assert domenico["assets"]["ducats"] == 30000 + 342
    assert ingress.external_market(ctx, piero, {"open": False}).ok
    assert not commerce.buy(ctx, domenico, {"item": "wool", "qty": 1}).ok
    assert not ingress.external_market(ctx, domenico, {"open": True}).ok  # not the controller


def test_market_rights_go_to_five_families_at_most() -> None:
    # "A de facto controller may freely grant the right to use closed external markets to up to five families."
    state, piero, _domenico = outside_doria()
    add_families(state, "SFORZA", "ESTE", "GONZAGA", "BORGIA", "TUDOR")
    ctx = ctx_for(state)
    for family in ("DORIA", "SFORZA", "ESTE", "GONZAGA", "BORGIA"):
        assert ingress.access(ctx, piero, {"what": "market", "allow": True, "target_family": family}).ok
    sixth = ingress.access(ctx, piero, {"what": "market", "allow": True, "target_family": "TUDOR"})
    assert not sixth.ok and "5 families are already granted" in sixth.text


def test_troops_from_outside_need_the_receivers_ingress() -> None:
    # TRANSFERS: "A persona inside a location's walls cannot receive transfers of troops from outside those walls
    # unless he has ingress to the location at the time of the transfer."
    state, _piero, domenico = outside_doria()
    piero = state["personae"]["0101"]
    piero["inside"] = False
    domenico["inside"] = True  # inside, but DORIA is off Florence's list
    ctx = ctx_for(state)
    out = commerce.transfer(ctx, piero, {"to": "0202", "item": "light cavalry", "qty": 5})
    assert not out.ok and "without ingress" in out.text
    assert commerce.transfer(ctx, domenico, {"to": "0101", "item": "ducats", "qty": 5}).ok
    state["locations"]["Florence"]["ingress"].append("DORIA")
    assert commerce.transfer(ctx, piero, {"to": "0202", "item": "light cavalry", "qty": 5}).ok


# --- a month by mail ------------------------------------------------------------------------------------------

def test_a_month_of_coded_orders_at_the_walls() -> None:
    # The Medici mail is received first: Piero, tenant of Florence, grants the Doria the closed market (AM takes
    # effect "immediately"), so Domenico Doria, outside and without ingress, then buys 10 wool: 120 + 4 = 124.
    # Giuliano moves by road from Pisa to Florence (40 miles) with MO: the Medici have ingress, he stays outside.
    from maild.ruleset import OrderSet
    from maild_rules.renaissance import RULESET
    from maild_rules.renaissance.engine import run_month

    state, _piero, _domenico = outside_doria()

    def placed(text: str, player: str, seq: int) -> list[Any]:
        parsed = RULESET.parse(text)
        assert parsed.diagnostics == [], parsed.diagnostics
        return RULESET.effective([OrderSet(player, seq, parsed.orders)])

    orders = {"LMD": placed("/LMD *MEDICI\n*Florence .0101\nAMDORIA\n*Pisa .0103\nMO MRFlorence\n", "LMD", 1),
              "ADR": placed("/ADR *DORIA\n*Florence .0202\nBwool10\n", "ADR", 2)}
    result = run_month(state, 1, orders, random.Random(1))
    after = result.ctx.state
    assert after["locations"]["Florence"]["external_market_rights"] == ["DORIA"]
    assert after["personae"]["0202"]["assets"]["wool"] == 10
    assert after["personae"]["0202"]["assets"]["ducats"] == 30000 - 124
    giuliano = after["personae"]["0103"]
    assert giuliano["location"] == "Florence" and giuliano["inside"] is False
    # Without the grant, the same purchase is refused and says why.
    state, _piero, _domenico = outside_doria()
    alone = run_month(state, 1, {"ADR": placed("/ADR *DORIA\n*Florence .0202\nBwool10\n", "ADR", 1)},
                      random.Random(1))
    [outcome] = alone.outcomes["DORIA"]
    assert not outcome["ok"] and "external market" in outcome["text"]
