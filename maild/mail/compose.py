"""Building the mails maild sends: plain text, threaded, marked as automatic."""

from __future__ import annotations

import binascii
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from email.header import Header
from email.utils import format_datetime
from functools import lru_cache

from maild.controlchars import header_safe

_MSG_ID = re.compile(r"<[^<>\s]{1,250}>")

SUBJECT_CHARS = 200  # a Subject we write: longer ones are shortened with an ellipsis
# References we write: the thread's first id and its last few (RFC 5322 §3.6.4 keeps the first when trimming),
# so a thread that goes round a loop does not grow the header with every hop.
REFERENCES_LAST = 6


@dataclass(frozen=True)
class Composed:
    message_id: str
    raw: bytes


def new_message_id(key: str, sender: str) -> str:
    """Unique, and recognisable as ours: the key's hash tells two sends of the same mail apart from others."""
    domain = sender.rpartition("@")[2] or "localhost"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return f"<maild.{digest}.{secrets.token_hex(6)}@{domain}>"


def header_value(value: str) -> str:
    """One header's value, safe to write: no line breaks of its own (header injection), RFC 2047 when it is
    not ASCII, folded when long."""
    value = header_safe(value).strip()
    if value.isascii() and len(value) < 900:
        return value
    return Header(value, "utf-8" if not value.isascii() else "us-ascii").encode(linesep="\n")


def subject_line(text: str, limit: int = SUBJECT_CHARS) -> str:
    """A subject fit to write: one line, no control characters, at most `limit` characters."""
    text = " ".join(header_safe(text).split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def thread_ids(references: tuple[str, ...], in_reply_to: str) -> list[str]:
    """The References of an answer: well-formed ids only, each once, the first and the last few."""
    ids = list(dict.fromkeys(m.group(0) for r in (*references, in_reply_to) if (m := _MSG_ID.fullmatch(r.strip()))))
    return ids if len(ids) <= REFERENCES_LAST + 1 else [ids[0], *ids[-REFERENCES_LAST:]]


def compose(*, key: str, sender: str, to: list[str], subject: str, body: str, date: datetime,
            auto_submitted: str, in_reply_to: str | None = None, references: tuple[str, ...] = (),
            extra_headers: dict[str, str] | None = None, undisclosed: bool = False) -> Composed:
    """A text/plain UTF-8 mail, quoted-printable, LF line ends (as Maildir keeps them; aiosmtplib sends CRLF).

    Written by hand rather than through `email.generator`: a turn composes thousands of printouts, and
    binascii's quoted-printable is many times faster than the generator's. `undisclosed` keeps the
    recipients out of the headers (one newsletter to many players, who need not see each other's address)."""
    message_id = new_message_id(key, sender)
    headers = [
        ("From", header_value(sender)),
        ("To", "undisclosed-recipients:;" if undisclosed else header_value(", ".join(to))),
        ("Subject", header_value(subject_line(subject, 2 * SUBJECT_CHARS))),
        ("Date", format_datetime(date)),
        ("Message-ID", message_id),
    ]
    if in_reply_to and _MSG_ID.fullmatch(in_reply_to.strip()):
        headers.append(("In-Reply-To", in_reply_to.strip()))
        headers.append(("References", "\n ".join(thread_ids(references, in_reply_to))))
    # RFC 3834: so that vacation responders and other robots never answer us back.
    headers.append(("Auto-Submitted", auto_submitted))
    headers.append(("X-Auto-Response-Suppress", "All"))
    headers += [(name, header_value(value)) for name, value in (extra_headers or {}).items()]
    headers += [("MIME-Version", "1.0"), ("Content-Type", 'text/plain; charset="utf-8"'),
                ("Content-Transfer-Encoding", "quoted-printable")]
    head = "".join(f"{name}: {value}\n" for name, value in headers).encode("ascii")
    return Composed(message_id=message_id, raw=head + b"\n" + encode_body(body))


@lru_cache(maxsize=8)
def encode_body(body: str) -> bytes:
    # Cached: a turn sends the same newsletter to every player.
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    return binascii.b2a_qp(text.encode("utf-8"), istext=True)
