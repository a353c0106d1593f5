"""What a Venice player reads: his agendas' worth and what they still need, what a 0$ bid does, the warning
when he has no money to bid with, and the welcome before the opening auction."""

from __future__ import annotations

from typing import Any

from maild.render import render
from maild_rules.venice import RULESET
from tests.mailcheck import long_prose_lines
from tests.venice_fixtures import new_game, play, play_quiet_turns, printout_text


def test_printout_shows_each_agendas_value_and_what_it_still_lacks() -> None:
    # Turn 1: alice borrows 100$ and wins 1 exile competitor at 40$ and 1 silk tax at 10$.
    # Turn 2: she wins 1 swiss mercenaries (force 10) at 5$ and 1 senator (popularity 5, influence 5) at 5$.
    # exile competitor needs force 20, popularity 5, influence 10: she has force 10, pop 5, infl 5, so she
    # lacks force 20-10 = 10 and influence 10-5 = 5. silk tax needs pop 10, infl 20: lacks pop 10-5 = 5,
    # influence 20-5 = 15. Together: 70$, need force 20, pop 15, infl 30; lack force 10, pop 10, infl 25.
    one = play(new_game(), 1, [("alice", "borrow 100$\nbid 40$ for 1 of exile competitor\n"
                                          "bid 10$ for 1 of silk tax")])
    two = play(one.state, 2, [("alice", "bid 5$ for 1 of swiss mercenaries\nbid 5$ for 1 of senator")])
    text = " ".join(printout_text(two, "alice", 2).split())  # read as words: the lines are wrapped
    assert ("1 x exile competitor: 50$ each, needs force 20, popularity 5, influence 10; "
            "still lacking force 10, influence 5") in text
    assert ("1 x silk tax: 20$ each, needs force 0, popularity 10, influence 20; "
            "still lacking popularity 5, influence 15") in text
    assert ("all together: 70$, need force 20, popularity 15, influence 30; "
            "still lacking force 10, popularity 10, influence 25") in text


def test_an_agenda_the_assets_cover_says_so() -> None:
    # silk tax needs popularity 10, influence 20; 2 spy networks give influence 30 and 1 opera popularity 20.
    one = play(new_game(), 1, [("bob", "borrow 100$\nbid 10$ for 1 of silk tax")])
    two = play(one.state, 2, [("bob", "bid 5$ for 1 of opera")])
    three = play(two.state, 3, [("bob", "bid 5$ for 2 of spy network")])
    text = " ".join(printout_text(three, "bob", 3).split())  # read as words: the lines are wrapped
    assert "1 x silk tax: 20$ each, needs force 0, popularity 10, influence 20; your assets cover it" in text
    assert "all together" not in text


def test_a_lost_zero_bid_is_explained_and_no_money_is_warned() -> None:
    # bob bids 0$ for 1 silk tax, alice 10$ for 2: alice's bid comes first and takes both units (20$), so
    # bob's is reached with none left: lost. bob has 0$ and no loan: his next bids above 0$ are nullified.
    result = play(new_game(), 1, [("bob", "bid 0$ for 1 of silk tax"),
                                  ("alice", "borrow 100$\nbid 10$ for 2 of silk tax")])
    text = printout_text(result, "bob", 1)
    assert "0$ each for up to 1 of silk tax: lost" in text
    assert "a 0$ bid wins only units that no one bids more for" in text
    assert "You have 0$: a bid above 0$ will be nullified (no loan was taken" in text
    assert long_prose_lines(text) == []  # the warning is wrapped like the rest of the mail
    assert "You have 0$" not in printout_text(result, "alice", 1)  # 100 - 20 = 80$


def test_a_zero_bid_nobody_outbids_wins_for_nothing() -> None:
    # Nobody else bids for the exile competitor: bob's 0$ is the highest bid and wins it for 0$.
    result = play(new_game(), 1, [("bob", "bid 0$ for 1 of exile competitor")])
    assert "0$ each for up to 1 of exile competitor: won 1 for 0$" in printout_text(result, "bob", 1)
    assert result.state["ledger"]["bob"]["holdings"] == {"exile competitor": 1}


def test_welcome_shows_money_loan_terms_and_what_agendas_need() -> None:
    state = new_game()
    context = RULESET.welcome(state, "alice", turn=1)
    assert context is not None and RULESET.welcome(state, "alice", turn=2) is None
    text = render("venice", "welcome.txt.j2", **context, game="venice1", player="alice", turn=1,
                  deadline="Sunday 17:15")
    assert "Your money: 0$." in text
    # 5% a day for 7 days: the setup's interest_per_day and the rules' seven days.
    assert "you may borrow up to 500$" in text and "5% of it a day for\n7 days" in text
    # The items, a table: an agenda's worth and the resources it needs, an asset's resources.
    assert "  exile competitor   agenda    50$     20           5         10" in text
    assert "  swiss mercenaries  asset       -     10           0          0" in text
    assert "bid X$ for N of ITEM" in text  # the order sheet follows


def example_game() -> dict[str, Any]:
    import tomllib

    from tests.paths import ROOT

    with open(ROOT / "examples" / "venice" / "setup.toml", "rb") as f:
        return RULESET.new_game(tomllib.load(f))


def doge_week(agenda_price: int) -> int:
    """alice's final money in the example game: she borrows what she will spend, buys an opera, a glass works
    and a spy network at 20$ each and wins the doge's favour in the closing auction at `agenda_price`."""
    spend = 3 * 20 + agenda_price
    state = play(example_game(), 1, [("alice", f"borrow {spend}$")]).state
    state = play(state, 2, [("alice", "bid 20$ for 1 of opera")]).state
    state = play(state, 3, [("alice", "bid 20$ for 1 of glass works\nbid 20$ for 1 of spy network")]).state
    state = play_quiet_turns(state, 4, 6)
    end = play(state, 7, [("alice", f"bid {agenda_price}$ for 1 of doge's favour")]).state
    return end["final"]["players"]["alice"]["money"]


def test_in_the_example_a_loan_pays_when_bids_stay_low_and_loses_when_they_do_not() -> None:
    # docs/venice.md, "When a loan pays". The doge's favour is worth 240$ and needs force 10, popularity 20,
    # influence 20; opera (0, 20, 0) + glass works (5, 5, 5) + spy network (5, 0, 15) give (10, 25, 20).
    # Agenda at 100$: spent 160$, borrowed 160$, interest 160 x 0.35 = 56$: 240 - 160 - 56 = +24.
    assert doge_week(100) == 24
    # Agenda at 130$ (a rival bid 129$): spent 190$, interest 190 x 0.35 = 66.50 -> 67$: 240 - 190 - 67 = -17.
    assert doge_week(130) == -17
