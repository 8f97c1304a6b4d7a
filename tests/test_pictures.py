"""Text and SVG pictures of the board, compared with golden files.

Set ``QIZA_UPDATE_GOLDEN=1`` to rewrite the golden files after an intended change.
"""

from __future__ import annotations

import os
import xml.dom.minidom
from pathlib import Path

import pytest

from qiza.board import Board
from qiza.game import Game
from qiza.rules import COMPUTER
from qiza.svg import board_svg, game_svg
from qiza.text import board_text, score_sheet

GOLDEN = Path(__file__).parent / "golden"


def _golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("QIZA_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}: run with QIZA_UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8"), f"{name} differs from the golden file"


@pytest.fixture()
def game() -> Game:
    game = Game(COMPUTER, players=["Ann", "Bob"], seed=11, lexicon="enable")
    game.set_rack(0, "AEINRST")
    game.play("H8 RETINAS")
    game.set_rack(1, "?ABCDEF")
    game.play("6I aB(E)D")  # rule-book notation: row first reads down; a blank as A
    game.accept()
    return game


def test_text_golden(game: Game) -> None:
    text = board_text(game.board, last=game.last_play(), legend=True)
    _golden("board.txt", text + "\n")
    assert "a<" in text.splitlines()[6]  # the blank is lower case


def test_the_super_boards_text_key_names_its_quadruple_squares() -> None:
    """The key under a board's text named the triple and double squares only: the Super board's
    quadruple squares (``~`` and ``^``) were explained nowhere. The classic board's key is as it was."""
    from qiza.rules import find_preset
    from qiza.text import LEGEND, QUADRUPLE_LEGEND

    text = board_text(Game(find_preset("super"), players=["Ann", "Bob"], seed=1, lexicon="enable").board, legend=True)
    assert "~" in text and "^" in text and text.splitlines()[-2:] == [LEGEND, QUADRUPLE_LEGEND]
    classic = board_text(Game(COMPUTER, players=["Ann", "Bob"], seed=1, lexicon="enable").board, legend=True)
    assert classic.splitlines()[-1] == LEGEND and "quadruple" not in classic

def test_score_sheet_golden(game: Game) -> None:
    _golden("score_sheet.txt", score_sheet(game) + "\n")


def test_svg_golden(game: Game) -> None:
    svg = game_svg(game)
    _golden("board.svg", svg)
    document = xml.dom.minidom.parseString(svg)
    texts = [t.firstChild.data for t in document.getElementsByTagName("text")
             if isinstance(t.firstChild, xml.dom.minidom.Text)]
    assert "A" in texts and "O" in texts and "15" in texts  # coordinates
    last = [r for r in document.getElementsByTagName("rect") if r.getAttribute("class") == "last"]
    assert len(last) == 3  # the tiles of the last play are highlighted
    assert len(document.getElementsByTagName("circle")) == 1  # one blank on the board
    fills = {r.getAttribute("fill") for r in document.getElementsByTagName("rect")}
    assert {"#e0554f", "#f4b8b0", "#3a7bd5", "#b8d8f0"} <= fills  # premium colours


def test_empty_board_pictures() -> None:
    board = Board()
    _golden("empty.txt", board_text(board) + "\n")
    svg = board._repr_svg_()
    assert svg == board_svg(board)
    xml.dom.minidom.parseString(svg)


def test_game_repr_svg(game: Game) -> None:
    assert game._repr_svg_() == game_svg(game)
