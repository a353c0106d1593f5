"""Outgoing mail through an SMTP server, over aiosmtplib.

`SmtpSender` implements `Sender`: one connection, reused across sends and checked with NOOP before it
is reused after an idle spell (servers drop idle clients; a batch of mails going out back to back pays no
NOOP a mail), and every outcome mapped onto `SendResult`:

- 2xx: "sent" (recipients refused individually are listed in `refused`; the rest got the mail),
- 4xx, a dropped, refused or timed-out connection: "temporary" (the outbox retries later),
- 5xx, a malformed address: "permanent",
- authentication problems: "permanent" with detail "authentication failed: ..." (the GM must act).

A server that cannot be reached (refused, no greeting within `connect_timeout`, a timeout, 421) is rested by
a circuit breaker (`maild/mail/breaker.py`): until its cool-down is over, `send` returns at once with a
result marked `held`, touching nothing, and the outbox leaves the mail queued without counting an attempt.

`send` may be cancelled at any await: the connection is then dropped (what the server holds of an unfinished
conversation is unknown), so the next mail starts afresh. A mail whose DATA the server had accepted when the
cancellation came has been delivered although `send` never said so; the outbox, not told, sends it again later
with the same Message-ID. That window (between the server's 250 after DATA and our return) cannot be closed.

The raw bytes go out unchanged through `sendmail` (`send_message` would re-serialise the message);
aiosmtplib only adds the dot-stuffing and CRLF line ends that SMTP itself requires.
"""

from __future__ import annotations

import asyncio
import logging
import re
import ssl
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiosmtplib

from maild.mail.base import OutgoingMail, SendResult, is_loopback, resolve_password
from maild.mail.breaker import Breaker

log = logging.getLogger(__name__)

# Seconds a connection may have been idle and still be reused without a NOOP first.
CHECK_IDLE_AFTER = 5.0
# Seconds to connect and be greeted (and for the NOOP that checks an idle connection): a server that takes
# longer is as good as away, and every mail behind it waits while we find that out.
CONNECT_TIMEOUT = 15.0

# local@domain with nothing SMTP would misread: no spaces, control characters, brackets or separators.
_ADDR_SPEC = re.compile(r"[^\s<>()\[\]\\,;:\"@\x00-\x1f\x7f]+@[^\s<>()\\,;:\"@\x00-\x1f\x7f]+")


