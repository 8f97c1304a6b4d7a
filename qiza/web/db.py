"""Persistence of web games: one row per game holding qiza saved-game data.

A row keeps the :mod:`qiza.savefile` data (settings, seed and every action), the seats
(names, hashed secret seat tokens, computer levels) and a version counter that goes up by
one with every change. Writes are compare-and-swap on the version, so two processes (or
two requests) can never both apply a turn to the same version of a game. ``moved_version``
is the version made by the last change to the game itself (a move, a challenge, a
resignation); changes around it (a join, a seat given to the computer, a new invite) do
not move it.

A player's rack order is private presentation, not part of the game: it lives in its own
table (:meth:`Store.set_rack_order`) and changes no version.

SQLite (the default, a file in the user's data directory) and PostgreSQL are supported;
the schema is created and upgraded by Alembic migrations (:func:`migrate`) at startup.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

from qiza.paths import user_data_dir

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(40), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("save", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("computer_to_move", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("moved_version", Integer, nullable=True),
    Column("deadline", Float, nullable=True),  # when the player to move loses on time (games with a clock)
)

rack_orders = Table(
    "rack_orders", metadata,
    Column("game_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("rack_order", String(40), nullable=False),
    Column("updated_at", Float, nullable=False),
)

requests = Table(
    "requests", metadata,
    Column("game_id", String(40), primary_key=True),
    Column("request_id", String(80), primary_key=True),
    Column("version", Integer, nullable=False),
)

# -- the club (see qiza.web.accounts, ratings, seeks, chat) -------------------------------------
users = Table(
    "users", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(40), nullable=False, unique=True),  # the name folded to lower case
    Column("name_skeleton", String(80), nullable=True),  # its look-alike form (qiza.web.names)
    Column("password_hash", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

sessions = Table(
    "sessions", metadata,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the cookie's secret
    Column("user_id", String(32), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

ratings = Table(
    "ratings", metadata,
    Column("user_id", String(32), primary_key=True),
    Column("variant", String(60), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

game_players = Table(
    "game_players", metadata,
    Column("game_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", String(32), nullable=False, index=True),  # ix_game_players_user_id (migration 0003)
    Column("created_at", Float, nullable=False),
)

seeks = Table(
    "seeks", metadata,
    Column("id", String(40), primary_key=True),
    Column("user_id", String(32), nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("game_id", String(40), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=True),  # when its player last had the lobby open (qiza.web.seeks)
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(40), nullable=False),
    Column("channel", String(16), nullable=False),
    Column("author", String(40), nullable=False),
    Column("user_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("text", String(500), nullable=False),
    Column("created_at", Float, nullable=False),
)
# when a server process last showed it was running (qiza.web.game_clocks): the clocks do not run
# while every server process is down
heartbeats = Table(
    "heartbeats", metadata,
    Column("id", String(16), primary_key=True),
    Column("at", Float, nullable=False),
)

# buckets of failed checks that protect secrets (qiza.web.throttle.StoredThrottle): a row while
# its bucket is not full again, by the SHA-256 of the throttle's name and key
failures = Table(
    "failures", metadata,
    Column("key", String(64), primary_key=True),
    Column("attempts", Float, nullable=False),  # attempts left at `at`
    Column("at", Float, nullable=False),
    Column("full_at", Float, nullable=False),  # when the bucket is full again (the row may go then)
)

MIGRATIONS = Path(__file__).with_name("migrations")


def default_database_url() -> str:
    """SQLite file in the user's data folder (:func:`qiza.paths.user_data_dir`, ``web.sqlite3``)."""
    folder = user_data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'web.sqlite3'}"


