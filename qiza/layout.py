"""Board layouts: size, premium squares and the starting square.

Squares are ints ``row * size + col`` with row and column counted from 0 at the
top-left. Names are the column letter then the row number (``H8``); which of
``H8`` / ``8H`` means across is a question of notation (see :mod:`qiza.move`).
"""

from __future__ import annotations

import enum
import string
from dataclasses import dataclass

from qiza.errors import QizaError, quoted

__all__ = ["Premium", "Layout", "STANDARD", "SUPER", "LAYOUTS", "find_layout"]


class Premium(enum.IntEnum):
    """What a square does to a tile placed on it that turn."""

    NONE = 0
    DL = 1
    TL = 2
    DW = 3
    TW = 4
    QL = 5
    QW = 6

    @property
    def letter_multiplier(self) -> int:
        """What the square multiplies the letter on it by (1, or 2 to 4 on a letter premium)."""
        return {Premium.DL: 2, Premium.TL: 3, Premium.QL: 4}.get(self, 1)

    @property
    def word_multiplier(self) -> int:
        """What the square multiplies a word through it by (1, or 2 to 4 on a word premium)."""
        return {Premium.DW: 2, Premium.TW: 3, Premium.QW: 4}.get(self, 1)


_CODES = {".": Premium.NONE, "d": Premium.DL, "t": Premium.TL, "q": Premium.QL,
          "D": Premium.DW, "T": Premium.TW, "Q": Premium.QW, "*": Premium.DW}


@dataclass(frozen=True)
class Layout:
    """A square board with its premium squares, given as one string per row.

    Row strings use ``.`` plain, ``d``/``t``/``q`` double/triple/quadruple letter,
    ``D``/``T``/``Q`` double/triple/quadruple word and ``*`` for the start square
    (which is a double word, as on the standard board).
    """

    name: str
    rows: tuple[str, ...]

    def __repr__(self) -> str:
        """A registered layout as ``find_layout('standard')``, which gives it back (so that the
        repr of :class:`~qiza.rules.Rules` and ``help()`` of what takes a layout stay readable);
        any other with its rows."""
        if globals().get("LAYOUTS", {}).get(self.name) == self:
            return f"find_layout({self.name!r})"
        return f"{type(self).__name__}(name={self.name!r}, rows={self.rows!r})"

    def __post_init__(self) -> None:
        size = len(self.rows)
        if size > len(string.ascii_uppercase):
            raise QizaError(f"layout {quoted(self.name)}: at most 26 columns")
        for number, row in enumerate(self.rows, start=1):
            if len(row) != size:
                raise QizaError(f"layout {quoted(self.name)}: row {number} has {len(row)} squares, not {size}")
            bad = set(row) - set(_CODES)
            if bad:
                raise QizaError(f"layout {quoted(self.name)}: unknown square code(s) {sorted(bad)}")
        if "".join(self.rows).count("*") != 1:
            raise QizaError(f"layout {quoted(self.name)}: needs exactly one start square '*'")

    @property
    def size(self) -> int:
        """Squares along a side."""
        return len(self.rows)

    @property
    def squares(self) -> range:
        """All square numbers."""
        return range(self.size * self.size)

    @property
    def start(self) -> int:
        """The square the first play must cover (the centre star)."""
        flat = "".join(self.rows)
        return flat.index("*")

    def premium(self, square: int) -> Premium:
        """The premium of a square."""
        row, col = divmod(square, self.size)
        return _CODES[self.rows[row][col]]

    def letter_multipliers(self) -> list[int]:
        """Letter multiplier of every square, in square order."""
        return [self.premium(s).letter_multiplier for s in self.squares]

    def word_multipliers(self) -> list[int]:
        """Word multiplier of every square, in square order."""
        return [self.premium(s).word_multiplier for s in self.squares]

    def square(self, row: int, col: int) -> int:
        """Square number of a row and column (both from 0)."""
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise QizaError(f"row {row + 1}, column {col + 1} is off the {self.size}x{self.size} board")
        return row * self.size + col

    def square_name(self, square: int) -> str:
        """Column letter and row number, e.g. ``H8``; :class:`~qiza.errors.QizaError` for a
        square off the board."""
        if not 0 <= square < self.size * self.size:
            raise QizaError(f"square {square} is not on the {self.size}x{self.size} board "
                            f"(0 to {self.size * self.size - 1})")
        row, col = divmod(square, self.size)
        return f"{string.ascii_uppercase[col]}{row + 1}"

    def parse_square(self, name: str) -> int:
        """Inverse of :meth:`square_name` (column letter first, case-insensitive, in ASCII):
        :class:`~qiza.errors.QizaError` for a name of no square, :class:`TypeError` for what is
        not a text."""
        if not isinstance(name, str):
            raise TypeError(f"a square's name is a text like 'H8', not {quoted(name)}")
        text = name.strip().upper()
        if len(text) < 2 or not text.isascii() or not text[0].isalpha() or not text[1:].isdigit():
            raise QizaError(f"{quoted(name)} is not a square name like H8")
        return self.square(int(text[1:]) - 1, ord(text[0]) - ord("A"))

    def count(self, premium: Premium) -> int:
        """How many squares have a premium (the start square counts as DW)."""
        return sum(1 for s in self.squares if self.premium(s) is premium)


def _mirror(top_half: list[str]) -> tuple[str, ...]:
    """Complete a layout from its top half plus middle row (rows mirror below the middle)."""
    return tuple(top_half + top_half[-2::-1])


STANDARD = Layout("standard", _mirror([
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...*...d..T",
]))
"""The standard 15x15 board."""

SUPER = Layout("super", _mirror([
    "Q..d......T......d..Q",
    ".D..t.....D.....t..D.",
    "..D..q...d.d...q..D..",
    "d..T...d.....d...T..d",
    ".t..D...t...t...D..t.",
    "..q..D...d.d...D..q..",
    "....d.D...T...D.d....",
    "...d...D.....D...d...",
    "..t.....t...t.....t..",
    ".d...d...D.D...d...d.",
    "T....t...d*d...t....T",
]))
"""A 21x21 board in the style of Super Scrabble, with quadruple squares in the corners.

``qiza.SUPER`` (top level) is this board layout; the Super tile set is :data:`qiza.alphabet.SUPER`."""

LAYOUTS: dict[str, Layout] = {layout.name: layout for layout in (STANDARD, SUPER)}


def find_layout(name: str) -> Layout:
    """A registered layout by name (``standard``, ``super``; in any case, spaces around it
    ignored): :class:`~qiza.errors.QizaError`
    for an unknown name, :class:`TypeError` for what is not a text."""
    if not isinstance(name, str):
        raise TypeError(f"a layout's name is a text, not {quoted(name)}")
    try:
        return LAYOUTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(LAYOUTS))
        raise QizaError(f"unknown layout {quoted(name)} (known: {known})") from None
