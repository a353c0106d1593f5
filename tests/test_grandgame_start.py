"""The start of the Grand Game: the picking by sealed-bid rounds, the Neutral Powers' garrisons, the initial
purchase and the placement (section Starting the Game; docs/grand-game.md "The start"). Figures worked by hand
from the example map: Borvane holds zones ZC (9) and ZD (5) and 3 of ZE's 4 territories (75%, partial: 8), a
GDP of 22; Aurelia ZA (8) and ZB (10), 18; Cassaria ZH (7) and ZJ (9), 16 (2 of ZK's 5 is no control)."""

from __future__ import annotations

import random

import pytest

from maild.ruleset import Order, PlacedOrder
from maild_rules.grandgame import start
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.ruleset import RULESET
from maild_rules.grandgame.state import NEUTRAL, player, stack
from tests.grandgame_support import example_setup, new_state, started


def orders_of(text: str) -> list[Order]:
    parsed = RULESET.parse(text)
    assert not parsed.diagnostics, parsed.diagnostics
    return parsed.orders


def placed(text: str, seq: int) -> list[PlacedOrder]:
    return [PlacedOrder(o, seq) for o in orders_of(text)]


def three_players(**options: int) -> dict:
    """alice, bruno and chloe; `options` as a setup's [options] would give them (setup.OPTIONS gets the key
    "increment" from the integrator; set here, so the tests do not wait for it)."""
    state = new_state(players=example_setup()["players"][:3])
    state["options"].update(options)
    return state


def messages(state: dict, name: str, text: str) -> list[tuple[str, bool]]:
    return [(d.message, d.warning) for d in RULESET.check(state, 1, name, orders_of(text))]


# ---- reading ---------------------------------------------------------------------------------------------------

def test_bid_and_pick_lines() -> None:
    assert [o.args for o in orders_of("bid 12\nBid: $7\nbid 0\nbid 5.")] == [{"amount": 12}, {"amount": 7},
                                                                          {"amount": 0}, {"amount": 5}]
    pick = orders_of("pick Borvane, Aurelia, Elunde democracy")[0]
    assert pick.args == {"countries": [["Borvane", "democracy"], ["Aurelia", "democracy"],
                                       ["Elunde", "democracy"]]}
    # A regime written after a country is its own; one written later covers those before it; the last ones
    # without any take the regime before them.
    mixed = orders_of("pick bor dictatorship, Aurelia, ELU democracy, cas")[0]
    assert mixed.args["countries"] == [["bor", "dictatorship"], ["Aurelia", "democracy"], ["ELU", "democracy"],
                                       ["cas", "democracy"]]
    for wrong, says in (("bid twelve", "whole number"), ("bid 2.5", "whole number"), ("bid -3", "whole number"),
                        ("pick Borvane", "regime"), ("buy 3 dragons", "not a kind"), ("place 3 inf", "say where")):
        assert says in RULESET.parse(wrong).diagnostics[0].message, wrong


def test_purchase_and_placement_lines() -> None:
    buy, place, fleet = orders_of("buy 4 infantry, 2 armor, 1 aircraft and 6 supply\nplace 3 inf, 2 sup in "
                                  "K14\nplace 1 light fleet in Borhaven")
    assert (buy.kind, buy.args) == ("purchase", {"items": {"infantry": 4, "armor": 2, "aircraft": 1, "supply": 6}})
    assert (place.kind, place.args) == ("place", {"items": {"infantry": 3, "supply": 2}, "where": "K14"})
    assert fleet.args == {"items": {"light fleet": 1}, "where": "Borhaven"}
    # A purchase with a place, or paid in Francs, is not the initial purchase: another module reads it.
    assert start.read_line("buy 2 infantry in Velden") is None
    assert start.read_line("buy 2 infantry with francs") is None


# ---- the picking -----------------------------------------------------------------------------------------------

