"""Every mail of the real-world corpus through the whole intake (store, decode, route, authenticate, parse,
ack): each gets the outcome tests/corpus/MANIFEST.toml names, and none crashes the daemon."""

from __future__ import annotations

import asyncio
import dataclasses
import email
import gzip
import tomllib
from datetime import datetime
from email.policy import default
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from maild.app import App
from maild.daemon import Daemon
from maild.games import sync_games
from maild.intake.pipeline import process_new
from maild.intake.store import store_fetched
from maild.mail.base import FetchedMail
from maild.mail.maildir import MaildirInbox, MaildirSender, deliver
from maild.models import InboundMail, OrderSetRow, OutboundMail
from tests.conftest import make_app

CORPUS = Path(__file__).parent / "corpus"
MANIFEST = tomllib.loads((CORPUS / "MANIFEST.toml").read_text())
NOW = datetime(2026, 11, 22, 10, 0, tzinfo=ZoneInfo("Europe/Rome"))

# What InboundMail.status each expectation of the manifest means.
STATUS = {"orders": "orders", "auto": "auto", "bounce": "bounce", "unknown_sender": "unknown_sender",
          "unroutable": "unroutable", "oversized": "oversized", "bad_password": "bad_password", "help": "command",
          "status": "command", "garbage": "garbage"}


def corpus_app(tmp_path: Path, venice_setup: Path) -> App:
    """An app whose size limit is the one the manifest's oversized mail is over."""
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'm.db'}", NOW, venice_setup)
    app.config = dataclasses.replace(app.config, max_mail_bytes=MANIFEST["size_limit"])
    return app


def raw_of(name: str, spec: dict[str, Any]) -> bytes:
    data = (CORPUS / name).read_bytes()
    return gzip.decompress(data) if spec.get("gzip") else data


def ingest(app: App, name: str, raw: bytes) -> InboundMail:
    mail_id = store_fetched(app, FetchedMail("corpus", 0, name, raw, None))
    assert mail_id is not None
    process_new(app)
    with app.db.session() as s:
        row = s.get(InboundMail, mail_id)
        assert row is not None
        return row


@pytest.mark.parametrize("name", sorted(MANIFEST["files"]))
def test_corpus_mail_gets_its_outcome(tmp_path: Path, venice_setup: Path, name: str) -> None:
    spec = MANIFEST["files"][name]
    app = corpus_app(tmp_path, venice_setup)
    with app.db.session() as s:
        sync_games(s, app.config, NOW)
    row = ingest(app, name, raw_of(name, spec))
    assert row.status == STATUS[spec["expect"]], row.note
    with app.db.session() as s:
        out = list(s.scalars(select(OutboundMail).order_by(OutboundMail.id)))
        sets = list(s.scalars(select(OrderSetRow)))
    to_players = [m for m in out if m.kind != "gm"]
    to_gm = [m for m in out if m.kind == "gm"]
    expect = spec["expect"]
    if expect in ("auto", "bounce"):
        assert out == []  # robots are never answered (and a bounce for an address no player has tells no GM)
    elif expect == "unknown_sender":
        # Kept and the GM told; the stranger gets one short answer (at most one a day).
        assert [(m.kind, m.recipients) for m in to_players] == [("stranger", [row.sender])] and len(to_gm) == 1
    elif expect in ("unroutable", "garbage"):
        assert to_players == [] and len(to_gm) == 1  # kept, the GM told, nobody answered
    elif expect == "oversized":
        # Kept (its headers only), the GM told, the sender sent one short refusal.
        assert [(m.kind, m.recipients) for m in to_players] == [("refusal", [f"{spec['player']}@example.org"])]
        assert len(to_gm) == 1 and len(row.raw) < 65536 < row.size
    elif expect == "bad_password":
        # Told to the registered address, never to the sender.
        assert [m.recipients for m in to_players] == [[spec["reply_to"]]]
        assert to_players[0].kind == "warning" and sets == []
    else:
        assert [m.recipients for m in to_players] == [[spec["reply_to"]]]
        ack = email.message_from_bytes(to_players[0].raw, policy=default).get_content()  # type: ignore[attr-defined]
        if expect == "help":
            assert "bid X$ for N of A".lower() in ack.lower() or "bid" in ack
        if expect == "status":
            assert "Orders on file" in ack
        orders = spec.get("orders", [])
        if orders:
            assert len(sets) == 1
            assert len(sets[0].orders) == len(orders), sets[0].orders
            assert len(sets[0].diagnostics) == spec.get("errors", 0), sets[0].diagnostics
            assert f"Understood ({len(orders)})" in ack
        if spec.get("errors"):
            assert f"Not understood ({spec['errors']})" in ack
        if spec.get("ignored"):
            assert f"Ignored ({spec['ignored']})" in ack
        else:
            assert "Ignored (" not in ack


def test_the_whole_corpus_in_one_daemon_pass(tmp_path: Path, venice_setup: Path) -> None:
    """All mails in one inbox, one pass: every one stored and processed, none left 'new' or 'error'."""
    app = corpus_app(tmp_path, venice_setup)
    assert app.config.inbound.path and app.config.outbound.path
    for name, spec in sorted(MANIFEST["files"].items()):
        deliver(app.config.inbound.path, raw_of(name, spec))
    daemon = Daemon(app, MaildirInbox(app.config.inbound.path), MaildirSender(app.config.outbound.path),
                    status_line=False)
    asyncio.run(daemon.run(once=True))
    with app.db.session() as s:
        statuses = [r.status for r in s.scalars(select(InboundMail))]
    assert len(statuses) == len(MANIFEST["files"])
    assert "new" not in statuses and "error" not in statuses
    # The GM hears of the held mails in one notice per intake transaction (50 mails), not one per mail.
    held = {"unknown_sender", "unroutable", "oversized", "garbage"}
    with app.db.session() as s:
        held_ids = [r.id for r in s.scalars(select(InboundMail).where(InboundMail.status.in_(held)))]
        notices = [r for r in s.scalars(select(OutboundMail).where(OutboundMail.kind == "gm"))]
    assert len(held_ids) >= 5
    assert len(notices) <= -(-len(MANIFEST["files"]) // 50)
    listed = b"".join(n.raw for n in notices)
    assert all(f"mail:     {i} (".encode() in listed for i in held_ids)
