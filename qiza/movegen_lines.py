"""The best-only search of one rack on boards that differ from a base board in a few lines.

A simulation (:mod:`qiza.players.sim_nb`) searches, in every iteration, the opponent's best reply
with one rack on the boards after each candidate move. A candidate changes only a few lines
(rows and columns) of the board: its own, and those where its tiles change what the squares
accept (the cross-checks), where anchors appear. Every other line is searched exactly as on the
board before it. So the anchors of the base board are bounded once (:func:`base_anchors`) and
searched lazily, each at most once (the first time a candidate needs its best play), and on each
candidate's board only its changed lines (:func:`changed_lines`) are searched, with the best play
of the unchanged lines as the score to reach (:func:`best_changed`).

The result is the play :func:`qiza.movegen._generate` finds on the candidate's board, to the
tie: the full search takes the anchors in decreasing order of their bound, ties in board order
(across lines first, row by row, then down lines), and keeps the first play of the best
equity; that is the play of the best (equity, anchor bound, earlier line) here, since a line's
anchors, bounds and plays depend only on the line (its tiles, cross-checks and premiums).
``tests/test_movegen_lines.py`` checks that on many positions.

Measured in the rollouts of ``benchmarks/sim.py`` (about 7 candidates): 60 us a reply against
120 for the full search. The cache pays when several boards share a rack; with two or three it
costs about what their full searches do.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE
from qiza.movegen_best import _bingo_mask, _row_sums, _shadow, rack_terms, search_anchors, sort_anchors
from qiza.movegen_bingo import BW_ON, BW_SIZE, bingo_init
from qiza.movegen_search import (
    MAX_RACK,
    MAX_SIZE,
    O_WIDTH,
    P_BBONUS,
    P_BEST,
    P_BLANKS0,
    P_BMIN,
    P_HASLEAVE,
    P_HAVEBEST,
    P_KINDS,
    P_MAXLEAVE,
    W_LEAVE,
    W_RACK,
    W_VAL,
    _cross,
    _is_anchor,
)


@nb.njit(cache=CACHE, nogil=True)
def changed_lines(base, board, size, aff):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Mark in ``aff`` (``2 * size`` flags: the rows, then the columns) the lines whose search on
    ``board`` (``base`` with tiles added) may differ from that on ``base``: the lines of the
    added tiles, and the lines of the empty squares at the ends of the words they are part of
    (whose cross-checks change)."""
    aff[:] = False
    for sq in range(size * size):
        if board[sq] == base[sq]:
            continue
        r = sq // size
        c = sq - r * size
        aff[r] = True
        aff[size + c] = True
        top = r
        while top > 0 and board[(top - 1) * size + c] != 0:
            top -= 1
        bot = r
        while bot + 1 < size and board[(bot + 1) * size + c] != 0:
            bot += 1
        if top > 0:
            aff[top - 1] = True
        if bot + 1 < size:
            aff[bot + 1] = True
        left = c
        while left > 0 and board[r * size + left - 1] != 0:
            left -= 1
        right = c
        while right + 1 < size and board[r * size + right + 1] != 0:
            right += 1
        if left > 0:
            aff[size + left - 1] = True
        if right + 1 < size:
            aff[size + right + 1] = True


