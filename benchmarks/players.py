"""Time per move of every computer level: median and 95th percentile.

    python benchmarks/players.py [--games N] [--lexicon twl06] [--sim-time 1.0]

Each level plays N games against ``static`` (one process; ``sim``/``champion`` use their own
worker processes); only the level's own moves are timed.

Strength, measured 2026-11-25 on the 2-core machine (TWL06, classic rules, every shuffle played
from both seats, 95% intervals; load 2-6, other jobs running):

==========================================  ======  ==================  ===========  ===========
level against level                         games   wins                spread/game  avg score
==========================================  ======  ==================  ===========  ===========
static v maxscore (earlier session)         10,000  65.9% (65.0-66.8)   --           433.2
endgame (0.3 s) v static                     2,000  52.4% (50.3-54.6)   +5.9         429.9
endgame (0.3 s) v maxscore                   4,000  67.7% (66.2-69.1)   +44.7        435.6 v 390.9
champion (1 s a move, 1 worker) v static       600  56.3% (52.4-60.3)   +13.2        429.5 v 416.3
==========================================  ======  ==================  ===========  ===========

``qiza selfplay endgame static -n 2000 --both-seats -j 1 --time-limit 0.3``; the champion's
games were played one at a time (``play_game``, seeds 100000+, the champion with
``time_limit=1.0, workers=1``), 5.4 s a game on average: its pruning stops most moves before
the second is up. Exact endgames are worth about 2.4 points of win rate over the static
player's end-of-bag terms; the champion's simulation about 6.

The champion against MAGPIE's static player (2026-11-26; MAGPIE built outside the repository
from its public sources, one thread, best-equity move; its leave file holds qiza's shipped table
times 1.2, because its own trained leaves cannot be made offline; a scratch harness gave it the
position without the champion's rack and checked every move with qiza's rules engine, 0
refused; the champion with ``time_limit=1.0, workers=1``, 0.54 s a move on average; TWL06,
auto challenge, shuffles 0-349 from both seats, load 1-5): 700 games, champion 61.7% (95%
58.1-65.3), +25.3 a game, 433.9 against 408.7 points. Again on 2026-11-27 with main at
f7e11b2 (the endgame search of 2026-11-26 since; the same games 0-699, the other core playing
another match, load 2): 700 games, champion 62.8% (95% 59.2-66.4), +27.8 a game, 434.8 against
407.0, 0.54 s a move, 0 refused; both runs, 1,400 games: 62.3% (95% 59.7-64.8), +26.5 a game.
Issue 13's target is 65% against MAGPIE with its own leaves.

Deeper rollouts (2026-11-27, branch ``plies``, not merged): the rollouts played on for four
moves after the candidate (the opponent's reply, the champion's move, the reply, the move, then
the final leave) instead of two, compiled and in Python alike, the champion otherwise the same;
on the same games against the same MAGPIE build, at the same time: 700 games, 60.0% (95%
56.4-63.6), +23.9 a game, 0.70 s a move (about 190 iterations a simulated move against 320: it
prunes less). Paired with the run above game by game: -2.8 points of win rate (se 2.2) and -3.9
a game (se 3.9): no gain at 1 s a move, so the code stays out.

The champion against MAGPIE's simulation player (2026-11-26; the same build, leaves and harness;
while the bag holds tiles MAGPIE generates its 15 best moves by equity and simulates them 2
plies deep for 1 s on one thread (``sim -plies 2 -numplays 15 -tlim 1 -scondition 99``, about
6,800 rollouts a second, no inference: the harness's position has no last play), choosing by a
win-probability table made here (a logistic curve of the spread, steeper with fewer tiles
unseen; MAGPIE's own file cannot be fetched offline); with the bag empty, its endgame solver
``endgame -eplies 25 -etlim 1``; the champion with ``time_limit=1.0, workers=1``; TWL06, auto
challenge, shuffles 0-164 and 200-273 from both seats, two games at a time on the 2 cores,
load 2): 478 games, champion 47.4% (95% 42.9-51.9), -0.6 a game, 419.5 against 420.2 points, 0
moves refused; the champion took 0.53 s a move, MAGPIE 1.08 s. MAGPIE's endgame solver ends
only after the first depth that finishes past its limit: in 77 games one of its endgame moves
took more than 2 s (36 more than 5 s, 9 more than 20 s, at most 195 s), and the champion won
38.3% of those games against 49.1% of the other 401. 200 more games on 2026-11-26 (shuffles
274-373 from both seats, with that day's endgame search): champion 53.2% (95% 46.3-60.2), +4.9
a game, 423.5 against 418.6; MAGPIE's endgame took more than 2 s in 27 of them (at most 34.9 s),
and the champion won 40.7% of those. All 678 games: 49.1% (95% 45.4-52.9), +1.0 a game.
Issue 13's target is at least 50% given the same time. 115 more games on 2026-11-27 (main at
eb77dcd, shuffles 385-442 from both seats, the other core busy): 47.4% (95% 38.3-56.5), -6.8 a
game, the champion 0.52 s a move, MAGPIE 1.05 s; all 793 games: 48.9% (95% 45.4-52.3), -0.1 a
game.

MAGPIE's simulation player against MAGPIE's static player, for the targets' sake (2026-11-27;
both as in the two matches above, the same build, leaves, win-probability table and harness
code; the same games as the champion's two runs against the static player: shuffles 0-150 and
200-348, the seats as there; one game at a time on each of the 2 cores, load 2): 599 games,
MAGPIE's simulation 62.4% (95% 58.5-66.2), +27.5 a game, 432.4 against 405.0 points, 0 moves
refused. The champion's two runs on the same 599 games averaged 63.1%: the champion less
MAGPIE's simulation, game by game, +0.7 points of win rate (se 2.0), +0.6 a game (se 3.7).
The reference engine's own simulation, at the same second a move, stands where the champion
does against this static player, short of issue 13's 65%.
"""

from __future__ import annotations

import argparse
import statistics
import time

from qiza.lexicon import load_lexicon
from qiza.players import LEVELS, make_player
from qiza.players.selfplay import percentile, play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--lexicon", default="twl06")
    parser.add_argument("--sim-time", type=float, default=1.0)
    parser.add_argument("--levels", nargs="*", default=[lv.name for lv in LEVELS] + ["maxscore", "static", "sim"])
    args = parser.parse_args()
    lexicon = load_lexicon(args.lexicon)
    opponent = make_player("static", lexicon, seed=0)
    print(f"{'level':<10} {'moves':>6} {'median ms':>10} {'p95 ms':>9} {'avg score':>9}")
    for level in args.levels:
        options = {"time_limit": args.sim_time} if level in ("sim", "champion") else {}
        player = make_player(level, lexicon, seed=1, **options)
        times: list[float] = []
        scores: list[int] = []
        start = time.perf_counter()
        for g in range(args.games):
            result = play_game([player, opponent], seed=g, lexicon=lexicon, rotate=g % 2)
            times.extend(result.move_times[0])
            scores.append(result.scores[0])
        getattr(player, "close", lambda: None)()
        print(f"{level:<10} {len(times):>6} {1000 * statistics.median(times):>10.1f} "
              f"{1000 * percentile(times, 95):>9.1f} {statistics.mean(scores):>9.1f}"
              f"   ({time.perf_counter() - start:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
