"""The move generator without compiled code: the same moves as :mod:`qiza.movegen`, in Python.

:class:`PyMoveGenerator` finds every legal placement of a rack (Appel and Jacobson's
algorithm over a letter trie of the word list, expanded as the search reaches it) and returns them in the compiled
generator's packed rows (see :mod:`qiza.movegen`), so that a :class:`~qiza.movegen.MoveList`,
:meth:`best` and everything built on them work unchanged. It follows the compiled
generator's conventions: a one-tile play is produced once, on an empty board only plays
across are produced, and ``best`` finds the same play with the same equity
(:mod:`qiza.movegen_ties`: in floats, ties broken by :func:`qiza.ties.tie_order`).

It is some hundred times slower than the compiled generator (tens of milliseconds to a
few seconds a position, the most with two blanks), and needs no compilation: the computer
players use it for their first moves on a machine where the compiled code is not in the
cache yet, while it is compiled in another process (see :mod:`qiza.coldstart`).
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from qiza.alphabet import ENGLISH
from qiza.layout import STANDARD, Layout
from qiza.movegen import (
    MAX_RACK,
    MAX_SIZE,
    O_EQUITY,
    O_META,
    O_TILES,
    O_WIDTH,
    GeneratedMove,
    Labels,
    MoveGenerator,
    MoveList,
    _move_from_row,
    code_labels,
    kind_values,
)
from qiza.movegen_search import META_BLANKS
from qiza.movegen_ties import SubLeaves, decode_rows, packed_row_tiles, pick_best

Node = list[Any]
"""A node of the lazy letter trie: ``[lo, hi, depth, children, is_word, words]``, the words
``words[lo:hi]`` of the sorted list that start with the node's ``depth`` letters; its
children (letter code -> node) are found on first use (:func:`children`). Words are code
strings (:meth:`qiza.alphabet.TileSet.code_string`: the words themselves for English)."""

_TRIES: dict[object, Node] = {}
_LOCK = threading.Lock()


def trie(words: Iterable[str]) -> Node:
    """The root of the lazy letter trie of code strings (upper-case ``A``..``Z`` words for
    English; only sorts them: building a whole trie of a large lexicon in Python would take
    seconds)."""
    ordered = sorted(words)
    if not ordered:
        return [0, 0, 0, {}, False, ordered]
    return [0, len(ordered), 0, None, ordered[0] == "", ordered]


def children(node: Node) -> dict[int, Node]:
    """The children of a trie node (letter code -> node), found once with a binary search each."""
    kids: dict[int, Node] | None = node[3]
    if kids is not None:
        return kids
    lo, hi, depth, _, is_word, words = node
    if is_word:
        lo += 1  # the node's own word sorts first
    kids = {}
    while lo < hi:
        word = words[lo]
        ch = word[depth]
        nxt = bisect.bisect_left(words, word[:depth] + chr(ord(ch) + 1), lo, hi)
        kids[ord(ch) - 64] = [lo, nxt, depth + 1, None, len(word) == depth + 1, words]
        lo = nxt
    node[3] = kids
    return kids


def trie_for(key: object, words: Iterable[str]) -> Node:
    """The trie of ``words``, made once per ``key`` (e.g. the lexicon's content hash)."""
    with _LOCK:
        root = _TRIES.get(key)
        if root is None:
            root = _TRIES[key] = trie(words)
        return root


def forget_tries() -> None:
    """Drop the cached tries (once the compiled generator has taken over)."""
    with _LOCK:
        _TRIES.clear()


def _decode_points(out: np.ndarray) -> tuple[np.ndarray, ...]:
    score, row, col, dirn, length, ntiles, equity, tiles = decode_rows(out)
    return score, row, col, dirn, length, ntiles, equity / 1000.0, tiles


class PyMoveGenerator(MoveGenerator):
    """A move generator for a word list, layout, tile values and bingo rule, in Python
    (the methods of :class:`~qiza.movegen.MoveGenerator`, which it stands in for; it has no
    graph and never calls compiled code).

    ``words``: code strings of an alphabet of ``letters`` letters (upper-case words for
    English); ``key`` names the word list for the trie cache (the same key must mean the same
    words); ``labels`` spell :attr:`~qiza.movegen.GeneratedMove.word` (see
    :class:`~qiza.movegen.MoveGenerator`).
    """

    def __init__(self, words: Iterable[str], layout: Layout = STANDARD,
                 values: Sequence[int] | np.ndarray = ENGLISH.values, bingo_tiles: int = 7,
                 bingo_bonus: int = 50, *, key: object = None, letters: int = 26,
                 labels: Labels | None = None) -> None:
        # no super().__init__(): it prepares the compiled search, which this class never uses
        word_list = words if isinstance(words, (set, frozenset)) else frozenset(words)
        self.trie = trie_for(key if key is not None else id(word_list), word_list)
        self.layout = layout
        self.size = layout.size
        if self.size > MAX_SIZE:
            raise ValueError(f"boards up to {MAX_SIZE}x{MAX_SIZE} are supported")
        self.letters = letters
        self.kinds = letters + 1
        self.labels = labels if labels is not None else code_labels(letters)
        self.values = kind_values(values, letters)
        self._val = [int(x) for x in self.values]
        size = self.size
        lm = [int(x) for x in layout.letter_multipliers()]
        wm = [int(x) for x in layout.word_multipliers()]
        self._prem = ((lm, wm), ([lm[c * size + r] for r in range(size) for c in range(size)],
                                 [wm[c * size + r] for r in range(size) for c in range(size)]))
        self.start = layout.start
        self.bingo_tiles = bingo_tiles
        self.bingo_bonus = bingo_bonus

    # -- public interface ----------------------------------------------------------------
    def generate_packed(self, board: np.ndarray, rack: np.ndarray) -> np.ndarray:
        """Every legal placement as packed ``int32`` rows (the compiled generator's format)."""
        b, r = self._check(board, rack)
        rows = self._search(b, r)
        out = np.zeros((len(rows), O_WIDTH), np.int32)
        if rows:
            out[:] = np.asarray(rows, dtype=np.int64).astype(np.int32)
        return out

    def generate(self, board: np.ndarray, rack: np.ndarray) -> MoveList:
        """Every legal placement of ``rack`` on ``board``."""
        out = self.generate_packed(board, rack)
        return MoveList(out, np.asarray(board, np.int32).ravel(), self.size, decode=_decode_points,
                        labels=self.labels)

    def count(self, board: np.ndarray, rack: np.ndarray) -> int:
        """Number of legal placements."""
        b, r = self._check(board, rack)
        return len(self._search(b, r))

    def best(self, board: np.ndarray, rack: np.ndarray,
             leave_values: Sequence[float] | np.ndarray | None = None, *,
             sub_leaves: SubLeaves | None = None, first_found: bool = False) -> GeneratedMove | None:
        """The placement of the highest score, or score plus leave values (per tile, or per
        sub-leave), or None: the play :meth:`qiza.movegen.MoveGenerator.best` finds, with the
        same equity (in floats), of plays of the same equity the first by
        :func:`qiza.ties.tie_order`. ``first_found``: the first of the best equity in thousandths
        in this generator's order (not the compiled one's), with that equity."""
        b, r = self._check(board, rack)
        if sub_leaves is not None:
            sub_leaves = self.check_sub_leaves(np.asarray(r), sub_leaves)
        elif leave_values is not None and np.shape(leave_values) != (self.kinds,):
            raise ValueError(f"leave_values must have {self.kinds} entries")
        rows = self._search(b, r)
        if not rows:
            return None
        board2d = np.asarray(b, np.int32).reshape(self.size, self.size)
        if not first_found:
            packed = np.asarray(rows, dtype=np.int64).astype(np.int32)
            i, equity = pick_best(packed, np.asarray(r), self.labels, leave_values, sub_leaves)
            return _move_from_row(packed[i], board2d, self.labels, equity)
        if sub_leaves is not None:
            radix = np.asarray(sub_leaves[0], np.int64)
            sub_milli = np.round(np.asarray(sub_leaves[1], np.float64) * 1000).astype(np.int64)
            for row in rows:
                row[O_EQUITY] += int(sub_milli[int(np.dot(self._leave_counts(row, r), radix))])
        elif leave_values is not None:
            milli = np.round(np.asarray(leave_values, dtype=np.float64) * 1000).astype(np.int64)
            for row in rows:
                row[O_EQUITY] += int(np.dot(self._leave_counts(row, r), milli))
        best = max(rows, key=lambda row: row[O_EQUITY])
        return _move_from_row(np.asarray(best, dtype=np.int64), board2d, self.labels)

    def best_many(self, boards: np.ndarray, racks: np.ndarray,
                  leave_values: Sequence[float] | np.ndarray | None = None) -> list[GeneratedMove | None]:
        """:meth:`best` of each position, ``first_found`` (as the compiled generator's)."""
        flat = np.asarray(boards, dtype=np.int32).reshape(len(racks), -1)
        return [self.best(flat[i], np.asarray(racks)[i], leave_values, first_found=True) for i in range(len(flat))]

    def count_many(self, boards: np.ndarray, racks: np.ndarray) -> np.ndarray:
        """:meth:`count` of each position."""
        flat = np.asarray(boards, dtype=np.int32).reshape(len(racks), -1)
        return np.array([self.count(flat[i], np.asarray(racks)[i]) for i in range(len(flat))], np.int64)

    # -- the search ----------------------------------------------------------------------
    def _check(self, board: np.ndarray, rack: np.ndarray) -> tuple[list[int], list[int]]:
        b = np.asarray(board, dtype=np.int32).ravel()
        if len(b) != self.size * self.size:
            raise ValueError(f"board must have {self.size * self.size} squares")
        r = np.asarray(rack, dtype=np.int32)
        if r.shape != (self.kinds,):
            raise ValueError(f"a rack is {self.kinds} counts (index 0 = blanks)")
        if (r < 0).any() or r.sum() > MAX_RACK:
            raise ValueError(f"a rack holds 0..{MAX_RACK} tiles")
        return [int(x) for x in b], [int(x) for x in r]

    def _leave_counts(self, row: list[int], rack: list[int]) -> np.ndarray:
        """The rack counts left after the move of a packed row."""
        left = np.array(rack, np.int64)
        for t in packed_row_tiles(row[O_META], row[O_TILES:O_WIDTH]):
            if t:
                left[0 if t & 64 else t] -= 1
        return left

    def _search(self, board: list[int], rack: list[int]) -> list[list[int]]:
        size = self.size
        empty = not any(board)
        rows: list[list[int]] = []
        transposed = [board[c * size + r] for r in range(size) for c in range(size)]
        for d in range(1 if empty else 2):
            b = board if d == 0 else transposed
            lm, wm = self._prem[d]
            start = self.start if d == 0 else (self.start % size) * size + self.start // size
            _Search(self, b, lm, wm, d, rack, empty, start, rows).run()
        return rows


class _Search:
    """One direction's search (plays along the rows of ``b``, the board or its transpose)."""

    def __init__(self, gen: PyMoveGenerator, b: list[int], lm: list[int], wm: list[int], direction: int,
                 rack: list[int], empty: bool, start: int, rows: list[list[int]]) -> None:
        self.gen = gen
        self.b = b
        self.lm = lm
        self.wm = wm
        self.d = direction
        self.rack = list(rack)
        self.empty = empty
        self.start = start
        self.rows = rows
        self.size = gen.size
        self.val = gen._val
        self.placed = [0] * self.size

    def _cross(self) -> tuple[list[set[int] | None], list[int]]:
        """Per square: the letters the perpendicular word allows (None: no such word) and the
        face value of that word's tiles (-1: none)."""
        size, b, trie = self.size, self.b, self.gen.trie
        allowed: list[set[int] | None] = [None] * (size * size)
        xsum = [-1] * (size * size)
        for r in range(size):
            for c in range(size):
                sq = r * size + c
                if b[sq]:
                    allowed[sq] = set()
                    continue
                up = r > 0 and b[sq - size]
                down = r + 1 < size and b[sq + size]
                if not up and not down:
                    continue
                top = r
                while top > 0 and b[(top - 1) * size + c]:
                    top -= 1
                bot = r
                while bot + 1 < size and b[(bot + 1) * size + c]:
                    bot += 1
                above = [b[i * size + c] for i in range(top, r)]
                below = [b[i * size + c] for i in range(r + 1, bot + 1)]
                xsum[sq] = sum(self.val[t] for t in above + below if not t & 64)
                node: Node | None = trie
                for t in above:
                    node = children(node).get(t & 63) if node is not None else None
                ok: set[int] = set()
                for letter, child in children(node).items() if node is not None else ():
                    n: Node | None = child
                    for t in below:
                        n = children(n).get(t & 63) if n is not None else None
                    if n is not None and n[4]:
                        ok.add(letter)
                allowed[sq] = ok
        return allowed, xsum

    def run(self) -> None:
        size, b = self.size, self.b
        self.allowed, self.xsum = self._cross()
        trie = self.gen.trie
        ntiles = sum(self.rack)
        for r in range(size):
            self.r = r
            prev = -1
            base = r * size
            for c in range(size):
                sq = base + c
                if b[sq]:
                    continue
                if self.empty:
                    anchor = sq == self.start
                else:
                    anchor = bool((c > 0 and b[sq - 1]) or (c + 1 < size and b[sq + 1])
                                  or (r > 0 and b[sq - size]) or (r + 1 < size and b[sq + size]))
                if not anchor:
                    continue
                ok = self.allowed[sq]
                if ok is None or ok:
                    self.anchor = c
                    if c > 0 and b[sq - 1]:
                        first = c - 1
                        while first > 0 and b[base + first - 1]:
                            first -= 1
                        node: Node | None = trie
                        main = 0
                        for i in range(first, c):
                            t = b[base + i]
                            node = children(node).get(t & 63) if node is not None else None
                            if node is None:
                                break
                            if not t & 64:
                                main += self.val[t & 63]
                        if node is not None:
                            self._extend(c, node, first, main, 1, 0, 0)
                    else:
                        self._left(trie, c, min(c - prev - 1, ntiles - 1), 0)
                prev = c

    def _left(self, node: Node, anchor: int, limit: int, k: int) -> None:
        """Left parts of ``k`` tiles ending left of the anchor (then extended to the right)."""
        if k:
            first = anchor - k
            base = self.r * self.size
            main = 0
            wmul = 1
            for i in range(first, anchor):
                t = self.placed[i]
                main += (0 if t & 64 else self.val[t]) * self.lm[base + i]
                wmul *= self.wm[base + i]
            self._extend(anchor, node, first, main, wmul, 0, k)
        else:
            self._extend(anchor, node, anchor, 0, 1, 0, 0)
        if k >= limit:
            return
        rack = self.rack
        for letter, child in children(node).items():
            for tile, idx in ((letter, letter), (letter | 64, 0)):
                if rack[idx] <= 0:
                    continue
                rack[idx] -= 1
                # the left part is written right to left as it grows: shift it one square left
                placed = self.placed
                for i in range(anchor - k - 1, anchor - 1):
                    placed[i] = placed[i + 1]
                placed[anchor - 1] = tile
                self._left(child, anchor, limit, k + 1)
                for i in range(anchor - 1, anchor - k - 1, -1):
                    placed[i] = placed[i - 1]
                placed[anchor - k - 1] = 0
                rack[idx] += 1

    def _extend(self, pos: int, node: Node, first: int, main: int, wmul: int, xsc: int, nt: int) -> None:
        """Fill square ``pos`` and onwards from trie ``node`` (``first``: the word's first square)."""
        size, b = self.size, self.b
        base = self.r * size
        while pos < size and b[base + pos]:
            t = b[base + pos]
            nxt = children(node).get(t & 63)
            if nxt is None:
                return
            node = nxt
            if not t & 64:
                main += self.val[t & 63]
            self.placed[pos] = 0
            pos += 1
        if pos > self.anchor and nt and node[4]:
            self._record(first, pos - 1, main, wmul, xsc, nt)
        if pos >= size:
            return
        sq = base + pos
        ok = self.allowed[sq]
        lmul = self.lm[sq]
        wmq = self.wm[sq]
        xs = self.xsum[sq]
        rack = self.rack
        for letter, child in children(node).items():
            if ok is not None and letter not in ok:
                continue
            for tile, idx in ((letter, letter), (letter | 64, 0)):
                if rack[idx] <= 0:
                    continue
                rack[idx] -= 1
                tv = 0 if idx == 0 else self.val[letter]
                self.placed[pos] = tile
                self._extend(pos + 1, child, first, main + tv * lmul, wmul * wmq,
                             xsc + (xs + tv * lmul) * wmq if xs >= 0 else xsc, nt + 1)
                self.placed[pos] = 0
                rack[idx] += 1

    def _record(self, first: int, last: int, main: int, wmul: int, xsc: int, nt: int) -> None:
        if self.d == 1 and nt == 1:
            # a one-tile play is produced once: here only when it makes no word across
            sq = next(i for i in range(first, last + 1) if self.placed[i])
            if self.xsum[self.r * self.size + sq] >= 0:
                return
        score = main * wmul + xsc
        if nt >= self.gen.bingo_tiles:
            score += self.gen.bingo_bonus
        r = self.r
        meta = (r | (first << 5)) if self.d == 0 else (first | (r << 5))
        acc = sh = 0
        k = O_TILES
        blanks = 0
        bit = META_BLANKS
        row = [score, 0, score * 1000, 0, 0, 0, 0, 0]
        for i in range(first, last + 1):
            t = self.placed[i]
            acc |= (t & 63) << sh
            if t:
                blanks |= ((t >> 6) & 1) << bit
                bit += 1
            sh += 6
            if sh == 30:
                row[k] = acc
                k += 1
                acc = sh = 0
        if sh:
            row[k] = acc
        row[O_META] = meta | (self.d << 10) | ((last - first + 1) << 11) | (nt << 16) | blanks
        self.rows.append(row)
