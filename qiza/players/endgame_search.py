"""The two-player endgame search compiled from the root (Numba): one call runs the whole
iterative deepening search of :func:`qiza.players.endgame.solve_position`.

The game values are those of :mod:`qiza.players.endgame` (see its module doc): going out wins
twice the opponent's tiles, the scoreless-turn rule and two passes in a row end the game with
each player losing their own tiles. This module only holds the compiled code; the Python side
(arguments, buffers, results) is :func:`qiza.players.endgame.solve_position`.

**Move lists.** A player's placements on a board are generated inside the search by the move
generator's compiled core (:func:`qiza.movegen.gen_all`) and stored as rows of one
``int16`` pool (``ncols = 5 + 6 * width`` columns, ``width`` the most tiles a rack holds):
tiles placed, score, face value placed, then the squares, tile codes and rack indexes
(0 for a blank) of the tiles placed, then the squares that must stay empty for the move to
stay legal with the same score (see :mod:`qiza.players.endgame_nb`); ``pmh`` holds each
move's Zobrist key (the XOR of ``ztab[square, tile]`` over its tiles, which also names the
move in the transposition table), and three more arrays per row let scans skip most rows
without reading them: the tiles placed (``E[E_PNT]``), a key of the tiles' multiset (a sum
of per-kind keys: a way out of a rack has the rack's key, ``E[E_PMK]``) and the tile kinds
placed as bits (a rack without one of them cannot play the move, ``E[E_PKM]``). A lookup of
a list's best way out is remembered in its registry row and reused further down the same
line (see :func:`qiza.players.endgame_scan._best_out`, with the other scans of lists). A
list is searched in its stored order: going out first (highest score first), then by score
plus the face value of the tiles played.

**Incremental lists.** Only the root's lists are generated on the whole board. A later list of
a player is made from their latest list on an earlier board of the line (a rack holding at
least today's tiles; ``E[E_STACK]`` holds the squares placed along the line, and each list
handed down the recursion comes with the stack height of its board): that list's still-legal
moves, merged in order with the placements that cover a square next to the runs of tiles
through a tile placed since (generated from those squares only, with the cross-checks of their
lines only: :mod:`qiza.players.endgame_gen`). They are the same moves as a generation on the
whole board (``tests/test_endgame_lists.py``).

Lists are cached by (board, rack) in an open-addressing table (``E[E_LC]``) while the pool
is less than three quarters full; after that a list is made at the top of the pool and freed
when its node returns (a stack), so the search never runs out of room mid-line. Between two
iterations a pool more than half full is emptied.

**The search.** Negamax with alpha-beta and principal variation search, iterative deepening
from depth 1 (two plies at a time from ``st[S_STEP2]`` on), a transposition table
(``E[E_TT]``: key, best move, value, depth and bound flag; a key lives in one of a pair of
rows, the first kept for the deeper search, an exact value deepest, the second always
replaced) keyed by the board's Zobrist key, both racks (the player to move's and the other's,
with different tables), the scoreless streak and the passes. A
player without any placement must pass: that pass does not use up a ply (at the depth limit
too, where the list is made when no move of the earlier list is left), so endgames against
stuck tiles are exact at about half the depth.
At the depth limit a position is valued from an earlier list of the player to move (its
still-legal moves: no generation) as the best move's score with both players keeping their
other tiles (going out: plus twice the opponent's tiles). Before generating a position's
moves, the earlier list's best way out and the table's best move are tried, and two plies above
the limit every still-legal move of the earlier list (a cutoff spares the generation); if none
cuts off, only the moves near the tiles placed since are generated there, into a temporary list
(``st[S_NEAR]`` counts them; the children make their lists from the earlier list, and no list
made while one is in use is cached). A search
is exact when no line met the depth limit (``st[S_HORIZON]`` 0).
A move that does not end the game is failed low without searching it when the opponent's best
way out in their latest list (still legal here, looked up once a node; if the move blocks it,
their next best) stays legal after it (the move covers none of the squares that way out needs
empty) and already refutes it: going out is a lower bound of the opponent's value, so the
bound is exact (``st[S_REFUTED]`` counts them; near the depth limit they are most of the
moves, each spared a node).

**Passes proven forced, one tile valued, without a list** (branch ``eg13``). When none of
the earlier list's moves is still legal, a placement would have to cover a square next to the
tiles placed since (see :mod:`qiza.players.endgame_gen`); :func:`qiza.players.endgame_gen.stuck`
reads the lines through those squares for the rack's letters and, when none fits, the pass is
forced without generating a list (``st[S_STUCK]``): a player stuck with a V against a rack
playing out checks a few squares per move instead of making a list at every node. A player
with one tile (not a blank) goes out with its best placement (going out beats passing), at the
depth limit too, valued from the earlier list's still-legal moves and
:func:`qiza.players.endgame_gen.single_best` (the placements near the tiles placed since,
scored directly): exact without a list (``st[S_SINGLE]``), where the depth limit used to
return the earlier list's best as a guess.

Compiled-code notes: :func:`_node` is the one recursive function, called from Python (the
iterative deepening is its ``depth == 0`` case) and compiled for one signature by
:func:`prepare` before its first call, because Numba's disk cache cannot load a recursive
function called from another compiled function, nor two mutually recursive ones; every
recursive call passes variables, never literals (a literal would type another overload). The
search, its scans, the near generation and :func:`_store_list` run without reference counting
(``_nrt=False``: they allocate nothing, their scratch is in ``E``; the reference counts of the
many arrays passed around took a third of the time), and without the GIL, so that the
caller's timer thread can set the stop flag ``E[E_STOP]``.

Cheap checks (branch ``eg10``): a stored move is still legal when its squares to keep empty,
as bits (``E[E_PCB]``, 64 squares a word), meet none of the occupied squares (``E[E_OCC]``,
kept by :func:`_play`), and a move blocks a way out when one of its squares is among that
way out's bits; the near generation keeps the cross-checks it computes, by square and the
tiles across (see :func:`qiza.players.endgame_gen._cross_row_cached`); a filter of the keys
ever stored (``E[E_TF]``, a bit each) spares most probes of positions never stored a read of
the table (48 MB: a cache miss each). They change no node: the search visits the same
positions in the same order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, cast

import numba as nb
import numpy as np
from numba import types

from qiza.jitcache import CACHE
from qiza.movegen import MoveGenerator, gen_all
from qiza.movegen_search import (
    P_BLANKS0,
    P_CAP,
    P_MODE,
    P_NOUT,
    P_OVERFLOW,
    W_RACK,
)
from qiza.players.endgame_gen import gen_near, mark_near, single_best, stuck
from qiza.players.endgame_scan import (
    NO_REFCOUNT,
    REFCOUNT,
    _best_out,
    _clear,
    _cols,
    _find_move,
    _frontier,
    _legal_left,
    _next_out,
    _rack_bits,
    _valid,
)
from qiza.players.endgame_store import (
    E_BT,
    E_CROSS,
    E_GEO,
    E_GRAPH,
    E_HK,
    E_LC,
    E_LINE,
    E_LT,
    E_MARK,
    E_MKT,
    E_OCC,
    E_OUT,
    E_PCB,
    E_PKM,
    E_PMH,
    E_PMK,
    E_PNT,
    E_POOL,
    E_PREM,
    E_RK,
    E_ST,
    E_STACK,
    E_STOP,
    E_TF,
    E_TT,
    E_VALS,
    E_WORK,
    E_WORK0,
    E_XC,
    E_XSUM,
    E_ZR,
    E_ZS,
    E_ZTAB,
    EXACT,
    EXACT_DEPTH,
    INF,
    LINE_MAX,
    LOWER,
    NO_MOVE,
    PASS_KEY,
    RK_BITS,
    RK_LIST,
    RK_MOVER,
    RK_OTHER,
    RK_SUM,
    S_CACHE_ROWS,
    S_CUT_FIRST,
    S_CUT_LATER,
    S_CUT_SUM,
    S_DEPTH,
    S_EXACT,
    S_FIRST,
    S_FULL,
    S_GENERATED,
    S_HORIZON,
    S_LEAF_HITS,
    S_LEAF_SEEN,
    S_LINE,
    S_MAX_DEPTH,
    S_NEAR,
    S_NLISTS,
    S_NODES,
    S_OPEN,
    S_PASSES_RULE,
    S_REFUTED,
    S_SINGLE,
    S_STACK,
    S_STEP2,
    S_STOP,
    S_STREAK_LIMIT,
    S_STUCK,
    S_TOP,
    S_VALUE,
    STOP_BUFFER,
    STOP_TIME,
    UPPER,
    _store_list,
)


@nb.njit(cache=CACHE, inline="always")
def rack_key(z, rack):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The Zobrist key of a rack (``z``: tile kinds x counts table)."""
    h = np.int64(0)
    for t in range(rack.shape[0]):
        c = rack[t]
        if c:
            h ^= z[t, c]
    return h


