"""Substitutes (issue 26): a player's position open to a substitute, the standby list and handovers, and the
seconds a handover moved a turn's deadline on.

Revision ID: 0014_substitutes
Revises: 0013_time_zones
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_substitutes"
down_revision: str | None = "0013_time_zones"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("open_to_substitute_at", sa.DateTime(), nullable=True))
    op.create_table(
        "substitutes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("player", sa.String(100), nullable=True),
        sa.Column("previous_email", sa.String(320), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("took_over_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_substitutes_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_substitutes")),
    )
    op.create_index("ix_substitutes_game_status", "substitutes", ["game_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_substitutes_game_status", table_name="substitutes")
    op.drop_table("substitutes")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("open_to_substitute_at")
