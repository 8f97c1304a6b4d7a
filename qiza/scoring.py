"""Placement geometry and scoring: the one place that knows how a play scores.

:func:`evaluate` checks a :class:`~qiza.move.Place` against the board (squares
free, one unbroken line, touching, first play on the star) and returns every
word it forms with its score. It does not look words up: see
:meth:`qiza.lexicon.Lexicon.invalid_words`.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from qiza.alphabet import Tile
from qiza.board import EMPTY, Board
from qiza.errors import IllegalMoveError, MoveSyntaxError, quoted
from qiza.move import THROUGH, Direction, Place
from qiza.rules import Rules

__all__ = ["Word", "Evaluation", "place_from_cells", "canonical", "evaluate", "evaluate_many", "explain"]


@dataclass(frozen=True)
class Word:
    """A word formed by a play: its letters (lower-case for blanks), where it starts, its score."""

    text: str
    row: int
    col: int
    direction: Direction
    score: int

    @property
    def letters(self) -> str:
        """The word in upper case, as looked up in a lexicon."""
        return self.text.upper()


@dataclass(frozen=True)
class Evaluation:
    """What a placement does: the canonical move, words formed and the total score."""

    move: Place
    words: tuple[Word, ...]
    score: int
    tiles_placed: int
    bingo: bool

    @property
    def main_word(self) -> Word:
        """The word along the placement's line (the first of :attr:`words`)."""
        return self.words[0]


def _name(board: Board, row: int, col: int) -> str:
    """A square's name (``H8``); a row or column before the first, or a column past ``Z``, by
    numbers counted from 1 (``row 8, column 0``), as no letter names it."""
    if row < 0 or not 0 <= col < len(string.ascii_uppercase):
        return f"row {row + 1}, column {col + 1}"
    return f"{string.ascii_uppercase[col]}{row + 1}"


def place_from_cells(board: Board, cells: Mapping[int, str]) -> Place:
    """A placement from tiles put on squares (as a drag-and-drop front end gives them).

    ``cells`` maps square numbers to tile characters (lower-case for a blank). Raises
    :class:`IllegalMoveError` when a square is off the board or the tiles are not in one line or
    leave a gap, :class:`MoveSyntaxError` for what is not one tile of the board's tile set, and
    :class:`TypeError` for a square that is not a whole number (or ``cells`` that are no mapping).
    """
    if not isinstance(cells, Mapping):
        raise TypeError(f"cells map square numbers to tiles, e.g. {{112: 'Q'}}, not {cells!r:.60}")
    if not cells:
        raise IllegalMoveError("no tiles placed")
    size = board.size
    letters = board.tile_set.letters
    for square, label in cells.items():
        if type(square) is not int:
            raise TypeError(f"a square is a whole number from 0 to {size * size - 1}, not {quoted(square)}")
        if not 0 <= square < size * size:
            raise IllegalMoveError(f"square {square} is not on the {size}x{size} board (0 to {size * size - 1})")
        if not (isinstance(label, str) and label.upper() in letters and label in (label.upper(), label.lower())):
            raise MoveSyntaxError(f"square {_name(board, *divmod(square, size))}: {quoted(label)} is not one tile of "
                                  f"the {board.tile_set.name} set (a letter; lower case for a blank)")
    coords = sorted(divmod(sq, size) for sq in cells)
    rows = {r for r, _ in coords}
    cols = {c for _, c in coords}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMoveError("tiles are not in one line: "
                               + " ".join(_name(board, r, c) for r, c in coords))
    if len(coords) == 1:
        r, c = coords[0]
        across = board.get(r, c - 1) or board.get(r, c + 1)
        direction = Direction.DOWN if not across and (board.get(r - 1, c) or board.get(r + 1, c)) else Direction.ACROSS
    else:
        direction = Direction.ACROSS if len(rows) == 1 else Direction.DOWN
    dr, dc = direction.step
    (r0, c0), (r1, c1) = coords[0], coords[-1]
    word: list[str] = []
    run: list[Tile] = []  # the tiles put down since the last one on the board
    r, c = r0, c0
    while (r, c) <= (r1, c1):
        sq = r * size + c
        if sq in cells:
            # one tile each (bracketed: C and H put down are not read as the CH tile)
            run.extend(board.tile_set.codes(f"[{cells[sq]}]"))
        elif board[sq] != EMPTY:
            # written as typed: brackets only where needed (Spanish '[C]HE', '[ch]U[LL]A')
            word.append(board.tile_set.text(run) + THROUGH)
            run = []
        else:
            raise IllegalMoveError(f"there is a gap at {_name(board, r, c)}")
        r, c = r + dr, c + dc
    word.append(board.tile_set.text(run))
    return canonical(board, Place(r0, c0, direction, "".join(word)))


