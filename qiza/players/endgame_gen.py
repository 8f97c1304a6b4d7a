"""Move generation near new tiles, for the endgame search's incremental move lists
(:mod:`qiza.players.endgame_search`).

After tiles are added to a board, a placement of a rack that is legal on the new board either
forms the same words as on the older board (its main word and every cross-word hold none of
the new tiles: it was legal there with the same score, and an older list of a rack holding at
least these tiles has it, its squares to keep empty still empty), or one of its words holds a
new tile. Such a word holds the whole run of board tiles through that new tile along its line
(a maximal run of tiles: the word extends past it, by a placed tile on the first empty square
beyond one of its ends), or is the cross-word of a tile placed on the first empty square beyond
the run across the line. Either way the placement covers a *near square*: one of the first
empty squares beyond the runs of tiles, along the row and along the column, through a new tile
(:func:`mark_near`).

:func:`gen_near` generates exactly the placements that cover a near square: Gordon's search
(:func:`qiza.movegen_search._rec`) from every near square of every line, each placement from
the first near square it covers in its line (its left part never reaches the line's previous
near square), so none twice; across a line the cross-checks of that line only are computed.
The new list of the older rack's tiles on the new board is the older list's still-legal moves
(those cover no near square: a near square is next to a new tile, in line with it) and these:
the same placements as generating the whole board, in another order.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE
from qiza.movegen_search import (
    P_DIR,
    P_KINDS,
    P_SIZE,
    W_CROSS,
    W_VAL,
    _popc,
    cross_mask,
    cross_run,
    load_row,
    search_anchor,
)
from qiza.players.endgame_scan import NO_REFCOUNT

XC_WAYS = 8
"""Cross-check cache entries per square and direction (see :func:`_cross_row_cached`)."""


@nb.njit(cache=CACHE, inline="always")
def _beyond(board, size, s, step_r, step_c):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The first empty square from square ``s`` in direction (``step_r``, ``step_c``) past the
    tiles (-1: none, at the board's edge)."""
    r = s // size + step_r
    c = s % size + step_c
    while 0 <= r < size and 0 <= c < size and board[r * size + c] != 0:
        r += step_r
        c += step_c
    return r * size + c if 0 <= r < size and 0 <= c < size else -1


