"""Substitutes (issue 26, docs/season.md "Substitutes"), through the daemon: a volunteer's STANDBY, the GM's
`player open` and the volunteer's TAKEOVER, the GM's `player replace` of a player with a password, the GM's
`player address`; the deadline moved on for everyone and announced, the handover mail, the newsletter line, and
no mail to a player naming another player's address."""

from __future__ import annotations

import argparse
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from maild.errors import GameError
from maild.games import get_game, get_turn
from maild.playercli import run_player_command
from maild.ruleset import register, unregister
from maild.testing import Table, text_of
from tests.rps_game import EXAMPLE_SETUP, RockPaperScissors

# Turn 1 is due on Wednesday 6 January, turn 2 on Friday 8 January (UTC); the table's clock starts on Monday.
SCHEDULE = {"timezone": "UTC", "at": ["2027-01-06T17:00", "2027-01-08T17:00", "2027-01-10T17:00"]}
GM = "referee@example.org"


def player(table: Table, command: str, game: str, *args: str) -> None:
    """The GM's `maild player COMMAND GAME ARGS...`."""
    names = {"replace": ("player", "address"), "open": ("player",), "address": ("player", "new"), "standby": ()}
    run_player_command(table.app, argparse.Namespace(player_cmd=command, game=game,
                                                     **dict(zip(names[command], args, strict=True))))


def deadline(table: Table, game: str, number: int) -> datetime | None:
    with table.app.db.session() as s:
        turn = get_turn(s, get_game(s, game), number)
        return turn.deadline if turn is not None else None


def mails_to(mails: list, address: str) -> list:
    return [m for m in mails if str(m["To"]) == address]


def scan_for_addresses(table: Table, people: dict[str, set[str]]) -> None:
    """Every mail to a player names no address but the reader's own: `people` maps each person to his
    addresses (one who changed his address has two, and both may be told to him)."""
    everyone = set().union(*people.values())
    for mail in table.mails():
        to = str(mail["To"])
        if to == GM:
            continue
        own = next((addrs for addrs in people.values() if to in addrs), {to})
        text = f"{mail['Subject']}\n{mail['To']}\n{mail['Cc'] or ''}\n{text_of(mail)}"
        for address in everyone - own:
            assert address not in text, (str(mail["Subject"]), to, address)


