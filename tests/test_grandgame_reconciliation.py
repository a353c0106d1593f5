"""The Grand Game's reconciliation, its decks and victory: political cards and Francs, the allocation's units
placed, development and GDP from zone control, democracies' free research, the bomb, victory cards dealt,
checked and scored. Figures worked by hand from the rules. Readings: docs/grand-game.md, "The reconciliation",
"The decks", "Victory and the end"."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from maild.ruleset import Order, PlacedOrder
from maild_rules.grandgame import allocation, decks, reconciliation, victory
from maild_rules.grandgame.economy import POLITICAL_LEVELS
from maild_rules.grandgame.printout import sections_of
from maild_rules.grandgame.reading import Read
from maild_rules.grandgame.report import Report
from maild_rules.grandgame.ruleset import RULESET
from maild_rules.grandgame.state import DEMOCRACY, DICTATORSHIP, REGIMES, player, stack
from tests.grandgame_support import started

# alice: Aurelia, a democracy (zones ZA 8, ZB 10: GDP 18); bruno: Borvane, a dictatorship (GDP 22).


def one_card(**effects: Any) -> list[dict[str, Any]]:
    """[[decks.political]] tables giving every deck the one card `effects` (so a test knows what is drawn)."""
    return [{"level": level, "regime": regime, "name": "The card", "text": "As the test says.", **effects}
            for level in POLITICAL_LEVELS for regime in REGIMES]


def game(**card: Any) -> dict[str, Any]:
    state = started()
    state["decks"] = {"political": one_card(**card)}
    return state


def allocate(state: dict[str, Any], sent: dict[str, list[str]]) -> None:
    """Seal the allocations `sent` (player -> lines), as at the allocation's deadline."""
    placed: dict[str, list[PlacedOrder]] = {}
    for name, lines in sent.items():
        placed[name] = []
        for number, line in enumerate(lines, start=1):
            read = allocation.read_line(line)
            assert isinstance(read, Read)
            placed[name].append(PlacedOrder(Order(number, line, read.kind, read.args, read.summary), 1))
    allocation.resolve(state, state["turn"], placed, random.Random(0), Report())


def reconcile(state: dict[str, Any], seed: int = 1) -> tuple[bool, Report]:
    report = Report()
    over = reconciliation.resolve(state, state["turn"], random.Random(seed), report)
    return over, report


# ---- political cards and Francs -------------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "francs"), [({}, 6), ({"francs": 1.5}, 9), ({"francs": 0}, 0), ({"plus": 5}, 11),
                                              ({"francs": 0, "plus": -5}, 0)])
def test_francs_are_the_political_spending_as_the_card_changes_them(card: dict[str, Any], francs: int) -> None:
    # GDP 45 at 15%: 6 GDP spent, 6 Francs before the card ("You receive the amount of in-game cash equal to your
    # political spending (in GDP), subject to modifications on the political cards themselves"); x1.5 gives 9,
    # x0 nothing, +5 gives 11; the turn's Francs never go below 0.
    state = game(**card)
    player(state, "alice")["gdp"] = 45
    player(state, "alice")["francs"] = 20
    allocate(state, {"alice": ["politics 15%"]})
    reconcile(state)
    assert player(state, "alice")["francs"] == 20 + francs


def test_francs_rounded_down() -> None:
    # 30% of 45 is 13 GDP; x1.5 is 19.5: 19 Francs.
    assert decks.francs_of({"francs": 1.5}, 13) == 19


def test_each_player_draws_from_the_deck_of_his_level_and_regime() -> None:
    # "a dictatorship with 15% spending draws from the "15% Dictator" deck, and so on"; 0% when he sent nothing.
    state = started()
    state["decks"] = {"political": [{"level": level, "regime": regime, "name": f"{level}-{regime}"}
                                    for level in POLITICAL_LEVELS for regime in REGIMES]}
    allocate(state, {"alice": ["politics 30%"], "bruno": ["politics 15%"]})
    _, report = reconcile(state)
    lines = report.public["Political cards"]
    assert lines[0] == "Aurelia (alice), 30% Democracy: 30-democracy (no effect): 5 Francs."
    assert lines[1] == "Borvane (bruno), 15% Dictator: 15-dictatorship (no effect): 3 Francs."
    assert lines[2].startswith("Cassaria (chloe), 0% Democracy: 0-democracy")


