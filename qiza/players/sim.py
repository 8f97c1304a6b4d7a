"""``sim``: Monte Carlo simulation of the static player's top candidates.

Each iteration deals the opponents random racks from the unseen tiles (the rest is the bag,
in a random order), then for every candidate (the same deal for all: common random numbers)
plays the candidate, each opponent's best reply (static, fast path), and this player's best
next move, and values the candidate as

    candidate score - mean opponent reply score + own next score + value of the final leave.

Candidates that are clearly worse than the leader (by more than ``z`` standard errors) are
dropped; the search stops at the time limit, when one candidate is left, or after
``max_iterations``. Iterations run on ``workers`` processes (both cores by default); each
worker is forked with the move generator already loaded.

With ``endgame=True`` (the champion level) and the bag empty in a two-player game, the exact
endgame solver (:mod:`qiza.players.endgame`) chooses instead.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from qiza.analysis import board_array, generator, rack_counts, to_place
from qiza.game import PlayerView
from qiza.move import Exchange, Move
from qiza.movegen import Move as GenMove
from qiza.movegen import MoveGenerator
from qiza.players.engine import StaticPlayer
from qiza.players.fast import apply_move, counts_to_tiles, used_counts
from qiza.players.leaves import LeaveModel, default_model
from qiza.rules import Rules

if TYPE_CHECKING:
    from qiza.lexicon import Lexicon


@dataclass(frozen=True)
class SimCandidate:
    """A candidate for simulation: a placement (``move``) or an exchange (``exchange`` counts)."""

    move: GenMove | None
    exchange: tuple[int, ...] | None
    static_equity: float


@dataclass(frozen=True)
class SimTask:
    """Everything a worker needs to run iterations (picklable)."""

    board: np.ndarray
    rack: np.ndarray
    unseen: list[int]
    opponent_sizes: list[int]
    candidates: list[SimCandidate]
    iterations: int
    seed: int
    lexicon_key: str
    rules: Rules


def simulate(gen: MoveGenerator, model: LeaveModel, rules: Rules, task: SimTask) -> np.ndarray:
    """Run ``task.iterations`` iterations; returns an (iterations x candidates) array of values."""
    rng = random.Random(task.seed)
    size = rules.layout.size
    rack_size = rules.rack_size
    tv = model.tile_values
    values27 = np.zeros(27, np.int64)
    values27[1:] = rules.tile_set.values
    result = np.zeros((task.iterations, len(task.candidates)))
    unseen = list(task.unseen)
    nopp = len(task.opponent_sizes)
    for it in range(task.iterations):
        rng.shuffle(unseen)
        opp_racks = []
        pos = 0
        for n in task.opponent_sizes:
            r = np.zeros(27, np.int32)
            for t in unseen[pos:pos + n]:
                r[t] += 1
            opp_racks.append(r)
            pos += n
        bag0 = unseen[pos:]
        for ci, cand in enumerate(task.candidates):
            board = task.board.copy()
            mine = task.rack.copy()
            bag = list(bag0)
            score = 0
            if cand.move is not None:
                apply_move(board, cand.move, size)
                mine -= used_counts(cand.move)
                score = cand.move.score
            else:
                ex = np.asarray(cand.exchange, np.int32)
                mine -= ex
                bag.extend(counts_to_tiles(ex))  # returned after drawing
            need = rack_size - int(mine.sum())
            for t in bag[:need]:
                mine[t] += 1
            del bag[:need]
            if not mine.any() and not bag:  # went out: the game ends
                result[it, ci] = score + 2 * sum(float(np.dot(r, values27)) for r in opp_racks)
                continue
            opp_total = 0.0
            ended = False
            for r in opp_racks:
                rack = r.copy()
                reply = gen.best(board, rack, tv if bag else None)
                if reply is None:
                    continue
                apply_move(board, reply, size)
                opp_total += reply.score
                rack -= used_counts(reply)
                k = rack_size - int(rack.sum())
                del bag[:k]
                if not bag and not rack.any():
                    opp_total += 2 * float(np.dot(mine, values27))
                    ended = True
                    break
            value = score - opp_total / max(nopp, 1)
            if not ended:
                mine_reply = gen.best(board, mine, tv if bag else None)
                if mine_reply is not None:
                    value += mine_reply.score
                    left = mine - used_counts(mine_reply)
                else:
                    left = mine
                value += model.value(left) if bag else -float(np.dot(left, values27))
            result[it, ci] = value
    return result


# -- worker processes --------------------------------------------------------------------------
_WORKER_GEN: dict[str, Any] = {}


def _worker_run(task: SimTask) -> np.ndarray:
    key = (task.lexicon_key, task.rules.layout.name, task.rules.tile_set.values,
           task.rules.bingo_min_tiles, task.rules.bingo_bonus)
    gen = _WORKER_GEN.get(str(key))
    if gen is None:
        from qiza.analysis import _GENERATORS

        for k, g in _GENERATORS.items():  # forked from the parent: the generator is already loaded
            if k[0] == task.lexicon_key and k[1] == task.rules.layout.name:
                gen = g
                break
        if gen is None:  # pragma: no cover - spawn start method
            from qiza.lexicon import load_lexicon

            gen = generator(load_lexicon(task.lexicon_key), task.rules)
        _WORKER_GEN[str(key)] = gen
    return simulate(gen, default_model(), task.rules, task)


class SimPlayer(StaticPlayer):
    """Monte Carlo simulation two plies ahead of the static player's top candidates."""

    name = "sim"

    def __init__(self, lexicon: Lexicon, *, name: str | None = None, seed: int | None = None,
                 time_limit: float = 2.0, candidates: int = 12, workers: int | None = None,
                 min_iterations: int = 24, max_iterations: int = 1000, batch: int = 8, z: float = 2.5,
                 endgame: bool = False, endgame_time: float = 5.0, leaves: LeaveModel | None = None) -> None:
        super().__init__(lexicon, name=name, seed=seed, leaves=leaves)
        self.time_limit = time_limit
        self.candidates = candidates
        self.workers = workers if workers is not None else min(2, os.cpu_count() or 1)
        self.min_iterations = min_iterations
        self.max_iterations = max_iterations
        self.batch = batch
        self.z = z
        self.endgame = endgame
        self.endgame_time = endgame_time
        self._pool: Any = None
        self.last_report: dict[str, Any] = {}

    # -- the pool ---------------------------------------------------------------------------
    def _get_pool(self) -> Any:
        if self._pool is None and self.workers > 1:
            ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
            self._pool = ctx.Pool(self.workers)
        return self._pool

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover
            pass

    # -- choosing -----------------------------------------------------------------------------
    def choose(self, view: PlayerView) -> Move:
        if view.bag_count == 0:
            if self.endgame and len(view.scores) == 2:
                from qiza.players.endgame import solve

                solution = solve(view, self.lexicon, time_limit=self.endgame_time)
                self.last_report = {"endgame": solution}
                if solution.move is not None:
                    return solution.move
            return super().choose(view)
        ml, equity, _, rack = self.evaluate_all(view)
        cands: list[SimCandidate] = []
        order = np.argsort(-equity, kind="stable")[:self.candidates]
        for i in order:
            cands.append(SimCandidate(ml[int(i)], None, float(equity[i])))
        exchanges = self.exchange_options(view, rack)
        exchanges.sort(key=lambda o: -o.equity)
        for option in exchanges[:3]:
            ex = rack_counts(option.move.tiles) if isinstance(option.move, Exchange) else None
            if ex is not None:
                cands.append(SimCandidate(None, tuple(int(x) for x in ex), option.equity))
        if not cands:
            return self._no_play(view, rack)
        cands.sort(key=lambda c: -c.static_equity)
        if len(cands) == 1 or view.bag_count == 0:
            return self._to_move(cands[0])
        best = self.simulate(view, cands, rack)
        return self._to_move(cands[best])

    def _to_move(self, cand: SimCandidate) -> Move:
        if cand.move is not None:
            return to_place(cand.move)
        assert cand.exchange is not None
        from qiza.analysis import counts_text

        return Exchange(counts_text(cand.exchange))

    def simulate(self, view: PlayerView, cands: Sequence[SimCandidate], rack: np.ndarray) -> int:
        """Index of the best candidate by simulation (see the module doc)."""
        start = time.perf_counter()
        rules = view.rules
        board = board_array(view.board)
        unseen = counts_to_tiles(rack_counts(view.unseen))
        opp_sizes = [view.rack_counts[(view.seat + k) % len(view.scores)] for k in range(1, len(view.scores))]
        gen = self.generator(rules)
        alive = list(range(len(cands)))
        samples: list[np.ndarray] = []
        iterations = 0
        pool = self._get_pool()
        seed_base = self.rng.randrange(2 ** 31)
        round_no = 0
        while True:
            subset = [cands[i] for i in alive]
            tasks = [SimTask(board, rack, unseen, opp_sizes, subset, self.batch, seed_base + 1000 * round_no + w,
                             self.lexicon.content_hash, rules) for w in range(max(1, self.workers))]
            round_no += 1
            if pool is not None:
                outs = pool.map(_worker_run, tasks)
            else:
                outs = [simulate(gen, self.leaves, rules, t) for t in tasks]
            block = np.full((sum(len(o) for o in outs), len(cands)), np.nan)
            block[:, alive] = np.vstack(outs)
            samples.append(block)
            iterations += len(block)
            data = np.vstack(samples)
            means = np.nanmean(data[:, alive], axis=0)
            elapsed = time.perf_counter() - start
            if iterations >= self.min_iterations:
                leader = alive[int(np.argmax(means))]
                lead_vals = data[:, leader]
                keep = []
                for i in alive:
                    if i == leader:
                        keep.append(i)
                        continue
                    diff = lead_vals - data[:, i]
                    diff = diff[~np.isnan(diff)]
                    se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else np.inf
                    if diff.mean() <= self.z * se:
                        keep.append(i)
                alive = keep
            if len(alive) == 1 or elapsed >= self.time_limit or iterations >= self.max_iterations:
                break
        data = np.vstack(samples)
        means = np.array([np.nanmean(data[:, i]) if i in alive else -np.inf for i in range(len(cands))])
        best = int(np.argmax(means))
        self.last_report = {"iterations": iterations, "seconds": time.perf_counter() - start,
                            "alive": len(alive), "means": means}
        return best


__all__ = ["SimPlayer", "simulate", "SimCandidate", "SimTask"]
