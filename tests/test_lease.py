"""The daemon's lease on PostgreSQL (maild/lease.py): taken when free or lapsed, renewed, fenced in every
transaction, and what real daemons do with it when their connections are cut, when one is frozen longer than
the lease and another takes over, when one is killed, and when the database is away longer than the lease."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from maild.db import Database, upgrade
from maild.lease import (
    DAEMON,
    Lease,
    LeaseHeld,
    LeaseLost,
    LeaseUncertain,
    name_sessions,
    new_holder,
    presence,
    session_name,
    take,
)
from maild.lock import EXIT_LEASE_LOST, HOLDER_ENV, single_daemon
from maild.mail.base import OutgoingMail, SendResult
from maild.mail.leased import LeasedSender, leased
from maild.mail.maildir import deliver
from maild.testing import postgres_schema
from tests.conftest import PG_URL, _pg_available, write_gm_config
from tests.mailflow import order_mail
from tests.manydaemons import assert_delivered_once, lapse, wait_until
from tests.tcpproxy import TcpProxy

pytestmark = pytest.mark.postgres

NOW = "2026-11-22T09:00+01:00"
PERIOD = 2.0  # the tests' lease: seconds, not a minute


@pytest.fixture
def pg_url() -> Iterator[str]:
    if not _pg_available():
        pytest.skip(f"PostgreSQL is not reachable at {PG_URL}")
    with postgres_schema(PG_URL) as url:
        db = Database(url)
        upgrade(db.engine)
        db.close()
        yield url


def row(url: str, name: str = DAEMON) -> Any:
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            return conn.execute(text("SELECT holder, token, expires_at FROM leases WHERE name = :name"),
                                {"name": name}).first()
    finally:
        db.close()


def daemon_row(url: str, pid: int) -> Any:
    """The lease of the daemon run with this pid (its own, `daemon:<run>`), as `row` gives it."""
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            return conn.execute(text("SELECT holder, token, expires_at, name FROM leases WHERE name LIKE 'daemon:%' "
                                     "AND holder LIKE :pid ORDER BY acquired_at DESC"), {"pid": f"% pid {pid} %"}
                                ).first()
    finally:
        db.close()


# -- the lease in one process ------------------------------------------------------------------------------

def test_taken_when_free_refused_while_live_taken_again_when_released(pg_url: str) -> None:
    first = take(pg_url, DAEMON, PERIOD)
    try:
        assert first.token == 1
        with pytest.raises(LeaseHeld, match=rf"{first.holder} holds the lease until .* UTC \(database time\)"):
            take(pg_url, DAEMON, PERIOD)
        assert f"pid {os.getpid()}" in first.holder
    finally:
        first.release()
        first.engine.dispose()
    second = take(pg_url, DAEMON, PERIOD)
    try:
        assert second.token == 2 and second.holder != first.holder
    finally:
        second.release()
        second.engine.dispose()


def test_a_lapsed_lease_is_taken_with_a_larger_token(pg_url: str) -> None:
    first = take(pg_url, DAEMON, 60)
    lapse(pg_url)
    second = take(pg_url, DAEMON, 60)
    try:
        assert (second.token, row(pg_url).holder) == (2, second.holder)
        with pytest.raises(LeaseLost, match=f"held by {second.holder}"):
            first.renew()
        assert first.lost is not None
    finally:
        for lease in (first, second):
            lease.release()
            lease.engine.dispose()


def test_the_old_holder_writes_nothing_once_the_lease_was_taken(pg_url: str) -> None:
    """The fence: the holder's next transaction sees the new holder and raises before it writes, and
    `on_lost` is told once."""
    db = Database(pg_url)
    told: list[str] = []
    try:
        with single_daemon(db, 60, on_lost=told.append) as lease:
            assert lease is not None
            with db.session() as s:
                s.execute(text("INSERT INTO games (name, ruleset, seed, turn, finished, created_at) "
                               "VALUES ('before', 'venice', 1, 1, false, now())"))
            lapse(pg_url)
            taker = take(pg_url, lease.name, 60)
            for _ in range(2):
                with pytest.raises(LeaseLost), db.session() as s:
                    s.execute(text("INSERT INTO games (name, ruleset, seed, turn, finished, created_at) "
                                   "VALUES ('after', 'venice', 1, 1, false, now())"))
            assert told == [f"the lease is held by {taker.holder} now"]
            with db.engine.connect() as conn:
                assert conn.execute(text("SELECT name FROM games")).scalars().all() == ["before"]
        assert row(pg_url, lease.name).holder == taker.holder  # its exit released nothing of the taker's
        taker.engine.dispose()
    finally:
        db.close()


def test_a_taker_waits_for_the_holders_transaction_in_flight_and_ends_it_if_the_lease_lapsed(pg_url: str) -> None:
    """A holder frozen inside a transaction (SIGSTOP, a VM paused) keeps the lease row locked: once its lease
    has lapsed, the taker ends its sessions, so its transaction is rolled back and nothing of it is kept."""
    db = Database(pg_url)
    holder = take(pg_url, DAEMON, PERIOD)  # no heartbeat: it is frozen too
    name_sessions(db.engine, holder.holder)
    db.fence = holder.fence
    try:
        frozen = db.session()
        s = frozen.__enter__()  # the fence ran: the row is held FOR KEY SHARE
        s.execute(text("INSERT INTO games (name, ruleset, seed, turn, finished, created_at) "
                       "VALUES ('frozen', 'venice', 1, 1, false, now())"))
        lapse(pg_url)
        started = time.monotonic()
        taker = take(pg_url, DAEMON, PERIOD)
        assert time.monotonic() - started < 10 and taker.token == 2
        with pytest.raises(Exception):  # noqa: B017 - the server ended the session: its commit fails
            frozen.__exit__(None, None, None)
        with pytest.raises(LeaseLost):  # and the next transaction finds the new holder
            db.transaction(lambda s: None)
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM games")).scalar() == 0
        taker.engine.dispose()
    finally:
        holder.engine.dispose()
        db.close()


def test_a_lapsed_lease_nobody_took_is_renewed(pg_url: str) -> None:
    lease = take(pg_url, DAEMON, 60)
    try:
        lapse(pg_url)
        lease.renew()
        assert lease.lost is None and row(pg_url).token == 1
        with pytest.raises(LeaseHeld):
            take(pg_url, DAEMON, 60)
    finally:
        lease.release()
        lease.engine.dispose()


def test_a_daemon_started_again_in_place_takes_its_own_lease_at_once(pg_url: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """After a stall the daemon execs itself (maild/intake/stall.py): same process, its memory gone, its lease
    still live. It recognises its predecessor's holder and goes on instead of waiting a lease period."""
    holder = new_holder()
    before = take(pg_url, presence(holder), 60, holder=holder)
    monkeypatch.setenv(HOLDER_ENV, before.holder)
    monkeypatch.setenv("MAILD_RESTARTED_AFTER_STALL", "1")
    db = Database(pg_url)
    try:
        with single_daemon(db, 60) as lease:
            assert lease is not None and lease.token == 2 and lease.holder == holder
        # Not started again in place: a run of its own, beside whoever holds the predecessor's lease.
        monkeypatch.setenv(HOLDER_ENV, holder)
        before = take(pg_url, presence(holder), 60, holder=holder)
        with single_daemon(db, 60) as lease:
            assert lease is not None and lease.holder != holder and lease.token == 1
    finally:
        before.engine.dispose()
        db.close()