def test_a_card_costing_a_zone_takes_value_from_a_zone_he_controls() -> None:
    state = game(zone=1)
    allocate(state, {})
    reconcile(state, seed=3)
    # alice holds ZA (8) and ZB (10): one of them lost 1, for good; her GDP is 17.
    assert sorted([state["zones"]["ZA"], state["zones"]["ZB"]]) in ([7, 10], [8, 9])
    assert player(state, "alice")["gdp"] == 17


def test_a_gdp_card_changes_the_next_turns_gdp_only() -> None:
    state = game(gdp=-2)
    allocate(state, {})
    reconcile(state)
    assert player(state, "alice")["gdp"] == 16  # 18 - 2, for the coming turn
    state["decks"] = {"political": one_card()}
    allocate(state, {})
    reconcile(state)
    assert player(state, "alice")["gdp"] == 18  # recounted from the zones


def test_the_same_seed_draws_the_same_cards() -> None:
    def draws(seed: int) -> list[str]:
        state = started()
        allocate(state, {"alice": ["politics 15%"], "bruno": ["politics 30%"]})
        _, report = reconcile(state, seed)
        return report.public["Political cards"]

    assert draws(5) == draws(5)
    assert any(draws(5) != draws(seed) for seed in range(6, 12))


# ---- production, development, GDP -----------------------------------------------------------------------------

def test_units_bought_are_placed_in_their_cities_and_railroads_built() -> None:
    state = game()
    player(state, "alice")["gdp"] = 30  # 15 + 8 + 2 GDP
    allocate(state, {"alice": ["build 2 infantry, 1 armor in Velden", "build 1 light fleet, 3 supply in Aurum",
                               "railroad in D2"]})
    reconcile(state)
    assert stack(state, "E2", "alice") == {"infantry": 2, "armor": 1}
    assert stack(state, "C3", "alice") == {"light fleet": 1, "supply": 3}
    assert "D2" in state["railroads"] and state["railroads"] == sorted(state["railroads"])


def test_what_was_bought_for_a_place_lost_since_is_lost() -> None:
    # GG-OQ-14, GG-OQ-15: Velden (E2) and Marford (D2) fall to Borvane during the turn.
    state = game()
    allocate(state, {"alice": ["build 2 infantry in Velden", "build 1 infantry in Brask", "railroad in D2"]})
    state["owners"]["E2"] = state["owners"]["D2"] = "bruno"
    _, report = reconcile(state)
    assert stack(state, "E2", "alice") == {} and stack(state, "E2", "bruno") == {}
    assert stack(state, "F4", "alice") == {"infantry": 1}
    assert "D2" not in state["railroads"]
    assert "Aurelia (alice): 2 infantry lost with Velden (E2), no longer his." in report.public["Production"]


def test_development_raises_the_zone_and_the_gdp() -> None:
    # ZA 8 + 3 = 11, ZB 10 + 2 = 12: alice's GDP 18 -> 23.
    state = game()
    allocate(state, {"alice": ["develop 3 in ZA, 2 in ZB"]})
    _, report = reconcile(state)
    assert (state["zones"]["ZA"], state["zones"]["ZB"]) == (11, 12)
    assert player(state, "alice")["gdp"] == 23
    assert "Aurelia (alice): 18 -> 23." in report.public["GDP"]


def test_gdp_follows_zone_control_and_development_of_a_zone_lost_is_lost() -> None:
    # ZA has 6 land territories. Borvane takes C2, D2 and C3: alice holds 3 of 6, 50%, under 51%: nobody
    # controls ZA, and the 3 points she designated for it are lost. Her GDP: ZB 10 only. Borvane holds 3 of 6
    # too: no control. Were he to take a fourth (66%), ZA's 8 would be his (partial control, GG-OQ-10).
    state = game()
    allocate(state, {"alice": ["develop 3 in ZA"]})
    for t in ("C2", "D2", "C3"):
        state["owners"][t] = "bruno"
    reconcile(state)
    assert state["zones"]["ZA"] == 8
    assert player(state, "alice")["gdp"] == 10 and player(state, "bruno")["gdp"] == 22
    state["owners"]["D3"] = "bruno"
    allocate(state, {})
    reconcile(state)
    assert player(state, "bruno")["gdp"] == 30


