"""Moves and their notation: both conventions, direction words, blanks, played-through letters."""

from __future__ import annotations

import pytest
from conftest import board_rows
from hypothesis import given, settings
from hypothesis import strategies as st

from qiza.board import Board
from qiza.errors import MoveSyntaxError
from qiza.move import (
    Challenge,
    Direction,
    Exchange,
    Pass,
    Place,
    format_coordinate,
    format_move,
    parse_coordinate,
    parse_move,
)
from qiza.rules import Notation

RB, TN = Notation.RULEBOOK, Notation.TOURNAMENT
ACROSS, DOWN = Direction.ACROSS, Direction.DOWN


@pytest.mark.parametrize(("text", "notation", "expected"), [
    ("H8", RB, (7, 7, ACROSS)), ("8H", RB, (7, 7, DOWN)),
    ("H8", TN, (7, 7, DOWN)), ("8H", TN, (7, 7, ACROSS)),
    ("A1", RB, (0, 0, ACROSS)), ("1A", RB, (0, 0, DOWN)),
    ("o15", RB, (14, 14, ACROSS)), ("15o", TN, (14, 14, ACROSS)),
])
def test_coordinates_in_both_notations(text: str, notation: Notation, expected: tuple[int, int, Direction]) -> None:
    assert parse_coordinate(text, notation) == expected
    row, col, direction = expected
    assert format_coordinate(row, col, direction, notation).upper() == text.upper()


@pytest.mark.parametrize("notation", [RB, TN])
@pytest.mark.parametrize(("text", "direction"), [
    ("H8 across QAT", ACROSS), ("8H across QAT", ACROSS), ("H8 down QAT", DOWN), ("8H down QAT", DOWN),
    ("H8 a QAT", ACROSS), ("H8 d QAT", DOWN), ("h8 DOWN QAT", DOWN),
])
def test_direction_words_in_either_notation(notation: Notation, text: str, direction: Direction) -> None:
    assert parse_move(text, notation) == Place(7, 7, direction, "QAT")


def test_rule_book_example_coordinates() -> None:
    """Seed 000: 'A1' is across from the top-left square, '1A' is down from it."""
    assert parse_move("A1 CAT", RB) == Place(0, 0, ACROSS, "CAT")
    assert parse_move("1A CAT", RB) == Place(0, 0, DOWN, "CAT")
    assert parse_move("A1 CAT", TN) == Place(0, 0, DOWN, "CAT")


def test_other_moves() -> None:
    for notation in (RB, TN):
        assert parse_move("pass", notation) == Pass()
        assert parse_move("PASS", notation) == Pass()
        assert parse_move("challenge", notation) == Challenge()
        assert parse_move("exchange qu?", notation) == Exchange("QU?")
        assert parse_move("-ABC", notation) == Exchange("ABC")
        # the tiles typed apart, as a new player may: 'exchange Q U ?' (was "'exchange' is not a coordinate")
        assert parse_move("exchange Q U ?", notation) == Exchange("QU?")
        assert parse_move("swap\tq u", notation) == Exchange("QU")
        for move in (Pass(), Challenge(), Exchange("QU?")):
            assert parse_move(format_move(move, notation), notation) == move


def test_blanks_are_lower_case() -> None:
    move = parse_move("H8 QaT", RB)
    assert move == Place(7, 7, ACROSS, "QaT")
    assert isinstance(move, Place) and move.tiles() == "Q?T"
    assert format_move(move, RB) == "H8 QaT"
    assert format_move(move, TN) == "8H QaT"


