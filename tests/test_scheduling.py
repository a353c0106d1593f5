"""Deadlines, late mail, reminders, the safety gate's release, identity rules and the daemon's own loop."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from maild.games import get_game, state_before, sync_games
from maild.intake.pipeline import process_new
from maild.intake.store import store_batch
from maild.mail.maildir import MaildirInbox, deliver
from maild.models import InboundMail, OrderSetRow, OutboundMail, Snapshot, Turn
from maild.turn import release_turn
from tests.conftest import make_app, write_gm_config
from tests.mailflow import drop, mail, run_pass, sent

ROME = ZoneInfo("Europe/Rome")
MORNING = datetime(2026, 11, 22, 10, 0, tzinfo=ROME)


def test_late_mail_counts_for_the_next_turn(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    drop(app, mail("alice@example.org", "bid 10$ for 1 of silk tax", 1), MORNING)
    drop(app, mail("carol@example.net", "bid 10$ for 1 of silk tax", 2), MORNING)
    # Bob's bid for tomorrow's senators reached the server at 17:20, after the 17:15 deadline, while the
    # daemon was down; it is read at 17:30, before turn 1 has run.
    drop(app, mail("bob@example.org", "#venice1 bob sesame\nbid 10$ for 1 of senator", 3),
         MORNING.replace(hour=17, minute=20))
    run_pass(app, MORNING.replace(hour=17, minute=30))
    with app.db.session() as s:
        sets = {r.mail_id: r.turn for r in s.scalars(select(OrderSetRow))}
    assert sets == {1: 1, 2: 1, 3: 2}
    bob_ack = next(m for m in sent(app) if m["To"] == "bob@example.org" and "Re:" in str(m["Subject"]))
    assert "it came after the deadline of turn 1, so it counts for turn 2" in bob_ack.get_content()
    assert process_new(app) == {}


def test_reminders_go_once_to_players_with_nothing_on_file(tmp_path: Path, db_url: str,
                                                             venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup, schedule={
        "timezone": "Europe/Rome", "at": ["2026-11-22T17:15"], "remind_before": "6h"})
    drop(app, mail("alice@example.org", "bid 10$ for 1 of silk tax", 1), MORNING)
    run_pass(app, MORNING)  # 10:00: more than 6 h before 17:15, no reminder yet
    assert [m["To"] for m in sent(app)] == ["alice@example.org"]
    run_pass(app, MORNING.replace(hour=12))  # 12:00: within 6 h
    run_pass(app, MORNING.replace(hour=13))  # and again: nothing twice
    reminders = [m for m in sent(app) if "no orders on file" in str(m["Subject"])]
    assert sorted(m["To"] for m in reminders) == ["bob@example.org", "carol@example.net"]
    assert "Sunday 22 November 2026, 17:15 CET" in reminders[0].get_content()


def test_the_gm_releases_a_held_turn(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    drop(app, mail("alice@example.org", "borrow 20$\nbid 10$ for 1 of silk tax", 1), MORNING)
    run_pass(app, MORNING.replace(hour=17, minute=16))  # 2 of 3 sent nothing: 67% ≥ 50%, held
    with app.db.session() as s:
        assert s.scalar(select(Turn.status).where(Turn.number == 1)) == "held"
    assert release_turn(app, "venice1").status == "done"
    with app.db.session() as s:
        assert [t.status for t in s.scalars(select(Turn).order_by(Turn.number))] == ["done", "open"]


def test_orders_from_another_address_with_the_password_are_acked_to_the_registered_one(
        tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    drop(app, mail("bob.phone@example.com", "#venice1 bob sesame\nbid 10$ for 1 of silk tax", 1), MORNING)
    run_pass(app, MORNING)
    [ack] = sent(app)
    assert ack["To"] == "bob@example.org"
    assert "this mail came from bob.phone@example.com, not from your registered address" in ack.get_content()


def test_a_wrong_password_is_told_to_the_registered_address_only(tmp_path: Path, db_url: str,
                                                                   venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    drop(app, mail("mallory@example.com", "#venice1 bob guess\nbid 99$ for 2 of silk tax", 1), MORNING)
    run_pass(app, MORNING)
    [warning] = sent(app)
    assert warning["To"] == "bob@example.org"
    assert "it carried a wrong password" in warning.get_content()
    assert "mallory@example.com" in warning.get_content()
    with app.db.session() as s:
        assert s.scalar(select(InboundMail.status)) == "bad_password"
        assert s.scalar(select(OrderSetRow.id)) is None
        assert [r.recipients for r in s.scalars(select(OutboundMail).where(OutboundMail.kind != "welcome"))] \
            == [["bob@example.org"]]


def test_the_daemon_answers_within_a_poll_and_stops_on_sigterm(tmp_path: Path) -> None:
    write_gm_config(tmp_path, schedule='cron = "15 17 * * *"', daemon="poll_interval = 1")
    proc = subprocess.Popen([sys.executable, "-m", "maild", "--now", "2026-11-22T10:00+01:00", "run"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deliver(tmp_path / "var/mail/inbox", mail("alice@example.org", "bid 10$ for 1 of silk tax", 1))
        outbox = tmp_path / "var/mail/outbox/new"
        deadline = time.monotonic() + 30
        def acks() -> list[Path]:  # the game's welcome mails go out on the first pass too
            files = list(outbox.iterdir()) if outbox.exists() else []
            return [f for f in files if b"Auto-Submitted: auto-replied" in f.read_bytes()]

        while time.monotonic() < deadline and not acks():
            time.sleep(0.2)
        found = acks()
        assert len(found) == 1, proc.poll()
        assert b"Understood (1)" in found[0].read_bytes()
        # A second daemon on the same database refuses to start.
        second = subprocess.run([sys.executable, "-m", "maild", "--now", "2026-11-22T10:00+01:00", "run",
                                 "--once"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        assert "another maild daemon is running on this database" in second.stderr
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err[-2000:]


def test_a_fresh_directory_runs_the_embedded_demo(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "MAILD_CRASH_AT"}
    now = ["--now", MORNING.isoformat()]
    done = subprocess.run([sys.executable, "-m", "maild", *now, "run", "--once"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "var/maild.db").exists()
    assert (tmp_path / "var/mail/inbox/new").is_dir() and (tmp_path / "var/mail/outbox/new").is_dir()
    listing = subprocess.run([sys.executable, "-m", "maild", *now, "game", "list"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120)
    assert listing.stdout.startswith("venice-demo  venice  turn 1")


def test_intake_waits_for_a_turn_another_process_is_resolving(tmp_path: Path, db_url: str,
                                                               venice_setup: Path) -> None:
    """While a turn holds its game (here: another connection that moves the game to turn 2, as run_turn
    does, and commits a second later), intake must not book an order for turn 1, which is being resolved."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time: the race cannot happen there")
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    with app.db.session() as s:
        sync_games(s, app.config, MORNING)
    drop(app, mail("alice@example.org", "bid 10$ for 1 of silk tax\nbid 10$ for 1 of senator", 1), MORNING)
    fetched = asyncio.run(MaildirInbox(app.config.inbound.path).fetch_new())  # type: ignore[arg-type]
    store_batch(app, fetched)
    locked = threading.Event()

    def resolving_turn() -> None:
        with app.db.session() as s:
            game = get_game(s, "venice1", lock=True)
            locked.set()
            time.sleep(1.0)
            game.turn = 2
            s.add(Turn(game_id=game.id, number=2, deadline=None, seed=1, status="open"))
            s.add(Snapshot(game_id=game.id, turn=2, state=state_before(s, game, 1)))

    turn = threading.Thread(target=resolving_turn)
    turn.start()
    locked.wait(5)
    process_new(app)
    turn.join()
    with app.db.session() as s:
        # Booked for turn 2, whose auction offers senators (silk tax is refused there), not for turn 1.
        assert [(r.turn, [o["text"] for o in r.orders]) for r in s.scalars(select(OrderSetRow))] == [
            (2, ["bid 10$ for 1 of senator"])]


