"""The compiled endgame search's incremental move lists (:mod:`qiza.players.endgame_gen`): a
list made from an earlier list of the same player (its still-legal moves and the moves near
the tiles placed since) holds exactly the moves of a list generated on the whole board."""

from __future__ import annotations

import numpy as np
import pytest
from endgame_positions import empty_bag_positions

from qiza.analysis import generator
from qiza.lexicon import Lexicon
from qiza.rules import CLASSIC

Row = tuple[int, int, int, int, frozenset[int]]


def _positions(lexicon: Lexicon, count: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(board, rack to move, other rack) of static self-play games at the first turn with the bag empty."""
    return [(board.ravel().astype(np.int32), me, opp)
            for board, me, opp, _ in empty_bag_positions(lexicon, count, first_seed=300)]


class Lists:
    """The compiled search's arrays, and its list maker called from Python."""

    def __init__(self, lexicon: Lexicon) -> None:
        from qiza.players import endgame_search as es
        from qiza.players import endgame_store as store
        from qiza.players.endgame import _search_arrays

        self.es = es
        gen = generator(lexicon, CLASSIC)
        es.prepare(gen.wide)
        self.width = 7
        self.E = _search_arrays(gen, CLASSIC, self.width, 1 << 18, 1 << 16, 6, 40) + (np.zeros((1, 1), np.int64),)
        self.st = self.E[store.E_ST]

    def make(self, board: np.ndarray, rack: np.ndarray, parent: int = -1, parent_h: int = 0, merge: bool = True) -> int:
        lid = self.es._generate(self.E, board, rack, int(rack.sum()), parent, parent_h, merge)
        assert lid >= 0
        return int(lid)

    def rows(self, lid: int) -> dict[int, Row]:
        """The moves of list ``lid`` by key: (key, score, tiles, face value, squares to keep empty)."""
        es = self.es
        pool, pmh, lt = self.E[es.E_POOL], self.E[es.E_PMH], self.E[es.E_LT]
        start, n = int(lt[lid, 0]), int(lt[lid, 1])
        c_chk = 3 + 3 * self.width
        out: dict[int, Row] = {}
        pcb = self.E[es.E_PCB]
        for row in range(start, start + n):
            chk = frozenset(int(s) for s in pool[row, c_chk:] if s >= 0)
            # the same squares as bits (the scans' legality check)
            assert {64 * w + b for w in range(pcb.shape[1]) for b in range(64) if (int(pcb[row, w]) >> b) & 1} == chk
            key = int(pmh[row])
            assert key not in out  # no move twice
            out[key] = (key, int(pool[row, 1]), int(pool[row, 0]), int(pool[row, 2]), chk)
        return out

    def order_ok(self, lid: int) -> bool:
        """Going out first by score, then score + face value never growing."""
        es = self.es
        pool, lt = self.E[es.E_POOL], self.E[es.E_LT]
        start, n, nout, total = (int(x) for x in lt[lid, :4])
        rows = pool[start:start + n]
        if not (rows[:nout, 0] == total).all() or (rows[nout:, 0] == total).any():
            return False
        outs = rows[:nout, 1].astype(int)
        rest = rows[nout:, 1].astype(int) + rows[nout:, 2].astype(int)
        return bool((np.diff(outs) <= 0).all() and (np.diff(rest) <= 0).all())

    def play(self, board: np.ndarray, lid: int, k: int) -> np.ndarray:
        """Put move ``k`` of list ``lid`` on ``board``, push its squares on the line's stack;
        returns the tiles it used (counts)."""
        es = self.es
        pool, lt, stack = self.E[es.E_POOL], self.E[es.E_LT], self.E[es.E_STACK]
        row = int(lt[lid, 0]) + k
        nt = int(pool[row, 0])
        used = np.zeros(27, np.int32)
        h = int(self.st[es.S_STACK])
        for j in range(nt):
            s, t = int(pool[row, 3 + j]), int(pool[row, 3 + self.width + j])
            board[s] = t
            used[0 if t & 64 else t] += 1
            stack[h + j] = s
        self.st[es.S_STACK] = h + nt
        return used


@pytest.mark.parametrize("blank", [False, True])
def test_incremental_lists_equal_full_generation(lexicon: Lexicon, blank: bool) -> None:
    """Random lines of one to four moves from real empty-bag positions: the list made from the
    first board's list of the same player (and from the list before the last move) is the list
    generated on the whole board, move for move (key, score, tiles, squares to keep empty)."""
    lists = Lists(lexicon)
    es = lists.es
    rng = np.random.default_rng(7 if blank else 8)
    checked = opened = 0
    for board0, me0, opp0 in _positions(lexicon, 6):
        for _trial in range(4):
            lists.st[es.S_TOP] = 0
            lists.st[es.S_NLISTS] = 0
            lists.st[es.S_STACK] = 0
            board = board0.copy()
            racks = [me0.copy(), opp0.copy()]
            if blank:  # a blank in place of a tile of the player to move
                racks[0][int(rng.choice(np.flatnonzero(racks[0][1:]))) + 1] -= 1
                racks[0][0] += 1
            first = [lists.make(board, racks[0]), lists.make(board, racks[1])]
            last, last_h = list(first), [0, 0]
            mover = 0
            for _ply in range(int(rng.integers(1, 5))):
                lid = lists.make(board, racks[mover])
                n = int(lists.E[es.E_LT][lid, 1])
                if n == 0 or racks[mover].sum() <= 1:
                    break
                k = int(rng.integers(n))
                if int(lists.E[es.E_POOL][int(lists.E[es.E_LT][lid, 0]) + k, 0]) == racks[mover].sum():
                    break  # going out ends the game
                last[mover], last_h[mover] = lid, int(lists.st[es.S_STACK])
                racks[mover] = racks[mover] - lists.play(board, lid, k)
                mover = 1 - mover
                for p in range(2):
                    full = lists.rows(lists.make(board, racks[p]))
                    from_first = lists.make(board, racks[p], first[p], 0)
                    from_last = lists.make(board, racks[p], last[p], last_h[p])
                    assert lists.rows(from_first) == full
                    assert lists.rows(from_last) == full
                    assert lists.order_ok(from_first) and lists.order_ok(from_last)
                    # without the merge: the moves of the full list that the first list lacks
                    # or holds no longer (a square it needs empty is taken)
                    near = lists.rows(lists.make(board, racks[p], first[p], 0, merge=False))
                    kept = {k for k, r in lists.rows(first[p]).items() if k in full and not board[list(r[4])].any()}
                    assert near == {k: r for k, r in full.items() if k not in kept}
                    checked += 1
                    first_kept = int(lists.E[es.E_LT][first[p], 1])
                    opened += len(full) != first_kept
    assert checked >= 20 and opened


def test_stable_sort_of_the_list_maker() -> None:
    """The list maker's index sort (no allocation) is numpy's stable argsort, ties in order."""
    from qiza.players import endgame_store

    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 15, 16, 17, 40, 333, 1000):
        keys = rng.integers(-30, 30, size=n + 5).astype(np.int64)
        idx = np.zeros(n + 5, np.int64)
        tmp = np.zeros(n + 5, np.int64)
        endgame_store._sort_idx.py_func(keys, n, idx, tmp)
        assert idx[:n].tolist() == np.argsort(keys[:n], kind="mergesort").tolist()


