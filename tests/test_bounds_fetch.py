"""Bounded fetching and storing: mail by mail, a size limit checked before the body is read, duplicates
kept visible, poison mail set aside. On the real Maildir and the real Dovecot IMAP, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from maild.app import App
from maild.config import ConfigError, parse_config
from maild.daemon import Daemon
from maild.intake import attempts
from maild.mail import imap as imap_module
from maild.mail.base import MAX_HEADER_BYTES
from maild.mail.maildir import MaildirInbox, MaildirSender, deliver
from maild.models import InboundMail, OutboundMail
from tests.conftest import OpenInbox, make_app, write_gm_config
from tests.mailflow import drop, run_pass, sent
from tests.poisonmail import MORNING, order, poison_inbox
from tests.servers import Dovecot

pytest_plugins = ["tests.servers"]

LIMIT = 200_000


def limited(app: App, limit: int = LIMIT) -> App:
    app.config = dataclasses.replace(app.config, max_mail_bytes=limit)
    return app


def rows(app: App) -> list[InboundMail]:
    with app.db.session() as s:
        return list(s.scalars(select(InboundMail).order_by(InboundMail.id)))


def outbox(app: App) -> list[tuple[str, list[str]]]:
    """The outbox but for the players' welcomes, mailed when the game was created."""
    with app.db.session() as s:
        return [(o.kind, list(o.recipients)) for o in s.scalars(select(OutboundMail).order_by(OutboundMail.id))
                if o.kind != "welcome"]


# -- the size limit ---------------------------------------------------------------------------------------

def test_size_limit_config() -> None:
    assert parse_config({}, Path("."), None).max_mail_bytes == 10_000_000
    assert parse_config({}, Path("."), None).max_intake_attempts == 3
    assert parse_config({"daemon": {"max_mail_bytes": 500_000, "max_intake_attempts": 5}}, Path("."),
                        None).max_intake_attempts == 5
    assert parse_config({}, Path("."), None).intake_mail_seconds == 300
    assert parse_config({"daemon": {"intake_mail_seconds": 0}}, Path("."), None).intake_mail_seconds == 0
    for key, bad in [("max_mail_bytes", "10MB"), ("max_mail_bytes", 1000), ("max_intake_attempts", 0),
                     ("max_intake_attempts", True), ("intake_mail_seconds", -1), ("intake_mail_seconds", "5m")]:
        with pytest.raises(ConfigError, match=f"daemon.{key}"):
            parse_config({"daemon": {key: bad}}, Path("."), None)


async def test_maildir_reads_only_the_headers_of_an_oversized_mail(tmp_path: Path) -> None:
    inbox = MaildirInbox(tmp_path / "in")
    big = order("alice@example.org", 1, padding=3 * LIMIT)
    deliver(inbox.path, order("bob@example.org", 2))
    deliver(inbox.path, big)
    mails = [m async for m in inbox.fetch_each(LIMIT)]
    by_size = sorted(mails, key=lambda m: m.size or 0)
    assert [(m.truncated, m.size) for m in by_size] == [(False, len(order("bob@example.org", 2))), (True, len(big))]
    assert by_size[1].raw == big[:big.index(b"\n\n") + 2]  # the header block, nothing of the body


