"""Games and applied request ids.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the games and requests tables."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("save", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("computer_to_move", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("games_waiting", "games", ["computer_to_move", "status"])
    op.create_index("games_updated", "games", ["updated_at"])
    op.create_table(
        "requests",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("request_id", sa.String(80), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    """Drop the tables."""
    op.drop_table("requests")
    op.drop_table("games")
