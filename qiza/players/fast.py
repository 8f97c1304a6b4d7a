"""Small array helpers for simulations and training: positions as numpy arrays, no Game objects."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from qiza.movegen import GeneratedMove


def used_counts(move: GeneratedMove, kinds: int = 27) -> np.ndarray:
    """Rack tiles a generated move uses, as ``kinds`` counts (index 0 = blanks; 27 for English)."""
    used = np.zeros(kinds, np.int32)
    for t in move.tiles:
        if t:
            used[0 if t & 64 else t] += 1
    return used


def apply_move(board: np.ndarray, move: GeneratedMove, size: int) -> None:
    """Put a generated move's tiles on a flat board array (in place)."""
    for i, t in enumerate(move.tiles):
        if t:
            if move.down:
                board[(move.row + i) * size + move.col] = t
            else:
                board[move.row * size + move.col + i] = t


def counts_to_tiles(counts: Sequence[int] | np.ndarray) -> list[int]:
    """The tiles of rack counts (one per tile kind) as a list of codes (0 = blank)."""
    out: list[int] = []
    for t in range(len(counts)):
        out.extend([t] * int(counts[t]))
    return out


def draw(bag: list[int], rack: np.ndarray, count: int, rng: random.Random) -> None:
    """Draw up to ``count`` random tiles from ``bag`` (a list of codes) onto ``rack`` (counts)."""
    for _ in range(min(count, len(bag))):
        i = rng.randrange(len(bag))
        bag[i], bag[-1] = bag[-1], bag[i]
        rack[bag.pop()] += 1


def rack_points(counts: np.ndarray, values27: np.ndarray) -> int:
    """Face value of the tiles of rack counts (``values27``: a value per tile kind)."""
    return int(np.dot(counts, values27))
