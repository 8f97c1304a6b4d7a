"""Exact endgame solver for two players once the bag is empty.

With the bag empty both racks are known (the opponent's rack is the unseen tiles), so the
rest of the game is a two-player game of perfect information. :func:`solve` searches it with
negamax and alpha-beta pruning, a transposition table, moves ordered by score (plays that go
out first) and iterative deepening under a time limit. The value of a position is the score
difference to the end of the game for the player to move, counting the rack adjustments:

* a player who goes out gains the opponent's tile values and the opponent loses them
  (rule-book scoring), so going out is worth twice the opponent's tiles;
* two passes in a row end the search as a stalemate: each player loses their own tiles.

The result is exact (``Solution.exact``) when the deepest search finished without reaching
the depth limit on any line; otherwise it is the best move of the deepest finished search.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from qiza.analysis import board_array, rack_counts
from qiza.game import PlayerView
from qiza.move import Move, Pass
from qiza.movegen import MoveGenerator
from qiza.players.engine import StaticPlayer

if TYPE_CHECKING:
    from qiza.lexicon import Lexicon

INF = 10 ** 9


@dataclass
class Solution:
    """The solver's answer: best move, its value (score difference to the end), search facts."""

    move: Move | None
    value: float
    exact: bool
    depth: int
    nodes: int
    seconds: float


class _Timeout(Exception):
    pass


MoveInfo = tuple[int, np.ndarray, list[tuple[int, int]], int]
"""(score, used rack counts, [(square, tile)], tiles placed)."""


class _Moves:
    """The placements of one position in search order, each converted when first needed."""

    def __init__(self, ml: object, order: np.ndarray, size: int) -> None:
        self.ml = ml
        self.order = order
        self.size = size
        self.done: list[MoveInfo] = []

    def __iter__(self) -> Iterator[MoveInfo]:
        for k in range(len(self.order)):
            if k < len(self.done):
                yield self.done[k]
                continue
            ml = self.ml
            i = int(self.order[k])
            r, c, d = int(ml.row[i]), int(ml.col[i]), int(ml.direction[i])  # type: ignore[attr-defined]
            used = np.zeros(27, np.int32)
            squares = []
            for j in range(int(ml.length[i])):  # type: ignore[attr-defined]
                t = int(ml.tiles[i, j])  # type: ignore[attr-defined]
                if t:
                    squares.append(((r + j) * self.size + c if d else r * self.size + c + j, t))
                    used[0 if t & 64 else t] += 1
            info = (int(ml.score[i]), used, squares, len(squares))  # type: ignore[attr-defined]
            self.done.append(info)
            yield info


