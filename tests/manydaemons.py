"""Several `maild run` daemons on one PostgreSQL schema, a backlog of order mail in a Maildir for several games
whose first turn is due, a Maildir outbox (no tests here): for tests/test_daemons.py and bench/bench_daemons.py."""

from __future__ import annotations

import email
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from email.policy import default
from pathlib import Path

from sqlalchemy import text

from maild.db import Database
from maild.lease import SERVER_NOW
from maild.mail.maildir import deliver
from tests.conftest import VENICE_SETUP
from tests.mailflow import BEFORE

SET_UP_AT = "2026-11-22T09:00+01:00"  # `maild init`: the morning of turn 1
AFTER = "2026-11-22T17:16+01:00"  # the daemons: a minute after turn 1's deadline, its mail all waiting
PLAYERS = [("alice@example.org", ""), ("bob@example.org", " bob sesame"), ("carol@example.net", "")]


def setup_toml(players: int) -> str:
    """VENICE_SETUP's game with `players` players p000… instead of its three."""
    lines = [f'[[players]]\nname = "p{i:03d}"\nemail = "p{i:03d}@example.org"\n' for i in range(players)]
    head, _, rest = VENICE_SETUP.partition("[[players]]")
    return head + "\n".join(lines) + rest[rest.index("[[agendas]]"):]


