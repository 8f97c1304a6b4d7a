"""Pictures of the board as SVG, with the standard library only.

Squares are coloured by premium (triple word red, double word pink, triple letter
blue, double letter light blue), columns and rows are labelled, tiles show their
letter and value, a blank shows its letter in red with no value and a dot in the
corner, and the tiles of the last play are outlined. :class:`~qiza.board.Board` and
:class:`~qiza.game.Game` use this for ``_repr_svg_`` (pictures in notebooks).

>>> from qiza.board import Board
>>> board_svg(Board()).startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from qiza.alphabet import BLANK_FLAG
from qiza.board import Board
from qiza.layout import Premium

if TYPE_CHECKING:
    from qiza.game import Game

__all__ = ["board_svg", "game_svg", "COLORS"]

COLORS: dict[str, str] = {
    "board": "#1f5e3b", "plain": "#dcd3bc", "start": "#f4b8b0", "label": "#333333",
    "tile": "#f3d9a4", "tile_edge": "#b08a4a", "letter": "#222222", "blank_letter": "#c0392b",
    "last": "#ffb400", "premium_text": "#3a3a3a",
}
"""Colours of the picture, by part."""

PREMIUM_COLORS: dict[Premium, str] = {
    Premium.NONE: COLORS["plain"], Premium.DL: "#b8d8f0", Premium.TL: "#3a7bd5", Premium.DW: "#f4b8b0",
    Premium.TW: "#e0554f", Premium.QL: "#7fb07f", Premium.QW: "#9b59b6",
}
"""Fill colour of an empty square of each premium."""

PREMIUM_LABELS: dict[Premium, str] = {Premium.NONE: "", Premium.DL: "DL", Premium.TL: "TL", Premium.DW: "DW",
                                      Premium.TW: "TW", Premium.QL: "QL", Premium.QW: "QW"}


def board_svg(board: Board, *, last: Iterable[int] = (), square: int = 32, coordinates: bool = True,
              title: str | None = None) -> str:
    """The board as an SVG document; ``last`` lists the squares to highlight (the last play).
    :class:`TypeError` for what is not a :class:`~qiza.board.Board` (a game's is ``game.board``)."""
    if not isinstance(board, Board):
        raise TypeError(f"board_svg draws a Board (a game's is game.board), not {board!r:.60}")
    size = board.size
    layout = board.layout
    tile_set = board.tile_set
    margin = square // 2 + 4 if coordinates else 4
    full = margin * 2 + square * size
    highlight = set(last)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{full}" height="{full}" '
           f'viewBox="0 0 {full} {full}" font-family="sans-serif">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect width="{full}" height="{full}" fill="{COLORS["board"]}"/>')
    if coordinates:
        for index in range(size):
            centre = margin + index * square + square // 2
            out.append(f'<text x="{centre}" y="{margin - 5}" font-size="{square // 3}" fill="#ffffff" '
                       f'text-anchor="middle">{string.ascii_uppercase[index]}</text>')
            out.append(f'<text x="{margin - 4}" y="{centre + square // 8}" font-size="{square // 3}" '
                       f'fill="#ffffff" text-anchor="end">{index + 1}</text>')
    for sq in range(size * size):
        row, col = divmod(sq, size)
        x, y = margin + col * square, margin + row * square
        tile = board[sq]
        premium = layout.premium(sq)
        if not tile:
            fill = COLORS["start"] if sq == layout.start else PREMIUM_COLORS[premium]
            out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{square - 2}" height="{square - 2}" fill="{fill}"/>')
            label = "\u2605" if sq == layout.start else PREMIUM_LABELS[premium]
            if label:
                out.append(f'<text x="{x + square // 2}" y="{y + square * 5 // 8}" font-size="{square // 3}" '
                           f'fill="{COLORS["premium_text"]}" text-anchor="middle">{label}</text>')
            continue
        blank = bool(tile & BLANK_FLAG)
        edge = COLORS["last"] if sq in highlight else COLORS["tile_edge"]
        width = 3 if sq in highlight else 1
        css = ' class="last"' if sq in highlight else ""
        out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{square - 2}" height="{square - 2}" rx="3" '
                   f'fill="{COLORS["tile"]}" stroke="{edge}" stroke-width="{width}"{css}/>')
        letter = escape(tile_set.char(tile).upper())
        colour = COLORS["blank_letter"] if blank else COLORS["letter"]
        font = square * 9 // 16 if len(letter) == 1 else square * 9 // (8 + 5 * len(letter))  # CH, L·L
        out.append(f'<text x="{x + square // 2}" y="{y + square * 11 // 16}" font-size="{font}" '
                   f'font-weight="bold" fill="{colour}" text-anchor="middle">{letter}</text>')
        if blank:
            out.append(f'<circle cx="{x + square - 7}" cy="{y + 7}" r="2.5" fill="{COLORS["blank_letter"]}" '
                       'class="blank"/>')
        else:
            out.append(f'<text x="{x + square - 4}" y="{y + square - 4}" font-size="{square // 4}" '
                       f'fill="{COLORS["letter"]}" text-anchor="end">{tile_set.value(tile)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def game_svg(game: Game, *, square: int = 32) -> str:
    """The board of a game with its last play highlighted."""
    last = game.last_play()
    title = " - ".join(f"{name} {score}" for name, score in zip(game.players, game.scores))
    return board_svg(game.board, last=last.squares if last else (), square=square, title=title)
