"""Moves and their notation.

A move is one of :class:`Place` (put tiles on the board), :class:`Exchange`,
:class:`Pass` or :class:`Challenge`. A :class:`Place` is anchored at the first
square of its word and lists every square of the word: a letter for a tile
placed (lower-case for a blank), ``.`` for a tile already on the board.

Two notations name the first square (see :class:`qiza.rules.Notation`):
the rule book's (``H8`` reads across, ``8H`` down) and the tournament's (``8H``
across, ``H8`` down). A direction word (``H8 across WORD``) is read in either.

>>> from qiza.rules import Notation
>>> move = parse_move("H8 QI", Notation.RULEBOOK)
>>> move
Place(row=7, col=7, direction=Direction.ACROSS, word='QI')
>>> format_move(move, Notation.TOURNAMENT)
'8H QI'
"""

from __future__ import annotations

import enum
import numbers
import re
import string
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from qiza.alphabet import how_to_type, nfc
from qiza.errors import MoveSyntaxError, quoted
from qiza.rules import Notation

__all__ = ["Direction", "THROUGH", "Place", "cells", "Exchange", "Pass", "Challenge", "Move", "MAX_MOVE_LENGTH",
           "parse_coordinate", "format_coordinate", "parse_move", "format_word", "format_move"]

if TYPE_CHECKING:
    from qiza.board import Board


class Direction(enum.IntEnum):
    """The way a word reads."""

    ACROSS = 0
    DOWN = 1

    def __repr__(self) -> str:
        """``Direction.ACROSS``, so that the repr of a :class:`Place` (or a scored word) is
        the code that makes it."""
        return f"Direction.{self.name}"

    @property
    def step(self) -> tuple[int, int]:
        """(row, column) step to the next square of a word."""
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> Direction:
        """The crossing direction (``DOWN`` for ``ACROSS``)."""
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


THROUGH = "."
"""Marks a square of a :class:`Place` word that already holds a tile."""


@dataclass(frozen=True)
class Place:
    """Tiles put on the board in one line, starting at (``row``, ``col``), 0-based."""

    row: int
    col: int
    direction: Direction
    word: str

    def __post_init__(self) -> None:
        # a field of the wrong type would otherwise fail deep inside scoring, or pass unnoticed
        for name in ("row", "col"):
            value = getattr(self, name)
            if type(value) is not int:
                if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                    raise TypeError(f"Place {name} must be a whole number (0-based), not {quoted(value)}")
                object.__setattr__(self, name, int(value))
        if type(self.direction) is not Direction:
            if isinstance(self.direction, bool) or self.direction not in (0, 1):
                raise TypeError(f"Place direction must be a Direction, not {quoted(self.direction)}")
            object.__setattr__(self, "direction", Direction(self.direction))
        if not isinstance(self.word, str):
            raise TypeError(f"Place word must be a text, not {quoted(self.word)}")

    def cells(self) -> list[str]:
        """The word square by square: a tile's text (``[CH]`` for a label of several characters) or ``.``."""
        return cells(self.word)

    def squares(self, size: int) -> list[int]:
        """Square numbers of every letter of the word."""
        dr, dc = self.direction.step
        return [(self.row + i * dr) * size + self.col + i * dc for i in range(len(self.cells()))]

    def placed(self, size: int) -> list[tuple[int, str]]:
        """``(square, tile text)`` of each tile put down (not those played through)."""
        return [(sq, ch) for sq, ch in zip(self.squares(size), self.cells()) if ch != THROUGH]

    def tiles(self) -> str:
        """The tiles taken from the rack, as rack text (``?`` for a blank)."""
        return "".join("?" if ch.islower() else ch for ch in self.cells() if ch != THROUGH)

    @property
    def tile_count(self) -> int:
        """How many tiles the placement takes from the rack (the squares not played through)."""
        return sum(1 for ch in self.cells() if ch != THROUGH)


def cells(word: str) -> list[str]:
    """A placement word split into squares: ``[label]`` groups are one square, any other character one.

    >>> cells("[CH]I.O")
    ['[CH]', 'I', '.', 'O']
    """
    if "[" not in word:
        return list(word)
    out: list[str] = []
    i = 0
    while i < len(word):
        end = word.find("]", i) + 1 if word[i] == "[" else 0
        if end <= 0:
            end = i + 1
        out.append(word[i:end])
        i = end
    return out