@nb.njit(cache=CACHE)
def board_key(ztab, board):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The Zobrist key of a board."""
    h = np.int64(0)
    for s in range(board.shape[0]):
        if board[s]:
            h ^= ztab[s, board[s]]
    return h


@nb.njit(cache=CACHE)
def _generate(E, board, rack, total, parent, parent_h, merge):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Every placement of ``rack`` on ``board`` into the pool (see :func:`_store_list`). With
    a ``parent`` list (not -1) of a rack holding at least these tiles, made when the line had
    ``parent_h`` tiles on ``E[E_STACK]``: its still-legal moves (unless not ``merge``: then
    the list holds only the new moves) and the placements near the tiles placed since (see
    :mod:`qiza.players.endgame_gen`), the same moves."""
    g = E[E_GRAPH]
    w0 = E[E_WORK0]
    w = E[E_WORK]
    out = E[E_OUT]
    prem = E[E_PREM]
    st = E[E_ST]
    size = E[E_GEO][0]
    for i in range(w0.shape[0]):
        w[i] = w0[i]
    rbits = np.int64(0)
    for t in range(rack.shape[0]):
        w[W_RACK + t] = rack[t]
        if t and rack[t] > 0:
            rbits |= np.int64(1) << t
    w[P_BLANKS0] = rack[0]
    w[P_MODE] = 0
    w[P_NOUT] = 0
    w[P_OVERFLOW] = 0
    w[P_CAP] = out.shape[0]
    if parent >= 0:
        mark = E[E_MARK]
        mark[:] = 0
        mark_near(board, size, E[E_STACK], parent_h, st[S_STACK], mark)
        gen_near(g, w, out, board, prem[0], prem[1], prem[2], prem[3], mark, rbits, E[E_XC], E[E_ZTAB],
                 E[E_BT], E[E_MKT], E[E_CROSS], E[E_XSUM])
    else:
        start = E[E_GEO][1]
        start_t = (start % size) * size + start // size
        gen_all(g, w, out, board, prem[0], prem[1], prem[2], prem[3], start, start_t, rbits)
    st[S_GENERATED] += 1
    if w[P_OVERFLOW]:
        st[S_STOP] = STOP_BUFFER
        return -1
    return _store_list(E, board, rack, total, w[P_NOUT], parent if merge else -1)


