"""The web app: HTTP API (documented at ``/docs``), WebSocket live updates and the pages.

Every answer to bad input is a 4xx JSON error ``{"error": {"code": ..., "message": ...}}``.
Players act with their seat number and secret seat token (given when a seat is taken);
every action carries the game version it was made against, so the same turn sent twice is
applied once (an action stays valid while only things around the game change: a join, a
seat given to the computer, a rack rearranged). Seat tokens never travel in a URL (servers
and proxies log URLs): they go in request bodies, in the ``X-Seat-Token`` header, or in the
first message of a WebSocket. ``/ws/games/{id}`` pushes a player's view of the game after
every change, including changes made by another server process on the
same PostgreSQL database (which arrive by ``LISTEN``/``NOTIFY``).

Hostile requests are refused before any costly work: bodies over 64 KiB and secrets in URLs
by :mod:`qiza.web.guard`, oversized fields by the request models, repeated wrong tokens or
invites by :mod:`qiza.web.throttle` (429), unknown lexicons by :mod:`qiza.web.lexicons`;
a database that cannot answer gives 503 ``database_unavailable`` with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from argon2 import PasswordHasher
from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StringConstraints,
    ValidationError,
)
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from qiza.rules import PRESETS, ChallengeRule, EndPoints, EndRule, FirstPlayer, Level, Notation, finish_line_targets
from qiza.web.accounts import Accounts, ensure_csrf_cookie
from qiza.web.accounts import router as accounts_router
from qiza.web.chat import Chat
from qiza.web.chat import router as chat_router
from qiza.web.clocks import TimeControl
from qiza.web.computer import computer_levels, default_level
from qiza.web.db import Store, default_database_url
from qiza.web.errors import ApiError, errors
from qiza.web.guard import RequestGuard
from qiza.web.leaving import CLAIM_AFTER, REMIND_AFTER, Leaving
from qiza.web.leaving import router as leaving_router
from qiza.web.lexicons import Catalogue
from qiza.web.players import Players
from qiza.web.players import router as players_router
from qiza.web.ratings import Ratings
from qiza.web.ratings import router as ratings_router
from qiza.web.seeks import Seeks, TimeControlIn
from qiza.web.seeks import router as seeks_router
from qiza.web.service import Action, GameService, SeatSpec
from qiza.web.throttle import FailureThrottle

log = logging.getLogger("qiza.web")
T = TypeVar("T")
HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"


# -- request bodies ----------------------------------------------------------------------------
class _Body(BaseModel):
    # no unknown fields, and no coercion: a seat is a JSON integer, a flag a JSON boolean
    model_config = ConfigDict(extra="forbid", strict=True)


def _a_number(value: Any) -> Any:
    if isinstance(value, bool | str):
        raise ValueError("should be a JSON number, not text or true/false")
    return value


#: a whole number in JSON: 3 or 3.0 (JSON Schema's "integer"), never "3", true or 3.5
WholeNumber = Annotated[int, Strict(False), BeforeValidator(_a_number)]
#: the most tiles a placement can put down (the largest rack: rules allow 2 to 9 tiles)
MAX_TILES = 9
#: a rule option's value: a name, a whole number, or per-seat numbers (Finish Line)
OptionValue = (StrictBool | Annotated[WholeNumber, Field(ge=-1_000_000, le=1_000_000)]
               | Annotated[str, StringConstraints(max_length=40)]
               | Annotated[list[Annotated[WholeNumber, Field(ge=0, le=1_000_000)]], Field(max_length=4)] | None)
#: a placement as squares to letters (new tiles only)
Cells = Annotated[dict[Annotated[str, StringConstraints(max_length=8)], Annotated[str, StringConstraints(max_length=4)]],
                  Field(max_length=MAX_TILES)]
#: a game's id in a path
GameId = Annotated[str, PathParam(max_length=40, description="the game's id")]


class SeatIn(_Body):
    """A seat of a new game."""

    kind: Literal["person", "computer"] = "person"
    name: str = Field("", max_length=40)
    level: str | None = Field(None, max_length=40, description="computer level (see /api/meta)")


class CreateGameIn(_Body):
    """A new game: a rules preset plus options of the rules engine, and 2 to 4 seats."""

    preset: str = Field("classic", max_length=40)
    options: dict[Annotated[str, StringConstraints(max_length=40)], OptionValue] = Field(
        default_factory=dict, max_length=20, description="rule options, e.g. {\"challenge\": \"auto\"} (see /api/meta)")
    finish_line_levels: list[Literal["beginner", "intermediate", "expert"]] | None = Field(
        None, max_length=4, description="Finish Line: one level per seat")
    seats: list[SeatIn] = Field(min_length=2, max_length=4)
    lexicon: str = Field("enable", max_length=40, description="a name from /api/meta's lexicons (nothing else)")
    word_help: bool | None = Field(None, description="show invalid words in the move preview")
    creator_seat: WholeNumber | None = Field(0, ge=0, le=3, description="the person seat the creator takes")
    claim_all: bool = Field(False, description="return the tokens of every person seat (bots, one device)")
    time_control: TimeControlIn | None = Field(None, description="clocks: minutes per player, increment, overtime")


class CreatedOut(BaseModel):
    """A created game, the secret tokens of the seats taken and the invite secret.

    Share ``invite_url`` with the people who should take the free seats (the secret is in
    the URL fragment, which browsers do not send to servers); ``url`` lets anyone watch."""

    id: str
    tokens: dict[int, str]
    url: str
    invite: str
    invite_url: str


class JoinIn(_Body):
    """Take an open person seat, with the game's invite secret."""

    seat: WholeNumber = Field(ge=0, le=3)
    name: str = Field("", max_length=40)
    invite: str | None = Field(None, max_length=200, description="the invite secret from the creator's link")