def test_played_through_letters_three_ways() -> None:
    board = Board.from_rows(board_rows(("H8", "QAT")))
    expected = Place(7, 7, ACROSS, "...S")
    assert parse_move("H8 QATS", RB, board) == expected  # written out
    assert parse_move("H8 (QAT)S", RB, board) == expected  # in parentheses
    assert parse_move("H8 ...S", RB, board) == expected  # as dots
    assert parse_move("H8 ...S", RB) == expected  # dots need no board
    assert parse_move("8H (QAT)S", TN, board) == expected
    # a played-through blank is written with its letter
    board = Board.from_rows(board_rows(("H8", "qAT")))
    assert parse_move("H8 (QAT)S", RB, board) == expected
    assert format_move(expected, RB, board) == "H8 (qAT)S"
    # through the middle
    board = Board.from_rows(board_rows(("8H", "A")))
    assert parse_move("G8 T(A)O", RB, board) == Place(7, 6, ACROSS, "T.O")
    assert format_move(Place(7, 6, ACROSS, "T.O"), RB, board) == "G8 T(A)O"
    assert format_move(Place(7, 6, ACROSS, "T.O"), RB, board, parens=False) == "G8 TAO"
    assert format_move(Place(7, 6, ACROSS, "T.O"), RB) == "G8 T.O"


def test_written_out_letters_are_checked_against_the_board() -> None:
    board = Board.from_rows(board_rows(("H8", "QAT")))
    with pytest.raises(MoveSyntaxError, match="square H8 already holds Q, not Z"):
        parse_move("H8 ZATS", RB, board)
    with pytest.raises(MoveSyntaxError, match="holds Q, not Z"):
        parse_move("H8 (ZAT)S", RB, board)


def test_a_typed_word_is_the_whole_word_formed() -> None:
    """'Z(E)D' typed where the next square holds C was played as ZEDC, a word the player never
    wrote. The notation (as GCG's and Quackle's) names the whole word formed, the letters on the
    board in parentheses or as '.': a word that stops short of a tile at either end is refused,
    naming the word formed and how to type it."""
    board = Board.from_rows(board_rows(("H8", "E"), ("J8", "C")))
    with pytest.raises(MoveSyntaxError, match=r"the word formed is ZEDC: type G8 Z\(E\)D\(C\)"):
        parse_move("G8 Z(E)D", RB, board)
    with pytest.raises(MoveSyntaxError, match=r"the word formed is ZEDC: type 8G Z\(E\)D\(C\)"):
        parse_move("8G Z.D", TN, board)
    with pytest.raises(MoveSyntaxError, match=r"the word formed is EDC: type H8 \(E\)D\(C\)"):
        parse_move("I8 D", RB, board)  # short of a tile at both ends
    with pytest.raises(MoveSyntaxError, match=r"the word formed is QATS: type H8 \(QAT\)S"):
        parse_move("K8 S", RB, Board.from_rows(board_rows(("H8", "QAT"))))
    assert parse_move("G8 Z(E)D(C)", RB, board) == Place(7, 6, ACROSS, "Z.D.")
    assert parse_move("G8 ZEDC", RB, board) == Place(7, 6, ACROSS, "Z.D.")
    assert parse_move("G8 Z.D", RB) == Place(7, 6, ACROSS, "Z.D")  # without a board nothing to check
    # a reader of records written before (a saved game's actions) still takes the short form
    assert parse_move("G8 Z(E)D", RB, board, whole_word=False) == Place(7, 6, ACROSS, "Z.D")


def test_a_placement_short_of_a_tile_is_written_as_the_whole_word() -> None:
    """format_move (Game.format) wrote a placement a program built short of a tile on the board
    as it was given ('I8 D' for the D of EDC), which parse_move then refused: with a board it
    writes the whole word formed, which reads back as the whole word; a placement already on the
    board reads as it was played, not with the letters added to its line since."""
    board = Board.from_rows(board_rows(("H8", "E"), ("J8", "C")))
    short = Place(7, 8, ACROSS, "D")
    for notation, text in ((RB, "H8 (E)D(C)"), (TN, "8H (E)D(C)")):
        assert format_move(short, notation, board) == text
        assert parse_move(text, notation, board) == Place(7, 7, ACROSS, ".D.")
    assert format_move(short, RB) == "I8 D"  # without a board nothing to take in
    played = Board.from_rows(board_rows(("H8", "EDC")))
    assert format_move(Place(7, 7, ACROSS, "ED"), RB, played) == "H8 ED"


