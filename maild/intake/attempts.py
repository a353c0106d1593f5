"""Intake attempts: a mail that stops intake (a crash, a kill, a stall) must not stop it forever.

Each run on a mail is counted, and the count committed, *before* the run begins, so a run that never ends
(killed, or the daemon died with it) counts as much as one that raised. A mail begun before and still
unprocessed is tried again alone, in its own transaction, so it cannot take a batch of innocent mails down
with it again; once begun `max_intake_attempts` times it is set aside as `poison`, the GM is told, and the
mails behind it go on.

Only a run that really began counts. Several processes plan intake over the same stored mail (the daemon, a
GM's `mail ingest`, `turn run`); a run counts its attempt only on the mails it holds (`claims.holding`: no
other live process is at work on them) and whose count is still the one its plan read, and reads only those.
A mail another process began is that process's: a lock wait, a retried transaction or a look at another's
work never counts, and a count taken back after a transient failure is owed until the database takes it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from sqlalchemy import bindparam, update

from maild.app import App
from maild.db import Database
from maild.models import InboundMail
from maild.outbox import notify_gm

log = logging.getLogger("maild.intake")


@dataclass(frozen=True)
class Step:
    ids: list[int]
    retry: bool = False  # one mail begun before: run it alone
    poison: bool = False  # one mail begun too often: set it aside
    seen: int = 0  # the attempts the plan read on the step's mails


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
        yield Step([mail_id], retry=True, poison=attempts >= max_attempts, seen=attempts)
    if fresh:
        yield Step(fresh)


_INBOUND = InboundMail.__table__


# Counts an attempt on the step's mails still new and still at the count the plan read: a mail another
# process began meanwhile (and perhaps died on) waits for a plan that sees its count, so that it is read alone.
_BEGIN = (update(_INBOUND).where(_INBOUND.c.id.in_(bindparam("ids", expanding=True)), _INBOUND.c.status == "new",
                                 _INBOUND.c.attempts == bindparam("seen"))
          .values(attempts=_INBOUND.c.attempts + 1).returning(_INBOUND.c.id))


def begin(app: App, ids: list[int], seen: int = 0) -> list[int]:
    """Count one more attempt on each mail of `ids` (held by the caller, see `claims`) that is still new and
    still at `seen` attempts, committed before the attempt starts (retried while the database is busy: a count
    that never lands would let a poison mail stop intake forever). Returns the mails counted, in receipt
    order: the caller reads those and no others."""
    if not ids:
        return []
    counted = app.db.transaction(lambda s: set(s.execute(_BEGIN, {"ids": ids, "seen": seen}).scalars()),
                                 "counting intake attempts")
    return [i for i in ids if i in counted]


# Counts taken back that the database could not take yet, per database: settled before the next plan.
_owed: WeakKeyDictionary[Database, set[int]] = WeakKeyDictionary()


def forgive(app: App, ids: list[int]) -> None:
    """Take back the attempt counted on mails that the database, not the mail, kept from being read (a lock, a
    lost connection): they stay new and are tried again as fresh mail. If the database cannot take it now,
    it is owed, and settled before this process plans intake again (`settle`)."""
    _owed.setdefault(app.db, set()).update(ids)
    settle(app)


def settle(app: App) -> None:
    """Take back the attempts owed (`forgive`), if the database lets us now."""
    owed = _owed.get(app.db)
    if not owed:
        return
    ids = sorted(owed)
    try:
        app.db.transaction(lambda s: s.execute(
            update(_INBOUND).where(_INBOUND.c.id.in_(ids), _INBOUND.c.status == "new", _INBOUND.c.attempts > 0)
            .values(attempts=_INBOUND.c.attempts - 1)), "forgiving intake attempts")
    except Exception:
        log.warning("could not take back the intake attempts of mails %s yet; owed until the database is back",
                    ids, exc_info=True)
        return
    owed.difference_update(ids)


def set_aside(app: App, mail_id: int, seen: int) -> str:
    """Mark a mail that intake began too often (`seen` times, as the plan read) as poison and tell the GM;
    its status. The caller holds the mail (`claims`): nobody is at work on it, so a count still at `seen` is
    of runs that ended without finishing."""
    with app.db.session() as s:
        row = s.get(InboundMail, mail_id, with_for_update=True)
        if row is None or row.status != "new" or row.attempts != seen:
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
