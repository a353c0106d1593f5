"""bounds: inbound mails count intake attempts (poison mail) and keep a digest (duplicates by bytes)

Revision ID: 0003_bounds
Revises: 0002
"""

import hashlib
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_bounds"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 200  # rows whose raw bytes are read at once while filling in digests


def upgrade() -> None:
    with op.batch_alter_table("inbound_mails") as batch:
        batch.add_column(sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("digest", sa.String(64), nullable=True))
    # Mails stored before this revision get their digest too, so a copy of one arriving later is known.
    mails = sa.table("inbound_mails", sa.column("id", sa.Integer), sa.column("raw", sa.LargeBinary),
                     sa.column("digest", sa.String))
    conn = op.get_bind()
    last = 0
    while True:
        rows = conn.execute(sa.select(mails.c.id, mails.c.raw).where(mails.c.id > last)
                            .order_by(mails.c.id).limit(_BATCH)).all()
        if not rows:
            break
        conn.execute(mails.update().where(mails.c.id == sa.bindparam("row_id")).values(digest=sa.bindparam("d")),
                     [{"row_id": r.id, "d": hashlib.sha256(bytes(r.raw)).hexdigest()} for r in rows])
        last = rows[-1].id


def downgrade() -> None:
    with op.batch_alter_table("inbound_mails") as batch:
        batch.drop_column("digest")
        batch.drop_column("attempts")
