"""When a seek's player last had the lobby open (an open seek lapses when they left).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add seeks.seen_at."""
    op.add_column("seeks", sa.Column("seen_at", sa.Float, nullable=True))


def downgrade() -> None:
    """Drop seeks.seen_at."""
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("seen_at")
