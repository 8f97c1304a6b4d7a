"""Forced-draw leave values (qiza.players.leavegen, ``qiza train --forced-draws``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from qiza.alphabet import ENGLISH
from qiza.analysis import generator
from qiza.lexicon import load_lexicon
from qiza.movegen import MoveGenerator
from qiza.players import leavegen
from qiza.players.leave_table import FullTable
from qiza.players.leaves import LeaveModel, default_model, key_counts
from qiza.rules import CLASSIC


@pytest.fixture(scope="module")
def gen() -> MoveGenerator:
    return generator(load_lexicon("twl06"), CLASSIC)


@pytest.fixture(scope="module")
def model() -> LeaveModel:
    return default_model()


@pytest.fixture(scope="module")
def pool(gen: MoveGenerator, model: LeaveModel) -> leavegen.Pool:
    return leavegen.collect_pool(gen, model, CLASSIC, 2, seed=3)


def _rank(model: LeaveModel, key: str) -> int:
    assert model.full is not None
    return model.full.index.rank(key_counts(key))


def test_pool_positions_are_mid_game(pool: leavegen.Pool, model: LeaveModel) -> None:
    assert len(pool.boards) > 10
    full_bag = np.array([ENGLISH.blanks, *ENGLISH.counts])
    for board, unseen in zip(pool.boards, pool.unseen):
        on_board = np.bincount(np.where(board & 64, 0, board & 63)[board != 0], minlength=27)
        assert (on_board + unseen == full_bag).all()  # every tile is on the board or unseen
        assert unseen.sum() >= 14 + 7  # two racks and at least a rack in the bag
        assert board.any()
    assert pool.counts[0] > 0 and pool.counts.sum() > 100 * len(pool.boards) // 2


def test_rack_leaves_reads_the_table(model: LeaveModel) -> None:
    rack = key_counts("?AEINRS").astype(np.int64)
    ours = leavegen.rack_leaves(model, rack)
    theirs = model.rack_leaves(rack)
    assert (ours.radix == theirs.radix).all()
    assert np.allclose(ours.values[:ours.full], theirs.values[:theirs.full])
    assert ours.values[ours.full] == ours.values[:ours.full].min()


def test_forced_pass_values_and_resume(gen: MoveGenerator, model: LeaveModel, pool: leavegen.Pool,
                                       tmp_path: Path) -> None:
    assert model.full is not None
    plan = np.zeros(model.full.index.size, np.int64)
    keys = ["", "?", "Q", "S", "ER"]
    for key in keys:
        plan[_rank(model, key)] = 12
    plan[0] = 40
    saved = tmp_path / "samples.npz"
    part = leavegen.forced_pass(gen, model, CLASSIC, pool, plan, seed=1, limit=0.0,
                                save=lambda s: s.save(saved))
    assert part.done == 1  # the limit stops it after the first leave (the empty one)
    resumed = leavegen.forced_pass(gen, model, CLASSIC, pool, plan, seed=1, resume=leavegen.Samples.load(saved))
    assert resumed.done == len(keys)
    assert (resumed.targets[:len(part.targets)] == part.targets).all()  # the earlier samples are kept
    assert np.isfinite(resumed.targets).all() and len(resumed.targets) == 40 + 12 * 4
    current = model.full.values.astype(np.float64)
    refined = leavegen.refine(current, resumed, len(pool.boards), prior_weight=0.0, min_weight=0.0)
    assert refined.values[0] == 0.0
    got = {key: refined.values[_rank(model, key)] for key in keys}
    assert all(np.isfinite(v) for v in got.values())
    assert got["?"] > got["S"] > got["Q"]  # the blank is worth most, the Q least
    assert refined.samples[_rank(model, "S")] == 12
    untouched = np.ones(len(current), bool)
    untouched[[_rank(model, k) for k in keys]] = False
    assert (refined.values[untouched] == current[untouched]).all()  # leaves without samples keep their values


def test_refine_removes_the_position_effect_and_shrinks() -> None:
    rng = np.random.default_rng(0)
    size, positions = 6, 50
    true = np.array([0.0, 5.0, -3.0, 1.0, 8.0, -6.0])
    effect = rng.normal(0, 20, positions)
    r = rng.integers(0, size, 20_000)
    p = rng.integers(0, positions, 20_000)
    y = 30 + true[r] + effect[p] + rng.normal(0, 2, len(r))
    samples = leavegen.Samples(r.astype(np.int32), p.astype(np.int32), y.astype(np.float32), size)
    exact = leavegen.refine(np.zeros(size), samples, positions, prior_weight=0.0, min_weight=0.0)
    assert np.allclose(exact.values, true, atol=0.2)
    assert exact.sample_sd < 3  # the positions' spread (20) is gone
    shrunk = leavegen.refine(np.zeros(size), samples, positions, prior_weight=1e6)
    assert np.abs(shrunk.values).max() < 0.1  # a heavy prior keeps the current values


def test_allocate_follows_the_counts() -> None:
    counts = np.array([0, 10_000, 2_500, 100, 1, 0])
    n = leavegen.allocate(counts, 300, prior=10, cap=1000)
    assert n[0] >= 300 // 50
    assert n[1] > n[2] > n[3] >= n[4] == 0 and n[5] == 0
    assert abs(int(n[1:].sum()) - 300) <= 3
    sizes = np.array([0, 1, 2, 3, 4, 7])
    assert leavegen.allocate(counts, 300, prior=10, sizes=sizes, max_size=2)[3] == 0


def test_observed_groups(model: LeaveModel) -> None:
    groups = leavegen.observed_groups(model)
    assert groups.sum() > 0 and groups[0] == 0
    assert model.full is not None
    tiny = LeaveModel(model.weights, {}, model.tile_values.tolist(), {}, FullTable(model.full.index, model.full.values))
    assert leavegen.observed_groups(tiny).sum() == 0


def test_run_records_passes_and_resumes(gen: MoveGenerator, model: LeaveModel, tmp_path: Path) -> None:
    first = leavegen.run(model, gen, CLASSIC, tmp_path, pool_games=1, passes=1, budget=60, cap=12, note=lambda t: None)
    log = [e for e in first.meta["round_log"] if e.get("method") == "forced draws"]
    assert len(log) == 1 and log[0]["decisions"] >= 12 + 1
    assert (tmp_path / "pass1-values.npy").exists()
    assert first.full is not None and first.full.values[0] == 0.0
    again = leavegen.run(model, gen, CLASSIC, tmp_path, pool_games=1, passes=2, budget=60, cap=12, note=lambda t: None)
    log2 = [e for e in again.meta["round_log"] if e.get("method") == "forced draws"]
    assert [e["pass"] for e in log2] == [1, 2]  # the first pass was read back, not played again
    assert log2[0] == log[0]
    path = tmp_path / "out.json"
    again.save(path)
    back = LeaveModel.load(path)
    assert back.full is not None and np.allclose(back.full.values, again.full.values)  # type: ignore[union-attr]


def test_matched_positions_follow_a_leave_of_the_same_class(gen: MoveGenerator, model: LeaveModel,
                                                            pool: leavegen.Pool) -> None:
    assert pool.previous is not None and len(pool.previous) == len(pool.boards)
    assert (pool.previous >= 0).any() and (pool.previous >= -1).all()
    assert model.full is not None
    classes = leavegen.leave_classes(model.full.index.size)
    assert classes[_rank(model, "")] == 0 and classes[_rank(model, "?AE")] == 8 * 3 + 2
    known = pool.previous[pool.previous >= 0]
    rank = int(known[0])  # a leave kept in the pool's games: its class has a position
    plan = np.zeros(model.full.index.size, np.int64)
    plan[rank] = 6
    plan[0] = 6
    got = leavegen.forced_pass(gen, model, CLASSIC, pool, plan, seed=2, match=True, min_match=1)
    mine = got.positions[got.ranks == rank]
    assert len(mine) == 6
    assert (classes[pool.previous[mine]] == classes[rank]).all()
    refined = leavegen.refine(model.full.values.astype(np.float64), got, len(pool.boards), adjust=False,
                              prior_weight=0.0, min_weight=0.0)
    assert np.isfinite(refined.values).all() and refined.values[0] == 0.0


def test_unobserved_leaves_are_the_feature_models(model: LeaveModel) -> None:
    assert model.full is not None
    never = leavegen.unobserved(model)
    assert not never[0] and 0 < never.sum() < model.full.index.size
    assert not never[_rank(model, "S")]  # a leave self-play keeps all the time
    rank = int(np.flatnonzero(never)[12345])
    leave = model.full.index.unrank(rank).reshape(1, 27)
    assert model.full.values[rank] == pytest.approx(float(model.values_of(leave)[0]), abs=0.006)


def test_train_forced_draws_command(tmp_path: Path) -> None:
    import argparse

    from qiza.players import train

    parser = argparse.ArgumentParser()
    train.configure(parser)
    out = tmp_path / "leaves.json"
    args = parser.parse_args(["--forced-draws", "--budget", "40", "--pool-games", "1", "-o", str(out),
                              "--work", str(tmp_path / "work"), "--matched", "--unobserved-only"])
    assert train.run(args) == 0
    model = LeaveModel.load(out)
    assert model.full is not None and (tmp_path / "leaves-table.npy").exists()
    entry = model.meta["round_log"][-1]
    assert entry["method"] == "forced draws" and entry["decisions"] >= 400  # the empty leave's samples at least
    assert model.meta["forced_draws"]["budget"] == 40
    assert model.meta["forced_draws"]["matched_positions"] and model.meta["forced_draws"]["only_unobserved"]


def test_decide_breaks_ties_by_tie_order(gen: MoveGenerator) -> None:
    """A rack with no placement, leaves all worth nothing: every exchange has the same equity,
    and decide gives the first by tie_order (the tiles given: "B"), as the static player does,
    not the first sub-leave code (keeping nothing)."""
    from qiza.analysis import counts_text
    from qiza.move import Exchange
    from qiza.players.engine import StaticSettings
    from qiza.ties import tie_order

    flat = LeaveModel({}, {}, [0.0] * 27)
    rack = key_counts("BCDFGHJ").astype(np.int32)
    board = np.zeros(CLASSIC.layout.size ** 2, np.int32)
    choice, _, _ = leavegen.decide(gen, flat, StaticSettings(), CLASSIC, board, rack, 80, None)
    leaves = flat.rack_leaves(rack)
    given = [Exchange(counts_text(rack - leaves.counts[k], CLASSIC.tile_set)) for k in range(leaves.full)]
    assert choice.move is None and choice.placed == 0
    assert given[choice.kept] == min(given, key=tie_order) == Exchange("B")
