"""The full leave table: a value for every leave of up to six tiles of the English set.

:class:`FullTable` is an array indexed by :class:`~qiza.players.leave_index.LeaveIndex` rank
(914,625 leaves, the empty one included). It is stored beside the leave model
(``qiza/data/leaves.json``) as ``leaves-table.npy``: 16-bit integers in hundredths of a point
(1.8 MB), read in a few milliseconds. :func:`build` fills it from a model: the value self-play
observed for a leave where there is one (the leave's mean, shrunk towards the feature model),
the feature model for every other leave.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from qiza.players.leave_index import LeaveIndex

MAX_SIZE = 6
"""Tiles in the longest leave of the table (a seven-tile rack keeps at most six)."""
SCALE = 100.0
"""Stored units per point."""
_LIMIT = 32767


@lru_cache(maxsize=4)
def english_index(max_size: int = MAX_SIZE) -> LeaveIndex:
    """The leave index of the English tile set (blanks first, then A-Z)."""
    from qiza.alphabet import ENGLISH

    return LeaveIndex([ENGLISH.blanks, *ENGLISH.counts], max_size)


class FullTable:
    """Values (points, float32) of every leave of an index, by rank."""

    __slots__ = ("index", "values")

    def __init__(self, index: LeaveIndex, values: np.ndarray) -> None:
        if values.shape != (index.size,):
            raise ValueError(f"a full leave table has {index.size} values, not {values.shape}")
        self.index = index
        # held as stored (hundredths of a point), so a table in memory and its file agree
        stored = np.clip(np.rint(values.astype(np.float64) * SCALE), -_LIMIT, _LIMIT)
        self.values = (stored / SCALE).astype(np.float32)

    def value(self, counts: np.ndarray) -> float:
        """The value of one leave (27 counts)."""
        return float(self.values[self.index.rank(counts)])

    def to_bytes(self) -> bytes:
        """The table as a ``.npy`` file of hundredths of a point (int16)."""
        stored = np.rint(self.values.astype(np.float64) * SCALE).astype("<i2")
        buf = io.BytesIO()
        np.save(buf, stored, allow_pickle=False)
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, index: LeaveIndex | None = None) -> FullTable:
        """Read a table written by :meth:`to_bytes` (refuses a file of the wrong size or type)."""
        index = index or english_index()
        try:
            stored = np.load(io.BytesIO(data), allow_pickle=False)
        except (ValueError, OSError, EOFError) as exc:
            raise ValueError(f"not a leave table: {exc}") from None
        if stored.dtype != np.dtype("<i2") or stored.shape != (index.size,):
            raise ValueError(f"a leave table holds {index.size} int16 values, not {stored.shape} {stored.dtype}")
        return cls(index, stored.astype(np.float64) / SCALE)

    def save(self, path: str | Path) -> None:
        """Write the table (see :meth:`to_bytes`)."""
        Path(path).write_bytes(self.to_bytes())

    def describe(self, file: str) -> dict[str, Any]:
        """The table's entry in the model's metadata."""
        return {"file": file, "leaves": self.index.size, "max_tiles": self.index.max_size,
                "tile_set": "english", "units": "hundredths of a point, int16"}


def build(values_of: Callable[[np.ndarray], np.ndarray], observed: Mapping[str, float] | None = None,
          index: LeaveIndex | None = None, chunk: int = 100_000) -> FullTable:
    """A table from a model's ``values_of`` (m x 27 counts -> values), then the ``observed``
    values of leaves by key (``?AER``) over it."""
    from qiza.players.leaves import key_counts

    index = index or english_index()
    leaves = index.all_leaves()
    values = np.empty(index.size, np.float64)
    for lo in range(0, index.size, chunk):
        values[lo:lo + chunk] = values_of(leaves[lo:lo + chunk].astype(np.int64))
    if observed:
        keys = [k for k in observed if k]
        counts = np.stack([key_counts(k) for k in keys]) if keys else np.zeros((0, 27), np.int32)
        inside = index.valid(counts)
        ranks = index.ranks(counts[inside])
        values[ranks] = np.array([observed[k] for k, ok in zip(keys, inside) if ok])
    values[0] = 0.0  # keeping nothing is worth nothing
    return FullTable(index, values.astype(np.float32))
