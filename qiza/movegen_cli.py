"""``qiza movegen [--lexicon NAME|PATH] [--count] FILE``: every legal placement of the positions
of a file in the shared positions format (board lines, ``RACK: ...``, an empty line).

Prints for each position the number of placements (``--count``, one integer a line) or every
placement as ``index<TAB>score<TAB>cells`` (the ``moves.txt`` format), so that outside checks
can compare qiza with other engines.

A rack no player could hold is refused at its line with the rules engine's reason
(``positions.txt:16: rack 'ZZZZZZZ' holds 7 Z; the english set has 1 Z``): more of a tile
than the English set has, counting the board's. Racks of up to 9 tiles are read, as the
format allows them (the 8- and 9-tile variants play with the same set).
"""

from __future__ import annotations

import argparse
import sys

from qiza.cli import lexicon_option
from qiza.errors import QizaError


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's arguments."""
    parser.add_argument("--lexicon", default="twl06", type=lexicon_option, help="twl06 (default), sowpods, enable or a word-list file")
    parser.add_argument("--count", action="store_true", help="print only the number of placements of each position")
    parser.add_argument("file", help="positions file (board lines, RACK: line, empty line)")


def run(args: argparse.Namespace) -> int:
    """Generate and print the placements; returns the exit status."""
    from qiza.cli import prepare_move_generator

    prepare_move_generator()
    from qiza.movegen import load_generator, read_positions
    from qiza.rules import NINE_TILE

    # FileFormatError naming the file and line; the 9-tile rules: the largest rack the format holds
    positions = read_positions(args.file, rules=NINE_TILE)
    if not positions:  # an empty file listed nothing and exited 0, as if each position had no moves
        raise QizaError(f"{args.file}: no positions in it (each is 15 board lines and a 'RACK: ...' line)")
    try:
        gen = load_generator(args.lexicon)
    except FileNotFoundError as exc:
        raise QizaError(str(exc)) from None
    out = sys.stdout
    try:
        for i, (board, rack) in enumerate(positions):
            if args.count:
                out.write(f"{gen.count(board, rack)}\n")
            else:
                lines = [f"{i}\t{m.score}\t{m.cells()}\n" for m in gen.generate(board, rack)]
                out.write("".join(lines))
        out.flush()
    except BrokenPipeError:  # e.g. piped into head
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
