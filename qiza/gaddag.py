"""A compiled GADDAG word graph stored as one flat integer numpy array.

Layout of the array ``g``:

* ``g[0]`` = :data:`MAGIC`, ``g[1]`` = offset of the root node, ``g[2]`` = number
  of words, ``g[3]`` = children bitmask of the root, ``g[4]`` = number of nodes,
  ``g[5]`` = the number of letters of the alphabet (:func:`letter_count`), ``g[6..7]`` reserved.
* A node at offset ``n`` is ``g[n]`` = its "ends a word" bitmask, then one arc per
  child in increasing symbol order: ``g[n + 1 + 2k]`` is the offset of the k-th
  child and ``g[n + 2 + 2k]`` that child's children bitmask. A node's own children
  mask is held by the arc that leads to it (the root's in the header), so a search
  learns what a child accepts without touching the child's memory.

Bit 0 of a mask is the GADDAG separator (:data:`SEP`), bits 1..N are the letters
(the tile codes of :mod:`qiza.alphabet`: ``A``..``Z`` for English, up to
:data:`MAX_LETTERS`). The array is ``int32`` for alphabets of up to
:data:`NARROW_LETTERS` letters (every English-like set) and ``int64`` above that
(Polish has 32 letters), so that a mask holds every letter. Bit ``x`` of the ends
mask of node ``n`` says that the path to ``n`` followed by ``x`` is a complete
GADDAG string. For every word ``w`` of length ``k`` the graph holds
``rev(w[:i]) + SEP + w[i:]`` for ``1 <= i < k`` and ``rev(w)``. The separator,
being bit 0, is always a node's first arc.

Words are given as *code strings*, one character ``chr(64 + code)`` per tile
(:meth:`qiza.alphabet.TileSet.code_string`): for English that is the word itself.

The graph is minimised (equal sub-graphs are shared) and built by a compiled
incremental construction over the sorted GADDAG strings, which takes a few
seconds for the 270k words of SOWPODS.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import numba as nb
import numpy as np

from qiza.errors import quoted
from qiza.jitcache import CACHE

MAGIC = 0x32474447  # "GDG2"
"""First int of every graph array (of this layout)."""
HEADER = 8
"""Number of header ints before the first node."""
SEP = 0
"""Mask bit (and arc label) of the GADDAG separator."""
MAX_WORD = 21
"""Longest word accepted (the largest supported board is 21 squares wide)."""
MAX_LETTERS = 63
"""The most letters an alphabet may have (the blank flag 0x40 sits above them)."""
NARROW_LETTERS = 30
"""Alphabets of up to this many letters get an ``int32`` graph (a mask is bits 0..30)."""
FORMAT_VERSION = 4  # 4: the alphabet's size in g[5], int64 graphs for more than 30 letters


def _upper(words: Iterable[str], letters: int) -> list[str]:
    """Stripped words, upper-cased when no code character can be a lower-case letter."""
    if letters <= 32:  # codes up to 32 are chr(65)..chr(96): upper-casing changes no code
        return [w.strip().upper() for w in words]
    return [w.strip() for w in words]


def _encode_words(words: Iterable[str], letters: int = 26) -> tuple[np.ndarray, np.ndarray]:
    """Code strings as a (n, MAX_WORD) uint8 array of letters 1..``letters`` (0-padded) and their lengths."""
    clean = sorted(set(_upper(words, letters)))
    clean = [w for w in clean if 2 <= len(w) <= MAX_WORD]
    n = len(clean)
    if n == 0:
        return np.zeros((0, MAX_WORD), np.uint8), np.zeros(0, np.int32)
    lengths = np.fromiter(map(len, clean), dtype=np.int32, count=n)
    what = "A-Z" if letters == 26 else f"the {letters} letter codes"
    try:
        blob = "".join(w.ljust(MAX_WORD, "@") for w in clean).encode("ascii")
    except UnicodeEncodeError:
        bad = next(w for w in clean if not w.isascii())
        raise ValueError(f"word {quoted(bad)} has characters other than {what}") from None
    arr = np.frombuffer(blob, dtype=np.uint8).reshape(n, MAX_WORD) - np.uint8(64)
    inside = np.arange(MAX_WORD)[None, :] < lengths[:, None]
    ok = np.where(inside, (arr >= 1) & (arr <= letters), arr == 0)
    if not ok.all():
        bad = clean[int(np.flatnonzero(~ok.all(axis=1))[0])]
        raise ValueError(f"word {quoted(bad)} has characters other than {what}")
    return np.ascontiguousarray(arr), lengths


@nb.njit(cache=CACHE)
def _sort_keys(strings: np.ndarray) -> np.ndarray:  # pragma: no cover
    """Three uint64 keys per row (9, 9 and 4 symbols of 7 bits) that sort like the rows
    (``keys[0]`` most significant)."""
    n, width = strings.shape
    keys = np.zeros((3, n), np.uint64)
    for i in range(n):
        for k in range(3):
            a = np.uint64(0)
            for j in range(9 * k, 9 * k + 9):
                v = np.uint64(strings[i, j]) if j < width else np.uint64(0)
                a = (a << np.uint64(7)) | v
            keys[k, i] = a
    return keys


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
        h = (h ^ np.uint64(store[off + i])) * np.uint64(1099511628211)
    return np.int64(h >> np.uint64(1))


@nb.njit(cache=CACHE)
def _build(strings: np.ndarray, order: np.ndarray, nwords: int) -> np.ndarray:  # pragma: no cover
    """Incremental minimal-graph construction over sorted GADDAG strings.

    Produces the construction layout (a node is its children mask, its ends mask, then
    one child offset per child; 4 header ints), which :func:`_to_arcs` converts."""
    width = strings.shape[1]
    cap = 1 << 20
    store = np.zeros(cap, np.int64)
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
    tmask = np.zeros(width + 1, np.int64)
    tends = np.zeros(width + 1, np.int64)
    tfinal = np.zeros(width + 1, np.bool_)
    tchild = np.zeros((width + 1, MAX_LETTERS + 1), np.int64)
    prev = np.zeros(width, np.uint8)
    prevlen = 0
    node_buf = np.zeros(MAX_LETTERS + 3, np.int64)
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
                    h = (h ^ np.uint64(node_buf[i])) * np.uint64(1099511628211)
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
                        nstore = np.zeros(ncap, np.int64)
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
                tends[d - 1] |= np.int64(1) << sym
        if si == nstr:
            break
        for d in range(p + 1, slen + 1):
            tmask[d] = 0
            tends[d] = 0
            tfinal[d] = False
            tmask[d - 1] |= np.int64(1) << (row[d - 1] - 1)
        tfinal[slen] = True
        for i in range(slen):
            prev[i] = row[i]
        prevlen = slen
    # the root is temporary node 0
    mask = tmask[0]
    off = top
    if top + MAX_LETTERS + 3 > cap:
        nstore = np.zeros(cap + 2 * MAX_LETTERS, np.int64)
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
def _to_arcs(store: np.ndarray, letters: int) -> np.ndarray:  # pragma: no cover
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
    out = np.zeros(top, np.int64)
    out[0] = MAGIC
    out[1] = newoff[root]
    out[2] = store[2]
    out[3] = store[root]
    out[4] = tail
    out[5] = letters
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


def build(words: Iterable[str], letters: int = 26) -> np.ndarray:
    """Build the GADDAG of some words: code strings (:meth:`~qiza.alphabet.TileSet.code_string`)
    of 2..21 tiles of an alphabet of ``letters`` letters; for English, words of ``A``-``Z``
    (case is ignored). ``int32`` for up to :data:`NARROW_LETTERS` letters, else ``int64``."""
    if not 1 <= letters <= MAX_LETTERS:
        raise ValueError(f"an alphabet has 1..{MAX_LETTERS} letters, not {letters}")
    codes, lengths = _encode_words(words, letters)
    strings = _gaddag_strings(codes, lengths)
    keys = _sort_keys(strings)
    order = np.lexsort((keys[2], keys[1], keys[0])).astype(np.int64)
    g = _to_arcs(_build(strings, order, len(lengths)), letters)
    if letters <= NARROW_LETTERS:
        if len(g) >= 1 << 31:
            raise ValueError("word graph too large")
        return g.astype(np.int32)
    return g


def letter_count(g: np.ndarray) -> int:
    """The number of letters of the alphabet a graph was built for."""
    return int(g[5])


def words_hash(words: Sequence[str], letters: int = 26) -> str:
    """A hash of a word list's content (order insensitive; case too for up to 32 letters)."""
    h = hashlib.sha256()
    h.update(f"gaddag-v{FORMAT_VERSION}-{letters}\n".encode())
    text = "\n".join(sorted(set(_upper(words, letters))))
    h.update(text.encode("utf-8", "replace"))
    h.update(b"\n")
    return h.hexdigest()[:24]


