"""Cold start: how long a person waits for the computer's first move on a fresh install.

Each measurement starts from an empty cache folder (``QIZA_CACHE_DIR``: no compiled code,
no word graph), as on a machine where qiza was just installed:

* terminal: ``qiza play`` (you against the computer) driven through standard input; the
  time from starting the program to the line saying the computer's first move (you pass
  first if you have the first turn);
* web: a computer seat's first move through the web server's worker processes
  (:class:`qiza.web.computer.ComputerPool`, as ``qiza serve`` runs them), from creating
  the pool to the move;
* the full compile: ``python -m qiza.coldstart`` (what runs in the background meanwhile),
  and the time until the background compile of the terminal run has finished;
* puzzles (``--puzzles``, alone): ``qiza serve``, then the puzzles page's first requests (the
  number the server draws and its puzzle), then a puzzle whose game has a tie;
* a direct link (``--direct N...``): ``qiza serve``, then ``/puzzles/N`` and its puzzle, from a
  fresh cache for each number.

    python benchmarks/coldstart.py [--skip-compile] [--per-function]
    python benchmarks/coldstart.py --puzzles [--port N]
    python benchmarks/coldstart.py --direct N [N...] [--port N]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _env(cache: str) -> dict[str, str]:
    env = dict(os.environ, QIZA_CACHE_DIR=cache, QIZA_DATA_DIR=str(Path(cache) / "data"), PYTHONPATH=str(ROOT),
               PYTHONUNBUFFERED="1",
               COLUMNS="100")
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("QIZA_COLDSTART", None)
    return env


def terminal(cache: str) -> tuple[float, float]:
    """Seconds to the computer's first move in ``qiza play``, and to the end of the background compile."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "qiza", "play", "--seed", "3"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=_env(cache), cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    first: float | None = None
    lines: list[str] = []

    def reader() -> None:
        nonlocal first
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if first is None and any(f"Computer {verb}" in line for verb in ("played", "exchanged", "passed")):
                first = time.perf_counter() - t0

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    proc.stdin.write("pass\n")  # when it is your turn first; ignored otherwise until the computer's turn is done
    proc.stdin.flush()
    while first is None and proc.poll() is None and time.perf_counter() - t0 < 900:
        time.sleep(0.05)
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(60)
    if first is None:
        raise SystemExit("no computer move seen:\n" + "".join(lines[-30:]))
    marker = next(Path(cache).glob("numba/*/compile.lock")).parent / "complete"
    while not marker.exists() and time.perf_counter() - t0 < 1800:
        time.sleep(0.5)
    return first, time.perf_counter() - t0


def web(cache: str) -> float:
    """Seconds from starting the computer workers (as ``qiza serve`` does) to a computer seat's first move."""
    code = """
import time
t0 = time.perf_counter()
from qiza import coldstart
from qiza.game import Game
from qiza.lexicon import load_lexicon
from qiza.rules import find_preset
from qiza.web.computer import ComputerPool, choose
coldstart.start(["enable"])
pool = ComputerPool(2, lexicon="enable", levels=("medium", "hard"))
pool.warm_up("enable", ("medium", "hard"))
game = Game(find_preset("computer"), players=2, lexicon=load_lexicon("enable"), seed=1)
move = pool.run(choose, "medium", "enable", game.view(game.to_move), 7)
print(f"{time.perf_counter() - t0:.2f}", move)
pool.close()
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(cache), cwd=ROOT,
                          timeout=900, check=True)
    return float(done.stdout.split()[0])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stop_compiles(cache: str) -> None:
    """End the background compile a measurement started (the processes with this cache folder)."""
    for proc in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):
            if f"QIZA_CACHE_DIR={cache}".encode() + b"\0" in (proc / "environ").read_bytes():
                os.kill(int(proc.name), signal.SIGTERM)


@contextlib.contextmanager
def _serving(cache: str, port: int) -> Iterator[tuple[str, float, float]]:
    """``qiza serve`` on an empty cache: its address, the time it started and the seconds until it
    answered; stopped afterwards with the background compile it started."""
    import httpx

    url = f"http://127.0.0.1:{port}"
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "qiza", "serve", "--port", str(port)], env=_env(cache), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                httpx.get(f"{url}/api/meta", timeout=2)
                break
            except httpx.HTTPError:
                if proc.poll() is not None or time.perf_counter() - t0 > 300:
                    raise SystemExit("qiza serve did not start") from None
                time.sleep(0.1)
        yield url, t0, time.perf_counter() - t0
    finally:
        proc.terminate()
        proc.wait(60)
        _stop_compiles(cache)


def puzzles(cache: str, port: int, tied: int = 1) -> tuple[float, float, float]:
    """Seconds from starting ``qiza serve`` to its answering, to the page's first puzzle
    (``GET /api/puzzles/random``, then that puzzle) and then to puzzle ``tied`` (whose game
    has a tie between plays of the best equity)."""
    import httpx

    with _serving(cache, port) as (url, t0, up):
        drawn = httpx.get(f"{url}/api/puzzles/random", timeout=900)
        # (a server from before GET /api/puzzles/random: the page drew the number itself)
        number = drawn.json()["number"] if drawn.status_code == 200 else random.randint(1, 100_000)
        httpx.get(f"{url}/api/puzzles/{number}", timeout=900).raise_for_status()
        first = time.perf_counter() - t0
        httpx.get(f"{url}/api/puzzles/{tied}", timeout=900).raise_for_status()
        return up, first, time.perf_counter() - t0 - first


def direct(cache: str, port: int, number: int) -> tuple[float, float]:
    """Seconds from starting ``qiza serve`` to its answering, and to puzzle ``number`` asked for
    first (a direct link to ``/puzzles/N``: its page, then the puzzle it asks for)."""
    import httpx

    with _serving(cache, port) as (url, t0, up):
        httpx.get(f"{url}/puzzles/{number}", timeout=900).raise_for_status()
        httpx.get(f"{url}/api/puzzles/{number}", timeout=900).raise_for_status()
        return up, time.perf_counter() - t0


def full_compile(cache: str) -> float:
    """Seconds of ``python -m qiza.coldstart enable`` on an empty cache."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "qiza.coldstart", "enable"], env=_env(cache), cwd=ROOT, check=True,
                   capture_output=True, timeout=3600)
    return time.perf_counter() - t0


