"""The Grand Game by mail, through the daemon (issue 24, acceptance 2): eight players on the starter map pick
their countries in sealed rounds, buy and place their units, allocate their GDP and play two whole turns of
seasons: a land battle, aircraft over a zone, a fleet at sea with troops aboard, moves by rail, a Neutral Power
attacked and a contribution to the League, the reconciliation, Francs paid from one player to another. Every
printout and newsletter carries the board as PNG and SVG and reads as a person reads mail (tests/mailcheck.py).

The game is played without battle cards (the setup's switch, GG-OQ-01) so that the chances are the text's own;
the figures are worked by hand at each step. The orders are alice's and bruno's as shipped in
examples/grand-game/turn1/, which `maild orders check --ruleset grand-game` reads without a complaint."""

from __future__ import annotations

import struct
from pathlib import Path

from maild.cli import main
from maild.paths import EXAMPLES_DIR
from maild.testing import Table, attachments_of
from tests.grandgame_support import example_setup
from tests.mailcheck import long_prose_lines, repeated_lines

PLAYERS = ["alice", "bruno", "chloe", "dmitri", "elena", "farid", "greta", "hugo"]
EXAMPLES = EXAMPLES_DIR / "grand-game"
TURN1 = EXAMPLES / "turn1"
CAPITAL = {"alice": "Velden", "bruno": "Tarnow", "chloe": "Mirel", "dmitri": "Kessel", "elena": "Elm",
           "farid": "Ferrow", "greta": "Gallow", "hugo": "Hest"}


def address(name: str) -> str:
    return f"{name}@example.org"


def example(name: str) -> str:
    return (TURN1 / name).read_text(encoding="utf-8")


def send_all(table: Table, texts: dict[str, str]) -> None:
    for name, text in texts.items():
        table.send(address(name), text)
    table.intake()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def read_as_a_player(table: Table, turn: int, phase: str) -> str:
    """The phase's newsletter and printouts: each readable (no prose line over 78 columns, no line said twice)
    and carrying the board as PNG (shown inline) and SVG; the newsletter's text."""
    for player in (None, *PLAYERS):
        text = table.newsletter("gg", turn, phase) if player is None else table.printout("gg", turn, player, phase)
        assert long_prose_lines(text) == [], text
        assert repeated_lines(text) == {}, text
        files = table.pictures("gg", turn, player, phase)
        assert [(name, kind) for name, kind, _ in files] == [("board.png", "image/png"),
                                                             ("board.svg", "image/svg+xml")]
        assert png_size(files[0][2])[0] == 1200 and b"<svg" in files[1][2]
    return table.newsletter("gg", turn, phase)


def test_the_shipped_example_orders_are_read_without_a_complaint() -> None:
    for path in sorted([*(EXAMPLES / "orders").glob("*.txt"), *TURN1.glob("*.txt")]):
        assert main(["orders", "check", "--ruleset", "grand-game", str(path)]) == 0, path