def canonical(board: Board, move: Place) -> Place:
    """The placement extended to the whole line it forms (tiles touching either end)."""
    size = board.size
    dr, dc = move.direction.step
    r, c = move.row, move.col
    prefix = ""
    while board.get(r - dr, c - dc) and 0 <= r - dr and 0 <= c - dc:
        r, c = r - dr, c - dc
        prefix += THROUGH
    length = len(move.cells())
    end_r, end_c = move.row + dr * length, move.col + dc * length
    suffix = ""
    while end_r < size and end_c < size and board.get(end_r, end_c):
        suffix += THROUGH
        end_r, end_c = end_r + dr, end_c + dc
    if not prefix and not suffix:
        return move
    return Place(r, c, move.direction, prefix + move.word + suffix)


def evaluate(board: Board, move: Place, rules: Rules) -> Evaluation:
    """Check a placement's geometry and score it. Raises :class:`IllegalMoveError` (a
    :class:`TypeError` for arguments of the wrong type: a move's text is read with
    :meth:`Game.parse <qiza.game.Game.parse>` or :func:`~qiza.move.parse_move`)."""
    if not isinstance(board, Board) or not isinstance(move, Place) or not isinstance(rules, Rules):
        raise TypeError(f"evaluate takes a Board, a Place and Rules, not {type(board).__name__}, "
                        f"{type(move).__name__} {move!r:.40}, {type(rules).__name__}")
    size = board.size
    tile_set = board.tile_set
    dr, dc = move.direction.step
    if not move.word:
        raise IllegalMoveError("no tiles placed")
    squares = move.cells()
    last_r, last_c = move.row + dr * (len(squares) - 1), move.col + dc * (len(squares) - 1)
    if not (0 <= move.row < size and 0 <= move.col < size):
        corner = _name(board, size - 1, size - 1)
        raise IllegalMoveError(f"{_name(board, move.row, move.col)} is not a square: the {size}x{size} "
                               f"board runs from A1 to {corner}")
    if not (0 <= move.row < size and 0 <= move.col < size and last_r < size and last_c < size):
        raise IllegalMoveError(f"the word runs off the {size}x{size} board")
    placed: dict[int, int] = {}
    for i, char in enumerate(squares):
        r, c = move.row + dr * i, move.col + dc * i
        sq = r * size + c
        if char == THROUGH:
            if board[sq] == EMPTY:
                raise IllegalMoveError(f"{_name(board, r, c)} is empty: there is a gap in the word")
            continue
        if board[sq] != EMPTY:
            raise IllegalMoveError(f"{_name(board, r, c)} is already taken by {board.char_at(sq).upper()}")
        try:
            placed[sq] = tile_set.code(char)
        except ValueError as exc:
            raise IllegalMoveError(str(exc)) from None
        if placed[sq] == 0:
            raise IllegalMoveError("a blank must be given a letter (write it in lower case)")
    if not placed:
        raise IllegalMoveError("no tiles placed: every square of the word is already taken")
    move = canonical(board, move)
    first_play = board.is_empty()
    if first_play:
        if rules.layout.start not in placed:
            raise IllegalMoveError(f"the first play must cover the centre square "
                                   f"{rules.layout.square_name(rules.layout.start)}")
        if len(placed) < 2:
            raise IllegalMoveError("the first play needs at least two tiles")

    letter_mults = {sq: rules.layout.premium(sq).letter_multiplier for sq in placed}
    word_mults = {sq: rules.layout.premium(sq).word_multiplier for sq in placed}

    def tile_at(r: int, c: int) -> int:
        if 0 <= r < size and 0 <= c < size:
            sq = r * size + c
            return placed.get(sq) or board[sq]
        return EMPTY

    def line(r: int, c: int, direction: Direction) -> Word | None:
        sr, sc = direction.step
        while tile_at(r - sr, c - sc):
            r, c = r - sr, c - sc
        first = (r, c)
        text: list[str] = []
        total, factor = 0, 1
        while tile := tile_at(r, c):
            sq = r * size + c
            text.append(tile_set.char(tile))
            if sq in placed:
                total += tile_set.value(tile) * letter_mults[sq]
                factor *= word_mults[sq]
            else:
                total += tile_set.value(tile)
            r, c = r + sr, c + sc
        if len(text) < 2:
            return None
        return Word("".join(text), first[0], first[1], direction, total * factor)

    words: list[Word] = []
    main = line(move.row, move.col, move.direction)
    if main is not None:
        words.append(main)
    touches = any(ch == THROUGH for ch in move.word)
    for sq in placed:
        r, c = divmod(sq, size)
        cross = line(r, c, move.direction.other)
        if cross is not None:
            words.append(cross)
            touches = True
    if not words:
        raise IllegalMoveError("a play must form a word of at least two letters")
    if main is None:
        # a single tile that only forms a word the other way: name the move that way
        move = canonical(board, Place(move.row, move.col, move.direction.other, move.word))
        words = [words[0]]
    if not first_play and not touches:
        raise IllegalMoveError("the play must touch a tile already on the board")
    score = sum(w.score for w in words)
    bingo = rules.is_bingo(len(placed))
    if bingo:
        score += rules.bingo_bonus
    return Evaluation(move, tuple(words), score, len(placed), bingo)


