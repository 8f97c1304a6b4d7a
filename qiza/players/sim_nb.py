"""The compiled rollout of :mod:`qiza.players.sim`: many iterations of a simulation in one call.

:func:`rollouts` plays, for every iteration (a deal of the unseen tiles, given in ``deals``)
and every candidate, exactly what :func:`qiza.players.sim.simulate_python` plays with one
batched generator call per ply: the candidate's draw, each opponent's best reply (score plus
per-tile leave values while the bag has tiles, minus twice the face values once it is empty),
this player's best next move, the draws, going out and the end-of-game settlement, and the
value of the final leave. The best-only search is the move generator's own
(:func:`qiza.movegen._generate` with the work-array layout of :mod:`qiza.movegen_search`),
called position by position from compiled code: no Python runs between the plies.

With ``params[Q_TABLE]`` set, the replies and this player's next move while the bag has tiles
value what they keep by the full leave table instead of per-tile values (:func:`table_work`:
every sub-leave of the rack looked up, as the static player's compiled search reads them), so
that the rollouts play like the static player; :func:`qiza.players.sim.simulate_python` does the
same through :meth:`~qiza.movegen.MoveGenerator.best` with ``sub_leaves``.

The final leave's value comes from the full leave table (:class:`qiza.players.leave_table.
FullTable`, by the combinatorial rank of :class:`qiza.players.leave_index.LeaveIndex`) when the
leave is in it; the few that are not (seven tiles kept, other rack sizes, a model without the
table) are flagged in ``fix`` with their counts in ``leaves``, and the caller adds
:meth:`LeaveModel.value <qiza.players.leaves.LeaveModel.value>` of them: the values are those
of the Python path to the last bit.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE
from qiza.movegen import _generate
from qiza.movegen_lines import base_anchors, best_changed, board_letters, changed_lines, cross_sets, new_cache, set_rack
from qiza.movegen_search import (
    O_SCORE,
    O_WIDTH,
    P_BLANKS0,
    P_CAP,
    P_HASLEAVE,
    P_HAVEBEST,
    P_KINDS,
    P_MAXLEAVE,
    P_START,
    P_STARTT,
    W_LVB,
    W_RACK,
    W_RADIX,
    W_SUB,
    W_VAL,
    decode_packed,
)
from qiza.players.leaves_nb import sub_leaves

# params: integers of a call
Q_BAG = 0
"""Tiles in the bag before the candidates are played."""
Q_RACK = 1
"""Tiles on a full rack."""
Q_DOUBLE = 2
"""1: going out scores twice the opponents' tiles (two players' rule), 0: once, and they lose them."""
Q_LEAVE_MAX = 3
"""The longest leave of the full leave table (-1: no table)."""
Q_FADE = 4
"""1: the final leave's value fades as the bag runs out (:func:`qiza.players.sim.leave_share`)."""
Q_TABLE = 5
"""1: the replies and the next move while the bag has tiles value leaves by the full leave table
(:func:`table_work`), 0: by per-tile values (the first row of ``works``)."""
Q_PLAYOUT = 6
"""1 (two players only): when the bag is empty after this player's next move and nobody has gone
out, the rollout plays the game out (:func:`_play_out`) instead of charging the tiles kept twice."""
Q_OPP_LEAVE = 7
"""1: while the bag has tiles at the end of an iteration, the value of what each opponent kept
with their reply (the full leave table's; nothing when not in it) counts against the candidate,
the mean over the opponents, faded as this player's own final leave."""
Q_COUNT = 8


@nb.njit(cache=CACHE, nogil=True)
def _best(g, anag, template, w, out, board, rack, prem):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The best-only search of one position (as :func:`qiza.movegen._many` runs it): whether a
    move was found; the move is ``out[0]``."""
    w[:] = template
    w[P_CAP] = out.shape[0]
    for t in range(rack.shape[0]):
        w[W_RACK + t] = rack[t]
    w[P_BLANKS0] = rack[0]
    _generate(g, anag, w, out, board, prem[0], prem[1], prem[2], prem[3], template[P_START], template[P_STARTT])
    return w[P_HAVEBEST] != 0


@nb.njit(cache=CACHE, nogil=True)
def _play(out, board, rack, size):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Put the move of ``out[0]`` on ``board`` and take its tiles off ``rack``; returns its score."""
    score, row, col, dirn, length, _, _, tiles = decode_packed(out[:1])
    step = size if dirn[0] else 1
    sq = row[0] * size + col[0]
    for i in range(length[0]):
        t = tiles[0, i]
        if t:
            board[sq] = t
            rack[0 if t & 64 else t] -= 1
        sq += step
    return out[0, O_SCORE]


