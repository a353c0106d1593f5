"""Whether a database's schema is the newest, known without importing Alembic.

Every command checks the schema before it starts (`maild.db.upgrade`); Alembic and its migration scripts cost
a quarter of a second to import, for an answer that is nearly always "up to date". So the newest revision is
written down here, the `alembic_version` row is read with one plain query, and Alembic is only brought in when
the two differ (a new database, or one a newer maild left behind). tests/test_schema_version.py fails when a
migration is added and HEAD_REVISION is not moved with it.
"""

from __future__ import annotations

from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

#: The revision id of the newest migration in migrations/versions/.
HEAD_REVISION = "0016_orders_in_force"


def stored_revisions(engine: Engine) -> set[str] | None:
    """The revisions the database says it is at; None when it has no `alembic_version` table (a new database)."""
    try:
        with engine.connect() as conn:
            return {row[0] for row in conn.execute(text("SELECT version_num FROM alembic_version"))}
    except DBAPIError:
        return None  # no such table: Alembic creates it


def at_head(engine: Engine) -> bool:
    return stored_revisions(engine) == {HEAD_REVISION}