def evaluate_many(board: Board, moves: Iterable[Place], rules: Rules) -> list[Evaluation]:
    """:func:`evaluate` of each placement on the same board: the same evaluations, several times
    faster for many placements (the move generator's, in :meth:`Game.legal_moves
    <qiza.game.Game.legal_moves>`): the tiles beside each square, across and down, are read once
    for the board instead of once a move. A placement this quick path does not take as it is
    (one that is illegal, a single tile, one that does not cover its whole line) is given to
    :func:`evaluate`, which raises what it raises."""
    if not isinstance(board, Board) or not isinstance(rules, Rules):
        raise TypeError(f"evaluate_many takes a Board, placements and Rules, not {type(board).__name__}, "
                        f"{type(rules).__name__}")
    return _Scorer(board, rules).evaluate_all(moves)


class _Scorer:
    """:func:`evaluate_many`'s tables for one board: each square's premiums, each tile's label and
    value, and (once asked) the tiles before and after an empty square along a direction."""

    def __init__(self, board: Board, rules: Rules) -> None:
        self.board = board
        self.rules = rules
        self.size = board.size
        self.cells = board.cells
        self.tile_set = board.tile_set
        layout = rules.layout
        self.letter_mults = [layout.premium(sq).letter_multiplier for sq in range(self.size * self.size)]
        self.word_mults = [layout.premium(sq).word_multiplier for sq in range(self.size * self.size)]
        self.first_play = board.is_empty()
        self.codes: dict[str, int] = {}
        self.chars: dict[int, str] = {}
        self.values: dict[int, int] = {}
        self.sides: dict[tuple[int, bool], tuple[int, int, str, str, int]] = {}

    def evaluate_all(self, moves: Iterable[Place]) -> list[Evaluation]:
        out = []
        for move in moves:
            got = self.quick(move) if isinstance(move, Place) else None
            out.append(got if got is not None else evaluate(self.board, move, self.rules))
        return out

    def code(self, label: str) -> int | None:
        code = self.codes.get(label)
        if code is None:
            try:
                code = self.tile_set.code(label)
            except ValueError:
                return None
            self.codes[label] = code
        return code

    def char(self, tile: int) -> str:
        text = self.chars.get(tile)
        if text is None:
            text = self.chars[tile] = self.tile_set.char(tile)
            self.values[tile] = self.tile_set.value(tile)
        return text

    def side(self, sq: int, down: bool) -> tuple[int, int, str, str, int]:
        """The word through an empty square along a direction, without that square's tile: where
        it starts (row, column), the labels before and after the square, and their values."""
        key = (sq, down)
        got = self.sides.get(key)
        if got is None:
            size, cells, char, values = self.size, self.cells, self.char, self.values
            r, c = divmod(sq, size)
            dr, dc = (1, 0) if down else (0, 1)
            before: list[str] = []
            total = 0
            sr, sc = r - dr, c - dc
            while 0 <= sr and 0 <= sc and cells[sr * size + sc]:
                tile = cells[sr * size + sc]
                before.append(char(tile))
                total += values[tile]
                sr, sc = sr - dr, sc - dc
            after: list[str] = []
            er, ec = r + dr, c + dc
            while er < size and ec < size and cells[er * size + ec]:
                tile = cells[er * size + ec]
                after.append(char(tile))
                total += values[tile]
                er, ec = er + dr, ec + dc
            got = self.sides[key] = (sr + dr, sc + dc, "".join(reversed(before)), "".join(after), total)
        return got

    def quick(self, move: Place) -> Evaluation | None:
        """The evaluation of a legal placement that covers its whole line, else ``None``."""
        size, cells = self.size, self.cells
        squares = move.cells()
        count = len(squares)
        row, col = move.row, move.col
        down = move.direction is Direction.DOWN
        dr, dc = (1, 0) if down else (0, 1)
        if count < 2 or not (0 <= row and 0 <= col and row + dr * (count - 1) < size
                             and col + dc * (count - 1) < size):
            return None
        before_r, before_c = row - dr, col - dc
        after_r, after_c = row + dr * count, col + dc * count
        if (before_r >= 0 and before_c >= 0 and cells[before_r * size + before_c]) or \
                (after_r < size and after_c < size and cells[after_r * size + after_c]):
            return None  # not the whole line: evaluate extends it
        char, values, letter_mults, word_mults = self.char, self.values, self.letter_mults, self.word_mults
        step = size if down else 1
        sq = row * size + col
        text: list[str] = []
        placed: list[tuple[int, int]] = []
        total, factor, through = 0, 1, False
        for label in squares:
            tile = cells[sq]
            if label == THROUGH:
                if not tile:
                    return None
                text.append(char(tile))
                total += values[tile]
                through = True
            else:
                if tile:
                    return None
                code = self.code(label)
                if not code:  # no tile of the set, or a blank without its letter
                    return None
                tile = code
                text.append(char(tile))
                total += values[tile] * letter_mults[sq]
                factor *= word_mults[sq]
                placed.append((sq, tile))
            sq += step
        if not placed:
            return None
        if self.first_play and (self.rules.layout.start not in {s for s, _ in placed} or len(placed) < 2):
            return None
        other = move.direction.other
        words = [Word("".join(text), row, col, move.direction, total * factor)]
        for sq, tile in placed:
            start_r, start_c, before, after, sides = self.side(sq, not down)
            if before or after:
                words.append(Word(before + char(tile) + after, start_r, start_c, other,
                                  (sides + values[tile] * letter_mults[sq]) * word_mults[sq]))
        if not self.first_play and not through and len(words) == 1:
            return None  # touches nothing: evaluate says so
        score = sum(w.score for w in words)
        bingo = self.rules.is_bingo(len(placed))
        if bingo:
            score += self.rules.bingo_bonus
        return Evaluation(move, tuple(words), score, len(placed), bingo)


