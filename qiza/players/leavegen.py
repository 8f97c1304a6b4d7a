"""Forced-draw leave values: the full leave table refined by giving the static player each leave.

Self-play observes a leave only when the static player keeps it, so the leaves it rarely
keeps -- most of the 914,625 of the full table -- keep the feature model's value. This module
values a leave by *forcing* it instead (the way the leave generators of the compiled engines
make rare leaves get data): take a realistic mid-game position (board and the tiles not on
it, from static-vs-static self-play, the bag holding at least a rack), give the player the
leave plus tiles drawn at random from that position's unseen tiles, and let the static player
decide (best placement or exchange, the compiled best-only search over every sub-leave's value,
as :meth:`qiza.players.engine.StaticPlayer.choose`). The sample's target is the points of that
move plus the current table's value of the leave it keeps (when the bag refills the rack): the
same temporal-difference target as :mod:`qiza.players.train`, so a leave's value is

    V(L) = E[target | rack L + draws] - E[target | rack of 7 draws]

(keeping ``L`` against keeping nothing). A pass samples every chosen leave a number of times
weighted by how often it is a sub-leave of the racks of self-play, and the next pass reads the
values of the pass before: approximate value iteration.

Variance: a target's spread is about 25 points (bingos), a leave's value differences a point
or two, so each pass

* removes the position's effect: every pool position is used by many leaves, and ``y -
  c(P)`` (``c(P)`` the position's mean residual against the current values) has the same
  expectation as ``y`` and less spread;
* shrinks each leave's estimate towards its current value with the empirical-Bayes weight
  (``within-leave variance / between-leave variance`` of the estimates' differences).

Entry points: :func:`collect_pool` (positions and sub-leave counts from self-play),
:func:`forced_pass` (one pass over some leaves, resumable through a sample file),
:func:`refine` (values from a pass's samples) and :func:`run` for ``qiza train --forced-draws``
(``--matched``: positions that follow keeping a leave of the same class; ``--unobserved-only``:
only the leaves self-play never observed).

Measured (``docs/leave-experiments.md``): no variant beat the shipped temporal-difference
table; on the leaves self-play observed, forced-draw values play worse (48-49%), on the
never-observed leaves they are neutral (50.1% over 6,000 games). Not shipped.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from qiza.movegen import GeneratedMove, MoveGenerator
from qiza.players.engine import BingoOdds, StaticSettings, leave_equities, static_decision, with_bingo_odds
from qiza.players.fast import apply_move
from qiza.players.leave_table import FullTable
from qiza.players.leaves import LeaveModel, RackLeaves, table_sub_leaves
from qiza.rules import Rules

KINDS = 27


@dataclass
class Pool:
    """Mid-game positions: ``boards`` (n x squares, int8 tile codes) and the tiles not on each
    board (``unseen``: n x 27 counts: the player's rack, the opponent's and the bag), with
    ``counts``: how often each full-table leave (by rank) was a sub-leave of a rack the static
    player decided on in the games (the weight of each leave's sampling effort)."""

    boards: np.ndarray
    unseen: np.ndarray
    counts: np.ndarray
    previous: np.ndarray | None = None
    """The full-table rank of the leave the player to move kept on their turn before (-1: none)."""

    def save(self, path: str | Path) -> None:
        """Write the pool (``.npz``)."""
        previous = self.previous if self.previous is not None else np.full(len(self.boards), -1, np.int32)
        np.savez_compressed(path, boards=self.boards, unseen=self.unseen, counts=self.counts, previous=previous)

    @classmethod
    def load(cls, path: str | Path) -> Pool:
        """Read a pool written by :meth:`save`."""
        with np.load(path) as data:
            previous = data["previous"] if "previous" in data else None
            return cls(data["boards"], data["unseen"], data["counts"], previous)


@dataclass
class Decision:
    """The static player's choice on one rack: the points it scores, the sub-leave code it keeps
    (an index into ``leaves``) and the tiles it places (0 for an exchange or a pass)."""

    score: int
    kept: int
    placed: int
    move: GeneratedMove | None = None


def decide(gen: MoveGenerator, model: LeaveModel, settings: StaticSettings, rules: Rules, board: np.ndarray,
           rack: np.ndarray, bag_count: int, odds: BingoOdds | None) -> tuple[Decision, np.ndarray, np.ndarray]:
    """The static player's decision (:func:`~qiza.players.engine.static_decision`, as
    :meth:`StaticPlayer.choose` after the opening, bag not empty; of plays of the same equity the
    first by :func:`qiza.ties.tie_order`, whichever move generator ``gen`` is):
    returns the decision, the rack's sub-leave values (the model's, without the bingo odds)
    and the sub-leaves' ranks in the full table."""
    base = rack_leaves(model, rack)
    leaves = with_bingo_odds(base, settings, odds)
    per_code = leave_equities(leaves, settings, rules, bag_count, 0.0)
    found, kept = static_decision(gen, board, rack, leaves, per_code, settings, rules, bag_count)
    if kept >= 0:
        return Decision(0, kept, 0), base.values, base.ranks
    if found is None:
        return Decision(0, leaves.full, 0), base.values, base.ranks  # a pass keeps the rack
    used = 0
    placed = 0
    for t in found.tiles:
        if t:
            used += int(leaves.radix[0 if t & 64 else t])
            placed += 1
    return Decision(found.score, leaves.full - used, placed, found), base.values, base.ranks


def rack_leaves(model: LeaveModel, rack: np.ndarray) -> RackLeaves:
    """:meth:`LeaveModel.rack_leaves` of a seven-tile (or shorter) rack read from the model's full
    table alone, not remembered: the whole rack (which no move keeps but a pass) gets the
    lowest value of its sub-leaves instead of the feature model's (a pass is never better)."""
    full = model.full
    if full is None:
        return model.rack_leaves(rack)
    index = full.index
    radix, counts, ranks = table_sub_leaves(rack, index)
    inside = ranks >= 0
    values = np.empty(len(counts), np.float64)
    values[inside] = full.values[ranks[inside]]
    if not inside.all():
        values[~inside] = values[inside].min() if inside.any() else 0.0
    return RackLeaves(radix, len(counts) - 1, counts, values, names=model.names, ranks=ranks,
                      table_size=index.size)


def collect_pool(gen: MoveGenerator, model: LeaveModel, rules: Rules, games: int, *, seed: int = 0,
                 min_bag: int = 7, settings: StaticSettings | None = None, odds: BingoOdds | None = None,
                 every: int = 1) -> Pool:
    """Play ``games`` static-vs-static games (the compiled decision, no opening adjustment) and
    keep every ``every``-th position of a player to move with at least ``min_bag`` tiles in the
    bag and tiles on the board, and how often each leave was a sub-leave of a rack decided on."""
    settings = settings or StaticSettings()
    full = model.full
    if full is None:
        raise ValueError("forced draws refine a full leave table: the model has none")
    counts = np.zeros(full.index.size, np.int64)
    size = rules.layout.size
    rack_size = rules.rack_size
    kinds = rules.tile_set.size + 1
    boards: list[np.ndarray] = []
    unseen: list[np.ndarray] = []
    previous: list[int] = []
    rng = random.Random(seed)
    seen = 0
    for _ in range(games):
        board = np.zeros(size * size, np.int32)
        bag = np.bincount(np.asarray(list(rules.tile_set.full_bag()), np.int64), minlength=kinds).astype(np.int32)
        racks = [np.zeros(kinds, np.int32), np.zeros(kinds, np.int32)]
        for r in racks:
            _draw(bag, r, rack_size, rng)
        scoreless = 0
        last_kept = [-1, -1]
        for turn in range(200):
            rack = racks[turn % 2]
            bag_count = int(bag.sum())
            if bag_count < min_bag or scoreless >= 6:
                break
            if board.any():
                if seen % every == 0:
                    boards.append(board.astype(np.int8))
                    unseen.append((bag + racks[0] + racks[1]).astype(np.int8))
                    previous.append(last_kept[turn % 2])
                seen += 1
            choice, _, ranks = decide(gen, model, settings, rules, board, rack, bag_count, odds)
            last_kept[turn % 2] = int(ranks[choice.kept])
            inside = ranks[ranks >= 0]
            np.add.at(counts, inside, 1)
            leaves = rack_leaves(model, rack)
            keep = leaves.counts[choice.kept].astype(np.int32)
            if choice.move is not None and choice.placed:
                apply_move(board, choice.move, size)
                scoreless = 0 if choice.score else scoreless + 1
            else:
                bag += rack - keep  # an exchange returns the tiles after drawing; the same odds here
                scoreless += 1
            racks[turn % 2] = keep.copy()
            _draw(bag, racks[turn % 2], rack_size - int(keep.sum()), rng)
    return Pool(np.array(boards, np.int8).reshape(-1, size * size), np.array(unseen, np.int8).reshape(-1, kinds),
                counts, np.array(previous, np.int32))


def _draw(bag: np.ndarray, rack: np.ndarray, count: int, rng: random.Random) -> None:
    """Move ``count`` random tiles (fewer if the bag runs out) from ``bag`` counts to ``rack``."""
    for _ in range(min(count, int(bag.sum()))):
        i = rng.randrange(int(bag.sum()))
        t = int(np.searchsorted(np.cumsum(bag), i, side="right"))
        bag[t] -= 1
        rack[t] += 1


def allocate(counts: np.ndarray, budget: int, *, prior: float = 30.0, cap: int = 400,
             sizes: np.ndarray | None = None, max_size: int = 6) -> np.ndarray:
    """Samples per leave (by rank), about ``budget`` in all: the allocation that removes the most
    error weighted by how often a leave is a candidate (``counts``), when each leave's estimate
    is shrunk with ``prior`` samples' weight: ``n = k * sqrt(count) - prior`` (none where that
    is not positive), at most ``cap``, for leaves of at most ``max_size`` tiles; the empty leave
    (rank 0, every value is relative to it) gets ``max(cap, budget // 50)``."""
    root = np.sqrt(np.asarray(counts, np.float64))
    if sizes is not None:
        root[sizes > max_size] = 0.0
    root[0] = 0.0
    lo, hi = 0.0, (budget + prior * len(root)) / max(float(root[root > 0].min(initial=1.0)), 1e-9)

    def plan(k: float) -> np.ndarray:
        return np.clip(np.floor(k * root - prior), 0, cap).astype(np.int64)

    for _ in range(60):  # bisect the scale k to the budget
        mid = (lo + hi) / 2
        if plan(mid).sum() > budget:
            hi = mid
        else:
            lo = mid
    n = plan(lo)
    n[0] = max(cap, budget // 50)
    return n


@dataclass
class Samples:
    """A pass's forced-draw samples: the leave (full-table rank), the pool position and the
    target of each, and ``done``: how many leaves of the pass's order are complete."""

    ranks: np.ndarray
    positions: np.ndarray
    targets: np.ndarray
    done: int = 0

    def save(self, path: str | Path) -> None:
        """Write the samples (``.npz``, atomically: a run cut off keeps its last save)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(tmp, ranks=self.ranks, positions=self.positions, targets=self.targets, done=np.int64(self.done))
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> Samples:
        """Read samples written by :meth:`save`."""
        with np.load(path) as data:
            return cls(data["ranks"], data["positions"], data["targets"], int(data["done"]))

    @classmethod
    def empty(cls) -> Samples:
        """No samples yet."""
        return cls(np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.float32))


def forced_pass(gen: MoveGenerator, model: LeaveModel, rules: Rules, pool: Pool, plan: np.ndarray, *,
                seed: int = 0, settings: StaticSettings | None = None, odds: BingoOdds | None = None,
                resume: Samples | None = None, save: Callable[[Samples], None] | None = None,
                save_every: float = 120.0, limit: float | None = None, match: bool = False, min_match: int = 30,
                note: Callable[[str], None] | None = None) -> Samples:
    """One pass of forced draws: ``plan[rank]`` samples of each full-table leave (the leaves
    with samples, in rank order), each on a random pool position holding the leave's tiles.

    ``resume``: samples of this pass saved before (its leaves are skipped); ``save`` is called
    with the samples so far every ``save_every`` seconds and at the end; ``limit``: stop after
    so many seconds (the leaves not reached get no samples).

    ``match``: a leave's positions are those whose player kept, on the turn before, a leave of
    the same class (:func:`leave_classes`: as many tiles and vowels) -- the positions that
    follow keeping such a leave, as in self-play -- or all positions when fewer than
    ``min_match`` of those hold the leave's tiles (needs :attr:`Pool.previous`)."""
    settings = settings or StaticSettings()
    full = model.full
    if full is None:
        raise ValueError("forced draws refine a full leave table: the model has none")
    index = full.index
    order = np.flatnonzero(plan > 0)
    rack_size = rules.rack_size
    kinds = pool.unseen.shape[1]
    unseen = pool.unseen.astype(np.int32)
    totals = unseen.sum(axis=1)
    size = rules.layout.size
    have = resume or Samples.empty()
    ranks: list[np.ndarray] = [have.ranks]
    positions: list[np.ndarray] = [have.positions]
    targets: list[np.ndarray] = [have.targets]
    rng = np.random.default_rng(seed + 7919 * have.done)
    began = last = time.time()
    done = have.done
    decisions = 0
    classes = position_class = None
    if match:
        if pool.previous is None:
            raise ValueError("matching positions needs a pool that records the leaves kept before")
        classes = leave_classes(index.size)
        position_class = np.where(pool.previous >= 0, classes[np.maximum(pool.previous, 0)], -1)
    for i in range(have.done, len(order)):
        rank = int(order[i])
        leave = index.unrank(rank).astype(np.int32)
        take = rack_size - int(leave.sum())
        fits = np.flatnonzero((unseen >= leave).all(axis=1))
        if classes is not None and position_class is not None:
            same = fits[position_class[fits] == classes[rank]]
            if len(same) >= min_match:
                fits = same
        n = int(plan[rank])
        out_pos = np.zeros(n, np.int32)
        out_y = np.zeros(n, np.float32)
        got = 0
        if len(fits):
            for pos in rng.choice(fits, n).tolist():
                rest = unseen[pos] - leave
                rack = leave.copy()
                tiles = np.repeat(np.arange(kinds), rest)
                drawn = rng.choice(len(tiles), min(take, len(tiles)), replace=False)
                np.add.at(rack, tiles[drawn], 1)
                bag_count = int(totals[pos]) - 2 * rack_size
                board = pool.boards[pos].astype(np.int32).reshape(size * size)
                choice, values, _ = decide(gen, model, settings, rules, board, rack, bag_count, odds)
                refill = choice.placed == 0 or bag_count >= choice.placed + 1
                out_pos[got] = pos
                out_y[got] = choice.score + (float(values[choice.kept]) if refill else 0.0)
                got += 1
        decisions += got
        ranks.append(np.full(got, rank, np.int32))
        positions.append(out_pos[:got])
        targets.append(out_y[:got])
        done = i + 1
        now = time.time()
        if save is not None and now - last > save_every:
            save(Samples(np.concatenate(ranks), np.concatenate(positions), np.concatenate(targets), done))
            last = now
            if note is not None:
                note(f"{done}/{len(order)} leaves, {decisions} decisions in {now - began:.0f}s "
                     f"({decisions / max(now - began, 1e-9):.0f}/s)")
        if limit is not None and now - began > limit:
            break
    result = Samples(np.concatenate(ranks), np.concatenate(positions), np.concatenate(targets), done)
    if save is not None:
        save(result)
    return result


@dataclass
class Refined:
    """What :func:`refine` made of a pass: the new values (by rank), each leave's sample count,
    and for each group of leaves the empirical-Bayes prior weight (in samples) and the shift of
    its prior, and the spread of one sample."""

    values: np.ndarray
    samples: np.ndarray
    prior_weights: list[float]
    shifts: list[float]
    sample_sd: float


def refine(current: np.ndarray, samples: Samples, positions: int, *, groups: np.ndarray | None = None,
           prior_weight: float | None = None, min_weight: float = 4.0, reliable: int = 32,
           shift: bool = False, adjust: bool = True) -> Refined:
    """New leave values from a pass's samples over the ``current`` values (by rank).

    ``y - c(P)``: each target less its position's mean residual against the current values
    (the positions' effect, centred); a leave's estimate is its mean adjusted target less the
    empty leave's. Each leave's estimate is then shrunk towards its prior -- its current value,
    with ``shift`` plus its group's mean departure -- with ``prior_weight`` samples' weight.

    ``groups`` (a group number per rank; default one group) are estimated apart, from their
    leaves with at least ``reliable`` samples: the shift is their mean departure from the
    current values, and the prior weight (unless given) the within-leave variance over the
    variance of the departures less the noise's (at least ``min_weight``). With ``shift``
    every leave of a group moves by its shift, the leaves without samples too. ``adjust=False``:
    no position effect (for matched positions, whose effect is part of what is measured)."""
    r = samples.ranks.astype(np.int64)
    p = samples.positions.astype(np.int64)
    y = samples.targets.astype(np.float64)
    if not len(y) or not (r == 0).any():
        raise ValueError("a pass needs samples of the empty leave (its values are relative to it)")
    resid = y - current[r]
    pn = np.bincount(p, minlength=positions).astype(np.float64)
    ps = np.bincount(p, resid, minlength=positions)
    effect = np.where(pn > 0, ps / np.maximum(pn, 1.0), 0.0)
    effect -= (effect * pn).sum() / pn.sum()
    adjusted = y - effect[p] if adjust else y
    size = len(current)
    n = np.bincount(r, minlength=size).astype(np.float64)
    s1 = np.bincount(r, adjusted, minlength=size)
    s2 = np.bincount(r, adjusted * adjusted, minlength=size)
    mean = np.where(n > 0, s1 / np.maximum(n, 1.0), 0.0)
    estimate = mean - mean[0]
    var = np.where(n > 1, (s2 - n * mean * mean) / np.maximum(n - 1, 1.0), 0.0)
    several = (n > 1) & (np.arange(size) > 0)
    within = float(np.average(var[several], weights=n[several] - 1)) if several.any() else 1.0
    group = np.zeros(size, np.int64) if groups is None else np.asarray(groups, np.int64)
    weight = np.full(size, 1e9)
    prior = current.astype(np.float64).copy()
    weights: list[float] = []
    shifts: list[float] = []
    for g in range(int(group.max()) + 1):
        member = group == g
        good = member & (n >= reliable) & (np.arange(size) > 0)
        departure = estimate[good] - current[good]
        moved = float(departure.mean()) if shift and good.sum() >= 10 else 0.0
        w = prior_weight
        if w is None:
            between = float(np.var(departure) - np.mean(within / n[good])) if good.sum() >= 10 else 0.0
            w = within / between if between > 0 else 1e9
        w = max(w, min_weight)
        weight[member] = w
        prior[member] += moved
        weights.append(float(w))
        shifts.append(moved)
    values = np.where(n > 0, (weight * prior + n * estimate) / np.maximum(weight + n, 1e-12), prior)
    values[0] = 0.0
    return Refined(values, n.astype(np.int64), weights, shifts, float(np.sqrt(within)))


def leave_classes(index_size: int) -> np.ndarray:
    """The class of every leave of the English full table, by rank: ``8 * tiles + vowels``
    (A E I O U; the blank counts as neither)."""
    from qiza.players.leave_table import english_index

    index = english_index()
    if index.size != index_size:
        raise ValueError("forced draws are for the English full table")
    leaves = index.all_leaves().astype(np.int64)
    order: np.ndarray = 8 * leaves.sum(axis=1) + leaves[:, [1, 5, 9, 15, 21]].sum(axis=1)
    return order


def leave_sizes(index_size: int) -> np.ndarray:
    """The number of tiles of every leave of the English full table, by rank."""
    from qiza.players.leave_table import english_index

    index = english_index()
    if index.size != index_size:
        raise ValueError("forced draws are for the English full table")
    sizes: np.ndarray = index.all_leaves().sum(axis=1).astype(np.int64)
    return sizes


def run(model: LeaveModel, gen: MoveGenerator, rules: Rules, work: Path, *, pool_games: int = 3000,
        passes: int = 1, budget: int = 1_000_000, prior: float = 30.0, cap: int = 400, max_size: int = 6,
        seed: int = 0, odds: BingoOdds | None = None, limit: float | None = None, match: bool = False,
        only_unobserved: bool = False, note: Callable[[str], None] | None = None) -> LeaveModel:
    """``qiza train --forced-draws``: ``passes`` passes of about ``budget`` forced-draw decisions
    each over the full table of ``model``; returns the model with the refined table and the run
    recorded in its metadata's ``round_log``.

    Everything is kept in the folder ``work`` (the pool, each pass's samples and values), so a
    run started again with the same folder resumes where it stopped. ``limit``: seconds a pass
    may take (its leaves not reached keep their values); ``match``: each leave on the positions
    that follow keeping a leave of its class (see :func:`forced_pass`); ``only_unobserved``:
    sample only the leaves self-play never observed (:func:`unobserved`)."""
    say = note or (lambda text: print(text, file=sys.stderr))
    full = model.full
    if full is None:
        raise ValueError("forced draws refine a full leave table: the model has none")
    work.mkdir(parents=True, exist_ok=True)
    began = time.time()
    pool_file = work / "pool.npz"
    if pool_file.exists():
        pool = Pool.load(pool_file)
    else:
        pool = collect_pool(gen, model, rules, pool_games, seed=seed, odds=odds, every=2)
        pool.save(pool_file)
    say(f"pool: {len(pool.boards)} positions, {int((pool.counts > 0).sum())} leaves seen as sub-leaves")
    sizes = leave_sizes(full.index.size)
    weights = pool.counts * unobserved(model) if only_unobserved else pool.counts
    plan = allocate(weights, budget, prior=prior, cap=cap, sizes=sizes, max_size=max_size)
    groups = observed_groups(model) * 8 + sizes  # apart: observed often or not, by size
    log: list[dict[str, object]] = []
    for p in range(passes):
        values_file = work / f"pass{p + 1}-values.npy"
        samples_file = work / f"pass{p + 1}-samples.npz"
        log_file = work / f"pass{p + 1}-log.json"
        if values_file.exists() and log_file.exists():  # done before: resume after it
            model = model.with_full(FullTable(full.index, np.load(values_file)))
            log.append(json.loads(log_file.read_text()))
            continue
        resume = Samples.load(samples_file) if samples_file.exists() else None
        t0 = time.time()

        def save(samples: Samples, file: Path = samples_file) -> None:
            samples.save(file)

        samples = forced_pass(gen, model, rules, pool, plan, seed=seed + 1000 * (p + 1), odds=odds, resume=resume,
                              save=save, limit=limit, match=match, note=say)
        current = model.full.values.astype(np.float64) if model.full is not None else full.values
        refined = refine(current, samples, len(pool.boards), groups=groups, adjust=not match)
        np.save(values_file, refined.values)
        model = model.with_full(FullTable(full.index, refined.values))
        n = refined.samples
        entry: dict[str, object] = {
            "method": "forced draws", "pass": p + 1, "decisions": int(len(samples.targets)),
            "leaves_sampled": int((n[1:] > 0).sum()), "seconds": round(time.time() - t0, 1),
            "prior_weights": [round(w, 1) for w in refined.prior_weights], "sample_sd": round(refined.sample_sd, 2),
            "positions": int(len(pool.boards)), "pool_games": pool_games,
            "leaves_by_samples": sample_histogram(n[1:]), "workers": 1, "machines": 1, "backend": "forced draws"}
        log.append(entry)
        log_file.write_text(json.dumps(entry))
        say(f"pass {p + 1}: {entry}")
    out = model.with_full(model.full)
    out.meta = dict(model.meta)
    out.meta.setdefault("round_log", [])
    out.meta["round_log"] = [*out.meta["round_log"], *log]
    out.meta["forced_draws"] = {"passes": passes, "budget": budget, "cap": cap, "prior": prior,
                                "max_size": max_size, "matched_positions": match, "only_unobserved": only_unobserved, "seconds": round(time.time() - began, 1),
                                "target": "score of the static player's choice on the leave plus draws, plus the "
                                          "current value of the leave it keeps, less the same for the empty leave"}
    return out


def unobserved(model: LeaveModel, chunk: int = 100_000) -> np.ndarray:
    """Which leaves of the model's full table (by rank) self-play never observed: their value is
    the feature model's (to the table's hundredth of a point) and they are not superleaves."""
    full = model.full
    if full is None:
        raise ValueError("the model has no full table")
    leaves = full.index.all_leaves()
    feature = np.concatenate([model.values_of(leaves[lo:lo + chunk].astype(np.int64))
                              for lo in range(0, len(leaves), chunk)])
    out: np.ndarray = (np.abs(feature - full.values) < 0.006) & (observed_groups(model) == 0)
    out[0] = False
    return out


def observed_groups(model: LeaveModel) -> np.ndarray:
    """A group per full-table rank: 1 for the leaves of the model's superleave table (those
    self-play observed often enough), 0 for the others (see :func:`refine`)."""
    from qiza.players.leaves import key_counts

    full = model.full
    if full is None:
        raise ValueError("the model has no full table")
    groups = np.zeros(full.index.size, np.int64)
    keys = [k for k in model.table if k]
    if keys:
        counts = np.stack([key_counts(k, model.names) for k in keys])
        inside = full.index.valid(counts)
        groups[full.index.ranks(counts[inside])] = 1
    return groups


def sample_histogram(n: np.ndarray) -> dict[str, int]:
    """How many leaves got how many forced-draw samples (``"10-99": 4123``)."""
    bins = {"1-9": (1, 9), "10-31": (10, 31), "32-99": (32, 99), "100-399": (100, 399), "400+": (400, 1 << 62)}
    return {name: int(((n >= lo) & (n <= hi)).sum()) for name, (lo, hi) in bins.items()}
