"""Mail commands: HELP and STATUS are the framework's, CANCEL only where a ruleset keeps late orders that can be
cancelled, CODESHEET Renaissance's, SCORES the tiny game's. A mail's words are recognised before its game is
known (every installed ruleset's), and answered only if the routed game has them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from maild.cli import main
from maild.intake.header import line_command, subject_command
from maild.ruleset import FRAMEWORK_COMMANDS, command_words, load_ruleset, register, unregister
from maild.testing import Table
from tests.conftest import VENICE_SETUP
from tests.rps_game import EXAMPLE_SETUP, RockPaperScissors

# The services of a season every game has (docs/season.md), and a volunteer's words where the game takes
# substitutes (every game here does: `Ruleset.takes_substitutes` defaults to True).
SEASON = {"RESEND", "HISTORY", "STANDBY", "TAKEOVER"}


def test_each_game_has_the_framework_words_and_its_own() -> None:
    assert command_words(load_ruleset("venice")) == {"HELP", "STATUS", *SEASON}  # no late_cancel_days: no CANCEL
    assert command_words(load_ruleset("renaissance")) == {"HELP", "STATUS", "CANCEL", "CODESHEET", *SEASON}
    assert command_words(RockPaperScissors()) == {"HELP", "STATUS", "SCORES", *SEASON}
    assert {c.word for c in FRAMEWORK_COMMANDS} == {"HELP", "STATUS"}
    assert line_command("History 12.") == "history 12" and line_command("TAKEOVER rps1 ann") == "takeover rps1 ann"
    assert line_command("status 12") is None  # only the words that take words after them


def test_before_routing_every_installed_games_words_are_recognised() -> None:
    venice = command_words(load_ruleset("venice"))
    assert line_command("CODESHEET", venice) is None and line_command("**Help**", venice) == "help"
    assert line_command("codesheet.") == "codesheet"  # Renaissance is installed
    # The tests' own games (tests/rps_game.py and its variants) are registered when imported: without them,
    # SCORES is no word; with them, it is at once.
    from maild import ruleset as contract

    games = list(contract._REGISTERED.values())
    for game in games:
        unregister(game.name)
    try:
        assert line_command("Scores") is None
    finally:
        for game in games:
            register(game)
    assert line_command("Scores!") == "scores" and subject_command("Re: [rps1] SCORES") == "scores"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    (tmp_path / "venice.toml").write_text(VENICE_SETUP)
    with Table(tmp_path) as table:
        table.create_game("venice1", "venice", tmp_path / "venice.toml")
        table.create_game("rps1", "rps", EXAMPLE_SETUP, address="rps@example.org")
        yield table


def test_a_word_the_routed_game_lacks_is_named_not_answered(table: Table) -> None:
    table.send("alice@example.org", "CODESHEET")
    table.intake()
    ack = table.ack("alice@example.org")
    assert "held no orders" in ack
    assert ("CODESHEET is not a command of venice1 (it has HELP, HISTORY, RESEND, STANDBY, STATUS, TAKEOVER)"
            in " ".join(ack.split()))
    assert "ACTION CODES" not in ack
    # CANCEL is the late-cancel service's, and Venice keeps no late orders to cancel.
    table.send("alice@example.org", "cancel")
    table.intake()
    assert "CANCEL is not a command of venice1" in table.ack("alice@example.org")


def test_a_games_own_command_is_answered_and_listed_by_help(table: Table) -> None:
    table.send("ann@example.org", "throw rock\nSCORES", to="rps@example.org")
    table.send("cat@example.org", "", subject="Re: [rps1] help", to="rps@example.org")
    table.intake()
    ann = table.ack("ann@example.org")
    assert "line 1: throw rock" in ann and "rps1: SCORES (turn 1)\n\n  1. ann: 0\n" in ann
    help_ = table.ack("cat@example.org")
    # The framework's HELP, from the contract: the orders declared, and the commands, the game's own included.
    assert "throw rock|paper|scissors    your throw this round" in help_
    assert "  SCORES       the standings so far" in help_ and "CANCEL" not in help_


@pytest.mark.parametrize(("ruleset", "status"), [("venice", 1), ("renaissance", 0)])
def test_orders_check_reads_the_words_of_the_ruleset_named(tmp_path: Path, ruleset: str, status: int) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("CODESHEET\n")
    # Venice has no CODESHEET: the line is an order it does not understand. For Renaissance it is a command.
    assert main(["orders", "check", "--ruleset", ruleset, str(orders)]) == status
