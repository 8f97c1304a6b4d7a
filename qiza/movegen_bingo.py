"""The bingos of a span, word by word, for the best-only search (:mod:`qiza.movegen_best`).

A play of the whole rack, when the rack holds as many tiles as the bingo rule asks, is a bingo:
a word of the rack's letters and of the tiles it plays through. The anchors' span bounds
(:func:`qiza.movegen_best._shadow`) give such a span the bonus wherever some word of those
letters exists at all, and the best score of the rack's tile values on its squares. A rack
that makes many words (a blank and ``AEINST``) then has high bounds at every anchor where a
bingo could score well, and the search walks every path of its letters there to find that none
fits. Here the words themselves are laid on a span's squares: the letters of its board tiles,
the cross-checks of its empty squares; the best score of those that fit is the span's bound,
and a span where none fits has none (no play of the whole rack can be made there).

The words of a rack's letters and the tiles played through come from the anagram table of
:func:`_anagram_table` (the words of the bingo's length to the board's); those through one tile
or none are kept in a small array per search (``bw``, the ``BW_*`` layout), gathered the first
time a span asks for them. Racks with two blanks or with a number of tiles other than the
bingo's are left to the span bounds (``BW_ON`` = 0).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE
from qiza.movegen_search import (
    ALL_LETTERS,
    MAX_KINDS,
    NO_BOUND,
    P_BBONUS,
    P_BMIN,
    P_KINDS,
    P_SIZE,
    W_CROSS,
    W_LM,
    W_RACK,
    W_ROW,
    W_VAL,
    W_WM,
    W_XSUM,
    _ctz,
    _popc,
)

_KEY_SEED = 0x9E3779B97F4A7C15

# bw: 1 when the rack's bingo spans are bounded by their words, the key of the rack's letters (its
# blanks left out), its blanks, the words gathered so far, the tile kinds
BW_ON, BW_KEY, BW_BLANKS, BW_FILL, BW_KINDS = range(5)
BW_START = 8
"""Per letter played through (0: none), where its words start: -1 not gathered yet, -2 too many."""
BW_END = BW_START + MAX_KINDS
BW_KEYS = BW_END + MAX_KINDS
"""The letters' keys (:func:`_letter_keys`)."""
BW_WORDS = BW_KEYS + MAX_KINDS
"""The words: three slots each, the word (its two slots in the anagram table) and the letter its
blank stands for (0: none)."""
BW_CAP = 2048
BW_SIZE = BW_WORDS + 3 * BW_CAP
UNKNOWN = 1 << 40
"""What :func:`span_bingo` returns for a span it cannot bound (too long, too many words)."""
SLOT_LETTERS = 10
"""Letters of a word in one slot of the anagram table (6 bits each): two slots, 20 letters at most."""


@nb.njit(cache=CACHE)
def _letter_keys():  # type: ignore[no-untyped-def]  # pragma: no cover
    """A random odd 64-bit key per letter: a multiset's key is the sum of its letters' keys."""
    keys = np.zeros(MAX_KINDS, np.int64)
    x = np.uint64(_KEY_SEED)
    for t in range(1, MAX_KINDS):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        keys[t] = np.int64(x | np.uint64(1))
    return keys