@nb.njit(cache=CACHE, inline="always")
def _mark_beyond(board, size, s, step_r, step_c, mark):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Mark the first empty square from square ``s`` in direction (``step_r``, ``step_c``)
    past the tiles (none at the board's edge)."""
    t = _beyond(board, size, s, step_r, step_c)
    if t >= 0:
        mark[t] = 1


@nb.njit(cache=CACHE)
def mark_near(board, size, squares, lo, hi, mark):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Set ``mark`` (flat, board-sized, zeroed by the caller) to 1 on the near squares of the
    new tiles on ``squares[lo:hi]`` of ``board``: the first empty squares beyond the runs of
    tiles through them, both ways along the row and along the column."""
    for i in range(lo, hi):
        s = squares[i]
        _mark_beyond(board, size, s, 0, -1, mark)
        _mark_beyond(board, size, s, 0, 1, mark)
        _mark_beyond(board, size, s, -1, 0, mark)
        _mark_beyond(board, size, s, 1, 0, mark)


@nb.njit(cache=CACHE, inline="always")
def _cross_row_cached(g, b, size, r, cross, xsum, val, xc, zt, d):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The cross-check masks and sums of row ``r`` of ``b`` (direction ``d``), as
    :func:`qiza.movegen_search.cross_row`, with the masks remembered in ``xc``: ``XC_WAYS``
    rows per square and direction, each (key of the tiles across the row through the square, mask),
    the key the XOR of ``zt[square, letter]`` over those tiles (the same tiles give the same mask)."""
    for c in range(size):
        top, bot = cross_run(b, size, r, c, cross, xsum, val)
        if top < 0:
            continue
        h = np.int64(0)
        for rr in range(top, bot + 1):
            if rr != r:
                h ^= zt[rr * size + c, b[rr, c] & 63]
        if h == 0:
            h = np.int64(1)
        slot = ((d * size + r) * size + c) * XC_WAYS + (h & (XC_WAYS - 1))
        if xc[slot, 0] == h:
            cross[r, c] = xc[slot, 1]
        else:
            mask = cross_mask(g, b, r, c, top < r, bot > r, top, bot)
            xc[slot, 0] = h
            xc[slot, 1] = mask
            cross[r, c] = mask


@nb.njit(cache=CACHE, nogil=True, **NO_REFCOUNT)
def _gen_dir_near(g, w, out, b, lm, wm, direction, mark, rbits, xc, zt, cross, xsum):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The plays along the rows of ``b`` (the board or its transpose, ``mark`` likewise) that
    cover a marked square, each from the first marked square it covers (``cross``, ``xsum``:
    board-sized buffers for the cross-checks)."""
    size = b.shape[0]
    val = w[W_VAL:W_VAL + w[P_KINDS]]
    w[P_DIR] = direction
    for r in range(size):
        first = True
        prev = -1
        for c in range(size):
            if not mark[r, c]:
                continue
            if first:
                first = False
                _cross_row_cached(g, b, size, r, cross, xsum, val, xc, zt, direction)
                load_row(w, b, r, size, cross, xsum, lm, wm)
            if w[W_CROSS + c] != 0:
                search_anchor(g, w, out, c, prev, rbits)
            prev = c


@nb.njit(cache=CACHE, nogil=True, **NO_REFCOUNT)
def gen_near(g, w, out, board, lm, wm, lmT, wmT, mark, rbits, xc, zt, bt, mkt, cross, xsum):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Every placement of the rack of ``w`` (see :func:`qiza.movegen.gen_all`: rack letters
    ``rbits``) on the non-empty ``board`` that covers a square marked in ``mark`` (see
    :func:`mark_near`; flat, board-sized) into ``out``: the plays along the rows, then along
    the columns. ``xc``: the cross-check cache (see :func:`_cross_row_cached`, zeroed before
    a search), ``zt``: its keys (squares x letters); ``bt``, ``mkt``: buffers for the
    transposed board and marks, ``cross``, ``xsum``: for the cross-checks (all board-sized,
    square: nothing is allocated, nor reference-counted)."""
    size = w[P_SIZE]
    b = board.reshape((size, size))
    mk = mark.reshape((size, size))
    for r in range(size):
        for c in range(size):
            bt[c, r] = b[r, c]
            mkt[c, r] = mk[r, c]
    for d in range(2):  # one call site keeps compilation short
        _gen_dir_near(g, w, out, b if d == 0 else bt, lm if d == 0 else lmT, wm if d == 0 else wmT, d,
                      mk if d == 0 else mkt, rbits, xc, zt, cross, xsum)


@nb.njit(cache=CACHE, inline="always")
def _fit(g, board, size, t, step_r, step_c, x):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Letter ``x`` on the empty square ``t`` between the runs of tiles before and after it
    along the line (``step_r``, ``step_c``): 2 when they make a word, 1 when some word holds
    them (not a word), 0 when none does. The GADDAG path read is their reverse (the tiles
    after ``t`` from the farthest, ``x``, the tiles before): a path that exists is a substring
    of some word, a complete one a word."""
    r = t // size + step_r
    c = t % size + step_c
    while 0 <= r < size and 0 <= c < size and board[r * size + c] != 0:
        r += step_r
        c += step_c
    node = g[1]
    m = g[3]
    pending = -1  # the letter read last, not yet followed
    r -= step_r
    c -= step_c
    stage = 0  # 0: the tiles after t, 1: x, 2: the tiles before t
    while True:
        if stage == 0:
            if r * size + c == t:
                stage = 1
                continue
            letter = board[r * size + c] & 63
            r -= step_r
            c -= step_c
        elif stage == 1:
            letter = x
            stage = 2
            r -= step_r
            c -= step_c
        else:
            if not (0 <= r < size and 0 <= c < size and board[r * size + c] != 0):
                break
            letter = board[r * size + c] & 63
            r -= step_r
            c -= step_c
        if pending >= 0:
            if not (m >> pending) & 1:
                return 0
            arc = node + 1 + 2 * _popc(m & ((1 << pending) - 1))
            node = g[arc]
            m = g[arc + 1]
        pending = letter
    if (g[node] >> pending) & 1:
        return 2
    if (m >> pending) & 1:
        return 1
    return 0


@nb.njit(cache=CACHE, inline="always")
def _square_stuck(g, board, size, t, rbits, total):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Whether no placement of a rack of the letters ``rbits`` (``total`` tiles, no blank)
    covers the empty square ``t`` (next to a tile). A placement along the row puts a rack letter
    on ``t`` that makes a word with the tiles above and below (if any) and a substring of its
    main word with the tiles left and right; along the column likewise; one tile makes words both
    ways."""
    rt = t // size
    ct = t % size
    hn = (ct > 0 and board[t - 1] != 0) or (ct + 1 < size and board[t + 1] != 0)
    vn = (rt > 0 and board[t - size] != 0) or (rt + 1 < size and board[t + size] != 0)
    bits = rbits & ~np.int64(1)
    while bits:
        x = 0
        while not (bits >> x) & 1:
            x += 1
        bits &= ~(np.int64(1) << x)
        h = _fit(g, board, size, t, 0, 1, x) if hn else 2
        if h == 0:
            continue
        v = _fit(g, board, size, t, 1, 0, x) if vn else 2
        if total == 1:
            if h == 2 and v == 2:
                return False
        elif (v == 2 and h >= 1) or (h == 2 and v >= 1):
            return False
    return True


@nb.njit(cache=CACHE, **NO_REFCOUNT)
def stuck(g, board, size, squares, lo, hi, rbits, total):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Whether no placement of a rack (``rbits``: its tile kinds, bit 0 the blank; ``total``
    tiles) covers a near square of the tiles on ``squares[lo:hi]`` (see :func:`mark_near`), by
    checks of each near square's lines for the rack's letters, without a generation (False also
    when unsure: with a blank, or a letter that fits a line). The placements of the rack that are
    not among an earlier list's (one made before those tiles, for a rack holding at least these
    tiles) cover such a square: with none of that list's moves still legal, True proves that the
    player must pass."""
    if rbits & 1:
        return False
    for i in range(lo, hi):
        for k in range(4):
            t = _beyond(board, size, squares[i], -1 if k == 0 else 1 if k == 1 else 0, 0 if k < 2 else -1 if k == 2 else 1)
            if t >= 0 and not _square_stuck(g, board, size, t, rbits, total):
                return False
    return True


@nb.njit(cache=CACHE, inline="always")
def _run_sum(board, size, t, step_r, step_c, vals):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The face value of the tiles from square ``t`` (excluded) in direction (``step_r``,
    ``step_c``) up to the first empty square (a blank counts 0), and how many there are."""
    r = t // size + step_r
    c = t % size + step_c
    s = 0
    k = 0
    while 0 <= r < size and 0 <= c < size and board[r * size + c] != 0:
        tile = board[r * size + c]
        if not tile & 64:
            s += vals[tile]
        k += 1
        r += step_r
        c += step_c
    return s, k