@nb.njit(cache=CACHE, nogil=True)
def board_letters(board):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The mask of the letters on a board (the bingo test's, :func:`qiza.movegen_best._bingo_mask`)."""
    mask = 0
    for i in range(board.shape[0]):
        if board[i] != 0:
            mask |= 1 << (board[i] & 63)
    return mask


@nb.njit(cache=CACHE, nogil=True)
def cross_sets(g, board, size, val, cross, xsum):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The cross-checks and cross-sums of a board (``cross[0]``, ``xsum[0]``) and of its transpose
    (``[1]``), as the best-only search computes them; returns the transpose."""
    b = board.reshape((size, size))
    bt = np.ascontiguousarray(b.T)
    _cross(g, b, size, cross[0], xsum[0], val)
    _cross(g, bt, size, cross[1], xsum[1], val)
    return bt


@nb.njit(cache=CACHE, nogil=True)
def bingo_mask(anag, w, nr, letters):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The bingo mask of the rack of ``w`` on a board with ``letters`` (:func:`qiza.movegen_best._bingo_mask`;
    -1, every span allowed, unless the rack has as many tiles as a bingo)."""
    if nr != w[P_BMIN]:
        return -1
    return _bingo_mask(anag, w, letters)


@nb.njit(cache=CACHE, nogil=True)
def line_anchors(bb, r, d, crossd, xsumd, lmx, wmx, w, rvals, nr, rbits, eff, bingo, lvb, scratch,  # type: ignore[no-untyped-def]  # pragma: no cover
                 n, ad, ar, ac, ap, bounds, tabs, lvbb, split):
    """Append the anchors of row ``r`` of ``bb`` (a board that is not empty, or its transpose:
    direction ``d``) with their bounds (:func:`qiza.movegen_best._shadow`); returns the new count."""
    size = bb.shape[0]
    nk = w[P_KINDS]
    val = w[W_VAL:W_VAL + nk]
    bmin = w[P_BMIN]
    bbonus = w[P_BBONUS]
    prev = -1
    sums = False
    for c in range(size):
        if bb[r, c] != 0:
            continue
        if not _is_anchor(bb, r, c, False, 0):
            continue
        if crossd[r, c] & eff:
            if not sums:
                _row_sums(bb, r, val, scratch)
                sums = True
            ad[n] = d
            ar[n] = r
            ac[n] = c
            ap[n] = prev
            bounds[n] = _shadow(bb, r, c, prev, crossd, xsumd, lmx, wmx, val, rvals, nr, eff, rbits, bmin, bbonus,
                                bingo, lvb, scratch, tabs[n], lvbb, split)
            n += 1
        prev = c
    return n


# a cache's ``terms``: the rack's (set by set_rack), the base board's anchors (by base_anchors)
T_NR = 0
T_RBITS = 1
T_EFF = 2
T_BINGO = 3
T_ANCHORS = 4


@nb.njit(cache=CACHE, nogil=True)
def new_cache(size):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The arrays of a cache of ``size`` x ``size`` boards (for :func:`set_rack`,
    :func:`base_anchors` and :func:`best_changed`): the base board's anchors (rows: direction,
    row, column, previous anchor), their bounds and span bounds, each anchor's best play (rows:
    known, found, equity), the anchors by decreasing bound, each anchor's best play's packed row;
    the same anchor arrays for a changed board and an order of them; the bounds' scratch rows;
    the rack's tile values, leave bounds, ``T_*`` terms, leave bounds of the plays with a blank
    and words (:func:`qiza.movegen_bingo.bingo_init`). (Uninitialised: each is written before it
    is read.)"""
    cap = 2 * size * size
    tab = (3, MAX_RACK + 1, MAX_RACK + 2)
    return (np.empty((4, cap), np.int64), np.empty(cap, np.int64), np.empty((cap, *tab), np.int32),
            np.empty((3, cap), np.int64), np.empty(cap, np.int64), np.empty((cap, O_WIDTH), np.int32),
            np.empty((4, cap), np.int64), np.empty(cap, np.int64), np.empty((cap, *tab), np.int32),
            np.empty(cap, np.int64), np.empty((7, MAX_SIZE + 1), np.int64), np.empty(MAX_RACK, np.int64),
            np.empty(MAX_RACK + 1, np.int64), np.empty(5, np.int64), np.empty(MAX_RACK + 1, np.int64),
            np.empty(BW_SIZE, np.int64))


@nb.njit(cache=CACHE, nogil=True)
def set_max_leave(w):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The largest leave value of the rack of ``w`` (as :func:`qiza.movegen._generate` sets it)."""
    if w[P_HASLEAVE] == 1:
        nk = w[P_KINDS]
        ml = 0
        for t in range(nk):
            if w[W_LEAVE + t] > 0:
                ml += w[W_RACK + t] * w[W_LEAVE + t]
        w[P_MAXLEAVE] = ml


