"""Load test of the online club on loopback: many signed-in players at once.

A ``qiza serve`` process (SQLite by default, or ``--database-url``) and ``--players`` simulated
browsers, each a thread doing what the pages do: sign up, post a seek with a clock or accept
one, take the seat, keep a WebSocket open on the game, poll the lobby's seeks and the game's
chat every 2 seconds (as the pages do), chat, and play turns (exchanges and passes, so that
games end after the scoreless turns and rematches follow) until ``--seconds`` have passed.

Prints requests per second, the latency of each kind of request (median, 95th and 99th
percentile), errors, games finished and updates pushed over WebSockets::

    python benchmarks/club_load.py --players 40 --seconds 60

Measured 2026-11-25 on the 2-core development machine, shared with other work (load average 2-3
during the SQLite run, rising to 14 during the PostgreSQL run), 40 players for 60 s:

==========================  ========  ======  =====  ======  =======  ===========  ============
database (server procs)     requests  per s   games  errors  turn ms  chat post    sign up ms
                                                                      ms           (median)
==========================  ========  ======  =====  ======  =======  ===========  ============
SQLite (1)                  3,939     63.8    188    0       7 / 21   4 / 23       4,934
PostgreSQL (2)              3,217     52.0    143    0       54 / 176 46 / 143     8,959
==========================  ========  ======  =====  ======  =======  ===========  ============

(turn and chat: median / 95th percentile.) Sign-ups are slow by design: 40 Argon2 hashes (64 MB,
3 passes each) at once on two cores.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from web_client import free_port  # noqa: E402


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.games = 0
        self.pushes = 0

    def add(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.times[kind].append(seconds)
            if status >= 500 or status == 0:
                self.errors[f"{kind} {status}"] += 1


class Player(threading.Thread):
    def __init__(self, index: int, url: str, stats: Stats, until: float, seeker: bool) -> None:
        super().__init__(daemon=True)
        self.name_ = f"load{index}x{random.randrange(10**6)}"
        self.url = url
        self.stats = stats
        self.until = until
        self.seeker = seeker
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.rng = random.Random(index)

    def call(self, kind: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
             ) -> tuple[int, Any]:
        csrf = next((c.value or "" for c in self.jar if c.name == "qiza_csrf"), "")
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Content-Type": "application/json", "X-CSRF-Token": csrf, **(headers or {})})
        begin = time.perf_counter()
        status, answer = 0, None
        try:
            with self.opener.open(request, timeout=60) as response:
                status, answer = response.status, json.load(response)
        except urllib.error.HTTPError as exc:
            status = exc.code
            try:
                answer = json.load(exc)
            except ValueError:
                answer = None
        except OSError:
            status = 0
        self.stats.add(kind, time.perf_counter() - begin, status)
        return status, answer

    def run(self) -> None:
        self.call("account", "GET", "/api/account")
        self.call("sign up", "POST", "/api/account/signup", {"name": self.name_, "password": "load test password"})
        while time.monotonic() < self.until:
            game_id = self.find_game()
            if game_id is not None:
                self.play(game_id)

    def find_game(self) -> str | None:
        if self.seeker:
            status, seek = self.call("post seek", "POST", "/api/seeks",
                                     {"time_control": {"minutes": 5, "increment": 2}, "rated": True})
            if status != 201:
                time.sleep(1)
                return None
            while time.monotonic() < self.until:
                _, listing = self.call("seeks", "GET", "/api/seeks")
                for mine in (listing or {}).get("mine", []):
                    if mine["id"] == seek["id"] and mine["game_id"]:
                        return str(mine["game_id"])
                time.sleep(2)
            return None
        while time.monotonic() < self.until:
            _, listing = self.call("seeks", "GET", "/api/seeks")
            offers = [s for s in (listing or {}).get("open", []) if not s["yours"]]
            if offers:
                status, accepted = self.call("accept seek", "POST", f"/api/seeks/{self.rng.choice(offers)['id']}/accept")
                if status == 200:
                    return str(accepted["game_id"])
            time.sleep(2 * self.rng.random())
        return None

    def play(self, game_id: str) -> None:
        from websockets.sync.client import connect

        status, seat = self.call("my seat", "POST", f"/api/games/{game_id}/my-seat")
        if status != 200:
            return
        with connect(self.url.replace("http", "ws") + f"/ws/games/{game_id}", open_timeout=30) as socket:
            self.watch(game_id, seat, socket)

    def watch(self, game_id: str, seat: dict[str, Any], socket: Any) -> None:
        headers = {"X-Seat-Token": seat["token"]}
        socket.send(json.dumps({"seat": seat["seat"], "token": seat["token"]}))
        pushes = 0
        last_chat = 0.0
        try:
            while time.monotonic() < self.until:
                try:
                    message = json.loads(socket.recv(timeout=2))
                    if message.get("type") == "state":
                        pushes += 1
                        state = message["state"]
                    else:
                        continue
                except TimeoutError:
                    _, state = self.call("game state", "GET", f"/api/games/{game_id}?seat={seat['seat']}",
                                         headers=headers)
                if not state or state.get("over"):
                    if self.seeker and state:
                        self.stats.games += 1
                    return
                if time.monotonic() - last_chat > 2:
                    last_chat = time.monotonic()
                    self.call("chat poll", "GET", f"/api/games/{game_id}/chat?seat={seat['seat']}", headers=headers)
                    if self.rng.random() < 0.3:
                        self.call("chat post", "POST", f"/api/games/{game_id}/chat",
                                  {"text": "good move", "seat": seat["seat"], "token": seat["token"]})
                if state["to_move"] == seat["seat"] and not state.get("can_challenge"):
                    time.sleep(self.rng.uniform(0.2, 1.0))  # thinking
                    kind = "exchange" if state["exchange_allowed"] and self.rng.random() < 0.5 else "pass"
                    extra = {"tiles": state["rack"][:2]} if kind == "exchange" else {}
                    self.call("turn", "POST", f"/api/games/{game_id}/actions",
                              {"seat": seat["seat"], "token": seat["token"], "version": state["version"], "kind": kind,
                               **extra})
        finally:
            with self.stats.lock:
                self.stats.pushes += pushes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--database-url", default=None, help="default: a new SQLite file")
    parser.add_argument("--servers", type=int, default=1, help="server processes on the database (PostgreSQL)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="qiza-load-"))
    url_db = args.database_url or f"sqlite:///{folder / 'load.sqlite3'}"
    log = (folder / "serve.log").open("w")
    urls, servers = [], []
    for _ in range(args.servers):
        port = free_port()
        servers.append(subprocess.Popen([sys.executable, "-m", "qiza", "serve", "--port", str(port), "--database-url",
                                         url_db, "--log-level", "warning", "--sign-ups", str(args.players)], cwd=ROOT, stdout=log,
                                        stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"}))
        urls.append(f"http://127.0.0.1:{port}")
    try:
        for url in urls:
            for _ in range(600):
                try:
                    with urllib.request.urlopen(url + "/api/meta", timeout=5):
                        break
                except OSError:
                    time.sleep(0.2)
        stats = Stats()
        begin = time.monotonic()
        until = begin + args.seconds
        # players alternate between the servers: a seek posted on one is accepted on another
        players = [Player(i, urls[i % len(urls) if len(urls) == 1 else (i // 2) % len(urls)], stats, until,
                          seeker=i % 2 == 0) for i in range(args.players)]
        for player in players:
            player.start()
        for player in players:
            player.join(timeout=args.seconds + 120)
        took = time.monotonic() - begin
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
        log.close()
    total = sum(len(v) for v in stats.times.values())
    print(f"{args.players} players, {args.servers} server process(es) on {url_db.split(':')[0]}, {took:.0f} s: {total} requests "
          f"({total / took:.1f}/s), {stats.games} games finished, {stats.pushes} WebSocket updates, "
          f"{sum(stats.errors.values())} errors {dict(stats.errors) or ''}")
    print(f"{'request':<12} {'count':>6} {'median ms':>10} {'p95 ms':>8} {'p99 ms':>8}")
    for kind, times in sorted(stats.times.items()):
        ordered = sorted(times)

        def pick(q: float, values: list[float] = ordered) -> float:
            return values[min(len(values) - 1, int(q * len(values)))] * 1000

        print(f"{kind:<12} {len(times):>6} {statistics.median(times) * 1000:>10.1f} {pick(0.95):>8.1f} {pick(0.99):>8.1f}")


if __name__ == "__main__":
    main()
