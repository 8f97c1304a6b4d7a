"""Compiled (Numba) enumeration of a rack's sub-leaves and their ranks in a full leave table:
the kernel of :meth:`qiza.players.leaves.LeaveModel.rack_leaves`.

A sub-leave's *code* is mixed-radix over the rack's tile kinds (copies kept of kind ``t`` times
``radix[t]``); its rank is the combinatorial rank of :class:`qiza.players.leave_index.LeaveIndex`
(the sum over the kinds of ``offsets[k, free, c]``, ``free`` the tiles still allowed after the
kinds before ``k``), or -1 for a leave the index does not hold (too long, or over a tile's count).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE


@nb.njit(cache=CACHE)
def sub_leaves(rack, offsets, caps, max_size):  # type: ignore[no-untyped-def]  # pragma: no cover
    """``(radix, counts, ranks)`` of every sub-leave of ``rack`` (counts per kind, int64)."""
    kinds = rack.shape[0]
    radix = np.zeros(kinds, np.int64)
    n = 1
    for t in range(kinds):
        if rack[t] > 0:
            radix[t] = n
            n *= rack[t] + 1
    counts = np.zeros((n, kinds), np.int32)
    ranks = np.full(n, -1, np.int64)
    for code in range(n):
        size = 0
        ok = True
        for t in range(kinds):
            if rack[t] > 0:
                c = (code // radix[t]) % (rack[t] + 1)
                counts[code, t] = c
                size += c
                if c > caps[t]:
                    ok = False
        if ok and size <= max_size:
            r = 0
            free = max_size
            for t in range(kinds):
                c = counts[code, t]
                if c:
                    r += offsets[t, free, c]
                    free -= c
            ranks[code] = r
    return radix, counts, ranks


def warm_up() -> None:
    """Compile the kernel (a tiny index)."""
    from qiza.players.leave_index import LeaveIndex

    index = LeaveIndex([2] * 27, 2)
    rack = np.zeros(27, np.int64)
    rack[1] = 2
    rack[5] = 1
    sub_leaves(rack, index.offsets, index.caps, index.max_size)
