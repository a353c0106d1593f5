"""ImapInbox against a real Dovecot (marked `imap`), plus the parsing helpers on their own."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from maild.mail.base import FetchedMail, resolve_password
from maild.mail.imap import (
    ImapAuthError,
    ImapFolderError,
    ImapInbox,
    ImapUnavailable,
    _announces_mail,
    _uid_set,
    encode_mailbox,
    parse_fetch_response,
    parse_internaldate,
)
from tests.conftest import OpenInbox
from tests.mailshapes import TRICKY
from tests.servers import Dovecot, DovecotFactory

pytest_plugins = ["tests.servers"]

def mail(n: int, body: bytes = b"orders\r\n") -> bytes:
    return (
        f"From: player{n}@example.org\r\nTo: gm@example.org\r\nSubject: turn {n}\r\n"
        f"Message-ID: <m{n}@example.org>\r\n\r\n"
    ).encode() + body


async def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------------------- no server needed


def test_resolve_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "imap.txt").write_text("s3cret pass\n")
    monkeypatch.setenv("MAILD_TEST_PW", "from-env")
    assert resolve_password({"password_file": "secrets/imap.txt"}, tmp_path) == "s3cret pass"
    assert resolve_password({"password_env": "MAILD_TEST_PW"}, tmp_path) == "from-env"
    assert resolve_password({"password": "inline"}, tmp_path) == "inline"
    assert resolve_password({"host": "x"}, tmp_path) is None
    monkeypatch.delenv("MAILD_TEST_PW")
    with pytest.raises(ValueError, match="MAILD_TEST_PW is not set"):
        resolve_password({"password_env": "MAILD_TEST_PW"}, tmp_path)
    with pytest.raises(ValueError, match="nope.txt does not exist"):
        resolve_password({"password_file": "nope.txt"}, tmp_path)
    with pytest.raises(ValueError, match="only one of"):
        resolve_password({"password": "a", "password_env": "B"}, tmp_path)


def test_plain_imap_only_on_loopback() -> None:
    with pytest.raises(ValueError, match="clear text"):
        ImapInbox("imap.example.org", 143, "gm", "pw", tls=False)
    ImapInbox("imap.example.org", 143, "gm", "pw", tls=False, allow_plain=True)
    ImapInbox("127.0.0.1", 143, "gm", "pw", tls=False)
    ImapInbox("::1", 143, "gm", "pw", tls=False)
    with pytest.raises(ValueError, match="done_action"):
        ImapInbox("127.0.0.1", 993, "gm", "pw", done_action="delete")


def test_from_config(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("secret\n")
    inbox = ImapInbox.from_config(
        {"kind": "imap", "host": "imap.example.org", "user": "gm@example.org", "password_file": "pw",
         "folder": "Orders", "done_action": "move:Done"},
        tmp_path,
    )
    assert (inbox.port, inbox.tls, inbox.folder) == (993, True, "Orders")
    assert inbox.source == "imap:gm@example.org@imap.example.org:993/Orders"
    with pytest.raises(ValueError, match="password"):
        ImapInbox.from_config({"host": "h", "user": "u"}, tmp_path)


def test_parse_fetch_response_any_order_and_unsolicited() -> None:
    body = b"Subject: x\r\n\r\n* 2 FETCH (UID 7 BODY[] {3}\r\n)\r\n"
    lines = [
        b'2 FETCH (FLAGS (\\Seen))',  # unsolicited flag change for another mail
        b'1 FETCH (INTERNALDATE " 7-Mar-2026 18:15:00 +0100" BODY[] {%d}' % len(body),
        bytearray(body),
        b' UID 41)',
        b'3 FETCH (UID 42 BODY[] "short \\"quoted\\" body" INTERNALDATE "07-Mar-2026 17:15:00 +0000")',
    ]
    items = parse_fetch_response(lines)
    assert set(items) == {41, 42}
    assert items[41].body == body
    assert items[41].arrived_at == datetime(2026, 3, 7, 17, 15, tzinfo=UTC)
    assert items[42].body == b'short "quoted" body'


def test_helpers() -> None:
    assert _uid_set([1, 2, 3, 7, 9, 10]) == "1:3,7,9:10"
    assert encode_mailbox("INBOX") == '"INBOX"'
    assert encode_mailbox("Züge & Co") == '"Z&APw-ge &- Co"'
    assert parse_internaldate("17-Jul-1996 02:44:25 -0700") == datetime(1996, 7, 17, 9, 44, 25, tzinfo=UTC)
    assert parse_internaldate("garbage") is None
    assert _announces_mail(b"4 EXISTS")
    assert not _announces_mail(b"OK Still here")
    assert not _announces_mail(b"3 EXPUNGE")


# ---------------------------------------------------------------------------- against Dovecot


@pytest.mark.imap
async def test_fetch_exact_bytes_oldest_first_without_setting_seen(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    when = datetime(2026, 11, 20, 18, 30, 5, tzinfo=timezone(timedelta(hours=1)))
    big = mail(3, b"".join(b"line %06d \xe8 filler filler filler filler filler\r\n" % i for i in range(6000)))
    raws = [TRICKY, mail(2), big]
    uids = [dovecot.deliver("gm", raw, date=when + timedelta(minutes=i)) for i, raw in enumerate(raws)]
    dovecot.deliver("gm", mail(9), flags="\\Seen")  # already read by the GM: not offered

    inbox = open_inbox(dovecot)
    fetched = await inbox.fetch_new()

    assert [m.uid for m in fetched] == [str(uid) for uid in uids]
    assert [m.raw for m in fetched] == raws  # imaplib APPENDs with CRLF, so CRLF mails come back unchanged
    assert fetched[0].arrived_at == datetime(2026, 11, 20, 17, 30, 5, tzinfo=UTC)
    assert {m.uidvalidity for m in fetched} == {dovecot.uidvalidity()}
    assert {m.source for m in fetched} == {f"imap:gm@127.0.0.1:{dovecot.port}/INBOX"}
    assert all("\\Seen" not in flags for uid, flags in dovecot.list_flags().items() if uid in uids)
    # Nothing done yet: the same mails again.
    assert [m.uid for m in await inbox.fetch_new()] == [m.uid for m in fetched]


@pytest.mark.imap
async def test_mark_done_sets_seen_and_is_idempotent(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    first, second = dovecot.deliver("gm", mail(1)), dovecot.deliver("gm", mail(2))
    inbox = open_inbox(dovecot)
    fetched = await inbox.fetch_new()
    await inbox.mark_done(fetched[0])
    await inbox.mark_done(fetched[0])
    assert dovecot.list_flags() == {first: {"\\Seen"}, second: set()}
    assert [m.uid for m in await inbox.fetch_new()] == [str(second)]
    with pytest.raises(ValueError):
        await inbox.mark_done(FetchedMail("imap:elsewhere", 1, "1", b"", None))


@pytest.mark.imap
async def test_tls_login_and_fetch(dovecot_tls: Dovecot, open_inbox: OpenInbox) -> None:
    dovecot_tls.deliver("gm", TRICKY)
    inbox = open_inbox(dovecot_tls)
    [fetched] = await inbox.fetch_new()
    assert fetched.raw == TRICKY
    await inbox.mark_done(fetched)
    assert await inbox.fetch_new() == []
    waiter = asyncio.create_task(inbox.wait_for_mail(30))
    await asyncio.wait_for(inbox.idling.wait(), 5)
    await asyncio.to_thread(dovecot_tls.deliver, "gm", mail(1))
    await asyncio.wait_for(waiter, 2)
    assert [m.raw for m in await inbox.fetch_new()] == [mail(1)]


@pytest.mark.imap
async def test_tls_untrusted_certificate_is_reported(dovecot_tls: Dovecot, open_inbox: OpenInbox) -> None:
    import ssl

    inbox = open_inbox(dovecot_tls, ssl_context_factory=ssl.create_default_context, max_attempts=1)
    with pytest.raises(ImapUnavailable, match="CERTIFICATE_VERIFY_FAILED"):
        await inbox.fetch_new()


@pytest.mark.imap
async def test_done_action_move(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    dovecot.deliver("gm", mail(1))
    dovecot.deliver("gm", mail(2), flags="\\Seen")  # with move, read mails are still orders
    inbox = open_inbox(dovecot, done_action="move:maild/Done")
    fetched = await inbox.fetch_new()
    assert len(fetched) == 2
    for item in fetched:
        await inbox.mark_done(item)
    await inbox.mark_done(fetched[0])  # already moved: still fine
    # Config folder names use "/"; this Dovecot's hierarchy separator is ".".
    assert (dovecot.count("gm"), dovecot.count("gm", "maild.Done")) == (0, 2)
    assert await inbox.fetch_new() == []


@pytest.mark.imap
async def test_server_without_idle_or_move(dovecot_factory: DovecotFactory, open_inbox: OpenInbox) -> None:
    server = dovecot_factory(settings={"imap_capability": "IMAP4rev1 LITERAL+ UIDPLUS"})
    server.deliver("gm", mail(1))
    inbox = open_inbox(server, done_action="move:Done")
    [fetched] = await inbox.fetch_new()
    await inbox.mark_done(fetched)  # COPY + STORE \Deleted + UID EXPUNGE
    assert (server.count("gm"), server.count("gm", "Done")) == (0, 1)

    started = time.monotonic()
    await inbox.wait_for_mail(0.3)  # polling: just waits
    assert time.monotonic() - started >= 0.29
    server.deliver("gm", mail(2))
    started = time.monotonic()
    await inbox.wait_for_mail(10)  # a mail arrived since the last fetch: no waiting
    assert time.monotonic() - started < 1
    assert inbox.idle_count == 0
    assert [m.raw for m in await inbox.fetch_new()] == [mail(2)]


@pytest.mark.imap
async def test_polling_when_idle_disabled(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    inbox = open_inbox(dovecot, use_idle=False)
    assert await inbox.fetch_new() == []
    started = time.monotonic()
    await inbox.wait_for_mail(0.3)
    assert time.monotonic() - started >= 0.29
    assert inbox.idle_count == 0


@pytest.mark.imap
async def test_idle_wakes_wait_for_mail(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    inbox = open_inbox(dovecot)
    assert await inbox.fetch_new() == []
    waiter = asyncio.create_task(inbox.wait_for_mail(30))
    await asyncio.wait_for(inbox.idling.wait(), 5)
    started = time.monotonic()
    await asyncio.to_thread(dovecot.deliver, "other", mail(0))  # another user's mail must not wake us
    await asyncio.to_thread(dovecot.deliver, "gm", mail(1))
    await asyncio.wait_for(waiter, 5)
    assert time.monotonic() - started < 1
    assert [m.raw for m in await inbox.fetch_new()] == [mail(1)]


@pytest.mark.imap
async def test_mail_between_fetch_and_idle_is_not_missed(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    inbox = open_inbox(dovecot)
    assert await inbox.fetch_new() == []
    dovecot.deliver("gm", mail(1))
    started = time.monotonic()
    await inbox.wait_for_mail(30)
    assert time.monotonic() - started < 1
    assert inbox.idle_count == 0


@pytest.mark.imap
async def test_idle_ignores_keepalive(dovecot_factory: DovecotFactory, open_inbox: OpenInbox,
                                      caplog: pytest.LogCaptureFixture) -> None:
    server = dovecot_factory(settings={"imap_idle_notify_interval": "1 secs"})
    inbox = open_inbox(server)
    await inbox.fetch_new()
    caplog.set_level(logging.DEBUG, logger="maild.mail.imap")
    started = time.monotonic()
    await inbox.wait_for_mail(1.6)
    assert time.monotonic() - started >= 1.55
    assert "Still here" in caplog.text


@pytest.mark.imap
async def test_idle_is_reissued(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    inbox = open_inbox(dovecot, idle_reissue=0.2)
    await inbox.fetch_new()
    waiter = asyncio.create_task(inbox.wait_for_mail(30))
    await wait_until(lambda: inbox.idle_count >= 3 and inbox.idling.is_set())
    await asyncio.to_thread(dovecot.deliver, "gm", mail(1))
    await asyncio.wait_for(waiter, 2)
    assert len(await inbox.fetch_new()) == 1
    assert inbox.connect_count == 1


@pytest.mark.imap
async def test_server_restart_during_idle(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    inbox = open_inbox(dovecot)
    assert await inbox.fetch_new() == []
    waiter = asyncio.create_task(inbox.wait_for_mail(30))
    await asyncio.wait_for(inbox.idling.wait(), 5)
    await asyncio.to_thread(dovecot.restart)
    await asyncio.wait_for(waiter, 2)  # the dropped connection ends the wait
    dovecot.deliver("gm", mail(1))
    assert [m.raw for m in await inbox.fetch_new()] == [mail(1)]
    assert inbox.connect_count == 2


@pytest.mark.imap
async def test_server_down_backoff_then_back(dovecot: Dovecot, open_inbox: OpenInbox,
                                             caplog: pytest.LogCaptureFixture) -> None:
    dovecot.deliver("gm", mail(1))
    dovecot.stop()
    impatient = open_inbox(dovecot, max_attempts=3)
    with pytest.raises(ImapUnavailable, match="Connect"):
        await impatient.fetch_new()

    inbox = open_inbox(dovecot)
    caplog.set_level(logging.WARNING, logger="maild.mail.imap")
    caplog.clear()
    fetching = asyncio.create_task(inbox.fetch_new())
    await asyncio.sleep(0.5)  # the outage; backoff 0.05 s doubling: about 5 attempts, not hundreds
    assert not fetching.done()
    assert "Connect call failed" in (inbox.last_error or "")
    await asyncio.to_thread(dovecot.start)
    assert [m.raw for m in await asyncio.wait_for(fetching, 5)] == [mail(1)]
    assert inbox.last_error is None
    assert 3 <= len([r for r in caplog.records if "retrying" in r.getMessage()]) <= 8


@pytest.mark.imap
async def test_uidvalidity_change_offers_mails_again(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    dovecot.deliver("gm", mail(1))
    dovecot.deliver("gm", mail(2))
    inbox = open_inbox(dovecot)
    old = await inbox.fetch_new()
    await inbox.mark_done(old[0])
    old_validity = inbox.uidvalidity

    # The server loses its index (restored from backup, migrated): UIDs start over.
    dovecot.stop()
    maildir = dovecot.maildir("gm")
    for path in maildir.iterdir():
        # Keep dovecot-uidvalidity*: it makes the new UIDVALIDITY differ even within the same second.
        if path.name == "dovecot-uidlist" or path.name.startswith("dovecot.index"):
            path.unlink()
    dovecot.start()

    again = await inbox.fetch_new()
    assert inbox.uidvalidity != old_validity
    assert [m.raw for m in again] == [mail(2)]  # mail 1 kept its \Seen flag in the Maildir file name
    assert again[0].uidvalidity == inbox.uidvalidity
    await inbox.mark_done(old[1])  # old UIDVALIDITY: ignored, must not touch whatever has that UID now
    assert "\\Seen" not in dovecot.list_flags()[int(again[0].uid)]
    await inbox.mark_done(again[0])
    assert await inbox.fetch_new() == []


@pytest.mark.imap
async def test_wrong_password_is_an_error_not_a_loop(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    inbox = open_inbox(dovecot, password="wrong", backoff_initial=0.3)
    with pytest.raises(ImapAuthError, match="refused login as gm"):
        await inbox.fetch_new()
    started = time.monotonic()
    with pytest.raises(ImapAuthError):
        await inbox.fetch_new()
    assert time.monotonic() - started >= 0.15  # paced by the backoff (0.3 s, jittered down to half)
    started = time.monotonic()
    await inbox.wait_for_mail(0.2)  # a caller looping on wait_for_mail is paced as well
    assert time.monotonic() - started >= 0.15
    assert inbox.connect_count == 0
    assert "refused login" in (inbox.last_error or "")


@pytest.mark.imap
async def test_missing_folder(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    inbox = open_inbox(dovecot, folder="Nope")
    with pytest.raises(ImapFolderError, match="Nope"):
        await inbox.fetch_new()


@pytest.mark.imap
async def test_backlog_is_fetched_in_batches(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    for n in range(3):
        dovecot.deliver("gm", mail(n))
    inbox = open_inbox(dovecot, max_batch=2)
    first = await inbox.fetch_new()
    assert [m.raw for m in first] == [mail(0), mail(1)]
    started = time.monotonic()
    await inbox.wait_for_mail(30)
    assert time.monotonic() - started < 0.5
    for item in first:
        await inbox.mark_done(item)
    assert [m.raw for m in await inbox.fetch_new()] == [mail(2)]


@pytest.mark.imap
async def test_close_ends_idle(dovecot: Dovecot, open_inbox: OpenInbox) -> None:
    inbox = open_inbox(dovecot)
    await inbox.fetch_new()
    waiter = asyncio.create_task(inbox.wait_for_mail(30))
    await asyncio.wait_for(inbox.idling.wait(), 5)
    await asyncio.wait_for(inbox.close(), 2)
    await asyncio.wait_for(waiter, 2)
    with pytest.raises(RuntimeError, match="closed"):
        await inbox.fetch_new()
