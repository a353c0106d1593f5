"""gm orders: payments, bulletins and amendments the GM gives a game

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "gm_orders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("order", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_gm_orders_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gm_orders")),
    )
    op.create_index("ix_gm_orders_game_turn", "gm_orders", ["game_id", "turn"])


def downgrade() -> None:
    op.drop_index("ix_gm_orders_game_turn", table_name="gm_orders")
    op.drop_table("gm_orders")
