"""Compiled (Numba) helpers of the endgame solver (:mod:`qiza.players.endgame`).

A *move list* is one player's placements on one board, as flat arrays (one row a move):
``score``, ``nt`` (tiles placed), ``sq``/``tl`` (squares and tile codes placed, ``nt`` of
them), ``code`` (rack index of each tile: 0 for a blank), ``usage`` (the tiles as rack
counts, one per tile kind: 27 for English), ``pts`` (face value of the tiles
placed), ``chk`` (squares that must stay empty for the move to stay legal with the same
score, -1 padded) and ``mh`` (the move's Zobrist key: the XOR of ``ztab[square, tile]`` over
the tiles placed, which also names the move).

``chk`` makes a list reusable further down the game tree: it holds the squares the move
places on, the squares just before and after its main word, and for each tile placed the
first empty squares beyond its cross-word in both directions. As long as those squares are
empty (tiles are only ever added) and the rack still holds the move's tiles, the move is
legal and scores the same: its main word and every cross-word are unchanged. Moves that the
newer tiles make possible (hooks, plays through them) are not in an older list.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE

OUT_BONUS = 1.0e6
"""Ordering estimate added to a move that goes out (searched first)."""


@nb.njit(cache=CACHE)
def prepare(score, row, col, dirn, length, tiles, board, size, values, total, ztab, unload):  # type: ignore[no-untyped-def]  # pragma: no cover
    """A move list (see the module doc) from decoded generator output on ``board`` for a rack of
    ``total`` tiles, with the search order: going out first (by score), then score + ``unload``
    times the face value of the tiles placed."""
    n = len(score)
    width = 1
    for i in range(n):
        cnt = 0
        for j in range(length[i]):
            if tiles[i, j] != 0:
                cnt += 1
        if cnt > width:
            width = cnt
    cw = 3 * width + 2
    nt = np.zeros(n, np.int32)
    sq = np.zeros((n, width), np.int32)
    tl = np.zeros((n, width), np.int32)
    code = np.zeros((n, width), np.int32)
    chk = np.full((n, cw), -1, np.int32)
    pts = np.zeros(n, np.float64)
    sc = np.zeros(n, np.float64)
    mh = np.zeros(n, np.int64)
    est = np.zeros(n, np.float64)
    for i in range(n):
        r0 = row[i]
        c0 = col[i]
        down = dirn[i] == 1
        ln = length[i]
        k = 0
        m = 0
        h = np.int64(0)
        p = 0.0
        for j in range(ln):
            t = tiles[i, j]
            if t == 0:
                continue
            r = r0 + j if down else r0
            c = c0 if down else c0 + j
            s = r * size + c
            sq[i, k] = s
            tl[i, k] = t
            cd = 0 if t & 64 else t
            code[i, k] = cd
            p += values[cd]
            h ^= ztab[s, t]
            k += 1
            chk[i, m] = s
            m += 1
            # the first empty squares beyond the cross-word through (r, c)
            # (along the row for a play down, along the column for a play across)
            a, base, st = (c, r * size, 1) if down else (r, c, size)
            aa = a - 1
            while aa >= 0 and board[base + aa * st] != 0:
                aa -= 1
            if aa >= 0:
                chk[i, m] = base + aa * st
                m += 1
            aa = a + 1
            while aa < size and board[base + aa * st] != 0:
                aa += 1
            if aa < size:
                chk[i, m] = base + aa * st
                m += 1
        # the squares just before and after the main word
        if down:
            if r0 > 0:
                chk[i, m] = (r0 - 1) * size + c0
                m += 1
            if r0 + ln < size:
                chk[i, m] = (r0 + ln) * size + c0
                m += 1
        else:
            if c0 > 0:
                chk[i, m] = r0 * size + c0 - 1
                m += 1
            if c0 + ln < size:
                chk[i, m] = r0 * size + c0 + ln
                m += 1
        nt[i] = k
        pts[i] = p
        sc[i] = score[i]
        mh[i] = h
        est[i] = (OUT_BONUS + sc[i]) if k == total else sc[i] + unload * p
    order = np.argsort(-est, kind="mergesort")
    usage = np.zeros((n, values.shape[0]), np.int32)
    for i in range(n):
        o = order[i]
        for j in range(nt[o]):
            usage[i, code[o, j]] += 1
    return (order.astype(np.int32), nt[order], sq[order], tl[order], code[order], chk[order], pts[order],
            sc[order], mh[order], usage)


@nb.njit(cache=CACHE, inline="always")
def _valid(board, rack, need, i, nt, code, chk):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Move ``i`` of a list is still legal: its ``chk`` squares are empty and ``rack`` holds its tiles."""
    for j in range(chk.shape[1]):
        s = chk[i, j]
        if s < 0:
            break
        if board[s] != 0:
            return False
    ok = True
    for j in range(nt[i]):
        cd = code[i, j]
        need[cd] += 1
        if need[cd] > rack[cd]:
            ok = False
    for j in range(nt[i]):
        need[code[i, j]] = 0
    return ok


