"""``sim``: Monte Carlo simulation of the static player's top candidates.

Each iteration deals the opponents random racks from the unseen tiles (the rest is the bag,
in a random order; with ``infer=True`` and two players, the opponent's rack holds one of the
leaves their last play suggests, when :mod:`qiza.players.inference` finds them), then for every candidate (the same deal for all: common random numbers)
plays the candidate, draws, lets each opponent in turn order make its best reply (static,
fast path: score plus per-tile leave values), then this player's best next move, and values
the candidate as

    candidate score - mean opponent reply score + own next score + value of the final leave

(with the end-of-game settlement when someone goes out with the bag empty: going out after the
opponents' replies earns what they hold then, the tiles they kept and any they drew). In a two-player
game with ``playout=True`` (off by default), an iteration whose bag is empty after this player's next
move plays the game out to its end, both sides choosing by the end-of-game values (score less
twice the tiles kept), so that its value is the final spread. Late in a two-player game (at
most ``win_from`` tiles in the bag) the choice is the candidate with the best mean chance to
win: an iteration whose game ended counts as a win, a tie or a loss, any other's final spread
is turned into a win probability by :mod:`qiza.players.winprob`, so that a safe lead is kept
and a player far behind takes risks.

Stopping: the search ends at the time limit (checked before every iteration, in every worker,
against one deadline for the whole move, so the limit holds within a few milliseconds), when
one candidate is left, or after ``max_iterations``. After ``min_iterations`` a candidate is
dropped when the leader beats it by more than ``z`` standard errors of the paired difference
(both were valued on the same deals); when only the leader is left, the search stops early.

The final choice shrinks each candidate's simulated mean towards its static equity (plus the
mean offset between the two scales) with the weight of ``prior`` iterations, so that a short
simulation of noisy candidates does not undo the static ranking on noise alone.

The iterations run compiled: :func:`simulate` deals from the unseen tiles in Python (one
shuffle an iteration, :class:`Dealer`) and hands many deals at once to
:func:`qiza.players.sim_nb.rollouts`, which plays every ply of every candidate with the move
generator's best-only search, without Python between the plies. Within an iteration every
candidate meets the same first opponent's rack, so that reply is searched with the line cache of
:mod:`qiza.movegen_lines` (the board before the candidates once, then only the lines each
candidate changes; the same play as the full search). :func:`simulate_python`, one batched
generator call a ply, is the reference it is tested against (the same deals give the same values
to the last bit) and the path of a generator without compiled code.

Iterations run on ``workers`` processes (every core by default): a pool forked once per
player with the move generator and the leave model already loaded, each round a batch of
iterations per worker with its own seed.

With ``endgame=True`` (the champion level) and the bag empty in a two-player game (or a game of
three or four with two players left: :attr:`~qiza.sheet.PlayerView.seats_in`), the exact
endgame solver (:mod:`qiza.players.endgame`) chooses instead.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from qiza.alphabet import BLANK_FLAG, ENGLISH, TileSet
from qiza.analysis import board_array, rack_counts
from qiza.coldstart import use_compiled
from qiza.game import PlayerView
from qiza.move import Exchange, Move, Place
from qiza.movegen import GeneratedMove, MoveGenerator, kind_values
from qiza.players.cluster import start_pool
from qiza.players.engine import StaticPlayer
from qiza.players.fast import counts_to_tiles
from qiza.players.inference import infer_leaves, rest_of
from qiza.players.leaves import LeaveModel
from qiza.rules import EndPoints, Rules

if TYPE_CHECKING:
    from qiza.lexicon import Lexicon


@dataclass(frozen=True)
class SimCandidate:
    """A candidate for simulation: a placement (``squares``) or an exchange."""

    move: Move
    squares: tuple[tuple[int, int], ...]
    """(square, tile code) of every tile placed; empty for an exchange."""
    used: tuple[int, ...]
    """Counts (one per tile kind: 27 for English) of the rack tiles the move uses (placed or exchanged)."""
    score: int
    static_equity: float

    @property
    def is_exchange(self) -> bool:
        """Whether the candidate is an exchange (not a placement)."""
        return isinstance(self.move, Exchange)


def candidate_from(move: Move, score: int, equity: float, size: int, tile_set: TileSet = ENGLISH) -> SimCandidate:
    """A :class:`SimCandidate` of an engine move (Place or Exchange) of a game with ``tile_set``."""
    used = np.zeros(tile_set.size + 1, np.int32)
    squares: list[tuple[int, int]] = []
    if isinstance(move, Place):
        for sq, ch in move.placed(size):
            code = tile_set.code(ch)
            squares.append((sq, code))
            used[0 if code & BLANK_FLAG else code] += 1
    elif isinstance(move, Exchange):
        used = rack_counts(move.tiles, tile_set)
    return SimCandidate(move, tuple(squares), tuple(int(x) for x in used), score, equity)


@dataclass(frozen=True)
class SimTask:
    """Everything a worker needs to run iterations (picklable)."""

    board: np.ndarray
    rack: np.ndarray
    unseen: list[int]
    opponent_sizes: list[int]
    bag_count: int
    candidates: list[SimCandidate]
    iterations: int
    seed: int
    rules: Rules
    deadline: float = float("inf")
    """``time.perf_counter()`` value after which no new iteration starts."""
    at_least_one: bool = True
    """Run one iteration even when the deadline looks too close."""
    owner: int = 0
    opponent_leaves: np.ndarray | None = None
    """Leaves the (single) opponent may have kept with their last play (rows of tile counts,
    :mod:`qiza.players.inference`): each deal gives them one of these plus random tiles."""
    leave_fade: bool = True
    """Value the final leave less when the bag holds fewer tiles than a rack (see :func:`leave_share`)."""
    table_leaves: bool = False
    """The rollouts' replies and next moves (while the bag has tiles) value what they keep by the
    leave model's full table, as the static player does, instead of per-tile values."""
    playout: bool = False
    """With two players, when the bag is empty after this player's next move and nobody has gone
    out, the rollout plays the game out (both sides by the end-of-game values, see
    :func:`qiza.players.sim_nb._play_out`) instead of charging the tiles kept twice."""
    opp_leave: bool = False
    """While the bag has tiles at the end of an iteration, count against the candidate the value
    of what each opponent kept with their reply (the leave model's full table; the mean over the
    opponents, faded as the player's own final leave), as this player's final leave counts for it."""

    @classmethod
    def of_view(cls, view: PlayerView, candidates: Sequence[SimCandidate], iterations: int, seed: int, *,
                deadline: float = float("inf"), at_least_one: bool = True, owner: int = 0,
                opponent_leaves: np.ndarray | None = None, leave_fade: bool = True,
                table_leaves: bool = False, playout: bool = False, opp_leave: bool = False) -> SimTask:
        """The task of simulating ``candidates`` in the position a player sees. The opponents are
        the players still in the game (one who resigned, lost on time or left a game of three or
        four no longer plays, and going out no longer earns their tiles)."""
        n = len(view.scores)
        me = view.seat if view.seat is not None else view.to_move
        ts = view.rules.tile_set
        opponents = [(me + k) % n for k in range(1, n) if (me + k) % n not in view.out]
        return cls(board_array(view.board), rack_counts(view.rack, ts), counts_to_tiles(rack_counts(view.unseen, ts)),
                   [view.rack_counts[seat] for seat in opponents], view.bag_count, list(candidates),
                   iterations, seed, view.rules, deadline, at_least_one, owner, opponent_leaves, leave_fade,
                   table_leaves, playout, opp_leave)


