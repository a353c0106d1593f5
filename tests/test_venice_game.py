"""A whole Venice game, seven turns from the setup file's TOML to the final ranking, worked by hand."""

from __future__ import annotations

import inspect
import json
import random
import tomllib

from maild.ruleset import Ruleset, TurnResult, load_ruleset
from maild_rules.venice import RULESET
from tests.paths import ROOT
from tests.venice_fixtures import book, holdings, money, newsletter_text, play, printout_text

# The rules' agendas and assets, but agendas worth more than the rules' example (60$ and 100$ rather than
# 20$ and 50$) so that good play ends in profit despite 35% interest.
SETUP = """
credit_limit = 500
interest_per_day = 0.05
scale_per_players = 4

[[players]]
name = "alice"
email = "alice@example.org"
[[players]]
name = "bob"
email = "bob@example.org"
[[players]]
name = "carol"
email = "carol@example.org"

[[agendas]]
name = "silk tax"
value = 60
popularity = 10
influence = 20
[[agendas]]
name = "exile competitor"
value = 100
force = 20
popularity = 5
influence = 10

[[assets]]
name = "opera"
popularity = 20
[[assets]]
name = "senator"
popularity = 5
influence = 5
[[assets]]
name = "swiss mercenaries"
force = 10
[[assets]]
name = "spy network"
force = 5
influence = 15

[[auctions]]
items = { "silk tax" = 2, "exile competitor" = 1 }
[[auctions]]
items = { "opera" = 1, "senator" = 2, "swiss mercenaries" = 2 }
[[auctions]]
items = { "spy network" = 2, "senator" = 1 }
[[auctions]]
items = { "opera" = 2 }
[[auctions]]
items = { "swiss mercenaries" = 1, "spy network" = 1 }
[[auctions]]
items = { "senator" = 2, "opera" = 1 }
[[auctions]]
items = { "exile competitor" = 1, "silk tax" = 1 }
"""

# The mails of each turn in receipt order; receipt sequences run on from turn to turn (1, 2, 3, ...).
MAILS: dict[int, list[tuple[str, str]]] = {
    1: [("alice", "borrow 100$\nbid 10$ for 2 of silk tax\nbid 30$ for 1 of exile competitor"),
        ("bob", "borrow 50$\nbid 12$ for 1 of silk tax\nbid 25$ for 1 of exile competitor"),
        ("carol", "borrow 40$\nbid 10$ for 1 of silk tax")],
    2: [("alice", "bid 20$ for 1 of opera\nbid 10$ for 2 of swiss mercenaries"),
        ("bob", "bid 18$ for 1 of opera\nbid 8$ for 2 of senator"),
        ("carol", "bid 5$ for 2 of senator")],
    3: [("carol", "bid 25$ for 2 of spy network"),
        ("alice", "bid 9$ for 2 of spy network"),
        ("bob", "bid 6$ for 1 of senator")],
    4: [("carol", "bid 10$ for 2 of opera"),
        ("bob", "bid 10$ for 1 of opera")],
    5: [("bob", "bid 7$ for 1 of spy network"),
        ("carol", "bid 3$ for 1 of swiss mercenaries")],
    6: [("carol", "bid 9$ for 1 of opera\nbid 4$ for 1 of senator"),
        ("bob", "bid 5$ for 2 of senator"),
        ("carol", "bid 2$ for 1 of opera")],
    7: [("carol", "bid 11$ for 1 of exile competitor"),
        ("alice", "bid 2$ for 1 of silk tax"),
        ("bob", "bid 1$ for 1 of exile competitor")],
}

