"""Transfers, sales to the locals, purchases from the locals, tariffs and the merchants' advantages (Appendix C).
Numbers are worked by hand from the rules text; readings C1... are in docs/renaissance/commerce.md."""

from __future__ import annotations

import random
from typing import Any

from maild_rules.renaissance.commerce import buy, sell, transfer
from maild_rules.renaissance.context import Ctx, Phase
from maild_rules.renaissance.registry import ACTIONS


def persona(pid: str, family: str, location: str | None = "Florence", **extra: Any) -> dict[str, Any]:
    p: dict[str, Any] = {"id": pid, "name": f"P{pid}", "family": family, "religion": "catholic", "alive": True,
                         "popularity": 100, "piety": 0, "morale": 0, "skills": {}, "guild": None,
                         "assets": {"ducats": 10000}, "location": location, "at_sea": None, "inside": False,
                         "with": None}
    p.update(extra)
    return p


def location(name: str, **extra: Any) -> dict[str, Any]:
    loc: dict[str, Any] = {"name": name, "population": 70000, "wealth": 180, "loyalty": 520,
                           "offices": {"magistrate": None}, "ingress_denied": [], "egress_denied": [],
                           "supplied": {}, "demanded": {}, "tariffs": {"import": 0, "export": 0},
                           "food_satisfied": True}
    loc.update(extra)
    return loc


def make_ctx(*personae: dict[str, Any], locations: list[dict[str, Any]] | None = None, month: int = 5) -> Ctx:
    locs = locations or [location("Florence"), location("Pisa")]
    state = {"calendar": {"year": 1493, "month": month},
             "families": {"MEDICI": {"personae": []}, "SFORZA": {"personae": []}},
             "personae": {p["id"]: p for p in personae},
             "locations": {loc["name"]: loc for loc in locs}}
    ctx = Ctx(state=state, turn=1, rng=random.Random(0))
    for p in personae:
        ctx.start_location[p["id"]] = p["location"]
        ctx.start_inside[p["id"]] = p["inside"]
    return ctx


def test_handlers_registered_in_their_phases() -> None:
    assert ACTIONS["transfer"].phase is Phase.TRANSFER
    assert ACTIONS["sell"].phase is Phase.SELL
    assert ACTIONS["buy"].phase is Phase.BUY


# --- TRANSFERS ---------------------------------------------------------------------------------------------------

def test_transfer_between_personae_at_the_same_location() -> None:
    a = persona("0101", "MEDICI", assets={"ducats": 1000, "grain": 800})
    b = persona("0102", "MEDICI", assets={"ducats": 0})
    ctx = make_ctx(a, b)
    out = transfer(ctx, a, {"to": "0102", "item": "grain", "qty": 500})
    assert out.ok, out.text
    assert a["assets"]["grain"] == 300 and b["assets"]["grain"] == 500  # 800 - 500, 0 + 500
    # Ducats are an asset like any other: 1000 - 250 = 750.
    assert transfer(ctx, a, {"to": "0102", "item": "ducats", "qty": 250}).ok
    assert a["assets"]["ducats"] == 750 and b["assets"]["ducats"] == 250


def test_transfer_accepts_an_order_code_for_the_item() -> None:
    a = persona("0101", "MEDICI", assets={"salt fish": 10})
    b = persona("0102", "MEDICI")
    ctx = make_ctx(a, b)
    assert transfer(ctx, a, {"to": "0102", "item": "saltfish", "qty": 4}).ok
    assert a["assets"]["salt fish"] == 6 and b["assets"]["salt fish"] == 4


def test_transfer_to_a_persona_elsewhere_fails_and_changes_nothing() -> None:
    a = persona("0101", "MEDICI", assets={"grain": 800})
    b = persona("0102", "MEDICI", location="Pisa", assets={})
    ctx = make_ctx(a, b)
    out = transfer(ctx, a, {"to": "0102", "item": "grain", "qty": 500})
    assert not out.ok and "same location" in out.text
    assert a["assets"] == {"grain": 800} and b["assets"] == {}


