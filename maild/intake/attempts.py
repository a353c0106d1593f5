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

One sender's mails are read in receipt order, by one process at a time (several daemons on one database): a
step takes a sender's mails only if none of that sender's earlier mails is still waiting outside the step
(`in_turn`, before claiming: a sender is not held for nothing), and `begin` counts a mail only if every earlier
mail of its sender still new is counted with it (under the sender's claim, this is what keeps the order: a mail
that another process began and left, a count that changed since the plan, holds up the sender's later mails
until a plan reads it first). A mail left new (a transient failure) holds up its sender's later mails the same
way, until the next pass.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from sqlalchemy import bindparam, exists, func, literal_column, or_, select, update

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
    senders: tuple[str | None, ...] = ()  # each mail's sender key (maild/intake/senders.py), if the plan knew


def plan(pending: Sequence[tuple[int, int] | tuple[int, int, str | None]], batch: int, max_attempts: int
         ) -> Iterator[Step]:
    """Steps over (id, attempts[, sender key]) in receipt order: fresh mails in batches, retried ones alone."""
    fresh: list[int] = []
    keys: list[str | None] = []

    def batch_step() -> Step:
        step = Step(list(fresh), senders=tuple(keys) if any(keys) else ())
        fresh.clear()
        keys.clear()
        return step

    for mail_id, attempts, *sender in pending:
        key = sender[0] if sender else None
        if attempts == 0:
            fresh.append(mail_id)
            keys.append(key)
            if len(fresh) >= batch:
                yield batch_step()
            continue
        if fresh:
            yield batch_step()
        yield Step([mail_id], retry=True, poison=attempts >= max_attempts, seen=attempts,
                   senders=(key,) if key else ())
    if fresh:
        yield batch_step()


_INBOUND = InboundMail.__table__
_EARLIER = _INBOUND.alias("earlier")
# A literal, not a parameter: the planners use the partial index on new mail by sender only for a literal.
_NEW = literal_column("'new'")


# Counts an attempt on the step's mails still new and still at the count the plan read: a mail another
# process began meanwhile (and perhaps died on) waits for a plan that sees its count, so that it is read alone.
# And only where no earlier mail of the same sender, still new, stays uncounted (outside the step, or at another
# count): the subquery sees the rows as they were before this statement, on both databases.
_BEGIN = (update(_INBOUND).where(
    _INBOUND.c.id.in_(bindparam("ids", expanding=True)), _INBOUND.c.status == "new",
    _INBOUND.c.attempts == bindparam("seen"),
    ~exists().where(_EARLIER.c.sender_key == _INBOUND.c.sender_key, _EARLIER.c.status == _NEW,
                    _EARLIER.c.id < _INBOUND.c.id,
                    or_(_EARLIER.c.id.not_in(bindparam("ids", expanding=True)),
                        _EARLIER.c.attempts != bindparam("seen"))))
          .values(attempts=_INBOUND.c.attempts + 1).returning(_INBOUND.c.id))
# The earliest mail still new of each of some senders.
_FIRST_NEW = (select(_INBOUND.c.sender_key, func.min(_INBOUND.c.id))
              .where(_INBOUND.c.sender_key.in_(bindparam("keys", expanding=True)), _INBOUND.c.status == _NEW)
              .group_by(_INBOUND.c.sender_key))


def in_turn(app: App, step: Step) -> tuple[list[int], tuple[str | None, ...]]:
    """The step's mails (and their sender keys) whose senders have no earlier mail still new outside the step:
    the others must wait for that mail, and their senders are not claimed for nothing (another process that
    reads that mail first would find its sender held)."""
    if not step.senders:
        return step.ids, step.senders
    firsts: dict[str, int] = {}
    for mail_id, key in zip(step.ids, step.senders, strict=True):
        if key:
            firsts.setdefault(key, mail_id)
    if not firsts:
        return step.ids, step.senders
    waiting = app.db.transaction(lambda s: dict(s.execute(_FIRST_NEW, {"keys": sorted(firsts)}).all()),
                                 "looking for earlier mail of the senders")
    kept = [(i, k) for i, k in zip(step.ids, step.senders, strict=True)
            if not k or waiting.get(k, firsts[k]) >= firsts[k]]
    return [i for i, _k in kept], tuple(k for _i, k in kept)


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
