"""Storing a fetched mail's raw bytes: the first thing that happens to it, before the server forgets it.

A duplicate is the same mail fetched again (the same source id: mailbox, UIDVALIDITY and UID, as after a
crash between commit and marking it done), which is not stored twice; or the same bytes arriving again under
another source id (a second way in, or the same mailbox after its UIDVALIDITY changed, with or without a
Message-ID), which is stored as a row of status `duplicate`, its note naming the first, so `maild mail list`
shows it but intake never answers it twice. A mail's bytes carry its Received lines and its Date, so two
sendings are never the same bytes. Different mails that share a Message-ID (bulk senders reuse them; 54 of
303 mails in one real corpus) are different mails.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from maild.app import App
from maild.controlchars import strip_controls
from maild.intake.decode import decode_mail
from maild.intake.senders import headers_of, key_of_from
from maild.mail.base import FetchedMail, header_block
from maild.models import InboundMail


def _message_id(value: str | None) -> str | None:
    if not value:
        return None
    value = " ".join(strip_controls(value).split())
    return value[:998] or None


def store_fetched(app: App, mail: FetchedMail) -> int | None:
    """Commit the raw mail; its row id is its receipt sequence. None if this very mail was stored before
    (same mailbox UID), so a re-fetch after a crash is harmless."""
    return store_batch(app, [mail])[0]


def store_batch(app: App, mails: list[FetchedMail]) -> list[int | None]:
    """Commit several raw mails in one transaction, in the order given (their receipt order). A transaction
    that fails for a passing reason (a dropped connection, a lock, a full disk) is done again: the server forgets
    a mail only once it is stored. If the database stays away this raises, and the mails, not marked done, are
    fetched again by the next pass."""
    now = app.now()
    limit = app.config.max_mail_bytes

    def store(s: Session) -> list[int | None]:
        if _repeats(mails):  # a mail that is a duplicate of another of the batch: each must see the one before
            return [_store(s, mail, now, limit) for mail in mails]
        return _store_all(s, mails, now, limit)

    try:
        ids = app.db.transaction(store, f"storing {len(mails)} fetched mails")
    except IntegrityError:  # stored by someone else between our look and our insert: one at a time
        if len(mails) == 1:
            return [None]
        return [store_batch(app, [mail])[0] for mail in mails]
    return ids


_INBOUND = InboundMail.__table__
_BY_UID = select(_INBOUND.c.id).where(_INBOUND.c.source == bindparam("source"),
                                      _INBOUND.c.uidvalidity == bindparam("uidvalidity"),
                                      _INBOUND.c.uid == bindparam("uid"))
# By the digest alone (indexed): the same bytes are the same mail, Message-ID or not.
_SAME_BYTES = select(_INBOUND.c.id).where(_INBOUND.c.digest == bindparam("digest"),
                                          _INBOUND.c.status != "duplicate").order_by(_INBOUND.c.id).limit(1)


# A batch's look-ups, one statement each (a mail's own took two statements a mail).
# (On the unique index of the three: each column's IN list narrows it.)
_UIDS = select(_INBOUND.c.source, _INBOUND.c.uidvalidity, _INBOUND.c.uid).where(
    _INBOUND.c.source.in_(bindparam("sources", expanding=True)),
    _INBOUND.c.uidvalidity.in_(bindparam("uidvalidities", expanding=True)),
    _INBOUND.c.uid.in_(bindparam("uids", expanding=True)))
_FIRST_OF = (select(_INBOUND.c.digest, func.min(_INBOUND.c.id))
             .where(_INBOUND.c.digest.in_(bindparam("digests", expanding=True)), _INBOUND.c.status != "duplicate")
             .group_by(_INBOUND.c.digest))
# Many rows in one statement, their ids known by their source ids (asking them in the order given would cost
# SQLite a statement a row).
_INSERT = insert(_INBOUND).returning(_INBOUND.c.source, _INBOUND.c.uidvalidity, _INBOUND.c.uid, _INBOUND.c.id)


def _source_key(mail: FetchedMail) -> tuple[str, int, str]:
    return mail.source, mail.uidvalidity, mail.uid


def _repeats(mails: list[FetchedMail]) -> bool:
    """Whether two mails of the batch are one: the same source id, or the same bytes."""
    keys = {_source_key(m) for m in mails}
    raws = {m.raw for m in mails}
    return len(keys) < len(mails) or len(raws) < len(mails)


def _store_all(s: Session, mails: list[FetchedMail], now: datetime, limit: int) -> list[int | None]:
    """`_store` for a batch none of whose mails repeats another: three statements for the batch."""
    if not mails:
        return []
    found = {tuple(r) for r in s.execute(_UIDS, {"sources": sorted({m.source for m in mails}),
                                                 "uidvalidities": sorted({m.uidvalidity for m in mails}),
                                                 "uids": sorted({m.uid for m in mails})})}
    fresh = [m for m in mails if _source_key(m) not in found]
    rows = [_row(mail, now, limit) for mail in fresh]
    digests = sorted({str(r["digest"]) for r in rows if r["digest"]})
    firsts = dict(s.execute(_FIRST_OF, {"digests": digests}).all()) if digests else {}
    for row in rows:
        first = firsts.get(row["digest"])
        if first is not None:
            _mark_duplicate(row, first)
    ids = {(source, validity, uid): row_id for source, validity, uid, row_id in
           (s.execute(_INSERT, rows).all() if rows else [])}
    return [ids.get(_source_key(m)) for m in mails]


def _row(mail: FetchedMail, now: datetime, limit: int) -> dict[str, Any]:
    """The inbound row of a fetched mail, as stored unless its bytes are another's."""
    received = min(now, mail.arrived_at) if mail.arrived_at is not None else now
    heads = headers_of(mail.raw)  # parsed once for both
    message_id = _message_id(heads.get("Message-ID"))
    size = mail.size if mail.size is not None else len(mail.raw)
    # An oversized mail read whole all the same (`mail ingest`, a server that misstated its size) is cut
    # here: its header block is kept, never the whole of it.
    truncated = mail.truncated or len(mail.raw) > limit
    raw = header_block(mail.raw) if truncated else mail.raw
    size = max(size, len(mail.raw))
    digest = None if truncated else hashlib.sha256(raw).hexdigest()
    return dict(source=mail.source, uidvalidity=mail.uidvalidity, uid=mail.uid, message_id=message_id, raw=raw,
                size=size, digest=digest, received_at=received, status="new", attempts=0,
                sender_key=key_of_from(heads.get("From")))


def _mark_duplicate(row: dict[str, Any], first: int) -> None:
    """The bytes of `row` are those of mail `first`: not kept twice."""
    head = decode_mail(header_block(row["raw"]), max_size=1)  # headers only, for `maild mail list`
    same = "same Message-ID and bytes" if row["message_id"] else "same bytes (no Message-ID)"
    row.update(raw=b"", status="duplicate", note=f"{same} as mail {first}",
               sender=head.from_addr, subject=head.subject[:500] or None)


def _store(s: Session, mail: FetchedMail, now: datetime, limit: int) -> int | None:
    """One mail, seeing what was stored before it in the transaction."""
    if s.execute(_BY_UID, {"source": mail.source, "uidvalidity": mail.uidvalidity, "uid": mail.uid}).first():
        return None
    row = _row(mail, now, limit)
    if row["digest"]:
        first = s.execute(_SAME_BYTES, {"digest": row["digest"]}).scalar()
        if first is not None:
            _mark_duplicate(row, first)
    result = s.execute(insert(_INBOUND), [row])
    return int(result.inserted_primary_key[0])
