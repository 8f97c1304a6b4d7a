"""Endgames of three or four players: the empty-bag position searched by max-n over sampled deals.

With the bag empty and two players the opponent's rack is known (the unseen tiles), and
:mod:`qiza.players.endgame` solves the rest exactly. With three or four players the unseen
tiles are split among the opponents in a way the player to move cannot see, so the position is
one of imperfect information. This search does what strong programs do with such games
(determinization):

1. **Deals.** The unseen tiles are dealt to the opponents at random, each getting as many as
   their rack holds, ``deals`` times (the same deals for every candidate: common random
   numbers).
2. **Max-n.** In each deal the racks are known and the game tree is searched with the *max-n*
   rule: every player, at their turn, picks the move that is best for themselves, by their
   *margin*: their final score minus the best final score among the others (a player wins by
   finishing first, so this is what each tries to maximise). Max-n rather than *paranoid*
   (everyone against the player to move): in a real game the opponents play for themselves, and
   the paranoid assumption makes the player to move needlessly timid.
3. **Beam and horizon.** Each player's moves are their ``width`` (at the root) or
   ``reply_width`` (below) highest-scoring placements, every play that goes out first, plus
   passing; the tree goes ``plies`` turns deep after the candidate (one round of the other
   players and the player's own next turn by default). A branch ends when someone goes out
   (the other players' tiles are settled by :attr:`Rules.end_points <qiza.rules.Rules.end_points>`, as the rules engine does)
   or when every player has passed in a row (the game ends by the scoreless rule: each loses
   their own tiles). At the horizon each player is valued at their score less their tiles.
4. **Choice.** A candidate's value is its mean margin over the deals, and its chance to win the
   share of deals in which it finishes first (a shared first place counts as a share); the
   candidate with the best chance wins, the mean margin breaking ties.

Deals are searched until ``time_limit`` (at least one). The result is an estimate, not a proof:
it is exact only for the deals searched and within the beam and horizon.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from qiza.analysis import board_array, generator, rack_counts, to_place
from qiza.move import Move, Pass
from qiza.movegen import GeneratedMove
from qiza.rules import EndPoints

if TYPE_CHECKING:
    from qiza.game import PlayerView
    from qiza.lexicon import Lexicon
    from qiza.movegen import MoveGenerator
    from qiza.rules import Rules


@dataclass
class MultiOption:
    """One candidate of the player to move and what the search found for it."""

    move: Move
    score: int
    margin: float
    """Mean over the deals of the player's final score minus the best other final score."""
    win: float
    """Share of the deals in which the player finishes first (a shared first place shared)."""


@dataclass
class MultiSolution:
    """The result of :func:`solve_multi`: the options, best first, and what the search did."""

    options: list[MultiOption] = field(default_factory=list)
    deals: int = 0
    nodes: int = 0
    seconds: float = 0.0

    @property
    def move(self) -> Move | None:
        """The best candidate's move (``None``: nothing was searched)."""
        return self.options[0].move if self.options else None