def test_transfer_at_sea_needs_the_same_point() -> None:
    sea = {"lat": 41.0, "lon": 12.0}
    a = persona("0101", "MEDICI", location=None, at_sea=dict(sea), assets={"grain": 10})
    b = persona("0102", "MEDICI", location=None, at_sea=dict(sea))
    c = persona("0103", "MEDICI", location=None, at_sea={"lat": 41.5, "lon": 12.0})
    ctx = make_ctx(a, b, c)
    assert transfer(ctx, a, {"to": "0102", "item": "grain", "qty": 3}).ok
    assert not transfer(ctx, a, {"to": "0103", "item": "grain", "qty": 3}).ok
    assert a["assets"]["grain"] == 7 and b["assets"]["grain"] == 3


def test_transfer_to_the_locals_takes_the_asset_out_of_the_game() -> None:
    a = persona("0101", "MEDICI", location=None, at_sea={"lat": 41.0, "lon": 12.0}, assets={"cannon": 5})
    ctx = make_ctx(a)
    assert transfer(ctx, a, {"to": "9999", "item": "cannon", "qty": 2}).ok  # anywhere, even at sea
    assert a["assets"]["cannon"] == 3
    total = sum(p["assets"].get("cannon", 0) for p in ctx.state["personae"].values())
    assert total == 3  # the two cannon are nobody's


def test_transfer_of_more_than_held_fails_whole_c1() -> None:
    a = persona("0101", "MEDICI", assets={"grain": 400})
    b = persona("0102", "MEDICI", assets={})
    ctx = make_ctx(a, b)
    out = transfer(ctx, a, {"to": "0102", "item": "grain", "qty": 500})
    assert not out.ok
    assert a["assets"]["grain"] == 400 and "grain" not in b["assets"]  # not even the 400 he has


def test_troops_not_between_religions_but_goods_are() -> None:
    a = persona("0101", "MEDICI", assets={"pikeman": 100, "grain": 10})
    b = persona("0201", "SFORZA", religion="orthodox")
    c = persona("0202", "SFORZA")
    ctx = make_ctx(a, b, c)
    assert not transfer(ctx, a, {"to": "0201", "item": "pikeman", "qty": 10}).ok
    assert transfer(ctx, a, {"to": "0201", "item": "grain", "qty": 10}).ok
    assert transfer(ctx, a, {"to": "0202", "item": "pikeman", "qty": 10}).ok
    assert a["assets"]["pikeman"] == 90 and c["assets"]["pikeman"] == 10 and "pikeman" not in b["assets"]


def test_a_passenger_cannot_receive_transfers() -> None:
    owner = persona("0101", "MEDICI", assets={"grain": 10})
    passenger = persona("0201", "SFORZA", **{"with": "0101"})
    ctx = make_ctx(owner, passenger)
    out = transfer(ctx, owner, {"to": "0201", "item": "grain", "qty": 1})
    assert not out.ok and "aboard" in out.text
    assert owner["assets"]["grain"] == 10


def test_troops_from_outside_the_walls_need_the_receivers_ingress_c3() -> None:
    outside = persona("0101", "MEDICI", assets={"archer": 50, "grain": 50, "ducats": 100})
    inside = persona("0201", "SFORZA", inside=True)
    florence = location("Florence", ingress_denied=["SFORZA"])
    ctx = make_ctx(outside, inside, locations=[florence])
    assert not transfer(ctx, outside, {"to": "0201", "item": "archer", "qty": 10}).ok
    assert transfer(ctx, outside, {"to": "0201", "item": "grain", "qty": 10}).ok  # not troops
    florence["ingress_denied"] = []
    assert transfer(ctx, outside, {"to": "0201", "item": "archer", "qty": 10}).ok
    # Under siege neither troops nor food pass the walls inwards; other goods do.
    florence["siege"] = {"besieger": "0301", "ordered": 0, "since": 1, "months": 0, "blocked": []}  # in effect
    assert not transfer(ctx, outside, {"to": "0201", "item": "archer", "qty": 10}).ok
    assert not transfer(ctx, outside, {"to": "0201", "item": "grain", "qty": 10}).ok
    assert transfer(ctx, outside, {"to": "0201", "item": "ducats", "qty": 10}).ok
    assert inside["assets"] == {"ducats": 10010, "grain": 10, "archer": 10}