@nb.njit(cache=CACHE, inline="always")
def _single_at(g, board, size, t, x, vals, lm, wm):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The score of letter ``x`` (a tile, not a blank) alone on the empty square ``t``, -1 when
    that placement is not legal (a word each way it has neighbours, and at least one)."""
    score = 0
    words = 0
    for d in range(2):
        sr = 0 if d == 0 else 1
        sc = 1 - sr
        s1, k1 = _run_sum(board, size, t, -sr, -sc, vals)
        s2, k2 = _run_sum(board, size, t, sr, sc, vals)
        if k1 + k2 == 0:
            continue
        if _fit(g, board, size, t, sr, sc, x) != 2:
            return -1
        words += 1
        score += (s1 + s2 + vals[x] * lm[t]) * wm[t]
    return score if words else -1


@nb.njit(cache=CACHE, **NO_REFCOUNT)
def single_best(g, board, size, squares, lo, hi, x, vals, lm, wm):  # type: ignore[no-untyped-def]  # pragma: no cover
    """(score, square) of the best placement of the one tile ``x`` (not a blank) on a near square
    of the tiles on ``squares[lo:hi]`` (see :func:`mark_near`), (-1, -1) when there is none:
    with the still-legal moves of an earlier list, all of the tile's placements (the others cover
    no near square), without a generation."""
    best = -1
    best_sq = -1
    for i in range(lo, hi):
        for k in range(4):
            t = _beyond(board, size, squares[i], -1 if k == 0 else 1 if k == 1 else 0, 0 if k < 2 else -1 if k == 2 else 1)
            if t >= 0:
                v = _single_at(g, board, size, t, x, vals, lm, wm)
                if v > best:
                    best = v
                    best_sq = t
    return best, best_sq
