"""Office lookups (THE LOCATIONS, DE FACTO CONTROL), LOYALTY (thresholds, holding court), the de facto
controller's access orders (TENANTS, INGRESS; the rest in test_renaissance_ingress.py) and the player-address
request (INFORMATION ORDERS)."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance import information_address, ingress, loyalty, offices
from maild_rules.renaissance.context import Ctx
from maild_rules.renaissance.setup import find_location


def make_state() -> dict[str, Any]:
    def persona(pid: str, fam: str, **kw: Any) -> dict[str, Any]:
        p = {"id": pid, "name": f"P{pid}", "family": fam, "religion": "catholic", "alive": True,
             "popularity": 400, "assets": {}, "location": "Pisa", "inside": True, "citizenship": "Pisa"}
        p.update(kw)
        return p
    return {
        "calendar": {"year": 1493, "month": 1},
        "players": {"LMD": {"name": "Lorenzo's player", "email": "lorenzo@example.org"},
                    "RB": {"name": "Rodrigo's player", "email": "rodrigo@example.org"}},
        "families": {"MEDICI": {"player": "LMD"}, "BORGIA": {"player": "RB"}},
        "personae": {"0101": persona("0101", "MEDICI"), "0102": persona("0102", "MEDICI"),
                     "0201": persona("0201", "BORGIA")},
        "locations": {
            "Pisa": {"name": "Pisa", "population": 20000, "wealth": 150, "loyalty": 500, "see": "Florence",
                     "ingress_denied": [], "egress_denied": [],
                     "offices": {"sovereign": "0101", "feudatory": "Ludovico Sforza", "tenant": "0102",
                                 "magistrate": "0201", "bishop": None, "archbishop": None, "dfc": None}},
            "Florence": {"name": "Florence", "population": 70000, "wealth": 180, "loyalty": 990,
                         "offices": {"sovereign": "0101", "tenant": "0201", "archbishop": "0102",
                                     "dfc": "0102"}},
            "Santiago de Compostela": {"name": "Santiago de Compostela", "loyalty": 100, "offices": {}},
        },
    }


def ctx_for(state: dict[str, Any]) -> Ctx:
    ctx = Ctx(state=state, turn=1, rng=random.Random(1))
    for pid, p in state["personae"].items():
        ctx.start_location[pid] = p["location"]
        ctx.start_inside[pid] = p["inside"]
    return ctx


# --- who holds what ------------------------------------------------------------------------------------------

def test_de_facto_controller_is_the_tenant_unless_recorded() -> None:
    s = make_state()
    pisa, florence = s["locations"]["Pisa"], s["locations"]["Florence"]
    assert offices.dfc(pisa) == "0102"  # no dfc recorded: the tenant
    assert offices.dfc(florence) == "0102"  # recorded: control has passed from the tenant 0201
    assert offices.holds(s, florence, "dfc", "0102") and not offices.holds(s, florence, "dfc", "0201")


def test_archbishop_of_the_see() -> None:
    s = make_state()
    # Pisa has no archbishop of its own; it belongs to Florence's see, whose archbishop is 0102
    assert offices.archbishop(s, s["locations"]["Pisa"]) == "0102"
    assert offices.holds(s, s["locations"]["Pisa"], "archbishop", "0102")


def test_offices_of_for_the_printout() -> None:
    s = make_state()
    assert offices.offices_of(s, "0101") == ["sovereign of Pisa", "sovereign of Florence"]
    assert offices.offices_of(s, "0102") == ["tenant of Pisa", "archbishop of Florence",
                                             "de facto controller of Florence"]
    assert offices.offices_of(s, "0201") == ["magistrate of Pisa", "tenant of Florence"]
    # a non-player name is nobody's office
    assert offices.offices_of(s, "Ludovico Sforza") == ["feudatory of Pisa"]
    assert offices.magistracy_of(s, "0201") == "Pisa" and offices.magistracy_of(s, "0101") is None


def test_location_names_as_written() -> None:
    s = make_state()
    for written in ("SantiagodeCompostela", "santiago_de_compostela", "Santiago-de-Compostela"):
        assert find_location(s, written) == "Santiago de Compostela"
    assert find_location(s, "PISA") == "Pisa"
    assert find_location(s, "Atlantis") is None


def test_office_location_for_orders_without_a_location() -> None:
    s = make_state()
    p = s["personae"]
    # 0102 is in Pisa and its de facto controller (tenant): Pisa, though he also controls Florence
    assert offices.office_location(s, p["0102"], "dfc") == ("Pisa", "")
    # away from both: ambiguous
    p["0102"]["location"] = "Santiago de Compostela"
    where, why = offices.office_location(s, p["0102"], "dfc")
    assert where is None and "several" in why
    # 0201 away from Florence, tenant of Florence only: Florence
    assert offices.office_location(s, p["0201"], "tenant") == ("Florence", "")


# --- loyalty -------------------------------------------------------------------------------------------------

def test_thresholds() -> None:
    # taxes < 400, feudal levies < 300, garrison recruiting < 200, tithes < 100
    for what, limit in (("taxes", 400), ("feudal_levy", 300), ("garrison", 200), ("tithes", 100)):
        assert loyalty.allowed({"loyalty": limit}, what)
        assert not loyalty.allowed({"loyalty": limit - 1}, what)


def test_hold_court_adds_sqrt_popularity() -> None:
    s = make_state()
    ctx = ctx_for(s)
    out = loyalty.hold_court(ctx, s["personae"]["0101"], {})
    assert out.ok, out.text
    # sqrt(400) = 20: 500 + 20 = 520
    assert s["locations"]["Pisa"]["loyalty"] == 520
    assert not loyalty.hold_court(ctx, s["personae"]["0101"], {}).ok  # once a turn


def test_hold_court_rounds_down_and_caps() -> None:
    s = make_state()
    s["personae"]["0101"]["popularity"] = 399  # sqrt(399) = 19.97 -> 19 (ruling 5)
    loyalty.hold_court(ctx_for(s), s["personae"]["0101"], {})
    assert s["locations"]["Pisa"]["loyalty"] == 519
    # at Florence, loyalty 990 + 19 stops at 999 (ruling 9)
    s["personae"]["0101"]["location"] = "Florence"
    loyalty.hold_court(ctx_for(s), s["personae"]["0101"], {})
    assert s["locations"]["Florence"]["loyalty"] == 999


def test_hold_court_only_by_the_sovereign_who_started_there() -> None:
    s = make_state()
    assert not loyalty.hold_court(ctx_for(s), s["personae"]["0102"], {}).ok
    ctx = ctx_for(s)
    ctx.start_location["0101"] = "Santiago de Compostela"  # arrived in Pisa during the turn
    assert not loyalty.hold_court(ctx, s["personae"]["0101"], {}).ok
    assert s["locations"]["Pisa"]["loyalty"] == 500


# --- access --------------------------------------------------------------------------------------------------

def test_tenant_denies_and_allows_until_reversed() -> None:
    s = make_state()
    pisa, tenant = s["locations"]["Pisa"], s["personae"]["0102"]
    ctx = ctx_for(s)
    assert ingress.access(ctx, tenant, {"what": "ingress", "allow": False, "target_family": "borgia"}).ok
    assert ingress.access(ctx, tenant, {"what": "egress", "allow": False, "target_family": "BORGIA"}).ok
    assert pisa["ingress_denied"] == ["BORGIA"] and pisa["egress_denied"] == ["BORGIA"]
    # Pisa had no list yet: the rules' default was written first (sovereign 0101 and tenant 0102 MEDICI, magistrate
    # 0201 BORGIA), then BORGIA was removed from it.
    assert pisa["ingress"] == ["MEDICI"]
    # a second denial is not listed twice; allowing reverses it
    assert ingress.access(ctx, tenant, {"what": "ingress", "allow": False, "target_family": "BORGIA"}).ok
    assert pisa["ingress_denied"] == ["BORGIA"]
    assert ingress.access(ctx, tenant, {"what": "ingress", "allow": True, "target_family": "BORGIA"}).ok
    assert pisa["ingress_denied"] == [] and pisa["egress_denied"] == ["BORGIA"]
    assert pisa["ingress"] == ["MEDICI", "BORGIA"]


def test_access_refusals() -> None:
    s = make_state()
    ctx = ctx_for(s)
    # the sovereign is not the tenant anywhere
    assert not ingress.access(ctx, s["personae"]["0101"],
                              {"what": "ingress", "allow": False, "target_family": "BORGIA"}).ok
    assert not ingress.access(ctx, s["personae"]["0102"],
                              {"what": "ingress", "allow": False, "target_family": "SFORZA"}).ok
    assert s["locations"]["Pisa"]["ingress_denied"] == []


# --- information ---------------------------------------------------------------------------------------------

def test_ask_address_once_per_family() -> None:
    s = make_state()
    ctx = ctx_for(s)
    out = information_address.ask_address(ctx, {}, {"family": "MEDICI", "target_family": "borgia"})
    assert out.ok
    assert ctx.messages["MEDICI"] == ["Address of the player of BORGIA: Rodrigo's player <rodrigo@example.org>"]
    assert not information_address.ask_address(ctx, {}, {"family": "MEDICI", "target_family": "MEDICI"}).ok
    # another family has its own request
    assert information_address.ask_address(ctx, {}, {"family": "BORGIA", "target_family": "MEDICI"}).ok
    assert not information_address.ask_address(ctx, {}, {"family": "BORGIA", "target_family": "SFORZA"}).ok


def test_a_family_name_with_a_blank_is_found_as_codes_write_it() -> None:
    # Codes carry no blanks: DIDELLAROVERE and ?ADELLAROVERE name the DELLA ROVERE family.
    s = make_state()
    s["families"]["DELLA ROVERE"] = {"player": s["families"]["BORGIA"]["player"], "religion": "catholic",
                                     "personae": []}
    ctx = ctx_for(s)
    tenant = s["personae"]["0102"]
    assert ingress.access(ctx, tenant, {"what": "ingress", "allow": False, "target_family": "DELLAROVERE"}).ok
    assert s["locations"]["Pisa"]["ingress_denied"] == ["DELLA ROVERE"]
    out = information_address.ask_address(ctx, {}, {"family": "MEDICI", "target_family": "dellarovere"})
    assert out.ok and "DELLA ROVERE" in ctx.messages["MEDICI"][0]
