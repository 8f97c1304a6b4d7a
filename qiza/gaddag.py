"""A compiled GADDAG word graph stored as one flat ``int32`` numpy array.

Layout of the array ``g``:

* ``g[0]`` = :data:`MAGIC`, ``g[1]`` = offset of the root node, ``g[2]`` = number
  of words, ``g[3]`` = children bitmask of the root, ``g[4]`` = number of nodes,
  ``g[5..7]`` reserved.
* A node at offset ``n`` is ``g[n]`` = its "ends a word" bitmask, then one arc per
  child in increasing symbol order: ``g[n + 1 + 2k]`` is the offset of the k-th
  child and ``g[n + 2 + 2k]`` that child's children bitmask. A node's own children
  mask is held by the arc that leads to it (the root's in the header), so a search
  learns what a child accepts without touching the child's memory.

Bit 0 of a mask is the GADDAG separator (:data:`SEP`), bits 1..26 are the
letters ``A``..``Z`` (the tile codes of :mod:`qiza.alphabet`). Bit ``x`` of the
ends mask of node ``n`` says that the path to ``n`` followed by ``x`` is a
complete GADDAG string. For every word ``w`` of length ``k`` the graph holds
``rev(w[:i]) + SEP + w[i:]`` for ``1 <= i < k`` and ``rev(w)``. The separator,
being bit 0, is always a node's first arc.

The graph is minimised (equal sub-graphs are shared) and built by a compiled
incremental construction over the sorted GADDAG strings, which takes a few
seconds for the 270k words of SOWPODS.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numba as nb
import numpy as np

from qiza.jitcache import CACHE

MAGIC = 0x32474447  # "GDG2"
"""First int of every graph array (of this layout)."""
HEADER = 8
"""Number of header ints before the first node."""
SEP = 0
"""Mask bit (and arc label) of the GADDAG separator."""
MAX_WORD = 21
"""Longest word accepted (the largest supported board is 21 squares wide)."""
FORMAT_VERSION = 3  # 3: the same layout, nodes in breadth-first order


def _encode_words(words: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
    """Words as a (n, MAX_WORD) uint8 array of letters 1..26 (0-padded) and their lengths."""
    clean = sorted({w.strip().upper() for w in words})
    clean = [w for w in clean if 2 <= len(w) <= MAX_WORD]
    n = len(clean)
    if n == 0:
        return np.zeros((0, MAX_WORD), np.uint8), np.zeros(0, np.int32)
    lengths = np.fromiter(map(len, clean), dtype=np.int32, count=n)
    try:
        blob = "".join(w.ljust(MAX_WORD, "@") for w in clean).encode("ascii")
    except UnicodeEncodeError:
        bad = next(w for w in clean if not w.isascii())
        raise ValueError(f"word {bad!r} has characters other than A-Z") from None
    arr = np.frombuffer(blob, dtype=np.uint8).reshape(n, MAX_WORD) - np.uint8(64)
    inside = np.arange(MAX_WORD)[None, :] < lengths[:, None]
    ok = np.where(inside, (arr >= 1) & (arr <= 26), arr == 0)
    if not ok.all():
        bad = clean[int(np.flatnonzero(~ok.all(axis=1))[0])]
        raise ValueError(f"word {bad!r} has characters other than A-Z")
    return np.ascontiguousarray(arr), lengths


@nb.njit(cache=CACHE)
def _sort_keys(strings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """Two uint64 keys per row (11 symbols of 5 bits each) that sort like the rows."""
    n, width = strings.shape
    hi = np.zeros(n, np.uint64)
    lo = np.zeros(n, np.uint64)
    for i in range(n):
        a = np.uint64(0)
        b = np.uint64(0)
        for j in range(11):
            a = (a << np.uint64(5)) | np.uint64(strings[i, j])
        for j in range(11, 22):
            v = np.uint64(strings[i, j]) if j < width else np.uint64(0)
            b = (b << np.uint64(5)) | v
        hi[i] = a
        lo[i] = b
    return hi, lo


@nb.njit(cache=CACHE)
def _gaddag_strings(letters: np.ndarray, lengths: np.ndarray) -> np.ndarray:  # pragma: no cover
    """All GADDAG strings as rows of symbols (letter + 1, separator 1, padding 0)."""
    total = 0
    for k in lengths:
        total += k
    width = letters.shape[1] + 1
    out = np.zeros((total, width), np.uint8)
    r = 0
    for w in range(letters.shape[0]):
        k = lengths[w]
        for i in range(1, k + 1):
            p = 0
            for j in range(i - 1, -1, -1):
                out[r, p] = letters[w, j] + 1
                p += 1
            if i < k:
                out[r, p] = 1
                p += 1
                for j in range(i, k):
                    out[r, p] = letters[w, j] + 1
                    p += 1
            r += 1
    return out


@nb.njit(cache=CACHE)
def _hash_node(store: np.ndarray, off: int) -> np.int64:  # pragma: no cover
    mask = store[off]
    n = 2
    m = mask
    while m:
        m &= m - 1
        n += 1
    h = np.uint64(1469598103934665603)
    for i in range(n):
        h = (h ^ np.uint64(store[off + i] & 0xFFFFFFFF)) * np.uint64(1099511628211)
    return np.int64(h >> np.uint64(1))


@nb.njit(cache=CACHE)
def _build(strings: np.ndarray, order: np.ndarray, nwords: int) -> np.ndarray:  # pragma: no cover
    """Incremental minimal-graph construction over sorted GADDAG strings.

    Produces the construction layout (a node is its children mask, its ends mask, then
    one child offset per child; 4 header ints), which :func:`_to_arcs` converts."""
    width = strings.shape[1]
    cap = 1 << 20
    store = np.zeros(cap, np.int32)
    store[2] = nwords
    top = 4
    # the empty node (no children) shared by every leaf
    store[top] = 0
    store[top + 1] = 0
    empty = top
    top += 2
    hcap = 1 << 18
    table = np.full(hcap, -1, np.int32)
    hcount = 0
    # temporary path nodes
    tmask = np.zeros(width + 1, np.int32)
    tends = np.zeros(width + 1, np.int32)
    tfinal = np.zeros(width + 1, np.bool_)
    tchild = np.zeros((width + 1, 28), np.int32)
    prev = np.zeros(width, np.uint8)
    prevlen = 0
    node_buf = np.zeros(30, np.int32)
    nstr = order.shape[0]
    for si in range(nstr + 1):
        if si < nstr:
            row = strings[order[si]]
            slen = 0
            while slen < width and row[slen] != 0:
                slen += 1
            p = 0
            while p < slen and p < prevlen and row[p] == prev[p]:
                p += 1
            if p == slen and slen == prevlen:
                continue  # duplicate
        else:
            slen = 0
            p = 0
        # freeze path nodes deeper than p
        for d in range(prevlen, p, -1):
            # register temporary node d
            mask = tmask[d]
            node_buf[0] = mask
            node_buf[1] = tends[d]
            n = 2
            m = mask
            while m:
                b = 0
                while not (m >> b) & 1:
                    b += 1
                node_buf[n] = tchild[d, b]
                n += 1
                m &= m - 1
            if mask == 0:
                off = empty
            else:
                # hash
                h = np.uint64(1469598103934665603)
                for i in range(n):
                    h = (h ^ np.uint64(node_buf[i] & 0xFFFFFFFF)) * np.uint64(1099511628211)
                slot = np.int64(h >> np.uint64(1)) & (hcap - 1)
                off = -1
                while table[slot] != -1:
                    cand = table[slot]
                    same = True
                    if store[cand] != node_buf[0]:
                        same = False
                    else:
                        for i in range(1, n):
                            if store[cand + i] != node_buf[i]:
                                same = False
                                break
                    if same:
                        off = cand
                        break
                    slot = (slot + 1) & (hcap - 1)
                if off == -1:
                    if top + n > cap:
                        ncap = cap * 2
                        nstore = np.zeros(ncap, np.int32)
                        nstore[:top] = store[:top]
                        store = nstore
                        cap = ncap
                    off = top
                    for i in range(n):
                        store[top + i] = node_buf[i]
                    top += n
                    table[slot] = off
                    hcount += 1
                    if hcount * 2 > hcap:
                        nh = hcap * 2
                        ntable = np.full(nh, -1, np.int32)
                        for t in range(hcap):
                            c = table[t]
                            if c != -1:
                                hh = _hash_node(store, c) & (nh - 1)
                                while ntable[hh] != -1:
                                    hh = (hh + 1) & (nh - 1)
                                ntable[hh] = c
                        table = ntable
                        hcap = nh
            sym = prev[d - 1] - 1
            tchild[d - 1, sym] = off
            if tfinal[d]:
                tends[d - 1] |= 1 << sym
        if si == nstr:
            break
        for d in range(p + 1, slen + 1):
            tmask[d] = 0
            tends[d] = 0
            tfinal[d] = False
            tmask[d - 1] |= 1 << (row[d - 1] - 1)
        tfinal[slen] = True
        for i in range(slen):
            prev[i] = row[i]
        prevlen = slen
    # the root is temporary node 0
    mask = tmask[0]
    off = top
    if top + 30 > cap:
        nstore = np.zeros(cap + 64, np.int32)
        nstore[:top] = store[:top]
        store = nstore
    store[top] = mask
    store[top + 1] = tends[0]
    n = 2
    m = mask
    while m:
        b = 0
        while not (m >> b) & 1:
            b += 1
        store[top + n] = tchild[0, b]
        n += 1
        m &= m - 1
    top += n
    store[1] = off
    return store[:top].copy()


@nb.njit(cache=CACHE)
def _to_arcs(store: np.ndarray) -> np.ndarray:  # pragma: no cover
    """The construction layout of :func:`_build` in the layout of the module doc.

    Nodes are laid out breadth first from the root, so the children of a node sit
    side by side and the most used nodes (those near the root) share few cache
    lines. (In a trace of the move generator over real positions this cut the
    misses of a 512 KiB cache by a fifth against the construction order.)
    """
    n = store.shape[0]
    newoff = np.full(n, -1, np.int64)
    queue = np.empty(n // 2 + 1, np.int64)
    root = store[1]
    queue[0] = root
    newoff[root] = HEADER
    head = 0
    tail = 1
    top = HEADER
    while head < tail:
        pos = queue[head]
        head += 1
        m = store[pos]
        k = 0
        while m:
            m &= m - 1
            k += 1
        top += 1 + 2 * k
        for j in range(k):
            child = store[pos + 2 + j]
            if newoff[child] < 0:
                newoff[child] = 0  # queued; its offset is set when it is laid out
                queue[tail] = child
                tail += 1
        if head < tail:
            newoff[queue[head]] = top
    out = np.zeros(top, np.int32)
    out[0] = MAGIC
    out[1] = newoff[root]
    out[2] = store[2]
    out[3] = store[root]
    out[4] = tail
    for q in range(tail):
        pos = queue[q]
        m = store[pos]
        t = newoff[pos]
        out[t] = store[pos + 1]
        k = 0
        while m:
            m &= m - 1
            child = store[pos + 2 + k]
            out[t + 1 + 2 * k] = newoff[child]
            out[t + 2 + 2 * k] = store[child]
            k += 1
    return out


def build(words: Iterable[str]) -> np.ndarray:
    """Build the GADDAG of some words (A-Z, 2..21 letters; case is ignored)."""
    letters, lengths = _encode_words(words)
    strings = _gaddag_strings(letters, lengths)
    # sort rows lexicographically: 22 symbols of 5 bits packed into two uint64 keys
    hi, lo = _sort_keys(strings)
    order = np.lexsort((lo, hi)).astype(np.int64)
    return _to_arcs(_build(strings, order, len(lengths)))


def words_hash(words: Sequence[str]) -> str:
    """A hash of a word list's content (order and case insensitive)."""
    h = hashlib.sha256()
    h.update(f"gaddag-v{FORMAT_VERSION}\n".encode())
    text = "\n".join(sorted({w.strip().upper() for w in words}))
    h.update(text.encode("ascii", "replace"))
    h.update(b"\n")
    return h.hexdigest()[:24]


