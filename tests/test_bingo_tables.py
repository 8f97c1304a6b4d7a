"""The anagram-code tables of the bingo odds (qiza.players.bingo_nb.tables), compiled, against
a plain Python reading of their definition."""

from __future__ import annotations

import warnings

import numba as nb
import numpy as np

from qiza.jitcache import python_twin
from qiza.lexicon import load_lexicon
from qiza.players import bingo_nb, bingo_py
from qiza.players.bingo_nb import anagram_code, tables


def _reference(words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    full: set[int] = set()
    one: dict[int, int] = {}
    two: set[int] = set()
    for word in (w for w in words if len(w) == 7):
        letters = [ord(c) - 64 for c in word]
        full.add(anagram_code(letters))
        for i in range(7):
            six = anagram_code(letters[:i] + letters[i + 1:])
            one[six] = one.get(six, 0) | (1 << letters[i])
            for j in range(i + 1, 7):
                two.add(anagram_code(letters[:i] + letters[i + 1:j] + letters[j + 1:]))
    ones = sorted(one)
    masks = [one[c] - 2**64 if one[c] >= 2**63 else one[c] for c in ones]
    return (np.array(sorted(full), np.int64), np.array(ones, np.int64), np.array(masks, np.int64),
            np.array(sorted(two), np.int64))


def test_the_tables_are_those_of_their_definition() -> None:
    lexicon = load_lexicon("enable")
    words = lexicon.code_words(lexicon.tile_set)[::7]  # every 7th word: a few thousand sevens
    for got, want in zip(tables(words), _reference(words)):
        assert got.dtype == np.int64 and np.array_equal(got, want)
    # letter codes up to 63: the mask's bit 63 is the sign bit
    high = ["".join(chr(64 + c) for c in (63, 1, 2, 3, 4, 5, 6)), "".join(chr(64 + c) for c in (62, 1, 2, 3, 4, 5, 7))]
    for got, want in zip(tables(high), _reference(high)):
        assert np.array_equal(got, want)
    assert (tables(high)[2] < 0).any()
    assert all(len(t) == 0 for t in tables(["SHORT", "EIGHTIES"]))  # no seven-letter word


@nb.njit
def _plus(a, b):  # type: ignore[no-untyped-def]  # pragma: no cover
    return a + b


@nb.njit
def _twice_plus(a, b):  # type: ignore[no-untyped-def]  # pragma: no cover
    return _plus(a, b) * 2


def test_the_python_twin_of_a_compiled_function_compiles_nothing() -> None:
    """bingo_py was a second copy of the bingo kernel kept in step by hand; the uncompiled odds are
    now the compiled kernel's own source run by Python (jitcache.python_twin), whose calls go to
    the Python functions of the module's compiled ones, not to compiled code."""
    twin = python_twin(_twice_plus)
    big = np.int64(2**62)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the int64 sum wraps around, silently, as compiled
        assert twin(big, big) == 0 and twin(np.int64(3), np.int64(4)) == 14
    assert not _twice_plus.signatures and not _plus.signatures  # nothing was compiled
    assert _twice_plus(big, big) == twin(big, big)
    assert bingo_py.leave_probs.__wrapped__.__code__ is bingo_nb.leave_probs.py_func.__code__
