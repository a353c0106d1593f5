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
"""

from __future__ import annotations

import asyncio
import base64
import logging
import math
import random
import re
import ssl
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar

import aioimaplib

from maild.mail.base import FetchedMail, is_loopback, resolve_password

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Servers may drop a client that has been idle for 30 minutes (RFC 3501 5.4), so IDLE is re-issued.
IDLE_REISSUE = 29 * 60.0
#: UIDs per UID FETCH: aioimaplib parses responses recursively, one stack frame per line.
FETCH_CHUNK = 25


class ImapError(Exception):
    """A problem with the IMAP inbox that the GM has to look at."""


class ImapAuthError(ImapError):
    """The server refused the login: wrong user or password, or the account is disabled."""


class ImapFolderError(ImapError):
    """The configured folder cannot be selected (missing, no access)."""


class ImapUnavailable(ImapError):
    """The server could not be reached in `max_attempts` tries (only raised if that is set)."""


class _Transient(Exception):
    """Connection-level trouble: drop the connection and try again later."""


@dataclass
class _Session:
    client: aioimaplib.IMAP4
    lost: asyncio.Event
    uidvalidity: int = 0
    capabilities: frozenset[str] = frozenset()
    delimiter: str | None = None  # the server's folder hierarchy separator ("." in Dovecot's Maildir)


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

        self._session: _Session | None = None
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
    def uidvalidity(self) -> int | None:
        """The folder's UIDVALIDITY as last seen (None before the first connection)."""
        return self._uidvalidity

    # ------------------------------------------------------------------ InboxSource

    async def fetch_new(self) -> list[FetchedMail]:
        """Every mail not yet done, oldest first; at most `max_batch` (then wait_for_mail returns at once)."""
        self._interrupt.set()
        async with self._lock:
            return await self._retrying(self._fetch_new)

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
            except _Transient as exc:
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
                except _Transient:
                    pass
            if session is not None:
                _close_transport(session.client)
        finally:
            if locked:
                self._lock.release()

    # ------------------------------------------------------------------ operations

    async def _fetch_new(self, session: _Session) -> list[FetchedMail]:
        # UNDELETED: a mail flagged \Deleted but not yet expunged (e.g. a COPY-based move that was
        # interrupted) is gone as far as we are concerned.
        criteria = "UNDELETED" if self._move_to else "UNSEEN UNDELETED"
        uids = await self._search(session, criteria)
        self._high_uid = max(self._high_uid, max(uids, default=0))
        wanted = uids[: self.max_batch]
        self._backlog = len(uids) > len(wanted)
        mails: list[FetchedMail] = []
        for start in range(0, len(wanted), FETCH_CHUNK):
            chunk = wanted[start : start + FETCH_CHUNK]
            # BODY.PEEK[]: fetching must not set \Seen; only mark_done, after the DB commit, may.
            response = await self._guard(
                session,
                session.client.uid("fetch", _uid_set(chunk), "(UID INTERNALDATE BODY.PEEK[])"),
                timeout=math.inf,  # aioimaplib's own timeout restarts with every chunk read: big mails may be slow
            )
            _expect_ok(response, "UID FETCH")
            items = parse_fetch_response(response.lines[:-1])
            for uid in chunk:
                item = items.get(uid)
                if item is None or item.body is None:
                    # Expunged meanwhile, or an answer we cannot read: it stays on the server.
                    log.warning("%s: UID %d not returned by UID FETCH; skipped", self.source, uid)
                    continue
                mails.append(FetchedMail(self.source, session.uidvalidity, str(uid), item.body, item.arrived_at))
        return mails

    async def _mark_done(self, session: _Session, mail: FetchedMail) -> None:
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
        target = self._mailbox(session, self._move_to)
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

    async def _search(self, session: _Session, criteria: str) -> list[int]:
        # A server shows a session new mail only after announcing it with EXISTS, and Dovecot does
        # that at the *end* of the next command: a bare SEARCH can miss what just arrived. NOOP first.
        response = await self._guard(session, session.client.noop())
        _expect_ok(response, "NOOP")
        response = await self._guard(session, session.client.uid_search(criteria, charset=None))
        if response.result != "OK":
            raise _Transient(f"UID SEARCH {criteria}: {_text(response)}")
        return sorted(parse_search_response(response.lines[:-1]))

    async def _has_newer_mail(self, session: _Session) -> bool:
        """Did a mail arrive since the last search? aioimaplib may drop EXISTS sent outside IDLE."""
        # "N:*" always matches the last mail even if its UID is below N, hence the filter.
        newer = [uid for uid in await self._search(session, f"UID {self._high_uid + 1}:*") if uid > self._high_uid]
        if newer:
            self._high_uid = max(newer)
        return bool(newer)

    async def _idle(self, session: _Session, deadline: float) -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < deadline and not self._interrupt.is_set():
            if await self._idle_cycle(session, min(deadline, loop.time() + self.idle_reissue)):
                return

    async def _idle_cycle(self, session: _Session, until: float) -> bool:
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
        except _Transient as exc:
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
                if any(_is_bye(line) for line in push):
                    raise _Transient("server said BYE")
                if any(_announces_mail(line) for line in push):
                    return True
                log.debug("%s: ignoring IDLE push %r", self.source, push)
        finally:
            self.idling.clear()
            if not session.lost.is_set():
                client.idle_done()
                await self._guard(session, idle_task)

    async def _next_push(self, session: _Session, timeout: float) -> list[bytes] | None:
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
            raise _Transient("connection lost")
        return None

    # ------------------------------------------------------------------ connection and supervisor

    async def _retrying(self, operation: Callable[[_Session], Awaitable[T]]) -> T:
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
            except _Transient as exc:
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

    async def _connect(self) -> _Session:
        lost = asyncio.Event()
        client = aioimaplib.IMAP4(
            host=self.host,
            port=self.port,
            timeout=self.timeout,
            conn_lost_cb=lambda exc: lost.set(),
            # A fresh context per connection: contexts carry session caches and are cheap to make.
            ssl_context=self._ssl_context_factory() if self.tls else None,
        )
        session = _Session(client, lost)
        try:
            await self._guard(session, client.wait_hello_from_server())
            response = await self._guard(session, client.login(aioimaplib.quoted(self.user), self._password))
            if response.result != "OK":
                text = _text(response)
                if "[UNAVAILABLE]" in text or "[SERVERBUG]" in text:
                    raise _Transient(f"login: {text}")
                raise ImapAuthError(f"IMAP server {self.host}:{self.port} refused login as {self.user}: {text}")
            # Ask again after login: servers advertise more (IDLE, MOVE) once authenticated, and
            # aioimaplib garbles the capabilities it reads from the LOGIN answer.
            await self._guard(session, client.protocol.capability())
            session.capabilities = frozenset(cap.upper() for cap in client.protocol.capabilities)
            session.delimiter = await self._delimiter(session)
            response = await self._guard(session, client.select(self._mailbox(session, self.folder)))
            if response.result != "OK":
                text = _text(response)
                if "[UNAVAILABLE]" in text or "[SERVERBUG]" in text:
                    raise _Transient(f"SELECT: {text}")
                raise ImapFolderError(f"IMAP folder {self.folder!r} on {self.host}:{self.port}: {text}")
            session.uidvalidity = _uidvalidity(response.lines)
            if self._move_to is not None:
                # Fails with [ALREADYEXISTS] almost always; MOVE/COPY reports a real problem.
                await self._guard(session, client.create(self._mailbox(session, self._move_to)))
        except BaseException:
            _close_transport(client)
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

    async def _delimiter(self, session: _Session) -> str | None:
        response = await self._guard(session, session.client.list('""', '""'))
        for line in response.lines[:-1]:
            match = re.match(rb'\([^)]*\) "(.)"', bytes(line))
            if match:
                return match.group(1).decode()
        return None

    @staticmethod
    def _mailbox(session: _Session, name: str) -> str:
        """Config names use "/" between levels, whatever the server's separator is."""
        if session.delimiter and session.delimiter != "/":
            name = name.replace("/", session.delimiter)
        return encode_mailbox(name)

    async def _guard(self, session: _Session, awaitable: Awaitable[T], timeout: float | None = None) -> T:
        """Await an aioimaplib call, failing fast if the connection drops or the server stalls.

        `timeout` defaults to the inbox's; math.inf leaves only aioimaplib's own inactivity timeout.
        """
        limit = None if timeout == math.inf else (self.timeout if timeout is None else timeout)
        task = asyncio.ensure_future(awaitable)
        lost = asyncio.ensure_future(session.lost.wait())
        try:
            done, _ = await asyncio.wait([task, lost], timeout=limit, return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
            if not task.done():
                task.cancel()
        if task in done:
            try:
                return task.result()
            except (aioimaplib.AioImapException, OSError) as exc:  # OSError covers TimeoutError, ssl errors
                raise _Transient(_describe(exc)) from exc
        if session.lost.is_set():
            raise _Transient("connection lost")
        raise _Transient(f"no answer within {limit} s")

    def _live_session(self) -> _Session | None:
        if self._session is not None and self._session.lost.is_set():
            self._drop("connection lost")
        return self._session

    def _drop(self, reason: str) -> None:
        self.last_error = reason
        session, self._session = self._session, None
        if session is not None:
            log.info("%s: closing connection: %s", self.source, reason)
            _close_transport(session.client)

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

    async def _sleep(self, until: float, session: _Session | None = None) -> None:
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


def _close_transport(client: aioimaplib.IMAP4) -> None:
    # aioimaplib keeps its connect task, IDLE task and timer privately and never ends them when the
    # connection goes; cancel them so nothing lingers (or is destroyed while pending).
    if not client._client_task.done():
        client._client_task.cancel()
    if client._idle_waiter is not None:
        client._idle_waiter.cancel()
    for task in [*client.tasks, *client.protocol.tasks]:
        task.cancel()
    transport = client.protocol.transport
    if transport is not None and not transport.is_closing():
        transport.close()


def _text(response: aioimaplib.Response) -> str:
    if not response.lines:
        return response.result
    last = response.lines[-1]
    return bytes(last).decode("utf-8", "replace") if isinstance(last, bytes | bytearray) else str(last)


def _expect_ok(response: aioimaplib.Response, what: str) -> None:
    if response.result != "OK":
        raise _Transient(f"{what}: {response.result} {_text(response)}")


def _expect_done(response: aioimaplib.Response, what: str) -> None:
    """For commands that change the mailbox: NO is a lasting refusal (read-only, over quota)."""
    if response.result == "NO":
        raise ImapError(f"{what} refused: {_text(response)}")
    _expect_ok(response, what)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, aioimaplib.CommandTimeout):
        return f"command timed out: {exc.command!r}"
    if isinstance(exc, TimeoutError):
        return "timed out"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _uidvalidity(lines: Iterable[Any]) -> int:
    for line in lines:
        match = re.search(rb"\[UIDVALIDITY (\d+)\]", bytes(line))
        if match:
            return int(match.group(1))
    raise _Transient("SELECT answer has no UIDVALIDITY")


