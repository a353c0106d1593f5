"""Building the mails maild sends: plain text (with a game's pictures attached, if it has any), threaded,
marked as automatic."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.header import Header
from email.utils import format_datetime
from functools import lru_cache
from urllib.parse import quote

from maild.controlchars import header_safe
from maild.ruleset import Attachment

_MSG_ID = re.compile(r"<[^<>\s]{1,250}>")

SUBJECT_CHARS = 200  # a Subject we write: longer ones are shortened with an ellipsis
# References we write: the thread's first id and its last few (RFC 5322 §3.6.4 keeps the first when trimming),
# so a thread that goes round a loop does not grow the header with every hop.
REFERENCES_LAST = 6
# One attachment may be at most this big: a ruleset's picture larger than this is a bug of the ruleset (a map
# is tens of kilobytes), and mail servers refuse mails of some tens of megabytes. Base64 makes it a third more.
ATTACHMENT_BYTES = 5 * 1024 * 1024
_MIME_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}")
_TEXT_PART = b'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n'


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
            extra_headers: dict[str, str] | None = None, undisclosed: bool = False,
            attachments: Sequence[Attachment] = ()) -> Composed:
    """A text/plain UTF-8 mail, quoted-printable, LF line ends (as Maildir keeps them; aiosmtplib sends CRLF).

    Written by hand rather than through `email.generator`: a turn composes thousands of printouts, and
    binascii's quoted-printable is many times faster than the generator's. `undisclosed` keeps the
    recipients out of the headers (one newsletter to many players, who need not see each other's address).

    With `attachments` (a game's pictures), a multipart/mixed mail: the same text part first, then each
    attachment in base64. Mail programs show an inline image/png part below the text; an SVG they list as an
    attachment whatever its disposition says. ValueError for an attachment over ATTACHMENT_BYTES, with a type
    that is not a MIME type, or with no name."""
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
    if attachments:
        return Composed(message_id, _multipart(headers, message_id, body, attachments, sender))
    headers += [("MIME-Version", "1.0"), ("Content-Type", 'text/plain; charset="utf-8"'),
                ("Content-Transfer-Encoding", "quoted-printable")]
    head = "".join(f"{name}: {value}\n" for name, value in headers).encode("ascii")
    return Composed(message_id=message_id, raw=head + b"\n" + encode_body(body))


def _multipart(headers: list[tuple[str, str]], message_id: str, body: str, attachments: Sequence[Attachment],
               sender: str) -> bytes:
    # "=_" can occur in neither quoted-printable (which writes "=" as "=3D") nor base64: the boundary never
    # appears inside a part, whatever the text says.
    boundary = f"=_maild_{hashlib.sha256(message_id.encode()).hexdigest()[:24]}"
    domain = sender.rpartition("@")[2] or "localhost"
    headers = [*headers, ("MIME-Version", "1.0"), ("Content-Type", f'multipart/mixed; boundary="{boundary}"')]
    head = "".join(f"{name}: {value}\n" for name, value in headers).encode("ascii")
    delimiter = f"\n--{boundary}\n".encode("ascii")
    parts = [_TEXT_PART + b"\n" + encode_body(body), *(attachment_part(a, domain) for a in attachments)]
    # The line break before each delimiter belongs to it (RFC 2046 §5.1.1): a text ending in a newline keeps it.
    return head + b"\n" + delimiter[1:] + delimiter.join(parts) + f"\n--{boundary}--\n".encode("ascii")


@lru_cache(maxsize=8)
def attachment_part(attachment: Attachment, domain: str) -> bytes:
    """One attachment as a MIME part, headers and base64 body. Cached: a turn attaches the same picture to every
    newsletter part, and a ruleset that computes a picture once hands the same object to many printouts. Its
    Content-ID is the hash of its name and data, the same for the same picture in every mail (RFC 2045 §7
    allows that)."""
    name = attachment.filename
    if not name or not name.strip() or any(ord(c) < 32 or c == "\x7f" for c in name):
        raise ValueError(f"an attachment needs a file name without control characters, not {name!r}")
    if len(attachment.data) > ATTACHMENT_BYTES:
        raise ValueError(f"attachment {name!r} is {len(attachment.data)} bytes, over the "
                         f"{ATTACHMENT_BYTES} one attachment may have (a ruleset's bug)")
    if not _MIME_TYPE.fullmatch(attachment.content_type):
        raise ValueError(f"attachment {name!r}: {attachment.content_type!r} is not a MIME type like image/png")
    disposition = "inline" if attachment.inline else "attachment"
    digest = hashlib.sha256(name.encode() + b"\0" + attachment.data).hexdigest()[:32]
    cid = f"<{digest}@{domain}>"
    head = (f"Content-Type: {attachment.content_type}; {_param('name', name)}\n"
            "Content-Transfer-Encoding: base64\n"
            f"Content-Disposition: {disposition}; {_param('filename', name)}\n"
            f"Content-ID: {cid}\n\n")
    return head.encode("ascii") + base64.encodebytes(attachment.data).rstrip(b"\n")


def _param(key: str, name: str) -> str:
    """A file name as a header parameter: quoted when it is plain ASCII, else RFC 2231 (key*=utf-8''...)."""
    if name.isascii() and '"' not in name and "\\" not in name:
        return f'{key}="{name}"'
    return f"{key}*=utf-8''{quote(name, safe='')}"


@lru_cache(maxsize=8)
def encode_body(body: str) -> bytes:
    # Cached: a turn sends the same newsletter to every player.
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    return binascii.b2a_qp(text.encode("utf-8"), istext=True)
