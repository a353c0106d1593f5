"""Each player's orders in force stored as a running result (issue 27): intake checks a mail against it instead
of reading his whole book (maild/inforce.py, maild/intake/books.py). Filled here for every unfinished game's open
turn, so that a database upgraded mid-season reads no book at its first pass. And an index that lets the reply
caps count an address's answers without reading their rows.

Revision ID: 0016_orders_in_force
Revises: 0015_outbox_claims
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from maild.games import ruleset_named
from maild.inforce import rebuild

revision: str = "0016_orders_in_force"
down_revision: str | None = "0015_outbox_claims"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "orders_in_force",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("turn", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("phase", sa.String(50), primary_key=True),
        sa.Column("sets", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    # The reply caps' counts, read from the index alone (a season's answers to an address no longer looked up
    # row by row for their status).
    op.create_index("ix_replies_address_status_created", "replies", ["address", "status", "created_at"])
    # The book is read once more, here, for the open turns: by game, turn and status (accepted), in receipt order.
    conn = op.get_bind()
    games = conn.execute(sa.text("SELECT id, ruleset, turn FROM games WHERE NOT finished ORDER BY id")).all()
    for game_id, ruleset, turn in games:
        names = dict(conn.execute(sa.text("SELECT id, name FROM players WHERE game_id = :g"), {"g": game_id}).all())
        try:
            rules = ruleset_named(ruleset)
        except Exception:  # a ruleset not installed here: its results are rebuilt when its mail comes
            continue
        rebuild(conn, rules, game_id, turn, names)


def downgrade() -> None:
    op.drop_index("ix_replies_address_status_created", table_name="replies")
    op.drop_table("orders_in_force")
