"""Press relayed by the game's address: each relayed mail's Message-ID, its author and its recipient, so a reply
goes back to the author through the relay (docs/season.md, "Press").

Revision ID: 0011_press
Revises: 0010_season_ladder
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_press"
down_revision: str | None = "0010_season_ladder"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "press_relays",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(300), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=False),
        sa.Column("recipient_id", sa.Integer(), nullable=False),
        sa.Column("mail_id", sa.Integer(), nullable=True),
        sa.Column("grey", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_press_relays_game_id_games")),
        sa.ForeignKeyConstraint(["author_id"], ["players.id"], name=op.f("fk_press_relays_author_id_players")),
        sa.ForeignKeyConstraint(["recipient_id"], ["players.id"],
                                name=op.f("fk_press_relays_recipient_id_players")),
        sa.ForeignKeyConstraint(["mail_id"], ["inbound_mails.id"],
                                name=op.f("fk_press_relays_mail_id_inbound_mails")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_press_relays")),
    )
    op.create_index("ix_press_relays_game_message", "press_relays", ["game_id", "message_id"])


def downgrade() -> None:
    op.drop_index("ix_press_relays_game_message", table_name="press_relays")
    op.drop_table("press_relays")