# ---- atomic research and the bomb -----------------------------------------------------------------------------

def test_democracies_get_three_free_units_a_turn() -> None:
    # "Democracies get 1 free unit of research per season (3 per turn)": alice (democracy) buys 10 and has 13;
    # bruno (dictatorship) buys 10 and has 10.
    state = game()
    allocate(state, {"alice": ["research 10"], "bruno": ["research 10"]})
    reconcile(state)
    assert player(state, "alice")["research"] == 13 and player(state, "bruno")["research"] == 10
    assert player(state, "chloe")["research"] == 3  # a democracy that bought nothing


def test_the_bomb_at_300_and_both_get_one_in_a_tie() -> None:
    # "When a player reaches 300 units of atomic research, he builds the bomb"; "In the event of a tie, where two
    # countries build the bomb on the same turn, both countries receive a bomb." alice 290 + 7 + 3 free = 300;
    # bruno 295 + 5 = 300; dmitri 295 + 4 = 299: no bomb.
    state = game()
    for name, research in (("alice", 290), ("bruno", 295), ("dmitri", 295)):
        player(state, name)["research"] = research
        player(state, name)["gdp"] = 40
    allocate(state, {"alice": ["research 7"], "bruno": ["research 5"], "dmitri": ["research 4"]})
    _, report = reconcile(state)
    assert [player(state, n)["bombs"] for n in ("alice", "bruno", "dmitri")] == [1, 1, 0]
    assert report.public["The bomb"] == ["Aurelia (alice) has built the atomic bomb.",
                                         "Borvane (bruno) has built the atomic bomb."]
    # The bomb is built once: research goes on, no second bomb.
    allocate(state, {"alice": ["research 10"]})
    reconcile(state)
    assert player(state, "alice")["bombs"] == 1 and player(state, "alice")["research"] == 313


# ---- the turn and the end -------------------------------------------------------------------------------------

def test_the_reconciliation_reveals_every_allocation_and_clears_them() -> None:
    state = game()
    allocate(state, {"alice": ["politics 15%", "build 1 infantry in Velden"]})
    over, report = reconcile(state)
    assert not over and state["turn"] == 2 and "allocation" not in state["pending"]
    revealed = report.public["Allocations revealed"]
    # One line a country: each part and its GDP, then the sum (politics 15% of 18 is 2; an infantry 5).
    assert "Aurelia (alice): politics 15%: 2 GDP; build 1 infantry in Velden (E2): 5 GDP (7 of 18 GDP)" in revealed
    assert "Borvane (bruno): sent none (nothing bought, 0% politics)" in revealed
    assert all(len(line) <= 76 for s in sections_of(report.public) for line in s["lines"])


def test_the_sealed_allocation_survives_the_states_trip_through_json() -> None:
    state = game()
    allocate(state, {"alice": ["develop 2 in ZA", "build 1 infantry in Velden", "railroad in D2"]})
    state = json.loads(json.dumps(state))
    reconcile(state)
    assert state["zones"]["ZA"] == 10 and stack(state, "E2", "alice") == {"infantry": 1} and "D2" in state["railroads"]


def test_winter_runs_the_reconciliation_through_the_ruleset() -> None:
    state = game()
    allocate(state, {"alice": ["develop 2 in ZA"]})
    result = RULESET.resolve_phase(state, 1, "winter", {}, random.Random(1))
    assert result.state["zones"]["ZA"] == 10 and result.state["turn"] == 2 and not result.finished


def test_a_player_meeting_his_card_wins_at_once() -> None:
    state = game()
    victory.deal(state, random.Random(1), Report())
    player(state, "chloe")["victory"] = {"kind": decks.FRANCS, "name": "Accumulate 400 Francs"}
    player(state, "chloe")["francs"] = 400
    over, report = reconcile(state)
    assert over and state["winners"] == ["chloe"]
    assert report.public["Victory"][-1] == "The game is over. Winner: Cassaria (chloe)."