@nb.njit(cache=CACHE, nogil=True)
def _points(rack, face):  # type: ignore[no-untyped-def]  # pragma: no cover
    total = 0.0
    for t in range(rack.shape[0]):
        total += rack[t] * face[t]
    return total


@nb.njit(cache=CACHE, nogil=True)
def _out_bonus(held, nopp, double):  # type: ignore[no-untyped-def]  # pragma: no cover
    """What going out is worth against the mean opponent when the opponents hold tiles of face
    value ``held`` in all (twice that with two players' rule); as :func:`qiza.players.sim._end_bonus`."""
    if nopp == 0:
        return 0.0
    return 2 * held if double else held + held / nopp


@nb.njit(cache=CACHE, nogil=True)
def _leave_rank(rack, caps, offset, max_size):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The rank of a leave in the full table (:meth:`LeaveIndex.rank`), or -1 when it is not in it."""
    if max_size < 0 or rack.shape[0] != caps.shape[0]:
        return -1
    total = 0
    for t in range(rack.shape[0]):
        if rack[t] < 0 or rack[t] > caps[t]:
            return -1
        total += rack[t]
    if total > max_size:
        return -1
    rank = 0
    free = max_size
    for t in range(rack.shape[0]):
        rank += offset[t, free, rack[t]]
        free -= rack[t]
    return rank


@nb.njit(cache=CACHE, nogil=True)
def table_work(template, rack, table, caps, offset, max_size, wr):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Make ``wr`` the work array ``template`` with every sub-leave of ``rack`` valued by the full
    leave table (the layout :meth:`qiza.movegen.MoveGenerator.best` gives ``sub_leaves``: mixed
    radix codes and ranks from :func:`qiza.players.leaves_nb.sub_leaves`, values in milli-points,
    the best value by tiles played); a sub-leave the table does not hold (the whole rack kept) is
    worth 0."""
    wr[:] = template
    radix, counts, ranks = sub_leaves(rack, offset, caps, max_size)
    nr = 0
    for t in range(rack.shape[0]):
        wr[W_RADIX + t] = radix[t]
        nr += rack[t]
    low = -(1 << 30)
    best = low
    for played in range(1, nr + 1):
        wr[W_LVB + played] = low
    for code in range(ranks.shape[0]):
        milli = 0
        if ranks[code] >= 0:
            milli = round(np.float64(table[ranks[code]]) * 1000.0)
        wr[W_SUB + code] = milli
        best = max(best, milli)
        size = counts[code].sum()
        if size < nr and milli > wr[W_LVB + nr - size]:
            wr[W_LVB + nr - size] = milli
    wr[P_MAXLEAVE] = best
    wr[P_HASLEAVE] = 2


