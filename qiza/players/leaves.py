"""Leave values: what the tiles kept on the rack are worth for the turns to come.

A :class:`LeaveModel` values a leave (a multiset of tiles, as 27 counts with index 0 the
blank) in three layers:

* a *superleave table* of exact leaves (``"AER?"`` -> value) learned by self-play for the
  leaves seen often enough;
* a feature model for every other leave: per-tile counts (first, second and third copy of
  each tile), the vowel/consonant balance and synergy pairs (two different tiles kept
  together, such as ``QU``, ``ER``, ``?S``, ``NG``);
* per-tile linear values (27 numbers), the fast path used by
  :meth:`qiza.movegen.MoveGenerator.best` in simulations and training.

The trained model ships as ``qiza/data/leaves.json`` (see :mod:`qiza.players.train`, which
records the training run's size and time in the file). Without it a hand-made model is used.

:meth:`LeaveModel.rack_leaves` values every sub-leave of a rack at once (numpy, at most 128
for seven different tiles): the static player uses it for all placements and exchanges.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from qiza.players.leave_table import FullTable, build

VOWELS = (1, 5, 9, 15, 21)  # A E I O U
LETTERS = "?ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_VC = 9
MAX_RACK_TILES = 9

# hand-made starting values (points) of a single tile kept, index 0 = blank
_HAND_TILES = [25.0, 1.0, -2.0, 0.5, 0.5, 3.5, -2.0, -2.0, 1.0, -0.5, -2.5, -1.5, -0.5, 0.5,
               0.5, -1.5, -0.5, -7.0, 1.5, 8.0, 0.0, -3.0, -5.5, -3.5, 3.5, -1.0, 2.0]


def leave_key(counts: Sequence[int] | np.ndarray) -> str:
    """The leave as sorted text, blanks first (``?AER``): the superleave table's key."""
    return "".join(LETTERS[i] * int(counts[i]) for i in range(27))


def key_counts(key: str) -> np.ndarray:
    """27 counts of a leave key (inverse of :func:`leave_key`)."""
    counts = np.zeros(27, np.int32)
    for ch in key:
        counts[LETTERS.index(ch)] += 1
    return counts


def features(counts: Sequence[int] | np.ndarray) -> list[str]:
    """The names of the features present in a leave (each with value 1)."""
    out = []
    vowels = consonants = 0
    for t in range(27):
        c = int(counts[t])
        if not c:
            continue
        for k in range(1, min(c, 3) + 1):
            out.append(f"{LETTERS[t]}{k}")
        if t in VOWELS:
            vowels += c
        elif t:
            consonants += c
    out.append(f"v{min(vowels, MAX_VC)}c{min(consonants, MAX_VC)}")
    present = [t for t in range(27) if counts[t]]
    for i, t in enumerate(present):
        for u in present[i + 1:]:
            out.append(LETTERS[t] + LETTERS[u])
    return out


class RackLeaves:
    """Every sub-leave of one rack, indexed by a mixed-radix code.

    ``code`` of a leave = sum over the rack's tiles of (copies kept) x ``radix[tile]``; the
    whole rack is ``full``. ``counts[code]`` are the leave's 27 counts, ``values[code]`` its
    value, ``keys[code]`` its table key (``?AER``).
    """

    __slots__ = ("radix", "full", "counts", "values", "keys", "sizes")

    def __init__(self, radix: np.ndarray, full: int, counts: np.ndarray, values: np.ndarray,
                 keys: list[str]) -> None:
        self.radix = radix
        self.full = full
        self.counts = counts
        self.values = values
        self.keys = keys
        self.sizes = counts.sum(axis=1)


