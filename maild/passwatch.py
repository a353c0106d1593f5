"""Whether the daemon's passes go through, and what the GM hears when they do not.

A pass that fails (the database away, a full disk) is tried again after a pause that doubles up to a cap,
whatever mail is waiting or the server pushes (`Trouble`), and it is logged once when passes begin to fail and
once when they work again. Once passes have failed for `daemon.alarm_after`, the GM gets one mail. The outbox is
in the database, which may be what is failing, so that mail goes straight through the outbound transport
(composed here, handed to the daemon's Sender). When passes work again, a second mail says so, through the
outbox like any notice.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import make_url

from maild.app import App
from maild.delivery import RunDb
from maild.mail.base import OutgoingMail, Sender, SendResult
from maild.mail.compose import compose
from maild.outbox import AUTO_GENERATED, notify_gm
from maild.render import render
from maild.trouble import Spell, Trouble

log = logging.getLogger("maild.daemon")

# The key of the alarm's Message-ID (maild.<hash of the key>...@domain): the same for every such alarm.
ALARM_KEY = "gm:passes-failing"
# How long the alarm may take to hand over, and the pause before trying again when it could not be.
ALARM_SEND_S = 30.0
ALARM_RETRY_S = 300.0


@dataclass
class _Owed:
    """The GM was alarmed of a spell that is over: he is owed the mail that says so."""

    since: datetime
    spell: Spell
    reason: str


class PassWatch:
    def __init__(self, app: App, sender: Sender, run_db: RunDb) -> None:
        self.app, self.sender, self.run_db = app, sender, run_db
        self.trouble = Trouble("passes", log)
        self.since: datetime | None = None  # the clock's time at the first failure of the spell
        self.alarmed = False  # the GM was mailed about this spell
        self._alarm: asyncio.Task[None] | None = None
        self._owed: _Owed | None = None

    @property
    def failing(self) -> bool:
        return self.trouble.failing

    def pause(self) -> float:
        return self.trouble.pause()

    def failed(self, exc: BaseException) -> None:
        if not self.trouble.failing:
            self.since = self.app.now()
            self.alarmed = False
            self._alarm = asyncio.ensure_future(self._alarm_when_due())
        self.trouble.failed(exc)

    async def worked(self) -> None:
        reason = self.trouble.reason
        spell = self.trouble.worked()
        self.stop()
        if spell is not None and self.alarmed and self.since is not None:
            self._owed = _Owed(self.since, spell, reason)
            self.alarmed = False
        if self._owed is not None:
            try:
                await self.run_db(self._tell_working_again, self._owed)
                self._owed = None
            except Exception as exc:  # the next pass that works tries again
                log.warning("cannot queue the GM's notice that passes work again: %s", exc)

    def stop(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None

    async def _alarm_when_due(self) -> None:
        await asyncio.sleep(self.app.config.alarm_after.total_seconds())
        while self.trouble.failing and not self.alarmed:
            result = await self._send_alarm()
            if result.status == "sent":
                self.alarmed = True
                log.warning("the GM was mailed that passes are failing (since %s)", _when(self.since))
                return
            log.warning("cannot mail the GM that passes are failing (%s); trying again in %.0f s", result.detail,
                        ALARM_RETRY_S)
            await asyncio.sleep(ALARM_RETRY_S)

    async def _send_alarm(self) -> SendResult:
        config = self.app.config
        body = render(None, "gm_passes_failing.txt.j2", since=_when(self.since), failures=self.trouble.failures,
                      reason=self.trouble.reason,
                      database=make_url(config.database_url).render_as_string(hide_password=True))
        mail = compose(key=ALARM_KEY, sender=config.from_addr, to=[config.gm_addr],
                       subject=f"[maild] passes failing: {self.trouble.reason}", body=body, date=self.app.now(),
                       auto_submitted=AUTO_GENERATED)
        try:
            return await asyncio.wait_for(self.sender.send(OutgoingMail(mail.message_id, config.from_addr,
                                                                        [config.gm_addr], mail.raw)), ALARM_SEND_S)
        except Exception as exc:  # the transport may be in trouble too; Sender.send raises only for bugs
            return SendResult("temporary", f"{type(exc).__name__}: {exc}")

    def _tell_working_again(self, owed: _Owed) -> None:
        with self.app.db.session() as s:
            notify_gm(s, self.app, f"passes-work-again:{owed.since.isoformat()}", "passes work again",
                      render(None, "gm_passes_working.txt.j2", now=_when(self.app.now()), since=_when(owed.since),
                             spell=owed.spell.words(), reason=owed.reason))


def _when(moment: datetime | None) -> str:
    return f"{moment:%Y-%m-%d %H:%M:%S} UTC" if moment is not None else "unknown"