def test_a_holder_gone_from_this_machine_is_taken_over_at_once(pg_url: str) -> None:
    """A daemon killed on this machine leaves a lease that still runs; the next one started here sees that no
    process has the holder's pid and the server has no session of it, and takes over without waiting. A holder
    whose pid lives, or of another host, keeps its lease until it lapses."""
    import socket

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    host = socket.gethostname()
    for holder, free in [(f"{host} pid {ended.stdout.strip()} run 0a1b", True), (f"{host} pid {os.getpid()} run 0a1b",
                         False), (f"elsewhere pid {ended.stdout.strip()} run 0a1b", False)]:
        first = take(pg_url, DAEMON, 60, holder=holder)
        first.engine.dispose()  # its sessions are gone, as a killed process's are
        if free:
            second = take(pg_url, DAEMON, 60)
            assert second.token == first.token + 1
        else:
            with pytest.raises(LeaseHeld, match=holder):
                take(pg_url, DAEMON, 60)
            second = first
        second.release()
        second.engine.dispose()
        lapse(pg_url)


class FakeMonotonic:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, mail: OutgoingMail) -> SendResult:
        self.sent.append(mail.message_id)
        return SendResult("sent")

    async def close(self) -> None:
        pass


def test_no_mail_leaves_on_a_lease_about_to_lapse() -> None:
    """Unit test on an injected monotonic clock: a sender delivers while the lease was renewed within two
    thirds of its period, waits for a renewal past that (nudging the heartbeat), and hands nothing over if none
    comes (a mail is `held`, not tried; a batch raises) or once the lease is lost."""
    clock = FakeMonotonic()
    lease = Lease(engine=None, name=DAEMON, holder="h", token=1, period=30.0, monotonic=clock,  # type: ignore[arg-type]
                  renewed=clock.now)
    inner = Recorder()
    sender = leased(inner, lease)
    assert isinstance(sender, LeasedSender) and not hasattr(sender, "send_batch")
    assert sender.breaker is None  # the transport's, forwarded: the outbox looks for it
    mail = OutgoingMail("<1@x>", "gm@example.org", ["a@example.org"], b"")
    clock.now += 19
    assert asyncio.run(sender.send(mail)).status == "sent"
    assert inner.sent == ["<1@x>"]
    clock.now += 2  # 21 s without a renewal: less than a third of the lease left

    async def renewed_meanwhile() -> None:
        task = asyncio.ensure_future(sender.send(mail))
        await asyncio.sleep(0.2)
        assert not task.done() and lease.wake.is_set() and inner.sent == ["<1@x>"]
        lease.renewed = clock.now
        await task

    asyncio.run(renewed_meanwhile())
    assert inner.sent == ["<1@x>"] * 2
    lease.period = 0.3  # waits a third of it, then gives up
    clock.now += 1
    held = asyncio.run(sender.send(mail))
    assert held.held and "not been renewed" in held.detail
    batches = leased(MaildirLike(), lease)
    with pytest.raises(LeaseUncertain):
        asyncio.run(batches.send_batch([mail]))  # type: ignore[attr-defined]
    lease.lost = "taken"
    with pytest.raises(LeaseLost):
        asyncio.run(sender.send(mail))
    assert inner.sent == ["<1@x>"] * 2
    assert leased(inner, None) is inner  # SQLite: the kernel's lock, no lease