def _is_bye(line: bytes) -> bool:
    return bytes(line).lstrip(b"* ").upper().startswith(b"BYE")


def _announces_mail(line: bytes) -> bool:
    # Only "* n EXISTS" means mail arrived; "* OK Still here", EXPUNGE or FETCH (flag changes) do not.
    return re.match(rb"(\* )?\d+ EXISTS\b", bytes(line), re.IGNORECASE) is not None


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


# ---------------------------------------------------------------------- response parsing


def parse_search_response(lines: Iterable[Any]) -> list[int]:
    """UIDs from aioimaplib's SEARCH lines (each is the text after "* SEARCH")."""
    uids: list[int] = []
    for line in lines:
        uids.extend(int(token) for token in bytes(line).split() if token.isdigit())
    return uids


@dataclass
class FetchItem:
    uid: int | None = None
    body: bytes | None = None
    arrived_at: datetime | None = None
    flags: list[str] = field(default_factory=list)


_FETCH_START = re.compile(rb"(\d+) FETCH \(")
_TOKEN = re.compile(rb'[ \t]*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|\{(\d+)\+?\}$|([^\s()"{]+))', re.DOTALL)


def parse_fetch_response(lines: Iterable[Any]) -> dict[int, FetchItem]:
    """UID -> what a UID FETCH returned, from aioimaplib's response lines.

    aioimaplib hands over `n FETCH (...` text lines as bytes and each literal (the message) as a
    separate bytearray right after the line that announced it with {size}. The items may come in
    any order, and unsolicited FETCH responses (flag changes) may be mixed in.
    """
    groups: list[list[bytes | bytearray]] = []
    for line in lines:
        if isinstance(line, bytes) and _FETCH_START.match(line):
            groups.append([line])
        elif groups:
            groups[-1].append(line)
    result: dict[int, FetchItem] = {}
    for group in groups:
        try:
            item = _parse_fetch_group(group)
        except ValueError as exc:
            log.error("unreadable FETCH response %r: %s", bytes(group[0])[:200], exc)
            continue
        if item.uid is not None and (item.uid not in result or item.body is not None):
            result[item.uid] = item
    return result


