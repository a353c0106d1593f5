"""Maildir inbox and outbox: the embedded default, needing no mail server."""

from __future__ import annotations

import asyncio
import hashlib
import os
import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

from maild.mail.base import MAX_HEADER_BYTES, FetchedMail, OutgoingMail, SendResult, header_block


def ensure_maildir(path: Path) -> None:
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)


class MaildirInbox:
    """Mail delivered into new/ is taken; when stored it moves to cur/ flagged seen (":2,S")."""

    def __init__(self, path: Path) -> None:
        self.path = path
        ensure_maildir(path)
        self.source = f"maildir:{path.resolve()}"
        self._names: dict[str, str] = {}  # uid -> file name in new/, from the last fetch

    def _pending(self) -> list[os.DirEntry[str]]:
        with os.scandir(self.path / "new") as it:
            entries = [e for e in it if e.is_file() and not e.name.startswith(".")]
        entries.sort(key=lambda e: (e.stat().st_mtime_ns, e.name))
        return entries

    async def fetch_new(self) -> list[FetchedMail]:
        return [mail async for mail in self.fetch_each(0)]

    async def fetch_each(self, max_bytes: int) -> AsyncIterator[FetchedMail]:
        """Each pending mail, read when asked for; over `max_bytes` (0: no limit) only its header block
        is read, the file's size telling before its body is touched."""
        for entry in self._pending():
            try:
                mail = self._read(entry, max_bytes)
            except FileNotFoundError:  # taken by another reader meanwhile
                continue
            self._names[mail.uid] = entry.name
            yield mail

    def _read(self, entry: os.DirEntry[str], max_bytes: int) -> FetchedMail:
        uid = entry.name.split(":", 1)[0]
        with open(entry.path, "rb") as f:
            st = os.fstat(f.fileno())
            arrived = datetime.fromtimestamp(st.st_mtime, UTC)
            if max_bytes and st.st_size > max_bytes:
                return FetchedMail(self.source, 0, uid, header_block(f.read(MAX_HEADER_BYTES)), arrived,
                                   size=st.st_size, truncated=True)
            raw = f.read()
        return FetchedMail(self.source, 0, uid, raw, arrived, size=len(raw))

    async def mark_done(self, mail: FetchedMail) -> None:
        new = self.path / "new"
        name = self._names.pop(mail.uid, mail.uid)
        try:
            os.replace(new / name, self.path / "cur" / f"{mail.uid}:2,S")
        except FileNotFoundError:  # moved already (a second run after a crash); nothing left to do
            pass

    async def wait_for_mail(self, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            if self._pending():
                return
            await asyncio.sleep(min(1.0, max(0.0, end - loop.time())))

    async def close(self) -> None:
        return None


def deliver(path: Path, raw: bytes, name: str | None = None) -> Path:
    """Put a mail into a Maildir the way an MDA does: write in tmp/, then rename into new/."""
    ensure_maildir(path)
    if name is None:
        now = datetime.now(UTC)
        name = f"{int(now.timestamp())}.M{now.microsecond}P{os.getpid()}R{os.urandom(4).hex()}.{socket.gethostname()}"
    tmp = path / "tmp" / name
    with open(tmp, "wb") as f:
        f.write(raw)
        f.flush()
        os.fsync(f.fileno())
    dest = path / "new" / name
    os.replace(tmp, dest)
    return dest


class MaildirSender:
    """Each mail becomes one file named after its Message-ID, so sending it again after a crash is harmless."""

    def __init__(self, path: Path) -> None:
        self.path = path
        ensure_maildir(path)

    async def send(self, mail: OutgoingMail) -> SendResult:
        name = "maild-" + hashlib.sha256(mail.message_id.encode()).hexdigest()[:32]
        if (self.path / "new" / name).exists() or (self.path / "cur" / name).exists():
            return SendResult("sent", "already in the outbox Maildir")
        try:
            deliver(self.path, mail.raw, name)
        except OSError as exc:
            return SendResult("temporary", f"cannot write to {self.path}: {exc}")
        return SendResult("sent", str(self.path / "new" / name))

    async def close(self) -> None:
        return None
