"""Inference of the opponent's leave from their last play, and the simulation using it."""

from __future__ import annotations

import random

import numpy as np

from qiza.analysis import board_array, rack_counts
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.move import Pass
from qiza.players import make_player
from qiza.players.inference import TOLERANCE, infer_leaves, rest_of
from qiza.players.leaves import default_model
from qiza.players.sim import SimPlayer
from qiza.rules import CLASSIC


def _after_a_play(lexicon: Lexicon, seed: int) -> Game:
    """A game where the opponent (seat 0) just made the static player's play."""
    game = Game(CLASSIC, players=["Opp", "Me"], lexicon=lexicon, seed=seed)
    opponent = make_player("static", lexicon, seed=1)
    while True:
        move = opponent.choose(game.view(game.to_move))
        record = game.play(move)
        if record.kind.value == "place":
            return game
        game.play(Pass())


def test_every_inferred_leave_explains_the_play(lexicon: Lexicon) -> None:
    player = SimPlayer(lexicon, workers=1)
    for seed in range(3, 8):
        game = _after_a_play(lexicon, seed)
        view = game.view(game.to_move)
        gen = player.generator(view.rules)
        tv = np.asarray(default_model().tile_values, np.float64)
        leaves = infer_leaves(view, gen, tv, random.Random(seed))
        if leaves is None:
            continue
        last = game.history[-1]
        unseen = rack_counts(view.unseen)
        board = board_array(view.board)
        played = np.zeros(27, np.int32)
        for sq in last.squares:
            played[0 if board[sq] & 64 else board[sq]] += 1
            board[sq] = 0
        assert leaves.shape[1] == 27 and len(leaves) >= 12
        for leave in leaves[:20]:
            assert leave.sum() == 7 - played.sum() and np.all(leave <= unseen)  # tiles they could hold
            best = gen.best(board, leave + played, tv)
            assert best is not None and best.equity is not None
            assert last.score + float(leave @ tv) >= best.equity - TOLERANCE - 1e-6
        return
    raise AssertionError("no position gave an inference")


def test_nothing_is_inferred_without_a_placement(lexicon: Lexicon) -> None:
    game = Game(CLASSIC, players=["Opp", "Me"], lexicon=lexicon, seed=2)
    game.play(Pass())
    view = game.view(1)
    gen = SimPlayer(lexicon, workers=1).generator(view.rules)
    tv = np.asarray(default_model().tile_values, np.float64)
    assert infer_leaves(view, gen, tv, random.Random(1)) is None  # a pass says nothing
    three = Game(CLASSIC, players=["A", "B", "C"], lexicon=lexicon, seed=2)
    three.play(make_player("static", lexicon).choose(three.view(three.to_move)))
    assert infer_leaves(three.view(three.to_move), gen, tv, random.Random(1)) is None  # two players only


def test_rest_of_takes_each_tile_once() -> None:
    leave = np.zeros(27, np.int32)
    leave[1] = 2
    leave[0] = 1
    assert rest_of([1, 2, 1, 0, 1, 0], leave) == [2, 1, 0]


def test_sim_deals_from_the_inferred_leaves(lexicon: Lexicon) -> None:
    game = _after_a_play(lexicon, 5)  # seeds 3 and 4 open with bingos: nothing kept, nothing to infer
    player = SimPlayer(lexicon, workers=1, max_iterations=20, time_limit=5.0, seed=3, infer=True)
    view = game.view(game.to_move)
    blind = SimPlayer(lexicon, workers=1, max_iterations=20, time_limit=5.0, seed=3, infer=False)
    blind.choose(view)
    assert blind.last_report["inferred_leaves"] == 0
    game.play(player.choose(view))  # a legal move
    assert player.last_report["inferred_leaves"] > 0


def test_win_means_follow_the_spread_and_the_tiles_left() -> None:
    from qiza.players.sim import win_means

    values = np.array([[10.0, -10.0, np.nan], [20.0, 0.0, 5.0]])
    unseen = np.full_like(values, 20.0)
    wins = win_means(values, unseen, spread=0.0)
    assert wins[0] > wins[2] > wins[1] and 0 < wins[1] and wins[0] < 1  # nan where a candidate has no value
    # the same lead is worth more with fewer tiles to come
    assert win_means(np.array([[30.0]]), np.array([[5.0]]), 0.0)[0] > win_means(np.array([[30.0]]), np.array([[90.0]]), 0.0)[0]


def test_late_in_the_game_sim_chooses_by_chance_to_win(lexicon: Lexicon) -> None:
    game = Game(CLASSIC, players=["A", "B"], lexicon=lexicon, seed=11)
    static = make_player("static", lexicon, seed=2)
    while len(game.bag) > 20 and not game.over:
        game.play(static.choose(game.view(game.to_move)))
    view = game.view(game.to_move)
    player = SimPlayer(lexicon, workers=1, max_iterations=24, time_limit=5.0, seed=1)
    game.play(player.choose(view))
    report = player.last_report
    if report.get("candidates", 1) > 1:
        wins = report["win"]
        assert wins is not None and np.nanmax(wins) <= 1.0
    spread = SimPlayer(lexicon, workers=1, max_iterations=24, time_limit=5.0, seed=1, win=False)
    spread.choose(view)
    assert spread.last_report.get("win") is None


def test_win_means_of_finished_games_are_the_results() -> None:
    """An iteration whose game ended (-1 unseen) counts as a win, a tie or a loss by its final
    spread, not by the curve of the positions still in play."""
    from qiza.players.sim import win_means

    values = np.array([[3.0, -3.0, 0.0, 3.0]])
    unseen = np.array([[-1.0, -1.0, -1.0, 0.0]])
    wins = win_means(values, unseen, spread=0.0)
    assert list(wins[:3]) == [1.0, 0.0, 0.5]
    assert 0.0 < wins[3] < 1.0
