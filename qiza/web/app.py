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
import hashlib
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import jinja2
from argon2 import PasswordHasher
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from qiza.web.accounts import SIGN_UPS, Accounts, ensure_csrf_cookie
from qiza.web.accounts import router as accounts_router
from qiza.web.chat import Chat
from qiza.web.chat import router as chat_router
from qiza.web.clocks_api import router as clocks_router
from qiza.web.db import Store, default_database_url
from qiza.web.errors import ApiError, database_error
from qiza.web.games_api import router as games_router
from qiza.web.guard import RequestGuard
from qiza.web.leaving import CLAIM_AFTER, REMIND_AFTER, Leaving
from qiza.web.leaving import router as leaving_router
from qiza.web.lexicons import Catalogue
from qiza.web.live import Hub, refuse_other_paths
from qiza.web.live import router as live_router
from qiza.web.players import Players
from qiza.web.players import router as players_router
from qiza.web.puzzles import Puzzles
from qiza.web.puzzles import router as puzzles_router
from qiza.web.ratings import Ratings
from qiza.web.ratings import router as ratings_router
from qiza.web.seeks import Seeks
from qiza.web.seeks import router as seeks_router
from qiza.web.service import GameService
from qiza.web.throttle import (
    HEAVY_WORK,
    HEAVY_WORK_PER_SECOND,
    LIVE_PER_ADDRESS,
    NEW_GAMES,
    READS_PER_SECOND,
    ConnectionLimit,
    ReadLimit,
    StoredThrottle,
    read_limit,
)

log = logging.getLogger("qiza.web")
T = TypeVar("T")
HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"
PAGE_HEADERS = {
    # the pages' scripts, styles and WebSocket are the server's own: a script slipped into the
    # page (a name, a chat line) would not run, and no other site may frame a page to steer
    # clicks on it (Resign, Accept)
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
"""Headers of every page (the lobby, a game, a player, the leaderboard)."""
PAGES = ("lobby.html", "game.html", "player.html", "leaderboard.html", "puzzles.html")
"""The pages, each a template that extends ``base.html`` (the head, the top bar and the common
script, written once)."""


def render_pages() -> dict[str, bytes]:
    """Every page of :data:`PAGES` as the browser gets it (rendered once: nothing in a page
    depends on the request; what differs comes from the API)."""
    templates = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, trim_blocks=True,
                                   keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    return {name: templates.get_template(name).render().encode() for name in PAGES}


STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
"""The kinds of file in ``static/`` the pages load, with their content types."""


def read_static() -> dict[str, tuple[bytes, str, str]]:
    """The pages' scripts and styles (``static/``), read once at start-up as the pages are
    rendered, so that a server left running while the files change never serves a new script
    with an old page: each as its content, content type and ETag (a hash of the content)."""
    files = {}
    for path in sorted(STATIC.iterdir()):
        if path.suffix in STATIC_TYPES and path.is_file():
            body = path.read_bytes()
            files[path.name] = (body, STATIC_TYPES[path.suffix], f'"{hashlib.sha256(body).hexdigest()[:32]}"')
    return files


UNREADABLE_BODY = "There was an error parsing the body"
"""FastAPI's 400 detail for a JSON body it could not read other than by its syntax (a
RecursionError, a UnicodeDecodeError, a number too long for Python's int)."""


def is_json(content_type: str) -> bool:
    """Whether a Content-Type header says JSON, as FastAPI decides to read a body as JSON."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def api_routes(routes: Iterable[Any]) -> Iterator[APIRoute]:
    """Every API route, also those of included routers (which newer FastAPI keeps apart)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from api_routes(inner.routes)


class ServerTime:
    """ASGI middleware: every HTTP answer says the server's time, ``X-Server-Time`` (seconds since
    1970 on the app's clock ``now``), on which a page reads the deadlines the server gives
    (Remind, Claim, the clocks) whatever its device's clock says (``qiza.heardServerTime`` in
    ``static/common.js``; a live update says it as ``server_time``)."""

    def __init__(self, app: ASGIApp, now: Callable[[], float]) -> None:
        self.app = app
        self.now = now

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def stamped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"x-server-time", repr(self.now()).encode())]
            await send(message)

        await self.app(scope, receive, stamped)


