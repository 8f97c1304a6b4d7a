"""Exact endgame solver for two players once the bag is empty.

With the bag empty both racks are known (the opponent's rack is the unseen tiles), so the
rest of the game is a two-player game of perfect information. :func:`solve` searches it with
negamax, alpha-beta pruning and principal variation search, a transposition table keyed by
Zobrist keys (exact values and bounds, with the best move of each position tried first), moves
ordered going out first (only the highest-scoring way out is searched), then by score plus the
face value of the tiles played, and iterative deepening under a time limit.

The whole search is one compiled call (:mod:`qiza.players.endgame_search`, the move generator
called from inside it); :func:`solve_position_py` is the same search driven from Python over
compiled helpers (:mod:`qiza.players.endgame_nb`), kept as the second opinion of the tests and
for a generator without compiled code. Both find the same exact values.

Speed comes from generating moves rarely (the generator is the main cost): each generated list
records per move the squares that must stay empty for it to stay legal with the same score, so
a list made earlier in a line still gives legal moves later. At the depth limit a position is valued from such an earlier list of the player to move
(no generation: the static guess is the best still-legal move, both players keeping their other
tiles to the end); a position two plies above the limit is searched in one compiled call; and
before generating a position's moves, the table's best move (two plies above the limit: every
still-legal move) from the earlier list is searched first, and a cutoff spares the generation.
A player with one tile who can go out does (going out beats passing, which the opponent can
answer by passing), so such positions are exact at the depth limit; with an earlier list and a
tile that is not a blank, the best placement is found without a list (the earlier list's
still-legal moves, and the squares next to the tiles placed since, scored directly), and a
player none of whose earlier moves is still legal is shown to be stuck by the lines through
those squares, without a list, when no letter of the rack fits them (the pass is forced).

The value of a position is the score difference to
the end of the game for the player to move, with the game's own end rules:

* going out ends the game: the opponent's tiles are settled per ``Rules.end_points``
  (rule book: the player who went out gains them and the opponent loses them; double: the
  player gains twice their value) -- with two players both are worth twice those tiles;
* the scoreless-turn rule (``Rules.end_rule``): with ``SCORELESS_TURNS`` the game ends after
  ``scoreless_turns`` scoreless turns in a row per player (passes and placements scoring 0,
  counting the turns already in the score sheet), with ``PASSES`` after ``passes`` passes in a
  row per player; each player then loses their own tiles;
* both players passing in a row returns to the same position, so the search treats it as the
  end of the game by the scoreless rule (nobody can gain by waiting), each losing their tiles.

The result is exact (``Solution.exact``) when a search finished without cutting any line at
the depth limit; otherwise it is the best move of the deepest finished search (and the
principal variation of that search), which is what a time limit returns.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from qiza.analysis import board_array, rack_counts
from qiza.game import Kind, PlayerView, Record
from qiza.move import Direction, Move, Pass, Place
from qiza.movegen import O_WIDTH, MoveGenerator, decode_packed, kind_values
from qiza.players import endgame_nb as nb
from qiza.players.endgame_gen import XC_WAYS
from qiza.players.engine import StaticPlayer
from qiza.rules import EndPoints, EndRule, Rules

if TYPE_CHECKING:
    from qiza.alphabet import TileSet
    from qiza.lexicon import Lexicon

INF = 10 ** 6
EXACT_DEPTH = 10 ** 4
"""Depth recorded for a table entry whose subtree never met the depth limit (valid at any depth)."""
_EXACT, _LOWER, _UPPER = 0, 1, 2

MoveInfo = tuple[int, list[tuple[int, int]]]
"""(score, [(square, tile)]) of a searched move; no squares = a pass."""

PASS_INFO: MoveInfo = (0, [])


@dataclass
class Solution:
    """The solver's answer: best move, its value (score difference to the end), search facts."""

    move: Move | None
    value: float
    exact: bool
    depth: int
    nodes: int
    seconds: float
    line: list[Move] = field(default_factory=list)
    """The principal variation (this player's move first, then alternating)."""
    cpu_seconds: float = 0.0
    """CPU time of the searching thread (0.0 where the clock is not available)."""


class _Timeout(Exception):
    pass


ORDER_UNLOAD = 1.0
"""Search order of the moves that do not go out: score + this many times the face value of the
tiles they unload (going out is searched first)."""

PASS_KEY = 0
"""The table's name for the pass (a placement is named by its Zobrist key, never 0 in practice)."""


