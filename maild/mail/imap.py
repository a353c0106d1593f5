"""The GM's inbox on an IMAP server, over aioimaplib.

`ImapInbox` implements `InboxSource`. It keeps one connection and wraps every call in a small
supervisor: a lost connection, a BYE, a timeout or an unparsable answer closes the connection,
and the next attempt reconnects after an exponential, capped and jittered backoff. Problems that
retrying cannot fix (the server refuses the login or the folder) raise `ImapAuthError` /
`ImapFolderError` so the daemon can show them to the GM; further attempts are still paced by the
backoff, so a caller that loops on the error cannot hammer the server.

Mails are identified by (source, UIDVALIDITY, UID). When the server's UIDVALIDITY changes (its
index was rebuilt, the folder was recreated) every mail not yet marked done is offered again under
the new UIDVALIDITY; the core also dedupes by Message-ID, so that merely re-offers mails it has.
`mark_done` for a mail fetched under an older UIDVALIDITY does nothing: its UID may now name
another mail.

aioimaplib quirks handled here (see docs/mail-transport.md): no STARTTLS (implicit TLS or plain on
loopback), pending commands are not failed when the connection drops (we race every command with
a connection-lost event), Dovecot's `* OK Still here` IDLE keepalive arrives as a push (only
EXISTS counts as new mail), `CHARSET utf-8` in SEARCH is rejected by some servers (never sent),
and unsolicited EXISTS outside IDLE may be dropped (so `wait_for_mail` first asks for UIDs above
the highest one seen).

The aioimaplib connection (racing commands against connection loss, teardown) is in `imap_session`,
reading the server's answers in `imap_responses`, folder names in `imap_folders`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import aioimaplib

from maild.mail.base import MAX_HEADER_BYTES, FetchedMail, header_block, is_loopback, resolve_password
from maild.mail.imap_folders import encode_mailbox, mailbox_argument
from maild.mail.imap_responses import (
    FetchItem,
    announces_mail,
    is_bye,
    parse_fetch_response,
    parse_internaldate,
    parse_list_delimiter,
    parse_search_response,
    parse_uidvalidity,
    response_text,
)
from maild.mail.imap_session import Session, Transient, close_transport, guard

# The inbox, its errors, and the parsing helpers that were always importable from here.
__all__ = [
    "FETCH_CHUNK",
    "IDLE_REISSUE",
    "FetchItem",
    "ImapAuthError",
    "ImapError",
    "ImapFolderError",
    "ImapInbox",
    "ImapUnavailable",
    "encode_mailbox",
    "parse_fetch_response",
    "parse_internaldate",
    "parse_search_response",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Servers may drop a client that has been idle for 30 minutes (RFC 3501 5.4), so IDLE is re-issued.
IDLE_REISSUE = 29 * 60.0
#: UIDs per UID FETCH: aioimaplib parses responses recursively, one stack frame per line.
FETCH_CHUNK = 25
#: Bodies fetched in one UID FETCH add up to at most this many bytes (one mail may be bigger, up to the
#: size limit): what fetching holds in memory at once, however full the folder.
FETCH_CHUNK_BYTES = 8_000_000
#: UIDs per UID FETCH of sizes and dates only (small answers).
SIZE_CHUNK = 500


class ImapError(Exception):
    """A problem with the IMAP inbox that the GM has to look at."""


class ImapAuthError(ImapError):
    """The server refused the login: wrong user or password, or the account is disabled."""


class ImapFolderError(ImapError):
    """The configured folder cannot be selected (missing, no access)."""


class ImapUnavailable(ImapError):
    """The server could not be reached in `max_attempts` tries (only raised if that is set)."""


class ImapInbox:
    """`InboxSource` for one folder of one IMAP account.

    done_action: "seen" marks a mail \\Seen once it is stored (and only UNSEEN mail is fetched);
    "move:Folder" moves it to Folder (created if missing) and every mail in the folder is fetched.
    """

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str,
        folder: str = "INBOX",
        *,
        tls: bool = True,
        allow_plain: bool = False,
        ssl_context_factory: Callable[[], ssl.SSLContext] | None = None,
        timeout: float = 30.0,
        done_action: str = "seen",
        use_idle: bool = True,
        idle_reissue: float = IDLE_REISSUE,
        backoff_initial: float = 1.0,
        backoff_max: float = 300.0,
        max_attempts: int | None = None,
        max_batch: int = 500,
        rng: random.Random | None = None,
    ) -> None:
        if not tls and not allow_plain and not is_loopback(host):
            raise ValueError(
                f"plain IMAP to {host} would send the password in clear text; "
                "use tls = true (port 993) or set allow_plain = true"
            )
        if done_action == "seen":
            self._move_to: str | None = None
        elif done_action.startswith("move:") and done_action[5:]:
            self._move_to = done_action[5:]
        else:
            raise ValueError(f'done_action must be "seen" or "move:Folder", not {done_action!r}')
        self.host, self.port, self.user, self.folder = host, port, user, folder
        self._password = password
        self.tls = tls
        self._ssl_context_factory = ssl_context_factory or ssl.create_default_context
        self.timeout = timeout
        self.use_idle = use_idle
        self.idle_reissue = idle_reissue
        self.backoff_initial, self.backoff_max = backoff_initial, backoff_max
        self.max_attempts = max_attempts
        self.max_batch = max_batch
        self._rng = rng or random.Random()
        self.source = f"imap:{user}@{host}:{port}/{folder}"

        # Diagnostics (for the GM's status page and for tests).
        self.connect_count = 0  # successful logins
        self.idle_count = 0  # IDLE commands issued
        self.last_error: str | None = None
        self.idling = asyncio.Event()  # set while an IDLE command is active

        self._session: Session | None = None
        self._uidvalidity: int | None = None
        self._high_uid = 0  # highest UID seen under the current UIDVALIDITY
        self._backlog = False  # fetch_new stopped at max_batch: more is waiting
        self._idle_refused = False
        self._failures = 0  # consecutive failed attempts, drives the backoff
        self._idle_failures = 0
        self._next_attempt_at = 0.0  # loop time before which we do not reconnect
        self._lock = asyncio.Lock()
        self._interrupt = asyncio.Event()  # another call wants the connection: end IDLE early
        self._closing = asyncio.Event()  # ends backoff pauses too
        self._closed = False

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any], base_dir: Path, **overrides: Any) -> ImapInbox:
        """Build from a `[mail.inbound]` table with kind = "imap" (see docs/mail-transport.md)."""
        for key in ("host", "user"):
            if not cfg.get(key):
                raise ValueError(f"[mail.inbound] kind = \"imap\" needs {key}")
        password = resolve_password(dict(cfg), base_dir)
        if password is None:
            raise ValueError("[mail.inbound] needs password_env or password_file")
        tls = bool(cfg.get("tls", True))
        ca_file = cfg.get("ca_file")
        factory: Callable[[], ssl.SSLContext] | None = None
        if ca_file:
            # For a server with a private CA or a self-signed certificate.
            ca_path = str(base_dir / Path(ca_file))

            def factory() -> ssl.SSLContext:
                return ssl.create_default_context(cafile=ca_path)
        kwargs: dict[str, Any] = dict(
            host=str(cfg["host"]),
            port=int(cfg.get("port", 993 if tls else 143)),
            user=str(cfg["user"]),
            password=password,
            folder=str(cfg.get("folder", "INBOX")),
            tls=tls,
            allow_plain=bool(cfg.get("allow_plain", False)),
            ssl_context_factory=factory,
            done_action=str(cfg.get("done_action", "seen")),
            use_idle=bool(cfg.get("idle", True)),
            timeout=float(cfg.get("timeout", 30.0)),
        )
        kwargs.update(overrides)
        return cls(**kwargs)

    @property
    def backlog(self) -> bool:
        """The last listing stopped at `max_batch`: more mail is waiting than `fetch_each` gave."""
        return self._backlog

    @property
    def uidvalidity(self) -> int | None:
        """The folder's UIDVALIDITY as last seen (None before the first connection)."""
        return self._uidvalidity

    # ------------------------------------------------------------------ InboxSource

    async def fetch_new(self) -> list[FetchedMail]:
        """Every mail not yet done, oldest first; at most `max_batch` (then wait_for_mail returns at once)."""
        return [mail async for mail in self.fetch_each(0)]

    async def fetch_each(self, max_bytes: int) -> AsyncIterator[FetchedMail]:
        """Mails not yet done, oldest first, a few at a time (at most FETCH_CHUNK_BYTES of bodies per
        command), at most `max_batch`. Sizes come first (RFC822.SIZE): a mail over `max_bytes` (0: no
        limit) is fetched as its first MAX_HEADER_BYTES only, and cut to its header block. The
        connection is free between chunks, so the caller can mark mails done meanwhile."""
        self._interrupt.set()
        async with self._lock:
            uidvalidity, listed = await self._retrying(self._list_new)
        for chunk in _chunks_by_size(listed, max_bytes):
            self._interrupt.set()
            async with self._lock:
                mails = await self._retrying(
                    lambda session, chunk=chunk: self._fetch_chunk(session, uidvalidity, chunk, max_bytes))
            if mails is None:
                return  # UIDVALIDITY changed: these UIDs may name other mails now; the next pass lists again
            for mail in mails:
                yield mail

    async def mark_done(self, mail: FetchedMail) -> None:
        if mail.source != self.source:
            raise ValueError(f"mail from {mail.source} given to {self.source}")
        self._interrupt.set()
        async with self._lock:
            await self._retrying(lambda session: self._mark_done(session, mail))

    async def wait_for_mail(self, timeout: float) -> None:
        """Return when new mail may be there, or after `timeout` seconds.

        With IDLE this returns within a moment of the server announcing a mail; without, it only
        waits. It returns early, too, when the connection broke: the following fetch_new reconnects.
        """
        self._check_open()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with self._lock:
            self._check_open()
            self._interrupt.clear()
            if self._backlog:
                return
            session = self._live_session()
            if session is None:
                # fetch_new reconnects; only honour the backoff pause so a failing server is not hammered.
                await self._sleep(min(deadline, self._next_attempt_at))
                return
            try:
                if await self._has_newer_mail(session):
                    return
                if self.use_idle and "IDLE" in session.capabilities and not self._idle_refused:
                    await self._idle(session, deadline)
                else:
                    await self._sleep(deadline, session)
                self._idle_failures = 0
            except Transient as exc:
                self._drop(f"while waiting for mail: {exc}")
                self._idle_failures += 1
                # Return soon so the caller fetches what may have arrived, but not at once: a server
                # that drops every IDLE would otherwise make caller and server spin.
                pause = max(self.backoff_initial, self._backoff(self._idle_failures))
                await self._sleep(min(deadline, loop.time() + pause))

    async def close(self) -> None:
        self._closed = True
        self._closing.set()
        self._interrupt.set()
        try:
            await asyncio.wait_for(self._lock.acquire(), self.timeout)
        except TimeoutError:
            locked = False
        else:
            locked = True
        try:
            session, self._session = self._session, None
            if session is not None and not session.lost.is_set():
                try:
                    await self._guard(session, session.client.logout(), min(self.timeout, 5.0))
                except Transient:
                    pass
            if session is not None:
                close_transport(session.client)
        finally:
            if locked:
                self._lock.release()

    # ------------------------------------------------------------------ operations

    async def _list_new(self, session: Session) -> tuple[int, list[FetchItem]]:
        """(UIDVALIDITY, UID, size and arrival of each mail not yet done), without reading any mail."""
        # UNDELETED: a mail flagged \Deleted but not yet expunged (e.g. a COPY-based move that was
        # interrupted) is gone as far as we are concerned.
        criteria = "UNDELETED" if self._move_to else "UNSEEN UNDELETED"
        uids = await self._search(session, criteria)
        self._high_uid = max(self._high_uid, max(uids, default=0))
        wanted = uids[: self.max_batch]
        self._backlog = len(uids) > len(wanted)
        listed: list[FetchItem] = []
        for start in range(0, len(wanted), SIZE_CHUNK):
            chunk = wanted[start : start + SIZE_CHUNK]
            response = await self._guard(
                session, session.client.uid("fetch", _uid_set(chunk), "(UID RFC822.SIZE INTERNALDATE)"))
            _expect_ok(response, "UID FETCH")
            items = parse_fetch_response(response.lines[:-1])
            listed += [items[uid] for uid in chunk if uid in items]  # the others were expunged meanwhile
        return session.uidvalidity, listed

    async def _fetch_chunk(self, session: Session, uidvalidity: int, chunk: list[FetchItem], max_bytes: int
                           ) -> list[FetchedMail] | None:
        if session.uidvalidity != uidvalidity:
            return None
        whole = [item.uid for item in chunk if item.uid is not None and not _too_big(item, max_bytes)]
        start = [item.uid for item in chunk if item.uid is not None and _too_big(item, max_bytes)]
        bodies: dict[int, FetchItem] = {}
        # BODY.PEEK: fetching must not set \Seen; only mark_done, after the DB commit, may.
        for uids, what in ((whole, "BODY.PEEK[]"), (start, f"BODY.PEEK[]<0.{MAX_HEADER_BYTES}>")):
            if uids:
                response = await self._guard(
                    session, session.client.uid("fetch", _uid_set(uids), f"(UID {what})"),
                    timeout=math.inf,  # aioimaplib's own timeout restarts with every chunk read: big mails may be slow
                )
                _expect_ok(response, "UID FETCH")
                bodies.update(parse_fetch_response(response.lines[:-1]))
        mails: list[FetchedMail] = []
        for item in chunk:
            fetched = bodies.get(item.uid) if item.uid is not None else None
            if fetched is None or fetched.body is None:
                # Expunged meanwhile, or an answer we cannot read: it stays on the server.
                log.warning("%s: UID %s not returned by UID FETCH; skipped", self.source, item.uid)
                continue
            raw, size = fetched.body, item.size if item.size is not None else len(fetched.body)
            truncated = bool(max_bytes) and size > max_bytes
            if truncated:
                raw = header_block(raw)
            mails.append(FetchedMail(self.source, uidvalidity, str(item.uid), raw, item.arrived_at, size=size,
                                     truncated=truncated))
        return mails

    async def _mark_done(self, session: Session, mail: FetchedMail) -> None:
        if mail.uidvalidity != session.uidvalidity:
            log.info("%s: UID %s belongs to UIDVALIDITY %d, now %d; not marked", self.source, mail.uid,
                     mail.uidvalidity, session.uidvalidity)
            return
        uid = str(int(mail.uid))
        client = session.client
        if self._move_to is None:
            response = await self._guard(session, client.uid("store", uid, "+FLAGS.SILENT", r"(\Seen)"))
            _expect_done(response, f"UID STORE {uid} +FLAGS (\\Seen)")
            return
        target = mailbox_argument(self._move_to, session.delimiter)
        if "MOVE" in session.capabilities:
            response = await self._guard(session, client.uid("move", uid, target))
            _expect_done(response, f"UID MOVE {uid} {target}")
            return
        # No MOVE: copy, flag \Deleted, expunge. A crash between COPY and STORE leaves the mail in
        # the folder, so it is offered and copied again: a duplicate in the archive, never a loss.
        response = await self._guard(session, client.uid("copy", uid, target))
        _expect_done(response, f"UID COPY {uid} {target}")
        response = await self._guard(session, client.uid("store", uid, "+FLAGS.SILENT", r"(\Deleted)"))
        _expect_done(response, f"UID STORE {uid} +FLAGS (\\Deleted)")
        if "UIDPLUS" in session.capabilities:
            response = await self._guard(session, client.uid("expunge", uid))
        else:
            # Also expunges other mails flagged \Deleted in this folder; the GM's inbox folder should
            # be dedicated to maild anyway.
            response = await self._guard(session, client.expunge())
        _expect_done(response, "EXPUNGE")

    async def _search(self, session: Session, criteria: str) -> list[int]:
        # A server shows a session new mail only after announcing it with EXISTS, and Dovecot does
        # that at the *end* of the next command: a bare SEARCH can miss what just arrived. NOOP first.
        response = await self._guard(session, session.client.noop())
        _expect_ok(response, "NOOP")
        response = await self._guard(session, session.client.uid_search(criteria, charset=None))
        if response.result != "OK":
            raise Transient(f"UID SEARCH {criteria}: {response_text(response)}")
        return sorted(parse_search_response(response.lines[:-1]))

    async def _has_newer_mail(self, session: Session) -> bool:
        """Did a mail arrive since the last search? aioimaplib may drop EXISTS sent outside IDLE."""
        # "N:*" always matches the last mail even if its UID is below N, hence the filter.
        newer = [uid for uid in await self._search(session, f"UID {self._high_uid + 1}:*") if uid > self._high_uid]
        if newer:
            self._high_uid = max(newer)
        return bool(newer)

    async def _idle(self, session: Session, deadline: float) -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < deadline and not self._interrupt.is_set():
            if await self._idle_cycle(session, min(deadline, loop.time() + self.idle_reissue)):
                return

    async def _idle_cycle(self, session: Session, until: float) -> bool:
        """One IDLE command until `until`; True if the server announced new mail."""
        loop = asyncio.get_running_loop()
        client = session.client
        queue = client.protocol.idle_queue
        while not queue.empty():  # pushes left over from an earlier IDLE were already acted upon
            queue.get_nowait()
        self.idle_count += 1
        try:
            # aioimaplib's own stop timer is set past ours: we end the cycle ourselves.
            idle_task = await self._guard(session, client.idle_start(timeout=until - loop.time() + 60))
        except Transient as exc:
            if isinstance(exc.__cause__, aioimaplib.Abort) and not session.lost.is_set():
                log.warning("%s: server refused IDLE (%s); polling instead", self.source, exc)
                self._idle_refused = True
                await self._sleep(until, session)
                return False
            raise
        self.idling.set()
        try:
            while True:
                push = await self._next_push(session, until - loop.time())
                if push is None or push == aioimaplib.STOP_WAIT_SERVER_PUSH:
                    return False
                if any(is_bye(line) for line in push):
                    raise Transient("server said BYE")
                if any(announces_mail(line) for line in push):
                    return True
                log.debug("%s: ignoring IDLE push %r", self.source, push)
        finally:
            self.idling.clear()
            if not session.lost.is_set():
                client.idle_done()
                await self._guard(session, idle_task)

    async def _next_push(self, session: Session, timeout: float) -> list[bytes] | None:
        """The next IDLE push; None on timeout or when another call wants the connection."""
        if timeout <= 0:
            return None
        get = asyncio.ensure_future(session.client.protocol.idle_queue.get())
        others = [asyncio.ensure_future(session.lost.wait()), asyncio.ensure_future(self._interrupt.wait())]
        done, pending = await asyncio.wait([get, *others], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if get in done:
            return get.result()
        if session.lost.is_set():
            raise Transient("connection lost")
        return None

    # ------------------------------------------------------------------ connection and supervisor

    async def _retrying(self, operation: Callable[[Session], Awaitable[T]]) -> T:
        attempts = 0
        while True:
            self._check_open()
            await self._pause(self._next_attempt_at)
            self._check_open()
            try:
                session = self._live_session() or await self._connect()
                result = await operation(session)
            except ImapError as exc:
                self._drop(str(exc))
                self._note_failure(at_least=self.backoff_initial)
                raise
            except Transient as exc:
                self._drop(str(exc))
                self._note_failure()
                attempts += 1
                if self.max_attempts is not None and attempts >= self.max_attempts:
                    raise ImapUnavailable(f"IMAP {self.host}:{self.port}: {exc}") from None
                log.warning("%s: %s; retrying in %.1f s", self.source, exc,
                            max(0.0, self._next_attempt_at - asyncio.get_running_loop().time()))
                continue
            self._failures = 0
            self.last_error = None
            return result

    async def _connect(self) -> Session:
        lost = asyncio.Event()
        client = aioimaplib.IMAP4(
            host=self.host,
            port=self.port,
            timeout=self.timeout,
            conn_lost_cb=lambda exc: lost.set(),
            # A fresh context per connection: contexts carry session caches and are cheap to make.
            ssl_context=self._ssl_context_factory() if self.tls else None,
        )
        session = Session(client, lost)
        try:
            await self._guard(session, client.wait_hello_from_server())
            response = await self._guard(session, client.login(aioimaplib.quoted(self.user), self._password))
            if response.result != "OK":
                text = response_text(response)
                if "[UNAVAILABLE]" in text or "[SERVERBUG]" in text:
                    raise Transient(f"login: {text}")
                raise ImapAuthError(f"IMAP server {self.host}:{self.port} refused login as {self.user}: {text}")
            # Ask again after login: servers advertise more (IDLE, MOVE) once authenticated, and
            # aioimaplib garbles the capabilities it reads from the LOGIN answer.
            await self._guard(session, client.protocol.capability())
            session.capabilities = frozenset(cap.upper() for cap in client.protocol.capabilities)
            session.delimiter = await self._delimiter(session)
            response = await self._guard(session, client.select(mailbox_argument(self.folder, session.delimiter)))
            if response.result != "OK":
                text = response_text(response)
                if "[UNAVAILABLE]" in text or "[SERVERBUG]" in text:
                    raise Transient(f"SELECT: {text}")
                raise ImapFolderError(f"IMAP folder {self.folder!r} on {self.host}:{self.port}: {text}")
            uidvalidity = parse_uidvalidity(response.lines)
            if uidvalidity is None:
                raise Transient("SELECT answer has no UIDVALIDITY")
            session.uidvalidity = uidvalidity
            if self._move_to is not None:
                # Fails with [ALREADYEXISTS] almost always; MOVE/COPY reports a real problem.
                await self._guard(session, client.create(mailbox_argument(self._move_to, session.delimiter)))
        except BaseException:
            close_transport(client)
            raise
        if self._uidvalidity is not None and session.uidvalidity != self._uidvalidity:
            log.warning("%s: UIDVALIDITY changed from %d to %d; mails not yet done are offered again",
                        self.source, self._uidvalidity, session.uidvalidity)
            self._high_uid = 0
        self._uidvalidity = session.uidvalidity
        self._session = session
        self.connect_count += 1
        log.info("%s: connected (%s)", self.source, "TLS" if self.tls else "plain")
        return session

    async def _delimiter(self, session: Session) -> str | None:
        response = await self._guard(session, session.client.list('""', '""'))
        return parse_list_delimiter(response.lines[:-1])

    async def _guard(self, session: Session, awaitable: Awaitable[T], timeout: float | None = None) -> T:
        """Await an aioimaplib call, failing fast if the connection drops or the server stalls.

        `timeout` defaults to the inbox's; math.inf leaves only aioimaplib's own inactivity timeout.
        """
        limit = None if timeout == math.inf else (self.timeout if timeout is None else timeout)
        return await guard(session, awaitable, limit)

    def _live_session(self) -> Session | None:
        if self._session is not None and self._session.lost.is_set():
            self._drop("connection lost")
        return self._session

    def _drop(self, reason: str) -> None:
        self.last_error = reason
        session, self._session = self._session, None
        if session is not None:
            log.info("%s: closing connection: %s", self.source, reason)
            close_transport(session.client)

    def _note_failure(self, at_least: float = 0.0) -> None:
        self._failures += 1
        delay = max(at_least, self._backoff(self._failures))
        self._next_attempt_at = asyncio.get_running_loop().time() + delay

    def _backoff(self, failures: int) -> float:
        # The first retry is immediate: most drops are an idle timeout or a server restart.
        if failures <= 1:
            return 0.0
        base = min(self.backoff_max, self.backoff_initial * 2 ** (failures - 2))
        return base * (0.5 + self._rng.random() / 2)

    async def _pause(self, until: float) -> None:
        """The backoff pause before reconnecting; only close() cuts it short."""
        delay = until - asyncio.get_running_loop().time()
        if delay > 0:
            try:
                await asyncio.wait_for(self._closing.wait(), delay)
            except TimeoutError:
                pass

    async def _sleep(self, until: float, session: Session | None = None) -> None:
        """Sleep until loop time `until`, waking early if another call (or close) wants the inbox."""
        delay = until - asyncio.get_running_loop().time()
        if delay <= 0:
            return
        waits = [asyncio.ensure_future(self._interrupt.wait())]
        if session is not None:
            waits.append(asyncio.ensure_future(session.lost.wait()))
        try:
            await asyncio.wait(waits, timeout=delay, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waits:
                task.cancel()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"{self.source}: inbox is closed")


# ---------------------------------------------------------------------- helpers


def _expect_ok(response: aioimaplib.Response, what: str) -> None:
    if response.result != "OK":
        raise Transient(f"{what}: {response.result} {response_text(response)}")


def _expect_done(response: aioimaplib.Response, what: str) -> None:
    """For commands that change the mailbox: NO is a lasting refusal (read-only, over quota)."""
    if response.result == "NO":
        raise ImapError(f"{what} refused: {response_text(response)}")
    _expect_ok(response, what)


def _too_big(item: FetchItem, max_bytes: int) -> bool:
    return bool(max_bytes) and item.size is not None and item.size > max_bytes


def _chunks_by_size(items: list[FetchItem], max_bytes: int) -> Iterator[list[FetchItem]]:
    """Consecutive runs of at most FETCH_CHUNK mails whose bodies to fetch add up to at most
    FETCH_CHUNK_BYTES (a single bigger one, within the size limit, alone)."""
    chunk: list[FetchItem] = []
    total = 0
    for item in items:
        cost = MAX_HEADER_BYTES if _too_big(item, max_bytes) else (item.size or 0)
        if chunk and (len(chunk) >= FETCH_CHUNK or total + cost > FETCH_CHUNK_BYTES):
            yield chunk
            chunk, total = [], 0
        chunk.append(item)
        total += cost
    if chunk:
        yield chunk


def _uid_set(uids: list[int]) -> str:
    """1,2,3,7 -> "1:3,7" (UIDs sorted ascending)."""
    parts: list[str] = []
    start = prev = uids[0]
    for uid in [*uids[1:], None]:
        if uid is not None and uid == prev + 1:
            prev = uid
            continue
        parts.append(str(start) if start == prev else f"{start}:{prev}")
        if uid is not None:
            start = prev = uid
    return ",".join(parts)


# Importable from here as before the parsing moved to imap_responses (tests/test_imap.py uses it).
_announces_mail = announces_mail