class Backlog:
    """`games` Venice games (venice1…), each with its own address, and `mails` order mails spread over them, all
    arrived before turn 1's deadline; the daemons started after it. The players are VENICE_SETUP's three, or
    `players` others (the same in every game)."""

    def __init__(self, tmp: Path, url: str, games: int = 6, mails: int = 180, lease: str = "3s",
                 players: int = 3) -> None:
        self.tmp, self.url, self.games, self.fed, self.players = tmp, url, games, mails, players
        (tmp / "setup.toml").write_text(VENICE_SETUP if players == 3 else setup_toml(players))
        senders = PLAYERS if players == 3 else [(f"p{i:03d}@example.org", "") for i in range(players)]
        tables = "".join(f"""
[[games]]
name = "venice{g}"
ruleset = "venice"
setup = "setup.toml"
address = "venice{g}@example.org"
[games.schedule]
timezone = "Europe/Rome"
at = ["2026-11-22T17:15", "2026-11-29T17:15"]
""" for g in range(1, games + 1))
        self.config = tmp / "maild.toml"
        self.config.write_text(f"""
[database]
url = "{url}"
[mail.inbound]
kind = "maildir"
path = "in"
[mail.outbound]
kind = "maildir"
path = "out"
from = "gm@example.org"
[daemon]
poll_interval = 1
lease = "{lease}"
[limits]
replies_per_hour = 100000
replies_per_day = 100000
{tables}""")
        for n in range(mails):
            game, (sender, password) = n % games + 1, senders[n // games % len(senders)]
            raw = (f"From: {sender}\r\nTo: venice{game}@example.org\r\nSubject: bids {n}\r\n"
                   f"Message-ID: <backlog-{n}@example.org>\r\n\r\n#venice{game}{password}\r\n"
                   f"bid {n % 40 + 1}$ for 1 of silk tax\r\n").encode()
            path = deliver(tmp / "in", raw, name=f"b{n:05d}")
            os.utime(path, (BEFORE.timestamp() + n / 1000, BEFORE.timestamp() + n / 1000))
        self.procs: dict[str, subprocess.Popen[str]] = {}

    def maild(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "maild", "--config", str(self.config), *args],
                              capture_output=True, text=True, timeout=300, cwd=self.tmp)

    def init(self) -> None:
        done = self.maild("--now", SET_UP_AT, "init")
        assert done.returncode == 0, done.stderr

    def start(self, name: str, crash: str | None = None, now: str = AFTER) -> subprocess.Popen[str]:
        env = {k: v for k, v in os.environ.items() if k != "MAILD_CRASH_AT"}
        if crash:
            env["MAILD_CRASH_AT"] = crash
        with (self.tmp / f"{name}.log").open("w") as log:
            proc = subprocess.Popen([sys.executable, "-m", "maild", "--config", str(self.config), "run", "--now",
                                     now], cwd=self.tmp, stdout=log, stderr=subprocess.STDOUT, text=True, env=env)
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text()

    def query(self, sql: str, **params: object) -> list[tuple[object, ...]]:
        db = Database(self.url)
        try:
            with db.engine.connect() as conn:
                return [tuple(r) for r in conn.execute(text(sql), params)]
        finally:
            db.close()

    def games_held_by(self, pid: int) -> list[str]:
        return [str(n) for (n,) in self.query(
            "SELECT name FROM leases WHERE name LIKE 'game:%' AND holder LIKE :pid AND expires_at > "
            f"{SERVER_NOW} ORDER BY name", pid=f"% pid {pid} %")]

    def drained(self) -> bool:
        """Every mail stored and read, every turn due run, every mail queued sent."""
        if any((self.tmp / "in" / "new").iterdir()):
            return False
        ((stored, new, queued, open_turns),) = self.query(
            "SELECT (SELECT count(*) FROM inbound_mails), (SELECT count(*) FROM inbound_mails WHERE status = 'new'), "
            "(SELECT count(*) FROM outbound_mails WHERE status = 'queued'), "
            "(SELECT count(*) FROM turns WHERE number = 1 AND status <> 'done')")
        return stored == self.fed and new == 0 and queued == 0 and open_turns == 0

    def kill_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.kill()
                proc.wait()

    def check_everything_once(self) -> None:
        """Every mail stored once, read once (for turn 1, which it came before) and answered once; every game's
        turn 1 run once, its printouts sent once; every mail in the outbox Maildir once."""
        statuses = dict(self.query("SELECT status, count(*) FROM inbound_mails GROUP BY status"))
        assert statuses == {"orders": self.fed}, statuses
        assert self.query("SELECT turn, count(*) FROM order_sets GROUP BY turn") == [(1, self.fed)]
        acks = self.query("SELECT count(*), count(DISTINCT key) FROM outbound_mails WHERE kind = 'ack' "
                          "AND status = 'sent'")
        assert acks == [(self.fed, self.fed)]
        turns = self.query("SELECT g.name, t.number, t.status FROM turns t JOIN games g ON g.id = t.game_id "
                           "ORDER BY g.name, t.number")
        assert turns == [(f"venice{g}", n, s) for g in range(1, self.games + 1) for n, s in ((1, "done"),
                                                                                                (2, "open"))], turns
        printouts = self.query("SELECT count(*), count(DISTINCT key) FROM outbound_mails WHERE key LIKE 'printout:%' "
                               "AND status = 'sent'")
        assert printouts == [(self.players * self.games, self.players * self.games)]
        ids = {str(i) for (i,) in self.query("SELECT message_id FROM outbound_mails")}
        assert_delivered_once(self.tmp / "out", ids)


def assert_delivered_once(outbox: Path, ids: set[str]) -> None:
    """Each of the outbound rows' Message-IDs `ids` is in the outbox Maildir once, and nothing else is."""
    files = sorted((outbox / "new").iterdir())
    delivered = [email.message_from_bytes(f.read_bytes(), policy=default)["Message-ID"] for f in files]
    assert len(delivered) == len(set(delivered)), "a mail was delivered twice"
    assert set(delivered) == ids


def lapse(url: str, holder: str | None = None) -> None:
    """As if the holder (every one, if None) had not renewed for longer than its lease."""
    db = Database(url)
    try:
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE leases SET expires_at = expires_at - interval '1 hour' "
                              "WHERE holder = :holder OR CAST(:holder AS text) IS NULL"), {"holder": holder})
    finally:
        db.close()


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> float:
    """Seconds it took."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, what
        time.sleep(0.1)
    return time.monotonic() - started