class _List:
    """One player's placements on one board (see :mod:`qiza.players.endgame_nb`), in search order."""

    __slots__ = ("total", "nout0", "nt", "sq", "tl", "code", "chk", "pts", "sc", "mh", "usage", "_index", "_plain")

    def __init__(self, arrays: tuple[np.ndarray, ...], total: int) -> None:
        self.total = total
        (_, self.nt, self.sq, self.tl, self.code, self.chk, self.pts, self.sc, self.mh, self.usage) = arrays
        self.nout0 = int(np.count_nonzero(self.nt == total))
        """The first moves, that go out here (the order puts them first)."""
        self._index: dict[int, int] | None = None
        self._plain: tuple[list[int], list[float], list[float], list[int]] | None = None

    def plain(self) -> tuple[list[int], list[float], list[float], list[int]]:
        """(tiles placed, score, face value placed, key) of every move as Python lists."""
        if self._plain is None:
            self._plain = (self.nt.tolist(), self.sc.tolist(), self.pts.tolist(), self.mh.tolist())
        return self._plain

    def __len__(self) -> int:
        return len(self.nt)

    def find(self, key: int) -> int:
        """The index of the move named ``key`` (-1: not in the list)."""
        if self._index is None:
            self._index = {int(h): k for k, h in enumerate(self.mh.tolist())}
        return self._index.get(key, -1)

    def used(self, k: int) -> np.ndarray:
        return self.usage[k]  # type: ignore[no-any-return]

    def squares(self, k: int) -> list[tuple[int, int]]:
        n = int(self.nt[k])
        return list(zip(self.sq[k, :n].tolist(), self.tl[k, :n].tolist()))


def scoreless_streak(history: Sequence[Record], rules: Rules, out: Collection[int] = ()) -> int:
    """Turns in a row at the end of ``history`` that count towards the scoreless end rule
    (scoreless turns, or passes under ``EndRule.PASSES``). As the game counts them
    (:meth:`Game.scoreless_streak <qiza.game.Game.scoreless_streak>`), the turns of the players
    ``out`` of the game (in seats ``out``) do not count, though their play ends a streak as
    anyone's does."""
    streak = 0
    for record in reversed(history):
        if not record.is_turn:
            continue
        if rules.end_rule is EndRule.PASSES:
            if record.kind is not Kind.PASS:
                break
        elif record.kind is Kind.PLACE and not record.challenged_off and record.score != 0:
            break
        streak += record.seat not in out
    return streak


