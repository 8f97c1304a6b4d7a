"""``qiza train``: learn leave values by self-play.

Training plays fast two-player games between static players (numpy boards, the static
player's full evaluation of every placement and exchange with the current model) and records,
for every turn after which the player drew a full rack, the tiles kept and a
temporal-difference target: the points the same player scored on their next turn plus the
current model's value of the leave that next turn kept (when it drew a full rack again). A
leave's value is how much more (or less) that is than after keeping nothing:

* a ridge regression on leave features (copies of each tile, vowel/consonant balance,
  synergy pairs of different tiles such as ``QU``, ``ER``, ``?S``) over all observations,
  with covariates for the position (score of the play that kept the leave, stage of the game);
* a superleave table for the leaves seen often enough: the observed mean, shrunk towards
  the regression's prediction;
* per-tile linear values (a second regression on tile counts) for the fast paths.

Each round plays with the model of the round before. The model, the run's size and time are
written to ``qiza/data/leaves.json`` (or ``--output``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from qiza.cli import UsageError, existing_file, lexicon_option, process_count, usage_errors
from qiza.errors import QizaError
from qiza.lexicon import load_lexicon
from qiza.players.cluster import connect_ray, ray_cpus, ray_machines, run_many
from qiza.players.fast import apply_move, draw
from qiza.players.leaves import (
    LETTERS,
    VOWELS,
    LeaveModel,
    english_values,
    features,
    key_counts,
    leave_key,
    model_file,
    model_for_tile_set,
    vowel_codes,
)
from qiza.rules import CLASSIC, Rules

Observation = tuple[str, float, int, int]
"""(leave key, target: points scored next turn plus the value of the leave then kept, points of
the play that kept the leave, tiles on the board)."""

_STATE: dict[str, object] = {}


def _init(lexicon_name: str, model: dict[str, object], rules: Rules, table: bytes | None = None,
          explore: float = 0.0) -> None:
    from qiza.analysis import generator
    from qiza.players.leave_table import FullTable

    lexicon = load_lexicon(lexicon_name)
    _STATE["gen"] = generator(lexicon, rules)
    loaded = LeaveModel.from_dict(model)
    if table is not None:
        loaded = loaded.with_full(FullTable.from_bytes(table))
    _STATE["model"] = loaded
    _STATE["explore"] = explore
    _STATE["rules"] = rules


def play_training_game(seed: int) -> list[Observation]:
    """One two-player game between static players (the current model); returns its observations.

    With probability ``explore`` (the run's setting) a turn with a full bag plays one of the ten
    best placements at random instead of the best, so rarer leaves get observations.

    Of plays of the same equity (within :data:`qiza.ties.TIE`) the first by
    :func:`qiza.ties.tie_order` is played (and the ten best are ranked in that order), as the
    static player does: the same observations with the compiled move generator and with the
    Python one of a fresh install (:mod:`qiza.players.static_ties`).

    The target of a leave is temporal-difference: the points of the same player's next turn
    plus the current model's value of the leave that turn keeps (when a full rack is drawn to
    it), so a leave's value counts the turns after the next as well.
    """
    from qiza.movegen import MoveGenerator
    from qiza.players.engine import StaticSettings, evaluate_position, exchange_equities, hot_squares
    from qiza.players.static_ties import exchange_choice, ranked_placements

    gen = _STATE["gen"]
    model = _STATE["model"]
    rules = _STATE["rules"]
    explore = float(_STATE.get("explore", 0.0))  # type: ignore[arg-type]
    assert isinstance(gen, MoveGenerator) and isinstance(model, LeaveModel) and isinstance(rules, Rules)
    settings = StaticSettings()
    rng = random.Random(seed)
    size = rules.layout.size
    rack_size = rules.rack_size
    board = np.zeros(size * size, np.int32)
    bag = list(rules.tile_set.full_bag())
    kinds = rules.tile_set.size + 1
    racks = [np.zeros(kinds, np.int32), np.zeros(kinds, np.int32)]
    for r in racks:
        draw(bag, r, rack_size, rng)
    values = np.zeros(kinds, np.int64)
    values[1:] = rules.tile_set.values
    hot = hot_squares(rules.layout)
    pending: list[tuple[str, int, int] | None] = [None, None]
    on_board = 0
    out: list[Observation] = []
    scoreless = 0
    turn = 0
    while turn < 200:
        p = turn % 2
        rack = racks[p]
        bag_before = len(bag)
        unseen = float(racks[1 - p].dot(values)) if not bag else 0.0
        ev = evaluate_position(gen, model, settings, rules, board, rack, bag_before, unseen,
                               hot if on_board == 0 else None)
        best_eq, best_i = -np.inf, -1
        if len(ev.moves):  # of placements of the same equity, the first by tie_order (either generator)
            best_i = ranked_placements(ev.moves, ev.equity, rules.tile_set)[0]
            best_eq = float(ev.equity[best_i])
            if explore and bag_before >= rack_size and rng.random() < explore:
                # exploration: one of the ten best placements at random, so that leaves the
                # model undervalues are kept (and observed) too
                top = ranked_placements(ev.moves, ev.equity, rules.tile_set, 10)
                best_i = top[rng.randrange(len(top))]
                best_eq = float(ev.equity[best_i])
        kept, ex_eq = exchange_equities(ev, settings, bag_before, rules.exchange_limit)
        keep_code = exchange_choice(ev.leaves, rack, kept, ex_eq, rules.tile_set, best_eq)
        if keep_code >= 0:  # exchange
            keep = ev.leaves.counts[keep_code]
            ex_tiles = rack - keep
            score, next_key, next_value = 0, ev.leaves.keys[keep_code], float(ev.leaves.values[keep_code])
            racks[p] = keep.copy()
            draw(bag, racks[p], int(ex_tiles.sum()), rng)
            for t in range(kinds):
                bag.extend([t] * int(ex_tiles[t]))
            full_draw = True
            scoreless += 1
        elif best_i < 0:
            score, next_key, next_value, full_draw = 0, leave_key(rack, model.names), 0.0, False
            scoreless += 1
        else:
            move = ev.moves[best_i]
            code = int(ev.leave[best_i])
            apply_move(board, move, size)
            left = ev.leaves.counts[code].copy()
            need = rack_size - int(left.sum())
            on_board += move.tile_count
            full_draw = bag_before >= need + 1
            score, next_key, next_value = move.score, ev.leaves.keys[code], float(ev.leaves.values[code])
            racks[p] = left
            draw(bag, racks[p], need, rng)
            scoreless = 0 if score else scoreless + 1
        if pending[p] is not None:
            key, then, tiles = pending[p]  # type: ignore[misc]
            target = score + (next_value if full_draw else 0.0)
            out.append((key, target, then, tiles))
            pending[p] = None
        if full_draw:
            pending[p] = (next_key, score, on_board)
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
        shrink: float = 100.0, names: str = LETTERS, vowels: Sequence[int] = VOWELS,
        full_table: bool = True) -> LeaveModel:
    """Fit a :class:`LeaveModel` to observations (see the module doc).

    ``names`` and ``vowels`` are the tiles of the model (:attr:`LeaveModel.names`; English by
    default); ``full_table``: build the full leave table (English tile sets only).

    The regression has the leave features, the position covariates (:data:`COVARIATES`) and no
    separate intercept (the stage one-hot plays that part): a leave's value is its features'
    contribution, so the empty leave is worth 0. Observations are aggregated per distinct
    leave first, so the cost grows with the number of distinct leaves, not of observations.
    """
    index: dict[str, int] = {}
    key_of = np.empty(len(observations), np.int64)
    target = np.empty(len(observations))
    then = np.empty(len(observations))
    tiles = np.empty(len(observations), np.int64)
    for i, (key, points, th, ti) in enumerate(observations):
        k = index.get(key)
        if k is None:
            k = index[key] = len(index)
        key_of[i] = k
        target[i] = points
        then[i] = th
        tiles[i] = ti
    keys = list(index)
    nk = len(keys)
    cov = np.zeros((len(observations), COVARIATES))
    cov[:, 0] = np.minimum(then, 120) / 10.0
    cov[:, 1] = then == 0
    cov[np.arange(len(observations)), 2 + np.minimum(tiles // 25, 3)] = 1.0
    n = np.bincount(key_of, minlength=nk).astype(np.float64)
    sy = np.bincount(key_of, target, minlength=nk)
    sc = np.stack([np.bincount(key_of, cov[:, j], minlength=nk) for j in range(COVARIATES)], axis=1)
    feature_index: dict[str, int] = {}
    feats: list[list[int]] = []
    for key in keys:
        idx = []
        for f in features(key_counts(key, names), names, vowels) if key else []:
            if f not in feature_index:
                feature_index[f] = len(feature_index)
            idx.append(feature_index[f])
        feats.append(idx)
    nl = len(feature_index)
    nf = nl + COVARIATES
    xtx = np.zeros((nf, nf))
    xty = np.zeros(nf)
    chunk = 10_000
    for lo in range(0, nk, chunk):
        hi = min(nk, lo + chunk)
        fm = np.zeros((hi - lo, nl))
        for r in range(lo, hi):
            fm[r - lo, feats[r]] = 1.0
        xtx[:nl, :nl] += (fm.T * n[lo:hi]) @ fm
        xtx[:nl, nl:] += fm.T @ sc[lo:hi]
        xty[:nl] += fm.T @ sy[lo:hi]
    xtx[nl:, :nl] = xtx[:nl, nl:].T
    xtx[nl:, nl:] = cov.T @ cov
    xty[nl:] = cov.T @ target
    reg = ridge * np.eye(nf)
    reg[nl:, nl:] = 0.0
    beta = np.linalg.solve(xtx + reg + 1e-9 * np.eye(nf), xty)
    weights = {name: float(beta[i]) for name, i in feature_index.items()}
    # superleave table: the leave's prediction plus its shrunk mean residual
    predicted = np.array([float(beta[idx].sum()) for idx in feats])
    resid = sy - n * predicted - sc @ beta[nl:]
    table: dict[str, float] = {}
    observed: dict[str, float] = {}
    for k, key in enumerate(keys):
        if key:
            observed[key] = float(predicted[k] + resid[k] / (n[k] + shrink))
            if n[k] >= min_count:
                table[key] = observed[key]
    # per-tile linear values for the fast paths: least squares on the model's own leave values
    used = [k for k, key in enumerate(keys) if key]
    kinds = len(names)
    xt = np.array([key_counts(keys[k], names) for k in used], np.float64).reshape(-1, kinds)
    values = np.array([table.get(keys[k], predicted[k]) for k in used])
    xtw = xt.T * n[used]
    tile_values = np.linalg.solve(xtw @ xt + ridge * np.eye(kinds), xtw @ values)
    meta = {"observations": len(observations), "distinct_leaves": nk, "table_entries": len(table),
            "features": nl, "leaves_by_observations": observation_histogram(n)}
    model = LeaveModel(weights, table, tile_values.tolist(), meta, names=names, vowels=vowels)
    return model.with_full_table(observed) if full_table else model


Setup = tuple[str, dict[str, Any], Rules, "bytes | None", float]
"""What a worker needs to play a round: lexicon name, model, rules, full table, exploration."""


def _play(setup: Setup, seeds: range, jobs: int, ray_address: str | None,
          note: Callable[[int, int], None]) -> list[Observation]:
    """A round's games on a local process pool of ``jobs`` processes, or on the Ray cluster at
    ``ray_address`` (:func:`qiza.players.cluster.run_many`)."""
    obs: list[Observation] = []
    games = run_many(play_training_game, seeds, jobs=jobs, initializer=_init, initargs=setup,
                     ray_address=ray_address, chunksize=8)
    for i, got in enumerate(games, start=1):
        obs.extend(got)
        note(i, len(obs))
    return obs


def round_setup(model: LeaveModel, *, lexicon: str = "twl06", rules: Rules = CLASSIC, explore: float = 0.0) -> Setup:
    """What the workers of a round need: the lexicon's name, the model (and its full table as
    bytes), the rules and the exploration share."""
    table = model.full.to_bytes() if model.full is not None else None
    return (lexicon, model.to_dict(), rules, table, explore)


def play_round(model: LeaveModel, seeds: range, *, lexicon: str = "twl06", rules: Rules = CLASSIC,
               jobs: int = 1, explore: float = 0.0,
               note: Callable[[int, int], None] | None = None) -> list[Observation]:
    """The observations of one round's games (``seeds``) played with ``model`` on a local pool of
    ``jobs`` processes, as :func:`train` plays them (``note(games, observations)`` after each game)."""
    return _play(round_setup(model, lexicon=lexicon, rules=rules, explore=explore), seeds, jobs, None,
                 note or (lambda i, n: None))


def observation_histogram(n: np.ndarray) -> dict[str, int]:
    """How many leaves were observed how often (``"10-99": 4123``; unobserved leaves: the full
    table's size minus the rest)."""
    bins = {"1": (1, 1), "2-9": (2, 9), "10-99": (10, 99), "100-999": (100, 999), "1000+": (1000, 1 << 62)}
    return {name: int(((n >= lo) & (n <= hi)).sum()) for name, (lo, hi) in bins.items()}


def train(*, games: Sequence[int], lexicon: str = "twl06", rules: Rules = CLASSIC, jobs: int | None = None,
          seed: int = 0, start: LeaveModel | None = None, progress: bool = True,
          on_round: Callable[[LeaveModel], None] | None = None, explore: float = 0.0,
          ray_address: str | None = None) -> LeaveModel:
    """Train over rounds of self-play (``games[i]`` games in round ``i``); returns the model.

    ``explore``: the share of full-bag turns that play one of the ten best placements at random
    (see :func:`play_training_game`). ``on_round`` is called with the model after every round (its metadata describing the rounds
    so far), so a long run can save as it goes and lose at most one round when cut off.
    ``ray_address``: play the games on a Ray cluster (``auto``, ``ray://HOST:10001``, or ``local``
    for a Ray instance on this machine) instead of a local process pool; the rest is the same.
    """
    model = start or initial_model(rules)
    jobs = jobs or os.cpu_count() or 1
    began = time.time()
    next_seed = seed
    done: list[dict[str, object]] = []
    ray = connect_ray(ray_address) if ray_address else None
    for rnd, count in enumerate(games):
        t0 = time.time()
        setup = round_setup(model, lexicon=lexicon, rules=rules, explore=explore)
        seeds = range(next_seed, next_seed + count)

        def note(i: int, n_obs: int, rnd: int = rnd, count: int = count, t0: float = t0) -> None:
            if progress and i % 500 == 0:
                print(f"round {rnd + 1}: {i}/{count} games, {n_obs} observations, {time.time() - t0:.0f}s",
                      file=sys.stderr)

        obs = _play(setup, seeds, jobs, ray_address, note)
        workers, machines = (ray_cpus(ray), ray_machines(ray)) if ray is not None else (jobs, 1)
        next_seed += count
        model = fit(obs, names=model.names, vowels=model.vowels, full_table=english_values(rules.tile_set))
        done.append({"games": count, "observations": len(obs), "seconds": round(time.time() - t0, 1),
                     "workers": workers, "machines": machines, "backend": "ray" if ray is not None else "processes"})
        _describe(model, start, done, lexicon, rules, jobs, began)
        model.meta["exploration"] = explore
        if on_round is not None:
            on_round(model)
        if progress:
            top = sorted(model.tile_values.tolist())
            print(f"round {rnd + 1} done in {time.time() - t0:.0f}s: {model.meta}; tile values "
                  f"{top[0]:.1f}..{top[-1]:.1f}", file=sys.stderr)
    return model


def _describe(model: LeaveModel, start: LeaveModel | None, rounds: list[dict[str, object]], lexicon: str,
              rules: Rules, jobs: int, began: float) -> None:
    """Write the run's record (every round so far) into the model's metadata."""
    previous = dict(start.meta) if start is not None and start.meta.get("games") else None
    model.meta.update({
        "source": "qiza train (self-play)", "lexicon": lexicon, "rules": rules.name,
        "rounds": [int(r["games"]) for r in rounds],  # type: ignore[call-overload]
        "round_log": list(rounds), "tile_set": rules.tile_set.name, "letters": list(rules.tile_set.letters),
        "games": int(sum(int(r["games"]) for r in rounds)),  # type: ignore[call-overload]
        "seconds": round(time.time() - began, 1), "jobs": jobs, "trained": time.strftime("%Y-%m-%d"),
        "target": "temporal difference: next turn's points + value of the leave it keeps",
    })
    if previous is not None:  # continued from a trained model: keep its run's record
        model.meta["continued_from"] = previous


def report(model: LeaveModel) -> str:
    """A few lines on a model: its training run and how many leaves were observed how often."""
    meta = model.meta
    lines = [f"source: {meta.get('source', 'unknown')}; games {meta.get('games', 0)}, "
             f"observations {meta.get('observations', 0)}, seconds {meta.get('seconds', 0)}"]
    for r, entry in enumerate(meta.get("round_log", []), start=1):
        lines.append(f"  round {r}: {entry}")
    full = model.full
    if full is not None:
        lines.append(f"full table: {full.index.size} leaves of up to {full.index.max_size} tiles")
    hist = meta.get("leaves_by_observations")
    if isinstance(hist, dict):
        seen = sum(int(v) for v in hist.values())
        if full is not None:
            lines.append(f"leaves observed: {seen} of {full.index.size}; never: {full.index.size - seen}")
        else:
            lines.append(f"leaves observed: {seen} distinct (a model of this tile set has no full table)")
        lines.extend(f"  observed {name} times: {count}" for name, count in hist.items())
    else:
        lines.append("leaves observed: not recorded by this model's training run")
    return "\n".join(lines)


def initial_model(rules: Rules) -> LeaveModel:
    """The model a training run starts from without ``--resume``: the hand-made one for the
    English letters, the feature model of the tile values for another set."""
    if english_values(rules.tile_set):
        return LeaveModel.hand_made()
    return LeaveModel.from_tile_values(rules.tile_set.values, vowel_codes(rules.tile_set.letters),
                                       rules.tile_set.name)


def default_output(rules: Rules = CLASSIC) -> Path:
    """Where a run writes its model by default: the package's file for the rules' tile set and
    rack size (``qiza/data/leaves.json``, ``leaves-8.json``, ``leaves-french.json``...)."""
    return Path(__file__).resolve().parents[1] / "data" / model_file(rules.tile_set.name, rules.rack_size)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's arguments."""
    parser.add_argument("-n", "--games", type=int, nargs="+", default=[6000, 12000],
                        help="games per round (default: 6000 12000)")
    parser.add_argument("--lexicon", default="twl06", type=lexicon_option,
                        help="lexicon (default twl06); a language lexicon (french-debian...) trains its tile set's leaves")
    parser.add_argument("--rules", default="classic",
                        help="rule preset of the games (classic, 8-tile, 9-tile: the rack size the leaves are for)")
    parser.add_argument("-j", "--jobs", type=process_count, default=None,
                        help="worker processes (default and 0: all cores; at most the cores)")
    parser.add_argument("--seed", type=int, default=1_000_000, help="seed of the first game")
    parser.add_argument("--from-shipped", action="store_true",
                        help="start from the shipped model (for the tile set and rack size), not the hand-made one")
    parser.add_argument("--explore", type=float, default=0.1,
                        help="share of turns that play one of the ten best placements at random (default 0.1)")
    parser.add_argument("--resume", metavar="MODEL", default=None, type=existing_file,
                        help="start from this model file (as written by qiza train) instead")
    parser.add_argument("--ray", metavar="ADDRESS", default=None,
                        help="play on a Ray cluster: auto, ray://HOST:10001, or local (needs qiza[train])")
    parser.add_argument("--report", action="store_true",
                        help="print how many leaves the shipped (or --output) model observed how often, and stop")
    parser.add_argument("--forced-draws", action="store_true",
                        help="instead of self-play rounds, refine the full leave table of the shipped (or --resume) model "
                             "by forced draws: each leave given to the static player with random draws on mid-game "
                             "positions (qiza.players.leavegen); English tile set")
    parser.add_argument("--budget", type=int, default=1_000_000,
                        help="--forced-draws: decisions per pass (default 1000000, about 15-20 CPU minutes)")
    parser.add_argument("--passes", type=int, default=1,
                        help="--forced-draws: passes, each reading the values of the pass before (default 1)")
    parser.add_argument("--pool-games", type=int, default=3000,
                        help="--forced-draws: self-play games that give the positions and the leaves' weights (default 3000)")
    parser.add_argument("--matched", action="store_true",
                        help="--forced-draws: each leave on positions that follow keeping a leave of as many tiles and vowels")
    parser.add_argument("--unobserved-only", action="store_true",
                        help="--forced-draws: sample only the leaves self-play never observed (their value is the feature model's)")
    parser.add_argument("--work", metavar="DIR", default=None,
                        help="--forced-draws: folder of the run's pool and samples, to resume a run cut off "
                             "(default: beside the output, <name>-forced)")
    parser.add_argument("-o", "--output", default=None, help="where to write the model (default: the package's file for the tile set "
                             "and rack size: qiza/data/leaves.json, leaves-8.json, leaves-french.json...)")


def run(args: argparse.Namespace) -> int:
    """Train and write the model."""
    from qiza.cli import prepare_move_generator
    from qiza.languages import rules_for_lexicon
    from qiza.rules import find_preset

    with usage_errors():  # an unknown preset, named with the known ones
        preset = find_preset(args.rules)
    lexicon = load_lexicon(args.lexicon)
    with usage_errors():  # a built-in lexicon of another language than the preset's tiles
        rules = rules_for_lexicon(preset, lexicon)
    out = Path(args.output) if args.output else default_output(rules)
    if args.report:
        model = LeaveModel.load(out) if args.output else model_for_tile_set(rules.tile_set, rules.rack_size)
        print(report(model))
        return 0
    prepare_move_generator()
    if args.forced_draws:
        return _run_forced(args, rules, out)
    start = model_for_tile_set(rules.tile_set, rules.rack_size) if args.from_shipped else None
    if args.resume:
        start = LeaveModel.load(args.resume)
    names = initial_model(rules).names
    if start is not None and start.names != names:
        raise QizaError(f"the starting model has {start.kinds - 1} tile kinds; the {rules.tile_set.name} "
                        f"tile set has {len(names) - 1}")
    out.parent.mkdir(parents=True, exist_ok=True)

    def save(model: LeaveModel) -> None:
        model.save(out)
        print(f"saved {out} after round {len(model.meta.get('rounds', []))}", file=sys.stderr)

    model = train(games=args.games, lexicon=args.lexicon, rules=rules, jobs=args.jobs, seed=args.seed, start=start,
                  on_round=save, explore=args.explore, ray_address=args.ray)
    print(f"wrote {out}: {model.meta}")
    labels = ("?", *rules.tile_set.letters)
    values = ", ".join(f"{labels[i]} {v:+.1f}" for i, v in enumerate(model.tile_values))
    print(f"per-tile values: {values}")
    return 0


def _run_forced(args: argparse.Namespace, rules: Rules, out: Path) -> int:
    """``qiza train --forced-draws``: the full table refined by forced draws, written to ``out``."""
    from qiza.analysis import generator
    from qiza.players import leavegen
    from qiza.players.engine import bingo_odds

    if not english_values(rules.tile_set) or rules.rack_size != 7:
        raise UsageError("--forced-draws refines the full leave table: English tiles, seven-tile racks")
    start = LeaveModel.load(args.resume) if args.resume else model_for_tile_set(rules.tile_set, rules.rack_size)
    if start.full is None:
        raise QizaError("--forced-draws needs a model with a full leave table")
    lexicon = load_lexicon(args.lexicon)
    work = Path(args.work) if args.work else out.with_name(f"{out.stem}-forced")
    model = leavegen.run(start, generator(lexicon, rules), rules, work, pool_games=args.pool_games,
                         passes=args.passes, budget=args.budget, seed=args.seed, odds=bingo_odds(lexicon, rules),
                         match=args.matched, only_unobserved=args.unobserved_only)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"wrote {out}: {model.meta.get('forced_draws')}")
    return 0
