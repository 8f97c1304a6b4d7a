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


def solve_one_tile(view: PlayerView, lexicon: Lexicon, *, candidates: int = 12, time_limit: float = 10.0) -> PreEndgame:
    """Search the best ``candidates`` placements of the static player over every possible bag
    tile (see the module doc). Two players and exactly one tile in the bag."""
    from qiza.errors import RuleError
    from qiza.players.engine import StaticPlayer

    if len(view.scores) != 2 or view.bag_count != 1:
        raise RuleError("the pre-endgame search needs two players and one tile in the bag")
    start = time.perf_counter()
    rules = view.rules
    gen = generator(lexicon, rules)
    me = view.seat if view.seat is not None else view.to_move
    lead = view.scores[me] - view.scores[1 - me]
    rack = rack_counts(view.rack)
    unseen = rack_counts(view.unseen)
    tiles = [t for t in range(27) if unseen[t]]
    total = int(unseen.sum())
    options = [o for o in StaticPlayer(lexicon).ranked(view, candidates, with_exchanges=False)
               if isinstance(o.move, Place)]
    board = board_array(view.board)
    size = rules.layout.size
    streak = scoreless_streak(view.history, rules)
    per_solve = time_limit / max(1, len(options) * len(tiles))
    result = PreEndgame()
    for option in options:
        move = option.move
        assert isinstance(move, Place)
        after = board.copy()
        used: Counter[int] = Counter()
        for square, char in move.placed(size):
            code = rules.tile_set.code(char)
            after[square] = code
            used[0 if char.islower() else code] += 1
        mine = rack.copy()
        for t, n in used.items():
            mine[t] -= n
        value = win = 0.0
        exact = 0
        for t in tiles:
            weight = unseen[t] / total
            drawn = mine.copy()
            drawn[t] += 1
            theirs = unseen.copy()
            theirs[t] -= 1
            answer = solve_position(gen, rules, after, theirs, drawn, time_limit=per_solve,
                                    streak=0 if option.score else streak + 1)
            gained = option.score - answer.value
            value += weight * gained
            final = lead + gained
            win += weight * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
            exact += answer.exact
        result.options.append(PreEndgameOption(move, option.score, value, win, exact, len(tiles)))
    result.options.sort(key=lambda o: (-o.win, -o.value))
    result.seconds = time.perf_counter() - start
    return result


__all__ = ["PreEndgame", "PreEndgameOption", "solve_one_tile"]
