"""Move generator: every legal placement of a rack on a board, compiled with Numba.

The generator walks a GADDAG (:mod:`qiza.gaddag`) from every anchor square
(Gordon's algorithm, compiled in :mod:`qiza.movegen_search`); this module holds the
compiled entry point and the Python API.

Boards are ``size * size`` arrays of tile codes: 0 empty, 1..N a natural tile,
``letter | 0x40`` a blank played as that letter. Racks are N + 1 counts, index 0 = blanks:
27 for English, 33 for Polish. Any alphabet of up to 63 letters (the graph says how many:
:func:`qiza.gaddag.letter_count`) and any board of up to 21x21 squares is supported; a
multi-letter tile (Spanish ``CH``) is one code like any other.

Counting convention (matches the shared reference data): a move is the set of
tiles placed; a one-tile play is produced once (not once per direction); on an
empty board only plays across are produced.

Best-only mode (:meth:`MoveGenerator.best`, :mod:`qiza.movegen_best`) bounds the
equity of every anchor's plays first and searches the most promising anchors first,
stopping when no other play can be better. It works in thousandths of a point and keeps the
plays within a few of them of its best; the best of those in floats, ties broken by
:func:`qiza.ties.tie_order`, is the play (:mod:`qiza.movegen_ties`): the same play and
equity as the Python generator and the static player's full evaluation.

The compiled entry points release the GIL; a generator can be shared by threads.

Packed rows (:meth:`MoveGenerator.generate_packed`): one ``int32`` row of ``O_WIDTH``
columns per move. ``row[O_SCORE]`` is the score; ``row[O_META]`` is
``r | c << 5 | direction << 10 | length << 11 | tiles placed << 16 | blanks << 21`` (first
square ``(r, c)``, direction 0 across, 1 down, ``length`` squares of the line; bit ``21 + i``
set when the i-th tile placed, counted from the first square, is a blank);
``row[O_EQUITY]`` is the equity in milli-points (best mode only); from ``O_TILES`` on, the
letters of the line's squares, five per ``int32`` and 6 bits each from the low bits up
(the letter code, 0 for a square played through).

Usage::

    from qiza.movegen import MoveGenerator, load_lexicon_words, parse_rack
    from qiza import gaddag
    g = gaddag.load_or_build(load_lexicon_words("twl06"), gaddag.default_cache_dir())
    gen = MoveGenerator(g)                     # layout, tile values, bingo rule
    moves = gen.generate(board, parse_rack("WINDY??"))   # a MoveList (numpy arrays)
    moves.text(0)                              # (7, 3, False, "WINDY")
    moves[0].cells(), moves[0].word            # "D8=W E8=I ...", "WINDY"
    best = gen.best(board, rack, leave_values) # a GeneratedMove or None
    gen.count_many(boards, racks)              # many positions in one compiled loop
    gen.generate_packed(board, rack)           # the moves as packed int32 rows
"""

from __future__ import annotations

import gzip
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numba as nb
import numpy as np

from qiza import gaddag
from qiza.alphabet import BLANK_FLAG, ENGLISH
from qiza.errors import QizaError
from qiza.jitcache import CACHE
from qiza.layout import STANDARD, Layout
from qiza.movegen_best import _generate_best
from qiza.movegen_bingo import SLOT_LETTERS, _anagram_table
from qiza.movegen_search import (
    MAX_RACK,
    MAX_SIZE,
    MAX_SUB,
    O_EQUITY,
    O_HAVE,
    O_META,
    O_SCORE,
    O_TILES,
    O_WIDTH,
    P_BBONUS,
    P_BLANKS0,
    P_BMIN,
    P_CAP,
    P_HASLEAVE,
    P_HAVEBEST,
    P_KINDS,
    P_MARGIN,
    P_MAXLEAVE,
    P_MODE,
    P_NEAR,
    P_NOUT,
    P_OVERFLOW,
    P_SIZE,
    P_START,
    P_STARTT,
    W_LEAVE,
    W_LVB,
    W_RACK,
    W_RADIX,
    W_SIZE,
    W_SUB,
    W_VAL,
    _gen_dir,
    decode_packed,
    prepare,
)
from qiza.movegen_ties import SubLeaves, margin, packed_row_tiles, pick_best
from qiza.rules import Rules

__all__ = [
    "FIRST_RUN_NOTE", "MAX_RACK", "MAX_SIZE", "O_EQUITY", "O_META", "O_SCORE", "O_TILES", "O_WIDTH", "PASS",
    "BoardLineError", "GeneratedMove", "MoveGenerator", "MoveList", "decode_packed", "exchanges", "load_generator", "load_lexicon_words",
    "parse_board", "parse_rack", "read_positions", "read_reference_moves",
    "stack_positions", "warm_up",
]


