"""Plain HTTP to a qiza server started by a test (standard library only): a free loopback
port, one JSON request, a server in a thread of the test process (uvicorn), and ``qiza serve``
in a process of its own."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


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


class ServerThread:
    """A uvicorn server in a thread of the test process, on loopback: the app of
    ``create_app(database_url, **options)``, by default as ``qiza serve`` makes it (the computer
    worker processes start with the server), with every game's seed 1 (clients cannot choose a
    seed) and no practical limit on the games made from loopback (``new_games``: a module's
    browser tests share one server, and past the limit's 30 games a fast run was refused 429
    ``too_many_games``; the limit itself is tested in test_web_hardening and test_web_concurrency)."""

    def __init__(self, database_url: str, **options: Any) -> None:
        import uvicorn

        from qiza.web.app import create_app

        self.port = free_port()
        options = {"warm_up": True, "seeds": lambda: 1, "new_games": 100_000, **options}
        config = uvicorn.Config(create_app(database_url, **options), host="127.0.0.1", port=self.port,
                                log_level="warning")
        self.server: Any = uvicorn.Server(config)  # tests reach the app through it (server.config.app)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > end or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


START_SECONDS = 300
"""Seconds :class:`Served` waits for its server to answer (60 ran out for one of two servers with
their computer workers at load 18; a server that never answers is still found out)."""


class Served:
    """``python -m qiza serve`` on a free loopback port, its output in ``log``: by default with
    the access log on (``log_level``) and no computer worker processes (``computer_workers``
    None: as many as ``qiza serve`` starts by default); ``head_seconds``, the time it gives a
    request's head (:data:`qiza.web.server.HEAD_SECONDS`); ``seed``, every new game's seed
    (:func:`qiza.web.game_core.new_seed` is replaced in the server's process: HTTP clients
    cannot choose a seed), for a test that plays from the racks dealt (a random opening rack
    has no placement about once in a hundred)."""

    def __init__(self, log: Path, database_url: str, *extra: str, computer_workers: int | None = 0,
                 log_level: str = "info", head_seconds: float | None = None, seed: int | None = None) -> None:
        self.port = 0  # the server's own choice (--port 0), read from its first line: a port found
        # free here could be taken by another test's socket before the server's start bound it
        self.log_path = log
        self.log = log.open("w")
        workers = ["--computer-workers", str(computer_workers)] if computer_workers is not None else []
        qiza = ["-m", "qiza"]
        setup = []
        if head_seconds is not None:  # the server's qiza.web.server.HEAD_SECONDS (its test need not wait it out)
            setup.append(f"import qiza.web.server; qiza.web.server.HEAD_SECONDS = {head_seconds!r}")
        if seed is not None:
            setup.append(f"import qiza.web.game_core; qiza.web.game_core.new_seed = lambda: {seed!r}")
        if setup:
            qiza = ["-c", "; ".join(["import sys", *setup, "from qiza.cli import main", "sys.exit(main())"])]
        self.proc = subprocess.Popen(
            [sys.executable, *qiza, "serve", "--port", "0", "--database-url", database_url,
             *workers, "--computer-delay", "0", "--log-level", log_level, *extra],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
        end = time.monotonic() + START_SECONDS
        while True:
            if not self.port and (serving := re.search(r"serving on http://127\.0\.0\.1:(\d+)/", log.read_text())):
                self.port = int(serving[1])
            try:
                if self.port and call(self.url + "/api/meta")[0] == 200:
                    break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                self.stop()
                raise RuntimeError(f"server did not start: {log.read_text()}")
            time.sleep(0.2)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> str:
        """Stop the server; its whole output."""
        if not self.log.closed:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.log.close()
        return self.log_path.read_text()