def leave_share(bag: int, rack_size: int, fade: bool) -> float:
    """The share of its value a rollout's final leave counts with ``bag`` tiles left in the bag:
    all of it, or with ``fade`` and fewer tiles in the bag than a rack, ``0.3 + 0.7 * bag /
    rack_size``, as the static player fades its leaves (:func:`qiza.players.engine.leave_weight`).
    :func:`qiza.players.sim_nb.rollouts` computes the same."""
    if not fade or bag >= rack_size:
        return 1.0
    return 0.3 + 0.7 * bag / rack_size


def _end_bonus(rules: Rules, held: float, opponents: int) -> float:
    """What going out is worth against the mean opponent when the ``opponents`` hold tiles of
    face value ``held`` in all (2x that with 2 players)."""
    if not opponents:
        return 0.0
    if rules.end_points is EndPoints.DOUBLE:
        return 2 * held
    return held + held / opponents


def _best_each(gen: MoveGenerator, boards: np.ndarray, racks: np.ndarray, rows: list[int],
               bag_lens: np.ndarray, tv: np.ndarray, end_leave: np.ndarray,
               model: LeaveModel | None = None) -> dict[int, GeneratedMove | None]:
    """The best reply of each position in ``rows`` (one compiled call per kind of leave value:
    the per-tile leave values while the bag has tiles, the end-of-game ones when it is empty).
    With ``model``, positions with tiles in the bag value leaves by its full table instead (one
    call each, as :func:`qiza.players.sim_nb.table_work` values them: 0 for a leave it lacks)."""
    out: dict[int, GeneratedMove | None] = {}
    for empty in (False, True):
        group = [i for i in rows if (bag_lens[i] == 0) == empty]
        if not group:
            continue
        if model is not None and not empty:
            for i in group:
                sub = model.rack_leaves(racks[i])
                values = np.where(sub.ranks >= 0, sub.values, 0.0)
                out[i] = gen.best(boards[i], racks[i], sub_leaves=(sub.radix, values, sub.sizes),
                                    first_found=True)  # as the compiled rollouts
            continue
        idx = np.asarray(group)
        moves = gen.best_many(boards[idx], racks[idx], end_leave if empty else tv)
        out.update(zip(group, moves))
    return out


