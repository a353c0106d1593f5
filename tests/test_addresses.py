"""Addresses shared by games, strangers and routing, from the mail's side: a stranger's mail to an address that
runs several games, HELP for a game named by its plus address, a player of two games on one address who leaves
the game unnamed (issue 23, "Addresses, strangers and routing")."""

from __future__ import annotations

import re
from pathlib import Path

from maild.games import load_setup
from maild.paths import setup_path
from maild.testing import Table
from tests.mailcheck import long_prose_lines


def shared_table(tmp_path: Path, db_url: str | None = None) -> Table:
    """venice1 and gal1 on gm@example.org (alice plays both, without a password in either), ren1493 and lotj
    on addresses of their own."""
    table = Table(tmp_path, db_url=db_url)
    venice = load_setup(setup_path("example:venice", tmp_path))
    for p in venice["players"]:
        p.pop("password", None)
    table.create_game("venice1", "venice", venice)
    table.create_game("gal1", "galilei", "example:galilei")
    table.create_game("ren1493", "renaissance", "example:renaissance", address="ren@example.org")
    table.create_game("lotj", "jungle", "example:jungle", address="jungle@example.org")
    table.intake()  # the welcomes
    return table


def answers_to(table: Table, address: str) -> list[str]:
    return [m.get_content() for m in table.intake() if str(m["To"]) == address]


def test_a_strangers_help_to_a_shared_address_names_every_game_on_it(tmp_path: Path, db_url: str) -> None:
    with shared_table(tmp_path, db_url) as table:
        table.send("zed@example.net", "HELP")
        [answer] = answers_to(table, "zed@example.net")
        assert "venice1" in answer and "gal1" in answer
        assert "gm+venice1@example.org" in answer and "gm+gal1@example.org" in answer
        assert "ren1493" not in answer  # not a game of this address
        assert not long_prose_lines(answer)


def test_help_for_a_game_named_by_its_plus_address_is_answered_the_same_day(tmp_path: Path, db_url: str) -> None:
    with shared_table(tmp_path, db_url) as table:
        table.send("zed@example.net", "HELP")
        assert answers_to(table, "zed@example.net")
        table.advance(minutes=5)
        table.send("zed@example.net", "HELP", to="gm+gal1@example.org")
        [answer] = answers_to(table, "zed@example.net")
        assert "gal1" in answer and "venice1" not in answer
        assert "write to the GM, who runs the game from gm+gal1@example.org" in " ".join(answer.split())
        assert "GALILEI (gal1): how to send orders" in answer  # Galilei's sheet
        # Bounded all the same: a second HELP to the same named game that day gets nothing.
        table.advance(minutes=5)
        table.send("zed@example.net", "HELP", to="gm+gal1@example.org")
        assert answers_to(table, "zed@example.net") == []
        # A game with an address of its own is named by it: one answer a day from it, too.
        table.send("zed@example.net", "HELP", to="ren@example.org")
        [ren] = answers_to(table, "zed@example.net")
        assert "ren1493" in ren


def paragraphs(text: str) -> list[str]:
    """The prose of each paragraph (its unindented lines; the indented ones are a list), joined."""
    blocks = [" ".join(line.strip() for line in block.splitlines() if not line.startswith(" "))
              for block in re.split(r"\n\s*\n", text.strip())]
    return [b for b in blocks if b]


def test_every_strangers_answer_reads_as_whole_sentences(tmp_path: Path) -> None:
    with shared_table(tmp_path) as table:
        for n, to in enumerate(["gm+venice1@example.org", "gm+gal1@example.org", "ren@example.org",
                                "jungle@example.org", "gm@example.org"]):
            sender = f"stranger{n}@example.net"
            table.send(sender, "bid 10 for cards, 10 for capitals", to=to)
            [answer] = answers_to(table, sender)
            assert not long_prose_lines(answer), answer
            for para in paragraphs(answer):
                if para.startswith("Hello"):
                    continue
                assert para[0].isupper() or para[0] in "#\"'", (to, para)
                assert para.rstrip()[-1] in ".:!?", (to, para)
            assert "did not read your mail as orders" not in answer
            # No line continues a sentence of the line before: a line after a full line starts a sentence.
            lines = answer.splitlines()
            for before, line in zip(lines, lines[1:], strict=False):
                if before.strip() and line.strip() and not line.startswith(" ") and not before.startswith(" "):
                    assert len(before) + len(line.split()[0]) >= 70 or before.rstrip()[-1] in ".:", (before, line)


def test_a_player_of_two_games_on_one_address_is_routed_by_the_game_that_reads_his_orders(tmp_path: Path) -> None:
    with shared_table(tmp_path) as table:
        table.send("alice@example.org", "bid 10 for cards, 10 for capitals", subject="opening")
        [ack] = answers_to(table, "alice@example.org")
        assert "gal1" in ack and "venice1" not in ack, ack
        assert "not understood" not in ack.lower()
        table.send("alice@example.org", "bid 30$ for 1 of silk tax", subject="silk")
        [ack] = answers_to(table, "alice@example.org")
        assert "venice1" in ack and "gal1" not in ack, ack


def test_a_player_of_two_games_is_asked_which_when_no_game_reads_his_mail(tmp_path: Path) -> None:
    with shared_table(tmp_path) as table:
        table.send("alice@example.org", "I would like to buy the moon", subject="hello")
        [answer] = answers_to(table, "alice@example.org")
        assert "venice1" in answer and "gal1" in answer
        assert "gm+venice1@example.org" in answer and "[gal1]" in answer
        assert not long_prose_lines(answer)
        table.send("alice@example.org", "STATUS", subject="[gal1] status")
        status = answers_to(table, "alice@example.org")[0]
        assert "I would like" not in status  # nothing was booked


def test_a_player_is_asked_which_game_when_two_read_his_orders_alike(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        venice = load_setup(setup_path("example:venice", tmp_path))
        for p in venice["players"]:
            p.pop("password", None)
        table.create_game("venice1", "venice", venice)
        table.create_game("venice2", "venice", venice)
        table.intake()
        table.send("bob@example.org", "bid 30$ for 1 of silk tax", subject="bids")
        [answer] = answers_to(table, "bob@example.org")
        flat = " ".join(answer.split())
        assert "Its lines read as orders of venice1 and venice2 alike" in flat
        assert "gm+venice2@example.org" in answer and "[venice1]" in answer
        # Named by its plus address, the same mail is read as that game's.
        table.send("bob@example.org", "bid 30$ for 1 of silk tax", subject="bids", to="gm+venice2@example.org")
        [ack] = answers_to(table, "bob@example.org")
        assert "venice2" in ack and "silk tax" in ack and "venice1" not in ack


def test_a_strangers_sign_up_to_a_shared_address_goes_to_the_game_that_takes_sign_ups(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("venice1", "venice", "example:venice")
        table.create_game("lotj", "jungle", "example:jungle")
        table.intake()
        table.send("zoe@example.org", "JOIN Tizoc in Tenochtitlan hex Quarry", subject="hello")
        [ack] = answers_to(table, "zoe@example.org")
        assert "signed you up for lotj as Tizoc" in ack, ack
