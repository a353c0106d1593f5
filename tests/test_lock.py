"""One daemon per database, on SQLite (a lock file) and PostgreSQL (an advisory lock)."""

from __future__ import annotations

import pytest

from maild.db import Database
from maild.lock import AlreadyRunning, single_daemon


def test_a_second_daemon_on_the_same_database_is_refused(db_url: str) -> None:
    first, second = Database(db_url), Database(db_url)
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