@dataclass(frozen=True, eq=False)
class Exchange:
    """Tiles returned to the bag (``?`` for a blank). Two exchanges of the same tiles are equal
    (and hash alike) whatever their order and case, as the game reads them:
    ``Exchange("UQ") == Exchange("qu")``."""

    tiles: str

    def __post_init__(self) -> None:
        if not isinstance(self.tiles, str):
            raise TypeError(f"Exchange tiles must be a text like 'QU?', not {quoted(self.tiles)}")

    def _key(self) -> tuple[str, ...]:
        return tuple(sorted(cells(self.tiles.upper())))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Exchange):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((Exchange, self._key()))


@dataclass(frozen=True)
class Pass:
    """A pass."""


@dataclass(frozen=True)
class Challenge:
    """A challenge of the previous play."""


Move = Place | Exchange | Pass | Challenge

def _notation(notation: Notation | str) -> Notation:
    """A notation given as the enum or its name (``"tournament"``, as rule options take it). Any
    other value is refused: read as 'not the rule book's', it silently turned ``H8`` down."""
    if isinstance(notation, Notation):
        return notation
    if isinstance(notation, str):
        try:
            return Notation(notation.strip().lower())
        except ValueError:
            known = ", ".join(n.value for n in Notation)
            raise MoveSyntaxError(f"unknown notation {quoted(notation)} (known: {known})") from None
    raise TypeError(f"a notation is a Notation (e.g. Notation.RULEBOOK) or its name, not {quoted(notation)}")


_COORD = re.compile(r"^(?:([A-Za-z])([0-9]{1,2})|([0-9]{1,2})([A-Za-z]))$")
MAX_MOVE_LENGTH = 200
"""The longest move text read (a word on the largest board, in parentheses, with a direction)."""
_DIRECTIONS = {"across": Direction.ACROSS, "a": Direction.ACROSS, "ac": Direction.ACROSS,
               "h": Direction.ACROSS, "down": Direction.DOWN, "d": Direction.DOWN,
               "dn": Direction.DOWN, "v": Direction.DOWN}


def parse_coordinate(text: str, notation: Notation | str,
                     direction: Direction | None = None) -> tuple[int, int, Direction]:
    """Read ``H8`` / ``8H`` as (row, col, direction), 0-based.

    With an explicit ``direction`` both orders are accepted and name the same square.
    """
    match = _COORD.match(text.strip())
    if not match:
        raise MoveSyntaxError(f"{quoted(text)} is not a coordinate like H8 or 8H")
    if match.group(1):
        col_letter, row_number, letter_first = match.group(1), match.group(2), True
    else:
        col_letter, row_number, letter_first = match.group(4), match.group(3), False
    col = ord(col_letter.upper()) - ord("A")
    row = int(row_number) - 1
    if row < 0:
        raise MoveSyntaxError(f"{quoted(text)}: rows are numbered from 1")
    if direction is None:
        across_when_letter_first = _notation(notation) is Notation.RULEBOOK
        direction = Direction.ACROSS if letter_first == across_when_letter_first else Direction.DOWN
    return row, col, direction


def format_coordinate(row: int, col: int, direction: Direction, notation: Notation | str) -> str:
    """The coordinate of a word's first square in a notation (inverse of :func:`parse_coordinate`).

    Raises :class:`MoveSyntaxError` for a square no coordinate names (a row before the first, a
    column before ``A`` or past ``Z``).
    """
    if row < 0 or not 0 <= col < len(string.ascii_uppercase):
        raise MoveSyntaxError(f"row {row + 1}, column {col + 1} is off the board: no coordinate names it")
    letter, number = string.ascii_uppercase[col], str(row + 1)
    letter_first = (direction is Direction.ACROSS) == (_notation(notation) is Notation.RULEBOOK)
    return letter + number if letter_first else number + letter


_EXCHANGE = re.compile(r"^(?:exchange|exch|ex|swap|change|-)\s*((?:\[[^\[\]]*\]|[^\W\d_]|[?\[\]·])*)$",
                       re.IGNORECASE)  # (any tile in brackets: Catalan [L.L])