@nb.njit(cache=CACHE, nogil=True)
def rollouts(g, anag, works, prem, board, boards0, racks0, used_all, scores, params, deals, cuts, face,  # type: ignore[no-untyped-def]  # pragma: no cover
             table, caps, offset, result, leaves, fix):
    """Run ``deals.shape[0]`` iterations of the simulation of ``boards0.shape[0]`` candidates.

    The first opponent's reply (the same rack on every candidate's board) is searched with the
    line cache of :mod:`qiza.movegen_lines` when two boards or more share it: the board before
    the candidates (``board``) once an iteration, on each candidate's board only the lines it
    changes; the play is the one the full search finds.

    ``works``: the best-only search's work arrays (rows: per-tile leave values while the bag
    has tiles, end-of-game ones when it is empty); ``prem``: the generator's premium rows;
    ``boards0``/``racks0``: each candidate's board and rack after it is played (before its
    draw); ``used_all``: 1 for an exchange (its tiles go back: the bag keeps its size), else 0;
    ``scores``: the candidates' scores; ``params``: see the ``Q_*`` offsets; ``deals[i]``: the
    unseen tiles of iteration ``i``, opponent ``j``'s rack ``deals[i, cuts[i, j]:cuts[i, j + 1]]``,
    then the bag from ``cuts[i, -1]`` on in drawing order; ``face``: face values by tile kind;
    ``table``/``caps``/``offset``: the full leave table and its index (with ``params[Q_TABLE]``
    the leave values of the searches while the bag has tiles too).

    Writes ``result[i, c]`` (candidate ``c``'s value) and ``result[i, n + c]`` (the tiles its
    player cannot see at the end, -1 when the game ended: the value is then the final spread's
    change); when the final leave ``leaves[i, c]`` is not in the table,
    ``fix[i, c]`` is the share of its value the caller adds (else 0).
    """
    ncand = boards0.shape[0]
    nsq = boards0.shape[1]
    size = int(np.sqrt(nsq) + 0.5)
    kinds = racks0.shape[1]
    nopp = cuts.shape[1] - 1
    bag_count = params[Q_BAG]
    rack_size = params[Q_RACK]
    double = params[Q_DOUBLE] != 0
    leave_max = params[Q_LEAVE_MAX]
    fade = params[Q_FADE] != 0
    by_table = params[Q_TABLE] != 0 and leave_max >= 0 and caps.shape[0] == kinds
    playout = params[Q_PLAYOUT] != 0 and nopp == 1
    opp_leave = params[Q_OPP_LEAVE] != 0 and leave_max >= 0
    oleave = np.zeros(ncand)  # (opp_leave) the table values of what the opponents kept
    oppc = np.zeros((ncand, kinds), racks0.dtype)  # (play-out) the opponent's rack after the reply
    opass = np.zeros(ncand, np.bool_)  # (play-out) the opponent passed
    opp_left = np.zeros(ncand)  # the face value the opponents hold after their replies
    drawn_to = np.zeros(ncand, np.int64)  # the next tile of the deal the bag gives
    wopp = np.empty((max(nopp, 1), works.shape[1]), works.dtype)  # each opponent's search (table leaves)
    wnext = np.empty_like(works[0])
    w = np.empty_like(works[0])
    out = np.zeros((1, O_WIDTH), np.int32)
    boards = np.empty_like(boards0)
    mine = np.empty_like(racks0)
    opp = np.zeros((max(nopp, 1), kinds), racks0.dtype)
    theirs = np.empty(kinds, racks0.dtype)
    bag_lens = np.zeros(ncand, np.int64)
    values = np.zeros(ncand)
    opp_total = np.zeros(ncand)
    live = np.zeros(ncand, np.bool_)
    # the line cache of the first opponent's replies: what does not change between iterations
    cached = False
    for i in range(nsq):
        cached = cached or board[i] != 0  # (an empty board's anchors are another matter)
    nk = works[0][P_KINDS]
    val = works[0][W_VAL:W_VAL + nk]
    cross = np.empty((2, size, size), np.int64)
    xsum = np.empty((2, size, size), np.int32)
    b = board.reshape((size, size))
    bt = cross_sets(g, board, size, val, cross, xsum)
    letters = board_letters(board)
    crossc = np.empty((ncand, 2, size, size), np.int64)
    xsumc = np.empty((ncand, 2, size, size), np.int32)
    boardsT = np.empty((ncand, size, size), boards0.dtype)
    aff = np.zeros((ncand, 2 * size), np.bool_)
    letters_c = np.zeros(ncand, np.int64)
    if cached:
        for c in range(ncand):
            boardsT[c] = cross_sets(g, boards0[c], size, val, crossc[c], xsumc[c])
            changed_lines(board, boards0[c], size, aff[c])
            letters_c[c] = board_letters(boards0[c])
    cache = new_cache(size)
    wl = np.empty_like(works[0])
    for it in range(deals.shape[0]):
        deal = deals[it]
        opp[:] = 0
        for j in range(nopp):
            for k in range(cuts[it, j], cuts[it, j + 1]):
                opp[j, deal[k]] += 1
        bag0 = cuts[it, nopp]
        for j in range(nopp):
            if by_table:
                table_work(works[0], opp[j], table, caps, offset, leave_max, wopp[j])
            else:
                wopp[j] = works[0]
        opp_sum = 0.0
        for j in range(nopp):
            opp_sum += _points(opp[j], face)
        end_bonus = _out_bonus(opp_sum, nopp, double)
        boards[:] = boards0
        mine[:] = racks0
        for c in range(ncand):
            values[c] = scores[c]
            opp_total[c] = 0.0
            held = 0
            for t in range(kinds):
                held += mine[c, t]
            drawn = min(rack_size - held, bag_count)
            for k in range(bag0, bag0 + drawn):
                mine[c, deal[k]] += 1
            drawn_to[c] = bag0 + drawn
            opp_left[c] = 0.0
            oleave[c] = 0.0
            bag_lens[c] = bag_count if used_all[c] else bag_count - drawn
            empty = True
            for t in range(kinds):
                if mine[c, t]:
                    empty = False
            if bag_lens[c] == 0 and empty:  # went out: the game ends
                values[c] += end_bonus
                live[c] = False
            else:
                live[c] = True
        based = False  # the base board's anchors bounded for this iteration's first rack
        nshared = 0  # the boards that can share them (for one, the full search is faster)
        for c in range(ncand):
            if live[c] and bag_lens[c] > 0:
                nshared += 1
        for j in range(nopp):
            for c in range(ncand):
                if not live[c]:
                    continue
                theirs[:] = opp[j]
                if playout:
                    oppc[c] = theirs
                    opass[c] = True
                if j == 0 and cached and nshared > 1 and bag_lens[c] > 0:
                    if not based:
                        set_rack(anag, wl, wopp[0], theirs, letters, cache)
                        base_anchors(b, bt, cross, xsum, prem, wl, cache)
                        based = True
                    if not best_changed(g, anag, wl, out, b, bt, cross, xsum, boards[c].reshape((size, size)),
                                        boardsT[c], crossc[c], xsumc[c], aff[c], letters_c[c], prem, cache):
                        opp_left[c] += _points(theirs, face)
                        continue  # no placement: a pass
                elif not _best(g, anag, works[1] if bag_lens[c] == 0 else wopp[j], w, out, boards[c], theirs, prem):
                    opp_left[c] += _points(theirs, face)
                    continue  # no placement: a pass
                opp_total[c] += _play(out, boards[c], theirs, size)
                if opp_leave:
                    rank = _leave_rank(theirs, caps, offset, leave_max)
                    if rank >= 0:
                        oleave[c] += np.float64(table[rank])
                if playout:
                    oppc[c] = theirs
                    opass[c] = False
                held = 0
                for t in range(kinds):
                    held += theirs[t]
                k = min(rack_size - held, bag_lens[c])
                bag_lens[c] -= k
                if bag_lens[c] == 0 and k == 0 and held == 0:  # the opponent went out
                    mine_pts = _points(mine[c], face)
                    opp_total[c] += mine_pts * (2 if double else 1)
                    values[c] -= 0.0 if double else mine_pts
                    live[c] = False
                else:  # what they hold now: the tiles kept and those drawn (the deal's next ones;
                    # after an exchange the bag also holds the tiles exchanged, which count nothing)
                    opp_left[c] += _points(theirs, face)
                    for x in range(drawn_to[c], min(drawn_to[c] + k, deal.shape[0])):
                        opp_left[c] += face[deal[x]]
                    drawn_to[c] += k
        for c in range(ncand):
            values[c] -= opp_total[c] / max(nopp, 1)
            fix[it, c] = 0.0
            over = not live[c]
            if live[c]:
                left = mine[c]
                template = works[1] if bag_lens[c] == 0 else works[0]
                if by_table and bag_lens[c] > 0:
                    table_work(works[0], left, table, caps, offset, leave_max, wnext)
                    template = wnext
                passed = True
                if _best(g, anag, template, w, out, boards[c], left, prem):
                    values[c] += _play(out, boards[c], left, size)
                    passed = False
                held = 0
                for t in range(kinds):
                    held += left[t]
                if bag_lens[c]:
                    share = 1.0
                    if fade and bag_lens[c] < rack_size:
                        share = 0.3 + 0.7 * bag_lens[c] / rack_size
                    if opp_leave:
                        values[c] -= share * (oleave[c] / nopp)
                    rank = _leave_rank(left, caps, offset, leave_max)
                    if rank >= 0:
                        values[c] += share * np.float64(table[rank])
                    else:
                        fix[it, c] = share
                        leaves[it, c] = left
                elif playout and held:
                    values[c] += _play_out(g, anag, works[1], w, out, boards[c], left, oppc[c], prem, face,
                                           (1 if passed else 0) + (1 if passed and opass[c] else 0), size)
                    over = True
                elif held:
                    values[c] -= 2 * _points(left, face)
                else:  # went out: what the opponents hold after their replies
                    values[c] += _out_bonus(opp_left[c], nopp, double)
                    over = True
            result[it, c] = values[c]
            result[it, ncand + c] = -1 if over else bag_lens[c] + (rack_size * nopp if bag_lens[c] > 0 else 0)