def explain(board: Board, evaluation: Evaluation, rules: Rules) -> str:
    """How a play scores, word by word, on the board as it was before the play.

    For example ``RETAINS (8D across): R 1x2 on D8 + E 1 + T 1 + A 1 + I 1 + N 1 + S 1 on H8
    = 8, x2 for H8 = 16; bingo +50; total 66``: each letter's value (0 for a blank), the
    letter premium of a square the play covers, and the word premiums of the squares it covers.
    """
    size = board.size
    tile_set = board.tile_set
    layout = rules.layout
    parts = []
    for word in evaluation.words:
        sr, sc = word.direction.step
        letters = []
        total, factor, doubled = 0, 1, []
        for i, tile in enumerate(tile_set.codes(word.text)):
            char = tile_set.char(tile)
            r, c = word.row + sr * i, word.col + sc * i
            sq = r * size + c
            value = tile_set.value(tile)
            name = layout.square_name(sq)
            if board[sq] == EMPTY:  # placed by this play: its square's premium counts
                premium = layout.premium(sq)
                lm = premium.letter_multiplier
                total += value * lm
                if premium.word_multiplier > 1:
                    factor *= premium.word_multiplier
                    doubled.append(f"x{premium.word_multiplier} for {name}")
                letters.append(f"{char} {value}x{lm} on {name}" if lm > 1 else f"{char} {value}")
            else:
                total += value
                letters.append(f"{char} {value} (on the board)")
        where = f"from {layout.square_name(word.row * size + word.col)} {word.direction.name.lower()}"
        line = f"{word.letters} ({where}): {' + '.join(letters)} = {total}"
        if doubled:
            line += f", {', '.join(doubled)} = {total * factor}"
        parts.append(line)
    if evaluation.bingo:
        parts.append(f"bingo +{rules.bingo_bonus}")
    parts.append(f"total {evaluation.score}")
    return "; ".join(parts)
