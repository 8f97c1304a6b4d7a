"""Best-only move generation (:meth:`qiza.movegen.MoveGenerator.best`): the search of
:mod:`qiza.movegen_search` with score bounds.

A "shadow" pass first bounds the equity of every anchor's plays, pairing the rack's
tile values with the squares' score coefficients for every span the rack can cover
(and the best leave for the number of tiles played). The anchors are searched in
decreasing order of bound; the search stops when no remaining bound can beat the
best play found, and prunes continuations inside an anchor the same way. A table
of the letter multisets of the words of 7 and 8 letters tells where a bingo is
possible at all.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE
from qiza.movegen_bingo import BW_ON, BW_SIZE, UNKNOWN, _has_key, _letter_keys, bingo_init, span_bingo
from qiza.movegen_search import (
    ALL_LETTERS,
    MAX_RACK,
    MAX_SIZE,
    NO_BOUND,
    P_BBONUS,
    P_BEST,
    P_BLANKS0,
    P_BMIN,
    P_DIR,
    P_HASLEAVE,
    P_HAVEBEST,
    P_KINDS,
    P_ROWIDX,
    P_SIZE,
    TAB_W,
    W_CROSS,
    W_LEAVE,
    W_LM,
    W_LVB,
    W_PLACED,
    W_RACK,
    W_RADIX,
    W_ROW,
    W_SUB,
    W_TAB,
    W_TABB,
    W_VAL,
    W_WM,
    W_XSUM,
    _cross,
    _ctz,
    _is_anchor,
    search_anchor,
)


@nb.njit(cache=CACHE)
def _bingo_mask(table, w, boardmask):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Bit 0: the whole rack is a word; bit x: the whole rack plus letter x (of ``boardmask``) is a word.

    -1 (everything allowed) when the rack has two or more blanks; with one blank, bit 0
    is exact and every letter of ``boardmask`` is allowed.
    """
    keys = _letter_keys()
    blanks = w[W_RACK]
    if blanks >= 2 or table.shape[0] < 2:
        return -1
    key = np.int64(0)
    nk = w[P_KINDS]
    for t in range(1, nk):
        key += w[W_RACK + t] * keys[t]
    if blanks == 1:
        for x in range(1, nk):
            if _has_key(table, key + keys[x]):
                return boardmask | 1
        return boardmask
    result = 1 if _has_key(table, key) else 0
    m = boardmask & ALL_LETTERS
    while m:
        x = _ctz(m)
        m &= m - 1
        if _has_key(table, key + keys[x]):
            result |= 1 << x
    return result


@nb.njit(cache=CACHE, inline="always")
def _cap(allowed, nat, val):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The largest value of the rack's letters ``nat`` allowed by a cross-check (0: only a blank fits)."""
    m = allowed & nat
    best = 0
    while m:
        t = _ctz(m)
        m &= m - 1
        if val[t] > best:
            best = val[t]
    return best


@nb.njit(cache=CACHE, inline="always")
def _insert_desc(arr, n, v):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Insert ``v`` into ``arr[:n]`` (sorted descending); returns the new length."""
    j = n
    while j > 0 and arr[j - 1] < v:
        arr[j] = arr[j - 1]
        j -= 1
    arr[j] = v
    return n + 1


@nb.njit(cache=CACHE, inline="always")
def _empty_squares(row, cross, c, prev, most, eff, lpos, rpos):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The empty squares a play from anchor ``c`` of a line (its tiles ``row``, cross-checks
    ``cross``) can cover left of it (``lpos``, nearest first, after the previous anchor ``prev``)
    and right of it (``rpos``), ``most`` each at most, up to one no letter of ``eff`` fits;
    returns how many."""
    size = row.shape[0]
    nl = 0
    x = c - 1
    while x > prev and nl < most:
        if row[x] == 0:
            if cross[x] & eff == 0:
                break
            lpos[nl] = x
            nl += 1
        x -= 1
    nrt = 0
    x = c + 1
    while x < size and nrt < most:
        if row[x] == 0:
            if cross[x] & eff == 0:
                break
            rpos[nrt] = x
            nrt += 1
        x += 1
    return nl, nrt


