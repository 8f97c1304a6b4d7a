"""Live updates: a WebSocket per browser on a game, pushed its own view after every change
(of this process, or of another on the same database: on PostgreSQL by ``LISTEN``/``NOTIFY``, on
an SQLite file by looking at ``PRAGMA data_version`` every :data:`SQLITE_WATCH` seconds).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import (
    Field,
    ValidationError,
)
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from starlette.concurrency import run_in_threadpool

from qiza.web.bodies import Body, WholeNumber
from qiza.web.db import Store
from qiza.web.errors import DATABASE_ERRORS, ApiError, database_error
from qiza.web.guard import refuse_websocket
from qiza.web.service import GameService
from qiza.web.throttle import (
    LIVE_PER_ADDRESS,
    LIVE_REFRESH_BURST,
    LIVE_REFRESHES_PER_SECOND,
    FailureThrottle,
    OpenCount,
    address,
)

T = TypeVar("T")

log = logging.getLogger("qiza.web")


# -- live updates ----------------------------------------------------------------------------------
HELLO_TIMEOUT = 10.0
REFRESH_INTERVAL = 0.25
"""Seconds a connection waits between two ``refresh`` messages that are answered (one read of
the game from the database each; those sent sooner are ignored)."""


SQLITE_WATCH = 0.5
"""Seconds between two looks at whether another connection (another server process on the same
SQLite file) committed a change: ``PRAGMA data_version`` of a connection of its own, a few
microseconds; when it changed, one read of the versions of the games this process has live
connections to. Without it a page served by one process saw another's moves only at its next
``refresh`` (every 20 s while it waits)."""


class HelloIn(Body):
    """A WebSocket client's first message: who watches (no seat: a spectator)."""

    seat: WholeNumber | None = Field(None, ge=0, le=3)
    token: str | None = Field(None, min_length=1, max_length=200)


async def _hello(socket: WebSocket) -> HelloIn:
    """The first message of a live connection (422 ``malformed_request`` if it is not one,
    408 ``no_hello`` if none comes within :data:`HELLO_TIMEOUT` seconds)."""
    try:
        text = await asyncio.wait_for(socket.receive_text(), HELLO_TIMEOUT)
    except TimeoutError:
        raise ApiError(408, "no_hello", "send {\"seat\": N, \"token\": T} (or {} to watch) first") from None
    except KeyError:  # a binary message
        raise ApiError(422, "malformed_request", "the first message is JSON text") from None
    try:
        return HelloIn.model_validate_json(text)
    except ValidationError as exc:
        where = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in exc.errors())
        raise ApiError(422, "malformed_request", f"first message: {where} (send {{\"seat\": N, \"token\": T}} "
                       "or {} to watch)") from None


@dataclass(eq=False)
class _Conn:
    socket: WebSocket
    seat: int | None
    loop: asyncio.AbstractEventLoop
    """The event loop that serves this socket: its pushes run there (a test client serves each
    socket on a loop of its own, and a push from another loop wakes no one)."""
    token: str | None = None  # a seat token that ends with a sign-in, checked again before each push
    address: str = ""  # where it comes from (throttle.address): its refreshes count there
    last: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    refreshed: float = -REFRESH_INTERVAL


