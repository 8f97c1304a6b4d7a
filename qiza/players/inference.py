"""Inference of the opponent's rack from their last play.

After the opponent places tiles, the tiles they kept (their leave) are hidden among the
unseen tiles, but not every leave is as likely: a player who kept ``QU?`` would have played
differently. As Macondo does, qiza deals the leaves they could have kept (random draws from
the unseen tiles, as likely as the bag made them) and keeps those for which the play they
made was as good as their best, judged by the static evaluation (score plus the value of the
tiles kept) within a tolerance. The simulation (:mod:`qiza.players.sim`) then deals the
opponent one of those leaves plus random tiles, instead of a wholly random rack.

Only for two players, after a placement (not an exchange or pass), while the bag has tiles
(with the bag empty the opponent's rack is known), and only when enough leaves pass: a play
that no plausible leave explains teaches nothing, and the deal stays uniform.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

from qiza.analysis import board_array, rack_counts
from qiza.game import Kind, PlayerView

if TYPE_CHECKING:
    from qiza.movegen import MoveGenerator

#: leaves dealt to test
SAMPLES = 300
#: points of static equity by which the play may fall short of the best and still pass
TOLERANCE = 3.0
#: the fewest leaves that must pass (and the smallest share of the samples) for inference to be used
MIN_KEPT = 12
MIN_SHARE = 0.03


def infer_leaves(view: PlayerView, gen: MoveGenerator, tile_values: np.ndarray, rng: random.Random, *,
                 samples: int = SAMPLES, tolerance: float = TOLERANCE) -> np.ndarray | None:
    """Leaves (rows of tile counts, one per tile kind) the opponent may have kept with their last play, one
    row per accepted deal (as often as the bag dealt it); ``None`` when nothing is inferred."""
    if len(view.seats_in) != 2 or view.bag_count == 0:
        return None
    me = view.seat if view.seat is not None else view.to_move
    turns = [r for r in view.history if r.is_turn]
    if not turns:
        return None
    last = turns[-1]
    if last.seat == me or last.kind is not Kind.PLACE or last.challenged_off or not last.squares:
        return None
    board = board_array(view.board)
    kinds = view.rules.tile_set.size + 1
    played = np.zeros(kinds, np.int32)
    before = board.copy()
    for sq in last.squares:
        code = int(board[sq])
        if code == 0:
            return None  # the board does not hold that play (taken back): nothing to infer from
        played[0 if code & 64 else code] += 1
        before[sq] = 0
    keep = view.rules.rack_size - int(played.sum())
    if keep <= 0:
        return None
    pool = rack_counts(view.unseen, view.rules.tile_set)
    tiles = [t for t in range(kinds) for _ in range(int(pool[t]))]
    if len(tiles) < keep:
        return None
    leaves = np.zeros((samples, kinds), np.int32)
    for i in range(samples):
        for t in rng.sample(tiles, keep):
            leaves[i, t] += 1
    racks = leaves + played
    boards = np.repeat(before.reshape(1, -1), samples, axis=0)
    bests = gen.best_many(boards, racks, tile_values)
    tv = np.asarray(tile_values, np.float64)
    mine = last.score + leaves @ tv
    best = np.array([m.equity if m is not None and m.equity is not None else -np.inf for m in bests])
    accepted = leaves[mine >= best - tolerance]
    if len(accepted) < max(MIN_KEPT, MIN_SHARE * samples):
        return None
    return accepted


def rest_of(unseen: list[int], leave: np.ndarray) -> list[int]:
    """The unseen tiles (a list of codes) without those of ``leave`` (counts per tile kind)."""
    left = leave.astype(np.int64).copy()
    out = []
    for t in unseen:
        if left[t] > 0:
            left[t] -= 1
        else:
            out.append(t)
    return out