def test_a_late_mail_in_a_cron_game_is_told_the_next_deadline(tmp_path: Path, db_url: str,
                                                               venice_setup: Path) -> None:
    # Every day at 17:15 in Rome: turn 1's deadline is Sunday 22 November 17:15, turn 2's the next day's.
    app = make_app(tmp_path, db_url, MORNING, venice_setup,
                   schedule={"timezone": "Europe/Rome", "cron": "15 17 * * *"})
    run_pass(app, MORNING)  # the game starts in the morning
    drop(app, mail("alice@example.org", "bid 10$ for 1 of silk tax", 1), MORNING.replace(hour=17, minute=20))
    run_pass(app, MORNING.replace(hour=17, minute=30))  # read before turn 1 runs: turn 2 has no row yet
    ack = next(m for m in sent(app) if m["To"] == "alice@example.org").get_content()
    assert "it came after the deadline of turn 1, so it counts for turn 2" in ack
    assert "Deadline for turn 2: Monday 23 November 2026, 17:15 CET (Europe/Rome)." in ack


def test_the_expected_deadline_follows_a_cron_chain_and_a_list() -> None:
    from maild.config import Schedule
    from maild.deadlines import expected_deadline

    cron = Schedule(timezone=ROME, cron="15 17 * * mon,thu")
    monday = datetime(2026, 11, 23, 17, 15, tzinfo=ROME)
    # Turn 1 on Monday the 23rd; turn 2 the Thursday after (26th), turn 3 the Monday after that (30th).
    assert expected_deadline(cron, 1, monday, 3) == datetime(2026, 11, 30, 17, 15, tzinfo=ROME)
    assert expected_deadline(cron, 1, None, 2) is None  # the GM runs turn 1: no chain to follow
    listed = Schedule(timezone=ROME, at=(monday, monday.replace(day=24)))
    assert expected_deadline(listed, 1, None, 2) == monday.replace(day=24)
    assert expected_deadline(listed, 1, monday, 3) is None  # the list has run out
    assert expected_deadline(None, 1, monday, 2) is None