@nb.njit(cache=CACHE, nogil=True)
def _generate(g, anag, w, out, board, lm, wm, lmT, wmT, start_sq, start_sqT):  # type: ignore[no-untyped-def]  # pragma: no cover
    nk = w[P_KINDS]
    rbits = 0
    for t in range(1, nk):
        if w[W_RACK + t] > 0:
            rbits |= 1 << t
    if w[P_HASLEAVE] == 1:  # (a sub-leave table comes with its largest value set)
        ml = 0
        for t in range(nk):
            if w[W_LEAVE + t] > 0:
                ml += w[W_RACK + t] * w[W_LEAVE + t]
        w[P_MAXLEAVE] = ml
    if w[P_MODE] == 1:
        _generate_best(g, anag, w, out, board, lm, wm, lmT, wmT, start_sq, start_sqT, rbits)
        return
    gen_all(g, w, out, board, lm, wm, lmT, wmT, start_sq, start_sqT, rbits)


@nb.njit(cache=CACHE, nogil=True)
def gen_all(g, w, out, board, lm, wm, lmT, wmT, start_sq, start_sqT, rbits):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Every placement of the rack of ``w`` (rack letters ``rbits``) on ``board`` into ``out``
    (all-moves mode): the plays along the rows of the board, then of its transpose (an empty
    board: across only). The endgame search calls it too."""
    size = w[P_SIZE]
    b = board.reshape((size, size))
    empty = True
    for i in range(size * size):
        if board[i] != 0:
            empty = False
            break
    bt = np.ascontiguousarray(b.T)
    for d in range(1 if empty else 2):  # one call site keeps compilation short
        _gen_dir(g, w, out, b if d == 0 else bt, lm if d == 0 else lmT, wm if d == 0 else wmT, d,
                 start_sq if d == 0 else start_sqT, rbits)


@nb.njit(cache=CACHE, nogil=True)
def _many(g, anag, w0, out, boards, racks, prem, result):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Run many positions in one call: counts (mode 0) or best rows (mode 1) into ``result``.

    ``prem`` rows: letter and word multipliers of the board, then of its transpose
    (few arguments: the dispatcher's per-call cost grows with their number).
    ``anag``: the anagram table of :func:`qiza.movegen_bingo._anagram_table` (best mode's bingo test and bounds).
    """
    lm = prem[0]
    wm = prem[1]
    lmT = prem[2]
    wmT = prem[3]
    start_sq = w0[P_START]
    start_sqT = w0[P_STARTT]
    nk = racks.shape[1]
    for i in range(boards.shape[0]):
        total = 0
        bad = False
        for t in range(nk):
            c = racks[i, t]
            bad = bad or c < 0
            total += c
        if bad or total > MAX_RACK:
            result[i, O_HAVE] = -1  # a bad rack: the caller raises
            continue
        w = w0.copy()
        w[P_CAP] = out.shape[0]
        for t in range(nk):
            w[W_RACK + t] = racks[i, t]
        w[P_BLANKS0] = racks[i, 0]
        _generate(g, anag, w, out, boards[i], lm, wm, lmT, wmT, start_sq, start_sqT)
        if w[P_MODE] == 0:
            result[i, 0] = -1 if w[P_OVERFLOW] else w[P_NOUT]
        else:
            if w[P_HAVEBEST]:
                for k in range(O_WIDTH):
                    result[i, k] = out[0, k]
                result[i, O_HAVE] = 1 if not w[P_NEAR] else -2 if w[P_OVERFLOW] else w[P_NOUT]


# ---------------------------------------------------------------------------------------
# Python API
# ---------------------------------------------------------------------------------------

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
Labels = tuple[str, ...]
"""The label of each letter code, code ``i`` at index ``i - 1`` (:attr:`qiza.alphabet.TileSet.letters`)."""


def code_labels(letters: int) -> Labels:
    """Labels for an alphabet known only by its size: ``A``..``Z`` and on, ``chr(64 + code)``."""
    return tuple(chr(64 + i) for i in range(1, letters + 1))


def _tile_char(t: int) -> str:
    """The code-string character of a tile (``chr(64 + code)``, lower case for a blank; ``.`` for 0)."""
    if t == 0:
        return "."
    if t & BLANK_FLAG:
        return chr(64 + (t & 63)).lower()
    return chr(64 + t)