@nb.njit(cache=CACHE, inline="always")  # one call per anchor: the call's cost was a sixth of it
def _shadow(bb, r, c, prev, cross, xsum, lm, wm, val, rvals, nr, eff, nat, bmin, bbonus, bingo, lvb, scratch, tabs,  # type: ignore[no-untyped-def]  # pragma: no cover
            lvbb, split):
    """Upper bounds of the equities (milli-points) of the plays made from anchor (r, c) of board ``bb``.

    For every span the rack could cover from the anchor (``l`` tiles left of it,
    up to the previous anchor, and ``k`` right of it), the score is bounded by
    pairing the rack's tile values (``rvals``, sorted descending) with the
    squares' score coefficients sorted descending, or (when smaller) by giving each
    square with a cross-word its best allowed rack letter (``nat``: the rack's letters)
    and pairing the other squares with the rack's values; the bingo bonus counts only where
    ``bingo`` (see :func:`_bingo_mask`, -1 = unknown) allows a word of the whole rack plus
    the tiles played through. The leave is bounded by ``lvb[n]``, the best value of the tiles
    kept when ``n`` are played. ``tabs[0, l, k]`` receives the bound of that span (:data:`NO_BOUND`
    where impossible); the largest bound is returned.

    When the rack has a blank, ``tabs[1]`` receives the bounds of the plays that put it down: their
    leave bounded by ``lvbb`` (a blank less to keep). With ``split``, the spans of the whole rack
    are left out of both (:data:`NO_BOUND`) and their bounds go to ``tabs[2, 0, l]`` (``l`` tiles
    left of the anchor), for :func:`search_anchors` to bound them word by word
    (:func:`qiza.movegen_bingo.span_bingo`) before it puts them back (:func:`_load_bounds`).
    """
    size = bb.shape[0]
    tab = tabs[0]
    tabb = tabs[1]
    whole = tabs[2, 0]
    blank = nat != eff  # (eff: every letter, the rack's letters nat and a blank)
    base = r * size
    lpos = scratch[0]
    rpos = scratch[1]
    coef = scratch[2]
    pre = scratch[3]
    occ = scratch[4]
    lsum = scratch[5]
    coefb = scratch[6]
    nl, nrt = _empty_squares(bb[r], cross[r], c, prev, nr - 1, eff, lpos, rpos)
    # only rows 0..nr and columns 0..nr (and the last) are read: runtime loop bounds (constant
    # ones get unrolled and slow compilation)
    last = tab.shape[1] - 1  # column of the ">= l left tiles" bounds
    for i in range(nr + 1):
        for j in range(nr + 1):
            tab[i, j] = NO_BOUND
        tab[i, last] = NO_BOUND
    if blank:
        for i in range(nr + 1):
            for j in range(nr + 1):
                tabb[i, j] = NO_BOUND
            tabb[i, last] = NO_BOUND
    if split:
        for i in range(nr):
            whole[i] = NO_BOUND
    best = NO_BOUND
    lwm = wm[base + c]
    lx = xsum[r, c] * wm[base + c] if xsum[r, c] >= 0 else 0
    for nlft in range(nl + 1):
        if nlft > 0:
            i = lpos[nlft - 1]
            lwm *= wm[base + i]
            if xsum[r, i] >= 0:
                lx += xsum[r, i] * wm[base + i]
        lo = c if nlft == 0 else lpos[nlft - 1]
        s = lo
        while s > 0 and bb[r, s - 1] != 0:
            s -= 1
        wmul = lwm
        xconst = lx
        k = 0
        kb = 0
        asum = 0
        for nrgt in range(min(nrt, nr - 1 - nlft) + 1):
            rebuild = nrgt == 0
            if nrgt > 0:
                i = rpos[nrgt - 1]
                wmi = wm[base + i]
                if xsum[r, i] >= 0:
                    xconst += xsum[r, i] * wmi
                if wmi != 1:
                    wmul *= wmi
                    rebuild = True
                else:
                    # insert the new square's coefficient into the sorted list
                    lmi = lm[base + i]
                    cf = lmi * wmul
                    if xsum[r, i] >= 0:
                        cf += lmi * wmi
                        asum += cf * _cap(cross[r, i], nat, val)
                    else:
                        kb = _insert_desc(coefb, kb, cf)
                    k = _insert_desc(coef, k, cf)
            if rebuild:
                k = 0
                kb = 0
                asum = 0
                for q in range(nlft + nrgt + 1):
                    if q == 0:
                        i = c
                    elif q <= nlft:
                        i = lpos[q - 1]
                    else:
                        i = rpos[q - 1 - nlft]
                    lmi = lm[base + i]
                    cf = lmi * wmul
                    if xsum[r, i] >= 0:
                        cf += lmi * wm[base + i]
                        asum += cf * _cap(cross[r, i], nat, val)
                    else:
                        kb = _insert_desc(coefb, kb, cf)
                    k = _insert_desc(coef, k, cf)
            hi = c if nrgt == 0 else rpos[nrgt - 1]
            e = hi
            while e + 1 < size and bb[r, e + 1] != 0:
                e += 1
            tiles = 0
            for j in range(k):
                tiles += coef[j] * rvals[j]
            if kb < k:
                capped = asum
                for j in range(kb):
                    capped += coefb[j] * rvals[j]
                if capped < tiles:
                    tiles = capped
            total = (pre[e + 1] - pre[s]) * wmul + xconst + tiles
            if k >= bmin:
                through = occ[e + 1] - occ[s]
                if bingo < 0 or through >= 2 or (bingo >> (0 if through == 0 else lsum[e + 1] - lsum[s])) & 1:
                    total += bbonus
            points = total
            n = nlft + nrgt + 1
            total = total * 1000 + lvb[n]
            if split and n == nr:
                whole[nlft] = total
                tab[nlft, nrgt] = NO_BOUND
            else:
                tab[nlft, nrgt] = total
                if blank:
                    tabb[nlft, nrgt] = points * 1000 + lvbb[n]
            if total > best:
                best = total
    # suffix maxima: tab[l, k] = best over spans with l left and >= k right tiles;
    # tab[l, MAX_RACK + 1] = best over spans with >= l left tiles
    for h in range(2 if blank else 1):
        t = tabs[h]
        for i in range(nl + 1):
            for j in range(nr - 1, -1, -1):
                if t[i, j + 1] > t[i, j]:
                    t[i, j] = t[i, j + 1]
        t[nl, last] = t[nl, 0]
        for i in range(nl - 1, -1, -1):
            t[i, last] = max(t[i, 0], t[i + 1, last])
    return best


