"""Francs between players (sections In Game Cash, Combat, Selling Nuclear Secrets; introduction items 11, 20, 21;
docs/grand-game.md "Francs between players"): payments, transfers for a fee, purchases with Francs, secrets.
In the example game alice holds Aurelia (Velden is the city of Pelgate, E2; Aurum of Ulgate, C3, a port) and
bruno Borvane (Borhaven, K2)."""

from __future__ import annotations

import random

from maild.ruleset import Order, PlacedOrder
from maild_rules.grandgame import francs
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.ruleset import RULESET
from maild_rules.grandgame.state import add, owner, player, stack
from tests.grandgame_support import started


def orders_of(text: str) -> list[Order]:
    parsed = RULESET.parse(text)
    assert not parsed.diagnostics, parsed.diagnostics
    return parsed.orders


def placed(text: str, seq: int) -> list[PlacedOrder]:
    return [PlacedOrder(o, seq) for o in orders_of(text)]


def with_francs(**amounts: int) -> dict:
    state = started()
    for name, amount in amounts.items():
        player(state, name)["francs"] = amount
    return state


def resolve(state: dict, **texts: tuple[str, int]) -> Report:
    report = Report()
    francs.resolve(state, 1, {name: placed(text, seq) for name, (text, seq) in texts.items()}, random.Random(1),
                   report)
    return report


def messages(state: dict, name: str, text: str) -> list[tuple[str, bool]]:
    return [(d.message, d.warning) for d in RULESET.check(state, 1, name, orders_of(text))]


def francs_of(state: dict, *names: str) -> tuple[int, ...]:
    return tuple(player(state, n)["francs"] for n in names)


def test_the_orders_as_players_write_them() -> None:
    read = {line: (o.kind, o.args) for line in (
        "pay 20 to bruno", "pay bruno 20", "give 20 francs to Borvane", "give K14, Pelgate and E3 to bruno",
        "give 2 inf, 3 supply in Pelgate to bruno", "francs buy 2 infantry, 3 supply in Velden",
        "buy 1 infantry in E2 with francs", "sell nuclear secrets to bruno") for o in orders_of(line)}
    assert list(read.values()) == [
        ("pay", {"amount": 20, "to": "bruno"}), ("pay", {"amount": 20, "to": "bruno"}),
        ("pay", {"amount": 20, "to": "Borvane"}),
        ("give", {"to": "bruno", "territories": ["K14", "Pelgate", "E3"]}),
        ("give", {"to": "bruno", "items": {"infantry": 2, "supply": 3}, "where": "Pelgate"}),
        ("francs-buy", {"items": {"infantry": 2, "supply": 3}, "where": "Velden"}),
        ("francs-buy", {"items": {"infantry": 1}, "where": "E2"}),
        ("sell-secrets", {"to": "bruno"})]
    for wrong, says in (("pay 0 to bruno", "1 Franc or more"), ("give 2 infantry to bruno", "say where"),
                        ("francs buy 1 armor in Velden", "only infantry"), ("sell E2 to bruno", "secrets")):
        assert says in RULESET.parse(wrong).diagnostics[0].message, wrong


def test_payments_are_free_and_a_payment_received_pays_on() -> None:
    state = with_francs(alice=0, bruno=30, chloe=0)
    # alice's payment (the earliest mail) waits for bruno's to her, then goes through: alice 0 + 25 - 20 = 5.
    # chloe, with the 20 from alice, cannot pay 100.
    report = resolve(state, alice=("pay 20 to chloe", 2), bruno=("pay 25 to alice", 5),
                     chloe=("pay 100 to bruno", 7))
    assert francs_of(state, "alice", "bruno", "chloe") == (5, 5, 20)
    assert report.private["alice"]["Francs"] == ["bruno paid you 25 Francs.", "You paid chloe 20 Francs."]
    assert report.private["chloe"]["Francs"] == ["alice paid you 20 Francs.",
                                                 "Not done: pay 100 Francs to bruno: you have 20 Francs."]
    assert "Francs" not in report.public  # payments are between the two


def test_a_territory_goes_with_the_units_on_it_for_a_fee_the_receiver_may_pay() -> None:
    state = with_francs(alice=0, bruno=3)
    add(state, "E2", "alice", "infantry", 2)
    add(state, "E2", "alice", "supply", 3)
    # The fee: 1 for the territory and 1 for each of the 2 infantry; the supply is free: 3 Francs.
    assert messages(state, "alice", "give Pelgate to bruno")[0][0].startswith("these take 3 Francs and you have 0")
    report = resolve(state, alice=("give Pelgate to bruno", 4))
    assert owner(state, "E2") == "alice"
    assert report.private["alice"]["Francs"] == [
        "Not done: give Pelgate to bruno: the fee is 3 Francs and you have 0."]
    # "a cash exchange may be done simultaneously": bruno pays her the fee in the same season.
    report = resolve(state, alice=("give Pelgate to bruno", 4), bruno=("pay 3 to alice", 9))
    assert owner(state, "E2") == "bruno"
    assert stack(state, "E2", "bruno") == {"infantry": 2, "supply": 3} and stack(state, "E2", "alice") == {}
    assert francs_of(state, "alice", "bruno") == (0, 0)
    assert report.public["Francs"] == ["alice gave Pelgate (E2) to bruno."]


