"""The anagram-code tables of the bingo odds (qiza.players.bingo_nb.tables), compiled, against
a plain Python reading of their definition."""

from __future__ import annotations

import numpy as np

from qiza.lexicon import load_lexicon
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
