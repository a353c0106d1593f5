"""Which process works on which mail: a claim held while intake works on it, gone when its process is.

Intake counts an attempt on a mail before it reads it (maild/intake/attempts.py), so that a run that dies on
the mail counts. Another process that then sees the count cannot tell a run that died from one still at work
(the daemon and a GM's `mail ingest` or `turn run` read the same stored mail): it took the count for a crash,
counted again, and after a few such looks a mail nobody had failed on was set aside as poison (7 of 291 order
mails with 20 commands beside the daemon on SQLite). So a process holds a claim on each mail from before it
counts the attempt until its intake transaction has ended, and leaves the mails another live process holds.
The holds are what the operating system or the database ends with the process, so a crash frees them:

- SQLite (one machine): a POSIX lock on the byte at the mail's id in `<database>.claims`, released by the
  kernel when the process ends (killed, or started again in place after a stall: the file is closed on exec);
- PostgreSQL: a session advisory lock (the schema's key, the mail's id) on a connection of its own, released
  by the server when the session ends.

A mail is claimed through its sender (`sender_key`, maild/intake/senders.py), so that two processes never read
two mails of one player at once: the later could be booked before the earlier (a CANCEL before the orders it
cancels, the older of two order sets kept). The claim is on the sender, keyed by a hash of its key (two senders
sharing a hash only wait for each other), held while intake works on that sender's mails of one step; the order
within a sender is `attempts.begin`'s rule. A mail without a sender key is claimed alone, by its id.

Threads of one process share POSIX locks: two intakes in one process are kept apart by the attempt count
alone (`attempts.begin`), which is enough for fresh mail.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import make_url

from maild.db import Database, retry_transient
from maild.filemodes import PRIVATE_FILE

# The two kinds of claim: on a mail (by its id) and on a sender (by the hash of its key, `sender_claim`).
MAIL, SENDER = "mail", "sender"
# SQLite: where in the claims file the senders' bytes begin (mail ids stay below it).
_SENDER_BYTES = 1 << 40


def sender_claim(key: str) -> int:
    """A sender's claim number: 31 bits of the key's SHA-256, the same in every process (unlike hash())."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") >> 1


class _FileClaims:
    """SQLite's: byte locks in one file. One descriptor per file and process, never closed while the process
    lives: closing any descriptor of a file drops every POSIX lock the process holds on it."""

    _open: dict[Path, int] = {}
    _guard = threading.Lock()

    def __init__(self, database: Path) -> None:
        path = database.with_name(database.name + ".claims").resolve()
        with self._guard:
            if path not in self._open:
                self._open[path] = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
            self._fd = self._open[path]

    def hold(self, kind: str, ids: list[int]) -> list[int]:
        base = _SENDER_BYTES if kind == SENDER else 0
        held = []
        for claim in ids:
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, base + claim)
            except (BlockingIOError, PermissionError):  # EAGAIN or EACCES: another live process holds it
                continue
            held.append(claim)
        return held

    def release(self, kind: str, ids: list[int]) -> None:
        base = _SENDER_BYTES if kind == SENDER else 0
        for claim in ids:
            fcntl.lockf(self._fd, fcntl.LOCK_UN, 1, base + claim)


class _SessionClaims:
    """PostgreSQL's: advisory locks on one connection kept for them (autocommit: they outlive transactions),
    keyed by the schema (two games' databases may share a server under other schemas) and the kind of claim,
    and by the mail's id or the sender's claim number."""

    _KEYS = {MAIL: "hashtext('maild intake claim:' || current_schema())",
             SENDER: "hashtext('maild sender claim:' || current_schema())"}
    _HOLD = {kind: text(f"SELECT id FROM unnest(CAST(:ids AS integer[])) AS id WHERE pg_try_advisory_lock({key}, id)")
             for kind, key in _KEYS.items()}
    _RELEASE = {kind: text(f"SELECT pg_advisory_unlock({key}, id) FROM unnest(CAST(:ids AS integer[])) AS id")
                for kind, key in _KEYS.items()}

    def __init__(self, engine: Engine) -> None:
        # The engine, not the Database: the registry below holds this weakly by its Database, which a strong
        # reference back would keep alive for ever.
        self._engine = engine
        self._conn: Connection | None = None

    def _connection(self) -> Connection:
        if self._conn is None or self._conn.invalidated or self._conn.closed:
            self._conn = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        return self._conn

    def hold(self, kind: str, ids: list[int]) -> list[int]:
        def once() -> list[int]:
            try:
                return sorted(self._connection().execute(self._HOLD[kind], {"ids": ids}).scalars())
            except Exception:
                # A lost session lost its locks with it: start a new one (the caller's steps hold nothing yet).
                self.close()
                raise

        return retry_transient(once, "claiming mails")

    def release(self, kind: str, ids: list[int]) -> None:
        try:
            self._connection().execute(self._RELEASE[kind], {"ids": ids})
        except Exception:
            self.close()  # the session, and with it every lock, is gone

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass


_claims: WeakKeyDictionary[Database, _FileClaims | _SessionClaims] = WeakKeyDictionary()


def _for(db: Database) -> _FileClaims | _SessionClaims:
    if db not in _claims:
        url = make_url(db.url)
        if url.get_backend_name() == "sqlite":
            database = url.database if url.database and url.database != ":memory:" else "memory.db"
            _claims[db] = _FileClaims(Path(database))
        else:
            claims = _SessionClaims(db.engine)
            _claims[db] = claims
            db.on_close.append(claims.close)
    return _claims[db]


@contextmanager
def holding(db: Database, ids: list[int], senders: Sequence[str | None] = ()) -> Iterator[list[int]]:
    """Hold the mails of `ids` that no other live process holds, and yield those (in the order given); the
    rest are another process's work. With `senders` (each mail's sender key, in the order of `ids`), a mail
    with a key is held through its sender's claim, one without through its own. Released when the block ends."""
    keys: Mapping[int, str | None] = dict(zip(ids, senders, strict=True)) if senders else {}
    wanted = {MAIL: sorted({i for i in ids if not keys.get(i)}),
              SENDER: sorted({sender_claim(k) for k in keys.values() if k})}
    claims = _for(db)
    held: dict[str, list[int]] = {}
    try:
        for kind, claim_ids in wanted.items():
            if claim_ids:
                held[kind] = claims.hold(kind, claim_ids)
        mails, senders_held = set(held.get(MAIL, ())), set(held.get(SENDER, ()))
        yield [i for i in ids if (sender_claim(k) in senders_held if (k := keys.get(i)) else i in mails)]
    finally:
        for kind, claim_ids in held.items():
            claims.release(kind, claim_ids)
