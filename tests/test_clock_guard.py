"""Nothing reads the wall clock by accident: "now" comes from the injected clock (`App.clock`, `--now`), so the
suite passes on any date (docs/daemon.md, "Time"). Two guards: MAILD_NO_WALL_CLOCK, which tests/conftest.py sets
for the suite and every process it starts, makes a Clock on real time fail; and the source is searched for the
calls that read the wall clock or the database server's clock."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from maild.clock import NO_WALL_CLOCK, Clock, WallClockForbidden
from tests.conftest import write_gm_config
from tests.paths import ROOT

# What reads the wall clock (Python) or the server's (SQL). time.monotonic and time.perf_counter measure spans
# and may stay.
WALL_CLOCK = re.compile(r"\b(?:datetime|date)\.(?:now|utcnow|today)\(|\btime\.time(?:_ns)?\(|\bfunc\.now\("
                        r"|\b(?:CURRENT_TIMESTAMP|LOCALTIMESTAMP|CURRENT_DATE|statement_timestamp|clock_timestamp"
                        r"|transaction_timestamp)\b")

# The few reads that may stay, each for a reason that decides nothing a test asserts.
ALLOWED = {
    "maild/clock.py": "the Clock itself, on real time when no --now is given",
    "maild/daemon.py": "APScheduler fires on real time: the offset between it and the Clock",
    "maild/mail/maildir.py": "a delivered mail's file name, unique and in delivery order",
    "maild/lease.py": "the daemon's lease lapses on the database server's clock, the one clock every daemon on the "
                      "database shares: it decides which process works, never a game's time",
}


def offending_lines() -> list[str]:
    found = []
    for top in ("maild", "rules", "tests", "migrations"):
        for path in sorted((ROOT / top).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name in ALLOWED or path == Path(__file__):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if WALL_CLOCK.search(line.split("#", 1)[0]):
                    found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_code_reads_the_wall_clock_outside_the_allowed_places() -> None:
    assert offending_lines() == [], "read the injected clock (App.now(), --now) instead"


def test_the_allowed_places_still_read_it() -> None:
    # An entry whose read has gone would let a new one in unseen.
    for name in ALLOWED:
        assert WALL_CLOCK.search((ROOT / name).read_text(encoding="utf-8")), name


def test_the_search_sees_each_kind_of_read() -> None:
    for line in ("datetime.now(UTC)", "date.today()", "t = time.time()", "datetime.utcnow()", "sa.func.now()",
                 "SELECT CURRENT_TIMESTAMP", "server_default=sa.text('clock_timestamp()')"):
        assert WALL_CLOCK.search(line), line
    for line in ("app.now()", "self.clock.now()", "time.monotonic()", "datetime.fromisoformat(text)"):
        assert not WALL_CLOCK.search(line), line


def test_the_suite_forbids_a_clock_on_real_time() -> None:
    assert os.environ.get(NO_WALL_CLOCK) == "1"
    with pytest.raises(WallClockForbidden, match="tests must pass --now"):
        Clock()
    start = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
    assert Clock(start, frozen=True).now() == start


def test_a_maild_process_started_by_a_test_inherits_the_guard(tmp_path: Path) -> None:
    write_gm_config(tmp_path)
    command = [sys.executable, "-m", "maild", "game", "list"]
    without = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert without.returncode != 0 and "tests must pass --now" in without.stderr
    given = subprocess.run([sys.executable, "-m", "maild", "--now", "2026-11-22T09:00+01:00", "game", "list"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert given.returncode == 0, given.stderr
    assert "venice1" in given.stdout


def test_outside_the_suite_the_clock_runs_on_real_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NO_WALL_CLOCK)
    before = datetime.fromtimestamp(0, UTC)
    assert Clock().now() > before