def test_two_turns_by_mail(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        setup = example_setup()
        setup["options"] = {**setup["options"], "battle_cards": False}
        table.create_game("gg", "grand-game", setup, seed=24)
        table.intake()
        welcome = table.welcome("gg", "alice")
        assert "bid 12" in welcome and "Borvane (BOR), large: 13 territories, GDP 22" in welcome
        mail = next(m for m in table.mails() if str(m["Subject"]).startswith("[gg] welcome, alice"))
        assert [name for name, _, _ in attachments_of(mail)] == ["board.png", "board.svg"]

        # The picking. Round 1: every player bids and lists the countries he wants (examples/grand-game/orders);
        # bruno's $20 is the highest. Rounds 2 to 7 close at their deadlines with nobody writing again: a silent
        # player bids nothing and his list stands (GG-OQ-05, GG-OQ-28); the last takes his country unopposed.
        send_all(table, {n: (EXAMPLES / "orders" / f"{n}.txt").read_text() for n in PLAYERS})
        news = read_as_a_player(table, 1, "picking")
        assert "bruno won for $20 and takes Borvane, a dictatorship." in news
        assert "You take Borvane as a dictatorship; you start with 20 Francs." in table.printout(
            "gg", 1, "bruno", "picking")
        for _ in range(6):
            table.run_turn("gg")
        news = " ".join(read_as_a_player(table, 1, "picking-7").split())
        for name, country in (("alice", "Aurelia"), ("chloe", "Cassaria"), ("hugo", "Hestry")):
            assert f"{name} {country}" in news  # every list named a different first choice
        assert "Ilvane, Jorsk, Nesse, Orrin: 1 infantry and 3 supply on each" in news

        # The initial purchase: 20 + GDP (Aurelia 18: 38). alice first asks for 43 (5 infantry 25, an armor 5,
        # an aircraft 10, 3 supply): refused whole, with the reason; then the shipped purchase, 38 exactly.
        table.send(address("alice"), "buy 5 infantry, 1 armor, 1 aircraft, 3 supply")
        table.intake()
        ack = table.ack(address("alice"))
        assert "this is what gg read in your mail" in ack and "this costs 43 GDP and you have 38" in ack
        send_all(table, {"alice": example("1-purchase.txt"), "bruno": "buy 4 infantry, 1 light fleet, 4 supply",
                         "chloe": "buy 1 infantry, 1 supply", "dmitri": "buy 3 infantry, 3 supply",
                         **{n: "buy 2 infantry" for n in ("elena", "farid", "greta", "hugo")}})
        news = read_as_a_player(table, 1, "purchase")
        assert "Aurelia (alice): 4 infantry, 1 armor, 1 aircraft, 3 supply (38 of 38 GDP)." in news
        send_all(table, {"alice": example("2-placement.txt"),
                         "bruno": "place 2 infantry, 1 light fleet, 2 supply in Borhaven\n"
                                  "place 2 infantry, 2 supply in K3",
                         "chloe": "place 1 infantry, 1 supply in J6", "dmitri": "place 3 infantry, 3 supply in Kessel",
                         **{n: f"place 2 infantry in {CAPITAL[n]}" for n in ("elena", "farid", "greta", "hugo")}})
        assert "alice (Aurelia): C3 1i 1p; C4 3i 1a 3s" in read_as_a_player(table, 1, "placement")

        # The allocation: at GDP 18, politics 15% is 2 (rounded down, GG-OQ-12), 2 points of development 2 (the
        # table's second row), 2 units of research 2 (turns 1-3: 1 GDP each), an infantry 5: 11, 7 left.
        send_all(table, {"alice": example("3-allocation.txt"), "bruno": "politics 30%",
                         **{n: "politics 0%" for n in PLAYERS if n not in ("alice", "bruno")}})
        assert "allocated 11 of 18 GDP: 7 left, lost if unused" in table.ack(address("alice"))
        read_as_a_player(table, 1, "allocation")

        # Spring. alice attacks Marby (C5) of the Neutral Power Nesse: the League meets before anything moves.
        send_all(table, {"alice": example("4-spring.txt"), "bruno": "1 lf K2 -> S02 with 2 inf, 2 supply",
                         "dmitri": "3 inf K6 -> J6 attack with 3 supply",
                         **{n: "hold" for n in ("chloe", "elena", "farid", "greta", "hugo")}})
        news = read_as_a_player(table, 1, "spring")
        assert "alice attacks Marby (C5)." in news and "Strengths" not in news
        # bruno gives 12 of his 20 Francs: 1 infantry and 1 supply join Marby's 1 infantry and 3 supply.
        send_all(table, {"bruno": example("5-league.txt")})
        table.run_turn("gg")  # the others stay silent: they give nothing
        news = " ".join(read_as_a_player(table, 1, "spring-league").split())
        assert "Marby (C5): 12 Francs (bruno 12): 1 infantry and 1 supply join its defense." in news
        # alice: 3 supply for 4 units, armor first (4), two infantry (2 each), one unsupplied (1): 9; air
        # superiority over ZF (her aircraft, nobody else's) adds 1 a unit: 13. Nesse: 2 infantry supplied in a
        # city, 3 + 1 each: 8. Her chance 13/21 = 62%.
        assert "Strengths alice 13, Nesse (neutral) 8" in news and "alice's chance 62%" in news
        # dmitri's 3 supplied infantry attack at 2 each (6) chloe's one defending at 3: 6/9 = 67%.
        assert "Strengths dmitri 6, chloe 3; dmitri's chance 67%." in news
        alice = " ".join(table.printout("gg", 1, "alice", "spring-league").split())
        assert "1 infantry by rail from C3 to E2: arrived in Pelgate (E2)" in alice
        assert "1 aircraft from C3 fight over zone ZF, land in C4: 1 landed in Kelton (C4)" in alice
        assert "Borvane Deep (S02): 1 light fleet, (2 infantry, 2 supply aboard)" in table.printout(
            "gg", 1, "bruno", "spring-league")

        # Fall: bruno pays alice 5 Francs (free of fee, GG-OQ-16) and lands his troops at home.
        send_all(table, {"bruno": example("6-fall.txt")})
        table.run_turn("gg")
        read_as_a_player(table, 1, "fall")
        assert "bruno paid you 5 Francs." in table.printout("gg", 1, "alice", "fall")
        bruno = table.printout("gg", 1, "bruno", "fall")
        assert "You paid alice 5 Francs." in bruno and "GDP 22, Francs 3," in bruno  # 20 - 12 - 5
        assert "Holwold (L2): 2 infantry, 2 supply" in bruno

        # Winter, then the reconciliation: the allocations revealed, political cards, production, development,
        # research, GDP. alice: Falhaven Zone 8 + 2 = 10, with Marton Zone's 10 her GDP is 20; research 2 bought
        # and 3 a democracy's own ("1 free unit of research per season"): 5; Francs 5 from bruno and her
        # politics' 2 as her card changes them (x1.5: 3): 8.
        table.run_turn("gg")
        news = " ".join(read_as_a_player(table, 1, "winter").split())
        assert "Aurelia (alice): 1 infantry in Velden (E2)." in news
        assert "Falhaven Zone (ZA) +2: 8 -> 10." in news and "Aurelia (alice): 18 -> 20." in news
        assert "Aurelia (alice), 15% Democracy: Campaign pays off (Francs x1.5): 3 Francs." in news
        assert "GDP 20, Francs 8, atomic research 5" in table.printout("gg", 1, "alice", "winter")

        # Turn 2 passes over the phases of the start: its allocation is open.
        table.run_turn("gg")
        read_as_a_player(table, 2, "allocation")
        # Spring of turn 2: alice walks into Ferroway's empty Falstead (D4); bruno moves by rail along his own
        # railway (Alford K3 to Torbrook K5).
        send_all(table, {"alice": "1 inf C4 -> D4 attack", "bruno": "rail 2 inf K3 -> K5",
                         **{n: "hold" for n in PLAYERS if n not in ("alice", "bruno")}})
        news = " ".join(read_as_a_player(table, 2, "spring").split())
        assert "Falstead (D4)" in news
        assert "2 infantry by rail from K3 to K5: arrived in Torbrook (K5)" in " ".join(
            table.printout("gg", 2, "bruno", "spring").split())
        table.run_turn("gg")
        read_as_a_player(table, 2, "fall")
        table.run_turn("gg")
        read_as_a_player(table, 2, "winter")
        assert "The game is over." not in table.newsletter("gg", 2, "winter")
