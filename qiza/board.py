"""The board: which tile is on which square.

A :class:`Board` knows its layout and tile set and holds one tile code per square
(0 for an empty square; see :mod:`qiza.alphabet`). It knows nothing of scoring
or words: see :mod:`qiza.scoring`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from qiza.alphabet import BLANK_FLAG, ENGLISH, TileSet
from qiza.errors import MoveSyntaxError, QizaError, quoted
from qiza.layout import STANDARD, Layout

__all__ = ["EMPTY", "Board", "row_tiles"]

EMPTY = 0


class Board:
    """A board with tiles on it.

    >>> board = Board()
    >>> board.set(board.layout.parse_square("H8"), ENGLISH.code("Q"))
    >>> board.char_at(board.layout.parse_square("H8"))
    'Q'

    Boards compare equal by their layout, tile set and tiles. A board changes, so it is not
    hashable (as python-chess's boards): one put in a set or used as a dict key and then
    changed would be lost there. To key a position, key a snapshot of it: ``tuple(board)``
    (the tile codes in square order), with ``board.layout.name`` and ``board.tile_set.name``
    when boards of several layouts or tile sets meet, and the rack, scores or player to move
    as the position needs them:

    >>> seen = {tuple(board)}
    >>> tuple(board.copy()) in seen
    True
    >>> hash(board)
    Traceback (most recent call last):
    ...
    TypeError: unhashable type: 'Board'
    """

    __slots__ = ("layout", "tile_set", "cells")

    def __init__(self, layout: Layout = STANDARD, tile_set: TileSet = ENGLISH,
                 cells: Iterable[int] | None = None) -> None:
        if not isinstance(layout, Layout) or not isinstance(tile_set, TileSet):
            raise TypeError(f"a Board takes a Layout and a TileSet (find_layout, find_tile_set), not "
                            f"{layout!r:.40} and {tile_set!r:.40}")
        self.layout = layout
        self.tile_set = tile_set
        self.cells: list[int] = list(cells) if cells is not None else [EMPTY] * (layout.size ** 2)
        if len(self.cells) != layout.size ** 2:
            raise QizaError(f"a {layout.size}x{layout.size} board has {layout.size ** 2} squares, not {len(self.cells)}")

    # -- access ----------------------------------------------------------------
    @property
    def size(self) -> int:
        """Squares a side (15, or 21 for the Super board)."""
        return self.layout.size

    def __getitem__(self, square: int) -> int:
        """Tile code on a square (0 if empty); :class:`IndexError` for a square off the board
        (a negative one too: ``board[-1]`` is no square)."""
        if not 0 <= square < len(self.cells):  # inline: scoring reads every square of every word
            self._check_square(square)
        return self.cells[square]

    def __len__(self) -> int:
        """How many squares the board has (225, or 441 for the Super board)."""
        return len(self.cells)

    def __iter__(self) -> Iterator[int]:
        """The tile code of every square in square order (0 if empty), as ``board[square]`` for
        ``square`` in ``range(len(board))``; :meth:`occupied` gives the squares holding a tile."""
        return iter(self.cells)

    def _check_square(self, square: int) -> None:
        if not 0 <= square < len(self.cells):
            raise IndexError(f"square {square} is not on the {self.size}x{self.size} board "
                             f"(0 to {len(self.cells) - 1})")

    def get(self, row: int, col: int) -> int:
        """Tile code at a row and column (0 if empty or off the board)."""
        if 0 <= row < self.size and 0 <= col < self.size:
            return self.cells[row * self.size + col]
        return EMPTY

    def set(self, square: int, tile: int) -> None:
        """Put a tile code on a square (0 empties it); :class:`IndexError` for a square off the
        board, as ``board[square]`` (``board.set(-1, tile)`` put the tile on the last square)."""
        self._check_square(square)
        self.cells[square] = tile

    def is_empty(self) -> bool:
        """Whether no tile has been played."""
        return not any(self.cells)

    def occupied(self) -> Iterator[int]:
        """Squares that hold a tile."""
        return (s for s, t in enumerate(self.cells) if t)

    def char_at(self, square: int) -> str:
        """The tile on a square as text (lower-case for a blank), ``.`` if empty."""
        tile = self.cells[square]
        return self.tile_set.char(tile) if tile else "."

    def tile_count(self) -> int:
        """How many tiles are on the board."""
        return sum(1 for t in self.cells if t)

    def copy(self) -> Board:
        """An independent copy."""
        return Board(self.layout, self.tile_set, self.cells)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Board) and self.layout == other.layout
                and self.tile_set == other.tile_set and self.cells == other.cells)

    __hash__ = None  # type: ignore[assignment]  # mutable: see the class's docstring

    # -- text ------------------------------------------------------------------
    def rows_text(self) -> list[str]:
        """One string per row: letters, lower-case blanks, ``.`` for empty squares.

        A tile whose label has several characters is written in brackets (``[CH]``), so
        :meth:`from_rows` reads the rows back."""
        n = self.size
        return ["".join(self.tile_set.tile_text(t) if (t := self.cells[r * n + c]) else "."
                        for c in range(n)) for r in range(n)]

    def __str__(self) -> str:
        return "\n".join(self.rows_text())

    def __repr__(self) -> str:
        return f"Board.from_rows({self.rows_text()!r})"

    def _repr_svg_(self) -> str:
        """The board as SVG (pictures in notebooks); see :mod:`qiza.svg`."""
        from qiza.svg import board_svg

        return board_svg(self)

    @classmethod
    def from_rows(cls, rows: Iterable[str], layout: Layout = STANDARD,
                  tile_set: TileSet = ENGLISH) -> Board:
        """A board from row strings (``A-Z`` tile, ``a-z`` blank, ``.`` or space empty).

        Raises :class:`~qiza.errors.MoveSyntaxError` naming the row for anything else (``?``
        included: a blank on the board is the letter it stands for, in lower case), and
        :class:`TypeError` for rows that are not texts."""
        texts = list(rows) if not isinstance(rows, (str, bytes)) else [rows]
        if isinstance(rows, (str, bytes)) or not all(isinstance(line, str) for line in texts):
            raise TypeError(f"a board's rows are a list of texts, one a row, not {rows!r:.60}")
        lines = [line.rstrip("\n") for line in texts]
        if len(lines) != layout.size:
            raise MoveSyntaxError(f"a board needs {layout.size} rows, got {len(lines)}")
        cells: list[int] = []
        for number, line in enumerate(lines, start=1):
            try:
                row = row_tiles(line, tile_set)
            except MoveSyntaxError as exc:
                raise MoveSyntaxError(f"board row {number}: {exc}") from None
            if len(row) != layout.size:
                raise MoveSyntaxError(f"board row {number} has {len(row)} squares, not {layout.size}: {quoted(line)}")
            cells.extend(row)
        return cls(layout, tile_set, cells)

    def blank_squares(self) -> list[int]:
        """Squares holding a blank."""
        return [s for s, t in enumerate(self.cells) if t & BLANK_FLAG]


def row_tiles(line: str, tile_set: TileSet = ENGLISH) -> list[int]:
    """The squares of one board row's text, as :meth:`Board.from_rows` reads each row: a tile
    code for a tile (``A-Z``, ``a-z`` a blank, ``[label]`` a tile of several letters),
    :data:`EMPTY` for ``.`` or a space. Raises :class:`~qiza.errors.MoveSyntaxError` for
    anything else (``?`` included: a blank on the board is written as the letter it stands for).

    >>> row_tiles("..Qi")
    [0, 0, 17, 73]
    """
    row: list[int] = []
    for char in _row_cells(line):
        if char in ". ":
            row.append(EMPTY)
            continue
        try:
            tile = tile_set.code(char)
        except ValueError as exc:
            raise MoveSyntaxError(str(exc)) from None
        if tile == EMPTY:  # '?': the blank's code, which on a square is no tile
            raise MoveSyntaxError(f"{quoted(char)}: a blank on the board is written as the lower-case letter it "
                                  "stands for")
        row.append(tile)
    return row


def _row_cells(line: str) -> list[str]:
    """A board row's squares: ``[label]`` groups are one square, any other character one."""
    out: list[str] = []
    i = 0
    while i < len(line):
        end = line.find("]", i) + 1 if line[i] == "[" else 0
        if end <= 0:
            end = i + 1
        out.append(line[i:end])
        i = end
    return out
