"""The compiled search of the move generator (:mod:`qiza.movegen`): Gordon's algorithm over a GADDAG.

The generator walks a GADDAG (:mod:`qiza.gaddag`) from every anchor square.
Everything in the hot loop is a flat integer array:

* the graph ``g`` (see :mod:`qiza.gaddag` for its layout);
* a work array ``w`` holding the current board line, its cross-check masks and
  cross-word sums, its premiums, the rack counts, tile values and parameters
  (the ``W_*`` and ``P_*`` offsets below);
* an output array ``out`` with one row per move (see ``O_*`` below).

``g`` and ``w`` are ``int32`` for alphabets of up to 30 letters (every mask fits) and
``int64`` above (Polish has 32 letters): :func:`_rec` is compiled for both.

Boards are ``size * size`` arrays of tile codes: 0 empty, 1..N a natural tile (N up to 63),
``letter | 0x40`` a blank played as that letter. Racks are N + 1 counts (``P_KINDS``),
index 0 = blanks: 27 for English.

:func:`_rec` is recursive with an explicit signature and a single call site, and
takes raw pointers: that keeps its compilation short and its on-disk cache valid. Its
signature is compiled (or loaded from the cache) by :func:`prepare`, before the first call
of the compiled code, not when this module is imported: importing the move generator
compiles nothing (see :mod:`qiza.coldstart`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, cast

import numba as nb
import numpy as np
from numba import types
from numba.extending import intrinsic

from qiza.jitcache import CACHE

_CPointer = cast(Callable[[Any], Any], types.CPointer)
"""Numba's pointer type of a type (an untyped class of Numba's)."""

MAX_SIZE = 21
MAX_RACK = 9
MAX_KINDS = 64  # tile kinds: the blank and up to 63 letters
ALL_LETTERS = -2  # every bit but the separator's: a mask of every letter, whatever the alphabet

# -- work array layout ------------------------------------------------------------------
W_ROW = 0
W_CROSS = 32
W_XSUM = 64
W_LM = 96
W_WM = 128
W_PLACED = 160
W_RACK = 192
W_VAL = W_RACK + MAX_KINDS
W_LEAVE = W_VAL + MAX_KINDS
P = W_LEAVE + MAX_KINDS
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
P_HASLEAVE = P + 15  # best mode: leave values are given (1: per tile at W_LEAVE; 2: per sub-leave at W_SUB)
P_START = P + 17  # the start square, on the board and on its transpose
P_STARTT = P + 18
P_LCOUNT = P + 16  # best mode: tiles placed left of the anchor (right part of the search)
P_KINDS = P + 19  # tile kinds of the alphabet: letters + 1 (27 for English)
P_BLANKS0 = P + 20  # blanks on the rack before the move (a move used one when W_RACK holds fewer)
P_SHADOW = P + 21  # 1: board tiles right of the anchor, the left part read on from them too (W_SNODE)
P_NEAR = P + 22  # best mode: 1 keeps every play within P_MARGIN of the best (rows of out), 0 the first best found
P_MARGIN = P + 23  # ... how far below the best a play kept may be (milli-points)
P_TOP = P + 24  # ... the best equity found (P_BEST is then the bound a play must beat to be kept)
W_TAB = P + 32  # best mode: span bounds of the current anchor (see _shadow), rows of TAB_W
TAB_W = MAX_RACK + 2
W_TABB = W_TAB + (MAX_RACK + 1) * TAB_W  # ... the same of the plays that put down a blank (their leave keeps none)
MAX_SUB = 1 << MAX_RACK  # sub-leaves of a rack: at most 2^9 (nine different tiles)
W_RADIX = W_TABB + (MAX_RACK + 1) * TAB_W + 8  # best mode, leave table: the rack's mixed radix (P_KINDS)
W_SUB = W_RADIX + MAX_KINDS  # ... the value of each sub-leave by its code (milli-points)
W_LVB = W_SUB + MAX_SUB  # ... the best sub-leave value by tiles played (MAX_RACK + 1)
W_SNODE = W_LVB + MAX_RACK + 1  # P_SHADOW: the graph node after the tiles right of the anchor, backwards,
W_SMASK = W_SNODE + MAX_RACK + 2  # and the left part's tiles (by tiles placed), and its children mask
W_SIZE = W_SMASK + MAX_RACK + 2 + 8

# -- output rows ------------------------------------------------------------------------
# score, meta = row | col << 5 | direction << 10 | length << 11 | tiles placed << 16
# | blanks << 21 (bit 21 + i: the i-th tile placed, from the first square, is a blank),
# equity (best mode, milli-points), then the letters of the line packed 5 per int32,
# 6 bits each (the letter, 0 where played through).
O_SCORE = 0
O_META = 1
O_EQUITY = 2
O_TILES = 3
O_WIDTH = 8
O_HAVE = O_WIDTH  # result rows: one more column, 1 when there is a move (best mode), -1 for a bad rack
META_BLANKS = 21  # the first bit of the placed tiles' blank flags in the meta column


@intrinsic
def _popc_ir(typingctx, x):  # type: ignore[no-untyped-def]
    """Population count through the LLVM ``ctpop`` intrinsic."""
    sig = x(x)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _ctz_ir(typingctx, x):  # type: ignore[no-untyped-def]
    """Count trailing zeros through the LLVM ``cttz`` intrinsic (x != 0)."""
    sig = x(x)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        from llvmlite import ir

        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def _ptr_ir(typingctx, arr):  # type: ignore[no-untyped-def]
    """The data pointer of a contiguous array (no reference counting in the hot loop)."""
    sig = _CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ary = context.make_array(signature.args[0])(context, builder, value=args[0])
        return ary.data

    return sig, codegen


@intrinsic
def _prefetch_ir(typingctx, ptr, idx):  # type: ignore[no-untyped-def]
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


# What compiled code calls (Numba passes the typing context of the definitions above itself):
_popc = cast(Callable[[int], int], _popc_ir)
"""The bits set in an integer."""
_ctz = cast(Callable[[int], int], _ctz_ir)
"""The zero bits below the lowest bit set of an integer (not 0)."""
_ptr = cast(Callable[[np.ndarray], Any], _ptr_ir)
"""The data pointer of a contiguous array."""
_prefetch = cast(Callable[[Any, int], None], _prefetch_ir)
"""Start loading an element of a data pointer into the caches."""


@nb.njit(cache=CACHE)  # not inlined: a smaller _rec spills less (paired runs: -1 to -2%)
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
            if w[P_HASLEAVE] == 2:  # the value of the sub-leave kept, by its mixed-radix code
                code = 0
                for t in range(w[P_KINDS]):
                    c = w[W_RACK + t]
                    if c:
                        code += c * w[W_RADIX + t]
                leave = w[W_SUB + code]
            else:
                for t in range(w[P_KINDS]):
                    c = w[W_RACK + t]
                    if c:
                        leave += c * w[W_LEAVE + t]
            equity += leave
            if w[P_HAVEBEST] and equity <= w[P_BEST]:
                return
        if w[P_NEAR]:
            n = _keep_near(w, out, equity)
            if n < 0:
                return
        else:
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
    out[o + O_EQUITY] = equity
    acc = 0
    sh = 0
    k = o + O_TILES
    for i in range(start, end + 1):
        acc |= (w[W_PLACED + i] & 63) << sh
        sh += 6
        if sh == 30:
            out[k] = acc
            k += 1
            acc = 0
            sh = 0
    if sh:
        out[k] = acc
    blanks = 0
    if w[W_RACK] < w[P_BLANKS0]:  # the move puts down a blank: flag the tiles that are blanks
        bb = META_BLANKS
        for i in range(start, end + 1):
            t = w[W_PLACED + i]
            if t:
                blanks |= ((t >> 6) & 1) << bb
                bb += 1
    out[o + O_META] = meta | (d << 10) | ((end - start + 1) << 11) | (nt << 16) | blanks
    if mode == 0 or w[P_NEAR]:
        w[P_NOUT] = n + 1
    else:
        w[P_NOUT] = 1


@nb.njit(cache=CACHE)
def _keep_near(w, out, equity):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Best mode with ``P_NEAR``: make room for a play of ``equity`` (not below ``P_BEST``, the
    bound to beat) among the plays kept in ``out``; a new best drops those more than ``P_MARGIN``
    below it. Returns the row to write, -1 when ``out`` is full (``P_OVERFLOW`` set)."""
    n = w[P_NOUT] if w[P_HAVEBEST] else 0
    if not w[P_HAVEBEST] or equity > w[P_TOP]:
        low = equity - w[P_MARGIN]
        k = 0
        for i in range(n):
            if out[i * O_WIDTH + O_EQUITY] >= low:
                if k != i:
                    for x in range(O_WIDTH):
                        out[k * O_WIDTH + x] = out[i * O_WIDTH + x]
                k += 1
        n = k
        w[P_HAVEBEST] = 1
        w[P_TOP] = equity
        w[P_BEST] = low - 1
    w[P_NOUT] = n
    if n >= w[P_CAP]:
        w[P_OVERFLOW] = 1
        return -1
    return n


