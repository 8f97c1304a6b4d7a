"""Rack order kept apart from the game, and the version of the last game action.

A player's rack order is private and is no change to the game, so it moves to its own
table (one row per game and seat) and no longer changes the game's version. ``moved_version``
is the version made by the last action that changed the game itself (a move, a challenge,
a resignation); an action made against any version from there on is still current, so a
join, a seat given to the computer or a new invite link does not make other players'
pending actions stale.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add games.moved_version (the current version for stored games) and rack_orders."""
    op.add_column("games", sa.Column("moved_version", sa.Integer, nullable=True))
    op.execute("UPDATE games SET moved_version = version")
    op.create_table(
        "rack_orders",
        sa.Column("game_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("rack_order", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop rack_orders and games.moved_version."""
    op.drop_table("rack_orders")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("moved_version")