@nb.njit(cache=CACHE, nogil=True)
def set_rack(anag, w, template, rack, letters, cache):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Make ``w`` the work array of a best-only search of ``rack`` (from ``template``) and set the
    cache's rack terms, the bingo mask that of a board with ``letters`` (the base board)."""
    rvals = cache[11]
    lvb = cache[12]
    terms = cache[13]
    lvbb = cache[14]
    w[:] = template
    for t in range(rack.shape[0]):
        w[W_RACK + t] = rack[t]
    w[P_BLANKS0] = rack[0]
    set_max_leave(w)
    nr, rbits, eff = rack_terms(w, rvals, lvb, lvbb)
    terms[T_NR] = nr
    terms[T_RBITS] = rbits
    terms[T_EFF] = eff
    terms[T_BINGO] = bingo_mask(anag, w, nr, letters)
    bingo_init(anag, w, nr, cache[15])


@nb.njit(cache=CACHE, nogil=True)
def base_anchors(b, bt, cross, xsum, prem, w, cache):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Fill the cache of base board ``b`` (not empty; transpose ``bt``, cross-checks
    ``cross``/``xsum``) for the rack of ``w`` (:func:`set_rack`): the anchors of every line with
    their bounds, in the order of the full search, no anchor's best play known yet."""
    anchors, bounds, tabs, state, order = cache[0], cache[1], cache[2], cache[3], cache[4]
    scratch, rvals, lvb, terms, lvbb = cache[10], cache[11], cache[12], cache[13], cache[14]
    nr, rbits, eff, bingo = terms[T_NR], terms[T_RBITS], terms[T_EFF], terms[T_BINGO]
    split = cache[15][BW_ON] != 0
    size = b.shape[0]
    n = 0
    for d in range(2):
        bb = b if d == 0 else bt
        lmx = prem[0] if d == 0 else prem[2]
        wmx = prem[1] if d == 0 else prem[3]
        for r in range(size):
            n = line_anchors(bb, r, d, cross[d], xsum[d], lmx, wmx, w, rvals, nr, rbits, eff, bingo, lvb, scratch,
                             n, anchors[0], anchors[1], anchors[2], anchors[3], bounds, tabs, lvbb, split)
    for i in range(n):
        order[i] = i
        state[0, i] = 0
    sort_anchors(bounds, order, n)
    terms[T_ANCHORS] = n


