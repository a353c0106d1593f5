"""The outbox when things go wrong around it: a clock that steps, a mail server that is silent, refuses or
says 421, a delivery cancelled by SIGTERM. The SMTP peers are real (aiosmtpd, a silent loopback server, a
closed port); the wall clock and the monotonic clock are moved by hand."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from maild.app import App
from maild.mail.breaker import Breaker
from maild.mail.smtp import SmtpSender
from maild.models import OutboundMail
from maild.outbox import OutboxRun, queue_mail, send_due
from tests.conftest import make_app
from tests.outbox_helpers import ManualTime, Monotonic, run_db
from tests.servers import SmtpPeer, SmtpPeerFactory, free_port, silent_server

pytest_plugins = ["tests.servers"]

T0 = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


def queue(app: App, n: int) -> None:
    with app.db.session() as s:
        for i in range(n):
            queue_mail(s, app, key=f"k{i}", kind="printout", to=[f"p{i}@example.org"], subject=f"turn 3 {i}",
                       body="b")


def rows(app: App) -> dict[str, OutboundMail]:
    with app.db.session() as s:
        return {row.key: row for row in s.query(OutboundMail)}


@pytest.fixture
async def senders() -> AsyncIterator[list[SmtpSender]]:
    made: list[SmtpSender] = []
    yield made
    for sender in made:
        await sender.close()


def smtp_sender(senders: list[SmtpSender], port: int, clock: Monotonic | None = None, **kwargs: Any) -> SmtpSender:
    breaker = Breaker(f"127.0.0.1:{port}", monotonic=clock) if clock is not None else None
    sender = SmtpSender("127.0.0.1", port, local_hostname="maild.test", breaker=breaker,
                        **{"timeout": 5.0, "connect_timeout": 1.0, **kwargs})
    senders.append(sender)
    return sender


# --------------------------------------------------------------------------- a clock that steps


async def test_a_retry_waits_its_pause_after_the_clock_steps_back_three_hours(
        tmp_path: Path, db_url: str, smtp_peer: SmtpPeer, senders: list[SmtpSender]) -> None:
    app = make_app(tmp_path, db_url, T0)
    queue(app, 1)
    clock = ManualTime(app, T0)
    run = OutboxRun(app, smtp_sender(senders, smtp_peer.port), run_db, monotonic=clock.monotonic)
    smtp_peer.data_replies.append("451 4.3.0 Try again later")
    await run.send_more()
    assert rows(app)["k0"].next_attempt_at == T0 + timedelta(seconds=30)
    clock.step_wall(-timedelta(hours=3))  # NTP stepped the clock back three hours
    assert await run.next_due_in() == 30
    clock.advance(29)
    await run.send_more()
    assert smtp_peer.received == []  # the pause is not over yet...
    clock.advance(1)
    await run.send_more()
    assert (run.sent, len(smtp_peer.received)) == (1, 1)  # ...and now it is, not three hours later


async def test_after_a_restart_a_retry_time_hours_ahead_is_due_at_once(
        tmp_path: Path, db_url: str, smtp_peer: SmtpPeer, senders: list[SmtpSender]) -> None:
    # A new process cannot measure the pause an earlier one began; a retry time further ahead than the
    # longest pause can only come from a clock that stepped back, so the mail goes now.
    app = make_app(tmp_path, db_url, T0)
    queue(app, 1)
    sender = smtp_sender(senders, smtp_peer.port)
    smtp_peer.data_replies.append("451 4.3.0 Try again later")
    assert await send_due(app, sender, run_db) == (0, 0)
    ManualTime(app, T0 - timedelta(hours=3))
    assert await send_due(app, sender, run_db) == (1, 0)
    assert len(smtp_peer.received) == 1


async def test_in_the_running_daemon_a_step_back_under_an_hour_delays_no_retry(
        tmp_path: Path, db_url: str, smtp_peer: SmtpPeer, senders: list[SmtpSender]) -> None:
    app = make_app(tmp_path, db_url, T0)
    queue(app, 1)
    clock = ManualTime(app, T0)
    run = OutboxRun(app, smtp_sender(senders, smtp_peer.port), run_db, monotonic=clock.monotonic)
    smtp_peer.data_replies.append("451 4.3.0 Try again later")
    await run.send_more()
    clock.step_wall(-timedelta(minutes=20))  # under LONGEST_PAUSE: the database alone could not tell
    assert await run.next_due_in() == 30
    # The retry time was rewritten to when the pause ends on the new clock, so `outbox list` tells it right.
    assert rows(app)["k0"].next_attempt_at == T0 - timedelta(minutes=20) + timedelta(seconds=30)
    clock.advance(29)
    await run.send_more()
    assert smtp_peer.received == []
    clock.advance(1)
    await run.send_more()
    assert (run.sent, len(smtp_peer.received)) == (1, 1)


async def test_in_the_running_daemon_a_step_forward_hurries_no_retry(
        tmp_path: Path, db_url: str, smtp_peer: SmtpPeer, senders: list[SmtpSender]) -> None:
    app = make_app(tmp_path, db_url, T0)
    queue(app, 1)
    clock = ManualTime(app, T0)
    run = OutboxRun(app, smtp_sender(senders, smtp_peer.port), run_db, monotonic=clock.monotonic)
    smtp_peer.data_replies.append("451 4.3.0 Try again later")
    await run.send_more()
    clock.step_wall(timedelta(hours=2))
    await run.send_more()
    assert (smtp_peer.rcpts, await run.next_due_in()) == (1, 30)  # not tried again: its pause goes on
    clock.advance(30)
    await run.send_more()
    assert (run.sent, run.failed, len(smtp_peer.received)) == (1, 0, 1)


# --------------------------------------------------------------------------- a server that is away


async def test_a_silent_server_costs_a_pass_one_connect_timeout(
        tmp_path: Path, db_url: str, smtp_peer_factory: SmtpPeerFactory, senders: list[SmtpSender]) -> None:
    app = make_app(tmp_path, db_url, T0)
    queue(app, 100)
    clock = ManualTime(app, T0)
    async with silent_server() as silent:
        port = silent.port
        sender = smtp_sender(senders, port, clock.monotonic, timeout=30.0, connect_timeout=1.0)
        run = OutboxRun(app, sender, run_db, monotonic=clock.monotonic)
        started = _seconds()
        await run.send_more()
        assert _seconds() - started < 2.0  # one connect timeout; before, 100 of them
        assert silent.accepted == 1
        attempts = {key: row.attempts for key, row in rows(app).items()}
        assert attempts["k0"] == 1 and set(attempts.values()) - {attempts["k0"]} == {0}  # held mails: no attempt
        assert await run.next_due_in() == 30
        clock.advance(29)  # still resting: a pass is over at once and the server is left alone
        started = _seconds()
        await run.send_more()
        assert _seconds() - started < 0.5
        assert silent.accepted == 1
        assert sum(row.attempts for row in rows(app).values()) == 1
    # The server is back, on the same address, and the cool-down is over.
    peer = smtp_peer_factory(port=port)
    clock.advance(1)
    await run.send_more()
    assert run.sent == 100
    received = [mail.content.split(b"Message-ID: ")[1].split(b"\r\n")[0] for mail in peer.received]
    assert len(received) == len(set(received)) == 100  # each once
    final = rows(app)
    assert {row.status for row in final.values()} == {"sent"}
    assert final["k0"].attempts == 2 and {row.attempts for key, row in final.items() if key != "k0"} == {1}


async def test_421_rests_the_server_and_holds_the_rest_of_the_batch(
        tmp_path: Path, db_url: str, smtp_peer: SmtpPeer, senders: list[SmtpSender]) -> None:
    app = make_app(tmp_path, db_url, T0)
    queue(app, 3)
    clock = ManualTime(app, T0)
    run = OutboxRun(app, smtp_sender(senders, smtp_peer.port, clock.monotonic), run_db, monotonic=clock.monotonic)
    smtp_peer.data_replies.append("421 4.3.2 Service shutting down")
    await run.send_more()
    assert {key: (row.status, row.attempts) for key, row in rows(app).items()} == {
        "k0": ("queued", 1), "k1": ("queued", 0), "k2": ("queued", 0)}
    clock.advance(30)
    await run.send_more()
    assert (run.sent, len(smtp_peer.received)) == (3, 3)


async def test_the_gm_hears_once_of_a_server_that_stays_away(
        tmp_path: Path, db_url: str, senders: list[SmtpSender]) -> None:
    app = make_app(tmp_path, db_url, T0)
    queue(app, 3)
    clock = ManualTime(app, T0)
    port = free_port()  # nothing listens: every try is refused
    sender = smtp_sender(senders, port, clock.monotonic)
    run = OutboxRun(app, sender, run_db, monotonic=clock.monotonic)
    tries, notices = [], []
    await run.send_more()
    tries.append(0.0)
    # The daemon's sender task: sleep until next_due_in says, send what may go. Half an hour of it.
    while (wait := await run.next_due_in()) is not None and clock.elapsed + wait <= 1800:
        clock.advance(wait)
        tried = sender.breaker.open_until
        await run.send_more()
        if sender.breaker.open_until != tried:
            tries.append(clock.elapsed)
        gm = [row for key, row in rows(app).items() if key.startswith("gm:")]
        if len(gm) > len(notices):
            notices.append((clock.elapsed, gm[-1]))
    # One mail tries the server each time the cool-down ends: 30, 60, 120, 240, 480, then 600 s.
    assert tries == [0, 30, 90, 210, 450, 930, 1530]
    [(when, notice)] = notices  # one notice, ten minutes into the outage, and no other
    assert when == 600
    assert notice.key == f"gm:smtp-down:127.0.0.1:{port}:1000.000"  # the outage, by when it began (monotonic)
    assert notice.subject == f"[maild] mail server 127.0.0.1:{port} unreachable since 2026-11-22 09:00 UTC"
    assert b"3 mails wait in the outbox" in notice.raw
    # Only the tries counted: seven, spread over the waiting mails (the notice's own included).
    assert sum(row.attempts for row in rows(app).values()) == 7
    # A fresh OutboxRun a pass (as the daemon made them) and a clock step in the same outage: no second notice.
    clock.step_wall(timedelta(hours=1))
    await OutboxRun(app, sender, run_db, monotonic=clock.monotonic).send_more()
    assert len([key for key in rows(app) if key.startswith("gm:")]) == 1


# --------------------------------------------------------------------------- budget and cancellation


async def test_send_more_stops_when_its_budget_is_spent(
        tmp_path: Path, db_url: str, smtp_peer: SmtpPeer, senders: list[SmtpSender]) -> None:
    app = make_app(tmp_path, db_url, T0)
    queue(app, 10)
    smtp_peer.rcpt_delays.extend([0.2] * 10)  # a slow server: 10 mails take 2 s
    run = OutboxRun(app, smtp_sender(senders, smtp_peer.port), run_db)  # the budget is real time
    started = _seconds()
    await run.send_more(budget_s=0.5)
    assert _seconds() - started < 1.5  # the budget, and the mail in hand finished
    first = len(smtp_peer.received)
    assert 1 <= first < 10
    assert sum(row.attempts for row in rows(app).values()) == first  # the rest untouched, left for later
    assert await run.next_due_in() == 0
    await run.send_more()
    assert run.sent == len(smtp_peer.received) == 10


async def test_a_cancelled_delivery_records_what_went_and_sends_the_rest_once(
        tmp_path: Path, db_url: str, smtp_peer: SmtpPeer, senders: list[SmtpSender]) -> None:
    app = make_app(tmp_path, db_url, T0)
    queue(app, 5)
    db_thread = ThreadPoolExecutor(max_workers=1)  # as the daemon runs its database calls

    async def in_db_thread(fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(db_thread, fn, *args)

    sender = smtp_sender(senders, smtp_peer.port)
    run = OutboxRun(app, sender, in_db_thread)
    smtp_peer.rcpt_delays.extend([0.0, 0.0, 5.0])  # the third mail is in the server's hands when SIGTERM comes
    delivering = asyncio.create_task(run.send_more())
    deadline = _seconds() + 10
    while smtp_peer.rcpts < 3 and _seconds() < deadline:
        await asyncio.sleep(0.01)
    delivering.cancel()
    with pytest.raises(asyncio.CancelledError):
        await delivering
    # The two handed over are recorded as sent, though the batch never finished; the one in hand is not.
    assert {key: (row.status, row.attempts) for key, row in rows(app).items()} == {
        "k0": ("sent", 1), "k1": ("sent", 1), "k2": ("queued", 0), "k3": ("queued", 0), "k4": ("queued", 0)}
    await run.send_more()
    db_thread.shutdown()
    ids = [mail.content.split(b"Message-ID: ")[1].split(b"\r\n")[0] for mail in smtp_peer.received]
    assert len(ids) == len(set(ids)) == 5  # each mail once
    assert {(row.status, row.attempts) for row in rows(app).values()} == {("sent", 1)}


def _seconds() -> float:
    """Elapsed real time, for the bounds the tests put on how long delivery takes."""
    return time.monotonic()
