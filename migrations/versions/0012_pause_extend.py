"""Pause and extend (docs/season.md, "Pause and extend"): when a game was paused, and each turn's extension of the
deadline its config gives.

Revision ID: 0012_pause_extend
Revises: 0011_press
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_pause_extend"
down_revision: str | None = "0011_press"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("paused_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("turns") as batch:
        batch.add_column(sa.Column("extended_by", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("extended_phase", sa.String(50), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("extended_phase")
        batch.drop_column("extended_by")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("paused_at")