@nb.njit(cache=CACHE, inline="always")
def _row_sums(bb, r, val, scratch):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Prefix sums of row ``r`` for :func:`_shadow`: face values, tile counts, letter codes."""
    size = bb.shape[0]
    pre = scratch[3]
    occ = scratch[4]
    lsum = scratch[5]
    acc = 0
    nocc = 0
    lacc = 0
    for x in range(size):
        pre[x] = acc
        occ[x] = nocc
        lsum[x] = lacc
        t = bb[r, x]
        if t != 0:
            nocc += 1
            lacc += t & 63
            if not t & 64:
                acc += val[t]
    pre[size] = acc
    occ[size] = nocc
    lsum[size] = lacc


@nb.njit(cache=CACHE)
def _anchors(bb, empty, start_sq, cross, eff, out_r, out_c, out_p, n):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Append the anchors of board ``bb`` (row, col, previous anchor of the row)."""
    size = bb.shape[0]
    for r in range(size):
        prev = -1
        for c in range(size):
            if bb[r, c] != 0:
                continue
            if not _is_anchor(bb, r, c, empty, start_sq):
                continue
            if cross[r, c] & eff:
                out_r[n] = r
                out_c[n] = c
                out_p[n] = prev
                n += 1
            prev = c
    return n


@nb.njit(cache=CACHE)
def _blank_sub_leaves(w, nr, lvbb):  # type: ignore[no-untyped-def]  # pragma: no cover
    """``lvbb`` of a rack with a blank and a value per sub-leave (``P_HASLEAVE`` 2: the codes of
    ``W_RADIX``, the values at ``W_SUB``): the best value of the sub-leaves that keep fewer blanks
    than the rack has, by tiles played."""
    nk = w[P_KINDS]
    full = 1
    for t in range(nk):
        full *= w[W_RACK + t] + 1
    for n_played in range(1, nr + 1):
        lvbb[n_played] = NO_BOUND
    for code in range(full):
        size = 0
        for t in range(nk):
            if w[W_RACK + t] > 0:
                size += (code // w[W_RADIX + t]) % (w[W_RACK + t] + 1)
        if (code // w[W_RADIX]) % (w[W_RACK] + 1) < w[W_RACK] and size < nr:
            lvbb[nr - size] = max(lvbb[nr - size], w[W_SUB + code])


@nb.njit(cache=CACHE, nogil=True)
def rack_terms(w, rvals, lvb, lvbb):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The rack's terms of the anchors' bounds (:func:`_shadow`): ``rvals`` (tile values,
    descending), ``lvb`` (the best leave by tiles played) and ``lvbb`` (the same of the plays
    that put down a blank, when the rack has one) filled; returns (tiles on the rack, rack
    letters mask, letters it can place)."""
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
    lvbb[:] = 0
    if w[P_HASLEAVE] == 2:
        for n_played in range(1, nr + 1):
            lvb[n_played] = w[W_LVB + n_played]
        if w[W_RACK] > 0:
            _blank_sub_leaves(w, nr, lvbb)
    elif w[P_HASLEAVE]:
        lv = np.zeros(MAX_RACK, np.int64)  # the tiles' leave values, descending
        lvn = np.zeros(MAX_RACK, np.int64)  # ... without a blank
        m = 0
        mn = 0
        for t in range(nk):
            for i in range(w[W_RACK + t]):
                m = _insert_desc(lv, m, w[W_LEAVE + t])
                if t != 0 or i > 0:
                    mn = _insert_desc(lvn, mn, w[W_LEAVE + t])
        for n_played in range(1, nr + 1):
            for j in range(nr - n_played):
                lvb[n_played] += lv[j]
                lvbb[n_played] += lvn[j]
    return nr, rbits, eff


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


@nb.njit(cache=CACHE, inline="always")
def _load_bounds(w, tab, nr, anag, bw, c, prev, eff, scratch):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Put the span bounds ``tab`` of anchor ``c`` (:func:`_shadow`'s, the previous anchor ``prev``)
    into ``w`` for :func:`qiza.movegen_search._rec`; returns the largest.

    With the spans of the whole rack apart (``bw[BW_ON]``), those that could beat the best play so
    far are bounded word by word first (:func:`qiza.movegen_bingo.span_bingo`: the line is in ``w``).
    """
    last = MAX_RACK + 1
    planes = 2 if w[P_BLANKS0] > 0 else 1
    if not bw[BW_ON]:
        for h in range(planes):
            wt = W_TAB if h == 0 else W_TABB
            for x in range(nr + 1):  # the part _rec reads (see _shadow)
                for y in range(nr + 1):
                    w[wt + x * TAB_W + y] = tab[h, x, y]
                w[wt + x * TAB_W + last] = tab[h, x, last]
        return tab[0, 0, last]
    size = w[P_SIZE]
    lpos = scratch[0]
    rpos = scratch[1]
    whole = scratch[2]  # the bound of the span with l tiles left of the anchor
    atleast = scratch[3]  # ... the largest of those with l or more
    # the empty squares left and right of the anchor, as _shadow finds them
    nl, nrt = _empty_squares(w[W_ROW:W_ROW + size], w[W_CROSS:W_CROSS + size], c, prev, nr - 1, eff, lpos, rpos)
    kept = w[W_LVB + nr] if w[P_HASLEAVE] == 2 else 0  # the value of keeping nothing
    atleast[nr] = NO_BOUND
    for lt in range(nr - 1, -1, -1):
        v = tab[2, 0, lt]
        if w[P_HAVEBEST] and v > w[P_BEST] and lt <= nl and nr - 1 - lt <= nrt:
            score = span_bingo(anag, w, bw, c, lpos, rpos, lt, nr - 1 - lt)
            if score < UNKNOWN:
                v = min(v, score * 1000 + kept if score > NO_BOUND else NO_BOUND)
        whole[lt] = v
        atleast[lt] = max(v, atleast[lt + 1])
    for h in range(planes):
        wt = W_TAB if h == 0 else W_TABB
        for x in range(nr + 1):
            for y in range(nr + 1):
                v = tab[h, x, y]
                if x < nr and y <= nr - 1 - x and whole[x] > v:
                    v = whole[x]
                w[wt + x * TAB_W + y] = v
            w[wt + x * TAB_W + last] = max(tab[h, x, last], atleast[x])
    return max(tab[0, 0, last], atleast[0])


@nb.njit(cache=CACHE, nogil=True)
def search_anchors(g, w, out, b, bt, cross, xsum, lm, wm, lmT, wmT, nr, rbits, ad, ar, ac, ap, bounds, tabs, order, n,  # type: ignore[no-untyped-def]  # pragma: no cover
                   anag, bw):
    """Search the anchors ``order[:n]`` (by decreasing bound; ``ad``/``ar``/``ac``/``ap``: their
    direction, row, column and previous anchor) of board ``b`` (transpose ``bt``) from the best of
    ``w`` on entry, stopping when no bound beats it; returns the anchor where the best play was found (-1: none
    beat the best on entry). ``anag``/``bw``: the anagram table and the rack's words
    (:func:`qiza.movegen_bingo.bingo_init`), to bound the plays of the whole rack word by word:
    an anchor where no bound beats the best is passed over."""
    size = b.shape[0]
    lastrow = -1
    lastdir = -1
    found = -1
    eff = ALL_LETTERS if w[W_RACK] > 0 else rbits
    scratch = np.empty((4, MAX_RACK + 1), np.int64)
    for oi in range(n):
        i = order[oi]
        if w[P_HAVEBEST] and bounds[i] <= w[P_BEST]:
            break
        d = ad[i]
        r = ar[i]
        c = ac[i]
        if r != lastrow or d != lastdir:
            bb = b if d == 0 else bt
            lmx = lm if d == 0 else lmT
            wmx = wm if d == 0 else wmT
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
        top = _load_bounds(w, tabs[i], nr, anag, bw, c, ap[i], eff, scratch)
        if w[P_HAVEBEST] and top <= w[P_BEST]:
            continue
        had = w[P_HAVEBEST]
        before = w[P_BEST]
        search_anchor(g, w, out, c, ap[i], rbits)
        if w[P_HAVEBEST] and (not had or w[P_BEST] > before):
            found = i
    return found


@nb.njit(cache=CACHE)
def _generate_best(g, anag, w, out, board, lm, wm, lmT, wmT, start_sq, start_sqT, rbits):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Best-only generation: anchors in decreasing order of their score bound, stopping early."""
    size = w[P_SIZE]
    b = board.reshape((size, size))
    bt = np.ascontiguousarray(b.T)
    nk = w[P_KINDS]
    val = w[W_VAL:W_VAL + nk]
    empty = True
    for i in range(size * size):
        if board[i] != 0:
            empty = False
            break
    cross = np.empty((2, size, size), np.int64)
    xsum = np.empty((2, size, size), np.int32)
    ndir = 1 if empty else 2
    for d in range(ndir):
        _cross(g, b if d == 0 else bt, size, cross[d], xsum[d], val)
    rvals = np.zeros(MAX_RACK, np.int64)  # the rack's tile values, descending
    lvb = np.zeros(MAX_RACK + 1, np.int64)  # the best leave value by tiles played (milli-points)
    lvbb = np.zeros(MAX_RACK + 1, np.int64)  # ... of the plays that put down a blank
    nr, rbits, eff = rack_terms(w, rvals, lvb, lvbb)
    if nr == 0:
        return
    cap = 2 * size * size
    ar = np.empty(cap, np.int64)
    ac = np.empty(cap, np.int64)
    ap = np.empty(cap, np.int64)
    n = 0
    n0 = 0
    for d in range(ndir):
        n = _anchors(b if d == 0 else bt, empty, start_sq if d == 0 else start_sqT, cross[d], eff, ar, ac, ap, n)
        if d == 0:
            n0 = n
    bounds = np.empty(n, np.int64)
    bmin = w[P_BMIN]
    bbonus = w[P_BBONUS]
    scratch = np.empty((7, MAX_SIZE + 1), np.int64)
    bingo = -1  # plays of the whole rack: which can make a word (bit 0: alone, bit x: with x played through)
    if nr == bmin:
        boardmask = 0
        for i in range(size * size):
            if board[i] != 0:
                boardmask |= 1 << (board[i] & 63)
        bingo = _bingo_mask(anag, w, boardmask)
    bw = np.empty(BW_SIZE, np.int64)  # the rack's words, to bound its plays of the whole rack
    bingo_init(anag, w, nr, bw)
    split = bw[BW_ON] != 0
    tabs = np.empty((n, 3, MAX_RACK + 1, MAX_RACK + 2), np.int32)
    srow = -1
    for i in range(n):
        d = 0 if i < n0 else 1
        if ar[i] + MAX_SIZE * d != srow:  # anchors come row by row: the row's sums once
            srow = ar[i] + MAX_SIZE * d
            _row_sums(b if d == 0 else bt, ar[i], val, scratch)
        bounds[i] = _shadow(b if d == 0 else bt, ar[i], ac[i], ap[i], cross[d], xsum[d], lm if d == 0 else lmT,
                            wm if d == 0 else wmT, val, rvals, nr, eff, rbits, bmin, bbonus, bingo, lvb, scratch, tabs[i],
                            lvbb, split)
    order = np.empty(n, np.int64)  # the anchors by decreasing bound, ties in board order
    ad = np.empty(n, np.int64)
    for i in range(n):
        order[i] = i
        ad[i] = 0 if i < n0 else 1
    sort_anchors(bounds, order, n)
    search_anchors(g, w, out, b, bt, cross, xsum, lm, wm, lmT, wmT, nr, rbits, ad, ar, ac, ap, bounds, tabs, order, n,
                   anag, bw)