class _Search:
    def __init__(self, gen: MoveGenerator, size: int, values27: np.ndarray, deadline: float) -> None:
        self.gen = gen
        self.size = size
        self.values27 = values27
        self.deadline = deadline
        self.nodes = 0
        self.cutoff = False
        self.tt: dict[tuple[bytes, bytes, bytes, int], tuple[int, float, int]] = {}
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
        moves = _Moves(ml, order, self.size)
        if len(self.movecache) < 20_000:
            self.movecache[key] = moves
        return moves

    def negamax(self, board: np.ndarray, me: np.ndarray, opp: np.ndarray, passes: int,
                depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise _Timeout
        mine_pts = float(np.dot(me, self.values27))
        opp_pts = float(np.dot(opp, self.values27))
        if passes >= 2:
            return opp_pts - mine_pts
        if depth == 0:
            self.cutoff = True
            return opp_pts - mine_pts  # a rough guess: both keep their tiles
        key = (board.tobytes(), me.tobytes(), opp.tobytes(), passes)
        hit = self.tt.get(key)
        if hit is not None and hit[0] >= depth:
            return hit[1]
        best: float = -INF
        alpha_orig = alpha
        total = int(me.sum())
        for score, used, squares, n in self.moves(board, me):
            if n == total:
                value = score + 2 * opp_pts
            else:
                for sq, t in squares:
                    board[sq] = t
                me -= used
                try:
                    value = score - self.negamax(board, opp, me, 0, depth - 1, score - beta, score - alpha)
                finally:
                    me += used
                    for sq, _ in squares:
                        board[sq] = 0
            if value > best:
                best = value
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        # passing
        if best < beta:
            value = -self.negamax(board, opp, me, passes + 1, depth - 1, -beta, -alpha)
            best = max(best, value)
        if alpha_orig < best < beta:
            self.tt[key] = (depth, best, 0)
        return best


def solve(view: PlayerView, lexicon: Lexicon, *, time_limit: float = 5.0, max_depth: int = 12) -> Solution:
    """The best move of a two-player position with the bag empty (see the module doc)."""
    from qiza.analysis import generator

    start = time.perf_counter()
    rules = view.rules
    gen = generator(lexicon, rules)
    board = board_array(view.board).copy()
    me = rack_counts(view.rack)
    opp = rack_counts(view.unseen)
    values27 = np.zeros(27, np.int64)
    values27[1:] = rules.tile_set.values
    search = _Search(gen, rules.layout.size, values27, start + time_limit)
    root = list(search.moves(board, me))
    best_move: Move | None = None
    best_value = -float(INF)
    exact = False
    depth_done = 0
    total = int(me.sum())
    opp_pts = float(np.dot(opp, values27))
    for depth in range(1, max_depth + 1):
        search.cutoff = False
        search.tt.clear()
        try:
            alpha = -float(INF)
            choice: tuple[int, np.ndarray, list[tuple[int, int]], int] | None = None
            for mv in root:
                score, used, squares, n = mv
                if n == total:
                    value = score + 2 * opp_pts
                else:
                    for sq, t in squares:
                        board[sq] = t
                    me -= used
                    try:
                        value = score - search.negamax(board, opp, me, 0, depth - 1, -float(INF), -alpha + score)
                    finally:
                        me += used
                        for sq, _ in squares:
                            board[sq] = 0
                if value > alpha:
                    alpha, choice = value, mv
            pass_value = -search.negamax(board, opp, me, 1, depth - 1, -float(INF), -alpha)
        except _Timeout:
            break
        depth_done = depth
        if choice is None or pass_value > alpha:
            best_move, best_value = Pass(), pass_value
        else:
            best_move, best_value = _as_move(choice, rules.layout.size, board), alpha
            # order the root by this depth's result next time: the best move first
            root = [choice] + [mv for mv in root if mv is not choice]
        if not search.cutoff:
            exact = True
            break
    return Solution(best_move, best_value, exact, depth_done, search.nodes, time.perf_counter() - start)


def _as_move(mv: tuple[int, np.ndarray, list[tuple[int, int]], int], size: int, board: np.ndarray) -> Move:
    """A searched move as a :class:`~qiza.move.Place` (the engine extends it to the whole line)."""
    from qiza.move import Direction, Place

    _, _, squares, _ = mv
    placed = dict(squares)
    sqs = sorted(placed)
    r0, c0 = divmod(sqs[0], size)
    r1, c1 = divmod(sqs[-1], size)
    down = len(sqs) > 1 and c0 == c1
    step = size if down else 1
    chars = []
    for sq in range(sqs[0], sqs[-1] + 1, step):
        t = placed.get(sq, 0)
        chars.append("." if not t else chr(96 + (t & 63)) if t & 64 else chr(64 + t))
    return Place(r0, c0, Direction.DOWN if down else Direction.ACROSS, "".join(chars))


class EndgamePlayer(StaticPlayer):
    """The static player, with the exact endgame solver once the bag is empty (2 players)."""

    name = "endgame"

    def __init__(self, lexicon: Lexicon, *, name: str | None = None, seed: int | None = None,
                 time_limit: float = 5.0, **_: object) -> None:
        super().__init__(lexicon, name=name, seed=seed)
        self.time_limit = time_limit

    def choose(self, view: PlayerView) -> Move:
        if view.bag_count == 0 and len(view.scores) == 2 and view.rack:
            solution = solve(view, self.lexicon, time_limit=self.time_limit)
            if solution.move is not None:
                return solution.move
        return super().choose(view)


__all__ = ["solve", "Solution", "EndgamePlayer"]