def test_the_last_turn_ends_the_game_with_the_best_score() -> None:
    # "if your victory condition was "Accumulate 400 Francs" and you accumulated 350, your end game score would
    # be 87.5%"; a tie for the best score is shared (GG-OQ-27).
    state = game()
    for p in state["players"]:
        p["victory"] = {"kind": decks.FRANCS, "name": "Accumulate 400 Francs"}
    player(state, "alice")["francs"] = 350
    state["turn"] = state["options"]["turns"]
    over, report = reconcile(state)
    assert over and state["winners"] == ["alice"]
    assert "  Aurelia (alice): Accumulate 400 Francs: 87.5%" in report.public["Victory"]
    player(state, "bruno")["francs"] = 350
    assert victory.best(state) == ["alice", "bruno"]


# ---- victory cards --------------------------------------------------------------------------------------------

def test_the_victory_deck_is_the_texts_table_scaled_to_the_players() -> None:
    # 10 players: the table (400 Francs x10, 20 territories x5, GDP 200 x10, the bomb x5, destroy X x10);
    # 8 players: 8, 4, 8, 4, 8; 3 players: 3, 2, 3, 2, 3 (rounded up).
    assert Counter(decks.victory_deck(decks.DEFAULT_VICTORY, 10)) == decks.DEFAULT_VICTORY
    assert list(Counter(decks.victory_deck(decks.DEFAULT_VICTORY, 8)).values()) == [8, 4, 8, 4, 8]
    assert list(Counter(decks.victory_deck(decks.DEFAULT_VICTORY, 3)).values()) == [3, 2, 3, 2, 3]


def test_victory_cards_are_dealt_secretly_and_never_name_the_holder() -> None:
    for seed in range(40):
        state = started()
        report = Report()
        victory.deal(state, random.Random(seed), report)
        for p in state["players"]:
            card = p["victory"]
            assert card["kind"] in decks.DEFAULT_VICTORY
            if card["kind"] == decks.DESTROY:
                assert card["target"] != p["name"] and card["target"] in [q["name"] for q in state["players"]]
            assert report.private[p["name"]]["Your victory card"][0].startswith(card["name"])
        assert report.public == {"Victory cards": ["Every player has drawn a secret victory card."]}
        # Drawn without replacement from the 8 players' deck: at most 4 bombs.
        assert Counter(p["victory"]["kind"] for p in state["players"])[decks.BOMB] <= 4


def test_the_same_seed_deals_the_same_cards() -> None:
    def dealt(seed: int) -> list[Any]:
        state = started()
        victory.deal(state, random.Random(seed), Report())
        return [p["victory"] for p in state["players"]]

    assert dealt(9) == dealt(9)


def test_each_card_is_met_and_scored() -> None:
    state = started()
    alice = player(state, "alice")
    # 20 territories: land held outside the country he picked. Aurelia takes 12 of Borvane's 13 and Ferroway's 3.
    alice["victory"] = {"kind": decks.TERRITORIES, "name": "Conquer 20 territories"}
    taken = [t for t, who in state["owners"].items() if who in ("bruno", "farid")][:15]
    for t in taken:
        state["owners"][t] = "alice"
    assert victory.conquered(state, "alice") == 15 and not victory.met(state, "alice")
    assert victory.score(state, "alice") == Fraction(15, 20)
    # GDP 200, the bomb (300 units of research).
    alice["victory"] = {"kind": decks.GDP, "name": "Reach Domestic GDP of 200"}
    alice["gdp"] = 150
    assert victory.score(state, "alice") == Fraction(3, 4) and not victory.met(state, "alice")
    alice["gdp"] = 200
    assert victory.met(state, "alice")
    alice["victory"] = {"kind": decks.BOMB, "name": "Develop the Atomic Bomb"}
    alice["research"] = 240
    assert victory.score(state, "alice") == Fraction(4, 5) and not victory.met(state, "alice")
    alice["research"] = 300
    assert victory.met(state, "alice")
    # Destroy Player X: hugo (Hestry) started with 4; holding 1 he has lost 75% (GG-OQ-27); with none, met.
    alice["victory"] = {"kind": decks.DESTROY, "name": "Destroy Player hugo", "target": "hugo"}
    hestry = [t for t, who in state["owners"].items() if who == "hugo"]
    for t in hestry[:3]:
        state["owners"][t] = "alice"
    assert victory.score(state, "alice") == Fraction(3, 4) and not victory.met(state, "alice")
    state["owners"][hestry[3]] = "greta"
    assert victory.met(state, "alice") and victory.winners(state) == ["alice"]


