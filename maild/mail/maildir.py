"""Maildir inbox and outbox: the embedded default, needing no mail server."""

from __future__ import annotations

import asyncio
import ctypes
import hashlib
import os
import socket
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from maild.crashpoints import crashpoint
from maild.filemodes import private_dir, private_opener
from maild.mail.base import MAX_HEADER_BYTES, FetchedMail, OutgoingMail, SendResult, header_block


def ensure_maildir(path: Path) -> None:
    """The Maildir and its tmp/, new/ and cur/, made 0700 where they are not there yet (maild/filemodes.py)."""
    private_dir(path)
    for sub in ("tmp", "new", "cur"):
        private_dir(path / sub)


class MaildirInbox:
    """Mail delivered into new/ is taken; when stored it moves to cur/ flagged seen (":2,S")."""

    backlog = False  # fetch_each gives every mail waiting

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
        # Microseconds zero-padded: two mails with the same mtime (a restored backup, a test) are read in name
        # order, and "M99000" must not sort after "M100000" of a later mail of the same second.
        name = (f"{int(now.timestamp())}.M{now.microsecond:06d}P{os.getpid()}R{os.urandom(4).hex()}."
                f"{socket.gethostname()}")
    tmp = path / "tmp" / name
    with open(tmp, "wb", opener=private_opener) as f:
        f.write(raw)
        f.flush()
        os.fsync(f.fileno())
    dest = path / "new" / name
    os.replace(tmp, dest)
    return dest


class MaildirSender:
    """Each mail becomes one file named after its Message-ID, so sending it again after a crash is harmless.

    Mails go in batches: every file of a batch is written in tmp/, one filesystem sync makes them all
    durable, then each is renamed into new/ and new/ itself is synced. A file in new/ is therefore always
    whole, and the outbox records a batch as sent only after `send_batch` returns: a crash anywhere in
    between leaves files whose names the next pass finds, and it delivers each of them no second time.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        ensure_maildir(path)
        # Plain strings: pathlib's joins cost more than the rest of the work on a small mail.
        self._tmp, self._new, self._cur = (os.path.join(path, sub) for sub in ("tmp", "new", "cur"))

    @staticmethod
    def file_name(mail: OutgoingMail) -> str:
        return "maild-" + hashlib.sha256(mail.message_id.encode()).hexdigest()[:32]

    async def send(self, mail: OutgoingMail) -> SendResult:
        return (await self.send_batch([mail]))[0]

    async def send_batch(self, mails: list[OutgoingMail]) -> list[SendResult]:
        # Files written and synced block for milliseconds: in a worker thread, so that the event loop (fetching,
        # handing the next batch to intake, a stop) goes on meanwhile. Cancelled while it writes, the thread
        # finishes the batch; its files, not recorded as sent, are found by name by the next pass, as after a crash.
        return await asyncio.to_thread(self._write_batch, mails)

    def _write_batch(self, mails: list[OutgoingMail]) -> list[SendResult]:
        results: list[SendResult | None] = [None] * len(mails)
        written: list[tuple[int, str]] = []
        join, exists = os.path.join, os.path.exists
        for i, mail in enumerate(mails):
            name = self.file_name(mail)
            if exists(join(self._new, name)) or exists(join(self._cur, name)):
                results[i] = SendResult("sent", "already in the outbox Maildir")
                continue
            try:
                with open(join(self._tmp, name), "wb", opener=private_opener) as f:
                    f.write(mail.raw)
            except OSError as exc:
                results[i] = SendResult("temporary", f"cannot write to {self.path}: {exc}")
                continue
            written.append((i, name))
        if written:
            try:
                sync_filesystem(self._tmp)  # one sync for the whole batch, not one fsync per file
            except OSError as exc:
                for i, _name in written:
                    results[i] = SendResult("temporary", f"cannot sync {self.path}: {exc}")
                written = []
            crashpoint("send.synced")
        for i, name in written:
            dest = join(self._new, name)
            try:
                os.replace(join(self._tmp, name), dest)
            except OSError as exc:
                results[i] = SendResult("temporary", f"cannot write to {self.path}: {exc}")
                continue
            results[i] = SendResult("sent", dest)
            crashpoint("send.delivered")
        if written:
            fsync_dir(self._new)  # the renames too, before the outbox records the batch as sent
        assert all(r is not None for r in results)
        return results  # type: ignore[return-value]

    async def close(self) -> None:
        return None


def fsync_dir(path: str | Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_filesystem(path: str | Path) -> None:
    """Make everything written to the filesystem holding `path` durable, in one call (Linux syncfs(2));
    elsewhere sync(2)."""
    libc = _libc()
    if libc is None:
        os.sync()
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.syncfs(fd) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err))
    finally:
        os.close(fd)


@cache
def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syncfs  # noqa: B018 (present since glibc 2.14; look it up once)
    except (OSError, AttributeError):
        return None
    return libc