def normalise_url(url: str) -> str:
    """Use psycopg 3 for ``postgresql://`` URLs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (SQLite in WAL mode with a busy timeout, or PostgreSQL).

    SQLite: Python's ``sqlite3`` module opens a transaction only before its first
    INSERT/UPDATE/DELETE, so a SAVEPOINT made earlier opens one of its own, and releasing it
    commits it: a request record guarded by a savepoint was committed apart from the game
    update it guards. Here the driver opens no transaction itself; every SQLAlchemy
    transaction starts with an explicit ``BEGIN``, and savepoints nest inside it, so a
    transaction commits (or rolls back) as one, as on PostgreSQL."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # the driver emits no BEGIN or COMMIT of its own
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # FULL: each commit reaches the disk before the player is told (with NORMAL, WAL's
            # commits are safe from a killed process but the last ones may roll back after a power
            # cut or a system crash: a move answered 200 would be gone); about 0.3 ms a commit here
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Any) -> None:
            # a transaction that writes takes the write lock at once (waiting for it up to the
            # busy timeout): one that read first and wrote later would fail at once when another
            # writer came in between, where SQLite cannot wait
            write = connection.get_execution_options().get("qiza_write")
            connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine
    # a database that does not answer is given up on after a few seconds (never waited on forever)
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True, pool_timeout=10,
                         connect_args={"connect_timeout": 5})


def migrate(engine: Engine) -> None:
    """Bring the schema up to date with the Alembic migrations (safe with several processes)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        # SQLite: the write lock from the start (BEGIN IMMEDIATE), so a second server starting
        # at once waits for this one's tables (with a plain BEGIN it read the schema, the other
        # wrote, and its first write failed at once: "database is locked")
        connection.execution_options(qiza_write=True)
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(715253)"))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")


@dataclass
class GameRow:
    """One stored game."""

    id: str
    version: int
    save: dict[str, Any]
    seats: list[dict[str, Any]]
    settings: dict[str, Any]
    status: str
    computer_to_move: bool
    moved_version: int | None = None
    deadline: float | None = None
    """When the player to move loses on time (the game has a clock and is not over), else ``None``."""

    @property
    def moved(self) -> int:
        """The version made by the last change to the game itself (moves, challenges, resignation)."""
        return self.version if self.moved_version is None else self.moved_version


class Duplicate(Exception):
    """A request id already applied to this game."""


@contextmanager
def _committed(connection: Any) -> Iterator[Any]:
    """A transaction of ``connection``: committed when the block ends, rolled back if it raises.
    A database server's error raised by the commit itself is marked (``at_commit``): the server
    may have stored the change before the connection was lost, so no answer may say that
    nothing changed (:func:`qiza.web.errors.database_error`). SQLite's commit is all or
    nothing in this process: a failed one changed nothing."""
    block_done = False
    try:
        with connection.begin():
            yield connection
            block_done = True
    except DBAPIError as exc:
        if block_done and connection.dialect.name != "sqlite":
            exc.at_commit = True  # type: ignore[attr-defined]
        raise


