"""The endgame solver (:mod:`qiza.players.endgame`) against a plain minimax on larger endgames
(3-4 tiles each on a real board), and its compiled move lists against the generator."""

from __future__ import annotations

import numpy as np
import pytest
from endgame_positions import empty_bag_positions

from qiza.analysis import board_array, generator, rack_counts
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.movegen import MoveGenerator, MoveList
from qiza.players import make_player
from qiza.players.endgame import solve_position
from qiza.rules import CLASSIC


@pytest.fixture(scope="module")
def position(lexicon: Lexicon) -> np.ndarray:
    """A real board with the bag empty (static self-play)."""
    static = make_player("static", lexicon, seed=0)
    game = Game(CLASSIC.with_options(challenge="auto"), lexicon=lexicon, seed=5)
    while game.bag and not game.over:
        game.play(static.choose(game.view(game.to_move)))
    assert not game.over
    return board_array(game.board)


class Minimax:
    """Plain minimax to the end of the game: every move searched, no bounds, no move order; a
    memo of exact values keyed by the whole position. The solver's rules: going out wins twice
    the opponent's tiles, two passes in a row or ``limit`` scoreless turns end the game with
    each losing their own tiles."""

    def __init__(self, gen: MoveGenerator, limit: int = 6) -> None:
        self.gen = gen
        self.limit = limit
        self.vals = np.zeros(27)
        self.vals[1:] = CLASSIC.tile_set.values
        self.memo: dict[tuple[bytes, bytes, bytes, int, int], float] = {}
        # each (board, rack)'s moves, generated once: positions that differ only in the streak
        # or the passes (a pass leads to one) have the same moves
        self.lists: dict[tuple[bytes, bytes], MoveList] = {}

    def value(self, board: np.ndarray, me: np.ndarray, opp: np.ndarray, streak: int = 0, passes: int = 0) -> float:
        key = (board.tobytes(), me.tobytes(), opp.tobytes(), streak, passes)
        if key in self.memo:
            return self.memo[key]
        mine, theirs = float(me @ self.vals), float(opp @ self.vals)
        if passes + 1 >= 2 or streak + 1 >= self.limit:
            best = theirs - mine
        else:
            best = -self.value(board, opp, me, streak + 1, passes + 1)
        total = int(me.sum())
        ml = self.lists.get(key[:2])
        if ml is None:
            ml = self.lists[key[:2]] = self.gen.generate(board, me)
        for i in range(len(ml)):
            used = np.zeros(27, np.int32)
            b2 = board.copy()
            r, c, step = int(ml.row[i]), int(ml.col[i]), 15 if ml.direction[i] else 1
            for j, t in enumerate(ml.tiles[i, :ml.length[i]].tolist()):
                if t:
                    used[0 if t & 64 else t] += 1
                    b2[r * 15 + c + j * step] = t
            score = int(ml.score[i])
            if ml.ntiles[i] == total:
                v = score + 2 * theirs
            else:
                s2 = 0 if score else streak + 1
                if s2 >= self.limit:
                    v = score + theirs - float((me - used) @ self.vals)
                else:
                    v = score - self.value(b2, opp, me - used, s2, 0)
            best = max(best, v)
        self.memo[key] = best
        return best


@pytest.mark.parametrize("mine,theirs", [("PRT", "IIU"), ("CBK", "EXT"), ("QRT", "IIUW"), ("CWBK", "UXT"),
                                         ("VV", "EIRT"), ("EIRT", "VV"), ("QQ", "AEIT"), ("E?", "IIU"), ("IIU", "E?")])
def test_solver_matches_plain_minimax(lexicon: Lexicon, position: np.ndarray, mine: str, theirs: str) -> None:
    """3-4 tiles each (12,000 to 29,000 positions for the plain minimax): the same exact value.
    With VV or QQ (one or two places to play: blocked, the player must pass, a pass the
    compiled search does not count against its depth) too, and with a blank (its lists' thousands of
    moves, many of them differing only in the blank's letter)."""
    gen = generator(lexicon, CLASSIC)
    me, opp = rack_counts(mine), rack_counts(theirs)
    expected = Minimax(gen).value(position, me, opp)
    solution = solve_position(gen, CLASSIC, position, me, opp, time_limit=60)
    assert solution.exact and solution.value == expected
    assert solution.line and solution.line[0] == solution.move


