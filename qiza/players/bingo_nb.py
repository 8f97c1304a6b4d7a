"""Compiled (Numba) bingo odds of leaves: the kernel of :class:`qiza.players.engine.BingoOdds`.

The seven-letter words of a lexicon are kept as *anagram codes*: the sum, modulo 2^64, of a
fixed random 64-bit number per letter (:data:`LETTER_KEYS`) over the word's letters, in sorted
int64 arrays, so that "do these tiles anagram to a word" is a binary search, and adding a tile
to a code is one addition. Two different multisets share a code with probability about 2^-64
(for a list of a million codes, a false match once in 10^13 look-ups).

* ``full``: the codes of the seven-letter anagrams;
* ``one``: the codes of every six letters that one blank completes to a word;
* ``two``: the codes of every five letters that two blanks complete to a word.

Any tile set of up to 63 letters: words are code strings (one character a tile,
``chr(64 + code)``, see :meth:`qiza.lexicon.Lexicon.code_words`), a leave is a count per tile kind
(index 0 the blank, no blank in it: the learned blank value already holds its bingo power) of 5 or 6 tiles is valued by the probability that the draws from the rest of
a full bag make such a rack.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from qiza.jitcache import CACHE

LETTER_KEYS = np.random.default_rng(0x51A7).integers(-(2**63), 2**63 - 1, 64, dtype=np.int64, endpoint=True)
"""The random 64-bit key of each letter code 1..63 (index 0, the blank, is never used)."""
_KEYS = [int(k) % 2**64 for k in LETTER_KEYS]


def anagram_code(letters: list[int]) -> int:
    """The code of some letters (codes 1..63, any order), blanks left out, as a signed 64-bit int."""
    code = sum(_KEYS[t] for t in letters if t) % 2**64
    return code - 2**64 if code >= 2**63 else code


@nb.njit(cache=CACHE)
def _find(codes, code):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The index of ``code`` in the sorted ``codes``, or -1."""
    at = np.searchsorted(codes, code)  # (one numpy call, not a loop, for the Python twin)
    return at if at < codes.shape[0] and codes[at] == code else -1


@nb.njit(cache=CACHE)
def _find_each(codes, wanted):  # type: ignore[no-untyped-def]  # pragma: no cover
    """:func:`_find` of each code of ``wanted`` (numpy calls, not a loop, for the Python twin)."""
    if codes.shape[0] == 0:
        return np.full(wanted.shape[0], -1, np.int64)
    at = np.minimum(np.searchsorted(codes, wanted), codes.shape[0] - 1)
    return np.where(codes[at] == wanted, at, -1)


@nb.njit(cache=CACHE)
def leave_prob(leave, bag, full, one, masks, two, keys):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Probability that a blank-free leave of 5 or 6 tiles draws to a seven-tile word rack."""
    kinds = leave.shape[0]
    size = leave.sum()
    if leave[0] or (size != 5 and size != 6):
        return 0.0
    rest = np.maximum(bag[:kinds] - leave, 0)  # (array operations, not loops, for the Python twin)
    total = rest.sum()
    base = (leave[1:] * keys[1:kinds]).sum()  # the leave's anagram code (the int64 sum wraps around)
    if size == 6:
        idx = _find(one, base)
        if total < 1 or idx < 0:  # no letter, so no blank either, makes it a word
            return 0.0
        p = rest[0] / total
        for t in range(1, kinds):
            if rest[t] and (masks[idx] >> t) & 1:
                p += rest[t] / total
        return p
    if total < 2:
        return 0.0
    pairs = total * (total - 1) / 2.0
    p = 0.0
    found = _find_each(one, base + keys[:kinds])  # the leave plus t: six letters of a word (index) or not (-1)
    if rest[0]:  # a blank first: with another blank, or with a letter u that makes six of a word
        if rest[0] > 1 and _find(two, base) >= 0:
            p += rest[0] * (rest[0] - 1) / 2.0 / pairs
        for u in range(1, kinds):
            if rest[u] and found[u] >= 0:
                p += rest[0] * rest[u] / pairs
    for t in range(1, kinds):
        if rest[t] == 0:
            continue
        idx = found[t]
        if idx < 0:
            continue  # the leave plus t is not six letters of a word: no second letter helps
        mask = masks[idx]
        for u in range(t, kinds):
            if (mask >> u) & 1:
                ways = rest[t] * (rest[t] - 1) / 2.0 if t == u else float(rest[t] * rest[u])
                p += ways / pairs
    return p


@nb.njit(cache=CACHE)
def leave_probs(counts, rows, bag, full, one, masks, two):  # type: ignore[no-untyped-def]  # pragma: no cover
    """:func:`leave_prob` of the leaves ``counts[rows]`` (one per row)."""
    out = np.zeros(rows.shape[0])
    for i in range(rows.shape[0]):
        out[i] = leave_prob(counts[rows[i]], bag, full, one, masks, two, LETTER_KEYS)
    return out


def _word_codes(letters: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each word (a row of 7 letter codes): its code, the codes of its 7 six-letter parts
    with the letter each leaves out, and the codes of its 21 five-letter parts (int64 sums
    wrap around: the sums modulo 2^64 of :func:`anagram_code`). numpy, not compiled: a fresh
    install gets the bingo odds without waiting for the compiler."""
    n = letters.shape[0]
    key = keys[letters]  # n x 7
    full = key.sum(axis=1)
    six = full[:, None] - key
    pairs = [(i, j) for i in range(7) for j in range(i + 1, 7)]
    five = np.empty((n, len(pairs)), np.int64)
    for k, (i, j) in enumerate(pairs):
        five[:, k] = six[:, i] - key[:, j]
    return full, six.reshape(-1), letters.astype(np.int64).reshape(-1), five.reshape(-1)


def tables(words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The code arrays of a word list (code strings, ``A``-``Z`` for English): ``full`` (the seven-letter
    anagrams), ``one`` (six letters of one) with ``masks`` (bit ``t``: letter ``t`` completes
    it; bit 63 is the sign bit), and ``two`` (five letters of one); each sorted, without repeats."""
    sevens = [w for w in words if len(w) == 7]
    letters = np.frombuffer("".join(sevens).encode("latin-1"), np.uint8).astype(np.int64).reshape(-1, 7) - 64
    full, six, out, five = _word_codes(letters, LETTER_KEYS)
    order = np.argsort(six, kind="stable")
    six = six[order]
    bits = np.left_shift(np.int64(1), out[order])
    ones, starts = np.unique(six, return_index=True)
    masks = np.bitwise_or.reduceat(bits, starts) if len(six) else np.zeros(0, np.int64)
    return np.unique(full), ones, masks.astype(np.int64), np.unique(five)


def warm_up() -> None:
    """Compile the kernel (a tiny word list)."""
    full, one, masks, two = tables(["AEINRST"])
    bag = np.full(27, 4, np.int64)
    leave = np.zeros(27, np.int64)
    for t in (1, 5, 9, 14, 18):
        leave[t] = 1
    leave_probs(leave[None, :], np.zeros(1, np.int64), bag, full, one, masks, two)
