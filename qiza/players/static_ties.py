"""The static player's choice among plays of the same equity, from its arrays.

What :meth:`qiza.players.engine.StaticPlayer.choose` takes of plays of the same equity (within
:data:`qiza.ties.TIE`): the first by :func:`qiza.ties.tie_order` (placements before exchanges),
not the first the move generator listed (the compiled one and the Python one of a fresh install
list them in orders of their own). Training (:mod:`qiza.players.train`,
:mod:`qiza.players.leavegen`) decides from the same arrays without building a
:class:`~qiza.move.Move` for every play, so these functions work on them: the index of a
placement in a :class:`~qiza.movegen.MoveList`, the sub-leave code an exchange keeps.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from qiza.alphabet import TileSet
from qiza.analysis import counts_text
from qiza.move import Exchange, Move
from qiza.movegen import MoveList
from qiza.movegen_ties import place_of
from qiza.players.leaves import RackLeaves
from qiza.ties import TIE, first_in_tie_order, in_tie_order

__all__ = ["ranked_placements", "exchange_choice"]


class _Ranked(NamedTuple):
    """A placement with its equity and its index in the move list."""

    move: Move
    equity: float
    position: int


def ranked_placements(moves: MoveList, equity: np.ndarray, tile_set: TileSet, top: int = 1) -> list[int]:
    """The indices of the ``top`` placements of the best ``equity`` (one per placement of
    ``moves``), best first, those of the same equity in the order of
    :func:`qiza.ties.in_tie_order`: the same placements in the same order with either move
    generator. Empty when there is no placement."""
    if top < 1:
        raise ValueError(f"top must be at least 1, not {top}")
    if not len(moves):
        return []
    if top == 1:
        near = np.flatnonzero(equity >= equity.max() - TIE)
        if len(near) == 1:
            return [int(near[0])]
        order = near[np.argsort(-equity[near], kind="stable")]
    else:
        order = np.argsort(-equity, kind="stable")
        if top < len(order):  # and the placements tied with the last one kept
            order = order[:top + np.count_nonzero(equity[order[top:]] >= equity[order[top - 1]] - TIE)]
    labels = tile_set.letters
    ranked = [_Ranked(place_of(int(moves.row[i]), int(moves.col[i]), bool(moves.direction[i]),
                               moves.tiles[i, :int(moves.length[i])].tolist(), labels), float(equity[i]), int(i))
              for i in order]
    return [r.position for r in in_tie_order(ranked)[:top]]


def exchange_choice(leaves: RackLeaves, rack: np.ndarray, kept: np.ndarray, equity: np.ndarray,
                    tile_set: TileSet, placement: float) -> int:
    """The sub-leave code the static player's exchange keeps (``kept``: the codes of the allowed
    exchanges, ``equity`` theirs: :func:`qiza.players.engine.exchange_equities_of`), or -1 when it
    does not exchange: the best placement's equity (``placement``; ``-inf`` for none) is within
    :data:`~qiza.ties.TIE` of the best exchange's or above it (a placement comes first in
    :func:`~qiza.ties.tie_order`). Of the exchanges of the best equity, the first by
    :func:`~qiza.ties.tie_order` (the tiles given, as :class:`~qiza.move.Exchange` spells them)."""
    if not len(kept):
        return -1
    best = float(equity.max())
    if best - placement <= TIE:
        return -1
    tied = np.flatnonzero(equity >= best - TIE)
    if len(tied) == 1:
        return int(kept[tied[0]])
    moves: list[Move] = [Exchange(counts_text(rack - leaves.counts[kept[j]], tile_set)) for j in tied]
    return int(kept[tied[first_in_tie_order(moves, equity[tied].tolist())]])
