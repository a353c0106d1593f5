"""Outbound mail claimed row by row, so that several daemons on one PostgreSQL database send each mail once.

A daemon's delivery claims the due rows it is about to send, a batch at a time, in one short transaction:
`UPDATE ... SET claimed_by = <its holder>, claim_until = <now + the lease period> WHERE id IN (SELECT ... FOR
UPDATE SKIP LOCKED LIMIT n) RETURNING ...`. Another daemon's claim running at the same moment skips the rows
locked by the first (SKIP LOCKED) and, once it commits, finds them claimed (PostgreSQL checks the condition
again on a row changed meanwhile): each row goes to one daemon. The claim outlives the transaction, which ends
at once; the row is recorded (sent, retry, failed) and its claim cleared after the sending.

A claim ends when the outcome is recorded, when its daemon gives back what it did not try (a spent budget, a
resting server, a stop), or when it lapses: `claim_until` is on the database server's clock, like the leases
(maild/lease.py), so daemons on several machines agree. A daemon killed between handing a mail to the server
and recording it leaves the row claimed and queued; another daemon takes it once the claim lapsed and sends it
again: the one duplicate no design closes (its Message-ID is the first's, so a reader's software can drop it).
A daemon does not hand over a mail from a batch whose claim has run for more than two thirds of its period
(`OutboxRun`, on the monotonic clock): a slow server does not let its claim lapse under it.

SQLite has one daemon (maild/lock.py): nothing is claimed there, and the columns stay empty.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import (
    ColumnElement,
    Interval,
    bindparam,
    exists,
    extract,
    func,
    literal_column,
    not_,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Engine

from maild.app import App
from maild.lease import SERVER_NOW
from maild.models import OutboundMail
from maild.outbox_waits import due_clause, due_params, earliest_due

_OUTBOUND = OutboundMail.__table__
# The database server's clock, in UTC as every column: the statement's own time (maild/lease.py's too).
DB_NOW = literal_column(SERVER_NOW)
# Of the claim's period, the part after which no more mail of a batch is handed over (a third is left for it).
SURE_FOR = 2 / 3


def claims_rows(engine: Engine) -> bool:
    """Whether this database's outbox is claimed row by row (PostgreSQL; SQLite has one daemon)."""
    return engine.dialect.name == "postgresql"


def free_clause() -> ColumnElement[bool]:
    """Rows nobody claims now: never claimed, the claim recorded or lapsed, or claimed by bind parameter
    `holder` itself (its walk goes on after a partial batch, or a claim of a stopped round)."""
    return or_(_OUTBOUND.c.claim_until.is_(None), _OUTBOUND.c.claim_until < DB_NOW,
               _OUTBOUND.c.claimed_by == bindparam("holder"))


_CLAIMED_IDS = (select(_OUTBOUND.c.id)
                .where(due_clause(), _OUTBOUND.c.id > bindparam("after"), free_clause())
                .order_by(_OUTBOUND.c.id).limit(bindparam("size"))
                .with_for_update(skip_locked=True))
CLAIM = (update(_OUTBOUND).where(_OUTBOUND.c.id.in_(_CLAIMED_IDS.scalar_subquery()))
         .values(claimed_by=bindparam("holder"), claim_until=DB_NOW + bindparam("period", type_=Interval()))
         .returning(_OUTBOUND.c.id, _OUTBOUND.c.message_id, _OUTBOUND.c.sender, _OUTBOUND.c.recipients,
                    _OUTBOUND.c.raw))
# Given back untried: another daemon (or this one's next round) may take them at once.
RELEASE = (update(_OUTBOUND)
           .where(_OUTBOUND.c.id == bindparam("row_id"), _OUTBOUND.c.claimed_by == bindparam("holder"))
           .values(claimed_by=None, claim_until=None))
_ANY_FREE_DUE = select(exists().where(due_clause(), free_clause()))
# Seconds until the first claim of another daemon on a due mail ends (when it may be found lapsed).
_OTHERS_CLAIM_ENDS = (select(func.min(extract("epoch", _OUTBOUND.c.claim_until - DB_NOW)))
                      .where(due_clause(), _OUTBOUND.c.claim_until >= DB_NOW,
                             _OUTBOUND.c.claimed_by != bindparam("holder")))

# The first retry time still ahead (the mails due now are another daemon's, or there would be one free).
_NEXT_RETRY = select(func.min(_OUTBOUND.c.next_attempt_at)).where(_OUTBOUND.c.status == "queued",
                                                                   not_(due_clause()))


def claim_params(holder: str, period: float) -> dict[str, object]:
    return {"holder": holder, "period": timedelta(seconds=period)}


def earliest_free_due(app: App, holder: str) -> float | None:
    """`earliest_due` (maild/outbox_waits.py) as a daemon that claims rows sees it: a due mail that another
    daemon claims is due for this one when that claim ends (it lapses if its daemon died; usually the other
    records the mail sooner), so a delivery does not wake every second for mail another is sending."""
    if not claims_rows(app.db.engine):
        return earliest_due(app)
    now = app.now()
    params = {**due_params(now), "holder": holder}
    with app.db.session() as s:
        if s.scalar(_ANY_FREE_DUE, params):
            return 0.0
        ends = s.scalar(_OTHERS_CLAIM_ENDS, params)
        first = s.scalar(_NEXT_RETRY, params)
    retry = None if first is None else max(0.0, (first - now).total_seconds())
    return min((float(x) for x in (ends, retry) if x is not None), default=None)