class Store:
    """Reads and compare-and-swap writes of game rows."""

    def __init__(self, url: str, *, now: Callable[[], float] = time.time) -> None:
        self.url = normalise_url(url)
        #: the time source of the times this store writes (``games.updated_at``...): the app's
        #: clock (:func:`qiza.web.app.create_app` passes its ``now``), which the pages and the
        #: sweeps compare them with
        self.now = now
        self.engine = make_engine(self.url)
        migrate(self.engine)
        self.check_writable()

    def check_writable(self) -> None:
        """Raise the driver's error now if this database may be read but not written (a
        read-only file, folder or account): a schema already up to date writes nothing as it is
        opened, and the first write came as the server started, after it said it was serving.
        One row written and rolled back."""
        with self.engine.connect() as connection:
            transaction = connection.begin()
            try:
                connection.execute(insert(heartbeats).values(id="write check", at=0.0))
            finally:
                transaction.rollback()

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """One database transaction (a SQLAlchemy connection): committed when the block ends,
        rolled back if it raises. The club's writes go through here (on SQLite it takes the
        write lock when it begins, as it may read before it writes); the games' own writes, which
        write first, go through :meth:`swap` and :meth:`insert`."""
        with self.engine.connect() as connection:
            connection.execution_options(qiza_write=True)
            with _committed(connection):
                yield connection

    def serialize(self, connection: Any, key: str) -> None:
        """Within a :meth:`transaction`: wait until no other transaction holds ``key``, and hold
        it to the end (a read-then-write that must not interleave with another one of the same
        key, like counting a chat author's recent messages before adding one). On PostgreSQL a
        transaction-scoped advisory lock; SQLite's transactions already take the write lock when
        they begin."""
        if self.is_postgres:
            connection.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})

    @contextmanager
    def _begin(self) -> Iterator[Any]:
        """A transaction whose first statement writes (it takes SQLite's write lock then)."""
        with self.engine.connect() as connection, _committed(connection):
            yield connection

    def read(self) -> Any:
        """A connection for reads (use in a ``with`` block)."""
        return self.engine.connect()

    def insert(self, row: GameRow, also: Sequence[Callable[[Any], None]] = ()) -> None:
        """Store a new game (version ``row.version``); ``also``: more writes of the same
        transaction, each called with the connection."""
        now = self.now()
        with self._begin() as connection:
            connection.execute(insert(games).values(
                id=row.id, version=row.version, save=json.dumps(row.save), seats=json.dumps(row.seats),
                settings=json.dumps(row.settings), status=row.status,
                computer_to_move=row.computer_to_move, created_at=now, updated_at=now,
                moved_version=row.version, deadline=row.deadline))
            for write in also:
                write(connection)
        row.moved_version = row.version

    def get(self, game_id: str) -> GameRow | None:
        """The stored game, or ``None``."""
        with self.engine.connect() as connection:
            found = connection.execute(select(games).where(games.c.id == game_id)).first()
        return _row(found) if found is not None else None

    def version(self, game_id: str) -> int | None:
        """The stored version of a game (cheap), or ``None``."""
        with self.engine.connect() as connection:
            return connection.execute(select(games.c.version).where(games.c.id == game_id)).scalar()

    def swap(self, row: GameRow, expected_version: int, request_id: str | None = None, *, moved: bool = True,
             also: Sequence[Callable[[Any], None]] = ()) -> bool:
        """Write ``row`` (game, seats, settings) as version ``expected_version + 1`` if the
        stored version is still ``expected_version``. Returns whether it was written. Raises
        :class:`Duplicate` if ``request_id`` was already used for this game. ``moved``: the
        game itself changed (the new version becomes ``moved_version``). ``also``: more writes
        that commit with this one or not at all (ratings when a rated game ends), each called
        with the connection once the game is written."""
        moved_version = expected_version + 1 if moved else row.moved
        with self._begin() as connection:  # one transaction: the request record commits with the game
            if request_id is not None:
                try:
                    with connection.begin_nested():
                        connection.execute(insert(requests).values(
                            game_id=row.id, request_id=request_id, version=expected_version + 1))
                except IntegrityError:
                    raise Duplicate(request_id) from None
            result = connection.execute(
                update(games).where(games.c.id == row.id, games.c.version == expected_version).values(
                    version=expected_version + 1, save=json.dumps(row.save), seats=json.dumps(row.seats),
                    settings=json.dumps(row.settings), status=row.status, computer_to_move=row.computer_to_move,
                    moved_version=moved_version, deadline=row.deadline, updated_at=self.now()))
            if result.rowcount != 1:
                connection.rollback()
                return False
            for write in also:
                write(connection)
            if self.is_postgres:
                connection.execute(text("SELECT pg_notify('qiza_games', :payload)"),
                                   {"payload": f"{row.id} {expected_version + 1}"})
        row.version = expected_version + 1
        row.moved_version = moved_version
        return True

    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The stored versions of these games (those that exist), a read per 500 (within any
        database's limit of a statement's parameters)."""
        ids = list(game_ids)
        found: dict[str, int] = {}
        with self.engine.connect() as connection:
            for start in range(0, len(ids), 500):
                rows = connection.execute(select(games.c.id, games.c.version).where(
                    games.c.id.in_(ids[start:start + 500])))
                found.update((str(r.id), int(r.version)) for r in rows)
        return found

    @property
    def sqlite_file(self) -> str | None:
        """The database's file, if it is an SQLite file (not PostgreSQL, not in memory)."""
        url = self.engine.url
        if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:") or url.query.get("uri"):
            return None
        return str(url.database)

    def session_alive(self, id_hash: str, now: float) -> bool:
        """Whether the session with this hash is still open (not signed out, not expired)."""
        with self.engine.connect() as connection:
            expires = connection.execute(select(sessions.c.expires_at).where(sessions.c.id_hash == id_hash)).scalar()
        return expires is not None and expires > now

    def rack_order(self, game_id: str, seat: int) -> str | None:
        """The order a player put their rack in, if any (it may be of an older rack)."""
        with self.engine.connect() as connection:
            return connection.execute(select(rack_orders.c.rack_order).where(
                rack_orders.c.game_id == game_id, rack_orders.c.seat == seat)).scalar()

    def set_rack_order(self, game_id: str, seat: int, order: str) -> None:
        """Keep a player's rack order (no version changes: nobody else sees it)."""
        if self.is_postgres:
            from sqlalchemy.dialects.postgresql import insert as upsert
        else:
            from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
        now = self.now()
        statement = upsert(rack_orders).values(game_id=game_id, seat=seat, rack_order=order, updated_at=now)
        statement = statement.on_conflict_do_update(index_elements=[rack_orders.c.game_id, rack_orders.c.seat],
                                                    set_={"rack_order": order, "updated_at": now})
        with self._begin() as connection:
            connection.execute(statement)

    def request_version(self, game_id: str, request_id: str) -> int | None:
        """The version a request id produced, if it was applied."""
        with self.engine.connect() as connection:
            return connection.execute(select(requests.c.version).where(
                requests.c.game_id == game_id, requests.c.request_id == request_id)).scalar()

    def waiting_for_computer(self, since: float | None = None) -> list[str]:
        """Ids of games not over whose next action belongs to a computer seat (``since``: only
        those unchanged since that time)."""
        query = select(games.c.id).where(games.c.computer_to_move.is_(True), games.c.status != "over")
        if since is not None:
            query = query.where(games.c.updated_at <= since)
        with self.engine.connect() as connection:
            return list(connection.execute(query).scalars())

    @staticmethod
    def hold_seats(game_id: str, held: dict[int, str], now: float) -> Callable[[Any], None]:
        """A write (for ``also``) recording which accounts hold which seats of a game."""
        def write(connection: Any) -> None:
            for seat, user_id in held.items():
                connection.execute(insert(game_players).values(game_id=game_id, seat=seat, user_id=user_id,
                                                               created_at=now))
        return write

    def past_deadline(self, now: float) -> list[str]:
        """Ids of games whose player to move ran out of time by ``now``."""
        with self.engine.connect() as connection:
            return list(connection.execute(select(games.c.id).where(
                games.c.deadline <= now, games.c.status == "active")).scalars())

    def running_clocks(self) -> list[str]:
        """Ids of games not over whose player to move has a clock running."""
        with self.engine.connect() as connection:
            return list(connection.execute(select(games.c.id).where(
                games.c.deadline.is_not(None), games.c.status == "active")).scalars())

    def last_beat(self) -> float | None:
        """When a server process last said it was running (:meth:`beat`), if ever."""
        with self.engine.connect() as connection:
            return connection.execute(select(heartbeats.c.at).where(heartbeats.c.id == "server")).scalar()

    def beat(self, at: float, seen: float | None = None) -> bool:
        """Record that a server process runs at ``at``. With ``seen``, only if the last beat is
        still ``seen`` (compare-and-swap: of processes starting at once, one takes an outage);
        returns whether it was written."""
        with self._begin() as connection:
            query = update(heartbeats).where(heartbeats.c.id == "server")
            if seen is not None:
                query = query.where(heartbeats.c.at == seen)
            if connection.execute(query.values(at=at)).rowcount == 1:
                return True
            if seen is not None:
                return False
            try:
                with connection.begin_nested():
                    connection.execute(insert(heartbeats).values(id="server", at=at))
            except IntegrityError:  # another process wrote the first beat
                return False
            return True

    def list_games(self, limit: int = 50) -> list[GameRow]:
        """Recent games, newest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(games).order_by(games.c.updated_at.desc()).limit(limit)).all()
        return [_row(r) for r in rows]

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def _row(found: Any) -> GameRow:
    return GameRow(found.id, found.version, json.loads(found.save), json.loads(found.seats),
                   json.loads(found.settings), found.status, bool(found.computer_to_move), found.moved_version,
                   found.deadline)