def test_picking_round_by_round_through_the_ruleset() -> None:
    state = three_players()
    rng = random.Random(1)
    # Round 1: alice and bruno both bid $12; bruno's mail came first (seq 3 < 5), so he wins. chloe bids 7.
    first = RULESET.resolve_phase(state, 1, "picking", {
        "alice": placed("bid 12\npick Borvane democracy", 5),
        "bruno": placed("bid 12\npick Borvane, Aurelia dictatorship", 3),
        "chloe": placed("bid 7\npick aur dem", 4)}, rng)
    bruno = player(state, "bruno")
    assert (bruno["country"], bruno["regime"], bruno["paid"], bruno["francs"], bruno["picked"]) == \
        ("BOR", "dictatorship", 12, 12, 1)
    assert first.open_phase is not None
    assert (first.open_phase.name, first.open_phase.must_send) == ("picking-2", ("alice", "chloe"))
    news = [line for s in first.newsletter["sections"] for line in s["lines"]]
    assert news[0] == "bruno won for $12 and takes Borvane, a dictatorship."
    # A printout's long line goes on in an indented line (printout.wrapped): read as the player reads it.
    alice = " ".join(line.strip() for s in first.printouts["alice"]["sections"] for line in s["lines"])
    assert "Your bid of $12 lost: bruno won with $12 (equal bids: the earlier mail wins)." in alice
    # Round 2: alice sends only a bid of $70 (her list, Borvane only, stands; Borvane is taken, so she gets the
    # largest country left: Aurelia, Cassaria, Dravenmark and Elunde have 12 territories, Aurelia comes first).
    # chloe is then the last: she takes Cassaria (Aurelia, her pick, is gone) for nothing.
    second = RULESET.resolve_phase(state, 1, "picking-2", {"alice": placed("bid 70", 9),
                                                           "chloe": placed("bid 69\npick aur, cas dem", 8)}, rng)
    assert second.open_phase is None
    alice, chloe = player(state, "alice"), player(state, "chloe")
    assert (alice["country"], alice["regime"], alice["paid"], alice["francs"], alice["picked"]) == \
        ("AUR", "democracy", 70, 50, 2)  # "if he paid $70, he gets 50 Francs"
    assert (chloe["country"], chloe["regime"], chloe["paid"], chloe["francs"], chloe["picked"]) == \
        ("CAS", "democracy", 0, 0, 3)
    assert (bruno["gdp"], alice["gdp"], chloe["gdp"]) == (22, 18, 16)
    assert "picks" not in state["pending"]
    # The countries nobody picked are Neutral Powers: 1 infantry and 3 supply on every territory they hold.
    assert stack(state, "L8", NEUTRAL) == {"infantry": 1, "supply": 3}  # Ilvane
    assert stack(state, "C5", NEUTRAL) == {"infantry": 1, "supply": 3}  # Nesse, neutral from the start
    assert stack(state, "M4", NEUTRAL) == {"infantry": 1, "supply": 3}  # Gallowmere's, in bruno's zone ZE
    assert stack(state, "E2", NEUTRAL) == {}
    neutral_land = 12 + 12 + 3 + 4 + 4 + 3 + 4 + 2 + 2  # DRA ELU FER GAL HES ILV JOR NES ORR
    assert len(state["forces"]) == neutral_land
    news = [line for s in second.newsletter["sections"] for line in s["lines"]]
    assert "chloe is the last to pick and takes, for nothing, Cassaria, a democracy." in news


def test_silent_players_bid_nothing_and_get_the_largest_country(monkeypatch: pytest.MonkeyPatch) -> None:
    dealt: list[int] = []
    monkeypatch.setattr(start.victory, "deal", lambda state, rng, report: dealt.append(1))
    state = new_state()
    names = [p["name"] for p in state["players"]]
    # Nobody writes: each round the first silent player in the setup's order wins at $0 and gets the largest
    # free country (Borvane has 13 territories; then the 12s in the map's order; then the 4s).
    rounds = 0
    bidders: list[str] | None = names
    while bidders:
        rounds += 1
        bidders = start.resolve_picking(state, rounds, {n: [] for n in names}, random.Random(1), Report())
    assert rounds == 7  # the eighth player needs no round
    assert [player(state, n)["country"] for n in names] == ["BOR", "AUR", "CAS", "DRA", "ELU", "GAL", "HES", "JOR"]
    assert {player(state, n)["regime"] for n in names} == {"democracy"}
    assert dealt == [1]


