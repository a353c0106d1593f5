"""What printouts and newsletters tell, and when: bids are sealed until their auction, winning bids are public
after it, every bid is public after the last common auction (turn 6), and the closing auction's after it.

Every price in this game is used by one bid only, so finding "37$" in a text means that bid is shown.
"""

from __future__ import annotations

import re

import pytest

from maild.render import render
from maild.ruleset import TurnResult
from maild_rules.venice import RULESET
from tests.mailcheck import long_prose_lines, repeated_lines
from tests.venice_fixtures import common as common_words
from tests.venice_fixtures import new_game, newsletter_text, play, printout_text

MAILS = {
    1: [("alice", "borrow 300$\nbid 41$ for 1 of exile competitor"),
        ("bob", "borrow 300$\nbid 37$ for 1 of exile competitor"),          # loses to alice's 41$
        ("carol", "borrow 100$\nbid 13$ for 2 of silk tax")],                # wins both
    2: [("bob", "bid 23$ for 1 of opera"),
        ("alice", "bid 19$ for 1 of opera")],                                # loses to bob's 23$
    3: [("alice", "bid 29$ for 2 of spy network"),
        ("carol", "bid 99$ for 1 of senator")],                              # carol has 74$: nullified
    4: [("bob", "bid 21$ for 1 of opera")],
    5: [("carol", "bid 11$ for 1 of spy network")],
    6: [("alice", "bid 16$ for 1 of opera"),
        ("bob", "bid 14$ for 1 of opera")],                                  # loses to alice's 16$
    7: [("carol", "bid 43$ for 1 of exile competitor"),                      # loses to bob's 47$
        ("bob", "bid 47$ for 1 of exile competitor")],
}
LOSING = {1: "37$", 2: "19$", 3: "99$", 6: "14$", 7: "43$"}


def shows(text: str, price: str) -> bool:
    return re.search(rf"(?<!\d){re.escape(price)}", text) is not None


@pytest.fixture(scope="module")
def results() -> dict[int, TurnResult]:
    state = new_game()
    out = {}
    seq = 1
    for turn in range(1, 8):
        out[turn] = play(state, turn, MAILS[turn], first_seq=seq)
        seq += len(MAILS[turn])
        state = out[turn].state
    return out


def test_printout_shows_own_bids_and_the_newsletter_the_winning_ones(results: dict[int, TurnResult]) -> None:
    alice = printout_text(results[1], "alice", 1)
    assert shows(alice, "41$")       # her own (winning) bid
    assert not shows(alice, "37$")   # bob's losing bid is his secret
    # Carol's winning bid is public: in the newsletter every player receives with the printout
    # (docs/venice.md, reading 19), not repeated in each printout.
    assert not shows(alice, "13$") and "newsletter" in alice
    assert shows(newsletter_text(results[1], 1), "13$")
    bob = printout_text(results[1], "bob", 1)
    assert shows(bob, "37$")         # but bob sees his own losing bid, and why it lost
    assert "lost" in bob and "all 1 went to higher bids" in bob


def test_bids_of_an_auction_not_yet_held_are_never_shown(results: dict[int, TurnResult]) -> None:
    # alice's 29$ and carol's 99$ are bids of turn 3: nothing of turn 1 or 2 may show them.
    for turn in (1, 2):
        for text in [newsletter_text(results[turn], turn)] + [printout_text(results[turn], p, turn)
                                                               for p in ("alice", "bob", "carol")]:
            assert not shows(text, "29$") and not shows(text, "99$")
    # Nor the ack/HELP context of turn 3, which is all the framework shows before the deadline.
    help_text = render("venice", "help.txt.j2", game="venice1", turn=3,
                       info=RULESET.template_context(results[2].state, 3))
    assert not shows(help_text, "29$") and not shows(help_text, "99$")
    assert "second common auction" in help_text


def test_newsletters_before_the_last_common_auction_show_only_winning_bids(results: dict[int, TurnResult]) -> None:
    for turn in range(1, 6):
        text = newsletter_text(results[turn], turn)
        for losing in LOSING.values():
            assert not shows(text, losing), (turn, losing)
        assert results[turn].newsletter["all_bids"] is None
    assert shows(newsletter_text(results[1], 1), "41$")  # the winning bid is public
    assert "alice won 1 at 41$ each" in newsletter_text(results[1], 1)


def test_after_the_last_common_auction_all_bids_so_far_are_public(results: dict[int, TurnResult]) -> None:
    text = newsletter_text(results[6], 6)
    for turn in (1, 2, 3, 6):
        assert shows(text, LOSING[turn]), turn
    assert not shows(text, "43$") and not shows(text, "47$")  # the closing auction's bids: not yet
    # Every bid of turns 1-6, won or not: 3 + 2 + 2 + 1 + 1 + 2 = 11.
    published = results[6].newsletter["all_bids"]
    assert [a["turn"] for a in published] == [1, 2, 3, 4, 5, 6]
    assert sum(len(a["bids"]) for a in published) == 11
    assert {"player": "carol", "item": "senator", "price": 99, "units": 1, "rank": 1, "outcome": "nullified",
            "won": 0} in published[2]["bids"]


