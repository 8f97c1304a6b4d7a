"""The bingo odds of :mod:`qiza.players.bingo_nb` without compiled code, the same numbers bit
for bit: the same operations on the same float64 values in the same order. Used while the
compiled code is being compiled (:func:`qiza.coldstart.use_compiled`) on a fresh install."""

from __future__ import annotations

import numpy as np

from qiza.players.bingo_nb import LETTER_KEYS

_KEYS = [int(k) for k in LETTER_KEYS]


def _wrap(code: int) -> int:
    """An integer as the signed 64-bit value int64 arithmetic leaves (the sums wrap around)."""
    code &= (1 << 64) - 1
    return code - (1 << 64) if code >= 1 << 63 else code


def _found(codes: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """For each code of ``wanted``, its index in the sorted ``codes``, or -1."""
    at = np.searchsorted(codes, wanted)
    inside = at < codes.shape[0]
    hit = np.zeros(wanted.shape[0], bool)
    hit[inside] = codes[at[inside]] == wanted[inside]
    return np.where(hit, at, -1)


def leave_prob(leave: np.ndarray, bag: np.ndarray, one: np.ndarray, masks: np.ndarray, two: np.ndarray) -> float:
    """:func:`qiza.players.bingo_nb.leave_prob` of one blank-free leave."""
    kinds = leave.shape[0]
    counts = [int(x) for x in leave]
    size = sum(counts)
    if counts[0] or size not in (5, 6):
        return 0.0
    rest = [max(int(bag[t]) - counts[t], 0) for t in range(kinds)]
    total = sum(rest)
    base = _wrap(sum(counts[t] * _KEYS[t] for t in range(1, kinds) if counts[t]))
    if size == 6:
        idx = int(_found(one, np.array([base], np.int64))[0])
        if total < 1 or idx < 0:
            return 0.0
        p = rest[0] / total
        mask = int(masks[idx])
        for t in range(1, kinds):
            if rest[t] and (mask >> t) & 1:
                p += rest[t] / total
        return p
    if total < 2:
        return 0.0
    pairs = total * (total - 1) / 2.0
    p = 0.0
    plus = np.array([_wrap(base + _KEYS[t]) for t in range(kinds)], np.int64)
    found = _found(one, plus).tolist()
    if rest[0]:
        if rest[0] > 1 and _found(two, np.array([base], np.int64))[0] >= 0:
            p += rest[0] * (rest[0] - 1) / 2.0 / pairs
        for u in range(1, kinds):
            if rest[u] and found[u] >= 0:
                p += rest[0] * rest[u] / pairs
    for t in range(1, kinds):
        if rest[t] == 0 or found[t] < 0:
            continue
        mask = int(masks[found[t]])
        for u in range(t, kinds):
            if (mask >> u) & 1:
                ways = rest[t] * (rest[t] - 1) / 2.0 if t == u else float(rest[t] * rest[u])
                p += ways / pairs
    return p


def leave_probs(counts: np.ndarray, rows: np.ndarray, bag: np.ndarray, full: np.ndarray, one: np.ndarray,
                masks: np.ndarray, two: np.ndarray) -> np.ndarray:
    """:func:`qiza.players.bingo_nb.leave_probs`: the odds of the leaves ``counts[rows]``."""
    del full  # as the compiled kernel: the six-letter table holds what it needs
    out = np.zeros(rows.shape[0])
    for i, row in enumerate(rows.tolist()):
        out[i] = leave_prob(counts[row], bag, one, masks, two)
    return out