def load_or_build(words: Sequence[str], cache_dir: Path | None = None) -> np.ndarray:
    """The GADDAG of ``words``, loaded from ``cache_dir`` when built before.

    The cache file name is a hash of the word list's content. ``cache_dir``
    ``None`` builds without caching. A loaded graph is memory-mapped read-only.
    """
    if cache_dir is None:
        return build(words)
    cache_dir = Path(cache_dir)
    path = cache_dir / f"gaddag-{words_hash(words)}.npy"
    if path.exists():
        try:
            g = np.load(path, mmap_mode="r")
            if g.dtype == np.int32 and g.ndim == 1 and len(g) > HEADER and g[0] == MAGIC:
                return g
        except (OSError, ValueError):
            pass
    g = build(words)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
    np.save(tmp, g)
    os.replace(tmp, path)
    return g


def default_cache_dir() -> Path:
    """The user's cache folder (:func:`qiza.paths.user_cache_dir`; ``QIZA_CACHE_DIR`` overrides)."""
    from qiza.paths import user_cache_dir

    return user_cache_dir()


# -- queries (for tests and tools; the move generator has its own compiled ones) ----------

def _child(g: np.ndarray, node: int, mask: int, sym: int) -> tuple[int, int]:
    """The child of ``node`` (children ``mask``) along ``sym`` and its children mask; (-1, 0) if none."""
    if not (mask >> sym) & 1:
        return -1, 0
    k = bin(mask & ((1 << sym) - 1)).count("1")
    return int(g[node + 1 + 2 * k]), int(g[node + 2 + 2 * k])


