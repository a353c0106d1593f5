"""Starting a Venice game: the setup file's validation, scaling by the number of players, the demo game."""

from __future__ import annotations

import json
import tomllib
from typing import Any

import pytest

from maild.passwords import verify
from maild.ruleset import PlayerSpec, SetupError
from maild_rules.venice import RULESET
from tests.paths import ROOT
from tests.venice_fixtures import make_setup, new_game


def setup_error(setup: dict[str, Any]) -> str:
    with pytest.raises(SetupError) as info:
        RULESET.new_game(setup)
    return str(info.value)


def test_demo_setup_starts_a_game() -> None:
    with open(ROOT / "examples" / "venice" / "setup.toml", "rb") as f:
        state = RULESET.new_game(tomllib.load(f))
    assert [p.name for p in RULESET.players(state)] == ["alice", "bob", "carol"]
    alice = RULESET.players(state)[0]
    assert alice == PlayerSpec("alice", "alice@example.org", alice.password)
    assert alice.password is not None and verify(alice.password, "gondola")  # the state keeps only the hash
    assert RULESET.players(state)[1].password is None
    assert len(state["auctions"]) == 7
    assert [a["kind"] for a in state["auctions"]] == ["opening"] + ["common"] * 5 + ["closing"]
    assert state["scale"] == 1
    assert RULESET.total_turns(state) == 7
    json.dumps(state)  # the state is stored as JSON


def test_new_game_state() -> None:
    state = new_game()
    assert state["ledger"]["alice"] == {"money": 0, "borrowed": 0, "interest_due": 0, "holdings": {}}
    assert state["auctions_held"] == [] and state["final"] is None
    assert state["items"]["silk tax"] == {"kind": "agenda", "value": 20, "force": 0, "popularity": 10,
                                          "influence": 20}
    assert state["items"]["opera"] == {"kind": "asset", "force": 0, "popularity": 20, "influence": 0}
    # The lineup keeps the announced order of the setup's items table.
    assert [e["item"] for e in state["auctions"][6]["lineup"]] == ["exile competitor", "silk tax"]
    assert state["auctions"][0]["day"] == "Sunday" and state["auctions"][6]["day"] == "Saturday"


def test_defaults() -> None:
    setup = make_setup()
    del setup["interest_per_day"]
    assert RULESET.new_game(setup)["interest_per_day"] == 0.05  # the rules' 5%/day
    assets = [{"name": "opera", "popularity": 20}]  # resources default to 0
    state = new_game(assets=assets, lineups=[{"silk tax": 1}] + [{"opera": 1}] * 5 + [{"silk tax": 1}])
    assert state["items"]["opera"] == {"kind": "asset", "force": 0, "popularity": 20, "influence": 0}


# --- scaling: counts x ceil(players / scale_per_players) -------------------------------------------------

@pytest.mark.parametrize(("players", "factor"), [(1, 1), (3, 1), (4, 1), (5, 2), (8, 2), (9, 3)])
def test_lineup_scaled_by_number_of_players(players: int, factor: int) -> None:
    # scale 4: 4 players -> ceil(4/4) = 1; 5 -> ceil(5/4) = 2; 9 -> ceil(9/4) = 3.
    names = [f"p{i}" for i in range(players)]
    state = new_game(players=names, scale_per_players=4)
    assert state["scale"] == factor
    silk = state["auctions"][0]["lineup"][0]
    assert (silk["item"], silk["base_count"], silk["count"]) == ("silk tax", 2, 2 * factor)


def test_bid_limit_follows_the_scaled_count() -> None:
    # 5 players, scale 4: the opening auction's 2 silk tax become 2 x 2 = 4.
    state = new_game(players=["a", "b", "c", "d", "e"], scale_per_players=4)
    assert RULESET.check(state, 1, "a", RULESET.parse("bid 10$ for 4 of silk tax").orders) == []
    (d,) = RULESET.check(state, 1, "a", RULESET.parse("bid 10$ for 5 of silk tax").orders)
    assert "bid for at most 4" in d.message
    # 4 players: x1, so 3 is already too many.
    state = new_game(players=["a", "b", "c", "d"], scale_per_players=4)
    (d,) = RULESET.check(state, 1, "a", RULESET.parse("bid 10$ for 3 of silk tax").orders)
    assert "bid for at most 2" in d.message


# --- validation -------------------------------------------------------------------------------------------

