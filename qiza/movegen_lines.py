"""The best-only search of one rack on boards that differ from a base board in a few lines.

A simulation (:mod:`qiza.players.sim_nb`) searches, in every iteration, the opponent's best reply
with one rack on the boards after each candidate move. A candidate changes only a few lines
(rows and columns) of the board: its own, and those where its tiles change what the squares
accept (the cross-checks), where anchors appear. Every other line is searched exactly as on the
board before it. So the base board is searched once, line by line and lazily (a line's best
play is found the first time a candidate needs it), and on each candidate's board only its
changed lines (:func:`changed_lines`) are searched, with the best play of the unchanged lines as
the score to beat.

The result is the play :func:`qiza.movegen._generate` finds on the candidate's board, to the
tie: the full search takes the anchors in decreasing order of their bound, ties in board order
(across lines first, row by row, then down lines), and keeps the first play of the best
equity; that is the play of the best (equity, anchor bound, earlier line) here, since a line's
anchors, bounds and plays depend only on the line (its tiles, cross-checks and premiums).
``tests/test_movegen_lines.py`` checks that on many positions.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE
from qiza.movegen_best import _bingo_mask, _insert_desc, _row_sums, _shadow
from qiza.movegen_search import (
    ALL_LETTERS,
    MAX_RACK,
    MAX_SIZE,
    NO_BOUND,
    O_WIDTH,
    P_ANCHOR,
    P_BBONUS,
    P_BEST,
    P_BLANKS0,
    P_BMIN,
    P_DIR,
    P_HASLEAVE,
    P_HAVEBEST,
    P_KINDS,
    P_MAXLEAVE,
    P_PREV,
    P_ROWIDX,
    TAB_W,
    W_CROSS,
    W_LEAVE,
    W_LM,
    W_LVB,
    W_PLACED,
    W_RACK,
    W_ROW,
    W_TAB,
    W_VAL,
    W_WM,
    W_XSUM,
    _cross,
    _is_anchor,
    _ptr,
    _rec,
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
def rack_terms(w, rvals, lvb):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The rack's terms of the anchors' bounds, as :func:`qiza.movegen_best._generate_best` sets
    them: ``rvals`` (tile values, descending) and ``lvb`` (best leave by tiles played) filled;
    returns (tiles on the rack, rack letters mask, letters it can place)."""
    nk = w[P_KINDS]
    rbits = 0
    for t in range(1, nk):
        if w[W_RACK + t] > 0:
            rbits |= 1 << t
    eff = rbits
    if w[W_RACK] > 0:
        eff = ALL_LETTERS
    nr = 0
    rvals[:] = 0
    for t in range(nk):
        for _ in range(w[W_RACK + t]):
            v = 0 if t == 0 else w[W_VAL + t]
            j = nr
            while j > 0 and rvals[j - 1] < v:
                rvals[j] = rvals[j - 1]
                j -= 1
            rvals[j] = v
            nr += 1
    lvb[:] = 0
    if w[P_HASLEAVE] == 2:
        for n_played in range(1, nr + 1):
            lvb[n_played] = w[W_LVB + n_played]
    elif w[P_HASLEAVE]:
        lv = np.zeros(MAX_RACK, np.int64)
        m = 0
        for t in range(nk):
            for _ in range(w[W_RACK + t]):
                m = _insert_desc(lv, m, w[W_LEAVE + t])
        for n_played in range(1, nr + 1):
            for j in range(nr - n_played):
                lvb[n_played] += lv[j]
    return nr, rbits, eff


