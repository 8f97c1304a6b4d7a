"""The PostgreSQL database of the tests that need one: a schema of this test process's own.

``QIZA_TEST_POSTGRES_URL`` (set by ``.ci/web-services.sh``; default the loopback ``qiza_test``
database) names the database. Each test process makes a schema of its own in it at the first
:func:`url` and drops it at exit, and the URL it gives puts that schema first on the search path:
the tables and migrations of two test runs at once (two checkouts of different versions, or a run
beside a developer's) never meet. Before, every run shared the database's public schema, so a
checkout whose migrations were older than the schema's stopped with alembic's "Can't locate
revision" (seen with two branches tested on one machine).
"""

from __future__ import annotations

import atexit
import os
import secrets

BASE_URL = os.environ.get("QIZA_TEST_POSTGRES_URL", "postgresql://qiza:qiza@127.0.0.1:5432/qiza_test")
_MADE: dict[str, str] = {}


def unreachable() -> str | None:
    """Why the tests cannot use PostgreSQL (None when they can: the driver and the server are there)."""
    try:
        import psycopg

        with psycopg.connect(BASE_URL, connect_timeout=3):
            return None
    except Exception as exc:  # noqa: BLE001 - any failure means: skip
        return f"PostgreSQL is not reachable at {BASE_URL} ({exc.__class__.__name__}); run .ci/web-services.sh"


def url() -> str:
    """The database's URL with this process's own schema first on the search path (made at the
    first call, dropped when the process ends)."""
    if "url" not in _MADE:
        import psycopg

        schema = f"qiza_test_{os.getpid()}_{secrets.token_hex(4)}"
        with psycopg.connect(BASE_URL, connect_timeout=3, autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{schema}"')
        atexit.register(_drop, schema)
        _MADE["url"] = f"{BASE_URL}{'&' if '?' in BASE_URL else '?'}options=-csearch_path%3D{schema}"
    return _MADE["url"]


def _drop(schema: str) -> None:
    try:
        import psycopg

        with psycopg.connect(BASE_URL, connect_timeout=3, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    except Exception:  # noqa: BLE001 - the server may be gone at exit: the schema stays, harmless
        pass