def _play_out(gen: MoveGenerator, board: np.ndarray, mine: np.ndarray, theirs: np.ndarray,
              end_leave: np.ndarray, face: np.ndarray, passes: int) -> float:
    """:func:`qiza.players.sim_nb._play_out` in Python: the two-player game with the bag empty
    played to its end, the opponent to move; the change of this player's spread."""
    delta = 0.0
    theirs_turn = True
    while True:
        rack = theirs if theirs_turn else mine
        move = gen.best_many(board.reshape(1, -1), rack.reshape(1, -1), end_leave)[0]
        if move is not None:
            _play(board, rack, move, gen.size)
            delta += -move.score if theirs_turn else move.score
            passes = 0
            if not rack.any():
                if theirs_turn:
                    return delta - 2 * float(np.dot(mine, face))
                return delta + 2 * float(np.dot(theirs, face))
        else:
            passes += 1
            if passes >= 2:
                return delta + float(np.dot(theirs, face)) - float(np.dot(mine, face))
        theirs_turn = not theirs_turn


def _play(board: np.ndarray, rack: np.ndarray, move: GeneratedMove, size: int) -> None:
    """Put a generated move on a flat board row and take its tiles off the rack (in place)."""
    step = size if move.down else 1
    sq = move.row * size + move.col
    for t in move.tiles:
        if t:
            board[sq] = t
            rack[0 if t & 64 else t] -= 1
        sq += step