# Money after each auction, by hand:
# 1. Loans: alice 100, bob 50, carol 40. Interest: 100 x 0.35 = 35; 50 x 0.35 = 17.5 -> 18; 40 x 0.35 = 14.
#    silk tax (2): bob 12$ -> 1 (50-12 = 38); alice 10$ (mail 1) -> min(2, 1) = 1 (100-10 = 90);
#    carol 10$ (mail 3, later) -> nothing left. exile competitor: alice 30$ (90-30 = 60), bob 25$ loses.
# 2. opera: alice 20$ (60-20 = 40), bob 18$ loses. senator (2): bob 2 x 8 = 16 (38-16 = 22), carol loses.
#    swiss mercenaries (2): alice 2 x 10 = 20 (40-20 = 20).
# 3. spy network (2): carol 25$ x 2 = 50 > 40 -> nullified; alice 9$ x 2 = 18 <= 20 (20-18 = 2).
#    senator (1): bob 6$ (22-6 = 16).
# 4. opera (2): carol and bob both 10$; carol's mail came first: she takes both, 20$ (40-20 = 20).
# 5. spy network: bob 7$ (16-7 = 9). swiss mercenaries: carol 3$ (20-3 = 17).
# 6. senator (2) first: bob 5$ x 2 = 10 > 9 -> nullified; carol 4$ x 1 (17-4 = 13).
#    opera: carol's 9$ was replaced by her later 2$ (13-2 = 11).
# 7. exile competitor: carol 11$ (11-11 = 0), bob 1$ loses. silk tax: alice 2$ (2-2 = 0).
MONEY = {1: {"alice": 60, "bob": 38, "carol": 40}, 2: {"alice": 20, "bob": 22, "carol": 40},
         3: {"alice": 2, "bob": 16, "carol": 40}, 4: {"alice": 2, "bob": 16, "carol": 20},
         5: {"alice": 2, "bob": 9, "carol": 17}, 6: {"alice": 2, "bob": 9, "carol": 11}}

# Then agendas, by hand:
# alice holds silk tax 2, exile competitor 1, opera 1, swiss mercenaries 2, spy network 2:
#   force 2x10 + 2x5 = 30, popularity 20, influence 2x15 = 30.
#   exile competitor + silk tax need force 20, popularity 15, influence 30: fit -> 100 + 60 = 160$.
#   A second silk tax would need popularity 25 > 20: not realized.
#   Money: 0 + 160 - 100 - 35 = 25.
# bob holds silk tax 1, senator 3, spy network 1: force 5, popularity 15, influence 15 + 15 = 30.
#   silk tax needs popularity 10, influence 20: fits -> 60$. Money: 9 + 60 - 50 - 18 = 1.
# carol holds opera 3, swiss mercenaries 1, senator 1, exile competitor 1: force 10 < 20, no agenda.
#   Money: 0 + 0 - 40 - 14 = -54.
FINAL = [{"rank": 1, "player": "alice", "money": 25},
         {"rank": 2, "player": "bob", "money": 1},
         {"rank": 3, "player": "carol", "money": -54}]


def run_game() -> dict[int, TurnResult]:
    state = RULESET.new_game(tomllib.loads(SETUP))
    results = {}
    seq = 1
    for turn in range(1, 8):
        results[turn] = play(state, turn, MAILS[turn], first_seq=seq)
        seq += len(MAILS[turn])
        state = results[turn].state
    return results


def test_money_after_every_auction() -> None:
    results = run_game()
    for turn, expected in MONEY.items():
        assert money(results[turn].state) == expected, turn
        assert results[turn].finished is False


def test_holdings_at_the_end() -> None:
    state = run_game()[7].state
    assert holdings(state, "alice") == {"silk tax": 2, "exile competitor": 1, "opera": 1, "swiss mercenaries": 2,
                                        "spy network": 2}
    assert holdings(state, "bob") == {"silk tax": 1, "senator": 3, "spy network": 1}
    assert holdings(state, "carol") == {"opera": 3, "swiss mercenaries": 1, "senator": 1, "exile competitor": 1}


def test_final_ranking_by_money() -> None:
    last = run_game()[7]
    assert last.finished is True
    assert last.state["final"]["ranking"] == FINAL
    alice = last.state["final"]["players"]["alice"]
    assert [(r["agenda"], r["copies"]) for r in alice["realized"]] == [("silk tax", 1), ("exile competitor", 1)]
    assert alice["unrealized"] == [{"agenda": "silk tax", "copies": 1}]
    assert (alice["value"], alice["repaid"], alice["interest"], alice["money"]) == (160, 100, 35, 25)
    assert last.state["final"]["players"]["bob"]["value"] == 60
    assert last.state["final"]["players"]["carol"]["value"] == 0
    assert " 1. alice: 25$ (agendas 160$, loan 100$, interest 35$)" in newsletter_text(last, 7)
    assert "= final money                   25$" in printout_text(last, "alice", 7)