def _tokens(group: list[bytes | bytearray]) -> list[tuple[str, bytes]]:
    tokens: list[tuple[str, bytes]] = []
    parts = iter(group)
    for part in parts:
        if isinstance(part, bytearray):
            raise ValueError("literal without {size}")
        pos, text = 0, bytes(part)
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                if text[pos:].strip() == b"":
                    break
                raise ValueError(f"unexpected {text[pos:pos + 20]!r}")
            pos = match.end()
            opening, closing, quoted, literal_size, atom = match.groups()
            if opening:
                tokens.append(("(", b""))
            elif closing:
                tokens.append((")", b""))
            elif quoted is not None:
                tokens.append(("string", re.sub(rb"\\(.)", rb"\1", quoted)))
            elif literal_size is not None:
                literal = next(parts, None)
                if not isinstance(literal, bytearray) or len(literal) != int(literal_size):
                    raise ValueError("literal missing or of the wrong size")
                tokens.append(("string", bytes(literal)))
            else:
                tokens.append(("atom", atom))
    return tokens


def _parse_fetch_group(group: list[bytes | bytearray]) -> FetchItem:
    tokens = _tokens(group)
    # tokens: <seq> FETCH ( key value key value ... )
    if len(tokens) < 3 or tokens[1] != ("atom", b"FETCH") or tokens[2][0] != "(":
        raise ValueError("not a FETCH response")
    values, _ = _parse_list(tokens, 3)
    item = FetchItem()
    for key, value in zip(values[::2], values[1::2], strict=False):
        if not isinstance(key, bytes):
            raise ValueError(f"bad item name {key!r}")
        name = key.upper()
        if name == b"UID" and isinstance(value, bytes):
            item.uid = int(value)
        elif name in (b"BODY[]", b"RFC822") and isinstance(value, bytes):
            item.body = None if value == b"NIL" else value
        elif name == b"INTERNALDATE" and isinstance(value, bytes):
            item.arrived_at = parse_internaldate(value.decode("ascii", "replace"))
        elif name == b"FLAGS" and isinstance(value, list):
            item.flags = [flag.decode("ascii", "replace") for flag in value if isinstance(flag, bytes)]
    return item


