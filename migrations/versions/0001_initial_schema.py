"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22 04:59:53.824411
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("ruleset", sa.String(length=50), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("name", name=op.f("uq_games_name")),
    )
    op.create_table(
        "outbound_mails",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("message_id", sa.String(length=300), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("sender", sa.String(length=320), nullable=False),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_outbound_mails_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbound_mails")),
        sa.UniqueConstraint("key", name=op.f("uq_outbound_mails_key")),
        sa.UniqueConstraint("message_id", name=op.f("uq_outbound_mails_message_id")),
    )
    with op.batch_alter_table("outbound_mails", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_outbound_mails_status"), ["status"], unique=False)

    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("password", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_players_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("game_id", "email", name="uq_players_game_email"),
        sa.UniqueConstraint("game_id", "name", name="uq_players_game_name"),
    )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_players_game_id"), ["game_id"], unique=False)

    op.create_table(
        "snapshots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_snapshots_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_snapshots")),
        sa.UniqueConstraint("game_id", "turn", name="uq_snapshots_game_turn"),
    )
    op.create_table(
        "turns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("processed_at", sa.DateTime(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_turns_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turns")),
        sa.UniqueConstraint("game_id", "number", name="uq_turns_game_number"),
    )
    op.create_table(
        "inbound_mails",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=300), nullable=False),
        sa.Column("uidvalidity", sa.BigInteger(), nullable=False),
        sa.Column("uid", sa.String(length=300), nullable=False),
        sa.Column("message_id", sa.String(length=998), nullable=True),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("received_at", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(length=30), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("sender", sa.String(length=320), nullable=True),
        sa.Column("subject", sa.Text(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_inbound_mails_game_id_games")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_inbound_mails_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbound_mails")),
        sa.UniqueConstraint("source", "uidvalidity", "uid", name="uq_inbound_source_uid"),
    )
    with op.batch_alter_table("inbound_mails", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inbound_mails_message_id"), ["message_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_inbound_mails_status"), ["status"], unique=False)

    op.create_table(
        "order_sets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("mail_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("orders", sa.JSON(), nullable=False),
        sa.Column("diagnostics", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_order_sets_game_id_games")),
        sa.ForeignKeyConstraint(
            ["mail_id"], ["inbound_mails.id"], name=op.f("fk_order_sets_mail_id_inbound_mails")
        ),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_order_sets_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_order_sets")),
        sa.UniqueConstraint("mail_id", name=op.f("uq_order_sets_mail_id")),
    )
    with op.batch_alter_table("order_sets", schema=None) as batch_op:
        batch_op.create_index("ix_order_sets_game_turn", ["game_id", "turn", "player_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("order_sets", schema=None) as batch_op:
        batch_op.drop_index("ix_order_sets_game_turn")

    op.drop_table("order_sets")
    with op.batch_alter_table("inbound_mails", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_inbound_mails_status"))
        batch_op.drop_index(batch_op.f("ix_inbound_mails_message_id"))

    op.drop_table("inbound_mails")
    op.drop_table("turns")
    op.drop_table("snapshots")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_players_game_id"))

    op.drop_table("players")
    with op.batch_alter_table("outbound_mails", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbound_mails_status"))

    op.drop_table("outbound_mails")
    op.drop_table("games")