@nb.njit(cache=CACHE, nogil=True)
def bingo_mask(anag, w, nr, letters):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The bingo mask of the rack of ``w`` on a board with ``letters`` (-1 unless the whole rack is a bingo)."""
    if nr != w[P_BMIN]:
        return -1
    return _bingo_mask(anag, w, letters)


@nb.njit(cache=CACHE, nogil=True)
def line_anchors(bb, r, d, crossd, xsumd, lmx, wmx, w, rvals, nr, rbits, eff, bingo, lvb, scratch,  # type: ignore[no-untyped-def]  # pragma: no cover
                 n, ad, ar, ac, ap, bounds, tabs):
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
                                bingo, lvb, scratch, tabs[n])
            n += 1
        prev = c
    return n


@nb.njit(cache=CACHE, nogil=True)
def sort_anchors(bounds, idx, n):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Sort ``idx[:n]`` by decreasing bound, ties kept in order (the full search's order)."""
    for i in range(1, n):
        v = idx[i]
        j = i
        while j > 0 and bounds[idx[j - 1]] < bounds[v]:
            idx[j] = idx[j - 1]
            j -= 1
        idx[j] = v


@nb.njit(cache=CACHE, nogil=True)
def search_anchors(g, w, out, b, bt, cross, xsum, prem, nr, rbits, ad, ar, ac, ap, bounds, tabs, order, n):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Search the anchors ``order[:n]`` (by decreasing bound) as the best-only search does,
    from the best of ``w`` on entry; returns the anchor where the best play was found (-1: none
    beat the best on entry)."""
    size = b.shape[0]
    root = g[1]
    lastrow = -1
    lastdir = -1
    found = -1
    for oi in range(n):
        i = order[oi]
        if w[P_HAVEBEST] and bounds[i] <= w[P_BEST]:
            break
        d = ad[i]
        r = ar[i]
        c = ac[i]
        if r != lastrow or d != lastdir:
            bb = b if d == 0 else bt
            lmx = prem[0] if d == 0 else prem[2]
            wmx = prem[1] if d == 0 else prem[3]
            for x in range(size):
                w[W_ROW + x] = bb[r, x]
                w[W_CROSS + x] = cross[d, r, x]
                w[W_XSUM + x] = xsum[d, r, x]
                w[W_LM + x] = lmx[r * size + x]
                w[W_WM + x] = wmx[r * size + x]
                w[W_PLACED + x] = 0
            w[P_ROWIDX] = r
            w[P_DIR] = d
            lastrow = r
            lastdir = d
        w[P_ANCHOR] = c
        w[P_PREV] = ap[i]
        tab = tabs[i]
        for x in range(nr + 1):  # the part _rec reads (see _shadow)
            for y in range(nr + 1):
                w[W_TAB + x * TAB_W + y] = tab[x, y]
            w[W_TAB + x * TAB_W + MAX_RACK + 1] = tab[x, MAX_RACK + 1]
        had = w[P_HAVEBEST]
        before = w[P_BEST]
        _rec(_ptr(g), _ptr(w), _ptr(out), c, root, g[3], 0, 1, 0, 0, c, rbits)
        if w[P_HAVEBEST] and (not had or w[P_BEST] > before):
            found = i
    return found


@nb.njit(cache=CACHE, nogil=True)
def base_lines(b, bt, cross, xsum, prem, w, rvals, nr, rbits, eff, bingo, lvb, scratch,  # type: ignore[no-untyped-def]  # pragma: no cover
               ad, ar, ac, ap, bounds, tabs, lo, hi, ub, lorder, known):
    """Fill the line cache of base board ``b`` for the rack of ``w``: every line's anchors and
    bounds, the lines by decreasing best bound, no line's best play known yet."""
    size = b.shape[0]
    n = 0
    for d in range(2):
        bb = b if d == 0 else bt
        lmx = prem[0] if d == 0 else prem[2]
        wmx = prem[1] if d == 0 else prem[3]
        for r in range(size):
            line = d * size + r
            lo[line] = n
            n = line_anchors(bb, r, d, cross[d], xsum[d], lmx, wmx, w, rvals, nr, rbits, eff, bingo, lvb, scratch,
                             n, ad, ar, ac, ap, bounds, tabs)
            hi[line] = n
            top = NO_BOUND
            for i in range(lo[line], n):
                if bounds[i] > top:
                    top = bounds[i]
            ub[line] = top
            lorder[line] = line
            known[line] = 0
    sort_anchors(ub, lorder, 2 * size)


