"""When players fall silent: the missed-orders ladder's standings, the graces given at deadlines, declared
absences (maild/ladder.py, maild/grace.py, maild/absences.py).

Revision ID: 0010_season_ladder
Revises: 0009_password_hashes
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_season_ladder"
down_revision: str | None = "0009_password_hashes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "standings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("missed", sa.Integer(), nullable=False),
        sa.Column("step", sa.String(20), nullable=False),
        sa.Column("step_turn", sa.Integer(), nullable=True),
        sa.Column("open_to_substitute", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_standings_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_standings_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_standings")),
        sa.UniqueConstraint("player_id", name="uq_standings_player"),
    )
    op.create_index(op.f("ix_standings_game_id"), "standings", ["game_id"])
    op.create_table(
        "graces",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(50), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=False),
        sa.Column("until", sa.DateTime(), nullable=False),
        sa.Column("late", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_graces_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_graces")),
        sa.UniqueConstraint("game_id", "turn", "phase", "kind", name="uq_graces_game_turn_phase_kind"),
    )
    op.create_table(
        "absences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("starts", sa.Date(), nullable=False),
        sa.Column("ends", sa.Date(), nullable=False),
        sa.Column("declared_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_absences_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_absences_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_absences")),
    )
    op.create_index("ix_absences_game_player", "absences", ["game_id", "player_id"])


def downgrade() -> None:
    op.drop_index("ix_absences_game_player", table_name="absences")
    op.drop_table("absences")
    op.drop_table("graces")
    op.drop_index(op.f("ix_standings_game_id"), table_name="standings")
    op.drop_table("standings")
