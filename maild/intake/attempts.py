"""Intake attempts: a mail that stops intake (a crash, a kill, a stall) must not stop it forever.

Each run on a mail is counted, and the count committed, *before* the run begins, so a run that never ends
(killed, or the daemon died with it) counts as much as one that raised. A mail begun before and still
unprocessed is tried again alone, in its own transaction, so it cannot take a batch of innocent mails down
with it again; once begun `max_intake_attempts` times it is set aside as `poison`, the GM is told, and the
mails behind it go on.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import update

from maild.app import App
from maild.models import InboundMail
from maild.outbox import notify_gm

log = logging.getLogger("maild.intake")


@dataclass(frozen=True)
class Step:
    ids: list[int]
    retry: bool = False  # one mail begun before: run it alone
    poison: bool = False  # one mail begun too often: set it aside


def plan(pending: Sequence[tuple[int, int]], batch: int, max_attempts: int) -> Iterator[Step]:
    """Steps over (id, attempts) in receipt order: fresh mails in batches, retried ones alone."""
    fresh: list[int] = []
    for mail_id, attempts in pending:
        if attempts == 0:
            fresh.append(mail_id)
            if len(fresh) >= batch:
                yield Step(fresh)
                fresh = []
            continue
        if fresh:
            yield Step(fresh)
            fresh = []
        yield Step([mail_id], retry=True, poison=attempts >= max_attempts)
    if fresh:
        yield Step(fresh)


_INBOUND = InboundMail.__table__


def begin(app: App, ids: list[int]) -> None:
    """Count one more attempt on each mail, committed before the attempt starts (retried while the database
    is busy: a count that never lands would let a poison mail stop intake forever)."""
    app.db.transaction(lambda s: s.execute(update(_INBOUND).where(_INBOUND.c.id.in_(ids), _INBOUND.c.status == "new")
                                           .values(attempts=_INBOUND.c.attempts + 1)), "counting intake attempts")


def forgive(app: App, ids: list[int]) -> None:
    """Take back the attempt counted on mails that the database, not the mail, kept from being read (a lock, a
    lost connection): they stay new and are tried again as fresh mail. Best effort: if the database is away,
    the count stays, and a mail begun `max_intake_attempts` times is still set aside with its reason."""
    try:
        app.db.transaction(lambda s: s.execute(
            update(_INBOUND).where(_INBOUND.c.id.in_(ids), _INBOUND.c.status == "new", _INBOUND.c.attempts > 0)
            .values(attempts=_INBOUND.c.attempts - 1)), "forgiving intake attempts")
    except Exception:
        log.warning("could not take back the intake attempts of mails %s", ids, exc_info=True)


def set_aside(app: App, mail_id: int) -> str:
    """Mark a mail that intake began too often as poison and tell the GM; its status."""
    with app.db.session() as s:
        row = s.get(InboundMail, mail_id)
        if row is None or row.status != "new":
            return row.status if row is not None else "new"
        row.status = "poison"
        row.note = (f"intake began on this mail {row.attempts} times and never finished (a crash, a kill or a "
                    "stall); set aside so that the mails behind it go on")
        log.error("mail %d set aside: %s", mail_id, row.note)
        notify_gm(s, app, f"poison:{mail_id}", f"mail {mail_id} set aside (intake stopped on it)",
                  f"Mail {mail_id} ({row.size} bytes, received {row.received_at:%Y-%m-%d %H:%M} UTC) stopped "
                  f"maild's intake {row.attempts} times.\nIt is kept in the database and was not answered; "
                  "`maild mail list` shows it.\nPlease report it: it is a bug in maild.")
        return row.status
