"""`maild turn preview GAME` (maild/preview.py): before the deadline, who has nothing on file, what the
deadline would do (grace, absences), who would play on default orders and climb the missed-orders ladder,
what the safety gate would do, and the turn's result as a dry run: nothing stored, nothing sent. Through the
daemon (maild.testing.Table) with the tiny game, on SQLite and PostgreSQL; a game of phases previews its open
phase."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from maild.cli import build_parser, cmd_turn
from maild.models import InboundMail, OrderSetRow, OutboundMail, Snapshot, Turn
from maild.preview import preview, report
from maild.testing import Table
from tests.mailflow import run_pass
from tests.phasegame.flow import MORNING, make_phase_app, send
from tests.phasegame.game import installed
from tests.season_games import daily, season_setup

LADDER = {"defaults_after": 2, "disorder_after": 3, "remove_after": 4}
ANN, BOB, CAT = "ann@example.org", "bob@example.org", "cat@example.org"


def _rows(table: Table) -> tuple[int, ...]:
    """How many rows the tables a turn writes hold: a preview must leave them all as they were."""
    with table.app.db.session() as s:
        return tuple(s.scalar(select(func.count()).select_from(t)) or 0
                     for t in (OutboundMail, Snapshot, Turn, OrderSetRow, InboundMail))


def _game(table: Table, **options: object) -> None:
    table.create_game("rps1", "rps_standing", season_setup(), schedule=daily(), seed=3,
                      options={"missed": LADDER, **options})
    table.intake()  # the welcomes
    table.advance(hours=3)  # 2027-01-04 12:00, a day before the first deadline


def test_a_preview_before_the_deadline_says_what_it_would_bring(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        _game(table, grace="6h")
        table.send(ANN, "throw paper")
        table.send(BOB, "#rps1 bob sesame\nthrow scissors")
        table.intake()
        before = _rows(table)
        p = preview(table.app, "rps1")
        assert _rows(table) == before and table.intake() == []  # nothing stored, nothing sent
        assert (p.turn, p.phase, p.with_orders, p.without_orders) == (1, None, ["ann", "bob"], ["cat"])
        assert p.deadline == "Tuesday 05 January 2027, 12:00 UTC (UTC)"
        # The grace: 6 hours after the deadline, for cat alone.
        assert p.at_deadline.startswith("a grace until Tuesday 05 January 2027, 18:00 UTC (UTC) for cat")
        assert p.defaults == []  # cat is on no step of the ladder yet
        assert p.ladder == ["ladder: nobody on it", "next on the ladder if silent: cat -> warned"]
        # 1 of 3 silent (33%) is under the gate's 50%.
        assert p.gate == ("would let the turn run: 1 of 3 players (33%) have nothing on file, usually 0%; it holds "
                          "at 50% and 25% above the usual")
        dry = p.dry_run
        assert dry is not None and dry.error is None and not dry.finished
        assert sorted(dry.printouts) == ["ann", "bob", "cat"]
        # cat sent nothing: his throw is drawn by lot, as the run would (the turn's recorded seed).
        assert "cat: " in dry.newsletter and "(by lot)" in dry.newsletter
        assert "ann: paper" in dry.newsletter and "bob: scissors" in dry.newsletter

        # The dry run is the turn's result: the run gives the same newsletter (but the next deadline's line).
        table.advance(days=1, hours=1)  # past the deadline: the grace starts
        assert [str(m["Subject"]) for m in table.intake()] == ["[rps1] late for turn 1",
                                                               "[rps1] turn 1 waits for late players"]
        during = preview(table.app, "rps1", dry_run=False)
        assert during.at_deadline == "the grace is running (late: cat): the turn runs at this deadline"
        assert during.deadline == "Tuesday 05 January 2027, 18:00 UTC (UTC)"
        table.advance(hours=6)  # past the end of the grace
        table.intake()
        ran = table.newsletter("rps1", 1)
        assert ran.split("Next deadline")[0] == dry.newsletter.split("Next deadline")[0]


def test_a_silent_player_on_the_ladder_plays_on_defaults_in_the_dry_run(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        _game(table)
        for _ in range(2):  # cat is silent two turns: warned, then on default orders
            table.send(ANN, "throw paper")
            table.send(BOB, "#rps1 bob sesame\nthrow scissors")
            table.intake()
            table.advance(days=1)
            table.intake()
        p = preview(table.app, "rps1")
        assert (p.turn, p.without_orders, p.defaults) == (3, ["ann", "bob", "cat"], ["cat"])
        assert p.ladder == ["ladder: cat defaults (2 missed)",
                            "next on the ladder if silent: ann -> warned, bob -> warned, cat -> disorder"]
        assert p.at_deadline == "the turn runs without ann, bob, cat"
        # All three silent (100%) against a usual third (33%): the gate would hold the turn.
        assert p.gate.startswith("would HOLD the turn: 3 of 3 players (100%) have nothing on file, usually 33%")
        assert p.dry_run is not None
        # cat's default: the ruleset's standing orders, rock as he never threw; ann's and bob's by lot.
        assert "cat: rock\n" in p.dry_run.newsletter

        text = report(p, printout="cat")
        assert "rps1: turn 3, deadline Thursday 07 January 2027, 12:00 UTC (UTC)" in text
        assert "  on default orders if still silent: cat" in text
        assert "  safety gate: would HOLD the turn" in text
        assert ("dry run with the orders on file now (if it ran: the gate would hold it) (nothing stored, nothing "
                "sent):") in text
        assert "printout for cat:\n" in text and "rock" in text.split("printout for cat:")[1]


def test_the_command_line_report_json_and_help(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Table(tmp_path) as table:
        _game(table)
        capsys.readouterr()
        args = argparse.Namespace(turn_cmd="preview", name="rps1", printout=None, dry_run=True, json=True)
        assert cmd_turn(table.app, args) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["without_orders"] == ["ann", "bob", "cat"] and data["dry_run"]["printouts"].keys() == {
            "ann", "bob", "cat"}
        args = argparse.Namespace(turn_cmd="preview", name="rps1", printout=None, dry_run=False, json=False)
        assert cmd_turn(table.app, args) == 0
        out = capsys.readouterr().out
        assert out.startswith("rps1: turn 1, deadline") and "dry run" not in out
    with pytest.raises(SystemExit):
        build_parser().parse_args(["turn", "preview", "--help"])
    assert "maild turn preview venice1 --json" in capsys.readouterr().out


@pytest.fixture
def twophase() -> Iterator[None]:
    with installed():
        yield


def test_a_game_of_phases_previews_its_open_phase(tmp_path: Path, db_url: str, twophase: None) -> None:
    app = make_phase_app(tmp_path, db_url)
    at = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    send(app, "alice", "pick 3", at)
    send(app, "bob", "pick 5", at)
    run_pass(app, at)
    p = preview(app, "duo")
    assert (p.turn, p.phase, p.with_orders, p.without_orders) == (1, "morning", ["alice", "bob"], ["carol"])
    assert p.deadline is not None and MORNING.strftime("%H:%M") in p.deadline
    assert p.gate == "not asked: a phase runs without the gate"
    assert p.dry_run is not None and p.dry_run.error is None, p.dry_run
    assert set(p.dry_run.printouts) <= {"alice", "bob", "carol"} and p.dry_run.printouts
