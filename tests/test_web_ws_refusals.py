"""A WebSocket to ``qiza serve`` refused: before it opens, with an HTTP status and the JSON
error every HTTP refusal has (websockets and Starlette answered these in plain text or with an
empty 403); once open, with the JSON error message and a close code of 4000 + the status."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")
from web_client import Served, call  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

KEY = b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("ws")
    served = Served(folder / "serve.log", f"sqlite:///{folder / 'ws.sqlite3'}", "--live-connections", "3")
    try:
        yield served
    finally:
        served.stop()


def handshake(port: int, path: str, headers: bytes) -> tuple[int, str, Any]:
    """A WebSocket handshake of ``path`` with ``headers`` sent by hand: the answer's status, its
    Content-Type and its JSON body."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n".encode()
                     + headers + b"\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.lower().split(": ", 1) for line in lines[1:])
    assert int(fields["content-length"]) == len(body)
    return int(lines[0].split()[1]), fields["content-type"], json.loads(body)


@pytest.mark.parametrize(("path", "headers", "status", "code", "said"), [
    ("/ws/games/x?token=abc", KEY + b"Sec-WebSocket-Version: 13\r\n", 422, "token_in_url", "'token' does not go in a URL"),
    ("/ws/nothing", KEY + b"Sec-WebSocket-Version: 13\r\n", 404, "not_found", "no WebSocket at '/ws/nothing'"),
    ("/ws/games/x", b"Sec-WebSocket-Version: 13\r\n", 400, "bad_request", "missing Sec-WebSocket-Key header"),
    ("/ws/games/x", KEY + b"Sec-WebSocket-Version: 8\r\n", 400, "bad_request", "invalid Sec-WebSocket-Version"),
], ids=["token-in-url", "no-such-path", "no-key", "old-version"])
def test_refused_before_it_opens_in_json(server: Served, path: str, headers: bytes, status: int, code: str,
                                         said: str) -> None:
    got, kind, body = handshake(server.port, path, headers)
    assert (got, kind, body["error"]["code"]) == (status, "application/json", code), body
    assert said in body["error"]["message"]


def test_a_client_library_reads_the_refusal(server: Served) -> None:
    with pytest.raises(InvalidStatus) as refused:
        ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/games/x?invite=abc", open_timeout=15)
    assert refused.value.response.status_code == 422
    assert json.loads(refused.value.response.body)["error"]["code"] == "token_in_url"


def test_refused_once_open_in_json_with_its_close_code(server: Served) -> None:
    """What is known only from the first message or the server's count (no such game, a wrong
    token, too many live connections from one address) is refused on the open connection."""
    status, created = call(server.url + "/api/games", "POST", {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    assert status == 201, created
    base = f"ws://127.0.0.1:{server.port}/ws/games/"
    for game, hello, code, close in ((created["id"] + "x", {}, "no_such_game", 4404),
                                     (created["id"], {"seat": 0, "token": "x"}, "wrong_token", 4403)):
        with ws_client.connect(base + game, open_timeout=15) as live:
            live.send(json.dumps(hello))
            assert json.loads(live.recv(timeout=15))["error"]["code"] == code
            with pytest.raises(ConnectionClosed) as closed:
                live.recv(timeout=15)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == close
    with contextlib.ExitStack() as held:
        for _ in range(3):
            held.enter_context(ws_client.connect(base + created["id"], open_timeout=15))
        with ws_client.connect(base + created["id"], open_timeout=15) as live:
            assert json.loads(live.recv(timeout=15))["error"]["code"] == "too_many_connections"
            with pytest.raises(ConnectionClosed) as closed:
                live.recv(timeout=15)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