def test_after_the_closing_auction_its_bids_are_public_too(results: dict[int, TurnResult]) -> None:
    text = newsletter_text(results[7], 7)
    assert shows(text, "43$") and shows(text, "47$") and shows(text, "37$")
    assert sum(len(a["bids"]) for a in results[7].newsletter["all_bids"]) == 13


def test_printouts_do_not_carry_the_full_bid_list(results: dict[int, TurnResult]) -> None:
    # The full list goes out once, in the newsletter; printouts keep to the player's own bids.
    assert not shows(printout_text(results[6], "alice", 6), "37$")


def test_loans_stay_private_until_the_end(results: dict[int, TurnResult]) -> None:
    for turn in range(1, 7):
        text = newsletter_text(results[turn], turn)
        assert "loan" not in text.lower() and not shows(text, "300$")
    assert "loan" in printout_text(results[1], "alice", 1).lower()
    assert "loan 300$" in newsletter_text(results[7], 7)


def test_nullified_bid_is_explained_in_the_printout(results: dict[int, TurnResult]) -> None:
    # carol: 100$ - 2 x 13$ = 74$ before turn 3; 1 x 99$ = 99 > 74.
    text = printout_text(results[3], "carol", 3)
    assert "99$ each for up to 1 of senator: NULLIFIED" in text
    # The reason is wrapped within 78 columns: read it as words.
    assert "1 at 99$ would have cost 99$ but you had only 74$ when the bid was reached" in " ".join(text.split())
    assert long_prose_lines(text) == []


def test_printout_announces_the_next_auction(results: dict[int, TurnResult]) -> None:
    text = printout_text(results[1], "alice", 1)
    # The auction is named by its turn and name; its real day is the deadline below (the rules' weekday
    # would contradict a schedule that does not start on a Sunday).
    assert "Next: turn 2, the first common auction, offering:" in text and "(Monday)" not in text
    assert "  units  item" in text and "      1  opera" in text  # the lineup, a table of what each item is
    assert "Deadline for your bids: Monday 17:15." in text


def test_final_printout_and_newsletter(results: dict[int, TurnResult]) -> None:
    printout = printout_text(results[7], "alice", 7)
    assert "After the closing auction" in printout
    assert "Final ranking" in printout
    newsletter = newsletter_text(results[7], 7)
    assert "The game is over." in newsletter
    assert results[7].newsletter["ranking"] == results[7].state["final"]["ranking"]


def test_every_printout_and_newsletter_renders(results: dict[int, TurnResult]) -> None:
    # StrictUndefined: a key missing from a context would raise here.
    for turn, result in results.items():
        assert newsletter_text(result, turn).startswith("venice1: newsletter")
        for player in ("alice", "bob", "carol"):
            assert printout_text(result, player, turn).startswith(f"venice1: printout for {player}")


def test_help_renders_before_during_and_after_the_game(results: dict[int, TurnResult]) -> None:
    first = render("venice", "help.txt.j2", game="venice1", turn=1,
                   info=RULESET.template_context(new_game(), 1))
    assert "You may borrow up to 500$; interest is 5% of the loan a day" in first
    assert "bid X$ for N of ITEM" in first
    assert "      2  silk tax          agenda    20$      0          10         20" in first
    assert long_prose_lines(first) == [] and repeated_lines(first) == {}
    # The framework passes an empty context once the game is over.
    over = render("venice", "help.txt.j2", game="venice1", turn=8, info={})
    assert "bid X$ for N of ITEM" in over
    no_credit = render("venice", "help.txt.j2", game="venice1", turn=1,
                       info=RULESET.template_context(new_game(credit_limit=0), 1))
    assert "This game gives no credit." in no_credit


def test_a_long_title_is_wrapped_in_every_mail() -> None:
    title = "The Doge's Favour: a week of intrigue, loans and sealed bids in the Venice of 1520, by mail"
    state = new_game(title=title)
    result = play(state, 1, [("alice", "borrow 100$\nbid 10$ for 1 of silk tax")])
    welcome = render("venice", "welcome.txt.j2", game="venice1", player="alice", turn=1, deadline="Monday 17:15",
                     **RULESET.welcome(state, "alice", turn=1))
    for text in (printout_text(result, "alice", 1), newsletter_text(result, 1), welcome):
        assert long_prose_lines(text) == []
        assert title in " ".join(text.split())


def test_a_turn_the_gm_runs_names_no_time_to_bid_before(results: dict[int, TurnResult]) -> None:
    # With no deadline set the framework's words are "none set yet: the GM runs the turn": the printout and the
    # newsletter said "Send your bids before none set yet...". Now they name the deadline, whatever it is.
    from zoneinfo import ZoneInfo

    from maild.deadlines import format_deadline

    none_set = format_deadline(None, ZoneInfo("UTC"))
    printout = render("venice", "printout.txt.j2", **{**common_words(1), "next_deadline": none_set},
                      player="alice", **results[1].printouts["alice"])
    news = render("venice", "newsletter.txt.j2", **{**common_words(1), "next_deadline": none_set},
                  **results[1].newsletter)
    assert f"Deadline for your bids: {none_set}." in printout and "before none" not in printout
    assert f"Deadline for bids: {none_set}." in news and "before none" not in news