def test_a_volunteer_takes_over_an_open_position_and_the_gm_replaces_another(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps", EXAMPLE_SETUP, schedule=SCHEDULE)
        table.intake()
        table.send("cat@example.org", "throw rock\nsay cat was here")
        table.intake()
        table.run_turn("rps1")
        due = deadline(table, "rps1", 2)
        assert due == datetime(2027, 1, 8, 17, 0, tzinfo=UTC)

        # A volunteer offers himself; the GM hears of it; he cannot take a position not open.
        table.send("dan@example.org", "STANDBY rps1", subject="standby")
        fresh = table.intake()
        assert "you are on the standby list" in table.ack("dan@example.org")
        assert any("a volunteer on standby" in str(m["Subject"]) for m in mails_to(fresh, GM))
        table.send("dan@example.org", "TAKEOVER rps1 cat")
        table.intake()
        assert "cat's position is not open to a substitute" in table.ack("dan@example.org")
        assert deadline(table, "rps1", 2) == due

        # The GM opens cat's position; dan takes it.
        player(table, "open", "rps1", "cat")
        table.send("dan@example.org", "takeover rps1 cat")
        fresh = table.intake()
        moved = deadline(table, "rps1", 2)
        assert moved == due + timedelta(days=2)  # [games.substitutes] extension, default 2 days
        (handover,) = [m for m in mails_to(fresh, "dan@example.org") if "you take over cat" in str(m["Subject"])]
        body = text_of(handover)
        assert "Your orders for turn 2 are due: Sunday 10 January 2027, 17:00 UTC (UTC)" in body
        assert "The last printout of cat" in body and table.printout("rps1", 1, "cat").strip() in body
        assert "Orders on file for turn 2:\n  none" in body
        assert "RPS (rps1): how to send orders" in body and "throw rock|paper|scissors" in body
        assert "#rps1 cat" not in body  # cat had no password: no password line
        assert "you have taken over cat" in table.ack("dan@example.org")
        # The old address is told, the others that the deadline moved (names only).
        (old,) = mails_to(fresh, "cat@example.org")
        assert "your position cat is handed on" in str(old["Subject"])
        for reader in ("ann", "bob"):
            (notice,) = mails_to(fresh, f"{reader}@example.org")
            flat = " ".join(text_of(notice).split())
            assert "moved on by 2 days for everyone: it is now Sunday 10 January 2027, 17:00 UTC" in flat

        # dan's mail is cat's orders now; cat's old address is a stranger's.
        table.send("dan@example.org", "throw paper")
        table.intake()
        assert "Hello cat," in table.ack("dan@example.org")
        table.send("cat@example.org", "throw scissors")
        table.intake()
        assert "Hello cat," not in table.ack("cat@example.org")
        # His RESEND brings the position's last printout, the one mailed to cat.
        table.send("dan@example.org", "RESEND")
        fresh = table.intake()
        (again,) = [m for m in fresh if str(m["Subject"]) == "[rps1] turn 1 printout for cat (sent again)"]
        assert str(again["To"]) == "dan@example.org" and text_of(again) == table.printout("rps1", 1, "cat")

        # The GM replaces bob, who has a password: his substitute gets a new one, the old no longer works.
        player(table, "replace", "rps1", "bob", "eve@example.org")
        assert deadline(table, "rps1", 2) == due + timedelta(days=4)
        fresh = table.intake()
        (handover,) = [m for m in mails_to(fresh, "eve@example.org") if "you take over bob" in str(m["Subject"])]
        found = re.search(r"#rps1 bob (\S+)", text_of(handover))
        assert found is not None and found.group(1) != "sesame"
        assert "The last printout of bob" in text_of(handover)
        table.send("eve@example.org", f"#rps1 bob {found.group(1)}\nthrow rock")
        table.intake()
        assert "Hello bob," in table.ack("eve@example.org") and "Understood (1)" in table.ack("eve@example.org")
        table.send("eve@example.org", "#rps1 bob sesame\nthrow paper")
        table.intake()
        assert "Understood" not in table.ack("eve@example.org")

        # ann moves: both her addresses are told.
        player(table, "address", "rps1", "ann", "ann@new.example.org")
        fresh = table.intake()
        for address in ("ann@example.org", "ann@new.example.org"):
            (told,) = mails_to(fresh, address)
            assert "from ann@example.org\n  to   ann@new.example.org" in text_of(told)
        table.send("ann@new.example.org", "throw rock")
        table.intake()
        assert "Hello ann," in table.ack("ann@new.example.org")

        # The turn's mail goes to the new addresses; the newsletter names the positions handed on.
        mails = table.run_turn("rps1")
        assert {str(m["To"]) for m in mails if "printout" in str(m["Subject"])} == {
            "ann@new.example.org", "eve@example.org", "dan@example.org"}
        letter = table.newsletter("rps1", 2)
        assert "cat's position has a new player" in letter and "bob's position has a new player" in letter

        # The GM's list: the handovers, with addresses (his alone).
        player(table, "standby", "rps1")
        scan_for_addresses(table, {"ann": {"ann@example.org", "ann@new.example.org"}, "bob": {"bob@example.org"},
                                   "cat": {"cat@example.org"}, "dan": {"dan@example.org"},
                                   "eve": {"eve@example.org"}})


def test_the_extension_survives_a_restart_and_is_configurable(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("rps1", "rps", EXAMPLE_SETUP, schedule=SCHEDULE)
        table._config["games"][0]["substitutes"] = {"extension": "36h"}
        from dataclasses import replace as dc_replace

        from maild.config import parse_config
        from maild.games import sync_games

        table.app.config = dc_replace(parse_config(table._config, table.folder, None), limits=table.app.config.limits)
        player(table, "replace", "rps1", "cat", "dan@example.org")
        assert deadline(table, "rps1", 1) == datetime(2027, 1, 8, 5, 0, tzinfo=UTC)
        with table.app.db.session() as s:  # a restart takes the deadlines from the config again
            sync_games(s, table.app.config, table.now())
            s.commit()
        assert deadline(table, "rps1", 1) == datetime(2027, 1, 8, 5, 0, tzinfo=UTC)


class NoSubstitutes(RockPaperScissors):
    name = "rpsnosub"
    takes_substitutes = False


def test_a_ruleset_may_take_no_substitutes(tmp_path: Path) -> None:
    register(NoSubstitutes())
    try:
        with Table(tmp_path) as table:
            table.create_game("own1", "rpsnosub", EXAMPLE_SETUP)
            table.intake()
            with pytest.raises(GameError, match="take no substitutes"):
                player(table, "replace", "own1", "cat", "dan@example.org")
            table.send("dan@example.org", "STANDBY own1")
            table.intake()
            assert "own1 takes no substitutes" in table.ack("dan@example.org")
            table.send("ann@example.org", "HELP")
            table.intake()
            help_ = table.ack("ann@example.org")
            assert "RESEND" in help_ and "STANDBY" not in help_ and "TAKEOVER" not in help_
    finally:
        unregister("rpsnosub")


def test_a_replace_to_an_address_in_the_game_is_refused(tmp_path: Path) -> None:
    with Table(tmp_path) as table:
        table.create_game("rps1", "rps", EXAMPLE_SETUP)
        with pytest.raises(GameError, match="already ann's address"):
            player(table, "replace", "rps1", "cat", "ann@example.org")
        with pytest.raises(GameError, match="no player"):
            player(table, "open", "rps1", "zed")
        # A game without deadlines (the GM runs its turns) has none to move: the others hear of the new player only.
        table.intake()
        player(table, "replace", "rps1", "cat", "dan@example.org")
        fresh = table.intake()
        (notice,) = mails_to(fresh, "ann@example.org")
        assert "a substitute has taken over the position cat." in text_of(notice)
        assert "moved" not in text_of(notice)
        (handover,) = mails_to(fresh, "dan@example.org")
        assert "moved on" not in text_of(handover)


@pytest.mark.parametrize("command", ["replace", "open", "address", "standby"])
def test_each_player_command_has_help_with_an_example(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    from maild.cli import main

    with pytest.raises(SystemExit):
        main(["player", command, "--help"])
    assert f"example:\n  maild player {command} " in capsys.readouterr().out