class NoStore:
    """ASGI middleware: no answer of the API (``/api/``) is kept by a cache, ``Cache-Control:
    no-store``. A seat's view holds its rack, and the token that asked for it travels in a header
    of its own (``X-Seat-Token``), which caches do not know as a credential: a shared cache (a
    proxy, a CDN) could keep the answer and give it to whoever asks the same address next."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return

        async def unstored(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                message["headers"] = [*headers, (b"cache-control", b"no-store")]
            await send(message)

        await self.app(scope, receive, unstored)


class HeadAsGet:
    """ASGI middleware: a HEAD request is answered as its GET would be, without the body (the
    same status and headers), wherever GET is answered: FastAPI's routes answer only the methods
    they name, and HEAD / got 405 though GET / is a page. It costs what the GET costs, and is
    counted as a read as GET is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        # a copy: the server's own scope still says HEAD (uvicorn then writes no body either)
        await self.app({**scope, "method": "GET"}, receive, without_body)


def create_app(database_url: str | None = None, *, computer_workers: int = 2,
               computer_delay: float = 0.0, warm_up: bool = False,
               computer_processes: int | None = None, seeds: Callable[[], int] | None = None,
               lexicons: Mapping[str, str | os.PathLike[str]] | None = None,
               now: Callable[[], float] = time.time, clock_sweep: float = 1.0,
               password_hasher: PasswordHasher | None = None, remind_after: float = REMIND_AFTER,
               claim_after: float = CLAIM_AFTER, sign_ups: int = SIGN_UPS, new_games: int = NEW_GAMES,
               secure_cookies: bool = False, heavy_work: int = HEAVY_WORK,
               live_connections: int = LIVE_PER_ADDRESS, reads: int = READS_PER_SECOND) -> FastAPI:
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
    the reminder before the game may be claimed (:mod:`qiza.web.leaving`); ``sign_ups``: new
    accounts one address may make at once (then one every 5 minutes); ``new_games``: games one
    address may create at once (then one every 20 seconds); ``heavy_work``: analyses and game
    archives one address may have made at once (then one every 30 seconds); ``secure_cookies``: mark
    the cookies ``Secure`` on every answer (the server is reached only over TLS; otherwise they
    are when the request came over TLS or with ``X-Forwarded-Proto: https``); ``live_connections``:
    live connections (WebSockets) one address may hold open at once; ``reads``: page and API reads
    (GET, HEAD) one address may make a second, after a burst of ten seconds' worth."""
    store = Store(database_url or default_database_url(), now=now)
    service = GameService(store, computer_workers=computer_workers, computer_delay=computer_delay,
                          computer_processes=computer_processes, seeds=seeds, lexicons=Catalogue(lexicons), now=now,
                          remind_after=remind_after)
    hub = Hub(service, live_connections)
    puzzles = Puzzles(service)
    throttle = StoredThrottle(store, "guesses", clock=now)  # every process on the database counts together
    work = StoredThrottle(store, "heavy work", heavy_work, HEAVY_WORK_PER_SECOND, clock=now)  # likewise
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
                await run_in_threadpool(service.sweep_computers)
            except Exception:  # the database away for a moment: the next sweep tries again
                log.warning("clock sweep failed", exc_info=True)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        service.add_listener(hub.notify_threadsafe)
        hub.start_listener(store)
        sweeper = None
        try:  # a start that fails stops what it began too (the computer's processes, the threads)
            if warm_up:
                service.warm_up()
                puzzles.make_ahead()  # the first visitor of /puzzles finds one made
            await run_in_threadpool(service.resume_clocks)  # before any sweep: the time the server was down
            await run_in_threadpool(service.resume_computers)
            sweeper = asyncio.create_task(sweep_clocks()) if clock_sweep > 0 else None
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
    app.state.read_limit = read_limit(reads)
    app.add_middleware(ReadLimit, reads=app.state.read_limit)  # (outside the guard: refused before anything)
    app.add_middleware(ConnectionLimit)  # (outside the reads: a connection refused counts no read)

    app.add_middleware(ServerTime, now=now)
    app.add_middleware(NoStore)  # (outside the guards: their refusals too)
    app.add_middleware(HeadAsGet)
    app.state.service = service
    app.state.hub = hub
    app.state.store = store
    app.state.accounts = accounts
    app.state.secure_cookies = secure_cookies
    for part in (accounts_router(accounts, throttle, sign_ups), ratings_router(board), seeks_router(hall), chat_router(room),
                 leaving_router(leaving), players_router(players, work), clocks_router(service)):
        app.include_router(part)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        retry = exc.extra.get("retry_after")
        headers = {"Retry-After": str(int(retry))} if isinstance(retry, int | float) else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        details = jsonable_encoder(exc.errors(), exclude={"input", "ctx", "url"})
        parts = []
        for err in details:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
        kind = request.headers.get("content-type", "")
        if any(tuple(err.get("loc", ())) == ("body",) for err in details) and not is_json(kind):
            # FastAPI reads a body as JSON only when it says it is: another type's body is "missing"
            parts = [f"the request body is JSON, sent with Content-Type: application/json (this one came with "
                     f"{repr(kind[:60]) if kind else 'no Content-Type'})"]
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
        if exc.status_code == 400 and exc.detail == UNREADABLE_BODY:  # FastAPI's words for any failure but bad syntax
            return JSONResponse({"error": {"code": "malformed_request", "message": "the request body could not be "
                                           "read as JSON: not UTF-8, nested too deeply or a number of too many "
                                           "digits"}}, status_code=400)
        if exc.status_code == 405:  # every method of the path, not only those of its first route
            path = request.url.path
            methods = {m for r in api_routes(app.routes) if r.path_regex.match(path) for m in r.methods or ()}
            if "GET" in methods:  # HeadAsGet answers HEAD wherever GET is
                methods.add("HEAD")
            headers["Allow"] = ", ".join(sorted(methods))
        return JSONResponse({"error": {"code": code, "message": str(exc.detail)}}, status_code=exc.status_code,
                            headers=headers)

    # -- pages ---------------------------------------------------------------------------------
    pages = render_pages()
    static = read_static()

    @app.api_route("/static/{name:path}", methods=["GET", "HEAD"], include_in_schema=False)
    def static_file(request: Request, name: str) -> Response:
        if name not in static:
            raise StarletteHTTPException(status_code=404, detail="Not Found")
        body, media_type, etag = static[name]
        # asked again each time (no-cache), answered "not modified" while the server runs
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=media_type, headers=headers)

    def page(request: Request, name: str) -> Response:
        response = Response(pages[name], media_type="text/html", headers=PAGE_HEADERS)
        ensure_csrf_cookie(request, response, accounts)
        return response

    @app.get("/", include_in_schema=False)
    def lobby_page(request: Request) -> Response:
        return page(request, "lobby.html")

    @app.get("/player/{name:path}", include_in_schema=False)  # "/" in a name too: the page says no such player
    def player_page(request: Request, name: str) -> Response:
        return page(request, "player.html")

    @app.get("/leaderboard", include_in_schema=False)
    def leaderboard_page(request: Request) -> Response:
        return page(request, "leaderboard.html")

    @app.get("/puzzles", include_in_schema=False)
    @app.get("/puzzles/{number}", include_in_schema=False)
    def puzzles_page(request: Request) -> Response:
        return page(request, "puzzles.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/game/{game_id}", include_in_schema=False)
    def game_page(request: Request, game_id: str) -> Response:
        return page(request, "game.html")

    # -- API -----------------------------------------------------------------------------------
    app.state.throttle = throttle
    app.state.puzzles = puzzles
    app.include_router(games_router(service, accounts, throttle, new_games, work))
    app.include_router(live_router(service, hub, throttle))
    app.router.default = refuse_other_paths(app.router.default)
    app.include_router(puzzles_router(puzzles))

    return app