def test_exactly_seven_auctions() -> None:
    setup = make_setup()
    setup["auctions"] = setup["auctions"][:6]
    assert setup_error(setup) == "auctions: expected exactly 7 (opening, five common, closing), found 6"


def test_unknown_item_in_a_lineup() -> None:
    setup = make_setup()
    setup["auctions"][1]["items"]["gondola"] = 1
    assert "auctions #2 (first common auction): unknown item 'gondola'" in setup_error(setup)


def test_item_names_in_lineups_ignore_case_and_spacing() -> None:
    setup = make_setup()
    setup["auctions"][0]["items"] = {"Silk  Tax": 2}
    assert RULESET.new_game(setup)["auctions"][0]["lineup"][0]["item"] == "silk tax"


def test_agendas_only_in_opening_and_closing_assets_only_in_common() -> None:
    setup = make_setup()
    setup["auctions"][0]["items"]["opera"] = 1
    setup["auctions"][3]["items"]["silk tax"] = 1
    message = setup_error(setup)
    assert "auctions #1 (opening auction): 'opera' is an asset; the opening and closing auctions offer only agendas" \
        in message
    assert "auctions #4 (third common auction): 'silk tax' is an agenda; common auctions offer only assets" in message


def test_duplicate_players() -> None:
    setup = make_setup()
    setup["players"].append({"name": "Alice", "email": "other@example.org"})
    setup["players"].append({"name": "dave", "email": "BOB@example.org"})
    message = setup_error(setup)
    assert "players #4 (Alice): the name Alice is used twice" in message
    assert "players #5 (dave): the email BOB@example.org is used twice" in message


@pytest.mark.parametrize(("change", "expected"), [
    (lambda s: s.update(credit_limit=-1), "credit_limit must be a whole number >= 0, found -1"),
    (lambda s: s.update(credit_limit=True), "credit_limit must be a whole number >= 0, found True"),
    (lambda s: s.update(interest_per_day=-0.01), "interest_per_day must be a number >= 0"),
    (lambda s: s.update(scale_per_players=0), "scale_per_players must be a whole number >= 1, found 0"),
    (lambda s: s["agendas"][0].update(value=-5), "agendas #1 (silk tax): value must be a whole number >= 0, found -5"),
    (lambda s: s["assets"][1].update(force=-1), "assets #2 (senator): force must be a whole number >= 0, found -1"),
    (lambda s: s["auctions"][1]["items"].update(opera=-1),
     "auctions #2 (first common auction): count of 'opera' must be a whole number >= 1, found -1"),
    (lambda s: s["auctions"][1]["items"].update(opera=0), "count of 'opera' must be a whole number >= 1, found 0"),
    (lambda s: s["auctions"][2].update(items={}), "auctions #3 (second common auction): items must be a non-empty"),
    (lambda s: s.pop("credit_limit"), "credit_limit: missing"),
    (lambda s: s.pop("scale_per_players"), "scale_per_players: missing"),
    (lambda s: s.pop("players"), "players: missing"),
    (lambda s: s.update(players=[]), "players: a game needs at least one"),
    (lambda s: s.update(credit=5), "setup: unknown key(s) credit"),
    (lambda s: s["players"][0].update(name="al ice"), "players #1: name must be one word"),
    (lambda s: s["players"][0].update(email="alice"), "players #1 (alice): email must be an address"),
    (lambda s: s["players"][0].update(password="two words"), "password must be one word"),
    (lambda s: s["agendas"][0].update(name='silk "tax"'), "agendas #1: name must be a non-empty string"),
    (lambda s: s["agendas"][0].pop("value"), "agendas #1 (silk tax): value missing"),
    (lambda s: s["assets"].append({"name": "Silk Tax"}),
     "assets #5 (Silk Tax): the name is already used by the agenda 'silk tax'"),
    (lambda s: s["assets"][0].update(colour="red"), "assets #1: unknown key(s) colour"),
])
def test_bad_setups_say_what_is_wrong(change: Any, expected: str) -> None:
    setup = make_setup()
    change(setup)
    assert expected in setup_error(setup)


def test_every_problem_is_reported_at_once() -> None:
    setup = make_setup(credit_limit=-1)
    setup["agendas"][0]["value"] = -5
    setup["auctions"] = setup["auctions"][:6]
    message = setup_error(setup)
    assert message.count("; ") == 2
    assert "credit_limit" in message and "value" in message and "expected exactly 7" in message


def test_title_is_optional_and_kept() -> None:
    assert new_game()["title"] is None
    assert new_game(title="Venice, week 1")["title"] == "Venice, week 1"