_I32P = _CPointer(types.int32)
_I64P = _CPointer(types.int64)
_SCALARS = (types.int64,) * 9
_REC_SIG = types.void(_I32P, _I32P, _I32P, *_SCALARS)
"""The narrow search: graph and work array of ``int32`` (alphabets of up to 30 letters)."""
_REC_SIG_WIDE = types.void(_I64P, _I64P, _I32P, *_SCALARS)
"""The wide search: graph and work array of ``int64`` (31 to 63 letters)."""


@nb.njit(cache=CACHE)  # its signatures are compiled by prepare()
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
        shadow = False
    else:
        eff = rbits
        if w[W_RACK] > 0:
            eff = ALL_LETTERS
        cand = children & w[W_CROSS + pos] & eff
        # the left part of a play that goes on through the tiles right of the anchor: the letters
        # that some word has before them (see search_anchor), while no board tile is passed
        shadow = w[P_SHADOW] != 0 and anchor - pos == nt
        if shadow:
            cand &= w[W_SMASK + nt]
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
        if shadow:
            sm = w[W_SMASK + nt]
            sarc = w[W_SNODE + nt] + 1 + 2 * _popc(sm & (bit - 1))
            w[W_SNODE + nt + 1] = g[sarc]
            w[W_SMASK + nt + 1] = g[sarc + 1]
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
                        if shadow and k == 0:
                            go &= w[W_SMASK + nt + 1]
                    if go and w[P_MODE] == 1 and w[P_HAVEBEST]:
                        # best mode: the score bound of the spans this continuation can reach
                        # (the plays that put down a blank have bounds of their own: a blank less to keep)
                        tb = W_TABB if w[W_RACK] < w[P_BLANKS0] else W_TAB
                        more = 1 if ncell == 0 else 0
                        if left_phase:
                            left = nnt - 1
                            if k == 0:
                                bound = w[tb + (left + more) * TAB_W + MAX_RACK + 1]
                            else:
                                bound = w[tb + left * TAB_W + more]
                        else:
                            left = w[P_LCOUNT]
                            bound = w[tb + left * TAB_W + nnt - 1 - left + more]
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


