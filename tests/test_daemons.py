"""Three `maild run` daemons on one PostgreSQL database, six games, a backlog of mail and turns due, one daemon
killed with SIGKILL in the middle of its pass: every mail answered once, every turn run once, the dead daemon's
games taken over (issue 27, acceptance 1)."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.manydaemons import AFTER, Backlog, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def backlog(tmp_path: Path, pg_url: str) -> Iterator[Backlog]:
    b = Backlog(tmp_path, pg_url, games=6, mails=180)
    try:
        b.init()
        yield b
    finally:
        b.kill_all()


# Killed in the transaction of its first turn (the game's lease then passes, the turn runs elsewhere once), in
# the middle of reading the backlog (the mails it held are read by the others, once), or between handing a batch
# of answers to the outbox and recording it (its claim lapses and another daemon sends the batch again: the
# Maildir outbox takes the same file again, one file a Message-ID).
@pytest.mark.parametrize("crash", ["turn.before_commit:1", "intake.before_commit:20", "send.delivered:30"])
def test_three_daemons_one_killed_mid_pass_every_mail_answered_once_every_turn_run_once(backlog: Backlog,
                                                                                       crash: str) -> None:
    doomed = backlog.start("doomed", crash=crash)
    # Alone at first, it takes every game and the inbox; the two others start while it works.
    wait_until(lambda: len(backlog.games_held_by(doomed.pid)) == 6, 60, "the first daemon took no games")
    one, two = backlog.start("one"), backlog.start("two")
    assert doomed.wait(timeout=120) == -signal.SIGKILL, backlog.log("doomed")[-2000:]
    took = wait_until(backlog.drained, 300, "the two daemons left did not read and answer everything")
    # The dead daemon's games are shared between the two left, three each.
    wait_until(lambda: len(backlog.games_held_by(one.pid)) == len(backlog.games_held_by(two.pid)) == 3, 60,
               "the games were not shared out again")
    assert not set(backlog.games_held_by(one.pid)) & set(backlog.games_held_by(two.pid))
    backlog.check_everything_once()
    listed = backlog.maild("--now", AFTER, "daemons", "--json")
    assert listed.returncode == 0, listed.stderr
    runs = {r["pid"]: r for r in json.loads(listed.stdout) if r["live"]}
    assert set(runs) == {one.pid, two.pid}
    assert sorted(runs[one.pid]["games"] + runs[two.pid]["games"]) == [f"venice{g}" for g in range(1, 7)]
    dead = [r for r in json.loads(listed.stdout) if not r["live"]]
    assert len(dead) == 1 and dead[0]["taken_by"] is not None and f"pid {doomed.pid} " not in dead[0]["taken_by"]
    for proc in (one, two):
        proc.terminate()
        assert proc.wait(timeout=120) == 0
    print(f"drained {took:.1f} s after the two others started ({crash})")


def test_three_daemons_sharing_the_games_one_killed_in_its_turn_at_the_deadline(backlog: Backlog) -> None:
    """The three start together before the deadline and share the six games, two each, while they read the
    mail; at the deadline each runs its games' turns, and one is killed in the transaction of its first: the two
    others take its two games over and run their turns, once."""
    # The daemons' clocks run from here, in real time: the deadline (17:15) comes that much later.
    before_deadline = "2026-11-22T17:14:20+01:00"
    doomed = backlog.start("doomed", crash="turn.before_commit:1", now=before_deadline)
    one, two = backlog.start("one", now=before_deadline), backlog.start("two", now=before_deadline)
    wait_until(lambda: [len(backlog.games_held_by(p.pid)) for p in (doomed, one, two)] == [2, 2, 2], 30,
               "the daemons did not share the games before the deadline")
    assert backlog.query("SELECT count(*) FROM turns WHERE status = 'done'") == [(0,)]
    assert doomed.wait(timeout=120) == -signal.SIGKILL, backlog.log("doomed")[-2000:]
    wait_until(backlog.drained, 300, "the two daemons left did not read and answer everything")
    wait_until(lambda: len(backlog.games_held_by(one.pid)) == len(backlog.games_held_by(two.pid)) == 3, 60,
               "the dead daemon's games were not taken over")
    backlog.check_everything_once()
    for proc in (one, two):
        proc.terminate()
        assert proc.wait(timeout=120) == 0