class _Search:
    def __init__(self, gen: MoveGenerator, rules: Rules, values27: np.ndarray, deadline: float,
                 streak_limit: int) -> None:
        self.gen = gen
        self.size = rules.layout.size
        self.values27 = values27
        self.deadline = deadline
        self.passes_rule = rules.end_rule is EndRule.PASSES
        from qiza.players.endgame_search import _after

        # the one end-of-turn rule, shared with the compiled search: (score, placed, streak, passes,
        # passes_rule, streak_limit) -> (streak, passes, game over)
        self._after: Callable[[float, int, int, int, bool, int], tuple[int, int, bool]] = _after.py_func
        self.double = rules.end_points is EndPoints.DOUBLE
        self.streak_limit = streak_limit
        self.nodes = 0
        self.horizon = 0
        """Lines cut at the depth limit so far (0 after a search = exact)."""
        self.tt: dict[tuple[int, bytes, bytes, int, int], tuple[int, float, int, int]] = {}
        self.movecache: dict[tuple[int, bytes], _List] = {}
        self.cached_moves = 0
        rng = np.random.default_rng(12345)
        self.ztab = rng.integers(1, 2 ** 63 - 1, size=(self.size * self.size, 128), dtype=np.int64)

    def board_key(self, board: np.ndarray) -> int:
        """The Zobrist key of a board (kept up to date move by move during the search)."""
        cells = np.flatnonzero(board)
        return int(np.bitwise_xor.reduce(self.ztab[cells, board[cells]])) if len(cells) else 0

    def moves(self, board: np.ndarray, hb: int, rack: np.ndarray) -> _List:
        """Every placement of ``rack`` on ``board`` (Zobrist key ``hb``) in search order."""
        key = (hb, rack.tobytes())
        cached = self.movecache.get(key)
        if cached is not None:
            return cached
        total = int(rack.sum())
        packed = self.gen.generate_packed(board, rack)
        score, row, col, dirn, length, _, _, tiles = decode_packed(packed)
        moves = _List(nb.prepare(score, row, col, dirn, length, tiles, board, self.size, self.values27, total,
                                 self.ztab, ORDER_UNLOAD), total)
        if self.cached_moves > 1_500_000:
            self.movecache.clear()
            self.cached_moves = 0
        self.movecache[key] = moves
        self.cached_moves += len(moves)
        return moves

    def out_value(self, opp_pts: float) -> float:
        """Score difference won by going out against tiles worth ``opp_pts``."""
        return 2.0 * opp_pts

    def after(self, score: float, placed: int, streak: int, passes: int) -> tuple[int, int, bool]:
        """(streak, passes, game over) after a turn scoring ``score`` with ``placed`` tiles: the
        compiled search's rule, run as plain Python (no compiled code needed)."""
        result: tuple[int, int, bool] = self._after(score, placed, streak, passes, self.passes_rule,
                                                    self.streak_limit)
        return result

    def store(self, key: tuple[int, bytes, bytes, int, int], depth: int, exact: bool, best: float,
              alpha_orig: float, beta: float, best_key: int) -> None:
        flag = _UPPER if best <= alpha_orig else _LOWER if best >= beta else _EXACT
        if len(self.tt) > 1_500_000:
            self.tt.clear()
        self.tt[key] = (EXACT_DEPTH if exact else depth, best, flag, best_key)

    def negamax(self, board: np.ndarray, hb: int, me: np.ndarray, opp: np.ndarray, mine_pts: float, opp_pts: float,
                total: int, opp_total: int, streak: int, passes: int, depth: int, alpha: float, beta: float,
                mine_anc: _List | None, opp_anc: _List) -> float:
        """Value for the player to move (holding ``me``: ``total`` tiles worth ``mine_pts``) of a
        position not yet over.

        ``mine_anc`` / ``opp_anc``: the latest move lists of the player to move and of the
        opponent on an earlier board of this line (``opp_anc`` is the parent's), with racks
        that held at least today's tiles: their still-legal moves value the depth limit.
        """
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise _Timeout
        key = (hb, me.tobytes(), opp.tobytes(), min(streak, self.streak_limit), passes)
        hit = self.tt.get(key)
        first_key = -1
        if hit is not None:
            hdepth, hvalue, hflag, first_key = hit
            if hdepth >= depth:
                usable = (hflag == _EXACT or (hflag == _LOWER and hvalue >= beta)
                          or (hflag == _UPPER and hvalue <= alpha))
                if usable:
                    if hdepth < EXACT_DEPTH:
                        self.horizon += 1
                    return hvalue
        s_pass, p_pass, pass_ends = self.after(0, 0, streak, passes)
        pass_guess = opp_pts - mine_pts  # the game ends (or the static guess): both keep their tiles
        if depth <= 1:
            if not pass_ends and mine_anc is not None:
                # a static guess from the still-legal moves of an earlier list: no generation
                i = nb.best_out(board, me, total, mine_anc.nt, mine_anc.code, mine_anc.chk, mine_anc.sc)
                if i >= 0 and float(mine_anc.sc[i]) + self.out_value(opp_pts) >= beta:
                    return float(mine_anc.sc[i]) + self.out_value(opp_pts)  # going out: an exact lower bound
                self.horizon += 1
                v, _ = nb.frontier(board, me, total, mine_pts, opp_pts, mine_anc.nt, mine_anc.code, mine_anc.chk,
                                   mine_anc.pts, mine_anc.sc, mine_anc.nout0, float(INF))
                return max(float(v), pass_guess)
            moves = self.moves(board, hb, me)
            v, i = nb.frontier(board, me, total, mine_pts, opp_pts, moves.nt, moves.code, moves.chk, moves.pts,
                               moves.sc, moves.nout0, float(INF))
            if len(moves) and total == 1:
                cut = False  # going out beats passing (the opponent could pass back): exact
            else:
                cut = not pass_ends or bool(int(moves.nt.min()) < total if len(moves) else False)
            self.horizon += cut
            best, best_key = (v, int(moves.mh[i])) if v > pass_guess else (pass_guess, PASS_KEY)
            self.store(key, depth, not cut, best, -float(INF), float(INF), best_key)
            return best
        alpha_orig = alpha
        horizon_before = self.horizon
        best = -float(INF)
        best_key = -1
        cached = self.movecache.get((hb, me.tobytes()))
        done_key = -1
        if cached is None and mine_anc is not None:
            anc = mine_anc
            i = nb.best_out(board, me, total, anc.nt, anc.code, anc.chk, anc.sc)
            if i >= 0 and float(anc.sc[i]) + self.out_value(opp_pts) >= beta:  # going out refutes: exact
                best = float(anc.sc[i]) + self.out_value(opp_pts)
                self.store(key, depth, self.horizon == horizon_before, best, alpha_orig, beta, int(anc.mh[i]))
                return best
            # first the table's best move (or at two plies from the limit every still-legal
            # move) from an earlier list: a cutoff spares generating this position's moves
            anc = mine_anc
            first = anc.find(first_key) if first_key > 0 else -1
            if depth == 2:
                zero_ends = not self.passes_rule and streak + 1 >= self.streak_limit
                b, k, searched, cut = nb.depth_two(board, me, opp, mine_pts, opp_pts, alpha, beta, zero_ends, first,
                                                   True, anc.nt, anc.sq, anc.tl, anc.code, anc.chk, anc.pts, anc.sc,
                                                   opp_anc.nt, opp_anc.code, opp_anc.chk, opp_anc.pts, opp_anc.sc,
                                               opp_anc.nout0)
                self.nodes += searched
                self.horizon += cut
                if k >= 0:
                    best, best_key = b, int(anc.mh[k])
            elif first >= 0 and nb.valid_one(board, me, first, anc.nt, anc.code, anc.chk):
                best = self.child(anc, first, board, hb, me, opp, streak, passes, depth, alpha, beta,
                                  mine_pts, opp_pts, total, opp_total, opp_anc, anc)
                best_key = done_key = first_key
            if best >= beta:
                self.store(key, depth, self.horizon == horizon_before, best, alpha_orig, beta, best_key)
                return best
            alpha = max(alpha, best)
        moves = cached if cached is not None else self.moves(board, hb, me)
        n = len(moves)
        first = moves.find(first_key) if first_key > 0 else -1
        if depth == 2:  # every grandchild is at the depth limit: compiled
            zero_ends = not self.passes_rule and streak + 1 >= self.streak_limit
            b, k, searched, cut = nb.depth_two(board, me, opp, mine_pts, opp_pts, alpha, beta, zero_ends, first,
                                               False, moves.nt, moves.sq, moves.tl, moves.code, moves.chk,
                                               moves.pts, moves.sc,
                                               opp_anc.nt, opp_anc.code, opp_anc.chk, opp_anc.pts, opp_anc.sc,
                                               opp_anc.nout0)
            self.nodes += searched
            self.horizon += cut
            if k >= 0 and b > best:
                best, best_key = b, int(moves.mh[k])
                alpha = max(alpha, best)
            order: list[int] = [n] if alpha < beta else []
        else:
            order = list(range(n)) + [n]
            if first_key == PASS_KEY:
                first = n
            if first >= 0:
                order.remove(first)
                order.insert(0, first)
        plain_nt, _, _, plain_mh = moves.plain()
        for k in order:
            if k == n:
                if pass_ends:
                    value = pass_guess
                else:
                    value = -self.negamax(board, hb, opp, me, opp_pts, mine_pts, opp_total, total, s_pass, p_pass,
                                          depth - 1, -beta, -alpha, opp_anc, moves)
                mkey = PASS_KEY
            else:
                mkey = plain_mh[k]
                if mkey == done_key or (k and plain_nt[k] == total):
                    continue  # searched already; going out: the first move in the order scores the most
                value = self.child(moves, k, board, hb, me, opp, streak, passes, depth, alpha, beta,
                                   mine_pts, opp_pts, total, opp_total, opp_anc, moves, best > -INF)
            if value > best:
                best, best_key = value, mkey
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        self.store(key, depth, self.horizon == horizon_before, best, alpha_orig, beta, best_key)
        return best

    def child(self, moves: _List, k: int, board: np.ndarray, hb: int, me: np.ndarray, opp: np.ndarray,
              streak: int, passes: int, depth: int, alpha: float, beta: float, mine_pts: float, opp_pts: float,
              total: int, opp_total: int, opp_anc: _List, mine_list: _List, scout: bool = False) -> float:
        """The value of playing move ``k`` of ``moves`` (legal here), searched to ``depth - 1``;
        ``mine_list`` is the mover's latest list (the opponent's ``opp_anc`` below). With
        ``scout`` (a move after the first) a null window tests whether it beats ``alpha`` before
        the full window (principal variation search)."""
        nt, sc, pts, mh = moves.plain()
        placed = nt[k]
        score = sc[k]
        if placed == total:
            return score + self.out_value(opp_pts)
        s2, p2, over = self.after(score, placed, streak, passes)
        if over:
            return score + opp_pts - (mine_pts - pts[k])
        nb.play(board, me, k, moves.sq, moves.tl, moves.usage, moves.nt, False)
        try:
            if scout and beta - alpha > 1:
                value = score - self.negamax(board, hb ^ mh[k], opp, me, opp_pts, mine_pts - pts[k], opp_total,
                                             total - placed, s2, p2, depth - 1, score - alpha - 1, score - alpha,
                                             opp_anc, mine_list)
                if value <= alpha or value >= beta:
                    return value
            return score - self.negamax(board, hb ^ mh[k], opp, me, opp_pts, mine_pts - pts[k], opp_total,
                                        total - placed, s2, p2, depth - 1, score - beta, score - alpha,
                                        opp_anc, mine_list)
        finally:
            nb.play(board, me, k, moves.sq, moves.tl, moves.usage, moves.nt, True)

    def line(self, board: np.ndarray, hb: int, me: np.ndarray, opp: np.ndarray, streak: int, passes: int,
             limit: int = 30) -> list[MoveInfo]:
        """The principal variation from the table (best moves in turn)."""
        board, me, opp = board.copy(), me.copy(), opp.copy()
        out: list[MoveInfo] = []
        for _ in range(limit):
            key = (hb, me.tobytes(), opp.tobytes(), min(streak, self.streak_limit), passes)
            hit = self.tt.get(key)
            if hit is None or hit[3] < 0:
                break
            if hit[3] == PASS_KEY:
                info: MoveInfo = PASS_INFO
                used = np.zeros(me.shape[0], np.int32)
            else:
                moves = self.moves(board, hb, me)
                k = moves.find(hit[3])
                if k < 0:
                    break
                info = (int(moves.sc[k]), moves.squares(k))
                used = moves.used(k)
                hb ^= hit[3]
            out.append(info)
            score, squares = info
            if squares and len(squares) == int(me.sum()):
                break
            streak, passes, over = self.after(score, len(squares), streak, passes)
            if over:
                break
            for sq, t in squares:
                board[sq] = t
            me = me - used
            me, opp = opp, me
        return out


