"""``Game.legal_moves()``: every legal placement of a player, scored by the rules engine."""

from __future__ import annotations

from qiza import Game, Place, find_preset
from qiza.analysis import legal_placements
from qiza.lexicon import load_lexicon

LEX = load_lexicon("enable")


def test_legal_moves_are_engine_evaluations_highest_first_and_all_playable() -> None:
    game = Game(find_preset("classic").with_options(first_player="fixed"), players=["Ann", "Bob"], lexicon=LEX,
                seed=42)
    game.play("G8 CAGES")
    moves = game.legal_moves()
    assert len(moves) == len(legal_placements(game))
    scores = [m.score for m in moves]
    assert scores == sorted(scores, reverse=True)
    for evaluation in moves:
        assert isinstance(evaluation.move, Place)
        assert not game.invalid_words(evaluation)
        assert evaluation.score == sum(w.score for w in evaluation.words) + (50 if evaluation.bingo else 0)
    best = moves[0]
    record = game.play(best.move)
    assert record.score == best.score and record.words == tuple(w.text for w in best.words)


def test_legal_moves_of_another_seat_and_after_the_end() -> None:
    game = Game(find_preset("classic").with_options(first_player="fixed"), players=2, lexicon=LEX, seed=1)
    other = game.legal_moves(1)
    assert other and all(game.evaluate(m.move, 1).score == m.score for m in other[:20])
    game.resign(0)
    assert game.legal_moves() == []
