"""gm_orders.withdrawn_at: a GM order withdrawn with `maild gm withdraw` stays listed, with when

Revision ID: 0005_gm_orders
Revises: 0004_replies
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_gm_orders"
down_revision: str | None = "0004_replies"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("gm_orders") as batch:
        batch.add_column(sa.Column("withdrawn_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("gm_orders") as batch:
        batch.drop_column("withdrawn_at")
