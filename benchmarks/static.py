"""Time of the static player's whole decision on the shared positions (/work/shared/movegen).

    python benchmarks/static.py [--lexicon twl06] [--repeat 3] [--set NAME=VALUE ...]

The decision is everything ``static`` does for a move: every placement and every exchange,
valued with the leave model, and the choice. It is timed twice per position:

* ``choose``: :meth:`qiza.players.engine.StaticPlayer.choose` on a player's view (what a game
  or an outside harness calls);
* ``cold``: ``choose`` in the first run, the player's caches emptied (sub-leaves of a rack,
  bingo odds of a leave): the cost for a rack and leaves met for the first time;
* ``arrays``: the array path the self-play and training loops use (numpy board and rack in,
  the best equity out, no Move objects).

The reference is MAGPIE's static player, 0.68 ms median a move (issue 12, measured on the issue
filer's machine, in games; qiza's figure there was 2.4 ms).

MAGPIE measured on this project's 2-core machine (2026-11-25; built from its public sources
with ``make BUILD=release`` outside the repository, its word graph made from TWL06 by its own
``convert text2kwg``; its trained leave file cannot be made offline, so it read qiza's shipped
full table, times 1.2, converted by its ``convert csv2klv``): its best-only static ``generate``
(``-r1 best -s1 equity``) on the same 514 positions, timed around the command through its C
API, fastest of 3 runs: **0.220 ms median, 0.271 mean, 0.579 p95** (load 6.5; 0.225 / 0.285 with
``-wmp false``). qiza ``choose`` just after, same load: 0.328 ms median before the compiled
sub-leaves, 0.210 ms after (load 8.0). Alternated four times at load 8.3-8.5: qiza ``choose``
0.196-0.209 ms median (mean 0.256-0.275), MAGPIE 0.216-0.220 (mean 0.260-0.264); first runs
(qiza's caches emptied: ``cold``) qiza 0.41 ms median, MAGPIE 0.24.

The same build played qiza's ``static`` through a pipe (a harness outside the repository,
every move checked by qiza's rules engine, 0 refused): 2,000 games, 1,000 shuffles from both
seats, qiza 51.2% (95% 49.0-53.3), average 422.7 against 420.5. MAGPIE read qiza's leaves
there, so this compares the equity terms and search, not MAGPIE's own trained leaves.

With the faster best-only search (branch ``sim9``: the tiles right of an anchor read on in the
graph, the whole rack's plays bounded word by word), alternated twice with main at 695e2de, load
3.8-4.1, main -> sim9: ``choose`` median 0.178-0.195 -> 0.186 ms, mean 0.227-0.264 -> 0.199-0.201,
p95 0.590-0.660 -> 0.298-0.299; ``arrays`` median 0.137-0.145 -> 0.118-0.119, p95 0.98-1.02 ->
0.59-0.60 (the median's moves were already cheap; the slow ones lost most).

"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qiza.alphabet import ENGLISH  # noqa: E402
from qiza.analysis import board_array, rack_counts  # noqa: E402
from qiza.game import PlayerView  # noqa: E402
from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.players.engine import (  # noqa: E402
    StaticPlayer,
    StaticSettings,
    evaluate_position,
    exchange_equities,
    odds_for,
)
from qiza.positions import load  # noqa: E402
from qiza.rules import CLASSIC  # noqa: E402

REF_MAGPIE_MS = 0.68
REF_MAGPIE_HERE_MS = 0.220
REF_BEFORE_MS = 2.4


def views() -> list[PlayerView]:
    """One view per shared position: the player to move sees the rack; the rest is unseen."""
    path = ROOT.parent / "shared" / "movegen" / "positions.txt"
    if not path.exists():
        raise SystemExit(f"no shared positions at {path}")
    out = []
    for pos in load(path):
        rack = pos.racks[0]
        unseen = Counter(ENGLISH.text(ENGLISH.full_bag()))
        for tile in pos.board.cells:
            if tile:
                unseen["?" if tile & 0x40 else ENGLISH.char(tile)] -= 1
        unseen.subtract(rack)
        text = "".join(sorted(unseen.elements()))
        bag = max(0, len(text) - 7)
        out.append(PlayerView(0, rack, pos.board, (0, 0), 0, bag, (len(rack), min(7, len(text))), text, (),
                              CLASSIC, False, False))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", default="twl06")
    parser.add_argument("--repeat", type=int, default=3, help="runs over all positions (the fastest counts)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the static player (StaticSettings), e.g. leave_weight=1.1")
    args = parser.parse_args()
    changes = {name: float(value) for name, value in (item.split("=", 1) for item in args.set)}
    player = StaticPlayer(load_lexicon(args.lexicon), seed=0,
                          settings=dataclasses.replace(StaticSettings(), **changes))
    positions = views()
    gen = player.generator(CLASSIC)
    arrays = [(board_array(v.board), rack_counts(v.rack), v.bag_count) for v in positions]
    for v in positions[:20]:  # warm-up: compile
        player.choose(v)
    # the player's caches (sub-leaves of a rack, bingo odds of a leave) emptied: the first run is
    # what a game sees for a rack and leaves it meets for the first time
    player.model_for(CLASSIC)._rack_cache.clear()
    odds = odds_for(player.lexicon, CLASSIC, player.settings)
    if odds is not None:
        odds._by_rank.clear()
    best_choose = [float("inf")] * len(positions)
    cold_choose = [0.0] * len(positions)
    best_arrays = [float("inf")] * len(positions)
    for run in range(args.repeat):
        for i, v in enumerate(positions):
            t = time.perf_counter()
            player.choose(v)
            took = time.perf_counter() - t
            best_choose[i] = min(best_choose[i], took)
            if run == 0:
                cold_choose[i] = took
        for i, (board, rack, bag) in enumerate(arrays):
            t = time.perf_counter()
            ev = evaluate_position(gen, player.leaves, player.settings, CLASSIC, board, rack, bag, 0.0)
            if len(ev.moves):
                int(np.argmax(ev.equity))
            exchange_equities(ev, player.settings, bag, CLASSIC.exchange_limit)
            best_arrays[i] = min(best_arrays[i], time.perf_counter() - t)
    load_avg = os.getloadavg()[0]
    print(f"{len(positions)} positions, {args.lexicon}, fastest of {args.repeat} runs, load average {load_avg:.2f}")
    print(f"{'path':<8} {'median ms':>10} {'mean ms':>9} {'p95 ms':>8} {'vs MAGPIE 0.68':>15} {'vs before 2.4':>14} "
          f"{'vs MAGPIE here 0.22':>20}")
    for name, times in (("choose", best_choose), ("cold", cold_choose), ("arrays", best_arrays)):
        ms = sorted(t * 1000 for t in times)
        med = statistics.median(ms)
        print(f"{name:<8} {med:>10.3f} {statistics.fmean(ms):>9.3f} {ms[int(0.95 * len(ms))]:>8.3f} "
              f"{med / REF_MAGPIE_MS:>14.2f}x {med / REF_BEFORE_MS:>13.2f}x {med / REF_MAGPIE_HERE_MS:>19.2f}x")


if __name__ == "__main__":
    main()
