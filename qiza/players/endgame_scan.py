"""Scans of the endgame search's move lists (:mod:`qiza.players.endgame_search`): whether a
stored move is still legal, the best still-legal move at the depth limit, a rack's best way out,
a move by its key. They read the pool's rows (see that module's doc) and write nothing but a
list's remembered way out.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from qiza.jitcache import CACHE

NO_REFCOUNT: dict[str, Any] = {"_nrt": False}
"""Numba options of a compiled function that allocates nothing: no reference counting either
(the counts of the many arrays passed around took a third of the search's time). Callees
compiled from it inherit the option unless they say otherwise (:data:`REFCOUNT`)."""
REFCOUNT: dict[str, Any] = {"_nrt": True}


@nb.njit(cache=CACHE, inline="always")
def _cols(pool):  # type: ignore[no-untyped-def]  # pragma: no cover
    """(width, first square column, first tile column, first code column, first chk column, chk width)."""
    wd = (pool.shape[1] - 5) // 6
    return wd, 3, 3 + wd, 3 + 2 * wd, 3 + 3 * wd, 3 * wd + 2


@nb.njit(cache=CACHE, inline="always")
def _rack_bits(rack):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The tile kinds of ``rack``, a bit each (see ``E[E_PKM]``)."""
    bits = np.int64(0)
    for t in range(rack.shape[0]):
        if rack[t]:
            bits |= np.int64(1) << t
    return bits


@nb.njit(cache=CACHE, inline="always")
def _valid(pool, row, pcb, occ, rack):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Pool move ``row`` is still legal: its squares to keep empty are empty (``pcb[row]``,
    those squares as bits, meets none of the occupied squares ``occ``) and ``rack`` holds its
    tiles."""
    for w in range(pcb.shape[1]):
        if pcb[row, w] & occ[w]:
            return False
    wd, c_sq, c_tl, c_code, c_chk, nchk = _cols(pool)
    nt = pool[row, 0]
    for j in range(nt):
        cd = pool[row, c_code + j]
        cnt = 0
        for k in range(nt):
            if pool[row, c_code + k] == cd:
                cnt += 1
        if cnt > rack[cd]:
            return False
    return True


@nb.njit(cache=CACHE, **NO_REFCOUNT)
def _frontier(pool, lt, lid, pcb, occ, rack, total, mine_pts, opp_pts, threshold):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The best still-legal move of list ``lid`` valued as the static guess at the depth limit
    (going out: score + twice the opponent's tiles; otherwise score + the face value played +
    the opponent's tiles - this player's, both keeping their other tiles), or passing (both
    keep their tiles), and the move's pool row (-1: passing). Stops once a value reaches
    ``threshold``.

    After a list's first ``nout0`` moves (those that went out where it was made: they hold
    more tiles than the rack now, or are ways out sorted by score) score + face value never
    grows: so the first still-legal way out and the first still-legal other move are the best
    of each kind, and the scan stops once both are found or no later move can do better."""
    start = lt[lid, 0]
    n = lt[lid, 1]
    nout0 = lt[lid, 2]
    best = opp_pts - mine_pts  # passing: a floor that cuts the scan short
    best_row = -1
    found_out = False
    found_other = False
    if nout0 and pool[start, 0] == total:  # the ways out where the list was made, by score
        for row in range(start, start + nout0):
            v = pool[row, 1] + 2 * opp_pts
            if v <= best:
                break
            if _valid(pool, row, pcb, occ, rack):
                found_out = True
                best = v
                best_row = row
                break
        if best >= threshold:
            return best, best_row
    # with the rack the list was made for, every later move keeps tiles
    others_only = lt[lid, 3] == total
    for i in range(nout0, n):
        row = start + i
        nt = pool[row, 0]
        if nt > total:
            continue
        sc = np.int64(pool[row, 1])
        p = np.int64(pool[row, 2])
        if sc + p - mine_pts + 2 * opp_pts <= best:
            break  # (a way out plays every tile: its face value is mine_pts)
        out = nt == total
        v = sc + 2 * opp_pts if out else sc + opp_pts - mine_pts + p
        if v <= best or (found_out if out else found_other) or not _valid(pool, row, pcb, occ, rack):
            continue
        if out:
            found_out = True
        else:
            found_other = True
        best = v
        best_row = row
        if best >= threshold or (found_other and (found_out or others_only)):
            break
    return best, best_row


@nb.njit(cache=CACHE, inline="always")
def _clear(pool, pcb, keep, row):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Pool move ``row`` places no tile on a square that pool move ``keep`` needs empty."""
    for j in range(pool[row, 0]):
        s = pool[row, 3 + j]
        if (pcb[keep, s >> 6] >> (s & 63)) & 1:
            return False
    return True


@nb.njit(cache=CACHE, **NO_REFCOUNT)
def _best_out(pool, pmk, rk, lt, lid, pcb, occ, rack, total, hk, h, hb):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The pool row of the highest-scoring still-legal move of list ``lid`` that plays every
    tile of ``rack`` (-1: none): the first in the order (see :func:`_frontier`; with the rack
    the list was made for, its first ``nout0`` moves are its ways out). Only the rows whose
    tile key (``pmk``, a sum of per-kind keys) is the rack's, ``rk``, are looked at.

    The answer is kept in the list's row of ``lt`` (rack key, row, line height ``h`` and board
    key ``hb``): asked again for the same rack on a board of the same line with more tiles
    (``hk``: the board keys along the line), a way out still legal is still the best one, and
    none stays none."""
    qh = lt[lid, 6]
    if qh >= 0 and qh <= h and lt[lid, 4] == rk and hk[qh] == lt[lid, 7]:
        r = lt[lid, 5]
        if r < 0 or _valid(pool, r, pcb, occ, rack):
            return r
    start = lt[lid, 0]
    best = -1
    for row in range(start, start + (lt[lid, 2] if lt[lid, 3] == total else lt[lid, 1])):
        if pmk[row] == rk and _valid(pool, row, pcb, occ, rack):
            best = row
            break
    lt[lid, 4] = rk
    lt[lid, 5] = best
    lt[lid, 6] = h
    lt[lid, 7] = hb
    return best


@nb.njit(cache=CACHE, **NO_REFCOUNT)
def _next_out(pool, pmk, rk, lt, lid, pcb, occ, rack, total, after):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The pool row of the highest-scoring still-legal way out of ``rack`` in list ``lid``
    after row ``after`` (the best one: see :func:`_best_out`; ``rk``: the rack's tile key), -1: none."""
    start = lt[lid, 0]
    for row in range(after + 1, start + (lt[lid, 2] if lt[lid, 3] == total else lt[lid, 1])):
        if pmk[row] == rk and _valid(pool, row, pcb, occ, rack):
            return row
    return -1


@nb.njit(cache=CACHE, **NO_REFCOUNT)
def _legal_left(pool, pnt, pkm, lt, lid, pcb, occ, rack, least, most):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Whether list ``lid`` has a still-legal move of ``rack`` placing from ``least`` to ``most``
    tiles (1 to the rack's size: any move; to one less: a move that does not go out; the rack's
    size to it: a way out)."""
    rbits = _rack_bits(rack)
    start = lt[lid, 0]
    for row in range(start, start + lt[lid, 1]):
        if least <= pnt[row] <= most and (pkm[row] & ~rbits) == 0 and _valid(pool, row, pcb, occ, rack):
            return True
    return False


@nb.njit(cache=CACHE, **NO_REFCOUNT)
def _find_move(pmh, lt, lid, key):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The pool row of the move named ``key`` in list ``lid`` (-1: none)."""
    start = lt[lid, 0]
    for row in range(start, start + lt[lid, 1]):
        if pmh[row] == key:
            return row
    return -1
