"""A late mail's ack (issue 23: "a late mail's ack prints "Understood (1):" over an empty list"): whatever a
late mail holds (orders, a line not understood, a refused set, nothing but a command), every list the ack
announces with a count has that many lines under it, and no line is said twice. Venice (a later mail
replaces) and Renaissance (the first set stands), the two policies a late mail meets."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import make_app
from tests.mailcheck import empty_headings, long_prose_lines, repeated_lines
from tests.mailflow import ROME, drop, mail, run_pass, sent
from tests.renaissance_fixtures import mail_game

VENICE_LATE = ["bid 20$ for 1 of opera", "bid 20$ for 1 of opera\nfrobnicate", "frobnicate", "STATUS",
               "bid 20$ for 1 of opera\nborrow 50$", "bid 0$ for 1 of senator"]
RENAISSANCE_LATE = ["/MED *MEDICI\n*Florence .0102\nHC2000\n", "/MED *MEDICI\n*Florence .0102\nHC2000\n",
                    "/MED *MEDICI\n*Florence .0102\nXYZ\n", "STATUS", "/MED *MEDICI\n*Florence .0102\nHA1000\n"]


def _check(acks: list[str]) -> None:
    assert acks
    for ack in acks:
        assert "Late:" in ack, ack
        assert empty_headings(ack) == [], ack
        assert repeated_lines(ack) == {}, ack
        assert long_prose_lines(ack) == [], ack


@pytest.mark.parametrize("body", VENICE_LATE)
def test_a_late_venice_mail_announces_no_empty_list(tmp_path: Path, venice_setup: Path, body: str) -> None:
    start = datetime(2026, 12, 7, 9, 0, tzinfo=ROME)
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", start, venice_setup,
                   schedule={"timezone": "Europe/Rome", "at": ["2026-12-07T17:15", "2026-12-08T17:15"]})
    run_pass(app, start)
    late = datetime(2026, 12, 7, 17, 20, tzinfo=ROME)  # after turn 1's deadline, before the pass that runs it
    drop(app, mail("carol@example.net", body, 1, subject="late"), late)
    run_pass(app, late)
    _check([m.get_content() for m in sent(app) if str(m["Subject"]).startswith("Re: late")])


@pytest.mark.parametrize("body", RENAISSANCE_LATE)
def test_a_late_renaissance_mail_announces_no_empty_list(tmp_path: Path, body: str) -> None:
    morning = datetime(2026, 11, 25, 10, 0, tzinfo=ROME)
    app = mail_game(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", morning)
    run_pass(app, morning)
    drop(app, mail("med@example.org", RENAISSANCE_LATE[0], 1, subject="on time"), morning)
    run_pass(app, morning)
    late = datetime(2026, 12, 1, 12, 5, tzinfo=ROME)
    drop(app, mail("med@example.org", body, 2, subject="late"), late)
    drop(app, mail("med@example.org", body, 3, subject="late again"), late)
    run_pass(app, late)
    _check([m.get_content() for m in sent(app) if str(m["Subject"]).startswith("Re: late")])


def test_the_check_finds_a_count_over_an_empty_list() -> None:
    assert empty_headings("Hello,\n\nUnderstood (1):\n\nDeadline: Monday.") == ["Understood (1):"]
    assert empty_headings("Understood (1):\n  line 1: bid 20$ for 1 of opera\n") == []
