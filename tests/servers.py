"""Fixtures that start real mail servers: Debian's Dovecot (IMAP) and aiosmtpd (SMTP).

Loaded as a pytest plugin (`pytest_plugins = ["tests.servers"]`). Dovecot runs unprivileged from a
temp dir and starts in well under a second, so every test gets a fresh server; when a test fails,
the Dovecot log is attached to its report.
"""

from __future__ import annotations

import asyncio
import contextlib
import grp
import imaplib
import os
import pwd
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

DOVECOT = os.environ.get("MAILD_TEST_DOVECOT", "/usr/sbin/dovecot")
DOVECOT_APT = "apt-get install -y --no-install-recommends dovecot-imapd"
DEFAULT_USERS = {"gm": "gm-secret", "other": "other-secret"}

_DOVECOTS = pytest.StashKey[list["Dovecot"]]()


def free_port() -> int:
    """A loopback port that was free a moment ago (the server binds it right after)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(host: str, port: int, deadline: float, alive: Callable[[], bool] = lambda: True) -> bool:
    while time.monotonic() < deadline and alive():
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return True
        time.sleep(0.01)
    return False


# --------------------------------------------------------------------------- TLS


@dataclass(frozen=True)
class TlsCert:
    cert: Path
    key: Path

    def client_context(self) -> ssl.SSLContext:
        """A client context that trusts exactly this self-signed certificate."""
        return ssl.create_default_context(cafile=str(self.cert))

    def server_context(self) -> ssl.SSLContext:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(str(self.cert), str(self.key))
        return ctx


@pytest.fixture(scope="session")
def tls_cert(tmp_path_factory: pytest.TempPathFactory) -> TlsCert:
    """A self-signed certificate for 127.0.0.1 / localhost, made with the openssl CLI."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl CLI not found (apt-get install openssl)")
    root = tmp_path_factory.mktemp("tls")
    cert, key = root / "cert.pem", root / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True,
    )
    return TlsCert(cert, key)


def without_faketime(env: dict[str, str]) -> dict[str, str]:
    """`env` without libfaketime (docs/daemon.md: the suite runs under `faketime` years ahead or back), for the
    programs whose clock is not what a faked date tests. pip fetches maild's dependencies from a package index
    over TLS, whose certificates are checked against the clock: years ahead they have expired. Dovecot's master
    keeps the preload but clears its children's environment, so master and children would live two years apart
    (a login then hung after a long session); the server runs on real time, maild on the faked one."""
    kept = {k: v for k, v in env.items() if not k.startswith("FAKETIME")}
    preload = " ".join(lib for lib in env.get("LD_PRELOAD", "").split() if "faketime" not in lib)
    kept.pop("LD_PRELOAD", None)
    if preload:
        kept["LD_PRELOAD"] = preload
    return kept



# --------------------------------------------------------------------------- Dovecot


