"""Fixtures shared by the tests: databases (SQLite and PostgreSQL), apps on Maildirs, a Venice game, IMAP inboxes
on the Dovecot of tests/servers.py."""

from __future__ import annotations

import os
import random
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import sqlalchemy as sa

from maild.app import App
from maild.clock import NO_WALL_CLOCK
from maild.mail.imap import ImapInbox
from maild.testing import answering_every_mail, maildir_config, open_app, postgres_schema

if TYPE_CHECKING:  # imported for real by pytest_plugins, which must come first to rewrite its asserts
    from tests.servers import Dovecot

__all__ = ["answering_every_mail", "config_dict", "make_app", "write_gm_config"]

pytest_plugins = ["tests.servers"]

# No test reads the wall clock: a Clock on real time raises, here and in every maild process a test starts (they
# inherit the environment), so "now" comes from --now or an injected clock and the suite passes on any date.
os.environ[NO_WALL_CLOCK] = "1"

PG_URL = os.environ.get("MAILD_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")

VENICE_SETUP = """
credit_limit = 500
interest_per_day = 0.05
scale_per_players = 4

[[players]]
name = "alice"
email = "alice@example.org"
[[players]]
name = "bob"
email = "bob@example.org"
password = "sesame"
[[players]]
name = "carol"
email = "carol@example.net"

[[agendas]]
name = "silk tax"
value = 20
force = 0
popularity = 10
influence = 20
[[agendas]]
name = "exile competitor"
value = 50
force = 20
popularity = 5
influence = 10

[[assets]]
name = "opera"
force = 0
popularity = 20
influence = 0
[[assets]]
name = "senator"
force = 0
popularity = 5
influence = 5
[[assets]]
name = "swiss mercenaries"
force = 10
popularity = 0
influence = 0

[[auctions]]
items = { "silk tax" = 2, "exile competitor" = 1 }
[[auctions]]
items = { "opera" = 1, "senator" = 2 }
[[auctions]]
items = { "swiss mercenaries" = 2, "senator" = 1 }
[[auctions]]
items = { "senator" = 2 }
[[auctions]]
items = { "opera" = 1, "swiss mercenaries" = 1 }
[[auctions]]
items = { "senator" = 2, "swiss mercenaries" = 1 }
[[auctions]]
items = { "silk tax" = 1, "exile competitor" = 1 }
"""


def _pg_available() -> bool:
    try:
        engine = sa.create_engine(PG_URL)
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:
        return False


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test that takes this runs on SQLite and on PostgreSQL (a fresh schema of database `test`)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'maild.db'}"
        return
    yield from _fresh_pg_schema()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema of PostgreSQL's database `test`, for tests of PostgreSQL's own faults (mark them postgres)."""
    yield from _fresh_pg_schema()


def _fresh_pg_schema() -> Iterator[str]:
    """A fresh schema of PG_URL's database, dropped afterwards; CI fails where PostgreSQL is not reachable, a
    developer's run skips."""
    if not _pg_available():
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not reachable at {PG_URL}")
        pytest.skip(f"PostgreSQL is not reachable at {PG_URL}")
    with postgres_schema(PG_URL) as url:
        yield url


@pytest.fixture
def venice_setup(tmp_path: Path) -> Path:
    path = tmp_path / "venice-setup.toml"
    path.write_text(VENICE_SETUP)
    return path


def config_dict(tmp_path: Path, db_url: str, setup: Path | None = None, **game: Any) -> dict[str, Any]:
    """The tests' config: Maildirs in `tmp_path`, and with `setup` the Venice game venice1 at a week of
    deadlines (`game` overrides its keys)."""
    games = []
    if setup is not None:
        games.append({
            "name": "venice1", "ruleset": "venice", "setup": str(setup), "address": "gm@example.org",
            "schedule": {"timezone": "Europe/Rome",
                         "at": [f"2026-11-{22 + i}T17:15" for i in range(7)]},
            **game,
        })
    return maildir_config(tmp_path, db_url, games)


def make_app(tmp_path: Path, db_url: str, now: datetime, setup: Path | None = None, **game: Any) -> App:
    return open_app(config_dict(tmp_path, db_url, setup, **game), tmp_path, now)


WEEK = ('at = ["2026-11-22T17:15", "2026-11-23T17:15", "2026-11-24T17:15", "2026-11-25T17:15",\n'
        '      "2026-11-26T17:15", "2026-11-27T17:15", "2026-11-28T17:15"]')


def write_gm_config(folder: Path, *, schedule: str = WEEK, inbox: str = "var/mail/inbox",
                    outbox: str = "var/mail/outbox", daemon: str = "") -> Path:
    """A GM's maild.toml in `folder` (SQLite and Maildirs beside it) for the Venice game venice1 of
    VENICE_SETUP, as a GM would write it; for the tests that run maild as a command."""
    (folder / "setup.toml").write_text(VENICE_SETUP)
    config = folder / "maild.toml"
    config.write_text(f"""
[database]
url = "sqlite:///maild.db"
[mail.inbound]
kind = "maildir"
path = "{inbox}"
[mail.outbound]
kind = "maildir"
path = "{outbox}"
from = "gm@example.org"
[daemon]
{daemon}
[[games]]
name = "venice1"
ruleset = "venice"
setup = "setup.toml"
address = "gm@example.org"
[games.schedule]
timezone = "Europe/Rome"
{schedule}
""")
    return config


OpenInbox = Callable[..., ImapInbox]


@pytest.fixture
async def open_inbox() -> AsyncIterator[OpenInbox]:
    """Make ImapInbox objects for a Dovecot fixture with fast, deterministic backoff; closed at teardown."""
    made: list[ImapInbox] = []

    def make(server: Dovecot, user: str = "gm", **kwargs: Any) -> ImapInbox:
        kwargs.setdefault("backoff_initial", 0.05)
        kwargs.setdefault("rng", random.Random(7))
        kwargs.setdefault("timeout", 5.0)
        if server.tls is not None:
            kwargs.setdefault("ssl_context_factory", server.tls.client_context)
        inbox = ImapInbox(server.host, server.port, user, kwargs.pop("password", server.users[user]),
                          tls=server.tls is not None, **kwargs)
        made.append(inbox)
        return inbox

    yield make
    for inbox in made:
        await inbox.close()
