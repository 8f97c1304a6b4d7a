"""Move generator benchmark over the shared positions (/work/shared/movegen).

Prints positions/s, us/position and moves/s for all-moves and best-only modes,
after warm-up, each repeated for at least ``--seconds`` seconds, and the ratio
to the reference 167 us/position (all moves) and 131 us/position (best only).

    python benchmarks/movegen.py [--seconds 10] [--lexicon twl06]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

REF_ALL_US = 167.0
REF_BEST_US = 131.0


def _timed(fn, seconds: float) -> tuple[int, float]:  # type: ignore[no-untyped-def]
    reps = 0
    t0 = time.perf_counter()
    while True:
        fn()
        reps += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return reps, dt


def _report(name: str, npos: int, nmoves: int, reps: int, dt: float, ref: float) -> None:
    us = dt / (reps * npos) * 1e6
    print(
        f"{name:<22} {npos * reps / dt:10.0f} positions/s {us:8.1f} us/position "
        f"{nmoves * reps / dt / 1e6:6.2f} M moves/s   ratio to {ref:.0f} us: {us / ref:.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--lexicon", default="twl06")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared" / "movegen"))
    parser.add_argument("--no-startup", action="store_true", help="skip the cold/warm start measurement")
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
        t = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
        print(f"start (import + load graph + first generate/best), this process: {t.stdout.strip()} s")

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

    reps, dt = _timed(lambda: gen.count_many(boards, racks), args.seconds)
    _report("all moves (batch)", npos, nmoves, reps, dt, REF_ALL_US)
    reps, dt = _timed(lambda: gen.best_many(boards, racks), args.seconds)
    _report("best only (batch)", npos, nmoves, reps, dt, REF_BEST_US)
    reps, dt = _timed(lambda: [gen.count(b, r) for b, r in positions], args.seconds / 2)
    _report("all moves (per call)", npos, nmoves, reps, dt, REF_ALL_US)
    reps, dt = _timed(lambda: [gen.best(b, r) for b, r in positions], args.seconds / 2)
    _report("best only (per call)", npos, nmoves, reps, dt, REF_BEST_US)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
