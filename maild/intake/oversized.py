"""A mail over the size limit: only its header block was read and kept; its sender gets one short refusal."""

from __future__ import annotations

from sqlalchemy.orm import Session

from maild.app import App
from maild.intake.read import read_mail
from maild.intake.run import MailRow
from maild.mail.base import header_block
from maild.render import render
from maild.replylimits import STRANGER, Answer, Gate, give


def is_oversized(row: MailRow, limit: int) -> bool:
    # A row that holds less than the whole mail was cut when it was fetched, whatever the limit is now.
    return row.size > limit or len(row.raw) < row.size


def refuse(s: Session, app: App, row: MailRow, gate: Gate) -> str:
    """Read the headers, tell the sender (unless it is a robot); the note for the GM. The sender is unproven
    (nothing of the mail was read), so the refusal counts as a stranger's answer: one a day at most."""
    limit = app.config.max_mail_bytes
    mail = read_mail(header_block(row.raw))
    row.read_from(mail)
    note = f"{row.size} bytes, more than the limit of {limit}; only its headers were kept"
    if mail.auto_reason or not mail.from_addr:
        return note + "; nobody was answered"
    body = render(None, "refused_oversized.txt.j2", size=row.size, limit=limit, subject=mail.subject)
    held_back = give(s, app, Answer(
        kind=STRANGER, key=f"oversized:{row.id}", outbox_kind="refusal", to=mail.from_addr,
        subject="Your mail was not read: it is too big", body=body, game_id=None, mail_id=row.id,
        in_reply_to=mail.message_id, thread=mail.thread), gate)
    if held_back is not None:
        return note + f"; not answered: {held_back}"
    return note + f"; {mail.from_addr} was sent a short refusal"