PER_FUNCTION = """
import time
from numba.core import event

spans = {}


class Timer(event.Listener):
    def on_start(self, ev):
        spans.setdefault(ev.data["dispatcher"].py_func.__qualname__, []).append(time.perf_counter())

    def on_end(self, ev):
        spans[ev.data["dispatcher"].py_func.__qualname__].append(time.perf_counter())


event.register("numba:compile", Timer())
from qiza import coldstart
t0 = time.perf_counter()
coldstart.compile_all([])
total = time.perf_counter() - t0
qiza = sorted(((v[-1] - v[0], k) for k, v in spans.items() if "<locals>" not in k), reverse=True)
print(f"compile_all: {total:.1f} s; per qiza function (each includes the functions it compiles first):")
for seconds, name in qiza:
    print(f"  {name:<22} {seconds:7.1f} s")
"""


def per_function(cache: str) -> str:
    """Where the compile time goes: each qiza function's compile (nested compiles included)."""
    done = subprocess.run([sys.executable, "-c", PER_FUNCTION], capture_output=True, text=True, env=_env(cache),
                          cwd=ROOT, timeout=3600, check=True)
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skip-compile", action="store_true", help="skip the separate full-compile measurement")
    parser.add_argument("--puzzles", action="store_true",
                        help="the web's puzzles alone: qiza serve, the page's first puzzle, then one that waits "
                             "for the compiled code")
    parser.add_argument("--direct", type=int, nargs="+", metavar="N",
                        help="puzzles N asked for first (a direct link to /puzzles/N), each from a fresh cache")
    parser.add_argument("--port", type=int, default=0, help="the port of --puzzles' and --direct's server (default: "
                                                            "a free one)")
    parser.add_argument("--per-function", action="store_true",
                        help="also compile once more, timing each compiled function (where the time goes)")
    args = parser.parse_args(argv)
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average: {load} on {os.cpu_count()} CPUs")
    if args.direct:
        for number in args.direct:
            with tempfile.TemporaryDirectory() as cache:
                up, answered = direct(cache, args.port or _free_port(), number)
            load = " ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"puzzle {number} asked for first: qiza serve answers after {up:.1f} s, the puzzle after "
                  f"{answered:.1f} s (load {load})")
        return 0
    if args.puzzles:
        with tempfile.TemporaryDirectory() as cache:
            up, first, tied = puzzles(cache, args.port or _free_port())
        print(f"puzzles: qiza serve answers after {up:.1f} s, the page's first puzzle after {first:.1f} s; "
              f"then puzzle 1 (a tie) {tied:.1f} s")
        return 0
    with tempfile.TemporaryDirectory() as cache:
        first, compiled = terminal(cache)
        print(f"terminal: computer's first move {first:.1f} s after start (background compile done after "
              f"{compiled:.1f} s)")
    with tempfile.TemporaryDirectory() as cache:
        print(f"web: computer seat's first move {web(cache):.1f} s after the workers start")
    if not args.skip_compile:
        with tempfile.TemporaryDirectory() as cache:
            print(f"full compile (python -m qiza.coldstart enable, empty cache): {full_compile(cache):.1f} s")
    if args.per_function:
        with tempfile.TemporaryDirectory() as cache:
            print(per_function(cache), end="")
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average: {load}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
