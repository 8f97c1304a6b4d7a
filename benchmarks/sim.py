"""Simulation speed: iterations per second on one core (``workers=1``).

    python benchmarks/sim.py [--games 6] [--iterations 24] [--repeat 3] [--lexicon twl06] [--table-leaves]

The positions are fixed: static-vs-static games with seeds ``0..games-1``, the position
before turns 6 and 12 of each (mid-game, the bag not empty). In each, the sim player's
candidates (its defaults: the 10 best placements and 2 exchanges within 25 points of the
best) are simulated for ``--iterations`` iterations with :func:`qiza.players.sim.simulate`
(no deadline, no pruning: every candidate in every iteration); the figure is the total
iterations over the total time, best of ``--repeat`` runs. The load average is printed
beside it: the machine is shared, compare figures run back to back.

``--path python`` times :func:`qiza.players.sim.simulate_python`, today's rollout before the
compiled one (Python per ply, one batched compiled call per ply); ``--path compiled`` the
compiled rollout (:mod:`qiza.players.sim_nb`); the default times both, back to back, each run.
Both give the same values (``tests/test_sim_rollout.py``).

Measured on the 2-core machine shared with other work, twl06, 11 positions, 6.9 candidates a
position on average, 24 iterations each, best of the runs:

=====================  ============  ==============  ==========================
load average (1 min)   Python path   compiled        compiled / Python
=====================  ============  ==============  ==========================
3.1-3.2 (3 runs)       180.3 it/s    221.1 it/s      1.23 (per CPU s: 371, 449)
5.5-5.7 (4 runs)       170.5 it/s    235.1 it/s      1.38 (per CPU s: 340, 478)
6.4-6.7 (4 runs) [*]_  376.5 it/s    487.1 it/s      1.29 (per CPU s: 425, 516)
5.1-5.2 (3 runs) [+]_  277.8 it/s    467.0 it/s      1.68 (per CPU s: 410, 679)
2.1-2.2 (3 runs) [+]_  451.8 it/s    729.5 it/s      1.61 (per CPU s: 452, 731)
3.5-3.7 (3 runs) [#]_  447.1 it/s    1189.6 it/s     2.66 (per CPU s: 445-452, 1128-1190)
4.0-4.2 (3 runs) [#]_  448.6 it/s    846.8 it/s      2.51 (per CPU s: 421-458, 1056-1140)
2.9 (2 runs) [#]_      437.2 it/s    1097.7 it/s     2.51 (per CPU s: 438-441, 1082-1098)
=====================  ============  ==============  ==========================

.. [*] After the move generator for any tile set landed; this time the process had a core to
   itself most of the run (wall close to CPU time), hence the higher wall figures of both.
.. [+] With the first opponent's reply searched through the line cache of
   :mod:`qiza.movegen_lines` (branch ``simspeed``), alternated with main at 3ce29bc (the same
   Python path): main's compiled rollout in the same rounds 343.1 / 553.2 it/s (per CPU s 515,
   556), so 1.31x over it.
.. [#] With the faster best-only search (branch ``sim9``: the tiles right of an anchor read on
   in the graph, the plays of the whole rack bounded word by word, the plays that put a blank
   down bounded apart), each run of this branch alternated with main at 695e2de in separate
   processes; the Python path is main's (today's; this branch's own Python path gains too, as
   it calls the same search: 668-722 per CPU second). Main's compiled rollout in the same rounds:
   676-721 per CPU second, so 1.5-1.7x over it. Ratio: best wall figures; per CPU second 2.3-2.7.
   The last row after rebasing on main at 7b471fd (against it): main's compiled 684 per CPU
   second; with ``--table-leaves`` 637-663 on main, 977-996 here.

Through the player (``SimPlayer.choose``, ``workers=1``, at most 120 iterations a move, so with
pruning and rounds of 4 iterations), on the same positions at load 5.5: 471-565 iterations/s
before, 662-663 after (1.2-1.4x).

The search is most of an iteration: in the Python path the batched best-only calls take about
80% of the time (two searches per candidate and iteration, 150-200 us each with seven-tile
racks), so compiling the loop removes the other 20% and the gain stops near 1.25-1.4x; twice
the iterations would need a search about twice as fast (or shared between the candidates).

Shared between the candidates: in an iteration every candidate meets the same opponent's rack,
and a candidate changes only a few lines of the board, so the compiled rollout searches the
first opponent's reply with a cache of the board before the candidates (its anchors' bounds once,
each anchor's best play at most once) and, on each candidate's board, only the lines it changes:
about 60 us a reply against 120 for the full search, the same play to the tie. This player's own
next move cannot be shared (its rack, the leave plus the draw, differs from candidate to
candidate) and is now two thirds of the time (0.27 of 0.40 s CPU over the 11 positions, load
5.1); racks with a blank are 12% of those searches but half their time (527 against 75 us).
Through the player the gain is small: with the pruning only two or three candidates are left
for most of a move, and the cache costs about what their searches do (640 iterations in all,
alternated three times at load 2.0-2.4: 782-838 iterations per CPU second on main, 852-913
here, 1.09-1.13x).

Then the search itself (branch ``sim9``), measured on the 3648 best-only searches of these
rollouts (the Python path's, one position at a time, CPU us a search, load 2-3), before ->
after: this player's next move with a blank on the rack 491 -> 144, without 84 -> 63; the
reply with a blank 467 -> 110, without 61 -> 52; the same plays to the tie. Where the blank's
searches went: a play from an anchor left of board tiles goes on through them, but the search
learnt it only after the whole left part (hundreds of left parts of a blank rack per anchor,
few of them before those tiles in any word): now the left part is read on in the graph from
those tiles too, and takes only the letters some word has there; the spans of the whole rack
(bingo bonus, the highest bounds) are bounded by the rack's words that fit them; the plays that
put the blank down are bounded with the blank's leave value lost (without that: 196 us instead
of 161 a blank search, at the same load). Tried and dropped, no gain once the rest was in: a
blank rack's search started from the best play of its other tiles (the blank kept, its equity
the score to reach: 161 us against 134-148 without it), and the best fitting word of a whole-rack
span taken at once as a score to reach (it is a play; the same time, within the noise). Through
the player (``SimPlayer.choose``, ``workers=1``, at most 120 iterations a move, 688 iterations
in all, the same on both), alternated three times with main at load 4.3-4.7: 839-918 iterations
per CPU second on main, 1179-1286 here (1.3-1.5x): the static player's candidates of each move
and the pruning's rounds are a larger share there.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qiza.game import Game, PlayerView  # noqa: E402
from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.players.engine import StaticPlayer  # noqa: E402
from qiza.players.sim import SimCandidate, SimPlayer, SimTask, simulate  # noqa: E402
from qiza.rules import find_preset  # noqa: E402

TURNS = (6, 12)


def positions(lexicon_name: str, games: int) -> list[PlayerView]:
    """The views of the player to move before each of :data:`TURNS` of static self-play games."""
    return [view for _, _, view in positions_at(lexicon_name, games, TURNS, 0)]


def positions_at(lexicon_name: str, games: int, turns: tuple[int, ...],
                 min_bag: int, opponents: dict[tuple[int, int], str] | None = None) -> list[tuple[int, int, PlayerView]]:
    """(game seed, turn, view) of the player to move before each of ``turns`` of static
    self-play games (seeds ``0..games-1``), where the bag holds more than ``min_bag`` tiles;
    ``opponents``, if given, gets the opponent's rack at each (seed, turn) (two players)."""
    lexicon = load_lexicon(lexicon_name)
    rules = find_preset("classic").with_options(first_player="fixed")
    players = [StaticPlayer(lexicon, seed=1), StaticPlayer(lexicon, seed=2)]
    views = []
    for seed in range(games):
        game = Game(rules, players=["A", "B"], lexicon=lexicon, seed=seed)
        turn = 0
        while not game.over and turn <= max(turns):
            view = game.view(game.to_move)
            if turn in turns and view.bag_count > min_bag:
                views.append((seed, turn, view))
                if opponents is not None:
                    opponents[seed, turn] = game.view(1 - game.to_move).rack
            game.play(players[game.to_move].choose(view))
            turn += 1
    return views


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lexicon", default="twl06")
    parser.add_argument("--path", choices=("both", "python", "compiled"), default="both",
                        help="the rollout to time: the Python one (one compiled call per ply), the compiled one, or both")
    parser.add_argument("--table-leaves", action="store_true",
                        help="the rollouts' plies value leaves by the full leave table (SimTask.table_leaves)")
    args = parser.parse_args(argv)
    views = positions(args.lexicon, args.games)
    player = SimPlayer(load_lexicon(args.lexicon), seed=1, workers=1)
    work: list[tuple[PlayerView, list[SimCandidate]]] = []
    for view in views:
        cands = player.sim_candidates(view)
        if len(cands) > 1:
            work.append((view, cands))
    gen = player.generator(work[0][0].rules)
    for view, cands in work[:1]:  # warm up: the compiled code loaded, the leave model's caches
        for compiled in (False, True):
            simulate(gen, player.leaves, view.rules, SimTask.of_view(view, cands, 2, 0, table_leaves=args.table_leaves),
                     compiled=compiled)
    ncand = sum(len(c) for _, c in work) / len(work)
    print(f"{len(work)} positions, {ncand:.1f} candidates a position on average, "
          f"{args.iterations} iterations each")
    paths = {"python": False, "compiled": True}
    if args.path != "both":
        paths = {args.path: paths[args.path]}
    best = dict.fromkeys(paths, 0.0)
    for rep in range(args.repeat):
        for name, compiled in paths.items():  # back to back: the same load for both
            load = os.getloadavg()
            t0 = time.perf_counter()
            c0 = time.process_time()
            for i, (view, cands) in enumerate(work):
                task = SimTask.of_view(view, cands, args.iterations, 1000 * rep + i, table_leaves=args.table_leaves)
                simulate(gen, player.leaves, view.rules, task, compiled=compiled)
            wall = time.perf_counter() - t0
            cpu = time.process_time() - c0
            total = args.iterations * len(work)
            best[name] = max(best[name], total / wall)
            print(f"run {rep + 1} {name:<8}: {total / wall:7.1f} iterations/s wall, {total / cpu:7.1f} per CPU second "
                  f"({wall:.2f} s) | load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    print("best: " + ", ".join(f"{name} {rate:.1f} iterations/s" for name, rate in best.items()))
    if len(best) == 2:
        print(f"compiled / python: {best['compiled'] / best['python']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
