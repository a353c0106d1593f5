"""Declared absences (ABSENT ... TO ..., BACK; [games.absence], maild/absences.py) by mail through the daemon,
on SQLite and PostgreSQL: the "defaults" rule (default orders, the ladder not counting), the cap on absent
days, the announcement without addresses, BACK, and the "move_deadline" rule."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from maild.absences import ABSENT, BACK
from maild.cli import season_lines
from maild.games import get_game, get_turn
from maild.testing import Table, text_of
from tests.season_games import daily, season_setup

ADDRESSES = ("ann@example.org", "bob@example.org", "cat@example.org")
TALKERS = {"ann@example.org": "throw paper", "bob@example.org": "#rps1 bob sesame\nthrow scissors"}


def test_the_lines_read() -> None:
    assert ABSENT.match("absent 2027-03-01 to 2027-03-14").groups() == ("2027-03-01", "2027-03-14")
    assert ABSENT.match("ABSENT 2027-03-01 - 2027-03-14") is not None
    assert ABSENT.match("absent next week") is None
    assert BACK.match("Back.") is not None and BACK.match("back soon") is None


def _day(table: Table, senders: dict[str, str]) -> list:
    for address, body in senders.items():
        table.send(address, body)
    table.intake()
    table.advance(days=1)
    return table.intake()


def test_an_absence_under_the_defaults_rule(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps_standing", season_setup(), schedule=daily(),
                          options={"missed": {"defaults_after": 1, "disorder_after": 3},
                                   "absence": {"rule": "defaults", "max_days": 10, "announce": "players"}})
        table.intake()
        table.advance(hours=3)  # 2027-01-04 12:00
        table.send("cat@example.org", "throw rock\nABSENT 2027-01-06 TO 2027-01-08")
        mails = table.intake()
        ack = table.ack("cat@example.org")
        assert "Absence: absence recorded, 2027-01-06 to 2027-01-08 (3 days; 3 of the 10 the game allows)" in \
            " ".join(ack.split())
        assert "line 1: throw rock" in ack  # the orders beside it are read as ever
        [told] = [m for m in mails if "away" in str(m["Subject"])]
        assert str(told["Subject"]) == "[rps1] cat is away from 2027-01-06 to 2027-01-08"
        assert str(told["To"]) == "undisclosed-recipients:;"
        assert not any(a in told.as_string() for a in ADDRESSES)

        _day(table, TALKERS)  # turn 1, 2027-01-05 noon: cat's rock
        mails = _day(table, TALKERS)  # turn 2, 2027-01-06: cat away: his last throw, no ladder
        assert "cat: rock\n" in table.newsletter("rps1", 2)
        assert not [m for m in mails if "you missed" in str(m["Subject"])]
        with table.app.db.session() as s:
            lines = season_lines(s, table.app, get_game(s, "rps1"))
        assert "absences (defaults, at most 10 days each): cat 2027-01-06 to 2027-01-08" in lines
        assert "absent days used: cat 3" in lines
        assert "ladder: nobody on it" in lines

        # The cap: 3 days used, 10 asked, 10 allowed.
        table.send("cat@example.org", "ABSENT 2027-02-01 TO 2027-02-10")
        table.intake()
        assert "not recorded: rps1 allows 10 days of absence a player in the game; you have declared 3, and " \
               "this absence is 10" in " ".join(table.ack("cat@example.org").split())

        mails = _day(table, TALKERS)  # turn 3, 2027-01-07: still away
        assert not [m for m in mails if "you missed" in str(m["Subject"])]
        # BACK on 2027-01-07: the absence ends on the 6th; the days after are his again.
        table.send("cat@example.org", "back")
        mails = table.intake()
        assert "Absence: welcome back: your absence is over." in table.ack("cat@example.org")
        assert "[rps1] cat is back" in [str(m["Subject"]) for m in mails]
        with table.app.db.session() as s:
            lines = season_lines(s, table.app, get_game(s, "rps1"))
        assert "absent days used: cat 1" in lines
        mails = _day(table, TALKERS)  # turn 4, 2027-01-08: cat silent and not away: the ladder counts
        assert [str(m["Subject"]) for m in mails if "you missed" in str(m["Subject"])] == \
            ["[rps1] you missed turn 4"]


def test_a_small_game_waits_for_an_absent_player(tmp_path: Path, db_url: str) -> None:
    with Table(tmp_path, db_url=db_url) as table:
        table.create_game("rps1", "rps", season_setup(), schedule=daily(),
                          options={"absence": {"rule": "move_deadline", "announce": "gm"}})
        table.intake()
        table.send("cat@example.org", "ABSENT 2027-01-05 TO 2027-01-06")
        mails = table.intake()
        assert "deadlines that fall in it wait for you" in " ".join(table.ack("cat@example.org").split())
        assert [str(m["To"]) for m in mails if "away" in str(m["Subject"])] == ["referee@example.org"]
        for address, body in TALKERS.items():
            table.send(address, body)
        table.intake()
        table.advance(hours=27, minutes=1)  # 2027-01-05 12:01: cat is away and missing: the deadline moves
        mails = table.intake()
        [moved] = [m for m in mails if str(m["Subject"]) == "[rps1] deadline moved"]
        assert "the deadline of turn 1 moves to Thursday 07 January 2027, 12:00 UTC (UTC): cat is away" in \
            text_of(moved)
        assert not any(a in moved.as_string() for a in ADDRESSES)
        with table.app.db.session() as s:
            game = get_game(s, "rps1")
            assert game.turn == 1
            assert get_turn(s, game, 1).deadline == datetime(2027, 1, 7, 12, 0, tzinfo=UTC)
        table.advance(days=1)  # 2027-01-06 12:01, a new pass (the deadlines taken again from the config)
        table.intake()
        with table.app.db.session() as s:
            assert get_game(s, "rps1").turn == 1
        table.send("cat@example.org", "throw rock")  # back before the moved deadline
        table.advance(days=1)
        table.intake()
        assert "cat: rock" in table.newsletter("rps1", 1)
