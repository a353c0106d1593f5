"""What a season without the GM watching needs: the daemon's lease (PostgreSQL), recorded password failures,
recorded bounces, and the index that recognises a re-delivered mail by its bytes.

Revision ID: 0008_unwatched
Revises: 0007_signups
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_unwatched"
down_revision: str | None = "0007_signups"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("holder", sa.String(200), nullable=False),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.Column("acquired_at", sa.DateTime(), nullable=False),
        sa.Column("renewed_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_leases")),
    )
    op.create_table(
        "password_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("mail_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_password_failures_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_password_failures_player_id_players")),
        sa.ForeignKeyConstraint(["mail_id"], ["inbound_mails.id"],
                                name=op.f("fk_password_failures_mail_id_inbound_mails")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_password_failures")),
    )
    op.create_index("ix_password_failures_player_created", "password_failures", ["player_id", "created_at"])
    op.create_table(
        "bounces",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("outbound_id", sa.Integer(), nullable=True),
        sa.Column("mail_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["outbound_id"], ["outbound_mails.id"],
                                name=op.f("fk_bounces_outbound_id_outbound_mails")),
        sa.ForeignKeyConstraint(["mail_id"], ["inbound_mails.id"], name=op.f("fk_bounces_mail_id_inbound_mails")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_bounces_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_bounces_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bounces")),
    )
    op.create_index("ix_bounces_address_created", "bounces", ["address", "created_at"])
    op.create_index("ix_bounces_game_player", "bounces", ["game_id", "player_id"])
    op.create_index("ix_inbound_mails_digest", "inbound_mails", ["digest"])


def downgrade() -> None:
    op.drop_index("ix_inbound_mails_digest", table_name="inbound_mails")
    op.drop_index("ix_bounces_game_player", table_name="bounces")
    op.drop_index("ix_bounces_address_created", table_name="bounces")
    op.drop_table("bounces")
    op.drop_index("ix_password_failures_player_created", table_name="password_failures")
    op.drop_table("password_failures")
    op.drop_table("leases")