@nb.njit(cache=CACHE, nogil=True)
def search_anchor(g, w, out, c, prev, rbits):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Search the plays from anchor ``c`` (the previous one ``prev``) of the line in ``w``
    (:func:`load_row`). With board tiles right of the anchor, every play goes on through them:
    the left part is read on in the graph from those tiles, backwards, as well (``P_SHADOW``),
    and only the letters some word has before them are tried (the same plays, in the same order)."""
    size = w[P_SIZE]
    w[P_ANCHOR] = c
    w[P_PREV] = prev
    w[P_SHADOW] = 0
    if c + 1 < size and w[W_ROW + c + 1] != 0:
        e = c + 1
        while e + 1 < size and w[W_ROW + e + 1] != 0:
            e += 1
        node = g[1]
        m = g[3]
        for p in range(e, c, -1):
            letter = w[W_ROW + p] & 63
            if not (m >> letter) & 1:
                return  # (no word has these tiles)
            arc = node + 1 + 2 * _popc(m & ((1 << letter) - 1))
            node = g[arc]
            m = g[arc + 1]
        w[W_SNODE] = node
        w[W_SMASK] = m
        w[P_SHADOW] = 1
    _rec(_ptr(g), _ptr(w), _ptr(out), c, g[1], g[3], 0, 1, 0, 0, c, rbits)


def prepare(wide: bool = False) -> None:
    """Compile (or load from the disk cache) :func:`_rec` for the narrow signature, or the wide
    one (``int64`` graph and work array); once it is there this does nothing. Callers of the
    compiled search call it first."""
    sig = _REC_SIG_WIDE if wide else _REC_SIG
    with _PREPARING:  # two threads at once: the second would find compiling disabled by the first
        if sig.args not in _rec.signatures:
            _rec.disable_compile(False)
            _rec.compile(sig)
            _rec.disable_compile()


_PREPARING = threading.Lock()


@nb.njit(cache=CACHE, inline="always")
def load_row(w, b, r, size, cross, xsum, lm, wm):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Put row ``r`` of ``b`` into the work array ``w`` for :func:`_rec`: its tiles, cross-check
    masks and sums, letter and word multipliers (``lm``, ``wm``: flat, of ``b``'s orientation),
    no tile placed yet."""
    for i in range(size):
        w[W_ROW + i] = b[r, i]
        w[W_CROSS + i] = cross[r, i]
        w[W_XSUM + i] = xsum[r, i]
        w[W_LM + i] = lm[r * size + i]
        w[W_WM + i] = wm[r * size + i]
        w[W_PLACED + i] = 0
    w[P_ROWIDX] = r


@nb.njit(cache=CACHE, inline="always")
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


