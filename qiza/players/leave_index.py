"""A perfect index of leaves: every multiset of tiles a rack can keep, numbered 0..N-1.

A leave is 27 counts (index 0 the blank). The leaves of a tile set are the multisets of at
most ``max_size`` tiles with no tile more often than the bag holds it: for the English set and
a seven-tile rack (leaves of up to six tiles) there are 914,624.

The number is a combinatorial rank: with ``fits[k][r]`` the number of leaves of at most ``r``
tiles made of the tile kinds ``k..26`` only, a leave's rank adds, kind by kind, the number of
leaves that keep fewer copies of that kind and the same copies of the kinds before it. Ranks
follow the order "fewer blanks first, then fewer A, ..." and :meth:`LeaveIndex.all_leaves`
lists the leaves in that order, so a table of values indexed by rank is a plain array.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

KINDS = 27


class LeaveIndex:
    """Ranks of the leaves of up to ``max_size`` tiles under per-kind ``caps`` (27 counts)."""

    def __init__(self, caps: Sequence[int], max_size: int) -> None:
        caps_arr = np.asarray(caps, np.int64)
        if caps_arr.shape != (KINDS,) or (caps_arr < 0).any() or max_size < 0:
            raise ValueError("a leave index needs 27 non-negative caps and a non-negative size")
        self.caps = caps_arr
        self.max_size = int(max_size)
        fits = np.zeros((KINDS + 1, max_size + 1), np.int64)
        fits[KINDS, :] = 1
        for k in range(KINDS - 1, -1, -1):
            for r in range(max_size + 1):
                fits[k, r] = sum(int(fits[k + 1, r - c]) for c in range(min(int(caps_arr[k]), r) + 1))
        self.fits = fits
        # offset[k, r, c]: leaves that keep fewer than c copies of kind k, with r tiles still free
        offset = np.zeros((KINDS, max_size + 1, max_size + 2), np.int64)
        for k in range(KINDS):
            for r in range(max_size + 1):
                for c in range(1, max_size + 2):
                    prev = c - 1
                    offset[k, r, c] = offset[k, r, c - 1] + (int(fits[k + 1, r - prev]) if prev <= r else 0)
        self._offset = offset

    @property
    def size(self) -> int:
        """The number of leaves (914,624 for the English set and leaves of up to six tiles)."""
        return int(self.fits[0, self.max_size])

    @property
    def offsets(self) -> np.ndarray:
        """``offsets[k, r, c]``: the leaves that keep fewer than ``c`` copies of kind ``k`` when
        ``r`` tiles are still free (a leave's rank is the sum over the kinds; compiled callers
        such as :mod:`qiza.players.sim_nb` read it)."""
        return self._offset

    def valid(self, counts: np.ndarray) -> np.ndarray:
        """Which rows of ``counts`` (m x 27) are leaves of this index (within caps and size)."""
        counts = np.asarray(counts).reshape(-1, KINDS)
        valid: np.ndarray = ((counts >= 0).all(axis=1) & (counts <= self.caps).all(axis=1)
                             & (counts.sum(axis=1) <= self.max_size))
        return valid

    def ranks(self, counts: np.ndarray) -> np.ndarray:
        """The rank of every row of ``counts`` (m x 27); every row must be :meth:`valid`."""
        counts = np.asarray(counts, np.int64).reshape(-1, KINDS)
        if not self.valid(counts).all():
            raise ValueError("a leave is over the tile set's counts or longer than the index's leaves")
        before = np.cumsum(counts, axis=1) - counts
        free = self.max_size - before
        ranks: np.ndarray = self._offset[np.arange(KINDS)[None, :], free, counts].sum(axis=1)
        return ranks

    def rank(self, counts: Sequence[int] | np.ndarray) -> int:
        """The rank of one leave (27 counts)."""
        return int(self.ranks(np.asarray(counts).reshape(1, KINDS))[0])

    def unrank(self, rank: int) -> np.ndarray:
        """The leave (27 counts) of a rank (inverse of :meth:`rank`)."""
        if not 0 <= rank < self.size:
            raise ValueError(f"rank {rank} is outside 0..{self.size - 1}")
        out = np.zeros(KINDS, np.int64)
        free = self.max_size
        for k in range(KINDS):
            c = int(np.searchsorted(self._offset[k, free, : free + 2], rank, side="right")) - 1
            c = min(c, int(self.caps[k]), free)
            rank -= int(self._offset[k, free, c])
            out[k] = c
            free -= c
        return out

    def all_leaves(self) -> np.ndarray:
        """Every leave (size x 27, int8), row ``i`` the leave of rank ``i``."""
        # build kind by kind from the last: the block of kind k lists, for each count c of kind
        # k (ascending), every leave of kinds k+1.. that fits in the space left
        block = np.zeros((1, 0), np.int8)
        sizes = np.zeros(1, np.int64)
        for k in range(KINDS - 1, -1, -1):
            parts = []
            part_sizes = []
            for c in range(min(int(self.caps[k]), self.max_size) + 1):
                keep = sizes + c <= self.max_size
                sub = block[keep]
                col = np.full((len(sub), 1), c, np.int8)
                parts.append(np.hstack([col, sub]))
                part_sizes.append(sizes[keep] + c)
            block = np.vstack(parts)
            sizes = np.concatenate(part_sizes)
        order = self.ranks(block)
        out = np.empty_like(block)
        out[order] = block
        return out
