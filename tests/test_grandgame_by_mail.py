"""The Grand Game by mail, through the daemon (issue 24, acceptance 2): eight players on the starter map pick
their countries in sealed rounds, buy and place their units, allocate their GDP and play two whole turns of
seasons — a land battle, aircraft over a zone, a fleet at sea with troops aboard, a move by rail, a Neutral Power
attacked and the League's contributions, the reconciliation, Francs paid from one player to another. Every
printout and newsletter carries the board as PNG and SVG and reads as a person reads mail (tests/mailcheck.py).

The battle figures are worked by hand from the rules (the game is played without battle cards, the setup's
switch, so that the chances are the text's own): see the comments at each."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from maild.paths import EXAMPLES_DIR
from maild.testing import Table, attachments_of
from tests.grandgame_support import example_setup
from tests.mailcheck import long_prose_lines, repeated_lines, section

PLAYERS = ["alice", "bruno", "chloe", "dmitri", "elena", "farid", "greta", "hugo"]
SEASONS = ("spring", "fall", "winter")


def address(name: str) -> str:
    return f"{name}@example.org"


def send_all(table: Table, texts: dict[str, str]) -> None:
    for name, text in texts.items():
        table.send(address(name), text)
    table.intake()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def readable(text: str) -> None:
    """A mail as a person reads it: no prose line over 78 columns, no line said twice."""
    assert long_prose_lines(text) == [], text
    assert repeated_lines(text) == {}, text


def pictured(table: Table, turn: int, phase: str, player: str | None = None) -> None:
    files = table.pictures("gg", turn, player, phase)
    assert [(name, kind) for name, kind, _ in files] == [("board.png", "image/png"), ("board.svg", "image/svg+xml")]
    assert png_size(files[0][2])[0] == 1200 and b"<svg" in files[1][2]


def play_the_start(table: Table) -> None:
    setup = example_setup()
    setup["options"] = {**setup["options"], "battle_cards": False}
    table.create_game("gg", "grand-game", setup, seed=24)
    table.intake()
    # Round 1: every player bids and lists the countries he wants (examples/grand-game/orders).
    send_all(table, {n: (EXAMPLES_DIR / "grand-game" / "orders" / f"{n}.txt").read_text() for n in PLAYERS})
    # Rounds 2 to 7 close at their deadlines with nobody writing again: a silent player bids nothing and his
    # list stands (GG-OQ-05, GG-OQ-28); the eighth player takes his country without a round.
    for _ in range(6):
        table.run_turn("gg")


def test_the_start_by_mail(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        play_the_start(table)
        welcome = table.welcome("gg", "alice")
        assert "bid 12" in welcome and "Borvane (BOR), large: 13 territories, GDP 22" in welcome
        mail = next(m for m in table.mails() if str(m["Subject"]).startswith("[gg] welcome, alice"))
        assert [name for name, _, _ in attachments_of(mail)] == ["board.png", "board.svg"]
        news = table.newsletter("gg", 1, "picking")
        assert "bruno won for $20 and takes Borvane, a dictatorship." in news
        print(news)
        print(table.newsletter("gg", 1, "picking-7"))


PURCHASES = {
    # 20 + GDP to spend ("Each player also starts with 20 + their initial GDP's worth of GDP units"), at the
    # table's prices: infantry 5, armor 5, aircraft 10, light fleet 5, supply 1.
    "alice": "buy 4 infantry, 1 armor, 1 aircraft, 3 supply",  # 20 + 5 + 10 + 3 = 38 = 20 + 18
    "bruno": "buy 4 infantry, 1 light fleet, 4 supply",  # 29 of 42
    "chloe": "buy 1 infantry, 1 supply",
    "dmitri": "buy 3 infantry, 3 supply",
}
PLACEMENTS = {
    "alice": "place 3 infantry, 1 armor, 3 supply in C4\nplace 1 infantry, 1 aircraft in C3",
    "bruno": "place 2 infantry, 1 light fleet, 2 supply in Borhaven\nplace 2 infantry, 2 supply in K3",
    "chloe": "place 1 infantry, 1 supply in J6",
    "dmitri": "place 3 infantry, 3 supply in Kessel",
}


def play_to_spring(table: Table) -> None:
    play_the_start(table)
    # alice first asks for more than her 38 GDP: refused whole, and told why.
    table.send(address("alice"), "buy 5 infantry, 1 armor, 1 aircraft, 3 supply")
    table.intake()
    send_all(table, {n: PURCHASES.get(n, "buy 2 infantry") for n in PLAYERS})
    send_all(table, {n: PLACEMENTS.get(n, "place 2 infantry in " + CAPITAL[n]) for n in PLAYERS})
    # The allocation of turn 1: alice at GDP 18 buys politics 15% (2 GDP: 15% of 18 rounded down), 2 points of
    # development (the table: 2 points cost 2), 2 units of research (turns 1-3: 1 GDP each) and an infantry (5).
    send_all(table, {n: ALLOCATIONS.get(n, "politics 0%") for n in PLAYERS})


CAPITAL = {"alice": "Velden", "bruno": "Tarnow", "chloe": "Mirel", "dmitri": "Kessel", "elena": "Elm",
           "farid": "Ferrow", "greta": "Gallow", "hugo": "Hest"}
ALLOCATIONS = {
    "alice": "politics 15%\ndevelop 2 in ZA\nresearch 2\nbuild 1 infantry in Velden",
    "bruno": "politics 30%",
}


def test_purchase_placement_and_allocation_by_mail(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        play_to_spring(table)
        print(table.newsletter("gg", 1, "purchase"))
        print(table.newsletter("gg", 1, "placement"))
        print(table.ack(address("alice")))
        print(table.printout("gg", 1, "alice", "allocation"))


SPRING = {
    "alice": "3 inf, 1 arm C4 -> C5 attack with 3 supply\n1 air C3 -> ZF land C4\nrail 1 inf C3 -> E2",
    "bruno": "1 lf K2 -> S02 with 2 inf, 2 supply",
    "dmitri": "3 inf K6 -> J6 attack with 3 supply",
}


def test_spring_by_mail(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        play_to_spring(table)
        send_all(table, {n: SPRING.get(n, "hold") for n in PLAYERS})
        print(table.newsletter("gg", 1, "spring"))
        send_all(table, {"bruno": "contribute 12 to C5"})
        table.run_turn("gg")
        print(table.newsletter("gg", 1, "spring-league"))
        print(table.printout("gg", 1, "alice", "spring-league"))


def test_to_winter(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        play_to_spring(table)
        send_all(table, {n: SPRING.get(n, "hold") for n in PLAYERS})
        send_all(table, {"bruno": "contribute 12 to C5"})
        table.run_turn("gg")
        send_all(table, {"bruno": "pay 5 to alice\nunload 2 inf, 2 supply S02 -> L2"})
        table.run_turn("gg")
        print(table.printout("gg", 1, "alice", "fall"))
        print(table.printout("gg", 1, "bruno", "fall"))
        table.run_turn("gg")
        print(table.printout("gg", 1, "alice", "winter"))
        print(table.newsletter("gg", 1, "winter"))
