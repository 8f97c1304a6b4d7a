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
which this search of known racks cannot value). Each endgame gets the time still left divided by
the endgames still to search, so that the time an endgame solved early leaves over goes to the
next ones; a result says how many of its endgames were solved exactly.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations_with_replacement

from qiza.analysis import board_array, generator, rack_counts
from qiza.game import PlayerView
from qiza.lexicon import Lexicon
from qiza.move import Move, Place
from qiza.players.endgame import scoreless_streak, solve_position
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


@dataclass
class PreEndgame:
    """The result of :func:`solve_pre_endgame`: the options, best first."""

    options: list[PreEndgameOption] = field(default_factory=list)
    seconds: float = 0.0


def solve_pre_endgame(view: PlayerView, lexicon: Lexicon, *, candidates: int = 12, time_limit: float = 10.0,
                      also: Place | None = None) -> PreEndgame:
    """Search the best ``candidates`` placements of the static player that empty the bag over
    every possible bag (see the module doc), and ``also`` one more placement (a move to judge)
    when given and it empties the bag. Two players and one or two tiles in the bag
    (:class:`~qiza.errors.RuleError` otherwise)."""
    from qiza.players.engine import StaticPlayer

    start = time.perf_counter()
    search = _Draws(view, lexicon)
    size = view.rules.layout.size
    ranked = StaticPlayer(lexicon).ranked(view, 4 * candidates, with_exchanges=False)
    moves = [(o.move, o.score) for o in ranked
             if isinstance(o.move, Place) and len(o.move.placed(size)) >= view.bag_count][:candidates]
    if also is not None and len(also.placed(size)) >= view.bag_count:
        key = set(also.placed(size))
        if all(set(m.placed(size)) != key for m, _ in moves if isinstance(m, Place)):
            moves.append((also, evaluate(view.board, also, view.rules).score))
    deadline = start + time_limit
    result = PreEndgame()
    for k, (move, score) in enumerate(moves):
        assert isinstance(move, Place)
        result.options.append(search.option(move, score, deadline, (len(moves) - k) * len(search.bags)))
    result.options.sort(key=lambda o: (-o.win, -o.value))
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


class _Draws:
    """One pre-endgame position: values a placement over every possible bag."""

    def __init__(self, view: PlayerView, lexicon: Lexicon) -> None:
        from qiza.errors import RuleError

        if len(view.scores) != 2 or view.bag_count not in (1, 2):
            raise RuleError("the pre-endgame search needs two players and one or two tiles in the bag")
        self.rules = view.rules
        self.gen = generator(lexicon, view.rules)
        me = view.seat if view.seat is not None else view.to_move
        self.lead = view.scores[me] - view.scores[1 - me]
        self.rack = rack_counts(view.rack, view.rules.tile_set)
        self.unseen = rack_counts(view.unseen, view.rules.tile_set)
        self.bags = possible_bags([int(n) for n in self.unseen], view.bag_count)
        self.board = board_array(view.board)
        self.streak = scoreless_streak(view.history, view.rules)

    def option(self, move: Place, score: int, deadline: float, left: int) -> PreEndgameOption:
        """The placement's average spread to the end and share of winning bags, its endgames
        searched by ``deadline`` (``time.perf_counter()``), each given an equal share of the time
        still left to the ``left`` endgames still to search (its own and those after it)."""
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
        value = 0.0
        halves = exact = 0  # winning ways counted in halves (a tie is half a win)
        for k, (bag, ways) in enumerate(self.bags):
            per_case = max(0.001, (deadline - time.perf_counter()) / (left - k))
            drawn = mine.copy()
            theirs = self.unseen.copy()
            for t in bag:
                drawn[t] += 1
                theirs[t] -= 1
            answer = solve_position(self.gen, rules, after, theirs, drawn, time_limit=per_case,
                                    streak=0 if score else self.streak + 1)
            gained = score - answer.value
            value += ways * gained
            final = self.lead + gained
            halves += ways * (2 if final > 0 else 1 if final == 0 else 0)
            exact += answer.exact
        total = sum(ways for _, ways in self.bags)
        return PreEndgameOption(move, score, value / total, halves / (2 * total), exact, len(self.bags))


__all__ = ["PreEndgame", "PreEndgameOption", "possible_bags", "solve_one_tile", "solve_pre_endgame"]
