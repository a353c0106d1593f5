"""A full Galilei turn of six players by mail, on SQLite and PostgreSQL: the four phases (bids with the
opening, shortage, battles, cards), each closing early once everyone has sent, the luck ledger in every
printout and the newsletter, a GM amendment taking effect in the next turn and a rerun giving the same turn."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from maild.games import get_game, state_before
from maild.phases import state_after_phases
from maild.testing import Table
from maild.turn import rerun_turn
from maild_rules.galilei import state as st

PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank"]


def address(name: str) -> str:
    return f"{name}@example.org"


def flat(text: str) -> str:
    """A mail's text with its lines joined: prose is wrapped at 78 columns, so a sentence may span lines."""
    return " ".join(text.split())


def phase_state(table: Table) -> dict:
    with table.app.db.session() as s:
        game = get_game(s, "gal")
        return state_after_phases(s, game.id, game.turn) or state_before(s, game, game.turn)


def gm(table: Table, *argv: str) -> None:
    said = table.gm("gal", *argv)
    assert "recorded" in said, said


def test_a_full_turn_of_six_players_by_mail(db_url: str, tmp_path: Path) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("gal", "galilei", "example:galilei")
        gm(table, "advances", "alice", "master_art")  # with the turn's first phase

        # -- bids: the opening double bid with the draft's lists, and the turn-order bid --------------------------
        bids = {"alice": "bid 12 for cards, 8 for capitals\nprefer cards: Papal Decree; capitals: Venice\n"
                         "turn bid 5",
                "bob": "Bid 10 for cards and 10 for capitals\nprefer capitals: Venice, Genoa\nturn bid 4",
                "carol": "bid cards 10 capitals 10\nprefer cards: Papal Decree, Armor\nturn bid 4",
                "dave": "bid 6 for cards, 14 for capitals\nturn bid 2",
                "erin": "bid 3 for cards, 3 for capitals\nturn order bid: 0",
                "frank": "bid 0 for cards, 20 for capitals\nprefer capitals: Hamburg\nturn bid 1"}
        for name in PLAYERS[:-1]:
            table.send(address(name), bids[name])
        table.intake()
        assert "Understood" in table.ack(address("alice"))
        # Five of six have sent: the phase is still open; the sixth mail closes it in the same pass.
        assert phase_state(table)["opening"] is None
        table.send(address("frank"), bids["frank"])
        table.intake()
        news = flat(table.newsletter("gal", 1, "bids"))
        # Cards: alice 12 first; bob and carol tie at 10 and on the global 20: bob's mail came first.
        assert "3rd carol: the card bid 10; 10 for cards, 10 for capitals, global 20 (after bob by the first " \
               "mail received)" in news, news
        assert "1. alice takes Papal Decree (from his list)" in news
        assert "3. carol takes Armor (from his list; Papal Decree already taken)" in news
        # Capitals: frank 20, dave 14, then bob and carol at 10 (global 20, bob's mail first), alice 8.
        assert "3. bob takes Genoa (from his list; Venice already taken)" in news, news
        # Turn order, fewest first (GA-OQ-27), ties by the first mail received.
        assert "5th carol: bid 4 (after bob by the first mail received)" in news, news
        state = phase_state(table)
        assert st.order(state) == ["erin", "frank", "dave", "bob", "carol", "alice"]
        assert state["players"]["alice"]["advances"]["master_art"] is True  # the GM's order
        printout = table.printout("gal", 1, "carol", "bids")
        assert "Players in turn order: capitals, luck scores" in printout and "(position 5)" in printout
        assert "Next: the shortage phase; send shortage or surplus (seat 5)" in printout, printout
        assert "welcome to Galilei, alice" in table.welcome("gal", "alice")

        # -- shortage: 1&3 with 5, 2&4 with 6 -----------------------------------------------------------------
        table.send(address("alice"), "number 3")  # alice is 6th: a number is refused at intake
        table.intake()
        assert "seat 6 chooses shortage or surplus, not a number" in table.ack(address("alice"))
        for name, text in {"erin": "number 2", "frank": "number 6", "dave": "Number: 5", "bob": "number 6",
                           "carol": "surplus", "alice": "Shortage"}.items():
            table.send(address(name), text)
        table.intake()
        news = flat(table.newsletter("gal", 1, "shortage"))
        assert "1&3 with 5: 2 + 5 = 7: Wine, surplus" in news, news
        assert "2&4 with 6: 6 + 6 = 12: Gold, shortage" in news, news

        # -- battles: declared at once, resolved in turn order ----------------------------------------------------
        table.send(address("alice"), "battle: attack Hamburg at position 1, 3 tokens")
        table.send(address("bob"), "war against carol, my modifier +1, cities 2 1")
        table.send(address("dave"), "attack Genoa with military advantage, 2 tokens")
        for name in ("carol", "erin", "frank"):
            table.send(address(name), "pass")
        table.intake()
        news = flat(table.newsletter("gal", 1, "battles"))
        # dave (3rd) before bob (4th) before alice (6th, fighting as 1st as she wrote).
        assert news.index("Battle: dave (3rd, military advantage) attacks bob, 2 tokens: 79.17%") < \
            news.index("War bob (+1) v carol") < news.index("Battle: alice (1st) attacks frank, 3 tokens: 90.28%"), news
        state = phase_state(table)
        scores = {n: Fraction(st.luck_ledger(state).balance(n, st.LUCK)) for n in PLAYERS}
        assert sum(scores.values()) == 0 and any(scores.values())
        assert [r["type"] for r in state["rolls"]] == ["battle", "war", "battle"]
        printout = table.printout("gal", 1, "erin", "battles")
        for name in PLAYERS:  # every capital and running score in every printout, four digits
            assert re.search(rf"{name}\s+[A-Z][a-z]+\s+-?\d\.\d{{4}}", printout), printout
        assert "History of rolls" in printout and "T1 Battle: dave" not in printout  # in the results above
        assert "Cards on offer for the draw" in printout and "War: War!, epoch 1, event" in printout, printout
        assert "Cards of the opening draft (write the id)\n  Stone-1: Stone, commodity" in table.welcome("gal",
                                                                                                   "bob")

        # -- cards ----------------------------------------------------------------------------------------------
        table.send(address("alice"), "card War, Stirrups\ndiscard Papal Decree")
        table.send(address("bob"), "card War, Stirrups")
        table.send(address("carol"), "discard Armor")  # no Master Art: refused
        for name in ("dave", "erin", "frank"):
            table.send(address(name), "pass")
        table.intake()
        news = flat(table.newsletter("gal", 1, "cards"))
        assert "4. bob takes War! (from his list)" in news, news
        assert "6. alice takes Stirrups (from his list; War! already taken)" in news, news
        assert "alice discards Papal Decree." in news and "carol discards" not in news
        assert "only a player with Master Art discards" in table.printout("gal", 1, "carol", "cards")
        assert "T1 Battle: dave" in table.printout("gal", 1, "carol", "cards")  # the history of what came before

        # -- turn 2 is open; the GM's amendment takes effect with its first phase -------------------------------
        gm(table, "luck", "erin", "7/72", "--reason", "a roll misread")
        assert [o.status for o in rerun_turn(table.app, "gal", 1)] == ["same"]
        for name in PLAYERS:
            table.send(address(name), "turn bid 1")
        table.intake()
        news = flat(table.newsletter("gal", 2, "bids"))
        assert "GM correction (a roll misread): erin +0.0972" in news, news
        assert "Choosing cards" not in news  # the opening was turn 1's


