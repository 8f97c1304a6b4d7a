"""The shared positions format: a board (one line per row, ``.`` empty, upper-case tiles,
lower-case blanks), a ``RACK: ...`` line, then an empty line, for each position.

>>> text = "\\n".join(["." * 15] * 7 + ["...FORAM......."] + ["." * 15] * 7) + "\\nRACK: DEEEIKR\\n"
>>> [(p.board.rows_text()[7], p.racks) for p in loads(text)]
[('...FORAM.......', ['DEEEIKR', ''])]
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from qiza.alphabet import BLANK_FLAG, ENGLISH, TileSet
from qiza.board import Board, row_tiles
from qiza.cgp import Position
from qiza.errors import FileFormatError, QizaError, quoted
from qiza.layout import STANDARD, Layout
from qiza.paths import read_regular

if TYPE_CHECKING:
    from qiza.rules import Rules

__all__ = ["MAX_RACK", "MAX_POSITIONS_BYTES", "loads", "load", "dumps"]

MAX_RACK = 9
"""The most tiles a rack of the file holds (the largest rack of any rules: 9)."""

MAX_POSITIONS_BYTES = 256 * 2**20
"""The largest positions file read."""


def loads(text: str, *, layout: Layout | None = None, tile_set: TileSet | None = None,
          rules: Rules | None = None, path: str | None = None) -> list[Position]:
    """Read every position of the text; each has the rack of the player to move and an unknown
    second rack. The board has ``layout`` (default the standard one) and its tiles and the rack's
    are of ``tile_set`` (default English); ``rules`` gives both and also refuses a rack no player
    could hold under them: more tiles than their racks hold, or more of a tile than their set
    has, counting the board's (:func:`qiza.analysis.check_rack`, whose message it gives).

    Raises :class:`~qiza.errors.FileFormatError` with the line number of the first problem: a
    board line of the wrong size or with a character that is no tile (at that line), a board
    of too many lines (at the first line too many), an empty line inside a board, a ``RACK:``
    line after too few board lines, a rack of more than :data:`MAX_RACK` tiles or of characters
    that are no tiles (at the rack's line), a file that ends inside a board (at its first line).
    :func:`qiza.movegen.read_positions` reads the file with it.
    """
    return [position for position, _ in _read(text, layout, tile_set, rules, path)]


def load(path: str | os.PathLike[str], *, layout: Layout | None = None, tile_set: TileSet | None = None,
         rules: Rules | None = None) -> list[Position]:
    """Read a positions file (UTF-8, a byte order mark read past), as :func:`loads`; a file that
    cannot be read or is not UTF-8 is a :class:`~qiza.errors.FileFormatError` too."""
    return loads(read_text(path), layout=layout, tile_set=tile_set, rules=rules, path=str(path))


def read_text(path: str | os.PathLike[str]) -> str:
    """A positions file's text (a regular file of at most :data:`MAX_POSITIONS_BYTES`, UTF-8)."""
    try:
        return read_regular(path, MAX_POSITIONS_BYTES).decode("utf-8-sig")  # a byte order mark: Notepad's
    except OSError as exc:
        raise FileFormatError(f"cannot read: {exc.strerror}", None, str(path)) from None
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"not a positions file (not UTF-8 text: {exc.reason})", None, str(path)) from None


def _read(text: str, layout: Layout | None, tile_set: TileSet | None, rules: Rules | None,
          path: str | None) -> Iterator[tuple[Position, list[int]]]:
    """Each position of the text with its rack's tile codes (the one reader of the format)."""
    if rules is not None:
        from qiza.analysis import check_rack

        for given, theirs, what in ((layout, rules.layout, "layout"), (tile_set, rules.tile_set, "tile set")):
            if given is not None and given != theirs:
                raise ValueError(f"the {what} given is not the rules' {what}: give one or the other")
        layout, tile_set = rules.layout, rules.tile_set
    layout = layout or STANDARD
    tile_set = tile_set or ENGLISH
    size = layout.size
    cells: list[int] = []
    rows: list[str] = []
    start = 0  # the line of the board's first row
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        try:
            if not line:
                if rows:
                    raise ValueError(f"an empty line inside a board (after {len(rows)} of its {size} lines)")
                continue
            if line[:5].upper() == "RACK:":
                if len(rows) != size:
                    raise ValueError(f"a board needs {size} lines, got {len(rows)}")
                rack = line[5:].strip().upper()
                codes = tile_set.codes(rack)
                if len(codes) > MAX_RACK:
                    raise ValueError(f"a rack holds 0..{MAX_RACK} tiles, not {len(codes)}")
                if any(code & BLANK_FLAG for code in codes):
                    raise ValueError(f"rack {quoted(rack)}: a blank on a rack is '?'")
                board = Board(layout, tile_set, cells)
                if rules is not None:
                    check_rack(rack, rules, board)
                yield Position(board, [rack, ""], [0, 0]), codes
                cells, rows = [], []
                continue
            if len(rows) >= size:
                raise ValueError(f"a board has {size} lines: expected 'RACK: ...'")
            if not rows:
                start = number
            try:
                row = row_tiles(line, tile_set)
            except QizaError as exc:
                raise ValueError(f"board line {len(rows) + 1}: {exc}") from None
            if len(row) != size:
                raise ValueError(f"board line {len(rows) + 1} has {len(row)} squares, not {size}")
            cells.extend(row)
            rows.append(line)
        except ValueError as exc:  # QizaError included
            raise FileFormatError(str(exc), number, path) from None
    if rows:
        raise FileFormatError("the file ends inside a board (no RACK: line)", start, path)


def dumps(positions: list[Position]) -> str:
    """Write positions in the shared format (the rack of the player to move)."""
    out = []
    for position in positions:
        out.extend(position.board.rows_text())
        out.append(f"RACK: {position.racks[position.to_move]}")
        out.append("")
    return "\n".join(out) + ("\n" if out else "")