def arcs(g: np.ndarray, node: int, mask: int) -> Iterator[tuple[int, int, int]]:
    """(symbol, child offset, child's children mask) of each arc of ``node`` (children ``mask``)."""
    k = 0
    for sym in range(28):
        if (mask >> sym) & 1:
            yield sym, int(g[node + 1 + 2 * k]), int(g[node + 2 + 2 * k])
            k += 1


def contains(g: np.ndarray, word: str) -> bool:
    """Whether a word is in the graph (checked along its fully reversed path)."""
    word = word.upper()
    if len(word) < 2:
        return False
    node, mask = int(g[1]), int(g[3])
    rev = [ord(c) - 64 for c in reversed(word)]
    for sym in rev[:-1]:
        node, mask = _child(g, node, mask, sym)
        if node < 0:
            return False
    return bool((int(g[node]) >> rev[-1]) & 1)


def words(g: np.ndarray) -> list[str]:
    """Every word of the graph, sorted (from the fully reversed paths)."""
    out: list[str] = []
    stack: list[tuple[int, int, str]] = [(int(g[1]), int(g[3]), "")]
    while stack:
        node, mask, path = stack.pop()
        ends = int(g[node])
        for sym, child, cmask in arcs(g, node, mask):
            if sym == SEP:
                continue
            letter = chr(64 + sym)
            if (ends >> sym) & 1:
                out.append((path + letter)[::-1])
            stack.append((child, cmask, path + letter))
    out.sort()
    return out


def node_count(g: np.ndarray) -> int:
    """Number of nodes in the graph."""
    return int(g[4])
