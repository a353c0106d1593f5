"""Outbound mail claimed row by row (maild/outbox_claims.py): several deliverers on one PostgreSQL database send
each mail once; a claim left by a deliverer killed mid-batch is taken again once its period is over, and only
the mails it had handed over unrecorded go twice. SQLite claims nothing."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from maild.app import App
from maild.mail.base import OutgoingMail, SendResult
from maild.models import OutboundMail
from maild.outbox import OutboxRun, queue_mail
from maild.outboxview import line, listed
from tests.conftest import make_app
from tests.outbox_helpers import Monotonic, run_db

T0 = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


class Recorder:
    """A sender that notes each mail handed to it (thread-safe), taking `pause` seconds a mail."""

    def __init__(self, sent: list[str], lock: threading.Lock, pause: float = 0.0) -> None:
        self.sent, self.lock, self.pause = sent, lock, pause

    async def send(self, mail: OutgoingMail) -> SendResult:
        await asyncio.sleep(self.pause)
        with self.lock:
            self.sent.append(mail.message_id)
        return SendResult("sent")

    async def close(self) -> None:
        pass


def claims_app(tmp_path: Path, url: str, *, lease: float = 60.0, batch: int = 10) -> App:
    app = make_app(tmp_path, url, T0)
    app.config = replace(app.config, lease=lease, send_batch=batch)
    return app


def queue(app: App, count: int) -> list[str]:
    with app.db.session() as s:
        for n in range(count):
            queue_mail(s, app, key=f"k{n}", kind="printout", to=[f"p{n}@example.org"], subject="s", body="b")
    with app.db.session() as s:
        return list(s.scalars(select(OutboundMail.message_id).order_by(OutboundMail.id)))


def statuses(app: App) -> dict[tuple[str, str | None], int]:
    with app.db.session() as s:
        rows = s.execute(select(OutboundMail.status, OutboundMail.claimed_by, func.count())
                         .group_by(OutboundMail.status, OutboundMail.claimed_by)).all()
    return {(status, claimed): n for status, claimed, n in rows}


@pytest.mark.postgres
def test_two_deliverers_racing_send_each_mail_once(tmp_path: Path, pg_url: str) -> None:
    apps = [claims_app(tmp_path / name, pg_url) for name in ("a", "b")]
    try:
        ids = queue(apps[0], 300)
        sent: list[str] = []
        lock = threading.Lock()
        by: dict[str, int] = {}
        start = threading.Barrier(2)

        def deliver(app: App, name: str) -> None:
            run = OutboxRun(app, Recorder(sent, lock, pause=0.002), run_db, holder=f"test {name}")
            start.wait()
            asyncio.run(run.send_more())
            by[name] = run.sent

        threads = [threading.Thread(target=deliver, args=(app, name)) for app, name in zip(apps, "ab", strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert Counter(sent) == Counter(ids)  # every mail once, none twice
        assert by["a"] > 0 and by["b"] > 0 and by["a"] + by["b"] == 300, by  # both took part
        assert statuses(apps[0]) == {("sent", None): 300}  # every claim cleared with its record
    finally:
        for app in apps:
            app.db.close()


# A deliverer in a process of its own, killed (crash point `send.delivered`) after it handed over its third mail
# and before it recorded any: its claim on the batch stays behind.
_DOOMED = textwrap.dedent("""
    import asyncio, os, sys
    from dataclasses import replace
    from datetime import UTC, datetime
    from pathlib import Path
    from maild.mail.base import SendResult
    from maild.outbox import OutboxRun
    from maild.testing import maildir_config, open_app
    from tests.outbox_helpers import run_db

    folder, url, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    app = open_app(maildir_config(folder, url), folder, datetime(2026, 11, 22, 9, 0, tzinfo=UTC))
    app.config = replace(app.config, lease=float(sys.argv[4]), send_batch=10)

    class Noting:
        async def send(self, mail):
            with out.open("a") as f:
                f.write(mail.message_id + "\\n")
                f.flush()
                os.fsync(f.fileno())
            return SendResult("sent")

        async def close(self):
            pass

    asyncio.run(OutboxRun(app, Noting(), run_db, holder="doomed").send_more())
