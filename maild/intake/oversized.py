"""A mail over the size limit: only its header block was read and kept; its sender gets one short refusal."""

from __future__ import annotations

from sqlalchemy.orm import Session

from maild.app import App
from maild.intake.read import read_mail
from maild.intake.run import MailRow
from maild.mail.base import header_block
from maild.outbox import AUTO_REPLIED, queue_mail
from maild.render import render


def is_oversized(row: MailRow, limit: int) -> bool:
    # A row that holds less than the whole mail was cut when it was fetched, whatever the limit is now.
    return row.size > limit or len(row.raw) < row.size


def refuse(s: Session, app: App, row: MailRow) -> str:
    """Read the headers, tell the sender (unless it is a robot); the note for the GM."""
    limit = app.config.max_mail_bytes
    mail = read_mail(header_block(row.raw))
    row.sender = mail.from_addr
    row.subject = mail.subject[:500] if mail.subject else None
    note = f"{row.size} bytes, more than the limit of {limit}; only its headers were kept"
    if mail.auto_reason or not mail.from_addr:
        return note + "; nobody was answered"
    body = render(None, "refused_oversized.txt.j2", size=row.size, limit=limit, subject=mail.subject)
    queue_mail(s, app, key=f"oversized:{row.id}", kind="refusal", to=[mail.from_addr],
               subject="Your mail was not read: it is too big", body=body, in_reply_to=mail.message_id,
               auto_submitted=AUTO_REPLIED)
    return note + f"; {mail.from_addr} was sent a short refusal"
