"""The best-only search's word-by-word bounds of the whole rack's plays (:mod:`qiza.movegen_bingo`),
its bounds of the plays that put a blank down, and its read-on of the tiles right of an anchor
(:func:`qiza.movegen_search.search_anchor`): the best play is the one the search found before
them, to the tie.

``golden/best_moves.txt`` holds the best plays of the shared positions as the search found them
before those changes (main at 695e2de): the racks as given, with a blank for one of their tiles,
with per-tile leave values, with a value for every sub-leave and with none. Set
``QIZA_UPDATE_GOLDEN=1`` to rewrite it (only after a change meant to pick other plays on ties).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from qiza import gaddag
from qiza.alphabet import BLANK_FLAG
from qiza.analysis import to_place
from qiza.movegen import MAX_RACK, MoveGenerator, read_positions
from qiza.movegen_ties import row_equities
from qiza.ties import TIE, tie_order

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "movegen"
GOLDEN = Path(__file__).parent / "golden" / "best_moves.txt"


def _positions() -> list[tuple[np.ndarray, np.ndarray]]:
    if not (SHARED / "positions.txt").exists():
        pytest.skip(f"shared move generator data not found at {SHARED} (it is not part of the repo)")
    return read_positions(SHARED / "positions.txt")


def _with_blank(rack: np.ndarray) -> np.ndarray:
    """The rack with its first letter tile a blank (racks with a blank already: as they are)."""
    rack = rack.copy()
    if rack[0] == 0:
        letters = np.flatnonzero(rack[1:])
        if len(letters):
            rack[1 + letters[0]] -= 1
            rack[0] += 1
    return rack


def _sub_leaves(rack: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A value for every sub-leave of ``rack`` (the layout of :meth:`MoveGenerator.best`), the blank's high."""
    radix = np.zeros(len(rack), np.int64)
    full = 1
    for t in np.flatnonzero(rack):
        radix[t] = full
        full *= int(rack[t]) + 1
    codes = np.arange(full)
    counts = np.stack([(codes // max(int(radix[t]), 1)) % (int(rack[t]) + 1) for t in range(len(rack))], axis=1)
    sizes = counts.sum(axis=1)
    values = rng.normal(0, 4, full) + 20.0 * counts[:, 0]
    return radix, values, sizes


Search = tuple[np.ndarray, np.ndarray, np.ndarray | None, tuple[np.ndarray, np.ndarray, np.ndarray] | None]


def searches(gen: MoveGenerator, positions: list[tuple[np.ndarray, np.ndarray]]) -> list[tuple[int, str, Search]]:
    """The searches of the golden file: position, variant, and the board, rack and leave values."""
    rng = np.random.default_rng(13)
    out = []
    for i, (board, rack) in enumerate(positions):
        leave = rng.normal(0, 3, gen.kinds)
        leave[0] = 25.0
        blank = _with_blank(rack)
        variants: dict[str, tuple[np.ndarray, np.ndarray | None, tuple[np.ndarray, np.ndarray, np.ndarray] | None]]
        variants = {"given": (rack, leave, None), "blank": (blank, leave, None)}
        if i % 3 == 0:
            variants["score"] = (blank, None, None)
            variants["sub"] = (blank, None, _sub_leaves(blank, rng))
        for name, (r, lv, sub) in variants.items():
            out.append((i, name, (board, r, lv, sub)))
    return out


def best_lines(gen: MoveGenerator, positions: list[tuple[np.ndarray, np.ndarray]]) -> list[str]:
    """One line per search: position, variant, then the best play's cells, score and equity, as
    the search finds it first (``first_found``: the search's own order among ties, in
    thousandths)."""
    lines = []
    for i, name, (board, r, lv, sub) in searches(gen, positions):
        move = gen.best(board, r, lv, sub_leaves=sub, first_found=True)
        what = "-" if move is None else f"{move.cells()} {move.score} {move.equity:.3f}"
        lines.append(f"{i} {name} {what}")
    return lines


@pytest.fixture(scope="module")
def positions() -> list[tuple[np.ndarray, np.ndarray]]:
    return _positions()


def test_best_moves_are_those_found_before(twl_gen: MoveGenerator,
                                           positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    lines = best_lines(twl_gen, positions)
    if os.environ.get("QIZA_UPDATE_GOLDEN"):  # pragma: no cover
        GOLDEN.write_text("\n".join(lines) + "\n")
    want = GOLDEN.read_text().splitlines()
    assert len(lines) == len(want)
    bad = [(a, b) for a, b in zip(lines, want) if a != b]
    assert not bad, f"{len(bad)} searches differ (got, want): {bad[:5]}"


def test_best_is_the_first_by_tie_order_of_the_best_in_floats(twl_gen: MoveGenerator,
                                                               positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """:meth:`MoveGenerator.best` (the search keeping the plays within its margin of its best)
    against every play: the first by tie_order of the plays of the best equity in floats, and
    that equity; the same as the search's first play but on ties and equities closer than its
    thousandths."""
    checked = differ = 0
    for i, name, (board, r, lv, sub) in searches(twl_gen, positions)[::3]:
        best = twl_gen.best(board, r, lv, sub_leaves=sub)
        rows = twl_gen.generate_packed(board, r)
        assert (best is None) == (len(rows) == 0)
        if best is None:
            continue
        equity = row_equities(rows, r, lv, sub)
        tied = np.flatnonzero(equity >= equity.max() - TIE)
        moves = twl_gen.generate(board, r)
        want = min((moves[int(k)] for k in tied), key=lambda m: tie_order(to_place(m)))
        assert (best.cells(), best.score, best.equity) == (want.cells(), want.score, equity.max()), (i, name)
        first = twl_gen.best(board, r, lv, sub_leaves=sub, first_found=True)
        assert first is not None and first.equity == pytest.approx(best.equity, abs=0.0005 * MAX_RACK)
        differ += first.cells() != best.cells()
        checked += 1
    assert checked > 400 and differ > 0


def test_blank_racks_best_is_the_best_equity(twl_gen: MoveGenerator,
                                             positions: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """With a blank on the rack, the best play's equity is the largest of every placement's."""
    leave = np.round(np.linspace(-3, 3, twl_gen.kinds), 3)
    leave[0] = 25.0
    checked = 0
    for board, rack in positions[::5]:
        rack = _with_blank(rack)
        moves = twl_gen.generate(board, rack)
        best = twl_gen.best(board, rack, leave)
        assert (best is None) == (len(moves) == 0)
        if best is None:
            continue
        kept = np.repeat(rack.reshape(1, -1), len(moves), axis=0)
        for k in range(len(moves)):
            for t in moves.tiles[k][moves.tiles[k] != 0]:
                kept[k, 0 if t & BLANK_FLAG else t] -= 1
        equity = moves.score + kept @ leave
        assert best.equity == pytest.approx(equity.max(), abs=1e-6)
        checked += 1
    assert checked > 90


def _decode(first: int, second: int, length: int) -> str:
    from qiza.movegen_bingo import SLOT_LETTERS

    letters = []
    for pos in range(length):
        q = first if pos < SLOT_LETTERS else second
        letters.append(chr(64 + ((q >> (6 * (pos % SLOT_LETTERS))) & 63)))
    return "".join(letters)


def test_anagram_table_holds_every_word_by_its_letters() -> None:
    from qiza.movegen_bingo import _anagram_table, _has_key, _letter_keys

    keys = _letter_keys()

    def key(word: str) -> np.int64:  # the sum of the letters' keys, modulo 2^64
        total = sum(int(keys[ord(ch) - 64]) for ch in word) % (1 << 64)
        return np.int64(total - (1 << 64) if total >= 1 << 63 else total)

    words = ["RETAINS", "NASTIER", "STAINER", "RETINAS", "ANTSIER", "TRAINEES", "AT", "TA", "CAT",
             "INTERSTATE", "ABCDEFGHIJKLMNOPQRST", "ABCDEFGHIJKLMNOPQRSTU"]
    table = _anagram_table(gaddag.build(words), 7, 20)
    cap = int(table[0]) + 1
    assert table[-1] == 20
    found = []
    for j in range(cap):
        if table[j + 1]:
            found.append(_decode(int(table[cap + 1 + j]), int(table[2 * cap + 1 + j]), 20).rstrip("@"))
    assert sorted(found) == sorted(w for w in words if 7 <= len(w) <= 20)
    for word in found:
        assert _has_key(table, key(word))
    assert _has_key(table, key("SNITERA"))  # any order of the letters
    assert not _has_key(table, key("RETAINX"))
