"""Move generator: every legal placement of a rack on a board, compiled with Numba.

The generator walks a GADDAG (:mod:`qiza.gaddag`) from every anchor square
(Gordon's algorithm). Everything in the hot loop is a flat ``int32`` array:

* the graph ``g`` (see :mod:`qiza.gaddag` for its layout);
* a work array ``w`` holding the current board line, its cross-check masks and
  cross-word sums, its premiums, the rack counts, tile values and parameters;
* an output array ``out`` with one row per move (see ``O_*`` below).

Boards are ``size * size`` arrays of tile codes: 0 empty, 1..26 a natural tile,
``letter | 0x40`` a blank played as that letter. Racks are counts of length 27,
index 0 = blanks.

Counting convention (matches the shared reference data): a move is the set of
tiles placed; a one-tile play is produced once (not once per direction); on an
empty board only plays across are produced.

Best-only mode (:meth:`MoveGenerator.best`) first bounds the score of every
anchor's plays (a "shadow" pass pairing the rack's tile values with the
squares' score coefficients for every span the rack can cover), searches the
anchors in decreasing order of bound, stops when no remaining bound can beat
the best play found, and prunes continuations inside an anchor the same way.

The compiled entry points release the GIL; a generator can be shared by threads.

Usage::

    from qiza.movegen import MoveGenerator, load_lexicon_words, parse_rack
    from qiza import gaddag
    g = gaddag.load_or_build(load_lexicon_words("twl06"), gaddag.default_cache_dir())
    gen = MoveGenerator(g)                     # layout, tile values, bingo rule
    moves = gen.generate(board, parse_rack("WINDY??"))   # a MoveList (numpy arrays)
    moves.text(0)                              # (7, 3, False, "WINDY")
    moves[0].cells(), moves[0].word            # "D8=W E8=I ...", "WINDY"
    best = gen.best(board, rack, leave_values) # a Move or None
    gen.count_many(boards, racks)              # many positions in one compiled loop
"""

from __future__ import annotations

import argparse
import gzip
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numba as nb
import numpy as np
from numba import types
from numba.extending import intrinsic

from qiza import gaddag
from qiza.alphabet import BLANK_FLAG, ENGLISH
from qiza.layout import STANDARD, Layout

MAX_SIZE = 21
MAX_RACK = 9
ALL_LETTERS = 0x7FFFFFE  # bits 1..26

# -- work array layout ------------------------------------------------------------------
W_ROW = 0
W_CROSS = 32
W_XSUM = 64
W_LM = 96
W_WM = 128
W_PLACED = 160
W_RACK = 192
W_VAL = 224
W_LEAVE = 256
P = 288
P_SIZE = P + 0
P_ANCHOR = P + 1
P_PREV = P + 2
P_ROWIDX = P + 3
P_DIR = P + 4
P_BMIN = P + 5
P_BBONUS = P + 6
P_NOUT = P + 7
P_CAP = P + 8
P_MODE = P + 9  # 0 all moves, 1 best only
P_BEST = P + 10  # best equity so far (milli-points), best mode
P_OVERFLOW = P + 11
P_HAVEBEST = P + 12
P_BOUND = P + 13  # best mode: upper bound of the current anchor's moves
P_MAXLEAVE = P + 14  # best mode: largest possible leave value of the rack (milli-points)
NO_BOUND = -(1 << 30)  # best mode: the bound of spans no play can cover
P_HASLEAVE = P + 15  # best mode: leave values are given
P_START = P + 17  # the start square, on the board and on its transpose
P_STARTT = P + 18
P_LCOUNT = P + 16  # best mode: tiles placed left of the anchor (right part of the search)
W_TAB = P + 32  # best mode: span bounds of the current anchor (see _shadow), rows of TAB_W
TAB_W = MAX_RACK + 2
W_SIZE = W_TAB + (MAX_RACK + 1) * TAB_W + 8

# -- output rows ------------------------------------------------------------------------
# score, meta = row | col << 5 | direction << 10 | length << 11 | tiles placed << 16,
# equity (best mode, milli-points), then the tiles of the line packed 5 per int32,
# 6 bits each (letter | 32 for a blank, 0 where played through).
O_SCORE = 0
O_META = 1
O_EQUITY = 2
O_TILES = 3
O_WIDTH = 8
O_HAVE = O_WIDTH  # result rows: one more column, 1 when there is a move (best mode), -1 for a bad rack


@intrinsic
def _popc(typingctx, x):  # type: ignore[no-untyped-def]
    """Population count through the LLVM ``ctpop`` intrinsic."""
    sig = x(x)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _ctz(typingctx, x):  # type: ignore[no-untyped-def]
    """Count trailing zeros through the LLVM ``cttz`` intrinsic (x != 0)."""
    sig = x(x)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        from llvmlite import ir

        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def _ptr(typingctx, arr):  # type: ignore[no-untyped-def]
    """The data pointer of a contiguous array (no reference counting in the hot loop)."""
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ary = context.make_array(signature.args[0])(context, builder, value=args[0])
        return ary.data

    return sig, codegen


