"""The simulation player in the last turns before the bag empties, paired on the same positions.

    python benchmarks/end_phase.py run --variant playout|no-playout|nowin [--first 1000] [--count 600]
                                       [--bag 14] [--iterations 400] [--save FILE]
    python benchmarks/end_phase.py compare FILE_A FILE_B

Positions: static-vs-static self-play games (TWL06, classic rules, seeds ``--first`` on), each
at the first turn with at most ``--bag`` tiles in the bag (from there the rollouts can empty
it). The player to move becomes the champion (the simulation player with exact endgames, one
worker) and plays the game to its end against the static player. ``--iterations``: each
simulated move runs to that many iterations (or until one candidate is left) with no time
limit, so that a position gives the same game whenever both variants make the same choices
(the endgames still stop after 1 s); ``--iterations 0`` plays at 1 s a move instead.

``run`` prints one line per position (and appends it to ``--save``, resuming a cut-off run);
``compare`` pairs two saved runs position by position: how often the first move and the result
differ, and the mean differences of spread and wins (B less A) with their standard errors. The
luck of the draw is the same for both variants: the bag's order is the game's.

Measured 2026-11-27 (at most 14 tiles in the bag; the 2-core machine shared by two or three
such runs, and a CI run at first, load 2-6). "Before": the simulation as it was, whose
iterations that end the game went through the win-probability curve; "no-playout": such
iterations count as a win, a tie or a loss (now always so); "playout": rollouts that empty the
bag also play the game out (``SimPlayer(playout=True)``). Differences B less A, paired:

========================  ==========  ===========  ==================  ===============  ==========
positions, setting        A -> B      first move   wins (se)           spread (se)      ms a move
                                      differs                                           A / B
========================  ==========  ===========  ==================  ===============  ==========
1000-1599, 400 it.        before ->   3            -0.17 (0.29)        -0.41 (0.26)     663 / 663
                          no-playout
1000-1599, 400 it.        before ->   40           +1.58 (0.76)        -0.95 (0.82)     663 / 723
                          playout
2000-2599, 1 s a move     no-playout  71           -0.33 (0.74)        +0.42 (0.90)     379 / 393
                          -> playout
2600-3199, 1 s a move     no-playout  62           -0.33 (0.76)        -0.14 (0.86)     365 / 375
                          -> playout
========================  ==========  ===========  ==================  ===============  ==========

At 1 s a move, the champion's setting, 1,200 positions: -0.33 points of wins (se 0.53), spread
+0.14 (se 0.62): the play-out is no measured gain there, so it stays off by default. With a
time limit the results differ in about a quarter of the positions whose first moves are the
same (252 of 1,067: the iterations done depend on the machine's load); with a fixed number of
iterations, in under 3% (16 of 597, "before" against "no-playout").

Going out on the rollout's last move valued by what the opponent holds after their reply (the
tiles kept and any drawn) instead of twice the rack they were dealt (2026-11-27, now always so;
the machine otherwise quiet, one other job): "no-playout" of the table above (A) against it
(B), positions 1000-1599, 400 iterations a move: the first move differs in 3 positions, the
result in 62 (10%: later moves change); wins +0.58 points (se 0.45), spread +0.13 (se 0.34);
371 ms a move (A's 663 ms were measured with three runs at once).

The choice by the chance to win, measured (2026-11-27, the same positions 1000-1599, 400
iterations a move, against the run just above as A; one other job on the machine). Late in a
two-player game (at most 30 tiles in the bag) the champion picks the candidate with the best
mean chance to win, while it drops candidates on their spread. "nowin": the spread alone
chooses (``SimPlayer(win=False)``). "win-prune" (tried and dropped, its code not kept):
candidates are dropped on their chance to win (the leader's beating theirs by ``z`` standard
errors, paired), and on spread only where the two chances are the same (a decided game), so
that a risky candidate behind on spread is kept:

========================  ===========  ==================  ===============  ==========
B                         first move   wins (se)           spread (se)      ms a move
                          differs                                           A / B
========================  ===========  ==================  ===============  ==========
nowin                     78           +0.33 (0.75)        +0.37 (0.82)     371 / 325
win-prune                 66           -0.75 (0.75)        -2.43 (0.97)     371 / 373
========================  ===========  ==================  ===============  ==========

Neither is a measured gain in wins, so the default stays (the chance to win chooses, spread
drops): from 14 tiles in the bag down, choosing by spread or by the chance to win ends within a
point of wins of each other.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qiza.game import Game  # noqa: E402
from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.players import make_player  # noqa: E402
from qiza.players.sim import SimPlayer  # noqa: E402
from qiza.rules import CLASSIC  # noqa: E402

VARIANTS = {"playout": {"playout": True}, "no-playout": {"playout": False}, "nowin": {"win": False}}
"""The settings of :class:`~qiza.players.sim.SimPlayer` each variant changes."""


def play_position(seed: int, bag: int, variant: str, iterations: int) -> dict[str, object] | None:
    """Play game ``seed`` from its first turn with at most ``bag`` tiles in the bag; None if it ends first."""
    lexicon = load_lexicon("twl06")
    rules = CLASSIC.with_options(challenge="auto")
    static = make_player("static", lexicon, seed=seed)
    game = Game(rules, lexicon=lexicon, seed=seed)
    while not game.over and len(game.bag) > bag:
        game.play(static.choose(game.view(game.to_move)))
    if game.over:
        return None
    timing = {"time_limit": 1.0} if iterations <= 0 else {"time_limit": 1e6, "endgame_time": 1.0,
                                                           "max_iterations": iterations}
    champion = SimPlayer(lexicon, seed=seed, workers=1, endgame=True, **timing, **VARIANTS[variant])  # type: ignore[arg-type]
    seat = game.to_move
    bag0 = len(game.bag)
    first = ""
    spent = 0.0
    moves = 0
    while not game.over:
        view = game.view(game.to_move)
        if game.to_move != seat:
            game.play(static.choose(view))
            continue
        start = time.perf_counter()
        move = champion.choose(view)
        spent += time.perf_counter() - start
        moves += 1
        first = first or str(move)
        game.play(move)
    spread = game.scores[seat] - game.scores[1 - seat]
    return {"seed": seed, "bag": bag0, "seat": seat, "spread": spread,
            "win": 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0, "first": first, "moves": moves,
            "ms": round(1000 * spent / max(moves, 1), 1)}


def run(args: argparse.Namespace) -> None:
    """Play the positions, printing and saving each."""
    done: set[int] = set()
    if args.save and Path(args.save).exists():
        done = {json.loads(line)["seed"] for line in Path(args.save).read_text().splitlines() if line}
    for seed in range(args.first, args.first + args.count):
        if seed in done:
            continue
        row = play_position(seed, args.bag, args.variant, args.iterations)
        if row is None:
            continue
        print(json.dumps(row), flush=True)
        if args.save:
            with open(args.save, "a") as f:
                f.write(json.dumps(row) + "\n")


def mean_se(xs: list[float]) -> tuple[float, float]:
    """Mean and standard error."""
    if len(xs) < 2:
        return (xs[0] if xs else 0.0), 0.0
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def compare(args: argparse.Namespace) -> None:
    """Pair two saved runs position by position."""
    runs = [{r["seed"]: r for r in map(json.loads, Path(name).read_text().splitlines()) if r} for name in args.files]
    a, b = runs
    seeds = sorted(set(a) & set(b))
    if not seeds:
        sys.exit("no position in both runs")
    spread, se_spread = mean_se([b[s]["spread"] - a[s]["spread"] for s in seeds])
    wins, se_wins = mean_se([b[s]["win"] - a[s]["win"] for s in seeds])
    print(f"positions {len(seeds)}: first move differs in {sum(a[s]['first'] != b[s]['first'] for s in seeds)}, "
          f"result in {sum(a[s]['spread'] != b[s]['spread'] for s in seeds)}")
    print(f"wins A {100 * statistics.fmean(a[s]['win'] for s in seeds):.1f}%, "
          f"B {100 * statistics.fmean(b[s]['win'] for s in seeds):.1f}%; B less A {100 * wins:+.2f} points "
          f"(se {100 * se_wins:.2f}); spread B less A {spread:+.2f} (se {se_spread:.2f})")
    print(f"ms a move A {statistics.fmean(a[s]['ms'] for s in seeds):.0f}, B {statistics.fmean(b[s]['ms'] for s in seeds):.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="play the positions with one variant")
    p.add_argument("--variant", choices=sorted(VARIANTS), default="playout")
    p.add_argument("--first", type=int, default=1000)
    p.add_argument("--count", type=int, default=600)
    p.add_argument("--bag", type=int, default=14)
    p.add_argument("--iterations", type=int, default=400, help="iterations a move, no time limit (0: 1 s a move)")
    p.add_argument("--save", help="append each position's line to this file (and resume from it)")
    c = sub.add_parser("compare", help="pair two saved runs")
    c.add_argument("files", nargs=2)
    args = parser.parse_args()
    run(args) if args.command == "run" else compare(args)


if __name__ == "__main__":
    main()