class Dealer:
    """The deals of a task's iterations, from its seed: the same for the compiled and the Python
    rollout. Each deal is the unseen tiles in an order, opponent ``j`` getting
    ``order[cuts[j]:cuts[j + 1]]`` and the bag the rest, in drawing order."""

    def __init__(self, task: SimTask) -> None:
        self.rng = random.Random(task.seed)
        self.unseen = list(task.unseen)
        self.sizes = list(task.opponent_sizes)
        leaves = task.opponent_leaves
        self.inferred = leaves if leaves is not None and len(self.sizes) == 1 else None
        self.rests = [rest_of(self.unseen, leave) for leave in self.inferred] if self.inferred is not None else []
        self.cuts = [0]
        for n in self.sizes:
            self.cuts.append(self.cuts[-1] + n)

    def deal(self) -> tuple[list[int], list[int]]:
        """The next deal: (tiles in order, cuts)."""
        if self.inferred is not None:  # the opponent kept one of the inferred leaves, then drew
            pick = self.rng.randrange(len(self.inferred))
            deck = self.rests[pick]
            self.rng.shuffle(deck)
            kept = counts_to_tiles(self.inferred[pick])
            return kept + deck, [0, len(kept) + max(0, self.sizes[0] - len(kept))]
        self.rng.shuffle(self.unseen)
        return list(self.unseen), self.cuts

    def arrays(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        """The next ``count`` deals as arrays (``count`` x tiles, ``count`` x cuts)."""
        tiles = np.zeros((count, len(self.unseen)), np.int32)
        cuts = np.zeros((count, len(self.sizes) + 1), np.int64)
        for i in range(count):
            order, cut = self.deal()
            tiles[i] = order
            cuts[i] = cut
        return tiles, cuts


def _candidate_positions(task: SimTask, kinds: int = 27) -> tuple[np.ndarray, np.ndarray]:
    """Each candidate's board (rows) and rack (rows of counts) once it is played, before its draw."""
    ncand = len(task.candidates)
    boards = np.repeat(np.ascontiguousarray(task.board, np.int32).reshape(1, -1), ncand, axis=0)
    racks = np.repeat(np.asarray(task.rack, np.int32).reshape(1, kinds), ncand, axis=0)
    for ci, cand in enumerate(task.candidates):
        racks[ci] -= np.asarray(cand.used, np.int32)
        for sq, t in cand.squares:
            boards[ci, sq] = t
    return boards, racks


def simulate(gen: MoveGenerator, model: LeaveModel, rules: Rules, task: SimTask, *,
             compiled: bool = True) -> np.ndarray:
    """Run up to ``task.iterations`` iterations (fewer if the deadline comes first); returns an
    (iterations done x 2 candidates) array: each candidate's value, then the tiles its player
    cannot see at the end of the iteration (for the win probability).

    The rollouts run compiled (:func:`qiza.players.sim_nb.rollouts`, many iterations a call);
    ``compiled=False`` or a generator without compiled code runs :func:`simulate_python`, which
    gives the same values for the same task."""
    if not compiled or not isinstance(gen, MoveGenerator):
        return simulate_python(gen, model, rules, task)
    from qiza.players import sim_nb

    kinds = rules.tile_set.size + 1
    face = kind_values(rules.tile_set.values, rules.tile_set.size).astype(np.float64)
    g, anag, works, prem = gen.search_arrays(model.tile_values, -2.0 * face)
    boards, racks = _candidate_positions(task, kinds)
    base = np.ascontiguousarray(task.board, np.int32).ravel()
    cands = task.candidates
    ncand = len(cands)
    used_all = np.array([c.is_exchange for c in cands], np.int64)
    scores = np.array([c.score for c in cands], np.float64)
    params = np.zeros(sim_nb.Q_COUNT, np.int64)
    params[sim_nb.Q_BAG] = task.bag_count
    params[sim_nb.Q_RACK] = rules.rack_size
    params[sim_nb.Q_DOUBLE] = rules.end_points is EndPoints.DOUBLE
    params[sim_nb.Q_FADE] = task.leave_fade
    params[sim_nb.Q_TABLE] = task.table_leaves
    params[sim_nb.Q_PLAYOUT] = task.playout
    params[sim_nb.Q_OPP_LEAVE] = task.opp_leave
    full = model.full
    if full is not None:
        table, caps, offset = full.values, full.index.caps, full.index.offsets
        params[sim_nb.Q_LEAVE_MAX] = full.index.max_size
    else:
        table, caps, offset = np.zeros(1, np.float32), np.zeros(kinds, np.int64), np.zeros((1, 1, 1), np.int64)
        params[sim_nb.Q_LEAVE_MAX] = -1
    dealer = Dealer(task)
    result = np.zeros((task.iterations, 2 * ncand))
    leaves = np.zeros((task.iterations, ncand, kinds), np.int32)
    fix = np.zeros((task.iterations, ncand))
    done = 0
    per_iter = 0.0
    while done < task.iterations:
        now = time.perf_counter()
        count = task.iterations - done
        if task.deadline < float("inf"):  # as many as fit before the deadline (one to start with)
            if per_iter <= 0.0:
                count = 1 if task.at_least_one or now < task.deadline else 0
            else:
                count = min(count, int((task.deadline - now) / per_iter))
        if count <= 0:
            break
        deals, cuts = dealer.arrays(count)
        part = slice(done, done + count)
        sim_nb.rollouts(g, anag, works, prem, base, boards, racks, used_all, scores, params, deals, cuts, face,
                        table, caps, offset, result[part], leaves[part], fix[part])
        for i, ci in np.argwhere(fix[part] > 0):
            result[done + i, ci] += fix[done + i, ci] * model.value(leaves[done + i, ci])
        done += count
        spent = (time.perf_counter() - now) / count
        per_iter = spent if per_iter <= 0.0 else 0.5 * per_iter + 0.5 * spent
    return result[:done]


def simulate_python(gen: MoveGenerator, model: LeaveModel, rules: Rules, task: SimTask) -> np.ndarray:
    """:func:`simulate` in Python, one batched generator call per ply
    (:meth:`~qiza.movegen.MoveGenerator.best_many`): the reference of the compiled rollout, and
    the way with a generator that has no compiled code."""
    rack_size = rules.rack_size
    size = gen.size
    double = rules.end_points is EndPoints.DOUBLE
    kinds = rules.tile_set.size + 1
    values27 = kind_values(rules.tile_set.values, rules.tile_set.size).astype(np.float64)
    tv = np.asarray(model.tile_values, np.float64)
    end_leave = -2.0 * values27  # with the bag empty a kept tile costs about twice its face value
    full = model.full
    by_table = model if task.table_leaves and full is not None and full.index.caps.shape[0] == kinds else None
    opp_table = full if task.opp_leave and full is not None and full.index.caps.shape[0] == kinds else None
    cands = task.candidates
    ncand = len(cands)
    result = np.zeros((task.iterations, 2 * ncand))
    nopp = len(task.opponent_sizes)
    base_boards, base_racks = _candidate_positions(task, kinds)
    need = rack_size - base_racks.sum(axis=1)
    exchange = np.array([c.is_exchange for c in cands])
    scores = np.array([c.score for c in cands], np.float64)
    per_iter = 0.0
    done = 0
    dealer = Dealer(task)
    for it in range(task.iterations):
        now = time.perf_counter()
        if (it or not task.at_least_one) and now + per_iter > task.deadline:
            break
        order, cuts = dealer.deal()
        opp_racks = []
        for j in range(nopp):
            r = np.zeros(kinds, np.int32)
            for t in order[cuts[j]:cuts[j + 1]]:
                r[t] += 1
            opp_racks.append(r)
        bag0 = order[cuts[nopp]:]
        opp_points = [float(np.dot(r, values27)) for r in opp_racks]
        boards = base_boards.copy()
        mine = base_racks.copy()
        bag_lens = np.zeros(ncand, np.int64)
        values = scores.copy()
        live: list[int] = []
        over = np.zeros(ncand, np.bool_)  # the game ended in this iteration
        opp_left = np.zeros(ncand)  # the face value the opponents hold after their replies
        drawn_to = np.zeros(ncand, np.int64)  # the next tile of the bag
        oleave = np.zeros(ncand)  # (opp_leave) the table values of what the opponents kept
        for ci in range(ncand):
            drawn = min(int(need[ci]), task.bag_count)
            for t in bag0[:drawn]:
                mine[ci, t] += 1
            drawn_to[ci] = drawn
            bag_lens[ci] = task.bag_count if exchange[ci] else task.bag_count - drawn
            if bag_lens[ci] == 0 and not mine[ci].any():  # went out: the game ends
                values[ci] += _end_bonus(rules, float(sum(opp_points)), nopp)
                over[ci] = True
            else:
                live.append(ci)
        opp_total = np.zeros(ncand)
        playout = task.playout and nopp == 1
        opp_after = np.repeat(opp_racks[0].reshape(1, kinds), ncand, axis=0) if playout else None
        opp_passed = np.ones(ncand, np.bool_)
        for r in opp_racks:
            if not live:
                break
            racks = np.repeat(r.reshape(1, kinds), ncand, axis=0)
            replies = _best_each(gen, boards, racks, live, bag_lens, tv, end_leave, by_table)
            still = []
            for ci in live:
                reply = replies[ci]
                if reply is None:
                    opp_left[ci] += float(np.dot(racks[ci], values27))
                    still.append(ci)
                    continue
                _play(boards[ci], racks[ci], reply, size)
                if opp_table is not None and opp_table.index.valid(racks[ci])[0]:
                    oleave[ci] += float(opp_table.values[opp_table.index.rank(racks[ci])])
                opp_total[ci] += reply.score
                opp_passed[ci] = False
                k = min(rack_size - int(racks[ci].sum()), int(bag_lens[ci]))
                bag_lens[ci] -= k
                if bag_lens[ci] == 0 and k == 0 and not racks[ci].any():  # the opponent went out
                    mine_pts = float(np.dot(mine[ci], values27))
                    opp_total[ci] += mine_pts * (2 if double else 1)
                    values[ci] -= 0.0 if double else mine_pts
                    over[ci] = True
                else:  # what they hold now: the tiles kept and those drawn (the bag's next ones;
                    # after an exchange the bag also holds the tiles exchanged, which count nothing)
                    opp_left[ci] += float(np.dot(racks[ci], values27))
                    for t in bag0[drawn_to[ci]:drawn_to[ci] + k]:
                        opp_left[ci] += values27[t]
                    drawn_to[ci] += k
                    still.append(ci)
            live = still
            if opp_after is not None:
                opp_after = racks
        values -= opp_total / max(nopp, 1)
        if live:
            nexts = _best_each(gen, boards, mine, live, bag_lens, tv, end_leave, by_table)
            for ci in live:
                left = mine[ci]
                reply = nexts[ci]
                if reply is not None:
                    values[ci] += reply.score
                    _play(boards[ci], left, reply, size)
                if bag_lens[ci]:
                    share = leave_share(int(bag_lens[ci]), rack_size, task.leave_fade)
                    if opp_table is not None:
                        values[ci] -= share * (oleave[ci] / nopp)
                    values[ci] += share * model.value(left)
                elif opp_after is not None and left.any():
                    passes = 0 if reply is not None else 2 if opp_passed[ci] else 1
                    values[ci] += _play_out(gen, boards[ci], left, opp_after[ci], end_leave, values27, passes)
                    over[ci] = True
                elif left.any():
                    values[ci] -= 2 * float(np.dot(left, values27))
                else:  # went out: what the opponents hold after their replies
                    values[ci] += _end_bonus(rules, float(opp_left[ci]), nopp)
                    over[ci] = True
        result[it, :ncand] = values
        result[it, ncand:] = np.where(over, -1, bag_lens + np.where(bag_lens > 0, rack_size * nopp, 0))
        done = it + 1
        per_iter = (time.perf_counter() - now) if it == 0 else 0.5 * per_iter + 0.5 * (time.perf_counter() - now)
    return result[:done]


def win_means(values: np.ndarray, unseen: np.ndarray, spread: float) -> np.ndarray:
    """Each candidate's mean chance to win over the iterations (nan where it has none), from
    the spread each iteration ends with and the tiles left unseen then (-1: the game ended, so
    the iteration is a win, a tie (one half) or a loss)."""
    from qiza.players.winprob import BAND, BANDS, default_model

    model = default_model()
    known = np.nan_to_num(unseen, nan=0).astype(np.int64)
    bands = np.clip(known // BAND, 0, BANDS - 1)
    final = spread + values
    z = model.slopes[bands] * final + model.offsets[bands]
    p = 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))
    p = np.where(known < 0, np.where(final > 0, 1.0, np.where(final < 0, 0.0, 0.5)), p)
    p[np.isnan(values)] = np.nan
    with np.errstate(all="ignore"):
        chances: np.ndarray = np.nanmean(p, axis=0)
        return chances