class JoinOut(BaseModel):
    """The secret token of the seat taken."""

    seat: int
    token: str
    version: int


class ActionIn(_Body):
    """One action by a seat, made against game ``version``."""

    seat: WholeNumber = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200)
    version: WholeNumber = Field(ge=0, description="the game version this action was made against")
    kind: Literal["place", "exchange", "pass", "challenge", "resign"]
    move: str | None = Field(None, max_length=60, description="placement in the game's notation, e.g. 'H8 WORD'")
    cells: Cells | None = Field(
        None, description="placement as squares (number or name like 'H8') to letters, lower case for a blank")
    tiles: str | None = Field(None, max_length=9, description="tiles to exchange, '?' for a blank")
    request_id: str | None = Field(None, min_length=1, max_length=80,
                                   description="idempotency key: a request id is applied at most once")


class RackIn(_Body):
    """A new order of the seat's own rack (the same tiles)."""

    seat: WholeNumber = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200)
    order: str = Field(min_length=1, max_length=20, description="the rack's tiles in the new order, '?' for a blank")


class SeatAuthIn(_Body):
    """A seat and its secret token (for the game's creator: managing the invite)."""

    seat: WholeNumber = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200)


class InviteOut(BaseModel):
    """The game's invite secret (``None`` once withdrawn) and the person seats still free.

    ``invite_url`` is the link to share (the secret is in the URL fragment)."""

    invite: str | None
    invite_url: str | None
    free_seats: list[int]


class ComputerSeatIn(_Body):
    """Give a free seat to a computer player: the creator's seat and token, and the level."""

    seat: WholeNumber = Field(ge=0, le=3, description="the creator's seat")
    token: str = Field(min_length=1, max_length=200, description="the creator's seat token")
    level: str | None = Field(None, max_length=40, description="computer level (see /api/meta; default: the default level)")
    name: str = Field("", max_length=40, description="the computer's name (default: 'Computer (level)')")


class PreviewIn(_Body):
    """A placement to score without playing it."""

    seat: WholeNumber = Field(ge=0, le=3)
    token: str = Field(min_length=1, max_length=200)
    move: str | None = Field(None, max_length=60)
    cells: Cells | None = None


