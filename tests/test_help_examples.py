"""HELP's examples use the game's own names (issue 23: "HELP's examples name places that are not in the
game"): a player of each of the four games mails HELP and every example he reads names only what his game
has, and reads as an order of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from maild.games import load_setup, ruleset_named
from maild.paths import setup_path
from maild.testing import Table
from tests.mailcheck import long_prose_lines, section


def setup_of(ruleset: str, tmp_path: Path, **renamed: str) -> dict[str, Any]:
    """The example setup of `ruleset` with names replaced (old=new, spaces as _ in the old)."""
    text = json.dumps(load_setup(setup_path(f"example:{ruleset}", tmp_path)))
    for old, new in renamed.items():
        text = text.replace(old.replace("_", " "), new)
    return json.loads(text)


def help_to(table: Table, address: str) -> str:
    table.send(address, "HELP")
    table.intake()
    return table.ack(address)


def examples(sheet: str) -> list[str]:
    return [line.strip() for line in section(sheet, "For example:").splitlines() if line.strip()]


def test_galilei_help_names_this_games_capitals_players_and_cards(tmp_path: Path) -> None:
    setup = setup_of("galilei", tmp_path, Venice="Lisbon", Genoa="Naples", Barcelona="Vienna", Paris="Prague",
                     London="Krakow", Hamburg="Seville")
    with Table(tmp_path) as table:
        table.create_game("gal1", "galilei", setup)
        sheet = help_to(table, "bob@example.org")
    shown = examples(sheet)
    assert shown, sheet
    assert not long_prose_lines(sheet)
    text = "\n".join(shown)
    for foreign in ("Paris", "Genoa", "Venice", "Silk-1"):
        assert foreign not in text, text
    assert "Lisbon" in text or "Naples" in text
    ruleset = ruleset_named("galilei")
    parsed = ruleset.parse(text)
    assert not parsed.diagnostics and len(parsed.orders) == len(shown)
    war = next(line for line in shown if line.startswith("war against"))
    assert war.split()[2].rstrip(",") in {"alice", "carol", "dave", "erin", "frank"}  # a player, not a capital


def test_jungle_help_names_the_readers_characters_and_this_games_places(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("lotj", "jungle", "example:jungle")
        sheet = help_to(table, "alice@example.org")
    shown = examples(sheet)
    assert not long_prose_lines(sheet)
    text = "\n".join(shown)
    for foreign in ("Riverbank", "Marsh", "Tochtli", "Venice", "Texcoco hex Lakeshore"):
        assert foreign not in text, text
    assert "Itzel" in text  # alice's own character
    assert "**Move** to hex Cornfield" in text or "**Move** to hex Quarry" in text or \
        "**Move** to hex Tenochtitlan" in text  # a hex of his city
    parsed = ruleset_named("jungle").parse(text)
    assert not [d for d in parsed.diagnostics if not d.warning], parsed.diagnostics


def test_renaissance_help_shows_the_readers_own_family_and_persona(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("ren1493", "renaissance", "example:renaissance")
        sheet = help_to(table, "bor@example.org")
    assert "/BOR *BORGIA" in sheet and "*Rome .0201" in sheet
    assert "*Florence .0101" not in sheet and "T0102" not in sheet
    assert not long_prose_lines(sheet)


def test_venice_help_bids_for_an_item_of_this_game(tmp_path: Path) -> None:
    setup = setup_of("venice", tmp_path, exile_competitor="grain levy")
    with Table(tmp_path) as table:
        table.create_game("venice1", "venice", setup)
        sheet = help_to(table, "bob@example.org")
    assert "exile competitor" not in sheet.lower()
    assert "bid 30$ for 2 of silk tax" in sheet


def test_every_games_help_keeps_its_prose_within_78_columns(tmp_path: Path) -> None:
    """HELP is a mail a player reads in a terminal too: prose within 78 columns (tables may stay wide)."""
    players = {"venice": "alice@example.org", "renaissance": "med@example.org", "jungle": "alice@example.org",
               "galilei": "bob@example.org"}
    for ruleset, player in players.items():
        with Table(tmp_path / ruleset) as table:
            table.create_game(f"{ruleset[:3]}1", ruleset, f"example:{ruleset}")
            table.intake()
            sheet = help_to(table, player)
            assert "HELP" in sheet or "order" in sheet, (ruleset, sheet)
            assert long_prose_lines(sheet) == [], (ruleset, long_prose_lines(sheet))
