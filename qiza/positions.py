"""The shared positions format: a board (one line per row, ``.`` empty, upper-case tiles,
lower-case blanks), a ``RACK: ...`` line, then an empty line, for each position.

>>> text = "\\n".join(["." * 15] * 7 + ["...FORAM......."] + ["." * 15] * 7) + "\\nRACK: DEEEIKR\\n"
>>> [(p.board.rows_text()[7], p.racks) for p in loads(text)]
[('...FORAM.......', ['DEEEIKR', ''])]
"""

from __future__ import annotations

import os

from qiza.alphabet import ENGLISH, TileSet
from qiza.board import Board
from qiza.cgp import Position
from qiza.errors import FileFormatError, QizaError
from qiza.layout import STANDARD, Layout
from qiza.paths import read_regular

__all__ = ["loads", "load", "dumps"]


def loads(text: str, *, layout: Layout = STANDARD, tile_set: TileSet = ENGLISH,
          path: str | None = None) -> list[Position]:
    """Read every position of the text; each has the rack of the player to move and an unknown
    second rack. Raises :class:`~qiza.errors.FileFormatError` with the line number of a problem."""
    positions: list[Position] = []
    rows: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if rows:
                raise FileFormatError(f"board of {len(rows)} rows has no RACK: line", number, path)
            continue
        if line.upper().startswith("RACK:"):
            rack = line[5:].strip().upper()
            if len(rows) != layout.size:
                raise FileFormatError(f"a board needs {layout.size} rows, got {len(rows)}", number, path)
            try:
                board = Board.from_rows(rows, layout, tile_set)
                tile_set.codes(rack)
            except (QizaError, ValueError) as exc:
                raise FileFormatError(str(exc), start, path) from None
            positions.append(Position(board, [rack, ""], [0, 0]))
            rows = []
            continue
        if not rows:
            start = number
        if len(line) != layout.size:
            raise FileFormatError(f"board row has {len(line)} squares, not {layout.size}: {line!r}", number, path)
        rows.append(line)
    if rows:
        raise FileFormatError("the file ends inside a board (no RACK: line)", start, path)
    return positions


MAX_POSITIONS_BYTES = 256 * 2**20
"""The largest positions file read."""


def load(path: str | os.PathLike[str]) -> list[Position]:
    """Read a positions file."""
    try:
        text = read_regular(path, MAX_POSITIONS_BYTES).decode("utf-8-sig")  # a byte order mark: Notepad's
    except OSError as exc:
        raise FileFormatError(f"cannot read: {exc.strerror}", None, str(path)) from None
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"cannot read: {exc}", None, str(path)) from None
    return loads(text, path=str(path))


def dumps(positions: list[Position]) -> str:
    """Write positions in the shared format (the rack of the player to move)."""
    out = []
    for position in positions:
        out.extend(position.board.rows_text())
        out.append(f"RACK: {position.racks[position.to_move]}")
        out.append("")
    return "\n".join(out) + ("\n" if out else "")