def test_stuck_and_single_tile_checks_agree_with_generation(lexicon: Lexicon) -> None:
    """:func:`~qiza.players.endgame_gen.stuck` (no placement covers a square next to the tiles
    placed since) and :func:`~qiza.players.endgame_gen.single_best` (a one-tile rack's best such
    placement) against generating on the board with and without those tiles: stuck never when a
    new placement exists, always when a one-tile rack has none, and the one tile's best score."""
    from qiza.movegen import decode_packed, kind_values
    from qiza.players.endgame_gen import single_best, stuck
    from qiza.players.endgame_scan import _rack_bits

    gen = generator(lexicon, CLASSIC)
    vals = kind_values(CLASSIC.tile_set.values, CLASSIC.tile_set.size).astype(np.int64)
    rng = np.random.default_rng(11)

    def placements(board: np.ndarray, rack: np.ndarray) -> set[tuple[int, ...]]:
        """(score, row, column, direction, length, tiles) of every placement."""
        score, row, col, dirn, length, _, _, tiles = decode_packed(gen.generate_packed(board, rack))
        return {(int(score[i]), int(row[i]), int(col[i]), int(dirn[i]), int(length[i]), *np.asarray(tiles[i]).tolist())
                for i in range(len(score))}

    proved = {1: 0, 2: 0}
    for board, _me, _opp in _positions(lexicon, 6):
        occupied = np.flatnonzero(board)
        for _trial in range(60):
            s = int(rng.choice(occupied))
            step = int(rng.choice([1, 15]))
            new = [q for q in range(s, min(s + 4 * step, 225), step) if board[q] and (step == 15 or q // 15 == s // 15)]
            old = board.copy()
            old[new] = 0
            size = int(rng.choice([1, 1, 2, 3]))
            rack = np.zeros(27, np.int32)
            for t in rng.choice(np.arange(1, 27), size):
                rack[t] += 1
            before = placements(old, rack)
            fresh = placements(board, rack) - before  # with another score if a word changed
            squares = np.array(new, np.int64)
            proof = stuck(gen.graph, board, 15, squares, 0, len(new), _rack_bits(rack), size)
            assert not (proof and fresh)
            if size == 1:
                assert proof == (not fresh)
                x = int(np.flatnonzero(rack)[0])
                best, _square = single_best(gen.graph, board, 15, squares, 0, len(new), x, vals, gen.prem[0], gen.prem[1])
                assert best == max((p[0] for p in fresh), default=-1)
            if proof:
                proved[min(size, 2)] += 1
    assert proved[1] and proved[2]
