"""What the Venice benchmarks share: the config of one generated game on SQLite or PostgreSQL with Maildirs
in a temp folder, and the app built on it (schema upgraded, clock frozen at NOW)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from maild.app import App
from maild.clock import Clock
from maild.config import parse_config
from maild.db import Database, upgrade
from maild.games import sync_games

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


def venice_config(root: Path, db_url: str | None, *, answer_all: bool = True,
                  daemon: dict[str, Any] | None = None) -> dict[str, Any]:
    """The config of game "bench" (setup `root/setup.toml`), deadlines at 17:15 for a week. `answer_all`
    raises the per-address reply caps above any bench's mails a player, so that every mail is answered."""
    data: dict[str, Any] = {
        "database": {"url": db_url or f"sqlite:///{root / 'bench.db'}"},
        "mail": {"inbound": {"kind": "maildir", "path": str(root / "in")},
                 "outbound": {"kind": "maildir", "path": str(root / "out"), "from": "gm@example.org"}},
        "games": [{"name": "bench", "ruleset": "venice", "setup": str(root / "setup.toml"),
                   "address": "gm@example.org",
                   "schedule": {"timezone": "UTC", "at": [f"2026-11-{22 + d}T17:15" for d in range(7)]}}],
    }
    if answer_all:
        data["limits"] = {"replies_per_hour": 1_000_000, "replies_per_day": 1_000_000}
    if daemon:
        data["daemon"] = daemon
    return data


def venice_app(root: Path, db_url: str | None, setup: str, *, create: bool = True, **config: Any) -> App:
    """The app of `venice_config` with `setup` written to root/setup.toml; `create` makes the game now
    (else the daemon's start does)."""
    (root / "setup.toml").write_text(setup)
    parsed = parse_config(venice_config(root, db_url, **config), root, None)
    db = Database(parsed.database_url)
    upgrade(db.engine)
    app = App(config=parsed, db=db, clock=Clock(NOW, frozen=True))
    if create:
        with db.session() as s:
            sync_games(s, parsed, NOW)
    return app
