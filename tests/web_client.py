"""Plain HTTP to a qiza server started by a test (standard library only): a free loopback
port and one JSON request."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from typing import Any


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def call(url: str, method: str = "GET", body: Any = None, token: str | None = None,
         raw: bytes | None = None) -> tuple[int, Any]:
    """One HTTP request (``body`` as JSON, or ``raw`` bytes; ``token`` in X-Seat-Token); the
    answer's status and JSON body."""
    data = raw if raw is not None else json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", **({"X-Seat-Token": token} if token else {})}
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)
