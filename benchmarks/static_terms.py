"""Measure each equity term of the static player by self-play (issue 12, item 4).

    python benchmarks/static_terms.py [--shuffles 1000] [--first 0] [--jobs 2] [--maxscore] [--only NAME ...]

For every variant below, the static player with that one setting changed plays the default
static player (``--maxscore``: the max-score player) on the same shuffles from both seats
(2 x shuffles games, TWL06, classic rules; the shuffles numbered from ``--first``). Prints the
variant's win rate with its 95% interval, the spread a game and its average score, one line per
variant as it finishes. A term is worth keeping when its variant *without* it loses.

Measured 2026-11-25 (load 4-8), against the default: stuck x2 with constant 10 50.1%
(47.9-52.3), stuck constant 10 50.1% (47.9-52.3), no leave fade 49.6% (47.4-51.8), leave fade to
0 49.7% (47.5-51.9) over 2,000 games each; pre-endgame leave points 0.5 50.0% (48.4-51.5),
exchange penalty 2 50.0% (48.5-51.6), leave weight 1.1 50.6% (49.1-52.2), leave weight 1.3
49.2% (47.6-50.7), bingo odds x1.5 50.0% (48.4-51.5), exchange bonus 2 49.7% (48.2-51.2) over
4,000 games each: none is a measurable gain, the defaults stay.

New kinds of term, tried 2026-11-26 on branch ``static11`` and not kept (no measurable gain, so
their code is not in the package; 2-core machine shared, load 2-4, one process), 4,000 games
each against the default (shuffles 0-1999 unless said):

* the unseen pool (each leave's value corrected by how the tiles drawn to it from the actual
  unseen tiles differ from a draw from the average pool; computed per decision by a compiled
  kernel, about 0.1-0.15 ms a decision): vowel balance 1 50.1% (48.6-51.7, +0.3 a game), 2
  49.7% (48.2-51.3, -0.5); pairs of like letters 3 50.5% (49.0-52.1, +1.3), 6 50.9% (49.4-52.5,
  +2.0), 10 49.9% (48.4-51.5, +1.3), and on shuffles 2000-3999 pairs 3 50.3% (48.7-51.8, -0.4),
  6 49.9% (48.4-51.4, -0.6), on 4000-5999 pairs 6 49.5% (48.0-51.1, -0.2): over 12,000 games
  pairs 6 is 50.1%, +0.4 a game. Against maxscore it did a little better than the default on
  each of three sets of shuffles, 67.0/66.7/67.1% and 435.1/434.9/435.0 points against
  65.8/65.7/66.3% and 433.3/432.4/433.1 (+1.0% and +2.1 points over 12,000 games, about two
  standard errors): the one lead worth a longer run. Value of the tiles drawn 0.5 49.7%
  (48.2-51.3, -0.6), 1 49.4% (47.8-50.9, -1.0);
* the board (a penalty in the full evaluation of every placement): that slower path with no
  term, a control, 50.2% (48.7-51.7); points per closed triple-word square a play opens 4 49.3%
  (47.8-50.9, -2.5 a game), 8 46.4% (44.9-48.0, -8.3): opening them is not a cost a static
  player should pay to avoid; vowels put beside empty letter premiums 1 49.7% (48.2-51.3,
  -0.1), 2 49.9% (48.3-51.4, -0.1);
* the score: leave values scaled by the lead (more when behind), slope 0.2 50.1% (48.6-51.7,
  -1.7 a game), 0.4 49.5% (47.9-51.0, -3.4).

The default against maxscore on the same machine (``qiza selfplay static maxscore -n 4000
--both-seats -j 1``): 65.8% (64.3-67.2), 433.3 points a game against 394.0; with ``--maxscore``
here (12,000 games, shuffles 0-5999) 65.9%, 432.9 points a game.
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
from qiza.players.engine import MaxScorePlayer, StaticPlayer, StaticSettings  # noqa: E402
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
    "default": {},
}

_STATE: dict[str, object] = {}


def _init(changes: dict[str, float], first: int = 0, maxscore: bool = False) -> None:
    _STATE["first"] = first
    lexicon = load_lexicon("twl06")
    settings = dataclasses.replace(StaticSettings(), **changes)
    opponent = MaxScorePlayer(lexicon) if maxscore else StaticPlayer(lexicon, name="default")
    _STATE["players"] = [StaticPlayer(lexicon, name="variant", settings=settings), opponent]
    _STATE["lexicon"] = lexicon


def _game(number: int) -> tuple[int, int, bool]:
    """Game ``number``: shuffle number // 2 (shuffles numbered from ``first``), the variant first in
    even games."""
    players = _STATE["players"]
    seed = number // 2 + int(_STATE["first"])  # type: ignore[call-overload]
    result = play_game(players, seed=seed, lexicon=_STATE["lexicon"], rotate=number % 2)  # type: ignore[arg-type]
    return result.scores[0], result.scores[1], result.winners == [0]


def measure(changes: dict[str, float], shuffles: int, jobs: int, first: int = 0,
            maxscore: bool = False) -> tuple[float, float, float, float, float]:
    """Win rate (ties count half), its 95% interval, the spread a game and the average score of a
    variant, on the
    shuffles ``first`` to ``first + shuffles - 1``, against the default static player (or
    ``maxscore``)."""
    ctx = multiprocessing.get_context("fork")
    wins = 0.0
    spread = 0
    points = 0
    games = 2 * shuffles
    with ctx.Pool(jobs, _init, (changes, first, maxscore)) as pool:
        for mine, theirs, won in pool.imap_unordered(_game, range(games), chunksize=20):
            spread += mine - theirs
            points += mine
            wins += 1.0 if won else (0.5 if mine == theirs else 0.0)
    rate = wins / games
    lo, hi = win_interval(rate, games)
    return rate, lo, hi, spread / games, points / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shuffles", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="the first shuffle's number")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--maxscore", action="store_true", help="against maxscore, not the default static")
    parser.add_argument("--only", nargs="*", default=None, help="variant names to run (default: all)")
    args = parser.parse_args()
    against = "maxscore" if args.maxscore else "the default static player"
    print(f"each variant against {against}: {args.shuffles} shuffles x 2 seats, TWL06")
    print(f"{'variant':<30} {'win%':>6} {'95% interval':>14} {'spread':>7} {'score':>6} {'seconds':>8}", flush=True)
    for name, changes in VARIANTS.items():
        if args.only and name not in args.only:
            continue
        t0 = time.time()
        rate, lo, hi, spread, score = measure(changes, args.shuffles, args.jobs, args.first, args.maxscore)
        print(f"{name:<30} {100 * rate:>5.1f}% {100 * lo:>6.1f}-{100 * hi:<6.1f} {spread:>+7.1f} {score:>6.1f} "
              f"{time.time() - t0:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