def test_outcomes_along_the_way() -> None:
    results = run_game()

    def outcome(turn: int, player: str, item: str) -> str:
        (bid,) = [b for b in results[turn].state["auctions_held"][turn - 1]["bids"]
                  if b["player"] == player and b["item"] == item]
        return bid["outcome"]

    assert outcome(1, "alice", "silk tax") == "partly_won"
    assert outcome(1, "carol", "silk tax") == "lost"           # tie at 10$, later mail
    assert outcome(3, "carol", "spy network") == "nullified"   # 50 > 40
    assert outcome(3, "alice", "spy network") == "won"         # served after carol's nullified bid
    assert outcome(4, "bob", "opera") == "lost"                # tie at 10$, later mail
    assert outcome(6, "bob", "senator") == "nullified"         # 10 > 9
    opera = [b for b in results[6].state["auctions_held"][5]["bids"] if b["item"] == "opera"]
    assert [(b["player"], b["price"], b["seq"]) for b in opera] == [("carol", 2, 16)]  # the replacing mail


def test_export_players() -> None:
    last = run_game()[7]
    exported = RULESET.export_players(last.state)
    assert exported["alice"] == {"email": "alice@example.org", "money": 25, "borrowed": 100, "interest_due": 35,
                                 "holdings": holdings(last.state, "alice"), "realized_value": 160, "rank": 1}
    json.dumps(exported)
    mid = RULESET.export_players(run_game()[3].state)
    assert mid["bob"] == {"email": "bob@example.org", "money": 16, "borrowed": 50, "interest_due": 18,
                          "holdings": {"silk tax": 1, "senator": 3}}


def test_the_whole_game_is_deterministic_and_json() -> None:
    first, second = run_game(), run_game()
    for turn in range(1, 8):
        assert first[turn] == second[turn]
        json.dumps(first[turn].state)


def test_template_context_for_acks_and_help() -> None:
    state = RULESET.new_game(tomllib.loads(SETUP))
    info = RULESET.template_context(state, 1)
    assert info["can_borrow"] is True and info["credit_limit"] == 500
    assert info["auction"]["name"] == "opening auction"
    assert [(r["item"], r["count"]) for r in info["auction"]["lineup"]] == [("silk tax", 2), ("exile competitor", 1)]
    assert RULESET.template_context(state, 2)["can_borrow"] is False
    assert RULESET.template_context(state, 8)["auction"] is None
    json.dumps(info)


def test_demo_setup_plays_to_the_end() -> None:
    with open(ROOT / "examples" / "venice" / "setup.toml", "rb") as f:
        state = RULESET.new_game(tomllib.load(f))
    mails = {1: [("alice", "borrow 200$\nbid 40$ for 1 of exile competitor"), ("bob", "borrow 100$")],
             2: [("alice", "bid 20$ for 2 of swiss mercenaries\nbid 30$ for 1 of opera")],
             3: [("alice", "bid 30$ for 1 of spy network")],
             4: [], 5: [], 6: [], 7: [("bob", "bid 50$ for 1 of doge's favour")]}
    for turn in range(1, 8):
        result = RULESET.resolve(state, turn, book(state, turn, mails[turn]), random.Random(turn))
        state = result.state
    assert result.finished
    # alice: 200 - 40 - 40 - 30 - 30 = 60; exile competitor needs (20, 5, 10) and she has force 2 x 10 + 5 = 25,
    # popularity 20, influence 15: realized, +50. Repay 200 + 70: 60 + 50 - 270 = -160.
    assert money(state)["alice"] == -160
    # bob: 100 - 50 = 50; no assets, doge's favour not realized; 50 - 100 - 35 = -85.
    assert money(state)["bob"] == -85
    assert [r["player"] for r in state["final"]["ranking"]] == ["carol", "bob", "alice"]


def test_ruleset_matches_the_contract() -> None:
    # Same method names and parameter names as maild.ruleset.Ruleset, so keyword calls work too.
    assert load_ruleset("venice") is RULESET
    assert RULESET.name == "venice" and RULESET.late_policy == "next_turn"
    for name, member in inspect.getmembers(Ruleset, inspect.isfunction):
        if name.startswith("_"):
            continue
        expected = list(inspect.signature(member).parameters)
        assert list(inspect.signature(getattr(type(RULESET), name)).parameters) == expected, name