def test_the_increment_and_the_checks_of_a_bid() -> None:
    state = three_players(increment=5)
    assert messages(state, "alice", "bid 12\npick Borvane dem") == [
        ("bids go up in steps of $5: bid 10 or 15", False)]
    assert messages(state, "alice", "bid 10\nbid 15") == [
        ("one bid a round: the bid on line 1 stands", False),
        ("no pick: if you win you get the largest country left, as a democracy", True)]
    found = messages(state, "alice", "pick Narnia, Nesse, Borvane dem")
    assert found[0][0].startswith("no country is called Narnia") and not found[0][1]
    assert found[1] == ("Nesse is a Neutral Power: nobody picks it", False)
    assert found[2] == ("no bid: you bid $0 this round", True)
    start.take_country(state, "bruno", "BOR", "democracy")
    assert messages(state, "alice", "bid 5\npick Borvane, Aurelia dem") == [
        ("Borvane is taken already: it is skipped", True)]
    assert messages(state, "bruno", "bid 5") == [("you have a country already", False)]
    # A bid that is no multiple of the increment (the check refuses it; were it ever on file) counts as the
    # multiple below it: $12 in steps of $5 is $10, which loses to chloe's $10 sent earlier.
    bidders = start.resolve_picking(state, 1, {"alice": placed("bid 12", 7), "chloe": placed("bid 10", 6),
                                               "bruno": []}, random.Random(1), Report())
    assert player(state, "chloe")["paid"] == 10 and bidders is None


# ---- the purchase ----------------------------------------------------------------------------------------------

def test_purchase_budget_is_twenty_plus_gdp() -> None:
    state = started()
    # bruno (Borvane, GDP 22) has 20 + 22 = 42: 4 infantry (20), 1 aircraft (10), 7 supply (7) is 37, 5 left.
    assert messages(state, "bruno", "buy 4 infantry, 1 aircraft\nbuy 7 supply") == [
        ("you have spent 37 of 42 GDP; 5 left, lost if unused", True)]
    # A line that would go over is refused; the ones before it stand.
    assert messages(state, "bruno", "buy 6 infantry, 1 aircraft\nbuy 1 armor, 3 supply") == [
        ("this costs 8 GDP and you have 2 of 42 left", False),
        ("you have spent 40 of 42 GDP; 2 left, lost if unused", True)]
    # farid (Ferroway: 3 of ZF's 5 territories, partial, GDP 9) has no port: no fleets.
    assert messages(state, "farid", "buy 1 light fleet, 5 infantry") == [
        ("you have no port to place fleets in", False), ("you have spent 0 of 29 GDP; 29 left, lost if unused", True)]
    report = Report()
    start.resolve_purchase(state, {"bruno": placed("buy 4 infantry, 1 aircraft\nbuy 2 light fleet, 2 supply", 4),
                                   "alice": placed("buy 30 supply", 2)}, random.Random(1), report)
    assert state["pending"]["purchase"]["bruno"] == {"infantry": 4, "aircraft": 1, "light fleet": 2, "supply": 2}
    assert state["pending"]["purchase"]["chloe"] == {}  # silent: nothing bought, the GDP is lost
    assert report.public["The purchases"][:3] == [
        "Aurelia (alice): 30 supply (30 of 38 GDP).",
        "Borvane (bruno): 4 infantry, 1 aircraft, 2 light fleet, 2 supply (42 of 42 GDP).",
        "Cassaria (chloe): nothing (0 of 36 GDP)."]
    assert report.private["alice"]["Your purchase"] == ["8 GDP unspent, lost."]


# ---- the placement ---------------------------------------------------------------------------------------------