_EXCHANGE_WORD = re.compile(r"^(?:exchange|exch|ex|swap|change)\s+(.+)$", re.IGNORECASE | re.DOTALL)
"""An exchange's word and anything after it: the tiles typed apart (``exchange Q U``), or with a
character that is no tile, which the game then names (it was read as a coordinate, ``'exchange'``)."""


MOVE_FORMS = "'H8 WORD', 'H8 down WORD', 'pass', 'exchange ABC' or 'challenge'"
"""The moves :func:`parse_move`'s error names when a text has none of their shapes (its default ``forms``)."""


def parse_move(text: str, notation: Notation | str, board: Board | None = None, *,
               whole_word: bool = True, forms: str = MOVE_FORMS) -> Move:
    """Read a move: ``pass``, ``exchange ABC`` (or ``-ABC``), ``challenge``, or a placement.

    ``notation``: a :class:`~qiza.rules.Notation` or its name (``"tournament"``); anything else
    is refused (:class:`MoveSyntaxError` for an unknown name, :class:`TypeError` otherwise).

    A placement is a coordinate, an optional direction word, and the word: upper-case
    letters for tiles, lower-case for blanks, and letters already on the board either
    written out, in parentheses or as ``.``. Written-out letters on occupied squares
    need ``board`` to be told apart from tiles placed (and are checked against it).
    With a ``board`` the word is read into its tile set's tiles by greedy longest match
    (Spanish ``CHICO`` is CH-I-C-O); ``[CH]`` is one tile in any case, and Catalan ``[L.L]`` the
    L·L tile (:meth:`~qiza.alphabet.TileSet.typed_label`), and a letter with an accent that no
    tile has is its base letter (French ``ÉTÉ`` is ``ETE``: :meth:`~qiza.alphabet.TileSet.fold`).
    Text is read composed (:func:`~qiza.alphabet.nfc`: ``N`` + U+0303 is ``Ñ``).

    The word is the whole word formed, as in GCG and Quackle: with a ``board``, one that stops
    short of a tile at either end (``G8 Z(E)D`` before a C) is a :class:`MoveSyntaxError` naming
    the word formed and how to type it (``G8 Z(E)D(C)``). ``whole_word=False`` reads it as the
    tiles it places (the word extended over those tiles), for records written before this check.
    ``forms``: what the error of a text of no move's shape names as expected (a caller that takes
    fewer moves, a puzzle's placements and exchanges, names those).
    """
    if not isinstance(text, str):
        raise TypeError(f"a move to read is a text like 'H8 WORD', not {quoted(text)}")
    notation = _notation(notation)
    raw = nfc(text).strip()
    if not raw:
        raise MoveSyntaxError("empty move")
    if len(raw) > MAX_MOVE_LENGTH:
        raise MoveSyntaxError(f"a move of {len(raw)} characters ({quoted(raw, 20)}): no move is longer than "
                              f"{MAX_MOVE_LENGTH}")
    lowered = raw.lower()
    if lowered in ("pass", "p", "--"):
        return Pass()
    if lowered in ("challenge", "chal"):
        return Challenge()
    ex = _EXCHANGE.match(raw)
    if ex:
        tiles = ex.group(1).upper()
        if not tiles:
            raise MoveSyntaxError(f"{quoted(raw)}: say which tiles to exchange, e.g. 'exchange QU?'")
        return Exchange(tiles)
    loose = _EXCHANGE_WORD.match(raw)
    if loose:
        return Exchange("".join(loose.group(1).split()).upper())
    parts = raw.split()
    direction: Direction | None = None
    if len(parts) == 3 and parts[1].lower() in _DIRECTIONS:
        direction = _DIRECTIONS[parts[1].lower()]
        parts = [parts[0], parts[2]]
    if len(parts) != 2:
        raise MoveSyntaxError(f"{quoted(raw)} is not a move: expected e.g. {forms}")
    row, col, direction = parse_coordinate(parts[0], notation, direction)
    word = board.tile_set.fold(parts[1]) if board is not None else parts[1]  # French ÉTÉ: ETE
    place = Place(row, col, direction, _parse_word(word, row, col, direction, board, raw))
    if board is not None and whole_word:
        _check_whole_word(place, board, notation, raw)
    return place