def test_units_change_side_where_they_stand() -> None:
    state = with_francs(alice=5)
    add(state, "C3", "alice", "infantry", 3)
    add(state, "C3", "alice", "supply", 4)
    resolve(state, alice=("give 2 infantry, 4 supply in Ulgate to bruno", 1))
    assert stack(state, "C3", "alice") == {"infantry": 1}
    assert stack(state, "C3", "bruno") == {"infantry": 2, "supply": 4}
    assert francs_of(state, "alice") == (3,)  # 2 infantry at 1 Franc, supplies free
    # Any number of transfers in the season's window; a territory named twice is given (and paid) once:
    # D2 and Pelgate (E2), 1 Franc each.
    resolve(state, alice=("give D2, Pelgate, e2 to bruno\ngive 1 infantry in C3 to chloe", 2))
    assert (owner(state, "D2"), owner(state, "E2"), stack(state, "C3", "chloe")) == ("bruno", "bruno",
                                                                                     {"infantry": 1})
    assert francs_of(state, "alice") == (0,)
    add(state, "S03", "alice", "light fleet", 1)
    add(state, "S03", "alice", "infantry", 2, cargo=True)
    assert [m for m, _ in messages(state, "alice", "give 2 infantry in C3 to bruno\ngive 1 lf in S03 to bruno\n"
                                                  "give K2 to chloe\ngive 1 inf in C3 to alice")] == [
        "you have nothing in Aurum (C3), not 2 infantry",
        "your fleets in Aurel Bight (S03) are loaded: unload them before giving fleets",
        "Marreach (K2) is not yours",
        "that is you"]


def test_francs_buy_infantry_and_supply_in_his_own_city() -> None:
    state = with_francs(alice=30)
    # 2 infantry at 10 and 3 supply at 2: 26 Francs.
    report = resolve(state, alice=("francs buy 2 infantry, 3 supply in Velden", 3))
    assert stack(state, "E2", "alice") == {"infantry": 2, "supply": 3} and francs_of(state, "alice") == (4,)
    assert report.public["Francs"] == ["alice bought 2 infantry, 3 supply with Francs in Velden (E2)."]
    assert [m for m, _ in messages(state, "alice", "francs buy 1 infantry in Borhaven\nfrancs buy 1 inf in E3")] \
        == ["Borhaven (K2) is not one of your cities or ports", "Osfell (E3) is not one of your cities or ports"]
    # Refused when carried out: too dear now, or the city lost in the meantime; each told with its reason.
    state["owners"]["C3"] = "bruno"
    report = resolve(state, alice=("francs buy 1 infantry in Velden\nfrancs buy 1 supply in Aurum", 5))
    assert report.private["alice"]["Francs"] == [
        "Not done: buy 1 infantry in Velden for 10 Francs: it costs 10 Francs and you have 4.",
        "Not done: buy 1 supply in Aurum for 2 Francs: Aurum (C3) is not one of your cities or ports."]
    assert francs_of(state, "alice") == (4,)


def test_secrets_are_sold_at_a_price_paid_apart() -> None:
    state = with_francs(alice=0, bruno=100)
    player(state, "alice")["research"], player(state, "bruno")["research"] = 50, 10
    report = resolve(state, alice=("sell secrets to bruno", 2), bruno=("pay 100 to alice", 3))
    assert (player(state, "alice")["research"], player(state, "bruno")["research"]) == (50, 50)
    assert francs_of(state, "alice", "bruno") == (100, 0)  # no fee: secrets are no unit or territory
    assert "bruno" in report.private and "alice sold you nuclear secrets: your atomic research is 50 (it was 10)." \
        in report.private["bruno"]["Francs"]
    player(state, "bruno")["research"] = 80
    resolve(state, alice=("sell secrets to bruno", 2))
    assert player(state, "bruno")["research"] == 80  # not cumulative: he keeps his own


def test_francs_go_first_in_the_allocation_through_the_ruleset() -> None:
    state = with_francs(alice=12, bruno=0)
    result = RULESET.resolve_phase(state, 1, "allocation", {"alice": placed("pay 12 to bruno", 1), "bruno": []},
                                   random.Random(1))
    assert francs_of(state, "alice", "bruno") == (0, 12)
    lines = [line for s in result.printouts["bruno"]["sections"] for line in s["lines"]]
    assert "alice paid you 12 Francs." in lines
