"""The contract test: every game in rules/ (found, not listed) and the tiny game of the tests
(tests/rps_game.py) is played by mail through maild.testing: HELP is answered, an empty mail is answered
sensibly, a game starts from its example setup, a turn runs with players' orders, and the turn resolved again
gives byte-identical printouts and newsletter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from maild.games import load_setup, ruleset_named
from maild.gmcli import check_declarations
from maild.passwords import is_hash, verify
from maild.paths import example_orders, setup_path
from maild.ruleset import ONE_PHASE, package_names
from maild.testing import Table
from maild.turn import rerun_turn
from tests import rps_game

# A game of the contract: the table it is played at, its ruleset, its example orders and its setup table.
Game = tuple[Table, str, dict[str, str], dict[str, Any]]


def games() -> list[Any]:
    cases = [pytest.param((name, f"example:{name}", example_orders(name)), id=name) for name in package_names()]
    cases.append(pytest.param(("rps", rps_game.EXAMPLE_SETUP, rps_game.EXAMPLE_ORDERS), id="rps"))
    return cases


@pytest.fixture(params=games())
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Game]:
    ruleset, setup, orders = request.param
    if isinstance(setup, str):
        assert setup_path(setup, tmp_path).is_file(), f"{ruleset} ships no example setup (examples/{ruleset}/)"
    with Table(tmp_path) as table:
        table.create_game("g1", ruleset, setup)
        yield table, ruleset, orders, load_setup(setup_path(setup, tmp_path)) if isinstance(setup, str) else setup


def players(game: Game) -> dict[str, tuple[str, str | None]]:
    """Player name -> (address, password) of game g1: the password as the setup gave it, which the state keeps
    only as its hash (a game that keeps the text itself, like the tests' rps, gives that)."""
    from maild.games import get_game, state_before

    table, ruleset, _orders, setup = game
    with table.app.db.session() as s:
        state = state_before(s, get_game(s, "g1"), 1)
    given = set(_passwords(setup))
    return {p.name: (p.email, p.password if p.password is None or not is_hash(p.password) else
                     next(text for text in given if verify(p.password, text)))
            for p in ruleset_named(ruleset).players(state)}


def _passwords(setup: Any) -> Iterator[str]:
    """Every text under a "password" key of a setup table."""
    if isinstance(setup, dict):
        for key, value in setup.items():
            if key == "password" and isinstance(value, str):
                yield value
            else:
                yield from _passwords(value)
    elif isinstance(setup, list):
        for value in setup:
            yield from _passwords(value)


def test_help_is_answered_to_players_and_strangers(game: Game) -> None:
    table, _ruleset, _orders, _setup = game
    address, password = next(iter(players(game).values()))
    header = f"#g1 {next(iter(players(game)))} {password}\n" if password else ""
    table.send(address, f"{header}HELP")
    table.send("newcomer@example.net", "HELP")
    table.intake()
    for who in (address, "newcomer@example.net"):
        answer = table.ack(who)
        # The game's own order sheet, or the framework's from the contract: it names the game either way.
        assert "g1" in answer.split("\n\n", 2)[-1], answer
        assert len(answer.splitlines()) > 8, answer


def test_an_empty_mail_is_answered(game: Game) -> None:
    table, _ruleset, _orders, _setup = game
    name, (address, password) = next(iter(players(game).items()))
    table.send(address, f"#g1 {name} {password}\n" if password else "", subject="")
    table.intake()
    assert "held no orders" in table.ack(address)


def test_a_turn_with_orders_and_its_rerun_gives_the_same_mail(game: Game) -> None:
    table, ruleset, orders, _setup = game
    assert check_declarations(ruleset_named(ruleset)) == []
    assert orders, f"{ruleset}: no example orders (examples/{ruleset}/orders/PLAYER.txt)"
    known = players(game)
    for name, text in orders.items():
        address, password = known[name]
        table.send(address, f"#g1 {name} {password}\n{text}" if password else text)
    table.intake()
    for name in orders:
        ack = table.ack(known[name][0])
        assert "Understood" in ack and "Not understood" not in ack and "NOT ACCEPTED" not in ack, ack
    table.run_whole_turn("g1")
    phases = [p.name for p in ruleset_named(ruleset).phases() if not p.extra]
    if phases == [ONE_PHASE]:
        printouts = {name: table.printout("g1", 1, name) for name in known}
        newsletter = table.newsletter("g1", 1)
        assert all(printouts.values()) and newsletter
        again, again_newsletter = table.replay("g1", 1)
        assert again == printouts
        assert again_newsletter == newsletter
    else:  # a game of phases (docs/phases.md): each phase's mail on its own, each resolved again the same
        replayed = table.replay_phases("g1", 1)
        # Extra phases (a vote, a further round) run where the results asked for them: the regular ones in order.
        assert [name for name in replayed if name in phases] == phases
        for phase in phases:
            printouts = {name: table.printout("g1", 1, name, phase) for name in known}
            newsletter = table.newsletter("g1", 1, phase)
            assert all(printouts.values()) and newsletter
            assert replayed[phase] == (printouts, newsletter)
    # And the GM's `maild turn rerun g1 1` finds the same state.
    assert [o.status for o in rerun_turn(table.app, "g1", 1)] == ["same"]


@pytest.mark.parametrize("template", ["help.txt.j2", "codesheet.txt.j2"])
def test_the_framework_templates_serve_every_game_from_its_declarations(template: str) -> None:
    from maild.render import render
    from maild.ruleset import installed_rulesets

    for ruleset in installed_rulesets():
        text = render(None, template, game="g1", turn=1, player=None, info={}, rules=ruleset.rules_info(),
                      command="HELP")
        assert ruleset.name.upper() in text and "g1" in text
        flat = " ".join(text.split())  # HELP wraps a long form or help to 78 columns
        for kind in ruleset.order_kinds:
            assert " ".join(kind.form.split()) in flat and " ".join(kind.help.split()) in flat
        if template == "help.txt.j2":
            # Each command with what may follow it (HISTORY [N]), and its help, wrapped under a long form.
            assert all(" ".join(f"{c.word} {c.args} {c.help}".split()) in flat for c in ruleset.commands())


def test_a_game_without_templates_gets_the_frameworks() -> None:
    from maild.render import render

    # rps has no templates/rps/: each lookup falls back to templates/X.
    assert render("rps", "codesheet.txt.j2", game="g1", turn=2, player=None, info={},
                  rules=rps_game.RULESET.rules_info(), command="CODESHEET").startswith("RPS ORDERS (g1), turn 2\n")
    printout = render("rps", "printout.txt.j2", game="g1", turn=2, player="ann", finished=False,
                      next_deadline="soon", sections=[{"title": "Score", "lines": ["ann: 3"]}])
    assert printout == "g1: turn 2 printout for ann\n\nScore\n  ann: 3\n\nNext deadline: soon.\n"
