"""When a server process last ran, so that the clocks do not run while every server is down.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create heartbeats."""
    op.create_table(
        "heartbeats",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop heartbeats."""
    op.drop_table("heartbeats")