class MaildirLike(Recorder):
    async def send_batch(self, mails: list[OutgoingMail]) -> list[SendResult]:
        return [await self.send(m) for m in mails]


# -- real daemons ------------------------------------------------------------------------------------------

class Daemons:
    """`maild run` processes on one PostgreSQL schema, a Maildir inbox fed without pause, a Maildir outbox."""

    def __init__(self, tmp: Path, url: str, period: float = PERIOD) -> None:
        self.tmp = tmp
        config = write_gm_config(tmp, inbox="in", outbox="out", daemon=f'poll_interval = 1\nlease = "{period:.0f}s"')
        text_ = config.read_text().replace('url = "sqlite:///maild.db"', f'url = "{url}"')
        self.config = config
        config.write_text(text_ + "[limits]\nreplies_per_hour = 100000\nreplies_per_day = 100000\n")
        self.url = url
        self.procs: list[subprocess.Popen[str]] = []
        self.fed = 0
        self._stop = threading.Event()
        self._feeder: threading.Thread | None = None

    def start(self, name: str) -> subprocess.Popen[str]:
        log = (self.tmp / f"{name}.log").open("w")
        proc = subprocess.Popen([sys.executable, "-m", "maild", "--config", str(self.config), "run", "--now", NOW],
                                cwd=self.tmp, stdout=log, stderr=subprocess.STDOUT, text=True)
        log.close()
        self.procs.append(proc)
        return proc

    def log(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text()

    def feed(self, every: float = 0.2, per: int = 3) -> None:
        def run() -> None:
            while not self._stop.is_set():
                for _ in range(per):
                    deliver(self.tmp / "in", order_mail(self.fed, "lease"), name=f"m{self.fed:05d}")
                    self.fed += 1
                time.sleep(every)

        self._feeder = threading.Thread(target=run)
        self._feeder.start()

    def stop_feeding(self) -> None:
        self._stop.set()
        if self._feeder is not None:
            self._feeder.join()

    def acks_delivered(self) -> int:
        return len(list((self.tmp / "out" / "new").glob("maild-*"))) if (self.tmp / "out" / "new").exists() else 0

    def inodes(self) -> dict[str, int]:
        return {f.name: f.stat().st_ino for f in (self.tmp / "out" / "new").iterdir()}

    def wait_drained(self, timeout: float = 120) -> None:
        """Every mail fed is read and every answer delivered."""
        db = Database(self.url)
        try:
            def drained() -> bool:
                if any((self.tmp / "in" / "new").iterdir()):
                    return False
                with db.engine.connect() as conn:
                    stored = conn.execute(text("SELECT count(*) FROM inbound_mails WHERE status <> 'duplicate'")
                                          ).scalar()
                    left = conn.execute(text("SELECT count(*) FROM inbound_mails WHERE status = 'new'")).scalar()
                    queued = conn.execute(text("SELECT count(*) FROM outbound_mails WHERE status = 'queued'")
                                          ).scalar()
                return stored == self.fed and left == 0 and queued == 0

            wait_until(drained, timeout, "the daemon did not read and answer every mail")
        finally:
            db.close()

    def kill_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.kill()
                proc.wait()

    def check_each_mail_once(self) -> int:
        """Every mail fed was stored once, read once and answered once; every answer is in the outbox Maildir
        once. Returns the number of mails."""
        db = Database(self.url)
        try:
            with db.engine.connect() as conn:
                statuses = dict(conn.execute(text("SELECT status, count(*) FROM inbound_mails GROUP BY status")).all())
                acks = conn.execute(text("SELECT count(*), count(DISTINCT key) FROM outbound_mails "
                                         "WHERE kind = 'ack' AND status = 'sent'")).one()
                ids = set(conn.execute(text("SELECT message_id FROM outbound_mails")).scalars())
        finally:
            db.close()
        assert statuses == {"orders": self.fed}, statuses
        assert tuple(acks) == (self.fed, self.fed)
        assert_delivered_once(self.tmp / "out", ids)
        return self.fed


@pytest.fixture
def daemons(tmp_path: Path, pg_url: str) -> Iterator[Daemons]:
    d = Daemons(tmp_path, pg_url)
    try:
        yield d
    finally:
        d.stop_feeding()
        d.kill_all()


def end_sessions(url: str, holder: str) -> int:
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            return int(conn.execute(text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                         "WHERE application_name = :app"), {"app": session_name(holder)}).scalar())
    finally:
        db.close()