# --- SALES -------------------------------------------------------------------------------------------------------

def spices_market(qty: int = 300, price: int = 90) -> dict[str, Any]:
    return {"spices": {"qty": qty, "price": price, "bq": 0.005}}


def test_sale_withholds_the_import_tariff_which_leaves_the_game_without_a_magistrate() -> None:
    seller = persona("0101", "MEDICI", assets={"ducats": 0, "pepper": 150})
    florence = location("Florence", demanded=spices_market(), tariffs={"import": 5, "export": 3},
                        offices={"magistrate": "0201"})
    magistrate = persona("0201", "SFORZA", location="Pisa", assets={"ducats": 0})
    ctx = make_ctx(seller, magistrate, locations=[florence, location("Pisa")])
    out = sell(ctx, seller, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 100})
    assert out.ok, out.text
    # gross 100 x 90 = 9000; tariff 5% = 450; net 8550. The magistrate is at Pisa: nobody gets the 450.
    assert seller["assets"] == {"ducats": 8550, "pepper": 50}
    assert florence["demanded"]["spices"]["qty"] == 200  # 300 - 100
    assert magistrate["assets"]["ducats"] == 0


def test_sale_tariff_goes_to_the_magistrate_present() -> None:
    seller = persona("0101", "MEDICI", assets={"ducats": 0, "pepper": 150})
    florence = location("Florence", demanded=spices_market(), tariffs={"import": 5, "export": 3},
                        offices={"magistrate": "0201"})
    magistrate = persona("0201", "SFORZA", assets={"ducats": 0})
    ctx = make_ctx(seller, magistrate, locations=[florence])
    assert sell(ctx, seller, {"rank": 0, "cls": "spi", "item": "pepper", "qty": 100}).ok  # class by its code
    assert seller["assets"]["ducats"] == 8550 and magistrate["assets"]["ducats"] == 450  # 5% of 9000
    assert ctx.messages["SFORZA"]


def test_sale_only_at_the_starting_location() -> None:
    seller = persona("0101", "MEDICI", assets={"pepper": 10})
    ctx = make_ctx(seller, locations=[location("Florence", demanded=spices_market()), location("Pisa")])
    ctx.start_location["0101"] = "Pisa"  # he began the turn at Pisa and came to Florence
    assert not sell(ctx, seller, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 10}).ok
    assert seller["assets"]["pepper"] == 10


def test_sale_needs_demand_for_the_class_and_an_item_of_it() -> None:
    seller = persona("0101", "MEDICI", assets={"pepper": 10, "wool": 10, "sugar": 10})
    florence = location("Florence", demanded=spices_market())
    ctx = make_ctx(seller, locations=[florence])
    assert not sell(ctx, seller, {"rank": 0, "cls": "fibers", "item": "wool", "qty": 10}).ok  # no demand
    assert not sell(ctx, seller, {"rank": 0, "cls": "spices", "item": "wool", "qty": 10}).ok  # not a spice
    assert not sell(ctx, seller, {"rank": 0, "cls": "food", "item": "sugar", "qty": 10}).ok  # no food demand
    assert sell(ctx, seller, {"rank": 0, "cls": "spices", "item": "sugar", "qty": 10}).ok  # sugar is a spice too
    assert florence["demanded"]["spices"]["qty"] == 290


