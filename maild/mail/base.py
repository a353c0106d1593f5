"""Types shared by every mail transport (IMAP, SMTP, Maildir) and the daemon core.

The core codes against these names; add fields only with defaults, never rename.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Protocol


@dataclass(frozen=True)
class FetchedMail:
    source: str  # e.g. "imap:user@host:port/INBOX" — stable per mailbox
    uidvalidity: int  # IMAP UIDVALIDITY (0 for Maildir)
    uid: str  # IMAP UID as string (Maildir: the unique part of the file name)
    raw: bytes  # the RFC 5322 bytes exactly as stored on the server
    arrived_at: datetime | None  # server's arrival time (IMAP INTERNALDATE), aware UTC, or None
    # Over the size limit, `raw` holds only the header block (at most MAX_HEADER_BYTES) and `size` the
    # size of the whole mail, as the Maildir file or the IMAP server (RFC822.SIZE) gave it.
    size: int | None = None
    truncated: bool = False


# How much of an oversized mail is read and kept: its header block, cut here if longer.
MAX_HEADER_BYTES = 65536


def header_block(data: bytes) -> bytes:
    """The header block at the start of `data` (up to and with the blank line), at most MAX_HEADER_BYTES."""
    data = data[:MAX_HEADER_BYTES]
    ends = [p for p in (data.find(b"\r\n\r\n"), data.find(b"\n\n")) if p >= 0]
    if not ends:
        return data
    end = min(ends)
    return data[:end + (4 if data.startswith(b"\r\n\r\n", end) else 2)]


class InboxSource(Protocol):
    source: str
    # True when the last `fetch_each` stopped before the end of what is waiting (IMAP's `max_batch`): the caller
    # marks what it got done and asks again.
    backlog: bool

    async def fetch_new(self) -> list[FetchedMail]:
        """Every mail not yet marked done, oldest first (by UID)."""
        ...

    def fetch_each(self, max_bytes: int) -> AsyncIterator[FetchedMail]:
        """The same mails one at a time, each read only when asked for, so a caller that stores each before
        asking for the next holds one mail at a time however full the inbox. A mail over `max_bytes` is
        given truncated (see FetchedMail): its body is never read."""
        ...

    async def mark_done(self, mail: FetchedMail) -> None:
        """Called only AFTER the raw bytes are committed to the DB; idempotent."""
        ...

    async def wait_for_mail(self, timeout: float) -> None:
        """Return when new mail may be there (IMAP IDLE push) or after timeout (polling)."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True)
class OutgoingMail:
    message_id: str
    sender: str  # envelope from
    recipients: list[str]  # envelope to
    raw: bytes  # the full RFC 5322 message (headers incl. Message-ID already in it)


@dataclass(frozen=True)
class SendResult:
    status: Literal["sent", "temporary", "permanent"]
    detail: str = ""  # server reply or error, for the GM
    refused: dict[str, str] = field(default_factory=dict)  # recipient -> reason, for partly refused lists
    # Not tried at all: the sender is resting its server after a connection failure (see maild/mail/breaker.py).
    # Nothing reached the server, so the outbox leaves the mail as it was and counts no attempt.
    held: bool = False


class Sender(Protocol):
    """Optional parts the outbox looks for: `send_batch(mails)` (deliver many at once, the Maildir) and a
    `breaker` attribute (a `maild.mail.breaker.Breaker`: while it rests the server, the outbox stops)."""

    async def send(self, mail: OutgoingMail) -> SendResult:
        """Deliver one mail; never raises for delivery problems. Safe to cancel (the connection is dropped)."""
        ...

    async def close(self) -> None: ...


def resolve_password(cfg: dict[str, Any], base_dir: Path) -> str | None:
    """The password of a `[mail.inbound]` / `[mail.outbound]` table, or None if it names none.

    `password` holds it inline, `password_env` names an environment variable and `password_file` a
    file (relative to `base_dir`, the config file's directory) whose first line is the password.
    A named variable or file that is missing is a configuration error, so it raises ValueError
    with a message the GM can act on rather than silently logging in without a password.
    """
    given = [key for key in ("password", "password_env", "password_file") if cfg.get(key) is not None]
    if len(given) > 1:
        raise ValueError(f"give only one of {', '.join(given)}")
    if not given:
        return None
    key = given[0]
    if key == "password":
        return str(cfg["password"])
    if key == "password_env":
        name = str(cfg["password_env"])
        value = os.environ.get(name)
        if value is None:
            raise ValueError(f"password_env: environment variable {name} is not set")
        return value
    path = Path(cfg["password_file"])
    if not path.is_absolute():
        path = base_dir / path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"password_file: {path} does not exist") from None
    except OSError as exc:
        raise ValueError(f"password_file: cannot read {path}: {exc.strerror}") from None
    # Only the first line: editors and `echo` add a trailing newline that is not part of the password.
    lines = text.splitlines()
    return lines[0] if lines else ""


def is_loopback(host: str) -> bool:
    """True for hosts whose traffic never leaves this machine (plain text is acceptable there)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
