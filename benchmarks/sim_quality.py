"""How well the simulation player spends its time: the equity it gives up against a long simulation.

    python benchmarks/sim_quality.py [--games 40] [--oracle 2000] [--time 1.0] [--set z=3 ...]
                                     [--cache FILE] [--lexicon twl06]

Game results need hundreds of games to tell two settings of :class:`~qiza.players.sim.SimPlayer`
apart. This measures one part of its play far more cheaply: how close its choice comes to the
best of its own candidates. The positions are from static-vs-static games (seeds ``0..games-1``,
the player to move before turns 2, 5, 8, 11 and 14, with more than ``win_from`` tiles in the bag,
so that the player values candidates by spread). In each, every candidate of the sim player is
simulated ``--oracle`` times with no pruning and no deadline (the same rollouts as the player's;
the values are kept in ``--cache`` and reused). Then the player, set up as given, chooses in each
position within ``--time`` seconds on one worker, and the script prints:

* loss: the mean of (best oracle value - oracle value of the chosen candidate), in points;
* best: how often the choice is the oracle's best candidate;
* the same for the static player's choice (the first candidate), the baseline the simulation
  has to beat, and for an ideal choice, the oracle's best of the player's candidates (what the
  player's candidate list allows, judged against the oracle's list: see ``--oracle-set``);
* the mean number of iterations and seconds the player spent a move.

The oracle's own error (its standard error of a difference is about half a point with 2,000
iterations) is the same for every setting, so settings compare fairly; the loss does not tell
whether the rollouts themselves judge the candidates well (only games do).

Measured 2026-11-25 on the 2-core machine (load 2-3), 60 games, 220 positions, oracle 2,000
iterations, the player's defaults at 1 s a move:

========  =====  ==========================  ==========  =======
choice    loss   oracle's best candidate     iterations  seconds
========  =====  ==========================  ==========  =======
sim       0.24   0.85                        309         0.344
static    1.03   0.68
========  =====  ==========================  ==========  =======

So the early stopping gives up about a quarter of a point a move against simulating every
candidate 2,000 times (about 3 points a game): the room for a better stopping rule is small; the
simulation's strength is in what its rollouts see.

Settings of the stopping rule, the same positions and oracle, one after the other (load 1.9-3.4;
``prior`` is the shrinkage towards the static equity, ``z`` the standard errors a candidate must
be behind to be dropped):

=============  =====  ============  ==========  =======
setting        loss   (se)          iterations  seconds
=============  =====  ============  ==========  =======
z=2 (before)   0.24   0.06          266         0.388
prior=0        0.22   0.06          261         0.406
prior=20       0.23   0.06          267         0.389
z=2.5          0.09   0.03          424         0.457
z=3 (default)  0.09   0.03          392-393     0.582-0.590
z=4            0.06   0.02          522         0.660
=============  =====  ============  ==========  =======

The shrinkage makes no difference; a stricter ``z`` drops fewer good candidates early and uses
more of the second. ``z=3`` is the default since (2026-11-25).

``--oracle-set`` gives the oracle a wider candidate list than the player's (the player's
candidates are the first of the static ranking, so they are among the oracle's), to ask whether
the player should spend the rest of its second on more candidates: it stops early, when pruning
leaves one candidate (0.53 s of its 1 s a move against MAGPIE's simulation player), while MAGPIE
simulates 15 candidates. Measured 2026-11-26 (load 1.7-2.0), the same 220 positions, an oracle of
2,000 iterations over ``candidates=20 exchanges=3 margin=40`` (18.4 candidates a position on
average), the player's defaults at 1 s a move: loss 0.11 (se 0.03), the oracle's best 0.88 of the
time, 375 iterations, 0.60 s; static 1.06, 0.67. The ``ideal`` line for each
setting of the candidates (``--set candidates=5`` etc.; a player that always chose the best of its
own candidates, judged against the best of the oracle's):

==========================================  ============  ==============  =====
candidates (placements, exchanges, margin)  ideal loss    best in the set  size
==========================================  ============  ==============  =====
5, 2, 25                                    0.19 (0.08)   0.92            4.8
10, 2, 25 (default)                         0.025 (0.02)  0.99            9.0
10, 2, 40                                   0.025 (0.02)  0.99            9.5
15, 2, 25 / 15, 3, 40 / 20, 3, 40           0.00          1.00            12.7-18.4
==========================================  ============  ==============  =====

With 5 candidates the player itself gives up 0.23 (se 0.08), 0.57 s a move.
So more candidates than the default can gain at most 0.025 points a move (the oracle's best lies outside the
default list in 2 positions of 220), and the rest of the player's 0.11 comes from choosing among
its own candidates, which a longer simulation narrows only to 0.06 (``z=4`` above). A player that
brought in the static ranking's next candidates when pruning left one (tried, not kept) has
nothing to gain by this measure: what the simulation's time could still buy is in what its
rollouts see (plies, the replies' evaluation), which only games measure.

``--truth`` deals the oracle's opponent the rack they really held in the game (the positions
come from games, so it is known), which judges inference (``--set infer=1``,
:mod:`qiza.players.inference`) against the truth rather than against random racks. Measured
2026-11-26 (load 1-2), the same 220 positions, an oracle of 2,000 iterations over the player's
candidates with the true rack, the player at 1 s a move: without inference it gives up 6.67
points a move (se 0.77), with it 6.30 (se 0.71; inference used in 159 of the 220), the static
choice 7.47; paired, 0.37 (se 0.54) points a move in favour of inference, 23 positions better
and 17 worse: no measurable gain, although the opponents here are static players, whose plays
inference models exactly; 400 self-play games found none either (``SimPlayer.infer``). (These
figures came from a scratch script computing the same oracle before ``--truth`` was added.)
Nor did games against that static player (2026-11-27; a scratch script on ``play_game``, TWL06,
classic rules, auto challenge, 1,000 shuffles each played from both seats, the simulation at
100 iterations a move with its endgame solver, with and without inference on the same
shuffles): 58.9% (95%: 56.7-61.0) with inference, 58.4% (56.2-60.5) without; paired +0.5
points of wins (se 1.4), spread +3.7 a game (se 2.5).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qiza.analysis import rack_counts  # noqa: E402
from qiza.lexicon import load_lexicon  # noqa: E402
from qiza.players.sim import SimPlayer, SimTask, simulate  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from sim import positions_at  # noqa: E402

TURNS = (2, 5, 8, 11, 14)


def parse_settings(pairs: list[str]) -> dict[str, float]:
    """``name=value`` pairs as keyword arguments of :class:`SimPlayer` (ints where whole)."""
    out: dict[str, float] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        number = float(value)
        out[name] = int(number) if number.is_integer() and name != "z" else number
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--oracle", type=int, default=2000, help="iterations of the oracle simulation")
    parser.add_argument("--time", type=float, default=1.0, help="the player's time a move (seconds)")
    parser.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE",
                        help="SimPlayer settings, e.g. z=3 min_iterations=40")
    parser.add_argument("--oracle-set", nargs="*", default=[], metavar="NAME=VALUE",
                        help="SimPlayer settings that make the oracle's candidates (default: the player's), "
                             "e.g. candidates=20 exchanges=3 margin=40 to judge wider settings")
    parser.add_argument("--truth", action="store_true",
                        help="the oracle deals the opponent the rack they really held (known from the game), "
                             "to judge inference (--set infer=1) against the truth")
    parser.add_argument("--cache", default="sim_oracle.json", help="oracle values (read and extended)")
    parser.add_argument("--lexicon", default="twl06")
    args = parser.parse_args(argv)
    lexicon = load_lexicon(args.lexicon)
    settings = parse_settings(args.set)
    player = SimPlayer(lexicon, seed=1, workers=1, time_limit=args.time, **settings)  # type: ignore[arg-type]
    wide = SimPlayer(lexicon, seed=1, workers=1, **parse_settings(args.oracle_set))  # type: ignore[arg-type]
    opponents: dict[tuple[int, int], str] = {}
    views = positions_at(args.lexicon, args.games, TURNS, player.win_from, opponents)
    cache_path = Path(args.cache)
    cache: dict[str, list[float]] = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    gen = None
    losses, static_losses, hits, static_hits, iters, secs = [], [], [], [], [], []
    outside = 0
    ideal: list[float] = []
    sizes: list[int] = []
    for seed, turn, view in views:
        cands = wide.sim_candidates(view)
        own = player.sim_candidates(view)
        if len(cands) < 2 or len(own) < 2:
            continue
        # the oracle's settings in the key: two candidate lists of the same length are not the same
        key = (f"{'truth:' if args.truth else ''}{seed}:{turn}:{args.oracle}:{len(cands)}"
               + "".join(f":{item}" for item in sorted(args.oracle_set)))
        if key not in cache:
            gen = gen or player.generator(view.rules)
            truth = None
            if args.truth:  # the opponent's real rack as the one leave they may hold
                truth = rack_counts(opponents[seed, turn], view.rules.tile_set).reshape(1, -1).astype(np.int64)
            task = SimTask.of_view(view, cands, args.oracle, 7 + seed * 100 + turn, leave_fade=player.fade,
                                   opponent_leaves=truth)
            cache[key] = [float(x) for x in simulate(gen, player.leaves, view.rules, task)[:, :len(cands)].mean(axis=0)]
            cache_path.write_text(json.dumps(cache))
        oracle = np.asarray(cache[key])
        t0 = time.perf_counter()
        move = player.choose(view)
        secs.append(time.perf_counter() - t0)
        iters.append(player.last_report.get("iterations", 0))
        chosen = next((i for i, c in enumerate(cands) if c.move == move), -1)
        mine = [i for i, c in enumerate(cands) if any(c.move == d.move for d in own)]
        if chosen < 0 or len(mine) < len(own):  # a player with wider settings than the oracle's
            outside += 1
            continue
        ideal.append(float(oracle.max() - oracle[mine].max()))
        sizes.append(len(own))
        best = float(oracle.max())
        losses.append(best - oracle[chosen])
        hits.append(oracle[chosen] == best)
        static_losses.append(best - oracle[0])
        static_hits.append(oracle[0] == best)
    n = len(losses)
    se = float(np.std(losses, ddof=1) / np.sqrt(n)) if n > 1 else 0.0
    over = (" ".join(args.oracle_set) or "the player's candidates") + (", the opponent's true rack" if args.truth else "")
    print(f"{n} positions ({outside} choices outside the oracle's candidates left out), oracle {args.oracle} "
          f"iterations over {over}; player {settings or 'defaults'}, {args.time} s a move "
          f"(load average {os.getloadavg()[0]:.2f})")
    print(f"sim:    loss {np.mean(losses):6.2f} (se {se:.2f})  best {np.mean(hits):.2f}  "
          f"iterations {np.mean(iters):6.0f}  seconds {np.mean(secs):.3f}")
    print(f"static: loss {np.mean(static_losses):6.2f}           best {np.mean(static_hits):.2f}")
    print(f"ideal:  loss {np.mean(ideal):6.3f} (se {float(np.std(ideal, ddof=1) / np.sqrt(n)) if n > 1 else 0.0:.3f})  "
          f"best {np.mean(np.asarray(ideal) == 0):.2f}  (always the best of the player's "
          f"{np.mean(sizes):.1f} candidates)")
    player.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
