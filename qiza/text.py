"""The board and the score sheet as plain text.

Tiles are upper-case letters, blanks lower-case letters (so a blank is always told
apart). Empty squares show their premium: ``=`` triple word, ``-`` double word,
``"`` triple letter, ``'`` double letter, ``*`` the start square (quadruple squares of
larger boards: ``~`` word, ``^`` letter). The tiles of the last play are marked with
``<`` after them when ``last`` is given.

>>> from qiza.board import Board
>>> print(board_text(Board()).splitlines()[8])
 8 =     '       *       '     =
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable

from qiza.board import Board
from qiza.errors import QUOTED_LIMIT, quoted
from qiza.game import Game, Kind, Record
from qiza.layout import Premium
from qiza.names import clean_name, name_key, tame_marks  # noqa: F401  (their module is qiza.names)
from qiza.rules import Notation

__all__ = ["board_text", "score_sheet", "PREMIUM_MARKS", "START_LEGEND", "LEGEND", "QUADRUPLE_LEGEND", "notation_note",
           "short_names", "plural"]
# clean_name, name_key, tame_marks: their module is qiza.names; imported here for the code that finds them here

PREMIUM_MARKS: dict[Premium, str] = {Premium.NONE: " ", Premium.DL: "'", Premium.TL: '"', Premium.DW: "-",
                                     Premium.TW: "=", Premium.QL: "^", Premium.QW: "~"}
"""The mark of an empty square of each premium."""

START_LEGEND = "* start  a-z blank"
"""The key's first line: the start square, and the tiles that are blanks."""
LEGEND = "= triple word  - double word  \" triple letter  ' double letter"
"""The key to the premium squares' marks (with :data:`START_LEGEND` one line was 82 columns: wider
than a terminal's 80)."""
QUADRUPLE_LEGEND = "~ quadruple word  ^ quadruple letter"
"""The key's second line on a board with quadruple squares (the Super board)."""


def board_text(board: Board, *, last: Record | Iterable[int] | None = None, legend: bool = False) -> str:
    """The board as text with column letters and row numbers (two characters per square; more
    when the tile set has labels of several characters, such as Spanish ``CH``).
    :class:`TypeError` for what is not a :class:`~qiza.board.Board` (a game's is ``game.board``)."""
    if not isinstance(board, Board):
        raise TypeError(f"board_text draws a Board (a game's is game.board), not {board!r:.60}")
    layout = board.layout
    size = board.size
    width = max(len(label) for label in board.tile_set.letters)
    if isinstance(last, Record):
        marked = set(last.squares)
    else:
        marked = set(last or ())
    lines = ["   " + " ".join(c.ljust(width) for c in string.ascii_uppercase[:size]).rstrip()]
    for row in range(size):
        cells = []
        for col in range(size):
            square = row * size + col
            if board[square]:
                char = board.char_at(square)
            elif square == layout.start:
                char = "*"
            else:
                char = PREMIUM_MARKS[layout.premium(square)]
            cells.append(char.ljust(width))
        text = ""
        for col, char in enumerate(cells):
            square = row * size + col
            separator = "<" if col and (row * size + col - 1) in marked else " "
            text += separator + char
        if (row * size + size - 1) in marked:
            text += "<"
        lines.append(f"{row + 1:>2}{text}".rstrip())
    if legend:
        lines.extend([START_LEGEND, LEGEND])
        premiums = {layout.premium(square) for square in range(size * size)}
        if Premium.QW in premiums or Premium.QL in premiums:  # the Super board's
            lines.append(QUADRUPLE_LEGEND)
    return "\n".join(lines)


def score_sheet(game: Game) -> str:
    """The score sheet: one line per event with player, rack, move, score and running total."""
    width = max(len(name) for name in game.players)
    moves = []
    for record in game.history:
        move = record.notation or record.kind.value
        if record.challenged_off:
            move += " (challenged off)"
        if record.kind is Kind.PLACE and record.bingo:
            move += " bingo"
        moves.append(move)
    # columns as wide as their longest entry: a rack with [RR] or [CH], a long move
    rack_width = max([9, *(len(record.rack) for record in game.history)])
    move_width = max([24, *map(len, moves)])
    lines = [f"{game.players[record.seat]:<{width}}  {record.rack:<{rack_width}} {move:<{move_width}} "
             f"{record.score:+4d} {record.total:5d}" for record, move in zip(game.history, moves)]
    totals = "  ".join(f"{name} {score}" for name, score in zip(game.players, game.scores))
    lines.append(f"scores: {totals}" + (f" ({game.end_words()})" if game.end_reason else ""))
    return "\n".join(lines)


def notation_note(notation: Notation) -> str:
    """The sentence saying how the moves of a listing are written.

    >>> notation_note(Notation.TOURNAMENT)
    'Moves in tournament notation (as in GCG files): 8H reads across, H8 reads down.'
    """
    if notation is Notation.TOURNAMENT:
        return "Moves in tournament notation (as in GCG files): 8H reads across, H8 reads down."
    return "Moves in rule book notation: H8 reads across, 8H reads down."