class Dovecot:
    """One Dovecot instance in its own directory, on its own loopback port."""

    host = "127.0.0.1"

    def __init__(self, root: Path, *, users: dict[str, str] | None = None, tls: TlsCert | None = None,
                 settings: dict[str, str] | None = None) -> None:
        self.root = root
        self.users = dict(users or DEFAULT_USERS)
        self.tls = tls
        self.settings = dict(settings or {})
        self.port = free_port()
        self.log_path = root / "dovecot.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._write_config()

    # -- lifecycle

    def _write_config(self) -> None:
        root = self.root
        for sub in ("base", "state", "home"):
            (root / sub).mkdir(exist_ok=True)
        (root / "passwd").write_text(
            "".join(f"{user}:{{PLAIN}}{password}::::::\n" for user, password in self.users.items())
        )
        me = pwd.getpwuid(os.getuid())
        if os.getuid() == 0:
            # imap-login refuses to run as root and the userdb refuses uid 0, so as root (CI) the
            # login processes and the mail files belong to unprivileged system users instead.
            login_user = _first_user("dovenull", "nobody")
            mail = pwd.getpwnam("nobody")
            os.chmod(root, 0o755)
            os.chown(root / "home", mail.pw_uid, mail.pw_gid)
        else:
            login_user, mail = me.pw_name, me
        # Dovecot's own sockets belong to default_internal_group ("dovecot"); an unprivileged
        # master cannot chown to that group, so use one it can (harmless as root, too).
        internal_group = grp.getgrgid(os.getgid()).gr_name
        # Only root may chroot; unprivileged, the login and anvil processes stay unconfined.
        chroot = "" if os.getuid() == 0 else "\n  chroot ="
        if self.tls is not None:
            listeners = f"""
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    address = {self.host}
    port = {self.port}
    ssl = yes
  }}"""
            ssl_conf = f"ssl = required\nssl_cert = <{self.tls.cert}\nssl_key = <{self.tls.key}\n"
        else:
            listeners = f"""
  inet_listener imap {{
    address = {self.host}
    port = {self.port}
  }}
  inet_listener imaps {{
    port = 0
  }}"""
            ssl_conf = "ssl = no\n"
        extra = "".join(f"{key} = {value}\n" for key, value in self.settings.items())
        (root / "dovecot.conf").write_text(f"""\
base_dir = {root}/base
state_dir = {root}/state
log_path = {self.log_path}
info_log_path = {self.log_path}
protocols = imap
listen = {self.host}
{ssl_conf}disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
login_trusted_networks = 127.0.0.0/8
default_login_user = {login_user}
default_internal_user = {me.pw_name}
default_internal_group = {internal_group}
first_valid_uid = {min(mail.pw_uid, 500)}
mail_location = maildir:~/Maildir
{extra}
passdb {{
  driver = passwd-file
  args = {root}/passwd
}}
userdb {{
  driver = static
  args = uid={mail.pw_uid} gid={mail.pw_gid} home={root}/home/%u
}}
service imap-login {{{chroot}{listeners}
}}
# Dovecot delays replies to failed logins by up to 15 s per client IP; tests log in wrongly on purpose.
# (A failed login still takes about 0.5 s: the auth process flushes failures in batches.)
service anvil {{{chroot}
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
""")

    def start(self, timeout: float = 10.0) -> None:
        assert self.proc is None, "already running"
        # Own process group, so stop() can kill the master and every child it forked.
        with open(self.root / "stderr", "ab") as stderr:
            self.proc = subprocess.Popen(
                [DOVECOT, "-F", "-c", str(self.root / "dovecot.conf")],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                start_new_session=True, env=without_faketime(dict(os.environ)),
            )
        proc = self.proc
        if not wait_port(self.host, self.port, time.monotonic() + timeout, lambda: proc.poll() is None):
            self.stop()
            pytest.fail(f"Dovecot did not start on port {self.port}\n{self.log()}", pytrace=False)

    def stop(self) -> None:
        """Kill Dovecot at once, as a crash would: clients see their connections drop."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def restart(self) -> None:
        self.stop()
        self.start()

    def log(self) -> str:
        parts = []
        for path in (self.log_path, self.root / "stderr"):
            if path.exists():
                parts.append(path.read_text(errors="replace"))
        return "\n".join(parts)

    # -- mailbox helpers (stdlib imaplib: an independent client puts mail in and checks flags)

    def maildir(self, user: str) -> Path:
        return self.root / "home" / user / "Maildir"

    @contextlib.contextmanager
    def imap(self, user: str = "gm") -> Iterator[imaplib.IMAP4]:
        if self.tls is not None:
            conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                self.host, self.port, ssl_context=self.tls.client_context(), timeout=10
            )
        else:
            conn = imaplib.IMAP4(self.host, self.port, timeout=10)
        try:
            conn.login(user, self.users[user])
            yield conn
        finally:
            with contextlib.suppress(Exception):
                conn.logout()

    def deliver(self, user: str, raw: bytes, folder: str = "INBOX", *, flags: str = "",
                date: datetime | None = None) -> int:
        """APPEND a mail as a delivery agent would; returns its UID."""
        with self.imap(user) as conn:
            if folder != "INBOX":
                conn.create(_q(folder))  # NO if it exists: fine
            typ, data = conn.append(_q(folder), flags or None, date, raw)
            assert typ == "OK", data
            match = re.search(rb"APPENDUID \d+ (\d+)", data[0] or b"")
            assert match, data
            return int(match.group(1))

    def list_flags(self, user: str = "gm", folder: str = "INBOX") -> dict[int, set[str]]:
        """UID -> flags of every mail in the folder."""
        with self.imap(user) as conn:
            typ, _ = conn.select(_q(folder), readonly=True)
            assert typ == "OK"
            typ, data = conn.uid("FETCH", "1:*", "(UID FLAGS)")
            assert typ == "OK", data
            result: dict[int, set[str]] = {}
            for item in data:
                if not item:
                    continue
                line = item if isinstance(item, bytes) else item[0]
                match = re.search(rb"UID (\d+) FLAGS \(([^)]*)\)", line)
                if match:
                    # \Recent belongs to this session, not to the mail: leave it out.
                    flags = set(match.group(2).decode().split()) - {"\\Recent"}
                    result[int(match.group(1))] = flags
            return result

    def count(self, user: str = "gm", folder: str = "INBOX") -> int:
        with self.imap(user) as conn:
            typ, data = conn.status(_q(folder), "(MESSAGES)")
            assert typ == "OK", data
            match = re.search(rb"MESSAGES (\d+)", data[0])
            assert match
            return int(match.group(1))

    def uidvalidity(self, user: str = "gm", folder: str = "INBOX") -> int:
        with self.imap(user) as conn:
            typ, data = conn.status(_q(folder), "(UIDVALIDITY)")
            assert typ == "OK", data
            match = re.search(rb"UIDVALIDITY (\d+)", data[0])
            assert match
            return int(match.group(1))


def _q(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _first_user(*names: str) -> str:
    for name in names:
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError(f"none of the users {names} exists")


DovecotFactory = Callable[..., Dovecot]


@pytest.fixture
def dovecot_factory(request: pytest.FixtureRequest) -> Iterator[DovecotFactory]:
    """Make and start a Dovecot: `dovecot_factory(tls=cert, settings={"imap_capability": "..."})`."""
    if not os.access(DOVECOT, os.X_OK):
        pytest.skip(f"{DOVECOT} not found; install it with: {DOVECOT_APT}")
    started: list[Dovecot] = []
    request.node.stash[_DOVECOTS] = started
    roots: list[Path] = []

    def make(**kwargs: Any) -> Dovecot:
        # Not pytest's tmp_path: that tree is mode 0700, which the unprivileged mail user cannot enter.
        root = Path(tempfile.mkdtemp(prefix="maild-dovecot-"))
        roots.append(root)
        server = Dovecot(root, **kwargs)
        started.append(server)
        server.start()
        return server

    try:
        yield make
    finally:
        for server in started:
            server.stop()
        for root in roots:
            shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def dovecot(dovecot_factory: DovecotFactory) -> Dovecot:
    """A plain-text Dovecot on loopback with users `gm` and `other` (see DEFAULT_USERS)."""
    return dovecot_factory()


@pytest.fixture
def dovecot_tls(dovecot_factory: DovecotFactory, tls_cert: TlsCert) -> Dovecot:
    """A Dovecot that speaks implicit TLS only, with the self-signed `tls_cert`."""
    return dovecot_factory(tls=tls_cert)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    servers = item.stash.get(_DOVECOTS, None)
    if report.failed and servers:
        for server in servers:
            report.sections.append((f"dovecot log ({server.root})", server.log() or "(empty)"))


# --------------------------------------------------------------------------- SMTP (aiosmtpd)


@dataclass
class ReceivedMail:
    mail_from: str
    rcpt_tos: list[str]
    content: bytes
    mail_options: list[str]


@dataclass
class SmtpPeer:
    """What the fake SMTP server saw, and knobs to make it misbehave.

    The server runs in aiosmtpd's own thread and loop; the knobs are plain attributes the handler
    reads on each command, so set them before the client acts.
    """

    host: str = "127.0.0.1"
    port: int = 0
    received: list[ReceivedMail] = field(default_factory=list)
    connections: int = 0  # TCP connections accepted since the fixture started
    refuse: dict[str, str] = field(default_factory=dict)  # recipient -> reply, e.g. "550 5.1.1 unknown"
    data_replies: list[str] = field(default_factory=list)  # replies for the next DATA commands, in order
    drop_at_data: int = 0  # drop the connection instead of answering the next N DATA commands
    rcpt_delays: list[float] = field(default_factory=list)  # seconds the next RCPT commands wait, in order
    rcpts: int = 0  # RCPT commands seen (counted before any delay)
    users: dict[str, str] = field(default_factory=dict)  # if set, AUTH is required
    controller: Any = None
    _transports: list[Any] = field(default_factory=list)

    def drop_connections(self) -> None:
        """Close every open client connection from the server side (an idle timeout, a restart)."""
        done = threading.Event()

        def close_all() -> None:
            for transport in self._transports:
                transport.close()
            self._transports.clear()
            done.set()

        self.controller.loop.call_soon_threadsafe(close_all)
        done.wait(5)


class _PeerHandler:
    def __init__(self, peer: SmtpPeer) -> None:
        self.peer = peer

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        self.peer.rcpts += 1
        if self.peer.rcpt_delays:
            await asyncio.sleep(self.peer.rcpt_delays.pop(0))  # a slow server, or one a client gives up on
        reply = self.peer.refuse.get(address)
        if reply:
            return reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        peer = self.peer
        if peer.drop_at_data > 0:
            peer.drop_at_data -= 1
            server.transport.close()
            return "421 dropped"  # never reaches the client: the transport is closed
        if peer.data_replies:
            return peer.data_replies.pop(0)
        peer.received.append(
            ReceivedMail(envelope.mail_from, list(envelope.rcpt_tos), bytes(envelope.original_content),
                         list(envelope.mail_options))
        )
        return "250 2.0.0 OK queued"


def _start_smtp_peer(peer: SmtpPeer, port: int | None = None, **smtp_kwargs: Any) -> Any:
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
        ok = (
            isinstance(auth_data, LoginPassword)
            and peer.users.get(auth_data.login.decode()) == auth_data.password.decode()
        )
        return AuthResult(success=ok, handled=False)

    class CountingSMTP(SMTP):
        def connection_made(self, transport: Any) -> None:
            peer.connections += 1
            peer._transports.append(transport)
            super().connection_made(transport)

    class PeerController(Controller):
        def factory(self) -> SMTP:
            with warnings.catch_warnings():
                # "Requiring AUTH while not requiring TLS": intended, on loopback.
                warnings.simplefilter("ignore", UserWarning)
                return CountingSMTP(self.handler, **self.SMTP_kwargs)

    if peer.users:
        smtp_kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=False)
    peer.port = port or free_port()
    controller = PeerController(
        _PeerHandler(peer), hostname=peer.host, port=peer.port, server_hostname="localhost", **smtp_kwargs
    )
    controller.start()
    peer.controller = controller
    # start() opens one connection of its own to check the server is up: don't count it.
    peer.connections = 0
    peer._transports.clear()
    return controller


SmtpPeerFactory = Callable[..., SmtpPeer]


@pytest.fixture
def smtp_peer_factory() -> Iterator[SmtpPeerFactory]:
    """`smtp_peer_factory(users={"gm": "pw"}, ssl_context=..., tls_context=..., require_starttls=True)`;
    `port=N` takes over a port another server used (the server is back, on the same address)."""
    controllers: list[Any] = []

    def make(*, users: dict[str, str] | None = None, port: int | None = None, **smtp_kwargs: Any) -> SmtpPeer:
        peer = SmtpPeer(users=dict(users or {}))
        controllers.append(_start_smtp_peer(peer, port, **smtp_kwargs))
        return peer

    try:
        yield make
    finally:
        for controller in controllers:
            controller.stop()


@pytest.fixture
def smtp_peer(smtp_peer_factory: SmtpPeerFactory) -> SmtpPeer:
    """A plain SMTP server on loopback that accepts everything (see SmtpPeer for the knobs)."""
    return smtp_peer_factory()


@dataclass
class SilentServer:
    """A TCP server on loopback that accepts connections and never says a word: a mail server hung before its
    greeting (or a firewall that lets the SYN through). Counts the connections it accepted."""

    port: int = 0
    accepted: int = 0


@contextlib.asynccontextmanager
async def silent_server(port: int = 0) -> AsyncIterator[SilentServer]:
    """Run a SilentServer in the test's event loop for the block."""
    silent = SilentServer()
    open_ones: set[asyncio.StreamWriter] = set()

    async def never_greet(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        silent.accepted += 1
        open_ones.add(writer)
        try:
            await reader.read()  # holds the connection open until the client gives up
        except asyncio.CancelledError:
            pass  # the loop is ending: asyncio 3.11's stream callback would report a cancelled handler
        finally:
            open_ones.discard(writer)
            writer.close()

    server = await asyncio.start_server(never_greet, "127.0.0.1", port)
    silent.port = server.sockets[0].getsockname()[1]
    try:
        async with server:
            yield silent
    finally:
        for writer in list(open_ones):  # the server went away: so do the connections it held
            writer.close()