@nb.njit(cache=CACHE, nogil=True)
def best_changed(g, anag, w, out, b, bt, cross, xsum, bc, bct, crossc, xsumc, aff, letters, prem, cache):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The best play of the rack of ``w`` on board ``bc`` (transpose ``bct``, cross-checks
    ``crossc``/``xsumc``, ``letters`` on it): the base board ``b`` of the cache (filled by
    :func:`base_anchors`; the best plays of its anchors are found here as needed) with the lines
    ``aff`` changed (:func:`changed_lines`). Returns whether there is a play; it is then
    ``out[0]``."""
    anchors, bounds, tabs, state, order, arow = cache[0], cache[1], cache[2], cache[3], cache[4], cache[5]
    canchors, cbounds, ctabs, corder = cache[6], cache[7], cache[8], cache[9]
    scratch, rvals, lvb, terms, lvbb, bw = cache[10], cache[11], cache[12], cache[13], cache[14], cache[15]
    nr, rbits, eff = terms[T_NR], terms[T_RBITS], terms[T_EFF]
    if nr == 0:
        return False
    size = b.shape[0]
    bingo = bingo_mask(anag, w, nr, letters)
    split = bw[BW_ON] != 0
    every = (bingo < 0) != (terms[T_BINGO] < 0)  # (a 63-letter alphabet) the bounds of every line may differ
    # the best play of the unchanged lines: their anchors in the full search's order, each one's
    # best play found once (the first to beat the best so far wins a tie, as there)
    ue = 0
    ubd = 0
    uline = -1
    ubest = -1
    for k in range(0 if every else terms[T_ANCHORS]):
        i = order[k]
        if uline >= 0 and bounds[i] <= ue:
            break
        line = anchors[0, i] * size + anchors[1, i]
        if aff[line]:
            continue
        if not state[0, i]:
            w[P_HAVEBEST] = 0
            w[P_BEST] = 0
            found = search_anchors(g, w, out, b, bt, cross, xsum, prem[0], prem[1], prem[2], prem[3], nr, rbits,
                                   anchors[0], anchors[1], anchors[2], anchors[3], bounds, tabs, order[k:], 1, anag, bw)
            state[0, i] = 1
            state[1, i] = found >= 0
            if found >= 0:
                state[2, i] = w[P_BEST]
                for x in range(O_WIDTH):
                    arow[i, x] = out[0, x]
        if state[1, i] and (uline < 0 or state[2, i] > ue):
            ue = state[2, i]
            ubd = bounds[i]
            uline = line
            ubest = i
    # the changed lines of the candidate's board, their anchors that can beat (or tie) that play
    n = 0
    for line in range(2 * size):
        if not (aff[line] or every):
            continue
        d = 0 if line < size else 1
        r = line - d * size
        bb = bc if d == 0 else bct
        lmx = prem[0] if d == 0 else prem[2]
        wmx = prem[1] if d == 0 else prem[3]
        n = line_anchors(bb, r, d, crossc[d], xsumc[d], lmx, wmx, w, rvals, nr, rbits, eff, bingo, lvb, scratch,
                         n, canchors[0], canchors[1], canchors[2], canchors[3], cbounds, ctabs, lvbb, split)
    m = 0
    for i in range(n):
        if uline < 0 or cbounds[i] >= ue:
            corder[m] = i
            m += 1
    sort_anchors(cbounds, corder, m)
    w[P_HAVEBEST] = 0
    w[P_BEST] = 0
    if uline >= 0:  # a play of equity ue is there: the changed lines must reach it
        w[P_HAVEBEST] = 1
        w[P_BEST] = ue - 1
    found = search_anchors(g, w, out, bc, bct, crossc, xsumc, prem[0], prem[1], prem[2], prem[3], nr, rbits,
                           canchors[0], canchors[1], canchors[2], canchors[3], cbounds, ctabs, corder, m, anag, bw)
    if found >= 0:
        e = w[P_BEST]
        if uline < 0 or e > ue:
            return True
        line = canchors[0, found] * size + canchors[1, found]
        bd = cbounds[found]
        if bd > ubd or (bd == ubd and line < uline):
            return True
    if uline < 0:
        return False
    for x in range(O_WIDTH):
        out[0, x] = arow[ubest, x]
    return True


@nb.njit(cache=CACHE, nogil=True)
def best_replies(g, anag, template, prem, base, boards, rack, result):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The best play of ``rack`` on each of ``boards`` (``base``, not empty, with tiles added),
    with the line cache: ``result[i]`` the packed row (:mod:`qiza.movegen`) and in its last
    column 1 when there is a play, as :meth:`qiza.movegen.MoveGenerator.best_many` gives them
    (``template``: the work array of a best-only search with leave values)."""
    size = int(np.sqrt(base.shape[0]) + 0.5)
    nk = template[P_KINDS]
    val = template[W_VAL:W_VAL + nk]
    cache = new_cache(size)
    w = np.empty_like(template)
    set_rack(anag, w, template, rack, board_letters(base), cache)
    out = np.zeros((1, O_WIDTH), np.int32)
    cross = np.empty((2, size, size), np.int64)
    xsum = np.empty((2, size, size), np.int32)
    b = base.reshape((size, size))
    bt = cross_sets(g, base, size, val, cross, xsum)
    base_anchors(b, bt, cross, xsum, prem, w, cache)
    crossc = np.empty((2, size, size), np.int64)
    xsumc = np.empty((2, size, size), np.int32)
    aff = np.zeros(2 * size, np.bool_)
    for i in range(boards.shape[0]):
        bct = cross_sets(g, boards[i], size, val, crossc, xsumc)
        changed_lines(base, boards[i], size, aff)
        result[i, O_WIDTH] = 0
        if best_changed(g, anag, w, out, b, bt, cross, xsum, boards[i].reshape((size, size)), bct, crossc, xsumc, aff,
                        board_letters(boards[i]), prem, cache):
            for x in range(O_WIDTH):
                result[i, x] = out[0, x]
            result[i, O_WIDTH] = 1
