"""Compiled (Numba) bingo odds of leaves: the kernel of :class:`qiza.players.engine.BingoOdds`.

The seven-letter words of a lexicon are kept as *anagram codes*: the word's letters sorted
(1..26), read as a base-32 number (``code = sum(letter_i << 5 * i)``), in sorted int64
arrays, so that "do these tiles anagram to a word" is a binary search:

* ``full``: the codes of the seven-letter anagrams;
* ``one``: the codes of every six letters that one blank completes to a word;
* ``two``: the codes of every five letters that two blanks complete to a word.

A leave (27 counts, index 0 the blank, no blank in it: the learned blank value already holds
its bingo power) of 5 or 6 tiles is valued by the probability that the draws from the rest of
a full bag make such a rack.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE


def anagram_code(letters: list[int]) -> int:
    """The code of some letters (1..26, any order), blanks left out."""
    code = 0
    for i, t in enumerate(sorted(t for t in letters if t)):
        code |= t << (5 * i)
    return code


@nb.njit(cache=CACHE)
def _has(codes, code):  # type: ignore[no-untyped-def]  # pragma: no cover
    lo, hi = 0, codes.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if codes[mid] < code:
            lo = mid + 1
        else:
            hi = mid
    return lo < codes.shape[0] and codes[lo] == code


@nb.njit(cache=CACHE)
def _code(counts):  # type: ignore[no-untyped-def]  # pragma: no cover
    code = 0
    shift = 0
    for t in range(1, 27):
        for _ in range(counts[t]):
            code |= t << shift
            shift += 5
    return code


@nb.njit(cache=CACHE)
def leave_prob(leave, bag, full, one, two):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Probability that a blank-free leave of 5 or 6 tiles draws to a seven-tile word rack."""
    size = 0
    for t in range(27):
        size += leave[t]
    if leave[0] or (size != 5 and size != 6):
        return 0.0
    rest = np.empty(27, np.int64)
    total = 0
    for t in range(27):
        rest[t] = max(bag[t] - leave[t], 0)
        total += rest[t]
    work = leave.copy()
    p = 0.0
    if size == 6:
        if total < 1:
            return 0.0
        for t in range(27):
            if rest[t] == 0:
                continue
            if t == 0:
                hit = _has(one, _code(work))
            else:
                work[t] += 1
                hit = _has(full, _code(work))
                work[t] -= 1
            if hit:
                p += rest[t] / total
        return p
    if total < 2:
        return 0.0
    pairs = total * (total - 1) / 2.0
    for t in range(27):
        if rest[t] == 0:
            continue
        if t > 0:  # the leave plus t must be six letters of a word, or no second tile helps
            work[t] += 1
            stem = _has(one, _code(work))
            work[t] -= 1
            if not stem:
                continue
        for u in range(t, 27):
            ways = rest[t] * (rest[t] - 1) / 2.0 if t == u else float(rest[t] * rest[u])
            if ways <= 0.0:
                continue
            if t == 0 and u == 0:
                hit = _has(two, _code(work))
            elif t == 0:
                work[u] += 1
                hit = _has(one, _code(work))
                work[u] -= 1
            else:
                work[t] += 1
                work[u] += 1
                hit = _has(full, _code(work))
                work[t] -= 1
                work[u] -= 1
            if hit:
                p += ways / pairs
    return p


@nb.njit(cache=CACHE)
def leave_probs(counts, rows, bag, full, one, two):  # type: ignore[no-untyped-def]  # pragma: no cover
    """:func:`leave_prob` of the leaves ``counts[rows]`` (one per row)."""
    out = np.zeros(rows.shape[0])
    for i in range(rows.shape[0]):
        out[i] = leave_prob(counts[rows[i]], bag, full, one, two)
    return out


def tables(words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``full``, ``one`` and ``two`` code arrays of a word list (upper-case A-Z words)."""
    full: set[int] = set()
    one: set[int] = set()
    two: set[int] = set()
    for w in words:
        if len(w) != 7:
            continue
        letters = sorted(ord(c) - 64 for c in w)
        full.add(anagram_code(letters))
        for i in range(7):
            five_six = letters[:i] + letters[i + 1:]
            one.add(anagram_code(five_six))
            for j in range(i + 1, 7):
                two.add(anagram_code(letters[:i] + letters[i + 1:j] + letters[j + 1:]))
    return (np.array(sorted(full), np.int64), np.array(sorted(one), np.int64), np.array(sorted(two), np.int64))


def warm_up() -> None:
    """Compile the kernels (a tiny word list)."""
    full, one, two = tables(["AEINRST"])
    bag = np.full(27, 4, np.int64)
    leave = np.zeros(27, np.int64)
    for t in (1, 5, 9, 14, 18):
        leave[t] = 1
    leave_probs(leave[None, :], np.zeros(1, np.int64), bag, full, one, two)