@nb.njit(cache=CACHE, nogil=True)
def best_changed(g, w, out, b, bt, cross, xsum, bc, bct, crossc, xsumc, aff, prem, rvals, nr, rbits, eff,  # type: ignore[no-untyped-def]  # pragma: no cover
                 bingo_c, lvb, scratch, ad, ar, ac, ap, bounds, tabs, lo, hi, ub, lorder, known, lbest, lrow,
                 cd, cr, cc, cp, cbounds, ctabs, corder):
    """The best play of the rack of ``w`` on board ``bc`` (transpose ``bct``, cross-checks
    ``crossc``/``xsumc``): base board ``b`` (its line cache filled by :func:`base_lines`, the
    best plays of its lines found here as needed) with the lines ``aff`` changed. Returns whether
    there is a play; it is then ``out[0]``. ``w`` holds the rack; its best is reset here."""
    size = b.shape[0]
    # the best play of the unchanged lines, from the base board's lines by decreasing bound
    ue = 0
    ubd = 0
    uline = -1
    for k in range(2 * size):
        line = lorder[k]
        top = ub[line]
        if hi[line] == lo[line] or (uline >= 0 and top < ue):
            break
        if aff[line]:
            continue
        if not known[line]:
            w[P_HAVEBEST] = 0
            w[P_BEST] = 0
            m = hi[line] - lo[line]
            for i in range(m):
                corder[i] = lo[line] + i
            sort_anchors(bounds, corder, m)
            found = search_anchors(g, w, out, b, bt, cross, xsum, prem, nr, rbits, ad, ar, ac, ap, bounds, tabs,
                                   corder, m)
            known[line] = 1
            lbest[line, 0] = -1
            if found >= 0:
                lbest[line, 0] = 1
                lbest[line, 1] = w[P_BEST]
                lbest[line, 2] = bounds[found]
                for x in range(O_WIDTH):
                    lrow[line, x] = out[0, x]
        if lbest[line, 0] > 0:
            e = lbest[line, 1]
            bd = lbest[line, 2]
            if uline < 0 or e > ue or (e == ue and (bd > ubd or (bd == ubd and line < uline))):
                ue = e
                ubd = bd
                uline = line
    # the changed lines of the candidate's board, their anchors that can beat (or tie) that play
    n = 0
    for line in range(2 * size):
        if not aff[line]:
            continue
        d = 0 if line < size else 1
        r = line - d * size
        bb = bc if d == 0 else bct
        lmx = prem[0] if d == 0 else prem[2]
        wmx = prem[1] if d == 0 else prem[3]
        n = line_anchors(bb, r, d, crossc[d], xsumc[d], lmx, wmx, w, rvals, nr, rbits, eff, bingo_c, lvb, scratch,
                         n, cd, cr, cc, cp, cbounds, ctabs)
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
    found = search_anchors(g, w, out, bc, bct, crossc, xsumc, prem, nr, rbits, cd, cr, cc, cp, cbounds, ctabs,
                           corder, m)
    if found >= 0:
        e = w[P_BEST]
        if uline < 0 or e > ue:
            return True
        line = cd[found] * size + cr[found]
        bd = cbounds[found]
        if bd > ubd or (bd == ubd and line < uline):
            return True
    if uline < 0:
        return False
    for x in range(O_WIDTH):
        out[0, x] = lrow[uline, x]
    return True


