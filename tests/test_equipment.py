"""Equipment as data: the standard board and tile set of RULES.md, the Super board, French tiles."""

from __future__ import annotations

import dataclasses

import pytest

from qiza import Game
from qiza.alphabet import BLANK, ENGLISH, FRENCH, TileSet, find_tile_set
from qiza.board import Board
from qiza.errors import IllegalMoveError, QizaError
from qiza.layout import STANDARD, SUPER, Layout, Premium, find_layout
from qiza.rules import CLASSIC

# RULES.md, rows 1..8 (rows 9..15 mirror rows 7..1)
PREMIUMS = {
    1: {"TW": "AOH", "DW": "", "TL": "", "DL": "DL"},
    2: {"TW": "", "DW": "BN", "TL": "FJ", "DL": ""},
    3: {"TW": "", "DW": "CM", "TL": "", "DL": "GI"},
    4: {"TW": "", "DW": "DL", "TL": "", "DL": "AHO"},
    5: {"TW": "", "DW": "EK", "TL": "", "DL": ""},
    6: {"TW": "", "DW": "", "TL": "BFJN", "DL": ""},
    7: {"TW": "", "DW": "", "TL": "", "DL": "CGIM"},
    8: {"TW": "AO", "DW": "H", "TL": "", "DL": "DL"},
}


def test_standard_board_matches_the_rules_table() -> None:
    assert STANDARD.size == 15
    for row in range(1, 16):
        table = PREMIUMS[row if row <= 8 else 16 - row]
        for col in "ABCDEFGHIJKLMNO":
            square = STANDARD.parse_square(f"{col}{row}")
            expected = next((Premium[name] for name, cols in table.items() if col in cols), Premium.NONE)
            assert STANDARD.premium(square) is expected, f"{col}{row}"


def test_standard_board_counts_and_symmetry() -> None:
    assert STANDARD.count(Premium.TW) == 8
    assert STANDARD.count(Premium.DW) == 17
    assert STANDARD.count(Premium.TL) == 12
    assert STANDARD.count(Premium.DL) == 24
    assert STANDARD.square_name(STANDARD.start) == "H8"
    n = STANDARD.size
    for r in range(n):
        for c in range(n):
            p = STANDARD.premium(r * n + c)
            assert p is STANDARD.premium(c * n + r) is STANDARD.premium((n - 1 - r) * n + c)


def test_standard_tile_set() -> None:
    table = ("A 9 1,B 2 3,C 2 3,D 4 2,E 12 1,F 2 4,G 3 2,H 2 4,I 9 1,J 1 8,K 1 5,L 4 1,M 2 3,"
             "N 6 1,O 8 1,P 2 3,Q 1 10,R 6 1,S 4 1,T 6 1,U 4 1,V 2 4,W 2 4,X 1 8,Y 2 4,Z 1 10")
    for entry in table.split(","):
        letter, count, value = entry.split()
        i = ENGLISH.letters.index(letter)
        assert (ENGLISH.counts[i], ENGLISH.values[i]) == (int(count), int(value))
    assert ENGLISH.blanks == 2 and ENGLISH.total == 100 and len(ENGLISH.full_bag()) == 100
    assert ENGLISH.full_bag().count(BLANK) == 2
    assert ENGLISH.value(BLANK) == 0
    assert ENGLISH.text(ENGLISH.codes("Qa?")) == "Qa?"
    with pytest.raises(ValueError, match="not a letter"):
        ENGLISH.code("É")


def test_french_tile_set() -> None:
    french = find_tile_set("french")
    assert french is FRENCH and french.total == 102 and sum(french.counts) == 100
    expect = {"A": (9, 1), "E": (15, 1), "K": (1, 10), "W": (1, 10), "X": (1, 10), "Y": (1, 10),
              "Z": (1, 10), "Q": (1, 8), "J": (1, 8), "M": (3, 2), "L": (5, 1), "S": (6, 1), "U": (6, 1)}
    for letter, (count, value) in expect.items():
        i = french.letters.index(letter)
        assert (french.counts[i], french.values[i]) == (count, value), letter


def test_french_game_uses_french_values(enable: object) -> None:
    rules = CLASSIC.with_options(tile_set="french", first_player="fixed", challenge="single")
    game = Game(rules, players=2, seed=3, lexicon=enable)  # type: ignore[arg-type]
    assert game.tile_total() == FRENCH.total
    game.set_rack(0, "KWEEEEE")
    record = game.play("H8 WEK")  # not checked at once; W=10, E=1, K=10 in French
    assert record.score == (10 + 1 + 10) * 2


def test_super_board(enable: object) -> None:
    assert find_layout("super") is SUPER
    assert SUPER.size == 21 and SUPER.square_name(SUPER.start) == "K11"
    assert SUPER.count(Premium.QW) == 4 and SUPER.count(Premium.QL) > 0
    rules = CLASSIC.with_options(layout="super", first_player="fixed")
    game = Game(rules, players=2, seed=1, lexicon=enable)  # type: ignore[arg-type]
    game.set_rack(0, "QATEEEE")
    with pytest.raises(IllegalMoveError, match="centre square K11"):
        game.evaluate("H8 QAT")
    record = game.play("K11 QAT")
    # K11 is the start (DW), L11 a DL
    assert record.score == (10 + 1 * 2 + 1) * 2
    assert len(game.board.rows_text()) == 21
    assert game.board.rows_text()[10][10:13] == "QAT"


