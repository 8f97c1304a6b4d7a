"""``qiza train``: learn leave values by self-play.

Training plays fast two-player games (numpy boards, the generator's best-move mode with
per-tile leave values, exchanges judged by the current full model) and records, for every
turn after which the player drew a full rack, the tiles kept and the points the same player
scored on their next turn. A leave's value is how much more (or less) a player scores next
turn after keeping it than after keeping nothing:

* a ridge regression on leave features (copies of each tile, vowel/consonant balance,
  Q with U) over all observations, with an intercept for the empty leave;
* a superleave table for the leaves seen often enough: the observed mean, shrunk towards
  the regression's prediction;
* per-tile linear values (a second regression on tile counts) for the fast paths.

Each round plays with the model of the round before. The model, the run's size and time are
written to ``qiza/data/leaves.json`` (or ``--output``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from qiza.lexicon import load_lexicon
from qiza.players.fast import apply_move, draw, used_counts
from qiza.players.leaves import LETTERS, LeaveModel, default_model, features, key_counts, leave_key
from qiza.rules import CLASSIC, Rules

Observation = tuple[str, int, int, int]
"""(leave key, points scored next turn, points of the play that kept the leave, tiles on the board)."""

_STATE: dict[str, object] = {}


def _init(lexicon_name: str, model: dict[str, object], rules: Rules) -> None:
    from qiza.analysis import generator

    lexicon = load_lexicon(lexicon_name)
    _STATE["gen"] = generator(lexicon, rules)
    _STATE["model"] = LeaveModel.from_dict(model)
    _STATE["rules"] = rules


def play_training_game(seed: int) -> list[Observation]:
    """One fast two-player game; returns its observations."""
    from qiza.movegen import MoveGenerator, exchanges

    gen = _STATE["gen"]
    model = _STATE["model"]
    rules = _STATE["rules"]
    assert isinstance(gen, MoveGenerator) and isinstance(model, LeaveModel) and isinstance(rules, Rules)
    rng = random.Random(seed)
    size = rules.layout.size
    rack_size = rules.rack_size
    board = np.zeros(size * size, np.int32)
    bag = list(rules.tile_set.full_bag())
    racks = [np.zeros(27, np.int32), np.zeros(27, np.int32)]
    for r in racks:
        draw(bag, r, rack_size, rng)
    tile_values = model.tile_values
    pending: list[tuple[str, int, int] | None] = [None, None]
    on_board = 0
    out: list[Observation] = []
    scoreless = 0
    turn = 0
    while True:
        p = turn % 2
        rack = racks[p]
        if not bag:
            move = gen.best(board, rack)
        else:
            move = gen.best(board, rack, tile_values)
        score = 0
        keep = None
        if len(bag) >= rules.exchange_limit:
            play_eq = -1e9
            if move is not None:
                play_eq = move.score + model.value(rack - used_counts(move))
            if move is None or play_eq < 20:
                best_keep, best_val = None, play_eq
                for ex in exchanges(rack):
                    val = model.value(rack - ex)
                    if val > best_val:
                        best_keep, best_val = rack - ex, val
                keep = best_keep
        if pending[p] is not None:
            key, then, tiles = pending[p]  # type: ignore[misc]
            out.append((key, move.score if (move is not None and keep is None) else 0, then, tiles))
            pending[p] = None
        if keep is not None:
            ex_tiles = rack - keep
            racks[p] = keep.copy()
            draw(bag, racks[p], int(ex_tiles.sum()), rng)
            for t in range(27):
                bag.extend([t] * int(ex_tiles[t]))
            pending[p] = (leave_key(keep), 0, on_board)
            scoreless += 1
        elif move is None:
            scoreless += 1
        else:
            apply_move(board, move, size)
            left = rack - used_counts(move)
            need = rack_size - int(left.sum())
            on_board += move.tile_count
            if len(bag) >= need + 1:
                pending[p] = (leave_key(left), move.score, on_board)
            racks[p] = left
            draw(bag, racks[p], need, rng)
            score = move.score
            scoreless = 0 if score else scoreless + 1
            if not bag and not racks[p].sum():
                break
        if scoreless >= 6:
            break
        turn += 1
    return out


COVARIATES = 6
"""Extra regression columns that describe the position rather than the leave (not stored):
the score of the play that kept the leave, and the stage of the game (tiles on the board)."""


def _covariates(then: int, tiles: int) -> list[float]:
    stage = [0.0] * 4
    stage[min(tiles // 25, 3)] = 1.0
    return [min(then, 120) / 10.0, 1.0 if then == 0 else 0.0, *stage]


def fit(observations: Sequence[Observation], *, ridge: float = 20.0, min_count: int = 40,
        shrink: float = 100.0) -> LeaveModel:
    """Fit a :class:`LeaveModel` to observations (see the module doc).

    The regression has the leave features, the position covariates (:data:`COVARIATES`) and no
    separate intercept (the stage one-hot plays that part): a leave's value is its features'
    contribution, so the empty leave is worth 0.
    """
    names: dict[str, int] = {}
    feats: dict[str, list[int]] = {}
    for key, *_ in observations:
        if key not in feats:
            idx = []
            for f in features(key_counts(key)) if key else []:
                if f not in names:
                    names[f] = len(names)
                idx.append(names[f])
            feats[key] = idx
    nl = len(names)
    nf = nl + COVARIATES
    xtx = np.zeros((nf, nf))
    xty = np.zeros(nf)
    chunk = 20_000
    for startc in range(0, len(observations), chunk):
        part = observations[startc:startc + chunk]
        x = np.zeros((len(part), nf))
        y = np.zeros(len(part))
        for i, (key, points, then, tiles) in enumerate(part):
            x[i, feats[key]] = 1.0
            x[i, nl:] = _covariates(then, tiles)
            y[i] = points
        xtx += x.T @ x
        xty += x.T @ y
    reg = ridge * np.eye(nf)
    reg[nl:, nl:] = 0.0
    beta = np.linalg.solve(xtx + reg + 1e-9 * np.eye(nf), xty)
    weights = {name: float(beta[i]) for name, i in names.items()}
    # superleave table: the leave's prediction plus its shrunk mean residual
    resid: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for key, points, then, tiles in observations:
        predicted = float(beta[feats[key]].sum()) + float(np.dot(beta[nl:], _covariates(then, tiles)))
        resid[key] += points - predicted
        counts[key] += 1
    table: dict[str, float] = {}
    for key, n in counts.items():
        if key and n >= min_count:
            table[key] = float(beta[feats[key]].sum() + n / (n + shrink) * resid[key] / n)
    # per-tile linear values for the fast paths: least squares on the model's own leave values
    keys = [k for k in counts if k]
    xt = np.array([key_counts(k) for k in keys], np.float64)
    target = np.array([table.get(k, float(beta[feats[k]].sum())) for k in keys])
    wts = np.array([counts[k] for k in keys], np.float64)
    xtw = xt.T * wts
    tile_values = np.linalg.solve(xtw @ xt + ridge * np.eye(27), xtw @ target)
    meta = {"observations": len(observations), "distinct_leaves": len(counts), "table_entries": len(table)}
    return LeaveModel(weights, table, tile_values.tolist(), meta)


def train(*, games: Sequence[int], lexicon: str = "twl06", rules: Rules = CLASSIC, jobs: int | None = None,
          seed: int = 0, start: LeaveModel | None = None, progress: bool = True) -> LeaveModel:
    """Train over rounds of self-play (``games[i]`` games in round ``i``); returns the model."""
    model = start or LeaveModel.hand_made()
    jobs = jobs or os.cpu_count() or 1
    began = time.time()
    all_obs: list[Observation] = []
    next_seed = seed
    for rnd, count in enumerate(games):
        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        obs: list[Observation] = []
        t0 = time.time()
        with ctx.Pool(jobs, _init, (lexicon, model.to_dict(), rules)) as pool:
            for i, got in enumerate(pool.imap_unordered(play_training_game, range(next_seed, next_seed + count),
                                                        chunksize=8)):
                obs.extend(got)
                if progress and (i + 1) % 500 == 0:
                    print(f"round {rnd + 1}: {i + 1}/{count} games, {len(obs)} observations, "
                          f"{time.time() - t0:.0f}s", file=sys.stderr)
        next_seed += count
        all_obs.extend(obs)
        model = fit(obs)
        if progress:
            top = sorted(model.tile_values.tolist())
            print(f"round {rnd + 1} done in {time.time() - t0:.0f}s: {model.meta}; tile values "
                  f"{top[0]:.1f}..{top[-1]:.1f}", file=sys.stderr)
    model.meta.update({
        "source": "qiza train (self-play)", "lexicon": lexicon, "rules": rules.name,
        "rounds": list(games), "games": int(sum(games)), "seconds": round(time.time() - began, 1),
        "jobs": jobs, "trained": time.strftime("%Y-%m-%d"),
    })
    return model


def default_output() -> Path:
    return Path(__file__).resolve().parents[1] / "data" / "leaves.json"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's arguments."""
    parser.add_argument("-n", "--games", type=int, nargs="+", default=[6000, 12000],
                        help="games per round (default: 6000 12000)")
    parser.add_argument("--lexicon", default="twl06", help="lexicon (default twl06)")
    parser.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=1_000_000, help="seed of the first game")
    parser.add_argument("--from-shipped", action="store_true", help="start from the shipped model, not the hand-made one")
    parser.add_argument("-o", "--output", default=None, help="where to write the model (default: qiza/data/leaves.json)")


def run(args: argparse.Namespace) -> int:
    """Train and write the model."""
    start = default_model() if args.from_shipped else None
    model = train(games=args.games, lexicon=args.lexicon, jobs=args.jobs, seed=args.seed, start=start)
    out = Path(args.output) if args.output else default_output()
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"wrote {out}: {model.meta}")
    values = ", ".join(f"{LETTERS[i]} {v:+.1f}" for i, v in enumerate(model.tile_values))
    print(f"per-tile values: {values}")
    return 0