@dataclass(frozen=True)
class GeneratedMove:
    """One placement found by the generator: its first square, direction, and the tiles of its whole line
    (a game's moves are :class:`qiza.move.Move`; :func:`qiza.analysis.to_place` makes a
    :class:`~qiza.move.Place` of this; ``Move``, its old name here, still imports, with a warning).

    ``tiles[i]`` is the tile placed on the i-th square of the line (a letter code,
    ``letter | 0x40`` for a blank) or 0 where a tile already on the board is
    played through; ``word`` is the full word with those letters filled in, as the
    tiles' labels read (``CHICO``).
    """

    score: int
    row: int
    col: int
    down: bool
    tiles: tuple[int, ...]
    word: str
    equity: float | None = None

    def text(self) -> tuple[int, int, bool, str]:
        """``(row, col, down, word)``: upper case placed, lower case blank, ``.`` played through
        (one character per square, ``chr(64 + code)``: the letters themselves for English)."""
        return (self.row, self.col, self.down, "".join(_tile_char(t) for t in self.tiles))

    def squares(self) -> list[tuple[int, int, int]]:
        """``(row, col, tile)`` of every tile placed."""
        out = []
        for i, t in enumerate(self.tiles):
            if t:
                r, c = (self.row + i, self.col) if self.down else (self.row, self.col + i)
                out.append((r, c, t))
        return out

    def cells(self) -> str:
        """Placed tiles in the reference text form, e.g. ``H8=Q H9=i`` (column letter, row number)."""
        return " ".join(f"{LETTERS[c]}{r + 1}={_tile_char(t)}" for r, c, t in self.squares())

    @property
    def tile_count(self) -> int:
        """Number of tiles placed."""
        return sum(1 for t in self.tiles if t)



if not TYPE_CHECKING:  # (hidden from mypy, so that a misspelt name of this module stays an error)
    def __getattr__(name: str) -> object:
        """``Move``: the old name of :class:`GeneratedMove`, with a :class:`DeprecationWarning`."""
        if name == "Move":
            warnings.warn("qiza.movegen.Move is deprecated: it is now qiza.movegen.GeneratedMove "
                          "(qiza.move.Move is the union of the moves of a game)", DeprecationWarning, stacklevel=2)
            return GeneratedMove
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

class MoveList:
    """The moves of one position as numpy arrays (one entry per move).

    ``score``, ``row``, ``col``, ``direction`` (0 across, 1 down), ``length``
    (squares of the line), ``ntiles`` (tiles placed), ``tiles`` (n x 21 tile
    codes of the line, 0 where played through).
    """

    score: np.ndarray
    row: np.ndarray
    col: np.ndarray
    direction: np.ndarray
    length: np.ndarray
    ntiles: np.ndarray
    equity: np.ndarray
    tiles: np.ndarray

    def __init__(self, out: np.ndarray, board: np.ndarray, size: int,
                 decode: Callable[[np.ndarray], tuple[np.ndarray, ...]] | None = None,
                 labels: Labels | None = None) -> None:
        self._out = out
        self.board = board.reshape(size, size)
        self.size = size
        self.labels = labels or code_labels(26)
        (self.score, self.row, self.col, self.direction, self.length, self.ntiles,
         self.equity, self.tiles) = (decode or _decode)(out)

    def __len__(self) -> int:
        return int(self._out.shape[0])

    def __getitem__(self, i: int) -> GeneratedMove:
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        r, c, d, n = int(self.row[i]), int(self.col[i]), bool(self.direction[i]), int(self.length[i])
        tiles = tuple(int(t) for t in self.tiles[i, :n])
        return GeneratedMove(int(self.score[i]), r, c, d, tiles, _full_word(self.board, r, c, d, tiles, self.labels),
                    float(self.equity[i]))

    def __iter__(self) -> Iterator[GeneratedMove]:
        for i in range(len(self)):
            yield self[i]

    def text(self, i: int) -> tuple[int, int, bool, str]:
        """The plain text form of move ``i`` (see :meth:`GeneratedMove.text`)."""
        return self[i].text()

    def cells(self, i: int) -> str:
        """The reference cells text of move ``i``."""
        return self[i].cells()

    def word(self, i: int) -> str:
        """The main word of move ``i`` with played-through letters filled in."""
        return self[i].word


_Decoded = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _decode(out: np.ndarray) -> _Decoded:
    """Unpack output rows: score, row, col, direction, length, ntiles, equity (points), tiles (n x 21)."""
    score, row, col, dirn, length, ntiles, equity, tiles = decode_packed(np.ascontiguousarray(out[:, :O_WIDTH]))
    return score, row, col, dirn, length, ntiles, equity / 1000.0, tiles


def _full_word(board: np.ndarray, r: int, c: int, d: bool, tiles: tuple[int, ...], labels: Labels) -> str:
    word = []
    for i, t in enumerate(tiles):
        if t == 0:
            t = int(board[r + i, c] if d else board[r, c + i])
        word.append(labels[(t & 63) - 1])
    return "".join(word)


def _move_from_row(row: np.ndarray, board: np.ndarray, labels: Labels | None = None,
                   equity: float | None = None) -> GeneratedMove:
    """Decode one output row (scalar code: much faster than :func:`_decode` for a single move);
    ``equity``: the move's (else the row's, in thousandths)."""
    v = row.tolist()
    meta = v[O_META]
    r, c, d = meta & 31, (meta >> 5) & 31, (meta >> 10) & 1
    t = tuple(packed_row_tiles(meta, v[O_TILES:O_WIDTH]))
    return GeneratedMove(v[O_SCORE], r, c, bool(d), t, _full_word(board, r, c, bool(d), t, labels or code_labels(26)),
                v[O_EQUITY] / 1000.0 if equity is None else equity)