def test_sale_larger_than_the_demand_sells_what_is_demanded_c5() -> None:
    seller = persona("0101", "MEDICI", assets={"ducats": 0, "pepper": 100})
    florence = location("Florence", demanded=spices_market(qty=40))
    ctx = make_ctx(seller, locations=[florence])
    out = sell(ctx, seller, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 100})
    assert out.ok and "40" in out.text
    assert seller["assets"] == {"ducats": 3600, "pepper": 60}  # 40 x 90
    assert florence["demanded"]["spices"]["qty"] == 0
    # Demand at zero: no more sales in the class until March.
    assert not sell(ctx, seller, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 1}).ok
    assert seller["assets"]["pepper"] == 60


def test_sale_of_more_than_held_fails() -> None:
    seller = persona("0101", "MEDICI", assets={"ducats": 0, "pepper": 5})
    ctx = make_ctx(seller, locations=[location("Florence", demanded=spices_market())])
    assert not sell(ctx, seller, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 6}).ok
    assert seller["assets"] == {"ducats": 0, "pepper": 5}


def test_master_premium_on_three_types_of_one_class() -> None:
    master = persona("0101", "MEDICI", guild="master", skills={"merchantry": 900},
                     assets={"ducats": 0, "pepper": 100, "cinnamon": 60, "clove": 40})
    florence = location("Florence", demanded=spices_market(qty=300, price=50), tariffs={"import": 10, "export": 0})
    ctx = make_ctx(master, locations=[florence])
    assert sell(ctx, master, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 100}).ok
    assert sell(ctx, master, {"rank": 1, "cls": "spices", "item": "cinnamon", "qty": 60}).ok
    assert sell(ctx, master, {"rank": 2, "cls": "spices", "item": "clove", "qty": 40}).ok
    # pepper:   100 x 50              = 5000, tariff 10% = 500, net 4500
    # cinnamon:  60 x (50 + 30% of 50) =  60 x 65 = 3900, tariff 390, net 3510
    # clove:     40 x (50 + 60% of 50) =  40 x 80 = 3200, tariff 320, net 2880
    assert master["assets"] == {"ducats": 4500 + 3510 + 2880}
    assert florence["demanded"]["spices"]["qty"] == 100  # 300 - 200


def test_journeyman_and_apprentice_premium_steps_and_rounding_c9() -> None:
    journeyman = persona("0101", "MEDICI", skills={"merchantry": 500}, assets={"ducats": 0, "pepper": 20, "mace": 10})
    florence = location("Florence", demanded=spices_market(qty=300, price=50))
    ctx = make_ctx(journeyman, locations=[florence])
    sell(ctx, journeyman, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 20})
    sell(ctx, journeyman, {"rank": 1, "cls": "spices", "item": "mace", "qty": 10})
    assert journeyman["assets"]["ducats"] == 20 * 50 + 10 * 60  # second type: 50 + 20% of 50 = 60

    apprentice = persona("0102", "MEDICI", "Pisa", guild="apprentice", skills={"merchantry": 200},
                         assets={"ducats": 0, "pepper": 9, "mace": 5})
    pisa = location("Pisa", demanded=spices_market(qty=300, price=7), tariffs={"import": 5, "export": 0})
    ctx = make_ctx(apprentice, locations=[pisa])
    sell(ctx, apprentice, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 9})
    sell(ctx, apprentice, {"rank": 1, "cls": "spices", "item": "mace", "qty": 5})
    # pepper: 9 x 7 = 63; tariff 5% = 3.15 -> 3; net 60
    # mace:   5 x 7 x 1.10 = 38.5 -> 39 (halves up); tariff 5% of 39 = 1.95 -> 2; net 37
    assert apprentice["assets"]["ducats"] == 60 + 37


