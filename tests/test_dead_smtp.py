"""An SMTP server that accepts connections and never greets, with 100 mails queued for it: `maild run` still runs
a turn on time (delivery is a task of its own, the pass never waits for it) and answers SIGTERM within seconds
(the delivery is cancelled; the mail in flight stays queued)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from maild.mail.maildir import deliver
from tests.conftest import write_gm_config
from tests.deadpeer import SilentServer
from tests.mailflow import order_mail

DEADLINE = datetime(2026, 11, 22, 16, 15, tzinfo=UTC)  # 17:15 in Rome, turn 1's
# `--now` this long before the deadline: the daemon starts, reads 100 mails and queues their acks meanwhile.
LEAD_S = 12
MAILS = 100


def config_with_dead_smtp(folder: Path, port: int) -> Path:
    config = write_gm_config(folder, inbox="in", daemon="", schedule='at = ["2026-11-22T17:15", "2026-11-23T17:15"]')
    text = config.read_text().replace('kind = "maildir"\npath = "var/mail/outbox"', f"""kind = "smtp"
host = "127.0.0.1"
port = {port}
tls = false
starttls = false""")
    # Three players mail 100 times: every mail is answered, 100 acks for the dead server.
    config.write_text(text + "\n[limits]\nreplies_per_hour = 1000\nreplies_per_day = 1000\n")
    return config


def wait_for(what: str, check: object, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {seconds} s")


def test_a_dead_smtp_server_holds_up_neither_turns_nor_sigterm(tmp_path: Path) -> None:
    with SilentServer() as dead:
        config = config_with_dead_smtp(tmp_path, dead.port)
        for n in range(MAILS):
            path = deliver(tmp_path / "in", order_mail(n))
            before = (DEADLINE - timedelta(hours=1)).timestamp()
            os.utime(path, (before, before))
        now = (DEADLINE - timedelta(seconds=LEAD_S)).isoformat()
        env = {k: v for k, v in os.environ.items() if k != "MAILD_CRASH_AT"}
        proc = subprocess.Popen([sys.executable, "-m", "maild", "--config", str(config), "--now", now, "run"],
                                cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        db = sqlite3.connect(tmp_path / "maild.db", timeout=30)
        try:
            def turn_done() -> bool:
                try:
                    return db.execute("SELECT status FROM turns WHERE number = 1").fetchone() == ("done",)
                except sqlite3.OperationalError:  # not created yet
                    return False

            wait_for("turn 1", turn_done, LEAD_S + 30)
            assert dead.accepted >= 1  # the delivery is stuck in front of the silent server meanwhile
            # The turn ran when its deadline came, though the delivery had been waiting on the server since before.
            [(processed,)] = db.execute("SELECT processed_at FROM turns WHERE number = 1").fetchall()
            late = datetime.fromisoformat(processed).replace(tzinfo=UTC) - DEADLINE
            assert timedelta(0) <= late < timedelta(seconds=3), late
            assert db.execute("SELECT count(*) FROM order_sets WHERE turn = 1").fetchone() == (MAILS,)
            start = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise AssertionError("maild did not stop within 20 s of SIGTERM") from None
            took = time.monotonic() - start
        finally:
            if proc.poll() is None:
                proc.kill()
            err = proc.communicate()[1]
        print(f"\nturn 1 ran {late.total_seconds():.2f} s after its deadline; SIGTERM answered in {took:.2f} s")
        assert proc.returncode == 0, err[-3000:]
        assert took < 5, took
        # Nothing was delivered, nothing was given up: every mail waits in the outbox for the server to answer.
        statuses = dict(db.execute("SELECT status, count(*) FROM outbound_mails GROUP BY status").fetchall())
        assert set(statuses) == {"queued"} and statuses["queued"] >= MAILS + 4, statuses  # acks, printouts, news
        db.close()
