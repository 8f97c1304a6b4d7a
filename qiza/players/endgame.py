"""Exact endgame solver for two players once the bag is empty.

With the bag empty both racks are known (the opponent's rack is the unseen tiles), so the
rest of the game is a two-player game of perfect information. :func:`solve` searches it with
negamax and alpha-beta pruning, a transposition table (exact values and bounds, with the best
move of each position tried first), moves ordered by score (plays that go out first) and
iterative deepening under a time limit. The value of a position is the score difference to
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

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from qiza.analysis import board_array, rack_counts
from qiza.game import Kind, PlayerView, Record
from qiza.move import Direction, Move, Pass, Place
from qiza.movegen import MoveGenerator
from qiza.players.engine import StaticPlayer
from qiza.rules import EndPoints, EndRule, Rules

if TYPE_CHECKING:
    from qiza.lexicon import Lexicon

INF = 10 ** 6
EXACT_DEPTH = 10 ** 4
"""Depth recorded for a table entry whose subtree never met the depth limit (valid at any depth)."""
_EXACT, _LOWER, _UPPER = 0, 1, 2


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


class _Timeout(Exception):
    pass


MoveInfo = tuple[int, np.ndarray, list[tuple[int, int]], int, float]
"""(score, used rack counts, [(square, tile)], tiles placed, face value of the tiles placed);
tiles placed 0 = a pass."""

PASS_INFO: MoveInfo = (0, np.zeros(27, np.int32), [], 0, 0.0)


class _Moves:
    """The placements of one position in search order, each converted when first needed."""

    __slots__ = ("ml", "order", "size", "done", "values", "scores", "points", "out")

    def __init__(self, ml: object, order: np.ndarray, size: int, values: np.ndarray, total: int) -> None:
        self.ml = ml
        self.order = order
        self.size = size
        self.values = values
        self.done: list[MoveInfo] = []
        if len(order):  # in search order: scores, face value of the tiles placed, goes out
            tiles = ml.tiles[order]  # type: ignore[attr-defined]
            codes = np.where(tiles & 64, 0, tiles & 63)
            self.scores = ml.score[order].astype(np.float64)  # type: ignore[attr-defined]
            self.points = values[codes].sum(axis=1)
            self.out = ml.ntiles[order] == total  # type: ignore[attr-defined]
        else:
            self.scores = self.points = np.zeros(0)
            self.out = np.zeros(0, bool)

    def __len__(self) -> int:
        return len(self.order)

    def get(self, k: int) -> MoveInfo:
        while len(self.done) <= k:
            ml = self.ml
            i = int(self.order[len(self.done)])
            r, c, d = int(ml.row[i]), int(ml.col[i]), int(ml.direction[i])  # type: ignore[attr-defined]
            used = np.zeros(27, np.int32)
            squares = []
            for j in range(int(ml.length[i])):  # type: ignore[attr-defined]
                t = int(ml.tiles[i, j])  # type: ignore[attr-defined]
                if t:
                    squares.append(((r + j) * self.size + c if d else r * self.size + c + j, t))
                    used[0 if t & 64 else t] += 1
            self.done.append((int(ml.score[i]), used, squares, len(squares),  # type: ignore[attr-defined]
                              float(np.dot(used, self.values))))
        return self.done[k]


def scoreless_streak(history: Sequence[Record], rules: Rules) -> int:
    """Turns in a row at the end of ``history`` that count towards the scoreless end rule
    (scoreless turns, or passes under ``EndRule.PASSES``)."""
    streak = 0
    for record in reversed(history):
        if not record.is_turn:
            continue
        if rules.end_rule is EndRule.PASSES:
            if record.kind is not Kind.PASS:
                break
        elif record.kind is Kind.PLACE and not record.challenged_off and record.score != 0:
            break
        streak += 1
    return streak


class _Search:
    def __init__(self, gen: MoveGenerator, rules: Rules, values27: np.ndarray, deadline: float,
                 streak_limit: int) -> None:
        self.gen = gen
        self.size = rules.layout.size
        self.values27 = values27
        self.deadline = deadline
        self.passes_rule = rules.end_rule is EndRule.PASSES
        self.double = rules.end_points is EndPoints.DOUBLE
        self.streak_limit = streak_limit
        self.nodes = 0
        self.horizon = 0
        """Leaves cut at the depth limit so far (0 after a search = exact)."""
        self.tt: dict[tuple[bytes, bytes, bytes, int, int], tuple[int, float, int, int]] = {}
        self.movecache: dict[tuple[bytes, bytes], _Moves] = {}

    def moves(self, board: np.ndarray, rack: np.ndarray) -> _Moves:
        """Every placement of ``rack``, going out first, then by score (converted lazily)."""
        key = (board.tobytes(), rack.tobytes())
        cached = self.movecache.get(key)
        if cached is not None:
            return cached
        ml = self.gen.generate(board, rack)
        total = int(rack.sum())
        order = np.lexsort((-ml.score, ml.ntiles != total)) if len(ml) else np.zeros(0, np.int64)
        moves = _Moves(ml, order, self.size, self.values27, total)
        if len(self.movecache) > 200_000:
            self.movecache.clear()
        self.movecache[key] = moves
        return moves

    def out_value(self, opp_pts: float) -> float:
        """Score difference won by going out against tiles worth ``opp_pts``."""
        return 2.0 * opp_pts

    def after(self, score: int, placed: int, streak: int, passes: int) -> tuple[int, int, bool]:
        """(streak, passes, game over) after a turn scoring ``score`` with ``placed`` tiles."""
        if placed:
            passes = 0
            if self.passes_rule or score:
                streak = 0
            else:
                streak += 1
        else:
            passes += 1
            streak += 1
        return streak, passes, passes >= 2 or streak >= self.streak_limit

    def negamax(self, board: np.ndarray, me: np.ndarray, opp: np.ndarray, streak: int, passes: int,
                depth: int, alpha: float, beta: float) -> float:
        """Value for the player to move (holding ``me``) of a position not yet over."""
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise _Timeout
        mine_pts = float(np.dot(me, self.values27))
        opp_pts = float(np.dot(opp, self.values27))
        if depth <= 0:
            self.horizon += 1
            return opp_pts - mine_pts  # a rough guess: both keep their tiles
        key = (board.tobytes(), me.tobytes(), opp.tobytes(), min(streak, self.streak_limit), passes)
        hit = self.tt.get(key)
        first = -1
        if hit is not None:
            hdepth, hvalue, hflag, first = hit
            if hdepth >= depth:
                usable = (hflag == _EXACT or (hflag == _LOWER and hvalue >= beta)
                          or (hflag == _UPPER and hvalue <= alpha))
                if usable:
                    if hdepth < EXACT_DEPTH:
                        self.horizon += 1
                    return hvalue
        alpha_orig = alpha
        horizon_before = self.horizon
        total = int(me.sum())
        moves = self.moves(board, me)
        n = len(moves)
        if depth == 1:  # every child is at the depth limit: all at once, with the same rough guess
            return self._frontier(key, moves, mine_pts, opp_pts, streak, passes)
        best = -float(INF)
        best_k = -1
        # search order: the table's best move first, then the generator order, then the pass
        order: list[int] = list(range(n)) + [n]
        if 0 <= first <= n:
            order.remove(first)
            order.insert(0, first)
        for k in order:
            if k == n:
                s2, p2, over = self.after(0, 0, streak, passes)
                if over:
                    value = opp_pts - mine_pts
                else:
                    value = -self.negamax(board, opp, me, s2, p2, depth - 1, -beta, -alpha)
            else:
                score, used, squares, placed, pts = moves.get(k)
                if placed == total:
                    value = score + self.out_value(opp_pts)
                else:
                    s2, p2, over = self.after(score, placed, streak, passes)
                    if over:
                        value = score + opp_pts - (mine_pts - pts)
                    elif depth == 1:  # the child is at the depth limit: the same rough guess, inline
                        self.horizon += 1
                        value = score + opp_pts - (mine_pts - pts)
                    else:
                        me -= used
                        for sq, t in squares:
                            board[sq] = t
                        try:
                            value = score - self.negamax(board, opp, me, s2, p2, depth - 1,
                                                         score - beta, score - alpha)
                        finally:
                            for sq, _ in squares:
                                board[sq] = 0
                            me += used
            if value > best:
                best, best_k = value, k
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        exact = self.horizon == horizon_before
        flag = _UPPER if best <= alpha_orig else _LOWER if best >= beta else _EXACT
        if len(self.tt) > 2_000_000:
            self.tt.clear()
        self.tt[key] = (EXACT_DEPTH if exact else depth, best, flag, best_k)
        return best

    def _frontier(self, key: tuple[bytes, bytes, bytes, int, int], moves: _Moves, mine_pts: float,
                  opp_pts: float, streak: int, passes: int) -> float:
        """:meth:`negamax` at depth 1, vectorized: going out is exact, every other child is
        valued as if both kept their tiles to the end."""
        n = len(moves)
        best = opp_pts - mine_pts  # the pass (the game ends, or the guess for the child)
        best_k = n
        cut = not self.after(0, 0, streak, passes)[2]
        if n:
            values = np.where(moves.out, moves.scores + self.out_value(opp_pts),
                              moves.scores + opp_pts - (mine_pts - moves.points))
            k = int(np.argmax(values))
            cut = cut or not moves.out.all()
            if values[k] > best:
                best, best_k = float(values[k]), k
        self.horizon += cut
        self.tt[key] = (1 if cut else EXACT_DEPTH, best, _EXACT, best_k)
        return best

    def line(self, board: np.ndarray, me: np.ndarray, opp: np.ndarray, streak: int, passes: int,
             limit: int = 30) -> list[MoveInfo]:
        """The principal variation from the table (best moves in turn)."""
        board, me, opp = board.copy(), me.copy(), opp.copy()
        out: list[MoveInfo] = []
        for _ in range(limit):
            key = (board.tobytes(), me.tobytes(), opp.tobytes(), min(streak, self.streak_limit), passes)
            hit = self.tt.get(key)
            if hit is None or hit[3] < 0:
                break
            moves = self.moves(board, me)
            k = hit[3]
            info = PASS_INFO if k == len(moves) else moves.get(k)
            out.append(info)
            score, used, squares, placed, _ = info
            if placed == int(me.sum()) and placed:
                break
            streak, passes, over = self.after(score, placed, streak, passes)
            if over:
                break
            for sq, t in squares:
                board[sq] = t
            me = me - used
            me, opp = opp, me
        return out


def solve(view: PlayerView, lexicon: Lexicon, *, time_limit: float = 5.0, max_depth: int = 40) -> Solution:
    """The best move of a two-player position with the bag empty (see the module doc)."""
    from qiza.analysis import generator

    rules = view.rules
    board = board_array(view.board).copy()
    me = rack_counts(view.rack)
    opp = rack_counts(view.unseen)
    limit = (rules.passes if rules.end_rule is EndRule.PASSES else rules.scoreless_turns) * 2
    return solve_position(generator(lexicon, rules), rules, board, me, opp, time_limit=time_limit,
                          max_depth=max_depth, streak=scoreless_streak(view.history, rules), streak_limit=limit)


def solve_position(gen: MoveGenerator, rules: Rules, board: np.ndarray, me: np.ndarray, opp: np.ndarray, *,
                   time_limit: float = 5.0, max_depth: int = 40, streak: int = 0,
                   streak_limit: int | None = None) -> Solution:
    """:func:`solve` on arrays: ``board`` (flat tile codes), both racks as 27 counts.

    ``streak`` is the count of turns already in a row towards the scoreless end rule and
    ``streak_limit`` the count that ends the game (default from ``rules``, two players).
    """
    start = time.perf_counter()
    if streak_limit is None:
        streak_limit = (rules.passes if rules.end_rule is EndRule.PASSES else rules.scoreless_turns) * 2
    values27 = np.zeros(27, np.int64)
    values27[1:] = rules.tile_set.values
    board = np.ascontiguousarray(board, np.int32).copy()
    me = np.asarray(me, np.int32).copy()
    opp = np.asarray(opp, np.int32).copy()
    search = _Search(gen, rules, values27.astype(np.float64), start + time_limit, streak_limit)
    best_info: MoveInfo | None = None
    best_value = -float(INF)
    exact = False
    depth_done = 0
    line: list[MoveInfo] = []
    if not me.any():
        return Solution(None, 0.0, True, 0, 0, 0.0)
    for depth in range(1, max_depth + 1):
        search.horizon = 0
        try:
            value = search.negamax(board, me, opp, streak, 0, depth, -float(INF), float(INF))
        except _Timeout:
            break
        depth_done = depth
        best_value = value
        line = search.line(board, me, opp, streak, 0)
        best_info = line[0] if line else None
        if search.horizon == 0:
            exact = True
            break
    if best_info is None:  # not even depth 1 finished: the highest-scoring play (going out first)
        moves = search.moves(board, me)
        best_info = moves.get(0) if len(moves) else PASS_INFO
        best_value = float(best_info[0])
    size = rules.layout.size
    return Solution(_as_move(best_info, size), best_value, exact, depth_done, search.nodes,
                    time.perf_counter() - start, [_as_move(m, size) for m in line])


def _as_move(mv: MoveInfo, size: int) -> Move:
    """A searched move as a :class:`~qiza.move.Place` (or :class:`~qiza.move.Pass`)."""
    _, _, squares, placed, _ = mv
    if not placed:
        return Pass()
    placed_at = dict(squares)
    sqs = sorted(placed_at)
    r0, c0 = divmod(sqs[0], size)
    r1, c1 = divmod(sqs[-1], size)
    down = len(sqs) > 1 and c0 == c1
    step = size if down else 1
    chars = []
    for sq in range(sqs[0], sqs[-1] + 1, step):
        t = placed_at.get(sq, 0)
        chars.append("." if not t else chr(96 + (t & 63)) if t & 64 else chr(64 + t))
    return Place(r0, c0, Direction.DOWN if down else Direction.ACROSS, "".join(chars))


class EndgamePlayer(StaticPlayer):
    """The static player, with the exact endgame solver once the bag is empty (2 players)."""

    name = "endgame"

    def __init__(self, lexicon: Lexicon, *, name: str | None = None, seed: int | None = None,
                 time_limit: float = 5.0, **_: object) -> None:
        super().__init__(lexicon, name=name, seed=seed)
        self.time_limit = time_limit
        self.last_solution: Solution | None = None

    def choose(self, view: PlayerView) -> Move:
        if view.bag_count == 0 and len(view.scores) == 2 and view.rack and view.rules.finish_line is None:
            solution = solve(view, self.lexicon, time_limit=self.time_limit)
            self.last_solution = solution
            if solution.move is not None:
                return solution.move
        return super().choose(view)


__all__ = ["solve", "solve_position", "scoreless_streak", "Solution", "EndgamePlayer"]