class LeaveModel:
    """Values of leaves: superleave table, then feature weights (see the module doc)."""

    def __init__(self, weights: Mapping[str, float], table: Mapping[str, float] | None = None,
                 tile_values: Sequence[float] | None = None, meta: Mapping[str, Any] | None = None,
                 full: FullTable | None = None) -> None:
        self.weights = dict(weights)
        self.table = dict(table or {})
        self.tile_values = np.asarray(tile_values if tile_values is not None else _HAND_TILES, np.float64)
        self.meta = dict(meta or {})
        self.full = full
        """Values of every leave of up to six tiles of the English set (see :class:`FullTable`)."""
        self._cache: dict[str, float] = {}
        self._compile()

    def _compile(self) -> None:
        """Feature weights as arrays for :meth:`values_of`."""
        w = self.weights
        copies = np.zeros((27, MAX_RACK_TILES + 1))
        for t in range(27):
            for k in range(1, MAX_RACK_TILES + 1):
                copies[t, k] = copies[t, k - 1] + (w.get(f"{LETTERS[t]}{k}", 0.0) if k <= 3 else 0.0)
        vc = np.zeros((MAX_VC + 1, MAX_VC + 1))
        for v in range(MAX_VC + 1):
            for c in range(MAX_VC + 1):
                vc[v, c] = w.get(f"v{v}c{c}", 0.0)
        pairs = np.zeros((27, 27))
        for t in range(27):
            for u in range(t + 1, 27):
                pairs[t, u] = w.get(LETTERS[t] + LETTERS[u], 0.0)
        self._copies, self._vc, self._pairs = copies, vc, pairs
        self._rack_cache: dict[str, RackLeaves] = {}

    def values_of(self, counts: np.ndarray) -> np.ndarray:
        """Values of many leaves at once (``counts``: m x 27); the superleave table first."""
        counts = np.asarray(counts)
        clipped = np.minimum(counts, MAX_RACK_TILES)
        value = self._copies[np.arange(27)[None, :], clipped].sum(axis=1)
        vowels = np.minimum(counts[:, list(VOWELS)].sum(axis=1), MAX_VC)
        consonants = np.minimum(counts[:, 1:].sum(axis=1) - counts[:, list(VOWELS)].sum(axis=1), MAX_VC)
        value += self._vc[vowels, consonants]
        present = (counts > 0).astype(np.float64)
        value += ((present @ self._pairs) * present).sum(axis=1)
        value[counts.sum(axis=1) == 0] = 0.0
        return value

    def rack_leaves(self, rack: Sequence[int] | np.ndarray) -> RackLeaves:
        """Every sub-leave of a rack (27 counts) with its value (see :class:`RackLeaves`)."""
        rack = np.asarray(rack)
        full_key = leave_key(rack)
        got = self._rack_cache.get(full_key)
        if got is not None:
            return got
        radix = np.zeros(27, np.int64)
        keys = [""]
        n = 1
        tiles = [t for t in range(27) if rack[t]]
        for t in tiles:
            radix[t] = n
            c = int(rack[t])
            ch = LETTERS[t]
            keys = [k + ch * j for j in range(c + 1) for k in keys]
            n *= c + 1
        codes = np.arange(n)
        counts = np.zeros((n, 27), np.int32)
        for t in tiles:
            counts[:, t] = (codes // radix[t]) % (int(rack[t]) + 1)
        full = self.full
        if full is not None:  # the full table for the leaves it holds, the model for the others
            inside = full.index.valid(counts)
            values = np.empty(n, np.float64)
            values[inside] = full.values[full.index.ranks(counts[inside])]
            outside = np.flatnonzero(~inside)
            if len(outside):
                values[outside] = self.values_of(counts[outside])
        else:
            outside = np.arange(n)
            values = self.values_of(counts)
        table = self.table
        if table:
            for i in outside.tolist():
                v = table.get(keys[i])
                if v is not None:
                    values[i] = v
        result = RackLeaves(radix, n - 1, counts, values, keys)
        if len(self._rack_cache) > 20_000:
            self._rack_cache.clear()
        self._rack_cache[full_key] = result
        return result

    # -- values ---------------------------------------------------------------------------
    def value(self, counts: Sequence[int] | np.ndarray) -> float:
        """Value in points of keeping these tiles (27 counts)."""
        return self.value_key(leave_key(counts), counts)

    def value_key(self, key: str, counts: Sequence[int] | np.ndarray | None = None) -> float:
        """Value of a leave given by its key (counts optional, to save the conversion)."""
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if not key:
            value = 0.0
        elif self.full is not None and self.full.index.valid(
                c := np.asarray(counts if counts is not None else key_counts(key)).reshape(1, 27))[0]:
            value = float(self.full.values[self.full.index.ranks(c)[0]])
        elif key in self.table:
            value = self.table[key]
        else:
            c = np.asarray(counts if counts is not None else key_counts(key)).reshape(1, 27)
            value = float(self.values_of(c)[0])
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[key] = value
        return value

    def text_value(self, rack_text: str) -> float:
        """Value of a leave written as rack text (``AER?``)."""
        counts = np.zeros(27, np.int32)
        for ch in rack_text.upper():
            counts[0 if ch == "?" else ord(ch) - 64] += 1
        return self.value(counts)

    # -- storage -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"format": "qiza-leaves", "version": 1, "meta": self.meta,
                "tile_values": {LETTERS[i]: round(float(v), 3) for i, v in enumerate(self.tile_values)},
                "weights": {k: round(v, 3) for k, v in sorted(self.weights.items())},
                "table": {k: round(v, 2) for k, v in sorted(self.table.items(), key=lambda kv: (len(kv[0]), kv[0]))}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LeaveModel:
        if data.get("format") != "qiza-leaves":
            raise ValueError("not a qiza leave-value file")
        tiles = data["tile_values"]
        return cls(data["weights"], data.get("table", {}), [float(tiles[ch]) for ch in LETTERS], data.get("meta"))

    def with_full_table(self, observed: Mapping[str, float] | None = None) -> LeaveModel:
        """This model with its :class:`~qiza.players.leave_table.FullTable` built: the superleave
        table and ``observed`` values (by leave key) over the feature model."""
        table = build(self.values_of, {**self.table, **(observed or {})})
        return LeaveModel(self.weights, self.table, self.tile_values.tolist(), self.meta, table)

    def with_table_file(self, read: Callable[[str], bytes]) -> LeaveModel:
        """This model with the full table its metadata names (``read(file name)`` gives the
        file's bytes), or this model itself when it names none."""
        entry = self.meta.get("full_table")
        if not isinstance(entry, dict):
            return self
        table = FullTable.from_bytes(read(str(entry["file"])))
        return LeaveModel(self.weights, self.table, self.tile_values.tolist(), self.meta, table)

    def save(self, path: str | Path) -> None:
        """Write the model as JSON, and its full table beside it (``<name>-table.npy``)."""
        path = Path(path)
        if self.full is not None:
            name = f"{path.stem}-table.npy"
            self.full.save(path.with_name(name))
            self.meta["full_table"] = self.full.describe(name)
        else:
            self.meta.pop("full_table", None)
        path.write_text(json.dumps(self.to_dict(), indent=0, separators=(",", ":")) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> LeaveModel:
        """Read a model written by :meth:`save` (with its full table when it has one)."""
        path = Path(path)
        model = cls.from_dict(json.loads(path.read_text()))
        return model.with_table_file(lambda name: path.with_name(name).read_bytes())

    @classmethod
    def hand_made(cls) -> LeaveModel:
        """A reasonable model without training: single-tile values, duplicate and balance penalties."""
        weights: dict[str, float] = {}
        for t, v in enumerate(_HAND_TILES):
            weights[f"{LETTERS[t]}1"] = v
            weights[f"{LETTERS[t]}2"] = -3.0 if t else -5.0
            weights[f"{LETTERS[t]}3"] = -5.0
        for v in range(MAX_VC + 1):
            for c in range(MAX_VC + 1):
                n = v + c
                if n == 0:
                    continue
                ideal = n * 0.42
                weights[f"v{v}c{c}"] = -1.5 * abs(v - ideal) ** 1.5
        weights["QU"] = 5.0
        return cls(weights, {}, _HAND_TILES, {"source": "hand-made"})


DATA_FILE = "leaves.json"


@lru_cache(maxsize=4)
def default_model(rack_size: int = 7) -> LeaveModel:
    """The shipped trained model (``qiza/data/leaves.json`` and its full table
    ``leaves-table.npy``), or the hand-made one if absent. Racks of 8 and 9 tiles have models
    of their own (``leaves-8.json``, ``leaves-9.json``, trained on games with those racks)
    when shipped; other sizes use the seven-tile model."""
    name = DATA_FILE if rack_size == 7 else f"leaves-{rack_size}.json"
    try:
        folder = resources.files("qiza").joinpath("data")
        if not folder.joinpath(name).is_file():
            if rack_size == 7:
                return LeaveModel.hand_made()
            return default_model(7)
        model = LeaveModel.from_dict(json.loads(folder.joinpath(name).read_text()))
        model = model.with_table_file(lambda file: folder.joinpath(file).read_bytes())
    except (FileNotFoundError, OSError, ModuleNotFoundError):
        return LeaveModel.hand_made()
    return model