def kind_values(values: Sequence[int] | np.ndarray, letters: int) -> np.ndarray:
    """Tile values indexed by tile kind (``letters + 1`` entries, 0 for the blank) from the
    letters' values (``letters`` entries, as :attr:`~qiza.alphabet.TileSet.values`) or
    ``letters + 1`` entries with index 0 the blank."""
    v = np.asarray(values, dtype=np.int32)
    out = np.zeros(letters + 1, np.int32)
    if len(v) == letters:
        out[1:] = v
    elif len(v) == letters + 1:
        out[1:] = v[1:]
    else:
        raise ValueError(f"values must have {letters} or {letters + 1} entries")
    return out


class MoveGenerator:
    """A move generator for one graph, layout, tile values and bingo rule.

    The graph's alphabet (:func:`qiza.gaddag.letter_count`: N letters, 26 for English) sets
    the rack's length: N + 1 counts, index 0 the blank. ``values`` are tile values indexed
    by letter code (N + 1 entries with index 0 the blank, or N such as
    ``ENGLISH.values``). A play of at least ``bingo_tiles`` tiles scores ``bingo_bonus``
    extra. ``labels`` (the tile set's letters) spell :attr:`GeneratedMove.word`; by default
    ``chr(64 + code)``, the letters themselves for English.
    """

    def __init__(
        self,
        graph: np.ndarray,
        layout: Layout = STANDARD,
        values: Sequence[int] | np.ndarray = ENGLISH.values,
        bingo_tiles: int = 7,
        bingo_bonus: int = 50,
        labels: Labels | None = None,
    ) -> None:
        if graph[0] != gaddag.MAGIC:
            raise ValueError("not a GADDAG array")
        letters = gaddag.letter_count(graph)
        self.wide = letters > gaddag.NARROW_LETTERS
        prepare(self.wide)  # the compiled search's recursive core (compiled, or loaded from the cache, once)
        self.dtype = np.int64 if self.wide else np.int32
        self.graph = np.array(graph, dtype=self.dtype)  # a writable in-memory copy
        self.letters = letters
        self.kinds = letters + 1
        self.labels = labels if labels is not None else code_labels(letters)
        if len(self.labels) != letters:
            raise ValueError(f"labels must name the {letters} letters of the graph")
        self.layout = layout
        size = layout.size
        if size > MAX_SIZE:
            raise ValueError(f"boards up to {MAX_SIZE}x{MAX_SIZE} are supported")
        self.size = size
        self.values = kind_values(values, letters)
        self.lm = np.asarray(layout.letter_multipliers(), np.int32)
        self.wm = np.asarray(layout.word_multipliers(), np.int32)
        self.lmT = np.ascontiguousarray(self.lm.reshape(size, size).T).ravel()
        self.wmT = np.ascontiguousarray(self.wm.reshape(size, size).T).ravel()
        self.start = layout.start
        sr, sc = divmod(self.start, size)
        self.startT = sc * size + sr
        self.prem = np.ascontiguousarray(np.stack([self.lm, self.wm, self.lmT, self.wmT]))
        self.bingo_tiles = bingo_tiles
        self.bingo_bonus = bingo_bonus
        self._anag: np.ndarray | None = None
        self._no_anagrams = np.zeros(1, np.int64)
        self._local = threading.local()  # output buffers per thread (the compiled code releases the GIL)
        self._templates = (self._work(np.zeros(self.kinds, np.int32), 0, 0),
                           self._work(np.zeros(self.kinds, np.int32), 1, 1))

    def _anagrams(self) -> np.ndarray:
        """The words of ``bingo_tiles`` letters and more (up to the board's size) by their letter-multiset
        keys (built on first use): the bingo test and bounds of the best-only search."""
        table: np.ndarray | None = self._anag
        if table is None:
            if 2 <= self.bingo_tiles <= MAX_RACK:
                longest = max(min(self.size, 2 * SLOT_LETTERS), self.bingo_tiles + 1)
                table = _anagram_table(self.graph, self.bingo_tiles, longest)
            else:
                table = self._no_anagrams
            self._anag = table
        return table

    def _buffer(self) -> np.ndarray:
        out: np.ndarray | None = getattr(self._local, "out", None)
        if out is None:
            out = self._local.out = np.zeros((32768, O_WIDTH), np.int32)
        return out

    def _work(self, rack: np.ndarray, mode: int, cap: int) -> np.ndarray:
        w = np.zeros(W_SIZE, self.dtype)
        w[W_RACK:W_RACK + self.kinds] = np.asarray(rack, dtype=np.int32)
        w[W_VAL:W_VAL + self.kinds] = self.values
        w[P_SIZE] = self.size
        w[P_BMIN] = self.bingo_tiles
        w[P_BBONUS] = self.bingo_bonus
        w[P_CAP] = cap
        w[P_MODE] = mode
        w[P_START] = self.start
        w[P_STARTT] = self.startT
        w[P_KINDS] = self.kinds
        return w

    def _board(self, board: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(board, dtype=np.int32).ravel()
        if len(b) != self.size * self.size:
            raise ValueError(f"board must have {self.size * self.size} squares")
        return b

    def _rack(self, rack: np.ndarray) -> np.ndarray:
        r = np.asarray(rack, dtype=np.int32)
        if r.shape != (self.kinds,):
            raise ValueError(f"a rack is {self.kinds} counts (index 0 = blanks)")
        return r

    def _run(
        self, boards: np.ndarray, racks: np.ndarray, mode: int, out: np.ndarray,
        leave_values: Sequence[float] | np.ndarray | None = None,
    ) -> np.ndarray:
        """Run the compiled loop (the only compiled entry point) over positions; returns its result rows."""
        boards = np.ascontiguousarray(boards, dtype=np.int32).reshape(len(boards), -1)
        if boards.shape[1] != self.size * self.size:
            raise ValueError(f"board must have {self.size * self.size} squares")
        racks = np.ascontiguousarray(racks, dtype=np.int32).reshape(len(boards), self.kinds)
        w0 = self._templates[mode]  # read-only here (threads share it); the compiled loop copies it
        if leave_values is not None:
            w0 = self._with_leaves(w0, leave_values)
        result = np.zeros((len(boards), O_WIDTH + 1), np.int32)
        _many(self.graph, self._anagrams() if mode == 1 else self._no_anagrams, w0, out, boards, racks, self.prem,
              result)
        if len(result) and (result[0, O_HAVE] < 0 or (len(result) > 1 and (result[:, O_HAVE] < 0).any())):
            raise ValueError(f"a rack holds 0..{MAX_RACK} tiles")
        return result

    def _with_leaves(self, template: np.ndarray, leave_values: Sequence[float] | np.ndarray) -> np.ndarray:
        """A copy of a work array with per-tile leave values (points, one per tile kind)."""
        kinds = len(self.values)
        lv = np.asarray(leave_values, dtype=np.float64)
        if lv.shape != (kinds,):
            raise ValueError(f"leave_values must have {kinds} entries")
        w0 = template.copy()
        w0[W_LEAVE:W_LEAVE + kinds] = np.round(lv * 1000).astype(np.int32)
        w0[P_HASLEAVE] = 1
        return w0

    def search_arrays(self, *leave_values: Sequence[float] | np.ndarray) -> tuple[np.ndarray, ...]:
        """What compiled code needs to run the best-only search itself, as
        :func:`qiza.players.sim_nb.rollouts` does: the graph, the anagram table, the work
        arrays of a search with each of the given per-tile leave values (one row each, as
        :meth:`best` with ``leave_values``) and the premium rows."""
        works = np.stack([self._with_leaves(self._templates[1], lv) for lv in leave_values])
        return self.graph, self._anagrams(), works, self.prem

    def _all(self, board: np.ndarray, rack: np.ndarray) -> tuple[np.ndarray, int]:
        b = self._board(board)
        r = self._rack(rack)
        while True:
            out = self._buffer()
            n = int(self._run(b[None, :], r[None, :], 0, out)[0, 0])
            if n >= 0:
                return out, n
            self._local.out = np.zeros((out.shape[0] * 2, O_WIDTH), np.int32)  # overflow: grow, redo

    def generate_packed(self, board: np.ndarray, rack: np.ndarray) -> np.ndarray:
        """Every legal placement of ``rack`` on ``board`` as packed ``int32`` rows (see the
        module doc): the fast route for search code that reads moves itself
        (:meth:`generate` decodes the same rows into a :class:`MoveList` with numpy)."""
        out, n = self._all(board, rack)
        return out[:n].copy()

    def generate(self, board: np.ndarray, rack: np.ndarray) -> MoveList:
        """Every legal placement of ``rack`` on ``board``."""
        out, n = self._all(board, rack)
        return MoveList(out[:n].copy(), self._board(board), self.size, labels=self.labels)

    def count(self, board: np.ndarray, rack: np.ndarray) -> int:
        """Number of legal placements (no Python objects are made)."""
        return self._all(board, rack)[1]

    def best(
        self, board: np.ndarray, rack: np.ndarray, leave_values: Sequence[float] | np.ndarray | None = None,
        *, sub_leaves: SubLeaves | None = None, first_found: bool = False,
    ) -> GeneratedMove | None:
        """The highest-scoring placement (or highest score + leave value), or None.

        ``leave_values``: optional value of each tile kept on the rack, indexed
        like the rack (27 entries for English, index 0 = blank); a move's equity is its
        score plus the values of the tiles it leaves.

        ``sub_leaves``: instead, a value for every sub-leave of the rack, as
        ``(radix, values, sizes)``: a sub-leave keeping ``k[t]`` copies of tile ``t`` has the
        code ``sum(k[t] * radix[t])`` (``radix`` one int per tile kind, 0 for tiles not on the
        rack); ``values[code]`` is its value in points and ``sizes[code]`` its number of tiles (the
        layout of :class:`qiza.players.leaves.RackLeaves`).

        The move's :attr:`GeneratedMove.equity` is its score plus the value of what it keeps, in floats
        (:func:`qiza.movegen_ties.row_equities`: with ``sub_leaves`` the static player's
        full evaluation's number to the last bit), and of the plays of the best equity (within
        :data:`qiza.ties.TIE`) it is the first by :func:`qiza.ties.tie_order`: the same play as
        :class:`~qiza.movegen_py.PyMoveGenerator` finds. The compiled search bounds and compares
        equities in thousandths of a point (leave values rounded), so it keeps every play within
        :func:`qiza.movegen_ties.margin` of its best, and the choice is made among those.

        ``first_found``: the first play of the best equity in thousandths the search finds, its
        :attr:`GeneratedMove.equity` in thousandths, as :meth:`best_many` and the simulation's compiled
        rollouts take it (a little faster: no play within the margin is searched for).
        """
        b = self._board(board)
        r = self._rack(rack)
        work = self._best_work(r, leave_values, sub_leaves)
        if first_found:
            result = np.zeros((1, O_WIDTH + 1), np.int32)
            self._search_best(work, b, r, np.zeros((1, O_WIDTH), np.int32), result)
            return _move_from_row(result[0], b.reshape(self.size, self.size), self.labels) if result[0, O_HAVE] else None
        rows = self._near_best(work, b, r, margin(leave_values, sub_leaves))
        if not len(rows):
            return None
        i, equity = pick_best(rows, r, self.labels, leave_values, sub_leaves)
        return _move_from_row(rows[i], b.reshape(self.size, self.size), self.labels, equity)

    def _best_work(self, r: np.ndarray, leave_values: Sequence[float] | np.ndarray | None,
                   sub_leaves: SubLeaves | None) -> np.ndarray:
        """The work array of a best-only search of rack ``r`` with these leave values (see :meth:`best`)."""
        if sub_leaves is None:
            return self._templates[1] if leave_values is None else self._with_leaves(self._templates[1], leave_values)
        radix, values, sizes = self.check_sub_leaves(r, sub_leaves)
        kinds = self.kinds
        nr = int(r.sum())
        milli = np.round(values * 1000).astype(np.int64)
        w0 = self._templates[1].copy()
        w0[W_RADIX:W_RADIX + kinds] = radix
        w0[W_SUB:W_SUB + len(milli)] = milli
        none = np.iinfo(np.int64).min
        kept = np.full(nr + 1, none)  # the best sub-leave by tiles played
        np.maximum.at(kept, nr - sizes, milli)
        w0[W_LVB + 1:W_LVB + nr + 1] = np.where(kept[1:] == none, 0, kept[1:])
        w0[P_MAXLEAVE] = int(milli.max())
        w0[P_HASLEAVE] = 2
        return w0

    def check_sub_leaves(self, rack: np.ndarray, sub_leaves: SubLeaves) -> SubLeaves:
        """``sub_leaves`` (see :meth:`best`) as arrays, when they are those of ``rack`` (a
        :class:`ValueError` says what they must be otherwise)."""
        radix, values, sizes = (np.asarray(x) for x in sub_leaves)
        kinds = self.kinds
        full = int((radix * rack).sum()) if radix.shape == (kinds,) else -1
        if radix.shape != (kinds,) or values.shape != (full + 1,) or sizes.shape != values.shape or full >= MAX_SUB:
            raise ValueError(f"sub_leaves must be (radix of {kinds}, a value and a size per sub-leave code) "
                             "of this rack")
        return radix, values.astype(np.float64), sizes

    def _search_best(self, work: np.ndarray, b: np.ndarray, r: np.ndarray, out: np.ndarray, result: np.ndarray) -> None:
        """One best-only search of board ``b`` and rack ``r`` with the work array ``work`` into
        ``out`` and ``result`` (see :func:`_many`)."""
        _many(self.graph, self._anagrams(), work, out, b[None, :], r[None, :], self.prem, result)
        if result[0, O_HAVE] == -1:
            raise ValueError(f"a rack holds 0..{MAX_RACK} tiles")

    def _near_best(self, work: np.ndarray, b: np.ndarray, r: np.ndarray, within: int) -> np.ndarray:
        """The packed rows of the plays within ``within`` milli-points of the best the compiled
        search finds (every play when more than its buffer holds: rare)."""
        work = work.copy()
        work[P_NEAR] = 1
        work[P_MARGIN] = within
        out: np.ndarray | None = getattr(self._local, "near", None)
        if out is None:
            out = self._local.near = np.zeros((NEAR_ROWS, O_WIDTH), np.int32)
        result = np.zeros((1, O_WIDTH + 1), np.int32)
        self._search_best(work, b, r, out, result)
        n = int(result[0, O_HAVE])
        if n == -2:  # more plays that close than the buffer holds
            return self.generate_packed(b, r)
        return out[:n].copy()

    def count_many(self, boards: np.ndarray, racks: np.ndarray) -> np.ndarray:
        """Number of placements of each position (boards: n x size*size, racks: n x kinds), in one
        compiled loop."""
        result = self._run(boards, racks, 0, self._buffer())
        counts = result[:, 0].copy()
        for i in np.flatnonzero(counts < 0):  # output buffer overflow: redo with a larger buffer
            counts[i] = self.count(np.asarray(boards).reshape(len(counts), -1)[i], np.asarray(racks)[i])
        return counts

    def best_many(
        self, boards: np.ndarray, racks: np.ndarray, leave_values: Sequence[float] | np.ndarray | None = None
    ) -> list[GeneratedMove | None]:
        """:meth:`best` of each position with ``first_found`` (the first play of the best equity in
        thousandths the search finds), in one compiled loop."""
        result = self._run(boards, racks, 1, np.zeros((1, O_WIDTH), np.int32), leave_values)
        flat = np.asarray(boards, dtype=np.int32).reshape(len(result), -1)
        moves: list[GeneratedMove | None] = []
        for i in range(len(result)):
            if result[i, O_HAVE]:
                moves.append(_move_from_row(result[i].copy(), flat[i].reshape(self.size, self.size), self.labels))
            else:
                moves.append(None)
        return moves


NEAR_ROWS = 64
"""The plays within the margin of the best one search of :meth:`MoveGenerator.best` keeps (more: every play is
generated)."""

FIRST_RUN_NOTE = ("Compiling the move generator: the first run of qiza on a machine takes from half a minute "
                  "to a few minutes, with the machine's load (later runs load it in about a second)...")


def warm_up(note: Callable[[str], object] | None = None, after: float = 2.0, *, wide: bool = False) -> None:
    """Load the generator's compiled code from the disk cache, or compile it (the first run on a
    machine: half a minute on a quiet 2-core machine, minutes on a busy one). If that takes more
    than ``after`` seconds, ``note`` is called once with :data:`FIRST_RUN_NOTE` so that the caller
    can say why nothing happens. ``wide``: the search of alphabets of more than 30 letters too."""
    timer = threading.Timer(after, note, args=(FIRST_RUN_NOTE,)) if note is not None else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        gen = MoveGenerator(gaddag.build(["AT", "TA"]))
        board = np.zeros(STANDARD.size * STANDARD.size, np.int32)
        gen.count(board, parse_rack("AT"))
        gen.best(board, parse_rack("AT"))
        gen.generate(board, parse_rack("AT"))
        if wide:
            wide_gen = MoveGenerator(gaddag.build(["AT", "TA"], gaddag.NARROW_LETTERS + 1),
                                     values=[1] * (gaddag.NARROW_LETTERS + 1))
            rack = np.zeros(wide_gen.kinds, np.int32)
            rack[:27] = parse_rack("AT")
            wide_gen.count(board, rack)
            wide_gen.best(board, rack)
            wide_gen.generate(board, rack)
    finally:
        if timer is not None:
            timer.cancel()


def stack_positions(positions: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Boards and racks of many positions as two 2-D int32 arrays (for the ``*_many`` methods)."""
    boards = np.ascontiguousarray(np.stack([np.asarray(b, np.int32).ravel() for b, _ in positions]))
    racks = np.ascontiguousarray(np.stack([np.asarray(r, np.int32) for _, r in positions]))
    return boards, racks


def exchanges(rack: np.ndarray) -> list[np.ndarray]:
    """Every distinct non-empty sub-multiset of a rack (as count arrays of length 27)."""
    r = [int(x) for x in np.asarray(rack)]
    idx = [i for i, c in enumerate(r) if c]
    result: list[np.ndarray] = []

    def rec(k: int, cur: list[int]) -> None:
        if k == len(idx):
            if any(cur):
                a = np.zeros(len(r), np.int32)
                for i, c in zip(idx, cur):
                    a[i] = c
                result.append(a)
            return
        for c in range(r[idx[k]] + 1):
            cur.append(c)
            rec(k + 1, cur)
            cur.pop()

    rec(0, [])
    return result


PASS = None
"""The pass move (a turn that places nothing and scores 0)."""


# ---------------------------------------------------------------------------------------
# Text formats and lexicons
# ---------------------------------------------------------------------------------------

class BoardLineError(QizaError):
    """A board line that cannot be read (a :class:`~qiza.errors.QizaError`, as every error of bad
    input); :attr:`row` is its index among the board's lines."""

    def __init__(self, row: int, message: str) -> None:
        super().__init__(message)
        #: the line's index among the board's lines (0 for the first)
        self.row = row


def parse_board(lines: Sequence[str]) -> np.ndarray:
    """A board from text lines (``A-Z`` tile, ``a-z`` blank, ``.`` empty) as a flat int32 array
    (:class:`BoardLineError` names a bad line)."""
    size = len(lines)
    b = np.zeros(size * size, np.int32)
    for r, line in enumerate(lines):
        if len(line) != size:
            raise BoardLineError(r, f"board line {r + 1} has {len(line)} squares, not {size}")
        for c, ch in enumerate(line):
            if ch == ".":
                continue
            if "A" <= ch <= "Z":
                b[r * size + c] = ord(ch) - 64
            elif "a" <= ch <= "z":
                b[r * size + c] = (ord(ch) - 96) | BLANK_FLAG
            else:
                raise BoardLineError(r, f"bad board character {ch!r}")
    return b


def parse_rack(text: str) -> np.ndarray:
    """Rack counts (27, index 0 = blanks) from text like ``AB?``."""
    r = np.zeros(27, np.int32)
    for ch in text.strip():
        if ch == "?":
            r[0] += 1
        elif ch.isalpha() and ch.isascii():
            r[ord(ch.upper()) - 64] += 1
        else:
            raise ValueError(f"bad rack character {ch!r}")
    return r


def read_positions(path: str | Path, size: int = STANDARD.size, *,
                   rules: Rules | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """Positions of a file: ``size`` board lines, then ``RACK: ...``, then an empty line, each
    as the board's array (:func:`parse_board`) and the rack's counts (:func:`parse_rack`).

    The file is read by :func:`qiza.positions.load`, with its errors: a
    :class:`~qiza.errors.FileFormatError` with the line number of the first problem (a board of
    the wrong size, a bad tile, a rack of more than :data:`MAX_RACK` tiles), or when the file
    cannot be read or is not UTF-8. With ``rules`` (whose board has ``size`` lines), a rack no
    player could hold under them is a problem too: more tiles than their racks hold, or more of
    a tile than their set has, counting the board's (:func:`qiza.analysis.check_rack`, whose
    message it gives); their tile set spells the board and the racks.
    """
    from qiza import positions
    from qiza.layout import LAYOUTS

    if rules is not None:
        if rules.layout.size != size:
            raise ValueError(f"the rules' board has {rules.layout.size} lines, not {size}")
        layout = rules.layout
    else:
        if not 1 <= size <= MAX_SIZE:
            raise ValueError(f"a board has 1 to {MAX_SIZE} lines, not {size}")
        layout = next((lay for lay in LAYOUTS.values() if lay.size == size), None) or _plain_layout(size)
    tile_set = rules.tile_set if rules is not None else ENGLISH
    out = []
    for position in positions.load(path, layout=layout, rules=rules):
        rack = np.zeros(tile_set.size + 1, np.int32)
        for code in tile_set.codes(position.racks[0]):
            rack[code] += 1
        out.append((np.array(position.board.cells, np.int32), rack))
    return out


def _plain_layout(size: int) -> Layout:
    """A board of ``size`` lines without premium squares (only the start square)."""
    rows = ["." * size] * size
    middle = size // 2
    rows[middle] = "." * middle + "*" + "." * (size - middle - 1)
    return Layout(f"plain-{size}", tuple(rows))


def load_lexicon_words(name: str) -> list[str]:
    """Upper-case words of ``twl06``, ``sowpods``, ``enable`` or a word-list file (see :mod:`qiza.lexicon`)."""
    from qiza.lexicon import load_lexicon

    return sorted(load_lexicon(name).words)


def load_generator(lexicon: str = "twl06", layout: Layout = STANDARD) -> MoveGenerator:
    """A generator for a named lexicon (the graph is cached in :func:`gaddag.default_cache_dir`)."""
    g = gaddag.load_or_build(load_lexicon_words(lexicon), gaddag.default_cache_dir())
    return MoveGenerator(g, layout)


def read_reference_moves(path: str | Path) -> dict[int, set[tuple[str, int]]]:
    """The shared ``moves.txt.gz``: position index -> set of (cells, score)."""
    ref: dict[int, set[tuple[str, int]]] = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            i, score, cells = line.rstrip("\n").split("\t")
            ref.setdefault(int(i), set()).add((cells, int(score)))
    return ref

