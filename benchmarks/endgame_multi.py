"""Endgames of three or four players: does the max-n search beat the static player there?

    python benchmarks/endgame_multi.py [--players 3] [--positions 150] [--deals 12] [--first-seed 1]
                                       [--save FILE]

Positions: static-vs-static self-play games (TWL06, classic rules) played until the bag is
empty. From each, the game is played to the end twice, the same in all but one thing: the
player to move at that moment (the *searcher*) plays every turn of the rest with
:func:`qiza.players.endgame_multi.solve_multi` (``--deals`` deals, no time limit, so the
result does not depend on the machine's load) in one playout and as the ``--baseline`` player
(static, or the simulation of the champion level with ``--iterations`` a move) in the other;
everyone else plays static in both. Printed: the searcher's win share (shared first
places shared) and mean margin (final score less the best other final score) in both
playouts, the paired difference with its 95% interval, and the seconds a search took.

Measured 2026-11-25 (12 deals a search, 0.45 s median a search at load 4-5):

=========================  =========  ===================  ===================
players, seeds             positions  win share: static /  margin: static /
                                      search (difference)  search (difference)
=========================  =========  ===================  ===================
3, from 1                  200        39.8% / 40.8%        -18.0 / -16.6
                                      (+1.0 +- 1.4)        (+1.44 +- 1.84)
3, from 1000               400        34.6% / 36.1%        -27.9 / -25.6
                                      (+1.5 +- 1.3)        (+2.29 +- 1.38)
=========================  =========  ===================  ===================

Against the champion's simulation (``--baseline sim --iterations 200``, 3 players): one round
deep (the default), 200 positions from seed 1000: win share +0.8 +- 1.8, margin +0.81 +- 2.11;
220 more from seed 3000: +0.2 +- 1.8 and -0.61 +- 1.76. Four turns deep (``--plies 4``, 2.3 s a
search), the 200 from seed 1000: +1.8 +- 1.8 and +1.22 +- 2.03. Even with the simulation, so
the champion level keeps simulating its 3-4 player endgames.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qiza.game import Game  # noqa: E402
from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.players import make_player  # noqa: E402
from qiza.players.endgame_multi import solve_multi  # noqa: E402
from qiza.rules import CLASSIC  # noqa: E402


def _outcome(game: Game, seat: int) -> tuple[float, float]:
    final = game.scores
    top = max(final)
    share = 1.0 / sum(1 for v in final if v == top) if final[seat] == top else 0.0
    return share, final[seat] - max(v for s, v in enumerate(final) if s != seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, choices=[3, 4], default=3)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--baseline", choices=["static", "sim"], default="static",
                        help="how the searcher plays in the other playout (sim: the champion's simulation, "
                        "--iterations a move, one process)")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--reply-width", type=int, default=3, help="placements searched below the root")
    parser.add_argument("--plies", type=int, default=None, help="turns searched after a candidate (default: a round)")
    parser.add_argument("--first-seed", type=int, default=1, help="the first self-play game's seed")
    parser.add_argument("--save", help="append one line per position (seed, both outcomes) to this file")
    args = parser.parse_args()
    lexicon = load_lexicon("twl06")
    static = make_player("static", lexicon, seed=0)
    baseline = static if args.baseline == "static" else make_player(
        "sim", lexicon, seed=0, workers=1, time_limit=3600.0, max_iterations=args.iterations,
        min_iterations=min(args.iterations, 12))
    print(f"baseline {args.baseline}, {args.players} players, {args.deals} deals a search, load average {os.getloadavg()[0]:.2f}", flush=True)
    wins: list[tuple[float, float]] = []
    margins: list[tuple[float, float]] = []
    seconds: list[float] = []
    seed = args.first_seed - 1
    while len(wins) < args.positions:
        seed += 1
        start = Game(CLASSIC, players=args.players, lexicon=lexicon, seed=seed)
        while not start.over and start.view(start.to_move).bag_count > 0:
            start.play(static.choose(start.view(start.to_move)))
            if start.can_challenge:
                start.accept()
        if start.over:
            continue
        searcher = start.to_move
        outcomes = []
        for search in (False, True):
            game = start.copy()
            while not game.over:
                view = game.view(game.to_move)
                if search and game.to_move == searcher:
                    t = time.perf_counter()
                    move = solve_multi(view, lexicon, time_limit=3600.0, deals=args.deals, seed=seed,
                                       reply_width=args.reply_width, plies=args.plies).move
                    seconds.append(time.perf_counter() - t)
                    game.play(move if move is not None else static.choose(view))
                elif game.to_move == searcher:
                    game.play(baseline.choose(view))
                else:
                    game.play(static.choose(view))
                if game.can_challenge:
                    game.accept()
            outcomes.append(_outcome(game, searcher))
        wins.append((outcomes[0][0], outcomes[1][0]))
        margins.append((outcomes[0][1], outcomes[1][1]))
        if args.save:
            with open(args.save, "a") as out:
                out.write(f"{seed}\t{outcomes[0][0]}\t{outcomes[0][1]}\t{outcomes[1][0]}\t{outcomes[1][1]}\n")
        if len(wins) % 10 == 0:
            _report(wins, margins, seconds)
    _report(wins, margins, seconds)


def _report(wins: list[tuple[float, float]], margins: list[tuple[float, float]], seconds: list[float]) -> None:
    n = len(wins)
    diff = [b - a for a, b in margins]
    half = 1.96 * statistics.stdev(diff) / n ** 0.5 if n > 1 else float("nan")
    win_diff = [b - a for a, b in wins]
    win_half = 1.96 * statistics.stdev(win_diff) / n ** 0.5 if n > 1 else float("nan")
    print(f"{n} positions: baseline wins {100 * statistics.fmean(a for a, _ in wins):.1f}%, "
          f"search wins {100 * statistics.fmean(b for _, b in wins):.1f}% "
          f"(difference {100 * statistics.fmean(win_diff):+.1f} +- {100 * win_half:.1f}); margin baseline "
          f"{statistics.fmean(a for a, _ in margins):+.1f}, search {statistics.fmean(b for _, b in margins):+.1f} "
          f"(difference {statistics.fmean(diff):+.2f} +- {half:.2f}); search "
          f"{statistics.median(seconds) if seconds else 0:.2f} s median", flush=True)


if __name__ == "__main__":
    main()
