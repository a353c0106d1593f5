"""Claims for several daemons on one PostgreSQL database (issue 27): an outbound mail claimed by the daemon
that sends it (`claimed_by`, `claim_until`, maild/outbox.py), and each inbound mail's sender as intake claims
it (`sender_key`, maild/intake/claims.py), filled here for the mails still waiting for intake.

Revision ID: 0015_outbox_claims
Revises: 0014_substitutes
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from maild.intake.senders import sender_key

revision: str = "0015_outbox_claims"
down_revision: str | None = "0014_substitutes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbound_mails") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(200), nullable=True))
        batch.add_column(sa.Column("claim_until", sa.DateTime(), nullable=True))
    with op.batch_alter_table("inbound_mails") as batch:
        batch.add_column(sa.Column("sender_key", sa.String(320), nullable=True))
    # Only the mails intake has still to read are looked up by sender (the earliest one of each).
    op.create_index("ix_inbound_new_sender", "inbound_mails", ["sender_key", "id"],
                    postgresql_where=sa.text("status = 'new'"), sqlite_where=sa.text("status = 'new'"))
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, raw FROM inbound_mails WHERE status = 'new'")).all()
    keys = [{"mid": row.id, "key": sender_key(bytes(row.raw))} for row in rows]
    keys = [k for k in keys if k["key"] is not None]
    if keys:
        conn.execute(sa.text("UPDATE inbound_mails SET sender_key = :key WHERE id = :mid"), keys)


def downgrade() -> None:
    op.drop_index("ix_inbound_new_sender", table_name="inbound_mails")
    with op.batch_alter_table("inbound_mails") as batch:
        batch.drop_column("sender_key")
    with op.batch_alter_table("outbound_mails") as batch:
        batch.drop_column("claim_until")
        batch.drop_column("claimed_by")