def test_premium_rank_is_checked_against_the_sales_made_c6() -> None:
    master = persona("0101", "MEDICI", guild="master", assets={"ducats": 0, "pepper": 100, "clove": 40})
    ctx = make_ctx(master, locations=[location("Florence", demanded=spices_market(qty=300, price=50))])
    # Claims the second rank with no other spice sold yet: no premium.
    sell(ctx, master, {"rank": 1, "cls": "spices", "item": "clove", "qty": 40})
    assert master["assets"]["ducats"] == 2000  # 40 x 50
    # Listed out of order (the larger lot after the smaller): still no premium for the larger lot.
    sell(ctx, master, {"rank": 1, "cls": "spices", "item": "pepper", "qty": 100})
    assert master["assets"]["ducats"] == 2000 + 5000  # 100 x 50


def test_understated_rank_is_the_players_loss_c6() -> None:
    master = persona("0101", "MEDICI", guild="master", assets={"ducats": 0, "pepper": 100, "clove": 40})
    ctx = make_ctx(master, locations=[location("Florence", demanded=spices_market(qty=300, price=50))])
    sell(ctx, master, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 100})
    sell(ctx, master, {"rank": 0, "cls": "spices", "item": "clove", "qty": 40})
    assert master["assets"]["ducats"] == 5000 + 2000  # m=0 written: the 30% premium (600) is not paid


def test_non_merchant_earns_no_premium() -> None:
    seller = persona("0101", "MEDICI", skills={"merchantry": 199}, assets={"ducats": 0, "pepper": 100, "clove": 40})
    ctx = make_ctx(seller, locations=[location("Florence", demanded=spices_market(qty=300, price=50))])
    sell(ctx, seller, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 100})
    sell(ctx, seller, {"rank": 1, "cls": "spices", "item": "clove", "qty": 40})
    assert seller["assets"]["ducats"] == 5000 + 2000


def test_selling_out_the_food_demand_marks_it_satisfied_c10() -> None:
    seller = persona("0101", "MEDICI", assets={"ducats": 0, "grain": 100})
    florence = location("Florence", demanded={"food": {"qty": 80, "price": 3, "bq": 0.002}}, food_satisfied=False)
    ctx = make_ctx(seller, locations=[florence])
    sell(ctx, seller, {"rank": 0, "cls": "food", "item": "grain", "qty": 50})
    assert florence["food_satisfied"] is False  # 30 still wanted
    sell(ctx, seller, {"rank": 0, "cls": "food", "item": "grain", "qty": 50})
    assert florence["food_satisfied"] is True and florence["demanded"]["food"]["qty"] == 0
    assert seller["assets"] == {"ducats": 240, "grain": 20}  # 80 x 3


# --- PURCHASES ---------------------------------------------------------------------------------------------------

def wool_market(qty: int = 600, price: int = 12) -> dict[str, Any]:
    return {"wool": {"qty": qty, "price": price, "bq": 0.01}}  # BQ x population = 0.01 x 70000 = 700


def test_purchase_adds_the_export_tariff_paid_to_the_magistrate_present() -> None:
    buyer = persona("0101", "MEDICI", assets={"ducats": 2000})
    magistrate = persona("0201", "SFORZA", assets={"ducats": 0})
    florence = location("Florence", supplied=wool_market(), tariffs={"import": 5, "export": 3},
                        offices={"magistrate": "0201"})
    ctx = make_ctx(buyer, magistrate, locations=[florence])
    out = buy(ctx, buyer, {"item": "wool", "qty": 100, "surcharge": False})
    assert out.ok, out.text
    # 100 x 12 = 1200; export tariff 3% = 36; he pays 1236, the magistrate gets 36.
    assert buyer["assets"] == {"ducats": 764, "wool": 100}
    assert magistrate["assets"]["ducats"] == 36
    assert florence["supplied"]["wool"]["qty"] == 500


