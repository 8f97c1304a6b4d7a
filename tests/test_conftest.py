"""Tests of the shared fixtures of ``conftest.py``."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import GameFactory

from qiza.alphabet import BLANK_FLAG
from qiza.game import Game


def _tiles(game: Game) -> Counter[int]:
    """Every tile of the game: bag, racks and board (a blank on the board counted as a blank)."""
    board = [0 if t & BLANK_FLAG else t for t in game.board.cells if t]
    return Counter(game.bag) + sum((Counter(rack) for rack in game.racks), Counter()) + Counter(board)


def test_make_game_takes_board_tiles_held_by_a_rack_once(make_game: GameFactory) -> None:
    dealt = make_game()
    letter = next(t for t in dealt.racks[0] if t)  # a letter seat 0 holds
    copies = _tiles(dealt)[letter]  # every copy of it goes on the board: some come from the rack
    label = dealt.rules.tile_set.text([letter])
    rows = ["." * 15] * 7 + [(label * copies).ljust(15, ".")] + ["." * 15] * 7

    game = make_game(rows=rows)

    assert _tiles(game) == _tiles(dealt)  # no tile taken twice, none made
    assert all(letter not in rack for rack in game.racks) and letter not in game.bag
    assert [len(rack) for rack in game.racks] == [len(rack) for rack in dealt.racks]
    assert game.board.cells.count(letter) == copies


def test_make_game_refuses_more_board_tiles_than_the_game_has(make_game: GameFactory) -> None:
    with pytest.raises(ValueError, match="more Z tiles than the game has"):
        make_game(rows=["." * 15] * 7 + ["ZZ" + "." * 13] + ["." * 15] * 7)
