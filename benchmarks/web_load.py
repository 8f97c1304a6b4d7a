"""Load test of ``qiza serve`` on loopback: many concurrent games with computer seats.

Starts a server process (SQLite in a temporary folder, or ``--database-url``), then plays
``--games`` games at once, each a bot (a person seat driven over the HTTP API and the
WebSocket) against a computer seat, plus ``--robot-games`` games between two computers.
The bot exchanges or passes (cheap, so the client does not compete with the server for the
CPU); the computer plays real moves. Bounded by ``--max-seconds`` and the game count.

Reports turns per second (every turn of every game, computer and bot), the latency of the
bot's HTTP actions and the time from a bot's action to the computer's reply arriving on the
WebSocket, as percentiles.

    python benchmarks/web_load.py --games 20 --robot-games 4 --max-seconds 60

``--first-move LEVEL[,LEVEL...]`` measures start-up instead: for each level a fresh server
is started, the time until it answers requests is taken, then (after ``--idle`` seconds) a
game is created whose first turn is the computer's, and the time until that move is stored
is reported. ``--cold`` gives the server an empty Numba cache folder (as after an edit of
the move generator: every compiled function is compiled again).

    python benchmarks/web_load.py --first-move medium,hard,champion --idle 0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return (f"n={len(values)} p50={pick(0.5):.1f}ms p90={pick(0.9):.1f}ms p99={pick(0.99):.1f}ms "
            f"max={ordered[-1] * 1000:.1f}ms mean={statistics.fmean(values) * 1000:.1f}ms")


class Stats:
    def __init__(self) -> None:
        self.action_latency: list[float] = []
        self.reply_latency: list[float] = []
        self.errors: list[str] = []
        self.finished = 0
        self.game_ids: list[str] = []


async def bot_game(client: httpx.AsyncClient, base: str, level: str, seed: int, stats: Stats, deadline: float) -> None:
    created = (await client.post("/api/games", json={
        "preset": "computer", "seed": seed, "creator_seat": 0,
        "seats": [{"name": f"bot{seed}"}, {"kind": "computer", "level": level}]})).json()
    game_id, token = created["id"], created["tokens"]["0"]
    stats.game_ids.append(game_id)
    url = base.replace("http://", "ws://") + f"/ws/games/{game_id}?seat=0&token={token}"
    sent_at: float | None = None
    async with websockets.connect(url, open_timeout=30) as ws:
        while time.monotonic() < deadline:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic())))
            except TimeoutError:
                break
            if message.get("type") != "state":
                continue
            state = message["state"]
            if state["over"]:
                stats.finished += 1
                return
            if state["to_move"] != 0:
                continue
            if sent_at is not None:
                stats.reply_latency.append(time.monotonic() - sent_at)
                sent_at = None
            body: dict[str, Any] = {"seat": 0, "token": token, "version": state["version"]}
            if state["exchange_allowed"] and state["rack"]:
                body.update(kind="exchange", tiles=state["rack"][:3])
            else:
                body.update(kind="pass")
            start = time.monotonic()
            answer = await client.post(f"/api/games/{game_id}/actions", json=body)
            stats.action_latency.append(time.monotonic() - start)
            if answer.status_code != 200:
                stats.errors.append(answer.text[:200])
                if answer.status_code >= 500:
                    return
                continue
            after = answer.json()
            if not after["over"] and after["to_move"] != 0:
                sent_at = time.monotonic()


async def robot_game(client: httpx.AsyncClient, level: str, seed: int, stats: Stats, deadline: float) -> None:
    created = (await client.post("/api/games", json={
        "preset": "computer", "seed": seed, "creator_seat": None,
        "seats": [{"kind": "computer", "level": level}, {"kind": "computer", "level": level}]})).json()
    stats.game_ids.append(created["id"])
    while time.monotonic() < deadline:
        state = (await client.get(f"/api/games/{created['id']}")).json()
        if state["over"]:
            stats.finished += 1
            return
        await asyncio.sleep(0.5)


async def run_load(base: str, args: argparse.Namespace) -> tuple[Stats, float, int]:
    stats = Stats()
    deadline = time.monotonic() + args.max_seconds
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        start = time.monotonic()
        tasks = [bot_game(client, base, args.level, 1000 + i, stats, deadline) for i in range(args.games)]
        tasks += [robot_game(client, args.level, 5000 + i, stats, deadline) for i in range(args.robot_games)]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.monotonic() - start
        for result in results:
            if isinstance(result, BaseException):
                stats.errors.append(repr(result)[:200])
        turns = 0
        for game_id in stats.game_ids:
            state = (await client.get(f"/api/games/{game_id}")).json()
            turns += sum(1 for r in state["history"] if r["kind"] in ("place", "exchange", "pass", "lost-turn",
                                                                       "failed-challenge"))
    return stats, elapsed, turns


def start_server(url: str, port: int, workers: int, log: Any, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "qiza", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--database-url", url, "--computer-delay", "0", "--log-level", "warning",
                             "--computer-workers", str(workers), "--new-games", "1000000"],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)


def wait_until_serving(base: str, server: subprocess.Popen[bytes], limit: float = 120.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if server.poll() is not None:
            raise SystemExit("the server stopped")
        try:
            if httpx.get(base + "/api/meta", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.02)
    raise SystemExit("server did not start")


def first_move(level: str, args: argparse.Namespace, tmp: str) -> tuple[float, float, float]:
    """Seconds from starting a server to its first answer, from creating a game to the
    computer's first move being stored, and for the same in a second game (warm)."""
    env = dict(os.environ)
    if args.cold:
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cold-", dir=tmp)
    url = f"sqlite:///{tmp}/first-{level}-{time.monotonic_ns()}.sqlite3"
    port = free_port()
    with open(os.path.join(tmp, "server.log"), "a") as log:
        begin = time.monotonic()
        server = start_server(url, port, args.computer_workers, log, env)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_serving(base, server)
            serving = time.monotonic() - begin
            time.sleep(args.idle)
            moves = []
            with httpx.Client(base_url=base, timeout=30) as client:
                for seed in (1, 2):
                    start = time.monotonic()
                    created = client.post("/api/games", json={
                        "preset": "computer", "seed": seed, "creator_seat": 1,
                        "seats": [{"kind": "computer", "level": level}, {"name": "Ann"}]}).json()
                    while not client.get(f"/api/games/{created['id']}").json()["history"]:
                        if time.monotonic() - start > 600:
                            raise SystemExit("no computer move within 600 s")
                        time.sleep(0.01)
                    moves.append(time.monotonic() - start)
        finally:
            server.terminate()
            server.wait(timeout=30)
    return serving, moves[0], moves[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="bot-versus-computer games at once (max 100)")
    parser.add_argument("--robot-games", type=int, default=4, help="computer-versus-computer games (max 50)")
    parser.add_argument("--level", default="greedy", help="computer level (see /api/meta)")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="stop after this long (max 600)")
    parser.add_argument("--computer-workers", type=int, default=2, help="worker processes deciding computer moves")
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temporary folder")
    parser.add_argument("--first-move", default=None, metavar="LEVELS",
                        help="measure start-up: the first computer move of each level (comma-separated) on a fresh server")
    parser.add_argument("--idle", type=float, default=0.0, help="with --first-move: seconds between start-up and the game")
    parser.add_argument("--cold", action="store_true", help="with --first-move: an empty Numba cache (compile everything)")
    args = parser.parse_args(argv)
    if args.first_move:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"first computer move on a fresh server ({args.computer_workers} workers, idle {args.idle:g}s before "
                  f"the game, Numba cache {'empty' if args.cold else 'as it is'})")
            for level in args.first_move.split(","):
                serving, first, second = first_move(level.strip(), args, tmp)
                print(f"{level:>10}: serving after {serving:.2f}s; first move {first:.2f}s; second game's move {second:.2f}s")
        return 0
    args.games = min(args.games, 100)
    args.robot_games = min(args.robot_games, 50)
    args.max_seconds = min(args.max_seconds, 600.0)
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/load.sqlite3"
        port = free_port()
        log = open(os.path.join(tmp, "server.log"), "w")  # noqa: SIM115
        server = start_server(url, port, args.computer_workers, log)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_serving(base, server, 60.0)
            stats, elapsed, turns = asyncio.run(run_load(base, args))
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
        print(f"games: {args.games} bot-vs-computer + {args.robot_games} computer-vs-computer, level {args.level}, "
              f"{args.computer_workers} computer workers, database {'SQLite' if not args.database_url else url}")
        print(f"finished games: {stats.finished} in {elapsed:.1f}s; turns: {turns}; "
              f"throughput: {turns / elapsed:.1f} turns/s")
        print(f"bot action HTTP latency: {percentiles(stats.action_latency)}")
        print(f"computer reply latency (action -> WebSocket update with the computer's move): "
              f"{percentiles(stats.reply_latency)}")
        print(f"errors: {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors else ""))
        return 1 if any("500" in e for e in stats.errors) else 0


if __name__ == "__main__":
    sys.exit(main())