def working(d: Daemons, acks: int = 15) -> None:
    wait_until(lambda: d.acks_delivered() >= acks, 120, "the daemon sent nothing")


@pytest.mark.slow
def test_a_daemon_whose_connections_are_cut_keeps_its_lease_and_a_second_works_beside_it(daemons: Daemons) -> None:
    """(a) `pg_terminate_backend` on every session of a running daemon (an idle-connection killer): its lease is a
    row, not its session's, so it reconnects and goes on under the same lease and token; a second daemon started
    meanwhile works beside it under a lease of its own (it was refused while one daemon held a database), and
    every mail is still read and answered once."""
    first = daemons.start("first")
    daemons.feed()
    working(daemons)
    holder, token, _, _ = daemon_row(daemons.url, first.pid)
    assert end_sessions(daemons.url, holder) >= 1
    second = daemons.start("second")
    before = daemons.acks_delivered()
    wait_until(lambda: daemons.acks_delivered() >= before + 15, 120, "the daemons did not go on")
    assert second.poll() is None
    assert tuple(daemon_row(daemons.url, first.pid))[:2] == (holder, token)
    wait_until(lambda: daemon_row(daemons.url, second.pid) is not None, 60, "the second daemon did not start")
    assert daemon_row(daemons.url, second.pid).holder != holder
    daemons.stop_feeding()
    daemons.wait_drained()
    for proc in (first, second):
        proc.terminate()
        assert proc.wait(timeout=120) == 0
    daemons.check_each_mail_once()


