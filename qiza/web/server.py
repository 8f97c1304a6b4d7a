"""``qiza serve``: serve games in the browser (FastAPI app run by uvicorn)."""

from __future__ import annotations

import argparse
import logging
import re
import socket
from http import HTTPStatus
from pathlib import Path
from typing import Any

from qiza.cli import process_count, whole_number
from qiza.text import plural
from qiza.web.throttle import (
    CONNECTIONS_PER_ADDRESS,
    HEAVY_WORK,
    LIVE_PER_ADDRESS,
    NEW_GAMES,
    READ_BURST_SECONDS,
    READS_PER_SECOND,
)

#: seconds a connection has to send a request's head (request line and headers) and its body
#: from the head's first byte, or from its opening; then it is answered 408 and closed (uvicorn
#: waits for a head, and a body, for ever: thousands of connections sending nothing, or a byte at
#: a time, were held open, each a socket of the server's open files)
HEAD_SECONDS = 10.0
#: seconds a connection its address has no room for (``--connections``) has to send its head: its
#: request is then refused, unless a place was freed meanwhile or it comes through a trusted proxy
#: for another address (a flood of connections sending nothing held each for :data:`HEAD_SECONDS`)
UNPLACED_HEAD_SECONDS = 1.0
#: the end of a request's head (h11 takes a bare LF for CRLF)
HEAD_END = re.compile(rb"\n\r?\n")


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``qiza serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=8000, help="port (default 8000)")
    parser.add_argument("--database-url", default=None,
                        help="SQLAlchemy URL, e.g. postgresql://user@localhost/qiza "
                        "(default: a SQLite file in the user's data directory)")
    parser.add_argument("--computer-workers", type=process_count, default=2,
                        help="worker processes deciding the computer seats' moves (0: threads of the server process; "
                        "at most the cores)")
    parser.add_argument("--computer-delay", type=float, default=1.5,
                        help="seconds a computer waits after a person's play, so others may challenge it")
    parser.add_argument("--lexicon", action="append", default=[], type=_lexicon_option, metavar="NAME=PATH",
                        help="offer the word list file PATH to players as lexicon NAME (repeatable); "
                        "players choose only among these and the built-in ones")
    parser.add_argument("--sign-ups", type=whole_number(1), default=5, metavar="N",
                        help="new accounts one address may make at once, then one every 5 minutes (default 5)")
    parser.add_argument("--new-games", type=whole_number(1), default=NEW_GAMES, metavar="N",
                        help=f"games one address may create at once, then one every 20 seconds (default {NEW_GAMES})")
    parser.add_argument("--analyses", type=whole_number(1), default=HEAVY_WORK, metavar="N",
                        help="analyses and game archives one address may have made at once, then one every 30 "
                        f"seconds (default {HEAVY_WORK}; those made before cost nothing)")
    parser.add_argument("--live-connections", type=whole_number(1), default=LIVE_PER_ADDRESS, metavar="N",
                        help="live connections (pages of games) one address may hold open at once "
                        f"(default {LIVE_PER_ADDRESS})")
    parser.add_argument("--connections", type=whole_number(1), default=CONNECTIONS_PER_ADDRESS, metavar="N",
                        help="HTTP connections one address may hold open at once; a request on one more gets 429 "
                        f"and the connection is closed (default {CONNECTIONS_PER_ADDRESS})")
    parser.add_argument("--reads", type=whole_number(1), default=READS_PER_SECOND, metavar="N",
                        help=f"page and API reads (GET) one address may make a second, after a burst of "
                        f"{READ_BURST_SECONDS} seconds' worth; more get 429 (default {READS_PER_SECOND})")
    parser.add_argument("--secure-cookies", action="store_true",
                        help="always mark the session cookies Secure (the server is reached only over TLS, "
                        "through a proxy that may not send X-Forwarded-Proto)")
    parser.add_argument("--remind-after", type=_hours, default=24.0, metavar="HOURS",
                        help="hours without a move in an untimed game before the others may remind the player "
                        "(default 24)")
    parser.add_argument("--claim-after", type=_hours, default=24.0, metavar="HOURS",
                        help="hours after a reminder before the game may be claimed from the idle player "
                        "(default 24)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])


def _lexicon_option(text: str) -> tuple[str, Path]:
    from qiza.web.lexicons import parse_option

    try:
        return parse_option(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _hours(text: str) -> float:
    try:
        hours = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of hours: {text!r}") from None
    if not 0 < hours <= 24 * 365:
        raise argparse.ArgumentTypeError(f"hours must be more than 0 and at most a year, not {text}")
    return hours


def run(args: argparse.Namespace) -> int:
    """Start the server; returns when it is stopped."""
    import uvicorn
    from sqlalchemy.exc import DBAPIError

    from qiza import coldstart
    from qiza.errors import QizaError
    from qiza.web.app import create_app
    from qiza.web.guard import MAX_BODY, MAX_HEADERS

    logging.basicConfig(level=args.log_level.upper())
    if args.log_level != "debug":  # the schema's migrations, one line each plugin, are not news
        logging.getLogger("alembic").setLevel(max(logging.WARNING, logging.getLevelName(args.log_level.upper())))
    # a fresh install: the move generator compiles in another process; the computer seats
    # (here and in the worker processes) play without it meanwhile
    coldstart.start(["enable"])
    try:
        app = create_app(args.database_url, computer_workers=max(1, args.computer_workers),
                         computer_processes=args.computer_workers,
                         computer_delay=args.computer_delay, warm_up=True, lexicons=dict(args.lexicon),
                         sign_ups=args.sign_ups, new_games=args.new_games, heavy_work=args.analyses,
                         live_connections=args.live_connections, reads=args.reads, secure_cookies=args.secure_cookies,
                         remind_after=args.remind_after * 3600, claim_after=args.claim_after * 3600)
    except DBAPIError as exc:  # a read-only file or folder, a missing folder, a server refusing
        # the driver's own message (never the URL, which may hold a password)
        raise QizaError(f"cannot use the database: {exc.orig}; the server needs to read and write it") from None
    except OSError as exc:  # the default database's folder cannot be made
        raise QizaError(f"cannot make the database's folder {exc.filename}: {exc.strerror}") from None
    # the port is taken before the app starts: on a port in use (another qiza serve on the same
    # database), nothing of the app runs (no clocks or computer seats taken up, no workers)
    listening = listen(args.host, args.port)
    port = listening.getsockname()[1]  # the one the system chose for --port 0
    print(f"qiza: serving on http://{args.host}:{port}/ (API documentation at /docs)", flush=True)
    # WebSocket messages are small (the first names the seat; then "ping" or "refresh"); h11,
    # whose buffer of a request's head is bounded (httptools, uvicorn's choice when installed,
    # reads headers of any size)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=MAX_BODY,
                            http=http_protocol(args.connections), h11_max_incomplete_event_size=MAX_HEADERS,
                            ws=websocket_protocol())
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[listening])
        started = server.started  # (older uvicorn returns when the app failed to start)
    except SystemExit:  # uvicorn's, when the app failed to start (it logged why)
        started = False
    if not started:
        raise QizaError("the server could not start (see above)")
    return 0