def test_move_lists_match_the_generator(lexicon: Lexicon, position: np.ndarray) -> None:
    """The compiled move lists hold the generator's moves (squares, tiles, score) and stay
    legal exactly while their squares to keep empty are empty."""
    from qiza.players.endgame import _Search

    gen = generator(lexicon, CLASSIC)
    rack = rack_counts("AEIRST?")
    values = np.zeros(27)
    values[1:] = CLASSIC.tile_set.values
    search = _Search(gen, CLASSIC, values, float("inf"), 6)
    moves = search.moves(position, search.board_key(position), rack)
    ml = gen.generate(position, rack)
    expected = set()
    for m in ml:
        expected.add((m.score, tuple(sorted((r * 15 + c, t) for r, c, t in m.squares()))))
    got = {(int(moves.sc[k]), tuple(sorted(moves.squares(k)))) for k in range(len(moves))}
    assert got == expected and len(moves) == len(ml)
    # after a play elsewhere, the still-legal moves of the old list are exactly the new list's
    # moves that do not touch the new tiles
    from qiza.players import endgame_nb as nb

    # (several three-tile plays: at least one of them opens moves the old list cannot hold)
    opened = 0
    for k in [k for k in range(len(moves)) if moves.nt[k] == 3][:12]:
        board = position.copy()
        board[moves.sq[k, :3]] = moves.tl[k, :3]
        left = rack - moves.used(k)
        new = gen.generate(board, left)
        new_set = {(m.score, tuple(sorted((r * 15 + c, t) for r, c, t in m.squares()))) for m in new}
        kept = {(int(moves.sc[i]), tuple(sorted(moves.squares(i)))) for i in range(len(moves))
                if nb.valid_one(board, left, i, moves.nt, moves.code, moves.chk)}
        assert kept and kept <= new_set
        opened += len(kept) < len(new_set)
    assert opened


def test_the_compiled_search_agrees_with_the_python_search(lexicon: Lexicon) -> None:
    """Real empty-bag positions, with the opponent's rack cut to at most three tiles (so that
    both solvers finish): the same exact value, a legal first move of the principal variation,
    and the same answer again from a second search (the buffers are reused)."""
    from qiza.players.endgame import solve_position_py

    gen = generator(lexicon, CLASSIC)
    for board, me, opp, streak in empty_bag_positions(lexicon, 4):
        while opp.sum() > 3:
            opp[int(np.flatnonzero(opp)[-1])] -= 1
        new = solve_position(gen, CLASSIC, board, me, opp, time_limit=60, streak=streak)
        # the Python search runs on the wall clock: a cap far above its time on a quiet machine
        # (seconds), so that a loaded one (load 8-14 on two cores took it past 60 s) still finishes
        old = solve_position_py(gen, CLASSIC, board, me, opp, time_limit=600, streak=streak)
        assert new.exact and old.exact and new.value == old.value
        assert new.line and new.line[0] == new.move
        again = solve_position(gen, CLASSIC, board, me, opp, time_limit=60, streak=streak)
        assert (again.value, again.move) == (new.value, new.move)


def test_the_scoreless_rule_ends_the_compiled_search(lexicon: Lexicon, position: np.ndarray) -> None:
    """With the streak one short of the limit, a pass ends the game: a player with no move
    loses their own tiles, and the value equals the plain minimax with that streak."""
    gen = generator(lexicon, CLASSIC)
    me, opp = rack_counts("QRT"), rack_counts("IIU")
    for streak in (0, 4, 5):
        expected = Minimax(gen).value(position, me, opp, streak=streak)
        solution = solve_position(gen, CLASSIC, position, me, opp, time_limit=60, streak=streak)
        assert solution.exact and solution.value == expected


def test_a_cpu_time_limit_counts_the_search_threads_cpu_time(lexicon: Lexicon, position: np.ndarray) -> None:
    """With ``cpu_time`` the search stops once its own thread has used the limit in CPU time
    (a long endgame, not exact by then), and reports that time."""
    gen = generator(lexicon, CLASSIC)
    me, opp = rack_counts("AEIRST?"), rack_counts("DEILNOU")
    solution = solve_position(gen, CLASSIC, position, me, opp, time_limit=0.3, cpu_time=True)
    assert not solution.exact and solution.move is not None
    assert 0.3 <= solution.cpu_seconds < 0.6
    assert solution.cpu_seconds <= solution.seconds + 0.01