def test_a_phase_closes_early_or_at_its_longest_wait(tmp_path: Path) -> None:
    """The config gives each phase's longest wait (config.example.toml's game): the bids close as soon as all
    six have sent, hours before their Monday-noon deadline; the shortage, where nobody sends, waits its two
    days and then runs with the defaults (numbers drawn, sides drawn or forced: shortage.py)."""
    schedule = {"timezone": "UTC", "phases": {"bids": {"cron": "0 12 * * mon"}, "shortage": {"duration": "2d"},
                                              "battles": {"duration": "3d"}, "cards": {"duration": "1d"}}}
    with Table(tmp_path) as table:  # Monday 4 January 2027, 09:00 UTC
        table.create_game("gal", "galilei", "example:galilei", schedule=schedule)
        for name in PLAYERS:
            table.send(address(name), "bid 1 for cards, 1 for capitals\nturn bid 1")
        table.intake()
        assert "Choosing cards" in table.newsletter("gal", 1, "bids")  # closed at 09:00, not noon
        table.advance(days=1)
        table.intake()
        assert phase_state(table)["shortage"]["results"] == []  # still open: one day of two
        table.advance(days=1, hours=1)
        table.intake()
        news = flat(table.newsletter("gal", 1, "shortage"))
        assert news.count("(no answer: drawn)") >= 4, news