# -- worker processes --------------------------------------------------------------------------
_ROLLOUTS_LOADED: set[bool] = set()
"""The widths of word graph whose compiled rollouts this process has loaded (:meth:`SimPlayer.warm_up`)."""
_FORK_STATE: dict[int, tuple[MoveGenerator, LeaveModel]] = {}
"""Per player (``id``): the generator and leave model, set just before the pool is forked."""


def _worker_run(task: SimTask) -> np.ndarray:
    gen, model = _FORK_STATE[task.owner]
    return simulate(gen, model, task.rules, task)


class SimPlayer(StaticPlayer):
    """Monte Carlo simulation two plies ahead of the static player's top candidates."""

    name = "sim"

    def __init__(self, lexicon: Lexicon, *, name: str | None = None, seed: int | None = None,
                 time_limit: float = 1.0, candidates: int = 10, workers: int | None = None,
                 min_iterations: int = 12, max_iterations: int = 2000, batch: int = 4, z: float = 3.0,
                 margin: float = 25.0, exchanges: int = 2, prior: float = 8.0,
                 endgame: bool = False, endgame_time: float | None = None,
                 leaves: LeaveModel | None = None, infer: bool = False, win: bool = True,
                 win_from: int = 30, fade: bool = True, table_leaves: bool = False,
                 preendgame: bool = False, playout: bool = False, opp_leave: bool = False) -> None:
        super().__init__(lexicon, name=name, seed=seed, leaves=leaves)
        #: seconds a move (the simulation stops at the first round past it)
        self.time_limit = time_limit
        #: placements simulated: the static ranking's first ones within :attr:`margin` points
        self.candidates = candidates
        #: worker processes sharing the iterations (default: every core; 1 runs in this process)
        self.workers = workers if workers is not None else (os.cpu_count() or 1)
        #: iterations every candidate gets before any is dropped
        self.min_iterations = min_iterations
        #: iterations after which the simulation stops whatever the time
        self.max_iterations = max_iterations
        #: iterations a round (between the checks of the clock and the pruning)
        self.batch = batch
        #: prune a candidate the leader beats by more than ``z`` standard errors: 3 rather than 2,
        #: from ``benchmarks/sim_quality.py`` (220 positions, 1 s a move): 0.09 points a move given
        #: up against a 2,000-iteration simulation instead of 0.22-0.24, 0.58 s a move instead of 0.39;
        #: in games (champion, 1 s a move, against static, the same 452 shuffles and seats) 58.8% and
        #: +19.7 a game against 56.2% and +13.2 with z=2: the same within the noise
        self.z = z
        #: candidates more than this many points of static equity below the best are not simulated
        self.margin = margin
        #: exchanges simulated beside the placements (the best by static equity)
        self.exchanges = exchanges
        #: iterations' worth of weight given to a candidate's static equity in its mean (shrinkage)
        self.prior = prior
        #: with the bag empty, solve the endgame exactly (:mod:`qiza.players.endgame`) instead of simulating
        self.endgame = endgame
        #: deal the opponent the leaves their last play suggests (:mod:`qiza.players.inference`);
        #: off by default: 400 self-play games against the same player without it gave 49.0%
        #: (95%: 44.1-53.9), spread -1.6 a game; against the static player (whose choices
        #: inference models exactly), 1,000 shuffles from both seats at 100 iterations a move,
        #: 58.9% with it and 58.4% without (paired +0.5 points, se 1.4; spread +3.7, se 2.5)
        self.infer = infer
        #: with two players and at most ``win_from`` tiles in the bag, choose the candidate with
        #: the best mean chance to win (:mod:`qiza.players.winprob`), not the best mean spread
        self.win = win
        #: the most tiles in the bag at which :attr:`win` applies
        self.win_from = win_from
        #: value the rollouts' final leaves less as the bag runs out (:func:`leave_share`): against
        #: the same simulation without it, 52.2% (95%: 47.4-57.1) over 400 games with 60
        #: iterations a move, spread +3.7 a game
        self.fade = fade
        #: the rollouts' plies value leaves by the full leave table, as the static player, instead
        #: of per-tile values (:attr:`SimTask.table_leaves`); off by default: the champion with it
        #: against the champion without, 0.5 s a move, 279 games: 48.4% (95%: 42.5-54.3), spread
        #: +0.8 a game, at 5-10% fewer iterations a second
        self.table_leaves = table_leaves
        #: with one tile in the bag (two players), choose by the pre-endgame search
        #: (:mod:`qiza.players.preendgame`: every candidate over every possible last tile, each
        #: valued by the endgame search) within the move's time instead of simulating; off by
        #: default: at 1 s a move its choice against the simulation's, judged by a long endgame
        #: search of every last tile on 100 positions (benchmarks/preendgame_choice.py), won after
        #: +0.2% more draws and lost 2.0 points of spread (the endgames with seven tiles on the
        #: opponent's rack are not solved in 1 s)
        self.preendgame = preendgame
        #: with two players, rollouts that empty the bag play the game out to its end
        #: (:attr:`SimTask.playout`) instead of charging the tiles kept twice; off by default:
        #: the champion from the first turn with at most 14 tiles in the bag, against static, the
        #: same 600 positions with and without it, 400 iterations a move: +1.6 points of wins (se
        #: 0.8); at 1 s a move, 1,200 other positions: -0.3 (se 0.5) (benchmarks/end_phase.py)
        self.playout = playout
        #: the rollouts count what the opponents kept with their replies against the candidate
        #: (:attr:`SimTask.opp_leave`); off by default: against the same simulation without it,
        #: 100 iterations a move, 733 games: 48.2% (95%: 44.5-51.8), spread -2.7 a game (se 3.8);
        #: both with ``table_leaves``, 1,106 games: 47.6% (95%: 44.7-50.6), spread -5.5 (se 3.0)
        self.opp_leave = opp_leave
        #: seconds of the endgame search (default: :attr:`time_limit`, at least 1 s)
        self.endgame_time = endgame_time if endgame_time is not None else max(time_limit, 1.0)
        self._pool: Any = None
        self._pool_key: object = None
        self.last_report: dict[str, Any] = {}

    # -- the pool ---------------------------------------------------------------------------
    def _get_pool(self, gen: MoveGenerator, model: LeaveModel) -> Any:
        if self.workers <= 1 or sys.platform == "win32":
            return None
        key = (id(gen), id(model))
        if self._pool is not None and self._pool_key != key:
            self.close()
        if self._pool is None:
            from qiza.players import sim_nb

            sim_nb.warm_up()  # loaded once here, not in every worker
            _FORK_STATE[id(self)] = (gen, model)
            self._pool = start_pool(self.workers, method="fork")  # Ctrl-C is this process's
            self._pool_key = key
        return self._pool

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None
        _FORK_STATE.pop(id(self), None)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover
            pass

    def warm_up(self, rules: Rules) -> None:
        """Load the compiled code this player's moves under ``rules`` run (or compile it, on a
        fresh install), once a process: the rollouts and, with :attr:`endgame` or
        :attr:`preendgame`, the endgame search. :meth:`choose` calls it before a move's clock
        starts; the front ends' warm-ups (a scratch move of each level before the game's first)
        do so too, so that no move of a game waits for it: the first pre-endgame or endgame move
        of a process spent its time limit, or a minute compiling, loading the search."""
        gen = self.generator(rules)
        if gen.wide not in _ROLLOUTS_LOADED:
            from qiza.players import sim_nb

            sim_nb.warm_up(wide=gen.wide)
            _ROLLOUTS_LOADED.add(gen.wide)
        if self.endgame or self.preendgame:
            from qiza.players.endgame import load_search

            load_search(gen)

    # -- choosing -----------------------------------------------------------------------------
    def choose(self, view: PlayerView) -> Move:
        """The candidate of the best mean result over the simulation's rollouts (spread, or
        the chance to win late in a game of two: :attr:`win`) within :attr:`time_limit`; the
        static player's move while the compiled code is not ready or when there is a single
        candidate; with the bag empty and :attr:`endgame`, the endgame search's; with one tile
        in the bag and :attr:`preendgame`, the pre-endgame search's."""
        if not use_compiled():  # compiling in the background (qiza.coldstart): play as the static player
            return super().choose(view)
        self.warm_up(view.rules)  # the first move of a process: loaded (or compiled) before the clock starts
        start = time.perf_counter()
        nplayers = len(view.seats_in)  # a game of three or four with two players left is played as one of two
        if view.bag_count == 0 and nplayers == 2:
            if self.endgame and view.rules.finish_line is None and view.rack:
                from qiza.players.endgame import solve

                budget = self.endgame_time - (time.perf_counter() - start)
                solution = solve(view, self.lexicon, time_limit=max(0.01, 0.95 * budget - 0.01))
                self.last_report = {"endgame": solution}
                if solution.move is not None:
                    return solution.move
            return super().choose(view)
        if self.preendgame and view.bag_count == 1 and nplayers == 2 and view.rules.finish_line is None:
            from qiza.players.preendgame import solve_pre_endgame

            budget = 0.95 * self.time_limit - (time.perf_counter() - start) - 0.01
            found = solve_pre_endgame(view, self.lexicon, candidates=self.candidates, time_limit=max(0.01, budget))
            self.last_report = {"preendgame": found}
            if found.options:
                return found.options[0].move
        cands = self.sim_candidates(view)
        if not cands:
            return self._no_play(view, rack_counts(view.rack, view.rules.tile_set))
        if len(cands) == 1:
            self.last_report = {"iterations": 0, "seconds": time.perf_counter() - start, "alive": 1}
            return cands[0].move
        deadline = start + 0.97 * self.time_limit - 0.002
        best = self.simulate(view, cands, deadline)
        return cands[best].move

    def sim_candidates(self, view: PlayerView) -> list[SimCandidate]:
        """The static player's best options within ``margin`` of the best, best first."""
        options = self.ranked(view, top=self.candidates + self.exchanges)
        if not options:
            return []
        size = view.rules.layout.size
        top = options[0].equity
        cands: list[SimCandidate] = []
        nex = nplace = 0
        for option in options:
            if option.equity < top - self.margin:
                continue
            if isinstance(option.move, Exchange):
                if nex >= self.exchanges:
                    continue
                nex += 1
            else:
                if nplace >= self.candidates:
                    continue
                nplace += 1
            cands.append(candidate_from(option.move, option.score, option.equity, size, view.rules.tile_set))
        return cands

    def simulate(self, view: PlayerView, cands: Sequence[SimCandidate], deadline: float) -> int:
        """Index of the best candidate by simulation (see the module doc)."""
        start = time.perf_counter()
        rules = view.rules
        two = len(view.seats_in) == 2
        me = view.seat if view.seat is not None else view.to_move
        gen = self.generator(rules)
        model = self.model_for(rules)
        pool = self._get_pool(gen, model)
        workers = max(1, self.workers) if pool is not None else 1
        ncand = len(cands)
        static = np.array([c.static_equity for c in cands])
        alive = list(range(ncand))
        blocks: list[np.ndarray] = []
        unseen_blocks: list[np.ndarray] = []
        iterations = rounds = 0
        seed_base = self.rng.randrange(2 ** 31)
        max_iter = self.max_iterations
        if two and view.bag_count == 0:
            max_iter = 1  # both racks known: every deal is the same
        inferred = None
        if self.infer:
            inferred = infer_leaves(view, gen, np.asarray(model.tile_values, np.float64), self.rng)
        while True:
            subset = [cands[i] for i in alive]
            batch = max(1, min(self.batch, -(-(max_iter - iterations) // workers)))
            tasks = [SimTask.of_view(view, subset, batch, seed_base + 7919 * rounds + w, deadline=deadline,
                                     at_least_one=rounds == 0 and w == 0, owner=id(self), opponent_leaves=inferred,
                                     leave_fade=self.fade, table_leaves=self.table_leaves, playout=self.playout,
                                     opp_leave=self.opp_leave)
                     for w in range(workers)]
            rounds += 1
            if pool is not None:
                outs = pool.map(_worker_run, tasks)
            else:
                outs = [simulate(gen, model, rules, tasks[0])]
            got = np.vstack(outs) if outs else np.zeros((0, 2 * len(alive)))
            if len(got):
                block = np.full((len(got), ncand), np.nan)
                block[:, alive] = got[:, :len(alive)]
                blocks.append(block)
                unseen_block = np.full((len(got), ncand), np.nan)
                unseen_block[:, alive] = got[:, len(alive):]
                unseen_blocks.append(unseen_block)
                iterations += len(got)
            if iterations >= self.min_iterations and len(alive) > 1 and blocks:
                alive = self._prune(np.vstack(blocks), alive)
            if len(alive) == 1 or iterations >= max_iter or time.perf_counter() >= deadline or not len(got):
                break
        data = np.vstack(blocks) if blocks else np.zeros((0, ncand))
        best, means = self._pick(data, alive, static)
        wins = None
        if self.win and two and view.bag_count <= self.win_from and len(data):
            (opponent,) = (seat for seat in view.seats_in if seat != me)
            spread = view.scores[me] - view.scores[opponent]
            wins = win_means(data, np.vstack(unseen_blocks), spread)
            best = max(alive, key=lambda i: (round(float(wins[i]), 3), means[i]))
        self.last_report = {"iterations": iterations, "rounds": rounds, "seconds": time.perf_counter() - start,
                            "alive": len(alive), "means": means, "candidates": ncand, "win": wins,
                            "inferred_leaves": 0 if inferred is None else len(inferred)}
        return best

    def _prune(self, data: np.ndarray, alive: list[int]) -> list[int]:
        """Drop the candidates the leader beats by more than ``z`` standard errors (paired)."""
        means = np.nanmean(data[:, alive], axis=0)
        leader = alive[int(np.argmax(means))]
        keep = []
        for i in alive:
            if i == leader:
                keep.append(i)
                continue
            diff = data[:, leader] - data[:, i]
            diff = diff[~np.isnan(diff)]
            if len(diff) < 2:
                keep.append(i)
                continue
            se = float(diff.std(ddof=1)) / np.sqrt(len(diff))
            if diff.mean() <= self.z * max(se, 1e-9):
                keep.append(i)
        return keep

    def _pick(self, data: np.ndarray, alive: list[int], static: np.ndarray) -> tuple[int, np.ndarray]:
        """The alive candidate with the best simulated mean shrunk towards its static equity."""
        means = np.full(len(static), -np.inf)
        if not len(data):
            return alive[int(np.argmax(static[alive]))], means
        counts = np.sum(~np.isnan(data), axis=0)
        raw = np.array([np.nanmean(data[:, i]) if counts[i] else np.nan for i in range(len(static))])
        seen = [i for i in alive if counts[i]]
        if not seen:
            return alive[int(np.argmax(static[alive]))], means
        offset = float(np.median(raw[seen] - static[seen]))
        for i in alive:
            k = float(counts[i])
            prior = static[i] + offset
            means[i] = (k * raw[i] + self.prior * prior) / (k + self.prior) if k else prior
        return int(np.argmax(means)), means


STUDY_ITERATIONS = 300
"""The simulation's continuations a move when ``qiza best`` and ``qiza analyze`` value moves by
it (their ``--iterations``, the library's analysis too): one number, so that a turn of a game
analysed and the same position given to ``qiza best --turn`` are simulated alike (analyze had 200,
best 300, with no reason given for either); a game of 26 turns is analysed so in about a third more
time than at 200."""

__all__ = ["Dealer", "SimCandidate", "SimPlayer", "SimTask", "candidate_from", "simulate", "simulate_python",
           "STUDY_ITERATIONS"]
