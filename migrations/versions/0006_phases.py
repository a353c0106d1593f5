"""phases: turns of several phases (each with its deadline, seed and state after it), order sets per phase

Revision ID: 0006_phases
Revises: 0004_replies
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_phases"
down_revision: str | None = "0005_gm_orders"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "turn_phases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(50), nullable=False),
        sa.Column("extra", sa.Boolean(), nullable=False),
        sa.Column("closes_early", sa.Boolean(), nullable=False),
        sa.Column("must_send", sa.JSON(), nullable=True),
        sa.Column("deadline", sa.DateTime(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("opened_at", sa.DateTime(), nullable=False),
        sa.Column("processed_at", sa.DateTime(), nullable=True),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_turn_phases_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turn_phases")),
        sa.UniqueConstraint("game_id", "turn", "name", name="uq_turn_phases_game_turn_name"),
        sa.UniqueConstraint("game_id", "turn", "position", name="uq_turn_phases_game_turn_position"),
    )
    op.create_index("ix_turn_phases_status", "turn_phases", ["status"])
    with op.batch_alter_table("order_sets") as batch:
        batch.add_column(sa.Column("phase", sa.String(50), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("order_sets") as batch:
        batch.drop_column("phase")
    op.drop_index("ix_turn_phases_status", table_name="turn_phases")
    op.drop_table("turn_phases")