class _Tree:
    """Max-n over one deal: racks known, every player maximising their own margin."""

    def __init__(self, gen: MoveGenerator, rules: Rules, values: np.ndarray, reply_width: int) -> None:
        self.gen = gen
        self.rules = rules
        self.values = values
        self.reply_width = reply_width
        self.nodes = 0
        self.deadline = float("inf")

    def moves(self, board: np.ndarray, rack: np.ndarray, width: int) -> list[GeneratedMove]:
        """The plays searched for a rack: every way out (only the best-scoring, as going out ends
        the game at once), then the ``width`` highest-scoring placements."""
        listed = self.gen.generate(board, rack)
        total = int(rack.sum())
        order = np.argsort(-listed.score, kind="stable")
        out_moves = [int(i) for i in order if int(listed.ntiles[i]) == total][:1]
        rest = [int(i) for i in order if int(listed.ntiles[i]) != total][:width]
        return [listed[i] for i in out_moves + rest]

    def play(self, board: np.ndarray, rack: np.ndarray, move: GeneratedMove) -> tuple[np.ndarray, np.ndarray]:
        """The board and rack after a placement (new arrays)."""
        board = board.copy()
        rack = rack.copy()
        size = self.gen.size
        for r, c, t in move.squares():
            board[r * size + c] = t
            rack[0 if t & 64 else t] -= 1
        return board, rack

    def settle_out(self, scores: list[float], racks: list[np.ndarray], seat: int) -> list[float]:
        """Final scores when ``seat`` went out (as :meth:`qiza.game.Game._finish` settles)."""
        final = list(scores)
        left = [float(r @ self.values) for r in racks]
        others = sum(v for s, v in enumerate(left) if s != seat)
        if self.rules.end_points is EndPoints.DOUBLE:
            final[seat] += 2 * others
        else:
            for s, v in enumerate(left):
                if s != seat:
                    final[s] -= v
            final[seat] += others
        return final

    def settle_stuck(self, scores: list[float], racks: list[np.ndarray]) -> list[float]:
        """Final scores when the game ends with tiles left on every rack: each loses their own."""
        return [s - float(r @ self.values) for s, r in zip(scores, racks, strict=True)]

    def after(self, board: np.ndarray, racks: list[np.ndarray], scores: list[float], seat: int, move: GeneratedMove,
              plies: int) -> list[float]:
        """The final (or horizon) scores after ``seat`` plays ``move``, the others searched
        ``plies`` turns deep (none if the play goes out)."""
        after_board, after_rack = self.play(board, racks[seat], move)
        after_racks = list(racks)
        after_racks[seat] = after_rack
        after_scores = list(scores)
        after_scores[seat] += move.score
        if not after_rack.any():
            return self.settle_out(after_scores, after_racks, seat)
        return self.search(after_board, after_racks, after_scores, (seat + 1) % len(racks), plies, 0)

    def search(self, board: np.ndarray, racks: list[np.ndarray], scores: list[float], seat: int,
               plies: int, passes: int) -> list[float]:
        """The final (or horizon) scores of every player, each playing max-n from ``seat``'s turn."""
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise TimeoutError
        n = len(racks)
        if passes >= n:  # everyone passed in a row: the game ends by the scoreless rule
            return self.settle_stuck(scores, racks)
        if plies == 0:
            return self.settle_stuck(scores, racks)
        best: list[float] | None = None
        best_margin = -float("inf")
        nxt = (seat + 1) % n
        for move in self.moves(board, racks[seat], self.reply_width):
            result = self.after(board, racks, scores, seat, move, plies - 1)
            margin = result[seat] - max(v for s, v in enumerate(result) if s != seat)
            if margin > best_margin:
                best, best_margin = result, margin
        passed = self.search(board, racks, scores, nxt, plies - 1, passes + 1)
        margin = passed[seat] - max(v for s, v in enumerate(passed) if s != seat)
        if best is None or margin > best_margin:
            best = passed
        return best


def _margin(final: list[float], seat: int) -> float:
    return final[seat] - max(v for s, v in enumerate(final) if s != seat)


def _win_share(final: list[float], seat: int) -> float:
    top = max(final)
    if final[seat] < top:
        return 0.0
    return 1.0 / sum(1 for v in final if v == top)