@pytest.mark.parametrize("field, names", [
    ("6", "sat"), ("0", "sun"), ("7", "sun"), ("1-5", "mon,tue,wed,thu,fri"), ("5-7", "sun,fri,sat"),
    ("*/2", "sun,tue,thu,sat"), ("sat,sun", "sun,sat"), ("MON-wed", "mon,tue,wed"), ("1/3", "mon,thu"),
    ("*", "*"),
])
def test_cron_days_of_the_week_count_as_crontab_does(field: str, names: str) -> None:
    from maild.deadlines import crontab_days

    assert crontab_days(field) == names


def test_a_saturday_cron_deadline_falls_on_saturday() -> None:
    from maild.config import Schedule
    from maild.deadlines import deadline_for

    rome = ZoneInfo("Europe/Rome")
    # crontab(5): day of week 6 is Saturday. 2026-11-25 is a Wednesday, so the next is Saturday 28 November.
    when = deadline_for(Schedule(timezone=rome, cron="0 12 * * 6"), 1, datetime(2026, 11, 25, 9, 0, tzinfo=rome))
    assert when == datetime(2026, 11, 28, 12, 0, tzinfo=rome) and when.strftime("%A") == "Saturday"


@pytest.mark.parametrize("field", ["8", "5-2", "x", "1/0"])
def test_bad_cron_days_are_refused(field: str) -> None:
    from maild.deadlines import crontab_days

    with pytest.raises(ValueError):
        crontab_days(field)