@intrinsic
def _prefetch(typingctx, ptr, idx):  # type: ignore[no-untyped-def]
    """Start loading ``ptr[idx]`` into the caches (LLVM ``prefetch``: a read, kept close)."""
    sig = types.void(ptr, idx)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        from llvmlite import ir

        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        addr = builder.bitcast(builder.gep(args[0], [args[1]]), i8p)
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p],
                                              ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]))
        builder.call(fn, [addr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@nb.njit(cache=True)  # not inlined: a smaller _rec spills less (paired runs: -1 to -2%)
def _record(w, out, start, end, score, nt):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Write one move (squares start..end of the current line) to ``out``."""
    n = w[P_NOUT]
    mode = w[P_MODE]
    equity = score * 1000
    if mode == 1:
        if w[P_HAVEBEST] and equity + w[P_MAXLEAVE] <= w[P_BEST]:
            return
        if w[P_HASLEAVE]:
            leave = 0
            for t in range(27):
                c = w[W_RACK + t]
                if c:
                    leave += c * w[W_LEAVE + t]
            equity += leave
            if w[P_HAVEBEST] and equity <= w[P_BEST]:
                return
        w[P_HAVEBEST] = 1
        w[P_BEST] = equity
        n = 0
    elif n >= w[P_CAP]:
        w[P_OVERFLOW] = 1
        return
    r = w[P_ROWIDX]
    o = n * O_WIDTH
    d = w[P_DIR]
    out[o + O_SCORE] = score
    if d == 0:
        meta = r | (start << 5)
    else:
        meta = start | (r << 5)
    out[o + O_META] = meta | (d << 10) | ((end - start + 1) << 11) | (nt << 16)
    out[o + O_EQUITY] = equity
    acc = 0
    sh = 0
    k = o + O_TILES
    for i in range(start, end + 1):
        t = w[W_PLACED + i]
        acc |= ((t & 31) | ((t >> 1) & 32)) << sh
        sh += 6
        if sh == 30:
            out[k] = acc
            k += 1
            acc = 0
            sh = 0
    if sh:
        out[k] = acc
    if mode == 0:
        w[P_NOUT] = n + 1
    else:
        w[P_NOUT] = 1


_I32P = types.CPointer(types.int32)
_REC_SIG = types.void(
    _I32P, _I32P, _I32P,
    types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    types.int64, types.int64,
)


@nb.njit(_REC_SIG, cache=True)
def _rec(g, w, out, pos, node, children, mainsc, wmul, xsc, nt, start, rbits):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Fill square ``pos`` of the current line from graph ``node`` (its children mask
    ``children``) and recurse."""
    size = w[P_SIZE]
    anchor = w[P_ANCHOR]
    cell = w[W_ROW + pos]
    if cell != 0:
        # a run of board tiles: follow it to its last tile here rather than with a call per tile
        # (before that last tile no word can end and the separator cannot be taken)
        step = -1 if pos <= anchor else 1
        nxt = pos + step
        while nxt >= 0 and nxt < size and w[W_ROW + nxt] != 0:
            letter = cell & 63
            if not (children >> letter) & 1:
                return
            arc = node + 1 + 2 * _popc(children & ((1 << letter) - 1))
            node = g[arc]
            children = g[arc + 1]
            _prefetch(g, node)
            if not cell & 64:
                mainsc += w[W_VAL + letter]
            pos = nxt
            cell = w[W_ROW + pos]
            nxt = pos + step
        letter = cell & 63
        cand = children & (1 << letter)
    else:
        eff = rbits
        if w[W_RACK] > 0:
            eff = ALL_LETTERS
        cand = children & w[W_CROSS + pos] & eff
    ends = g[node]
    eff0 = rbits
    if w[W_RACK] > 0:
        eff0 = ALL_LETTERS
    left_phase = pos <= anchor
    left_free = pos == 0 or w[W_ROW + pos - 1] == 0
    if left_phase:
        can_end = left_free and (anchor + 1 == size or w[W_ROW + anchor + 1] == 0)
        nq = pos - 1 if pos - 1 > w[P_PREV] else -1
        sq = anchor + 1 if left_free and anchor + 1 < size else -1
    else:
        can_end = pos + 1 == size or w[W_ROW + pos + 1] == 0
        nq = pos + 1 if pos + 1 < size else -1
        sq = -1
    # what the next squares accept (a letter bit for a tile on the board, else the cross-check and rack)
    nmask = 0
    if nq >= 0:
        t = w[W_ROW + nq]
        nmask = (1 << (t & 63)) if t != 0 else w[W_CROSS + nq] & eff0
    smask = 0
    if sq >= 0:
        t = w[W_ROW + sq]
        smask = (1 << (t & 63)) if t != 0 else w[W_CROSS + sq] & eff0
    lmul = w[W_LM + pos]
    wm = w[W_WM + pos]
    xs = w[W_XSUM + pos]
    while cand:
        letter = _ctz(cand)
        cand &= cand - 1
        bit = 1 << letter
        arc = node + 1 + 2 * _popc(children & (bit - 1))
        child = g[arc]
        cm = g[arc + 1]
        _prefetch(g, child)  # the child's node is in memory, not cache: start loading it now
        end = ends & bit
        if not ((end and can_end) or (cm & nmask) or ((cm & 1) and (g[child + 2] & smask))):
            continue  # a dead end: nothing to record and nowhere to go
        for variant in range(2):
            if cell != 0:
                if variant == 1:
                    break
                tv = 0 if cell & 64 else w[W_VAL + letter]
                nmain = mainsc + tv
                nwmul = wmul
                nx = xsc
                nnt = nt
                nrbits = rbits
                w[W_PLACED + pos] = 0
            else:
                if variant == 0:
                    c = w[W_RACK + letter]
                    if c == 0:
                        continue
                    w[W_RACK + letter] = c - 1
                    nrbits = rbits if c > 1 else rbits & ~bit
                    tv = w[W_VAL + letter]
                    w[W_PLACED + pos] = letter
                else:
                    c = w[W_RACK]
                    if c == 0:
                        break
                    w[W_RACK] = c - 1
                    nrbits = rbits
                    tv = 0
                    w[W_PLACED + pos] = letter | 64
                nmain = mainsc + tv * lmul
                nwmul = wmul * wm
                nx = xsc + (xs + tv * lmul) * wm if xs >= 0 else xsc
                nnt = nt + 1
            nstart = pos if left_phase else start
            if end and can_end:
                if not (w[P_DIR] == 1 and nnt == 1 and w[W_XSUM + anchor] >= 0):
                    score = nmain * nwmul + nx
                    if nnt >= w[P_BMIN]:
                        score += w[P_BBONUS]
                    _record(w, out, nstart, anchor if left_phase else pos, score, nnt)
            neff = nrbits
            if w[W_RACK] > 0:
                neff = ALL_LETTERS
            for k in range(2):
                npos = -1
                nnode = 0
                nmk = 0
                if k == 0:
                    npos = nq
                    nnode = child
                    nmk = cm
                elif sq >= 0 and (cm & 1):
                    npos = sq
                    nnode = g[child + 1]  # the separator: always the first arc
                    nmk = g[child + 2]
                if npos >= 0:
                    ncell = w[W_ROW + npos]
                    if ncell != 0:
                        go = (nmk >> (ncell & 63)) & 1
                    else:
                        go = nmk & w[W_CROSS + npos] & neff
                    if go and w[P_MODE] == 1 and w[P_HAVEBEST]:
                        # best mode: the score bound of the spans this continuation can reach
                        more = 1 if ncell == 0 else 0
                        if left_phase:
                            left = nnt - 1
                            if k == 0:
                                bound = w[W_TAB + (left + more) * TAB_W + MAX_RACK + 1]
                            else:
                                bound = w[W_TAB + left * TAB_W + more]
                        else:
                            left = w[P_LCOUNT]
                            bound = w[W_TAB + left * TAB_W + nnt - 1 - left + more]
                        if bound <= w[P_BEST]:
                            go = 0
                    if go:
                        if left_phase and k == 1:
                            w[P_LCOUNT] = nnt - 1
                        _rec(g, w, out, npos, nnode, nmk, nmain, nwmul, nx, nnt, nstart, nrbits)
            if cell == 0:
                if variant == 0:
                    w[W_RACK + letter] += 1
                else:
                    w[W_RACK] += 1
    w[W_PLACED + pos] = 0


_KEY_SEED = 0x9E3779B97F4A7C15


@nb.njit(cache=True)
def _letter_keys():  # type: ignore[no-untyped-def]  # pragma: no cover
    """A random odd 64-bit key per letter: a multiset's key is the sum of its letters' keys."""
    keys = np.zeros(27, np.int64)
    x = np.uint64(_KEY_SEED)
    for t in range(1, 27):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        keys[t] = np.int64(x | np.uint64(1))
    return keys


@nb.njit(cache=True)
def _anagram_table(g, lo, hi):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Open-addressing set of the letter-multiset keys of the words of ``lo``..``hi`` letters.

    Words are read along their fully reversed paths in the GADDAG. Slot 0 of the
    result holds the mask; empty slots are 0. A key collision only makes a bound looser.
    """
    keys = _letter_keys()
    cap = 1 << 10
    table = np.zeros(cap + 1, np.int64)
    count = 0
    nodes = np.zeros(hi + 1, np.int64)
    masks = np.zeros(hi + 1, np.int64)
    cands = np.zeros(hi + 1, np.int64)
    acc = np.zeros(hi + 1, np.int64)
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
        if d + 2 <= hi:
            arc = node + 1 + 2 * _popc(masks[d] & (bit - 1))
            child = g[arc]
            # words of d + 2 letters: this letter, then a last letter from the child's ends mask
            ends = g[child] & ALL_LETTERS
            if d + 2 >= lo:
                while ends:
                    last = _ctz(ends)
                    ends &= ends - 1
                    k = key + keys[last]
                    if k == 0:
                        k = 1
                    if 2 * (count + 1) > cap:
                        ncap = cap * 2
                        nt = np.zeros(ncap + 1, np.int64)
                        for i in range(1, cap + 1):
                            v = table[i]
                            if v != 0:
                                h = (np.uint64(v) >> np.uint64(20)) & np.uint64(ncap - 1)
                                j = np.int64(h)
                                while nt[j + 1] != 0:
                                    j = (j + 1) & (ncap - 1)
                                nt[j + 1] = v
                        table = nt
                        cap = ncap
                    j = np.int64((np.uint64(k) >> np.uint64(20)) & np.uint64(cap - 1))
                    while table[j + 1] != 0 and table[j + 1] != k:
                        j = (j + 1) & (cap - 1)
                    if table[j + 1] == 0:
                        table[j + 1] = k
                        count += 1
            if d + 3 <= hi:
                d += 1
                nodes[d] = child
                masks[d] = g[arc + 1]
                cands[d] = g[arc + 1] & ALL_LETTERS
                acc[d] = key
    table[0] = cap - 1
    return table


@nb.njit(cache=True, inline="always")
def _has_key(table, k):  # type: ignore[no-untyped-def]  # pragma: no cover
    if k == 0:
        k = 1
    mask = table[0]
    j = np.int64((np.uint64(k) >> np.uint64(20)) & np.uint64(mask))
    while True:
        v = table[j + 1]
        if v == k:
            return True
        if v == 0:
            return False
        j = (j + 1) & mask


@nb.njit(cache=True)
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
    for t in range(1, 27):
        key += w[W_RACK + t] * keys[t]
    if blanks == 1:
        for x in range(1, 27):
            if _has_key(table, key + keys[x]):
                return boardmask | 1
        return boardmask
    result = 1 if _has_key(table, key) else 0
    m = boardmask & ALL_LETTERS
    while m:
        x = _ctz(m)
        m &= m - 1
        if _has_key(table, key + keys[x]):
            result |= np.int64(1) << x
    return result


@nb.njit(cache=True, inline="always")
def _follow(g, b, node, m, lo, bot, c):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Whether the tiles of column ``c`` from row ``lo`` to ``bot`` continue a word from
    ``node`` (children mask ``m``), the last one ending it."""
    for i in range(lo, bot):
        lt = b[i, c] & 63
        if not (m >> lt) & 1:
            return False
        arc = node + 1 + 2 * _popc(m & ((1 << lt) - 1))
        node = g[arc]
        m = g[arc + 1]
    return bool((g[node] >> (b[bot, c] & 63)) & 1)


@nb.njit(cache=True)
def _cross(g, b, size, cross, xsum, val):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Cross-check masks and sums of every square for plays along rows of ``b``.

    ``cross[r, c]``: letters allowed by the vertical word through (r, c);
    ``xsum[r, c]``: sum of the tiles of that word, or -1 when there is none.
    """
    root = g[1]
    rootmask = g[3]
    for r in range(size):
        for c in range(size):
            if b[r, c] != 0:
                cross[r, c] = 0
                xsum[r, c] = -1
                continue
            up = r > 0 and b[r - 1, c] != 0
            down = r + 1 < size and b[r + 1, c] != 0
            if not up and not down:
                cross[r, c] = ALL_LETTERS
                xsum[r, c] = -1
                continue
            s = 0
            top = r
            while top > 0 and b[top - 1, c] != 0:
                top -= 1
                t = b[top, c]
                if not t & 64:
                    s += val[t]
            bot = r
            while bot + 1 < size and b[bot + 1, c] != 0:
                bot += 1
                t = b[bot, c]
                if not t & 64:
                    s += val[t]
            xsum[r, c] = s
            mask = 0
            if up:
                node = root
                m = rootmask
                ok = True
                for i in range(r - 1, top - 1, -1):
                    letter = b[i, c] & 63
                    if not (m >> letter) & 1:
                        ok = False
                        break
                    arc = node + 1 + 2 * _popc(m & ((1 << letter) - 1))
                    node = g[arc]
                    m = g[arc + 1]
                if ok and (m & 1):
                    m0 = g[node + 2]  # the separator: always the first arc
                    node = g[node + 1]
                    if not down:
                        mask = g[node] & ALL_LETTERS
                    else:
                        cand = m0 & ALL_LETTERS
                        while cand:
                            letter = _ctz(cand)
                            cand &= cand - 1
                            arc = node + 1 + 2 * _popc(m0 & ((1 << letter) - 1))
                            if _follow(g, b, g[arc], g[arc + 1], r + 1, bot, c):
                                mask |= 1 << letter
            else:
                # tiles only below: the word x + below, reversed, is the path of the tiles from
                # the bottom one up, then x: the ends mask of that path's node
                node = root
                m = rootmask
                for i in range(bot, r, -1):
                    letter = b[i, c] & 63
                    if not (m >> letter) & 1:
                        node = -1
                        break
                    arc = node + 1 + 2 * _popc(m & ((1 << letter) - 1))
                    node = g[arc]
                    m = g[arc + 1]
                if node >= 0:
                    mask = g[node] & ALL_LETTERS
            cross[r, c] = mask


@nb.njit(cache=True)
def _gen_dir(g, w, out, b, lm, wm, direction, start_sq, rbits):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Generate the plays along the rows of ``b`` (the board or its transpose)."""
    size = b.shape[0]
    cross = np.empty((size, size), np.int32)
    xsum = np.empty((size, size), np.int32)
    val = w[W_VAL:W_VAL + 27]
    _cross(g, b, size, cross, xsum, val)
    empty = True
    for r in range(size):
        for c in range(size):
            if b[r, c] != 0:
                empty = False
                break
        if not empty:
            break
    w[P_DIR] = direction
    root = g[1]
    for r in range(size):
        # anchors of this row
        first = True
        prev = -1
        for c in range(size):
            if b[r, c] != 0:
                continue
            if empty:
                is_anchor = r * size + c == start_sq
            else:
                is_anchor = (
                    (c > 0 and b[r, c - 1] != 0) or (c + 1 < size and b[r, c + 1] != 0)
                    or (r > 0 and b[r - 1, c] != 0) or (r + 1 < size and b[r + 1, c] != 0)
                )
            if not is_anchor:
                continue
            if first:
                first = False
                for i in range(size):
                    w[W_ROW + i] = b[r, i]
                    w[W_CROSS + i] = cross[r, i]
                    w[W_XSUM + i] = xsum[r, i]
                    w[W_LM + i] = lm[r * size + i]
                    w[W_WM + i] = wm[r * size + i]
                    w[W_PLACED + i] = 0
                w[P_ROWIDX] = r
            if w[W_CROSS + c] != 0:
                w[P_ANCHOR] = c
                w[P_PREV] = prev
                _rec(_ptr(g), _ptr(w), _ptr(out), c, root, g[3], 0, 1, 0, 0, c, rbits)
            prev = c


@nb.njit(cache=True, inline="always")
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


@nb.njit(cache=True, inline="always")
def _insert_desc(arr, n, v):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Insert ``v`` into ``arr[:n]`` (sorted descending); returns the new length."""
    j = n
    while j > 0 and arr[j - 1] < v:
        arr[j] = arr[j - 1]
        j -= 1
    arr[j] = v
    return n + 1


@nb.njit(cache=True, inline="always")  # one call per anchor: the call's cost was a sixth of it
def _shadow(bb, r, c, prev, cross, xsum, lm, wm, val, rvals, nr, eff, nat, bmin, bbonus, bingo, lvb, scratch, tab):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Upper bounds of the equities (milli-points) of the plays made from anchor (r, c) of board ``bb``.

    For every span the rack could cover from the anchor (``l`` tiles left of it,
    up to the previous anchor, and ``k`` right of it), the score is bounded by
    pairing the rack's tile values (``rvals``, sorted descending) with the
    squares' score coefficients sorted descending, or (when smaller) by giving each
    square with a cross-word its best allowed rack letter (``nat``: the rack's letters)
    and pairing the other squares with the rack's values; the bingo bonus counts only where
    ``bingo`` (see :func:`_bingo_mask`, -1 = unknown) allows a word of the whole rack plus
    the tiles played through. The leave is bounded by ``lvb[n]``, the best value of the tiles
    kept when ``n`` are played. ``tab[l, k]`` receives the bound of that span (:data:`NO_BOUND`
    where impossible); the largest bound is returned.
    """
    size = bb.shape[0]
    base = r * size
    lpos = scratch[0]
    rpos = scratch[1]
    coef = scratch[2]
    pre = scratch[3]
    occ = scratch[4]
    lsum = scratch[5]
    coefb = scratch[6]
    nl = 0
    x = c - 1
    while x > prev and nl < nr - 1:
        if bb[r, x] == 0:
            if cross[r, x] & eff == 0:
                break
            lpos[nl] = x
            nl += 1
        x -= 1
    nrt = 0
    x = c + 1
    while x < size and nrt < nr - 1:
        if bb[r, x] == 0:
            if cross[r, x] & eff == 0:
                break
            rpos[nrt] = x
            nrt += 1
        x += 1
    # only rows 0..nr and columns 0..nr (and the last) are read: runtime loop bounds (constant
    # ones get unrolled and slow compilation)
    last = tab.shape[1] - 1  # column of the ">= l left tiles" bounds
    for i in range(nr + 1):
        for j in range(nr + 1):
            tab[i, j] = NO_BOUND
        tab[i, last] = NO_BOUND
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
            total = total * 1000 + lvb[nlft + nrgt + 1]
            tab[nlft, nrgt] = total
            if total > best:
                best = total
    # suffix maxima: tab[l, k] = best over spans with l left and >= k right tiles;
    # tab[l, MAX_RACK + 1] = best over spans with >= l left tiles
    for i in range(nl + 1):
        for j in range(nr - 1, -1, -1):
            if tab[i, j + 1] > tab[i, j]:
                tab[i, j] = tab[i, j + 1]
    tab[nl, last] = tab[nl, 0]
    for i in range(nl - 1, -1, -1):
        tab[i, last] = max(tab[i, 0], tab[i + 1, last])
    return best


@nb.njit(cache=True, inline="always")
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


@nb.njit(cache=True)
def _anchors(bb, empty, start_sq, cross, eff, out_r, out_c, out_p, n):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Append the anchors of board ``bb`` (row, col, previous anchor of the row)."""
    size = bb.shape[0]
    for r in range(size):
        prev = -1
        for c in range(size):
            if bb[r, c] != 0:
                continue
            if empty:
                is_anchor = r * size + c == start_sq
            else:
                is_anchor = (
                    (c > 0 and bb[r, c - 1] != 0) or (c + 1 < size and bb[r, c + 1] != 0)
                    or (r > 0 and bb[r - 1, c] != 0) or (r + 1 < size and bb[r + 1, c] != 0)
                )
            if not is_anchor:
                continue
            if cross[r, c] & eff:
                out_r[n] = r
                out_c[n] = c
                out_p[n] = prev
                n += 1
            prev = c
    return n


@nb.njit(cache=True)
def _generate_best(g, anag, w, out, board, lm, wm, lmT, wmT, start_sq, start_sqT, rbits):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Best-only generation: anchors in decreasing order of their score bound, stopping early."""
    size = w[P_SIZE]
    b = board.reshape((size, size))
    bt = np.ascontiguousarray(b.T)
    val = w[W_VAL:W_VAL + 27]
    empty = True
    for i in range(size * size):
        if board[i] != 0:
            empty = False
            break
    cross = np.empty((2, size, size), np.int32)
    xsum = np.empty((2, size, size), np.int32)
    ndir = 1 if empty else 2
    for d in range(ndir):
        _cross(g, b if d == 0 else bt, size, cross[d], xsum[d], val)
    eff = rbits
    if w[W_RACK] > 0:
        eff = ALL_LETTERS
    # rack tile values, descending
    nr = 0
    rvals = np.zeros(MAX_RACK, np.int64)
    for t in range(27):
        for _ in range(w[W_RACK + t]):
            v = 0 if t == 0 else val[t]
            j = nr
            while j > 0 and rvals[j - 1] < v:
                rvals[j] = rvals[j - 1]
                j -= 1
            rvals[j] = v
            nr += 1
    if nr == 0:
        return
    # lvb[n]: the largest leave value when n tiles are played (the n - nr best kept tiles), milli-points
    lvb = np.zeros(MAX_RACK + 1, np.int64)
    if w[P_HASLEAVE]:
        lv = np.zeros(MAX_RACK, np.int64)
        m = 0
        for t in range(27):
            for _ in range(w[W_RACK + t]):
                m = _insert_desc(lv, m, w[W_LEAVE + t])
        for n_played in range(1, nr + 1):
            for j in range(nr - n_played):
                lvb[n_played] += lv[j]
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
    tabs = np.empty((n, MAX_RACK + 1, MAX_RACK + 2), np.int32)
    srow = -1
    for i in range(n):
        d = 0 if i < n0 else 1
        if ar[i] + MAX_SIZE * d != srow:  # anchors come row by row: the row's sums once
            srow = ar[i] + MAX_SIZE * d
            _row_sums(b if d == 0 else bt, ar[i], val, scratch)
        bounds[i] = _shadow(b if d == 0 else bt, ar[i], ac[i], ap[i], cross[d], xsum[d], lm if d == 0 else lmT,
                            wm if d == 0 else wmT, val, rvals, nr, eff, rbits, bmin, bbonus, bingo, lvb, scratch, tabs[i])
    order = np.empty(n, np.int64)  # anchors by decreasing bound (insertion sort: n is small)
    for i in range(n):
        j = i
        while j > 0 and bounds[order[j - 1]] < bounds[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    root = g[1]
    lastrow = -1
    lastdir = -1
    for oi in range(n):
        i = order[oi]
        if w[P_HAVEBEST] and bounds[i] <= w[P_BEST]:
            break
        d = 0 if i < n0 else 1
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
        w[P_ANCHOR] = c
        w[P_PREV] = ap[i]
        tab = tabs[i]
        for x in range(nr + 1):  # the part _rec reads (see _shadow)
            for y in range(nr + 1):
                w[W_TAB + x * TAB_W + y] = tab[x, y]
            w[W_TAB + x * TAB_W + MAX_RACK + 1] = tab[x, MAX_RACK + 1]
        _rec(_ptr(g), _ptr(w), _ptr(out), c, root, g[3], 0, 1, 0, 0, c, rbits)


@nb.njit(cache=True, nogil=True)
def _generate(g, anag, w, out, board, lm, wm, lmT, wmT, start_sq, start_sqT):  # type: ignore[no-untyped-def]  # pragma: no cover
    size = w[P_SIZE]
    rbits = 0
    for t in range(1, 27):
        if w[W_RACK + t] > 0:
            rbits |= 1 << t
    if w[P_HASLEAVE]:
        ml = 0
        for t in range(27):
            if w[W_LEAVE + t] > 0:
                ml += w[W_RACK + t] * w[W_LEAVE + t]
        w[P_MAXLEAVE] = ml
    if w[P_MODE] == 1:
        _generate_best(g, anag, w, out, board, lm, wm, lmT, wmT, start_sq, start_sqT, rbits)
        return
    b = board.reshape((size, size))
    empty = True
    for i in range(size * size):
        if board[i] != 0:
            empty = False
            break
    bt = np.ascontiguousarray(b.T)
    for d in range(1 if empty else 2):  # one call site keeps compilation short
        _gen_dir(g, w, out, b if d == 0 else bt, lm if d == 0 else lmT, wm if d == 0 else wmT, d,
                 start_sq if d == 0 else start_sqT, rbits)


@nb.njit(cache=True, nogil=True)
def _many(g, anag, w0, out, boards, racks, prem, result):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Run many positions in one call: counts (mode 0) or best rows (mode 1) into ``result``.

    ``prem`` rows: letter and word multipliers of the board, then of its transpose
    (few arguments: the dispatcher's per-call cost grows with their number).
    ``anag``: the anagram set of :func:`_anagram_table` (best mode's bingo test).
    """
    lm = prem[0]
    wm = prem[1]
    lmT = prem[2]
    wmT = prem[3]
    start_sq = w0[P_START]
    start_sqT = w0[P_STARTT]
    for i in range(boards.shape[0]):
        total = 0
        bad = False
        for t in range(27):
            c = racks[i, t]
            bad = bad or c < 0
            total += c
        if bad or total > MAX_RACK:
            result[i, O_HAVE] = -1  # a bad rack: the caller raises
            continue
        w = w0.copy()
        w[P_CAP] = out.shape[0]
        for t in range(27):
            w[W_RACK + t] = racks[i, t]
        _generate(g, anag, w, out, boards[i], lm, wm, lmT, wmT, start_sq, start_sqT)
        if w[P_MODE] == 0:
            result[i, 0] = -1 if w[P_OVERFLOW] else w[P_NOUT]
        else:
            if w[P_HAVEBEST]:
                for k in range(O_WIDTH):
                    result[i, k] = out[0, k]
                result[i, O_HAVE] = 1


# ---------------------------------------------------------------------------------------
# Python API
# ---------------------------------------------------------------------------------------

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _tile_char(t: int) -> str:
    if t == 0:
        return "."
    if t & BLANK_FLAG:
        return LETTERS[(t & 63) - 1].lower()
    return LETTERS[t - 1]


@dataclass(frozen=True)
class Move:
    """One placement: its first square, direction, and the tiles of its whole line.

    ``tiles[i]`` is the tile placed on the i-th square of the line (a letter code,
    ``letter | 0x40`` for a blank) or 0 where a tile already on the board is
    played through; ``word`` is the full word with those letters filled in.
    """

    score: int
    row: int
    col: int
    down: bool
    tiles: tuple[int, ...]
    word: str
    equity: float | None = None

    def text(self) -> tuple[int, int, bool, str]:
        """``(row, col, down, word)``: upper case placed, lower case blank, ``.`` played through."""
        return (self.row, self.col, self.down, "".join(_tile_char(t) for t in self.tiles))

    def squares(self) -> list[tuple[int, int, int]]:
        """``(row, col, tile)`` of every tile placed."""
        out = []
        for i, t in enumerate(self.tiles):
            if t:
                r, c = (self.row + i, self.col) if self.down else (self.row, self.col + i)
                out.append((r, c, t))
        return out

    def cells(self) -> str:
        """Placed tiles in the reference text form, e.g. ``H8=Q H9=i`` (column letter, row number)."""
        return " ".join(f"{LETTERS[c]}{r + 1}={_tile_char(t)}" for r, c, t in self.squares())

    @property
    def tile_count(self) -> int:
        """Number of tiles placed."""
        return sum(1 for t in self.tiles if t)


class MoveList:
    """The moves of one position as numpy arrays (one entry per move).

    ``score``, ``row``, ``col``, ``direction`` (0 across, 1 down), ``length``
    (squares of the line), ``ntiles`` (tiles placed), ``tiles`` (n x 21 tile
    codes of the line, 0 where played through).
    """

    score: np.ndarray
    row: np.ndarray
    col: np.ndarray
    direction: np.ndarray
    length: np.ndarray
    ntiles: np.ndarray
    equity: np.ndarray
    tiles: np.ndarray

    def __init__(self, out: np.ndarray, board: np.ndarray, size: int) -> None:
        self._out = out
        self.board = board.reshape(size, size)
        self.size = size
        (self.score, self.row, self.col, self.direction, self.length, self.ntiles,
         self.equity, self.tiles) = _decode(out)

    def __len__(self) -> int:
        return int(self._out.shape[0])

    def __getitem__(self, i: int) -> Move:
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        r, c, d, n = int(self.row[i]), int(self.col[i]), bool(self.direction[i]), int(self.length[i])
        tiles = tuple(int(t) for t in self.tiles[i, :n])
        return Move(int(self.score[i]), r, c, d, tiles, _full_word(self.board, r, c, d, tiles),
                    float(self.equity[i]))

    def __iter__(self) -> Iterator[Move]:
        for i in range(len(self)):
            yield self[i]

    def text(self, i: int) -> tuple[int, int, bool, str]:
        """The plain text form of move ``i`` (see :meth:`Move.text`)."""
        return self[i].text()

    def cells(self, i: int) -> str:
        """The reference cells text of move ``i``."""
        return self[i].cells()

    def word(self, i: int) -> str:
        """The main word of move ``i`` with played-through letters filled in."""
        return self[i].word


_Decoded = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _decode(out: np.ndarray) -> _Decoded:
    """Unpack output rows: score, row, col, direction, length, ntiles, equity, tiles (n x 21)."""
    out = out[:, :O_WIDTH]
    meta = out[:, O_META]
    length = (meta >> 11) & 31
    n = len(out)
    packed = out[:, O_TILES:O_TILES + 5]
    shifts = np.arange(5, dtype=np.int32) * 6
    six = (packed[:, :, None] >> shifts[None, None, :]) & 63  # n x 5 x 5
    six = six.reshape(n, 25)[:, :MAX_SIZE]
    tiles = (six & 31) | ((six & 32) << 1)
    tiles[np.arange(MAX_SIZE)[None, :] >= length[:, None]] = 0
    return (out[:, O_SCORE].copy(), meta & 31, (meta >> 5) & 31, (meta >> 10) & 1, length,
            (meta >> 16) & 31, out[:, O_EQUITY] / 1000.0, tiles.astype(np.int32))


def _full_word(board: np.ndarray, r: int, c: int, d: bool, tiles: tuple[int, ...]) -> str:
    word = []
    for i, t in enumerate(tiles):
        if t == 0:
            t = int(board[r + i, c] if d else board[r, c + i])
        word.append(LETTERS[(t & 63) - 1])
    return "".join(word)


def _move_from_row(row: np.ndarray, board: np.ndarray) -> Move:
    """Decode one output row (scalar code: much faster than :func:`_decode` for a single move)."""
    v = row.tolist()
    meta = v[O_META]
    r, c, d, n = meta & 31, (meta >> 5) & 31, (meta >> 10) & 1, (meta >> 11) & 31
    tiles = []
    for i in range(n):
        six = (v[O_TILES + i // 5] >> (6 * (i % 5))) & 63
        tiles.append((six & 31) | ((six & 32) << 1))
    t = tuple(tiles)
    return Move(v[O_SCORE], r, c, bool(d), t, _full_word(board, r, c, bool(d), t), v[O_EQUITY] / 1000.0)


class MoveGenerator:
    """A move generator for one graph, layout, tile values and bingo rule.

    ``values`` are tile values indexed by letter code (length 27 with index 0 the
    blank, or length 26 for letters ``A``..``Z`` such as ``ENGLISH.values``).
    A play of at least ``bingo_tiles`` tiles scores ``bingo_bonus`` extra.
    """

    def __init__(
        self,
        graph: np.ndarray,
        layout: Layout = STANDARD,
        values: Sequence[int] | np.ndarray = ENGLISH.values,
        bingo_tiles: int = 7,
        bingo_bonus: int = 50,
    ) -> None:
        self.graph = np.array(graph, dtype=np.int32)  # a writable in-memory copy
        if self.graph[0] != gaddag.MAGIC:
            raise ValueError("not a GADDAG array")
        self.layout = layout
        size = layout.size
        if size > MAX_SIZE:
            raise ValueError(f"boards up to {MAX_SIZE}x{MAX_SIZE} are supported")
        self.size = size
        vals = np.zeros(27, np.int32)
        v = np.asarray(values, dtype=np.int32)
        if len(v) == 26:
            vals[1:] = v
        elif len(v) == 27:
            vals[:] = v
            vals[0] = 0
        else:
            raise ValueError("values must have 26 or 27 entries")
        self.values = vals
        self.lm = np.asarray(layout.letter_multipliers(), np.int32)
        self.wm = np.asarray(layout.word_multipliers(), np.int32)
        self.lmT = np.ascontiguousarray(self.lm.reshape(size, size).T).ravel()
        self.wmT = np.ascontiguousarray(self.wm.reshape(size, size).T).ravel()
        self.start = layout.start
        sr, sc = divmod(self.start, size)
        self.startT = sc * size + sr
        self.prem = np.ascontiguousarray(np.stack([self.lm, self.wm, self.lmT, self.wmT]))
        self.bingo_tiles = bingo_tiles
        self.bingo_bonus = bingo_bonus
        self._anag: np.ndarray | None = None
        self._no_anagrams = np.zeros(1, np.int64)
        self._local = threading.local()  # output buffers per thread (the compiled code releases the GIL)
        self._templates = (self._work(np.zeros(27, np.int32), 0, 0), self._work(np.zeros(27, np.int32), 1, 1))

    def _anagrams(self) -> np.ndarray:
        """Letter-multiset keys of the words of ``bingo_tiles`` and one more letters (built on first use)."""
        table: np.ndarray | None = self._anag
        if table is None:
            if 2 <= self.bingo_tiles <= MAX_RACK:
                table = _anagram_table(self.graph, self.bingo_tiles, self.bingo_tiles + 1)
            else:
                table = self._no_anagrams
            self._anag = table
        return table

    def _buffer(self) -> np.ndarray:
        out: np.ndarray | None = getattr(self._local, "out", None)
        if out is None:
            out = self._local.out = np.zeros((32768, O_WIDTH), np.int32)
        return out

    def _work(self, rack: np.ndarray, mode: int, cap: int) -> np.ndarray:
        w = np.zeros(W_SIZE, np.int32)
        w[W_RACK:W_RACK + 27] = np.asarray(rack, dtype=np.int32)
        w[W_VAL:W_VAL + 27] = self.values
        w[P_SIZE] = self.size
        w[P_BMIN] = self.bingo_tiles
        w[P_BBONUS] = self.bingo_bonus
        w[P_CAP] = cap
        w[P_MODE] = mode
        w[P_START] = self.start
        w[P_STARTT] = self.startT
        return w

    def _board(self, board: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(board, dtype=np.int32).ravel()
        if len(b) != self.size * self.size:
            raise ValueError(f"board must have {self.size * self.size} squares")
        return b

    def _run(
        self, boards: np.ndarray, racks: np.ndarray, mode: int, out: np.ndarray,
        leave_values: Sequence[float] | np.ndarray | None = None,
    ) -> np.ndarray:
        """Run the compiled loop (the only compiled entry point) over positions; returns its result rows."""
        boards = np.ascontiguousarray(boards, dtype=np.int32).reshape(len(boards), -1)
        if boards.shape[1] != self.size * self.size:
            raise ValueError(f"board must have {self.size * self.size} squares")
        racks = np.ascontiguousarray(racks, dtype=np.int32).reshape(len(boards), 27)
        w0 = self._templates[mode]  # read-only here (threads share it); the compiled loop copies it
        if leave_values is not None:
            lv = np.asarray(leave_values, dtype=np.float64)
            if lv.shape != (27,):
                raise ValueError("leave_values must have 27 entries")
            w0 = w0.copy()
            w0[W_LEAVE:W_LEAVE + 27] = np.round(lv * 1000).astype(np.int32)
            w0[P_HASLEAVE] = 1
        result = np.zeros((len(boards), O_WIDTH + 1), np.int32)
        _many(self.graph, self._anagrams() if mode == 1 else self._no_anagrams, w0, out, boards, racks, self.prem,
              result)
        if len(result) and (result[0, O_HAVE] < 0 or (len(result) > 1 and (result[:, O_HAVE] < 0).any())):
            raise ValueError(f"a rack holds 0..{MAX_RACK} tiles")
        return result

    def _all(self, board: np.ndarray, rack: np.ndarray) -> tuple[np.ndarray, int]:
        b = self._board(board)
        r = np.asarray(rack, dtype=np.int32)
        if r.shape != (27,):
            raise ValueError("a rack is 27 counts (index 0 = blanks)")
        while True:
            out = self._buffer()
            n = int(self._run(b[None, :], r[None, :], 0, out)[0, 0])
            if n >= 0:
                return out, n
            self._local.out = np.zeros((out.shape[0] * 2, O_WIDTH), np.int32)  # overflow: grow, redo

    def generate(self, board: np.ndarray, rack: np.ndarray) -> MoveList:
        """Every legal placement of ``rack`` on ``board``."""
        out, n = self._all(board, rack)
        return MoveList(out[:n].copy(), self._board(board), self.size)

    def count(self, board: np.ndarray, rack: np.ndarray) -> int:
        """Number of legal placements (no Python objects are made)."""
        return self._all(board, rack)[1]

    def best(
        self, board: np.ndarray, rack: np.ndarray, leave_values: Sequence[float] | np.ndarray | None = None
    ) -> Move | None:
        """The highest-scoring placement (or highest score + leave value), or None.

        ``leave_values``: optional value of each tile kept on the rack, indexed
        like the rack (27 entries, index 0 = blank); a move's equity is its
        score plus the values of the tiles it leaves.
        """
        b = self._board(board)
        r = np.asarray(rack, dtype=np.int32)
        if r.shape != (27,):
            raise ValueError("a rack is 27 counts (index 0 = blanks)")
        row = self._run(b[None, :], r[None, :], 1, np.zeros((1, O_WIDTH), np.int32), leave_values)[0]
        if not row[O_HAVE]:
            return None
        return _move_from_row(row, b.reshape(self.size, self.size))

    def count_many(self, boards: np.ndarray, racks: np.ndarray) -> np.ndarray:
        """Number of placements of each position (boards: n x size*size, racks: n x 27), in one compiled loop."""
        result = self._run(boards, racks, 0, self._buffer())
        counts = result[:, 0].copy()
        for i in np.flatnonzero(counts < 0):  # output buffer overflow: redo with a larger buffer
            counts[i] = self.count(np.asarray(boards).reshape(len(counts), -1)[i], np.asarray(racks)[i])
        return counts

    def best_many(
        self, boards: np.ndarray, racks: np.ndarray, leave_values: Sequence[float] | np.ndarray | None = None
    ) -> list[Move | None]:
        """:meth:`best` of each position, in one compiled loop."""
        result = self._run(boards, racks, 1, np.zeros((1, O_WIDTH), np.int32), leave_values)
        flat = np.asarray(boards, dtype=np.int32).reshape(len(result), -1)
        moves: list[Move | None] = []
        for i in range(len(result)):
            if result[i, O_HAVE]:
                moves.append(_move_from_row(result[i].copy(), flat[i].reshape(self.size, self.size)))
            else:
                moves.append(None)
        return moves


def stack_positions(positions: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Boards and racks of many positions as two 2-D int32 arrays (for the ``*_many`` methods)."""
    boards = np.ascontiguousarray(np.stack([np.asarray(b, np.int32).ravel() for b, _ in positions]))
    racks = np.ascontiguousarray(np.stack([np.asarray(r, np.int32) for _, r in positions]))
    return boards, racks


def exchanges(rack: np.ndarray) -> list[np.ndarray]:
    """Every distinct non-empty sub-multiset of a rack (as count arrays of length 27)."""
    r = [int(x) for x in np.asarray(rack)]
    idx = [i for i, c in enumerate(r) if c]
    result: list[np.ndarray] = []

    def rec(k: int, cur: list[int]) -> None:
        if k == len(idx):
            if any(cur):
                a = np.zeros(len(r), np.int32)
                for i, c in zip(idx, cur):
                    a[i] = c
                result.append(a)
            return
        for c in range(r[idx[k]] + 1):
            cur.append(c)
            rec(k + 1, cur)
            cur.pop()

    rec(0, [])
    return result


PASS = None
"""The pass move (a turn that places nothing and scores 0)."""


# ---------------------------------------------------------------------------------------
# Text formats, lexicons and the command line
# ---------------------------------------------------------------------------------------

def parse_board(lines: Sequence[str]) -> np.ndarray:
    """A board from text lines (``A-Z`` tile, ``a-z`` blank, ``.`` empty) as a flat int32 array."""
    size = len(lines)
    b = np.zeros(size * size, np.int32)
    for r, line in enumerate(lines):
        if len(line) != size:
            raise ValueError(f"board line {r + 1} has {len(line)} squares, not {size}")
        for c, ch in enumerate(line):
            if ch == ".":
                continue
            if "A" <= ch <= "Z":
                b[r * size + c] = ord(ch) - 64
            elif "a" <= ch <= "z":
                b[r * size + c] = (ord(ch) - 96) | BLANK_FLAG
            else:
                raise ValueError(f"bad board character {ch!r}")
    return b


def parse_rack(text: str) -> np.ndarray:
    """Rack counts (27, index 0 = blanks) from text like ``AB?``."""
    r = np.zeros(27, np.int32)
    for ch in text.strip():
        if ch == "?":
            r[0] += 1
        elif ch.isalpha() and ch.isascii():
            r[ord(ch.upper()) - 64] += 1
        else:
            raise ValueError(f"bad rack character {ch!r}")
    return r


def read_positions(path: str | Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """Positions of a file: board lines, then ``RACK: ...``, then an empty line."""
    positions = []
    lines: list[str] = []
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line:
                continue
            if line.startswith("RACK:"):
                positions.append((parse_board(lines), parse_rack(line[5:])))
                lines = []
            else:
                lines.append(line)
    return positions


def load_lexicon_words(name: str) -> list[str]:
    """Upper-case words of ``twl06``, ``sowpods``, ``enable`` or a word-list file (see :mod:`qiza.lexicon`)."""
    from qiza.lexicon import load_lexicon

    return sorted(load_lexicon(name).words)


def load_generator(lexicon: str = "twl06", layout: Layout = STANDARD) -> MoveGenerator:
    """A generator for a named lexicon (the graph is cached in :func:`gaddag.default_cache_dir`)."""
    g = gaddag.load_or_build(load_lexicon_words(lexicon), gaddag.default_cache_dir())
    return MoveGenerator(g, layout)


def movegen_main(argv: Sequence[str] | None = None) -> int:
    """``qiza movegen [--lexicon NAME|PATH] [--count] FILE``.

    Prints every move of each position of FILE as ``index<TAB>score<TAB>cells``,
    or with ``--count`` the number of moves of each position, one per line.
    """
    parser = argparse.ArgumentParser(prog="qiza movegen", description="Generate all placements of positions.")
    parser.add_argument("--lexicon", default="twl06", help="twl06, sowpods, enable or a word-list file")
    parser.add_argument("--count", action="store_true", help="print only the number of moves of each position")
    parser.add_argument("file", help="positions file (board lines, RACK: line, empty line)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    gen = load_generator(args.lexicon)
    out = sys.stdout
    for i, (board, rack) in enumerate(read_positions(args.file)):
        if args.count:
            out.write(f"{gen.count(board, rack)}\n")
        else:
            moves = gen.generate(board, rack)
            for m in moves:
                out.write(f"{i}\t{m.score}\t{m.cells()}\n")
    out.flush()
    return 0


def read_reference_moves(path: str | Path) -> dict[int, set[tuple[str, int]]]:
    """The shared ``moves.txt.gz``: position index -> set of (cells, score)."""
    ref: dict[int, set[tuple[str, int]]] = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            i, score, cells = line.rstrip("\n").split("\t")
            ref.setdefault(int(i), set()).add((cells, int(score)))
    return ref


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(movegen_main())
