"""`maild turn run NAME --turn N [--phase P] [--yes]`: the GM runs the turn he names, never the one after it.

A re-run after the command died past its commit is refused instead of running the next turn a day early with
no orders; without `--turn` the command asks on a terminal and runs nothing without one. A turn or a phase
that ran and a game that is over exit 0, a turn that failed 1, a turn that is not the open one 2."""

from __future__ import annotations

import os
import pty
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import write_gm_config
from tests.mailflow import gm_command, gm_config
from tests.phasegame.game import installed

NOW = "2026-11-22T10:00+01:00"


@pytest.fixture
def gm(tmp_path: Path) -> Path:
    return gm_config(tmp_path, NOW)


def maild(config: Path, *args: str) -> int:
    return gm_command(config, NOW, *args)


def turns(config: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(config.parent / "maild.db") as db:
        return db.execute("SELECT number, status FROM turns ORDER BY number").fetchall()


def command(config: Path, *args: str, crash: str | None = None, stdin: int | None = subprocess.DEVNULL
            ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "MAILD_CRASH_AT"}
    if crash:
        env["MAILD_CRASH_AT"] = crash
    return subprocess.run([sys.executable, "-m", "maild", "--config", str(config), "--now", NOW, *args],
                          capture_output=True, text=True, env=env, timeout=120, cwd=config.parent, stdin=stdin)


def test_the_named_turn_runs(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert maild(gm, "turn", "run", "venice1", "--turn", "1") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "venice1 turn 1: done"
    assert out[1].startswith("3 printouts and the newsletter (1 mail) queued in the outbox")
    assert turns(gm) == [(1, "done"), (2, "open")]


def test_a_rerun_after_a_crash_past_the_commit_never_runs_the_next_turn(gm: Path) -> None:
    died = command(gm, "turn", "run", "venice1", "--turn", "1", crash="turn.committed")
    assert died.returncode == -9  # killed after the turn's commit, before it could say so
    assert turns(gm) == [(1, "done"), (2, "open")]
    again = command(gm, "turn", "run", "venice1", "--turn", "1")
    assert again.returncode == 2
    assert again.stderr.splitlines()[-1] == "maild: turn 1 of venice1 is already done; the open turn is 2"
    assert again.stdout == ""
    assert turns(gm) == [(1, "done"), (2, "open")]  # turn 2 waits for its deadline and its orders


def test_a_turn_not_open_yet_is_refused(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert maild(gm, "turn", "run", "venice1", "--turn", "3") == 2
    assert capsys.readouterr().err == "maild: turn 3 of venice1 is not open yet; the open turn is 1\n"
    assert turns(gm) == [(1, "open")]


def test_without_a_terminal_and_unnamed_nothing_runs(gm: Path) -> None:
    result = command(gm, "turn", "run", "venice1")
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        "venice1: turn 1, deadline Sunday 22 November 2026, 17:15 CET (Europe/Rome)",
        "  orders on file from: nobody",
        "  no orders from: alice, bob, carol"]
    assert result.stderr.splitlines()[-1] == ("maild: turn run venice1: name the turn to run: maild turn run "
                                              "venice1 --turn 1 (or --yes for whatever turn is open)")
    assert turns(gm) == [(1, "open")]


def asked(config: Path, answer: str) -> subprocess.CompletedProcess[str]:
    """`turn run venice1` with its standard input a terminal (a pseudo-terminal), answering `answer`."""
    main_fd, term_fd = pty.openpty()
    try:
        os.write(main_fd, f"{answer}\n".encode())
        return command(config, "turn", "run", "venice1", stdin=term_fd)
    finally:
        os.close(term_fd)
        os.close(main_fd)


def test_on_a_terminal_it_asks_and_runs_only_on_yes(gm: Path) -> None:
    a = gm.parent / "a.eml"
    a.write_text("From: alice@example.org\nTo: gm@example.org\nSubject: bids\nMessage-ID: <a@x>\n\n"
                 "bid 5$ for 1 of silk tax\n")
    assert maild(gm, "mail", "ingest", str(a)) == 0
    no = asked(gm, "n")
    assert no.returncode == 1
    # The question goes to the terminal by stderr, as prompts do (stdout may be piped or held back).
    assert no.stdout == ""
    assert no.stderr.endswith("venice1: turn 1, deadline Sunday 22 November 2026, 17:15 CET (Europe/Rome)\n"
                              "  orders on file from: alice\n  no orders from: bob, carol\n"
                              "run turn 1 of venice1 now? [y/N] "
                              "nothing was run; maild turn run venice1 --turn 1 runs it without asking\n")
    assert turns(gm) == [(1, "open")]
    yes = asked(gm, "y")
    assert yes.returncode == 0, yes.stderr
    assert yes.stdout.startswith("venice1 turn 1: done\n")
    assert "run turn 1 of venice1 now? [y/N] " in yes.stderr
    assert turns(gm) == [(1, "done"), (2, "open")]


def test_yes_runs_whatever_turn_is_open(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert maild(gm, "turn", "run", "venice1", "--turn", "1") == 0
    capsys.readouterr()
    assert maild(gm, "turn", "run", "venice1", "--yes") == 0
    assert capsys.readouterr().out.splitlines()[0] == "venice1 turn 2: done"


def test_a_finished_game_is_no_error(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for n in range(1, 8):
        assert maild(gm, "turn", "run", "venice1", "--turn", str(n)) == 0
    capsys.readouterr()
    assert maild(gm, "turn", "run", "venice1", "--turn", "8") == 0
    assert capsys.readouterr().out == "venice1: the game is over (finished after turn 7); nothing to run\n"
    assert maild(gm, "turn", "run", "venice1", "--yes") == 0
    assert capsys.readouterr().out == "venice1: the game is over (finished after turn 7); nothing to run\n"


@pytest.fixture
def duo(tmp_path: Path) -> Iterator[Path]:
    """A game of two phases a turn (tests/phasegame), made by the GM's commands, each player's pick on file."""
    with installed():
        config = write_gm_config(tmp_path, outbox="out")
        setup = tmp_path / "duo.toml"
        setup.write_text("".join(f'[[players]]\nname = "{n}"\nemail = "{n}@example.org"\n' for n in ("ann", "ben")))
        assert maild(config, "game", "create", "duo", "--ruleset", "twophase", "--setup", str(setup)) == 0
        mails = []
        for n, who in enumerate(("ann", "ben"), start=1):
            path = tmp_path / f"{who}.eml"
            path.write_text(f"From: {who}@example.org\nTo: gm@example.org\nSubject: [duo] pick\n"
                            f"Message-ID: <{who}@x>\n\npick {n}\n")
            mails.append(str(path))
        assert maild(config, "mail", "ingest", *mails) == 0
        yield config


def test_a_phase_step_exits_0_and_names_the_next(duo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert maild(duo, "turn", "run", "duo", "--turn", "1") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "duo turn 1: phase_done morning done, afternoon open"
    assert out[-1] == "the afternoon of turn 1 is open now: maild turn run duo --turn 1 --phase afternoon runs it"
    # The morning again (the command died after its commit, say): refused, the afternoon is not run early.
    assert maild(duo, "turn", "run", "duo", "--turn", "1", "--phase", "morning") == 2
    assert capsys.readouterr().err == "maild: the open phase of turn 1 of duo is the afternoon, not the morning\n"
    assert maild(duo, "turn", "run", "duo", "--turn", "1", "--phase", "afternoon") == 0
    assert capsys.readouterr().out.splitlines()[0] == "duo turn 1: done afternoon done, the turn is over"


def test_a_phase_named_in_a_game_without_phases_is_refused(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert maild(gm, "turn", "run", "venice1", "--turn", "1", "--phase", "bids") == 2
    assert capsys.readouterr().err == "maild: venice1 has no phases: run it without --phase\n"


def test_a_held_turn_is_shown_held_and_run_when_named(gm: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `turn run` is the GM's override of the safety gate: the plan says the turn is held, the named run runs it.
    with sqlite3.connect(gm.parent / "maild.db") as db:
        db.execute("UPDATE turns SET status = 'held', note = '3 of 3 players have nothing on file (100%; usually 0%)'")
    result = command(gm, "turn", "run", "venice1")
    assert result.returncode == 2
    assert result.stdout.splitlines()[-1] == ("  HELD by the safety gate: 3 of 3 players have nothing on file "
                                              "(100%; usually 0%) (running it overrides the gate)")
    assert maild(gm, "turn", "run", "venice1", "--turn", "1") == 0
    assert turns(gm) == [(1, "done"), (2, "open")]
