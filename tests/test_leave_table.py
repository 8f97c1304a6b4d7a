"""The perfect leave index and the full leave table (issue 12)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from conftest import local_ray

from qiza.alphabet import ENGLISH
from qiza.players.leave_index import LeaveIndex
from qiza.players.leave_table import FullTable, english_index
from qiza.players.leaves import LeaveModel, default_model, key_counts


def test_english_index_numbers_every_leave_once() -> None:
    index = english_index()
    # 914,624 leaves of one to six tiles, and the empty leave
    assert index.size == 914_625
    leaves = index.all_leaves()
    assert leaves.shape == (914_625, 27)
    assert (leaves.sum(axis=1) <= 6).all()
    assert (leaves <= np.array([ENGLISH.blanks, *ENGLISH.counts])).all()
    ranks = index.ranks(leaves)
    assert (ranks == np.arange(index.size)).all()
    assert len(np.unique(leaves.view(np.dtype((np.void, 27))))) == index.size


def test_rank_and_unrank_are_inverse() -> None:
    index = english_index()
    rng = np.random.default_rng(3)
    for rank in [0, 1, index.size - 1, *rng.integers(0, index.size, 300).tolist()]:
        leave = index.unrank(int(rank))
        assert index.rank(leave) == rank
    assert index.rank(key_counts("??")) > 0
    assert index.rank(key_counts("")) == 0


def test_small_index_against_brute_force() -> None:
    caps = [2, 1, 3] + [0] * 24
    index = LeaveIndex(caps, 4)
    brute = set()
    for a, b, c in itertools.product(range(3), range(2), range(4)):
        if a + b + c <= 4:
            brute.add((a, b, c))
    assert index.size == len(brute)
    got = {tuple(int(x) for x in leave[:3]) for leave in index.all_leaves()}
    assert got == brute


def test_index_refuses_what_is_not_a_leave() -> None:
    index = english_index()
    with pytest.raises(ValueError, match="over the tile set"):
        index.rank(key_counts("QQ"))
    with pytest.raises(ValueError, match="over the tile set"):
        index.rank(key_counts("AEINRST"))  # seven tiles: a whole rack, not a leave
    with pytest.raises(ValueError, match="outside"):
        index.unrank(index.size)
    with pytest.raises(ValueError):
        LeaveIndex([1] * 26, 6)


def test_full_table_holds_the_model_values(tmp_path: Path) -> None:
    plain = LeaveModel.hand_made()
    model = plain.with_full_table({"AEIRST": 33.0})
    assert model.full is not None
    rng = np.random.default_rng(5)
    bag = ENGLISH.full_bag()
    for _ in range(100):
        rack = np.bincount(rng.choice(bag, 7, replace=False), minlength=27)
        assert model.rack_leaves(rack).values == pytest.approx(plain.rack_leaves(rack).values, abs=0.006)
    assert model.text_value("AEIRST") == pytest.approx(33.0, abs=0.006)
    assert plain.text_value("AEIRST") != pytest.approx(33.0, abs=1)
    # eight- and nine-tile racks keep leaves longer than the table's: the feature model values them
    long_rack = key_counts("AEEINRTTU")
    assert model.rack_leaves(long_rack).values == pytest.approx(plain.rack_leaves(long_rack).values, abs=0.006)
    model.save(tmp_path / "m.json")
    assert (tmp_path / "m-table.npy").stat().st_size < 2_000_000
    again = LeaveModel.load(tmp_path / "m.json")
    assert again.full is not None
    assert np.array_equal(again.full.values, model.full.values)


def test_a_damaged_table_file_is_refused() -> None:
    with pytest.raises(ValueError, match="not a leave table"):
        FullTable.from_bytes(b"garbage")
    small = FullTable(LeaveIndex([1] * 27, 2), np.zeros(LeaveIndex([1] * 27, 2).size, np.float32))
    with pytest.raises(ValueError, match="914625"):
        FullTable.from_bytes(small.to_bytes())


def test_the_shipped_model_has_its_full_table() -> None:
    model = default_model()
    assert model.full is not None
    assert model.meta["full_table"]["leaves"] == 914_625
    # the table agrees with the model's own layers where both exist
    for key, value in list(model.table.items())[:50]:
        if len(key) <= 6:
            assert model.full.value(key_counts(key)) == pytest.approx(value, abs=0.006)


def test_training_fills_the_full_table_with_what_it_observed() -> None:
    from qiza.players import train

    rng = np.random.default_rng(2)
    truth = {"S": 8.0, "Q": -7.0, "ES": 12.0, "QU": 1.0, "?": 25.0, "VVW": -20.0}
    observations = [(key, value + rng.normal(0, 2), 20, 30) for _ in range(300) for key, value in truth.items()]
    observations.append(("JXZ", 40.0, 20, 30))  # seen once: shrunk towards the feature model
    model = train.fit(observations)
    assert model.full is not None
    assert model.meta["leaves_by_observations"] == {"1": 1, "2-9": 0, "10-99": 0, "100-999": 6, "1000+": 0}
    assert model.full.value(key_counts("VVW")) == pytest.approx(model.value_key("VVW"), abs=0.006)
    assert model.full.value(key_counts("VVW")) < -10
    text = train.report(model)
    assert "leaves observed: 7 of 914625; never: 914618" in text


def test_training_runs_the_same_on_ray() -> None:
    """``qiza train --ray``: a Ray instance on this machine plays the rounds (one CPU)."""
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'qiza[train]')")
    from qiza.players import train

    with local_ray(ray):
        rounds: list[LeaveModel] = []
        model = train.train(games=[6, 4], seed=11, progress=False, ray_address="auto", on_round=rounds.append)
    log = model.meta["round_log"]
    assert [r["games"] for r in log] == [6, 4] and len(rounds) == 2
    assert all(r["backend"] == "ray" and r["machines"] == 1 and r["workers"] == 1 for r in log)
    assert all(r["observations"] > 20 for r in log)
    assert model.full is not None and model.meta["games"] == 10
    # the same seeds on the local process pool give the same games, so the same observations
    local = train.train(games=[6], seed=11, progress=False, jobs=1)
    assert local.meta["round_log"][0]["observations"] == log[0]["observations"]


def test_each_rack_size_has_its_leave_values(lexicon: object) -> None:
    from qiza.players.engine import StaticPlayer
    from qiza.rules import find_preset

    for rules_name, size in (("8-tile", 8), ("9-tile", 9)):
        model = default_model(size)
        assert model.meta.get("rules") == rules_name, "the shipped leaves of this rack size were trained on it"
        assert model.meta["games"] >= 10_000
        player = StaticPlayer(lexicon, seed=0)  # type: ignore[arg-type]
        assert player.model_for(find_preset(rules_name)) is model
        own = LeaveModel.hand_made()
        assert StaticPlayer(lexicon, seed=0, leaves=own).model_for(find_preset(rules_name)) is own  # type: ignore[arg-type]
    assert default_model(5) is default_model(7)


def test_rack_leaves_read_the_full_table_by_compiled_ranks() -> None:
    """Every sub-leave of a rack has the value :meth:`LeaveModel.value` gives it (the full
    table's, else the model's), its key and its rank in the table; racks of 7, 8 and 9 tiles."""
    from qiza.players.leaves import LETTERS, default_model, leave_key

    rng = np.random.default_rng(5)
    bag = [t for t, n in enumerate([2, 9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1])
           for _ in range(n)]
    for rack_size in (7, 8, 9):
        model = default_model(rack_size)
        assert model.full is not None
        for _ in range(8):
            rack = np.bincount(rng.choice(bag, rack_size, replace=False), minlength=27).astype(np.int32)
            model._rack_cache.clear()
            leaves = model.rack_leaves(rack)
            assert leaves.keys[leaves.full] == leave_key(rack, LETTERS)
            for code in range(len(leaves.counts)):
                counts = leaves.counts[code]
                assert leaves.keys[code] == leave_key(counts)
                assert leaves.values[code] == pytest.approx(model.value(counts), abs=1e-6)
                if int(counts.sum()) <= model.full.index.max_size:
                    assert leaves.ranks[code] == model.full.index.rank(counts)
                else:
                    assert leaves.ranks[code] == -1


def test_bingo_odds_remembered_by_rank_are_the_odds() -> None:
    from qiza.analysis import rack_counts
    from qiza.lexicon import load_lexicon
    from qiza.players.engine import BingoOdds, StaticSettings, with_bingo_odds
    from qiza.players.leaves import default_model
    from qiza.rules import CLASSIC

    odds = BingoOdds(load_lexicon("twl06").words, CLASSIC.tile_set.full_bag())
    model = default_model(7)
    for text in ("AEINRST", "EEIRSTT", "ADEINRS"):
        leaves = model.rack_leaves(rack_counts(text))
        rows = np.flatnonzero((leaves.sizes == 5) | (leaves.sizes == 6))
        first = with_bingo_odds(leaves, StaticSettings(), odds).values
        again = with_bingo_odds(leaves, StaticSettings(), odds).values  # from the remembered odds
        assert np.array_equal(first, again)
        direct = leaves.values.copy()
        direct[rows] += StaticSettings().bingo_draw_bonus * odds.probs(leaves.counts, rows)
        assert np.array_equal(first, direct)
        assert any(odds.prob(leaves.keys[r]) > 0 for r in rows)


def test_a_model_remembers_a_bounded_number_of_racks() -> None:
    """A static player in a loop of many games grew by 13 KB a rack (every sub-leave of each rack
    remembered) up to 20,000 racks, 260 MB, of which 3% came back: the model keeps at most
    RACK_CACHE_SIZE, and a rack asked again within them is the same object."""
    import tracemalloc

    from qiza.players.leaves import RACK_CACHE_SIZE

    model = default_model(7)
    model._rack_cache.clear()
    racks = [np.bincount(combo, minlength=27).astype(np.int32)
             for combo in itertools.islice(itertools.combinations(range(27), 7), RACK_CACHE_SIZE + 1500)]
    first = model.rack_leaves(racks[0])
    assert model.rack_leaves(racks[0]) is first
    tracemalloc.start()
    try:
        for rack in racks:
            model.rack_leaves(rack)
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(model._rack_cache) <= RACK_CACHE_SIZE and kept < RACK_CACHE_SIZE * 20_000
    model._rack_cache.clear()