def solve_multi(view: PlayerView, lexicon: Lexicon, *, time_limit: float = 5.0, deals: int = 24,
                width: int = 6, reply_width: int = 3, plies: int | None = None,
                seed: int = 0) -> MultiSolution:
    """Search an empty-bag position of three or four players (see the module doc) for the
    player of ``view``. ``plies``: turns searched after the candidate (default: one round, the
    players after this one and this one again). Raises :class:`~qiza.errors.RuleError` unless
    the bag is empty and the game has 3 or 4 players."""
    from qiza.errors import RuleError

    if len(view.scores) < 3 or view.bag_count != 0 or view.seat is None:
        raise RuleError("the multi-player endgame search needs a player's view of 3 or 4 players and an empty bag")
    unseen = [t for t, k in enumerate(rack_counts(view.unseen, view.rules.tile_set)) for _ in range(int(k))]
    # a player out of the game (resigned, lost on time, left) holds no tiles and cannot win: their
    # score is put out of reach below, so that no margin is measured against it
    floor = min(view.scores) - 10 ** 6
    scores = [floor if seat in view.out else score for seat, score in enumerate(view.scores)]
    return solve_multi_position(generator(lexicon, view.rules), view.rules, board_array(view.board),
                                rack_counts(view.rack, view.rules.tile_set), unseen, list(view.rack_counts), scores, view.seat,
                                time_limit=time_limit, deals=deals, width=width, reply_width=reply_width,
                                plies=plies, seed=seed)


def solve_multi_position(gen: MoveGenerator, rules: Rules, board: np.ndarray, mine: np.ndarray, unseen: list[int],
                         sizes: list[int], scores: list[int], me: int, *, time_limit: float = 5.0,
                         deals: int = 24, width: int = 6, reply_width: int = 3, plies: int | None = None,
                         seed: int = 0) -> MultiSolution:
    """:func:`solve_multi` on arrays: ``board`` (flat tile codes), the player's rack (counts),
    the unseen tiles (codes, one per tile), every seat's rack size and score, the player's seat."""
    start = time.perf_counter()
    n = len(sizes)
    board = np.ascontiguousarray(board, np.int32).copy()
    mine = np.asarray(mine, np.int32).copy()
    values = np.zeros(len(mine), np.float64)
    values[1:] = rules.tile_set.values
    unseen = list(unseen)
    tree = _Tree(gen, rules, values, reply_width)
    tree.deadline = start + time_limit
    plies = n if plies is None else plies
    candidates: list[GeneratedMove | None] = [*tree.moves(board, mine, width), None]
    margins = [0.0] * len(candidates)
    wins = [0.0] * len(candidates)
    rng = random.Random(seed)
    done = 0
    for _ in range(deals):
        rng.shuffle(unseen)
        racks: list[np.ndarray] = []
        pos = 0
        for s in range(n):
            if s == me:
                racks.append(mine)
                continue
            rack = np.zeros_like(mine)
            for t in unseen[pos:pos + sizes[s]]:
                rack[t] += 1
            pos += sizes[s]
            racks.append(rack)
        start_scores = [float(v) for v in scores]
        try:
            finals = [_candidate_final(tree, board, racks, start_scores, me, cand, plies) for cand in candidates]
        except TimeoutError:
            if done:
                break
            tree.deadline = float("inf")  # the first deal is always finished
            finals = [_candidate_final(tree, board, racks, start_scores, me, cand, plies) for cand in candidates]
        for i, final in enumerate(finals):
            margins[i] += _margin(final, me)
            wins[i] += _win_share(final, me)
        done += 1
        if time.perf_counter() > start + time_limit:
            break
    result = MultiSolution(deals=done, nodes=tree.nodes)
    for i, cand in enumerate(candidates):
        move: Move = to_place(cand, rules.tile_set) if cand is not None else Pass()
        result.options.append(MultiOption(move, cand.score if cand is not None else 0, margins[i] / done,
                                          wins[i] / done))
    result.options.sort(key=lambda o: (-o.win, -o.margin))
    result.seconds = time.perf_counter() - start
    return result


def _candidate_final(tree: _Tree, board: np.ndarray, racks: list[np.ndarray], scores: list[float], me: int,
                     cand: GeneratedMove | None, plies: int) -> list[float]:
    """The final scores after the player's candidate (``None``: a pass) in one deal."""
    if cand is None:
        return tree.search(board, racks, scores, (me + 1) % len(racks), plies, 1)
    return tree.after(board, racks, scores, me, cand, plies)


__all__ = ["MultiOption", "MultiSolution", "solve_multi", "solve_multi_position"]