def visible(text: str) -> str:
    r"""``text`` safe to print on a terminal: control characters other than line breaks and tabs
    (escape sequences, bell, backspace, C1 controls) shown as symbols, one for one, so that
    what a player typed is printed as typed and never acts on the terminal; and the marks that
    set the direction of text (a right-to-left override, which turned the rest of its line round
    on a terminal that lays out both directions) shown as the replacement character.

    >>> visible("\x1b[31mRED\x07"), visible("\u202eCARE")
    ('␛[31mRED␇', '�CARE')
    """
    return text.translate(_VISIBLE)


_VISIBLE = {code: 0x2400 + code for code in range(0x20) if chr(code) not in "\n\t"}
_VISIBLE.update({0x7F: 0x2421, **{code: 0xFFFD for code in range(0x80, 0xA0)}})
_VISIBLE.update({code: 0xFFFD for code in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))})


def cells(text: str) -> int:
    """The columns ``text`` takes on a terminal: two for East Asian wide and full-width
    characters (Chinese, Japanese, Korean names), none for combining marks.

    >>> cells("Ann"), cells("李小龍"), cells("Zoe\u0301")
    (3, 6, 3)
    """
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def cut(text: str, width: int) -> str:
    """The longest start of ``text`` that takes at most ``width`` columns (see :func:`cells`)."""
    used = 0
    for i, ch in enumerate(text):
        used += cells(ch)
        if used > width:
            return text[:i]
    return text


def pad(text: str, width: int) -> str:
    """``text`` with spaces after it up to ``width`` columns (see :func:`cells`)."""
    return text + " " * max(0, width - cells(text))


def short_names(names: Iterable[str], width: int) -> list[str]:
    """Player names cut to ``width`` characters, still told apart.

    A name that fits is kept; a longer one is cut, keeping a last word that tells it apart
    from the others (``Computer 1`` becomes ``Comp 1``); names that would still be alike get
    a number.

    >>> short_names(["Ann", "Computer 1", "Computer 2", "Computer 3"], 8)
    ['Ann', 'Comp 1', 'Comp 2', 'Comp 3']
    >>> short_names(["Computer_1", "Computer_2"], 8)
    ['Comp_1', 'Comp_2']
    >>> short_names(["Alexandra", "Alexander"], 6)
    ['Alexa1', 'Alexa2']

    Widths are terminal columns (:func:`cells`): a Chinese character takes two.

    >>> short_names(["欧阳娜娜", "Ann"], 6)
    ['欧阳娜', 'Ann']
    """
    full = list(names)
    out: list[str] = []
    for name in full:
        if cells(name) <= width:
            out.append(name)
            continue
        match = re.fullmatch(r"(.*\S)([ _])([^ _]+)", name)
        head, sep, tail = match.groups() if match else ("", "", name)
        if head and cells(tail) <= width - 2:
            out.append(cut(head, min(4, width - cells(tail) - 1)).rstrip() + sep + tail)
        else:
            out.append(cut(name, width))
    for short in list(out):
        if out.count(short) > 1:
            twins = [i for i, other in enumerate(out) if other == short]
            for number, twin in enumerate(twins, start=1):
                tag = str(number)
                out[twin] = cut(out[twin], width - len(tag)) + tag
    return out


def brief(text: str, limit: int = QUOTED_LIMIT) -> str:
    r"""``text`` safe to print (:func:`visible`), its first ``limit`` characters and its length
    when it is longer: what someone typed, said back in a message (:func:`~qiza.errors.quoted`
    showing it by :func:`visible`, not in quotes).

    >>> brief("\x1b[2JAB"), brief("Q" * 3000, 5)
    ('␛[2JAB', 'QQQQQ… (3000 characters)')
    """
    return quoted(text, limit, show=visible)


def squeezed(text: str, limit: int = 400, longest: int = 1000) -> str:
    """A message with every run of over ``longest`` characters without a space (an argument of
    thousands of letters said back in an error) cut to about ``limit``: its start and its end
    around ``…`` and the count of characters left out. Sentences and file names stay whole (a
    message naming long paths, and the command that continues a game, are read and copied).

    >>> squeezed("'" + "Q" * 3000 + "': at most 21 tiles, not 3000", 60, 100)
    "'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQ … (2943 characters) …QQQQQQQQQQQQQQQQQQQQQQQQQQQQ': at most 21 tiles, not 3000"
    """
    def cut(match: re.Match[str]) -> str:
        run = match.group()
        half = limit // 2
        return f"{run[:half]} … ({len(run) - 2 * half} characters) …{run[-half:]}"

    return re.sub(rf"\S{{{longest + 1},}}", cut, text)


COLUMNS = 80
"""The width of a terminal that :func:`wrapped` fits text to."""


def wrapped(text: str, *, first: str = "", indent: str = "", width: int = COLUMNS) -> list[str]:
    """``text`` after ``first`` in lines of ``width`` characters at most, broken at spaces (a word
    longer than a line stays whole), the next lines after ``indent``.

    >>> wrapped("Scores Ann 120, Bob 98", width=16, indent="  ")
    ['Scores Ann 120,', '  Bob 98']
    """
    import textwrap

    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False) or [first]


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 tile``, ``2 tiles`` (``many``: the plural when it is not ``word + "s"``)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def input_line(prompt: str) -> str | None:
    """A line typed on standard input after ``prompt``, or None at the end of the input (a
    new line is printed then, so that what follows starts on a line of its own)."""
    try:
        return input(prompt)
    except EOFError:
        print()
        return None


def json_nesting(text: str) -> int:
    """The deepest nesting of brackets and braces in JSON ``text``, outside its strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
