"""Building the mails maild sends: plain text, threaded, marked as automatic."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime


@dataclass(frozen=True)
class Composed:
    message_id: str
    raw: bytes


def new_message_id(key: str, sender: str) -> str:
    """Unique, and recognisable as ours: the key's hash tells two sends of the same mail apart from others."""
    domain = sender.rpartition("@")[2] or "localhost"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return f"<maild.{digest}.{secrets.token_hex(6)}@{domain}>"


def compose(*, key: str, sender: str, to: list[str], subject: str, body: str, date: datetime,
            auto_submitted: str, in_reply_to: str | None = None, references: tuple[str, ...] = (),
            extra_headers: dict[str, str] | None = None) -> Composed:
    msg = EmailMessage()
    message_id = new_message_id(key, sender)
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = " ".join([*references, in_reply_to])
    # RFC 3834: so that vacation responders and other robots never answer us back.
    msg["Auto-Submitted"] = auto_submitted
    msg["X-Auto-Response-Suppress"] = "All"
    for name, value in (extra_headers or {}).items():
        msg[name] = value
    msg.set_content(body, charset="utf-8", cte="quoted-printable")
    return Composed(message_id=message_id, raw=msg.as_bytes())