def solve(view: PlayerView, lexicon: Lexicon, *, time_limit: float = 5.0, max_depth: int = 40) -> Solution:
    """The best move of a two-player position with the bag empty (see the module doc); in a game
    of three or four, of the two players still in (the others' turns are passed over and they
    hold no tiles). Raises :class:`~qiza.errors.RuleError` when more than two players are in."""
    from qiza.analysis import generator
    from qiza.errors import RuleError

    if len(view.seats_in) != 2:
        raise RuleError(f"the endgame search is for two players; {len(view.seats_in)} are in this game "
                        "(qiza.players.endgame_multi searches three or four)")
    rules = view.rules
    board = board_array(view.board).copy()
    me = rack_counts(view.rack, rules.tile_set)
    opp = rack_counts(view.unseen, rules.tile_set)
    limit = (rules.passes if rules.end_rule is EndRule.PASSES else rules.scoreless_turns) * 2
    return solve_position(generator(lexicon, rules), rules, board, me, opp, time_limit=time_limit,
                          max_depth=max_depth, streak=scoreless_streak(view.history, rules, view.out),
                          streak_limit=limit)


def solve_position(gen: MoveGenerator, rules: Rules, board: np.ndarray, me: np.ndarray, opp: np.ndarray, *,
                   time_limit: float = 5.0, max_depth: int = 40, streak: int = 0,
                   streak_limit: int | None = None, cpu_time: bool = False) -> Solution:
    """:func:`solve` on arrays: ``board`` (flat tile codes), both racks as counts per tile kind
    (27 for English).

    ``streak`` is the count of turns already in a row towards the scoreless end rule and
    ``streak_limit`` the count that ends the game (default from ``rules``, two players).
    The search is one compiled call (:mod:`qiza.players.endgame_search`); with a generator
    without compiled code it is :func:`solve_position_py`. With ``cpu_time`` the time limit
    is the CPU time of the searching thread (a benchmark's figure that other jobs on the
    machine do not change; where that clock is missing, and for players, it is wall-clock time).
    """
    from qiza.movegen_py import PyMoveGenerator

    if isinstance(gen, PyMoveGenerator):
        return solve_position_py(gen, rules, board, me, opp, time_limit=time_limit, max_depth=max_depth,
                                 streak=streak, streak_limit=streak_limit)
    if streak_limit is None:
        streak_limit = (rules.passes if rules.end_rule is EndRule.PASSES else rules.scoreless_turns) * 2
    board = np.ascontiguousarray(board, np.int32).ravel().copy()
    racks = np.ascontiguousarray(np.stack([np.asarray(me), np.asarray(opp)]), np.int32).copy()
    if not racks[0].any():
        return Solution(None, 0.0, True, 0, 0, 0.0)
    return _compiled_search(gen, rules, board, racks, time_limit, max_depth, streak, streak_limit, cpu_time)


