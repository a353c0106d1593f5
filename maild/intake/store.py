"""Storing a fetched mail's raw bytes: the first thing that happens to it, before the server forgets it."""

from __future__ import annotations

from datetime import datetime
from email.parser import BytesHeaderParser
from email.policy import compat32

from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from maild.app import App
from maild.controlchars import strip_controls
from maild.mail.base import FetchedMail
from maild.models import InboundMail

_HEADERS = BytesHeaderParser(policy=compat32)


def message_id_of(raw: bytes) -> str | None:
    # Headers only, with the cheap compat32 policy: this runs for every mail fetched.
    try:
        value = _HEADERS.parsebytes(raw[:65536]).get("Message-ID")
    except Exception:
        return None
    if not value:
        return None
    value = " ".join(strip_controls(str(value)).split())
    return value[:998] or None


def store_fetched(app: App, mail: FetchedMail) -> int | None:
    """Commit the raw mail; its row id is its receipt sequence. None if we had it already (same mailbox
    UID, or the same Message-ID through another way in), so a re-fetch after a crash is harmless."""
    return store_batch(app, [mail])[0]


def store_batch(app: App, mails: list[FetchedMail]) -> list[int | None]:
    """Commit several raw mails in one transaction, in the order given (their receipt order)."""
    now = app.now()
    try:
        with app.db.session() as s:
            ids = [_store(s, mail, now) for mail in mails]
    except IntegrityError:  # stored by someone else between our look and our insert: one at a time
        if len(mails) == 1:
            return [None]
        return [store_batch(app, [mail])[0] for mail in mails]
    return ids


_INBOUND = InboundMail.__table__
_BY_UID = select(_INBOUND.c.id).where(_INBOUND.c.source == bindparam("source"),
                                      _INBOUND.c.uidvalidity == bindparam("uidvalidity"),
                                      _INBOUND.c.uid == bindparam("uid"))
_BY_MESSAGE_ID = select(_INBOUND.c.id).where(_INBOUND.c.message_id == bindparam("mid")).limit(1)


def _store(s: Session, mail: FetchedMail, now: datetime) -> int | None:
    # Core statements built once: this runs for every mail fetched.
    received = min(now, mail.arrived_at) if mail.arrived_at is not None else now
    message_id = message_id_of(mail.raw)
    if s.execute(_BY_UID, {"source": mail.source, "uidvalidity": mail.uidvalidity, "uid": mail.uid}).first():
        return None
    if message_id and s.execute(_BY_MESSAGE_ID, {"mid": message_id}).first():
        return None
    result = s.execute(insert(_INBOUND), [dict(
        source=mail.source, uidvalidity=mail.uidvalidity, uid=mail.uid, message_id=message_id, raw=mail.raw,
        size=len(mail.raw), received_at=received, status="new")])
    return int(result.inserted_primary_key[0])
