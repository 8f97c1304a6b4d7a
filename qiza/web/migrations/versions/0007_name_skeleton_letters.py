"""Account names' look-alike form also joins letters that run together (cl/d, vv/w, VV/W), and
the letters case folding makes (D to d): the stored forms are made again.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

#: qiza.web.names.CONFUSABLE as of this revision and of the one before (frozen here)
NOW = {"0": "O", "1": "l", "I": "l", "m": "rn", "d": "cl", "w": "vv", "W": "VV"}
BEFORE = {"0": "O", "1": "l", "I": "l", "m": "rn"}


def _refill(table: dict[str, str], again: bool) -> None:
    """Store every account's look-alike form made with ``table`` (``again``: replaced again
    once case folded, as revision 0007 does)."""
    users = sa.table("users", sa.column("id", sa.String), sa.column("name", sa.String),
                     sa.column("name_skeleton", sa.String))
    connection = op.get_bind()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.name)).all():
        look = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFKC", name)).casefold()
        look = "".join(table.get(ch, ch) for ch in look) if again else look
        connection.execute(sa.update(users).where(users.c.id == user_id).values(name_skeleton=look))


def upgrade() -> None:
    """Every account's look-alike form with the letters that run together."""
    _refill(NOW, again=True)


def downgrade() -> None:
    """Every account's look-alike form as revision 0006 made it."""
    _refill(BEFORE, again=False)
