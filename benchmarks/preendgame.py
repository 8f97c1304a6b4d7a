"""Pre-endgames with one or two tiles in the bag: time and exactness on self-play positions.

    python benchmarks/preendgame.py [--bag 1] [--positions 10] [--time-limit 10] [--candidates 12]

Positions come from static-vs-static self-play games (TWL06, classic rules) that reach exactly
``--bag`` tiles in the bag. For each, :func:`qiza.players.preendgame.solve_pre_endgame`
searches the candidates over every possible bag; printed: seconds, candidates, bags, and the
share of the endgames (candidate x bag) solved exactly. The issue's target: exhaustive within
10 s on one core with one tile in the bag. "decided": the best move proven
(:attr:`~qiza.players.preendgame.PreEndgame.decided`); "pruned": candidates dropped because they
cannot win after as many draws as another one wins after for certain.

Searching in passes with a growing cap and dropping such candidates (2026-11-26) against the
equal share of the time left before it, 8 positions (seeds 4-41), 12 candidates, 10 s on the
wall clock, alternated in four pairs at load 2.9-5.1 (other jobs running; the first two pairs
with an earlier version of the change): endgames solved exactly 59%, 63%, 62%, 54% against
41%, 63%, 68%, 52% (the same within this noise); best move proven in 1 of 8 positions in two
runs, never before; time spent at most 10.0 s against up to 12.0-12.5 s (the equal share
overran by the last endgame's start-up). Searching first each endgame's outcome
against the score that ties (a window of a point each side of it) was tried and dropped: it
was no faster, because a search is only exact once no line stops at the depth limit, window or
not (it solved 15% of the endgames exactly instead of about 60%). The limit is the endgame
search itself with seven tiles on the opponent's rack.

MAGPIE's pre-endgame solver (``peg``) on the first of these positions (seed 4: PVNI?ET, one tile
in the bag, 4,462 placements), for reference (2026-11-26; built outside the repository from its
public sources, one thread, the machine shared with two other jobs): with a 10 s limit it
valued 2,979-3,534 of the 4,462 placements greedily (its stage 0, 9 s) and solved no endgame;
its exhaustive setting (``-pegtopk all``, every placement, every draw, full-depth endgames) had
not finished after 460 s of CPU (stopped at 600 s). Exhaustive within 10 s on one core is
beyond it as well.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qiza.game import Game  # noqa: E402
from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.players import make_player  # noqa: E402
from qiza.players.preendgame import solve_pre_endgame  # noqa: E402
from qiza.rules import CLASSIC  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bag", type=int, choices=[1, 2], default=1, help="tiles in the bag")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--candidates", type=int, default=12)
    args = parser.parse_args()
    lexicon = load_lexicon("twl06")
    static = make_player("static", lexicon, seed=0)
    print(f"{args.bag} tile(s) in the bag, {args.candidates} candidates, {args.time_limit:.0f} s, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'seed':>5} {'seconds':>8} {'cands':>6} {'bags':>6} {'exact':>7} {'pruned':>7} {'decided':>8}  best")
    seconds: list[float] = []
    shares: list[float] = []
    decided: list[bool] = []
    seed = 0
    while len(seconds) < args.positions and seed < 2000:
        seed += 1
        game = Game(CLASSIC, lexicon=lexicon, seed=seed)
        while not game.over and game.view(game.to_move).bag_count > args.bag:
            game.play(static.choose(game.view(game.to_move)))
            if game.can_challenge:
                game.accept()
        if game.over or game.view(game.to_move).bag_count != args.bag:
            continue
        found = solve_pre_endgame(game.view(game.to_move), lexicon, candidates=args.candidates,
                               time_limit=args.time_limit)
        cases = sum(o.cases for o in found.options)
        exact = sum(o.exact for o in found.options)
        share = exact / cases if cases else 1.0
        # the best move proven (PreEndgame.decided; before it existed: every endgame exact)
        proven = getattr(found, "decided", all(o.exact == o.cases for o in found.options))
        pruned = sum(1 for o in found.options if getattr(o, "pruned", False))
        seconds.append(found.seconds)
        shares.append(share)
        decided.append(proven)
        best = found.options[0] if found.options else None
        draws = found.options[0].cases if found.options else 0
        text = f"{game.format(best.move)} {best.value:+.1f} win {100 * best.win:.0f}%" if best else "pass"
        print(f"{seed:>5} {found.seconds:>8.1f} {len(found.options):>6} {draws:>6} {100 * share:>6.0f}% {pruned:>7} "
              f"{'yes' if proven else 'no':>8}  {text}", flush=True)
    if seconds:
        print(f"median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s; endgames solved exactly: "
              f"{100 * statistics.fmean(shares):.0f}% on average; best move proven in {sum(decided)} of "
              f"{len(decided)} positions; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
