"""Who may run a daemon: one per SQLite database (a lock file), any number on PostgreSQL, each under a lease of
its own (maild/lease.py, maild/shares.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from maild.db import Database
from maild.lease import SERVER_NOW
from maild.lock import AlreadyRunning, single_daemon


def test_a_second_daemon_on_the_same_sqlite_database_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'maild.db'}"
    first, second = Database(url), Database(url)
    try:
        with single_daemon(first):
            with pytest.raises(AlreadyRunning, match="another maild daemon is running"):
                with single_daemon(second):
                    pass
        # Released when the first one ends: the next start succeeds.
        with single_daemon(second):
            pass
    finally:
        first.close()
        second.close()


@pytest.mark.postgres
def test_daemons_on_one_postgresql_database_start_side_by_side_each_under_its_own_lease(pg_url: str) -> None:
    first, second = Database(pg_url), Database(pg_url)
    try:
        with single_daemon(first) as one, single_daemon(second) as two:
            assert one is not None and two is not None
            assert one.holder != two.holder and one.name != two.name and one.name.startswith("daemon:")
            with first.engine.connect() as conn:
                live = set(conn.execute(text(f"SELECT name FROM leases WHERE expires_at > {SERVER_NOW}")).scalars())
            assert live == {one.name, two.name}
        with first.engine.connect() as conn:  # both released on a clean exit
            assert not conn.execute(text(f"SELECT count(*) FROM leases WHERE expires_at > {SERVER_NOW}")).scalar()
    finally:
        first.close()
        second.close()
