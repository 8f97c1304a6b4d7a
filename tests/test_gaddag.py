"""GADDAG construction tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from qiza import gaddag


def _strings(g: np.ndarray) -> set[str]:
    """Every complete string of the graph (separator written as '^')."""
    out: set[str] = set()
    stack = [(int(g[1]), int(g[3]), "")]
    while stack:
        node, mask, path = stack.pop()
        ends = int(g[node])
        for sym, child, cmask in gaddag.arcs(g, node, mask):
            ch = "^" if sym == 0 else chr(64 + sym)
            if (ends >> sym) & 1:
                out.add(path + ch)
            stack.append((child, cmask, path + ch))
    return out


def _expected(words: list[str]) -> set[str]:
    out = set()
    for w in words:
        for i in range(1, len(w)):
            out.add(w[:i][::-1] + "^" + w[i:])
        out.add(w[::-1])
    return out


def test_small_graph_strings() -> None:
    words = ["CARE", "CAR", "CARES", "ARE", "AT", "TA", "ZZZ"]
    g = gaddag.build(words)
    assert g.dtype == np.int32 and g.ndim == 1 and g[0] == gaddag.MAGIC
    assert _strings(g) == _expected(words)
    assert gaddag.words(g) == sorted(words)
    assert gaddag.contains(g, "CARES") and not gaddag.contains(g, "CARS")


def test_ignores_case_duplicates_and_bad_lengths() -> None:
    g = gaddag.build(["at", "AT", "A", "ta"])
    assert gaddag.words(g) == ["AT", "TA"]


def test_minimised() -> None:
    words = [a + b + c for a in "ABCD" for b in "EFGH" for c in "IJKL"]
    g = gaddag.build(words)
    assert _strings(g) == _expected(words)
    # a trie would have far more nodes than the minimised graph
    assert gaddag.node_count(g) < 60


def test_cache(tmp_path: Path) -> None:
    words = ["CAT", "CATS", "DOG"]
    g1 = gaddag.load_or_build(words, tmp_path)
    files = list(tmp_path.glob("gaddag-*.npy"))
    assert len(files) == 1
    g2 = gaddag.load_or_build(list(reversed(words)), tmp_path)
    assert np.array_equal(np.asarray(g1), np.asarray(g2))
    g3 = gaddag.load_or_build(words + ["COW"], tmp_path)
    assert len(list(tmp_path.glob("gaddag-*.npy"))) == 2
    assert "COW" in gaddag.words(g3)
    assert np.array_equal(gaddag.load_or_build(words, None), g1)
