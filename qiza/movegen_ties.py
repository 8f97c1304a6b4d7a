"""The best play of packed move rows (:mod:`qiza.movegen`), the same from either move generator.

:meth:`qiza.movegen.MoveGenerator.best` (the compiled best-only search, which keeps every play
within a few milli-points of its best: :func:`margin`) and
:meth:`qiza.movegen_py.PyMoveGenerator.best` (every play) both end here: each play's equity is
worked out in floats (:func:`row_equities`: the score plus the value of the tiles kept, the
same numbers as the static player's full evaluation), and of the plays of the best equity
(within :data:`qiza.ties.TIE`) the first by :func:`qiza.ties.tie_order` is taken
(:func:`pick_best`). Numpy only: nothing here is compiled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from qiza.deprecation import renamed
from qiza.move import THROUGH, Direction, Place
from qiza.movegen_search import MAX_RACK, MAX_SIZE, META_BLANKS, O_EQUITY, O_META, O_SCORE, O_TILES, O_WIDTH
from qiza.ties import first_in_tie_order

__all__ = ["SubLeaves", "margin", "decode_rows", "packed_row_tiles", "place_of", "row_equities", "pick_best"]

if not TYPE_CHECKING:  # (hidden from mypy, so that an old or misspelt name of this module stays an error)
    __getattr__ = renamed(__name__, {"row_tiles": "packed_row_tiles"})

FEW_ROWS = 8
"""Up to this many rows, :func:`row_equities` decodes them one by one."""

SubLeaves = tuple[np.ndarray, np.ndarray, np.ndarray]
"""A value for every sub-leave of a rack: ``(radix, values, sizes)`` (see
:meth:`qiza.movegen.MoveGenerator.best`)."""


def margin(leave_values: object, sub_leaves: object) -> int:
    """How far (milli-points) below the best equity of the compiled search, whose leave values
    are rounded to thousandths, the play of the best equity in floats may be: a value per
    sub-leave is off by half a milli-point at most, so two plays' by one; per tile, by half a
    milli-point a tile kept."""
    if sub_leaves is not None:
        return 1
    return MAX_RACK if leave_values is not None else 0


def decode_rows(out: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`qiza.movegen_search.decode_packed` with numpy (no compiled code)."""
    out = np.asarray(out, dtype=np.int32).reshape(-1, O_WIDTH)
    meta = out[:, O_META]
    length = (meta >> 11) & 31
    j = np.arange(MAX_SIZE)
    words = out[:, O_TILES + j // 5]
    six = ((words >> (6 * (j % 5))) & 63) * (j[None, :] < length[:, None])
    placed = np.cumsum(six != 0, axis=1) - 1  # the index of each placed tile among those placed
    blank = (meta[:, None] >> (META_BLANKS + np.maximum(placed, 0))) & 1
    tiles = six | ((blank * (six != 0)) << 6)
    return (out[:, O_SCORE].copy(), meta & 31, (meta >> 5) & 31, (meta >> 10) & 1, length, (meta >> 16) & 31,
            out[:, O_EQUITY].copy(), tiles.astype(np.int32))


def packed_row_tiles(meta: int, words: Sequence[int]) -> list[int]:
    """The tiles of a packed row's line (``words``: its ``O_TILES`` columns), blanks flagged.
    Called ``row_tiles`` before, as :func:`qiza.board.row_tiles` (a board row's text) is: that
    name still gives it for one release, with a :class:`DeprecationWarning`."""
    n = (meta >> 11) & 31
    tiles = []
    bit = META_BLANKS
    for i in range(n):
        t = (words[i // 5] >> (6 * (i % 5))) & 63
        if t:
            t |= ((meta >> bit) & 1) << 6
            bit += 1
        tiles.append(t)
    return tiles


def place_of(row: int, col: int, down: bool, tiles: Sequence[int], labels: Sequence[str]) -> Place:
    """The engine's :class:`~qiza.move.Place` of a generated play (its first square, direction
    and line's tiles, 0 where played through): ``.`` for a square played through, a blank's
    label in lower case, a label of several characters in brackets (``[CH]``); ``labels`` name
    the letter codes from 1 (:attr:`qiza.alphabet.TileSet.letters`)."""
    chars = []
    for t in tiles:
        if not t:
            chars.append(THROUGH)
            continue
        label = labels[(t & 63) - 1]
        if t & 64:
            label = label.lower()
        chars.append(f"[{label}]" if len(label) > 1 else label)
    return Place(row, col, Direction.DOWN if down else Direction.ACROSS, "".join(chars))


def row_equities(rows: np.ndarray, rack: np.ndarray, leave_values: Sequence[float] | np.ndarray | None = None,
                 sub_leaves: SubLeaves | None = None) -> np.ndarray:
    """The equity of each packed row's play in floats: its score, plus the value of the
    sub-leave it keeps (``sub_leaves``) or of each tile it keeps (``leave_values``, one per tile
    kind). With sub-leaves it is the static player's number to the last bit: the score plus the
    sub-leave's value, one addition."""
    if sub_leaves is not None and len(rows) <= FEW_ROWS:  # (decoding a few rows in Python is faster)
        radix = sub_leaves[0].tolist()
        values = sub_leaves[1]
        full = int(np.dot(rack, sub_leaves[0]))
        equity = []
        for row in rows.tolist():
            used = sum(radix[0 if t & 64 else t] for t in packed_row_tiles(row[O_META], row[O_TILES:O_WIDTH]) if t)
            equity.append(float(row[O_SCORE]) + float(values[full - used]))  # the same sum as below
        return np.array(equity)
    score = rows[:, O_SCORE].astype(np.float64)
    if sub_leaves is None and leave_values is None:
        return score
    tiles = decode_rows(rows)[-1]
    kinds = np.where(tiles & 64, 0, tiles & 63)
    if sub_leaves is not None:
        radix = np.asarray(sub_leaves[0], np.int64)
        values = np.asarray(sub_leaves[1], np.float64)
        used = np.where(tiles != 0, radix[kinds], 0).sum(axis=1)
        equities: np.ndarray = score + values[int(np.dot(np.asarray(rack, np.int64), radix)) - used]
        return equities
    lv = np.asarray(leave_values, np.float64)
    placed = np.zeros((len(rows), len(lv)), np.int64)
    r, k = np.nonzero(tiles)
    np.add.at(placed, (r, kinds[r, k]), 1)
    equities = score + ((np.asarray(rack, np.int64) - placed) * lv).sum(axis=1)
    return equities


def pick_best(rows: np.ndarray, rack: np.ndarray, labels: Sequence[str],
              leave_values: Sequence[float] | np.ndarray | None = None,
              sub_leaves: SubLeaves | None = None) -> tuple[int, float]:
    """The row of the play of the best equity (:func:`row_equities`) and that equity; of plays
    within :data:`qiza.ties.TIE` of it, the first by :func:`qiza.ties.tie_order`. ``rows`` must
    not be empty."""
    equity = row_equities(rows, rack, leave_values, sub_leaves)
    if len(equity) == 1:
        return 0, float(equity[0])
    near = np.flatnonzero(equity >= equity.max() - 1e-6)  # (first_in_tie_order keeps those within TIE)
    if len(near) == 1:
        i = int(near[0])
        return i, float(equity[i])
    places = []
    for v in rows[near].tolist():
        meta = v[O_META]
        places.append(place_of(meta & 31, (meta >> 5) & 31, bool((meta >> 10) & 1),
                               packed_row_tiles(meta, v[O_TILES:O_WIDTH]), labels))
    i = int(near[first_in_tie_order(places, equity[near].tolist())])
    return i, float(equity[i])