def websocket_protocol() -> type | str:
    """uvicorn's WebSocket protocol (websockets' sans-I/O one, uvicorn's choice), whose refusals
    of a handshake (no ``Sec-WebSocket-Key``, a version it does not speak; a connection the app
    closed before accepting it) are the JSON error of the app's shape, status and headers kept
    (websockets answered them in plain text). The app's own refusals before a WebSocket opens
    are JSON already (:func:`qiza.web.guard.refuse_websocket`)."""
    try:  # (an older uvicorn without the sans-I/O protocol: its own, refusing in plain text)
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.server import ServerProtocol
    except ImportError:
        return "auto"

    from qiza.web.guard import error_body

    codes = {400: "bad_request", 403: "forbidden", 426: "upgrade_required", 500: "internal_error"}

    class JsonRejections(ServerProtocol):
        def reject(self, status: Any, text: str) -> Any:
            response = super().reject(status, text)
            said = text.strip().removeprefix("Failed to open a WebSocket connection: ").rstrip(".")
            response.body = error_body(codes.get(response.status_code, "http_error"),
                                       "the WebSocket was refused before it opened" + (f": {said}" if said else ""))
            for name in ("Content-Type", "Content-Length"):
                del response.headers[name]
            response.headers["Content-Type"] = "application/json"
            response.headers["Content-Length"] = str(len(response.body))
            return response

    class JsonRefusals(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if type(getattr(self, "conn", None)) is ServerProtocol:  # (another uvicorn's: as it is)
                self.conn.__class__ = JsonRejections  # made as uvicorn makes it, refusing in JSON

    return JsonRefusals


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` for the server (as uvicorn binds its own);
    :class:`~qiza.errors.QizaError` naming the address when it cannot be (in use, no permission,
    no such address)."""
    from qiza.errors import QizaError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family=family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except (OSError, OverflowError) as exc:
        sock.close()
        reason = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        raise QizaError(f"cannot listen on {shown}:{port}: {reason[:1].lower()}{reason[1:]}") from None
    sock.set_inheritable(True)
    return sock


def http_protocol(connections: int = CONNECTIONS_PER_ADDRESS) -> type:
    """uvicorn's h11 protocol, with :data:`HEAD_SECONDS` for each request's head (counted from the
    connection's opening, or from the first byte of a head after a request kept alive: the wait
    between requests is uvicorn's keep-alive time), and at most ``connections`` HTTP connections
    open from one address at once (:class:`~qiza.web.throttle.ConnectionPlace`: a request on one
    more is answered 429 by the app's :class:`~qiza.web.throttle.ConnectionLimit`, which finds the
    request's address as every other limit does, behind a trusted proxy the client's; one its
    peer's address has no room for has :data:`UNPLACED_HEAD_SECONDS` for its head). Each call
    counts apart: one a server."""
    import asyncio

    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from qiza.web.guard import MAX_HEADERS, error_body
    from qiza.web.throttle import CONNECTION_EXTENSION, ConnectionPlace, OpenCount

    count = OpenCount(connections)

    class HeadTimeout(H11Protocol):
        #: the HTTP connections open from each address, of every connection of this protocol
        open_connections = count
        head_timer: asyncio.TimerHandle | None = None
        place: ConnectionPlace | None = None
        upgraded = False  # a WebSocket now: no request of this protocol's to time

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            place = self.place = ConnectionPlace(count, self.client[0] if self.client else "")
            app = self.app

            async def with_place(scope: Any, receive: Any, send: Any) -> None:
                scope.setdefault("extensions", {})[CONNECTION_EXTENSION] = place
                await app(scope, receive, send)

            self.app = with_place
            seconds = HEAD_SECONDS if place.key is not None else UNPLACED_HEAD_SECONDS
            self.head_timer = self.loop.call_later(seconds, self.head_late, seconds)

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self.upgraded = True
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None
            if self.place is not None:  # a WebSocket now: counted by the live connections (another
                self.place.release()    # protocol's, whose closing this one never hears of)
            super().handle_websocket_upgrade(event)

        def data_received(self, data: bytes) -> None:
            # a head: h11 bounds only one whose end is still to come, not one ending in this read
            # (h11's buffer measured without a copy; looked into only when it may be over)
            if self.conn.their_state is h11.IDLE and len(self.conn._receive_buffer) + len(data) > MAX_HEADERS:
                end = HEAD_END.search(self.conn.trailing_data[0] + data, 0, MAX_HEADERS + 3)
                if end is None or end.start() > MAX_HEADERS:
                    self.refuse(431, "head_too_large", f"the request line and headers are over {MAX_HEADERS // 1024} "
                                "KiB, more than any request needs; the server reads no more of them")
                    return
            super().data_received(data)
            if self.upgraded:  # (h11 read the upgrade's head alone: a body seems to follow)
                return
            waiting = self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing()
            if waiting and self.head_timer is None:
                self.head_timer = self.loop.call_later(HEAD_SECONDS, self.head_late, HEAD_SECONDS)
            elif not waiting and self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def connection_lost(self, exc: Exception | None) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None
            if self.place is not None:
                self.place.release()
            super().connection_lost(exc)

        def head_late(self, seconds: float) -> None:
            self.head_timer = None
            state = self.conn.their_state
            if self.upgraded or state not in (h11.IDLE, h11.SEND_BODY) or self.transport.is_closing():
                return
            if state is h11.SEND_BODY and self.conn.our_state is not h11.SEND_RESPONSE:  # answered (413) already
                self.transport.close()
                return
            part = "head" if state is h11.IDLE else "body"
            self.refuse(408, "request_timeout", f"the request's {part} did not come within "
                        f"{plural(round(seconds), 'second')}")

        def send_400_response(self, msg: str) -> None:
            # what h11 cannot read (uvicorn logged it and answered it in plain text)
            self.refuse(400, "bad_request", "the request is not HTTP the server can read: a malformed request line, "
                        "header, Content-Length or chunk")

        def refuse(self, status: int, code: str, message: str) -> None:
            """Answer ``status`` with the JSON error ``code`` (the app's shape) and close the
            connection: what is refused here never reaches the app."""
            body = error_body(code, message)
            self.transport.write(b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
                                 b"connection: close\r\n\r\n%s"
                                 % (status, HTTPStatus(status).phrase.encode(), len(body), body))
            self.transport.close()

    return HeadTimeout
