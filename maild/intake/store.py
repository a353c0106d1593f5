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

from sqlalchemy import bindparam, insert, select
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
    try:
        ids = app.db.transaction(lambda s: [_store(s, mail, now, app.config.max_mail_bytes) for mail in mails],
                                 f"storing {len(mails)} fetched mails")
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


def _store(s: Session, mail: FetchedMail, now: datetime, limit: int) -> int | None:
    # Core statements built once: this runs for every mail fetched.
    received = min(now, mail.arrived_at) if mail.arrived_at is not None else now
    if s.execute(_BY_UID, {"source": mail.source, "uidvalidity": mail.uidvalidity, "uid": mail.uid}).first():
        return None
    heads = headers_of(mail.raw)  # parsed once for both
    message_id = _message_id(heads.get("Message-ID"))
    size = mail.size if mail.size is not None else len(mail.raw)
    # An oversized mail read whole all the same (`mail ingest`, a server that misstated its size) is cut
    # here: its header block is kept, never the whole of it.
    truncated = mail.truncated or len(mail.raw) > limit
    raw = header_block(mail.raw) if truncated else mail.raw
    size = max(size, len(mail.raw))
    digest = None if truncated else hashlib.sha256(raw).hexdigest()
    row = dict(source=mail.source, uidvalidity=mail.uidvalidity, uid=mail.uid, message_id=message_id, raw=raw,
               size=size, digest=digest, received_at=received, status="new", attempts=0,
               sender_key=key_of_from(heads.get("From")))
    if digest:
        first = s.execute(_SAME_BYTES, {"digest": digest}).scalar()
        if first is not None:
            # The bytes are those of mail `first`: not kept twice.
            head = decode_mail(header_block(raw), max_size=1)  # headers only, for `maild mail list`
            same = "same Message-ID and bytes" if message_id else "same bytes (no Message-ID)"
            row.update(raw=b"", status="duplicate", note=f"{same} as mail {first}",
                       sender=head.from_addr, subject=head.subject[:500] or None)
    result = s.execute(insert(_INBOUND), [row])
    return int(result.inserted_primary_key[0])
