"""Endgames of three and four players: max-n over sampled deals (qiza.players.endgame_multi)."""

from __future__ import annotations

import numpy as np
import pytest

from qiza.analysis import board_array, generator, rack_counts
from qiza.errors import RuleError
from qiza.game import EndReason, Game
from qiza.lexicon import Lexicon
from qiza.move import Pass, Place
from qiza.players import make_player
from qiza.players.endgame_multi import _Tree, solve_multi, solve_multi_position
from qiza.rules import CLASSIC


def _bag_empty(lexicon: Lexicon, players: int, seed: int) -> Game | None:
    static = make_player("static", lexicon, seed=0)
    game = Game(CLASSIC, players=players, lexicon=lexicon, seed=seed)
    while not game.over and game.view(game.to_move).bag_count > 0:
        game.play(static.choose(game.view(game.to_move)))
        if game.can_challenge:
            game.accept()
    return None if game.over else game


def _first_bag_empty(lexicon: Lexicon, players: int) -> Game:
    for seed in range(10):
        game = _bag_empty(lexicon, players, seed)
        if game is not None:
            return game
    raise AssertionError(f"no {players}-player game reached an empty bag")


def test_going_out_is_settled_as_the_rules_engine_settles_it(lexicon: Lexicon) -> None:
    """Play three-player games to the end; where a player goes out, the search's settlement of
    the racks before that play gives the engine's final scores."""
    static = make_player("static", lexicon, seed=0)
    checked = 0
    for seed in range(12):
        game = _bag_empty(lexicon, 3, seed)
        if game is None:
            continue
        tree = _Tree(generator(lexicon, game.rules), game.rules,
                     np.array([0, *game.rules.tile_set.values], np.float64), 3)
        while not game.over:
            seat = game.to_move
            racks = [rack_counts(game.rack_text(s)) for s in range(3)]
            scores = [float(s) for s in game.scores]
            record = game.play(static.choose(game.view(seat)))
            if game.can_challenge:
                game.accept()
            if game.over and game.end_reason is EndReason.WENT_OUT:
                scores[seat] += record.score
                racks[seat] = np.zeros_like(racks[seat])
                assert tree.settle_out(scores, racks, seat) == [float(s) for s in game.scores]
                checked += 1
    assert checked >= 3


def test_the_search_values_every_candidate_over_the_deals(lexicon: Lexicon) -> None:
    game = _first_bag_empty(lexicon, 4)
    view = game.view(game.to_move)
    found = solve_multi(view, lexicon, time_limit=1.0, deals=4, width=3, reply_width=2)
    assert 1 <= found.deals <= 4 and found.nodes > 0
    assert any(isinstance(o.move, Pass) for o in found.options)
    for option in found.options:
        assert 0.0 <= option.win <= 1.0
        if isinstance(option.move, Place):
            assert game.evaluate(option.move).score == option.score  # legal, scored as the engine scores it
    keys = [(-o.win, -o.margin) for o in found.options]
    assert keys == sorted(keys)
    # the player of a view is searched: the same position from a spectator or with two players is refused
    with pytest.raises(RuleError):
        solve_multi(game.view(None), lexicon)
    with pytest.raises(RuleError):
        solve_multi(Game(CLASSIC, players=3, lexicon=lexicon, seed=1).view(0), lexicon)


def test_a_player_who_can_go_out_and_win_does(lexicon: Lexicon) -> None:
    """Three players, the bag empty, CAT on the board; the player to move holds one S, which
    goes out (CATS) and wins."""
    from qiza.board import Board

    rows = ["." * 15] * 7 + ["." * 7 + "CAT" + "." * 5] + ["." * 15] * 7
    board = board_array(Board.from_rows(rows))
    gen = generator(lexicon, CLASSIC)
    tiles = CLASSIC.tile_set
    unseen = [tiles.code(c) for c in "EEEEEE"]  # whatever the deal, each opponent holds EEE
    found = solve_multi_position(gen, CLASSIC, board, rack_counts("S"), unseen, [1, 3, 3], [40, 45, 44], 0,
                                 time_limit=2.0, deals=6)
    best = found.options[0]
    assert isinstance(best.move, Place) and best.move.word.replace(".", "").upper() == "S" and best.win == 1.0
    assert best.score == 6  # CATS: 3 + 1 + 1 + 1, no premium under the S
    # going out gains the other racks' tiles (6 points) and costs each opponent theirs (3)
    assert best.margin == pytest.approx((40 + 6 + 6) - (45 - 3))
    passing = next(o for o in found.options if isinstance(o.move, Pass))
    assert passing.margin < best.margin


def test_qiza_best_searches_a_three_player_endgame(lexicon: Lexicon) -> None:
    from qiza.players.best_cli import format_best

    game = _first_bag_empty(lexicon, 3)
    lines = format_best(game, 3, "auto")
    assert "engine endgame (max-n over" in lines[0]
    assert len([line for line in lines if line[:3].strip().isdigit()]) == 3


def test_a_player_out_of_the_game_is_no_rival(lexicon: Lexicon) -> None:
    """A player who resigned a game of four holds no tiles and cannot win, however high their
    score stays: the margins are measured against the players still in."""
    static = make_player("static", lexicon, seed=0)
    for seed in range(10):
        game = Game(CLASSIC, players=4, lexicon=lexicon, seed=seed)
        game.resign(3)
        while not game.over and game.view(game.to_move).bag_count > 0:
            game.play(static.choose(game.view(game.to_move)))
            if game.can_challenge:
                game.accept()
        if not game.over:
            break
    assert not game.over and game.out == (3,)
    game.scores[3] = 10_000
    view = game.view(game.to_move)
    found = solve_multi(view, lexicon, time_limit=0.5, deals=2)
    assert found.options and all(abs(option.margin) < 1_000 for option in found.options)
