"""players.joined_at: when a player signed up by mail (what limits.signups_per_day counts)

Revision ID: 0007_signups
Revises: 0006_phases
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_signups"
down_revision: str | None = "0006_phases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("joined_at", sa.DateTime(), nullable=True))
    op.create_index("ix_players_game_joined", "players", ["game_id", "joined_at"])


def downgrade() -> None:
    op.drop_index("ix_players_game_joined", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("joined_at")
