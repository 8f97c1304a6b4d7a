"""The static player's compiled decision (best-only search over a value per sub-leave) makes
the same choice as its full evaluation of every placement."""

from __future__ import annotations

import numpy as np
import pytest

from qiza.analysis import board_array, rack_counts
from qiza.game import Game
from qiza.lexicon import Lexicon, load_lexicon
from qiza.move import Exchange, Place
from qiza.movegen_py import PyMoveGenerator
from qiza.players.engine import StaticPlayer, leave_codes, leave_equities
from qiza.rules import CLASSIC


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return load_lexicon("twl06")


def _equity_of(player: StaticPlayer, view, move) -> float:  # type: ignore[no-untyped-def]
    """The full evaluation's equity of a move (a placement or an exchange)."""
    ev = player.evaluate(view)
    if isinstance(move, Exchange):
        for option in player.exchange_options(view, ev.rack):
            if isinstance(option.move, Exchange) and sorted(option.move.tiles) == sorted(move.tiles):
                return option.equity
        raise AssertionError(f"{move} is not an exchange option")
    assert isinstance(move, Place)
    for option in player.ranked(view, with_exchanges=False):
        if option.move == move:
            return option.equity
    raise AssertionError(f"{move} is not a placement")


def test_compiled_decision_equals_the_full_evaluation(lexicon: Lexicon) -> None:
    player = StaticPlayer(lexicon, seed=0)
    checked = 0
    for seed in range(4):
        game = Game(CLASSIC, lexicon=lexicon, seed=seed)
        while not game.over and len(game.history) < 60:
            view = game.view(game.to_move)
            full = player._decide(player.evaluate(view), view.bag_count, view.rules)
            if not view.board.is_empty():
                fast = player._decide_compiled(view)
                if type(fast) is not type(full) or fast != full:  # a tie: the same equity
                    if isinstance(full, (Place, Exchange)):
                        assert _equity_of(player, view, fast) == pytest.approx(_equity_of(player, view, full), abs=2e-3)
                checked += 1
            game.play(full)
            if game.can_challenge:
                game.accept()
    assert checked > 60


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
            want = (ml.score + np.round(values * 1000)[leave_codes(ml, leaves)] / 1000).max()
            assert found is not None and found.equity == pytest.approx(want, abs=1e-9)
            if len(ml) < 400:
                other = slow.best(board, rack, sub_leaves=(leaves.radix, values, leaves.sizes))
                assert other is not None and other.equity == pytest.approx(want, abs=1e-9)
        else:
            assert found is None
        game.play(player.choose(view))
        if game.can_challenge:
            game.accept()
        if game.over:
            break
    with pytest.raises(ValueError, match="sub_leaves"):
        gen.best(board, rack, sub_leaves=(leaves.radix, values[:-1], leaves.sizes[:-1]))