@nb.njit(cache=CACHE)
def frontier(board, rack, total, mine_pts, opp_pts, nt, code, chk, pts, sc, nout0, threshold):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The best valid move of a list at the depth limit, valued as the solver's static guess
    (going out: score + twice the opponent's tiles; otherwise both keep their tiles), and its
    index (-1: none). Stops as soon as a value reaches ``threshold`` (a lower bound then).

    The list's first ``nout0`` moves went out where it was made; after them score + face value
    placed never grows, and a move's value is at most that plus twice the opponent's tiles, so
    the scan stops where that bound cannot beat the best found."""
    need = np.zeros(rack.shape[0], np.int32)
    best = -1.0e18
    best_i = -1
    for i in range(len(nt)):
        if i >= nout0 and sc[i] + pts[i] + 2.0 * opp_pts <= best:
            break
        if sc[i] + (2.0 * opp_pts if nt[i] == total else opp_pts - mine_pts + pts[i]) <= best:
            continue
        if not _valid(board, rack, need, i, nt, code, chk):
            continue
        v = sc[i] + (2.0 * opp_pts if nt[i] == total else opp_pts - mine_pts + pts[i])
        best = v
        best_i = i
        if best >= threshold:
            break
    return best, best_i


@nb.njit(cache=CACHE)
def play(board, rack, k, sq, tl, usage, nt, undo):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Put move ``k`` of a list on ``board`` and take its tiles from ``rack`` (``undo``: the reverse)."""
    for j in range(nt[k]):
        board[sq[k, j]] = 0 if undo else tl[k, j]
    for t in range(rack.shape[0]):
        if undo:
            rack[t] += usage[k, t]
        else:
            rack[t] -= usage[k, t]


@nb.njit(cache=CACHE)
def best_out(board, rack, total, nt, code, chk, sc):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The index of the highest-scoring still-legal move of a list that plays all ``total``
    tiles of ``rack`` (-1: none)."""
    need = np.zeros(rack.shape[0], np.int32)
    best_i = -1
    for i in range(len(nt)):
        if nt[i] != total or (best_i >= 0 and sc[i] <= sc[best_i]):
            continue
        if _valid(board, rack, need, i, nt, code, chk):
            best_i = i
    return best_i


@nb.njit(cache=CACHE)
def valid_one(board, rack, i, nt, code, chk):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Move ``i`` of a list is still legal on ``board`` with ``rack``."""
    need = np.zeros(rack.shape[0], np.int32)
    return _valid(board, rack, need, i, nt, code, chk)


@nb.njit(cache=CACHE)
def depth_two(board, me, opp, mine_pts, opp_pts, alpha, beta, zero_ends, first, check,  # type: ignore[no-untyped-def]  # pragma: no cover
              nt, sq, tl, code, chk, pts, sc,
              ont, ocode, ochk, opts, osc, onout0):
    """A node two plies above the depth limit: each of this player's moves (in search order)
    answered by the opponent's best move at the depth limit from the opponent's list ``o*``
    (still-legal moves only), with alpha-beta cutoffs.

    With ``check`` the player's list is an earlier one and only its still-legal moves are
    searched; otherwise it is the position's complete list. Move ``first`` (if not -1) is
    searched first. Going out is exact (only the first, highest-scoring, such move is
    searched); a scoreless move ends the game when ``zero_ends``. A move the opponent refutes
    by going out (the reply alone takes the value to alpha) is refuted exactly. Returns (best
    value, index of the best move or -1, moves searched, lines cut at the depth limit).
    """
    need = np.zeros(me.shape[0], np.int32)
    best = -1.0e18
    best_k = -1
    searched = 0
    cut = 0
    total = 0
    for t in range(me.shape[0]):
        total += me[t]
    opp_total = 0
    for t in range(opp.shape[0]):
        opp_total += opp[t]
    out_done = False
    for step in range(-1, len(nt)):
        if step < 0:
            if first < 0:
                continue
            k = first
        elif step == first:
            continue
        else:
            k = step
        n = nt[k]
        if n == total and out_done:
            continue
        if check and not _valid(board, me, need, k, nt, code, chk):
            continue
        if n == total:
            out_done = step >= 0  # going out: the first in the order scores the most
            v = sc[k] + 2.0 * opp_pts
        elif zero_ends and sc[k] == 0:
            v = sc[k] + opp_pts - (mine_pts - pts[k])
        else:
            searched += 1
            cut += 1
            for j in range(n):
                board[sq[k, j]] = tl[k, j]
            after = mine_pts - pts[k]
            # the opponent at the depth limit: pass (both keep their tiles) or its best move
            f = after - opp_pts
            threshold = sc[k] - alpha
            if f < threshold:
                for i in range(len(ont)):
                    if i >= onout0 and osc[i] + opts[i] + 2.0 * after <= f:
                        break  # no later move can beat f (see frontier)
                    on = ont[i]
                    g = osc[i] + (2.0 * after if on == opp_total else after - opp_pts + opts[i])
                    if g <= f:
                        continue
                    if not _valid(board, opp, need, i, ont, ocode, ochk):
                        continue
                    f = g
                    if f >= threshold:
                        if on == opp_total:  # refuted by going out: an exact bound, no line cut
                            cut -= 1
                        break
            for j in range(n):
                board[sq[k, j]] = 0
            v = sc[k] - f
        if v > best:
            best = v
            best_k = k
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best, best_k, searched, cut


_WARM = False


def warm_up() -> None:
    """Compile (or load from the disk cache) every helper with the solver's argument types, so
    that a first search does not spend its time limit compiling."""
    global _WARM
    if _WARM:
        return
    board = np.zeros(225, np.int32)
    rack = np.zeros(27, np.int32)
    rack[1] = 1
    one = np.ones(1, np.int32)
    tiles = np.zeros((1, 21), np.int32)
    tiles[0, 0] = 1
    _, nt, sq, tl, code, chk, pts, sc, _, usage = prepare(one * 2, one * 7, one * 7, one * 0, one, tiles, board, 15,
                                                    np.ones(27), 1, np.ones((225, 128), np.int64), 1.0)
    frontier(board, rack, 1, 1.0, 1.0, nt, code, chk, pts, sc, 1, 1.0e6)
    valid_one(board, rack, 0, nt, code, chk)
    best_out(board, rack, 1, nt, code, chk, sc)
    play(board, rack, 0, sq, tl, usage, nt, False)
    play(board, rack, 0, sq, tl, usage, nt, True)
    for check in (False, True):
        depth_two(board, rack, rack, 1.0, 1.0, -1.0e6, 1.0e6, False, -1, check, nt, sq, tl, code, chk, pts, sc,
                  nt, code, chk, pts, sc, 1)
    _WARM = True