def solve_position_py(gen: MoveGenerator, rules: Rules, board: np.ndarray, me: np.ndarray, opp: np.ndarray, *,
                   time_limit: float = 5.0, max_depth: int = 40, streak: int = 0,
                   streak_limit: int | None = None) -> Solution:
    """:func:`solve_position` by the Python-driven search (a Python negamax over compiled
    helpers): the compiled search's second opinion in the tests, and the solver while the
    compiled code is not ready (a :class:`~qiza.movegen_py.PyMoveGenerator`)."""
    nb.warm_up()  # the first time in a process: compiled helpers loaded (or compiled), off the clock
    start = time.perf_counter()
    if streak_limit is None:
        streak_limit = (rules.passes if rules.end_rule is EndRule.PASSES else rules.scoreless_turns) * 2
    values27 = kind_values(rules.tile_set.values, rules.tile_set.size).astype(np.float64)
    board = np.ascontiguousarray(board, np.int32).copy()
    start_board = board.ravel().copy()
    me = np.asarray(me, np.int32).copy()
    opp = np.asarray(opp, np.int32).copy()
    if not me.any():
        return Solution(None, 0.0, True, 0, 0, 0.0)
    search = _Search(gen, rules, values27, start + time_limit, streak_limit)
    hb = search.board_key(board)
    best_info: MoveInfo | None = None
    best_value = -float(INF)
    exact = False
    depth_done = 0
    line: list[MoveInfo] = []
    try:
        opp_moves = search.moves(board, hb, opp)
        for depth in range(1, max_depth + 1):
            search.horizon = 0
            value = search.negamax(board, hb, me, opp, float(me @ values27), float(opp @ values27), int(me.sum()),
                                   int(opp.sum()), streak, 0, depth, -float(INF), float(INF), None, opp_moves)
            depth_done = depth
            best_value = value
            line = search.line(board, hb, me, opp, streak, 0)
            best_info = line[0] if line else None
            if search.horizon == 0:
                exact = True
                break
    except _Timeout:
        pass
    if best_info is None:  # not even depth 1 finished: the highest-scoring play (going out first)
        moves = search.moves(board, hb, me)
        best_info = (int(moves.sc[0]), moves.squares(0)) if len(moves) else PASS_INFO
        best_value = float(best_info[0])
    size, ts = rules.layout.size, rules.tile_set
    return Solution(as_move(best_info, size, ts, start_board), best_value, exact, depth_done, search.nodes,
                    time.perf_counter() - start, as_moves(line, size, ts, start_board))