def test_layouts_and_tile_sets_plug_in_as_data(enable: object) -> None:
    tiny = Layout("tiny", ("T.d.T", ".D.D.", "d.*.d", ".D.D.", "T.d.T"))
    assert tiny.size == 5 and tiny.square_name(tiny.start) == "C3"
    tiles = TileSet("abc", ("A", "B", "C"), (20, 20, 20), (1, 2, 3), blanks=0)
    assert tiles.total == 60
    board = Board(tiny, tiles)
    assert board.rows_text() == ["....."] * 5
    rules = CLASSIC.with_options(first_player="fixed", challenge="single")
    rules = dataclasses.replace(rules, layout=tiny, tile_set=tiles)
    game = Game(rules, players=2, seed=1, lexicon=enable)  # type: ignore[arg-type]
    assert game.tile_total() == 60
    game.set_rack(0, "CABAAAA")
    assert game.play("B3 CAB").score == (3 + 1 + 2) * 2  # A on the start square C3
    assert game.board.rows_text()[2] == ".CAB."


def test_bad_layouts() -> None:
    with pytest.raises(ValueError, match="row 2 has 2 squares"):
        Layout("bad", ("*..", "..", "..."))
    with pytest.raises(ValueError, match="exactly one start square"):
        Layout("bad", ("...", "...", "..."))
    with pytest.raises(ValueError, match="unknown square code"):
        Layout("bad", ("*..", ".x.", "..."))
    with pytest.raises(ValueError, match="off the 15x15 board"):
        STANDARD.square(15, 0)
    with pytest.raises(ValueError, match="not a square name"):
        STANDARD.parse_square("88")


@pytest.mark.parametrize("name", ["H\u0668", "H\uff18", "\uff28" + "8", "H\u0967\u0968"])
def test_a_square_name_is_written_in_ascii(name: str) -> None:
    """A row in Arabic-Indic or full-width digits was read as that row (int() reads every
    script's digits): 'H٨' was H8; the column letter already had to be ASCII."""
    with pytest.raises(ValueError, match="not a square name"):
        STANDARD.parse_square(name)


def test_a_square_off_the_board_is_an_index_error() -> None:
    """``board[-1]`` read the last square (Python's negative index), ``board[225]`` a bare
    list error: both name the square and the board."""
    board = Board(STANDARD)
    board.set(224, 5)
    assert board[224] == 5 and board[0] == 0
    for square in (-1, 225):
        with pytest.raises(IndexError, match=f"square {square} is not on the 15x15 board"):
            board[square]
    assert board.get(-1, 0) == 0  # get() says off-board squares are empty, as documented


def test_naming_or_filling_a_square_off_the_board_is_refused() -> None:
    """``STANDARD.square_name(999)`` gave 'J67' and ``square_name(-1)`` 'O0'; ``board.set(-1, t)``
    put the tile on the last square: each now names the square and the board."""
    for layout in (STANDARD, SUPER):
        last = layout.size * layout.size - 1
        assert layout.parse_square(layout.square_name(last)) == last
        for square in (-1, last + 1, 999):
            with pytest.raises(QizaError, match=f"square {square} is not on the {layout.size}x{layout.size} board"):
                layout.square_name(square)
    board = Board(STANDARD)
    for square in (-1, 225):
        with pytest.raises(IndexError, match=f"square {square} is not on the 15x15 board"):
            board.set(square, 5)
    assert board.is_empty()


def test_the_repr_of_rules_names_built_in_equipment_and_stays_short() -> None:
    """``repr(CLASSIC)`` (and so ``print(view.rules)`` and ``help(qiza.Game)``, whose signature
    shows the default rules) ran to 1,500 characters of tile counts and premium rows: a built-in
    tile set or layout is shown as the call that gives it back; others keep their fields."""
    import qiza

    assert repr(ENGLISH) == "find_tile_set('english')" and repr(STANDARD) == "find_layout('standard')"
    for value in (*qiza.alphabet.TILE_SETS.values(), STANDARD, SUPER):
        assert eval(repr(value), vars(qiza)) is value
    assert len(repr(CLASSIC)) < 500 and "find_tile_set('english'), layout=find_layout('standard')" in repr(CLASSIC)
    tiny = Layout("tiny", (".....", ".....", "..*..", ".....", "....."))
    assert repr(tiny) == "Layout(name='tiny', rows=('.....', '.....', '..*..', '.....', '.....'))"
    assert eval(repr(tiny), {"Layout": Layout}) == tiny
    mine = dataclasses.replace(ENGLISH, name="mine")
    assert repr(mine).startswith("TileSet(name='mine', letters=('A', 'B',") and "_index" not in repr(mine)
    assert eval(repr(mine), {"TileSet": TileSet}) == mine


def test_a_board_is_a_typed_sequence_of_its_squares_tiles() -> None:
    """``for tile in board`` and ``0 in board`` worked only through Python's old __getitem__
    protocol, which mypy --strict refuses ('Board' is not iterable), and len(board) failed."""
    board = Board.from_rows(["." * 15] * 7 + [".......QI......"] + ["." * 15] * 7)
    tiles: list[int] = list(board)
    assert len(board) == len(tiles) == 225 and tiles == [board[square] for square in range(len(board))]
    assert ENGLISH.code("Q") in board and tiles.count(0) == 223 and bool(Board(STANDARD))
    assert len(Board(SUPER, find_tile_set("super"))) == 441
    assert [square for square, tile in enumerate(board) if tile] == list(board.occupied())
