"""Pause, resume and extend, and a deadline changed in the config, each announced to every player (issue 26,
"Pause and extend"; docs/season.md). Figures: rps1's schedule is every day at 18:00 in Europe/Berlin (17:00 UTC
in January); the game starts Monday 4 January 2027 at 09:00 UTC, so turn 1 is due at 17:00 UTC that day."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from maild.config import parse_config
from maild.deadline_changes import extend, pause, resume
from maild.errors import GameError
from maild.games import get_game, get_turn
from maild.testing import Table, text_of
from tests import rps_game  # noqa: F401 - registers rps
from tests.rps_game import EXAMPLE_SETUP

PLAYERS = ("ann@example.org", "bob@example.org", "cat@example.org")
SCHEDULE = {"timezone": "Europe/Berlin", "cron": "0 18 * * *"}


@pytest.fixture
def table(tmp_path: Path, db_url: str) -> Iterator[Table]:
    with Table(tmp_path, db_url=db_url) as t:
        t.create_game("rps1", "rps", copy.deepcopy(EXAMPLE_SETUP), schedule=dict(SCHEDULE))
        t.intake()
        yield t


def deadline(table: Table) -> datetime | None:
    with table.app.db.session() as s:
        game = get_game(s, "rps1")
        turn = get_turn(s, game, game.turn)
        assert turn is not None
        return turn.deadline


def announced(mails: list[EmailMessage], what: str) -> list[EmailMessage]:
    found = [m for m in mails if str(m["Subject"]).startswith(f"[rps1] {what}")]
    assert sorted(str(m["To"]) for m in found) == list(PLAYERS), [str(m["Subject"]) for m in mails]
    return found


def gm(table: Table, change, *args: object) -> str:  # type: ignore[no-untyped-def]
    return table.app.db.transaction(lambda s: change(s, table.app, "rps1", *args))


def test_a_pause_freezes_the_deadline_and_resume_gives_the_time_left_back(table: Table) -> None:
    assert deadline(table) == datetime(2027, 1, 4, 17, 0, tzinfo=UTC)
    table.advance(hours=1)  # 10:00 UTC: seven hours left
    assert "players told" in gm(table, pause)
    [mail, *_] = announced(table.intake(), "paused")
    assert "The game is paused" in text_of(mail)
    table.send("ann@example.org", "throw rock")  # orders are still taken
    table.send("bob@example.org", "#rps1 bob sesame\nthrow paper")
    table.send("cat@example.org", "throw paper")
    acked = [m for m in table.intake() if str(m["To"]) == "ann@example.org"]
    assert "but the game is paused: you will be told the new deadline" in text_of(acked[0])
    table.advance(hours=10)  # 20:00 UTC, past the deadline: no turn runs, no printout
    mails = table.intake()
    assert not [m for m in mails if "printout" in str(m["Subject"])]
    with table.app.db.session() as s:
        assert get_game(s, "rps1").turn == 1
    said = gm(table, resume)  # paused ten hours: due ten hours later, 03:00 UTC, 04:00 in Berlin
    assert "after 10 hours" in said
    assert deadline(table) == datetime(2027, 1, 5, 3, 0, tzinfo=UTC)
    [mail, *_] = announced(table.intake(), "resumed")
    assert "Tuesday 05 January 2027, 04:00 CET (Europe/Berlin)" in text_of(mail)
    assert "10 hours later than before" in text_of(mail)
    table.advance(hours=7, minutes=1)
    assert [m for m in table.intake() if "turn 1 printout" in str(m["Subject"])]
    # turn 2 follows the cron rule from the deadline before it: the next 18:00 in Berlin.
    assert deadline(table) == datetime(2027, 1, 5, 17, 0, tzinfo=UTC)


def test_extend_is_announced_and_kept_when_the_config_is_read_again(table: Table) -> None:
    assert "extended by 2 days" in gm(table, extend, timedelta(days=2))
    assert deadline(table) == datetime(2027, 1, 6, 17, 0, tzinfo=UTC)
    [mail, *_] = announced(table.intake(), "extended")  # the pass reads the config again: the extension stays
    assert "Wednesday 06 January 2027, 18:00 CET (Europe/Berlin)" in text_of(mail)
    assert deadline(table) == datetime(2027, 1, 6, 17, 0, tzinfo=UTC)
    table.advance(days=1, hours=9)  # past the config's deadline of Tuesday, before Wednesday's
    assert not [m for m in table.intake() if "printout" in str(m["Subject"])]
    with pytest.raises(GameError):
        gm(table, extend, timedelta())


def test_a_deadline_moved_earlier_in_the_config_is_announced_at_the_next_start(table: Table) -> None:
    for entry in table._config["games"]:
        if entry["name"] == "rps1":
            entry["schedule"] = {"timezone": "Europe/Berlin", "cron": "0 12 * * *"}
    table.app.config = replace(parse_config(table._config, table.folder, None), limits=table.app.config.limits)
    [mail, *_] = announced(table.intake(), "deadline changed")
    assert deadline(table) == datetime(2027, 1, 4, 11, 0, tzinfo=UTC)
    assert "EARLIER than before (Monday 04 January 2027, 18:00 CET" in text_of(mail)
    assert "Monday 04 January 2027, 12:00 CET (Europe/Berlin)" in text_of(mail)
    assert not [m for m in table.intake() if "deadline changed" in str(m["Subject"])]  # told once


def test_game_list_shows_a_pause_and_an_extension(table: Table) -> None:
    from maild.cli import game_line
    from maild.models import Game

    gm(table, extend, timedelta(hours=12))
    gm(table, pause)
    with table.app.db.session() as s:
        line = game_line(s, s.scalars(select(Game).where(Game.name == "rps1")).one())
    assert "PAUSED since 2027-01-04 09:00 UTC" in line and "extended by 12 hours" in line


def test_the_commands_by_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from maild.cli import main
    from tests.conftest import write_gm_config

    config = write_gm_config(tmp_path, outbox="out")

    def maild(*args: str) -> int:
        return main(["--config", str(config), "--now", "2026-11-22T09:00+01:00", *args])

    assert maild("init") == 0
    assert maild("game", "extend", "venice1", "2d") == 0
    assert "venice1 extended by 2 days: turn 1's deadline is Tuesday 24 November 2026" in capsys.readouterr().out
    assert maild("game", "pause", "venice1") == 0
    assert "venice1 paused" in capsys.readouterr().out
    assert maild("game", "list") == 0
    assert "PAUSED since" in capsys.readouterr().out
    assert maild("game", "extend", "venice1", "soon") == 2
    assert maild("game", "resume", "venice1") == 0
    assert "venice1 resumed after less than a minute" in capsys.readouterr().out


def test_an_extension_in_a_game_of_phases_is_the_open_phases(tmp_path: Path, db_url: str) -> None:
    """tests/phasegame: the morning is due at 12:00 UTC, the afternoon at 18:00. Two hours more for the morning
    move it to 14:00; the afternoon keeps the config's 18:00."""
    from maild.clock import Clock
    from maild.models import TurnPhase
    from tests.mailflow import run_pass
    from tests.phasegame.flow import AFTERNOON, MORNING, START, mails_to, make_phase_app, send
    from tests.phasegame.game import installed

    with installed():
        app = make_phase_app(tmp_path, db_url)
        run_pass(app, START)
        app.clock = Clock(START, frozen=True)
        said = app.db.transaction(lambda s: extend(s, app, "duo", timedelta(hours=2)))
        assert "extended by 2 hours" in said

        def phases() -> list[tuple[str, str, datetime | None]]:
            with app.db.session() as s:
                return [(r.name, r.status, r.deadline) for r in s.scalars(
                    select(TurnPhase).where(TurnPhase.turn == 1).order_by(TurnPhase.position))]

        assert phases() == [("morning", "open", MORNING + timedelta(hours=2))]
        # Different picks, and above the 1 to 10 drawn for silent carol: no vote; carol's silence keeps the
        # morning open until its deadline.
        for who, pick in (("alice", 11), ("bob", 12)):
            send(app, who, f"pick {pick}", START)
        run_pass(app, MORNING + timedelta(minutes=30))  # past the config's noon: the morning waits (and is kept)
        assert phases() == [("morning", "open", MORNING + timedelta(hours=2))]
        assert len(mails_to(app, "carol", "extended")) == 1
        run_pass(app, MORNING + timedelta(hours=2, minutes=1))
        assert phases() == [("morning", "done", MORNING + timedelta(hours=2)), ("afternoon", "open", AFTERNOON)]