@nb.njit(cache=CACHE, nogil=True)
def new_cache(size):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The arrays of a line cache of ``size`` x ``size`` boards: the base board's anchors
    (direction, row, column, previous anchor), bounds and span bounds; per line ``d * size + r``
    its anchors (``lines[0]:lines[1]``), best bound, the lines by that bound, whether its best
    play is known (``lines[2:5]``), that play's (found, equity, anchor bound) and packed row; the
    same anchor arrays for a candidate's changed lines, an order, and the bounds' scratch rows."""
    cap = 2 * size * size
    return (np.zeros((4, cap), np.int64), np.zeros(cap, np.int64),
            np.zeros((cap, MAX_RACK + 1, MAX_RACK + 2), np.int32), np.zeros((5, 2 * size), np.int64),
            np.zeros((2 * size, 3), np.int64), np.zeros((2 * size, O_WIDTH), np.int32),
            np.zeros((4, cap), np.int64), np.zeros(cap, np.int64),
            np.zeros((cap, MAX_RACK + 1, MAX_RACK + 2), np.int32), np.zeros(cap, np.int64),
            np.empty((7, MAX_SIZE + 1), np.int64))


@nb.njit(cache=CACHE, nogil=True)
def best_replies(g, anag, template, prem, base, boards, rack, result):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The best play of ``rack`` on each of ``boards`` (``base``, not empty, with tiles added),
    with the line cache: ``result[i]`` the packed row (:mod:`qiza.movegen`) and in its last
    column 1 when there is a play, as :meth:`qiza.movegen.MoveGenerator.best_many` gives them
    (``template``: the work array of a best-only search with leave values)."""
    size = int(np.sqrt(base.shape[0]) + 0.5)
    nk = template[P_KINDS]
    val = template[W_VAL:W_VAL + nk]
    (anchors, bounds, tabs, lines, lbest, lrow, canchors, cbounds, ctabs, corder, scratch) = new_cache(size)
    w = template.copy()
    for t in range(nk):
        w[W_RACK + t] = rack[t]
    w[P_BLANKS0] = rack[0]
    set_max_leave(w)
    out = np.zeros((1, O_WIDTH), np.int32)
    rvals = np.zeros(MAX_RACK, np.int64)
    lvb = np.zeros(MAX_RACK + 1, np.int64)
    nr, rbits, eff = rack_terms(w, rvals, lvb)
    cross = np.empty((2, size, size), np.int64)
    xsum = np.empty((2, size, size), np.int32)
    b = base.reshape((size, size))
    bt = cross_sets(g, base, size, val, cross, xsum)
    bingo = bingo_mask(anag, w, nr, board_letters(base))
    base_lines(b, bt, cross, xsum, prem, w, rvals, nr, rbits, eff, bingo, lvb, scratch, anchors[0], anchors[1],
               anchors[2], anchors[3], bounds, tabs, lines[0], lines[1], lines[2], lines[3], lines[4])
    crossc = np.empty((2, size, size), np.int64)
    xsumc = np.empty((2, size, size), np.int32)
    aff = np.zeros(2 * size, np.bool_)
    for i in range(boards.shape[0]):
        bc = boards[i].reshape((size, size))
        bct = cross_sets(g, boards[i], size, val, crossc, xsumc)
        changed_lines(base, boards[i], size, aff)
        bingo_c = bingo_mask(anag, w, nr, board_letters(boards[i]))
        if (bingo_c < 0) != (bingo < 0):  # (a 63-letter alphabet) the bounds of every line may differ
            aff[:] = True
        result[i, O_WIDTH] = 0
        if nr and best_changed(g, w, out, b, bt, cross, xsum, bc, bct, crossc, xsumc, aff, prem, rvals, nr, rbits,
                               eff, bingo_c, lvb, scratch, anchors[0], anchors[1], anchors[2], anchors[3], bounds,
                               tabs, lines[0], lines[1], lines[2], lines[3], lines[4], lbest, lrow, canchors[0],
                               canchors[1], canchors[2], canchors[3], cbounds, ctabs, corder):
            for x in range(O_WIDTH):
                result[i, x] = out[0, x]
            result[i, O_WIDTH] = 1


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
