"""The compiled endgame search's layout (the counters ``st`` and the arrays ``E``: see
:mod:`qiza.players.endgame_search`) and its list maker's last step, :func:`_store_list`: a
generation's packed moves into the pool as a list in search order, merged with an earlier
list's still-legal moves, without allocating (its scratch is ``E[E_SI]`` and ``E[E_STMP]``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE
from qiza.movegen_search import META_BLANKS, O_META, O_SCORE, O_TILES
from qiza.players.endgame_scan import NO_REFCOUNT, _cols, _rack_bits, _valid

INF = 1_000_000
EXACT_DEPTH = 10_000
EXACT, LOWER, UPPER = 0, 1, 2
OUT_BONUS = 1_000_000
PASS_KEY = 0
NO_MOVE = -1

# st: the search's counters and flags
S_NODES = 0
S_HORIZON = 1
S_TOP = 2  # first free pool row
S_NLISTS = 3  # lists in the registry
S_STOP = 4  # 1: out of time, 2: the pool is full, 3: the generator's buffer overflowed
S_CACHE_ROWS = 5  # pool rows below which lists are cached
S_GENERATED = 6  # lists generated
S_DEPTH = 7  # deepest finished iteration
S_EXACT = 8
S_VALUE = 9
S_LINE = 10  # moves in the principal variation
S_STREAK_LIMIT = 11
S_PASSES_RULE = 12
S_MAX_DEPTH = 13
S_FIRST = 14  # the root list's first move (pool row), the answer when no iteration finished
S_STACK = 15  # squares on E[E_STACK]: the tiles placed along the current line
S_REFUTED = 16  # moves failed low by the opponent's way out, without searching them
S_NEAR = 17  # lists of only the moves near the tiles placed since an earlier list (see _node)
S_OPEN = 18  # such lists in use along the line (lists made above one are not cached: it is freed)
S_STEP2 = 19  # from this depth on (0: never), iterations deepen two plies at a time
S_CUT_FIRST = 20  # interior nodes cut off by their first move
S_CUT_LATER = 21  # interior nodes cut off by a later move
S_CUT_SUM = 22  # moves valued before the cutoff, summed over the nodes cut off
S_FULL = 23  # interior nodes that valued all their moves
S_LEAF_HITS = 24  # table hits that decided a node at the depth limit
S_LEAF_SEEN = 25  # table entries found at the depth limit
S_STUCK = 26  # passes proven forced without generating a list (see endgame_gen.stuck)
S_SINGLE = 27  # one-tile positions valued without a list (see endgame_gen.single_best)
S_SIZE = 28

# E: the search's arrays (a tuple; see endgame._search_arrays)
E_GRAPH, E_WORK0, E_WORK, E_OUT, E_PREM = 0, 1, 2, 3, 4  # the move generator's
E_POOL, E_PMH = 5, 6  # move rows, move keys
E_LC, E_LT = 7, 8  # list cache (key, list id), list registry (first row, moves, ways out, rack size)
E_TT = 9  # transposition table: key, best move, value + 2**31 | depth << 32 | flag << 48
E_ZTAB, E_ZR, E_VALS, E_ZS = 10, 11, 12, 13  # Zobrist tables, tile values
E_ST, E_GEO, E_STOP = 14, 15, 16  # counters, (size, start), stop flag
E_STACK, E_MARK = 17, 18  # the squares of the tiles placed along the line; near squares (endgame_gen)
E_PNT = 19  # the tiles each pool row places (its column 0, kept apart for fast scans)
E_PMK = 20  # the tiles each pool row places as a sum of per-tile-kind keys (ways out of a rack: its key)
E_PKM = 21  # the tile kinds each pool row places, a bit each (a rack without one: not legal)
E_HK = 22  # the board key after each height of E[E_STACK] along the line (the root's at 0)
E_PCB = 23  # the squares each pool row needs empty (its chk columns) as bits, 64 squares a word
E_OCC = 24  # the occupied squares of the search's board as bits (kept by _play)
E_XC = 25  # the near generation's cache of cross-checks (see endgame_gen._cross_row_cached)
E_BT, E_MKT, E_CROSS, E_XSUM = 26, 27, 28, 29  # the near generation's buffers (see endgame_gen.gen_near)
E_SI, E_STMP = 30, 31  # _store_list's scratch: int64 rows (see SI_*) and int16 move rows, of the generator's rows
E_TF = 32  # a filter of the keys ever stored in the table, a bit each (see _filter_bit)
E_RK = 33  # each player's rack keys (see RK_*), kept by the search's _play
E_LINE = 34  # the principal variation (added by solve)

STOP_TIME, STOP_POOL, STOP_BUFFER = 1, 2, 3
# the rows of E[E_SI] (2 x the generator's rows each)
SI_EST, SI_HS, SI_KS, SI_KMS, SI_ORDER, SI_SORT, SI_KEEP, SI_OE, SI_SRC, SI_OO, SI_OCC = range(11)
SI_CB = 11  # from this row on, 64 squares a row: the squares to keep empty of each new move as bits
# the columns of E[E_RK]: the rack's keys with the mover's, the other player's and the lists'
# Zobrist tables (E[E_ZR][0..2]), its tile-multiset key (a sum of E[E_ZR][2][kind, 1]) and its
# tile kinds as bits
RK_MOVER, RK_OTHER, RK_LIST, RK_SUM, RK_BITS = 0, 1, 2, 3, 4
LINE_MAX = 40


@nb.njit(cache=CACHE, inline="always")
def _sort_idx(keys, n, idx, tmp):  # type: ignore[no-untyped-def]  # pragma: no cover
    """``idx[:n]``: the indexes of ``keys[:n]`` in increasing order of key, ties in index
    order (a stable sort, like ``np.argsort(kind="mergesort")``); ``tmp``: scratch of ``n``."""
    for i in range(n):
        idx[i] = i
    # insertion sort of runs of 16, then merges of runs two by two
    run = 16
    for lo in range(0, n, run):
        hi = min(lo + run, n)
        for i in range(lo + 1, hi):
            v = idx[i]
            kv = keys[v]
            j = i - 1
            while j >= lo and keys[idx[j]] > kv:
                idx[j + 1] = idx[j]
                j -= 1
            idx[j + 1] = v
    width = run
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            a = lo
            b = mid
            k = lo
            while a < mid and b < hi:
                if keys[idx[b]] < keys[idx[a]]:
                    tmp[k] = idx[b]
                    b += 1
                else:
                    tmp[k] = idx[a]
                    a += 1
                k += 1
            while a < mid:
                tmp[k] = idx[a]
                a += 1
                k += 1
            while b < hi:
                tmp[k] = idx[b]
                b += 1
                k += 1
        for i in range(n):
            idx[i] = tmp[i]
        width *= 2


@nb.njit(cache=CACHE, **NO_REFCOUNT)
def _store_list(E, board, rack, total, n, parent):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Move the generator's ``n`` packed rows into the pool as a list in search order, with
    the still-legal moves of list ``parent`` (-1: none); returns the list's id (-1: the pool
    is full, or -1 with ``st[S_STOP]`` at STOP_BUFFER: the scratch is too small). Nothing is
    allocated: the scratch is ``E[E_SI]`` and ``E[E_STMP]``."""
    out = E[E_OUT]
    si = E[E_SI]
    pool = E[E_POOL]
    pmh = E[E_PMH]
    pnt = E[E_PNT]
    pmk = E[E_PMK]
    pkm = E[E_PKM]
    pcb = E[E_PCB]
    zk = E[E_ZR][2]
    lt = E[E_LT]
    ztab = E[E_ZTAB]
    vals = E[E_VALS]
    st = E[E_ST]
    size = E[E_GEO][0]
    wd, c_sq, c_tl, c_code, c_chk, nchk = _cols(pool)
    top = st[S_TOP]
    # the parent's still-legal moves, in its order (going out, then score + face value: a
    # subsequence of it keeps that order, the ways out of the smaller rack aside)
    n_parent = lt[parent, 1] if parent >= 0 else 0
    nw = pcb.shape[1]
    if n_parent > si.shape[1] or n > E[E_STMP].shape[0]:
        st[S_STOP] = STOP_BUFFER
        return -1
    keep = si[SI_KEEP]
    kept = 0
    kept_out = 0
    if parent >= 0:
        p0 = lt[parent, 0]
        rbits = _rack_bits(rack)
        occ = si[SI_OCC]  # the occupied squares as bits, from the board (a caller may have changed it)
        for w in range(nw):
            occ[w] = 0
        for s in range(board.shape[0]):
            if board[s]:
                occ[s >> 6] |= np.int64(1) << (s & 63)
        for row in range(p0, p0 + n_parent):
            if (pkm[row] & ~rbits) == 0 and _valid(pool, row, pcb, occ, rack):
                keep[kept] = row
                kept += 1
                if pool[row, 0] == total:
                    kept_out += 1
    if top + n + kept > pool.shape[0] or st[S_NLISTS] >= lt.shape[0]:
        st[S_STOP] = STOP_POOL
        return -1
    est = si[SI_EST]
    tmp = E[E_STMP]
    hs = si[SI_HS]
    ks = si[SI_KS]
    kms = si[SI_KMS]
    for i in range(n):
        for cc in range(tmp.shape[1]):
            tmp[i, cc] = -1
        hs[i] = 0
        ks[i] = 0
        kms[i] = 0
        for w in range(nw):
            si[SI_CB + w, i] = 0
        meta = out[i, O_META]
        r0 = meta & 31
        c0 = (meta >> 5) & 31
        down = (meta >> 10) & 1
        ln = (meta >> 11) & 31
        k = 0
        m = 0
        h = np.int64(0)
        p = 0
        bb = META_BLANKS
        for j in range(ln):
            t = (out[i, O_TILES + j // 5] >> (6 * (j % 5))) & 63
            if t == 0:
                continue
            t |= ((meta >> bb) & 1) << 6  # a blank: letter | 64
            bb += 1
            r = r0 + j if down else r0
            c = c0 if down else c0 + j
            s = r * size + c
            tmp[i, c_sq + k] = s
            tmp[i, c_tl + k] = t
            cd = 0 if t & 64 else t
            tmp[i, c_code + k] = cd
            ks[i] += zk[cd, 1]
            kms[i] |= np.int64(1) << cd
            p += vals[cd]
            h ^= ztab[s, t]
            k += 1
            tmp[i, c_chk + m] = s
            m += 1
            # the first empty squares beyond the cross-word through (r, c)
            if down:
                a = c
                base = r * size
                stp = 1
            else:
                a = r
                base = c
                stp = size
            aa = a - 1
            while aa >= 0 and board[base + aa * stp] != 0:
                aa -= 1
            if aa >= 0:
                tmp[i, c_chk + m] = base + aa * stp
                m += 1
            aa = a + 1
            while aa < size and board[base + aa * stp] != 0:
                aa += 1
            if aa < size:
                tmp[i, c_chk + m] = base + aa * stp
                m += 1
        # the squares just before and after the main word
        if down:
            if r0 > 0:
                tmp[i, c_chk + m] = (r0 - 1) * size + c0
                m += 1
            if r0 + ln < size:
                tmp[i, c_chk + m] = (r0 + ln) * size + c0
                m += 1
        else:
            if c0 > 0:
                tmp[i, c_chk + m] = r0 * size + c0 - 1
                m += 1
            if c0 + ln < size:
                tmp[i, c_chk + m] = r0 * size + c0 + ln
                m += 1
        for j in range(m):
            c = tmp[i, c_chk + j]
            si[SI_CB + (c >> 6), i] |= np.int64(1) << (c & 63)
        sc = out[i, O_SCORE]
        tmp[i, 0] = k
        tmp[i, 1] = sc
        tmp[i, 2] = p
        hs[i] = h
        est[i] = -(OUT_BONUS + sc) if k == total else -(sc + p)
    order = si[SI_ORDER]
    _sort_idx(est, n, order, si[SI_SORT])
    new_out = 0
    while new_out < n and tmp[order[new_out], 0] == total:
        new_out += 1
    nout = new_out + kept_out
    # the ways out by score: the new ones (sorted) and the parent's (by score here)
    if kept_out:
        oe = si[SI_OE]
        src = si[SI_SRC]  # >= 0: a pool row; < 0: -1 - the new move's index
        j = 0
        for i in range(new_out):
            oe[j] = est[order[i]]
            src[j] = -1 - order[i]
            j += 1
        for i in range(kept):
            row = keep[i]
            if pool[row, 0] == total:
                oe[j] = -(OUT_BONUS + pool[row, 1])
                src[j] = row
                j += 1
        oo = si[SI_OO]
        _sort_idx(oe, nout, oo, si[SI_SORT])
        for i in range(nout):
            o = src[oo[i]]
            if o >= 0:
                for cc in range(pool.shape[1]):
                    pool[top + i, cc] = pool[o, cc]
                pmh[top + i] = pmh[o]
                pnt[top + i] = pnt[o]
                pmk[top + i] = pmk[o]
                pkm[top + i] = pkm[o]
                for cc in range(pcb.shape[1]):
                    pcb[top + i, cc] = pcb[o, cc]
            else:
                for cc in range(pool.shape[1]):
                    pool[top + i, cc] = tmp[-1 - o, cc]
                pmh[top + i] = hs[-1 - o]
                pnt[top + i] = tmp[-1 - o, 0]
                pmk[top + i] = ks[-1 - o]
                pkm[top + i] = kms[-1 - o]
                for w in range(nw):
                    pcb[top + i, w] = si[SI_CB + w, -1 - o]
    else:
        for i in range(new_out):
            for cc in range(pool.shape[1]):
                pool[top + i, cc] = tmp[order[i], cc]
            pmh[top + i] = hs[order[i]]
            pnt[top + i] = tmp[order[i], 0]
            pmk[top + i] = ks[order[i]]
            pkm[top + i] = kms[order[i]]
            for w in range(nw):
                pcb[top + i, w] = si[SI_CB + w, order[i]]
    # the other moves: the new ones and the parent's, merged by score + face value
    i = top + nout
    a = new_out
    b = 0
    while True:
        while b < kept and pool[keep[b], 0] == total:
            b += 1
        # the next new move while it is estimated at least as good as the next kept one
        if a < n and (b >= kept or est[order[a]] <= -(pool[keep[b], 1] + pool[keep[b], 2])):
            for cc in range(pool.shape[1]):
                pool[i, cc] = tmp[order[a], cc]
            pmh[i] = hs[order[a]]
            pnt[i] = tmp[order[a], 0]
            pmk[i] = ks[order[a]]
            pkm[i] = kms[order[a]]
            for w in range(nw):
                pcb[i, w] = si[SI_CB + w, order[a]]
            a += 1
        elif b < kept:
            row = keep[b]
            for cc in range(pool.shape[1]):
                pool[i, cc] = pool[row, cc]
            pmh[i] = pmh[row]
            pnt[i] = pnt[row]
            pmk[i] = pmk[row]
            pkm[i] = pkm[row]
            for cc in range(pcb.shape[1]):
                pcb[i, cc] = pcb[row, cc]
            b += 1
        else:
            break
        i += 1
    n += kept
    lid = st[S_NLISTS]
    lt[lid, 0] = top
    lt[lid, 1] = n
    lt[lid, 2] = nout
    lt[lid, 3] = total
    lt[lid, 6] = -1  # no way out looked up yet (see _best_out)
    st[S_NLISTS] = lid + 1
    st[S_TOP] = top + n
    return lid