@nb.njit(cache=CACHE, inline="always")
def _list_key(hb, rkey):  # type: ignore[no-untyped-def]  # pragma: no cover
    key = hb ^ rkey
    return key if key != 0 else np.int64(1)


@nb.njit(cache=CACHE, inline="always")
def _find_list(lc, hb, rkey):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The cached list of ``rack`` on the board with key ``hb`` (-1: none)."""
    key = _list_key(hb, rkey)
    mask = lc.shape[0] - 1
    i = key & mask
    while lc[i, 0] != 0:
        if lc[i, 0] == key:
            return lc[i, 1]
        i = (i + 1) & mask
    return np.int64(-1)


@nb.njit(cache=CACHE, **REFCOUNT)  # it allocates
def _moves(E, board, hb, rack, total, parent, parent_h, rkey):  # type: ignore[no-untyped-def]  # pragma: no cover
    """(list id, temporary) of the placements of ``rack`` on ``board``: the cached list, or a
    new one (cached while the pool has room, else temporary: the caller frees it), made from
    ``parent`` if not -1 (see :func:`_generate`); ``rkey``: the rack's key with the lists'
    Zobrist table (``E[E_ZR][2]``)."""
    lc = E[E_LC]
    lid = _find_list(lc, hb, rkey)
    if lid >= 0:
        return lid, False
    st = E[E_ST]
    cacheable = st[S_TOP] < st[S_CACHE_ROWS] and st[S_NLISTS] * 2 < lc.shape[0] and st[S_OPEN] == 0
    lid = _generate(E, board, rack, total, parent, parent_h, True)
    if lid < 0 or not cacheable:
        return lid, True
    key = _list_key(hb, rkey)
    mask = lc.shape[0] - 1
    i = key & mask
    while lc[i, 0] != 0:
        i = (i + 1) & mask
    lc[i, 0] = key
    lc[i, 1] = lid
    return lid, False


@nb.njit(cache=CACHE, inline="always")
def _free(st, lt, lid, temporary):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Free a temporary list (the newest one)."""
    if temporary and lid >= 0:
        st[S_TOP] = lt[lid, 0]
        st[S_NLISTS] = lid


@nb.njit(cache=CACHE, inline="always")
def _after(score, placed, streak, passes, passes_rule, limit):  # type: ignore[no-untyped-def]  # pragma: no cover
    """(streak, passes, game over) after a turn scoring ``score`` with ``placed`` tiles."""
    if placed:
        passes = 0
        if passes_rule or score:
            streak = 0
        else:
            streak += 1
    else:
        passes += 1
        streak += 1
    return streak, passes, passes >= 2 or streak >= limit


@nb.njit(cache=CACHE, inline="always")
def _play(pool, board, rack, row, undo, stack, st, occ, zr, rk):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Put pool move ``row`` on ``board``, take its tiles from ``rack`` and push its squares
    on ``stack`` (``undo``: the reverse), keeping the occupied squares ``occ`` and the rack's
    keys ``rk`` (its row of ``E[E_RK]``)."""
    wd, c_sq, c_tl, c_code, c_chk, nchk = _cols(pool)
    nt = pool[row, 0]
    h = st[S_STACK]
    for j in range(nt):
        s = pool[row, c_sq + j]
        board[s] = 0 if undo else pool[row, c_tl + j]
        occ[s >> 6] ^= np.int64(1) << (s & 63)
        cd = pool[row, c_code + j]
        c = rack[cd]
        c2 = c + 1 if undo else c - 1
        for tb in range(3):
            if c:
                rk[tb] ^= zr[tb, cd, c]
            if c2:
                rk[tb] ^= zr[tb, cd, c2]
        if c2:
            rk[RK_BITS] |= np.int64(1) << cd
        else:
            rk[RK_BITS] &= ~(np.int64(1) << cd)
        rack[cd] = c2
        if undo:
            rk[RK_SUM] += zr[2, cd, 1]
        else:
            rk[RK_SUM] -= zr[2, cd, 1]
            stack[h + j] = pool[row, c_sq + j]
    st[S_STACK] = h - nt if undo else h + nt


@nb.njit(cache=CACHE, inline="always")
def _position_key(zr, zs, st, hb, racks, me, streak, passes):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The table key of a position: board, both racks (the mover's and the other's), streak, passes."""
    s = streak if streak < st[S_STREAK_LIMIT] else st[S_STREAK_LIMIT]
    key = hb ^ rack_key(zr[0], racks[me]) ^ rack_key(zr[1], racks[1 - me]) ^ zs[s, passes]
    return key if key != 0 else np.int64(1)


@nb.njit(cache=CACHE, inline="always")
def _probe(tt, key):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The table row of ``key`` (-1: none): a key lives in one of a pair of rows."""
    i = key & (tt.shape[0] - 2)
    if tt[i, 0] == key:
        return i
    if tt[i + 1, 0] == key:
        return i + 1
    return -1


@nb.njit(cache=CACHE, inline="always")
def _filter_bit(key):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The bit of ``key`` in the filter ``E[E_TF]`` (other bits of the key than the table's
    index): a clear bit says that no search stored the key, so that the table (far larger than
    the caches) is not read."""
    return (key >> 30) & ((1 << 22) - 1)


