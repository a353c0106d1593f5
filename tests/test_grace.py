"""Grace at a deadline (per game `grace`, maild/grace.py) through the daemon, on SQLite and PostgreSQL: the late
are reminded, the others told who is late (names, never addresses), the turn runs at the end of the grace or
as soon as all have sent; the safety gate still judges it; a game of phases gives its phase's deadline grace."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from maild.cli import season_lines
from maild.games import get_game, get_turn
from maild.testing import Table, text_of
from tests.phasegame.flow import AT, SETUP, START
from tests.phasegame.game import installed
from tests.season_games import daily, season_setup

ADDRESSES = ("ann@example.org", "bob@example.org", "cat@example.org")


def _subjects(mails: list) -> list[tuple[str, str]]:
    return [(str(m["To"]), str(m["Subject"])) for m in mails]


def _game_turn(table: Table, name: str = "rps1") -> tuple[int, datetime | None]:
    with table.app.db.session() as s:
        game = get_game(s, name)
        turn = get_turn(s, game, game.turn)
        return game.turn, turn.deadline if turn else None


def test_a_late_player_gets_grace_and_the_turn_runs_when_he_sends(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps", season_setup(), schedule=daily(), options={"grace": "24h"})
        table.intake()
        table.send("ann@example.org", "throw paper")
        table.send("bob@example.org", "#rps1 bob sesame\nthrow rock")
        table.intake()
        table.advance(hours=27, minutes=1)  # 2027-01-05 12:01: the deadline of turn 1 has passed, cat is late
        mails = table.intake()
        assert not [m for m in mails if "newsletter" in str(m["Subject"])]  # the turn waits
        assert _game_turn(table) == (1, datetime(2027, 1, 6, 12, 0, tzinfo=UTC))  # noon + 24h
        [late] = [m for m in mails if str(m["To"]) == "cat@example.org"]
        assert str(late["Subject"]) == "[rps1] late for turn 1"
        assert "The game waits for you until Wednesday 06 January 2027, 12:00 UTC (UTC)" in text_of(late)
        [told] = [m for m in mails if "waits for late players" in str(m["Subject"])]
        assert str(told["To"]) == "undisclosed-recipients:;"  # ann and bob, neither sees the other's address
        assert "orders are still missing from: cat." in text_of(told)
        assert not any(a in text_of(told) or a in str(told["To"]) for a in ADDRESSES)
        with table.app.db.session() as s:
            assert season_lines(s, table.app, get_game(s, "rps1")) == [
                "in grace until 2027-01-06T12:00:00+00:00 (deadline was 2027-01-05T12:00:00+00:00; late: cat)"]
        table.advance(hours=3)  # 15:01: cat sends, and the turn runs at once
        table.send("cat@example.org", "throw scissors")
        table.intake()
        assert "cat: scissors" in table.newsletter("rps1", 1)
        assert _game_turn(table)[0] == 2
        assert table.intake() == []  # no second reminder, no second run


def test_the_turn_runs_at_the_end_of_the_grace_and_the_gate_still_applies(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        # Deadlines every other day: a grace of a day ends before the next deadline.
        table.create_game("rps1", "rps", season_setup(), schedule=daily(days=4) | {
            "at": ["2027-01-05T12:00:00", "2027-01-07T12:00:00", "2027-01-09T12:00:00"]}, options={"grace": "1d"})
        table.intake()
        table.send("ann@example.org", "throw paper")
        table.send("bob@example.org", "#rps1 bob sesame\nthrow rock")
        table.intake()
        table.advance(hours=27, minutes=1)
        table.intake()  # grace for cat
        table.advance(hours=23, minutes=58)  # 2027-01-06 11:59: still in grace
        assert not [m for m in table.intake() if "newsletter" in str(m["Subject"])]
        table.advance(minutes=2)  # 12:01: the grace is over, the turn runs without cat
        table.intake()
        assert "cat: " in table.newsletter("rps1", 1) and "(by lot)" in table.newsletter("rps1", 1)
        # Turn 2: only ann sends. Two of three missing: the grace first, then the gate holds the turn.
        table.send("ann@example.org", "throw paper")
        table.intake()
        table.advance(days=1)  # 2027-01-07 12:01
        mails = table.intake()
        assert {s for _to, s in _subjects(mails)} == {"[rps1] late for turn 2",
                                                      "[rps1] turn 2 waits for late players"}
        table.advance(days=1)  # 2027-01-08 12:01: the grace is over
        mails = table.intake()
        assert ("referee@example.org", "[maild] rps1: turn 2 held") in _subjects(mails)
        with table.app.db.session() as s:
            game = get_game(s, "rps1")
            assert get_turn(s, game, 2).status == "held"


def test_a_phase_deadline_gets_grace(tmp_path: Path, db_url: str) -> None:
    (tmp_path / "duo.toml").write_text(SETUP)
    with installed(), Table(tmp_path, db_url=db_url, now=START) as table:
        table.create_game("duo", "twophase", tmp_path / "duo.toml", schedule={"timezone": "UTC", "phases": AT},
                          options={"grace": "2h"})
        table.intake()
        table.send("alice@example.org", "pick 3")
        table.send("bob@example.org", "pick 5")
        table.intake()
        table.advance(hours=4, minutes=1)  # 12:01: the morning's deadline has passed, carol is late
        mails = table.intake()
        assert ("carol@example.org", "[duo] late for the morning of turn 1") in _subjects(mails)
        assert _game_turn(table, "duo") == (1, datetime(2026, 11, 21, 14, 0, tzinfo=UTC))
        table.advance(hours=2)  # 14:01: the grace is over, the morning runs
        table.intake()
        assert "morning" in table.newsletter("duo", 1, "morning")


def test_a_position_in_civil_disorder_is_not_waited_for(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps", season_setup(), options={"grace": "12h", "missed": {
            "defaults_after": 0, "disorder_after": 1}}, schedule=daily(days=4) | {
            "at": ["2027-01-05T12:00:00", "2027-01-07T12:00:00", "2027-01-09T12:00:00"]})
        table.intake()
        for day in (0, 1):
            table.send("ann@example.org", "throw paper")
            table.send("bob@example.org", "#rps1 bob sesame\nthrow rock")
            table.intake()
            table.advance(days=2) if day else table.advance(hours=27, minutes=1)
            mails = table.intake()
            if day == 0:  # turn 1: cat is late, and waited for until midnight
                assert ("cat@example.org", "[rps1] late for turn 1") in _subjects(mails)
                table.advance(hours=12)  # 2027-01-06 00:01: the turn runs; cat falls into civil disorder
                assert ("cat@example.org", "[rps1] you missed turn 1") in _subjects(table.intake())
        # Turn 2 (2027-01-07 12:01 passed): cat in civil disorder is not waited for, the turn ran at its deadline.
        assert not [s for _to, s in _subjects(mails) if "late for turn 2" in s or "waits" in s]
        assert "Round 2" in table.newsletter("rps1", 2)