class SmtpSender:
    """`Sender` over one SMTP server.

    tls: implicit TLS from the first byte (usually port 465). starttls: True requires the STARTTLS
    upgrade (port 587), None uses it when the server offers it, False never (a relay on loopback).
    connect_timeout bounds the TCP connection and the greeting, timeout every later command.
    `breaker` (public) rests the server after a connection failure; `available_in()` says for how long.
    """

    def __init__(
        self,
        host: str,
        port: int,
        user: str | None = None,
        password: str | None = None,
        *,
        tls: bool = False,
        starttls: bool | None = False,
        timeout: float = 30.0,
        connect_timeout: float = CONNECT_TIMEOUT,
        breaker: Breaker | None = None,
        ssl_context: ssl.SSLContext | None = None,
        allow_plain: bool = False,
        local_hostname: str | None = None,
        check_idle_after: float = CHECK_IDLE_AFTER,
    ) -> None:
        if tls and starttls:
            raise ValueError("use either tls (implicit TLS, port 465) or starttls (port 587), not both")
        if (user is None) != (password is None):
            raise ValueError("SMTP authentication needs both user and password")
        # starttls=None may silently stay in plain text if the server does not offer STARTTLS.
        if user is not None and not tls and starttls is not True and not allow_plain and not is_loopback(host):
            raise ValueError(
                f"SMTP login to {host} without TLS would send the password in clear text; "
                "use tls = true (port 465) or starttls = true (port 587), or set allow_plain = true"
            )
        self.host, self.port = host, port
        self.user, self._password = user, password
        self.tls, self.starttls = tls, starttls
        self.timeout = timeout
        if connect_timeout <= 0:
            raise ValueError("connect_timeout must be a positive number of seconds")
        self.connect_timeout = connect_timeout
        self.breaker = breaker if breaker is not None else Breaker(f"{host}:{port}")
        self.ssl_context = ssl_context
        self.local_hostname = local_hostname
        self.check_idle_after = check_idle_after
        self._last_reply = float("-inf")  # loop time of the server's last answer on this connection
        self.connect_count = 0  # connections opened, for diagnostics and tests
        self._smtp: aiosmtplib.SMTP | None = None
        self._lock = asyncio.Lock()

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any], base_dir: Path, **overrides: Any) -> SmtpSender:
        """Build from a `[mail.outbound]` table with kind = "smtp" (see docs/mail-transport.md)."""
        if not cfg.get("host"):
            raise ValueError('[mail.outbound] kind = "smtp" needs host')
        tls = bool(cfg.get("tls", False))
        starttls = cfg.get("starttls", False)
        if starttls not in (True, False, None, "auto"):
            raise ValueError('[mail.outbound] starttls must be true, false or "auto"')
        starttls = None if starttls == "auto" else starttls
        user = cfg.get("user")
        password = resolve_password(dict(cfg), base_dir)
        if user and password is None:
            raise ValueError("[mail.outbound] user given but no password_env or password_file")
        context = None
        if cfg.get("ca_file"):
            # For a relay with a private CA or a self-signed certificate.
            context = ssl.create_default_context(cafile=str(base_dir / Path(cfg["ca_file"])))
        kwargs: dict[str, Any] = dict(
            host=str(cfg["host"]),
            port=int(cfg.get("port", 465 if tls else 587 if starttls else 25)),
            user=str(user) if user else None,
            password=password if user else None,
            tls=tls,
            starttls=starttls,
            timeout=float(cfg.get("timeout", 30.0)),
            connect_timeout=float(cfg.get("connect_timeout", CONNECT_TIMEOUT)),
            ssl_context=context,
            allow_plain=bool(cfg.get("allow_plain", False)),
            local_hostname=cfg.get("local_hostname"),
        )
        kwargs.update(overrides)
        return cls(**kwargs)

    async def send(self, mail: OutgoingMail) -> SendResult:
        # aiosmtplib "parses" addresses and may send to whatever part of a malformed one it picks
        # (a CR/LF-laden string can come out as a different recipient), so only bare addr-specs pass.
        if mail.sender and not _ADDR_SPEC.fullmatch(mail.sender):
            return SendResult("permanent", f"invalid sender address: {mail.sender!r}")
        invalid = {addr: "invalid address" for addr in mail.recipients if not _ADDR_SPEC.fullmatch(addr)}
        recipients = [addr for addr in mail.recipients if addr not in invalid]
        if not recipients:
            return SendResult("permanent", "no valid recipient address", invalid)
        result = await self._send(mail, recipients)
        return replace(result, refused={**invalid, **result.refused}) if invalid else result

    def available_in(self) -> float:
        """Seconds until the server may be tried again (0: now); while positive, `send` holds every mail."""
        return self.breaker.available_in()

    async def _send(self, mail: OutgoingMail, recipients: list[str]) -> SendResult:
        async with self._lock:
            # Asked under the lock: the send this one waited for may just have found the server away.
            rest = self.breaker.available_in()
            if rest > 0:
                return SendResult("temporary", f"not tried: {self.breaker.name} rests {rest:.0f} s more after: "
                                               f"{self.breaker.last_error}", held=True)
            try:
                return await self._converse(mail, recipients)
            except asyncio.CancelledError:
                self._discard()
                raise

    async def _converse(self, mail: OutgoingMail, recipients: list[str]) -> SendResult:
        try:
            smtp = await self._connection()
        except _AuthFailed as exc:
            self._discard()
            return SendResult("permanent", f"authentication failed: {exc}")
        except _DELIVERY_ERRORS as exc:
            self._discard()
            result = _classify(exc)
            if result.status == "temporary":
                self._unreachable(result.detail)
            return result
        try:
            options = []
            # Declare 8-bit bodies where the server lets us; servers without 8BITMIME get them as is.
            if any(byte > 0x7F for byte in mail.raw) and smtp.supports_extension("8bitmime"):
                options.append("BODY=8BITMIME")
            refused, reply = await smtp.sendmail(mail.sender, recipients, mail.raw, mail_options=options)
        except _DELIVERY_ERRORS as exc:
            result = _classify(exc)
            if result.status == "temporary" or not smtp.is_connected:
                self._discard()  # its state is unknown; a fresh connection next time
            if _server_away(exc):
                self._unreachable(result.detail)
            elif isinstance(exc, aiosmtplib.SMTPResponseException | aiosmtplib.SMTPRecipientsRefused):
                self._answered()  # a refusal is about the mail: the server itself is there
            log.info("send %s: %s %s", mail.message_id, result.status, result.detail)
            return result
        self._last_reply = asyncio.get_running_loop().time()
        self._answered()
        return SendResult(
            "sent", reply, {addr: f"{response.code} {response.message}" for addr, response in refused.items()}
        )

    def _answered(self) -> None:
        # Only a reply to a mail's transaction counts: a server that greets and then hangs is still away.
        down = self.breaker.answered()
        if down is not None:
            log.warning("SMTP server %s answers again after %.0f s", self.breaker.name, down)

    def _unreachable(self, error: str) -> None:
        cool_down = self.breaker.failed(error)
        log.warning("SMTP server %s cannot be reached (%s); mail stays queued, next try in %.0f s",
                    self.breaker.name, error, cool_down)

    async def close(self) -> None:
        async with self._lock:
            smtp, self._smtp = self._smtp, None
            if smtp is None:
                return
            try:
                if smtp.is_connected:
                    await asyncio.wait_for(smtp.quit(), min(self.timeout, 5.0))
            except (aiosmtplib.SMTPException, OSError):
                pass
            finally:  # cancelled or not, the socket is not left open
                smtp.close()

    async def _connection(self) -> aiosmtplib.SMTP:
        smtp = self._smtp
        if smtp is not None and smtp.is_connected:
            if asyncio.get_running_loop().time() - self._last_reply < self.check_idle_after:
                return smtp  # it answered a moment ago: no server times a client out that fast
            # The server may have dropped us while idle without our noticing yet: ask before reusing,
            # so a stale connection costs a reconnect rather than a failed send.
            try:
                await smtp.noop(timeout=self.connect_timeout)
                return smtp
            except (aiosmtplib.SMTPException, OSError):
                log.info("SMTP connection to %s:%d went stale; reconnecting", self.host, self.port)
        self._discard()
        smtp = aiosmtplib.SMTP(
            hostname=self.host,
            port=self.port,
            use_tls=self.tls,
            start_tls=self.starttls,
            tls_context=self.ssl_context,
            timeout=self.timeout,
            local_hostname=self.local_hostname,
        )
        await smtp.connect(timeout=self.connect_timeout)
        self._smtp = smtp
        self.connect_count += 1
        if self.user is not None and self._password is not None:
            try:
                await smtp.login(self.user, self._password)
            except aiosmtplib.SMTPAuthenticationError as exc:
                raise _AuthFailed(f"{exc.code} {exc.message}") from exc
            except (aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPTimeoutError):
                raise
            except aiosmtplib.SMTPException as exc:  # e.g. the server offers no AUTH at all
                raise _AuthFailed(str(exc)) from exc
        if smtp.is_ehlo_or_helo_needed:
            await smtp.ehlo()  # so supports_extension() knows the server's extensions
        return smtp

    def _discard(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            smtp.close()


class _AuthFailed(Exception):
    pass


# What a delivery attempt can raise (TimeoutError and ssl.SSLError are OSErrors). Anything else is
# a bug in maild and propagates.
_DELIVERY_ERRORS = (aiosmtplib.SMTPException, OSError, ValueError)


def _server_away(exc: BaseException) -> bool:
    """A failure in a mail's transaction that says the server, not the mail, is in trouble: it stopped
    answering, or said it is closing (421). A connection dropped in mid-transaction is not: the next mail
    reconnects, and only if that fails is the server rested."""
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        return exc.code == 421
    return isinstance(exc, aiosmtplib.SMTPTimeoutError | TimeoutError)


def _classify(exc: BaseException) -> SendResult:
    """Map an aiosmtplib (or socket) failure onto temporary / permanent."""
    if isinstance(exc, aiosmtplib.SMTPAuthenticationError):
        return SendResult("permanent", f"authentication failed: {exc.code} {exc.message}")
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        refused = {err.recipient: f"{err.code} {err.message}" for err in exc.recipients}
        # Retry if any refusal is temporary; the 5xx ones will be listed as refused again then.
        permanent = all(err.code >= 500 for err in exc.recipients)
        return SendResult("permanent" if permanent else "temporary", "all recipients refused", refused)
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        # Covers refused sender, DATA, HELO and a 4xx/5xx greeting.
        status = "permanent" if 500 <= exc.code < 600 else "temporary"
        return SendResult(status, f"{exc.code} {exc.message}")
    if isinstance(exc, aiosmtplib.SMTPNotSupported):
        # e.g. starttls = true but the server offers no STARTTLS: configuration, not this mail.
        return SendResult("temporary", f"not supported by the server: {exc}")
    if isinstance(exc, ValueError):
        # aiosmtplib refuses addresses that cannot be sent safely (CR/LF, no SMTPUTF8 for non-ASCII).
        return SendResult("permanent", f"invalid address: {exc}")
    cause = exc.__cause__
    if isinstance(cause, ssl.SSLError):
        return SendResult("temporary", f"TLS failed: {cause}")
    if isinstance(exc, aiosmtplib.SMTPException | OSError):  # disconnects, timeouts, refused connections
        return SendResult("temporary", str(exc) or type(exc).__name__)
    return SendResult("temporary", f"{type(exc).__name__}: {exc}")
