"""Self-play and training throughput: games per second, per core (issue 12, item 3).

    python benchmarks/throughput.py [--games 400] [--train-games 400] [--jobs N]

Plays through the project's own loops, no second game loop:

* self-play: :func:`qiza.players.selfplay.run_games` (the loop of ``qiza selfplay``) for
  ``static`` against ``static`` and ``maxscore`` against ``maxscore``, TWL06, classic rules;
* training: :func:`qiza.players.train.play_round` (the loop of one round of ``qiza train``:
  static players with the shipped model, 10% exploration, a process pool), reporting games
  and observations (leaves kept with a full draw, each a training sample) per second.

Each is run on one worker and on ``--jobs`` workers (default: all cores); the figures include
starting the worker processes (each loads the lexicon), so small runs understate the rate.
Prints the machine's load average beside the figures: on a shared machine they are noisy.

Measured 2026-11-25 on the 2-core development machine, shared (load 8.7-10.2: the machine was
oversubscribed, so two workers did not go faster than one), 400 games each:

    loop                          workers  games/s  games/s/core  other
    selfplay static v static            1    35.2      35.2       0.96 ms/move
    selfplay static v static            2    41.8      20.9       1.34 ms/move
    selfplay maxscore v maxscore        1    96.2      96.2       0.26 ms/move
    selfplay maxscore v maxscore        2    75.6      37.8       0.47 ms/move
    train (one round)                   1    23.3      23.3       444 observations/s
    train (one round)                   2    22.8      11.4       433 observations/s

A whole training round of 60,000 games (shipped model, 10% exploration) took 2,273 s on 2
workers at load 6.5-8.5 (26 games/s, 1,143,322 observations). For comparison, MAGPIE's own
autoplay of its static players (built outside the repository, reading qiza's leaves; one thread)
played 4,000 games in 16.4 s of CPU time (244 games per CPU-second; 76 s wall at load 8).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qiza.cli import prepare_move_generator  # noqa: E402
from qiza.players.leaves import default_model  # noqa: E402
from qiza.players.selfplay import run_games  # noqa: E402
from qiza.players.train import play_round  # noqa: E402
from qiza.rules import CLASSIC  # noqa: E402


def load() -> str:
    """The load averages (1, 5, 15 minutes) as text."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def selfplay_rate(specs: list[str], games: int, jobs: int, seed: int) -> tuple[float, float, int]:
    """Seconds and moves of ``games`` self-play games on ``jobs`` workers; returns (seconds,
    seconds the players spent choosing moves, moves)."""
    t0 = time.perf_counter()
    moves = 0
    thinking = 0.0
    for result in run_games(specs, games, jobs=jobs, seed=seed, progress=False):
        moves += sum(len(t) for t in result.move_times)
        thinking += sum(sum(t) for t in result.move_times)
    return time.perf_counter() - t0, thinking, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="self-play games per run")
    parser.add_argument("--train-games", type=int, default=400, help="training games per run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="workers of the parallel runs")
    parser.add_argument("--lexicon", default="twl06")
    args = parser.parse_args()
    prepare_move_generator()
    worker_counts = sorted({1, args.jobs})
    print(f"{os.cpu_count()} cores; load average {load()} at the start")
    print(f"{'loop':<28} {'workers':>7} {'games':>6} {'seconds':>8} {'games/s':>8} {'games/s/core':>12} "
          f"{'other':>22} {'load':>15}")
    for specs in (["static", "static"], ["maxscore", "maxscore"]):
        selfplay_rate(specs, 2, 1, seed=10_000)  # warm-up in this process (forked workers inherit it)
        for jobs in worker_counts:
            seconds, thinking, moves = selfplay_rate(specs, args.games, jobs, seed=0)
            rate = args.games / seconds
            print(f"{'selfplay ' + ' v '.join(specs):<28} {jobs:>7} {args.games:>6} {seconds:>8.1f} {rate:>8.2f} "
                  f"{rate / jobs:>12.2f} {f'{1000 * thinking / moves:.2f} ms/move':>22} {load():>15}",
                  flush=True)
    model = default_model(CLASSIC.rack_size)
    play_round(model, range(2), lexicon=args.lexicon, rules=CLASSIC, jobs=1)  # warm-up
    for jobs in worker_counts:
        t0 = time.perf_counter()
        obs = play_round(model, range(1_000_000, 1_000_000 + args.train_games), lexicon=args.lexicon,
                         rules=CLASSIC, jobs=jobs, explore=0.1)
        seconds = time.perf_counter() - t0
        rate = args.train_games / seconds
        print(f"{'train (one round)':<28} {jobs:>7} {args.train_games:>6} {seconds:>8.1f} {rate:>8.2f} "
              f"{rate / jobs:>12.2f} {f'{len(obs) / seconds:.0f} observations/s':>22} {load():>15}", flush=True)


if __name__ == "__main__":
    main()