@pytest.mark.parametrize("text", [
    "", "H8", "H8 QAT extra", "H8 Q(AT", "H8 QA)T", "H8 ((Q))", "H8 Q-T", "ZZ QAT", "H8 ()", "exchange",
    "H8 sideways QAT",
])
def test_bad_move_text(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        parse_move(text, RB)


letters = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.", min_size=1, max_size=15)


@settings(max_examples=200, deadline=None)
@given(row=st.integers(0, 14), col=st.integers(0, 14), down=st.booleans(), word=letters,
       notation=st.sampled_from([RB, TN]))
def test_print_then_parse_gives_the_same_move(row: int, col: int, down: bool, word: str,
                                             notation: Notation) -> None:
    move = Place(row, col, DOWN if down else ACROSS, word)
    assert parse_move(format_move(move, notation), notation) == move


@settings(max_examples=100, deadline=None)
@given(data=st.data(), notation=st.sampled_from([RB, TN]), parens=st.booleans())
def test_print_then_parse_with_played_through_letters(data: st.DataObject, notation: Notation,
                                                      parens: bool) -> None:
    """Letters already on the board, printed in parentheses or written out, read back as '.'."""
    length = data.draw(st.integers(2, 8))
    row = data.draw(st.integers(0, 14))
    col = data.draw(st.integers(0, 15 - length))
    on_board = data.draw(st.lists(st.booleans(), min_size=length, max_size=length))
    chars = data.draw(st.lists(st.sampled_from("ABCXYZqu"), min_size=length, max_size=length))
    grid = [["."] * 15 for _ in range(15)]
    word = []
    for i, (occupied, ch) in enumerate(zip(on_board, chars)):
        if occupied:
            grid[row][col + i] = ch
            word.append(".")
        else:
            word.append(ch)
    board = Board.from_rows(["".join(r) for r in grid])
    move = Place(row, col, ACROSS, "".join(word))
    assert parse_move(format_move(move, notation, board, parens=parens), notation, board) == move


def test_a_notation_given_by_name_is_read_as_that_notation() -> None:
    """parse_move('H8 QI', 'rulebook') read H8 down: a name was taken as 'not the rule book's'."""
    from qiza.errors import MoveSyntaxError
    from qiza.move import Direction, format_move, parse_move

    assert parse_move("H8 QI", "rulebook").direction is Direction.ACROSS  # type: ignore[union-attr]
    assert parse_move("8H QI", "Tournament").direction is Direction.ACROSS  # type: ignore[union-attr]
    assert format_move(parse_move("H8 QI", "rulebook"), "tournament") == "8H QI"
    with pytest.raises(MoveSyntaxError, match="unknown notation 'gcg'"):
        parse_move("pass", "gcg")
    with pytest.raises(TypeError, match="a notation is a Notation"):
        format_move(parse_move("H8 QI", "rulebook"), 1)  # type: ignore[arg-type]


def test_an_exchange_of_the_same_tiles_is_the_same_move_whatever_their_order() -> None:
    """Exchange("UQ") != Exchange("QU"), and a set of a player's candidate moves held both: the
    tiles are a multiset (a label of several characters is one tile); the text is kept as given."""
    assert Exchange("UQ") == Exchange("QU") == Exchange("qu") and hash(Exchange("UQ")) == hash(Exchange("qu"))
    assert len({Exchange("AE?"), Exchange("?EA"), Exchange("EA?")}) == 1
    assert Exchange("AE") != Exchange("AEE") and Exchange("[CH]A") == Exchange("A[CH]") != Exchange("ACH")
    assert Exchange("UQ").tiles == "UQ" and repr(Exchange("UQ")) == "Exchange(tiles='UQ')"
    assert Exchange("QU") != Pass() and Exchange("") != Pass()


def test_the_repr_of_a_placement_is_the_code_that_makes_it() -> None:
    """repr(Place) read 'Place(row=7, col=7, direction=<Direction.ACROSS: 0>, word='QI')', which
    is no Python: a move printed in a log or a test could not be pasted back."""
    import qiza

    for move in (Place(7, 7, Direction.ACROSS, "QI"), Place(0, 14, Direction.DOWN, "q.I"), Exchange("QU"), Pass()):
        assert eval(repr(move), vars(qiza)) == move
    assert repr(Direction.DOWN) == "Direction.DOWN" and str(Direction.DOWN.value) == "1"
