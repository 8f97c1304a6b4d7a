"""Move generator benchmark over the shared positions (/work/shared/movegen).

Prints positions/s, us/position and moves/s for all-moves and best-only modes,
after warm-up, each repeated for at least ``--seconds`` seconds, and the ratio
to the reference 167 us/position (all moves) and 131 us/position (best only).

    python benchmarks/movegen.py [--seconds 10] [--lexicon twl06]

Any tile set and board (issue 15, item 1: racks of one count per tile kind, 64-bit masks above
30 letters, blank flags in the meta column), measured on this 2-core machine, shared with other
work (CPU time per position, so that waiting for a core does not count):

* before (a54d5cf), load average 0.9-1.6: all moves 156.6 us wall, 138.9 us CPU (fastest run
  130.2); best only 136.1 us wall, 106.9 us CPU (fastest run 99.9); cold start 32.7 s, warm 0.74 s.
* after, load average 5.7-6.8 (tests running beside it): all moves 160.1 us CPU (fastest run
  139.6), best only 128.3 us CPU (fastest run 120.9); cold start 46.9 s, warm 3.9 s (the same
  load slows the base as much: import + graph + generator 1.9 s for both, paired).
* paired, alternating base and after in separate processes, fastest of 25 passes, four pairs,
  load average 2.5-5.0: base all moves 136.0-148.5 us (best of four 136.0), best only
  106.2-111.8 (106.2); after all moves 135.1-143.9 (135.1), best only 104.1-113.5 (104.1).
  No loss: the difference is inside the noise of the load, in both directions.
* quiet again (load average 1.0-1.6), the final code (main at b182505) against a54d5cf, back to
  back: all moves (batch) 137.7 us against 132.5 (fastest run 132.5 against 129.8), per call 143.3
  against 135.4; best only (batch) 101.9 against 103.7, per call 110.9 against 112.7. Then three
  pairs, fastest of 25 passes: all moves 131.6 / 132.1 / 134.3 against 133.2 / 130.2 / 132.2,
  best only 98.2 / 102.8 / 102.6 against 101.6 / 98.4 / 101.7: within 1%, both ways (the single
  back-to-back run's 4% on all moves is not in the pairs). The after-run's cold start was 46.9 s
  at load 5.7 (32.7 s before, at load 1); warm start 0.78 s (0.74 before).
* the tiles right of an anchor read on in the graph (branch ``sim9``, see
  :func:`qiza.movegen_search.search_anchor`; the best-only search's word-by-word bounds of the
  whole rack, :mod:`qiza.movegen_bingo`), alternated twice with main at 695e2de, load 3.8-4.1, CPU
  us/position main -> sim9: all moves (batch) 135.4-150.0 -> 82.3-87.8, (per call) 143.5-155.3 ->
  89.0-93.2; best only (batch) 103.5-115.8 -> 69.2-70.9, (per call) 114.8-122.7 -> 74.0-74.2. The
  anagram table of the best-only search now keeps the words of 7 to 15 letters: 49 ms and 12.6 MB
  to build, once per generator (12 ms and 1 MB before).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

REF_ALL_US = 167.0
REF_BEST_US = 131.0


def _timed(fn, seconds: float) -> tuple[int, float, float, float]:  # type: ignore[no-untyped-def]
    """Run ``fn`` repeatedly for ``seconds``: (repetitions, wall time, CPU time, fastest CPU time of one run)."""
    reps = 0
    fastest = float("inf")
    t0 = time.perf_counter()
    c0 = time.process_time()
    while True:
        c = time.process_time()
        fn()
        fastest = min(fastest, time.process_time() - c)
        reps += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return reps, dt, time.process_time() - c0, fastest


def _report(name: str, npos: int, nmoves: int, timing: tuple[int, float, float, float], ref: float) -> None:
    reps, wall, cpu, fastest = timing
    us = wall / (reps * npos) * 1e6
    us_cpu = cpu / (reps * npos) * 1e6
    us_min = fastest / npos * 1e6
    print(
        f"{name:<22} {npos * reps / wall:7.0f} positions/s {us:7.1f} us/position "
        f"{nmoves * reps / wall / 1e6:5.2f} M moves/s | CPU {us_cpu:6.1f} us/position (fastest run {us_min:6.1f}) "
        f"| ratio to {ref:.0f} us: {us / ref:.2f} wall, {us_cpu / ref:.2f} CPU, {us_min / ref:.2f} fastest"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--lexicon", default="twl06")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared" / "movegen"))
    parser.add_argument("--no-startup", action="store_true",
                        help="skip the cold (first compile) and warm (cached) start measurements")
    args = parser.parse_args(argv)

    if not args.no_startup:
        code = (
            "import time; t=time.perf_counter();"
            "from qiza import movegen;"
            f"gen=movegen.load_generator({args.lexicon!r});"
            "import numpy as np; b=np.zeros(225,np.int32); gen.count(b, movegen.parse_rack('ABCDEF?'));"
            "gen.best(b, movegen.parse_rack('ABCDEF?'));"
            "print(f'{time.perf_counter()-t:.2f}')"
        )
        with tempfile.TemporaryDirectory() as empty:  # nothing cached (compiled code, graph): a fresh install
            env = dict(os.environ, QIZA_CACHE_DIR=empty)
            env.pop("NUMBA_CACHE_DIR", None)
            t = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                               env=env)
            print(f"cold start (compile + load graph + first generate/best): {t.stdout.strip()} s")
        subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, check=True)  # fill the cache
        t = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
        print(f"warm start (cached compiled code + load graph + first generate/best): {t.stdout.strip()} s")

    t0 = time.perf_counter()
    from qiza import movegen

    gen = movegen.load_generator(args.lexicon)
    print(f"import + load generator: {time.perf_counter() - t0:.2f} s")
    positions = movegen.read_positions(Path(args.shared) / "positions.txt")
    boards, racks = movegen.stack_positions(positions)
    npos = len(positions)

    # warm-up (and move count)
    nmoves = sum(gen.count(b, r) for b, r in positions)
    gen.count_many(boards, racks)
    gen.best_many(boards, racks)
    print(f"{npos} positions, {nmoves} moves")

    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    _report("all moves (batch)", npos, nmoves, _timed(lambda: gen.count_many(boards, racks), args.seconds),
            REF_ALL_US)
    _report("best only (batch)", npos, nmoves, _timed(lambda: gen.best_many(boards, racks), args.seconds),
            REF_BEST_US)
    _report("all moves (per call)", npos, nmoves,
            _timed(lambda: [gen.count(b, r) for b, r in positions], args.seconds / 2), REF_ALL_US)
    _report("best only (per call)", npos, nmoves,
            _timed(lambda: [gen.best(b, r) for b, r in positions], args.seconds / 2), REF_BEST_US)
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