_Value = bytes | list[Any]


def _parse_list(tokens: list[tuple[str, bytes]], pos: int) -> tuple[list[_Value], int]:
    """Parse after an opening parenthesis up to its closing one; returns (items, next position)."""
    items: list[_Value] = []
    while pos < len(tokens):
        kind, value = tokens[pos]
        pos += 1
        if kind == ")":
            return items, pos
        if kind == "(":
            sub, pos = _parse_list(tokens, pos)
            items.append(sub)
        else:
            items.append(value)
    raise ValueError("unbalanced parentheses")


_MONTHS = {m: i for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), start=1)}


def parse_internaldate(text: str) -> datetime | None:
    """'17-Jul-1996 02:44:25 -0700' -> aware UTC datetime (None if unreadable)."""
    match = re.fullmatch(r"\s*(\d{1,2})-(\w{3})-(\d{4}) (\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)\s*", text)
    if match is None or match.group(2).title() not in _MONTHS:
        return None
    day, month, year, hour, minute, second = (
        int(match.group(1)), _MONTHS[match.group(2).title()], int(match.group(3)),
        int(match.group(4)), int(match.group(5)), int(match.group(6)),
    )
    offset = timedelta(hours=int(match.group(8)), minutes=int(match.group(9)))
    if match.group(7) == "-":
        offset = -offset
    try:
        local = datetime(year, month, day, hour, minute, second, tzinfo=timezone(offset))
    except ValueError:
        return None
    return local.astimezone(UTC)
