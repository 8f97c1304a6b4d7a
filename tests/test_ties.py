"""Plays of the same equity: every computer player, and the best-only search, take the first by
qiza.ties.tie_order, so that a game is the same with the compiled move generator and with the
Python one of a fresh install (which find the same plays in orders of their own)."""

from __future__ import annotations

import numpy as np
import pytest
from compiled_code import forbid_compiled_code

from qiza import coldstart, movegen
from qiza.analysis import board_array, to_place
from qiza.game import Game, PlayerView
from qiza.lexicon import Lexicon
from qiza.move import Direction, Exchange, Move, Pass, Place
from qiza.movegen import MoveGenerator, parse_rack
from qiza.movegen_py import PyMoveGenerator
from qiza.players import make_player
from qiza.players.engine import Option, StaticPlayer
from qiza.rules import CLASSIC
from qiza.ties import TIE, first_in_tie_order, in_tie_order, tie_order

TIED_OPENING = 242886303
"""A game whose first move has two plays of the best equity for ``hard`` (puzzle 2's game)."""


def self_play(lexicon: Lexicon, level: str, seed: int) -> list[Move | None]:
    """The moves of a game of ``level`` against itself."""
    players = [make_player(level, lexicon, seed=seed + i) for i in range(2)]
    game = Game(CLASSIC, players=["Ann", "Bob"], lexicon=lexicon, seed=seed)
    while not game.over:
        game.play(players[game.to_move].choose(game.view(game.to_move)))
        if game.can_challenge:
            game.accept()
    return [record.move for record in game.history]


@pytest.mark.parametrize("level", ["hard", "medium", "easy", "beginner"])
def test_a_seeded_game_is_the_same_with_either_generator(enable: Lexicon, level: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = self_play(enable, level, TIED_OPENING)
    monkeypatch.setattr(coldstart, "_fallback", True)  # a fresh install, compiling in the background
    forbid_compiled_code(monkeypatch)
    assert self_play(enable, level, TIED_OPENING) == compiled


def test_the_game_has_ties(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game above is one where the generators' orders mattered: ``hard`` chose among plays
    of the same equity, at the opening and later."""
    ties: list[int] = []
    real = StaticPlayer.choose

    def spied(self: StaticPlayer, view: PlayerView) -> Move:
        if len(self.best_options(view, TIE)) > 1:
            ties.append(len(view.history))
        return real(self, view)

    monkeypatch.setattr(StaticPlayer, "choose", spied)
    self_play(enable, "hard", TIED_OPENING)
    assert ties[0] == 0 and len(ties) > 1


def test_the_ranking_is_the_same_with_either_generator(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``qiza best``, ``qiza analyze``, hints and the simulation's candidates read: plays of
    the same equity in tie order, also where the top cuts a tie; the first is ``hard``'s move."""
    player = StaticPlayer(enable)
    views = [Game(CLASSIC, players=2, lexicon=enable, seed=TIED_OPENING).view(0)]
    game = Game(CLASSIC, players=2, lexicon=enable, seed=3)
    for _ in range(6):
        game.play(player.choose(game.view(game.to_move)))
        views.append(game.view(game.to_move))
    compiled = [(player.ranked(view), player.ranked(view, 1), player.ranked(view, 7)) for view in views]
    for view, (every, first, top) in zip(views, compiled):
        assert first == every[:1] and top == every[:7] and first[0].move == player.choose(view)
    assert len(compiled[0][0]) > 1 and compiled[0][0][0].equity == compiled[0][0][1].equity  # a tie at the top
    monkeypatch.setattr(coldstart, "_fallback", True)
    forbid_compiled_code(monkeypatch)
    assert [(player.ranked(view), player.ranked(view, 1), player.ranked(view, 7)) for view in views] == compiled


def test_best_breaks_ties_by_tie_order(enable: Lexicon) -> None:
    """The best-only search's play (score alone: many ties) is the first by tie_order of the
    plays of the best score, with the compiled generator and the Python one."""
    compiled = MoveGenerator(enable.graph_for(CLASSIC.tile_set))
    python = PyMoveGenerator(enable.words, key=enable.content_hash)
    game = Game(CLASSIC, players=2, lexicon=enable, seed=3)
    checked = 0
    for rack_text in ("AT", "EASTERN", "QI", "ZAX", "OE??"):
        for board in (np.zeros(225, np.int32), board_array(game.board)):
            rack = parse_rack(rack_text)
            moves = compiled.generate(board, rack)
            if not len(moves):
                assert compiled.best(board, rack) is None and python.best(board, rack) is None
                continue
            best = moves.score.max()
            tied = [to_place(moves[int(i)]) for i in np.flatnonzero(moves.score == best)]
            found = compiled.best(board, rack)
            assert found is not None and to_place(found) == min(tied, key=tie_order)
            assert python.best(board, rack) == found
            checked += len(tied) > 1
        game.play(StaticPlayer(enable).choose(game.view(game.to_move)))
    assert checked >= 4


def test_more_ties_than_the_search_keeps(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """When more plays are within the margin of the best than the compiled search keeps, every
    play is generated: the same play."""
    board, rack = np.zeros(225, np.int32), parse_rack("EASTERN")
    want = MoveGenerator(enable.graph_for(CLASSIC.tile_set)).best(board, rack)
    monkeypatch.setattr(movegen, "NEAR_ROWS", 2)
    gen = MoveGenerator(enable.graph_for(CLASSIC.tile_set))  # (its buffer is made on first use)
    assert gen.best(board, rack) == want
    assert len(gen.generate(board, rack).score) > 2


def test_tie_order_and_the_first_of_a_tie() -> None:
    a, b, c = Place(7, 9, Direction.ACROSS, "AB"), Place(7, 8, Direction.DOWN, "AB"), Exchange("Q")
    moves: list[Move] = [c, a, b]
    assert sorted(moves, key=tie_order) == [b, a, c]  # placements by square, then exchanges
    assert first_in_tie_order([a, b, c], [3.3, 1.1 + 2.2, 3.3]) == 1  # 3.3000000000000003: the same
    assert first_in_tie_order([a, b, c], [3.3, 3.3 - 1e-6, 3.3]) == 0
    options = [Option(a, 10, "", 3.3), Option(c, 0, "", 3.3), Option(Pass(), 0, "", 9.0)]
    assert [o.move for o in in_tie_order(options)] == [Pass(), a, c]
    with pytest.raises(ValueError, match="one equity per move"):
        first_in_tie_order([a], [])
    with pytest.raises(ValueError, match="at least one move"):
        first_in_tie_order([], [])



TIED_TRAINING = range(3)
"""Training games whose observations depended on the generator's order before training took
ties in tie order (each of the three did: a tie broken by the generator's order, at the
opening or in the exploration's ten best)."""


def test_a_seeded_training_round_is_the_same_with_either_generator(enable: Lexicon,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``qiza train``'s games (train.play_round, 10% exploration as benchmarks/throughput.py
    plays them) keep the same leaves with the same targets on a fresh install."""
    from qiza.players import train
    from qiza.players.leaves import default_model

    model = default_model()
    compiled = train.play_round(model, TIED_TRAINING, lexicon="enable", explore=0.1)
    assert len(compiled) > 40
    monkeypatch.setattr(coldstart, "_fallback", True)
    forbid_compiled_code(monkeypatch)
    assert train.play_round(model, TIED_TRAINING, lexicon="enable", explore=0.1) == compiled
