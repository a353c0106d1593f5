"""Real database faults for tests (no tests here): a SQLite file that may not grow (SQLITE_FULL, as on a full
disk)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from maild.db import Database


class FullDisk:
    """The SQLite database of `db` may not grow past its present size: `max_page_count`, set on every connection
    `db` opens, makes SQLite fail a write that needs a new page with SQLITE_FULL, as a full disk does."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.limit: int | None = None
        event.listen(db.engine, "connect", self._limit)

    def _limit(self, dbapi_conn: Any, _record: Any) -> None:
        if self.limit is not None:
            dbapi_conn.execute(f"PRAGMA max_page_count = {self.limit}")

    def fill(self) -> None:
        """No room left: the file's free pages are used up by a table of filler, and it may not grow."""
        with self.db.session() as s:
            s.execute(sa.text("CREATE TABLE IF NOT EXISTS filler (x BLOB)"))
            self.limit = s.execute(sa.text("PRAGMA page_count")).scalar()
        self.db.engine.dispose()  # the pooled connections take the limit as they open again
        for _ in range(10_000):
            try:
                with self.db.session() as s:
                    s.execute(sa.text("INSERT INTO filler VALUES (randomblob(2000))"))
            except sa.exc.OperationalError as exc:
                assert "full" in str(exc), exc
                return
        raise AssertionError("the database never filled up")

    def lift(self) -> None:
        self.limit = 1_073_741_823
        self.db.engine.dispose()
