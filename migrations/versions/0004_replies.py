"""replies: every answer given or held back, for the reply caps, refusal batching and the loop guard

Revision ID: 0004_replies
Revises: 0003_bounds
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_replies"
down_revision: str | None = "0003_bounds"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "replies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("kind", sa.String(30), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("mail_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("message_id", sa.String(300), nullable=True),
        sa.Column("echo", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_replies_game_id_games")),
        sa.ForeignKeyConstraint(["mail_id"], ["inbound_mails.id"], name=op.f("fk_replies_mail_id_inbound_mails")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_replies")),
    )
    op.create_index("ix_replies_address_created", "replies", ["address", "created_at"])
    op.create_index("ix_replies_kind_created", "replies", ["kind", "created_at"])
    op.create_index(op.f("ix_replies_status"), "replies", ["status"])
    op.create_index(op.f("ix_replies_message_id"), "replies", ["message_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_replies_message_id"), table_name="replies")
    op.drop_index(op.f("ix_replies_status"), table_name="replies")
    op.drop_index("ix_replies_kind_created", table_name="replies")
    op.drop_index("ix_replies_address_created", table_name="replies")
    op.drop_table("replies")
