"""Plays of the same equity, in one fixed order: what makes a computer's choice the same with
either move generator.

The compiled move generator and the Python one of a fresh install (:mod:`qiza.coldstart`) find
the same plays with the same equities, each in an order of its own; a player that kept the first
play of the best equity it was given played another move with each. Every player that takes the
play of the best equity (``hard``, ``medium``, the puzzles' games) and the best-only search
(:meth:`qiza.movegen.MoveGenerator.best`) take the first of them by :func:`tie_order` instead.

>>> from qiza.move import Direction, Exchange, Place
>>> moves = [Exchange("Q"), Place(7, 8, Direction.ACROSS, "AT"), Place(7, 7, Direction.DOWN, "TA")]
>>> moves[first_in_tie_order(moves, [12.0, 12.0, 12.0 + 1e-12])]
Place(row=7, col=7, direction=Direction.DOWN, word='TA')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from qiza.move import Exchange, Move, Place

__all__ = ["TIE", "tie_order", "in_tie_order", "first_in_tie_order"]

#: plays whose equities differ by less than this many points have the same equity (a tie, which
#: :func:`tie_order` breaks)
TIE = 1e-9


class Scored(Protocol):
    """A move with its equity (an :class:`~qiza.players.engine.Option`)."""

    @property
    def move(self) -> Move: ...

    @property
    def equity(self) -> float: ...


S = TypeVar("S", bound=Scored)


def tie_order(move: Move) -> tuple[int, int, int, int, str]:
    """Where a move goes among those of the same equity: placements (by row, column,
    direction and word, a blank in lower case: one placement each) before exchanges (by the
    tiles given)."""
    if isinstance(move, Place):
        return 0, move.row, move.col, int(move.direction), move.word
    return 1, 0, 0, 0, move.tiles if isinstance(move, Exchange) else ""


def in_tie_order(options: Sequence[S]) -> list[S]:
    """``options`` best equity first, those of the same equity (within :data:`TIE` of the
    best of them) in the order of :func:`tie_order`: not the move generator's, since the
    compiled one and the Python one of a fresh install find them in orders of their own.

    Equities the same but for rounding count as the same: a play's equity is a sum of floats
    (score, leave value times its weight, adjustments), and two sums equal in exact arithmetic
    may differ in their last bit. Those of different plays are otherwise far apart (at least
    0.004 points between the best play and the next over the 2,520 positions of puzzles
    1-300's games)."""
    by_equity = sorted(options, key=lambda o: -o.equity)
    ordered: list[S] = []
    start = 0
    while start < len(by_equity):
        end = start + 1
        while end < len(by_equity) and by_equity[start].equity - by_equity[end].equity <= TIE:
            end += 1
        ordered.extend(sorted(by_equity[start:end], key=lambda o: tie_order(o.move)))
        start = end
    return ordered


def first_in_tie_order(moves: Sequence[Move], equities: Sequence[float]) -> int:
    """The index of the move :func:`in_tie_order` puts first: of the moves within :data:`TIE`
    of the best equity, the first by :func:`tie_order`. ``moves`` must not be empty."""
    if len(moves) != len(equities) or not len(moves):
        raise ValueError(f"one equity per move, and at least one move: {len(moves)} moves, {len(equities)} equities")
    best = max(equities)
    tied = [i for i, e in enumerate(equities) if best - e <= TIE]
    return min(tied, key=lambda i: tie_order(moves[i]))