@nb.njit(cache=CACHE)
def _anagram_table(g, lo, hi):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Open-addressing table of the words of ``lo``..``hi`` letters (``hi`` at most 20) by their
    letter-multiset keys.

    Words are read along their fully reversed paths in the GADDAG. Slot 0 of the result holds
    the mask (``cap - 1``); slots ``1..cap`` the keys, one slot per word (the words of a key are
    found by probing on from the key's first slot: :func:`_has_key` stops at the first), 0 where
    empty; slots ``cap + 1 + j`` and ``2 * cap + 1 + j`` the word of key slot ``j + 1``, its
    letters 6 bits each from the low bits up, first letter first, :data:`SLOT_LETTERS` a slot;
    the last slot ``hi``. A key collision only makes a bound looser.
    """
    keys = _letter_keys()
    cap = 1 << 10
    table = np.zeros(3 * cap + 2, np.int64)
    count = 0
    nodes = np.zeros(hi + 1, np.int64)
    masks = np.zeros(hi + 1, np.int64)
    cands = np.zeros(hi + 1, np.int64)
    acc = np.zeros(hi + 1, np.int64)
    path = np.zeros(hi + 1, np.int64)  # the letters of the path: the word's last letter first
    nodes[0] = g[1]
    masks[0] = g[3]
    cands[0] = g[3] & ALL_LETTERS
    d = 0
    while d >= 0:
        if cands[d] == 0:
            d -= 1
            continue
        node = nodes[d]
        letter = _ctz(cands[d])
        cands[d] &= cands[d] - 1
        bit = np.int64(1) << letter
        key = acc[d] + keys[letter]
        path[d] = letter
        if d + 2 <= hi:
            arc = node + 1 + 2 * _popc(masks[d] & (bit - 1))
            child = g[arc]
            # words of d + 2 letters: a first letter from the child's ends mask, then the path backwards
            ends = g[child] & ALL_LETTERS
            if d + 2 >= lo:
                while ends:
                    first = _ctz(ends)
                    ends &= ends - 1
                    k = key + keys[first]
                    if k == 0:
                        k = 1
                    if 2 * (count + 1) > cap:
                        table = _grow(table, cap)
                        cap *= 2
                    j = _slot(k, cap - 1)
                    while table[j + 1] != 0:
                        j = (j + 1) & (cap - 1)
                    table[j + 1] = k
                    for pos in range(d + 2):
                        lt = first if pos == 0 else path[d + 1 - pos]
                        half = pos // SLOT_LETTERS
                        table[(1 + half) * cap + 1 + j] |= lt << (6 * (pos - half * SLOT_LETTERS))
                    count += 1
            if d + 3 <= hi:
                d += 1
                nodes[d] = child
                masks[d] = g[arc + 1]
                cands[d] = g[arc + 1] & ALL_LETTERS
                acc[d] = key
    table[0] = cap - 1
    table[3 * cap + 1] = hi
    return table


@nb.njit(cache=CACHE)
def _grow(table, cap):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The anagram table (of :func:`_anagram_table`, being built) with twice the slots."""
    ncap = cap * 2
    nt = np.zeros(3 * ncap + 2, np.int64)
    for i in range(1, cap + 1):
        v = table[i]
        if v != 0:
            j = _slot(v, ncap - 1)
            while nt[j + 1] != 0:
                j = (j + 1) & (ncap - 1)
            nt[j + 1] = v
            nt[ncap + 1 + j] = table[cap + i]
            nt[2 * ncap + 1 + j] = table[2 * cap + i]
    return nt


@nb.njit(cache=CACHE, inline="always")
def _slot(k, mask):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The first slot of key ``k`` (not 0) in the anagram table of ``mask + 1`` slots (``j``: slot ``j + 1``)."""
    return np.int64((np.uint64(k) >> np.uint64(20)) & np.uint64(mask))


@nb.njit(cache=CACHE, inline="always")
def _has_key(table, k):  # type: ignore[no-untyped-def]  # pragma: no cover
    if k == 0:
        k = 1
    mask = table[0]
    j = _slot(k, mask)
    while True:
        v = table[j + 1]
        if v == k:
            return True
        if v == 0:
            return False
        j = (j + 1) & mask


@nb.njit(cache=CACHE, nogil=True)
def bingo_init(table, w, nr, bw):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Make ``bw`` the (empty) word store of the rack of ``w`` (``nr`` tiles) and the anagram
    table ``table``; ``bw[BW_ON]`` says whether its bingo spans can be bounded word by word."""
    bw[BW_ON] = 0
    if nr != w[P_BMIN] or w[W_RACK] > 1 or table.shape[0] < 2:
        return
    nk = w[P_KINDS]
    keys = _letter_keys()
    key = np.int64(0)
    for t in range(MAX_KINDS):
        bw[BW_KEYS + t] = keys[t]
        bw[BW_START + t] = -1
        if 1 <= t < nk:
            key += w[W_RACK + t] * keys[t]
    bw[BW_KEY] = key
    bw[BW_BLANKS] = w[W_RACK]
    bw[BW_FILL] = 0
    bw[BW_KINDS] = nk
    bw[BW_ON] = 1


@nb.njit(cache=CACHE, nogil=True)
def _collect(table, bw, through):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Put the words of the rack and the letters played through (``through``: the sum of their
    keys) into ``bw`` after the words gathered so far (a blank as every letter in turn); returns
    where they end, -1 when they do not fit."""
    mask = table[0]
    cap = mask + 1
    n = bw[BW_FILL]
    base = bw[BW_KEY] + through
    blank = bw[BW_BLANKS] > 0
    for x in range(1 if blank else 0, bw[BW_KINDS] if blank else 1):
        k = base + bw[BW_KEYS + x]
        if k == 0:
            k = 1
        j = _slot(k, mask)
        while table[j + 1] != 0:
            if table[j + 1] == k:
                if n == BW_CAP:
                    return -1
                bw[BW_WORDS + 3 * n] = table[cap + 1 + j]
                bw[BW_WORDS + 3 * n + 1] = table[2 * cap + 1 + j]
                bw[BW_WORDS + 3 * n + 2] = x
                n += 1
            j = (j + 1) & mask
    return n


@nb.njit(cache=CACHE, nogil=True)
def _gather(table, bw, y):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The words of the rack and letter ``y`` played through (0: none), gathered into ``bw`` on
    the first call and kept; returns where they start (-2: too many to keep) and end."""
    if bw[BW_START + y] == -1:
        n = _collect(table, bw, bw[BW_KEYS + y])
        if n >= 0:
            bw[BW_START + y] = bw[BW_FILL]
            bw[BW_END + y] = n
            bw[BW_FILL] = n
        else:
            bw[BW_START + y] = -2
    return bw[BW_START + y], bw[BW_END + y]


@nb.njit(cache=CACHE, inline="always")
def _fit(w, s, e, first, second, x):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The score of the word (its two slots ``first`` and ``second``, its blank as ``x``, 0: none) on
    squares ``s``..``e`` of the line in ``w``, :data:`NO_BOUND` where it does not fit (a board
    tile of another letter, a cross-check that does not take its letter). With a blank the score is
    the best over the word's empty squares of letter ``x``."""
    main = 0
    wmul = 1
    xs = 0
    q = first
    for p in range(s, e + 1):
        if p - s == SLOT_LETTERS:
            q = second
        letter = q & 63
        q >>= 6
        cell = w[W_ROW + p]
        if cell != 0:
            if (cell & 63) != letter:
                return NO_BOUND
            if not cell & 64:
                main += w[W_VAL + letter]
        else:
            if not (w[W_CROSS + p] >> letter) & 1:
                return NO_BOUND
            v = w[W_VAL + letter] * w[W_LM + p]
            main += v
            wmul *= w[W_WM + p]
            if w[W_XSUM + p] >= 0:
                xs += (w[W_XSUM + p] + v) * w[W_WM + p]
    score = main * wmul + xs + w[P_BBONUS]
    if x != 0:  # the blank stands for x on one of the word's empty squares: the one that costs least
        least = UNKNOWN
        q = first
        for p in range(s, e + 1):
            if p - s == SLOT_LETTERS:
                q = second
            if (q & 63) == x and w[W_ROW + p] == 0:
                v = w[W_VAL + x] * w[W_LM + p]
                least = min(least, v * wmul + (v * w[W_WM + p] if w[W_XSUM + p] >= 0 else 0))
            q >>= 6
        score -= least
    return score


@nb.njit(cache=CACHE, nogil=True)
def span_bingo(table, w, bw, c, lpos, rpos, nlft, nrgt):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The best score of a play of the whole rack on the span of anchor ``c`` of the line loaded in
    ``w`` (:func:`qiza.movegen_search.load_row`) with ``nlft`` tiles on the empty squares
    ``lpos`` left of it and ``nrgt`` on ``rpos`` right of it (as :func:`qiza.movegen_best._shadow`
    finds them): :data:`NO_BOUND` when no word fits, :data:`UNKNOWN` when it cannot tell."""
    size = w[P_SIZE]
    s = c if nlft == 0 else lpos[nlft - 1]
    e = c if nrgt == 0 else rpos[nrgt - 1]
    while s > 0 and w[W_ROW + s - 1] != 0:
        s -= 1
    while e + 1 < size and w[W_ROW + e + 1] != 0:
        e += 1
    if e - s + 1 > table[table.shape[0] - 1]:  # longer than the table's words
        return UNKNOWN
    through = 0
    y = 0
    tkey = np.int64(0)
    for p in range(s, e + 1):
        if w[W_ROW + p] != 0:
            through += 1
            y = w[W_ROW + p] & 63
            tkey += bw[BW_KEYS + y]
    if through <= 1:  # the words kept in bw
        start, end = _gather(table, bw, y)
    else:  # the words through two tiles or more: after them, for this span only
        start = bw[BW_FILL]
        end = _collect(table, bw, tkey)
    if start < 0 or end < 0:
        return UNKNOWN
    best = NO_BOUND
    for i in range(start, end):
        o = BW_WORDS + 3 * i
        best = max(best, _fit(w, s, e, bw[o], bw[o + 1], bw[o + 2]))
    return best
