"""IMAP folder names: maild's "/"-separated names as the mailbox arguments a server expects."""

from __future__ import annotations

import base64

import aioimaplib


def mailbox_argument(name: str, delimiter: str | None) -> str:
    """A configured folder name as a quoted mailbox argument for a server with this separator.

    Config names use "/" between levels, whatever the server's separator is ("." in Dovecot's Maildir).
    """
    if delimiter and delimiter != "/":
        name = name.replace("/", delimiter)
    return encode_mailbox(name)


def encode_mailbox(name: str) -> str:
    """A mailbox name as an IMAP quoted string, non-ASCII in modified UTF-7 (RFC 3501 5.1.3)."""
    out: list[str] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            encoded = base64.b64encode("".join(pending).encode("utf-16-be")).decode("ascii")
            out.append("&" + encoded.rstrip("=").replace("/", ",") + "-")
            pending.clear()

    for char in name:
        if 0x20 <= ord(char) <= 0x7E:
            flush()
            out.append("&-" if char == "&" else char)
        else:
            pending.append(char)
    flush()
    return aioimaplib.quoted("".join(out))