@nb.njit(cache=CACHE, nogil=True)
def _play_out(g, anag, work, w, out, board, mine, theirs, prem, face, passes, size):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Play a two-player game with the bag empty to its end, the opponent (``theirs``) to move,
    each side choosing its best move by the end-of-game values of ``work`` (score less twice the
    face value of the tiles kept); ``passes``: the passes just before (2: neither side could
    place a tile, so the game ends at once). Returns
    the change of this player's spread: the plays, then going out (twice the other rack's face
    value to the side that went out) or, once neither side can place a tile (two passes in a
    row: the board no longer changes, so the scoreless turns end the game), each side losing its
    own tiles. Both racks and the board are changed in place."""
    delta = 0.0
    turn = 1  # 1: the opponent
    while True:
        rack = theirs if turn else mine
        if _best(g, anag, work, w, out, board, rack, prem):
            points = _play(out, board, rack, size)
            delta += -points if turn else points
            passes = 0
            held = 0
            for t in range(rack.shape[0]):
                held += rack[t]
            if held == 0:
                if turn:
                    return delta - 2 * _points(mine, face)
                return delta + 2 * _points(theirs, face)
        else:
            passes += 1
            if passes >= 2:
                return delta + _points(theirs, face) - _points(mine, face)
        turn = 1 - turn


def warm_up(wide: bool = False) -> None:
    """Compile (or load from the disk cache) :func:`rollouts` with the argument types of
    :func:`qiza.players.sim.simulate` (a two-word graph, one candidate, one iteration);
    ``wide``: also for alphabets of more than 30 letters (64-bit cross-set masks, Polish)."""
    from qiza import gaddag
    from qiza.movegen import MoveGenerator

    gens = [MoveGenerator(gaddag.build(["AT", "TA"]))]
    if wide:
        gens.append(MoveGenerator(gaddag.build(["AT", "TA"], gaddag.NARROW_LETTERS + 1),
                                  values=[1] * (gaddag.NARROW_LETTERS + 1)))
    for gen in gens:
        kinds = gen.kinds
        g, anag, works, prem = gen.search_arrays(np.zeros(kinds), np.zeros(kinds))
        boards = np.zeros((1, gen.size * gen.size), np.int32)
        racks = np.zeros((1, kinds), np.int32)
        racks[0, 1] = 1
        params = np.zeros(Q_COUNT, np.int64)
        params[Q_BAG] = 1
        params[Q_RACK] = 2
        params[Q_LEAVE_MAX] = -1
        deals = np.array([[20, 1]], np.int32)
        rollouts(g, anag, works, prem, np.zeros(gen.size * gen.size, np.int32), boards, racks, np.zeros(1, np.int64),
                 np.zeros(1), params, deals, np.array([[0, 1]], np.int64), np.ones(kinds), np.zeros(1, np.float32), np.zeros(kinds, np.int64),
                 np.zeros((1, 1, 1), np.int64), np.zeros((1, 2)), np.zeros((1, 1, kinds), np.int32),
                 np.zeros((1, 1)))