@nb.njit(cache=CACHE, inline="always")
def _store(tt, tf, key, depth, exact, best, alpha_orig, beta, best_key):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Write a table entry: in the pair's first row if it holds this key or a search no deeper
    (an exact value counts as the deepest), else in the second row (always replaced)."""
    i = key & (tt.shape[0] - 2)
    d = EXACT_DEPTH if exact else depth
    if tt[i, 0] != key and tt[i, 0] != 0 and ((tt[i, 2] >> 32) & 0xFFFF) > d:
        i += 1
    flag = UPPER if best <= alpha_orig else LOWER if best >= beta else EXACT
    fb = _filter_bit(key)
    tf[fb >> 6] |= np.int64(1) << (fb & 63)
    tt[i, 0] = key
    tt[i, 1] = best_key
    tt[i, 2] = (best + (1 << 31)) | (d << 32) | (flag << 48)


@nb.njit(cache=CACHE, nogil=True, **NO_REFCOUNT)
def _node(E, board, hb, racks, me, mine_pts, opp_pts, total, opp_total, streak, passes, depth, alpha, beta,  # type: ignore[no-untyped-def]  # pragma: no cover
          anc_me, anc_opp, anc_me_h, anc_opp_h):
    """Negamax value for player ``me`` (to move) of a position not yet over.

    ``anc_me`` / ``anc_opp``: the latest lists of the player to move and of the opponent made
    on an earlier board of this line (-1: none), with racks that held at least today's
    tiles: their still-legal moves value the depth limit, and a new list of the player is made
    from theirs (:func:`_generate`); ``anc_me_h`` / ``anc_opp_h``: the tiles the line had
    placed (``st[S_STACK]``) on their boards. (One function calling only itself:
    Numba's disk cache cannot load mutually recursive functions.)"""
    st = E[E_ST]
    if depth == 0:  # the root: iterative deepening (here: a cached caller of _node would not load)
        E[E_HK][st[S_STACK]] = hb
        occ = E[E_OCC]
        occ[:] = 0
        for s in range(board.shape[0]):
            if board[s]:
                occ[s >> 6] |= np.int64(1) << (s & 63)
        rk = E[E_RK]
        zr = E[E_ZR]
        for seat in range(2):
            rk[seat, RK_MOVER] = rack_key(zr[0], racks[seat])
            rk[seat, RK_OTHER] = rack_key(zr[1], racks[seat])
            rk[seat, RK_LIST] = rack_key(zr[2], racks[seat])
            rk[seat, RK_SUM] = 0
            for t in range(racks.shape[1]):
                rk[seat, RK_SUM] += racks[seat, t] * zr[2, t, 1]
            rk[seat, RK_BITS] = _rack_bits(racks[seat])
        st[S_DEPTH] = 0
        st[S_EXACT] = 0
        st[S_LINE] = 0
        none = np.int64(-1)
        root, temporary = _moves(E, board, hb, racks[me], total, none, anc_me_h, rk[me, RK_LIST])
        if root < 0:
            return np.int64(0)
        st[S_FIRST] = E[E_LT][root, 0] if E[E_LT][root, 1] else -1
        d = 0
        while d < st[S_MAX_DEPTH]:
            d += 2 if 0 < st[S_STEP2] <= d and d + 2 <= st[S_MAX_DEPTH] else 1
            if st[S_TOP] * 2 > E[E_POOL].shape[0] or st[S_NLISTS] * 4 > E[E_LC].shape[0]:
                E[E_LC][:, 0] = 0
                st[S_TOP] = 0
                st[S_NLISTS] = 0
            opp_list, temporary = _moves(E, board, hb, racks[1 - me], opp_total, none, anc_me_h,
                                         rk[1 - me, RK_LIST])
            if opp_list < 0:
                break
            st[S_HORIZON] = 0
            h = st[S_STACK]
            value = _node(E, board, hb, racks, me, mine_pts, opp_pts, total, opp_total, streak, passes, d, alpha,
                          beta, anc_me, opp_list, anc_me_h, h)  # (anc_me: -1 at the root; a literal would call another overload)
            if st[S_STOP]:
                break
            st[S_DEPTH] = d
            st[S_VALUE] = value
            st[S_LINE] = _line(E, board, hb, racks, me, streak, E[E_LINE])
            if st[S_STOP]:
                break
            if st[S_HORIZON] == 0:
                st[S_EXACT] = 1
                break
        return st[S_VALUE]
    st[S_NODES] += 1
    if E[E_STOP][0]:  # set by the caller's timer thread (the search runs without the GIL)
        st[S_STOP] = STOP_TIME
    if st[S_STOP]:
        return np.int64(0)
    pool = E[E_POOL]
    pmh = E[E_PMH]
    pnt = E[E_PNT]
    pmk = E[E_PMK]
    pkm = E[E_PKM]
    pcb = E[E_PCB]
    occ = E[E_OCC]
    lt = E[E_LT]
    tt = E[E_TT]
    tf = E[E_TF]
    zr = E[E_ZR]
    rk = E[E_RK]
    rack = racks[me]
    limit = st[S_STREAK_LIMIT]
    passes_rule = st[S_PASSES_RULE]
    sl = streak if streak < st[S_STREAK_LIMIT] else st[S_STREAK_LIMIT]
    key = hb ^ rk[me, RK_MOVER] ^ rk[1 - me, RK_OTHER] ^ E[E_ZS][sl, passes]  # as _position_key
    key = key if key != 0 else np.int64(1)
    fb = _filter_bit(key)
    ti = _probe(tt, key) if (tf[fb >> 6] >> (fb & 63)) & 1 else -1
    first_key = np.int64(NO_MOVE)
    if ti >= 0:
        packed = tt[ti, 2]
        hvalue = (packed & 0xFFFFFFFF) - (1 << 31)
        hdepth = (packed >> 32) & 0xFFFF
        hflag = (packed >> 48) & 0xFF
        first_key = tt[ti, 1]
        if hdepth >= depth and (hflag == EXACT or (hflag == LOWER and hvalue >= beta)
                                or (hflag == UPPER and hvalue <= alpha)):
            if hdepth < EXACT_DEPTH:
                st[S_HORIZON] += 1
            if depth <= 1:
                st[S_LEAF_HITS] += 1
            return hvalue
        if depth <= 1:
            st[S_LEAF_SEEN] += 1
    s_pass, p_pass, pass_ends = _after(0, 0, streak, passes, passes_rule, limit)
    pass_guess = opp_pts - mine_pts  # the game ends (or the static guess): both keep their tiles
    if total == 1 and anc_me >= 0 and not rk[me, RK_BITS] & 1:
        # one tile, not a blank: going out with its best placement beats passing (the opponent
        # could pass back), at any depth; its placements are the earlier list's still-legal ones
        # and those near the tiles placed since, valued without making a list
        v, r = _frontier(pool, lt, anc_me, pcb, occ, rack, total, mine_pts, opp_pts, np.int64(INF))
        if r >= 0 or not _legal_left(pool, pnt, pkm, lt, anc_me, pcb, occ, rack, 1, total):
            x = 1
            while rack[x] == 0:
                x += 1
            sn, sq = single_best(E[E_GRAPH], board, E[E_GEO][0], E[E_STACK], anc_me_h, st[S_STACK], x, E[E_VALS],
                                 E[E_PREM][0], E[E_PREM][1])
            so = np.int64(pool[r, 1]) if r >= 0 else np.int64(-1)
            if sn >= 0 or so >= 0:
                st[S_SINGLE] += 1
                if sn > so:
                    best = sn + 2 * opp_pts
                    best_key = E[E_ZTAB][sq, x]
                else:
                    best = so + 2 * opp_pts
                    best_key = pmh[r]
                _store(tt, tf, key, depth, True, best, -INF, INF, best_key)
                return best
    if depth <= 1:
        if anc_me >= 0:
            # a static guess from the still-legal moves of an earlier list: no generation
            v, r = _frontier(pool, lt, anc_me, pcb, occ, rack, total, mine_pts, opp_pts, beta)
            if r >= 0 and v >= beta and pool[r, 0] == total:
                return v  # going out: an exact lower bound
            # (when passing ends the game, a move that does not go out makes the value inexact
            # anyway; otherwise the moves are generated, for an exact value; and when no move
            # of the earlier list is left, to see whether the pass is forced)
            if r < 0 and not _legal_left(pool, pnt, pkm, lt, anc_me, pcb, occ, rack, 1, total - 1):
                # no move of the earlier list left: generate, unless the lines through the squares
                # next to the tiles placed since prove that the pass is forced
                # (only a way out can be left: the other moves were ruled out above)
                if not _legal_left(pool, pnt, pkm, lt, anc_me, pcb, occ, rack, total, total) and stuck(
                        E[E_GRAPH], board, E[E_GEO][0], E[E_STACK], anc_me_h, st[S_STACK], rk[me, RK_BITS], total):
                    st[S_STUCK] += 1
                    if pass_ends:
                        _store(tt, tf, key, depth, True, pass_guess, -INF, INF, np.int64(PASS_KEY))
                        return pass_guess
                    horizon_before = st[S_HORIZON]
                    best = -_node(E, board, hb, racks, 1 - me, opp_pts, mine_pts, opp_total, total, s_pass, p_pass,
                                  depth, -beta, -alpha, anc_opp, anc_me, anc_opp_h, anc_me_h)
                    if not st[S_STOP]:
                        _store(tt, tf, key, depth, st[S_HORIZON] == horizon_before, best, alpha, beta,
                               np.int64(PASS_KEY))
                    return best
            elif not pass_ends or (r >= 0 and pool[r, 0] < total) or _legal_left(pool, pnt, pkm, lt, anc_me, pcb, occ, rack, 1, total - 1):
                st[S_HORIZON] += 1
                return v
        lid, temporary = _moves(E, board, hb, rack, total, anc_me, anc_me_h, rk[me, RK_LIST])
        if lid < 0:
            return np.int64(0)
        n = lt[lid, 1]
        if n == 0 and not pass_ends:
            # no placement: the pass is forced, and searched without using up a ply
            horizon_before = st[S_HORIZON]
            here = st[S_STACK]
            best = -_node(E, board, hb, racks, 1 - me, opp_pts, mine_pts, opp_total, total, s_pass, p_pass,
                          depth, -beta, -alpha, anc_opp, lid, anc_opp_h, here)
            if not st[S_STOP]:
                _store(tt, tf, key, depth, st[S_HORIZON] == horizon_before, best, alpha, beta, np.int64(PASS_KEY))
            _free(st, lt, lid, temporary)
            return best
        v, r = _frontier(pool, lt, lid, pcb, occ, rack, total, mine_pts, opp_pts, INF)
        if n and total == 1:
            cut = False  # going out beats passing (the opponent could pass back): exact
        else:
            cut = not pass_ends or lt[lid, 2] < n
        if cut:
            st[S_HORIZON] += 1
        best = v
        best_key = pmh[r] if r >= 0 else np.int64(PASS_KEY)
        _store(tt, tf, key, depth, not cut, best, -INF, INF, best_key)
        _free(st, lt, lid, temporary)
        return best
    alpha_orig = alpha
    horizon_before = st[S_HORIZON]
    stack = E[E_STACK]
    here = st[S_STACK]
    mine_h = here
    best = np.int64(-INF)
    best_key = np.int64(NO_MOVE)
    done_key = np.int64(NO_MOVE)
    lid = _find_list(E[E_LC], hb, rk[me, RK_LIST])
    temporary = False
    if lid < 0 and anc_me >= 0 and not _legal_left(pool, pnt, pkm, lt, anc_me, pcb, occ, rack, 1, total) and stuck(
            E[E_GRAPH], board, E[E_GEO][0], stack, anc_me_h, here, rk[me, RK_BITS], total):
        # no move of the earlier list left, and none near the tiles placed since: the pass is
        # forced (searched without using up a ply), with no list made
        st[S_STUCK] += 1
        if pass_ends:
            best = pass_guess
        else:
            best = -_node(E, board, hb, racks, 1 - me, opp_pts, mine_pts, opp_total, total, s_pass, p_pass,
                          depth, -beta, -alpha, anc_opp, anc_me, anc_opp_h, anc_me_h)
            if st[S_STOP]:
                return np.int64(0)
        _store(tt, tf, key, depth, st[S_HORIZON] == horizon_before, best, alpha_orig, beta, np.int64(PASS_KEY))
        return best
    # before generating this position's moves, moves of the earlier list that are still legal:
    # the table's move, and two plies above the limit all of them (a cutoff spares generating)
    pre = -1
    pre_all = False
    if lid < 0 and anc_me >= 0:
        r = _best_out(pool, pmk, rk[me, RK_SUM], lt, anc_me, pcb, occ, rack, total, E[E_HK], st[S_STACK], hb)
        if r >= 0 and pool[r, 1] + 2 * opp_pts >= beta:  # going out refutes: exact
            best = np.int64(pool[r, 1]) + 2 * opp_pts
            _store(tt, tf, key, depth, st[S_HORIZON] == horizon_before, best, alpha_orig, beta, pmh[r])
            return best
        pre_all = depth == 2
        if first_key > 0:
            r = _find_move(pmh, lt, anc_me, first_key)
            if r >= 0 and _valid(pool, r, pcb, occ, rack):
                pre = r
    rbits = rk[me, RK_BITS]
    anc_start = lt[anc_me, 0] if pre_all else 0
    anc_n = lt[anc_me, 1] if pre_all else 0
    pi = -1  # the earlier list's moves: -1 the table's move, then in order
    out_done = False
    phase = 0 if pre >= 0 or pre_all else 1
    start = 0
    n = -1  # the list's moves (-1: not looked at yet)
    first = -1  # the table's move: its index in the list (n: the pass)
    step = -1  # -1: the table's move, then the list in order
    near_only = False  # the list holds only the moves that the earlier list does not (phase 0 searched those)
    any_kept = False  # phase 0 found a still-legal move
    ro = -2  # the opponent's best way out (-1: none, -2: not looked at yet)
    ro2 = -2  # their next best (when a move blocks the best one)
    valued = 0
    cutoff = False
    while True:
        if phase == 0:
            if pi < 0:
                pi = 0
                if pre < 0:
                    continue
                row = pre
            else:
                row = -1
                while pi < anc_n:  # the next still-legal move (a tight loop: most are not)
                    r = anc_start + pi
                    pi += 1
                    if not (r == pre or (pkm[r] & ~rbits) != 0 or (pnt[r] == total and out_done)
                            or not _valid(pool, r, pcb, occ, rack)):
                        row = r
                        break
                if row < 0:
                    phase = 1
                    continue
            any_kept = True
            if pool[row, 0] == total:
                out_done = True  # going out: the first still-legal one in the order scores the most
            mine_list = anc_me
            mine_h = anc_me_h
        else:
            if n < 0:
                if lid < 0 and pre_all:
                    # phase 0 searched every still-legal move of the earlier list: a temporary
                    # list of the new moves only (no copies of the earlier list's rows)
                    lid = _generate(E, board, rack, total, anc_me, anc_me_h, False)
                    temporary = True
                    near_only = lid >= 0
                    st[S_NEAR] += 1
                    st[S_OPEN] += near_only
                elif lid < 0:
                    lid, temporary = _moves(E, board, hb, rack, total, anc_me, anc_me_h, rk[me, RK_LIST])
                if lid < 0:
                    return np.int64(0)
                start = lt[lid, 0]
                n = lt[lid, 1]
                if first_key == PASS_KEY:
                    first = n
                elif first_key > 0 and first_key != done_key:
                    r = _find_move(pmh, lt, lid, first_key)
                    if r >= 0:
                        first = r - start
            if step == -1:
                step = 0
                if first < 0:
                    continue
                k = first
            else:
                k = -1
                while step <= n:  # the next move not searched yet (a tight loop)
                    kk = step
                    step += 1
                    if kk == first or (kk < n and (pmh[start + kk] == done_key
                                                   or (kk and pool[start + kk, 0] == total))):
                        continue  # searched already; going out: the first in the order scores the most
                    k = kk
                    break
                if k < 0:
                    break
            mine_list = lid
            mine_h = here
            if near_only:  # the children make their lists from the earlier list (a whole one)
                mine_list = anc_me
                mine_h = anc_me_h
            row = -1
            if k < n:
                row = start + k
                if k == first and (pmh[row] == done_key or (k and pool[row, 0] == total)):
                    continue
        # the value of the move (row -1: the pass)
        if row < 0:
            mkey = np.int64(PASS_KEY)
            if pass_ends:
                value = pass_guess
            else:
                value = -_node(E, board, hb, racks, 1 - me, opp_pts, mine_pts, opp_total, total, s_pass, p_pass,
                               depth if n == 0 and not any_kept else depth - 1, -beta, -alpha, anc_opp, mine_list,
                               anc_opp_h, mine_h)
        else:
            mkey = pmh[row]
            placed = np.int64(pool[row, 0])
            score = np.int64(pool[row, 1])
            p = np.int64(pool[row, 2])
            s2, p2, over = _after(score, placed, streak, passes, passes_rule, limit)
            if placed == total:
                value = score + 2 * opp_pts
            elif over:
                value = score + opp_pts - (mine_pts - p)
            else:
                if ro == -2:  # the opponent's best way out here, from their latest list (once a node)
                    ro = _best_out(pool, pmk, rk[1 - me, RK_SUM], lt, anc_opp, pcb, occ, racks[1 - me], opp_total, E[E_HK],
                                   st[S_STACK], hb) if anc_opp >= 0 else -1
                ru = -1  # the opponent's way out that refutes this move
                if ro >= 0 and score - (pool[ro, 1] + 2 * (mine_pts - p)) <= alpha:
                    if _clear(pool, pcb, ro, row):
                        ru = ro
                    else:  # it blocks the best one: the next best
                        if ro2 == -2:
                            ro2 = _next_out(pool, pmk, rk[1 - me, RK_SUM], lt, anc_opp, pcb, occ, racks[1 - me],
                                            opp_total, ro)
                        if ro2 >= 0 and score - (pool[ro2, 1] + 2 * (mine_pts - p)) <= alpha and _clear(pool, pcb, ro2,
                                                                                                          row):
                            ru = ro2
                if ru >= 0:
                    # the opponent can still go out after this move (it covers none of the squares
                    # their way out needs empty): a lower bound of their value that fails this move low
                    st[S_REFUTED] += 1
                    value = score - (pool[ru, 1] + 2 * (mine_pts - p))
                    if value > best:
                        best = value
                        best_key = mkey
                    if pre >= 0 and row == pre:
                        done_key = mkey
                    continue
                _play(pool, board, rack, row, False, stack, st, occ, zr, rk[me])
                hb2 = hb ^ mkey
                E[E_HK][st[S_STACK]] = hb2
                done = False
                value = np.int64(0)
                if best > -INF and beta - alpha > 1:  # principal variation search: a null window first
                    value = score - _node(E, board, hb2, racks, 1 - me, opp_pts, mine_pts - p, opp_total,
                                          total - placed, s2, p2, depth - 1, score - alpha - 1, score - alpha,
                                          anc_opp, mine_list, anc_opp_h, mine_h)
                    done = value <= alpha or value >= beta
                if not done:
                    value = score - _node(E, board, hb2, racks, 1 - me, opp_pts, mine_pts - p, opp_total,
                                          total - placed, s2, p2, depth - 1, score - beta, score - alpha,
                                          anc_opp, mine_list, anc_opp_h, mine_h)
                _play(pool, board, rack, row, True, stack, st, occ, zr, rk[me])
            if pre >= 0 and row == pre:
                done_key = mkey
        if st[S_STOP]:
            _free(st, lt, lid, temporary)
            st[S_OPEN] -= near_only
            return np.int64(0)
        valued += 1
        if value > best:
            best = value
            best_key = mkey
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    cutoff = True
                    break
    if cutoff:
        if valued == 1:
            st[S_CUT_FIRST] += 1
        else:
            st[S_CUT_LATER] += 1
            st[S_CUT_SUM] += valued
    else:
        st[S_FULL] += 1
    _store(tt, tf, key, depth, st[S_HORIZON] == horizon_before, best, alpha_orig, beta, best_key)
    _free(st, lt, lid, temporary)
    st[S_OPEN] -= near_only
    return best


@nb.njit(cache=CACHE, **REFCOUNT)  # it allocates
def _line(E, board, hb, racks, me, streak, line):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The principal variation from the table into ``line`` (rows: score, tiles placed, then
    ``width`` squares and ``width`` tiles; a pass places none); returns its length. The board
    and the racks are left as they were."""
    pool = E[E_POOL]
    pmh = E[E_PMH]
    lt = E[E_LT]
    tt = E[E_TT]
    st = E[E_ST]
    wd, c_sq, c_tl, c_code, c_chk, nchk = _cols(pool)
    passes = 0
    movers = np.zeros(LINE_MAX, np.int64)
    count = 0
    while count < LINE_MAX:
        key = _position_key(E[E_ZR], E[E_ZS], st, hb, racks, me, streak, passes)
        ti = _probe(tt, key)
        if ti < 0 or tt[ti, 1] == NO_MOVE:
            break
        mkey = tt[ti, 1]
        line[count, :] = 0
        movers[count] = me
        total = 0
        for t in range(racks.shape[1]):
            total += racks[me, t]
        score = 0
        placed = 0
        if mkey != PASS_KEY:
            lid, temporary = _moves(E, board, hb, racks[me], total, np.int64(-1), np.int64(0),
                                    rack_key(E[E_ZR][2], racks[me]))
            if lid < 0:
                break
            row = _find_move(pmh, lt, lid, mkey)
            if row < 0:
                _free(st, lt, lid, temporary)
                break
            score = pool[row, 1]
            placed = pool[row, 0]
            line[count, 0] = score
            line[count, 1] = placed
            for j in range(placed):
                line[count, 2 + j] = pool[row, c_sq + j]
                line[count, 2 + wd + j] = pool[row, c_tl + j]
            _free(st, lt, lid, temporary)
            for j in range(placed):
                t = line[count, 2 + wd + j]
                board[line[count, 2 + j]] = t
                racks[me, 0 if t & 64 else t] -= 1
            hb ^= mkey
        count += 1
        if placed and placed == total:
            break
        streak, passes, over = _after(score, placed, streak, passes, st[S_PASSES_RULE], st[S_STREAK_LIMIT])
        if over:
            break
        me = 1 - me
    for i in range(count):
        for j in range(line[i, 1]):
            board[line[i, 2 + j]] = 0
            t = line[i, 2 + wd + j]
            racks[movers[i], 0 if t & 64 else t] += 1
    return count


def solve(E: tuple[np.ndarray, ...], board: np.ndarray, racks: np.ndarray, streak: int, line: np.ndarray) -> None:
    """Iterative deepening from the root (player 0 of ``racks`` to move, ``streak`` turns
    already towards the scoreless rule) until a search is exact, the depth limit
    ``st[S_MAX_DEPTH]`` or until ``E[E_STOP][0]`` is set (the time limit). The results are in ``st`` (depth,
    exact, value, nodes, line length, stop reason) and ``line`` (see :func:`_line`)."""
    vals = E[E_VALS]
    mine_pts = int(racks[0] @ vals)
    opp_pts = int(racks[1] @ vals)
    _node(E + (line,), board, board_key(E[E_ZTAB], board), racks, 0, mine_pts, opp_pts, int(racks[0].sum()),
          int(racks[1].sum()), streak, 0, 0, -INF, INF, -1, -1, 0, 0)


_WARM = False
_WARM_WIDE = False


def warm_up(wide: bool = False) -> None:
    """Compile (or load from the disk cache) the search for its argument types: a search on
    a small board and word graph, so that a first real search does not spend its time limit
    compiling. ``wide``: the search of the wide word graph too (alphabets of more than 30
    letters, such as Polish), which :func:`prepare` compiles on its own; without it, the first
    endgame of such a game compiled it then, the move waiting (minutes on a busy machine)."""
    global _WARM, _WARM_WIDE
    if wide and not _WARM_WIDE:
        prepare(True)
        _WARM_WIDE = True
    if _WARM:
        return
    from qiza.layout import STANDARD
    from qiza.movegen import parse_rack
    from qiza.players.endgame import solve_position
    from qiza.rules import CLASSIC

    _WARM = True
    gen = _small_generator()
    prepare(False)
    board = np.zeros(STANDARD.size * STANDARD.size, np.int32)
    board[112] = 1
    board[113] = 20
    solve_position(gen, CLASSIC, board, parse_rack("AT"), parse_rack("AX"), time_limit=60.0)


def prepare(wide: bool = False) -> None:
    """Compile (or load from the cache) :func:`_node` for its signature with the narrow word
    graph (``int32``: alphabets of up to 30 letters) or the wide one (``int64``), before any
    call: a recursive function compiled from its first call refers to itself through a pointer
    that Numba fills only when it compiles, not when it loads the code from the disk cache (the
    move generator's ``_rec`` does the same)."""
    from qiza.movegen_search import prepare as prepare_generator
    from qiza.players.endgame import _search_arrays
    from qiza.rules import CLASSIC

    prepare_generator(wide)
    dtype = np.int64 if wide else np.int32
    gen = _small_generator()
    E = list(_search_arrays(gen, CLASSIC, 1, 1, 1, 1, 1)) + [np.zeros((1, 1), np.int64)]
    for k in (E_GRAPH, E_WORK0, E_WORK):
        E[k] = E[k].astype(dtype)
    i64 = types.int64
    typeof = cast(Callable[[object], Any], nb.typeof)  # (Numba's, untyped)
    sig = i64(typeof(tuple(E)), typeof(np.zeros(1, np.int32)), i64, typeof(np.zeros((2, 27), np.int32)),
              *([i64] * 14))
    with _PREPARING:  # two threads at once: the second found compiling disabled by the first
        if sig.args not in _node.signatures:
            _node.disable_compile(False)
            _node.compile(sig)
            _node.disable_compile()


_PREPARING = threading.Lock()


def _small_generator() -> MoveGenerator:
    """A move generator of three words (for compiling)."""
    from qiza import gaddag
    from qiza.layout import STANDARD

    return MoveGenerator(gaddag.build(["AT", "TA", "AX"]), STANDARD)
