"""Each player's own time zone (`TIMEZONE` by mail) and the SEQUENCE of each game's calendar file (docs/season.md,
"Time zones and calendars").

Revision ID: 0013_time_zones
Revises: 0012_pause_extend
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_time_zones"
down_revision: str | None = "0012_pause_extend"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("timezone", sa.String(64), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("calendar_sequence", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("calendar_sequence")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("timezone")
