"""The line cache of :mod:`qiza.movegen_lines` finds the play the full best-only search finds, to
the tie, on boards that differ from a base board by one play, and the lines a play changes are
the lines whose plays change."""

from __future__ import annotations

import numpy as np
import pytest
from test_movegen import _shared_or_skip

from qiza.movegen import (
    O_META,
    O_TILES,
    O_WIDTH,
    MoveGenerator,
    decode_packed,
    parse_board,
    read_positions,
)
from qiza.movegen_lines import best_replies, changed_lines
from qiza.movegen_search import O_HAVE
from qiza.players.leaves import default_model


def _used(rows: np.ndarray) -> np.ndarray:
    """The rows without the tile words past the line's end (left from earlier plays in the buffer)."""
    rows = rows.copy()
    for row in rows:
        words = O_TILES + (((int(row[O_META]) >> 11) & 31) + 4) // 5
        row[words:O_WIDTH] = 0
    return rows


def _played(board: np.ndarray, row: np.ndarray, size: int) -> np.ndarray:
    _, r, c, d, length, _, _, tiles = decode_packed(np.ascontiguousarray(row[None, :O_WIDTH]))
    out = board.copy()
    step = size if d[0] else 1
    for i in range(int(length[0])):
        if tiles[0, i]:
            out[int(r[0]) * size + int(c[0]) + i * step] = tiles[0, i]
    return out


@pytest.mark.parametrize("leaves", ["none", "model", "end"])
def test_the_line_cache_finds_the_full_search_play(twl_gen: MoveGenerator, leaves: str) -> None:
    """On positions of the shared set: each base board with 8 of its rack's plays added (the best
    and random others) and the base board itself, three random racks each (some with blanks):
    the same play as :meth:`MoveGenerator.best_many`, packed row for packed row. Without leave
    values the equities are the scores and ties between plays in different lines are many."""
    positions = read_positions(_shared_or_skip() / "positions.txt")
    gen = twl_gen
    rng = np.random.default_rng({"none": 1, "model": 2, "end": 3}[leaves])
    values = {"none": None, "model": np.asarray(default_model().tile_values, np.float64),
              "end": -2.0 * gen.values.astype(np.float64)}[leaves]
    template = gen.search_arrays(values)[2][0] if values is not None else gen._templates[1]
    bag = np.repeat(np.arange(27), [2, 9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1])
    compared = ties = 0
    for base, rack in positions[1::9]:
        if not base.any():
            continue
        moves = gen.generate_packed(base, rack)
        if len(moves) == 0:
            continue
        picks = [int(np.argmax(moves[:, 0]))] + [int(i) for i in rng.integers(0, len(moves), 7)]
        boards = np.stack([base] + [_played(base, moves[i], gen.size) for i in picks]).astype(np.int32)
        for _ in range(3):
            reply = np.bincount(rng.choice(bag, 7, replace=False), minlength=27).astype(np.int32)
            got = np.zeros((len(boards), O_WIDTH + 1), np.int32)
            best_replies(gen.graph, gen._anagrams(), template, gen.prem, base, boards, reply, got)
            want = gen._run(boards, np.repeat(reply[None, :], len(boards), axis=0), 1,
                            np.zeros((1, O_WIDTH), np.int32), values)
            np.testing.assert_array_equal(got[:, O_HAVE], want[:, O_HAVE])
            np.testing.assert_array_equal(_used(got[:, :O_WIDTH]), _used(want[:, :O_WIDTH]))
            compared += len(boards)
            for b, row in zip(boards, want):  # count the positions whose best equity two plays share
                if row[O_HAVE] and values is None:
                    all_moves = gen.generate_packed(b, reply)
                    ties += int((all_moves[:, 0] == row[0]).sum() > 1)
    assert compared > 1000
    if values is None:
        assert ties > 50  # the tie rule is exercised


def test_changed_lines() -> None:
    """A play changes its own line, the lines of its tiles across it, and those of the squares at
    the ends of the words it makes or extends (whose cross-checks change); nothing else."""
    size = 15
    rows = ["." * 15] * 15
    rows[7] = "...CAT........."
    rows[5] = ".....O........."
    rows[6] = ".....X........."  # OX above the T of CAT: the column word OXT is not ours, just tiles
    base = parse_board(rows)
    after = base.copy()
    after[8 * size + 5] = 1  # A below the T: the column run O X T A, rows 5..8
    aff = np.zeros(2 * size, np.bool_)
    changed_lines(base, after, size, aff)
    assert sorted(np.flatnonzero(aff[:size])) == [4, 8, 9]  # its row, the squares above O and below A
    assert sorted(np.flatnonzero(aff[size:])) == [4, 5, 6]  # its column and the squares beside it
    changed_lines(base, base, size, aff)
    assert not aff.any()
