"""SIGKILL the daemon at many points of intake, turn and send; after a restart nothing is lost, nothing is
applied twice and every printout is delivered exactly once (the outbox Maildir is written idempotently)."""

from __future__ import annotations

import email
import os
import signal
import sqlite3
import subprocess
import sys
from datetime import datetime
from email.policy import default
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from maild.mail.maildir import deliver
from tests.conftest import write_gm_config

ROME = ZoneInfo("Europe/Rome")
BEFORE = datetime(2026, 11, 22, 12, 0, tzinfo=ROME)
AFTER_DEADLINE = "2026-11-22T17:16:00+01:00"

MAILS = [
    ("alice@example.org", "borrow 300$\nbid 30$ for 2 of silk tax"),
    ("bob@example.org", "#venice1 bob sesame\nborrow 200$\nbid 45$ for 1 of exile competitor"),
    ("carol@example.net", "borrow 100$\nbid 25$ for 1 of silk tax\nbid lots for everything"),
    ("alice@example.org", "bid 32$ for 2 of silk tax"),  # replaces alice's first silk tax bid
    ("stranger@example.com", "bid 99$ for 1 of silk tax"),  # unknown sender: kept for the GM
    ("carol@example.net", "STATUS"),
]


# Outbound mail goes in batches of this many (delivered, synced, recorded together), so that the pass's ten
# mails make three batches and a crash can come inside a batch or between two.
SEND_BATCH = 4


def write_game(tmp: Path) -> Path:
    config = write_gm_config(tmp, inbox="in", outbox="out")
    config.write_text(config.read_text().replace('from = "gm@example.org"',
                                                 f'from = "gm@example.org"\nbatch = {SEND_BATCH}'))
    for i, (sender, body) in enumerate(MAILS):
        raw = (f"From: {sender}\r\nTo: gm@example.org\r\nSubject: orders {i}\r\n"
               f"Message-ID: <kill-{i}@example.org>\r\n\r\n{body}\r\n").encode()
        path = deliver(tmp / "in", raw, name=f"mail{i:02d}")
        # Arrived well before the deadline, whatever today's date is.
        ts = BEFORE.timestamp() + i
        os.utime(path, (ts, ts))
    return config


def maild(config: Path, *args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "MAILD_CRASH_AT"}
    if crash:
        env["MAILD_CRASH_AT"] = crash
    return subprocess.run([sys.executable, "-m", "maild", "--config", str(config), *args],
                          capture_output=True, text=True, env=env, timeout=120, cwd=config.parent)


def outbox(tmp: Path) -> list[email.message.EmailMessage]:
    files = sorted((tmp / "out" / "new").iterdir())
    return [email.message_from_bytes(f.read_bytes(), policy=default) for f in files]  # type: ignore[misc]


# Mails are stored in batches (one "fetch.stored" a batch) and processed in batches (one
# "intake.committed" a batch, one "intake.before_commit" a mail); the six test mails make one batch.
# A pass sends eleven mails: five acks, the stranger's one answer, the GM's notice, three printouts and one
# newsletter, in batches of SEND_BATCH: each batch's files are written, synced once ("send.synced"), each
# renamed into the outbox Maildir ("send.delivered", one a mail), and then the batch is recorded as sent
# ("send.recorded").
CRASH_POINTS = [
    "fetch.stored:1", "fetch.marked:1", "fetch.marked:4", "fetch.marked:6",
    "intake.before_commit:1", "intake.before_commit:3", "intake.before_commit:6", "intake.committed:1",
    "turn.before_commit:1", "turn.committed:1",
    "send.synced:1", "send.synced:3",
    "send.delivered:1", "send.delivered:4", "send.delivered:6", "send.delivered:9",
    "send.recorded:1", "send.recorded:3",
]


@pytest.mark.slow
@pytest.mark.parametrize("crash", CRASH_POINTS)
def test_kill_and_restart_loses_nothing_and_repeats_nothing(tmp_path: Path, crash: str) -> None:
    config = write_game(tmp_path)
    first = maild(config, "--now", AFTER_DEADLINE, "run", "--once", crash=crash)
    assert first.returncode == -signal.SIGKILL, (first.returncode, first.stderr[-2000:])
    delivered = inodes(tmp_path / "out" / "new")
    second = maild(config, "--now", AFTER_DEADLINE, "run", "--once")
    assert second.returncode == 0, second.stderr[-2000:]
    check_everything_once(tmp_path)
    # What the first run delivered, the second did not deliver again (it would be a new file).
    after = inodes(tmp_path / "out" / "new")
    assert {name: after.get(name) for name in delivered} == delivered
    assert not list((tmp_path / "out" / "tmp").iterdir())  # no half-written mail left behind


def inodes(folder: Path) -> dict[str, int]:
    return {f.name: f.stat().st_ino for f in folder.iterdir()} if folder.exists() else {}


def test_without_a_crash_the_same_holds(tmp_path: Path) -> None:
    config = write_game(tmp_path)
    assert maild(config, "--now", AFTER_DEADLINE, "run", "--once").returncode == 0
    check_everything_once(tmp_path)
    # A second pass finds nothing more to do.
    assert maild(config, "--now", AFTER_DEADLINE, "run", "--once").returncode == 0
    check_everything_once(tmp_path)


def check_everything_once(tmp: Path) -> None:
    db = sqlite3.connect(tmp / "maild.db")
    statuses = sorted(s for (s,) in db.execute("SELECT status FROM inbound_mails"))
    # Every mail stored once and processed; the stranger's is kept for the GM.
    assert statuses == ["command", "orders", "orders", "orders", "orders", "unknown_sender"]
    assert not list((tmp / "in" / "new").iterdir())  # all taken from the inbox
    assert db.execute("SELECT count(*) FROM order_sets").fetchone() == (4,)
    assert db.execute("SELECT number, status FROM turns ORDER BY number").fetchall() == [(1, "done"), (2, "open")]
    assert db.execute("SELECT count(*) FROM outbound_mails WHERE status != 'sent'").fetchone() == (0,)
    mails = outbox(tmp)
    ids = [m["Message-ID"] for m in mails]
    assert len(ids) == len(set(ids)), "a mail was delivered twice"
    subjects = sorted(str(m["Subject"]) for m in mails)
    answers = [m for m in mails if str(m["Subject"]).startswith("Re: orders")]
    # One ack per mail from a player, and the stranger's one short answer (a stranger gets one a day).
    assert sorted(str(m["To"]) for m in answers) == ["alice@example.org"] * 2 + ["bob@example.org"] + \
        ["carol@example.net"] * 2 + ["stranger@example.com"]
    printouts = [s for s in subjects if "printout" in s]
    assert printouts == [f"[venice1] turn 1 printout for {p}" for p in ("alice", "bob", "carol")]
    assert sum("newsletter" in s for s in subjects) == 1  # one mail, the three players its recipients
    assert sum(s.startswith("[maild]") for s in subjects) == 1  # the GM told of the stranger once
    # The replacement was applied once: alice paid 32 × 2 = 64 of her 300.
    alice = next(m for m in mails if str(m["Subject"]) == "[venice1] turn 1 printout for alice")
    assert "236" in alice.get_content()