def test_scores_as_percentages() -> None:
    assert victory.percent(Fraction(7, 8)) == "87.5%"
    assert victory.percent(Fraction(3, 4)) == "75%"
    assert victory.percent(Fraction(1, 3)) == "33.3%"


# ---- the decks ------------------------------------------------------------------------------------------------

def test_the_default_decks_cover_every_level_and_regime_with_eight_cards() -> None:
    assert set(decks.DEFAULT_POLITICAL) == {(level, regime) for level in POLITICAL_LEVELS for regime in REGIMES}
    assert all(len(deck) == 8 for deck in decks.DEFAULT_POLITICAL.values())


def _expected(level: int, regime: str, key: str, default: Any) -> Fraction:
    deck = decks.DEFAULT_POLITICAL[(level, regime)]
    return sum((Fraction(str(card.get(key, default))) for card in deck), Fraction(0)) / len(deck)


def test_the_default_decks_follow_the_texts_spirit() -> None:
    # "Democracies ... are more profitable": more Francs for the same spending at 15% and 30%.
    for level in (15, 30):
        assert _expected(level, DEMOCRACY, "francs", 1) > _expected(level, DICTATORSHIP, "francs", 1)
    # "Dictators ... face more serious consequences from inadequate spending": at 0% a dictator loses more GDP,
    # and only his deck takes value from a zone for good.
    assert _expected(0, DICTATORSHIP, "gdp", 0) < _expected(0, DEMOCRACY, "gdp", 0)
    assert _expected(0, DICTATORSHIP, "zone", 0) > 0 == _expected(0, DEMOCRACY, "zone", 0)
    # "Dictators are more stable": no dictator's card at 15% or 30% cuts the Francs; a democracy's may.
    for level in (15, 30):
        assert all(card["francs"] >= 1 for card in decks.DEFAULT_POLITICAL[(level, DICTATORSHIP)])
        assert any(card["francs"] == 0 for card in decks.DEFAULT_POLITICAL[(level, DEMOCRACY)])


def test_a_gms_decks_replace_the_defaults() -> None:
    state = started()
    state["decks"] = {"political": one_card(plus=3, copies=2)}
    card = {"name": "The card", "text": "As the test says.", "francs": 1, "plus": 3, "gdp": 0, "zone": 0}
    assert decks.political_decks(state)[(15, DICTATORSHIP)] == [card, card]


@pytest.mark.parametrize(("table", "words"), [
    ({"political": [{"level": 10, "regime": DEMOCRACY, "name": "x"}]}, "card #1: level must be one of 0, 15, 30"),
    ({"political": [{"level": 0, "regime": "monarchy", "name": "x"}]}, "regime must be democracy or dictatorship"),
    ({"political": one_card(francs=15)}, "francs must be a number from 0 to 5"),
    ({"political": one_card(zone=-1)}, "zone must be a whole number of at least 0"),
    ({"political": one_card(colour="red")}, "unknown key colour"),
    ({"political": one_card()[1:]}, "no card for the deck 0% Democracy"),
    ({"political": "cards"}, "must be [[decks.political]] tables"),
    ({"victory": {"francs": 10, "dragons": 2}}, "unknown card dragons"),
    ({"victory": {"francs": 4, "bomb": 2}}, "the deck has 6 cards: at least 10"),
    ({"victory": {"francs": -1}}, "francs must be a whole number of at least 0"),
])
def test_a_bad_deck_is_refused_naming_its_key(table: dict[str, Any], words: str) -> None:
    problems = decks.check(table)
    assert any(words in p for p in problems), problems


def test_good_decks_pass_the_check_and_battle_cards_are_left_alone() -> None:
    assert decks.check({"political": one_card(francs=1.5, gdp=-2), "victory": {"francs": 10, "destroy": 2},
                        "battle": ["anything"]}) == []
    with pytest.raises(ValueError, match="no card for the deck"):
        decks.political_decks({"decks": {"political": one_card()[1:]}})
