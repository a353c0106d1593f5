"""A full Galilei turn of six players by mail, on SQLite and PostgreSQL: the four phases (bids with the
opening, shortage, battles, cards), each closing early once everyone has sent, the luck ledger in every
printout and the newsletter, a GM amendment taking effect in the next turn and a rerun giving the same turn."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from maild.games import get_game, state_before
from maild.gmcli import record
from maild.phases import state_after_phases
from maild.testing import Table
from maild.turn import rerun_turn
from maild_rules.galilei import state as st

PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank"]


def address(name: str) -> str:
    return f"{name}@example.org"


def phase_state(table: Table) -> dict:
    with table.app.db.session() as s:
        game = get_game(s, "gal")
        return state_after_phases(s, game.id, game.turn) or state_before(s, game, game.turn)


def test_a_full_turn_of_six_players_by_mail(db_url: str, tmp_path: Path) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("gal", "galilei", "example:galilei")

        # -- bids: the opening double bid with the draft's lists, and the turn-order bid --------------------------
        bids = {"alice": "bid 12 for cards, 8 for capitals\nprefer cards: Master Art; capitals: Venice\nturn bid 5",
                "bob": "Bid 10 for cards and 10 for capitals\nprefer capitals: Venice, Genoa\nturn bid 4",
                "carol": "bid cards 10 capitals 10\nprefer cards: Master Art, Silk\nturn bid 4",
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
        news = table.newsletter("gal", 1, "bids")
        # Cards: alice 12 first; bob and carol tie at 10 and on the global 20: bob's mail came first.
        assert "Draft of cards: 1. alice: Master Art; 2. bob: Stone (by default: first free); " \
               "3. carol (tie broken by the first mail received): Silk" in news, news
        # Capitals: frank 20, dave 14, then bob and carol at 10 (global 20, bob's mail first), alice 8.
        assert "Draft of capitals: 1. frank: Hamburg; 2. dave: Venice (by default: first free); 3. bob: Genoa" \
            in news, news
        assert "Turn order: 1. alice (bid 5), 2. bob (bid 4), 3. carol (bid 4, tie broken by the first mail " \
               "received), 4. dave (bid 2), 5. frank (bid 1), 6. erin (bid 0)." in news, news
        assert "The luck ledger" in table.printout("gal", 1, "carol", "bids")

        # -- shortage: 1&3 with 5, 2&4 with 6 -----------------------------------------------------------------
        table.send(address("erin"), "number 3")  # erin is 6th: a number is refused at intake
        table.intake()
        assert "send shortage or surplus" in table.ack(address("erin"))
        for name, text in {"alice": "number 2", "bob": "number 6", "carol": "Number: 5", "dave": "number 6",
                           "frank": "surplus", "erin": "Shortage"}.items():
            table.send(address(name), text)
        table.intake()
        news = table.newsletter("gal", 1, "shortage")
        assert "Surplus of Wine: alice chose 2, carol chose 5 (row 7); frank decided surplus." in news, news
        assert "Shortage of Gold: bob chose 6, dave chose 6 (row 12); erin decided shortage." in news, news

        # -- battles: declared at once, resolved in turn order ----------------------------------------------------
        table.send(address("alice"), "battle: attack Hamburg at position 1, 3 tokens")
        table.send(address("bob"), "war against carol, my modifier +1, cities 2 1")
        table.send(address("dave"), "attack Genoa with military advantage, 2 tokens")
        for name in ("carol", "erin", "frank"):
            table.send(address(name), "pass")
        table.intake()
        news = table.newsletter("gal", 1, "battles")
        assert news.index("Battle: alice (position 1) attacks frank") < news.index("War: bob") < \
            news.index("Battle: dave (position 4) attacks bob"), news
        assert "chance 0.9028" in news and "chance 0.7222" in news, news  # tables 1 and 2
        state = phase_state(table)
        scores = {n: Fraction(st.luck_ledger(state).balance(n, st.LUCK)) for n in PLAYERS}
        assert sum(scores.values()) == 0 and any(scores.values())
        assert [r["type"] for r in state["rolls"]] == ["battle", "war", "battle"]
        printout = table.printout("gal", 1, "erin", "battles")
        for name in PLAYERS:  # every running score in every printout, four digits
            assert re.search(rf"{name}\s+-?\d\.\d{{4}}", printout), printout

        # -- cards ----------------------------------------------------------------------------------------------
        table.send(address("alice"), "card Papal Decree\ndiscard Master Art")
        table.send(address("bob"), "card Papal Decree, Stirrups")
        for name in ("carol", "dave", "erin", "frank"):
            table.send(address(name), "pass")
        table.intake()
        news = table.newsletter("gal", 1, "cards")
        assert "Cards drawn (3.1): alice: Papal Decree; bob: Stirrups;" in news, news
        assert "alice discards Master Art." in news

        # -- turn 2 is open; the GM's amendment takes effect with its first phase -------------------------------
        with table.app.db.session() as s:
            said = record(s, table.app, "gal", "luck", ["gal", "erin", "7/72", "--reason", "a roll misread"])
            s.commit()
        assert "recorded" in said, said
        assert [o.status for o in rerun_turn(table.app, "gal", 1)] == ["same"]
        for name in PLAYERS:
            table.send(address(name), "turn bid 1")
        table.intake()
        news = table.newsletter("gal", 2, "bids")
        assert "GM: erin's luck corrected by 0.0972 (a roll misread)" in news, news
        assert "Draft of" not in news  # the opening was turn 1's
