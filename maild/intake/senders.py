"""Whose mail it is, as intake claims it: one key per sender, read from the stored header block.

Intake reads one sender's mails in receipt order and never two of them at once in two processes
(maild/intake/claims.py, maild/intake/attempts.py). The key is taken when the mail is stored (the column's
default, maild/models.py: whatever inserts the row), from its first From address, lower case and without a
+tag: a player writing as alice+venice@ and alice@ is one sender here (grouping too much only costs
parallelism; too little would let two mails of one player be read out of order). A mail without an address in
From has no key: it is claimed alone, and nothing of its sender's is ordered after it.
"""

from __future__ import annotations

import re
from email.utils import getaddresses
from typing import Any

from maild.controlchars import strip_controls
from maild.mail.base import header_block

SENDER_KEY_CHARS = 320  # the column's width, RFC 5321's longest address
# The first From header and its continuation lines: a look at the bytes, not a parse of the header block
# (this runs for every mail stored; the email parser took 100 µs a mail).
_FROM = re.compile(rb"^From:[ \t]*(.*(?:\r?\n[ \t].*)*)", re.IGNORECASE | re.MULTILINE)
_FOLD = re.compile(r"\r?\n(?=[ \t])")


def key_of_from(value: str | None) -> str | None:
    """The sender key of a From header's value (see the module's docstring), None without an address."""
    if not value:
        return None
    for _name, address in getaddresses([strip_controls(_FOLD.sub("", value))]):
        address = address.strip().lower()
        local, at, domain = address.rpartition("@")
        if at and local and domain:
            return f"{local.split('+', 1)[0] or local}@{domain}"[:SENDER_KEY_CHARS]
    return None


def sender_key(raw: bytes) -> str | None:
    match = _FROM.search(header_block(raw))
    return key_of_from(match.group(1).decode("utf-8", "replace")) if match else None


def sender_key_default(context: Any) -> str | None:
    """`inbound_mails.sender_key`'s default: the key of the row's raw bytes, as inserted."""
    raw = context.get_current_parameters().get("raw")
    return sender_key(bytes(raw)) if raw else None