def _check_whole_word(place: Place, board: Board, notation: Notation, raw: str) -> None:
    """Refuse a typed word that stops short of a tile on the board at either end, naming the
    word formed and how to type it."""
    whole = _whole_placement(place, board)
    if whole != place:
        formed = format_word(whole, board, parens=False).upper()
        raise MoveSyntaxError(f"{quoted(raw)} is not the whole word: the word formed is {formed}: type "
                              f"{format_move(whole, notation, board)} (the letters on the board in parentheses)")


def _whole_placement(place: Place, board: Board) -> Place:
    """A placement not yet on ``board`` as the whole word it forms along its line: the tiles on
    the board just before and after it taken in as played-through letters (``.``). A placement
    already on the board (every square it places taken) is returned as it is, so that a move
    played earlier reads as it was played, not with the letters added to its word since."""
    size = board.size
    dr, dc = place.direction.step

    def taken(r: int, c: int) -> bool:
        return 0 <= r < size and 0 <= c < size and bool(board.get(r, c))

    cells = place.cells()
    if all(taken(place.row + dr * i, place.col + dc * i) for i, char in enumerate(cells) if char != THROUGH):
        return place
    row, col, before = place.row, place.col, 0
    while taken(row - dr, col - dc):
        row, col, before = row - dr, col - dc, before + 1
    after = 0
    while taken(place.row + dr * (len(cells) + after), place.col + dc * (len(cells) + after)):
        after += 1
    if not (before or after):
        return place
    return Place(row, col, place.direction, THROUGH * before + place.word + THROUGH * after)


def _parse_word(text: str, row: int, col: int, direction: Direction,
                board: Board | None, raw: str) -> str:
    out: list[str] = []
    in_parens = False
    dr, dc = direction.step
    tokens = _tokens(text, board, raw)
    for at, char in enumerate(tokens):
        if char == "(":
            if in_parens:
                raise MoveSyntaxError(f"{quoted(raw)}: nested parentheses")
            in_parens = True
            continue
        if char == ")":
            if not in_parens:
                raise MoveSyntaxError(f"{quoted(raw)}: ')' without '('")
            in_parens = False
            continue
        index = len(out)
        r, c = row + index * dr, col + index * dc
        empty = board is None or not (0 <= r < board.size and 0 <= c < board.size) or not board.get(r, c)
        dotted = _dotted_label(tokens, at, board) if char in ".-" and (char == "-" or empty) else None
        if dotted is not None:  # COL.LEGI typed on a keyboard without the middle dot: say how L·L is typed
            square = "" if char == "-" else f"square {string.ascii_uppercase[c]}{r + 1} is empty: "
            raise MoveSyntaxError(f"{quoted(raw)}: {square}{how_to_type(dotted)}")
        if char == THROUGH:
            out.append(THROUGH)
            continue
        label = char[1:-1] if char.startswith("[") else char
        if char == "?":  # the rack's sign for a blank: say how a blank is played
            raise MoveSyntaxError(f"{quoted(raw)}: '?' is not a letter: a blank is written as the lower-case letter it "
                                  f"stands for: {raw.replace('?', 'a', 1)} plays it as A")
        if not label or not (label.isalpha() or len(char) > 1):
            raise MoveSyntaxError(f"{quoted(raw)}: {quoted(char)} is not a letter")
        on_board = None
        if board is not None and 0 <= r < board.size and 0 <= c < board.size:
            tile = board.get(r, c)
            on_board = board.tile_set.char(tile) if tile else None
        if in_parens:
            if board is not None and on_board is not None and on_board.upper() != label.upper():
                raise MoveSyntaxError(f"{quoted(raw)}: square {string.ascii_uppercase[c]}{r + 1} "
                                      f"holds {on_board.upper()}, not {label.upper()}")
            out.append(THROUGH)
        elif on_board is not None:
            if on_board.upper() != label.upper():
                raise MoveSyntaxError(f"{quoted(raw)}: square {string.ascii_uppercase[c]}{r + 1} "
                                      f"already holds {on_board.upper()}, not {label.upper()}")
            out.append(THROUGH)
        else:
            out.append(char)
    if in_parens:
        raise MoveSyntaxError(f"{quoted(raw)}: '(' without ')'")
    if not out:
        raise MoveSyntaxError(f"{quoted(raw)}: no word")
    return "".join(out)


