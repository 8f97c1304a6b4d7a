"""The HTTP connections one address may hold open to ``qiza serve`` at once: the extras are
refused, other addresses are served meanwhile, and every way a connection ends gives its place
back."""

from __future__ import annotations

import contextlib
import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from web_client import Served, call  # noqa: E402

from qiza.web.throttle import CONNECTIONS_PER_ADDRESS  # noqa: E402

#: another address of this machine: Linux answers every 127.0.0.x on loopback
OTHER = "127.0.0.2"
#: the servers' limit (``--connections``): the default's 128 answers, on a loaded machine, took
#: more than uvicorn's 5 s of keep-alive, and the first connections were closed before the last
#: were answered
LIMIT = 12


def other_address_works() -> bool:
    with socket.socket() as sock:
        try:
            sock.bind((OTHER, 0))
        except OSError:
            return False
    return True


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Served]:
    served = Served(tmp_path / "serve.log", f"sqlite:///{tmp_path / 'conns.sqlite3'}", "--reads", "100000",
                    "--connections", str(LIMIT))
    try:
        yield served
    finally:
        served.stop()


def hold(port: int, count: int, source: str = "127.0.0.1", forwarded: str | None = None) -> list[socket.socket]:
    """``count`` connections from ``source`` opened at once, then a ``GET /api/meta`` on each
    (with ``X-Forwarded-For: forwarded``), each answered 200 and kept alive (within uvicorn's 5 s)."""
    socks = []
    try:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
            socks.append(sock)
        ask(socks, forwarded)
    except BaseException:
        for sock in socks:
            sock.close()
        raise
    return socks


def ask(socks: list[socket.socket], forwarded: str | None = None) -> None:
    """A ``GET /api/meta`` on each connection, each answered 200."""
    extra = b"X-Forwarded-For: %s\r\n" % forwarded.encode() if forwarded else b""
    for sock in socks:
        sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n%s\r\n" % extra)
    for sock in socks:
        status, _ = answer(sock)
        assert status == 200


def answer(sock: socket.socket) -> tuple[int, bytes]:
    """The status and body of the next answer on a connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        part = sock.recv(65536)
        assert part, data
        data += part
    head, body = data.split(b"\r\n\r\n", 1)
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split(b" ", 2)[1]), body


def one(port: int, source: str = "127.0.0.1", forwarded: str | None = None) -> tuple[int, Any, socket.socket]:
    """A new connection's status and JSON body of one ``GET /api/meta``, and the connection."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    extra = b"X-Forwarded-For: %s\r\n" % forwarded.encode() if forwarded else b""
    sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n%s\r\n" % extra)
    status, body = answer(sock)
    return status, json.loads(body), sock


def refused(port: int, source: str = "127.0.0.1", forwarded: str | None = None) -> None:
    """A new connection's request is answered 429 ``too_many_connections``, and the connection
    closed by the server."""
    status, body, sock = one(port, source, forwarded)
    with sock:
        assert status == 429 and body["error"]["code"] == "too_many_connections", body
        assert sock.recv(1) == b""


def admitted(port: int, source: str = "127.0.0.1", forwarded: str | None = None) -> socket.socket:
    """A new connection whose request is answered 200, once the server has heard of connections
    just closed (at once, or nearly)."""
    end = time.monotonic() + 10
    while True:
        status, body, sock = one(port, source, forwarded)
        if status == 200:
            return sock
        sock.close()
        assert time.monotonic() < end, body
        time.sleep(0.1)


def test_one_address_holds_its_connections_and_no_more_while_others_are_served(server: Served) -> None:
    """One address kept thousands of connections open by sending a request on each every few
    seconds (only WebSockets were counted): a request on a connection past
    the limit (``--connections``) is refused 429 and the connection closed,
    while another address, and the connections admitted, are served; a connection closed makes
    room. Behind a trusted proxy (uvicorn trusts 127.0.0.1's ``X-Forwarded-For``) a connection
    counts for the client it carries, as every other limit does."""
    if not other_address_works():
        pytest.skip(f"{OTHER} is not an address of this machine")
    with contextlib.ExitStack() as stack:
        held = hold(server.port, LIMIT)
        for sock in held:
            stack.callback(sock.close)
        refused(server.port)
        stack.enter_context(admitted(server.port, OTHER))
        held.pop().close()
        stack.enter_context(admitted(server.port))
        refused(server.port)
        ask(held)  # the connections admitted are served as before
    # a proxy's connections count for the clients they carry
    with contextlib.ExitStack() as stack:
        proxied = hold(server.port, LIMIT, forwarded="203.0.113.7")
        for sock in proxied:
            stack.callback(sock.close)
        refused(server.port, forwarded="203.0.113.7")
        stack.enter_context(admitted(server.port, forwarded="203.0.113.8"))
        stack.enter_context(admitted(server.port))
        ask(proxied, "203.0.113.7")