def test_purchase_larger_than_the_supply_buys_what_is_left_c5() -> None:
    buyer = persona("0101", "MEDICI", assets={"ducats": 2000})
    florence = location("Florence", supplied=wool_market(qty=50))
    ctx = make_ctx(buyer, locations=[florence])
    assert buy(ctx, buyer, {"item": "wool", "qty": 100, "surcharge": False}).ok
    assert buyer["assets"] == {"ducats": 1400, "wool": 50}  # 2000 - 50 x 12
    assert florence["supplied"]["wool"]["qty"] == 0
    out = buy(ctx, buyer, {"item": "wool", "qty": 10, "surcharge": False})
    assert not out.ok and "sold out" in out.text


def test_purchase_without_the_ducats_fails_whole() -> None:
    buyer = persona("0101", "MEDICI", assets={"ducats": 1235})
    florence = location("Florence", supplied=wool_market(), tariffs={"import": 0, "export": 3})
    ctx = make_ctx(buyer, locations=[florence])
    assert not buy(ctx, buyer, {"item": "wool", "qty": 100, "surcharge": False}).ok  # needs 1236
    assert buyer["assets"] == {"ducats": 1235} and florence["supplied"]["wool"]["qty"] == 600


def test_purchase_only_at_the_starting_location_and_of_a_supplied_item() -> None:
    buyer = persona("0101", "MEDICI", assets={"ducats": 2000})
    ctx = make_ctx(buyer, locations=[location("Florence", supplied=wool_market()), location("Pisa")])
    assert not buy(ctx, buyer, {"item": "flax", "qty": 1, "surcharge": False}).ok
    ctx.start_location["0101"] = "Pisa"
    assert not buy(ctx, buyer, {"item": "wool", "qty": 1, "surcharge": False}).ok
    assert buyer["assets"] == {"ducats": 2000}


def test_sold_out_goods_only_for_merchants_paying_the_surcharge() -> None:
    plain = persona("0101", "MEDICI", assets={"ducats": 5000})
    journeyman = persona("0102", "MEDICI", guild="journeyman", assets={"ducats": 5000})
    ctx = make_ctx(plain, journeyman, locations=[location("Florence", supplied=wool_market(qty=0))])
    assert not buy(ctx, plain, {"item": "wool", "qty": 5, "surcharge": True}).ok
    assert not buy(ctx, journeyman, {"item": "wool", "qty": 5, "surcharge": False}).ok
    assert plain["assets"] == {"ducats": 5000} and journeyman["assets"] == {"ducats": 5000}


def test_journeyman_buys_sold_out_goods_at_five_times_capped_at_two_percent() -> None:
    journeyman = persona("0101", "MEDICI", skills={"merchantry": 520}, assets={"ducats": 5000})
    magistrate = persona("0201", "SFORZA", assets={"ducats": 0})
    florence = location("Florence", supplied=wool_market(qty=0), tariffs={"import": 0, "export": 3},
                        offices={"magistrate": "0201"})
    ctx = make_ctx(journeyman, magistrate, locations=[florence])
    out = buy(ctx, journeyman, {"item": "wool", "qty": 20, "surcharge": True})
    assert out.ok, out.text
    # cap 2% of 0.01 x 70000 = 2% of 700 = 14; price 5 x 12 = 60; 14 x 60 = 840; tariff 3% = 25.2 -> 25
    assert journeyman["assets"] == {"ducats": 5000 - 865, "wool": 14}
    assert magistrate["assets"]["ducats"] == 25
    assert florence["supplied"]["wool"]["qty"] == 0
    # The cap is for the turn (C7): a second order for the same good gets nothing more.
    assert not buy(ctx, journeyman, {"item": "wool", "qty": 1, "surcharge": True}).ok
    assert journeyman["assets"]["wool"] == 14