def test_oversized_mail_is_refused_once_and_kept_as_headers(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = limited(make_app(tmp_path, db_url, MORNING, venice_setup))
    drop(app, order("alice@example.org", 1, padding=3 * LIMIT), MORNING)
    drop(app, order("carol@example.net", 2), MORNING)
    run_pass(app, MORNING)
    big, small = rows(app)
    assert (big.status, small.status) == ("oversized", "orders")
    assert big.size > 3 * LIMIT and len(big.raw) < 200 and big.digest is None
    assert big.sender == "alice@example.org" and "only its headers were kept" in (big.note or "")
    assert sorted(outbox(app)) == [("ack", ["carol@example.net"]), ("gm", ["referee@example.org"]),
                                   ("refusal", ["alice@example.org"])]
    refusal = next(m for m in sent(app) if m["To"] == "alice@example.org")
    assert refusal["Auto-Submitted"] == "auto-replied" and str(LIMIT) in refusal.get_content()
    assert app.config.inbound.path is not None
    assert not list((app.config.inbound.path / "new").iterdir())  # both stored, then marked done
    run_pass(app, MORNING)  # nothing twice
    assert len(outbox(app)) == 3


def test_a_robot_sending_an_oversized_mail_is_not_answered(tmp_path: Path, venice_setup: Path) -> None:
    app = limited(make_app(tmp_path, f"sqlite:///{tmp_path / 'm.db'}", MORNING, venice_setup))
    drop(app, b"Auto-Submitted: auto-replied\n" + order("alice@example.org", 1, padding=2 * LIMIT), MORNING)
    run_pass(app, MORNING)
    assert [r.status for r in rows(app)] == ["oversized"]
    assert outbox(app) == [("gm", ["referee@example.org"])]


# -- memory: mail by mail ---------------------------------------------------------------------------------

_PEAK = textwrap.dedent("""
    import resource, sys
    from maild.cli import main
    code = main(["--config", sys.argv[1], "--now", "2026-11-22T10:00+01:00", "run", "--once"])
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
    sys.exit(code)
""")


def _peak_mb(folder: Path, mails: int, size: int) -> int:
    config = write_gm_config(folder, daemon="max_mail_bytes = 10_000_000")
    inbox = folder / "var" / "mail" / "inbox"
    for n in range(mails):
        deliver(inbox, order(f"stranger{n}@example.com", n, padding=size))
    done = subprocess.run([sys.executable, "-c", _PEAK, str(config)], capture_output=True, text=True,
                          cwd=folder, timeout=600)
    assert done.returncode == 0, done.stderr
    assert not list((inbox / "new").iterdir())
    return int(done.stdout.split()[-1])


def test_intake_peak_memory_does_not_grow_with_the_inbox(tmp_path: Path) -> None:
    # 8 and 48 mails of 3 MB (24 MB and 144 MB of inbox): reading every mail before storing any made
    # the second peak about 120 MB higher; mail by mail it is the same.
    (tmp_path / "small").mkdir()
    (tmp_path / "large").mkdir()
    small = _peak_mb(tmp_path / "small", 8, 3_000_000)
    large = _peak_mb(tmp_path / "large", 48, 3_000_000)
    assert large - small < 40, (small, large)


# -- IMAP: sizes first, bodies in bounded chunks ----------------------------------------------------------

@pytest.mark.imap
async def test_imap_fetches_sizes_first_and_bodies_in_bounded_chunks(
        dovecot: Dovecot, open_inbox: OpenInbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(imap_module, "FETCH_CHUNK_BYTES", 250_000)
    answers: list[int] = []
    real = imap_module.parse_fetch_response

    def counting(lines: Any) -> Any:
        items = real(lines)
        answers.append(sum(len(i.body or b"") for i in items.values()))
        return items

    monkeypatch.setattr(imap_module, "parse_fetch_response", counting)
    raws = [dovecot_mail(n, 100_000) for n in range(6)] + [dovecot_mail(9, 3 * LIMIT)]
    for raw in raws:
        dovecot.deliver("gm", raw)
    inbox = open_inbox(dovecot)
    got = []
    async for mail in inbox.fetch_each(LIMIT):
        await inbox.mark_done(mail)  # the connection is free between chunks: done as we go
        got.append(mail)
    assert [m.raw for m in got[:6]] == raws[:6]
    assert got[6].truncated and got[6].size == len(raws[6]) and got[6].raw == raws[6][:raws[6].index(b"\r\n\r\n") + 4]
    assert answers[0] == 0  # sizes and dates only
    assert max(answers) <= 250_000 and len(answers) >= 4
    assert all(flags == {"\\Seen"} for flags in dovecot.list_flags().values())


def dovecot_mail(n: int, size: int) -> bytes:
    head = f"From: p{n}@example.org\r\nTo: gm@example.org\r\nSubject: {n}\r\nMessage-ID: <big{n}@x>\r\n\r\n"
    return head.encode() + (b"y" * 76 + b"\r\n") * (size // 78)


@pytest.mark.imap
def test_imap_oversized_mail_through_the_daemon(tmp_path: Path, venice_setup: Path, dovecot: Dovecot) -> None:
    app = limited(make_app(tmp_path, f"sqlite:///{tmp_path / 'm.db'}", MORNING, venice_setup))
    app.config = dataclasses.replace(app.config, inbound=dataclasses.replace(
        app.config.inbound, kind="imap", path=None,
        options={"kind": "imap", "host": dovecot.host, "port": dovecot.port, "tls": False, "user": "gm",
                 "password": dovecot.users["gm"], "folder": "INBOX"}))
    big = order("alice@example.org", 1, padding=3 * LIMIT).replace(b"\n", b"\r\n")
    uid = dovecot.deliver("gm", big)
    from maild.mail.factory import make_inbox

    assert app.config.outbound.path is not None
    asyncio.run(Daemon(app, make_inbox(app.config, once=True), MaildirSender(app.config.outbound.path),
                       status_line=False).run(once=True))
    [row] = rows(app)
    assert (row.status, row.size) == ("oversized", len(big)) and len(row.raw) <= MAX_HEADER_BYTES
    assert dovecot.list_flags()[uid] == {"\\Seen"}  # marked only after the row was committed
    assert ("refusal", ["alice@example.org"]) in outbox(app)


# -- duplicates -------------------------------------------------------------------------------------------

def test_same_message_id_from_different_senders_are_different_mails(tmp_path: Path, db_url: str,
                                                                   venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    drop(app, order("alice@example.org", 1, message_id="<shared@bulk.example>"), MORNING)
    drop(app, order("carol@example.net", 2, message_id="<shared@bulk.example>"), MORNING)
    run_pass(app, MORNING)
    assert [r.status for r in rows(app)] == ["orders", "orders"]
    assert sorted(outbox(app)) == [("ack", ["alice@example.org"]), ("ack", ["carol@example.net"])]


def test_the_same_mail_twice_is_a_visible_duplicate(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    raw = order("alice@example.org", 1)
    drop(app, raw, MORNING)
    drop(app, raw, MORNING)  # the same bytes a second way in (two aliases, a forward)
    drop(app, raw.replace(b"bid 10$", b"bid 11$"), MORNING)  # same Message-ID, other bytes: another mail
    run_pass(app, MORNING)
    first, second, third = rows(app)
    assert (first.status, second.status, third.status) == ("orders", "duplicate", "orders")
    assert second.note == f"same Message-ID and bytes as mail {first.id}"
    assert second.raw == b"" and second.size == len(raw) and second.sender == "alice@example.org"
    assert [k for k, _ in outbox(app)] == ["ack", "ack"]


def test_mail_list_shows_duplicates_with_their_reason(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from maild.cli import main

    config = write_gm_config(tmp_path)
    inbox = tmp_path / "var" / "mail" / "inbox"
    deliver(inbox, order("alice@example.org", 1))
    deliver(inbox, order("alice@example.org", 1))
    assert main(["--config", str(config), "--now", "2026-11-22T10:00+01:00", "run", "--once"]) == 0
    capsys.readouterr()
    assert main(["--config", str(config), "--now", "2026-11-22T10:00+01:00", "mail", "list"]) == 0
    out = capsys.readouterr().out
    assert "duplicate" in out and "alice@example.org" in out and "same Message-ID and bytes as mail 1" in out


# -- poison mail ------------------------------------------------------------------------------------------

def test_plan_batches_fresh_mail_and_retries_alone() -> None:
    steps = list(attempts.plan([(1, 0), (2, 0), (3, 1), (4, 0), (5, 3), (6, 0)], batch=50, max_attempts=3))
    assert [(s.ids, s.retry, s.poison) for s in steps] == [
        ([1, 2], False, False), ([3], True, False), ([4], False, False), ([5], True, True), ([6], False, False)]
    assert [s.ids for s in attempts.plan([(i, 0) for i in range(5)], batch=2, max_attempts=3)] == \
        [[0, 1], [2, 3], [4]]


def test_a_mail_that_stalls_intake_is_set_aside_after_its_time_budget(tmp_path: Path) -> None:
    config, args = poison_inbox(tmp_path, "max_intake_attempts = 2\nintake_mail_seconds = 1")
    env = {**os.environ, "STALL": "1"}
    started = time.monotonic()
    done = [subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
            for _ in range(3)]
    assert [d.returncode for d in done] == [75, 75, 0]  # the budget ended the stalled process twice
    assert "intake stalled on mail 2" in done[0].stderr
    assert time.monotonic() - started < 60
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", MORNING)
    assert [(r.status, r.attempts) for r in rows(app)] == [("orders", 2), ("poison", 2), ("orders", 2)]


def test_a_mail_that_kills_intake_is_set_aside_and_the_rest_goes_on(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    config, args = poison_inbox(tmp_path, "max_intake_attempts = 3")
    codes = [subprocess.run(args, cwd=tmp_path, capture_output=True, timeout=300).returncode for _ in range(4)]
    assert codes == [-9, -9, -9, 0]  # killed on it three times, then it is set aside
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", MORNING)
    statuses = [(r.sender, r.status, r.attempts) for r in rows(app)]
    assert [s[1] for s in statuses] == ["orders", "poison", "orders"], statuses
    assert statuses[1][2] == 3
    with app.db.session() as s:
        notices = [o.subject for o in s.scalars(select(OutboundMail).where(OutboundMail.kind == "gm"))]
    assert notices == ["[maild] mail 2 set aside (intake stopped on it)"]
    from maild.cli import main

    assert main(["--config", str(config), "--now", MORNING.isoformat(), "mail", "list"]) == 0
    [listed] = capsys.readouterr().out.splitlines()
    assert listed.startswith("2  ") and "poison" in listed and "intake began on this mail 3 times" in listed


def test_the_daemon_starts_again_in_place_after_a_stall_and_goes_on(tmp_path: Path) -> None:
    """`maild run` (no --once) outlives a mail that stalls it: it starts itself again with the same command
    line, in the same process, retries the mail alone, sets it aside, and reads the rest; no supervisor."""
    config, args = poison_inbox(tmp_path, "max_intake_attempts = 2\nintake_mail_seconds = 1\npoll_interval = 1")
    args.remove("--once")
    log_path = tmp_path / "daemon.log"
    with log_path.open("w") as log:
        daemon = subprocess.Popen(args, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, text=True,
                                  env={**os.environ, "STALL": "1"})
        try:
            app = make_app(tmp_path, f"sqlite:///{tmp_path / 'maild.db'}", MORNING)
            deadline = time.monotonic() + 90
            statuses: list[str] = []
            while time.monotonic() < deadline:
                time.sleep(0.5)
                if (tmp_path / "maild.db").exists():
                    try:
                        statuses = [r.status for r in rows(app)]
                    except Exception:  # the schema may not be there yet
                        continue
                    if statuses == ["orders", "poison", "orders"]:
                        break
            assert statuses == ["orders", "poison", "orders"]
            assert daemon.poll() is None  # the same process, still running
        finally:
            daemon.terminate()
            daemon.wait(timeout=60)
    output = log_path.read_text()
    assert output.count("maild: intake stalled on mail 2; the daemon starts again") == 2
