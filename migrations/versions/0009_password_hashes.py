"""Players' passwords as argon2 hashes: in players.password, and in the game states (snapshots, the states after
phases) that rulesets keep them in, so the database holds no password as text (maild/passwords.py).

A value that is an argon2 hash already is left alone, so the migration can meet rows written by newer code. In
a state, every string under a key "password" is a password (every ruleset of maild keeps them so); one game's
same text gets the same hash in its player row and in all its states, so a turn re-run from an old snapshot
still gives the stored result.

Revision ID: 0009_password_hashes
Revises: 0008_unwatched
"""

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from maild.passwords import hash_password, is_hash

revision: str = "0009_password_hashes"
down_revision: str | None = "0008_unwatched"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_players = sa.table("players", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer),
                    sa.column("password", sa.String))
_states = [sa.table(name, sa.column("id", sa.Integer), sa.column("game_id", sa.Integer),
                    sa.column("state", sa.JSON)) for name in ("snapshots", "turn_phases")]


def upgrade() -> None:
    conn = op.get_bind()
    hashes: dict[tuple[int, str], str] = {}

    def hashed(game_id: int, plain: str) -> str:
        if (game_id, plain) not in hashes:
            hashes[game_id, plain] = hash_password(plain)
        return hashes[game_id, plain]

    for row in conn.execute(sa.select(_players).where(_players.c.password.is_not(None))).all():
        if not is_hash(row.password):
            conn.execute(_players.update().where(_players.c.id == row.id)
                         .values(password=hashed(row.game_id, row.password)))
    for table in _states:
        for row in conn.execute(sa.select(table.c.id, table.c.game_id).where(table.c.state.is_not(None))).all():
            # One state at a time: a big game's snapshots together would not fit in memory.
            state = conn.execute(sa.select(table.c.state).where(table.c.id == row.id)).scalar_one()
            new, changed = _hash_passwords(state, lambda plain, game_id=row.game_id: hashed(game_id, plain))
            if changed:
                conn.execute(table.update().where(table.c.id == row.id).values(state=new))


def _hash_passwords(value: Any, hashed: Callable[[str], str]) -> tuple[Any, bool]:
    """`value` with every text under a "password" key hashed, and whether anything was."""
    if isinstance(value, dict):
        out, changed = {}, False
        for key, item in value.items():
            if key == "password" and isinstance(item, str) and not is_hash(item):
                out[key], changed = hashed(item), True
            else:
                out[key], sub = _hash_passwords(item, hashed)
                changed = changed or sub
        return out, changed
    if isinstance(value, list):
        items = [_hash_passwords(item, hashed) for item in value]
        return [item for item, _ in items], any(sub for _, sub in items)
    return value, False


def downgrade() -> None:
    # A hash cannot be turned back into its text: the hashes stay, and code older than this migration would
    # compare them with the passwords players give, refusing everyone. Give players new passwords after it.
    pass
