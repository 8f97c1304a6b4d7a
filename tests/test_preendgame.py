"""Pre-endgames with one tile in the bag: every candidate over every possible draw."""

from __future__ import annotations

import pytest

from qiza.errors import RuleError
from qiza.game import Game
from qiza.lexicon import Lexicon
from qiza.move import Place
from qiza.players import make_player
from qiza.players.best_cli import format_best
from qiza.players.preendgame import solve_one_tile
from qiza.rules import CLASSIC


def _one_in_the_bag(lexicon: Lexicon) -> Game:
    static = make_player("static", lexicon, seed=0)
    for seed in range(4, 60):
        game = Game(CLASSIC, lexicon=lexicon, seed=seed)
        while not game.over and game.view(game.to_move).bag_count > 1:
            game.play(static.choose(game.view(game.to_move)))
            if game.can_challenge:
                game.accept()
        if not game.over and game.view(game.to_move).bag_count == 1:
            return game
    raise AssertionError("no self-play game had exactly one tile in the bag")


def test_every_candidate_is_searched_over_every_draw(lexicon: Lexicon) -> None:
    game = _one_in_the_bag(lexicon)
    view = game.view(game.to_move)
    distinct = len(set(view.unseen))
    found = solve_one_tile(view, lexicon, candidates=3, time_limit=4.0)
    assert 1 <= len(found.options) <= 3
    for option in found.options:
        assert option.cases == distinct and 0 <= option.exact <= distinct
        assert 0.0 <= option.win <= 1.0
        assert isinstance(option.move, Place)
        assert game.evaluate(option.move).score == option.score  # a legal placement, scored by the rules
    keys = [(-o.win, -o.value) for o in found.options]
    assert keys == sorted(keys)
    assert found.seconds < 4.0 + 2.0


def test_qiza_best_auto_uses_it_and_refuses_it_elsewhere(lexicon: Lexicon) -> None:
    game = _one_in_the_bag(lexicon)
    lines = format_best(game, 2, "auto")
    assert "engine preendgame" in lines[0] and "draws" in lines[3]
    fresh = Game(CLASSIC, lexicon=lexicon, seed=1)
    with pytest.raises(RuleError, match="one tile in the bag"):
        solve_one_tile(fresh.view(0), lexicon)


def test_analysis_with_auto_searches_the_pre_endgame_turn(lexicon: Lexicon) -> None:
    from qiza import gcg
    from qiza.players.analyze_cli import analyze_record

    game = _one_in_the_bag(lexicon)
    turn = sum(1 for r in game.history if r.kind.value in ("place", "exchange", "pass")) + 1
    unseen = len(game.view(game.to_move).unseen)
    static = make_player("static", lexicon, seed=0)
    while not game.over:
        game.play(static.choose(game.view(game.to_move)))
        if game.can_challenge:
            game.accept()
    results = analyze_record(gcg.from_game(game), lexicon, engine_name="auto", iterations=2)
    row = next(t for t in results if t.turn == turn)
    assert row.best_win is not None and row.played_win is not None
    # shares of the equally likely draws (halves for ties), not the logistic estimate
    for share in (row.best_win, row.played_win):
        assert abs(share * 2 * unseen - round(share * 2 * unseen)) < 1e-9
    assert row.lost is not None and row.lost >= 0
