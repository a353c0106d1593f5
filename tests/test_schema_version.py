"""The newest migration's id that maild knows without importing Alembic (maild/schema_version.py) is Alembic's
own head: a migration added without moving HEAD_REVISION fails here, not as a database never upgraded."""

from __future__ import annotations

from pathlib import Path

from alembic.script import ScriptDirectory

from maild.db import Database, alembic_config, upgrade
from maild.schema_version import HEAD_REVISION, at_head, stored_revisions


def test_head_revision_is_alembics_head(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'maild.db'}")
    try:
        assert ScriptDirectory.from_config(alembic_config(db.engine)).get_heads() == [HEAD_REVISION]
    finally:
        db.close()


def test_a_new_database_is_not_at_head_until_upgraded(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'maild.db'}")
    try:
        assert stored_revisions(db.engine) is None and not at_head(db.engine)
        upgrade(db.engine)
        assert stored_revisions(db.engine) == {HEAD_REVISION} and at_head(db.engine)
    finally:
        db.close()


def test_an_older_schema_is_upgraded(tmp_path: Path) -> None:
    from alembic import command

    db = Database(f"sqlite:///{tmp_path / 'maild.db'}")
    try:
        command.upgrade(alembic_config(db.engine), "0013_time_zones")
        assert stored_revisions(db.engine) == {"0013_time_zones"} and not at_head(db.engine)
        upgrade(db.engine)
        assert at_head(db.engine)
    finally:
        db.close()
