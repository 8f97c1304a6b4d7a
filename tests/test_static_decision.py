"""The static player's compiled decision (best-only search over a value per sub-leave) makes
the same choice as its full evaluation of every placement."""

from __future__ import annotations

import numpy as np
import pytest

from qiza import coldstart
from qiza.analysis import board_array, rack_counts
from qiza.game import Game
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Direction, Place
from qiza.movegen import MoveGenerator
from qiza.movegen_py import PyMoveGenerator
from qiza.players.engine import StaticPlayer, leave_codes, leave_equities, with_bingo_odds
from qiza.rules import CLASSIC
from qiza.ties import in_tie_order


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return load_lexicon("twl06")


def test_compiled_decision_equals_the_full_evaluation(lexicon: Lexicon) -> None:
    """The same move, also between plays of the same equity (the first by tie_order) and between
    plays whose equities differ by less than the thousandth of a point the search rounds to."""
    player = StaticPlayer(lexicon, seed=0)
    checked = 0
    for seed in range(4):
        game = Game(CLASSIC, lexicon=lexicon, seed=seed)
        while not game.over and len(game.history) < 60:
            view = game.view(game.to_move)
            full = player.choose_evaluated(view)
            if not view.board.is_empty():
                assert player._decide_compiled(view) == full
                checked += 1
            game.play(full)
            if game.can_challenge:
                game.accept()
    assert checked > 60


GIG_GAME = ["D8 DITTO", "7E J(I)NGO", "11D SWaNK", "D15 (K)EEVE", "6G QA(T)", "A13 ARB(a)LIST", "8A ARROg(A)TE",
            "4B MIZEN", "G6 (Q)UAY", "1A FLAM", "1B AI", "I5 POX", "exchange II", "3K VE(X)", "2C BI", "G9 SPENDER",
            "6M HEA(R)TIER", "L8 W(A)RE"]
"""The first 18 moves of the game of seed 12 between two ``hard`` players (ENABLE)."""


def test_equities_closer_than_a_thousandth_choose_alike(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The best-only search rounded leave values to thousandths of a point and kept the first
    play it found of the best rounded equity: here (FIUIHGG, 14 tiles in the bag) GIGH, 1.4e-7
    points below GIGU, which the full evaluation plays. Its equity now is the full evaluation's,
    to the last bit, with either move generator."""
    game = Game(CLASSIC, players=["A", "B"], lexicon=enable, seed=12)
    for move in GIG_GAME:
        game.play(move)
        if game.can_challenge:
            game.accept()
    player = StaticPlayer(enable, seed=0)
    view = game.view(game.to_move)
    assert (view.rack, view.bag_count) == ("FIUIHGG", 14)
    ranked = {o.move: o.equity for o in player.ranked(view)}
    gigu, gigh = Place(11, 8, Direction.ACROSS, "GIGU."), Place(11, 8, Direction.ACROSS, "GIGH.")
    assert 0 < ranked[gigu] - ranked[gigh] < 1e-6 and ranked[gigu] == max(ranked.values())
    assert round(ranked[gigu] * 1000) == round(ranked[gigh] * 1000)  # the same in thousandths
    assert player.choose_evaluated(view) == player.choose(view) == gigu
    rack = rack_counts(view.rack)
    leaves = with_bingo_odds(player.leaves.rack_leaves(rack), player.settings, player._odds(CLASSIC))
    sub = (leaves.radix, leave_equities(leaves, player.settings, CLASSIC, view.bag_count, 0.0), leaves.sizes)
    found = player.generator(CLASSIC).best(board_array(view.board), rack, sub_leaves=sub)
    assert found is not None and found.equity == ranked[gigu]  # not 11.816
    monkeypatch.setattr(coldstart, "_fallback", True)  # the Python generator of a fresh install
    assert player.choose(view) == gigu
    assert player.generator(CLASSIC).best(board_array(view.board), rack, sub_leaves=sub) == found


def test_best_with_sub_leaves_is_the_best_equity(lexicon: Lexicon) -> None:
    """gen.best(sub_leaves=...) against every placement's score plus its sub-leave value, also
    for the pure-Python generator."""
    player = StaticPlayer(lexicon, seed=0)
    gen = player.generator(CLASSIC)
    slow = PyMoveGenerator(lexicon.words, key=lexicon.content_hash)
    game = Game(CLASSIC, lexicon=lexicon, seed=11)
    rng = np.random.default_rng(0)
    for _ in range(14):
        view = game.view(game.to_move)
        board, rack = board_array(view.board), rack_counts(view.rack)
        leaves = player.leaves.rack_leaves(rack)
        values = leave_equities(leaves, player.settings, CLASSIC, view.bag_count, 0.0) + rng.normal(0, 5, len(leaves.values))
        ml = gen.generate(board, rack)
        found = gen.best(board, rack, sub_leaves=(leaves.radix, values, leaves.sizes))
        if len(ml):
            want = (ml.score + values[leave_codes(ml, leaves)]).max()  # in floats, as the full evaluation
            assert found is not None and found.equity == want
            if len(ml) < 400:
                other = slow.best(board, rack, sub_leaves=(leaves.radix, values, leaves.sizes))
                assert other == found
        else:
            assert found is None
        game.play(player.choose(view))
        if game.can_challenge:
            game.accept()
        if game.over:
            break
    with pytest.raises(ValueError, match="sub_leaves"):
        gen.best(board, rack, sub_leaves=(leaves.radix, values[:-1], leaves.sizes[:-1]))


def test_without_a_placement_the_best_exchange(enable: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """No placement found by the best-only search: the exchange of the best equity (the first by
    tie_order of a tie), as the full evaluation would choose among the exchanges."""
    player = StaticPlayer(enable, seed=0)
    game = Game(CLASSIC, players=["A", "B"], lexicon=enable, seed=5)
    game.play(player.choose(game.view(game.to_move)))
    view = game.view(game.to_move)
    monkeypatch.setattr(MoveGenerator, "best", lambda *args, **kwargs: None)
    exchanges = in_tie_order(player.exchange_options(view, rack_counts(view.rack)))
    assert len(exchanges) > 100 and player.choose(view) == exchanges[0].move