class Hub:
    """WebSocket connections per game; pushes each its own view when the game changes."""

    def __init__(self, service: GameService, per_address: int = LIVE_PER_ADDRESS) -> None:
        self.service = service
        self.conns: dict[str, set[_Conn]] = {}
        self.per_address = per_address
        self.refreshes = FailureThrottle(LIVE_REFRESH_BURST, LIVE_REFRESHES_PER_SECOND)
        self._open = OpenCount(per_address)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pushes: set[asyncio.Task[None]] = set()
        """The pushes under way: the event loop keeps only weak references to its tasks, and a
        push waiting for the database was collected as garbage now and then, never sent."""

    def admit(self, key: str) -> bool:
        """Count one more connection open from address ``key``, unless it holds
        :attr:`per_address` already (False: refuse it)."""
        return self._open.admit(key)

    def release(self, key: str) -> None:
        """One connection admitted from ``key`` closed."""
        self._open.release(key)

    def open_connections(self) -> dict[str, int]:
        """Connections open now per address."""
        return self._open.now()

    def notify_threadsafe(self, game_id: str, version: int) -> None:
        """Called from any thread after a game changed: a push starts on each event loop that
        serves a connection to the game."""
        for loop in {conn.loop for conn in tuple(self.conns.get(game_id, ()))}:
            if not loop.is_closed():
                try:
                    loop.call_soon_threadsafe(self._start_push, loop, game_id, version)
                except RuntimeError:  # the loop closed meanwhile: its sockets are gone
                    pass

    def _start_push(self, loop: asyncio.AbstractEventLoop, game_id: str, version: int) -> None:
        task = loop.create_task(self.push(game_id, version, loop))
        self._pushes.add(task)  # held until it is done
        task.add_done_callback(self._pushes.discard)

    async def push(self, game_id: str, version: int, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Send every connection of a game its view, if it has not seen ``version`` yet (only
        those served by ``loop``, the running one by default)."""
        loop = loop or asyncio.get_running_loop()
        conns = [c for c in tuple(self.conns.get(game_id, ())) if c.last < version and c.loop is loop]
        states: dict[int | None, dict[str, Any]] = {}
        ready = []
        for conn in conns:
            if not await self._still_seated(game_id, conn):
                continue
            if conn.seat not in states:
                try:
                    states[conn.seat] = await run_in_threadpool(self.service.pushed_state, game_id, conn.seat, version)
                except ApiError:
                    continue
                except DATABASE_ERRORS:  # the database is away: the next change pushes again
                    log.warning("game %s: no live update, the database is unavailable", game_id)
                    continue
            ready.append(conn)
        # each its own send: a client that reads nothing (its send waits on full buffers until the
        # WebSocket's ping gives up on it) holds up no other connection
        await asyncio.gather(*(self._send(conn, states[conn.seat]) for conn in ready))

    async def refresh(self, game_id: str, conn: _Conn) -> None:
        """Send one connection its view again, read anew from the database (its client met a
        stale version): only this connection's view is read, whatever other seats watch."""
        now = time.monotonic()
        if now - conn.refreshed < REFRESH_INTERVAL or self.refreshes.wait(conn.address):
            return  # too soon for this connection, or its address asked too many
        conn.refreshed = now
        self.refreshes.fail(conn.address)
        if not await self._still_seated(game_id, conn):
            return
        try:
            state = await run_in_threadpool(self.service.pushed_state, game_id, conn.seat, 1 << 30)
        except ApiError:
            return
        except DATABASE_ERRORS:
            log.warning("game %s: no refresh, the database is unavailable", game_id)
            return
        conn.last = 0
        await self._send(conn, state)

    async def _still_seated(self, game_id: str, conn: _Conn) -> bool:
        """Whether a player's connection may still see its seat: the token it opened with is
        checked again (a token given to a sign-in ends with it: a page left open on a shared
        computer after signing out elsewhere must not go on showing the rack). A connection
        that may not is refused (``token_expired`` or ``wrong_token``) and closed."""
        if conn.token is None or conn.seat is None:
            return True
        try:
            await run_in_threadpool(self.service.recheck_token, game_id, conn.seat, conn.token)
        except ApiError as refusal:
            if refusal.status != 403:
                return True  # the game is gone or the like: the push itself says so, or nothing
            self.conns.get(game_id, set()).discard(conn)
            try:
                await _refuse(conn.socket, refusal)
            except Exception:  # noqa: BLE001 - closed already
                pass
            return False
        except DATABASE_ERRORS:  # the database is away: nothing is sent this time
            return False
        return True

    async def _send(self, conn: _Conn, state: dict[str, Any]) -> None:
        async with conn.lock:
            if state["version"] <= conn.last:
                return
            try:
                # the server's time as it is sent, as every HTTP answer says it (X-Server-Time)
                await conn.socket.send_json({"type": "state", "state": state, "server_time": self.service.now()})
                conn.last = state["version"]
            except Exception:  # noqa: BLE001 - a closed socket: forget it
                self.conns.get(state["id"], set()).discard(conn)

    def start_listener(self, store: Store) -> None:
        """Listen to PostgreSQL notifications of changes made by other processes, or watch an
        SQLite file for them (:data:`SQLITE_WATCH`); a database in memory has no other process."""
        if store.is_postgres:
            dsn = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            self._thread = threading.Thread(target=self._listen, args=(dsn,), name="qiza-listen", daemon=True)
        elif (path := store.sqlite_file) is not None:
            self._thread = threading.Thread(target=self._watch, args=(store, path), name="qiza-watch", daemon=True)
        else:
            return
        self._thread.start()

    def _watch(self, store: Store, path: str) -> None:
        """Push the games with live connections here that changed in the SQLite file since the
        last look (a change of this process's own is pushed already: ``push`` skips it)."""
        import sqlite3

        connection: sqlite3.Connection | None = None
        seen = None
        while not self._stop.wait(SQLITE_WATCH):
            try:
                if connection is None:
                    connection = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
                version = connection.execute("PRAGMA data_version").fetchone()[0]
                if version == seen:
                    continue
                watched = list(self.conns)
                for game_id, stored in (store.versions(watched) if watched else {}).items():
                    self.notify_threadsafe(game_id, stored)
                seen = version  # (after the pushes began: a failure before looks again)
            except Exception:  # noqa: BLE001 - the file away for a moment: look again
                log.warning("could not look for changes of other processes", exc_info=True)
                if connection is not None:
                    connection.close()
                connection = None
        if connection is not None:
            connection.close()

    def _listen(self, dsn: str) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as connection:
                    connection.execute("LISTEN qiza_games")
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5):
                            game_id, _, version = note.payload.partition(" ")
                            if version.isdigit():
                                self.notify_threadsafe(game_id, int(version))
            except Exception:  # noqa: BLE001 - database away: retry
                log.exception("LISTEN connection lost; retrying")
                self._stop.wait(1.0)

    def stop(self) -> None:
        """Stop listening."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)


def refuse_other_paths(default: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """The app's answer where no route is (``default``: Starlette's), a WebSocket at a path
    that has none refused 404 ``not_found`` in JSON as an HTTP request is (it was closed:
    403 without a body)."""

    async def not_found(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            await refuse_websocket(scope, send, 404, "not_found", f"no WebSocket at {scope['path']!r}: a game's live "
                                   "view is /ws/games/{id}")
        else:
            await default(scope, receive, send)

    return not_found


async def _refuse(socket: WebSocket, refusal: ApiError) -> None:
    """One ``{"type": "error", ...}`` message, then the socket closed with 4000 + the HTTP status."""
    await socket.send_json({"type": "error", **refusal.body()})
    await socket.close(code=4000 + refusal.status)


def router(service: GameService, hub: Hub, throttle: FailureThrottle) -> APIRouter:
    """``/ws/games/{id}``."""
    api = APIRouter()

    def guarded(client: WebSocket, game_id: str, check: Callable[..., T], *args: Any) -> T:
        return throttle.guard((address(client), game_id), check, *args)

    @api.websocket("/ws/games/{game_id}")
    async def live(socket: WebSocket, game_id: str) -> None:
        """Live view of a game. The client's first message says who watches:
        ``{"seat": N, "token": T}`` for a player, ``{}`` for a spectator (the token never goes
        in the URL); then a ``{"type": "state", "state": ...}`` message follows every change.
        A refusal is one ``{"type": "error", "error": ...}`` message, then the socket closes
        with code 4000 + the HTTP status; 4429 ``too_many_connections`` when the address holds
        :data:`qiza.web.throttle.LIVE_PER_ADDRESS` connections open already (``qiza serve
        --live-connections``)."""
        key = address(socket)
        await socket.accept()
        if not hub.admit(key):
            await _refuse(socket, ApiError(429, "too_many_connections", f"this address has {hub.per_address} live "
                                           "connections open already: close some of its pages of games"))
            return
        try:
            await serve(socket, game_id)
        finally:
            hub.release(key)

    async def serve(socket: WebSocket, game_id: str) -> None:
        try:
            hello = await _hello(socket)
            ends = False
            if hello.seat is None:
                state = await run_in_threadpool(service.state, game_id)
            else:
                state = await run_in_threadpool(guarded, socket, game_id, service.state, game_id, hello.seat,
                                                hello.token)
                # a token that ends with a sign-in is checked again before each push (a guest's never ends)
                ends = await run_in_threadpool(service.token_ends, game_id, hello.seat, hello.token or "")
        except (ApiError, OperationalError, InterfaceError, SQLAlchemyTimeoutError) as exc:
            await _refuse(socket, exc if isinstance(exc, ApiError) else database_error(exc))
            return
        except WebSocketDisconnect:
            return
        seat = hello.seat
        conn = _Conn(socket, seat, asyncio.get_running_loop(), hello.token if ends else None, address(socket))
        hub.conns.setdefault(game_id, set()).add(conn)
        try:
            await hub._send(conn, state)
            while True:
                received = await socket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                message = received.get("text")
                if message is None:  # a binary frame: refused as a binary first message is
                    await _refuse(socket, ApiError(422, "malformed_request", 'messages are text: "ping" or "refresh"'))
                    break
                if message == "ping":
                    await socket.send_json({"type": "pong"})
                elif message == "refresh":
                    await hub.refresh(game_id, conn)
                else:  # named (shortened, escaped), as a binary frame is refused
                    shown = repr(message[:40]) + ("..." if len(message) > 40 else "")
                    await _refuse(socket, ApiError(422, "malformed_request",
                                                   f'{shown} is no request: messages are text: "ping" or "refresh"'))
                    break
        except WebSocketDisconnect:
            pass
        finally:
            group = hub.conns.get(game_id)
            if group is not None:
                group.discard(conn)
                if not group:
                    hub.conns.pop(game_id, None)

    return api