def test_a_connection_past_the_limit_that_sends_nothing_is_closed_soon(server: Served) -> None:
    """A connection its address has no room for has :data:`~qiza.web.server.UNPLACED_HEAD_SECONDS`
    to send its request's head (which is then refused) before it is answered 408 and closed: held
    :data:`~qiza.web.server.HEAD_SECONDS` as any other, a flood of connections sending nothing kept
    ten seconds' worth of them open. Another address's connection is given the whole time."""
    from qiza.web.server import HEAD_SECONDS

    if not other_address_works():
        pytest.skip(f"{OTHER} is not an address of this machine")
    with contextlib.ExitStack() as stack:
        for sock in hold(server.port, LIMIT):
            stack.callback(sock.close)
        begin = time.monotonic()
        silent = stack.enter_context(socket.create_connection(("127.0.0.1", server.port), timeout=30))
        other = stack.enter_context(socket.create_connection(("127.0.0.1", server.port), timeout=30,
                                                             source_address=(OTHER, 0)))
        data = b""
        while part := silent.recv(65536):
            data += part
        took = time.monotonic() - begin
        assert data.startswith(b"HTTP/1.1 408 ") and took < HEAD_SECONDS / 2, (data, took)
        assert not select.select([other], [], [], 0)[0]  # still open, nothing said
        other.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answer(other)[0] == 200


def short_connection(port: int, kind: int) -> None:
    """A connection that ends one of the ways a connection ends."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        if kind == 0:  # a request, and the client closes
            sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
        elif kind == 1:  # a request with Connection: close: the server closes
            sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            while sock.recv(65536):
                pass
        elif kind == 2:  # half a head
            sock.sendall(b"GET /api/meta HTTP/1.1\r\nHo")
        elif kind == 3:  # not HTTP: 400 and closed
            sock.sendall(b"NOT HTTP\r\n\r\n")
            while sock.recv(65536):
                pass
        elif kind == 4:  # a WebSocket (counted by the live connections from its upgrade)
            sock.sendall(b"GET /ws/games/none HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.1 101 ")
        # kind 5: nothing sent


def test_every_way_a_connection_ends_gives_its_place_back(server: Served) -> None:
    """After 1,000 short connections (closed by the client or by the server, after a request,
    half a head, a bad head, nothing, or a WebSocket's upgrade), the address holds none: as many
    connections as the limit are served, and one more is refused."""
    for number in range(1000):
        short_connection(server.port, number % 6)
    time.sleep(1)  # the server hears of the last closes
    with contextlib.ExitStack() as stack:
        stack.enter_context(admitted(server.port))
        for sock in hold(server.port, LIMIT - 1):
            stack.callback(sock.close)
        refused(server.port)
    assert call(server.url + "/api/meta")[0] == 200


def test_serve_connections_option(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    import uvicorn

    import qiza.web.app
    from qiza import coldstart
    from qiza.web import server

    configs: list[Any] = []

    class Server:
        def __init__(self, config: Any) -> None:
            configs.append(config)

        def run(self, sockets: list[socket.socket]) -> None:
            for sock in sockets:
                sock.close()
            self.started = True  # as uvicorn's, whose app started (qiza serve reads it: a7dcb4c)

    monkeypatch.setattr(qiza.web.app, "create_app", lambda *_args, **_options: object())
    monkeypatch.setattr(coldstart, "start", lambda *_args, **_kw: None)
    monkeypatch.setattr(uvicorn, "Server", Server)
    parser = argparse.ArgumentParser()
    server.configure(parser)
    for options, limit in ((["--connections", "3"], 3), ([], CONNECTIONS_PER_ADDRESS)):
        assert server.run(parser.parse_args(["--port", "0", *options])) == 0
        assert configs[-1].http.open_connections.limit == limit
    with pytest.raises(SystemExit):
        parser.parse_args(["--connections", "0"])
