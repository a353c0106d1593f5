"""The daemon: fetch, store, process, run due turns, send; then wait for mail, a deadline or the next poll.

On PostgreSQL several daemons share the work (maild/shares.py): each pass begins by taking this daemon's share
of the games (and the inbox, if nobody fetches it); it fetches only the inbox it holds, runs the turns and
reminders of its own games, each fenced by the game's lease, and reads and sends what any daemon stored or
queued (intake and outbound mail are claimed row by row)."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from sqlalchemy import select, text

from maild.app import App
from maild.crashpoints import crashpoint
from maild.delivery import Delivery
from maild.games import sync_games
from maild.intake.pipeline import intake_steps, process_step
from maild.intake.run import IntakeRun
from maild.intake.store import store_batch
from maild.mail.base import FetchedMail, InboxSource, Sender
from maild.models import Game, InboundMail, Turn
from maild.outbox import notify_gm
from maild.passwatch import PassWatch
from maild.reminders import queue_reminders, reminder_times
from maild.shares import GameLost, Shares
from maild.turn import DueTurn, due_turns, run_turn

log = logging.getLogger("maild.daemon")
start_log = logging.getLogger("maild.start")
T = TypeVar("T")

# Mails stored per transaction: fewer commits, and a crash re-fetches at most this many (harmlessly).
STORE_BATCH = 100
# ...and bytes: a batch of big mails is stored before more are read.
STORE_BATCH_BYTES = 16_000_000
# Mails stored in one pass after which the inbound table's planner statistics are brought up to date at once.
BACKLOG_ANALYZE = 500
# How long stopping waits for each transport to close (a server that does not answer must not hold up SIGTERM).
CLOSE_WAIT_S = 3.0
# A daemon that does not fetch (another holds the inbox, maild/shares.py) looks this often for mail stored by
# the one that does, to read it too.
STORED_LOOK_S = 0.5


class MailLeftNew(Exception):
    """Intake left mail unread for a passing database failure: the pass counts as failed (the next one is paced
    and the GM alarmed as for any), though the mail is safe and is read once the database lets it."""


@dataclass
class PassReport:
    fetched: int = 0
    processed: dict[str, int] = field(default_factory=dict)
    turns: list[str] = field(default_factory=list)
    reminders: int = 0
    sent: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)

    def line(self, now: datetime) -> str:
        processed = ", ".join(f"{n} {k}" for k, n in sorted(self.processed.items())) or "0"
        turns = ", ".join(self.turns) or "none"
        tail = f"; errors: {'; '.join(self.errors)}" if self.errors else ""
        return (f"{now:%Y-%m-%d %H:%M:%S} fetched {self.fetched}, processed {processed}, turns {turns}, "
                f"reminders {self.reminders}, sent {self.sent}, failed {self.failed}{tail}")


class Daemon:
    def __init__(self, app: App, inbox: InboxSource, sender: Sender, status_line: bool | None = None,
                 shares: Shares | None = None) -> None:
        self.app = app
        self.inbox = inbox
        self.sender = sender
        self.shares = shares  # None: the one daemon of the database (SQLite), which works on everything
        self.status_line = sys.stderr.isatty() if status_line is None else status_line
        # One worker thread for the database keeps SQLite writes serial and sessions on one thread.
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="maild-db")
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._reported: set[str] = set()
        self._fetch_awaited = False  # a turn of ours is due but waits for the inbox's holder to fetch (`_due`)
        # Its claims on outbound rows carry the daemon's name, as its leases do (`maild daemons`).
        self.delivery = Delivery(app, sender, self.db, holder=shares.lease.holder if shares is not None else None)
        self.watch = PassWatch(app, sender, self.db)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def fetch(self, report: PassReport) -> None:
        """Store every mail waiting. An inbox that gives at most so many mails a listing (IMAP's `max_batch`) is
        asked again until it has nothing more: the whole backlog is stored before any turn runs, so each mail
        counts for the deadline it came before, however much was waiting."""
        while await self._fetch_listing(report) and self.inbox.backlog and not self._stop.is_set():
            pass
        if report.fetched >= BACKLOG_ANALYZE:
            await self.db(self._analyze_inbound)

    def _analyze_inbound(self) -> None:
        """After a backlog was stored, PostgreSQL's statistics of the inbound table are brought up to date
        before intake reads it: autovacuum's ANALYZE comes up to a minute later, and until then the planner takes
        the table for as small as it was, and plans intake's per-sender check as a scan of every waiting mail a
        mail of the batch (63 ms a batch of 50 over 2,000 fresh mails, against 3 ms after ANALYZE). SQLite's
        planner keeps no such statistics."""
        if self.app.db.engine.dialect.name == "postgresql":
            with self.app.db.session() as s:
                s.execute(text("ANALYZE inbound_mails"))

    async def _fetch_listing(self, report: PassReport) -> bool:
        """One listing of the inbox, stored as it is read in batches of at most STORE_BATCH mails or
        STORE_BATCH_BYTES and only then marked done: what is held in memory is one batch, however full the
        inbox. Whether it went through (mail came, and no trouble), so that asking again makes sense."""
        batch: list[FetchedMail] = []
        held = got = 0
        troubles = len(report.errors)
        mails = self.inbox.fetch_each(self.app.config.max_mail_bytes)
        try:
            while not self._stop.is_set():
                try:
                    mail = await anext(mails)
                except StopAsyncIteration:
                    break
                except Exception as exc:  # the server being away must not stop turns and sending
                    self._problem(report, "inbox", f"cannot fetch mail: {exc}")
                    break
                got += 1
                batch.append(mail)
                held += len(mail.raw)
                if len(batch) >= STORE_BATCH or held >= STORE_BATCH_BYTES:
                    await self._store(report, batch)
                    batch, held = [], 0
            if batch:  # what was read before a failure is stored all the same
                await self._store(report, batch)
        finally:
            await mails.aclose()
        return got > 0 and len(report.errors) == troubles

    async def _store(self, report: PassReport, batch: list[FetchedMail]) -> None:
        await self.db(store_batch, self.app, batch)
        report.fetched += len(batch)
        crashpoint("fetch.stored")
        # Only now that the raw bytes are committed may the server forget the mails.
        for mail in batch:
            try:
                await self.inbox.mark_done(mail)
            except Exception as exc:
                self._problem(report, "inbox-mark", f"cannot mark mail done (it will be fetched again, "
                                                    f"and recognised): {exc}")
            crashpoint("fetch.marked")

    def _problem(self, report: PassReport, key: str, message: str) -> None:
        log.error(message)
        report.errors.append(message)
        if key not in self._reported:  # tell the GM once per kind of trouble, not every poll
            self._reported.add(key)

            try:
                with self.app.db.session() as s:
                    notify_gm(s, self.app, f"problem:{key}:{self.app.now():%Y-%m-%dT%H}", message, message)
            except Exception:
                log.exception("cannot record a notice for the GM")

    async def _deadlines(self, report: PassReport, tried: set[tuple[str, int]]) -> None:
        """Run every turn that is due, earliest deadline first, each after the mail received by its deadline
        is read: after a long downtime several deadlines may have passed, and a mail counts for the deadline it
        came before (what came after one is read after its turn ran). A turn that runs opens the next, which
        may be due too; one in `tried` (held or failed) is not tried again in this pass."""
        while not self._stop.is_set():
            due = [t for t in await self.db(self._due) if (t.game, t.number) not in tried]
            if not due:
                return
            turn = due[0]
            tried.add((turn.game, turn.number))
            if turn.deadline is not None:
                await self._intake(report, received_by=turn.deadline)
            try:
                outcome = await self.db(self._for_game, turn.game, run_turn, self.app, turn.game)
            except GameLost as exc:  # another daemon took the game over: it runs the turn
                log.warning("turn %d of %s left to another daemon: %s", turn.number, turn.game, exc)
                continue
            self.delivery.kick()  # a failure was mailed to the GM in run_turn
            if outcome.status == "failed":
                report.errors.append(f"turn {turn.number} of {turn.game} failed: {outcome.message}")
                continue
            report.turns.append(f"{turn.game}:{outcome.turn} {outcome.status}")
            if outcome.status == "phase_done":  # the turn's next phase may be due already
                tried.discard((turn.game, turn.number))

    def _due(self) -> list[DueTurn]:
        """The turns due that are this daemon's to run: of its games, and, with a deadline, once the mail that came
        by it is stored (the inbox's holder noted a fetch that began after it)."""
        due = due_turns(self.app)
        if self.shares is None:
            return due
        mine = self.shares.games()
        fetched = self.shares.fetched_at()
        ours = [t for t in due if t.game in mine]
        ready = [t for t in ours if t.deadline is None or (fetched is not None and fetched >= t.deadline)]
        # The inbox's holder has yet to store what came by a deadline: look again soon, not a poll interval later.
        self._fetch_awaited = len(ready) < len(ours)
        return ready

    def _for_game(self, game: str, fn: Callable[..., T], *args: Any) -> T:
        """`fn` on the database thread, its transactions fenced by the game's lease (if the daemon shares)."""
        return fn(*args) if self.shares is None else self.shares.for_game(game, fn, *args)

    def _share(self) -> None:
        """Take this daemon's share of the open games (and the inbox, if nobody fetches it)."""
        assert self.shares is not None
        with self.app.db.session() as s:
            games = list(s.scalars(select(Game.name).where(Game.finished.is_(False)).order_by(Game.name)))
        self.shares.share(games)

    def _reminders(self) -> int:
        if self.shares is None:
            return queue_reminders(self.app)
        queued = 0
        for game in sorted(self.shares.games()):
            try:
                queued += self.shares.for_game(game, queue_reminders, self.app, {game})
            except GameLost:
                pass  # its new holder reminds
        return queued

    def _startup_fields(self) -> dict[str, str]:
        """What a GM checks first when the daemon starts: which games it runs and when their turns are
        due, where mail comes from and goes, and which database it writes."""
        config = self.app.config
        with self.app.db.session() as s:
            rows = s.execute(select(Game.name, Game.turn, Game.finished, Turn.deadline)
                             .outerjoin(Turn, (Turn.game_id == Game.id) & (Turn.number == Game.turn))
                             .order_by(Game.name)).all()
        games = []
        for name, number, finished, deadline in rows:
            when = "finished" if finished else \
                f"turn {number} due {deadline:%Y-%m-%dT%H:%MZ}" if deadline else f"turn {number} no deadline"
            games.append(f"{name} ({when})")

        def where(box: Any) -> str:
            return f"maildir {box.path}" if box.kind == "maildir" else \
                f"{box.kind} {box.options.get('host')}:{box.options.get('port', 'default')}"

        return {"games": "; ".join(games) or "none", "inbox": where(config.inbound),
                "outbox": where(config.outbound),
                "database": self.app.db.engine.url.render_as_string(hide_password=True)}

    def _sync(self) -> list[str]:
        with self.app.db.session() as s:
            if self.shares is not None:  # daemons started together create the config's games one at a time
                s.execute(text("SELECT pg_advisory_xact_lock(hashtext('maild sync games:' || current_schema()))"))
            return sync_games(s, self.app.config, self.app.now(), self.app)

    async def one_pass(self, wait_for_delivery: bool = True) -> PassReport:
        """Fetch, read, run the turns due and queue reminders; the delivery, woken whenever mail is queued, sends
        beside it and never holds it up. `wait_for_delivery` (`run --once`): return only once what is due is
        sent too. A pass asked to stop (SIGTERM) ends at its next safe point: between two batches stored or
        read, or two turns."""
        report = PassReport()
        sent, failed = self.delivery.sent, self.delivery.failed
        if self.shares is not None:
            await self.db(self._share)
        if self.shares is None or self.shares.fetches():
            began = self.app.now()
            await self.fetch(report)
            if self.shares is not None and not self._stop.is_set():
                await self.db(self.shares.fetched, began)
        tried: set[tuple[str, int]] = set()
        await self._deadlines(report, tried)
        await self._intake(report)  # what came after the last deadline passed
        await self._deadlines(report, tried)  # a phase that closed early with the mail just read
        if not self._stop.is_set():
            report.reminders = await self.db(self._reminders)
        self.delivery.kick()  # also for what others queued meanwhile (a GM's `turn run` beside the daemon)
        if wait_for_delivery:
            await self.delivery.finish()
        report.sent, report.failed = self.delivery.sent - sent, self.delivery.failed - failed
        if self.status_line:
            print(report.line(self.app.now()), file=sys.stderr, flush=True)
        log.info("pass done", extra={"fetched": report.fetched, "sent": report.sent})
        return report

    async def _intake(self, report: PassReport, received_by: datetime | None = None) -> None:
        """Process stored mail (with `received_by`, what was received by then) a batch at a time, counted in the
        report; the acks of each batch go to the delivery as soon as it is committed, so the transport's file or
        network waits overlap intake's work."""
        steps = await self.db(intake_steps, self.app, None, received_by)
        run = IntakeRun()
        for step in steps:
            if self._stop.is_set():
                return
            run = await self.db(process_step, self.app, step, run, report.processed)
            self.delivery.kick()

    def _schedule_wakeups(self, scheduler: AsyncIOScheduler) -> None:
        """A job per coming deadline and reminder. The turns table stays the truth: a job only wakes the
        loop, and a pass runs whatever is due, so a job missed while we were down costs nothing."""
        now = self.app.now()
        offset = datetime.now(UTC) - now  # the clock may run from --now; APScheduler runs on real time
        times: list[tuple[str, datetime]] = []
        with self.app.db.session() as s:
            for name, number, deadline in s.execute(
                    select(Game.name, Turn.number, Turn.deadline).join(Turn, Turn.game_id == Game.id)
                    .where(Game.finished.is_(False), Turn.number == Game.turn, Turn.deadline.is_not(None),
                           Game.paused_at.is_(None))):
                times.append((f"deadline:{name}:{number}", deadline))
        times += [(f"reminder:{name}", when) for name, when in reminder_times(self.app)]
        for job_id, when in times:
            if when > now:
                scheduler.add_job(self._wake.set, DateTrigger(run_date=when + offset), id=job_id,
                                  replace_existing=True, misfire_grace_time=None)

    async def run(self, once: bool = False) -> None:
        await self.db(self._sync)
        start_log.info("maild started", extra=await self.db(self._startup_fields))
        if once:
            try:
                await self.one_pass()
            finally:
                await self.close()
            return
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, self.stop)
            except (NotImplementedError, RuntimeError):
                pass
        self.delivery.follow_retries = True
        scheduler = AsyncIOScheduler(timezone=UTC)
        scheduler.start()
        try:
            while not self._stop.is_set():
                pause = await self._attempt(scheduler)
                self._wake.clear()
                if pause is None:
                    await self._wait(STORED_LOOK_S if self._fetch_awaited else self.app.config.poll_interval)
                else:
                    await self._wait(pause, for_mail=False)
        finally:
            self.watch.stop()
            scheduler.shutdown(wait=False)
            await self.close()

    async def _attempt(self, scheduler: AsyncIOScheduler) -> float | None:
        """One pass of the daemon's loop. None if it went through, else the pause before the next try: while
        passes fail, neither mail waiting nor the server's pushes make the daemon try sooner."""
        try:
            report = await self.one_pass(wait_for_delivery=False)
            await self.db(self._schedule_wakeups, scheduler)
            if left := report.processed.get("retry"):
                raise MailLeftNew(f"intake left {left} mails unread: the database failed for a passing reason "
                                  "(the warnings before this line say how)")
        except Exception as exc:
            self.watch.failed(exc)
            return self.watch.pause()
        await self.watch.worked()
        return None

    def stop(self) -> None:
        """End the current pass at its next safe point, stop the delivery wherever it is, close the transports,
        and return from `run` (what SIGTERM does)."""
        self._stop.set()

    async def _wait(self, timeout: float, for_mail: bool = True) -> None:
        """Until `timeout` or SIGTERM; `for_mail`: also until mail may have come or a deadline is due."""
        waits = [asyncio.ensure_future(self._stop.wait())]
        if for_mail:
            fetching = self.shares is None or self.shares.fetches()
            waits += [asyncio.ensure_future(self.inbox.wait_for_mail(timeout) if fetching else
                                            self._wait_for_stored(timeout)),
                      asyncio.ensure_future(self._wake.wait())]
        try:
            await asyncio.wait(waits, timeout=timeout + 5 if for_mail else timeout,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()
            await asyncio.gather(*waits, return_exceptions=True)

    async def _wait_for_stored(self, timeout: float) -> None:
        """Until mail is stored that nobody has read yet (another daemon fetched it), or `timeout`."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            if await self.db(self._unread):
                return
            await asyncio.sleep(min(STORED_LOOK_S, max(0.0, end - loop.time())))

    def _unread(self) -> bool:
        with self.app.db.session() as s:
            return s.scalar(select(InboundMail.id).where(InboundMail.status == "new").limit(1)) is not None

    async def close(self) -> None:
        # A mail in flight when the delivery stops was not recorded as sent: it stays queued.
        await self.delivery.stop()
        for closer in (self.inbox.close, self.sender.close):
            try:
                await asyncio.wait_for(closer(), CLOSE_WAIT_S)
            except TimeoutError:
                log.warning("%s did not close within %.0f s; left behind", closer.__qualname__, CLOSE_WAIT_S)
            except Exception:
                log.exception("error while closing")
        self._db.shutdown(wait=True)
