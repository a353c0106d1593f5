"""SmtpSender against aiosmtpd: every way a send can end, and connection handling."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiosmtplib
import pytest

from maild.mail.base import OutgoingMail
from maild.mail.breaker import Breaker
from maild.mail.smtp import SmtpSender
from tests.outbox_helpers import Monotonic
from tests.servers import SmtpPeer, SmtpPeerFactory, TlsCert, free_port, silent_server

pytest_plugins = ["tests.servers"]

RAW = (
    b"From: gm@example.org\r\n"
    b"To: doge@example.org\r\n"
    b"Subject: Printout turn 3\r\n"
    b"Message-ID: <t3.doge@maild.example.org>\r\n"
    b"Auto-Submitted: auto-generated\r\n"
    b"Content-Type: text/plain; charset=latin-1\r\n"
    b"Content-Transfer-Encoding: 8bit\r\n"
    b"\r\n"
    b"Ducati: 1200 \xe0 Venezia\r\n"
    b".\r\n"  # a lone dot must be dot-stuffed on the wire and arrive unchanged
    b"..two dots\r\n"
    b"end\r\n"
)


def outgoing(*recipients: str, raw: bytes = RAW) -> OutgoingMail:
    return OutgoingMail("<t3.doge@maild.example.org>", "gm@example.org", list(recipients or ["doge@example.org"]),
                        raw)


MakeSender = Callable[..., SmtpSender]


@pytest.fixture
async def make_sender() -> AsyncIterator[MakeSender]:
    made: list[SmtpSender] = []

    def make(peer: SmtpPeer | None = None, **kwargs: Any) -> SmtpSender:
        kwargs.setdefault("timeout", 5.0)
        kwargs.setdefault("local_hostname", "maild.test")
        sender = SmtpSender(peer.host if peer else "127.0.0.1", kwargs.pop("port", peer.port if peer else 0),
                            **kwargs)
        made.append(sender)
        return sender

    yield make
    for sender in made:
        await sender.close()


async def test_sent_unchanged(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    sender = make_sender(smtp_peer)
    result = await sender.send(outgoing("doge@example.org", "council@example.org"))
    assert result.status == "sent", result
    assert "OK queued" in result.detail
    assert result.refused == {}
    [got] = smtp_peer.received
    assert got.mail_from == "gm@example.org"
    assert got.rcpt_tos == ["doge@example.org", "council@example.org"]
    assert got.content == RAW
    assert "BODY=8BITMIME" in got.mail_options


async def test_temporary_then_sent_on_same_connection(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    smtp_peer.data_replies.append("451 4.3.0 Mail server temporarily rejected message")
    sender = make_sender(smtp_peer)
    result = await sender.send(outgoing())
    assert (result.status, result.detail) == ("temporary", "451 4.3.0 Mail server temporarily rejected message")
    assert (await sender.send(outgoing())).status == "sent"
    assert len(smtp_peer.received) == 1


async def test_permanent(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    smtp_peer.data_replies.append("554 5.6.0 Message content rejected")
    result = await make_sender(smtp_peer).send(outgoing())
    assert (result.status, result.detail) == ("permanent", "554 5.6.0 Message content rejected")
    assert smtp_peer.received == []


async def test_partly_refused_is_sent_with_refusals(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    smtp_peer.refuse["ghost@example.org"] = "550 5.1.1 No such user"
    result = await make_sender(smtp_peer).send(outgoing("doge@example.org", "ghost@example.org"))
    assert result.status == "sent"
    assert result.refused == {"ghost@example.org": "550 5.1.1 No such user"}
    assert smtp_peer.received[0].rcpt_tos == ["doge@example.org"]


async def test_all_refused(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    smtp_peer.refuse.update({"a@example.org": "550 5.1.1 No such user", "b@example.org": "550 5.1.1 Nope"})
    sender = make_sender(smtp_peer)
    result = await sender.send(outgoing("a@example.org", "b@example.org"))
    assert result.status == "permanent"
    assert set(result.refused) == {"a@example.org", "b@example.org"}
    smtp_peer.refuse["b@example.org"] = "450 4.2.1 Mailbox busy"
    result = await sender.send(outgoing("a@example.org", "b@example.org"))
    assert result.status == "temporary"  # b may accept later
    assert smtp_peer.connections == 1  # refusals leave the connection usable


async def test_invalid_addresses(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    sender = make_sender(smtp_peer)
    injected = "doge@example.org\r\nRCPT TO:<x@evil.example>"
    result = await sender.send(outgoing(injected))
    assert (result.status, result.refused) == ("permanent", {injected: "invalid address"})
    result = await sender.send(outgoing("Doge <doge@example.org>", "council@example.org"))
    assert (result.status, result.refused) == ("sent", {"Doge <doge@example.org>": "invalid address"})
    assert [m.rcpt_tos for m in smtp_peer.received] == [["council@example.org"]]
    bad_from = OutgoingMail("<x@y>", "gm@example.org\nX", ["doge@example.org"], RAW)
    assert (await sender.send(bad_from)).status == "permanent"


async def test_connection_is_reused_and_renewed(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    sender = make_sender(smtp_peer, check_idle_after=0)  # every reuse counts as after an idle spell
    assert (await sender.send(outgoing())).status == "sent"
    assert (await sender.send(outgoing())).status == "sent"
    assert smtp_peer.connections == 1
    smtp_peer.drop_connections()  # e.g. the server's idle timeout
    assert (await sender.send(outgoing())).status == "sent"
    assert smtp_peer.connections == 2
    assert len(smtp_peer.received) == 3


async def test_back_to_back_mails_pay_no_noop_but_an_idle_connection_is_checked(
        smtp_peer: SmtpPeer, make_sender: MakeSender, monkeypatch: pytest.MonkeyPatch) -> None:
    noops = 0
    real_noop = aiosmtplib.SMTP.noop

    async def counting_noop(self: aiosmtplib.SMTP, *args: Any, **kwargs: Any) -> Any:
        nonlocal noops
        noops += 1
        return await real_noop(self, *args, **kwargs)

    monkeypatch.setattr(aiosmtplib.SMTP, "noop", counting_noop)
    sender = make_sender(smtp_peer, check_idle_after=0.5)
    for _ in range(5):
        assert (await sender.send(outgoing())).status == "sent"
    assert (noops, smtp_peer.connections) == (0, 1)
    await asyncio.sleep(0.6)
    smtp_peer.drop_connections()  # the server timed the idle client out
    assert (await sender.send(outgoing())).status == "sent"
    assert (noops, smtp_peer.connections) == (1, 2)
    assert len(smtp_peer.received) == 6


async def test_dropped_during_data_is_temporary(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    smtp_peer.drop_at_data = 1
    sender = make_sender(smtp_peer)
    result = await sender.send(outgoing())
    assert result.status == "temporary", result
    assert (await sender.send(outgoing())).status == "sent"
    assert smtp_peer.connections == 2


async def test_peer_down_is_temporary(make_sender: MakeSender) -> None:
    result = await make_sender(port=free_port()).send(outgoing())
    assert result.status == "temporary"
    assert "Error connecting" in result.detail


async def test_silent_server_times_out(make_sender: MakeSender) -> None:
    async with silent_server() as silent:
        result = await make_sender(port=silent.port, connect_timeout=0.3).send(outgoing())
    assert result.status == "temporary"
    assert "Timed out" in result.detail


async def test_a_silent_server_is_rested_after_one_connect_timeout(make_sender: MakeSender) -> None:
    clock = Monotonic()
    async with silent_server() as silent:
        sender = make_sender(port=silent.port, timeout=30.0, connect_timeout=0.5,
                             breaker=Breaker(f"127.0.0.1:{silent.port}", monotonic=clock))
        started = time.monotonic()
        first = await sender.send(outgoing())
        assert time.monotonic() - started < 1.0  # the connect timeout, not the 30 s command timeout
        assert (first.status, first.held, first.detail) == ("temporary", False,
                                                             "Timed out waiting for server ready message")
        assert sender.available_in() == 30
        # Resting: the next mails are held at once, the server is not touched.
        started = time.monotonic()
        held = [await sender.send(outgoing()) for _ in range(10)]
        assert time.monotonic() - started < 0.2
        assert {(r.status, r.held) for r in held} == {("temporary", True)}
        assert silent.accepted == 1
        clock.now += 30  # the cool-down is over: one mail tries again, and the next rest is twice as long
        assert not (await sender.send(outgoing())).held
        assert (silent.accepted, sender.available_in()) == (2, 60)


def test_the_breaker_rests_longer_each_time_up_to_ten_minutes() -> None:
    clock = Monotonic()
    breaker = Breaker("mx:25", monotonic=clock)
    rests = []
    for _ in range(7):
        rests.append(breaker.failed("refused"))
        clock.now += 1
    assert rests == [30, 60, 120, 240, 480, 600, 600]
    assert breaker.down_since == 1000.0  # the outage began at its first failure
    assert breaker.answered() == 7.0
    assert (breaker.available_in(), breaker.down_since, breaker.failed("refused")) == (0, None, 30)


async def test_421_rests_the_server_451_does_not(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    sender = make_sender(smtp_peer, breaker=Breaker("peer", monotonic=Monotonic()))
    smtp_peer.data_replies.append("451 4.3.0 Try again later")
    assert (await sender.send(outgoing())).status == "temporary"
    assert sender.available_in() == 0  # this mail's trouble: the next one goes
    assert (await sender.send(outgoing())).status == "sent"
    smtp_peer.data_replies.append("421 4.3.2 Service shutting down")
    result = await sender.send(outgoing())
    assert (result.status, result.held, result.detail) == ("temporary", False, "421 4.3.2 Service shutting down")
    assert sender.available_in() == 30
    connections = smtp_peer.connections
    assert (await sender.send(outgoing())).held
    assert (len(smtp_peer.received), smtp_peer.connections) == (1, connections)  # held: not even a connection


async def test_a_server_that_greets_and_then_hangs_stays_rested(smtp_peer: SmtpPeer,
                                                                 make_sender: MakeSender) -> None:
    clock = Monotonic()
    sender = make_sender(smtp_peer, timeout=0.3, breaker=Breaker("peer", monotonic=clock))
    smtp_peer.rcpt_delays.extend([1.0, 1.0])
    assert "Timed out" in (await sender.send(outgoing())).detail
    assert sender.available_in() == 30
    clock.now += 30
    await sender.send(outgoing())  # connecting works, the transaction hangs again: still the same outage
    assert (sender.available_in(), sender.breaker.down_since, smtp_peer.connections) == (60, 1000.0, 2)
    clock.now += 60
    assert (await sender.send(outgoing())).status == "sent"
    assert (sender.available_in(), sender.breaker.down_since) == (0, None)


async def test_a_cancelled_send_drops_its_connection(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    sender = make_sender(smtp_peer)
    smtp_peer.rcpt_delays.append(5.0)
    sending = asyncio.create_task(sender.send(outgoing()))
    while smtp_peer.rcpts < 1:
        await asyncio.sleep(0.01)
    sending.cancel()  # in the middle of the conversation (SIGTERM)
    with pytest.raises(asyncio.CancelledError):
        await sending
    assert sender.available_in() == 0  # being cancelled says nothing about the server
    # The half-finished conversation is not picked up again: a new connection carries the next mail.
    assert (await sender.send(outgoing())).status == "sent"
    assert (smtp_peer.connections, len(smtp_peer.received)) == (2, 1)


async def test_auth_required_and_given(smtp_peer_factory: SmtpPeerFactory, make_sender: MakeSender) -> None:
    peer = smtp_peer_factory(users={"gm": "s3cret"})
    assert (await make_sender(peer, user="gm", password="s3cret").send(outgoing())).status == "sent"

    result = await make_sender(peer, user="gm", password="wrong").send(outgoing())
    assert result.status == "permanent"
    assert result.detail.startswith("authentication failed: 535")

    result = await make_sender(peer).send(outgoing())  # no credentials configured
    assert result.status == "permanent"
    assert result.detail.startswith("530")
    assert len(peer.received) == 1


async def test_implicit_tls(smtp_peer_factory: SmtpPeerFactory, tls_cert: TlsCert, make_sender: MakeSender) -> None:
    peer = smtp_peer_factory(users={"gm": "s3cret"}, ssl_context=tls_cert.server_context())
    sender = make_sender(peer, user="gm", password="s3cret", tls=True, ssl_context=tls_cert.client_context())
    assert (await sender.send(outgoing())).status == "sent"
    assert peer.received[0].content == RAW

    untrusting = make_sender(peer, user="gm", password="s3cret", tls=True)
    result = await untrusting.send(outgoing())
    assert result.status == "temporary"
    assert "CERTIFICATE_VERIFY_FAILED" in result.detail


async def test_starttls(smtp_peer_factory: SmtpPeerFactory, tls_cert: TlsCert, make_sender: MakeSender) -> None:
    peer = smtp_peer_factory(tls_context=tls_cert.server_context(), require_starttls=True)
    sender = make_sender(peer, starttls=True, ssl_context=tls_cert.client_context())
    assert (await sender.send(outgoing())).status == "sent"
    plain = make_sender(peer, starttls=False)
    result = await plain.send(outgoing())
    assert (result.status, result.detail[:3]) == ("permanent", "530")  # "Must issue a STARTTLS command first"


async def test_starttls_required_but_not_offered(smtp_peer: SmtpPeer, make_sender: MakeSender) -> None:
    result = await make_sender(smtp_peer, starttls=True).send(outgoing())
    assert result.status == "temporary"
    assert "STARTTLS" in result.detail
    assert smtp_peer.received == []


def test_config_rules(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="clear text"):
        SmtpSender("smtp.example.org", 25, "gm", "pw")
    with pytest.raises(ValueError, match="not both"):
        SmtpSender("smtp.example.org", 465, tls=True, starttls=True)
    SmtpSender("smtp.example.org", 587, "gm", "pw", starttls=True)
    SmtpSender("127.0.0.1", 25, "gm", "pw")

    (tmp_path / "smtp.pw").write_text("pw\n")
    sender = SmtpSender.from_config(
        {"kind": "smtp", "host": "smtp.example.org", "starttls": True, "user": "gm", "password_file": "smtp.pw"},
        tmp_path,
    )
    assert (sender.port, sender.starttls, sender.tls) == (587, True, False)
    assert SmtpSender.from_config({"host": "mx", "tls": True}, tmp_path).port == 465
    assert SmtpSender.from_config({"host": "localhost"}, tmp_path).port == 25
    assert SmtpSender.from_config({"host": "mx", "starttls": "auto"}, tmp_path).starttls is None
    assert SmtpSender.from_config({"host": "mx"}, tmp_path).connect_timeout == 15
    assert SmtpSender.from_config({"host": "mx", "connect_timeout": 4}, tmp_path).connect_timeout == 4
    with pytest.raises(ValueError, match="connect_timeout"):
        SmtpSender.from_config({"host": "mx", "connect_timeout": 0}, tmp_path)
    with pytest.raises(ValueError, match="password"):
        SmtpSender.from_config({"host": "mx", "tls": True, "user": "gm"}, tmp_path)
