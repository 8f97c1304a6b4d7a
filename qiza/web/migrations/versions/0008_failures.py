"""Failed checks that protect secrets (wrong passwords, seat-token and invite guesses), counted
in the database so that their limits hold across server processes (qiza.web.throttle).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create failures."""
    op.create_table(
        "failures",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("attempts", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("full_at", sa.Float, nullable=False, index=True),
    )


def downgrade() -> None:
    """Drop failures."""
    op.drop_table("failures")