POOL_ROWS = 1 << 20
"""Move rows of the compiled search's pool at first (it doubles when a search fills it)."""
TABLE_BITS = 21
"""The compiled search's transposition table holds ``2 ** TABLE_BITS`` entries."""
LIST_BITS = 18
"""The compiled search's list cache holds ``2 ** LIST_BITS`` entries (half of them used at most)."""
GEN_ROWS = 1 << 16
"""Rows of the generator's output buffer in the compiled search at first (doubled on overflow)."""
STEP2_FROM = 6
"""From this depth on the compiled search's iterative deepening goes two plies at a time (0:
one at a time; the depths stay even: the depth limit falls after the opponent's move). Long
endgames gain (benchmark, CPU clock: seed 55 exact in 2.6 s instead of 3.9 s, seed 9 in 1.3 s
instead of 1.6 s); from depth 4 on, some short ones lost more than that (seed 0: 0.4 -> 0.9 s)."""


class _Buffers(threading.local):
    """The compiled search's arrays, kept per thread between searches (the pool is large)."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: type, zero: bool = False) -> np.ndarray:
        a = self.arrays.get(name)
        if a is None or a.shape != shape or a.dtype != dtype:
            a = self.arrays[name] = np.zeros(shape, dtype)
        elif zero:
            a.fill(0)
        return a


_BUFFERS = _Buffers()


def _search_arrays(gen: MoveGenerator, rules: Rules, width: int, pool_rows: int, gen_rows: int, streak_limit: int,
                   max_depth: int) -> tuple[np.ndarray, ...]:
    """The arguments ``E`` of the compiled search (see :mod:`qiza.players.endgame_search`),
    with this thread's buffers, the table emptied; ``E[E_STOP][0]`` is the stop flag."""
    from qiza.players import endgame_store as store

    size = rules.layout.size
    rng = np.random.default_rng(12345)
    ztab = rng.integers(1, 2 ** 63 - 1, size=(size * size, 128), dtype=np.int64)
    zr = rng.integers(1, 2 ** 63 - 1, size=(3, gen.kinds, 16), dtype=np.int64)
    zs = rng.integers(1, 2 ** 63 - 1, size=(streak_limit + 1, 3), dtype=np.int64)
    vals = kind_values(rules.tile_set.values, rules.tile_set.size).astype(np.int64)
    st = np.zeros(store.S_SIZE, np.int64)
    st[store.S_CACHE_ROWS] = pool_rows * 3 // 4
    st[store.S_STREAK_LIMIT] = streak_limit
    st[store.S_PASSES_RULE] = rules.end_rule is EndRule.PASSES
    st[store.S_MAX_DEPTH] = max_depth
    st[store.S_STEP2] = STEP2_FROM
    b = _BUFFERS
    tt = b.get("tt", (1 << TABLE_BITS, 3), np.int64)
    tt[:, 0] = 0
    lc = b.get("lc", (1 << LIST_BITS, 2), np.int64)
    lc[:, 0] = 0
    work = gen._templates[0]
    return (gen.graph, work, b.get("w", work.shape, work.dtype.type), b.get("out", (gen_rows, O_WIDTH), np.int32),
            gen.prem, b.get("pool", (pool_rows, 5 + 6 * width), np.int16), b.get("pmh", (pool_rows,), np.int64),
            lc, b.get("lt", (1 << LIST_BITS, 8), np.int64), tt, ztab, zr, vals, zs, st,
            np.array([size, gen.start], np.int64), np.zeros(1, np.int64), np.zeros(64, np.int64),
            np.zeros(size * size, np.int8), b.get("pnt", (pool_rows,), np.int8),
            b.get("pmk", (pool_rows,), np.int64), b.get("pkm", (pool_rows,), np.int64),
            np.zeros(size * size + 1, np.int64), b.get("pcb", (pool_rows, (size * size + 63) // 64), np.int64),
            np.zeros((size * size + 63) // 64, np.int64), np.zeros((2 * size * size * XC_WAYS, 2), np.int64),
            np.zeros((size, size), np.int32), np.zeros((size, size), np.int8), np.zeros((size, size), np.int64),
            np.zeros((size, size), np.int32),
            b.get("si", (store.SI_CB + (size * size + 63) // 64, 2 * gen_rows), np.int64),
            b.get("stmp", (gen_rows, 5 + 6 * width), np.int16), b.get("tf", (1 << 16,), np.int64, zero=True),
            np.zeros((2, 5), np.int64))

def _thread_cpu_clock() -> int | None:
    """The id of the calling thread's CPU-time clock (None: not available here)."""
    try:
        return time.pthread_getcpuclockid(threading.get_ident())
    except (AttributeError, OSError):
        return None


class _CpuTimer(threading.Thread):
    """Sets ``flag[0]`` once the thread whose CPU clock is ``clock`` has run ``limit`` seconds
    since ``start`` (that clock's reading), checking every millisecond; :meth:`cancel` stops it."""

    def __init__(self, clock: int, start: float, limit: float, flag: np.ndarray) -> None:
        super().__init__(daemon=True)
        self.clock, self.end, self.flag = clock, start + limit, flag
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.001):
            if time.clock_gettime(self.clock) >= self.end:
                self.flag.fill(1)
                return

    def cancel(self) -> None:
        self.done.set()


_LOADED: set[bool] = set()
"""The widths of word graph (:attr:`MoveGenerator.wide`) whose compiled search this process has loaded."""


def load_search(gen: MoveGenerator) -> None:
    """Load the compiled search for ``gen``'s word graph from the disk cache (or compile it,
    when the cache lacks it: a minute or more), once a process; nothing for a generator without
    compiled code. Whoever gives a search a time limit calls it before the clock starts (a
    player, before its move's: :meth:`qiza.players.sim.SimPlayer.warm_up`; the pre-endgame
    search), so that the first search after a fresh start does not spend the limit, or many
    times it, loading the code."""
    from qiza.movegen_py import PyMoveGenerator

    if isinstance(gen, PyMoveGenerator) or gen.wide in _LOADED:
        return
    from qiza.players import endgame_search as es

    es.warm_up()
    es.prepare(gen.wide)
    _LOADED.add(gen.wide)


def _compiled_search(gen: MoveGenerator, rules: Rules, board: np.ndarray, racks: np.ndarray, time_limit: float,
                     max_depth: int, streak: int, streak_limit: int, cpu_time: bool = False) -> Solution:
    """:func:`solve_position` by one call of :func:`qiza.players.endgame_search.solve`."""
    from qiza.players import endgame_search as es
    from qiza.players import endgame_store as store

    load_search(gen)  # the first time in a process: compiled (or loaded), off the clock
    start_board = board.copy()  # the moves are named on the board before them
    clock = _thread_cpu_clock()
    cpu_start = time.clock_gettime(clock) if clock is not None else 0.0
    start = time.perf_counter()
    size = rules.layout.size
    width = max(int(racks[0].sum()), int(racks[1].sum()), 1)
    b = _BUFFERS
    pool_rows = max(POOL_ROWS, b.arrays["pool"].shape[0] if "pool" in b.arrays else 0)
    gen_rows = max(GEN_ROWS, b.arrays["out"].shape[0] if "out" in b.arrays else 0)
    while True:
        E = _search_arrays(gen, rules, width, pool_rows, gen_rows, streak_limit, max_depth)
        st = E[store.E_ST]
        line = np.zeros((store.LINE_MAX, 2 + 2 * width), np.int64)
        stop = E[store.E_STOP]
        timer: threading.Timer | _CpuTimer
        if cpu_time and clock is not None:
            timer = _CpuTimer(clock, cpu_start, time_limit, stop)
        else:
            timer = threading.Timer(max(0.0, start + time_limit - time.perf_counter()), stop.fill, args=(1,))
        timer.daemon = True
        timer.start()
        try:
            es.solve(E, board, racks, streak, line)
        finally:
            timer.cancel()
        if st[store.S_STOP] == store.STOP_POOL:
            pool_rows *= 2
        elif st[store.S_STOP] == store.STOP_BUFFER:
            gen_rows *= 2
        else:
            break
    moves: list[MoveInfo] = []
    for row in line[:int(st[store.S_LINE])].tolist():
        n = row[1]
        moves.append((row[0], list(zip(row[2:2 + n], row[2 + width:2 + width + n]))))
    if st[store.S_DEPTH] and moves:
        best_info, value = moves[0], float(st[store.S_VALUE])
    else:  # not even depth 1 finished: the highest-scoring play (going out first)
        first = int(st[store.S_FIRST])
        pool = E[store.E_POOL]
        if first >= 0:
            n = int(pool[first, 0])
            best_info = (int(pool[first, 1]), list(zip(pool[first, 3:3 + n].tolist(),
                                                        pool[first, 3 + width:3 + width + n].tolist())))
        else:
            best_info = PASS_INFO
        value = float(best_info[0])
        moves = []
    ts = rules.tile_set
    seconds = time.perf_counter() - start
    cpu_seconds = time.clock_gettime(clock) - cpu_start if clock is not None else 0.0
    return Solution(as_move(best_info, size, ts, start_board), value, bool(st[store.S_EXACT]), int(st[store.S_DEPTH]),
                    int(st[store.S_NODES]), seconds, as_moves(moves, size, ts, start_board), cpu_seconds)


def as_move(mv: MoveInfo, size: int, tile_set: TileSet, board: np.ndarray | None = None) -> Move:
    """A searched move as a :class:`~qiza.move.Place` (or :class:`~qiza.move.Pass`).

    With ``board`` (flat tile codes before the move) the move is named as the rules engine
    names it: extended over the tiles already touching either end of the line (``...S``
    for S after QAT, not S alone), and a single tile across only when it forms a word across,
    else down. Without it, the line runs from the first tile placed to the last."""
    squares = mv[1]
    if not squares:
        return Pass()
    placed_at = dict(squares)
    sqs = sorted(placed_at)
    r0, c0 = divmod(sqs[0], size)
    r1, c1 = divmod(sqs[-1], size)
    if len(sqs) > 1:
        down = c0 == c1
    elif board is not None:
        across = (c0 > 0 and board[sqs[0] - 1] != 0) or (c0 < size - 1 and board[sqs[0] + 1] != 0)
        down = not across
    else:
        down = False
    dr, dc = (1, 0) if down else (0, 1)
    if board is not None:
        while r0 - dr >= 0 and c0 - dc >= 0 and board[(r0 - dr) * size + c0 - dc] != 0:
            r0, c0 = r0 - dr, c0 - dc
        while r1 + dr < size and c1 + dc < size and board[(r1 + dr) * size + c1 + dc] != 0:
            r1, c1 = r1 + dr, c1 + dc
    chars = []
    for i in range(max(r1 - r0, c1 - c0) + 1):
        t = placed_at.get((r0 + dr * i) * size + c0 + dc * i, 0)
        chars.append("." if not t else tile_set.tile_text(t))
    return Place(r0, c0, Direction.DOWN if down else Direction.ACROSS, "".join(chars))


def as_moves(infos: Sequence[MoveInfo], size: int, tile_set: TileSet, board: np.ndarray) -> list[Move]:
    """A line of searched moves played in turn from ``board`` (flat tile codes), each named
    on the board it is played on (see :func:`as_move`)."""
    board = np.array(board, copy=True).ravel()
    moves = []
    for info in infos:
        moves.append(as_move(info, size, tile_set, board))
        for sq, tile in info[1]:
            board[sq] = tile
    return moves


class EndgamePlayer(StaticPlayer):
    """The static player, with the exact endgame solver once the bag is empty (2 players, or two
    left of 3 or 4), and the max-n search over sampled deals with 3 or 4 players still in
    (:mod:`qiza.players.endgame_multi`)."""

    name = "endgame"

    def __init__(self, lexicon: Lexicon, *, name: str | None = None, seed: int | None = None,
                 time_limit: float = 5.0, **_: object) -> None:
        super().__init__(lexicon, name=name, seed=seed)
        #: seconds the endgame search may take a move
        self.time_limit = time_limit
        #: the last exact or best-found solution (None before the first endgame)
        self.last_solution: Solution | None = None

    def choose(self, view: PlayerView) -> Move:
        """With the bag empty, the endgame search's move (exact when it finishes within
        :attr:`time_limit`); before, the static player's."""
        if view.bag_count == 0 and view.rack and view.rules.finish_line is None:
            if len(view.seats_in) == 2:
                solution = solve(view, self.lexicon, time_limit=self.time_limit)
                self.last_solution = solution
                if solution.move is not None:
                    return solution.move
            elif view.seat is not None:
                from qiza.players.endgame_multi import solve_multi

                found = solve_multi(view, self.lexicon, time_limit=self.time_limit, seed=self.rng.randrange(2**31))
                if found.move is not None:
                    return found.move
        return super().choose(view)


__all__ = ["solve", "solve_position", "solve_position_py", "load_search", "as_move", "as_moves", "scoreless_streak", "Solution", "EndgamePlayer"]
