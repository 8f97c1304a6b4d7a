"""Two players left of three, the bag empty: the exact two-player search against max-n.

    python benchmarks/two_left.py [--first-seed 1] [--positions 150] [--time-limit 3]

Positions: games of three (TWL06, classic rules, plays auto-challenged) in which the third
player resigns before the first move and the two others, static players, play on until the bag
is empty. From each, the game is played to the end twice, the player to move at that moment (the
*searcher*) choosing every move with the exact two-player endgame search
(:func:`qiza.players.endgame.solve`, what a game with two players left uses since 2026-11-28)
in one playout and with the max-n search over 12 sampled deals
(:func:`qiza.players.endgame_multi.solve_multi`, what the ``endgame`` level used before) in the
other; the opponent plays static in both. Printed per position and in all: the searcher's
final margin over the opponent in both playouts, the paired difference with its 95% interval
and the searcher's win share.

Measured 2026-11-28 (the 2-core machine shared with other jobs, load 4-6; 3 s a search):

=============  =========  ===================  ==========================
seeds          positions  margin difference    win share: exact / max-n
=============  =========  ===================  ==========================
1-150          150        +4.05 +- 2.19        55.0% / 52.7%
1000-1249      250        +2.90 +- 1.10        51.2% / 50.8%
=============  =========  ===================  ==========================

Over the 400 positions the exact search gains about 3.3 points a game; most positions (a few
tiles each) end the same both ways.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from qiza.game import Game  # noqa: E402
from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.move import Move  # noqa: E402
from qiza.players import make_player  # noqa: E402
from qiza.players.endgame import solve  # noqa: E402
from qiza.players.endgame_multi import solve_multi  # noqa: E402
from qiza.rules import CLASSIC  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--time-limit", type=float, default=3.0, help="seconds of each exact search")
    args = parser.parse_args()
    lexicon = load_lexicon("twl06")
    rules = CLASSIC.with_options(challenge="auto")
    static = make_player("static", lexicon, seed=1)
    diffs: list[int] = []
    wins = {"exact": 0.0, "max-n": 0.0}
    for seed in range(args.first_seed, args.first_seed + args.positions):
        game = Game(rules, players=["A", "B", "C"], lexicon=lexicon, seed=seed)
        game.resign(2)
        while not game.over and game.bag:
            game.play(static.choose(game.view(game.to_move)))
        if game.over:
            continue
        me = game.to_move
        margins: dict[str, int] = {}
        for how in ("exact", "max-n"):
            playout = game.copy()
            while not playout.over:
                view = playout.view(playout.to_move)
                move: Move | None
                if playout.to_move != me:
                    move = static.choose(view)
                elif how == "exact":
                    move = solve(view, lexicon, time_limit=args.time_limit).move
                else:
                    move = solve_multi(view, lexicon, time_limit=30.0, deals=12, seed=seed).move
                playout.play(move if move is not None else static.choose(view))
            margins[how] = playout.scores[me] - playout.scores[1 - me]
            wins[how] += 1.0 if margins[how] > 0 else 0.5 if margins[how] == 0 else 0.0
        diffs.append(margins["exact"] - margins["max-n"])
        n = len(diffs)
        half = 1.96 * statistics.stdev(diffs) / n ** 0.5 if n > 1 else 0.0
        print(f"seed {seed}: exact {margins['exact']:+d}, max-n {margins['max-n']:+d} | {n} positions: "
              f"difference {statistics.mean(diffs):+.2f} +- {half:.2f}, wins exact {wins['exact'] / n:.1%}, "
              f"max-n {wins['max-n'] / n:.1%}", flush=True)


if __name__ == "__main__":
    main()
