"""What every request passes before the app sees it (an ASGI middleware).

* Secrets stay out of URLs, which servers and proxies log: a query string naming a ``token``
  or an ``invite`` is refused (422 ``token_in_url``) on HTTP and WebSocket alike, and its
  value is blanked out of the request before the access log writes it.
* A request body is at most :data:`MAX_BODY` bytes: a larger ``Content-Length`` is refused
  at once, and a body sent without one (chunked) is refused as soon as it grows past the
  limit (413 ``body_too_large``); the rest is never read. The app gets the body already read,
  so nothing else ever holds more than the limit; none if it came without a ``Content-Type``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, urlencode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the largest request body (bytes): far more than any request of a game needs
MAX_BODY = 64 * 1024
#: the largest request line and headers together (bytes): a browser's, cookies and all, take a
#: few; the server (``qiza serve``) closes a connection sending more before they end with 431,
#: holding no more than this of them (it held them whole: 20 MB of headers were read and answered)
MAX_HEADERS = 32 * 1024
#: query parameters that would put a secret in a URL
SECRET_PARAMETERS = frozenset({"token", "invite"})


def error_body(code: str, message: str) -> bytes:
    """The JSON error ``{"error": {"code": ..., "message": ...}}``."""
    return json.dumps({"error": {"code": code, "message": message}}).encode()


async def send_error(send: Send, status: int, code: str, message: str,
                     headers: list[tuple[bytes, bytes]] | None = None, prefix: str = "http") -> None:
    """Answer with the JSON error ``{"error": {"code": ..., "message": ...}}`` (``prefix``
    ``"websocket.http"``: a WebSocket's handshake refused, see :func:`refuse_websocket`)."""
    body = error_body(code, message)
    await send({"type": f"{prefix}.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": f"{prefix}.response.body", "body": body})


async def refuse_websocket(scope: Scope, send: Send, status: int, code: str, message: str) -> None:
    """Refuse a WebSocket before it opens with ``status`` and the JSON error, as an HTTP request
    is refused, where the server can (ASGI's ``websocket.http.response`` extension: uvicorn's);
    else closed with 4000 + ``status`` (the server answers 403 without a body)."""
    if "websocket.http.response" in scope.get("extensions", {}):
        await send_error(send, status, code, message, prefix="websocket.http")
    else:
        await send({"type": "websocket.close", "code": 4000 + status})


def redact_query(scope: Scope) -> None:
    """Replace the values of secret-bearing query parameters in ``scope`` (in place), so that
    the server's access log, which writes the scope's path and query, never holds them."""
    query: str = scope.get("query_string", b"").decode("latin-1")
    pairs = [(name, "[redacted]" if name.lower() in SECRET_PARAMETERS else value)
             for name, value in parse_qsl(query, keep_blank_values=True)]
    scope["query_string"] = urlencode(pairs, safe="[]").encode("latin-1")


def secret_in_query(scope: Scope) -> str | None:
    """The name of a secret-bearing parameter in the request's query string, if any."""
    query: str = scope.get("query_string", b"").decode("latin-1")
    for name, _ in parse_qsl(query, keep_blank_values=True):
        if name.lower() in SECRET_PARAMETERS:
            return name
    return None


class RequestGuard:
    """ASGI middleware: no secret in a URL, no request body over ``max_body`` bytes."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        secret = secret_in_query(scope)
        if secret is not None:
            redact_query(scope)  # the refusal is logged without the secret
            said = f"{secret!r} does not go in a URL (servers log URLs): send seat tokens in the " + (
                "WebSocket's first message" if scope["type"] == "websocket" else
                "X-Seat-Token header or the request body, invites in the request body")
            if scope["type"] == "websocket":
                await refuse_websocket(scope, send, 422, "token_in_url", said)
            else:
                await send_error(send, 422, "token_in_url", said)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        declared = None
        chunked = typed = False
        for key, value in scope.get("headers", ()):
            typed = typed or (key == b"content-type" and bool(value.strip()))
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await send_error(send, 400, "bad_request", "Content-Length is not a number")
                    return
            chunked = chunked or key == b"transfer-encoding"
        if declared is not None and chunked:
            # the body's end said two ways: a proxy that reads it by one and the server by the other
            # disagree where the next request starts (request smuggling); refused, the connection
            # closed with what followed on it
            await send_error(send, 400, "bad_request", "a request gives its body's length by Content-Length "
                             "or by Transfer-Encoding, not both", headers=[(b"connection", b"close")])
            return
        if declared is not None and declared > self.max_body:
            await self._too_large(send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await self._too_large(send)
                return
            more = bool(message.get("more_body"))
        # a body of no type is not read (as JSON: FastAPI did before 0.132): a cross-site request a
        # browser sends unasked (no CORS preflight) would be taken as the page's own
        await self.app(scope, _replay(bytes(body) if typed else b"", receive), send)

    async def _too_large(self, send: Send) -> None:
        await send_error(send, 413, "body_too_large",
                         f"the request body is larger than {self.max_body} bytes, more than any request needs",
                         [(b"connection", b"close")])


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read already, then waits for the client's disconnect."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
