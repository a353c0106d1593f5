"""Order mails for the tests of hostile and poison mail (no tests here): a Venice order mail, and an inbox whose
second mail kills (or, with STALL set, stalls) the intake that reads it, with the command that reads it."""

from __future__ import annotations

import os
import sys
import textwrap
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from maild.mail.maildir import deliver
from tests.conftest import write_gm_config

MORNING = datetime(2026, 11, 22, 10, 0, tzinfo=ZoneInfo("Europe/Rome"))


def order(sender: str, n: int, body: str = "bid 10$ for 1 of silk tax", message_id: str | None = None,
          padding: int = 0) -> bytes:
    mid = message_id or f"<bounds-{n}@example.org>"
    text = body + "\n" + ("x" * 70 + "\n") * (padding // 71) if padding else body
    return (f"From: Player <{sender}>\nTo: gm@example.org\nSubject: bids {n}\nMessage-ID: {mid}\n\n{text}\n"
            ).encode()


KILLER = textwrap.dedent("""
    import os, signal, sys, time
    from maild.intake import pipeline
    real = pipeline.process_mail

    def hostile(s, app, row, *rest):  # the rest as process_mail takes it
        if b"Subject: poison" in row.raw:  # what a crash in a parser, or a stall, does to the daemon
            if os.environ.get("STALL"):
                time.sleep(3600)
            os.kill(os.getpid(), signal.SIGKILL)
        return real(s, app, row, *rest)

    pipeline.process_mail = hostile
    from maild.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def poison_inbox(tmp_path: Path, daemon: str) -> tuple[Path, list[str]]:
    config = write_gm_config(tmp_path, daemon=daemon)
    inbox = tmp_path / "var" / "mail" / "inbox"
    for n, raw in enumerate([order("alice@example.org", 1), order("bob@example.org", 2).replace(
            b"bids 2", b"poison"), order("carol@example.net", 3)]):
        path = deliver(inbox, raw)
        os.utime(path, (MORNING.timestamp() + n, MORNING.timestamp() + n))
    return config, [sys.executable, "-c", KILLER, "--config", str(config), "--now", "2026-11-22T10:00+01:00",
                    "run", "--once"]
