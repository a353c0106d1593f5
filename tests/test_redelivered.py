"""A mail delivered again is recognised by its bytes, whatever its source id and whether it has a Message-ID:
the IMAP server's UIDVALIDITY changing after a crash between storing and marking offers every unmarked mail
again under new UIDs, and mails without a Message-ID must not count twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from maild.db import Database
from maild.mail.base import FetchedMail
from maild.models import InboundMail, OutboundMail
from tests.conftest import write_gm_config
from tests.mailflow import BEFORE, game_app, order_mail
from tests.servers import Dovecot

pytest_plugins = ["tests.servers"]

NOW = "2026-11-22T12:00+01:00"

# Mails as some scripts and old clients send them: no Message-ID, and the server adds none.
WITHOUT_ID = [
    b"From: alice@example.org\r\nTo: gm@example.org\r\nSubject: bids\r\n\r\nbid 10$ for 1 of silk tax\r\n",
    b"From: carol@example.net\r\nTo: gm@example.org\r\nSubject: bids\r\n\r\nbid 12$ for 1 of silk tax\r\n",
]


def imap_config(tmp_path: Path, db_url: str, dovecot: Dovecot) -> Path:
    config = write_gm_config(tmp_path, outbox="out")
    text = config.read_text().replace('url = "sqlite:///maild.db"', f'url = "{db_url}"')
    inbound = (f'kind = "imap"\nhost = "{dovecot.host}"\nport = {dovecot.port}\ntls = false\nuser = "gm"\n'
               f'password = "{dovecot.users["gm"]}"\nfolder = "INBOX"')
    config.write_text(text.replace('kind = "maildir"\npath = "var/mail/inbox"', inbound, 1))
    return config


def maild(config: Path, *args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "MAILD_CRASH_AT"}
    if crash:
        env["MAILD_CRASH_AT"] = crash
    return subprocess.run([sys.executable, "-m", "maild", "--config", str(config), "--now", NOW, *args],
                          capture_output=True, text=True, env=env, timeout=120, cwd=config.parent)


def new_uidvalidity(dovecot: Dovecot) -> None:
    """The server loses its index (restored from a backup, migrated): UIDs start again under a new
    UIDVALIDITY, and every mail not marked \\Seen is offered again."""
    before = dovecot.uidvalidity()
    dovecot.stop()
    for path in dovecot.maildir("gm").iterdir():
        # Keep dovecot-uidvalidity*: it makes the new UIDVALIDITY differ even within the same second.
        if path.name == "dovecot-uidlist" or path.name.startswith("dovecot.index"):
            path.unlink()
    dovecot.start()
    assert dovecot.uidvalidity() != before


@pytest.mark.imap
@pytest.mark.slow
def test_mails_without_message_id_fetched_again_under_a_new_uidvalidity_count_once(
        tmp_path: Path, db_url: str, dovecot: Dovecot) -> None:
    config = imap_config(tmp_path, db_url, dovecot)
    for raw in WITHOUT_ID:
        dovecot.deliver("gm", raw)
    # Killed after the mails were committed and before they were marked \Seen on the server.
    first = maild(config, "run", "--once", crash="fetch.stored:1")
    assert first.returncode == -signal.SIGKILL, first.stderr[-2000:]
    new_uidvalidity(dovecot)
    second = maild(config, "run", "--once")
    assert second.returncode == 0, second.stderr[-2000:]

    db = Database(db_url)
    try:
        with db.session() as s:
            mails = s.execute(select(InboundMail.id, InboundMail.uidvalidity, InboundMail.status, InboundMail.note)
                              .order_by(InboundMail.id)).all()
            acks = s.scalars(select(OutboundMail.recipients).where(OutboundMail.kind == "ack")).all()
    finally:
        db.close()
    assert [m.status for m in mails] == ["orders", "orders", "duplicate", "duplicate"]
    assert mails[0].uidvalidity != mails[2].uidvalidity
    assert [m.note for m in mails[2:]] == [f"same bytes (no Message-ID) as mail {mails[0].id}",
                                          f"same bytes (no Message-ID) as mail {mails[1].id}"]
    assert sorted(r[0] for r in acks) == ["alice@example.org", "carol@example.net"]
    assert all(flags == {"\\Seen"} for flags in dovecot.list_flags().values())


def test_two_different_mails_are_two_and_the_same_bytes_again_are_one(tmp_path: Path, db_url: str,
                                                                      venice_setup: Path) -> None:
    """Store's rule without a transport: other bytes are another mail (even with the same Message-ID, as
    bulk senders reuse them); the same bytes under another source id are a duplicate naming the first."""
    from maild.intake.store import store_batch

    app = game_app(tmp_path, db_url, venice_setup)
    try:
        def fetched(uid: str, raw: bytes, uidvalidity: int = 1) -> FetchedMail:
            return FetchedMail(source="imap:gm@host/INBOX", uidvalidity=uidvalidity, uid=uid, raw=raw,
                               arrived_at=BEFORE)

        ids = store_batch(app, [fetched("1", WITHOUT_ID[0]), fetched("2", WITHOUT_ID[1]),
                                fetched("3", order_mail(1)), fetched("4", order_mail(1).replace(b"bid", b"Bid"))])
        again = store_batch(app, [fetched("1", WITHOUT_ID[0], uidvalidity=2), fetched("9", order_mail(1)),
                                  fetched("1", WITHOUT_ID[0])])
        assert again[2] is None  # the same source id: not stored at all
        with app.db.session() as s:
            rows = {r.id: (r.status, r.note) for r in s.scalars(select(InboundMail))}
        assert [rows[i] for i in ids] == [("new", None)] * 4
        assert rows[again[0]] == ("duplicate", f"same bytes (no Message-ID) as mail {ids[0]}")
        assert rows[again[1]] == ("duplicate", f"same Message-ID and bytes as mail {ids[2]}")
    finally:
        app.db.close()


def test_mail_ingest_of_two_different_files_stores_both(tmp_path: Path) -> None:
    config = write_gm_config(tmp_path)
    files = []
    for n, raw in enumerate(WITHOUT_ID):
        files.append(tmp_path / f"{n}.eml")
        files[-1].write_bytes(raw)
    out = maild(config, "mail", "ingest", *map(str, files))
    assert out.returncode == 0, out.stderr
    assert [line.split(": ")[-1] for line in out.stdout.splitlines()] == ["orders", "orders"]
    again = maild(config, "mail", "ingest", str(files[0]))
    assert again.stdout.strip() == f"{files[0]}: already received"