@nb.njit(cache=CACHE)
def _cross(g, b, size, cross, xsum, val):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Cross-check masks and sums of every square for plays along rows of ``b``.

    ``cross[r, c]``: letters allowed by the vertical word through (r, c);
    ``xsum[r, c]``: sum of the tiles of that word, or -1 when there is none.
    """
    for r in range(size):
        cross_row(g, b, size, r, cross, xsum, val)


@nb.njit(cache=CACHE, inline="always")
def cross_mask(g, b, r, c, up, down, top, bot):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The letters allowed on empty square (r, c) of ``b`` by the vertical word through it
    (tiles from row ``top`` to ``bot``; ``up`` / ``down``: tiles just above / below). With
    tiles only below, the word x + below, reversed, is the path of the tiles from the bottom
    one up, then x: the ends mask of that path's node."""
    root = g[1]
    rootmask = g[3]
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
    return mask


@nb.njit(cache=CACHE, inline="always")
def cross_run(b, size, r, c, cross, xsum, val):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Square ``(r, c)`` of ``b`` for the cross-checks of row ``r``: ``(-1, -1)`` for a square that
    needs no mask, its ``cross`` and ``xsum`` set (a tile: 0 and -1; no tile above or below:
    every letter and -1); otherwise the rows of the first and last tiles of the run across it
    (``r`` on a side without one), with ``xsum`` set to their face value (blanks count 0). What
    :func:`cross_row` and the endgame's cached cross-checks share."""
    if b[r, c] != 0:
        cross[r, c] = 0
        xsum[r, c] = -1
        return -1, -1
    if not (r > 0 and b[r - 1, c] != 0) and not (r + 1 < size and b[r + 1, c] != 0):
        cross[r, c] = ALL_LETTERS
        xsum[r, c] = -1
        return -1, -1
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
    return top, bot


@nb.njit(cache=CACHE, inline="always")
def cross_row(g, b, size, r, cross, xsum, val):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The cross-check masks and sums of row ``r`` (see :func:`_cross`): the endgame search
    computes only the rows it generates in."""
    for c in range(size):
        top, bot = cross_run(b, size, r, c, cross, xsum, val)
        if top >= 0:
            cross[r, c] = cross_mask(g, b, r, c, top < r, bot > r, top, bot)


@nb.njit(cache=CACHE)
def decode_packed(out):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Unpack packed move rows (see :mod:`qiza.movegen`): score, row, col, direction, length,
    tiles placed, equity (milli-points) and the line's tiles (n x ``MAX_SIZE``, 0 where played
    through or past the line's end), as ``int32`` arrays."""
    n = out.shape[0]
    score = np.empty(n, np.int32)
    row = np.empty(n, np.int32)
    col = np.empty(n, np.int32)
    dirn = np.empty(n, np.int32)
    length = np.empty(n, np.int32)
    ntiles = np.empty(n, np.int32)
    equity = np.empty(n, np.int32)
    tiles = np.zeros((n, MAX_SIZE), np.int32)
    for i in range(n):
        score[i] = out[i, O_SCORE]
        meta = out[i, O_META]
        row[i] = meta & 31
        col[i] = (meta >> 5) & 31
        dirn[i] = (meta >> 10) & 1
        ln = (meta >> 11) & 31
        length[i] = ln
        ntiles[i] = (meta >> 16) & 31
        equity[i] = out[i, O_EQUITY]
        bb = META_BLANKS
        for j in range(ln):
            six = (out[i, O_TILES + j // 5] >> (6 * (j % 5))) & 63
            if six:
                six |= ((meta >> bb) & 1) << 6
                bb += 1
            tiles[i, j] = six
    return score, row, col, dirn, length, ntiles, equity, tiles


@nb.njit(cache=CACHE)
def _is_anchor(b, r, c, empty, start_sq):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Whether empty square (r, c) of board ``b`` is an anchor: the start square on an empty
    board, else a square next to a tile."""
    size = b.shape[0]
    if empty:
        return r * size + c == start_sq
    return ((c > 0 and b[r, c - 1] != 0) or (c + 1 < size and b[r, c + 1] != 0)
            or (r > 0 and b[r - 1, c] != 0) or (r + 1 < size and b[r + 1, c] != 0))


@nb.njit(cache=CACHE)
def _gen_dir(g, w, out, b, lm, wm, direction, start_sq, rbits):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Generate the plays along the rows of ``b`` (the board or its transpose)."""
    size = b.shape[0]
    cross = np.empty((size, size), np.int64)
    xsum = np.empty((size, size), np.int32)
    val = w[W_VAL:W_VAL + w[P_KINDS]]
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
    for r in range(size):
        # anchors of this row
        first = True
        prev = -1
        for c in range(size):
            if b[r, c] != 0:
                continue
            if not _is_anchor(b, r, c, empty, start_sq):
                continue
            if first:
                first = False
                load_row(w, b, r, size, cross, xsum, lm, wm)
            if w[W_CROSS + c] != 0:
                search_anchor(g, w, out, c, prev, rbits)
            prev = c