@pytest.mark.slow
def test_a_frozen_daemon_taken_over_writes_nothing_when_it_wakes(daemons: Daemons) -> None:
    """(b) SIGSTOP the daemon for longer than its lease: a second one takes over (ending the frozen one's
    sessions if it was inside a transaction). SIGCONT: the first notices at its next transaction (or its
    heartbeat's renewal) and exits with status 3, writing nothing; every mail of both phases is answered once.
    A batch the first had begun handing to the outbox Maildir when it froze would be finished on waking
    (documented window): counted as files of the outbox written again after the wake."""
    first = daemons.start("first")
    daemons.feed()
    working(daemons)
    holder, _, _, lease = daemon_row(daemons.url, first.pid)
    first.send_signal(signal.SIGSTOP)
    frozen_at = time.monotonic()
    time.sleep(PERIOD + 1)
    second = daemons.start("second")
    took = wait_until(lambda: row(daemons.url, lease).holder != holder, 120, "the second daemon did not take over")
    assert f"pid {second.pid}" in row(daemons.url, lease).holder and row(daemons.url, lease).token == 2
    assert f"pid {second.pid}" in row(daemons.url, "game:venice1").holder
    before = daemons.acks_delivered()
    wait_until(lambda: daemons.acks_delivered() >= before + 15, 120, "the second daemon sent nothing")
    inodes = daemons.inodes()
    first.send_signal(signal.SIGCONT)
    woke = time.monotonic()
    assert first.wait(timeout=60) == EXIT_LEASE_LOST
    exited = time.monotonic() - woke
    log = daemons.log("first")
    assert f"lease {lease} lost" in log and "the daemon's lease was lost" in log
    after = daemons.inodes()
    rewritten = [name for name, ino in inodes.items() if after.get(name) != ino]
    daemons.stop_feeding()
    daemons.wait_drained()
    second.terminate()
    assert second.wait(timeout=120) == 0
    mails = daemons.check_each_mail_once()
    print(f"frozen {took + PERIOD + 1:.1f} s before the takeover; {mails} mails; the first exited "
          f"{exited:.2f} s after waking; outbox files written again by it: {len(rewritten)}")
    assert len(rewritten) <= 100  # at most the batch in flight at the stop ([mail.outbound] batch)
    assert time.monotonic() - frozen_at < 300


@pytest.mark.slow
@pytest.mark.parametrize("period", [PERIOD, 60.0])
def test_a_killed_daemon_is_taken_over_within_one_lease_period(tmp_path: Path, pg_url: str, period: float) -> None:
    """(c) SIGKILL the holder: a daemon started after it takes over its game and inbox within one lease period
    (plus its own start); on the same machine at once, as the killed holder's pid and sessions are gone (the
    lease of a minute shows it)."""
    daemons = Daemons(tmp_path, pg_url, period)
    try:
        first = daemons.start("first")
        daemons.feed()
        working(daemons)
        holder = daemon_row(daemons.url, first.pid).holder
        first.kill()
        killed = time.monotonic()
        first.wait()
        second = daemons.start("second")
        wait_until(lambda: row(daemons.url, "game:venice1").holder != holder, 120, "nobody took the game over")
        took = time.monotonic() - killed
        assert f"pid {second.pid}" in row(daemons.url, "game:venice1").holder
        print(f"taken over {took:.2f} s after the kill (lease {period:.0f} s)")
        assert took < min(period, 10) + 10  # the lease's rest, and a daemon's start on a loaded machine
        daemons.stop_feeding()
        daemons.wait_drained()
        daemons.procs[-1].terminate()
        assert daemons.procs[-1].wait(timeout=120) == 0
        daemons.check_each_mail_once()
    finally:
        daemons.stop_feeding()
        daemons.kill_all()


