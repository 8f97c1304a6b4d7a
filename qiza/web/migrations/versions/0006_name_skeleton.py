"""Account names' look-alike form (qiza.web.names.skeleton): a new name that looks like a taken one
is refused.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add users.name_skeleton (indexed, not unique: accounts made before may look alike) and
    fill it for every account."""

    def skeleton(name: str) -> str:  # qiza.web.names.skeleton as of this revision (frozen here)
        frozen = {"0": "O", "1": "l", "I": "l", "m": "rn"}
        return "".join(frozen.get(ch, ch) for ch in unicodedata.normalize("NFKC", name)).casefold()

    op.add_column("users", sa.Column("name_skeleton", sa.String(80), nullable=True))
    op.create_index("users_name_skeleton", "users", ["name_skeleton"])
    users = sa.table("users", sa.column("id", sa.String), sa.column("name", sa.String),
                     sa.column("name_skeleton", sa.String))
    connection = op.get_bind()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.name)).all():
        connection.execute(sa.update(users).where(users.c.id == user_id).values(name_skeleton=skeleton(name)))


def downgrade() -> None:
    """Drop users.name_skeleton."""
    op.drop_index("users_name_skeleton", "users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")