def test_master_and_apprentice_sold_out_terms() -> None:
    master = persona("0101", "MEDICI", guild="master", assets={"ducats": 5000})
    apprentice = persona("0102", "MEDICI", skills={"merchantry": 200}, assets={"ducats": 5000})
    ctx = make_ctx(master, apprentice, locations=[location("Florence", supplied=wool_market(qty=0))])
    assert buy(ctx, master, {"item": "wool", "qty": 100, "surcharge": True}).ok
    assert master["assets"] == {"ducats": 5000 - 21 * 24, "wool": 21}  # 3% of 700 = 21, at 2 x 12 = 24
    assert buy(ctx, apprentice, {"item": "wool", "qty": 100, "surcharge": True}).ok
    assert apprentice["assets"] == {"ducats": 5000 - 7 * 120, "wool": 7}  # 1% of 700 = 7, at 10 x 12 = 120


def test_one_type_of_sold_out_good_per_merchant_per_turn() -> None:
    master = persona("0101", "MEDICI", guild="master", assets={"ducats": 5000})
    other = persona("0102", "MEDICI", guild="master", assets={"ducats": 5000})
    markets = {**wool_market(qty=0), "flax": {"qty": 0, "price": 10, "bq": 0.01}}
    ctx = make_ctx(master, other, locations=[location("Florence", supplied=markets)])
    assert buy(ctx, master, {"item": "wool", "qty": 10, "surcharge": True}).ok
    out = buy(ctx, master, {"item": "flax", "qty": 10, "surcharge": True})
    assert not out.ok and "already" in out.text
    assert "flax" not in master["assets"]
    # The limit is each merchant's: another master may buy sold-out flax.
    assert buy(ctx, other, {"item": "flax", "qty": 10, "surcharge": True}).ok
    assert other["assets"]["flax"] == 10


def test_a_passenger_may_give_to_the_owner_and_not_to_himself_or_the_dead_c2() -> None:
    owner = persona("0101", "MEDICI", location=None, at_sea={"lat": 40.0, "lon": 10.0}, assets={})
    passenger = persona("0201", "SFORZA", location=None, **{"with": "0101"}, assets={"ducats": 5})
    dead = persona("0102", "MEDICI", location=None, at_sea={"lat": 40.0, "lon": 10.0}, alive=False)
    ctx = make_ctx(owner, passenger, dead)
    assert transfer(ctx, passenger, {"to": "0101", "item": "ducats", "qty": 5}).ok  # he is where the ship is
    assert owner["assets"]["ducats"] == 5
    assert not transfer(ctx, owner, {"to": "0101", "item": "ducats", "qty": 1}).ok
    assert not transfer(ctx, owner, {"to": "0102", "item": "ducats", "qty": 1}).ok
    assert owner["assets"]["ducats"] == 5


def test_a_non_player_magistrate_gets_no_tariff_c8() -> None:
    seller = persona("0101", "MEDICI", assets={"ducats": 0, "pepper": 10})
    florence = location("Florence", demanded=spices_market(), tariffs={"import": 10, "export": 0},
                        offices={"magistrate": "Piero Soderini"})
    ctx = make_ctx(seller, locations=[florence])
    assert sell(ctx, seller, {"rank": 0, "cls": "spices", "item": "pepper", "qty": 10}).ok
    assert seller["assets"]["ducats"] == 810  # 900 - 90
    assert ctx.messages == {}


def test_premium_rank_counts_within_the_class_sold_c13() -> None:
    master = persona("0101", "MEDICI", guild="master", assets={"ducats": 0, "sugar": 100, "clove": 40, "grain": 50})
    markets = {**spices_market(qty=300, price=50), "food": {"qty": 500, "price": 10, "bq": 0.01}}
    ctx = make_ctx(master, locations=[location("Florence", demanded=markets)])
    sell(ctx, master, {"rank": 0, "cls": "food", "item": "sugar", "qty": 100})  # 100 x 10 = 1000
    sell(ctx, master, {"rank": 1, "cls": "spices", "item": "clove", "qty": 40})  # no spice sold before: 40 x 50
    sell(ctx, master, {"rank": 1, "cls": "food", "item": "grain", "qty": 50})  # 2nd food type: 50 x 13 = 650
    assert master["assets"] == {"ducats": 1000 + 2000 + 650}
