"""``Game.legal_moves()``: every legal placement of a player, scored by the rules engine."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import GameFactory

from qiza import Game, Place, find_preset
from qiza.analysis import Candidate, candidates_from, legal_placements, move_list
from qiza.lexicon import load_lexicon
from qiza.move import Move, parse_move
from qiza.scoring import Evaluation

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
    other = game.legal_moves(seat=1)
    assert other and all(game.evaluate(m.move, seat=1).score == m.score for m in other[:20])
    game.resign(0)
    assert game.legal_moves() == []


def test_seat_is_keyword_only_as_in_play_and_positional_still_works_with_a_warning() -> None:
    """evaluate(move, seat) and legal_moves(seat) took the seat positionally while play(move,
    *, seat=) wanted the keyword: now all three want it, and the old calls work for one release."""
    import inspect
    import warnings

    game = Game(find_preset("classic").with_options(first_player="fixed"), players=2, lexicon=LEX, seed=1)
    for method in (Game.evaluate, Game.legal_moves, Game.play):
        assert inspect.signature(method).parameters["seat"].kind is inspect.Parameter.KEYWORD_ONLY
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wanted = game.legal_moves(seat=1)
        move = wanted[0].move
        assert game.evaluate(move, seat=1) == wanted[0]
    with pytest.warns(DeprecationWarning, match=r"legal_moves.*seat=1"):
        assert game.legal_moves(1) == wanted  # type: ignore[call-arg]
    with pytest.warns(DeprecationWarning, match=r"evaluate.*seat=1"):
        assert game.evaluate(move, 1) == wanted[0]  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        game.evaluate(move, 1, seat=1)  # type: ignore[call-arg, misc]


# -- the quick paths give what the plain ones gave ------------------------------------------------

def _plain_placements(game: Game) -> list[Candidate]:
    """legal_placements as it was: each generator move made a Move object, then a Candidate."""
    moves, counts = move_list(game)
    if game.over or game.pending_ends_game:
        return []
    cands = candidates_from(list(moves), counts, game.rules.bingo_min_tiles, game.rules.tile_set)
    cands.sort(key=lambda c: -c.score)
    return cands


def _plain_legal_moves(game: Game) -> list[Evaluation]:
    """Game.legal_moves as it was: Game.evaluate of each placement."""
    moves = [game.evaluate(c.move) for c in _plain_placements(game)]
    moves.sort(key=lambda e: (-e.score, game.format(e.move)))
    return moves


def _same_as_plain(game: Game) -> int:
    placements = legal_placements(game)
    assert placements == _plain_placements(game), game.board.rows_text()
    assert legal_placements(game.view(game.to_move), lexicon=game.lexicon) == placements
    moves = game.legal_moves()
    assert moves == _plain_legal_moves(game), game.board.rows_text()
    return len(moves)


def test_quick_legal_moves_are_the_plain_ones_on_the_shared_positions(shared_dir: Path) -> None:
    """legal_placements (12 ms a position) and legal_moves (19-25 ms) made a Move object of each
    generated move and scored each placement again with Game.evaluate; they read the generator's
    arrays and score from tables of the board (scoring.evaluate_many). The same candidates and
    evaluations, in the same order, on half the positions with a blank on the rack and one in
    25 of all."""
    from qiza import positions

    read = positions.load(shared_dir / "movegen" / "positions.txt")
    blanks = [p for p in read if "?" in p.racks[0]]
    chosen = blanks[::2] + read[::25]
    assert len(blanks) >= 40
    listed = sum(_same_as_plain(p.to_game(lexicon=LEX)) for p in chosen)
    assert listed > 10_000


@pytest.mark.parametrize("preset", ["classic", "super"])
def test_quick_legal_moves_are_the_plain_ones_through_games(preset: str) -> None:
    """Every position of two games played with moves chosen at random among the legal ones (the
    Super board's 21x21 and its tile set; the blanks drawn along the way)."""
    for seed in (1, 2):
        game = Game(find_preset(preset), lexicon=LEX, seed=seed)
        rng = random.Random(seed)
        while not game.over and len(game.history) < 40:
            moves = game.legal_moves() if _same_as_plain(game) else []
            game.play(rng.choice(moves[:30]).move if moves else "pass")


def test_quick_legal_moves_are_the_plain_ones_with_multi_letter_tiles() -> None:
    """Spanish tiles (CH, LL, RR, Ñ): labels of two letters, in brackets in a move."""
    from language_words import SPANISH_WORDS

    from qiza.alphabet import SPANISH
    from qiza.lexicon import Lexicon

    lexicon = Lexicon("ES", SPANISH_WORDS, tile_set=SPANISH)
    written: set[str] = set()
    for seed in range(1, 9):
        game = Game(find_preset("classic"), lexicon=lexicon, seed=seed)
        while not game.over and len(game.history) < 12:
            moves = game.legal_moves() if _same_as_plain(game) else []
            written.update(game.format(m.move) for m in moves)
            game.play(moves[len(moves) // 2].move if moves else "pass")
    assert any("[" in move for move in written), sorted(written)


def test_evaluate_many_gives_what_evaluate_gives_or_raises_it(make_game: GameFactory) -> None:
    """What the quick path does not take (a single tile, a part of a line, an illegal placement)
    goes to evaluate: the same evaluation, or the same error."""
    from qiza.errors import IllegalMoveError
    from qiza.scoring import evaluate, evaluate_many

    game = make_game(racks={0: "QATEEEE", 1: "SXZEEEE"})
    game.play("H8 QAT")
    board, rules = game.board, game.rules
    def placement(text: str) -> Move:  # parts of a line too, read as placements (not as typed words)
        return parse_move(text, rules.notation, board, whole_word=False)

    for text in ("9I E", "I9 EE", "7H E", "G8 E...", "H9 E", "I7 ZE", "7I E.E", "6H EE"):
        place = placement(text)
        assert isinstance(place, Place)
        assert evaluate_many(board, [place], rules) == [evaluate(board, place, rules)], text
    for text in ("A1 EE", "9G EE", "J7 E.E", "H7 E."):
        place = placement(text)
        assert isinstance(place, Place)
        with pytest.raises(IllegalMoveError) as plain:
            evaluate(board, place, rules)
        with pytest.raises(IllegalMoveError, match=re.escape(str(plain.value))):
            evaluate_many(board, [place], rules)


def test_legal_moves_take_the_quick_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither makes a Move object of each generated move (MoveList.__getitem__) nor scores each
    placement again through Game.evaluate: two thirds of legal_moves' time and half of
    legal_placements' went there (CPU a position, 120 shared positions of 409 moves on average:
    legal_moves 18.4-19.4 ms before, 6.7-8.0 after; legal_placements 6.9-7.3 ms before, 2.4-2.7 after)."""
    from qiza.movegen import MoveList

    game = Game(find_preset("classic"), lexicon=LEX, seed=1)
    game.play(game.legal_moves()[0].move)
    expected = (legal_placements(game), game.legal_moves())

    def refused(*args: object) -> None:
        raise AssertionError("the slow path")

    monkeypatch.setattr(MoveList, "__getitem__", refused)
    monkeypatch.setattr(Game, "evaluate", refused)
    assert (legal_placements(game), game.legal_moves()) == expected and expected[0]