""")


@pytest.mark.postgres
def test_a_claim_left_by_a_killed_deliverer_is_taken_again_after_its_period(tmp_path: Path, pg_url: str) -> None:
    period = 3.0
    app = claims_app(tmp_path, pg_url, lease=period)
    try:
        ids = queue(app, 15)
        out = tmp_path / "doomed.txt"
        doomed = subprocess.run([sys.executable, "-c", _DOOMED, str(tmp_path / "doomed"), pg_url, str(out),
                                 str(period)], env={**os.environ, "MAILD_CRASH_AT": "send.delivered:3"},
                                cwd=Path(__file__).parent.parent, capture_output=True, text=True, timeout=120)
        killed_at = time.monotonic()
        assert doomed.returncode == -9, doomed.stderr
        handed = out.read_text().split()
        assert handed == ids[:3]
        assert statuses(app) == {("queued", "doomed"): 10, ("queued", None): 5}
        with app.db.session() as s:  # `maild outbox list` says who holds them
            lines = [line(row) for row in listed(s)]
        assert [" claimed by doomed until " in text for text in lines] == [True] * 10 + [False] * 5

        sent: list[str] = []
        run = OutboxRun(app, Recorder(sent, threading.Lock()), run_db, holder="heir")
        asyncio.run(run.send_more())
        assert sent == ids[10:]  # the dead one's claim still runs: its ten are left alone
        due_in = asyncio.run(run.next_due_in())
        assert due_in is not None and 0 < due_in <= period  # woken when that claim ends, not every second

        time.sleep(max(0.0, period - (time.monotonic() - killed_at)) + 0.2)
        asyncio.run(run.send_more())
        assert sent == ids[10:] + ids[:10]
        # The three handed over and never recorded went twice (the one duplicate no design closes); the rest once.
        assert Counter(handed + sent) == Counter({**dict.fromkeys(ids, 1), **dict.fromkeys(ids[:3], 2)})
        assert statuses(app) == {("sent", None): 15}
    finally:
        app.db.close()


class SlowServer:
    """Each mail takes half the claim's period (on a monotonic clock moved by hand)."""

    def __init__(self, clock: Monotonic, step: float) -> None:
        self.clock, self.step, self.sent = clock, step, list[str]()

    async def send(self, mail: OutgoingMail) -> SendResult:
        self.clock.now += self.step
        self.sent.append(mail.message_id)
        return SendResult("sent")

    async def close(self) -> None:
        pass


@pytest.mark.postgres
def test_no_mail_is_handed_over_under_a_claim_about_to_lapse(tmp_path: Path, pg_url: str) -> None:
    """A slow server: after two mails at half a period each, the batch's claim has run two thirds of its period,
    so the rest of the batch is given back and claimed afresh before it goes."""
    app = claims_app(tmp_path, pg_url, lease=60.0, batch=5)
    try:
        ids = queue(app, 5)
        clock = Monotonic()
        server = SlowServer(clock, 30.0)
        calls: list[str] = []

        async def counting_db(fn, *args):  # type: ignore[no-untyped-def]
            calls.append(fn.__name__)
            return fn(*args)

        run = OutboxRun(app, server, counting_db, holder="slow", monotonic=clock)
        asyncio.run(run.send_more())
        assert server.sent == ids
        assert calls.count("next_batch") == 4  # [1 2] [3 4] [5] and one finding nothing
        assert statuses(app) == {("sent", None): 5}
    finally:
        app.db.close()


def test_sqlite_claims_nothing(tmp_path: Path) -> None:
    app = claims_app(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}")
    try:
        ids = queue(app, 3)
        sent: list[str] = []
        seen: list[tuple[str | None, datetime | None]] = []

        class Looking(Recorder):
            async def send(self, mail: OutgoingMail) -> SendResult:
                with app.db.session() as s:
                    seen.extend(s.execute(select(OutboundMail.claimed_by, OutboundMail.claim_until)).all())
                return await super().send(mail)

        asyncio.run(OutboxRun(app, Looking(sent, threading.Lock()), run_db).send_more())
        assert sent == ids
        assert set(seen) == {(None, None)}
    finally:
        app.db.close()