#: errors of an operation on a game with a seat token (or an invite)
SEAT_ERRORS = errors(403, 404, 409, 429, 503)


# -- the database away ---------------------------------------------------------------------------
#: errors of a database that cannot answer now (stopped, unreachable, locked, pool exhausted)
DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError, SQLAlchemyTimeoutError)
#: seconds a client should wait before trying again while the database is away
DATABASE_RETRY_AFTER = 5


def database_error(exc: Exception) -> ApiError:
    """The answer to a database error: 503 ``database_unavailable`` (with ``Retry-After``)
    when the database cannot answer now, else 500 ``internal_error``."""
    if isinstance(exc, DATABASE_ERRORS) or (isinstance(exc, DBAPIError) and exc.connection_invalidated):
        log.warning("database unavailable: %s", exc.__class__.__name__)
        return ApiError(503, "database_unavailable", "the game database is unavailable just now; nothing was "
                        f"changed: try again in {DATABASE_RETRY_AFTER} seconds", retry_after=DATABASE_RETRY_AFTER)
    log.error("database error: %s", exc)
    return ApiError(500, "internal_error", "the server failed to answer this request; it has been logged")


# -- live updates ----------------------------------------------------------------------------------
HELLO_TIMEOUT = 10.0


class HelloIn(_Body):
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
    last: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Hub:
    """WebSocket connections per game; pushes each its own view when the game changes."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.conns: dict[str, set[_Conn]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def notify_threadsafe(self, game_id: str, version: int) -> None:
        """Called from any thread after a game changed."""
        loop = self.loop
        if loop is None or loop.is_closed() or game_id not in self.conns:
            return
        loop.call_soon_threadsafe(lambda: loop.create_task(self.push(game_id, version)))

    async def push(self, game_id: str, version: int) -> None:
        """Send every connection of a game its view, if it has not seen ``version`` yet."""
        conns = [c for c in self.conns.get(game_id, ()) if c.last < version]
        states: dict[int | None, dict[str, Any]] = {}
        for conn in conns:
            if conn.seat not in states:
                try:
                    states[conn.seat] = await run_in_threadpool(self.service.pushed_state, game_id, conn.seat, version)
                except ApiError:
                    continue
                except DATABASE_ERRORS:  # the database is away: the next change pushes again
                    log.warning("game %s: no live update, the database is unavailable", game_id)
                    continue
            await self._send(conn, states[conn.seat])

    async def _send(self, conn: _Conn, state: dict[str, Any]) -> None:
        async with conn.lock:
            if state["version"] <= conn.last:
                return
            try:
                await conn.socket.send_json({"type": "state", "state": state})
                conn.last = state["version"]
            except Exception:  # noqa: BLE001 - a closed socket: forget it
                self.conns.get(state["id"], set()).discard(conn)

    def start_listener(self, store: Store) -> None:
        """Listen to PostgreSQL notifications of changes made by other processes."""
        if not store.is_postgres:
            return
        dsn = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._thread = threading.Thread(target=self._listen, args=(dsn,), name="qiza-listen", daemon=True)
        self._thread.start()

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


def create_app(database_url: str | None = None, *, computer_workers: int = 2,
               computer_delay: float = 0.0, warm_up: bool = False,
               computer_processes: int | None = None, seeds: Callable[[], int] | None = None,
               lexicons: Mapping[str, str | os.PathLike[str]] | None = None,
               now: Callable[[], float] = time.time, clock_sweep: float = 1.0,
               password_hasher: PasswordHasher | None = None, remind_after: float = REMIND_AFTER,
               claim_after: float = CLAIM_AFTER) -> FastAPI:
    """The qiza web app on a database (SQLite file by default, or any SQLAlchemy URL).

    ``computer_workers``: worker processes deciding the computers' moves (``computer_processes=0``
    decides in threads of this process instead);
    ``computer_delay``: seconds a computer seat waits after a person's play that others may
    challenge; ``warm_up``: load the lexicon and move generator at startup; ``seeds``: where
    new games' seeds come from (default: a cryptographic source; tests pass a fixed one).
    Clients never choose a game's seed, and no answer shows it before the game is over.
    ``lexicons``: word lists the operator offers besides the built-in ones (name to file);
    clients name a lexicon from this list only. ``now``: the time source of clocks, sessions and
    reminders (tests pass a fake one); ``clock_sweep``: seconds between checks for players out of
    time (0: none in the background; :meth:`GameService.sweep_clocks` does it);
    ``remind_after``, ``claim_after``: seconds before an idle player may be reminded, and after
    the reminder before the game may be claimed (:mod:`qiza.web.leaving`)."""
    store = Store(database_url or default_database_url())
    service = GameService(store, computer_workers=computer_workers, computer_delay=computer_delay,
                          computer_processes=computer_processes, seeds=seeds, lexicons=Catalogue(lexicons), now=now)
    hub = Hub(service)
    throttle = FailureThrottle()
    accounts = Accounts(store, password_hasher, now=now)
    board = Ratings(store, now=now)
    service.on_end.append(board.on_end)
    hall = Seeks(service, accounts, board, now=now)
    room = Chat(service, accounts, throttle, now=now)
    leaving = Leaving(service, throttle, remind_after, claim_after)
    players = Players(service, accounts, board)

    async def sweep_clocks() -> None:
        while True:
            await asyncio.sleep(clock_sweep)
            try:
                await run_in_threadpool(service.sweep_clocks)
            except Exception:  # the database away for a moment: the next sweep tries again
                log.warning("clock sweep failed", exc_info=True)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        service.add_listener(hub.notify_threadsafe)
        hub.start_listener(store)
        if warm_up:
            service.warm_up()
        await run_in_threadpool(service.resume_computers)
        sweeper = asyncio.create_task(sweep_clocks()) if clock_sweep > 0 else None
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.cancel()
            hub.stop()
            service.close()
            store.dispose()

    app = FastAPI(title="qiza", version="1", lifespan=lifespan,
                  description="Play Scrabble in the browser. Create a game, take a seat (you get a "
                  "secret seat token), then act with POST /api/games/{id}/actions (the token goes in "
                  "the body, or in the X-Seat-Token header of GET and DELETE requests; never in a URL). "
                  "Live updates: WebSocket /ws/games/{id}, whose first message from the client is "
                  "{\"seat\": N, \"token\": T} (spectators: {}).")
    app.add_middleware(RequestGuard)
    app.state.service = service
    app.state.hub = hub
    app.state.store = store
    app.state.accounts = accounts
    for part in (accounts_router(accounts, throttle), ratings_router(board), seeks_router(hall), chat_router(room),
                 leaving_router(leaving), players_router(players)):
        app.include_router(part)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        retry = exc.extra.get("retry_after")
        headers = {"Retry-After": str(int(retry))} if isinstance(retry, int | float) else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        details = jsonable_encoder(exc.errors(), exclude={"input", "ctx", "url"})
        parts = []
        for err in details:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
        return JSONResponse({"error": {"code": "malformed_request", "message": "; ".join(parts) or "malformed request",
                                       "details": details}}, status_code=422)

    @app.exception_handler(DBAPIError)
    @app.exception_handler(SQLAlchemyTimeoutError)
    async def _database(_request: Request, exc: Exception) -> JSONResponse:
        refusal = database_error(exc)
        return await _api_error(_request, refusal)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        # logged by the server; the client gets the documented JSON error, never a traceback
        return JSONResponse({"error": {"code": "internal_error", "message": "the server failed to answer this "
                                       "request; it has been logged"}}, status_code=500)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # every method of the path, not only those of its first route
            path = request.url.path
            methods = sorted({m for r in app.routes if isinstance(r, APIRoute) and r.path_regex.match(path)
                              for m in r.methods or ()})
            headers["Allow"] = ", ".join(methods)
        return JSONResponse({"error": {"code": code, "message": str(exc.detail)}}, status_code=exc.status_code,
                            headers=headers)

    # -- pages ---------------------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(request: Request, name: str) -> FileResponse:
        response = FileResponse(TEMPLATES / name)
        ensure_csrf_cookie(request, response)
        return response

    @app.get("/", include_in_schema=False)
    def lobby_page(request: Request) -> FileResponse:
        return page(request, "lobby.html")

    @app.get("/player/{name}", include_in_schema=False)
    def player_page(request: Request, name: str) -> FileResponse:
        return page(request, "player.html")

    @app.get("/leaderboard", include_in_schema=False)
    def leaderboard_page(request: Request) -> FileResponse:
        return page(request, "leaderboard.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/game/{game_id}", include_in_schema=False)
    def game_page(request: Request, game_id: str) -> FileResponse:
        return page(request, "game.html")

    # -- API -----------------------------------------------------------------------------------
    app.state.throttle = throttle

    def guarded(client: Request | WebSocket, game_id: str, check: Callable[..., T], *args: Any) -> T:
        """``check(*args)``, a call that checks a seat token or an invite of ``game_id``,
        throttled per client address and game (:meth:`FailureThrottle.guard`)."""
        return throttle.guard((client.client.host if client.client else "", game_id), check, *args)

    @app.get("/api/meta", tags=["games"], responses=errors())
    def meta() -> dict[str, Any]:
        """Presets, rule options and computer levels for the lobby."""
        return {
            "presets": {name: rules.describe() for name, rules in PRESETS.items()},
            "options": {
                "challenge": [c.value for c in ChallengeRule], "end_rule": [e.value for e in EndRule],
                "first_player": [f.value for f in FirstPlayer], "notation": [n.value for n in Notation],
                "end_points": [e.value for e in EndPoints],
                "numbers": ["rack_size", "bingo_min_tiles", "bingo_bonus", "exchange_limit", "scoreless_turns",
                            "passes"],
            },
            "levels": list(computer_levels()),
            "default_level": default_level(),
            "finish_line_levels": [lv.value for lv in Level],
            "finish_line_targets": {n: {lv.value: finish_line_targets([lv] * n)[0] for lv in Level}
                                    for n in (2, 3, 4)},
            "lexicons": service.catalogue.names(),
        }

    @app.post("/api/games", tags=["games"], status_code=201, response_model=CreatedOut, responses=errors(503))
    def create_game(request: Request, body: CreateGameIn) -> CreatedOut:
        """Create a game. The creator takes ``creator_seat`` (or every person seat with ``claim_all``);
        signed in, the creator's account holds that seat (the game shows on their profile)."""
        user = accounts.user_of(request)
        persons = [i for i, s in enumerate(body.seats) if s.kind == "person"]
        if body.claim_all:
            claim = persons
        elif body.creator_seat is not None:
            if body.creator_seat >= len(body.seats) or body.seats[body.creator_seat].kind != "person":
                raise ApiError(422, "bad_seats", f"creator_seat {body.creator_seat} is not a person seat")
            claim = [body.creator_seat]
        else:
            claim = []
        created = service.create(
            preset=body.preset, options=body.options,
            seats=[SeatSpec(s.kind, s.name, s.level, user.id if user is not None and claim[:1] == [i]
                            and not body.claim_all else None) for i, s in enumerate(body.seats)],
            lexicon=body.lexicon, word_help=body.word_help,
            finish_line_levels=body.finish_line_levels, claim=claim,
            time_control=TimeControl(**body.time_control.model_dump()) if body.time_control else None)
        url = f"/game/{created.id}"
        return CreatedOut(id=created.id, tokens=created.tokens, url=url, invite=created.invite,
                          invite_url=f"{url}#invite={created.invite}")

    @app.get("/api/games", tags=["games"], responses=errors(503))
    def list_games() -> list[dict[str, Any]]:
        """Recent games (for watching): id, players, status."""
        out = []
        for row in store.list_games():
            out.append({"id": row.id, "status": row.status, "version": row.version,
                        "players": [{"name": n, "kind": s["kind"], "joined": s["joined"]}
                                    for n, s in zip(row.save["players"], row.seats)]})
        return out

    @app.get("/api/games/{game_id}", tags=["games"], responses=errors(403, 404, 429, 503))
    def get_game(request: Request, game_id: GameId, seat: int | None = Query(None, ge=0, le=3),
                 x_seat_token: str | None = Header(None, max_length=200, description="secret token of the seat"),
                 ) -> JSONResponse:
        """The game as ``seat`` sees it (needs its token in the ``X-Seat-Token`` header), or
        as a spectator (no seat)."""
        if seat is None:
            return JSONResponse(service.state(game_id))
        return JSONResponse(guarded(request, game_id, service.state, game_id, seat, x_seat_token))

    @app.post("/api/games/{game_id}/join", tags=["games"], response_model=JoinOut,
              responses=errors(403, 404, 409, 410, 429, 503))
    def join_game(request: Request, game_id: GameId, body: JoinIn) -> JoinOut:
        """Take an open person seat with the invite secret (from the creator's invite link);
        keep the returned token secret."""
        user = accounts.user_of(request)
        token, version = guarded(request, game_id, service.join, game_id, body.seat, body.name, body.invite,
                                 user.id if user is not None else None)
        return JoinOut(seat=body.seat, token=token, version=version)

    def invite_out(game_id: str, found: dict[str, Any]) -> InviteOut:
        invite = found["invite"]
        return InviteOut(invite=invite, invite_url=f"/game/{game_id}#invite={invite}" if invite else None,
                         free_seats=found["free_seats"])

    @app.get("/api/games/{game_id}/invite", tags=["games"], response_model=InviteOut, responses=SEAT_ERRORS)
    def show_invite(request: Request, game_id: GameId, seat: int = Query(ge=0, le=3, description="the creator's seat"),
                    x_seat_token: str | None = Header(None, max_length=200, description="the creator's seat token"),
                    ) -> InviteOut:
        """The invite link again, for the game's creator, while a person seat is still free."""
        return invite_out(game_id, guarded(request, game_id, service.invite, game_id, seat, x_seat_token or ""))

    @app.post("/api/games/{game_id}/invite", tags=["games"], response_model=InviteOut, responses=SEAT_ERRORS)
    def renew_invite(request: Request, game_id: GameId, body: SeatAuthIn) -> InviteOut:
        """A new invite link (creator only); the old one stops working (410 ``invite_revoked``)."""
        return invite_out(game_id, guarded(request, game_id, service.renew_invite, game_id, body.seat, body.token))

    @app.delete("/api/games/{game_id}/invite", tags=["games"], response_model=InviteOut, responses=SEAT_ERRORS)
    def revoke_invite(request: Request, game_id: GameId, seat: int = Query(ge=0, le=3, description="the creator's seat"),
                      x_seat_token: str | None = Header(None, max_length=200, description="the creator's seat token"),
                      ) -> InviteOut:
        """Withdraw the invite link (creator only): nobody can take a free seat until a new
        link is made with POST."""
        return invite_out(game_id, guarded(request, game_id, service.revoke_invite, game_id, seat, x_seat_token or ""))

    @app.post("/api/games/{game_id}/seats/{target}/computer", tags=["games"], responses=SEAT_ERRORS)
    def seat_computer(request: Request, game_id: GameId, body: ComputerSeatIn,
                      target: int = PathParam(ge=0, le=3, description="the free seat to give to the computer"),
                      ) -> JSONResponse:
        """Let a computer player take a free person seat (creator only, any time before the
        end), so that the game need not wait for someone who does not come. Answers the
        creator's view of the game."""
        return JSONResponse(guarded(request, game_id, service.seat_computer, game_id, body.seat, body.token, target,
                                    body.level, body.name))

    @app.post("/api/games/{game_id}/actions", tags=["play"], responses=SEAT_ERRORS)
    def act(request: Request, game_id: GameId, body: ActionIn) -> JSONResponse:
        """Place tiles (``move`` text or ``cells``), exchange ``tiles``, pass, challenge or resign.

        Answers the new game state as the seat sees it, with ``record``: the score sheet line."""
        action = Action(body.kind, body.move, body.cells, body.tiles)
        return JSONResponse(guarded(request, game_id, service.act, game_id, body.seat, body.token, body.version, action,
                                    body.request_id))

    @app.post("/api/games/{game_id}/rack", tags=["play"], responses=SEAT_ERRORS)
    def arrange_rack(request: Request, game_id: GameId, body: RackIn) -> JSONResponse:
        """Put your rack in a new order (after a shuffle or a drag), kept by the server so that
        reloads show it. Any time, no version needed; it changes no version either (nobody
        else's pending action becomes stale). Answers your view of the game."""
        return JSONResponse(guarded(request, game_id, service.arrange, game_id, body.seat, body.token, body.order))

    @app.post("/api/games/{game_id}/preview", tags=["play"], responses=SEAT_ERRORS)
    def preview(request: Request, game_id: GameId, body: PreviewIn) -> dict[str, Any]:
        """Score and words of a placement (invalid words only if the game allows word help)."""
        return guarded(request, game_id, service.preview, game_id, body.seat, body.token,
                       Action("place", body.move, body.cells))

    @app.get("/api/games/{game_id}/gcg", tags=["games"], response_class=Response, responses={
        200: {"description": "the GCG file", "content": {"text/plain": {"schema": {"type": "string"}}}},
        **errors(404, 409, 501, 503)})
    def download_gcg(game_id: GameId) -> Response:
        """The game record as a GCG file."""
        text = service.gcg(game_id)
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="qiza-{game_id}.gcg"'})

    @app.get("/api/games/{game_id}/analysis", tags=["games"], responses=errors(404, 409, 501, 503))
    def analysis(game_id: GameId) -> dict[str, Any]:
        """Once the game is over: every turn against the computer's best move (static engine:
        score plus leave value) with the equity lost, and a summary per player."""
        return service.analysis(game_id)

    @app.websocket("/ws/games/{game_id}")
    async def live(socket: WebSocket, game_id: str) -> None:
        """Live view of a game. The client's first message says who watches:
        ``{"seat": N, "token": T}`` for a player, ``{}`` for a spectator (the token never goes
        in the URL); then a ``{"type": "state", "state": ...}`` message follows every change.
        A refusal is one ``{"type": "error", "error": ...}`` message, then the socket closes
        with code 4000 + the HTTP status."""
        await socket.accept()
        try:
            hello = await _hello(socket)
            if hello.seat is None:
                state = await run_in_threadpool(service.state, game_id)
            else:
                state = await run_in_threadpool(guarded, socket, game_id, service.state, game_id, hello.seat,
                                                hello.token)
        except (ApiError, OperationalError, InterfaceError, SQLAlchemyTimeoutError) as exc:
            refusal = exc if isinstance(exc, ApiError) else database_error(exc)
            await socket.send_json({"type": "error", **refusal.body()})
            await socket.close(code=4000 + refusal.status)
            return
        except WebSocketDisconnect:
            return
        seat = hello.seat
        conn = _Conn(socket, seat)
        hub.conns.setdefault(game_id, set()).add(conn)
        try:
            await hub._send(conn, state)
            while True:
                message = await socket.receive_text()
                if message == "ping":
                    await socket.send_json({"type": "pong"})
                elif message == "refresh":
                    conn.last = 0
                    await hub.push(game_id, 1 << 30)
        except WebSocketDisconnect:
            pass
        finally:
            group = hub.conns.get(game_id)
            if group is not None:
                group.discard(conn)
                if not group:
                    hub.conns.pop(game_id, None)

    return app
