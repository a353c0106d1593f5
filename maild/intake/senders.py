"""Whose mail it is, as intake claims it: one key per sender, read from the stored header block.

Intake reads one sender's mails in receipt order and never two of them at once in two processes
(maild/intake/claims.py, maild/intake/attempts.py). The key is taken when the mail is stored, from its first
From address, lower case and without a +tag: a player writing as alice+venice@ and alice@ is one sender here
(grouping too much only costs parallelism; too little would let two mails of one player be read out of order).
A mail without an address in From has no key: nothing else of its sender's is ordered after it.
"""

from __future__ import annotations

import re
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import getaddresses
from functools import lru_cache

from maild.controlchars import strip_controls
from maild.mail.base import header_block

_HEADERS = BytesHeaderParser(policy=compat32)
SENDER_KEY_CHARS = 320  # the column's width, RFC 5321's longest address


def headers_of(raw: bytes) -> dict[str, str]:
    """Message-ID and From of a raw mail, as the header block has them (compat32: cheap, runs for every mail
    fetched); a header missing or unreadable is left out."""
    block = header_block(raw)
    found = _plain_headers(block)
    if found is not None:
        return found
    try:
        parsed = _HEADERS.parsebytes(block)
    except Exception:
        return {}
    return {name: str(parsed[name]) for name in _WANTED if parsed[name] is not None}


_WANTED = ("Message-ID", "From")
# A field's first line, as the stdlib's parser knows one (email.feedparser.headerRE, less its "From " and
# continuation cases, which are left to it).
_FIELD = re.compile(r"[\041-\071\073-\176]+:")
_LINES = re.compile(r"[^\n]*\n|[^\n]+")


def _plain_headers(block: bytes) -> dict[str, str] | None:
    """`headers_of` the way compat32's parser reads them, for a plain header block: ASCII, lines ended by LF or
    CRLF, each a field or a field's continuation. None for anything else (the parser reads that): storing a
    fetched mail parsed its headers a second time, after intake's own parse, and this is most of that cost."""
    if not block.isascii() or b"\r" in block.replace(b"\r\n", b""):
        return None
    wanted = {name.lower(): name for name in _WANTED}
    found: dict[str, str] = {}
    field: list[str] = []  # the lines of the field being read

    def close() -> None:
        if field:
            name, value = field[0].split(":", 1)
            key = wanted.get(name.lower())
            if key is not None and key not in found:  # the first of its name, as Message.get gives it
                found[key] = (value.lstrip(" \t") + "".join(field[1:])).rstrip("\r\n")

    for line in _LINES.findall(block.decode("ascii")):
        if line in ("\n", "\r\n"):
            break
        if line[0] in " \t":
            if not field:
                return None
            field.append(line)
            continue
        if line.startswith("From ") or not _FIELD.match(line):
            return None
        close()
        field = [line]
    close()
    return found


def key_of_from(value: str | None) -> str | None:
    """The sender key of a From header's value (see the module's docstring), None without an address. Kept
    (up to 500 characters, a player's usual From line: a flood of addresses is not): a player's From line is
    the same in every mail he sends, and getaddresses was most of storing one."""
    if not value:
        return None
    return _key_of(value) if len(value) <= 500 else _key_of.__wrapped__(value)


@lru_cache(maxsize=4096)
def _key_of(value: str) -> str | None:
    for _name, address in getaddresses([strip_controls(value)]):
        address = address.strip().lower()
        local, at, domain = address.rpartition("@")
        if at and local and domain:
            return f"{local.split('+', 1)[0] or local}@{domain}"[:SENDER_KEY_CHARS]
    return None


def sender_key(raw: bytes) -> str | None:
    return key_of_from(headers_of(raw).get("From"))
