"""Pre-endgames with one tile in the bag (two players): every candidate over every draw.

With one tile in the bag, the player to move cannot see eight tiles: the opponent's seven and
the one in the bag. Each of those tiles is equally likely to be the one in the bag. A play that
places tiles draws it, which empties the bag: the rest is an endgame with both racks known, so
for each candidate and each possible bag tile, the candidate's value is its score minus the
value of the opponent's best answer found by the endgame search
(:func:`qiza.players.endgame.solve_position`). A candidate's value is the average over the
bag tiles (weighted by how many of each are unseen); its chance to win is the share of draws
after which the final spread is positive (half for a tie).

Passing keeps the bag for the opponent and is not searched here. Each endgame gets an equal
part of the time limit; a result says how many of its endgames were solved exactly.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

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
    """Average over the possible bag tiles of the spread it gains to the end of the game."""
    win: float
    """Share of the bag tiles after which the player wins (a tie counts half)."""
    exact: int = 0
    """Endgames (one per distinct bag tile) solved exactly."""
    cases: int = 0


@dataclass
class PreEndgame:
    """The result of :func:`solve_one_tile`: the options, best first."""

    options: list[PreEndgameOption] = field(default_factory=list)
    seconds: float = 0.0


def solve_one_tile(view: PlayerView, lexicon: Lexicon, *, candidates: int = 12, time_limit: float = 10.0,
                   also: Place | None = None) -> PreEndgame:
    """Search the best ``candidates`` placements of the static player over every possible bag
    tile (see the module doc), and ``also`` one more placement (a move to judge) when given.
    Two players and exactly one tile in the bag."""
    from qiza.players.engine import StaticPlayer

    start = time.perf_counter()
    search = _Draws(view, lexicon)
    moves = [(o.move, o.score) for o in StaticPlayer(lexicon).ranked(view, candidates, with_exchanges=False)
             if isinstance(o.move, Place)]
    if also is not None:
        size = view.rules.layout.size
        key = set(also.placed(size))
        if all(set(m.placed(size)) != key for m, _ in moves if isinstance(m, Place)):
            moves.append((also, evaluate(view.board, also, view.rules).score))
    per_case = time_limit / max(1, len(moves) * len(search.tiles))
    result = PreEndgame()
    for move, score in moves:
        assert isinstance(move, Place)
        result.options.append(search.option(move, score, per_case))
    result.options.sort(key=lambda o: (-o.win, -o.value))
    result.seconds = time.perf_counter() - start
    return result


class _Draws:
    """One pre-endgame position: values a placement over every possible bag tile."""

    def __init__(self, view: PlayerView, lexicon: Lexicon) -> None:
        from qiza.errors import RuleError

        if len(view.scores) != 2 or view.bag_count != 1:
            raise RuleError("the pre-endgame search needs two players and one tile in the bag")
        self.rules = view.rules
        self.gen = generator(lexicon, view.rules)
        me = view.seat if view.seat is not None else view.to_move
        self.lead = view.scores[me] - view.scores[1 - me]
        self.rack = rack_counts(view.rack)
        self.unseen = rack_counts(view.unseen)
        self.tiles = [t for t in range(27) if self.unseen[t]]
        self.total = int(self.unseen.sum())
        self.board = board_array(view.board)
        self.streak = scoreless_streak(view.history, view.rules)

    def option(self, move: Place, score: int, per_case: float) -> PreEndgameOption:
        """The placement's average spread to the end and share of winning draws."""
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
        value = win = 0.0
        exact = 0
        for t in self.tiles:
            weight = self.unseen[t] / self.total
            drawn = mine.copy()
            drawn[t] += 1
            theirs = self.unseen.copy()
            theirs[t] -= 1
            answer = solve_position(self.gen, rules, after, theirs, drawn, time_limit=per_case,
                                    streak=0 if score else self.streak + 1)
            gained = score - answer.value
            value += weight * gained
            final = self.lead + gained
            win += weight * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
            exact += answer.exact
        return PreEndgameOption(move, score, value, win, exact, len(self.tiles))


__all__ = ["PreEndgame", "PreEndgameOption", "solve_one_tile"]