def test_placement_on_own_land_fleets_in_ports() -> None:
    state = started()
    state["pending"]["purchase"] = {"bruno": {"infantry": 4, "armor": 1, "light fleet": 2, "supply": 5}}
    assert messages(state, "bruno", "place 3 infantry, 2 supply in Tarnow\nplace 1 light fleet in Borhaven") == [
        ("not placed yet: 1 infantry, 1 armor, 1 light fleet, 3 supply; the engine places them in Borhaven (K2)",
         True)]
    found = messages(state, "bruno", "place 1 infantry in E2\nplace 1 light fleet in L3\nplace 5 infantry in K3\n"
                                     "place 1 armor in Atlantis")
    assert [m for m, _ in found[:4]] == [
        "Velden (E2) is not your land: place on your own territories",
        "Tarnow (L3) is not a port: fleets are placed in your ports",
        "1 infantry more than you bought (left to place: 4 infantry, 1 armor, 2 light fleet, 5 supply)",
        "no such territory (write its id, like E2, its name or its city)"]
    report = Report()
    start.resolve_placement(state, {"bruno": placed("place 3 infantry, 2 supply in L3\nplace 1 light fleet in "
                                                    "Quell\nplace 1 infantry in E2", 3)}, random.Random(1), report)
    assert stack(state, "L3", "bruno") == {"infantry": 3, "supply": 2}
    assert stack(state, "K5", "bruno") == {"light fleet": 1}
    # What he did not place goes to his first city in the map's order, Borhaven (K2), a port: fleets too.
    assert stack(state, "K2", "bruno") == {"infantry": 1, "armor": 1, "light fleet": 1, "supply": 3}
    assert stack(state, "E2", "bruno") == {}
    assert "purchase" not in state["pending"]
    assert report.private["bruno"]["Your placement"] == [
        "Not done: place 1 infantry in E2: Velden (E2) is not your land: place on your own territories.",
        "Not placed by you, placed in Borhaven (K2): 1 infantry, 1 armor, 3 supply.",
        "Not placed by you, placed in Borhaven (K2): 1 light fleet."]
    assert report.public["The placement"] == [
        "bruno: 3 infantry, 2 supply in Tarnow (L3); 1 light fleet in Quell (K5); 1 infantry, 1 armor, "
        "1 light fleet, 3 supply in Borhaven (K2)."]


def test_the_start_through_the_ruleset() -> None:
    state = new_state(players=example_setup()["players"][:2])
    rng = random.Random(1)
    # Two players: the round's winner, then the last one, in one resolution.
    picking = RULESET.resolve_phase(state, 1, "picking", {"alice": placed("bid 5\npick ferroway dictatorship", 2),
                                                          "bruno": placed("bid 4\npick Hestry democracy", 1)}, rng)
    assert picking.open_phase is None
    assert [(p["country"], p["regime"], p["francs"]) for p in state["players"]] == [
        ("FER", "dictatorship", 5), ("HES", "democracy", 0)]
    # Ferroway (no port): 3 of ZF's 5 territories, GDP 9, 29 to spend; fleets refused at intake and at the end.
    assert RULESET.check(state, 1, "alice", orders_of("buy 1 heavy fleet"))[0].message == \
        "you have no port to place fleets in"
    RULESET.resolve_phase(state, 1, "purchase", {"alice": placed("buy 5 infantry\nbuy 1 heavy fleet\nbuy 4 supply",
                                                                 3), "bruno": []}, rng)
    assert state["pending"]["purchase"] == {"alice": {"infantry": 5, "supply": 4}, "bruno": {}}
    assert RULESET.check(state, 1, "alice", orders_of("place 5 infantry, 4 supply in D4")) == []
    placement = RULESET.resolve_phase(state, 1, "placement", {"alice": placed("place 2 infantry in D4", 4),
                                                              "bruno": []}, rng)
    assert stack(state, "D4", "alice") == {"infantry": 2}
    assert stack(state, "E4", "alice") == {"infantry": 3, "supply": 4}  # Ferrow, her only city
    lines = [line for s in placement.printouts["alice"]["sections"] for line in s["lines"]]
    assert "Not placed by you, placed in Ferrow (E4): 3 infantry, 4 supply." in lines
