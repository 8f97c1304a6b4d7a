"""The compiled endgame search's move lists (see :mod:`qiza.players.endgame_search`): a
player's placements generated on the whole board or from an earlier list (its still-legal
moves and the moves near the tiles placed since), the cache of lists by board and rack, and the
two stacks of the pool (the lists, cached or temporary; above them the temporary lists of only
the new moves made two plies above the depth limit).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE
from qiza.movegen import gen_all
from qiza.movegen_search import P_BLANKS0, P_CAP, P_MODE, P_NOUT, P_OVERFLOW, W_RACK
from qiza.players.endgame_gen import gen_near, mark_near
from qiza.players.endgame_scan import REFCOUNT
from qiza.players.endgame_store import (
    E_BT,
    E_CROSS,
    E_GEO,
    E_GRAPH,
    E_LC,
    E_LT,
    E_MARK,
    E_MKT,
    E_OUT,
    E_POOL,
    E_PREM,
    E_ST,
    E_STACK,
    E_WORK,
    E_WORK0,
    E_XC,
    E_XSUM,
    E_ZTAB,
    S_CACHE_ROWS,
    S_END,
    S_FLT_N,
    S_GENERATED,
    S_LEND,
    S_LT_A,
    S_NEAR_STACK,
    S_NLISTS,
    S_NNL,
    S_NTOP,
    S_OPEN,
    S_POOL_A,
    S_STACK,
    S_STOP,
    S_TOP,
    STOP_BUFFER,
    STOP_POOL,
    _store_list,
)


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
    rbits = 0
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


@nb.njit(cache=CACHE)
def _near_list(E, board, rack, total, parent, parent_h):  # type: ignore[no-untyped-def]  # pragma: no cover
    """A temporary list of only the moves near the tiles placed since list ``parent`` was made
    (see :func:`_generate`), on the near lists' stack above the lists' stack (``st[S_NTOP]``,
    ``st[S_NNL]``), so that the lists made while it is in use can still be cached; when that
    stack is full (or with ``st[S_NEAR_STACK]`` 0), on the lists' stack, and then no list is cached while it is in use
    (``st[S_OPEN]``: the caller frees it). -1: see :func:`_generate`."""
    st = E[E_ST]
    if st[S_NEAR_STACK] == 0:  # on the lists' stack
        lid = _generate(E, board, rack, total, parent, parent_h, False)
        if lid >= 0:
            st[S_OPEN] += 1
        return lid
    top = st[S_TOP]
    nl = st[S_NLISTS]
    st[S_TOP] = st[S_NTOP]
    st[S_NLISTS] = st[S_NNL]
    st[S_END] = E[E_POOL].shape[0]
    st[S_LEND] = E[E_LT].shape[0]
    lid = _generate(E, board, rack, total, parent, parent_h, False)
    st[S_NTOP] = st[S_TOP]
    st[S_NNL] = st[S_NLISTS]
    st[S_TOP] = top
    st[S_NLISTS] = nl
    st[S_END] = st[S_POOL_A]
    st[S_LEND] = st[S_LT_A]
    if lid < 0 and st[S_STOP] == STOP_POOL:  # the near lists' stack is full
        st[S_STOP] = 0
        st[S_FLT_N] = 0
        lid = _generate(E, board, rack, total, parent, parent_h, False)
        if lid >= 0:
            st[S_OPEN] += 1
    return lid


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
    """Free a temporary list (the newest one of its stack)."""
    if temporary and lid >= 0:
        if lid >= st[S_LT_A]:  # a near list
            st[S_NTOP] = lt[lid, 0]
            st[S_NNL] = lid
        else:
            st[S_TOP] = lt[lid, 0]
            st[S_NLISTS] = lid
