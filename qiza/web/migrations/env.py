"""Alembic environment: runs on the connection given by :func:`qiza.web.db.migrate`."""

from __future__ import annotations

from typing import Any

from alembic import context

from qiza.web.db import metadata


def _config() -> Any:
    try:
        return context.config
    except (AttributeError, NameError):  # imported outside Alembic (e.g. by a doctest collector)
        return None


def run() -> None:
    """Run the migrations on the connection passed in the config's attributes."""
    config = _config()
    connection = config.attributes.get("connection") if config is not None else None
    if connection is None:
        return
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


run()
