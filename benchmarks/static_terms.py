"""Measure each equity term of the static player by self-play (issue 12, item 4).

    python benchmarks/static_terms.py [--shuffles 1000] [--jobs 2] [--only NAME ...]

For every variant below, the static player with that one setting changed plays the default
static player on the same shuffles from both seats (2 x shuffles games, TWL06, classic
rules). Prints the variant's win rate with its 95% interval and the spread a game, one line
per variant as it finishes. A term is worth keeping when its variant *without* it loses.

Measured 2026-11-25 (load 4-8), against the default: stuck x2 with constant 10 50.1%
(47.9-52.3), stuck constant 10 50.1% (47.9-52.3), no leave fade 49.6% (47.4-51.8), leave fade to
0 49.7% (47.5-51.9) over 2,000 games each; pre-endgame leave points 0.5 50.0% (48.4-51.5),
exchange penalty 2 50.0% (48.5-51.6), leave weight 1.1 50.6% (49.1-52.2), leave weight 1.3
49.2% (47.6-50.7), bingo odds x1.5 50.0% (48.4-51.5), exchange bonus 2 49.7% (48.2-51.2) over
4,000 games each: none is a measurable gain, the defaults stay.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.players.engine import StaticPlayer, StaticSettings  # noqa: E402
from qiza.players.selfplay import play_game, win_interval  # noqa: E402

VARIANTS: dict[str, dict[str, float]] = {
    "no opening placement": {"opening_vowel_penalty": 0.0},
    "opening placement x2": {"opening_vowel_penalty": 1.4},
    "no going-out bonus": {"out_bonus_factor": 0.0},
    "going-out bonus x1": {"out_bonus_factor": 1.0},
    "no stuck-tile penalty": {"stuck_penalty": 0.0},
    "stuck-tile penalty x2": {"stuck_penalty": 2.0},
    "no bingo odds": {"bingo_draw_bonus": 0.0},
    "bingo odds x2": {"bingo_draw_bonus": 20.0},
    "leave weight 1.0": {"leave_weight": 1.0},
    "leave weight 1.4": {"leave_weight": 1.4},
    "pre-endgame leave points 0.5": {"preendgame_points": 0.5},
    "pre-endgame leave points 1.0": {"preendgame_points": 1.0},
    "exchange penalty 2": {"exchange_penalty": 2.0},
    "stuck x2, constant 10": {"stuck_penalty": 2.0, "stuck_constant": 10.0},
    "stuck constant 10": {"stuck_constant": 10.0},
    "leave weight 1.1": {"leave_weight": 1.1},
    "leave weight 1.3": {"leave_weight": 1.3},
    "bingo odds x1.5": {"bingo_draw_bonus": 15.0},
    "exchange bonus 2": {"exchange_penalty": -2.0},
    "no leave fade": {"fade_floor": 1.0},
    "leave fade to 0": {"fade_floor": 0.0},
}

_STATE: dict[str, object] = {}


def _init(changes: dict[str, float]) -> None:
    lexicon = load_lexicon("twl06")
    settings = dataclasses.replace(StaticSettings(), **changes)
    _STATE["players"] = [StaticPlayer(lexicon, name="variant", settings=settings),
                         StaticPlayer(lexicon, name="default")]
    _STATE["lexicon"] = lexicon


def _game(number: int) -> tuple[int, int, bool]:
    """Game ``number``: shuffle number // 2, the variant first in even games."""
    players = _STATE["players"]
    result = play_game(players, seed=number // 2, lexicon=_STATE["lexicon"], rotate=number % 2)  # type: ignore[arg-type]
    return result.scores[0], result.scores[1], result.winners == [0]


def measure(changes: dict[str, float], shuffles: int, jobs: int) -> tuple[float, float, float, float]:
    """Win rate (ties count half), its 95% interval and the spread a game of a variant."""
    ctx = multiprocessing.get_context("fork")
    wins = 0.0
    spread = 0
    games = 2 * shuffles
    with ctx.Pool(jobs, _init, (changes,)) as pool:
        for mine, theirs, won in pool.imap_unordered(_game, range(games), chunksize=20):
            spread += mine - theirs
            wins += 1.0 if won else (0.5 if mine == theirs else 0.0)
    rate = wins / games
    lo, hi = win_interval(rate, games)
    return rate, lo, hi, spread / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shuffles", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", nargs="*", default=None, help="variant names to run (default: all)")
    args = parser.parse_args()
    print(f"each variant against the default static player: {args.shuffles} shuffles x 2 seats, TWL06")
    print(f"{'variant':<30} {'win%':>6} {'95% interval':>14} {'spread':>7} {'seconds':>8}", flush=True)
    for name, changes in VARIANTS.items():
        if args.only and name not in args.only:
            continue
        t0 = time.time()
        rate, lo, hi, spread = measure(changes, args.shuffles, args.jobs)
        print(f"{name:<30} {100 * rate:>5.1f}% {100 * lo:>6.1f}-{100 * hi:<6.1f} {spread:>+7.1f} "
              f"{time.time() - t0:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
