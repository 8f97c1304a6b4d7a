"""Pre-endgames with one or two tiles in the bag (two players): every candidate over every draw.

With ``b`` tiles in the bag (1 or 2), the player to move cannot see ``7 + b`` tiles: the
opponent's rack and the bag. Every way the bag can be made of them is equally likely. A play
that places at least ``b`` tiles draws the whole bag, which empties it: the rest is an endgame
with both racks known, so for each candidate and each possible bag (one tile; or a pair of
tiles, ``C(n, 2)`` of them for ``n`` unseen tiles, fewer when tiles repeat), the candidate's value
is its score minus the value of the opponent's best answer found by the endgame search
(:func:`qiza.players.endgame.solve_position`). A candidate's value is the average over the
possible bags (weighted by how many ways each can be drawn from the unseen tiles); its chance
to win is the share of bags after which the final spread is positive (half for a tie).

Not searched: passing and exchanging, and with two tiles in the bag plays of one tile, which
leave the opponent a pre-endgame of their own (the opponent then does not know the last tile,
which this search of known racks cannot value).

The endgames are searched in passes with a growing time cap (0.05 s, then four times more each
pass, never more than an equal share of the time still left), so that the many quick endgames
are settled first and the time goes to the hard ones. A candidate is dropped as soon as even
winning after every bag it has not solved exactly would leave it fewer winning draws than
another candidate has for certain (it cannot be the best), so its other endgames are not
searched. A result says how many of each candidate's endgames were solved exactly, which
candidates were dropped, and whether the best move is proven (``decided``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations_with_replacement

import numpy as np

from qiza.analysis import board_array, generator, rack_counts
from qiza.game import PlayerView
from qiza.lexicon import Lexicon
from qiza.move import Move, Place
from qiza.players.endgame import Solution, load_search, scoreless_streak, solve_position
from qiza.scoring import evaluate


@dataclass
class PreEndgameOption:
    """One candidate placement and what the search found for it."""

    move: Move
    score: int
    value: float
    """Average over the possible bags of the spread it gains to the end of the game."""
    win: float
    """Share of the possible bags after which the player wins (a tie counts half)."""
    exact: int = 0
    """Endgames (one per distinct bag: a tile, or a pair of tiles) solved exactly."""
    cases: int = 0
    pruned: bool = False
    """The search dropped this candidate: even winning after every bag it had not solved exactly,
    it wins after fewer draws than another candidate wins after for certain (its value is then
    the searches' estimate)."""


@dataclass
class PreEndgame:
    """The result of :func:`solve_pre_endgame`: the options, best first."""

    options: list[PreEndgameOption] = field(default_factory=list)
    seconds: float = 0.0
    decided: bool = False
    """The best move is proven: every endgame of the best option solved exactly, and every
    other option's too or the option dropped (it wins after fewer draws)."""


def solve_pre_endgame(view: PlayerView, lexicon: Lexicon, *, candidates: int = 12, time_limit: float = 10.0,
                      also: Place | None = None) -> PreEndgame:
    """Search the best ``candidates`` placements of the static player that empty the bag over
    every possible bag (see the module doc), and ``also`` one more placement (a move to judge)
    when given and it empties the bag. Two players and one or two tiles in the bag
    (:class:`~qiza.errors.RuleError` otherwise). ``time_limit`` starts once the compiled endgame
    search is loaded (:func:`~qiza.players.endgame.load_search`: the first search of a process
    loads it, or compiles it on a fresh install), as the result's ``seconds`` does."""
    from qiza.players.engine import StaticPlayer

    search = _Draws(view, lexicon)
    load_search(search.gen)  # the first time in a process: loaded (or compiled) before the clock starts
    start = time.perf_counter()
    size = view.rules.layout.size
    ranked = StaticPlayer(lexicon).ranked(view, 4 * candidates, with_exchanges=False)
    moves = [(o.move, o.score) for o in ranked
             if isinstance(o.move, Place) and len(o.move.placed(size)) >= view.bag_count][:candidates]
    judged = -1
    if also is not None and len(also.placed(size)) >= view.bag_count:
        key = set(also.placed(size))
        judged = next((k for k, (m, _) in enumerate(moves) if isinstance(m, Place) and set(m.placed(size)) == key), -1)
        if judged < 0:
            judged = len(moves)
            moves.append((also, evaluate(view.board, also, view.rules).score))
    found = [search.candidate(move, score) for move, score in moves if isinstance(move, Place)]
    search.run(found, start + time_limit, keep=judged)
    result = search.result(found)
    result.seconds = time.perf_counter() - start
    return result


def solve_one_tile(view: PlayerView, lexicon: Lexicon, *, candidates: int = 12, time_limit: float = 10.0,
                   also: Place | None = None) -> PreEndgame:
    """:func:`solve_pre_endgame` with exactly one tile in the bag (``RuleError`` otherwise)."""
    from qiza.errors import RuleError

    if view.bag_count != 1:
        raise RuleError("the pre-endgame search needs two players and one tile in the bag")
    return solve_pre_endgame(view, lexicon, candidates=candidates, time_limit=time_limit, also=also)


def possible_bags(unseen: list[int], size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every bag of ``size`` tiles (1 or 2) the unseen tiles (counts per tile kind) can make, as sorted tile
    codes, with the number of ways to draw it from them (every set of unseen tiles being equally
    likely to be the bag, a bag's chance is its ways over the sum of all ways).

    >>> possible_bags([0, 2, 1] + [0] * 24, 2)
    [((1, 1), 1), ((1, 2), 2)]
    """
    out = []
    for bag in combinations_with_replacement([t for t in range(len(unseen)) if unseen[t]], size):
        if size == 1:
            ways = unseen[bag[0]]
        elif bag[0] == bag[1]:
            ways = unseen[bag[0]] * (unseen[bag[0]] - 1) // 2
        else:
            ways = unseen[bag[0]] * unseen[bag[1]]
        if ways:
            out.append((bag, ways))
    return out


@dataclass
class _Candidate:
    """A placement under search: the board and rack after it, and per bag what its endgame gave."""

    move: Place
    score: int
    board: np.ndarray
    rack: np.ndarray
    gained: list[float]
    """The spread the placement gains to the end (its score less the opponent's answer): exact
    where ``exact``, else the deepest search's estimate."""
    exact: list[bool]
    depth: list[int]
    halves: list[int]
    """The outcome in halves of a win (2 a win, 1 a tie, 0 a loss): proven where ``exact``."""
    pruned: bool = False


class _Draws:
    """One pre-endgame position: values placements over every possible bag."""

    def __init__(self, view: PlayerView, lexicon: Lexicon) -> None:
        from qiza.errors import RuleError

        if len(view.seats_in) != 2 or view.bag_count not in (1, 2):
            raise RuleError("the pre-endgame search needs two players (in the game) and one or two tiles in the bag")
        self.rules = view.rules
        self.gen = generator(lexicon, view.rules)
        me = view.seat if view.seat is not None else view.to_move
        (opponent,) = (seat for seat in view.seats_in if seat != me)
        self.lead = view.scores[me] - view.scores[opponent]
        self.rack = rack_counts(view.rack, view.rules.tile_set)
        self.unseen = rack_counts(view.unseen, view.rules.tile_set)
        # the likeliest bags first: their endgames count most towards a candidate's share of wins
        self.bags = sorted(possible_bags([int(n) for n in self.unseen], view.bag_count), key=lambda b: -b[1])
        self.total = sum(ways for _, ways in self.bags)
        self.board = board_array(view.board)
        self.streak = scoreless_streak(view.history, view.rules, view.out)

    def candidate(self, move: Place, score: int) -> _Candidate:
        """The placement ready to search: nothing searched yet."""
        rules = self.rules
        after = self.board.copy()
        used: Counter[int] = Counter()
        for square, char in move.placed(rules.layout.size):
            code = rules.tile_set.code(char)
            after[square] = code
            used[0 if char.islower() else code] += 1
        mine = self.rack.copy()
        for t, n in used.items():
            mine[t] -= n
        n = len(self.bags)
        return _Candidate(move, score, after, mine, [0.0] * n, [False] * n, [-1] * n, [0] * n)

    def _answer(self, c: _Candidate, k: int, time_limit: float) -> Solution:
        """The opponent's endgame after candidate ``c`` and bag ``k``."""
        drawn = c.rack.copy()
        theirs = self.unseen.copy()
        for t in self.bags[k][0]:
            drawn[t] += 1
            theirs[t] -= 1
        return solve_position(self.gen, self.rules, c.board, theirs, drawn, time_limit=time_limit,
                              streak=0 if c.score else self.streak + 1)

    def value(self, c: _Candidate, k: int, time_limit: float) -> None:
        """Search the exact value of candidate ``c``'s endgame after bag ``k`` (a deeper result
        replaces an earlier estimate; a shallower one, from less time, does not)."""
        answer = self._answer(c, k, time_limit)
        if answer.exact or answer.depth >= c.depth[k]:
            c.gained[k], c.exact[k], c.depth[k] = c.score - answer.value, answer.exact, answer.depth
            final = self.lead + c.gained[k]
            c.halves[k] = 2 if final > 0 else 1 if final == 0 else 0

    def wins(self, c: _Candidate) -> tuple[int, int]:
        """The fewest and the most winning ways (in halves: a tie is half a win) the candidate can
        have: its endgames solved exactly as they are, the others lost or won."""
        low = high = 0
        for (_, ways), halves, exact in zip(self.bags, c.halves, c.exact):
            low += ways * halves if exact else 0
            high += ways * halves if exact else 2 * ways
        return low, high

    def run(self, found: list[_Candidate], deadline: float, keep: int = -1) -> None:
        """Search the exact values of the candidates' endgames by ``deadline``
        (``time.perf_counter()``) while they are in the running (``keep``, the index of a
        candidate to judge, always is)."""
        self._passes(found, deadline, keep, lambda c, k: not c.exact[k], self.value)

    def _passes(self, found: list[_Candidate], deadline: float, keep: int,
                needed: Callable[[_Candidate, int], bool], search: Callable[[_Candidate, int, float], None]) -> None:
        """Search the ``needed`` endgames of the candidates in the running, in passes: each within
        a cap that grows fourfold from pass to pass (0.05 s first) or its equal share of the time
        still left, whichever is less, so that the quick ones are settled first and the time goes
        to the hard ones; the candidates that can no longer be the best are dropped between
        endgames (:meth:`prune`)."""
        cap = 0.05
        while True:
            todo = [(c, k) for c in found for k in range(len(self.bags)) if not c.pruned and needed(c, k)]
            if not todo or time.perf_counter() >= deadline:
                return
            for done, (c, k) in enumerate(todo):
                if c.pruned:
                    continue
                left = deadline - time.perf_counter()
                if left <= 0:
                    return
                search(c, k, min(cap, left / (len(todo) - done)))
                self.prune(found, keep)
            cap *= 4

    def prune(self, found: list[_Candidate], keep: int) -> None:
        """Drop (``pruned``) the candidates that cannot be the best: even winning after every bag
        they have not solved exactly, they win after fewer draws than another candidate wins
        after for certain."""
        bounds = [self.wins(c) for c in found]
        best = max(low for low, _ in bounds)
        for i, (c, (_, high)) in enumerate(zip(found, bounds)):
            if i != keep and high < best:
                c.pruned = True

    def result(self, found: list[_Candidate]) -> PreEndgame:
        """The options, best first (by the share of winning draws, then the average spread), and
        whether the best is proven."""
        options = []
        for c in found:
            value = sum(ways * gained for (_, ways), gained in zip(self.bags, c.gained)) / self.total
            halves = sum(ways * h for (_, ways), h in zip(self.bags, c.halves))
            options.append(PreEndgameOption(c.move, c.score, value, halves / (2 * self.total), sum(c.exact),
                                            len(self.bags), c.pruned))
        order = sorted(range(len(found)), key=lambda i: (-options[i].win, -options[i].value))
        top = options[order[0]] if order else None
        decided = top is None or top.exact == top.cases
        for i in order[1:]:
            o = options[i]
            assert top is not None
            if not (o.pruned or o.exact == o.cases):
                decided = False
        return PreEndgame([options[i] for i in order], decided=decided)


__all__ = ["PreEndgame", "PreEndgameOption", "possible_bags", "solve_one_tile", "solve_pre_endgame"]