def _dotted_label(tokens: list[str], at: int, board: Board | None) -> str | None:
    """The label with a middle dot (Catalan ``L·L``) that the letters around ``tokens[at]`` (a ``.``
    or ``-`` typed for the dot) would form, or None."""
    if board is None or not 0 < at < len(tokens) - 1:
        return None
    return board.tile_set.dotted_label(tokens[at - 1], tokens[at + 1])


def _tokens(text: str, board: Board | None, raw: str) -> list[str]:
    """A typed word split into squares' texts: ``[..]`` groups, and with a board whose tile set has
    labels of several characters, its labels by greedy longest match (written ``[CH]``). There a
    one-letter tile typed in brackets stays so (Spanish ``[C]HAL`` is C, H, A, L, and written
    ``CHAL`` it would read back as CH, A, L)."""
    control = next((char for char in text if unicodedata.category(char) in ("Cc", "Cf")), None)
    if control is not None:  # named first: a pasted colour sequence's ESC, not the '[' after it
        raise MoveSyntaxError(f"{quoted(raw)}: {quoted(control)} is not a letter")
    tile_set = board.tile_set if board is not None else None
    multi = tile_set is not None and tile_set.multi_letter
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "[":
            end = text.find("]", i)
            if end < 0:
                raise MoveSyntaxError(f"{quoted(raw)}: '[' without ']'")
            label = text[i + 1:end] if tile_set is None else tile_set.typed_label(text[i + 1:end])  # [L.L]: L·L
            out.append(f"[{label}]" if len(label) > 1 or (multi and len(label) == 1) else label)
            i = end + 1
            continue
        if tile_set is not None and tile_set.multi_letter:
            for length in range(min(max(len(x) for x in tile_set.letters), len(text) - i), 1, -1):
                piece = text[i:i + length]
                if piece.upper() in tile_set.letters and piece in (piece.upper(), piece.lower()):
                    out.append(f"[{piece}]")
                    i += length
                    break
            else:
                out.append(text[i])
                i += 1
            continue
        out.append(text[i])
        i += 1
    return out


def format_word(move: Place, board: Board | None = None, *, parens: bool = True) -> str:
    """The word of a placement with played-through letters filled in from ``board``.

    With ``parens`` they are wrapped in parentheses (``(A)BC``); without a board, and for
    a square off the board, they are written ``.``.
    """
    if board is None:
        return move.word
    out: list[str] = []
    open_group = False
    size = board.size
    dr, dc = move.direction.step
    for i, char in enumerate(move.cells()):
        row, col = move.row + i * dr, move.col + i * dc
        if char == THROUGH and 0 <= row < size and 0 <= col < size:
            letter = board.tile_set.tile_text(board[row * size + col])
            if parens and not open_group:
                out.append("(")
                open_group = True
            out.append(letter)
        else:
            if open_group:
                out.append(")")
                open_group = False
            out.append(char)
    if open_group:
        out.append(")")
    return "".join(out)


def format_move(move: Move, notation: Notation | str, board: Board | None = None, *,
                parens: bool = True) -> str:
    """Write a move so that :func:`parse_move` reads it back as the same move. With a board, a
    placement not yet on it is written as the whole word it forms (``G8 Z(E)D(C)`` for the Z and D
    of ZEDC), as :func:`parse_move` wants it typed."""
    notation = _notation(notation)
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Challenge):
        return "challenge"
    if isinstance(move, Exchange):
        return f"exchange {move.tiles}"
    if not isinstance(move, Place):
        raise TypeError(f"a move is a Place, Exchange, Pass or Challenge, not {quoted(move)}")
    if board is not None:  # the whole word, as parse_move reads it back from a board
        move = _whole_placement(move, board)
    coord = format_coordinate(move.row, move.col, move.direction, notation)
    return f"{coord} {format_word(move, board, parens=parens)}"
