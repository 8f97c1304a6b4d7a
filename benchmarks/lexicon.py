"""Lexicon figures: word list load time, word graph build time, cached load time, memory.

Each measurement runs in a fresh Python process (a real "first start" and "second start"),
with the graph cache in a new temporary directory so the first start really builds.

    python benchmarks/lexicon.py               # ENABLE
    python benchmarks/lexicon.py twl06 sowpods
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
import qiza.lexicon as lx
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t1 = time.perf_counter()
lex = lx.load_lexicon(sys.argv[1])
t2 = time.perf_counter()
rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
import qiza.gaddag  # numba and numpy: imported separately so the graph time is the graph alone
t3 = time.perf_counter()
graph = lex.gaddag
t4 = time.perf_counter()
total = int(graph.sum(dtype="int64"))  # touch every page of a memory-mapped graph
t5 = time.perf_counter()
rss2 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"words": len(lex), "report": str(lex.report), "import": t1 - t0, "load": t2 - t1,
                  "import_gaddag": t3 - t2, "graph": t4 - t3, "touch": t5 - t4,
                  "graph_mib": graph.nbytes / 2**20, "rss_words_mib": (rss1 - rss0) / 1024,
                  "rss_total_mib": rss2 / 1024, "mmap": type(graph).__name__, "check": total != 0}))
"""


def measure(name: str, cache: Path) -> dict[str, object]:
    env = {**os.environ, "QIZA_CACHE_DIR": str(cache)}
    env.pop("QIZA_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", CHILD, name], capture_output=True, text=True, env=env,
                         check=True, cwd=Path(__file__).resolve().parents[1])
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str]) -> int:
    names = argv or ["enable"]
    for name in names:
        with tempfile.TemporaryDirectory(prefix="qiza-bench-") as tmp:
            first = measure(name, Path(tmp))
            second = measure(name, Path(tmp))
        print(f"{name}: {first['words']} words ({first['report']})")
        print(f"  word list load:            {first['load']:.2f} s   (+{first['rss_words_mib']:.0f} MiB RSS)")
        print(f"  numba/numpy import:        {first['import_gaddag']:.2f} s")
        print(f"  graph build (first start): {first['graph']:.2f} s   ({first['graph_mib']:.1f} MiB graph)")
        print(f"  graph load (second start): {second['graph']:.3f} s  ({second['mmap']}, "
              f"touching every page {second['touch']:.3f} s)")
        print(f"  peak RSS: first start {first['rss_total_mib']:.0f} MiB, second {second['rss_total_mib']:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