@pytest.mark.slow
def test_a_database_away_longer_than_the_lease_loses_and_doubles_nothing(tmp_path: Path, pg_url: str) -> None:
    """(d) The database goes away (its connections cut, nothing answering) for longer than the lease, with no
    other daemon about, as in a restart: when it is back the daemon renews the lease it still holds, under the
    same token, and goes on; every mail that came meanwhile is read and answered once."""
    upstream = make_url(PG_URL)
    proxy = TcpProxy((upstream.host or "127.0.0.1", upstream.port or 5432))
    proxied = pg_url.replace(f"{upstream.host}:{upstream.port or 5432}", f"127.0.0.1:{proxy.port}")
    d = Daemons(tmp_path, proxied)
    try:
        first = d.start("first")
        d.feed()
        working(d)
        holder, token, _, lease = daemon_row(pg_url, first.pid)
        proxy.cut()
        end_sessions(pg_url, holder)  # those the server had not noticed yet
        time.sleep(PERIOD * 2)
        assert first.poll() is None
        lapsed = row(pg_url, lease)
        proxy.mend()
        before = d.acks_delivered()
        wait_until(lambda: d.acks_delivered() >= before + 15, 120, "the daemon did not go on after the outage")
        assert tuple(row(pg_url, lease))[:2] == (holder, token) and row(pg_url, lease).expires_at > lapsed.expires_at
        assert "renewed after" in d.log("first")
        d.stop_feeding()
        d.wait_drained()
        first.terminate()
        assert first.wait(timeout=120) == 0
        d.url = pg_url
        d.check_each_mail_once()
    finally:
        d.stop_feeding()
        d.kill_all()
        proxy.close()


@pytest.mark.slow
def test_a_daemon_that_stalls_starts_again_in_place_under_its_own_lease(tmp_path: Path, pg_url: str) -> None:
    """The stall guard makes `maild run` exec itself (maild/intake/stall.py): the new image takes the lease its
    predecessor, the same process, still holds, at once (not a lease period later, here a minute), retries the
    stalled mail alone and sets it aside."""
    from tests.poisonmail import poison_inbox

    config, args = poison_inbox(tmp_path, 'max_intake_attempts = 2\nintake_mail_seconds = 1\npoll_interval = 1\n'
                                 'lease = "60s"')
    config.write_text(config.read_text().replace('url = "sqlite:///maild.db"', f'url = "{pg_url}"'))
    args.remove("--once")
    with (tmp_path / "daemon.log").open("w") as log:
        daemon = subprocess.Popen(args, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, text=True,
                                  env={**os.environ, "STALL": "1"})
    db = Database(pg_url)
    try:
        def statuses() -> list[str]:
            with db.engine.connect() as conn:
                return list(conn.execute(text("SELECT status FROM inbound_mails ORDER BY id")).scalars())

        took = wait_until(lambda: statuses() == ["orders", "poison", "orders"], 50, "the daemon did not go on")
        assert daemon.poll() is None
        assert daemon_row(pg_url, daemon.pid).token == 3  # twice started in place
        print(f"set aside after {took:.1f} s, two starts in place")
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)
        db.close()
    assert (tmp_path / "daemon.log").read_text().count("maild: intake stalled on mail 2; the daemon starts again") == 2