def load_or_build(words: Sequence[str] | Callable[[], Sequence[str]], cache_dir: Path | None = None,
                  letters: int = 26, *, key: str | None = None) -> np.ndarray:
    """The GADDAG of ``words`` (see :func:`build`), loaded from ``cache_dir`` when built before.

    The cache file name is a hash of the word list's content, or of ``key`` when given (a hash
    of where the words came from, so that a list of millions of words is not hashed at each
    start; ``words`` may then be a function giving them, called only to build). ``cache_dir``
    ``None`` builds without caching. A loaded graph is memory-mapped read-only.
    """
    def the_words() -> Sequence[str]:
        return words() if callable(words) else words

    if cache_dir is None:
        return build(the_words(), letters)
    cache_dir = Path(cache_dir)
    if key is None:
        name = words_hash(the_words(), letters)
    else:
        name = "k" + hashlib.sha256(f"gaddag-v{FORMAT_VERSION}-{letters}\n{key}".encode()).hexdigest()[:24]
    path = cache_dir / f"gaddag-{name}.npy"
    dtype = np.int32 if letters <= NARROW_LETTERS else np.int64
    if path.exists():
        try:
            g: np.ndarray = np.load(path, mmap_mode="r")
            if g.dtype == dtype and g.ndim == 1 and len(g) > HEADER and g[0] == MAGIC and g[5] == letters:
                return g
        except (OSError, ValueError):
            pass
    g = build(the_words(), letters)
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
    for sym in range(MAX_LETTERS + 1):
        if (mask >> sym) & 1:
            yield sym, int(g[node + 1 + 2 * k]), int(g[node + 2 + 2 * k])
            k += 1


def contains(g: np.ndarray, word: str) -> bool:
    """Whether a word (a code string) is in the graph (checked along its fully reversed path)."""
    if letter_count(g) <= 32:
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
    """Every word of the graph as code strings, sorted (from the fully reversed paths)."""
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
