"""Whose mail it is, as intake claims it: one key per sender, read from the stored header block.

Intake reads one sender's mails in receipt order and never two of them at once in two processes
(maild/intake/claims.py, maild/intake/attempts.py). The key is taken when the mail is stored, from its first
From address, lower case and without a +tag: a player writing as alice+venice@ and alice@ is one sender here
(grouping too much only costs parallelism; too little would let two mails of one player be read out of order).
A mail without an address in From has no key: nothing else of its sender's is ordered after it.
"""

from __future__ import annotations

from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import getaddresses

from maild.controlchars import strip_controls
from maild.mail.base import header_block

_HEADERS = BytesHeaderParser(policy=compat32)
SENDER_KEY_CHARS = 320  # the column's width, RFC 5321's longest address


def headers_of(raw: bytes) -> dict[str, str]:
    """Message-ID and From of a raw mail, as the header block has them (compat32: cheap, runs for every mail
    fetched); a header missing or unreadable is left out."""
    try:
        parsed = _HEADERS.parsebytes(header_block(raw))
    except Exception:
        return {}
    return {name: str(parsed[name]) for name in ("Message-ID", "From") if parsed[name] is not None}


def key_of_from(value: str | None) -> str | None:
    """The sender key of a From header's value (see the module's docstring), None without an address."""
    if not value:
        return None
    for _name, address in getaddresses([strip_controls(value)]):
        address = address.strip().lower()
        local, at, domain = address.rpartition("@")
        if at and local and domain:
            return f"{local.split('+', 1)[0] or local}@{domain}"[:SENDER_KEY_CHARS]
    return None


def sender_key(raw: bytes) -> str | None:
    return key_of_from(headers_of(raw).get("From"))
